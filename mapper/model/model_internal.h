/* model_internal.h: the mapper's model helpers (not a public header): which
 * unit may run a node, the widths and the context shift of MRRG nodes, grid
 * distance, the least latency of an op, compressed rows of a graph, the
 * context of a cycle modulo II.  What the searches, the exact models and
 * the verification stage (verify/) all build on; it declares nothing of
 * the searches, the ILP or the SAT mapper. */
#ifndef CG_MODEL_INTERNAL_H
#define CG_MODEL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../map.h"

/* Does primitive pr execute op (FuncUnit/MEMUnit op lists, IO input/output,
 * ConstUnit const)? */
bool cg__map_prim_supports(const cg_nl_prim *pr, cg_op op);
/* May node n run on primitive pr: pr supports n's op and, for a load or
 * store with a bank, pr is a MEMUnit reaching every bank or that one? */
bool cg__map_node_fits(const cg_nl_prim *pr, const cg_dfg_node *n);
/* Bits MRRG node id holds: its port's width, else its primitive's. */
int cg__mrrg_node_width(const cg_mrrg *m, const cg_netlist *nl, int id);
/* The node that plays id's part k contexts later (k < 0: earlier),
 * modulo II: the MRRG repeats itself context by context, edges and
 * delays included. */
int cg__mrrg_shift(const cg_mrrg *m, int id, int k);
/* id's slot in twin order, rank * II + context, where rank numbers the
 * nodes of one context and is the same for every twin: id's twin in
 * context c is in slot (slot - context(id) + c).  0 .. nnodes - 1. */
int cg__mrrg_twin_slot(const cg_mrrg *m, int id);
/* The value a loop-carried edge reads before its first production: its
 * init node's (a const's value, or the live-in inputs[init] of an input;
 * 0 when inputs is NULL), at the node's width; 0 when init is -1.  What
 * the simulator and the bitstream writer (rtl/) both configure. */
uint64_t cg__map_init_value(const cg_dfg *g, int init,
                            const uint64_t *inputs);
/* Grid (Manhattan) distance between primitives p and q of nl; 0 when
 * either is off the grid. */
int cg__prim_dist(const cg_netlist *nl, int p, int q);

/* Compressed sparse rows of a graph whose edge e has its key node (tail
 * for out-edges, head for in-edges) at key + e * stride bytes: off[i] ..
 * off[i+1]-1 index ids, the edge ids of node i in increasing order.  -1 on
 * no memory (the caller frees what was set). */
int cg__map_csr(int nnodes, int nedges, const int *key, size_t stride,
                int **off, int **ids);

/* An unreachable distance or delay in the searches' shortest paths: far
 * above any route latency, and still free of overflow when two are added. */
#define CG__DIST_INF (1 << 28)

/* t modulo ii in 0 .. ii-1 (ii >= 1), for negative t too: the context
 * of cycle t. */
static inline int cg__modii(int64_t t, int ii)
{
    return (int)(((t % ii) + ii) % ii);
}

#endif
