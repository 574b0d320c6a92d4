/* heur_internal.h: what the heuristic mapper's files share (not a public
 * header): the exact-delay router (route.c) and the heuristic modulo
 * scheduler / placer that uses it (heur.c).  Kept apart from the exact
 * models (exact_internal.h) so that the ILP's files and these evolve
 * independently. */
#ifndef CG_HEUR_INTERNAL_H
#define CG_HEUR_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "../map.h"

/* ---- a path's filter of its nodes (route.c, nego.c) ----------------------- */

/* 128 bits, one per node hashed: a node whose bit is clear is not on the
 * path, so the routers walk a path back only when the bit is set. */
typedef struct cg__pathf {
    uint64_t w[2];
} cg__pathf;

static inline void cg__pathf_bit(int x, int *word, uint64_t *bit)
{
    uint32_t h = (uint32_t)x * 2654435761u; /* Knuth's multiplicative hash */
    *word = (int)(h >> 31);
    *bit = (uint64_t)1 << (h >> 25 & 63);
}

/* f, of a path, extended by node x (from, NULL: of the empty path). */
static inline cg__pathf cg__pathf_add(const cg__pathf *from, int x)
{
    cg__pathf f = from ? *from : (cg__pathf){{0, 0}};
    int w;
    uint64_t b;
    cg__pathf_bit(x, &w, &b);
    f.w[w] |= b;
    return f;
}

/* May node x be on the path of filter f? */
static inline bool cg__pathf_may(const cg__pathf *f, int x)
{
    int w;
    uint64_t b;
    cg__pathf_bit(x, &w, &b);
    return (f->w[w] & b) != 0;
}

/* ---- route.c: routes of an exact delay ---------------------------------- */

/* The longest route delay searched (cycles); longer routes are not. */
#define CG__ROUTE_MAX_DELAY 96

/* Who holds each ROUTE node of the MRRG while a mapping is being built: the
 * DFG node whose value it carries (-1 = free), the delay from that value's
 * producer's start to the node, and the MRRG node before it on the value's
 * routing tree (the FUNC node for a result port).  A value's routes form a
 * tree: every node has one predecessor and so one arrival time. */
typedef struct cg__occ {
    int *owner;
    int *arrive;
    int *pred;
} cg__occ;

typedef struct cg__router cg__router;

cg__router *cg__router_create(const cg_mrrg *m);
void cg__router_destroy(cg__router *r); /* accepts NULL */

/* Find a route for value `value` (produced on FUNC node src_func) to the
 * ROUTE node sink (an operand pin) whose delay from the producer's start is
 * exactly delay: it branches off the value's tree (or leaves src_func) and
 * continues through free nodes only, never visiting a node twice.  On
 * success returns the number of new nodes written to path[0..] (in order,
 * sink last) and sets *from to the node it branches off (a tree node or
 * src_func); -1 when there is none (path must hold cg_mrrg_nnodes nodes). */
int cg__route_exact(cg__router *r, const cg__occ *occ, int value,
                    int src_func, int sink, int delay, int *path,
                    int *from);
/* Has an allocation failed in some search (its -1 may have hidden a
 * route)?  The caller then ends in an "out of memory" error. */
bool cg__router_oom(const cg__router *r);

/* ---- heur.c: the heuristic mapper --------------------------------------- */

/* An ordering constraint start(then) + distance*II >= start(first) +
 * latency between two DFG nodes (memory order).  Same layout as
 * cg_mem_order where that exists. */
typedef struct cg__heur_order {
    int first, then, distance, latency;
} cg__heur_order;

typedef struct cg__heur_opts {
    double timeout_s;              /* wall-clock cap: give up after this
                                      long (reported in timed_out) */
    unsigned seed;                 /* for the randomised restarts */
    const cg__heur_order *orders;  /* extra precedences, NULL = none */
    int norders;
    int max_attempts;              /* 0 = until the time is up */
    int attempts;                  /* out: attempts made */
    long max_steps;                /* work limit: ops placed (or failed)
                                      over all attempts, 0 = none */
    long steps;                    /* out: steps made */
    bool timed_out;                /* out: timeout_s (a wall-clock cap)
                                      ended the search */
    const struct cg__prim_sets *allowed; /* per DFG node, the primitives
                                      it may use (cluster_internal.h);
                                      NULL = every one that fits */
    int partial_tries;             /* when no complete mapping is found:
                                      this many more attempts that skip
                                      the ops they cannot place instead
                                      of stopping (0 = none) */
    cg_mapping *partial;           /* out: the best of those (fewest ops
                                      skipped), owned by the caller: place
                                      -1 for a skipped op, route NULL for
                                      an edge not routed; NULL when none */
    int skipped;                   /* out: the ops it skipped */
    const cg_map_heur_params *w;   /* priorities and costs, NULL = the
                                      defaults (cg_map_params_init) */
} cg__heur_opts;

/* Map g on the MRRG m (at its II) by modulo scheduling with placement and
 * exact-delay routing, restarting with new priorities until it succeeds or
 * the time is up; when it does not, o->partial_tries attempts more with
 * the priorities learnt may leave a partial mapping in o->partial (the
 * ILP's repair starts from it, map.c).  Returns 1 with *out set (a complete mapping, not yet
 * checked), 0 when none was found, -1 on no memory (error in d). */
int cg__heur_map(const cg_netlist *nl, const cg_mrrg *m, const cg_dfg *g,
                 cg__heur_opts *o, cg_mapping **out, cg_diags *d);

/* For every DFG edge, the least delay a route can have from a unit that
 * can run its producer (start included, so the unit's latency too) to the
 * operand's pin on a unit that can run its consumer, >= 2^28 when none; for
 * every DFG node, the largest latency of a unit that can run it.  0, or -1
 * on no memory. */
int cg__heur_min_delays(const cg_netlist *nl, const cg_mrrg *m,
                        const cg_dfg *g, int *edge_min, int *lat_max);

/* What the negotiated mapper (nego.c) shares with the heuristic, built by
 * the heuristic's own setup so that both see the same units: which units
 * (primitives) can run each op, with the pins and result port it needs;
 * the FUNC node of each unit and context; the least route delay between
 * units; each op's edges. */
typedef struct cg__units {
    int np, nf;
    int *funcnode;   /* prim * ii + context -> FUNC node, -1 */
    int *fidx;       /* prim -> index among the FUNC prims, -1 */
    int *dmin;       /* [fidx(p) * nf + fidx(q)] * 3 + k: least delay from
                        p's start to operand k of q, >= 2^28 when none */
    int **cand;      /* per DFG node: the prims that can run it */
    int *ncand;
    int **ein, **eout; /* per DFG node: its in- and out-edge ids */
    int *nein, *neout;
} cg__units;

/* 0 with u filled (every unit that fits each op), -1 on no memory. */
int cg__units_build(const cg_netlist *nl, const cg_mrrg *m, const cg_dfg *g,
                    cg__units *u);
void cg__units_free(cg__units *u, int nnodes);
int cg__units_dmin(const cg__units *u, int p, int q, int k);

/* ---- nego.c: simulated annealing with negotiated congestion ------------ */

typedef struct cg__nego_opts {
    unsigned seed;
    long max_moves;          /* work limit: annealing moves, > 0 */
    const cg_map_anneal_params *w; /* weights and schedule */
    double timeout_s;        /* wall-clock cap (reported in timed_out) */
    const cg__heur_order *orders; /* extra precedences, NULL = none */
    int norders;
    const cg_mapping *from;  /* a partial mapping to start from (place -1
                                for an op it lacks), NULL = none */
    /* The parity relations every mapping at this II has (exact/parity.c,
     * docs/mapper.md "The parity bound"), NULL = none: op v of class
     * par_class[v] >= 0 on FUNC node h = funcnode[p * II + c] starts at t
     * with (t - par_off[(v * np + p) * II + c]) mod 2 the same for every
     * op of its class.  The annealer draws starts that keep it. */
    const int *par_class;
    const unsigned char *par_off;
    long moves;              /* out: moves made */
    int shared_peak;         /* out: the most extra holders (a node held
                                by k (value, arrival, pred) counts k - 1)
                                at a negotiation round; 0 = sharing never
                                had to be negotiated away */
    bool timed_out;          /* out */
} cg__nego_opts;

/* Map g on m (at its II) by simulated annealing of every op's unit and
 * start, its edges routed with negotiated congestion (PathFinder: routes
 * may share a node at a growing price until none does).  1 with *out set
 * (complete, not yet checked), 0 when the moves ran out first (or an op
 * found no slot to start from), -1 on no memory or an internal error
 * (error in d). */
int cg__nego_map(const cg_netlist *nl, const cg_mrrg *m, const cg_dfg *g,
                 cg__nego_opts *o, cg_mapping **out, cg_diags *d);

/* ---- bound.c: a quick proof that an II is impossible ------------------- */

/* 1 when g provably cannot map on m's II because its routes would need
 * more delay nodes (registers) than the MRRG has (see bound.c), 0 when
 * this bound proves nothing, -1 with an error in d (no memory, or GLPK
 * stopped on its LP). */
int cg__bound_registers(const cg_netlist *nl, const cg_mrrg *m,
                        const cg_dfg *g, cg_diags *d);
/* The bound's figures: *need the least delay nodes any schedule's waits
 * take (-1 when no schedule closes the recurrences or an edge has no
 * route, -2 when the LP is undecided), *have the MRRG's.  0, or -1 with
 * an error in d (no memory, or GLPK stopped on the LP). */
int cg__bound_need(const cg_netlist *nl, const cg_mrrg *m, const cg_dfg *g,
                   double *need, int *have, cg_diags *d);
/* The MRRG's delay nodes (ROUTE nodes entered from a ROUTE node by an
 * edge of delay > 0: a Register or RegisterFile per context), and in
 * *kmax the largest such delay (at least 1).  The routes of one value
 * hold at least ceil((start(w) + d*II - start(u) - lat_max(u)) / kmax)
 * of them for each of its edges, and values share none (bound.c). */
int cg__bound_delay_nodes(const cg_mrrg *m, int *kmax);
/* The same delay nodes counted by context: per_context[c] (II ints) those
 * of context c, the nodes that hold a value at the cycles c (mod II). */
void cg__bound_context_delay_nodes(const cg_mrrg *m, int *per_context);
/* The largest slack over the shortest schedule s0 that any mapping can
 * have at II ii, by the same count: the schedule of the precedences
 * prec (np triples a, b, w: start(b) >= start(a) + w), shifted so that
 * some op starts at its asap, each op v ending at start(v) + tail[v];
 * each value u holding delay nodes for its edges (lat[u] its largest
 * unit latency), at most `have` of them in all.  An LP per op (GLPK);
 * 0 with *slack, 1 when it bounds nothing (some part of the DFG may
 * drift at no cost in registers), -1 on no memory, -2 when GLPK stopped
 * (its first line in said, nsaid bytes: cg__glpk_guard). */
int cg__bound_slack(const cg_dfg *g, int ii, const int *prec, int np,
                    const int *asap, const int *tail, int s0,
                    const int *lat, int kmax, int have, int *slack,
                    char *said, size_t nsaid);

#endif
