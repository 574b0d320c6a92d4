/* exact_internal.h: what the exact models share with the II search (not a
 * public header): the heap of the ILP's and the SAT mapper's Dijkstra
 * searches, the compressed routing graph the ILP is built on, one ILP
 * attempt at one II, and the ILP as the finisher of the heuristic's partial
 * mappings (repair). */
#ifndef CG_EXACT_INTERNAL_H
#define CG_EXACT_INTERNAL_H

#include <stdbool.h>

#include "../model/model_internal.h"

/* A binary min-heap of (key, value) for the Dijkstra searches of the ILP
 * and the SAT mapper; the caller owns key and val, sized for every push. */
typedef struct cg__heap {
    int n;
    long *key;
    int *val;
} cg__heap;

static inline void cg__heap_push(cg__heap *h, long key, int val)
{
    int i = h->n++;
    while (i > 0 && h->key[(i - 1) / 2] > key) {
        h->key[i] = h->key[(i - 1) / 2];
        h->val[i] = h->val[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->key[i] = key;
    h->val[i] = val;
}

static inline int cg__heap_pop(cg__heap *h, long *key)
{
    int top = h->val[0];
    *key = h->key[0];
    long k = h->key[--h->n];
    int v = h->val[h->n], i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->key[c + 1] < h->key[c])
            c++;
        if (h->key[c] >= k)
            break;
        h->key[i] = h->key[c];
        h->val[i] = h->val[c];
        i = c;
    }
    h->key[i] = k;
    h->val[i] = v;
    return top;
}

/* ---- ilp_graph.c: the compressed MRRG ----------------------------------- */

/* The MRRG with every chain of ROUTE nodes that have one in-edge and one
 * out-edge (wires, ports; never pins or result ports) folded into the edge
 * that passes through it.  A route through a folded node must use that
 * edge, so the node's capacity is that of the edge's head. */
typedef struct cg__kedge {
    int from, to;   /* kept MRRG node ids */
    int delay;      /* sum of the MRRG delays along the chain */
    int nvia;       /* folded MRRG nodes between from and to, in order */
    int via0;       /* their offset in cg__kgraph.via */
} cg__kedge;

typedef struct cg__kgraph {
    const cg_mrrg *m;
    int nnodes;     /* = MRRG nodes; kept[i] says which are in the graph */
    bool *kept;
    int nedges;
    cg__kedge *edges;
    int *via;
    int *out_off, *out_ids, *in_off, *in_ids; /* CSR over kept nodes */
    int *func_out;  /* FUNC node -> its out kedge, -1 when none */
    int *row, *col; /* grid position of each MRRG node's primitive */
    int max_delay;  /* valid bound on a route's delay (a route is a simple
                       path: each delay-carrying edge at most once) */
    struct cg__sym *sym; /* owned: the MRRG's verified spatial symmetries
                       (sym_internal.h), which the full ILP model breaks;
                       NULL = none used */
} cg__kgraph;

cg__kgraph *cg__kgraph_build(const cg_mrrg *m, const cg_netlist *nl);
void cg__kgraph_destroy(cg__kgraph *k);

/* ---- ilp.c: one ILP at one II ------------------------------------------ */

typedef struct cg__ilp_opts {
    const int *center;   /* per DFG node: primitive to stay near, NULL =
                            the full model (every supporting unit) */
    int radius;          /* grid distance allowed from center */
    double timeout_s;    /* wall-clock cap (out->capped when it ends it) */
    const char *dump_lp; /* write the model here, NULL = none */
    bool relax_only;     /* solve only the LP relaxation: INFEASIBLE when
                            it is, else TIMEOUT (undecided) */
    cg_map_solver solver; /* of the MIP (the LP relaxation is GLPK's) */
    int nodes;           /* work limit: branch-and-bound nodes of the MIP,
                            0 = none */
    int lp_iters;        /* work limit: simplex iterations of the LP
                            relaxation, 0 = none */
    /* The repair model (map.c's large-neighbourhood search): a partial
     * mapping (the heuristic's, cg__heur_opts.partial) whose ops keep
     * their FUNC node and start, and whose routes between two kept ops
     * stay, except for the ops `freed` marks: those placed in `fix` may
     * move within `radius` of their unit, the others within radius + 1 of
     * their center (a primitive; center NULL or -1 = anywhere).  NULL =
     * no repair (then center and radius bound every op). */
    const cg_mapping *fix;
    const bool *freed;   /* per DFG node */
} cg__ilp_opts;

typedef struct cg__ilp_out {
    cg_ii_outcome outcome;
    cg_map_prover by;    /* what decided it (set by the II search) */
    int horizon;         /* by SAT: the slack its refutation covers */
    long conflicts;      /* SAT conflicts spent */
    int refuted;         /* undecided: the largest schedule slack SAT
                            refuted (-1: none) */
    bool too_big;        /* the SAT model passed sat_max_literals */
    int rows, cols, nonzeros;
    bool capped;         /* TIMEOUT because of the wall-clock cap, not of
                            a work limit */
    cg_mapping *mapping; /* MAPPED: owned by the caller */
} cg__ilp_out;

/* Build and solve the model; 0 with out filled, -1 on an internal error
 * (out of memory, LP file not writable, GLPK stopped: cg__glpk_guard,
 * a broken route in its solution: a bug) with an error in d. */
int cg__ilp_solve(const cg__kgraph *k, const cg_netlist *nl,
                  const cg_dfg *g, const cg__ilp_opts *o, cg__ilp_out *out,
                  cg_diags *d);

/* ---- repair.c: the ILP as the heuristic's finisher ---------------------- */

typedef struct cg__repair_opts {
    double deadline;      /* wall-clock cap (cg_clock_now() time) */
    cg_map_solver solver;
    int nodes;            /* branch-and-bound nodes per round */
    int lp_iters;         /* simplex iterations per round */
} cg__repair_opts;

/* Complete the partial mapping fix (every op placed in it kept, except a
 * widening neighbourhood of the ops it lacks) with the ILP, round after
 * round until one maps.  0 with out set (MAPPED with its mapping, else
 * TIMEOUT: a repair proves nothing), -1 on an error in d. */
int cg__repair(const cg__kgraph *k, const cg_netlist *nl, const cg_dfg *g,
               const cg_mapping *fix, const cg__repair_opts *ro,
               cg__ilp_out *out, cg_diags *d);

/* ---- parity.c: the parity bound ------------------------------------------ */

/* What the parity bound found of g on m: the delay parities the MRRG
 * fixes, and the relations they give between the ops' start times. */
typedef struct cg__parity cg__parity;

/* The analysis; NULL with *rc 0 when it finds nothing to say (an op with
 * no FUNC node, or past its work limit), NULL with *rc -1 on no memory. */
cg__parity *cg__parity_create(const cg_netlist *nl, const cg_mrrg *m,
                              const cg_dfg *g, int *rc);
void cg__parity_destroy(cg__parity *P); /* accepts NULL */
/* Do the relations contradict each other (no mapping at m's II)? */
bool cg__parity_odd(const cg__parity *P);
/* Every mapping has, for each op v of a class (not -1: one with an edge
 * that counts), start(v) - phi(v, its FUNC node) = z + *rel (mod 2) for
 * one z per class; -1 when v is in none. */
int cg__parity_class(cg__parity *P, int v, int *rel);
/* phi(v, h) (0 or 1) for a FUNC node h that v may take; 0 for an op of
 * no class. */
int cg__parity_phi(cg__parity *P, int v, int h);
/* The relations as tables, for the annealer (cg__nego_opts): cls[v] =
 * cg__parity_class (n ints), and off[(v * np + p) * II + c] = phi(v, h) +
 * rel(v) (mod 2) for each FUNC node h = (prim p, context c) that v may
 * take (n * np * II bytes, the rest left as they are). */
void cg__parity_table(cg__parity *P, int np, int *cls, unsigned char *off);
/* The nodes every route out of FUNC node h takes, in order, into nodes
 * (room for cg_mrrg_nnodes): the chain of single out-edges after h, up to
 * a pin or a FUNC node (a route ends at a pin), which is the last.  How
 * many. */
int cg__parity_forced(const cg_mrrg *m, int h, int *nodes);
/* 1 when g provably cannot map on m's II, for any schedule, because the
 * parities of its route delays contradict each other around a cycle of
 * its edges (see parity.c), 0 when this bound proves nothing (or its work
 * limit skips it), -1 on no memory. */
int cg__bound_parity(const cg_netlist *nl, const cg_mrrg *m,
                     const cg_dfg *g);

#endif
