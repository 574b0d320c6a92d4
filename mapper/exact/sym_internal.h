/* sym_internal.h: the spatial symmetries of an MRRG (sym.c), for the ILP
 * to break (not a public header). */
#ifndef CG_SYM_INTERNAL_H
#define CG_SYM_INTERNAL_H

#include <stdbool.h>

#include "../map.h"

/* The eight maps of the grid's bounding box onto itself (rows r, columns c
 * counted from the box's corner, H and W its height and width - 1). */
typedef enum cg__sym_kind {
    CG__SYM_ID,        /* (r, c) */
    CG__SYM_LR,        /* mirror left-right: (r, W - c) */
    CG__SYM_UD,        /* mirror up-down: (H - r, c) */
    CG__SYM_ROT180,    /* (H - r, W - c) */
    CG__SYM_TRANSPOSE, /* (c, r), square boxes only */
    CG__SYM_ANTI,      /* anti-transpose (W - c, H - r), square only */
    CG__SYM_ROT90,     /* clockwise: (c, H - r), square only */
    CG__SYM_ROT270,    /* (W - c, r), square only */
    CG__SYM_COUNT
} cg__sym_kind;

/* The verified automorphisms of one MRRG.  Each is a permutation of the
 * MRRG's nodes that keeps every node's kind, context, operand index, FUNC
 * node link and unit (same ops, width, latency, memory, and the same
 * answer of cg__map_node_fits for every op and bank) and maps the edges
 * onto the edges with their delays: the ILP of any DFG on this MRRG is
 * invariant under it. */
typedef struct cg__sym {
    int nnodes;
    bool ok[CG__SYM_COUNT];   /* the kind was verified (ID always is) */
    int *map[CG__SYM_COUNT];  /* when ok: node -> its image, else NULL */
    int *rep;                 /* node -> smallest node of its orbit under
                                 the group the verified maps generate */
} cg__sym;

/* Find and verify the maps of m; a map that cannot be built unambiguously
 * or fails any check is left out (never assumed).  NULL on no memory. */
cg__sym *cg__sym_find(const cg_mrrg *m, const cg_netlist *nl);
void cg__sym_destroy(cg__sym *s); /* accepts NULL */
/* Number of verified maps besides the identity. */
int cg__sym_count(const cg__sym *s);
/* Keep, in order, the nodes of cand[0..n-1] that represent their orbit
 * (and, defensively, those whose representative is not in cand); returns
 * how many were kept.  Sound for ONE op of a model invariant under the
 * group: any mapping moves, by a group element, to one where that op sits
 * on a representative. */
int cg__sym_restrict(const cg__sym *s, int *cand, int n);

#endif
