/* extract_make.c: CGRA-ME's benchmark habit.  A benchmark folder's Makefile
 * sets LOOP_TAGS, DFG_FLAGS and CFLAGS and includes ../rules.mk; cgramap
 * reads the same three variables (simple "VAR = value" lines, also :=, ?=,
 * += and backslash continuations; everything else is make's business) and
 * understands the DFG flags of CGRA-ME plus --sym for symbol values.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "extract_internal.h"

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' ||
                 s[n - 1] == '\n'))
        s[--n] = 0;
    return s;
}

static int set_var(char **var, const char *op, const char *value)
{
    if (!strcmp(op, "?=") && *var)
        return 0;
    if (!strcmp(op, "+=") && *var) {
        size_t n = strlen(*var) + strlen(value) + 2;
        char *s = malloc(n);
        if (!s)
            return -1;
        snprintf(s, n, "%s %s", *var, value);
        free(*var);
        *var = s;
        return 0;
    }
    free(*var);
    *var = cg__ex_strdup(value);
    return *var ? 0 : -1;
}

/* One logical line: "NAME op value". */
static int assign(cg_extract_makefile *m, char *line)
{
    static const char *const ops[] = {":=", "?=", "+=", "="};
    char *at = NULL;
    const char *op = NULL;
    for (size_t i = 0; i < sizeof ops / sizeof *ops && !at; i++)
        if ((at = strstr(line, ops[i])))
            op = ops[i];
    if (!at)
        return 0;
    char *eq = strchr(line, '=');
    if (eq && eq < at) /* a plain '=' before the ':=' etc. */
        at = eq, op = "=";
    *at = 0;
    char *name = trim(line), *value = trim(at + strlen(op));
    char **var = !strcmp(name, "LOOP_TAGS") ? &m->loop_tags
               : !strcmp(name, "DFG_FLAGS") ? &m->dfg_flags
               : !strcmp(name, "CFLAGS") ? &m->cflags : NULL;
    return var ? set_var(var, op, value) : 0;
}

int cg_extract_makefile_read(const char *path, cg_extract_makefile *m,
                             cg_diags *d)
{
    memset(m, 0, sizeof *m);
    FILE *f = fopen(path, "r");
    if (!f) {
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "cannot read the Makefile: %s",
                     strerror(errno));
        return -1;
    }
    char buf[4096], line[16384];
    size_t len = 0;
    int rc = 0;
    while (rc == 0 && fgets(buf, sizeof buf, f)) {
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char *t = trim(buf);
        size_t n = strlen(t);
        bool cont = n && t[n - 1] == '\\';
        if (cont)
            t[--n] = 0;
        if (len + n + 2 < sizeof line) {
            memcpy(line + len, t, n);
            len += n;
            line[len++] = ' ';
            line[len] = 0;
        }
        if (!cont) {
            rc = assign(m, line);
            len = 0;
            line[0] = 0;
        }
    }
    if (rc == 0 && len)
        rc = assign(m, line);
    fclose(f);
    if (rc) {
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "out of memory");
        cg_extract_makefile_free(m);
    }
    return rc;
}

void cg_extract_makefile_free(cg_extract_makefile *m)
{
    free(m->loop_tags);
    free(m->dfg_flags);
    free(m->cflags);
    memset(m, 0, sizeof *m);
}

static int sym(cg_extract_params *p, char *w, const char *file, cg_diags *d)
{
    char *eq = w ? strchr(w, '=') : NULL;
    char *end = NULL;
    long long v = eq ? strtoll(eq + 1, &end, 0) : 0;
    if (!eq || eq == w || end == eq + 1 || *end) {
        cg_diags_add(d, CG_SEV_ERROR, file, 0, "--sym needs NAME=INTEGER, "
                     "got '%s'", w ? w : "");
        return -1;
    }
    if (p->nsyms == CG_EXTRACT_MAX_SYMS) {
        cg_diags_add(d, CG_SEV_ERROR, file, 0, "more than %d symbols",
                     CG_EXTRACT_MAX_SYMS);
        return -1;
    }
    *eq = 0;
    p->syms[p->nsyms].name = w;
    p->syms[p->nsyms++].value = v;
    return 0;
}

int cg_extract_params_parse(cg_extract_params *p, char *flags,
                            const char *file, cg_diags *d)
{
    char *save = NULL;
    int rc = 0;
    for (char *w = strtok_r(flags, " \t\n", &save); w;
         w = strtok_r(NULL, " \t\n", &save)) {
        if (!strcmp(w, "-no-phi-removal") || !strcmp(w, "--no-phi-removal"))
            p->phi_removal = false;
        else if (!strcmp(w, "-no-leaf-removal") ||
                 !strcmp(w, "--no-leaf-removal"))
            p->leaf_removal = false;
        else if (!strcmp(w, "--sym"))
            rc |= sym(p, strtok_r(NULL, " \t\n", &save), file, d);
        else if (!strncmp(w, "--sym=", 6))
            rc |= sym(p, w + 6, file, d);
        else {
            cg_diags_add(d, CG_SEV_ERROR, file, 0, "unknown DFG flag '%s' "
                         "(known: -no-phi-removal, -no-leaf-removal, --sym "
                         "NAME=VALUE)", w);
            rc = -1;
        }
    }
    return rc;
}
