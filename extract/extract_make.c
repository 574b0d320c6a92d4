/* extract_make.c: CGRA-ME's benchmark habit.  A benchmark folder's Makefile
 * sets LOOP_TAGS, DFG_FLAGS and CFLAGS and includes a rules file
 * (`include ../rules.mk` here, `include ../../rules.mk` in CGRA-ME), which
 * gives defaults with ?= and adds `-loop-tags '$(LOOP_TAGS)'` to DFG_FLAGS.
 * cgramap reads the Makefile as make would for those three variables: it
 * follows include lines, keeps every variable assignment (=, :=, ::=, ?=,
 * +=, backslash continuations, # comments, export/override), expands
 * $(VAR) references, and skips rules and recipes.  What it does not run
 * (make functions such as $(shell ...), conditionals around the three
 * variables) is an error at its file:line, never a silent guess.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/util.h"
#include "extract_internal.h"

enum { MK_MAX_INCLUDE = 16, MK_MAX_DEPTH = 32 };
/* One expansion (a variable read, an include line, a := value) may resolve
 * this many references (undefined ones too) and grow to this many bytes.
 * Variables that each use the one before twice double at every step: 30
 * lines ask for 2^30 references and gigabytes; make itself runs out of
 * memory on them.  A real Makefile resolves a few hundred. */
enum { MK_MAX_REFS = 1 << 16, MK_MAX_VALUE = 1 << 20 };

/* One assignment's text: a variable's value is the pieces of its = and +=
 * lines in order, each kept with its location for messages. */
typedef struct mk_piece {
    char *text;  /* raw (recursive variable) or expanded (simple) */
    char *file;
    int line;
} mk_piece;

typedef struct mk_var {
    char *name;
    bool simple;  /* := : pieces are already expanded */
    bool busy;    /* being expanded: a reference to it now is a loop */
    int n;
    mk_piece *v;
} mk_var;

typedef struct mk_ctx {
    mk_var *vars;
    int n, cap;
    const char *dir;  /* make's working folder: the top Makefile's */
    int includes;     /* nesting of include lines */
    int cond;         /* nesting of ifeq/ifdef blocks */
    bool in_define;   /* inside define ... endef: not assignments */
    int refs;         /* references resolved by the current expansion */
    bool too_big;     /* the budget above ran out (reported in d) */
    cg_diags *d;
} mk_ctx;

/* A growing string. */
typedef struct mk_buf {
    char *s;
    size_t n, cap;
} mk_buf;

static int buf_add(mk_buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = 2 * (b->n + n + 1);
        char *t = realloc(b->s, cap);
        if (!t)
            return -1;
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
    return 0;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && strchr(" \t\r\n", s[n - 1]))
        s[--n] = 0;
    return s;
}

static mk_var *find_var(mk_ctx *c, const char *name, size_t n)
{
    for (int i = 0; i < c->n; i++)
        if (strlen(c->vars[i].name) == n && !strncmp(c->vars[i].name, name, n))
            return &c->vars[i];
    return NULL;
}

static void clear_var(mk_var *v)
{
    for (int i = 0; i < v->n; i++)
        free(v->v[i].text), free(v->v[i].file);
    free(v->v);
    v->v = NULL;
    v->n = 0;
}

/* ---- expansion ------------------------------------------------------- */

static int expand(mk_ctx *c, const char *s, const char *file, int line,
                  int depth, mk_buf *out);

/* The expansion in progress has gone past MK_MAX_REFS references or
 * MK_MAX_VALUE bytes (reported once, naming the variable being read). */
static bool too_big(mk_ctx *c, const char *name, size_t n, const mk_buf *out,
                    const char *file, int line)
{
    if (++c->refs <= MK_MAX_REFS && out->n <= MK_MAX_VALUE)
        return false;
    bool bytes = out->n > MK_MAX_VALUE;
    c->too_big = true;
    cg_diags_add(c->d, CG_SEV_ERROR, file, line, "expanding '%.*s' takes "
                 "more than %d %s (variables that each use the one before "
                 "twice double at every step); write the value out",
                 (int)n, name,
                 bytes ? MK_MAX_VALUE : MK_MAX_REFS,
                 bytes ? "bytes" : "references");
    return true;
}

/* The value of variable name, expanded, appended to out.  An undefined
 * variable is empty, as in make (cgramap does not read the environment). */
static int expand_var(mk_ctx *c, const char *name, size_t n, const char *file,
                      int line, int depth, mk_buf *out)
{
    if (too_big(c, name, n, out, file, line))
        return -1;
    mk_var *v = find_var(c, name, n);
    if (!v)
        return 0;
    if (v->busy) {
        cg_diags_add(c->d, CG_SEV_ERROR, file, line, "variable '%s' refers "
                     "to itself (through $(...)); make refuses it too",
                     v->name);
        return -1;
    }
    if (depth >= MK_MAX_DEPTH) {
        cg_diags_add(c->d, CG_SEV_ERROR, file, line, "'%s' is reached through "
                     "more than %d nested references; cgramap stops there "
                     "(write the value out)", v->name, MK_MAX_DEPTH);
        return -1;
    }
    v->busy = true;
    int rc = 0;
    for (int i = 0; i < v->n && rc == 0; i++) {
        if (i && buf_add(out, " ", 1) < 0)
            rc = -1;
        else if (v->simple)
            rc = buf_add(out, v->v[i].text, strlen(v->v[i].text));
        else
            rc = expand(c, v->v[i].text, v->v[i].file, v->v[i].line,
                        depth + 1, out);
        if (rc == 0 && too_big(c, v->name, strlen(v->name), out, file, line))
            rc = -1;
    }
    v->busy = false;
    return rc;
}

/* The end of the reference opened at s[0] ('(' or '{'), nesting counted;
 * NULL when it is not closed. */
static const char *ref_end(const char *s)
{
    char open = s[0], close = open == '(' ? ')' : '}';
    int level = 0;
    for (; *s; s++) {
        level += *s == open;
        level -= *s == close;
        if (level == 0)
            return s;
    }
    return NULL;
}

/* A $(...) reference: a variable, or a make function cgramap does not run. */
static int expand_ref(mk_ctx *c, const char *s, const char *end,
                      const char *file, int line, int depth, mk_buf *out)
{
    size_t n = (size_t)(end - s - 1);
    if (strcspn(s + 1, " \t,") < n) {
        cg_diags_add(c->d, CG_SEV_ERROR, file, line, "cgramap does not run "
                     "make functions such as '$%.*s'; write the value out",
                     (int)(end - s + 1), s);
        return -1;
    }
    /* the name itself may hold references ($($(X))): expand it first */
    mk_buf name = {0};
    char *raw = strndup(s + 1, n);
    int rc = raw ? expand(c, raw, file, line, depth + 1, &name) : -1;
    if (rc == 0)
        rc = expand_var(c, name.s ? name.s : "", name.n, file, line, depth,
                        out);
    free(raw);
    free(name.s);
    return rc;
}

static int expand(mk_ctx *c, const char *s, const char *file, int line,
                  int depth, mk_buf *out)
{
    if (depth == 0)
        c->refs = 0; /* a new expansion gets the whole budget */
    if (buf_add(out, "", 0) < 0)
        return -1;
    while (*s) {
        const char *dollar = strchr(s, '$');
        size_t lit = dollar ? (size_t)(dollar - s) : strlen(s);
        if (buf_add(out, s, lit) < 0)
            return -1;
        if (!dollar)
            return 0;
        s = dollar + 1;
        if (*s == '$') {
            if (buf_add(out, "$", 1) < 0)
                return -1;
            s++;
        } else if (*s == '(' || *s == '{') {
            const char *end = ref_end(s);
            if (!end) {
                cg_diags_add(c->d, CG_SEV_ERROR, file, line, "unterminated "
                             "variable reference '$%s'; close it with '%c'",
                             s, *s == '(' ? ')' : '}');
                return -1;
            }
            if (expand_ref(c, s, end, file, line, depth, out) < 0)
                return -1;
            s = end + 1;
        } else if (*s) {
            if (expand_var(c, s, 1, file, line, depth, out) < 0)
                return -1;
            s++;
        }
    }
    return 0;
}

/* ---- assignments and lines ------------------------------------------- */

static mk_var *new_var(mk_ctx *c, const char *name)
{
    if (CG_GROW(c->vars, c->cap, c->n + 1))
        return NULL;
    mk_var *v = &c->vars[c->n];
    memset(v, 0, sizeof *v);
    if (!(v->name = strdup(name)))
        return NULL;
    c->n++;
    return v;
}

static int add_piece(mk_var *v, char *text, const char *file, int line)
{
    mk_piece *p = realloc(v->v, (size_t)(v->n + 1) * sizeof *p);
    if (!p) {
        free(text);
        return -1;
    }
    v->v = p;
    p[v->n].text = text;
    p[v->n].file = strdup(file);
    p[v->n].line = line;
    if (!p[v->n].file) {
        free(text);
        return -1;
    }
    v->n++;
    return 0;
}

/* The value of a := line, expanded now.  When it cannot be (a make
 * function, as in rules.mk's DOTS), it is kept raw and recursive instead:
 * the error then surfaces only if a variable cgramap reads uses it. */
static char *expand_now(mk_ctx *c, const char *value, const char *file,
                        int line, bool *simple)
{
    mk_ctx quiet = *c;
    quiet.d = cg_diags_create();
    mk_buf b = {0};
    *simple = quiet.d && expand(&quiet, value, file, line, 0, &b) == 0;
    if (quiet.too_big) /* kept raw, it would only grow again when read */
        cg_diags_append(c->d, quiet.d);
    c->too_big = quiet.too_big;
    cg_diags_destroy(quiet.d);
    if (*simple)
        return b.s ? b.s : strdup("");
    free(b.s);
    return c->too_big ? NULL : strdup(value);
}

/* -1 when out of memory, -2 after an error reported in c->d. */
static int assign(mk_ctx *c, const char *name, const char *op,
                  const char *value, const char *file, int line)
{
    mk_var *v = find_var(c, name, strlen(name));
    if (!strcmp(op, "?=") && v)
        return 0;
    bool simple = !strcmp(op, ":=") || !strcmp(op, "::=");
    if (!strcmp(op, "+=") && v) /* appends in the variable's own flavour */
        simple = v->simple;
    char *text = simple ? expand_now(c, value, file, line, &simple)
                        : strdup(value);
    if (!text && c->too_big)
        return -2;
    if (!text || (!v && !(v = new_var(c, name))))
        return -1;
    if (strcmp(op, "+=")) {
        clear_var(v);
        v->simple = simple;
    } else if (v->simple && !simple) {
        v->simple = false; /* keep the raw text: expanded when read */
    }
    return add_piece(v, text, file, line);
}

static bool is_ours(const char *name)
{
    return !strcmp(name, "LOOP_TAGS") || !strcmp(name, "DFG_FLAGS") ||
           !strcmp(name, "CFLAGS");
}

static bool starts_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    return !strncmp(s, w, n) && (!s[n] || s[n] == ' ' || s[n] == '\t');
}

/* The assignment operator of line (at *at, name before it), or NULL when
 * the line is a rule, a directive or anything else that is not one. */
static const char *find_op(char *line, char **at)
{
    static const char *const ops[] = {"::=", ":=", "?=", "+=", "!=", "="};
    char *eq = strchr(line, '=');
    if (!eq)
        return NULL;
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        size_t k = strlen(ops[i]) - 1;
        if ((size_t)(eq - line) >= k && !strncmp(eq - k, ops[i], k + 1)) {
            *at = eq - k;
            /* a ':' before the operator makes it a rule ("t: V=x") */
            return memchr(line, ':', (size_t)(*at - line)) ? NULL : ops[i];
        }
    }
    return NULL;
}

static int read_mk(mk_ctx *c, const char *path, const char *from, int at);

static int include(mk_ctx *c, char *list, bool optional, const char *file,
                   int line)
{
    mk_buf b = {0};
    int rc = expand(c, list, file, line, 0, &b);
    char *save = NULL;
    for (char *w = rc == 0 ? strtok_r(b.s, " \t", &save) : NULL; w && !rc;
         w = strtok_r(NULL, " \t", &save)) {
        size_t n = strlen(c->dir) + strlen(w) + 2;
        char *p = malloc(n);
        if (!p) {
            rc = -1;
            break;
        }
        snprintf(p, n, "%s/%s", w[0] == '/' ? "" : c->dir,
                 w[0] == '/' ? w + 1 : w);
        FILE *f = optional ? fopen(p, "r") : NULL;
        if (!optional || f)
            rc = read_mk(c, p, file, line);
        if (f)
            fclose(f);
        free(p);
    }
    free(b.s);
    return rc;
}

/* ifeq/ifneq/ifdef/ifndef ... else ... endif: true when s is one of those
 * lines (their nesting is counted; the branches are not evaluated). */
static bool conditional(mk_ctx *c, const char *s)
{
    static const char *const opens[] = {"ifeq", "ifneq", "ifdef", "ifndef"};
    for (size_t i = 0; i < sizeof opens / sizeof *opens; i++)
        if (starts_word(s, opens[i])) {
            c->cond++;
            return true;
        }
    if (starts_word(s, "endif"))
        c->cond -= c->cond > 0;
    return starts_word(s, "endif") || starts_word(s, "else");
}

/* "NAME op value": the assignment; the rest of make is skipped.  Inside a
 * conditional, one of the three variables is an error: its value would be
 * a guess. */
static int assignment(mk_ctx *c, char *s, const char *file, int line)
{
    char *at = NULL, buf[256];
    const char *op = find_op(s, &at);
    if (!op)
        return 0;
    snprintf(buf, sizeof buf, "%.*s", (int)(at - s), s);
    char *name = trim(buf);
    if (c->cond && is_ours(name)) {
        cg_diags_add(c->d, CG_SEV_ERROR, file, line, "cgramap does not "
                     "evaluate make conditionals (ifeq, ifdef, ...); set %s "
                     "outside them", name);
        return -1;
    }
    if (c->cond || (!strcmp(op, "!=") && !is_ours(name)))
        return 0;
    if (!strcmp(op, "!=")) {
        cg_diags_add(c->d, CG_SEV_ERROR, file, line, "cgramap does not run "
                     "shell assignments ('%s !='); write the value out", name);
        return -1;
    }
    int rc = assign(c, name, op, trim(at + strlen(op)), file, line);
    if (rc == -1)
        cg_diags_add(c->d, CG_SEV_ERROR, file, line, "out of memory");
    return rc < 0 ? -1 : 0;
}

/* define NAME ... endef (a multi-line value) or undefine NAME: of another
 * variable, skipped (define's body too); of one of the three, an error,
 * for its value would be a guess. */
static int define(mk_ctx *c, char *s, const char *file, int line)
{
    bool un = s[0] == 'u';
    char *name = trim(s + (un ? 8 : 6));
    name[strcspn(name, " \t=:?+!")] = 0; /* "define NAME =" */
    if (is_ours(name)) {
        cg_diags_add(c->d, CG_SEV_ERROR, file, line, un
                     ? "cgramap does not run 'undefine %s'; remove the line "
                       "or write %s ="
                     : "cgramap does not read 'define %s' (a multi-line "
                       "value); write %s = VALUE on one line",
                     name, name);
        return -1;
    }
    c->in_define = !un;
    return 0;
}

/* One logical line (continuations joined, comment cut). */
static int mk_line(mk_ctx *c, char *s, const char *file, int line)
{
    if (s[0] == '\t')
        return 0; /* a recipe: make's business */
    s = trim(s);
    while (starts_word(s, "export") || starts_word(s, "override"))
        s = trim(s + (s[0] == 'e' ? 6 : 8)); /* they apply to what follows */
    if (c->in_define) {
        c->in_define = !starts_word(s, "endef");
        return 0;
    }
    if (conditional(c, s))
        return 0;
    if (starts_word(s, "define") || starts_word(s, "undefine"))
        return define(c, s, file, line);
    bool inc = starts_word(s, "include");
    if (!inc && !starts_word(s, "-include") && !starts_word(s, "sinclude"))
        return assignment(c, s, file, line);
    if (c->cond) {
        cg_diags_add(c->d, CG_SEV_ERROR, file, line, "cgramap does not "
                     "evaluate make conditionals (ifeq, ifdef, ...); put the "
                     "include outside them");
        return -1;
    }
    return include(c, s + (inc ? 7 : 8), !inc, file, line);
}

/* Physical lines of any length (getline) joined into logical ones in a
 * growing buffer: a long line is read whole, never cut or split. */
static int read_lines(mk_ctx *c, FILE *f, const char *path)
{
    char *buf = NULL;
    size_t cap = 0;
    mk_buf line = {0};
    int rc = 0, n = 0, first = 0;
    bool in_comment = false; /* a comment ended in '\' goes on here */
    while (rc == 0 && getline(&buf, &cap, f) >= 0) {
        n++;
        size_t k = strlen(buf);
        while (k && strchr(" \t\r\n", buf[k - 1]))
            buf[--k] = 0;
        bool cont = k && buf[k - 1] == '\\';
        char *hash = in_comment ? buf : strchr(buf, '#');
        /* as in make, a '\' at the end of a comment continues the comment */
        in_comment = hash && cont;
        if (hash)
            *hash = 0;
        else if (cont)
            buf[--k] = 0;
        if (!line.n)
            first = n;
        /* the first line keeps its leading tab: that marks a recipe */
        char *t = line.n ? trim(buf) : buf;
        rc = buf_add(&line, t, strlen(t)) | buf_add(&line, " ", 1);
        if (rc)
            cg_diags_add(c->d, CG_SEV_ERROR, path, n, "out of memory");
        else if (!cont) {
            rc = mk_line(c, line.s, path, first);
            line.n = 0;
        }
    }
    if (rc == 0 && line.n)
        rc = mk_line(c, line.s, path, first);
    free(line.s);
    free(buf);
    return rc;
}

/* What f is when it is not a regular file ("a directory", ...), NULL when
 * it is one. */
static const char *not_a_file(FILE *f)
{
    struct stat st;
    if (fstat(fileno(f), &st))
        return "unreadable";
    if (S_ISREG(st.st_mode))
        return NULL;
    return S_ISDIR(st.st_mode) ? "a directory" : "a device or pipe";
}

static int read_mk(mk_ctx *c, const char *path, const char *from, int at)
{
    if (c->includes == MK_MAX_INCLUDE) {
        cg_diags_add(c->d, CG_SEV_ERROR, from, at, "includes nest more than "
                     "%d deep (does '%s' include itself?)", MK_MAX_INCLUDE,
                     path);
        return -1;
    }
    FILE *f = fopen(path, "r");
    const char *what = f ? not_a_file(f) : NULL;
    if (what) {
        /* a folder reads as empty, /dev/zero never ends */
        cg_diags_add(c->d, CG_SEV_ERROR, from ? from : path, from ? at : 0,
                     "'%s' is %s, not a file; name a Makefile", path, what);
        fclose(f);
        return -1;
    }
    if (!f) {
        if (from)
            cg_diags_add(c->d, CG_SEV_ERROR, from, at, "cannot read the "
                         "included file '%s': %s (make reads it relative to "
                         "the Makefile's folder)", path, strerror(errno));
        else
            cg_diags_add(c->d, CG_SEV_ERROR, path, 0, "cannot read the "
                         "Makefile: %s", strerror(errno));
        return -1;
    }
    c->includes++;
    int rc = read_lines(c, f, path);
    c->includes--;
    fclose(f);
    return rc;
}

/* ---- the three variables --------------------------------------------- */

static int parse_at(cg_extract_params *p, char *flags, const char *file,
                    int line, cg_diags *d);

/* Cut "-loop-tags 'a b'" (CGRA-ME's rules.mk adds it) out of flags into
 * *tags (*cut set); the quotes are the shell's.  -1 after an error. */
static int cut_loop_tags(char *flags, char **tags, bool *cut,
                         const char *file, int line, cg_diags *d)
{
    char *w = flags;
    while (*(w += strspn(w, " \t"))) {
        size_t n = strcspn(w, " \t");
        if (!(n == 10 && !strncmp(w, "-loop-tags", 10)) &&
            !(n == 11 && !strncmp(w, "--loop-tags", 11))) {
            w += n;
            continue;
        }
        char *v = w + n + strspn(w + n, " \t"), *stop;
        char q = *v == '\'' || *v == '"' ? *v : 0;
        stop = q ? strchr(v + 1, q) : v + strcspn(v, " \t");
        if (q && !stop) {
            cg_diags_add(d, CG_SEV_ERROR, file, line, "-loop-tags %s has no "
                         "closing quote", v);
            return -1;
        }
        v += q != 0;
        if (stop == v) {
            cg_diags_add(d, CG_SEV_ERROR, file, line, "-loop-tags needs the "
                         "tags of the loops, as in -loop-tags 'loop1 loop2'");
            return -1;
        }
        free(*tags);
        if (!(*tags = strndup(v, (size_t)(stop - v))))
            return -1;
        *cut = true;
        char *after = stop + (q != 0);
        memmove(w, after, strlen(after) + 1);
    }
    return 0;
}

/* The words of a and b, blanks ignored, are the same. */
static bool same_words(const char *a, const char *b)
{
    for (;;) {
        a += strspn(a, " \t");
        b += strspn(b, " \t");
        size_t n = strcspn(a, " \t"), k = strcspn(b, " \t");
        if (n != k || strncmp(a, b, n))
            return false;
        if (!n)
            return true;
        a += n, b += k;
    }
}

/* DFG_FLAGS piece by piece: each is expanded, its -loop-tags cut out, and
 * checked at its own file:line; the rest is joined into m->dfg_flags. */
static int dfg_flags(mk_ctx *c, mk_var *v, cg_extract_makefile *m,
                     char **tags, const mk_piece **tags_at)
{
    mk_buf all = {0};
    int rc = buf_add(&all, "", 0);
    for (int i = 0; i < v->n && rc == 0; i++) {
        const mk_piece *pc = &v->v[i];
        mk_buf b = {0};
        bool cut = false;
        rc = v->simple ? buf_add(&b, pc->text, strlen(pc->text))
                       : expand(c, pc->text, pc->file, pc->line, 0, &b);
        if (rc == 0 && b.s)
            rc = cut_loop_tags(b.s, tags, &cut, pc->file, pc->line, c->d);
        if (cut)
            *tags_at = pc;
        char *copy = rc == 0 && b.s ? strdup(b.s) : NULL;
        cg_extract_params scratch;
        cg_extract_params_init(&scratch);
        if (copy)
            rc = parse_at(&scratch, copy, pc->file, pc->line, c->d);
        free(copy);
        char *t = b.s ? trim(b.s) : NULL;
        if (rc == 0 && t && *t)
            rc = buf_add(&all, all.n ? " " : "", all.n ? 1 : 0) |
                 buf_add(&all, t, strlen(t));
        free(b.s);
    }
    m->dfg_flags = all.s;
    return rc;
}

static int read_var(mk_ctx *c, const char *name, char **out)
{
    mk_buf b = {0};
    mk_var *v = find_var(c, name, strlen(name));
    if (!v)
        return 0;
    c->refs = 0;
    int rc = v->n ? expand_var(c, name, strlen(name), v->v[0].file,
                               v->v[0].line, 0, &b)
                  : buf_add(&b, "", 0);
    *out = b.s ? strdup(trim(b.s)) : NULL;
    free(b.s);
    return rc;
}

static int resolve(mk_ctx *c, cg_extract_makefile *m)
{
    char *tags = NULL;
    const mk_piece *at = NULL;
    mk_var *flags = find_var(c, "DFG_FLAGS", 9);
    int rc = read_var(c, "LOOP_TAGS", &m->loop_tags) |
             read_var(c, "CFLAGS", &m->cflags) |
             (flags ? dfg_flags(c, flags, m, &tags, &at) : 0);
    if (rc == 0 && tags && m->loop_tags && !same_words(tags, m->loop_tags)) {
        mk_var *lt = find_var(c, "LOOP_TAGS", 9);
        cg_diags_add(c->d, CG_SEV_ERROR, at->file, at->line, "-loop-tags "
                     "'%s' names other loops than LOOP_TAGS = %s (%s:%d); "
                     "give the tags once, in LOOP_TAGS", tags, m->loop_tags,
                     lt->v[lt->n - 1].file, lt->v[lt->n - 1].line);
        rc = -1;
    } else if (rc == 0 && tags && !m->loop_tags) {
        m->loop_tags = tags;
        tags = NULL;
    }
    free(tags);
    return rc ? -1 : 0;
}

int cg_extract_makefile_read(const char *path, cg_extract_makefile *m,
                             cg_diags *d)
{
    memset(m, 0, sizeof *m);
    int errors = cg_diags_errors(d);
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path))
                      : strdup(".");
    mk_ctx c = {.dir = dir, .d = d};
    int rc = dir ? read_mk(&c, path, NULL, 0) : -1;
    if (rc == 0)
        rc = resolve(&c, m);
    /* the steps above say what is wrong with the file; what they leave
       unsaid is an allocation that failed */
    if (rc && cg_diags_errors(d) == errors)
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "out of memory");
    for (int i = 0; i < c.n; i++) {
        clear_var(&c.vars[i]);
        free(c.vars[i].name);
    }
    free(c.vars);
    free(dir);
    if (rc)
        cg_extract_makefile_free(m);
    return rc;
}

void cg_extract_makefile_free(cg_extract_makefile *m)
{
    free(m->loop_tags);
    free(m->dfg_flags);
    free(m->cflags);
    memset(m, 0, sizeof *m);
}

/* ---- DFG flags --------------------------------------------------------- */

static int sym(cg_extract_params *p, char *w, const char *file, int line,
               cg_diags *d)
{
    char *eq = w ? strchr(w, '=') : NULL;
    char *end = NULL;
    long long v = eq ? strtoll(eq + 1, &end, 0) : 0;
    if (!eq || eq == w || end == eq + 1 || *end) {
        cg_diags_add(d, CG_SEV_ERROR, file, line, "--sym needs NAME=INTEGER, "
                     "got '%s'", w ? w : "");
        return -1;
    }
    if (p->nsyms == CG_EXTRACT_MAX_SYMS) {
        cg_diags_add(d, CG_SEV_ERROR, file, line, "more than %d symbols",
                     CG_EXTRACT_MAX_SYMS);
        return -1;
    }
    *eq = 0;
    p->syms[p->nsyms].name = w;
    p->syms[p->nsyms++].value = v;
    return 0;
}

static int parse_at(cg_extract_params *p, char *flags, const char *file,
                    int line, cg_diags *d)
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
        else if (!strcmp(w, "-no-hoist") || !strcmp(w, "--no-hoist"))
            p->hoist = false;
        else if (!strcmp(w, "--sym") || !strcmp(w, "-sym"))
            rc |= sym(p, strtok_r(NULL, " \t\n", &save), file, line, d);
        else if (!strncmp(w, "--sym=", 6) || !strncmp(w, "-sym=", 5))
            rc |= sym(p, strchr(w, '=') + 1, file, line, d);
        else {
            cg_diags_add(d, CG_SEV_ERROR, file, line, "unknown DFG flag '%s' "
                         "(known: -no-phi-removal, -no-leaf-removal, -no-hoist, "
                         "--sym NAME=VALUE, -loop-tags 'TAGS' in a Makefile)",
                         w);
            rc = -1;
        }
    }
    return rc;
}

int cg_extract_params_parse(cg_extract_params *p, char *flags,
                            const char *file, cg_diags *d)
{
    return parse_at(p, flags, file, 0, d);
}
