/* place_internal.h: the heuristic placement (place.c, not a public
 * header), which gives the restricted ILP models their centers. */
#ifndef CG_PLACE_INTERNAL_H
#define CG_PLACE_INTERNAL_H

#include "../map.h"

/* ---- place.c: heuristic placement ---------------------------------------- */

/* Simulated annealing of DFG nodes onto primitives (II slots each),
 * minimising the grid distance along DFG edges, with w's moves and
 * schedule.  Fills prim[v] with a primitive that supports node v; -1 when
 * some node finds no free one. */
int cg__place_anneal(const cg_netlist *nl, const cg_dfg *g, int ii,
                     unsigned seed, const cg_map_place_params *w, int *prim);

#endif
