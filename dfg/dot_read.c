/* dot_read.c: a DFG from its .dot form (cg_dfg_read_dot).
 *
 * dot_parse.c turns the text into statements with lines; this file gives
 * them their meaning: attributes, defaults for what CGRA-ME files leave
 * out (widths, distances), then cg__dfg_check with every message placed at
 * the .dot statement it is about.  Any error yields NULL. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/input.h"
#include "dfg_internal.h"
#include "dot_internal.h"

/* Graphviz attributes that change only the picture; they are ignored.
 * Graphviz's own "width" (inches) is not among them: "width" is the bit
 * width here.  "cycle" is CGRA-ME's schedule annotation. */
static const char *const cosmetic[] = {
    "label", "xlabel", "headlabel", "taillabel", "shape", "color",
    "fillcolor", "fontcolor", "fontname", "fontsize", "style", "penwidth",
    "arrowhead", "arrowtail", "arrowsize", "dir", "weight", "constraint",
    "group", "height", "fixedsize", "pos", "tooltip", "URL", "href", "id",
    "class", "comment", "peripheries", "minlen", "labelfontcolor",
    "labelfontname", "labelfontsize", "margin", "orientation", "sides",
    "skew", "distortion", "regular", "sortv", "cycle"};

/* constVal: CGRA-ME 2's spelling of value; memName: its array of a load
 * or store (addresses are what the address operand computes). */
static const char *const node_keys[] = {"opcode", "width", "value", "pred",
                                        "sym", "line", "bank", "constVal",
                                        "memName"};
static const char *const edge_keys[] = {"operand", "distance", "init"};

typedef struct builder {
    const cg__dot_graph *pg;
    cg_dfg *g;
    cg_diags *d;
    int errors;
    bool *width_given;    /* per node */
    bool *distance_given; /* per edge */
    const char **unknown; /* keys of the unknown attributes reported */
    int nunknown;
    bool llvm_stores;     /* CGRA-ME 1.x's store operands (cgrame1_file) */
    bool *branch;         /* per node: CGRA-ME 2.x's loop branch (br) */
    bool *any;            /* per edge: operand=any2input/any3input */
    int *node_of;         /* after loop_control: graph id -> parse index */
    int *edge_of;         /* and edge id -> parse index */
} builder;

static void __attribute__((format(printf, 3, 4)))
report(builder *b, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cg_diags_vadd(b->d, CG_SEV_ERROR, b->pg->file, line, fmt, ap);
    va_end(ap);
    b->errors++;
}

static bool listed(const char *const *v, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], key) == 0)
            return true;
    return false;
}
#define LISTED(v, key) listed(v, sizeof v / sizeof *v, key)

/* Every attribute of a is known or cosmetic; what names the statement.
 * An unknown one from a node [...] or edge [...] default is reported once,
 * not once per node: copies of one default share its key string. */
static void known_attrs(builder *b, const cg__dot_attrs *a, const char *what,
                        bool node)
{
    for (int i = 0; i < a->n; i++) {
        const char *k = a->v[i].key;
        if ((node ? LISTED(node_keys, k) : LISTED(edge_keys, k)) ||
            LISTED(cosmetic, k))
            continue;
        bool seen = false;
        for (int j = 0; j < b->nunknown && !seen; j++)
            seen = b->unknown[j] == k;
        if (seen)
            continue;
        report(b, a->v[i].line, "%s: unknown attribute '%s' (%s; label, "
               "shape, color and other purely cosmetic Graphviz attributes "
               "are ignored)", what, k,
               node ? "node attributes: opcode width value pred sym line "
                      "bank"
                    : "edge attributes: operand distance init");
        const char **u = realloc(b->unknown, (size_t)(b->nunknown + 1) *
                                             sizeof *u);
        if (u) {
            u[b->nunknown++] = k;
            b->unknown = u;
        }
    }
}

/* Integer attribute key of a, in lo..hi; false (reported) when malformed.
 * *v is left alone when the attribute is absent (*given false). */
static bool int_attr(builder *b, const cg__dot_attrs *a, const char *key,
                     const char *what, int64_t lo, int64_t hi, int64_t *v,
                     bool *given)
{
    int line = 0;
    const char *s = cg__dot_get(a, key, &line);
    if (given)
        *given = s != NULL;
    if (!s)
        return true;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (!*s || *end || isspace((unsigned char)*s)) {
        report(b, line, "%s: %s='%s' is not an integer", what, key, s);
        return false;
    }
    if (errno == ERANGE || x < lo || x > hi) {
        report(b, line, "%s: %s=%s is out of range (%lld to %lld)", what, key,
               s, (long long)lo, (long long)hi);
        return false;
    }
    *v = x;
    return true;
}

/* The opcode of node i; false (reported) when missing or unknown. */
static bool node_op(builder *b, int i, const char *what, cg_op *op)
{
    const cg__dot_node *n = &b->pg->nodes[i];
    int line = n->line;
    const char *s = cg__dot_get(&n->a, "opcode", &line);
    *op = CG_OP_NOP;
    if (!s)
        report(b, n->line, "%s has no opcode (give it opcode=NAME, NAME one "
               "of: %s)", what, cg_op_all_names());
    else if (!cg_op_parse(s, op))
        report(b, line, "%s: unknown opcode '%s' (opcodes: %s)", what, s,
               cg_op_all_names());
    else
        return true;
    return false;
}

/* value= (or constVal=) and sym=, which only some ops have. */
static void node_value_sym(builder *b, const cg__dot_attrs *a, int id,
                           const char *what)
{
    cg_op op = cg_dfg_get_node(b->g, id)->op;
    const char *key = cg__dot_get(a, "value", NULL) ? "value" : "constVal";
    int64_t value = 0;
    bool has_value = false;
    int at = 0;
    cg__dot_get(a, key, &at);
    if (int_attr(b, a, key, what, INT64_MIN, INT64_MAX, &value, &has_value) &&
        has_value) {
        if (op == CG_OP_CONST)
            cg_dfg_set_value(b->g, id, value);
        else
            report(b, at, "%s (%s): %s= is only for const nodes", what,
                   cg_op_name(op), key);
    }
    const char *sym = cg__dot_get(a, "sym", &at);
    if (sym && op != CG_OP_CONST && op != CG_OP_INPUT)
        report(b, at, "%s (%s): sym= is only for const and input nodes",
               what, cg_op_name(op));
    else if (sym)
        cg_dfg_set_sym(b->g, id, sym);
}

/* bank=: the tile-memory bank of a load or store (-1 = any). */
static void node_bank(builder *b, const cg__dot_attrs *a, int id,
                      const char *what)
{
    cg_op op = cg_dfg_get_node(b->g, id)->op;
    int64_t bank = -1;
    bool given = false;
    int at = 0;
    cg__dot_get(a, "bank", &at);
    if (!int_attr(b, a, "bank", what, -1, INT_MAX, &bank, &given) || !given)
        return;
    if (op != CG_OP_LOAD && op != CG_OP_STORE)
        report(b, at, "%s (%s): bank= is only for load and store nodes",
               what, cg_op_name(op));
    else
        cg_dfg_node_mut(b->g, id)->bank = (int)bank;
}

/* Node i of the parse as node i of the graph (added even when wrong, so
 * that ids stay aligned while errors are collected). */
static void add_node(builder *b, int i)
{
    const cg__dot_node *n = &b->pg->nodes[i];
    char what[160];
    snprintf(what, sizeof what, "node '%.120s'", n->name);
    cg_op op = CG_OP_NOP;
    const char *code = cg__dot_get(&n->a, "opcode", NULL);
    b->branch[i] = code && !strcmp(code, "br");
    bool op_ok = b->branch[i] || node_op(b, i, what, &op);
    int id = cg_dfg_add_node(b->g, op, 32, n->name);
    if (id < 0) {
        report(b, n->line, "out of memory");
        return;
    }
    int64_t width = 32, line = 0;
    int_attr(b, &n->a, "width", what, INT_MIN, INT_MAX, &width,
             &b->width_given[id]);
    int_attr(b, &n->a, "line", what, 0, INT_MAX, &line, NULL);
    cg_dfg_node *x = cg_dfg_node_mut(b->g, id);
    x->width = (int)width;
    x->line = (int)line;
    int at = 0;
    const char *pred = cg__dot_get(&n->a, "pred", &at);
    if (pred && !cg_pred_parse(pred, &x->pred))
        report(b, at, "%s: unknown predicate '%s' (pred= one of eq ne slt "
               "sle sgt sge ult ule ugt uge)", what, pred);
    if (op_ok) { /* what fits an op is unknown without one */
        node_value_sym(b, &n->a, id, what);
        node_bank(b, &n->a, id, what);
    }
    known_attrs(b, &n->a, what, true);
}

/* A node of an edge by name; -1 (reported) when never declared. */
static int edge_end(builder *b, const char *name, const char *what,
                    int line)
{
    int id = cg__dot_find(b->pg, name);
    if (id < 0)
        report(b, line, "%s: node '%s' is not declared (declare it with "
               "'%s[opcode=...];')", what, name, name);
    return id;
}

/* CGRA-ME 2.x names operands (its OpGraph.h): LHS and RHS, any2input and
 * any3input for ops whose operands commute (the next free one:
 * any_operands), addr and data of a memory op, branch_* into its loop
 * branch (dropped with it).  True when tag is one of those names, *operand
 * set; an unknown word is left to int_attr's message. */
static bool operand_tag(builder *b, const cg__dot_edge *x, const char *what,
                        const char *tag, int64_t *operand, bool *any)
{
    static const struct {
        const char *tag;
        int operand;
    } names[] = {{"LHS", 0}, {"RHS", 1}, {"addr", 0}, {"data", 1},
                 {"any2input", -2}, {"any3input", -2}, {"branch_cond", 0},
                 {"branch_true", 1}, {"branch_false", 2}};
    int line = x->line;
    cg__dot_get(&x->a, "operand", &line);
    if (!strcmp(tag, "pred")) {
        report(b, line, "%s: operand='pred' (CGRA-ME 2.x's predicate) is "
               "not read: cgramap has no predicated execution", what);
        *operand = 0;
        return true;
    }
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(tag, names[i].tag)) {
            *any = names[i].operand == -2;
            *operand = *any ? 0 : names[i].operand;
            return true;
        }
    return false;
}

static void add_edge(builder *b, int e)
{
    const cg__dot_edge *x = &b->pg->edges[e];
    char what[280];
    snprintf(what, sizeof what, "edge '%.120s' -> '%.120s'", x->src, x->dst);
    int src = edge_end(b, x->src, what, x->line);
    int dst = edge_end(b, x->dst, what, x->line);
    int64_t operand = -1, distance = 0;
    bool has_operand, named = false;
    const char *tag = cg__dot_get(&x->a, "operand", NULL);
    if (tag && (named = operand_tag(b, x, what, tag, &operand, &b->any[e])))
        has_operand = true;
    else
        int_attr(b, &x->a, "operand", what, INT_MIN, INT_MAX, &operand,
                 &has_operand);
    int_attr(b, &x->a, "distance", what, INT_MIN, INT_MAX, &distance,
             &b->distance_given[e]);
    if (!has_operand && dst >= 0) {
        cg_op op = cg_dfg_get_node(b->g, dst)->op;
        report(b, x->line, "%s has no operand (give it operand=K, K the "
               "input of '%s' it feeds: %s takes %d)", what, x->dst,
               cg_op_name(op), cg_op_arity(op));
    }
    int line = x->line, init = -1;
    const char *iname = cg__dot_get(&x->a, "init", &line);
    if (iname && (init = cg__dot_find(b->pg, iname)) < 0)
        report(b, line, "%s: init node '%s' is not declared", what, iname);
    known_attrs(b, &x->a, what, false);
    if (b->llvm_stores && !named && dst >= 0 &&
        (operand == 0 || operand == 1) &&
        cg_dfg_get_node(b->g, dst)->op == CG_OP_STORE)
        operand = 1 - operand;
    if (cg_dfg_add_edge(b->g, src, dst, (int)operand, (int)distance, init) <
        0)
        report(b, x->line, "out of memory");
}

/* ---- CGRA-ME 1.x's store operands --------------------------------------- */

/* CGRA-ME 1.x's DFG pass (printDOTwithOps) names node k of the file after
 * its opcode and k (phi0, const1, mul2, ...) and writes no width=, which
 * cgramap always writes: no other writer matches that.  Its stores keep
 * LLVM's operand order (0 the value, 1 the address), the reverse of
 * cgramap's. */
static bool cgrame1_file(const cg__dot_graph *pg)
{
    for (int i = 0; i < pg->nnodes; i++) {
        const cg__dot_attrs *a = &pg->nodes[i].a;
        const char *op = cg__dot_get(a, "opcode", NULL);
        char want[64];
        if (!op || cg__dot_get(a, "width", NULL) ||
            snprintf(want, sizeof want, "%s%d", op, i) >= (int)sizeof want ||
            strcmp(want, pg->nodes[i].name))
            return false;
    }
    return pg->nnodes > 0;
}

/* Say, once, at the first store, that its operands were read the other
 * way round. */
static void llvm_store_note(builder *b)
{
    int n = 0, first = -1;
    for (int i = 0; i < cg_dfg_nnodes(b->g); i++)
        if (cg_dfg_get_node(b->g, i)->op == CG_OP_STORE && n++ == 0)
            first = i;
    if (!n)
        return;
    char more[48] = "";
    if (n > 1)
        snprintf(more, sizeof more, " and %d more", n - 1);
    cg_diags_add(b->d, CG_SEV_WARNING, b->pg->file, b->pg->nodes[first].line,
                 "store '%.120s'%s: the file is as CGRA-ME 1.x's DFG pass "
                 "writes it (node k named its opcode and k, no width=), "
                 "which keeps LLVM's store operands: operand 0 is read as "
                 "the value and 1 as the address (cgramap writes 0 the "
                 "address, 1 the value)", b->pg->nodes[first].name, more);
}

/* ---- CGRA-ME's opcode spellings ----------------------------------------- */

/* Spellings CGRA-ME gives several LLVM ops: read as the first, warned. */
static const struct {
    const char *spelling, *ops, *others;
} ambiguous[] = {
    {"div", "sdiv, udiv, srem and urem", "udiv, srem, urem"},
    {"rem", "srem and urem", "urem"},
    {"shr", "ashr and lshr", "ashr"},
};

/* The nodes spelled `spelling` (and, when three is given, taking operand
 * 2: three[i]; those become selects): their count, the first one's index
 * and the line of its opcode=. */
static int spelled(builder *b, const char *spelling, const bool *three,
                   int *first, int *line)
{
    int n = 0;
    for (int i = 0; i < b->pg->nnodes; i++) {
        int at = b->pg->nodes[i].line;
        const char *s = cg__dot_get(&b->pg->nodes[i].a, "opcode", &at);
        if (!s || strcmp(s, spelling))
            continue;
        if (three && !three[i])
            continue;
        if (three)
            cg_dfg_node_mut(b->g, i)->op = CG_OP_SELECT;
        if (n++ == 0)
            *first = i, *line = at;
    }
    return n;
}

static void spelling_warning(builder *b, const char *spelling, int n,
                             int first, int line, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void spelling_warning(builder *b, const char *spelling, int n,
                             int first, int line, const char *fmt, ...)
{
    char more[48] = "", msg[512];
    if (n > 1)
        snprintf(more, sizeof more, " and %d more", n - 1);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cg_diags_add(b->d, CG_SEV_WARNING, b->pg->file, line, "opcode '%s' "
                 "(node '%.120s'%s) %s", spelling, b->pg->nodes[first].name,
                 more, msg);
}

/* CGRA-ME writes LLVM's select as phi (three operands, where a loop phi
 * has two) and gives one name to ops cgramap tells apart; say what each
 * is read as, once per spelling and file. */
static void cgrame_spellings(builder *b)
{
    bool *three = calloc((size_t)b->pg->nnodes + 1, sizeof *three);
    if (!three) {
        report(b, 0, "out of memory");
        return;
    }
    for (int e = 0; e < cg_dfg_nedges(b->g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(b->g, e);
        three[x->dst] |= x->operand == 2;
    }
    int first = 0, line = 0, n = spelled(b, "phi", three, &first, &line);
    free(three);
    if (n)
        spelling_warning(b, "phi", n, first, line, "with three operands is "
                         "read as select, as CGRA-ME writes LLVM's select: "
                         "operand 0 the condition, 1 the value if true, 2 "
                         "the value if false");
    for (size_t k = 0; k < sizeof ambiguous / sizeof *ambiguous; k++) {
        cg_op op;
        cg_op_parse(ambiguous[k].spelling, &op);
        if ((n = spelled(b, ambiguous[k].spelling, NULL, &first, &line)))
            spelling_warning(b, ambiguous[k].spelling, n, first, line,
                             "is read as %s, but CGRA-ME writes %s all as "
                             "'%s'; where another was meant, write its name "
                             "(%s)", cg_op_name(op), ambiguous[k].ops,
                             ambiguous[k].spelling, ambiguous[k].others);
    }
}

/* ---- defaults for what CGRA-ME files leave out ------------------------- */

/* The operand whose width a node without width= takes, -1 for a fixed
 * default (icmp 1, everything else 32). */
static int width_source(cg_op op)
{
    switch (op) {
    case CG_OP_NOP: case CG_OP_INPUT: case CG_OP_CONST: case CG_OP_LOAD:
    case CG_OP_TRUNC: case CG_OP_SEXT: case CG_OP_ZEXT: case CG_OP_ICMP:
        return -1;
    case CG_OP_SELECT: case CG_OP_STORE:
        return 1;
    default:
        return 0;
    }
}

/* Widths not given: icmp 1; store, output, phi, gep, select and binary
 * ops the width of their value operand once that is known; else 32. */
static void default_widths(builder *b)
{
    cg_dfg *g = b->g;
    int n = cg_dfg_nnodes(g);
    bool *known = calloc((size_t)n + 1, 1);
    if (!known) { /* widths left at 0 would fail the checks below */
        report(b, 0, "out of memory");
        return;
    }
    for (int i = 0; i < n; i++) {
        cg_dfg_node *x = cg_dfg_node_mut(g, i);
        known[i] = b->width_given[i] || width_source(x->op) < 0;
        if (!b->width_given[i])
            x->width = x->op == CG_OP_ICMP ? 1 : 32;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int e = 0; e < cg_dfg_nedges(g); e++) {
            const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
            if (known[x->dst] || !known[x->src] ||
                x->operand != width_source(cg_dfg_get_node(g, x->dst)->op))
                continue;
            cg_dfg_node_mut(g, x->dst)->width =
                cg_dfg_get_node(g, x->src)->width;
            known[x->dst] = changed = true;
        }
    }
    free(known);
}

/* Edges without distance=: 1 when they close a cycle in depth-first order
 * from the sources (nodes without incoming edges, then any node not yet
 * reached, in id order), else 0.  Edges with distance >= 1 do not count:
 * they close their cycles already.  Iterative: no recursion depth limit. */
static void default_distances(builder *b)
{
    cg_dfg *g = b->g;
    int n = cg_dfg_nnodes(g), m = cg_dfg_nedges(g);
    int *first = calloc((size_t)n + 2, sizeof(int));
    int *adj = malloc(((size_t)m + 1) * sizeof(int));
    int *indeg = calloc((size_t)n + 1, sizeof(int));
    int *stack = malloc(((size_t)n + 1) * sizeof(int));
    int *pos = calloc((size_t)n + 1, sizeof(int));
    char *state = calloc((size_t)n + 1, 1); /* 0 new, 1 open, 2 done */
    if (!first || !adj || !indeg || !stack || !pos || !state) {
        report(b, 0, "out of memory"); /* else a cycle of distance 0 */
        goto out;
    }
    for (int e = 0; e < m; e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        if (x->distance == 0) {
            first[x->src + 1]++;
            indeg[x->dst]++;
        }
    }
    for (int i = 0; i < n; i++)
        first[i + 1] += first[i];
    for (int e = 0, *fill = pos; e < m; e++) { /* pos: fill cursor */
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        if (x->distance == 0)
            adj[first[x->src] + fill[x->src]++] = e;
    }
    for (int pass = 0; pass < 2; pass++)
        for (int root = 0; root < n; root++) {
            if (state[root] || (pass == 0 && indeg[root]))
                continue;
            int sp = 0;
            stack[sp++] = root;
            state[root] = 1;
            pos[root] = first[root];
            while (sp) {
                int v = stack[sp - 1];
                if (pos[v] == first[v + 1]) {
                    state[v] = 2;
                    sp--;
                    continue;
                }
                int e = adj[pos[v]++];
                int w = cg_dfg_get_edge(g, e)->dst;
                if (state[w] == 1 && !b->distance_given[e])
                    cg_dfg_edge_mut(g, e)->distance = 1;
                else if (state[w] == 0) {
                    state[w] = 1;
                    pos[w] = first[w];
                    stack[sp++] = w;
                }
            }
        }
out:
    free(first), free(adj), free(indeg), free(stack), free(pos), free(state);
}

/* ---- the graph --------------------------------------------------------- */

static cg_loc loc_node(const void *ctx, int id)
{
    const builder *b = ctx;
    return (cg_loc){b->pg->file, b->pg->nodes[b->node_of[id]].line};
}

static cg_loc loc_edge(const void *ctx, int id)
{
    const builder *b = ctx;
    return (cg_loc){b->pg->file, b->pg->edges[b->edge_of[id]].line};
}

/* The graph's name: its ID, except that CGRA-ME names every graph G (and
 * some files give none): then the file's base name without ".dot". */
static char *graph_name(const cg__dot_graph *pg)
{
    if (pg->id && (pg->id_quoted || strcmp(pg->id, "G") != 0))
        return strdup(pg->id);
    const char *base = strrchr(pg->file, '/');
    base = base ? base + 1 : pg->file;
    size_t len = strlen(base);
    if (len > 4 && strcmp(base + len - 4, ".dot") == 0)
        len -= 4;
    return strndup(base, len);
}

/* One "FIRST->THEN:DISTANCE" entry of memory_order (tok..end) into *o;
 * false when it does not have that form or names an unknown node. */
static bool order_entry(builder *b, int line, const char *tok, size_t len,
                        cg_mem_order *o)
{
    char *t = strndup(tok, len);
    char *colon = t ? strrchr(t, ':') : NULL;
    char *arrow = t ? strstr(t, "->") : NULL;
    bool ok = false;
    if (colon && arrow && arrow < colon) {
        *arrow = *colon = 0;
        char *end;
        errno = 0;
        long dist = strtol(colon + 1, &end, 10);
        o->first = cg_dfg_find(b->g, t);
        o->then = cg_dfg_find(b->g, arrow + 2);
        o->distance = (int)dist;
        o->latency = 0;
        if (end == colon + 1 || *end || errno || dist < 0 || dist > INT_MAX)
            report(b, line, "memory_order entry '%.*s': the distance is not "
                   "a whole number >= 0", (int)len, tok);
        else if (o->first < 0 || o->then < 0)
            report(b, line, "memory_order entry '%.*s' names no node '%s'",
                   (int)len, tok, o->first < 0 ? t : arrow + 2);
        else
            ok = true;
    } else {
        report(b, line, "memory_order entry '%.*s' is not FIRST->THEN:"
               "DISTANCE", (int)len, tok);
    }
    free(t);
    return ok;
}

/* The graph attribute memory_order (written by cg_dfg_write_dot): the
 * order of g's memory ops, stated. */
static void mem_order(builder *b)
{
    int line = 0;
    const char *v = cg__dot_get(&b->pg->gattrs, "memory_order", &line);
    if (!v)
        return;
    cg_mem_order *o = malloc(sizeof *o * (strlen(v) / 2 + 1));
    int n = 0;
    bool ok = o != NULL;
    if (!o)
        report(b, line, "out of memory");
    for (const char *p = v; ok && *p;) {
        size_t skip = strspn(p, " \t\r\n"), len;
        p += skip;
        if (!*p)
            break;
        len = strcspn(p, " \t\r\n");
        ok = order_entry(b, line, p, len, &o[n++]);
        p += len;
    }
    if (ok) { /* its message, placed at the attribute */
        cg_diags *sd = cg_diags_create();
        if (!sd)
            report(b, line, "out of memory");
        else if (cg_dfg_set_mem_order(b->g, o, n, sd) != 0)
            report(b, line, "memory_order: %s", cg_diags_get(sd, 0)->msg);
        cg_diags_destroy(sd);
    }
    free(o);
}

/* The graph attribute memory="BASE BYTES" (cg_dfg_write_dot): the memory
 * g's addresses lie in. */
static void memory(builder *b)
{
    int line = 0;
    const char *v = cg__dot_get(&b->pg->gattrs, "memory", &line);
    if (!v)
        return;
    unsigned long long base, bytes;
    int used = 0;
    if (sscanf(v, " %llu %llu %n", &base, &bytes, &used) != 2 || v[used] ||
        v[0] == '-' || strchr(v, '-') || bytes == 0 ||
        base > (1ull << 48) || bytes > (1ull << 48)) {
        report(b, line, "memory=\"%s\" is not 'BASE BYTES' (the first byte "
               "address and the bytes the graph's addresses lie in, each "
               "below 2^48, as cgramap dfg writes them); fix or remove it",
               CG_QUOTE(v));
        return;
    }
    cg_dfg_set_memory(b->g, base, bytes);
}

/* An any2input/any3input edge takes its node's lowest operand that no
 * other edge names, in file order. */
static void any_operands(builder *b)
{
    int m = cg_dfg_nedges(b->g);
    for (int e = 0; e < m; e++) {
        if (!b->any[e])
            continue;
        int dst = cg_dfg_get_edge(b->g, e)->dst;
        unsigned used = 0;
        for (int f = 0; f < m; f++) {
            const cg_dfg_edge *y = cg_dfg_get_edge(b->g, f);
            if (f != e && y->dst == dst && !(b->any[f] && f > e) &&
                y->operand >= 0 && y->operand < 3)
                used |= 1u << y->operand;
        }
        int k = 0;
        while (used >> k & 1)
            k++;
        cg_dfg_edge_mut(b->g, e)->operand = k;
    }
}

/* CGRA-ME 2.x's DFGs keep the loop's branch: a br fed by the exit compare
 * and an input node per target block.  It is left to the array's
 * controller, as cgramap dfg --loop-control array does, and with it every
 * node whose values only it (or another node left out) took; ids are
 * compacted, node_of and edge_of keep the file's places for messages. */
static void loop_control(builder *b)
{
    int n = cg_dfg_nnodes(b->g), m = cg_dfg_nedges(b->g);
    bool *keep = malloc((size_t)n + 1), any_br = false;
    b->node_of = malloc(((size_t)n + 1) * sizeof *b->node_of);
    b->edge_of = malloc(((size_t)m + 1) * sizeof *b->edge_of);
    if (!keep || !b->node_of || !b->edge_of) {
        free(keep);
        report(b, 0, "out of memory");
        return;
    }
    for (int i = 0; i < n; i++) {
        keep[i] = !b->branch[i];
        any_br |= b->branch[i];
    }
    for (bool changed = any_br; changed;) {
        changed = false;
        for (int i = 0; i < n; i++) {
            cg_op op = cg_dfg_get_node(b->g, i)->op;
            bool feeds = false, uses = false;
            for (int e = 0; e < m; e++) {
                const cg_dfg_edge *x = cg_dfg_get_edge(b->g, e);
                if (x->src == i) {
                    uses = true;
                    feeds |= keep[x->dst] && x->dst != i;
                }
            }
            if (keep[i] && uses && !feeds && op != CG_OP_STORE &&
                op != CG_OP_OUTPUT)
                keep[i] = false, changed = true;
        }
    }
    int k = 0;
    for (int e = 0; e < m; e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(b->g, e);
        if (keep[x->src] && keep[x->dst])
            b->edge_of[k++] = e;
    }
    k = 0;
    for (int i = 0; i < n; i++)
        if (keep[i])
            b->node_of[k++] = i;
    cg_dfg_compact(b->g, keep, NULL, NULL);
    free(keep);
}

static cg_dfg *build(const cg__dot_graph *pg, cg_diags *d)
{
    char *name = graph_name(pg);
    builder b = {.pg = pg, .g = name ? cg_dfg_create(name) : NULL, .d = d,
                 .width_given = calloc((size_t)pg->nnodes + 1, 1),
                 .distance_given = calloc((size_t)pg->nedges + 1, 1),
                 .branch = calloc((size_t)pg->nnodes + 1, 1),
                 .any = calloc((size_t)pg->nedges + 1, 1)};
    free(name);
    if (!b.g || !b.width_given || !b.distance_given || !b.branch || !b.any) {
        report(&b, 0, "out of memory");
    } else {
        const char *file = cg__dot_get(&pg->gattrs, "file", NULL);
        if (file)
            cg_dfg_set_file(b.g, file);
        b.llvm_stores = cgrame1_file(pg);
        for (int i = 0; i < pg->nnodes; i++)
            add_node(&b, i);
        for (int e = 0; e < pg->nedges; e++)
            add_edge(&b, e);
    }
    if (!b.errors) {
        if (b.llvm_stores)
            llvm_store_note(&b);
        cgrame_spellings(&b);
        any_operands(&b);
        default_widths(&b);
        default_distances(&b);
        loop_control(&b);
    }
    if (!b.errors) {
        cg__dfg_locator loc = {loc_node, loc_edge, &b};
        b.errors = cg__dfg_check(b.g, &loc, d);
    }
    if (!b.errors)
        mem_order(&b);
    if (!b.errors)
        memory(&b);
    free(b.width_given), free(b.distance_given), free(b.unknown);
    free(b.branch), free(b.any), free(b.node_of), free(b.edge_of);
    if (b.errors) {
        cg_dfg_destroy(b.g);
        return NULL;
    }
    return b.g;
}

cg_dfg *cg_dfg_read_dot_string(const char *text, const char *filename,
                               cg_diags *d)
{
    cg__dot_graph pg = {.file = filename ? filename : "<string>"};
    cg_dfg *g = cg__dot_parse(text, &pg, d) ? NULL : build(&pg, d);
    cg__dot_graph_free(&pg);
    return g;
}

cg_dfg *cg_dfg_read_dot(const char *path, cg_diags *d)
{
    size_t len = 0;
    char *text = cg_input_read(path, "a .dot file", &len, d);
    if (!text)
        return NULL;
    cg_dfg *g = NULL;
    size_t nul = strlen(text);
    if (nul != len) {
        int line = 1;
        for (size_t i = 0; i < nul; i++)
            line += text[i] == '\n';
        cg_diags_add(d, CG_SEV_ERROR, path, line, "a NUL byte; a .dot file "
                     "is text");
    } else
        g = cg_dfg_read_dot_string(text, path, d);
    free(text);
    return g;
}
