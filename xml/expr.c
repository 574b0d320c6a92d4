/* expr.c: the small expression language of architecture XML files.
 *
 * Values are strings.  "(name)" reads a parameter or counter; "(empty x)",
 * "(not x)", "(= a b)" test; "(+ a b ...)" and friends, and infix
 * arithmetic written right after a parenthesised value ("(i)*2+1"),
 * compute on integers.  Everything reports into cg_diags with the line of
 * the attribute; nothing aborts.
 */
#include "xml_internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *parse_arith(const char **p, const cg__xvar *env,
                         const cg__xsrc *src, bool words);

/* Parentheses nest at most this deep: the parser recurses at each level,
 * and a megabyte of "(+ 1 (+ 1 ..." in an attribute overflowed the stack. */
enum { EXPR_MAX_NESTING = 256 };

static void err(const cg__xsrc *src, const char *msg, const char *arg)
{
    cg_diags_add(src->d, CG_SEV_ERROR, src->file, src->line,
                 "%s%s in expression '%s'", msg, arg ? arg : "",
                 CG_QUOTE(src->text));
}

static char *fmt_long(long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%ld", v);
    return strdup(buf);
}

/* An overflow of the integer range: "what" is the operation, "a * b". */
static void overflow(const cg__xsrc *src, const char *what)
{
    cg_diags_add(src->d, CG_SEV_ERROR, src->file, src->line,
                 "'%s' is outside the integer range %ld..%ld in expression "
                 "'%s'", CG_QUOTE(what), LONG_MIN, LONG_MAX,
                 CG_QUOTE(src->text));
}

/* Integer value of a string, or an error naming it. */
static int to_long(const char *s, const cg__xsrc *src, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*s && !*end && errno == ERANGE) {
        overflow(src, s);
        return -1;
    }
    if (!*s || *end || errno) {
        cg_diags_add(src->d, CG_SEV_ERROR, src->file, src->line,
                     "'%s' is not an integer in expression '%s'; arithmetic "
                     "needs integer operands", CG_QUOTE(s),
                     CG_QUOTE(src->text));
        return -1;
    }
    *out = v;
    return 0;
}

/* s nests its parentheses deeper than EXPR_MAX_NESTING (reported). */
static bool too_deep(const char *s, const cg__xsrc *src)
{
    int level = 0;
    for (; *s && level <= EXPR_MAX_NESTING; s++)
        level += (*s == '(') - (*s == ')' && level > 0);
    if (level <= EXPR_MAX_NESTING)
        return false;
    cg_diags_add(src->d, CG_SEV_ERROR, src->file, src->line,
                 "parentheses nest more than %d deep in expression "
                 "'%s'; simplify it", EXPR_MAX_NESTING,
                 CG_QUOTE(src->text));
    return true;
}

static bool truthy(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return *s && strcmp(s, "0") != 0;
}

/* a op b, checked: an overflow or a division by zero is an error. */
static int apply(char op, long a, long b, const cg__xsrc *src, long *r)
{
    bool over;
    switch (op) {
    case '+': over = __builtin_add_overflow(a, b, r); break;
    case '-': over = __builtin_sub_overflow(a, b, r); break;
    case '*': over = __builtin_mul_overflow(a, b, r); break;
    default:
        if (b == 0) {
            err(src, "division by zero", NULL);
            return -1;
        }
        over = a == LONG_MIN && b == -1;
        if (!over)
            *r = a / b;
    }
    if (over) {
        char what[80];
        snprintf(what, sizeof what, "%ld %c %ld", a, op, b);
        overflow(src, what);
        return -1;
    }
    return 0;
}

/* -a, checked. */
static int negate(long a, const cg__xsrc *src, long *r)
{
    if (a == LONG_MIN) {
        char what[40];
        snprintf(what, sizeof what, "-(%ld)", a);
        overflow(src, what);
        return -1;
    }
    *r = -a;
    return 0;
}

static const cg__xvar *lookup(const cg__xvar *env, const char *name)
{
    for (; env; env = env->next)
        if (strcmp(env->name, name) == 0)
            return env;
    return NULL;
}

/* A bare word: up to whitespace or a parenthesis. */
static char *word(const char **p)
{
    const char *s = *p;
    while (**p && !isspace((unsigned char)**p) && **p != '(' && **p != ')')
        (*p)++;
    return strndup(s, (size_t)(*p - s));
}

static void skip_ws(const char **p)
{
    while (isspace((unsigned char)**p))
        (*p)++;
}

/* Arguments of an s-expression up to its ')'. */
static int sexpr_args(const char **p, const cg__xvar *env, const cg__xsrc *src,
                      char **args, int max, int *n)
{
    *n = 0;
    for (;;) {
        skip_ws(p);
        if (**p == ')') {
            (*p)++;
            return 0;
        }
        if (!**p) {
            err(src, "missing ')'", NULL);
            return -1;
        }
        char *a;
        if (**p == '\'') {
            const char *s = ++(*p);
            while (**p && **p != '\'')
                (*p)++;
            if (!**p) {
                err(src, "unterminated quote", NULL);
                return -1;
            }
            a = strndup(s, (size_t)(*p - s));
            (*p)++;
        } else {
            a = parse_arith(p, env, src, true);
        }
        if (!a)
            return -1;
        if (*n == max) {
            free(a);
            err(src, "too many operands", NULL);
            return -1;
        }
        args[(*n)++] = a;
    }
}

static char *eval_op(const char *head, char **args, int n,
                     const cg__xsrc *src)
{
    if (!strcmp(head, "empty") || !strcmp(head, "not")) {
        if (n != 1) {
            err(src, head, " takes one operand");
            return NULL;
        }
        const char *s = args[0];
        while (isspace((unsigned char)*s))
            s++;
        bool t = !strcmp(head, "empty") ? !*s : !truthy(s);
        return strdup(t ? "1" : "0");
    }
    if (!strcmp(head, "=")) {
        if (n != 2) {
            err(src, "= takes two operands", NULL);
            return NULL;
        }
        return strdup(strcmp(args[0], args[1]) == 0 ? "1" : "0");
    }
    if (strlen(head) == 1 && strchr("+-*/", head[0])) {
        if (n < 1) {
            err(src, head, " needs operands");
            return NULL;
        }
        long acc, v;
        if (to_long(args[0], src, &acc) < 0)
            return NULL;
        if (n == 1 && head[0] == '-' && negate(acc, src, &acc) < 0)
            return NULL;
        for (int i = 1; i < n; i++)
            if (to_long(args[i], src, &v) < 0 || apply(head[0], acc, v, src,
                                                       &acc) < 0)
                return NULL;
        return fmt_long(acc);
    }
    cg_diags_add(src->d, CG_SEV_ERROR, src->file, src->line,
                 "unknown operator '%s' in expression '%s' (operators: empty, "
                 "not, =, +, -, *, /)", CG_QUOTE(head), CG_QUOTE(src->text));
    return NULL;
}

/* After '(': a variable "(name)" or an operation "(op args...)". */
static char *parse_sexpr(const char **p, const cg__xvar *env,
                         const cg__xsrc *src)
{
    skip_ws(p);
    char *head = word(p);
    skip_ws(p);
    char *res = NULL;
    if (!head) {
        err(src, "out of memory", NULL);
        return NULL;
    }
    if (!*head) {
        err(src, "empty parentheses", NULL);
    } else if (**p == ')' && !strchr("+-*/=", head[0])) {
        (*p)++;
        const cg__xvar *v = lookup(env, head);
        if (!strcmp(head, "empty") || !strcmp(head, "not"))
            err(src, head, " needs an operand");
        else if (isdigit((unsigned char)head[0]))
            res = strdup(head);
        else if (v)
            res = strdup(v->value);
        else if (src->use) /* which instance lacks it */
            cg_diags_add(src->d, CG_SEV_ERROR, src->file, src->line,
                         "undefined parameter '%s' in expression '%s'; give "
                         "it on the instance (%s=\"...\" at %s:%d) or "
                         "define a counter of that name", CG_QUOTE(head),
                         CG_QUOTE(src->text), CG_QUOTE(head),
                         cg__xml_file(src->use), cg__xml_line(src->use));
        else
            cg_diags_add(src->d, CG_SEV_ERROR, src->file, src->line,
                         "undefined parameter '%s' in expression '%s'; give "
                         "it on the instance (%s=\"...\") or define a "
                         "counter of that name", CG_QUOTE(head),
                         CG_QUOTE(src->text), CG_QUOTE(head));
    } else if (!strcmp(head, "rel")) {
        err(src, "(rel ...) may only start a reference such as "
                 "'(rel 0 1).in'", NULL);
    } else {
        char *args[16];
        int n = 0;
        if (sexpr_args(p, env, src, args, 16, &n) == 0)
            res = eval_op(head, args, n, src);
        for (int i = 0; i < n; i++)
            free(args[i]);
    }
    free(head);
    return res;
}

static char *parse_primary(const char **p, const cg__xvar *env,
                           const cg__xsrc *src, bool words)
{
    if (**p == '(') {
        (*p)++;
        return parse_sexpr(p, env, src);
    }
    if (**p == '-' && ((*p)[1] == '(' || isdigit((unsigned char)(*p)[1]))) {
        (*p)++;
        char *v = parse_primary(p, env, src, false);
        long x;
        int bad = !v || to_long(v, src, &x) < 0 || negate(x, src, &x) < 0;
        free(v);
        return bad ? NULL : fmt_long(x);
    }
    if (isdigit((unsigned char)**p)) {
        const char *s = *p;
        while (isdigit((unsigned char)**p))
            (*p)++;
        return strndup(s, (size_t)(*p - s));
    }
    if (words && **p)
        return word(p);
    err(src, "expected a number or '('", NULL);
    return NULL;
}

/* A primary followed by infix + - * / (written without spaces). */
static char *parse_arith(const char **p, const cg__xvar *env,
                         const cg__xsrc *src, bool words)
{
    char *v = parse_primary(p, env, src, words);
    if (!v || !**p || !strchr("+-*/", **p))
        return v;
    long acc;
    if (to_long(v, src, &acc) < 0) {
        free(v);
        return NULL;
    }
    free(v);
    while (**p && strchr("+-*/", **p)) {
        char op = *(*p)++;
        char *w = parse_primary(p, env, src, false);
        long x;
        int bad = !w || to_long(w, src, &x) < 0 || apply(op, acc, x, src,
                                                          &acc) < 0;
        free(w);
        if (bad)
            return NULL;
    }
    return fmt_long(acc);
}

char *cg__xml_interp(const char *s, const cg__xvar *env, const cg__xsrc *src)
{
    if (too_deep(s, src))
        return NULL;
    size_t cap = strlen(s) + 32, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    const char *p = s;
    while (*p) {
        char *piece = NULL;
        size_t plen = 1;
        if (*p == '(') {
            piece = parse_arith(&p, env, src, false);
            if (!piece) {
                free(out);
                return NULL;
            }
            plen = strlen(piece);
        }
        if (len + plen + 1 > cap) {
            cap = 2 * (len + plen + 1);
            char *o = realloc(out, cap);
            if (!o) {
                free(out);
                free(piece);
                return NULL;
            }
            out = o;
        }
        if (piece) {
            memcpy(out + len, piece, plen);
            free(piece);
        } else {
            out[len] = *p++;
        }
        len += plen;
    }
    out[len] = 0;
    return out;
}

int cg__xml_eval_bool(const char *s, const cg__xvar *env, const cg__xsrc *src,
                      bool *out)
{
    char *v = cg__xml_interp(s, env, src);
    if (!v)
        return -1;
    *out = truthy(v);
    free(v);
    return 0;
}

int cg__xml_eval_int(const char **p, const cg__xvar *env, const cg__xsrc *src,
                     long *out)
{
    char *v = too_deep(*p, src) ? NULL : parse_arith(p, env, src, false);
    int rc = v ? to_long(v, src, out) : -1;
    free(v);
    return rc;
}

bool cg__xml_var_refs(const char *s, char **names, int *n, int max)
{
    bool ok = true;
    for (const char *p = strchr(s, '('); p; p = strchr(p + 1, '(')) {
        const char *q = p + 1;
        while (isspace((unsigned char)*q))
            q++;
        const char *b = q;
        while (*q && !isspace((unsigned char)*q) && *q != '(' && *q != ')')
            q++;
        const char *e = q;
        while (isspace((unsigned char)*q))
            q++;
        if (*q != ')' || e == b || isdigit((unsigned char)*b) ||
            strchr("+-*/=", *b))
            continue;
        int dup = 0;
        for (int i = 0; i < *n && !dup; i++)
            dup = strlen(names[i]) == (size_t)(e - b) &&
                  !strncmp(names[i], b, (size_t)(e - b));
        char *name = !dup && *n < max ? strndup(b, (size_t)(e - b)) : NULL;
        if (name)
            names[(*n)++] = name;
        ok &= name || dup || *n == max;
    }
    return ok;
}
