/* ilp_internal.h: the ILP mapper's CBC call (not a public header); the
 * model it solves is built with the LP builder (search/lp_internal.h). */
#ifndef CG_ILP_INTERNAL_H
#define CG_ILP_INTERNAL_H

#include <glpk.h>
#include <stdbool.h>

#include "../search/lp_internal.h"
#include "exact_internal.h"

/* ---- ilp_cbc.c ---------------------------------------------------------- */

/* Solve P's MIP with CBC for at most `seconds` (wall time, a cap) and
 * `nodes` branch-and-bound nodes (the work limit, 0 = none), stopping at
 * the first integer solution.  *outcome: MAPPED with *x the solution
 * (malloc'd, 1-based like GLPK's columns), INFEASIBLE when CBC proved
 * there is none, TIMEOUT otherwise (*capped when the wall clock ended
 * it).  0, or -1 on no memory. */
int cg__cbc_solve(glp_prob *P, double seconds, int nodes,
                  cg_ii_outcome *outcome, bool *capped, double **x);

#endif
