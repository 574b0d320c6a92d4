/* compare_sweep.c: the arrays of a comparison: each --arch, or one --arch
 * swept over attributes of its <architecture> element (--param
 * cgra-rows=4,6).  A sweep's instance is the file's text with the
 * attributes set in the start tag (nothing else moves, so its messages
 * keep the file's name and lines); the run labels it
 * "mesh.xml[cgra-rows=6]". */
#include "cli/compare.h"

#include "common/diag.h"
#include "common/input.h"
#include "common/util.h"
#include "xml/xml.h"

#include <ctype.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

int cg_cli_cmp_add_arch(cg_cli_cmp_opts *c, const char *path)
{
    if (c->narch == CG_CLI_MAX_ARCHS) {
        fprintf(stderr, "cgramap: more than %d --arch options; compare "
                "fewer arrays at once\n", CG_CLI_MAX_ARCHS);
        return -1;
    }
    for (int i = 0; i < c->narch; i++)
        if (strcmp(c->arch[i], path) == 0) {
            /* its rows could not be told apart from the first's */
            fprintf(stderr, "cgramap: --arch %s is given twice; compare "
                    "each array once\n", path);
            return -1;
        }
    c->arch[c->narch++] = path;
    return 0;
}

static int param_syntax(const char *spec)
{
    fprintf(stderr, "cgramap: Invalid value for --param: %s (NAME=V1,V2,... "
            "with NAME an attribute of <architecture>, e.g. "
            "cgra-rows=4,6,8; no empty value, no quote, '<' or '&')\n",
            spec);
    return -1;
}

/* Split the values after '=' into p; -1 on an empty or unquotable one,
 * -2 past CG_CLI_MAX_VALUES. */
static int param_values(const char *v, cg_cli_param *p)
{
    for (;;) {
        size_t n = strcspn(v, ",");
        if (p->nvalue == CG_CLI_MAX_VALUES)
            return -2;
        if (n == 0)
            return -1;
        for (size_t i = 0; i < n; i++)
            if (strchr("\"'<&", v[i]) || isspace((unsigned char)v[i]))
                return -1;
        p->value[p->nvalue] = v;
        p->len[p->nvalue++] = (int)n;
        if (!v[n])
            return 0;
        v += n + 1;
    }
}

int cg_cli_cmp_add_param(cg_cli_cmp_opts *c, const char *spec)
{
    const char *eq = strchr(spec, '=');
    size_t n = eq ? (size_t)(eq - spec) : 0;
    if (c->nparam == CG_CLI_MAX_PARAMS) {
        fprintf(stderr, "cgramap: more than %d --param options\n",
                CG_CLI_MAX_PARAMS);
        return -1;
    }
    cg_cli_param *p = &c->param[c->nparam];
    memset(p, 0, sizeof *p);
    if (n == 0 || n >= sizeof p->name || !isalpha((unsigned char)spec[0]))
        return param_syntax(spec);
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)spec[i]) && !strchr("-_", spec[i]))
            return param_syntax(spec);
    memcpy(p->name, spec, n);
    for (int i = 0; i < c->nparam; i++)
        if (strcmp(c->param[i].name, p->name) == 0) {
            fprintf(stderr, "cgramap: --param %s is given twice; list all "
                    "its values in one (--param %s=V1,V2,...)\n", p->name,
                    p->name);
            return -1;
        }
    int rc = param_values(eq + 1, p);
    if (rc == -2)
        fprintf(stderr, "cgramap: --param %s has more than %d values; sweep "
                "fewer at once\n", p->name, CG_CLI_MAX_VALUES);
    if (rc == -1)
        param_syntax(spec);
    if (rc < 0)
        return -1;
    c->nparam++;
    return 0;
}

int cg_cli_cmp_check(const cg_cli_cmp_opts *c)
{
    if (c->nparam && c->narch != 1) {
        fprintf(stderr, "cgramap: --param sweeps one architecture file: "
                "give exactly one --arch FILE.xml with it (got %d)\n",
                c->narch);
        return -1;
    }
    return 0;
}

bool cg_cli_cmp_wanted(const cg_cli_cmp_opts *c)
{
    return c->narch > 1 || c->nparam > 0 || c->report_dir || c->area;
}

/* "cgra-rows=6,cgra-cols=4" for the instance numbered k of the sweep
 * (mixed radix, the last --param varying fastest). */
static char *instance_params(const cg_cli_cmp_opts *c, int k)
{
    char buf[1024] = "";
    size_t at = 0;
    for (int i = c->nparam - 1; i >= 0; i--) {
        const cg_cli_param *p = &c->param[i];
        int v = k % p->nvalue;
        k /= p->nvalue;
        char one[256];
        snprintf(one, sizeof one, "%s=%.*s%s", p->name, p->len[v],
                 p->value[v], at ? "," : "");
        size_t n = strlen(one);
        memmove(buf + n, buf, at + 1);
        memcpy(buf, one, n);
        at += n;
    }
    return strdup(buf);
}

static char *file_name(const char *path)
{
    char *copy = strdup(path);
    char *name = strdup(basename(copy));
    free(copy);
    return name;
}

static char *label_of(const char *name, const char *params)
{
    size_t n = strlen(name) + (params ? strlen(params) + 2 : 0) + 1;
    char *s = malloc(n);
    snprintf(s, n, params ? "%s[%s]" : "%s", name, params);
    return s;
}

/* Two files of one name in different folders: their paths tell them
 * apart. */
static void unique_labels(const cg_cli_cmp_opts *c, cg_cli_array *v, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i != j && v[i].path && v[j].path &&
                strcmp(v[i].path, v[j].path) != 0 &&
                strcmp(v[i].label, v[j].label) == 0) {
                free(v[i].label);
                v[i].label = label_of(v[i].path, v[i].params);
                break;
            }
    (void)c;
}

int cg_cli_arrays(const cg_cli_cmp_opts *c, cg_cli_array *out, int *n)
{
    int count = c->narch ? c->narch : 1;
    if (c->nparam) {
        count = 1;
        for (int i = 0; i < c->nparam; i++)
            count *= c->param[i].nvalue; /* at most 16^4 */
    }
    if (count > CG_CLI_MAX_ARRAYS) {
        fprintf(stderr, "cgramap: the --param values make %d arrays, more "
                "than %d; sweep fewer values at once\n", count,
                CG_CLI_MAX_ARRAYS);
        return -1;
    }
    memset(out, 0, sizeof *out * (size_t)count);
    for (int i = 0; i < count; i++) {
        cg_cli_array *x = &out[i];
        x->path = c->narch ? c->arch[c->nparam ? 0 : i] : NULL;
        x->params = c->nparam ? instance_params(c, i) : NULL;
        char *name = x->path ? file_name(x->path) : strdup("default 4x4");
        x->label = label_of(name, x->params);
        free(name);
    }
    unique_labels(c, out, count);
    *n = count;
    return 0;
}

void cg_cli_arrays_free(cg_cli_array *v, int n)
{
    for (int i = 0; i < n; i++) {
        free(v[i].label);
        free(v[i].params);
        free(v[i].why);
        free(v[i].area.why);
    }
}

void cg_cli_array_why(cg_cli_array *x, const char *line)
{
    size_t old = x->why ? strlen(x->why) : 0, n = strlen(line);
    char *s = realloc(x->why, old + n + 2);
    if (!s)
        return; /* the report then says less, the run's output all */
    if (old)
        s[old++] = '\n';
    memcpy(s + old, line, n + 1);
    x->why = s;
}

/* ---- setting an attribute of <architecture> ----------------------------- */

/* Past the markup at s that is not an element (comment, CDATA,
 * processing instruction, declaration), or s itself when it is none. */
static const char *skip_markup(const char *s)
{
    static const char *const ends[][2] = {
        {"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"<?", "?>"}, {"<!", ">"},
    };
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
        if (strncmp(s, ends[i][0], strlen(ends[i][0])) == 0) {
            const char *e = strstr(s + strlen(ends[i][0]), ends[i][1]);
            return e ? e + strlen(ends[i][1]) : s + strlen(s);
        }
    return s;
}

static const char *find_arch_tag(const char *t)
{
    static const char tag[] = "<architecture";
    while ((t = strchr(t, '<')) != NULL) {
        const char *after = skip_markup(t);
        if (after != t) {
            t = after;
            continue;
        }
        size_t n = sizeof tag - 1;
        if (strncmp(t, tag, n) == 0 &&
            (isspace((unsigned char)t[n]) || t[n] == '>' || t[n] == '/'))
            return t + n;
        t++;
    }
    return NULL;
}

/* In the start tag from s: the value of attribute name (*vb..*ve, inside
 * its quotes), or the end of the tag (*vb = *ve = where to insert). */
static bool find_attr(const char *s, const char *name, const char **vb,
                      const char **ve)
{
    size_t n = strlen(name);
    while (*s && *s != '>' && !(s[0] == '/' && s[1] == '>')) {
        while (isspace((unsigned char)*s))
            s++;
        const char *nb = s;
        while (*s && !isspace((unsigned char)*s) && !strchr("=>/", *s))
            s++;
        const char *ne = s;
        while (isspace((unsigned char)*s))
            s++;
        if (*s != '=') { /* malformed: the reader says so */
            s += s == nb; /* a stray character: step over it */
            continue;
        }
        s++;
        while (isspace((unsigned char)*s))
            s++;
        char q = *s;
        const char *e = (q == '"' || q == '\'') ? strchr(s + 1, q) : NULL;
        if (!e)
            break;
        if ((size_t)(ne - nb) == n && strncmp(nb, name, n) == 0) {
            *vb = s + 1, *ve = e;
            return true;
        }
        s = e + 1;
    }
    *vb = *ve = s;
    return false;
}

char *cg_cli_set_arch_attr(const char *text, const char *name,
                           const char *value, int vlen)
{
    const char *s = find_arch_tag(text), *vb, *ve;
    if (!s)
        return NULL;
    bool found = find_attr(s, name, &vb, &ve);
    char ins[320];
    if (found)
        snprintf(ins, sizeof ins, "%.*s", vlen, value);
    else
        snprintf(ins, sizeof ins, " %s=\"%.*s\"", name, vlen, value);
    size_t head = (size_t)(vb - text), tail = strlen(ve);
    char *out = malloc(head + strlen(ins) + tail + 1);
    memcpy(out, text, head);
    strcpy(out + head, ins);
    strcat(out + head, ve);
    return out;
}

/* ---- reading an array --------------------------------------------------- */

/* The instance's text: every --param of its label set in turn. */
static char *instance_text(const cg_cli_array *x, cg_diags *d)
{
    char *text = cg_input_read(x->path, "an .xml file", NULL, d);
    for (const char *p = x->params; text && *p;) {
        size_t n = strcspn(p, ","), eq = strcspn(p, "=");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)eq, p);
        char *next = cg_cli_set_arch_attr(text, name, p + eq + 1,
                                          (int)(n - eq - 1));
        if (!next)
            cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "no <architecture> "
                         "element to set --param %s on", name);
        free(text);
        text = next;
        p += n + (p[n] == ',');
    }
    return text;
}

cg_netlist *cg_cli_array_load(const cg_cli_array *x, const char *templates,
                              cg_arch **arch, cg_diags *d)
{
    *arch = NULL;
    if (!x->path)
        *arch = cg_arch_default(d);
    else if (!x->params)
        *arch = cg_xml_read(x->path, templates, d);
    else {
        char *text = instance_text(x, d);
        char *tmpl = templates ? cg_input_read(templates, "an .xml file",
                                               NULL, d) : NULL;
        if (text && (tmpl || !templates))
            *arch = cg_xml_read_memory(text, x->path, tmpl, templates, d);
        free(text);
        free(tmpl);
    }
    return *arch ? cg_arch_flatten(*arch, d) : NULL;
}
