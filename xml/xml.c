/* xml.c: reading architecture XML files: documents, module templates,
 * module bodies and instances.  The <architecture> element is in top.c, the
 * expression language in expr.c. */
#include "xml.h"

#include <ctype.h>
#include <errno.h>
#include <libxml/parser.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "xml_internal.h"
#include "../common/util.h"

const char *cg__xml_file(const xmlNode *n)
{
    return n->doc && n->doc->URL ? (const char *)n->doc->URL : "<xml>";
}

int cg__xml_line(const xmlNode *n) { return (int)xmlGetLineNo(n); }

/* The line of "attr=" inside the start tag of n that ends on n's line. */
static int attr_line_in(const char *text, const xmlNode *n, const char *attr)
{
    int line = 1, want = cg__xml_line(n);
    size_t nl = strlen((const char *)n->name), al = strlen(attr);
    for (const char *s = text; *s; s++) {
        if (*s == '\n')
            line++;
        if (*s != '<' || strncmp(s + 1, (const char *)n->name, nl) ||
            !(isspace((unsigned char)s[1 + nl]) || s[1 + nl] == '/' ||
              s[1 + nl] == '>'))
            continue;
        /* '<' never appears inside a start tag (XML forbids it in
           attribute values), so the tag ends at the next '>' */
        int at = line, found = 0;
        const char *e = s + 1 + nl;
        for (; *e && *e != '>'; e++) {
            if (*e == '\n')
                at++;
            if (!found && isspace((unsigned char)e[-1]) &&
                !strncmp(e, attr, al) &&
                (e[al] == '=' || isspace((unsigned char)e[al])))
                found = at;
        }
        if (at == want && found)
            return found;
        if (at > want)
            break;
    }
    return want;
}

int cg__xml_attr_line(const xmlNode *n, const char *attr)
{
    const char *text = n->doc ? n->doc->_private : NULL;
    return text && attr ? attr_line_in(text, n, attr) : cg__xml_line(n);
}

void cg__xml_error_attr(cg__xctx *c, const xmlNode *n, const char *attr,
                        const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cg_diags_vadd(c->d, CG_SEV_ERROR, cg__xml_file(n),
                  cg__xml_attr_line(n, attr), fmt, ap);
    va_end(ap);
}

void cg__xml_error(cg__xctx *c, const xmlNode *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cg_diags_vadd(c->d, CG_SEV_ERROR, cg__xml_file(n), cg__xml_line(n), fmt,
                  ap);
    va_end(ap);
}

bool cg__xml_failed(const cg__xctx *c)
{
    return cg_diags_errors(c->d) > c->errors0;
}

void cg__xml_loc(cg__xctx *c, const xmlNode *n)
{
    cg_arch_set_loc(c->a, cg__xml_file(n), cg__xml_line(n));
}

int cg__xml_check_attrs(cg__xctx *c, const xmlNode *n,
                        const char *const *allowed, const char *what)
{
    int rc = 0;
    for (xmlAttr *at = n->properties; at; at = at->next) {
        int ok = 0;
        for (int i = 0; allowed[i] && !ok; i++)
            ok = !strcmp((const char *)at->name, allowed[i]);
        if (ok)
            continue;
        char list[512] = "";
        for (int i = 0; allowed[i]; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, allowed[i], sizeof list - strlen(list) - 1);
        }
        cg__xml_error_attr(c, n, (const char *)at->name, "unknown "
                           "attribute '%s' on <%s>%s (attributes: %s)",
                           (const char *)at->name, (const char *)n->name,
                           what ? what : "", list);
        rc = -1;
    }
    return rc;
}

char *cg__xml_attr(cg__xctx *c, const xmlNode *n, const char *name,
                   const cg__xvar *env, bool *bad)
{
    *bad = false;
    xmlChar *raw = xmlGetProp(n, (const xmlChar *)name);
    if (!raw)
        return NULL;
    cg__xsrc src = {c->d, cg__xml_file(n), cg__xml_attr_line(n, name),
                    (const char *)raw, c->use};
    char *v = cg__xml_interp((const char *)raw, env, &src);
    xmlFree(raw);
    *bad = !v;
    return v;
}

int cg__xml_attr_int(cg__xctx *c, const xmlNode *n, const char *name,
                     const cg__xvar *env, long def, long min, long max,
                     long *out)
{
    bool bad;
    char *v = cg__xml_attr(c, n, name, env, &bad);
    *out = def;
    if (!v)
        return bad ? -1 : 0;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    bool num = *v && !*end && (!errno || x == LONG_MAX);
    /* past LONG_MAX: above any limit (it was taken as LONG_MAX) */
    bool over = num && errno == ERANGE;
    if (num && (x > max || over))
        cg__xml_error_attr(c, n, name, "%s=\"%s\" on <%s> is above the "
                           "limit of %ld", name, CG_QUOTE(v),
                           (const char *)n->name, max);
    else if (!num || x < min)
        cg__xml_error_attr(c, n, name, "%s=\"%s\" on <%s> must be an "
                           "integer >= %ld", name, CG_QUOTE(v),
                           (const char *)n->name, min);
    free(v);
    if (!num || over || x < min || x > max)
        return -1;
    *out = x;
    return 0;
}

int cg__xml_cond(cg__xctx *c, const xmlNode *n, const cg__xvar *env,
                 bool *out)
{
    *out = true;
    xmlChar *raw = xmlGetProp(n, (const xmlChar *)"if");
    if (!raw)
        return 0;
    cg__xsrc src = {c->d, cg__xml_file(n), cg__xml_attr_line(n, "if"),
                    (const char *)raw, c->use};
    int rc = cg__xml_eval_bool((const char *)raw, env, &src, out);
    xmlFree(raw);
    return rc;
}

int cg__xml_is_text(cg__xctx *c, const xmlNode *n)
{
    if (n->type == XML_ELEMENT_NODE)
        return 0;
    if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
        for (const xmlChar *s = n->content; s && *s; s++)
            if (!isspace(*s)) {
                /* its first line, from its first character */
                const char *t = (const char *)s;
                size_t k = strcspn(t, "\r\n");
                while (k > 0 && isspace((unsigned char)t[k - 1]))
                    k--;
                char *line = strndup(t, k);
                cg__xml_error(c, n, "unexpected text '%s' inside <%s>; "
                              "only elements belong here",
                              line ? CG_QUOTE(line) : "?",
                              (const char *)n->parent->name);
                free(line);
                break;
            }
    }
    return 1;
}

char **cg__xml_split(const char *s, int *n)
{
    *n = 0;
    int cap = 4;
    char **v = malloc((size_t)cap * sizeof *v);
    while (v && *s) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        const char *b = s;
        int depth = 0;
        while (*s && (depth > 0 || !isspace((unsigned char)*s))) {
            depth += *s == '(' ? 1 : *s == ')' ? -1 : 0;
            s++;
        }
        char *e = CG_GROW(v, cap, *n + 1) ? NULL : strndup(b, (size_t)(s - b));
        if (!e) { /* out of memory: no list rather than a short one */
            cg__xml_free_list(v, *n);
            *n = 0;
            return NULL;
        }
        v[(*n)++] = e;
    }
    return v;
}

void cg__xml_free_list(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* ---- templates --------------------------------------------------------- */

/* Hashed: a CGRA-ME file may define 500k modules.  (libxml2 2.9's
 * xmlHashTable, tried first, grew superlinearly: 200k templates took
 * 2.5 s, over a third of it in its lookups; with cg_strmap 0.9 s.) */
xmlNode *cg__xml_find_tmpl(const cg__xctx *c, const char *name)
{
    int i;
    return cg_strmap_get(c->tmpl_ix, name, &i) ? c->tmpls[i] : NULL;
}

static int grow_tmpls(cg__xctx *c)
{
    return CG_GROW(c->tmpls, c->tcap, c->ntmpls + 1);
}

static int add_tmpl(cg__xctx *c, xmlNode *n)
{
    static const char *const attrs[] = {"name", NULL};
    if (cg__xml_check_attrs(c, n, attrs, NULL) < 0)
        return -1;
    xmlChar *name = xmlGetProp(n, (const xmlChar *)"name");
    int rc = -1;
    /* A template may be named like a primitive: CGRA-ME's templates wrap
     * the IO primitive in a module IO (cg__xml_instance says which wins). */
    if (!name || !*name) {
        cg__xml_error(c, n, "<module> needs a name=\"...\"");
    } else if (cg__xml_find_tmpl(c, (const char *)name)) {
        xmlNode *o = cg__xml_find_tmpl(c, (const char *)name);
        cg__xml_error(c, n, "duplicate module '%s' (first defined at %s:%d); "
                      "rename one", (const char *)name, cg__xml_file(o),
                      cg__xml_line(o));
    } else if (grow_tmpls(c) < 0 ||
               (!c->tmpl_ix && !(c->tmpl_ix = cg_strmap_create())) ||
               cg_strmap_put(c->tmpl_ix, (const char *)name, c->ntmpls)) {
        cg__xml_error(c, n, "out of memory");
    } else {
        c->tmpls[c->ntmpls++] = n;
        rc = 0;
    }
    xmlFree(name);
    return rc;
}


int cg__xml_collect(cg__xctx *c, xmlNode *root, bool arch_ok)
{
    int rc = 0;
    for (xmlNode *k = root->children; k; k = k->next) {
        if (cg__xml_is_text(c, k))
            continue;
        const char *t = (const char *)k->name;
        if (!strcmp(t, "module"))
            rc |= add_tmpl(c, k);
        else if (!strcmp(t, "definition"))
            rc |= cg__xml_collect(c, k, false);
        else if (!(arch_ok && !strcmp(t, "architecture"))) {
            cg__xml_error(c, k, "unknown tag <%s> inside <%s> (expected: "
                          "module, definition%s)", t,
                          (const char *)root->name,
                          arch_ok ? ", architecture" : "");
            rc = -1;
        }
    }
    return rc;
}

/* ---- module bodies ----------------------------------------------------- */

/* A port's, wire's or instance's name: connections refer to it as NAME or
 * NAME.PORT, so an empty one, a blank or a '.' in it, or "this", would
 * only surface later as a confusing unknown reference.  False after the
 * error. */
static bool name_ok(cg__xctx *c, const xmlNode *n, const char *name)
{
    if (*name && !strpbrk(name, " \t\r\n.") && strcmp(name, "this"))
        return true;
    cg__xml_error(c, n, "<%s> name=\"%s\" cannot name it: connections "
                  "refer to it as NAME or NAME.PORT; give a name without "
                  "blanks or '.' (and not 'this')", (const char *)n->name,
                  CG_QUOTE(name));
    return false;
}

int cg__xml_port(cg__xctx *c, int mod, const xmlNode *n,
                 const cg__xvar *env)
{
    bool bad;
    long w;
    char *name = cg__xml_attr(c, n, "name", env, &bad);
    int rc = -1;
    if (!name) {
        if (!bad)
            cg__xml_error(c, n, "<%s> needs a name=\"...\"",
                          (const char *)n->name);
    } else if (name_ok(c, n, name) &&
               cg__xml_attr_int(c, n, "size", env, 32, 1, CG_MAX_WIDTH,
                                &w) == 0) {
        cg__xml_loc(c, n);
        const char *t = (const char *)n->name;
        if (!strcmp(t, "wire"))
            rc = cg_arch_add_wire(c->a, mod, name, (int)w, c->d);
        else
            rc = cg_arch_add_port(c->a, mod, name,
                                  !strcmp(t, "input")    ? CG_DIR_IN
                                  : !strcmp(t, "output") ? CG_DIR_OUT
                                                         : CG_DIR_INOUT,
                                  (int)w, c->d);
    }
    free(name);
    return rc < 0 ? -1 : 0;
}

static int body_port(cg__xctx *c, int mod, const xmlNode *n,
                     const cg__xvar *env)
{
    static const char *const attrs[] = {"name", "size", "if", NULL};
    if (cg__xml_check_attrs(c, n, attrs, NULL) < 0)
        return -1;
    return cg__xml_port(c, mod, n, env);
}

/* A connection inside a module: references are plain names. */
static int body_connection(cg__xctx *c, int mod, const xmlNode *n,
                           const cg__xvar *env);

static int body_inst(cg__xctx *c, int mod, const xmlNode *n,
                     const cg__xvar *env)
{
    bool bad;
    char *name = cg__xml_attr(c, n, "name", env, &bad);
    int rc = -1;
    if (!name && !bad)
        cg__xml_error(c, n, "<%s> needs a name=\"...\"",
                      (const char *)n->name);
    else if (name && name_ok(c, n, name))
        rc = cg__xml_instance(c, mod, n, name, env);
    free(name);
    return rc < 0 ? -1 : 0;
}

static int body_element(cg__xctx *c, int mod, const xmlNode *n,
                        const cg__xvar *env)
{
    bool on;
    if (cg__xml_cond(c, n, env, &on) < 0)
        return -1;
    if (!on)
        return 0;
    const char *t = (const char *)n->name;
    if (!strcmp(t, "input") || !strcmp(t, "output") || !strcmp(t, "inout") ||
        !strcmp(t, "wire"))
        return body_port(c, mod, n, env);
    if (!strcmp(t, "inst") || !strcmp(t, "sub-module"))
        return body_inst(c, mod, n, env);
    if (!strcmp(t, "connection"))
        return body_connection(c, mod, n, env);
    cg__xml_error(c, n, "unknown tag <%s> inside <module> (expected: input, "
                  "output, inout, wire, inst, sub-module, connection)", t);
    return -1;
}

/* Define module `cname` from template node t with parameters env. */
static int define_module(cg__xctx *c, const xmlNode *t, const char *cname,
                         const cg__xvar *env)
{
    cg__xml_loc(c, t);
    int mod = cg_arch_module_define(c->a, cname, c->d);
    if (mod < 0)
        return -1;
    int rc = 0;
    for (xmlNode *k = t->children; k; k = k->next)
        if (!cg__xml_is_text(c, k))
            rc |= body_element(c, mod, k, env);
    return rc < 0 ? -1 : mod;
}

/* ---- connections ------------------------------------------------------- */

/* Connect every source to every target (or one mux per target). */
static int connect_lists(cg__xctx *c, int mod, const xmlNode *n, char **from,
                         int nf, char **to, int nt, bool select)
{
    int rc = 0;
    cg__xml_loc(c, n);
    for (int j = 0; j < nt; j++) {
        if (select) {
            rc |= cg_arch_connect_select(c->a, mod, (const char *const *)from,
                                         nf, to[j], c->d);
            continue;
        }
        for (int i = 0; i < nf; i++)
            rc |= cg_arch_connect(c->a, mod, from[i], to[j], c->d);
    }
    return rc < 0 ? -1 : 0;
}

/* A <connection>'s source and target lists (raw text, malloc'd) and
 * whether it is a select-from. */
static int connection_lists(cg__xctx *c, const xmlNode *n, char **src,
                            char **dst, bool *select)
{
    static const char *const attrs[] = {"from", "to", "select-from",
                                        "distribute-to", "if", NULL};
    *src = *dst = NULL;
    if (cg__xml_check_attrs(c, n, attrs, NULL) < 0)
        return -1;
    xmlChar *from = xmlGetProp(n, (const xmlChar *)"from");
    xmlChar *to = xmlGetProp(n, (const xmlChar *)"to");
    xmlChar *sel = xmlGetProp(n, (const xmlChar *)"select-from");
    xmlChar *dist = xmlGetProp(n, (const xmlChar *)"distribute-to");
    int rc = 0;
    *select = sel != NULL;
    if (from && to && !sel && !dist) {
        *src = strdup((char *)from), *dst = strdup((char *)to);
    } else if (sel && to && !from && !dist) {
        *src = strdup((char *)sel), *dst = strdup((char *)to);
    } else if (from && dist && !to && !sel) {
        *src = strdup((char *)from), *dst = strdup((char *)dist);
    } else {
        cg__xml_error(c, n, "<connection> needs from= with to=, select-from= "
                      "with to=, or from= with distribute-to=");
        rc = -1;
    }
    if (rc == 0 && (!*src || !*dst)) {
        cg__xml_error(c, n, "out of memory");
        free(*src), free(*dst);
        *src = *dst = NULL;
        rc = -1;
    }
    xmlFree(from), xmlFree(to), xmlFree(sel), xmlFree(dist);
    return rc;
}

int cg__xml_connection(cg__xctx *c, int mod, const xmlNode *n,
                       cg__xml_list_fn list, const void *arg)
{
    char *s, *t;
    bool select;
    if (connection_lists(c, n, &s, &t, &select) < 0)
        return -1;
    int nf = 0, nt = 0, rc = -1;
    char **from = list(c, n, s, arg, &nf);
    char **to = from ? list(c, n, t, arg, &nt) : NULL;
    if (from && to && (nf == 0 || nt == 0)) /* else nothing, silently */
        cg__xml_error(c, n, "a connection needs a source and a target (got "
                      "%s='%s', %s='%s')", select ? "select-from" : "from", s,
                      select || !xmlHasProp(n, (const xmlChar *)"distribute-to")
                          ? "to" : "distribute-to", t);
    else if (from && to)
        rc = connect_lists(c, mod, n, from, nf, to, nt, select);
    if (from)
        cg__xml_free_list(from, nf);
    if (to)
        cg__xml_free_list(to, nt);
    free(s);
    free(t);
    return rc;
}

char **cg__xml_map_list(cg__xctx *c, const xmlNode *n, const char *s,
                        char *(*fn)(void *arg, const char *item), void *arg,
                        int *cnt)
{
    char **v = cg__xml_split(s, cnt);
    if (!v)
        cg__xml_error(c, n, "out of memory");
    for (int i = 0; v && i < *cnt; i++) {
        char *x = fn(arg, v[i]);
        if (!x) {
            cg__xml_free_list(v, *cnt);
            return NULL;
        }
        free(v[i]);
        v[i] = x;
    }
    return v;
}

typedef struct interp_arg {
    const cg__xvar *env;
    cg__xsrc src;
} interp_arg;

static char *interp_one(void *arg, const char *item)
{
    interp_arg *a = arg;
    return cg__xml_interp(item, a->env, &a->src);
}

/* Interpolate every element of a reference list (env: the cg__xvar
 * list in scope). */
static char **interp_list(cg__xctx *c, const xmlNode *n, const char *s,
                          const void *env, int *cnt)
{
    interp_arg a = {env, {c->d, cg__xml_file(n), cg__xml_line(n), s, c->use}};
    return cg__xml_map_list(c, n, s, interp_one, &a, cnt);
}

static int body_connection(cg__xctx *c, int mod, const xmlNode *n,
                           const cg__xvar *env)
{
    return cg__xml_connection(c, mod, n, interp_list, env);
}

static char *concrete_base(const char *tname, const cg__xvar *env)
{
    const cg__xvar *v[64];
    int n = 0;
    for (const cg__xvar *e = env; e && n < 64; e = e->next)
        v[n++] = e;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(v[j - 1]->name, v[j]->name) > 0; j--) {
            const cg__xvar *t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    size_t len = strlen(tname) + 3;
    for (int i = 0; i < n; i++)
        len += strlen(v[i]->name) + strlen(v[i]->value) + 2;
    char *s = malloc(len);
    if (!s)
        return NULL;
    strcpy(s, tname);
    for (int i = 0; i < n; i++) {
        strcat(s, i ? "," : "(");
        strcat(s, v[i]->name);
        strcat(s, "=");
        strcat(s, v[i]->value);
    }
    if (n)
        strcat(s, ")");
    return s;
}

/* Name of the concrete module: the template's, plus the sorted parameters
 * ("pe(mode=add sub)") when it has any.  A template named like a primitive
 * becomes "IO (template)": the model keeps primitive names for primitives. */
static char *concrete_name(const char *tname, const cg__xvar *env)
{
    if (cg__xml_prim_name(tname)) {
        char full[128];
        snprintf(full, sizeof full, "%s (template)", tname);
        return concrete_base(full, env);
    }
    return concrete_base(tname, env);
}

/* A template used with several parameter sets is elaborated once per set,
 * so a mistake in it came once per set, the same text each time, without
 * saying which set.  The messages of a module with parameters (and of the
 * modules inside it) are collected apart; then a message already reported
 * (same file, line and text) is dropped with its notes, and the others name
 * the module, "(in module 'pe(ops=add)')", unless they already do.  -1
 * when out of memory. */
static int pass_on(cg__xctx *c, const cg_diags *mine, const char *cname)
{
    if (!c->reported && !(c->reported = cg_strmap_create()))
        return -1;
    size_t n = strlen(cname) + 3;
    char *quoted = malloc(n);
    if (!quoted)
        return -1;
    snprintf(quoted, n, "'%s'", cname);
    bool skip = false;
    for (int i = 0; i < cg_diags_size(mine); i++) {
        const cg_diag *e = cg_diags_get(mine, i);
        char *key = NULL;
        if (e->sev != CG_SEV_NOTE) {
            int dummy;
            key = cg_diag_format(e);
            if (!key) {
                free(quoted);
                return -1;
            }
            /* out of memory here, a repeat may come again: no loss */
            skip = cg_strmap_get(c->reported, key, &dummy);
            if (!skip)
                cg_strmap_put(c->reported, key, 1);
        }
        if (!skip)
            cg_diags_add(c->d, e->sev, e->file, e->line, "%s%s%s%s", e->msg,
                         key && !strstr(e->msg, quoted) ? " (in module " : "",
                         key && !strstr(e->msg, quoted) ? quoted : "",
                         key && !strstr(e->msg, quoted) ? ")" : "");
        free(key);
    }
    free(quoted);
    return 0;
}

static int define_collected(cg__xctx *c, const xmlNode *t, const char *cname,
                            const cg__xvar *env)
{
    if (c->collecting || !env)
        return define_module(c, t, cname, env);
    cg_diags *d = c->d, *mine = cg_diags_create();
    int errors0 = c->errors0;
    if (!mine)
        return -1;
    c->d = mine;
    c->errors0 = 0;
    c->collecting = true;
    int rc = define_module(c, t, cname, env);
    c->collecting = false;
    c->d = d;
    c->errors0 = errors0;
    if (pass_on(c, mine, cname) < 0)
        rc = -1;
    cg_diags_destroy(mine);
    return rc;
}

char *cg__xml_concrete(cg__xctx *c, const xmlNode *t, const xmlNode *use,
                       const cg__xvar *env)
{
    xmlChar *tname = xmlGetProp(t, (const xmlChar *)"name");
    int cyc = 0;
    for (int i = 0; i < c->depth && !cyc; i++)
        cyc = !strcmp(c->stack[i], (const char *)tname);
    char *cname = NULL;
    if (cyc) {
        cg__xml_error(c, use, "module '%s' contains itself (through this "
                      "instance); remove the recursion",
                      (const char *)tname);
    } else if (c->depth == 32) {
        cg__xml_error(c, use, "modules nest more than 32 deep here; flatten "
                      "the hierarchy");
    } else if ((cname = concrete_name((const char *)tname, env)) &&
               cg_arch_module_find(c->a, cname) < 0) {
        c->stack[c->depth++] = (const char *)tname;
        const xmlNode *outer = c->use;
        c->use = use;
        if (define_collected(c, t, cname, env) < 0) {
            free(cname);
            cname = NULL;
        }
        c->use = outer;
        c->depth--;
    }
    xmlFree(tname);
    return cname;
}
