/* memdep.c: the memory order a mapping must keep (cg_map_mem_orders).
 *
 * A DFG says nothing about memory through its edges: a load that reads
 * what a store of an earlier iteration (or earlier in the same iteration)
 * wrote is linked to it only by the address.  The interpreter (dfg/run.c)
 * runs memory operations in iteration order and, within an iteration, in
 * node id order (program order); a modulo schedule overlaps iterations, so
 * every pair of accesses that may touch a common byte, at least one of
 * them a store, becomes an ordering edge `first` -> `then` with a distance
 * d: `then` of iteration i+d must take effect after `first` of iteration i.
 *
 * Which pairs may alias comes from the loop nest the extractor records
 * (dfg.h, cg_dfg_nest) and the banks the tiler set: accesses to two banks
 * or to two different arrays never do; two
 * affine accesses of one array whose byte offsets move in step with the
 * loop counter do exactly at the distances where their byte ranges
 * overlap; everything else (no nest, an unknown array, an indirect or
 * non-affine index, offsets that move at different rates) may alias at
 * every distance, so it gets the smallest one.  The smallest distance is
 * enough: the constraint start(then) + d*II >= start(first) + latency only
 * weakens as d grows.
 *
 * A graph that states its order (cg_dfg_mem_order: a .dot file written by
 * `cgramap dfg` carries the pairs computed here from the nest it no longer
 * has) gets exactly that order.
 *
 * The latency is 0: a MEMUnit reads or writes memory in the cycle its op
 * starts (its latency only delays the loaded value), and the accesses of
 * one cycle take effect in iteration order, then node order (map.h,
 * cg_sim_run), which is the order the edge asks for.
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "model_internal.h"

/* Offsets beyond this are treated as unknown (no overflow below). */
#define BIG ((int64_t)1 << 40)

static bool is_mem(cg_op op) { return op == CG_OP_LOAD || op == CG_OP_STORE; }

/* Floor of a / b for b > 0. */
static int64_t floor_div(int64_t a, int64_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* The least d >= dmin with lo < s*d < hi, -1 when none (s != 0). */
static int least_distance(int64_t s, int64_t lo, int64_t hi, int dmin)
{
    if (s < 0) {
        int64_t t = lo;
        lo = -hi;
        hi = -t;
        s = -s;
    }
    int64_t d = floor_div(lo, s) + 1;
    if (d < dmin)
        d = dmin;
    if (s * d >= hi || d > (1 << 30))
        return -1;
    return (int)d;
}

/* The nest record of node v, NULL when none. */
static const cg_nest_access *access_of(const cg_nest *n, int v)
{
    for (int i = 0; n && i < n->naccesses; i++)
        if (n->accesses[i].node == v)
            return &n->accesses[i];
    return NULL;
}

/* The least distance d >= dmin at which x of iteration i and y of
 * iteration i+d may touch a common byte; -1 when they never do. */
static int alias_distance(const cg_dfg *g, int x, int y, int dmin)
{
    int bx = cg_dfg_get_node(g, x)->bank, by = cg_dfg_get_node(g, y)->bank;
    if (bx >= 0 && by >= 0 && bx != by)
        return -1; /* two banks hold disjoint bytes */
    const cg_nest *n = cg_dfg_nest(g);
    const cg_nest_access *a = access_of(n, x), *b = access_of(n, y);
    if (!a || !b || a->array < 0 || b->array < 0 || n->nloops < 1)
        return dmin;
    if (a->array != b->array)
        return -1; /* distinct globals: C keeps accesses inside their own */
    if (!a->index.is_affine || !b->index.is_affine)
        return dmin;
    int last = n->nloops - 1;
    for (int l = 0; l < last; l++)
        if (a->index.coef[l] != b->index.coef[l])
            return dmin; /* the gap depends on an outer counter */
    int64_t c = a->index.coef[last], step = n->loops[last].step;
    int64_t d0 = b->index.cst - a->index.cst;
    if (c != b->index.coef[last] || c > BIG || c < -BIG || step > BIG ||
        step < -BIG || d0 > BIG || d0 < -BIG)
        return dmin;
    /* y's offset minus x's is d0 + s*d; the byte ranges [0, wa) and
     * [diff, diff + wb) overlap when -wb < diff < wa. */
    int64_t s = c * step;
    int64_t wa = cg_dfg_get_node(g, x)->width / 8;
    int64_t wb = cg_dfg_get_node(g, y)->width / 8;
    if (s == 0)
        return -wb < d0 && d0 < wa ? dmin : -1;
    return least_distance(s, -wb - d0, wa - d0, dmin);
}

/* Append an edge; false on no memory. */
static bool push(cg_mem_order **v, int *n, int *cap, cg_mem_order e)
{
    if (CG_GROW(*v, *cap, *n + 1))
        return false;
    (*v)[(*n)++] = e;
    return true;
}

/* The edges between memory ops x <= y (ids), at least one a store. */
static bool pair_orders(const cg_dfg *g, int x, int y, cg_mem_order **v,
                        int *n, int *cap)
{
    int d;
    if (x < y && (d = alias_distance(g, x, y, 0)) == 0 &&
        !push(v, n, cap, (cg_mem_order){x, y, 0, 0}))
        return false;
    if ((d = alias_distance(g, x, y, 1)) > 0 &&
        !push(v, n, cap, (cg_mem_order){x, y, d, 0}))
        return false;
    if (x < y && (d = alias_distance(g, y, x, 1)) > 0 &&
        !push(v, n, cap, (cg_mem_order){y, x, d, 0}))
        return false;
    return true;
}

/* A copy of the order g states. */
static int stated_orders(const cg_mem_order *v, int n, cg_mem_order **out)
{
    *out = NULL;
    if (n == 0)
        return 0;
    *out = malloc(sizeof **out * (size_t)n);
    if (!*out)
        return -1;
    memcpy(*out, v, sizeof **out * (size_t)n);
    return n;
}

int cg_map_mem_orders(const cg_dfg *g, cg_mem_order **out)
{
    const cg_mem_order *stated;
    int ns = cg_dfg_mem_order(g, &stated);
    if (ns >= 0)
        return stated_orders(stated, ns, out);
    int n = 0, cap = 0, nn = cg_dfg_nnodes(g);
    *out = NULL;
    for (int x = 0; x < nn; x++) {
        cg_op ox = cg_dfg_get_node(g, x)->op;
        if (!is_mem(ox))
            continue;
        for (int y = x; y < nn; y++) {
            cg_op oy = cg_dfg_get_node(g, y)->op;
            if (!is_mem(oy) || (ox == CG_OP_LOAD && oy == CG_OP_LOAD))
                continue;
            if (!pair_orders(g, x, y, out, &n, &cap)) {
                free(*out);
                *out = NULL;
                return -1;
            }
        }
    }
    return n;
}
