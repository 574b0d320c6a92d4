/* dfg_internal.h: what dfg/'s files share and nothing else needs. */
#ifndef CG_DFG_INTERNAL_H
#define CG_DFG_INTERNAL_H

#include "dfg.h"

/* A private copy of s owned by g (NULL for NULL or no memory). */
const char *cg__dfg_intern(cg_dfg *g, const char *s);
/* An allocation of g failed since its creation: a name, a symbol, a node or
 * an edge is missing (the setters return nothing). */
bool cg__dfg_oom(const cg_dfg *g);

/* Where to point a message about a node or an edge: the source line of the
 * C code for cg_dfg_check, the .dot statement for the dot reader. */
typedef struct cg__dfg_locator {
    cg_loc (*node)(const void *ctx, int id);
    cg_loc (*edge)(const void *ctx, int id);
    const void *ctx;
} cg__dfg_locator;

/* cg_dfg_check with messages placed by loc (NULL: the graph's file and
 * each node's line).  Returns the number of errors added. */
int cg__dfg_check(const cg_dfg *g, const cg__dfg_locator *loc, cg_diags *d);

/* A topological order of the nodes over distance-0 edges (edges with an
 * invalid end are ignored); with mem_chain, memory ops are also ordered by
 * id.  Fills order[0..k) and returns k, which is nnodes iff there is no
 * cycle; -1 on no memory. */
int cg__dfg_topo(const cg_dfg *g, bool mem_chain, int *order);

static inline bool cg__dfg_is_mem(cg_op op)
{
    return op == CG_OP_LOAD || op == CG_OP_STORE;
}

#endif
