/* dot_parse.c: the Graphviz language, as far as a DFG file uses it, parsed
 * into statements that remember their line (dot_internal.h).
 *
 * Written by hand on purpose: the DFG reader must point every message at
 * the statement it is about, and no packaged dot parser gives per-statement
 * line numbers (Graphviz's cgraph reports syntax errors with a line but
 * keeps none on nodes or edges).  The grammar is Graphviz's
 * (https://graphviz.org/doc/info/lang.html) with these limits, each
 * reported with a message saying so: one digraph per file (no undirected
 * graph, no '--'), no subgraphs, no ports.  Comments (slash-slash,
 * slash-star, '#' lines), quoted strings with '+' concatenation, HTML
 * strings, ';' or ',' between attributes, optional ';' between statements
 * and node/edge/graph default statements are accepted. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/arena.h"
#include "../common/util.h"
#include "dot_internal.h"

typedef enum tkind {
    T_EOF, T_ID, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK, T_SEMI, T_COMMA,
    T_EQ, T_COLON, T_ARROW, T_DASHDASH
} tkind;

typedef struct token {
    tkind k;
    const char *s;  /* T_ID: the id (in the graph's arena), unescaped */
    bool quoted;    /* T_ID: written as "..." or <...> */
    int line;
} token;

typedef struct parser {
    const char *p;        /* next character */
    int line;             /* line of *p */
    cg__dot_graph *g;
    cg_diags *d;
    token t;              /* the current token */
    cg__dot_attrs node_def, edge_def; /* node [...] and edge [...] */
} parser;

/* ---- storage ----------------------------------------------------------- */

static bool attrs_add(cg__dot_attrs *a, const char *key, const char *val,
                      int line)
{
    if (CG_GROW(a->v, a->cap, a->n + 1))
        return false;
    a->v[a->n++] = (cg__dot_attr){key, val, line};
    return true;
}

static bool attrs_append(cg__dot_attrs *dst, const cg__dot_attrs *src)
{
    for (int i = 0; i < src->n; i++)
        if (!attrs_add(dst, src->v[i].key, src->v[i].val, src->v[i].line))
            return false;
    return true;
}

void cg__dot_graph_free(cg__dot_graph *g)
{
    for (int i = 0; i < g->nnodes; i++)
        free(g->nodes[i].a.v);
    for (int i = 0; i < g->nedges; i++)
        free(g->edges[i].a.v);
    cg_arena_destroy(g->strs);
    free(g->nodes), free(g->edges), free(g->gattrs.v);
    cg_strmap_destroy(g->index);
}

int cg__dot_find(const cg__dot_graph *g, const char *name)
{
    int i;
    return cg_strmap_get(g->index, name, &i) ? i : -1;
}

const char *cg__dot_get(const cg__dot_attrs *a, const char *key, int *line)
{
    for (int i = a->n - 1; i >= 0; i--)
        if (strcmp(a->v[i].key, key) == 0) {
            if (line)
                *line = a->v[i].line;
            return a->v[i].val;
        }
    return NULL;
}

/* ---- errors ------------------------------------------------------------ */

static int __attribute__((format(printf, 3, 4)))
error(parser *ps, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cg_diags_vadd(ps->d, CG_SEV_ERROR, ps->g->file, line, fmt, ap);
    va_end(ap);
    return -1;
}

static int no_memory(parser *ps)
{
    return error(ps, ps->line, "out of memory");
}

/* The current token as a message shows it: 'a', "a b", '{', end of file. */
static const char *describe(const token *t, char *buf, size_t len)
{
    static const char *const punct[] = {
        "end of file", "", "'{'", "'}'", "'['", "']'", "';'", "','", "'='",
        "':'", "'->'", "'--'"};
    if (t->k != T_ID)
        return punct[t->k];
    const char *q = t->quoted ? "\"" : "'";
    size_t n = strlen(t->s);
    snprintf(buf, len, "%s%.40s%s%s", q, t->s, n > 40 ? "..." : "", q);
    return buf;
}

static int unexpected(parser *ps, const char *expected)
{
    char buf[64];
    return error(ps, ps->t.line, "unexpected %s; expected %s",
                 describe(&ps->t, buf, sizeof buf), expected);
}

/* ---- the lexer --------------------------------------------------------- */

static bool id_start(int c) { return isalpha(c) || c == '_' || c >= 0x80; }
static bool id_char(int c) { return id_start(c) || isdigit(c); }

/* Skip blanks and comments; -1 on an unterminated comment. */
static int skip_space(parser *ps)
{
    for (;;) {
        const char *p = ps->p;
        if (*p == '\n') {
            ps->line++;
            ps->p++;
        } else if (isspace((unsigned char)*p)) {
            ps->p++;
        } else if ((p[0] == '/' && p[1] == '/') || p[0] == '#') {
            while (*ps->p && *ps->p != '\n')
                ps->p++;
        } else if (p[0] == '/' && p[1] == '*') {
            int open = ps->line;
            for (ps->p += 2; !(ps->p[0] == '*' && ps->p[1] == '/'); ps->p++) {
                if (!*ps->p)
                    return error(ps, open, "unterminated comment: the '/*' "
                                 "opened here has no closing '*/'");
                ps->line += *ps->p == '\n';
            }
            ps->p += 2;
        } else {
            return 0;
        }
    }
}

/* A "..." string from ps->p (at the quote), unescaped into a new string
 * in the graph's arena: \" and \\ stand for themselves, a backslash-newline
 * is dropped, any other backslash stays (Graphviz keeps \n, \l for
 * labels). */
static char *quoted(parser *ps)
{
    int open = ps->line;
    const char *p = ps->p + 1, *end = p;
    while (*end && *end != '"')
        end += end[0] == '\\' && end[1] ? 2 : 1;
    if (!*end) {
        error(ps, open, "unterminated string: the '\"' opened here has no "
              "closing '\"'");
        return NULL;
    }
    char *s = cg_arena_alloc(ps->g->strs, (size_t)(end - p) + 1, 1), *o = s;
    if (!s)
        return NULL;
    for (; *p != '"'; p++) {
        if (p[0] == '\\' && (p[1] == '"' || p[1] == '\\')) {
            *o++ = *++p;
        } else if (p[0] == '\\' && p[1] == '\n') {
            p++;
            ps->line++;
        } else {
            ps->line += *p == '\n';
            *o++ = *p;
        }
    }
    *o = 0;
    ps->p = p + 1;
    return s;
}

/* "a" + "b" + ...: Graphviz's concatenation of quoted strings (the parts
 * stay in the arena too: concatenation is rare). */
static char *quoted_concat(parser *ps)
{
    char *s = quoted(ps);
    while (s) {
        const char *save = ps->p;
        int save_line = ps->line;
        if (skip_space(ps)) /* reported */
            return NULL;
        if (*ps->p != '+') {
            ps->p = save, ps->line = save_line;
            return s;
        }
        ps->p++;
        bool bad = skip_space(ps) ||
                   (*ps->p != '"' &&
                    error(ps, ps->line, "'+' must be followed by a quoted "
                          "string"));
        if (bad)
            return NULL;
        char *t = quoted(ps);
        char *u = t ? cg_arena_alloc(ps->g->strs, strlen(s) + strlen(t) + 1,
                                     1)
                    : NULL;
        if (u)
            strcat(strcpy(u, s), t);
        s = u;
    }
    return NULL;
}

/* An HTML string <...> (nested brackets balance); its text without the
 * outer brackets. */
static char *html(parser *ps)
{
    int open = ps->line, depth = 0;
    const char *p = ps->p;
    do {
        if (!*p) {
            error(ps, open, "unterminated HTML string: the '<' opened here "
                  "has no closing '>'");
            return NULL;
        }
        depth += (*p == '<') - (*p == '>');
        ps->line += *p == '\n';
        p++;
    } while (depth > 0);
    char *s = cg_arena_strndup(ps->g->strs, ps->p + 1,
                               (size_t)(p - ps->p - 2));
    ps->p = p;
    return s;
}

/* A bare id or a numeral ([-]digits[.digits]). */
static char *bare(parser *ps)
{
    const char *p = ps->p;
    if (id_start((unsigned char)*p)) {
        while (id_char((unsigned char)*p))
            p++;
    } else {
        p += *p == '-';
        while (isdigit((unsigned char)*p) || *p == '.')
            p++;
        if (id_char((unsigned char)*p)) {
            const char *e = p;
            while (id_char((unsigned char)*e))
                e++;
            error(ps, ps->line, "'%.*s' is not a valid id: an id that starts "
                  "with a digit must be quoted (\"%.*s\")", (int)(e - ps->p),
                  ps->p, (int)(e - ps->p), ps->p);
            return NULL;
        }
    }
    char *s = cg_arena_strndup(ps->g->strs, ps->p, (size_t)(p - ps->p));
    ps->p = p;
    return s;
}

static int lex_id(parser *ps)
{
    char c = *ps->p;
    int nerr = cg_diags_errors(ps->d);
    char *s = c == '"' ? quoted_concat(ps) : c == '<' ? html(ps) : bare(ps);
    if (!s)
        return cg_diags_errors(ps->d) > nerr ? -1 : no_memory(ps);
    ps->t.k = T_ID;
    ps->t.quoted = c == '"' || c == '<';
    ps->t.s = s;
    return 0;
}

/* Read the next token into ps->t; -1 (reported) on a lexical error. */
static int next(parser *ps)
{
    if (skip_space(ps))
        return -1;
    static const char single[] = "{}[];,=:";
    static const tkind kinds[] = {T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK,
                                  T_SEMI, T_COMMA, T_EQ, T_COLON};
    const char *p = ps->p;
    ps->t = (token){.line = ps->line};
    if (!*p) {
        ps->t.k = T_EOF;
        return 0;
    }
    const char *k = strchr(single, *p);
    if (k) {
        ps->t.k = kinds[k - single];
        ps->p++;
        return 0;
    }
    if (p[0] == '-' && (p[1] == '>' || p[1] == '-')) {
        ps->t.k = p[1] == '>' ? T_ARROW : T_DASHDASH;
        ps->p += 2;
        return 0;
    }
    bool num = isdigit((unsigned char)p[0]) ||
               ((p[0] == '-' || p[0] == '.') &&
                (isdigit((unsigned char)p[1]) || p[1] == '.'));
    if (*p == '"' || *p == '<' || id_start((unsigned char)*p) || num)
        return lex_id(ps);
    if (isprint((unsigned char)*p))
        return error(ps, ps->line, "unexpected character '%c'", *p);
    return error(ps, ps->line, "unexpected byte 0x%02x",
                 (unsigned)(unsigned char)*p);
}

/* ---- the grammar ------------------------------------------------------- */

/* The current token is the unquoted keyword kw (any case). */
static bool is_kw(const parser *ps, const char *kw)
{
    return ps->t.k == T_ID && !ps->t.quoted && strcasecmp(ps->t.s, kw) == 0;
}

static bool is_keyword(const parser *ps)
{
    static const char *const kws[] = {"strict", "graph", "digraph", "node",
                                      "edge", "subgraph"};
    for (size_t i = 0; i < sizeof kws / sizeof *kws; i++)
        if (is_kw(ps, kws[i]))
            return true;
    return false;
}

/* attr_list: ('[' (ID '=' ID [;,])* ']')+, appended to a. */
static int attr_list(parser *ps, cg__dot_attrs *a)
{
    char buf[64];
    while (ps->t.k == T_LBRACK) {
        if (next(ps))
            return -1;
        while (ps->t.k != T_RBRACK) {
            if (ps->t.k != T_ID)
                return unexpected(ps, "an attribute name or ']'");
            token key = ps->t;
            if (next(ps))
                return -1;
            if (ps->t.k != T_EQ)
                return error(ps, ps->t.line, "unexpected %s; expected '=' "
                             "after attribute '%s' (attributes are "
                             "name=value)", describe(&ps->t, buf, sizeof buf),
                             key.s);
            if (next(ps))
                return -1;
            if (ps->t.k != T_ID)
                return error(ps, ps->t.line, "unexpected %s; expected a value "
                             "after '%s='", describe(&ps->t, buf, sizeof buf),
                             key.s);
            if (!attrs_add(a, key.s, ps->t.s, key.line))
                return no_memory(ps);
            if (next(ps))
                return -1;
            if ((ps->t.k == T_SEMI || ps->t.k == T_COMMA) && next(ps))
                return -1;
        }
        if (next(ps))
            return -1;
    }
    return 0;
}

/* A node id where one is needed: no keyword, no subgraph, no port. */
static int node_id(parser *ps, const char *what)
{
    if (ps->t.k == T_LBRACE || is_kw(ps, "subgraph"))
        return error(ps, ps->t.line, "subgraphs are not supported in a DFG "
                     "file; write each edge as 'a->b[operand=K];'");
    if (ps->t.k != T_ID || is_keyword(ps))
        return unexpected(ps, what);
    return 0;
}

/* After a node id: a port ':p' is refused (operand=K says which input). */
static int no_port(parser *ps)
{
    if (ps->t.k == T_COLON)
        return error(ps, ps->t.line, "ports ('node:port') are not supported "
                     "in a DFG file; operand=K on the edge says which input "
                     "it feeds");
    if (ps->t.k == T_DASHDASH)
        return error(ps, ps->t.line, "'--' is an undirected edge; a DFG's "
                     "edges are directed: write '->'");
    return 0;
}

static int node_stmt(parser *ps, const token *id)
{
    cg__dot_graph *g = ps->g;
    int i = cg__dot_find(g, id->s);
    if (i < 0) {
        if (!g->index && !(g->index = cg_strmap_create()))
            return no_memory(ps);
        if (CG_GROW(g->nodes, g->cap_nodes, g->nnodes + 1) ||
            cg_strmap_put(g->index, id->s, g->nnodes))
            return no_memory(ps);
        i = g->nnodes++;
        g->nodes[i] = (cg__dot_node){.name = id->s, .line = id->line};
        if (!attrs_append(&g->nodes[i].a, &ps->node_def))
            return no_memory(ps);
    }
    return attr_list(ps, &g->nodes[i].a);
}

/* a -> b [-> c ...] [attrs]: one edge per arrow, each with the attrs. */
static int edge_stmt(parser *ps, const token *first)
{
    cg__dot_graph *g = ps->g;
    int start = g->nedges;
    const char *src = first->s;
    while (ps->t.k == T_ARROW) {
        int line = ps->t.line;
        if (next(ps) || node_id(ps, "a node name after '->'"))
            return -1;
        if (CG_GROW(g->edges, g->cap_edges, g->nedges + 1))
            return no_memory(ps);
        g->edges[g->nedges] = (cg__dot_edge){src, ps->t.s, line, {0}};
        src = g->edges[g->nedges++].dst;
        if (next(ps) || no_port(ps))
            return -1;
    }
    cg__dot_attrs a = {0};
    int rc = attr_list(ps, &a);
    for (int e = start; e < g->nedges && !rc; e++)
        if (!attrs_append(&g->edges[e].a, &ps->edge_def) ||
            !attrs_append(&g->edges[e].a, &a))
            rc = no_memory(ps);
    free(a.v);
    return rc;
}

/* graph|node|edge [attrs]: graph attributes or defaults for what follows. */
static int attr_stmt(parser *ps)
{
    cg__dot_attrs *a = is_kw(ps, "graph") ? &ps->g->gattrs
                       : is_kw(ps, "node") ? &ps->node_def : &ps->edge_def;
    char kw[16];
    snprintf(kw, sizeof kw, "%s", ps->t.s);
    if (next(ps))
        return -1;
    if (ps->t.k != T_LBRACK)
        return error(ps, ps->t.line, "'%s' must be followed by an attribute "
                     "list [name=value, ...]", kw);
    return attr_list(ps, a);
}

static int stmt(parser *ps)
{
    if (is_kw(ps, "graph") || is_kw(ps, "node") || is_kw(ps, "edge"))
        return attr_stmt(ps);
    if (node_id(ps, "a statement ('name[opcode=...];' or "
                "'a->b[operand=K];')"))
        return -1;
    token id = ps->t;
    if (next(ps) || no_port(ps))
        return -1;
    if (ps->t.k == T_EQ) { /* ID = ID: a graph attribute */
        if (next(ps))
            return -1;
        if (ps->t.k != T_ID)
            return unexpected(ps, "a value after '='");
        if (!attrs_add(&ps->g->gattrs, id.s, ps->t.s, id.line))
            return no_memory(ps);
        return next(ps);
    }
    return ps->t.k == T_ARROW ? edge_stmt(ps, &id) : node_stmt(ps, &id);
}

/* ['strict'] 'digraph' [ID] '{' stmt* '}' and nothing after it. */
static int graph(parser *ps)
{
    if (next(ps))
        return -1;
    if (is_kw(ps, "strict") && next(ps))
        return -1;
    if (is_kw(ps, "graph"))
        return error(ps, ps->t.line, "'graph' is an undirected graph; a DFG "
                     "is directed: write 'digraph'");
    if (!is_kw(ps, "digraph"))
        return unexpected(ps, "'digraph' (a DFG file is 'digraph NAME { "
                          "... }')");
    if (next(ps))
        return -1;
    if (ps->t.k == T_ID) {
        ps->g->id = ps->t.s;
        ps->g->id_quoted = ps->t.quoted;
        if (next(ps))
            return -1;
    }
    if (ps->t.k != T_LBRACE)
        return unexpected(ps, "'{' after 'digraph'");
    int open = ps->t.line;
    if (next(ps))
        return -1;
    while (ps->t.k != T_RBRACE) {
        if (ps->t.k == T_EOF)
            return error(ps, ps->t.line, "unexpected end of file: the '{' at "
                         "line %d is never closed with '}'", open);
        if (stmt(ps) || (ps->t.k == T_SEMI && next(ps)))
            return -1;
    }
    if (next(ps))
        return -1;
    if (ps->t.k != T_EOF)
        return unexpected(ps, "end of file after the graph's closing '}' "
                          "(one digraph per file: `cgramap dfg --loop TAG "
                          "-o TAG.dot` writes one loop's)");
    return 0;
}

int cg__dot_parse(const char *text, cg__dot_graph *g, cg_diags *d)
{
    parser ps = {.p = text, .line = 1, .g = g, .d = d};
    if (strncmp(text, "\xef\xbb\xbf", 3) == 0) /* a UTF-8 byte order mark */
        ps.p += 3;
    g->strs = cg_arena_create(0);
    int rc = g->strs ? graph(&ps) : no_memory(&ps);
    free(ps.node_def.v);
    free(ps.edge_def.v);
    return rc;
}
