/* check.c: the DFG checker (cg_dfg_check) and the topological order the
 * checker and the interpreter share.
 *
 * Every rule a later stage relies on is checked here, so that the
 * interpreter, the mapper and the simulator may assume a checked graph:
 * operands fed exactly once, widths that agree the way LLVM types do,
 * loop-carried edges with sensible init nodes, and no cycle of distance 0. */
#include <stdlib.h>
#include <string.h>

#include "dfg_internal.h"

typedef struct checker {
    const cg_dfg *g;
    const cg__dfg_locator *loc; /* NULL: the graph's file, node lines */
    cg_diags *d;
    int errors;
} checker;

static cg_loc node_loc(const checker *c, int id)
{
    if (c->loc)
        return c->loc->node(c->loc->ctx, id);
    return (cg_loc){cg_dfg_file(c->g), cg_dfg_get_node(c->g, id)->line};
}

static cg_loc edge_loc(const checker *c, int e)
{
    if (c->loc)
        return c->loc->edge(c->loc->ctx, e);
    return node_loc(c, cg_dfg_get_edge(c->g, e)->dst);
}

/* Report at loc; without a file the line goes into the message, so that
 * it is never lost. */
static void __attribute__((format(printf, 3, 4)))
report(checker *c, cg_loc loc, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!loc.file && loc.line > 0)
        cg_diags_add(c->d, CG_SEV_ERROR, NULL, 0, "%s (line %d)", msg,
                     loc.line);
    else
        cg_diags_add(c->d, CG_SEV_ERROR, loc.file, loc.line, "%s", msg);
    c->errors++;
}

static const char *nname(const checker *c, int id)
{
    return cg_dfg_get_node(c->g, id)->name;
}

/* Ends, operand index, distance and init of edge e; false when an end is
 * not a node (nothing else can be said about it then). */
static bool check_edge(checker *c, int e)
{
    const cg_dfg *g = c->g;
    const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
    int n = cg_dfg_nnodes(g);
    if (x->src < 0 || x->src >= n || x->dst < 0 || x->dst >= n) {
        report(c, (cg_loc){cg_dfg_file(g), 0},
               "edge %d: %d -> %d names a node that does not exist (ids are "
               "0..%d)", e, x->src, x->dst, n - 1);
        return false;
    }
    const cg_dfg_node *dst = cg_dfg_get_node(g, x->dst);
    int arity = cg_op_arity(dst->op);
    if (x->operand < 0 || x->operand >= arity)
        report(c, edge_loc(c, e),
               "edge '%s' -> '%s': operand %d is out of range: %s takes %d "
               "operand%s", nname(c, x->src), dst->name, x->operand,
               cg_op_name(dst->op), arity, arity == 1 ? "" : "s");
    if (x->distance < 0)
        report(c, edge_loc(c, e),
               "edge '%s' -> '%s': distance %d is negative (0 = same "
               "iteration, k = k iterations earlier)", nname(c, x->src),
               dst->name, x->distance);
    if (x->init < -1 || x->init >= n) {
        report(c, edge_loc(c, e),
               "edge '%s' -> '%s': init %d is not a node", nname(c, x->src),
               dst->name, x->init);
    } else if (x->init >= 0) {
        cg_op iop = cg_dfg_get_node(g, x->init)->op;
        if (iop != CG_OP_CONST && iop != CG_OP_INPUT)
            report(c, edge_loc(c, e),
                   "edge '%s' -> '%s': init node '%s' is a %s; it must be a "
                   "const or an input", nname(c, x->src), dst->name,
                   nname(c, x->init), cg_op_name(iop));
        if (x->distance == 0)
            report(c, edge_loc(c, e),
                   "edge '%s' -> '%s' has init '%s' but distance 0; only "
                   "loop-carried edges (distance >= 1) have an init",
                   nname(c, x->src), dst->name, nname(c, x->init));
    }
    return true;
}

static bool valid_mem_width(int w)
{
    return w == 8 || w == 16 || w == 32 || w == 64;
}

/* Width and predicate of node id on its own. */
static void check_node(checker *c, int id)
{
    const cg_dfg_node *x = cg_dfg_get_node(c->g, id);
    const char *op = cg_op_name(x->op);
    if (x->width < 1 || x->width > 64)
        report(c, node_loc(c, id), "node '%s' (%s): width %d is not 1..64",
               x->name, op, x->width);
    else if (cg__dfg_is_mem(x->op) && !valid_mem_width(x->width))
        report(c, node_loc(c, id),
               "node '%s' (%s): width %d is not 8, 16, 32 or 64 (the bits "
               "accessed)", x->name, op, x->width);
    if (x->op == CG_OP_ICMP) {
        if (x->pred == CG_PRED_NONE || (unsigned)x->pred > CG_PRED_UGE)
            report(c, node_loc(c, id),
                   "node '%s' (icmp) has no predicate (pred= one of eq ne slt "
                   "sle sgt sge ult ule ugt uge)", x->name);
        if (x->width != 1)
            report(c, node_loc(c, id),
                   "node '%s' (icmp): width %d, but an icmp yields 1 bit",
                   x->name, x->width);
    } else if (x->pred != CG_PRED_NONE) {
        report(c, node_loc(c, id),
               "node '%s' (%s) has a predicate; only icmp nodes have one",
               x->name, op);
    }
}

/* Operand k of id comes from a node of width have; it must be want. */
static void want_width(checker *c, int id, int k, int src, int want)
{
    int have = cg_dfg_get_node(c->g, src)->width;
    if (have == want)
        return;
    const cg_dfg_node *x = cg_dfg_get_node(c->g, id);
    report(c, node_loc(c, id),
           "node '%s' (%s, %d bits): operand %d from '%s' is %d bits; it "
           "must be %d bits", x->name, cg_op_name(x->op), x->width, k,
           nname(c, src), have, want);
}

/* Operand widths against the node's width, as LLVM's types require. */
static void check_widths(checker *c, int id, const int *src)
{
    const cg_dfg_node *x = cg_dfg_get_node(c->g, id);
    int w = x->width;
    switch (x->op) {
    case CG_OP_OUTPUT:
        want_width(c, id, 0, src[0], w);
        break;
    case CG_OP_STORE:
        want_width(c, id, 1, src[1], w);
        break;
    case CG_OP_SELECT:
        want_width(c, id, 0, src[0], 1);
        want_width(c, id, 1, src[1], w);
        want_width(c, id, 2, src[2], w);
        break;
    case CG_OP_ICMP:
        want_width(c, id, 1, src[1], cg_dfg_get_node(c->g, src[0])->width);
        break;
    case CG_OP_TRUNC: case CG_OP_SEXT: case CG_OP_ZEXT: {
        int from = cg_dfg_get_node(c->g, src[0])->width;
        bool ok = x->op == CG_OP_TRUNC ? from >= w : from <= w;
        if (!ok)
            report(c, node_loc(c, id),
                   "node '%s' (%s): operand '%s' is %d bits, the result %d; "
                   "%s", x->name, cg_op_name(x->op), nname(c, src[0]), from,
                   w, x->op == CG_OP_TRUNC ? "trunc cannot widen"
                                            : "an extension cannot narrow");
        break;
    }
    case CG_OP_NOP: case CG_OP_INPUT: case CG_OP_CONST: case CG_OP_LOAD:
        break;
    default: /* binary ops, gep, phi: every operand has the result width */
        for (int k = 0; k < cg_op_arity(x->op); k++)
            want_width(c, id, k, src[k], w);
        break;
    }
}

/* Every operand of every node fed exactly once; then the widths. */
static void check_operands(checker *c, const bool *edge_ok)
{
    const cg_dfg *g = c->g;
    int n = cg_dfg_nnodes(g);
    int *slot = malloc(((size_t)n * 3 + 1) * sizeof(int));
    if (!slot)
        return;
    for (int i = 0; i < 3 * n; i++)
        slot[i] = -1;
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        if (!edge_ok[e] || x->operand < 0 ||
            x->operand >= cg_op_arity(cg_dfg_get_node(g, x->dst)->op))
            continue;
        int *s = &slot[3 * x->dst + x->operand];
        if (*s >= 0)
            report(c, edge_loc(c, e),
                   "node '%s': operand %d is fed twice, by '%s' and by '%s'",
                   nname(c, x->dst), x->operand,
                   nname(c, cg_dfg_get_edge(g, *s)->src), nname(c, x->src));
        else
            *s = e;
    }
    for (int id = 0; id < n; id++) {
        const cg_dfg_node *x = cg_dfg_get_node(g, id);
        int src[3], missing = 0;
        for (int k = 0; k < cg_op_arity(x->op); k++) {
            int e = slot[3 * id + k];
            src[k] = e >= 0 ? cg_dfg_get_edge(g, e)->src : -1;
            if (e < 0) {
                missing++;
                report(c, node_loc(c, id),
                       "node '%s' (%s): operand %d has no edge (%s takes %d "
                       "operands)", x->name, cg_op_name(x->op), k,
                       cg_op_name(x->op), cg_op_arity(x->op));
            }
        }
        if (!missing)
            check_widths(c, id, src);
    }
    free(slot);
}

/* Name one cycle of distance-0 edges among the nodes the topological sort
 * could not place (placed[id] false). */
static void report_cycle(checker *c, const bool *placed)
{
    const cg_dfg *g = c->g;
    int n = cg_dfg_nnodes(g), start = 0;
    while (placed[start])
        start++;
    /* Walk back along unplaced distance-0 predecessors until a node
     * repeats: it lies on a cycle. */
    int *seen = calloc((size_t)n, sizeof(int)), v = start, step = 1;
    if (!seen)
        return;
    while (!seen[v]) {
        seen[v] = step++;
        for (int e = 0; e < cg_dfg_nedges(g); e++) {
            const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
            if (x->dst == v && x->distance == 0 && x->src >= 0 &&
                x->src < n && !placed[x->src]) {
                v = x->src;
                break;
            }
        }
    }
    char path[400] = "";
    size_t len = 0;
    int u = v;
    do { /* forward along the cycle: predecessors were walked backwards */
        len += (size_t)snprintf(path + len, len < sizeof path ?
                                sizeof path - len : 0, "'%s' <- ",
                                nname(c, u));
        int next = -1;
        for (int e = 0; e < cg_dfg_nedges(g) && next < 0; e++) {
            const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
            if (x->dst == u && x->distance == 0 && x->src >= 0 &&
                x->src < n && !placed[x->src] && seen[x->src])
                next = x->src;
        }
        u = next < 0 ? v : next;
    } while (u != v && len < sizeof path);
    if (len < sizeof path)
        snprintf(path + len, sizeof path - len, "'%s'", nname(c, v));
    report(c, node_loc(c, v),
           "node '%s' is on a cycle of distance-0 edges (%s); a value cannot "
           "depend on itself in one iteration: give the loop-carried edge a "
           "distance >= 1", nname(c, v), path);
    free(seen);
}

int cg__dfg_check(const cg_dfg *g, const cg__dfg_locator *loc, cg_diags *d)
{
    checker c = {g, loc, d, 0};
    int n = cg_dfg_nnodes(g), m = cg_dfg_nedges(g);
    bool *edge_ok = malloc((size_t)m + 1);
    int *order = malloc(((size_t)n + 1) * sizeof(int));
    bool *placed = calloc((size_t)n + 1, 1);
    if (!edge_ok || !order || !placed) {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0, "out of memory");
        free(edge_ok), free(order), free(placed);
        return 1;
    }
    for (int e = 0; e < m; e++)
        edge_ok[e] = check_edge(&c, e);
    for (int id = 0; id < n; id++)
        check_node(&c, id);
    check_operands(&c, edge_ok);
    int k = cg__dfg_topo(g, false, order);
    if (k >= 0 && k < n) {
        for (int i = 0; i < k; i++)
            placed[order[i]] = true;
        report_cycle(&c, placed);
    }
    free(edge_ok), free(order), free(placed);
    return c.errors;
}

int cg_dfg_check(const cg_dfg *g, cg_diags *d)
{
    return cg__dfg_check(g, NULL, d) ? -1 : 0;
}

/* Kahn's algorithm over the distance-0 edges, in CSR form. */
int cg__dfg_topo(const cg_dfg *g, bool mem_chain, int *order)
{
    int n = cg_dfg_nnodes(g), m = cg_dfg_nedges(g);
    int *indeg = calloc((size_t)n + 1, sizeof(int));
    int *start = calloc((size_t)n + 2, sizeof(int));
    int *succ = malloc(((size_t)m + 1) * sizeof(int));
    int *next_mem = malloc(((size_t)n + 1) * sizeof(int));
    int placed = -1;
    if (!indeg || !start || !succ || !next_mem)
        goto out;
    for (int e = 0; e < m; e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        if (x->distance == 0 && x->src >= 0 && x->src < n && x->dst >= 0 &&
            x->dst < n) {
            start[x->src + 1]++;
            indeg[x->dst]++;
        }
    }
    for (int i = 0; i < n; i++)
        start[i + 1] += start[i];
    for (int e = 0; e < m; e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        if (x->distance == 0 && x->src >= 0 && x->src < n && x->dst >= 0 &&
            x->dst < n)
            succ[start[x->src]++] = x->dst;
    }
    for (int i = n; i > 0; i--) /* undo the fill's shift */
        start[i] = start[i - 1];
    start[0] = 0;
    int last = -1;
    for (int i = 0; i < n; i++) {
        next_mem[i] = -1;
        if (mem_chain && cg__dfg_is_mem(cg_dfg_get_node(g, i)->op)) {
            if (last >= 0) {
                next_mem[last] = i;
                indeg[i]++;
            }
            last = i;
        }
    }
    int head = 0, tail = 0;
    for (int i = 0; i < n; i++)
        if (indeg[i] == 0)
            order[tail++] = i;
    while (head < tail) {
        int v = order[head++];
        for (int s = start[v]; s < start[v + 1]; s++)
            if (--indeg[succ[s]] == 0)
                order[tail++] = succ[s];
        if (next_mem[v] >= 0 && --indeg[next_mem[v]] == 0)
            order[tail++] = next_mem[v];
    }
    placed = tail;
out:
    free(indeg), free(start), free(succ), free(next_mem);
    return placed;
}
