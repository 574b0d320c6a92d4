/* imm_internal.h: immediates (not a public header).  What the reduction
 * around the search (cg_map), the checker, the simulator and the writers
 * share: which operand of a unit takes an immediate, whether a const fits
 * its field, the value the unit then sees, and the reduced DFG without the
 * consts folded into their consumers. */
#ifndef CG_IMM_INTERNAL_H
#define CG_IMM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "../map.h"

/* Does unit pr take an immediate on operand k? */
bool cg__imm_takes(const cg_nl_prim *pr, int k);
/* Bits of pr's immediate fields (its width unless declared narrower). */
int cg__imm_bits(const cg_nl_prim *pr);
/* Does const c's value, read as a signed number of c's width, fit a
 * field of bits bits (which the unit sign-extends)? */
bool cg__imm_fits(const cg_dfg_node *c, int bits);
/* The operand a unit with bits-bit fields feeds from const c's field:
 * the field sign-extended, truncated to c's width.  Equals c's value
 * when it fits. */
uint64_t cg__imm_operand(const cg_dfg_node *c, int bits);
/* Is DFG node v an immediate in mapping m: a const that m leaves
 * unplaced (place -1)? */
bool cg__imm_node(const cg_mapping *m, const cg_dfg *g, int v);
/* Is DFG edge e an immediate in m: does it leave such a const? */
bool cg__imm_edge(const cg_mapping *m, const cg_dfg *g, int e);

/* A DFG without its foldable consts (cg__imm_reduce). */
typedef struct cg__imm_red {
    cg_dfg *g;      /* the reduced graph; NULL when nothing folds (the
                       search then maps the original) */
    int nnodes;     /* of the original */
    int *node;      /* original node -> reduced node, -1 when folded */
    int *edge;      /* original edge -> reduced edge, -1 when folded */
} cg__imm_red;

/* Fold the consts of g that every unit able to run their consumers can
 * carry: a const with a value, feeding at least one edge, whose every
 * consumer's op runs only on units that take an immediate on that operand
 * with a field the value fits.  The reduced graph keeps the other nodes
 * and edges in order, g's name, file and memory order (its stated order
 * or its nest).  0 with *r filled (r->g NULL when nothing folds), -1 with
 * an error on no memory. */
int cg__imm_reduce(const cg_netlist *nl, const cg_dfg *g, cg__imm_red *r,
                   cg_diags *d);
/* The mapping of the reduced graph rm as a mapping of the original g:
 * folded consts unplaced (place -1) with the earliest start of their
 * consumers, their edges without a route.  NULL on no memory. */
cg_mapping *cg__imm_expand(const cg__imm_red *r, const cg_dfg *g,
                           const cg_mapping *rm);
void cg__imm_red_free(cg__imm_red *r);

#endif
