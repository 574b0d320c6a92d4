/* place_internal.h: the heuristic placement (place.c, not a public
 * header), which gives the restricted ILP models their centers. */
#ifndef CG_PLACE_INTERNAL_H
#define CG_PLACE_INTERNAL_H

#include "../map.h"

/* ---- place.c: heuristic placement ---------------------------------------- */

/* Simulated annealing of DFG nodes onto primitives (II slots each),
 * minimising the grid distance along DFG edges.  cand[v] lists the
 * primitives that support node v.  Fills prim[v]; -1 when nothing fits. */
int cg__place_anneal(const cg_netlist *nl, const cg_dfg *g, int ii,
                     unsigned seed, int *prim);

#endif
