/* map.h: the mapper stage: the modulo routing resource graph (MRRG), the
 * minimum initiation interval (MII), the mapping type and its writers, and
 * the II search: bounds, the heuristic, the exact SAT mapper, the annealer,
 * and the ILP (GLPK or CBC) where SAT's model is too large (docs/mapper.md,
 * "The II search").
 *
 * Data flows one way: netlist (arch.h) + DFG (dfg.h) -> MRRG -> mapping ->
 * checker, simulator (verify/verify.h, a stage of their own that reads only
 * the netlist, the MRRG, the DFG and a cg_mapping, never the searches).
 *
 * "Could not map" (infeasible up to some II, time out) is an outcome recorded
 * in cg_map_result, not an error.  Errors (bad input: an op no unit
 * supports) go to cg_diags and name the op or unit.
 */
#ifndef CG_MAP_H
#define CG_MAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../arch/arch.h"
#include "../common/diag.h"
#include "../dfg/dfg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the MRRG ------------------------------------------------------------ */

typedef enum cg_mrrg_kind {
    CG_MRRG_ROUTE, /* carries one value in one context (capacity 1) */
    CG_MRRG_FUNC   /* executes one op in one context */
} cg_mrrg_kind;

typedef struct cg_mrrg_node {
    cg_mrrg_kind kind;
    int context;   /* 0 .. II-1 */
    int prim;      /* netlist primitive it belongs to */
    int port;      /* netlist port it stands for; -1 for FUNC nodes and
                      for the registers of a RegisterFile (ROUTE nodes
                      that hold a value from context c to c+1) */
    int operand;   /* ROUTE node that is an input pin of a FUNC node:
                      the operand index it feeds, else -1 */
    int func;      /* for an input pin or output of a FUNC node: that
                      FUNC node, else -1 */
} cg_mrrg_node;

typedef struct cg_mrrg_edge {
    int from, to;
    int delay;     /* cycles: 1 through a Register, L out of a FuncUnit of
                      latency L, 0 along wires and muxes */
    int mux_input; /* edge through a Multiplexer: the input index it
                      selects, else -1 */
} cg_mrrg_edge;

typedef struct cg_mrrg cg_mrrg;

/* The accessors are cg_mrrg_get_node/_get_edge: in C a function may not
 * share its name with the typedefs cg_mrrg_node/cg_mrrg_edge. */

/* Elaborate the netlist for an II (>= 1).  NULL with an error on bad input. */
cg_mrrg *cg_mrrg_build(const cg_netlist *nl, int ii, cg_diags *d);
void cg_mrrg_destroy(cg_mrrg *m); /* accepts NULL */
int cg_mrrg_ii(const cg_mrrg *m);
int cg_mrrg_nnodes(const cg_mrrg *m);
const cg_mrrg_node *cg_mrrg_get_node(const cg_mrrg *m, int id);
int cg_mrrg_nedges(const cg_mrrg *m);
const cg_mrrg_edge *cg_mrrg_get_edge(const cg_mrrg *m, int id);
/* Out-edges of node id: *n edges, returned as edge ids. */
const int *cg_mrrg_out(const cg_mrrg *m, int id, int *n);
/* The ROUTE node that is operand pin `operand` (0..2) of FUNC node func,
 * -1 when it has none. */
int cg_mrrg_pin(const cg_mrrg *m, int func, int operand);
const int *cg_mrrg_in(const cg_mrrg *m, int id, int *n);
/* Can FUNC node id execute op? (FuncUnit ops, MEMUnit load/store, IO
 * input/output, ConstUnit const.) */
bool cg_mrrg_supports(const cg_mrrg *m, const cg_netlist *nl, int id,
                      cg_op op);

/* ---- MII ------------------------------------------------------------- */

typedef struct cg_mii {
    int res_mii;      /* from resources */
    int rec_mii;      /* from recurrences */
    int mii;          /* max of the two, >= 1 */
    cg_op bottleneck; /* op class that sets res_mii */
} cg_mii;

/* Fails with an error naming the op when no unit supports it. */
int cg_mii_compute(const cg_netlist *nl, const cg_dfg *g, cg_mii *out,
                   cg_diags *d);

/* ---- memory order ---------------------------------------------------- */

/* The ordering edges (cg_mem_order, dfg.h) a mapping keeps:
 *   start(then) + distance*II >= start(first) + latency.
 * The order the graph states (cg_dfg_mem_order: read from a .dot written
 * by `cgramap dfg`) when it states one; otherwise which pairs may alias
 * comes from the DFG's nest (cg_dfg_nest) and the nodes' banks: different
 * banks or arrays never, affine offsets of one array at the distances
 * where their bytes overlap, anything unknown (no nest, indirect index) at
 * every distance, so the smallest (0 within an iteration when first's id
 * is lower, else 1).  latency is 0: a MEMUnit accesses memory in the cycle
 * its op starts, and accesses of one cycle take effect in iteration order,
 * then node order (cg_sim_run). */

/* The ordering edges of g into *out (malloc'd, the caller frees it;
 * NULL when none).  Returns their number, -1 on no memory. */
int cg_map_mem_orders(const cg_dfg *g, cg_mem_order **out);

/* ---- a mapping ---------------------------------------------------------- */

/* A mapping of a DFG at one II.  route[e] lists, for DFG edge e, the MRRG
 * ROUTE nodes its value takes from the producer's FUNC node output up to and
 * including the consumer's operand pin, in order; the latency of the route
 * is the sum of the delays of the MRRG edges between consecutive entries
 * (including FUNC -> first entry). */
typedef struct cg_mapping {
    int ii;
    int nnodes;       /* DFG nodes */
    int *place;       /* DFG node -> MRRG FUNC node, -1 for nodes that
                         need none: consts carried as immediates by
                         their consumers' units (whose edges then have
                         no route) */
    int64_t *start;   /* DFG node -> absolute start cycle */
    int nedges;       /* DFG edges */
    int *route_len;
    int **route;
} cg_mapping;

cg_mapping *cg_mapping_create(int ii, int nnodes, int nedges);
void cg_mapping_destroy(cg_mapping *m); /* accepts NULL */
/* The writers below, like every writer of cgramap's headers, flush out
 * and return 0 when every byte reached it, or -1 with errno ENOMEM (out of
 * memory: nothing or a part written) or the write's error (ENOSPC for a
 * full disk, ...).  A caller writing a file should write a temporary one
 * and rename it on 0, as the cgramap program does. */
/* Text form: placements, start times, and each route by MRRG node names
 * ("block_1_2.func@c1", "block_1_2.reg.out@c0") with its latency. */
int cg_mapping_write(const cg_mapping *m, const cg_mrrg *mrrg,
                     const cg_netlist *nl, const cg_dfg *g, FILE *out);
/* The configuration as JSON: placements, routes and, per context, the op
 * each unit runs and the input each mux selects. */
int cg_mapping_write_json(const cg_mapping *m, const cg_mrrg *mrrg,
                          const cg_netlist *nl, const cg_dfg *g, FILE *out);
/* A Graphviz picture on the array's grid (cg_netlist_layout), one panel
 * per context: each unit's op and DFG node, the value each routing
 * primitive carries, unused primitives faint, route steps between
 * primitives as arrows coloured per value (a delay labelled).  Render
 * with `neato -Tsvg`. */
int cg_mapping_write_dot(const cg_mapping *m, const cg_mrrg *mrrg,
                         const cg_netlist *nl, const cg_dfg *g, FILE *out);
/* The same mapping at the PE level, readable at screen size: one panel
 * per context stacked top to bottom, one box per block on its grid cell
 * naming the ops it runs and the values it carries, an arrow per value
 * moving between blocks (coloured per value, its delay labelled), and a
 * legend.  Render with `neato -Tsvg`. */
int cg_mapping_write_pe_dot(const cg_mapping *m, const cg_mrrg *mrrg,
                            const cg_netlist *nl, const cg_dfg *g, FILE *out);

/* ---- the ILP mapper ------------------------------------------------------ */

typedef enum cg_map_status {
    CG_MAP_MAPPED,     /* a checked mapping at result.ii */
    CG_MAP_INFEASIBLE, /* every II up to max_ii proven impossible */
    CG_MAP_TIMEOUT,    /* some II timed out, none mapped */
    CG_MAP_ERROR       /* bad input, see diags */
} cg_map_status;
/* "mapped", "infeasible", "timeout", "error" (also for a value outside
 * the enum): the words of the rows and the JSON records. */
const char *cg_map_status_name(cg_map_status s);

/* The MIP solver of the ILP.  GLPK is the default; CBC (COIN-OR) solves
 * the same model and proves impossible IIs GLPK times out on
 * (docs/mapper.md, "Solvers"). */
typedef enum cg_map_solver { CG_SOLVER_GLPK, CG_SOLVER_CBC } cg_map_solver;
/* Which searches run (docs/mapper.md): the heuristic and the annealer,
 * then the exact SAT mapper (and the ILP where SAT is undecided) at the
 * IIs below theirs (the default), the heuristic alone (fast; lower IIs
 * stay open), the ILP alone (every II from the lowest, no heuristic and
 * so no repair of its partial mappings), or the SAT mapper alone (every
 * II from the lowest). */
typedef enum cg_map_search { CG_SEARCH_AUTO, CG_SEARCH_HEURISTIC,
                             CG_SEARCH_ILP, CG_SEARCH_SAT } cg_map_search;
/* "auto", "heuristic", "ilp", "sat": 0, or -1 when name is none of
 * them. */
int cg_map_search_parse(const char *name, cg_map_search *out);
const char *cg_map_search_name(cg_map_search s);

/* "glpk" or "cbc"; 0, or -1 for any other name. */
int cg_map_solver_parse(const char *name, cg_map_solver *out);
const char *cg_map_solver_name(cg_map_solver s);

/* The highest II the mapper tries: an II limit above it is an error.  A
 * plain number: the CLI's help quotes it (CG_STR). */
#define CG_MAP_MAX_II 64
/* The most schedule slack the SAT mapper encodes (sat_horizon): more is
 * an error.  A plain number, like CG_MAP_MAX_II. */
#define CG_MAP_MAX_SAT_HORIZON 64

/* The stages of the search at one II, for a progress display. */
typedef enum cg_map_stage {
    CG_STAGE_BOUND,     /* the register and parity bounds (bound.c,
                           parity.c) */
    CG_STAGE_HEURISTIC, /* the constructive heuristic (heur.c) */
    CG_STAGE_ANNEALER,  /* the negotiated annealer (nego.c) */
    CG_STAGE_SAT,       /* the SAT mapper (sat.c) */
    CG_STAGE_ILP        /* the ILP's attempts (ilp.c) */
} cg_map_stage;
/* "bound", "heuristic", "annealer", "SAT", "ILP". */
const char *cg_map_stage_name(cg_map_stage s);
/* Called as the search enters a stage at an II.  It only watches: it must
 * not call the mapper, and nothing it does changes the result. */
typedef void (*cg_map_progress_fn)(void *arg, int ii, cg_map_stage stage);

/* The negotiated annealer's cost weights and cooling schedule (nego.c,
 * docs/mapper.md "The negotiated annealer"), tuned on fir, conv3, mults2
 * (II 2) and sobel (II 3) on the default 4x4.  A move is judged by
 * w_shared per extra holder of a routing node (times 1 + its history),
 * w_unrouted plus w_short per cycle lacking for each unrouted edge (times
 * 1 + its history), w_order per memory order broken and w_len per route
 * node.  The temperature falls geometrically from t_start to t_end over
 * the moves allowed; rounds times along the way the nodes still shared
 * and the edges still unrouted get h_step more history and sharing gets
 * p_grow times dearer. */
typedef struct cg_map_anneal_params {
    double w_shared, w_unrouted, w_order, w_len, w_short;
    double t_start, t_end; /* t_start > t_end > 0 */
    int rounds;            /* >= 1 */
    double h_step;         /* >= 0 */
    double p_grow;         /* >= 1 */
} cg_map_anneal_params;

/* The constructive heuristic's priorities and costs (heur.c,
 * docs/mapper.md "The heuristic").  An attempt takes the ready ops by
 * priority: height + w_bump per earlier attempt the op failed in +
 * prio_noise * U(0,1); from the third attempt a source waits for its last
 * consumer instead of its first with chance late_src.  An op goes to the
 * unit and start of least cost: the route nodes it takes, w_late per
 * cycle between the start and its anchor (where its placed neighbours
 * would have it), w_ahead per grid step to what its unplaced neighbours
 * must meet, and noise * U(0,1), where noise is noise_start + attempts /
 * noise_attempts, at most noise_max; each unit is tried at II +
 * extra_starts starts. */
typedef struct cg_map_heur_params {
    double w_bump, prio_noise; /* >= 0 */
    double late_src;           /* a chance: 0 to 1 */
    double w_late, w_ahead;    /* >= 0 */
    double noise_start;        /* >= 0 */
    double noise_attempts;     /* > 0 */
    double noise_max;          /* >= noise_start */
    int extra_starts;          /* 0 to 1000 */
} cg_map_heur_params;

/* The annealed placement that centres the restricted ILP models
 * (place.c): moves_per_node moves per DFG node while the temperature falls
 * from t_start, times cooling at each of cool_steps even steps, then
 * quench_per_node moves per node that only keep what does not worsen the
 * summed grid distance of the DFG's edges. */
typedef struct cg_map_place_params {
    long moves_per_node;  /* 0 to 1e6 */
    double t_start;       /* > 0 */
    double cooling;       /* in (0, 1] */
    int cool_steps;       /* 1 to 1e6 */
    long quench_per_node; /* 0 to 1e6 */
} cg_map_place_params;

/* The clustering of DFGs above cluster_threshold nodes (cluster.c,
 * docs/mapper.md "Clustering large DFGs"): about target_ops nodes per
 * cluster, METIS k-way with a size imbalance of metis_ufactor thousandths
 * and the best of metis_ncuts partitions; the regions' ILP stops at
 * ilp_nodes branch-and-bound nodes (the work limit that decides) or
 * ilp_time_s seconds (a safety net, warned when it stops one); an op may
 * use units up to halo grid cells outside its cluster's region. */
typedef struct cg_map_cluster_params {
    int target_ops;       /* >= 1 */
    int metis_ufactor;    /* >= 1 */
    int metis_ncuts;      /* >= 1 */
    int ilp_nodes;        /* >= 1 */
    double ilp_time_s;    /* > 0 */
    int halo;             /* >= 0 */
} cg_map_cluster_params;

/* What decides a result is the input, the seed and the work limits
 * (heur_steps, nego_moves, sat_conflicts, ilp_nodes, lp_iters): the same on every machine, loaded or
 * not.  The wall-clock limits (timeout_s, time_limit_s) only cap a run;
 * an II they end is marked `capped` in the result, and only such an II
 * may come out differently on a slower or busier machine. */
typedef struct cg_map_params {
    double timeout_s;     /* wall-clock cap per II */
    double time_limit_s;  /* wall-clock cap for the whole loop, 0 = none:
                             IIs it leaves untried are open */
    int min_ii;           /* lowest II tried, 0 = the MII; IIs between
                             the MII and it are left open (untried).
                             Below the MII it is an error */
    int max_ii;           /* highest II tried, 1..CG_MAP_MAX_II; 0 (the
                             default) follows the loop's MII:
                             cg_map_top_ii */
    cg_map_search search; /* CG_SEARCH_AUTO by default */
    const char *dump_lp;  /* write the model of each II tried here (CPLEX
                             LP form, "-<ii>" appended), NULL = none */
    unsigned seed;        /* for the heuristic's restarts and the
                             annealed placement */
    cg_map_solver solver; /* of the ILP; CG_SOLVER_GLPK by default */
    long heur_steps;      /* work limit per II: ops the heuristic places
                             (or fails to), over all its restarts */
    long nego_moves;      /* work limit per II: moves of the negotiated
                             annealer (nego.c) when the heuristic fails
                             there, 0 = none */
    /* Large DFGs: a heuristic step there routes an op over many units and
     * starts, and restarts rarely find what the first pass missed, while
     * the annealer's moves stay cheap; and SAT's model of a climb's II
     * costs seconds and hundreds of MB before its first conflict.  So a
     * DFG of more than large_above nodes (after immediates) gets its own
     * budgets.  In the auto search its climb runs SAT at one II only,
     * the first the bounds leave, with the budget of the search
     * below (a mapping there is optimal and ends the search); elsewhere
     * SAT runs only as the prover below the II mapped, unless
     * large_climb_sat. */
    int large_above;      /* >= 0 */
    long large_steps;     /* heur_steps above large_above (>= 0) */
    long large_moves;     /* nego_moves above large_above (>= 0) */
    bool large_climb_sat; /* SAT at the other IIs of the climb above
                             large_above too (sat_climb_share) */
    double large_timeout_s; /* timeout_s above large_above: the large
                             budgets' wall-clock cap per II */
    long large_conflicts; /* sat_conflicts above large_above, for SAT
                             models of more than large_sat_literals
                             routing literals (>= 0; 0 = none): a
                             conflict there costs milliseconds, and the
                             model seconds to build */
    long large_rec_conflicts; /* large_conflicts at the climb's first II
                                 the bounds leave, for a DFG
                                 whose RecMII is above its ResMII; SAT
                                 then runs there before the heuristic
                                 (>= 0; 0 = none) */
    long large_sat_literals; /* above large_above, a SAT model (each one
                                built: the wider window's has more) of at
                                most this many routing literals keeps
                                sat_conflicts, which settle some of them
                                within large_timeout_s (>= 0; 0: every
                                model gets large_conflicts) */
    int retries;          /* at most large_above nodes, in auto: at an II
                             below the climb's that SAT left undecided
                             (neither mapped nor refuted), the heuristic
                             and annealer again with this many fresh
                             seeds, retry_moves moves each, within a
                             fresh per-II cap (>= 0; 0 = none) */
    long retry_moves;     /* the annealer's moves in each of those (>= 0) */
    int large_retries;    /* above large_above, in auto: below the II the
                             climb mapped, from the top down, the
                             heuristic and annealer again at each II with
                             this many fresh seeds (>= 0; 0: the IIs below
                             are searched bottom up, as for small DFGs) */
    int ilp_nodes;        /* work limit per ILP model: branch-and-bound
                             nodes (the restricted models and the repair's
                             rounds get a share, below) */
    int lp_iters;         /* work limit: simplex iterations of the LP
                             relaxation that may prove an II impossible */
    /* The search's policy (docs/mapper.md, "The II search"); each share
     * is a fraction in (0, 1]; a share of nodes is rounded up. */
    int partial_tries;    /* attempts the heuristic makes after failing at
                             an II, skipping the ops it cannot place; the
                             best is the partial mapping the ILP repairs
                             (>= 0; 0 = no repair) */
    double repair_node_share;     /* of ilp_nodes per repair round */
    double repair_time_share;     /* of the II's time left the repair takes
                                     at most */
    double restricted_node_share; /* of ilp_nodes per restricted model */
    int cluster_threshold; /* DFGs of more nodes (after immediates) are
                             clustered first, the heuristic kept in each
                             cluster's region (>= 0) */
    double cluster_step_share; /* of heur_steps the heuristic spends in
                                  the cluster regions (rounded up) before
                                  it searches the whole array */
    int restricted_above; /* DFGs of more nodes get the restricted ILP
                             models before the full one; smaller ones go
                             straight to the full model (>= 0) */
    long sat_conflicts;   /* work limit per II: conflicts of the SAT
                             mapper over all its horizon steps, 0 = none */
    double sat_climb_share; /* of sat_conflicts (rounded up) SAT spends at
                             an II of the climb where the heuristic
                             failed, before the annealer: enough to map
                             most loops, so that a hard II does not hold
                             up the climb; the full limit follows below
                             the II mapped (at the first II the bound
                             leaves, the rest of it on the same model) */
    int sat_horizon;      /* schedule slack the SAT model encodes: each op
                             starts at most this many cycles after its
                             place in the shortest schedule (0 to
                             CG_MAP_MAX_SAT_HORIZON); an II it refutes is
                             proven for this slack, or for every one when
                             the slack bound (bound.c) shows no mapping
                             needs more */
    double sat_probe_share; /* of an II's SAT conflicts (rounded up)
                             first spent on one solve of the whole window,
                             before the slack-by-slack refutation: a
                             mapping that needs the room is found in a
                             fraction of what refuting each smaller slack
                             costs (0 = none) */
    int sat_wide_horizon; /* below the climb, a wider window (0 to
                             CG_MAP_MAX_SAT_HORIZON; <= sat_horizon: none)
                             tried first: its own model, solved at once
                             with sat_wide_share of sat_conflicts more; it
                             maps the II or refutes it for this slack;
                             where the slack bound leaves it no wider than
                             sat_horizon, one model serves both */
    double sat_wide_share; /* (rounded up; 0 = no wider window) */
    long sat_max_literals; /* the SAT mapper skips an II whose routing
                             variables would pass this (memory), 0 = no
                             limit */
    const char *dump_cnf; /* write the SAT model of each II it tries here
                             (DIMACS, "-<ii>" appended), NULL = none */
    cg_map_anneal_params anneal; /* the annealer's weights and schedule */
    cg_map_heur_params heur;     /* the heuristic's priorities and costs */
    cg_map_place_params place;   /* the placement the restricted ILP
                                    models centre on */
    cg_map_cluster_params cluster; /* clustering above cluster_threshold */
    cg_map_progress_fn progress; /* NULL = none */
    void *progress_arg;          /* progress's first argument */
} cg_map_params;
/* 60 s per II, no loop limit, IIs from the MII to cg_map_top_ii's, the
 * auto search,
 * seed 1, GLPK, 5000 steps, 100000 moves (300 steps and 400000 moves,
 * and SAT in the climb only at the first II the bounds leave,
 * above 48 nodes), 60000 SAT conflicts (a twentieth of them in the
 * climb; 2000 above 48 nodes for a model of more than 300000 routing
 * literals) with
 * horizon 4 and at most 20000000 routing literals, 5000 nodes, 100000
 * iterations; 8 partial
 * tries, a sixteenth of the nodes per repair round within half of the
 * II's time, a quarter per restricted model, clustering above 48 nodes
 * with half of the steps in the regions, restricted models above 6. */
void cg_map_params_init(cg_map_params *p);

/* The highest II tried for a loop of MII mii: p->max_ii when set, else
 * max(16, 2 * mii), at most CG_MAP_MAX_II: small loops keep 16, large
 * ones (sha256's MII is 34) get room above their bound. */
int cg_map_top_ii(const cg_map_params *p, int mii);

/* The policy fields above in their ranges: 0, or -1 with one error per
 * field out of range, at file (NULL = none), naming the field, its value
 * and the range.  cg_map checks first, at its DFG's file. */
int cg_map_params_check(const cg_map_params *p, const char *file,
                        cg_diags *d);

typedef enum cg_ii_outcome { CG_II_MAPPED, CG_II_INFEASIBLE,
                             CG_II_TIMEOUT } cg_ii_outcome;

/* What decided an II: the heuristic or the annealer (a mapping), the
 * register bound (bound.c), the ILP's LP relaxation, the ILP (GLPK or
 * CBC), the SAT mapper, the parity bound (parity.c); NONE when nothing
 * did. */
typedef enum cg_map_prover { CG_BY_NONE, CG_BY_HEURISTIC, CG_BY_BOUND,
                             CG_BY_LP, CG_BY_ILP, CG_BY_SAT,
                             CG_BY_PARITY } cg_map_prover;
/* "-", "heuristic", "bound", "lp", "ilp", "sat", "parity". */
const char *cg_map_prover_name(cg_map_prover b);

/* The outcome of one II the search tried. */
typedef struct cg_map_try {
    int ii;
    cg_ii_outcome outcome;
    double seconds;
    int rows, cols, nonzeros; /* the ILP's size */
    bool capped;              /* a wall-clock cap, not a work limit,
                                 ended this II's search */
    bool loop_capped;         /* capped, and the cap was what the
                                 loop's time_limit_s left, not the
                                 II's timeout_s */
    cg_map_prover by;         /* what mapped or refuted it */
    int horizon;              /* refuted by SAT: the schedule slack
                                 the refutation covers (-1 = any) */
    long conflicts;           /* SAT conflicts spent on it */
    int refuted;              /* undecided: the SAT mapper refuted
                                 every schedule up to this slack
                                 before its limits (-1 = none) */
    int reg_need, reg_have;   /* undecided: the register bound's figures
                                 (docs/mapper.md): the delay nodes
                                 (register slots) the waits of any
                                 schedule take at least, and the array's
                                 at this II; reg_need -1 when not known,
                                 or above reg_have: the bound's proof,
                                 which the wall clock kept from running) */
} cg_map_try;

typedef struct cg_map_result {
    cg_map_status status;
    cg_mii mii;
    int ii;                     /* mapped II, or last II tried */
    int ntried;
    cg_map_try tried[CG_MAP_MAX_II]; /* in increasing II */
    double seconds;             /* total */
    bool capped;                /* some II was capped, or the loop's time
                                   limit left IIs untried */
    double timeout_s, time_limit_s; /* the wall-clock caps it ran under
                                   (params'), for saying which fired */
    int min_ii;                 /* params' min_ii: the IIs below it were
                                   left untried on purpose */
    cg_mapping *mapping;        /* owned; NULL unless MAPPED */
    cg_mrrg *mrrg;              /* owned; the MRRG of mapping's II */
    int fus_used, routes_used;  /* FUNC and ROUTE nodes used */
} cg_map_result;

/* Search II from MII to max_ii, on g without the consts that units can
 * carry as immediates (docs/mapper.md, "Immediates"; MII included); the
 * mapping is of g, those consts unplaced.  Returns 0 and fills res
 * (outcomes included); -1 on bad input with errors in d.  GLPK (the
 * thread's environment) is the mapper's while it runs: an error inside
 * any of its GLPK solves (no memory) frees every GLPK object of the
 * thread (glp_free_env) and is returned as an error (docs/mapper.md,
 * "Limits"). */
int cg_map(const cg_netlist *nl, const cg_dfg *g, const cg_map_params *p,
           cg_map_result *res, cg_diags *d);
void cg_map_result_free(cg_map_result *res); /* frees mapping and mrrg */

#ifdef __cplusplus
}
#endif

#endif
