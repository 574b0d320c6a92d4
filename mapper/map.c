/* map.c: the II search.
 *
 * From the MII upward, each II gets the register and parity bounds
 * (bound.c, parity.c), then the heuristic (heur.c: modulo scheduling,
 * placement and routing with exact delays; above the clustering threshold
 * first inside cluster regions, cluster.c), heur_steps steps; where it fails, in the auto search, the
 * exact SAT mapper (sat.c) with sat_climb_share of sat_conflicts: it maps
 * the II or refutes it for schedules within sat_horizon cycles of the
 * shortest; and where neither decided, the negotiated annealer (nego.c)
 * from the heuristic's best partial mapping, nego_moves moves.  The first
 * II mapped ends the climb; every mapping goes through cg_map_check.  SAT
 * sits before the annealer because on small loops it maps in a second
 * what the annealer searches for tens of seconds, and a refuted II needs
 * no annealer at all; its share is small so that a hard II does not hold
 * up the climb.  At the first II the bounds leave, the share's
 * model is kept where neither it nor the annealer decided, and the
 * search below goes on with it (sat_continue), learnt clauses kept,
 * instead of building and solving the II again.  Then each II below the
 * one mapped that nothing decided gets SAT again with all of
 * sat_conflicts (first, with sat_wide_share more, on a wider window,
 * sat_wide_horizon); where its model is larger than sat_max_literals the
 * exact ILP takes the II instead, within its work limits (lp_iters,
 * ilp_nodes), in this order:
 *   R. the repair of the heuristic's best partial mapping at that II
 *      (repair.c): most ops kept, a widening neighbourhood of the ones it
 *      skipped solved exactly,
 *   0. the LP relaxation of the full model: infeasible proves the II
 *      impossible at once,
 *   1. the ILP restricted to units within grid distance 1 of a
 *      simulated-annealing placement,
 *   2. the same with radius 2 (each with restricted_node_share of
 *      ilp_nodes, a quarter by default),
 *   3. the full model (every unit that supports each op), the only one
 *      whose infeasibility proves the II impossible.
 * Steps 1-3 solve the MIP with params->solver (GLPK or CBC, ilp_cbc.c);
 * step 0 is always GLPK's simplex.  --mapper ilp runs R-3 alone at every
 * II, --mapper sat the SAT mapper alone.
 * The first II the ILP maps below wins; if none, the climb's mapping
 * stands, and the outcomes of the lower IIs (infeasible or timed out) say
 * whether it is proven optimal; each II tried records what decided it
 * (cg_map_prover).  When the climb maps nothing up to max_ii, the ILP
 * tries every II it may take as above.
 * A DFG of more than large_above nodes gets the large budgets (steps,
 * moves, the cap per II; conflicts where its SAT model has more than
 * large_sat_literals routing literals).  Its climb runs SAT at one II
 * only, the first the bounds leave, and there with the budget
 * of the search below, which does not run it there again: a model costs
 * seconds to build, and a mapping at that II is optimal (Morpher's
 * bicg_unroll3, gemm_2x2x2 and fix_fft map so at their MII, where the
 * heuristic and annealer fail).  Where the climb mapped, the lower IIs
 * are searched from the top down: SAT, then the heuristic and annealer
 * again with large_retries fresh seeds (descend).
 * A restricted model that is infeasible or times out proves nothing; the
 * II's outcome is that of the first mapped model, else of the full one.
 * Every mapping is checked by cg_map_check before it is returned; a mapping
 * that fails it is a mapper bug, reported as an error, never a result.
 * All of this runs on the DFG without the consts that units carry as
 * immediates (imm.c), MII included; cg_map expands the mapping back.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "../verify/verify.h"
#include "exact/exact_internal.h"
#include "exact/sat_internal.h"
#include "model/imm_internal.h"
#include "search/cluster_internal.h"
#include "search/heur_internal.h"
#include "search/place_internal.h"

int cg_map_solver_parse(const char *name, cg_map_solver *out)
{
    if (strcmp(name, "glpk") == 0)
        *out = CG_SOLVER_GLPK;
    else if (strcmp(name, "cbc") == 0)
        *out = CG_SOLVER_CBC;
    else
        return -1;
    return 0;
}

const char *cg_map_solver_name(cg_map_solver s)
{
    return s == CG_SOLVER_CBC ? "cbc" : "glpk";
}

int cg_map_search_parse(const char *name, cg_map_search *out)
{
    static const char *names[] = {"auto", "heuristic", "ilp", "sat"};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (cg_map_search)i;
            return 0;
        }
    return -1;
}

const char *cg_map_search_name(cg_map_search s)
{
    return s == CG_SEARCH_HEURISTIC ? "heuristic"
           : s == CG_SEARCH_ILP     ? "ilp"
           : s == CG_SEARCH_SAT     ? "sat"
                                    : "auto";
}

const char *cg_map_status_name(cg_map_status s)
{
    static const char *names[] = {"mapped", "infeasible", "timeout",
                                  "error"};
    return s >= CG_MAP_MAPPED && s <= CG_MAP_ERROR ? names[s] : "error";
}

const char *cg_map_prover_name(cg_map_prover b)
{
    static const char *names[] = {"-",   "heuristic", "bound", "lp",
                                  "ilp", "sat",       "parity"};
    return b >= CG_BY_NONE && b <= CG_BY_PARITY ? names[b] : "-";
}

void cg_map_params_init(cg_map_params *p)
{
    memset(p, 0, sizeof *p);
    p->timeout_s = 60;
    p->seed = 1;
    p->heur_steps = 5000;
    p->nego_moves = 100000;
    p->large_above = 48;
    p->large_steps = 300;
    p->large_moves = 400000;
    p->large_conflicts = 2000;
    p->large_rec_conflicts = 30000;
    p->large_sat_literals = 300000;
    p->large_timeout_s = 300;
    p->large_retries = 1;
    p->retries = 2;
    p->retry_moves = 800000;
    p->ilp_nodes = 5000;
    p->lp_iters = 100000;
    p->partial_tries = 8;
    p->repair_node_share = 1.0 / 16;
    p->repair_time_share = 0.5;
    p->restricted_node_share = 0.25;
    p->cluster_threshold = 48;
    p->cluster_step_share = 0.5;
    p->restricted_above = 6;
    p->sat_conflicts = 60000;
    p->sat_climb_share = 1.0 / 20;
    p->anneal = (cg_map_anneal_params){.w_shared = 4.0, .w_unrouted = 20.0,
                                       .w_order = 20.0, .w_len = 0.05,
                                       .w_short = 4.0, .t_start = 2.0,
                                       .t_end = 0.05, .rounds = 300,
                                       .h_step = 0.2, .p_grow = 1.05};
    p->heur = (cg_map_heur_params){.w_bump = 2.0, .prio_noise = 1.5,
                                   .late_src = 0.3, .w_late = 1.0,
                                   .w_ahead = 0.5, .noise_start = 1.0,
                                   .noise_attempts = 40.0, .noise_max = 6.0,
                                   .extra_starts = 3};
    p->place = (cg_map_place_params){.moves_per_node = 4000, .t_start = 4.0,
                                     .cooling = 0.92, .cool_steps = 100,
                                     .quench_per_node = 200};
    p->cluster = (cg_map_cluster_params){.target_ops = 32,
                                         .metis_ufactor = 30,
                                         .metis_ncuts = 1, .ilp_nodes = 500,
                                         .ilp_time_s = 30, .halo = 1};
    p->sat_horizon = 4;
    p->sat_probe_share = 1.0 / 10;
    p->sat_wide_horizon = 8;
    p->sat_wide_share = 1.0 / 50;
    p->sat_max_literals = 20000000;
}

const char *cg_map_stage_name(cg_map_stage s)
{
    static const char *names[] = {"bound", "heuristic", "annealer", "SAT",
                                  "ILP"};
    return s >= CG_STAGE_BOUND && s <= CG_STAGE_ILP ? names[s] : "?";
}

static void progress(const cg_map_params *p, int ii, cg_map_stage s)
{
    if (p->progress)
        p->progress(p->progress_arg, ii, s);
}

int cg_map_top_ii(const cg_map_params *p, int mii)
{
    if (p->max_ii > 0)
        return p->max_ii;
    int top = 2 * mii > 16 ? 2 * mii : 16;
    return top < CG_MAP_MAX_II ? top : CG_MAP_MAX_II;
}

/* A share in (0, 1]; -1 with an error naming field otherwise. */
static int check_share(const char *file, const char *field, double v,
                       cg_diags *d)
{
    if (v > 0 && v <= 1) /* false for NaN too */
        return 0;
    cg_diags_add(d, CG_SEV_ERROR, file, 0, "cg_map_params.%s is %g; it "
                 "must be a share above 0 and at most 1", field, v);
    return -1;
}

/* A count >= 0; -1 with an error naming field otherwise. */
static int check_count(const char *file, const char *field, int v,
                       cg_diags *d)
{
    if (v >= 0)
        return 0;
    cg_diags_add(d, CG_SEV_ERROR, file, 0, "cg_map_params.%s is %d; it "
                 "must be 0 or more", field, v);
    return -1;
}

/* The annealer's weights: finite and >= 0, the schedule in its ranges;
 * -1 with one error naming the first field out of range. */
static int check_anneal(const char *file, const cg_map_anneal_params *a,
                        cg_diags *d)
{
    const struct {
        const char *name;
        double v, lo;
    } f[] = {{"w_shared", a->w_shared, 0},   {"w_unrouted", a->w_unrouted, 0},
             {"w_order", a->w_order, 0},     {"w_len", a->w_len, 0},
             {"w_short", a->w_short, 0},     {"h_step", a->h_step, 0},
             {"p_grow", a->p_grow, 1},       {"t_end", a->t_end, 0}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!(f[i].v >= f[i].lo && f[i].v <= 1e9)) { /* NaN fails too */
            cg_diags_add(d, CG_SEV_ERROR, file, 0, "cg_map_params.anneal.%s "
                         "is %g; it must be at least %g and at most 1e9",
                         f[i].name, f[i].v, f[i].lo);
            return -1;
        }
    if (!(a->t_end > 0 && a->t_start > a->t_end && a->t_start <= 1e9) ||
        a->rounds < 1) {
        cg_diags_add(d, CG_SEV_ERROR, file, 0, "cg_map_params.anneal: "
                     "t_start %g, t_end %g, rounds %d; the temperature must "
                     "fall (t_start > t_end > 0) over at least one round",
                     a->t_start, a->t_end, a->rounds);
        return -1;
    }
    return 0;
}

/* A field of cg_map_params (or of a sub-struct) and its range: lo itself
 * allowed unless above. */
typedef struct range {
    const char *name;
    double v, lo, hi;
    bool above;
} range;

/* Each field of cg_map_params.sub (sub NULL: of cg_map_params itself) in
 * its range; -1 with one error per field out of range (NaN included),
 * naming it. */
static int check_ranges(const char *file, const char *sub, const range *f,
                        size_t n, cg_diags *d)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        bool low = f[i].above ? !(f[i].v > f[i].lo) : !(f[i].v >= f[i].lo);
        if (low || !(f[i].v <= f[i].hi)) {
            cg_diags_add(d, CG_SEV_ERROR, file, 0, "cg_map_params.%s%s%s is "
                         "%.12g; it must be %s %.12g and at most %.12g",
                         sub ? sub : "", sub ? "." : "", f[i].name, f[i].v,
                         f[i].above ? "above" : "at least", f[i].lo,
                         f[i].hi);
            bad = -1;
        }
    }
    return bad;
}

/* The heuristic's, the placement's and the clustering's numbers. */
static int check_search(const char *file, const cg_map_params *p,
                        cg_diags *d)
{
    const cg_map_heur_params *h = &p->heur;
    const cg_map_place_params *pl = &p->place;
    const cg_map_cluster_params *c = &p->cluster;
    const range heur[] = {
        {"w_bump", h->w_bump, 0, 1e9, false},
        {"prio_noise", h->prio_noise, 0, 1e9, false},
        {"late_src", h->late_src, 0, 1, false},
        {"w_late", h->w_late, 0, 1e9, false},
        {"w_ahead", h->w_ahead, 0, 1e9, false},
        {"noise_start", h->noise_start, 0, 1e9, false},
        {"noise_attempts", h->noise_attempts, 0, 1e9, true},
        {"noise_max", h->noise_max, h->noise_start, 1e9, false},
        {"extra_starts", h->extra_starts, 0, 1000, false}};
    const range place[] = {
        {"moves_per_node", (double)pl->moves_per_node, 0, 1e6, false},
        {"t_start", pl->t_start, 0, 1e9, true},
        {"cooling", pl->cooling, 0, 1, true},
        {"cool_steps", pl->cool_steps, 1, 1e6, false},
        {"quench_per_node", (double)pl->quench_per_node, 0, 1e6, false}};
    const range cluster[] = {
        {"target_ops", c->target_ops, 1, 1e6, false},
        {"metis_ufactor", c->metis_ufactor, 1, 1e6, false},
        {"metis_ncuts", c->metis_ncuts, 1, 1000, false},
        {"ilp_nodes", c->ilp_nodes, 1, 1e9, false},
        {"ilp_time_s", c->ilp_time_s, 0, 1e9, true},
        {"halo", c->halo, 0, 1e6, false}};
    int bad = check_ranges(file, "heur", heur, sizeof heur / sizeof *heur, d);
    bad |= check_ranges(file, "place", place, sizeof place / sizeof *place,
                        d);
    bad |= check_ranges(file, "cluster", cluster,
                        sizeof cluster / sizeof *cluster, d);
    return bad;
}

int cg_map_params_check(const cg_map_params *p, const char *file,
                        cg_diags *d)
{
    int bad = 0;
    bad |= check_anneal(file, &p->anneal, d);
    bad |= check_search(file, p, d);
    bad |= check_count(file, "partial_tries", p->partial_tries, d);
    const struct {
        const char *name;
        long v;
    } works[] = {{"nego_moves", p->nego_moves},
                 {"large_steps", p->large_steps},
                 {"large_moves", p->large_moves},
                 {"large_conflicts", p->large_conflicts},
                 {"large_rec_conflicts", p->large_rec_conflicts},
                 {"large_sat_literals", p->large_sat_literals},
                 {"retry_moves", p->retry_moves}};
    for (size_t i = 0; i < sizeof works / sizeof *works; i++)
        if (works[i].v < 0) {
            cg_diags_add(d, CG_SEV_ERROR, file, 0, "cg_map_params.%s is "
                         "%ld; it must be 0 or more", works[i].name,
                         works[i].v);
            bad = -1;
        }
    bad |= check_count(file, "large_above", p->large_above, d);
    bad |= check_count(file, "large_retries", p->large_retries, d);
    bad |= check_count(file, "retries", p->retries, d);
    bad |= check_share(file, "repair_node_share", p->repair_node_share, d);
    bad |= check_share(file, "repair_time_share", p->repair_time_share, d);
    bad |= check_share(file, "restricted_node_share",
                       p->restricted_node_share, d);
    bad |= check_count(file, "cluster_threshold", p->cluster_threshold, d);
    bad |= check_share(file, "cluster_step_share", p->cluster_step_share, d);
    bad |= check_count(file, "restricted_above", p->restricted_above, d);
    bad |= check_share(file, "sat_climb_share", p->sat_climb_share, d);
    if (p->max_ii < 0 || p->max_ii > CG_MAP_MAX_II ||
        p->min_ii < 0 || p->min_ii > CG_MAP_MAX_II) {
        cg_diags_add(d, CG_SEV_ERROR, file, 0, "cg_map_params.%s is %d; it "
                     "must be 0 to %d", p->max_ii < 0 || p->max_ii >
                     CG_MAP_MAX_II ? "max_ii" : "min_ii",
                     p->max_ii < 0 || p->max_ii > CG_MAP_MAX_II ? p->max_ii
                     : p->min_ii, CG_MAP_MAX_II);
        bad = -1;
    }
    const int *hs[] = {&p->sat_horizon, &p->sat_wide_horizon};
    for (int i = 0; i < 2; i++)
        if (*hs[i] < 0 || *hs[i] > CG_MAP_MAX_SAT_HORIZON) {
            cg_diags_add(d, CG_SEV_ERROR, file, 0, "cg_map_params.%s is %d; "
                         "it must be 0 to %d", i ? "sat_wide_horizon"
                                                 : "sat_horizon",
                         *hs[i], CG_MAP_MAX_SAT_HORIZON);
            bad = -1;
        }
    const range sat_shares[] = { /* 0 allowed: check_share's are not */
        {"sat_probe_share", p->sat_probe_share, 0, 1, false},
        {"sat_wide_share", p->sat_wide_share, 0, 1, false}};
    bad |= check_ranges(file, NULL, sat_shares, 2, d);
    if (p->sat_conflicts < 0 || p->sat_max_literals < 0) {
        cg_diags_add(d, CG_SEV_ERROR, file, 0, "cg_map_params.%s is %ld; it "
                     "must be 0 or more", p->sat_conflicts < 0 ?
                     "sat_conflicts" : "sat_max_literals",
                     p->sat_conflicts < 0 ? p->sat_conflicts :
                     p->sat_max_literals);
        bad = -1;
    }
    return bad ? -1 : 0;
}

/* share of a work limit, rounded up (0 = no limit stays 0): at least one
 * node for a share above 0. */
static int node_share(int nodes, double share)
{
    return nodes > 0 ? (int)ceil(nodes * share) : 0;
}

/* The LP file name of one attempt: "<dump_lp>-<ii>". */
static char *lp_name(const char *base, int ii)
{
    if (!base)
        return NULL;
    size_t n = strlen(base) + 16;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s-%d", base, ii);
    return s;
}

/* Restricted models around the annealed placement, radius 1 and 2, each
 * with restricted_node_share of the nodes (a quarter): the II reaches the
 * ILP only when the heuristic found nothing there, and then the full
 * model's proof is worth more than a longer search near one placement.
 * Stops at the first mapping.  0, or -1 on an error. */
static int try_restricted(const cg_netlist *nl, const cg_dfg *g,
                          const cg__kgraph *k, const int *center,
                          const cg_map_params *p, double deadline,
                          cg__ilp_out *out, cg_diags *d)
{
    int diam = cg_netlist_rows(nl) + cg_netlist_cols(nl) - 2;
    int nodes = node_share(p->ilp_nodes, p->restricted_node_share);
    for (int r = 1; r <= 2 && r < diam; r++) {
        double left = deadline - cg_clock_now();
        if (left <= 0)
            break;
        cg__ilp_opts o = {center,    r,     left,  NULL, false,
                          p->solver, nodes, p->lp_iters, NULL, NULL};
        if (cg__ilp_solve(k, nl, g, &o, out, d) < 0)
            return -1;
        if (out->outcome == CG_II_MAPPED)
            break;
    }
    return 0;
}

/* The repair of the heuristic's partial mapping (repair.c), with
 * repair_node_share of the nodes per round (a sixteenth) and at most
 * repair_time_share of the II's time (half): its
 * small models map or fail in a fraction of a second, and a hard one must
 * not take the time the exact models after it need (fir's largest round
 * took the whole 60 s cap with a quarter of the nodes). */
static int try_repair(const cg_netlist *nl, const cg_dfg *g,
                      const cg__kgraph *k, const cg_mapping *partial,
                      const cg_map_params *p, double deadline,
                      cg__ilp_out *out, cg_diags *d)
{
    double now = cg_clock_now();
    cg__repair_opts ro = {now + (deadline - now) * p->repair_time_share,
                          p->solver,
                          node_share(p->ilp_nodes, p->repair_node_share),
                          p->lp_iters};
    return cg__repair(k, nl, g, partial, &ro, out, d);
}

static int dump_only(const cg_netlist *nl, const cg_dfg *g, const cg_mrrg *m,
                     const char *base, cg_diags *d);

/* Does g get the large DFGs' budgets (large_above)? */
static bool is_large(const cg_map_params *p, const cg_dfg *g)
{
    return cg_dfg_nnodes(g) > p->large_above;
}

/* One SAT run's outcome into the II's: the mapping and answer are the
 * last run's, the conflicts add up, the slack refuted is the largest. */
static void sat_merge(cg__sat_out *sout, cg__ilp_out *out)
{
    cg_mapping_destroy(out->mapping);
    out->mapping = sout->mapping;
    out->outcome = sout->outcome;
    out->capped = sout->capped;
    out->conflicts += sout->conflicts;
    out->too_big = sout->too_big;
    if (sout->refuted > out->refuted)
        out->refuted = sout->refuted;
    if (sout->outcome != CG_II_TIMEOUT) {
        out->by = CG_BY_SAT;
        out->horizon = sout->horizon;
    }
}

/* The II search's SAT options: p's horizon, windows and shares, with
 * conflicts and what is left before deadline. */
static cg__sat_opts sat_opts(const cg_map_params *p, long conflicts,
                             double deadline)
{
    double left = deadline - cg_clock_now();
    cg__sat_opts so = {p->sat_horizon,      conflicts,
                       left > 0 ? left : 0.001, p->sat_max_literals,
                       NULL,                p->sat_wide_horizon,
                       p->sat_wide_share,   p->sat_probe_share,
                       false,               0,
                       0, false};
    return so;
}

/* The SAT mapper at m's II within what is left before deadline (its
 * conflicts are the work limit: above large_above, large_conflicts
 * unless the model has at most large_sat_literals routing literals); its
 * outcome into *out.  With keep non-NULL, a model its work limit stopped
 * is handed over there (cg__sat_solve).  0, or -1 on an error. */
static int try_sat(const cg_netlist *nl, const cg_dfg *g, const cg_mrrg *m,
                   const cg_map_params *p, long conflicts, bool climb,
                   double deadline, cg__ilp_out *out, cg__sat **keep,
                   cg_diags *d)
{
    progress(p, cg_mrrg_ii(m), CG_STAGE_SAT);
    char *cnf = lp_name(p->dump_cnf, cg_mrrg_ii(m));
    if (p->dump_cnf && !cnf) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "out of memory naming the "
                     "CNF file at II=%d", cg_mrrg_ii(m));
        return -1;
    }
    cg__sat_opts so = sat_opts(p, conflicts, deadline);
    so.dump_cnf = cnf;
    if (climb) /* the climb's share is small: no second model there */
        so.wide_horizon = 0;
    if (is_large(p, g)) { /* large_conflicts, unless the model is small */
        so.big = true;
        so.big_literals = p->large_sat_literals;
        so.big_conflicts = !climb || p->large_conflicts <= 0
                           ? p->large_conflicts
                           : (long)ceil(p->large_conflicts *
                                        p->sat_climb_share);
    }
    cg__sat_out sout;
    int rc = cg__sat_solve(m, nl, g, &so, &sout, keep, d);
    free(cnf);
    if (rc < 0)
        return -1;
    sat_merge(&sout, out);
    return 0;
}

/* Go on with the climb's SAT model S at its II (heur_at kept it after
 * spending spent conflicts) with the rest of sat_conflicts, before
 * deadline: building the II's models again would spend the climb's
 * conflicts a second time.  Its outcome into *out; 0, or -1 on an
 * error. */
static int sat_continue(cg__sat *S, const cg_map_params *p, int ii,
                        long spent, double deadline, cg__ilp_out *out,
                        cg_diags *d)
{
    if (p->sat_conflicts > 0 && spent >= p->sat_conflicts)
        return 0; /* the climb spent them all: undecided */
    progress(p, ii, CG_STAGE_SAT);
    cg__sat_opts so = sat_opts(p, p->sat_conflicts > 0
                                      ? p->sat_conflicts - spent : 0,
                               deadline);
    if (p->dump_cnf) /* the climb wrote the II's CNF; as try_sat, no */
        so.wide = 0; /* wider window when dumping */
    cg__sat_out sout;
    if (cg__sat_continue(S, &so, &sout, d) < 0)
        return -1;
    sat_merge(&sout, out);
    return 0;
}

/* The ILP's attempts at one II (R, 0-3 above).  0 with *out filled, -1
 * on error. */
static int try_ilp(const cg_netlist *nl, const cg_dfg *g,
                   const cg_map_params *p, const cg__kgraph *k, int ii,
                   const cg_mapping *partial, double deadline,
                   cg__ilp_out *out, cg_diags *d)
{
    progress(p, ii, CG_STAGE_ILP);
    int n = cg_dfg_nnodes(g);
    int *center = malloc(sizeof(int) * ((size_t)n + 1));
    char *lp = lp_name(p->dump_lp, ii);
    if (!center || (p->dump_lp && !lp)) {
        free(center);
        free(lp);
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "out of memory mapping '%s' "
                     "at II=%d", cg_dfg_name(g), ii);
        return -1;
    }
    bool have = cg__place_anneal(nl, g, ii, p->seed + (unsigned)ii,
                                 &p->place, center) == 0;
    int rc = 0;
    out->outcome = CG_II_TIMEOUT;
    /* The repair first: its models are small, and the relaxation of a
     * large full model can take the whole cap at a high II. */
    if (partial)
        rc = try_repair(nl, g, k, partial, p, deadline, out, d);
    if (rc == 0 && out->outcome == CG_II_MAPPED)
        out->by = CG_BY_ILP;
    bool proven = false;
    if (rc == 0 && out->outcome != CG_II_MAPPED) {
        /* The full model's LP relaxation: when it is infeasible the II
         * is proven impossible at once (measured under 0.5 s on the 4x4
         * at low IIs). */
        double left = deadline - cg_clock_now();
        cg__ilp_opts lo = {NULL, 0, left > 0 ? left : 0, NULL, true,
                           CG_SOLVER_GLPK, 0, p->lp_iters, NULL, NULL};
        rc = cg__ilp_solve(k, nl, g, &lo, out, d);
        proven = rc == 0 && out->outcome == CG_II_INFEASIBLE;
        if (proven)
            out->by = CG_BY_LP;
    }
    /* Small DFGs go straight to the full model. */
    if (rc == 0 && !proven && have && n > p->restricted_above &&
        out->outcome != CG_II_MAPPED)
        rc = try_restricted(nl, g, k, center, p, deadline, out, d);
    if (rc == 0 && out->outcome == CG_II_MAPPED)
        out->by = CG_BY_ILP;
    if (proven && !lp) {
        /* decided; the full model is solved only to write it */
    } else if (rc == 0 && out->outcome != CG_II_MAPPED) {
        double left = deadline - cg_clock_now();
        cg__ilp_opts o = {NULL,      0,           left > 0 ? left : 0,
                          lp,        false,       p->solver,
                          p->ilp_nodes, p->lp_iters, NULL, NULL};
        rc = cg__ilp_solve(k, nl, g, &o, out, d);
        if (rc == 0 && out->outcome != CG_II_TIMEOUT)
            out->by = CG_BY_ILP;
    } else if (rc == 0 && lp) {
        /* Mapped by a restricted model: still write the full one. */
        cg__ilp_out tmp;
        cg__ilp_opts o = {NULL, 0, 0,    lp,   false,
                          CG_SOLVER_GLPK, 0, 0, NULL, NULL};
        rc = cg__ilp_solve(k, nl, g, &o, &tmp, d);
        cg_mapping_destroy(tmp.mapping);
    }
    free(lp);
    free(center);
    return rc;
}

/* What the climb's SAT at an II leaves to the search below there. */
typedef struct climb_sat {
    bool too_big;  /* its model was too large: no SAT, the ILP instead */
    bool done;     /* it ran with the whole budget (sat_whole): not again */
    cg__sat *live; /* its model, which its work limit stopped, to go on
                      with (the II's map_at owns it), or NULL */
    cg_mrrg *m;    /* live's MRRG (map_at owns it) */
    long spent;    /* the conflicts the climb's SAT spent there */
} climb_sat;

/* One II: the SAT mapper (auto and sat searches; not when the climb's
 * SAT there, cs, says so), then, where it is undecided, the ILP's
 * attempts (auto and ilp).  The II's wall-clock cap covers both.
 * 0 with *out filled, -1 on error. */
static int try_ii(const cg_netlist *nl, const cg_dfg *g,
                  const cg_map_params *p, const cg__kgraph *k, int ii,
                  const cg_mapping *partial, climb_sat cs, cg__ilp_out *out,
                  cg_diags *d)
{
    double deadline = cg_clock_now() + p->timeout_s;
    memset(out, 0, sizeof *out); /* map_at frees out->mapping on -1 too */
    out->outcome = CG_II_TIMEOUT;
    out->refuted = -1;
    out->too_big = cs.too_big;
    int rc = 0;
    bool sat = p->search != CG_SEARCH_ILP && !cs.too_big && !cs.done;
    if (sat && cs.live)
        rc = sat_continue(cs.live, p, ii, cs.spent, deadline, out, d);
    else if (sat)
        rc = try_sat(nl, g, k->m, p, p->sat_conflicts, false, deadline, out,
                     NULL, d);
    if (rc < 0 || p->search == CG_SEARCH_SAT)
        return rc;
    if (out->outcome != CG_II_TIMEOUT)
        return p->dump_lp ? dump_only(nl, g, k->m, p->dump_lp, d) : 0;
    /* In auto, the ILP runs only where the SAT model was too large to
     * build: where SAT ran to its limit the ILP settled none of the IIs
     * measured (docs/mapper.md, "The SAT mapper"), and it would only
     * spend the wall clock. */
    if (p->search == CG_SEARCH_AUTO && !out->too_big)
        return p->dump_lp ? dump_only(nl, g, k->m, p->dump_lp, d) : 0;
    long conflicts = out->conflicts;
    int refuted = out->refuted;
    bool big = out->too_big;
    rc = try_ilp(nl, g, p, k, ii, partial, deadline, out, d);
    out->conflicts = conflicts;
    out->refuted = refuted;
    out->too_big = big;
    return rc;
}

/* The ROUTE nodes map uses; -1 on no memory. */
static int used_routes(const cg_mrrg *m, const cg_mapping *map)
{
    int n = cg_mrrg_nnodes(m), count = 0;
    bool *seen = calloc((size_t)n + 1, sizeof *seen);
    if (!seen)
        return -1;
    for (int e = 0; e < map->nedges; e++)
        for (int i = 0; i < map->route_len[e]; i++)
            if (!seen[map->route[e][i]]) {
                seen[map->route[e][i]] = true;
                count++;
            }
    free(seen);
    return count;
}

/* Record a mapping after the checker accepted it; -1 when it did not. */
static int accept(const cg_netlist *nl, const cg_dfg *g, cg_mrrg *m,
                  cg_mapping *map, cg_map_result *res, cg_diags *d)
{
    cg_diags *cd = cg_diags_create();
    int routes = used_routes(m, map);
    if (!cd || routes < 0) {
        cg_diags_destroy(cd);
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0, "out of memory "
                     "checking the mapping of '%s' at II=%d", cg_dfg_name(g),
                     map->ii);
        return -1;
    }
    if (cg_map_check(nl, m, g, map, cd) < 0) {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "internal error: the mapping of '%s' at II=%d fails "
                     "the checker (a mapper bug, please report it):",
                     cg_dfg_name(g), map->ii);
        if (cd)
            cg_diags_append(d, cd);
        cg_diags_destroy(cd);
        return -1;
    }
    cg_diags_destroy(cd);
    res->mapping = map;
    res->mrrg = m;
    res->fus_used = cg_dfg_nnodes(g);
    res->routes_used = routes;
    return 0;
}

/* One II's outcome; what decided it is out's, else by. */
static void record(cg_map_result *res, int ii, cg_ii_outcome o, double s,
                   const cg__ilp_out *out, bool capped, cg_map_prover by)
{
    res->capped |= capped;
    if (res->ntried >= CG_MAP_MAX_II)
        return; /* cannot happen: one entry per II, check_range */
    int t = res->ntried++;
    res->tried[t].capped = capped;
    res->tried[t].ii = ii;
    res->tried[t].outcome = o;
    res->tried[t].seconds = s;
    res->tried[t].rows = out ? out->rows : 0;
    res->tried[t].cols = out ? out->cols : 0;
    res->tried[t].nonzeros = out ? out->nonzeros : 0;
    res->tried[t].by = out ? out->by : by;
    res->tried[t].horizon = out ? out->horizon : -1;
    res->tried[t].refuted = out && o != CG_II_INFEASIBLE &&
                                    o != CG_II_MAPPED ? out->refuted : -1;
    res->tried[t].conflicts = out ? out->conflicts : 0;
    res->tried[t].reg_need = -1;
    res->tried[t].reg_have = 0;
}

/* The register bound's figures at each II the search left undecided, so a
 * row can say how close the array's registers are to the least the loop's
 * waits take there.  -1 on an error (in d). */
static int undecided_margins(const cg_netlist *nl, const cg_dfg *g,
                             cg_map_result *res, cg_diags *d)
{
    for (int t = 0; t < res->ntried; t++) {
        cg_map_try *x = &res->tried[t];
        if (x->outcome != CG_II_TIMEOUT)
            continue;
        cg_mrrg *m = cg_mrrg_build(nl, x->ii, d);
        if (!m)
            return -1; /* its error in d */
        double need;
        int rc = cg__bound_need(nl, m, g, &need, &x->reg_have, d);
        cg_mrrg_destroy(m);
        if (rc < 0)
            return -1; /* its error in d */
        /* a need above the array's is the bound's proof, which the wall
           clock kept from running there: no figures, not a margin */
        x->reg_need = need >= 0 && need <= x->reg_have + 1e-6
                          ? (int)ceil(need - 1e-6)
                          : -1;
    }
    return 0;
}

/* Map at one II (on the MRRG of the climb's kept SAT model, if any: cs
 * is map_at's to free); 1 when mapped (res owns the MRRG), 0 otherwise,
 * -1 on an error. */
static int map_at(const cg_netlist *nl, const cg_dfg *g,
                  const cg_map_params *p, int ii, const cg_mapping *partial,
                  climb_sat cs, cg_map_result *res, cg_diags *d)
{
    double t0 = cg_clock_now();
    cg_mrrg *m = cs.m ? cs.m : cg_mrrg_build(nl, ii, d);
    cg__kgraph *k = m ? cg__kgraph_build(m, nl) : NULL;
    if (!k) {
        if (m)
            cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                         "out of memory compressing the MRRG at II=%d", ii);
        cg__sat_destroy(cs.live);
        cg_mrrg_destroy(m);
        return -1;
    }
    cg__ilp_out out;
    int rc = try_ii(nl, g, p, k, ii, partial, cs, &out, d);
    cg__sat_destroy(cs.live);
    cg__kgraph_destroy(k);
    if (rc == 0)
        record(res, ii, out.outcome, cg_clock_now() - t0, &out,
               out.outcome == CG_II_TIMEOUT && out.capped, CG_BY_NONE);
    if (rc == 0 && out.mapping) {
        if (accept(nl, g, m, out.mapping, res, d) == 0)
            return 1;
        rc = -1;
    }
    cg_mapping_destroy(out.mapping);
    cg_mrrg_destroy(m);
    return rc;
}

/* Write the full model of m's II (--dump-lp) without solving it: the
 * promise is a model per II tried, whoever mapped it.  0, or -1 on an
 * error. */
static int dump_only(const cg_netlist *nl, const cg_dfg *g, const cg_mrrg *m,
                     const char *base, cg_diags *d)
{
    cg__kgraph *k = cg__kgraph_build(m, nl);
    char *lp = lp_name(base, cg_mrrg_ii(m));
    int rc = -1;
    if (k && lp) {
        cg__ilp_out tmp;
        cg__ilp_opts o = {NULL, 0, 0,    lp,   false,
                          CG_SOLVER_GLPK, 0, 0, NULL, NULL};
        rc = cg__ilp_solve(k, nl, g, &o, &tmp, d);
        if (rc == 0)
            cg_mapping_destroy(tmp.mapping);
    } else {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                     "out of memory writing the LP model at II=%d",
                     cg_mrrg_ii(m));
    }
    free(lp);
    cg__kgraph_destroy(k);
    return rc;
}

/* The precedences the heuristic must keep besides the DFG's edges: the
 * memory order the checker enforces (cg_map_mem_orders).  Their number, -1
 * on no memory. */
static int heur_orders(const cg_dfg *g, cg__heur_order **out)
{
    cg_mem_order *mo = NULL;
    int n = cg_map_mem_orders(g, &mo);
    *out = NULL;
    if (n <= 0)
        return n;
    *out = malloc((size_t)n * sizeof **out);
    if (!*out) {
        free(mo);
        return -1;
    }
    for (int i = 0; i < n; i++)
        (*out)[i] = (cg__heur_order){mo[i].first, mo[i].then,
                                     mo[i].distance, mo[i].latency};
    free(mo);
    return n;
}

/* Seconds left of a cap of cap seconds that started at t0. */
static double left_of(double t0, double cap)
{
    return cap - (cg_clock_now() - t0);
}

/* o->timeout_s: what is left of the II's cap; false, with o->timed_out
 * set, when nothing is.  The regions' pass and the whole array's share
 * the cap, so that the II ends within it. */
static bool cap_left(cg__heur_opts *o, double t0, double cap)
{
    o->timeout_s = left_of(t0, cap);
    if (o->timeout_s > 0)
        return true;
    o->timed_out = true;
    return false;
}

/* The heuristic on m with o's steps: above the clustering threshold
 * (p->cluster_threshold nodes) first with each op kept within one cell of
 * its cluster's region (cluster.c), with p->cluster_step_share of the
 * steps, then on the whole array with the rest, both within o->timeout_s
 * from the start.  cg__heur_map's result; o->steps and o->timed_out cover
 * both. */
static int heur_run(const cg_netlist *nl, const cg_mrrg *m, const cg_dfg *g,
                    const cg_map_params *p, cg__heur_opts *o,
                    cg_mapping **map, cg_diags *d)
{
    cg__cluster_params cp;
    cg__cluster_params_from(p, &cp);
    cp.seed = o->seed;
    if (cg_dfg_nnodes(g) <= cp.threshold)
        return cg__heur_map(nl, m, g, o, map, d);
    double t0 = cg_clock_now(), cap = o->timeout_s;
    cg__cluster_out co;
    cg__prim_sets sets = {0};
    memset(&co, 0, sizeof co);
    int rc = cg__cluster_place(nl, g, cg_mrrg_ii(m), &cp, &co, d);
    if (rc == 0 && co.status == CG__CLUSTER_PLACED && co.tile_rows *
        co.tile_cols > 1)
        rc = cg__cluster_allowed(nl, g, &co, p->cluster.halo, &sets, d);
    cg__cluster_out_free(&co);
    if (rc < 0)
        return -1;
    long all = o->max_steps;
    long used = 0;
    bool whole; /* the whole array's pass runs */
    if (sets.off) {
        o->allowed = &sets;
        o->max_steps = all > 0 ? (long)ceil(all * p->cluster_step_share)
                               : 0;
        rc = cap_left(o, t0, cap) ? cg__heur_map(nl, m, g, o, map, d) : 0;
        o->allowed = NULL;
        used = o->steps;
        cg__prim_sets_free(&sets);
        /* no steps left (max_steps 0 would mean no limit) or no time: the
           regions' partial mapping stands */
        whole = rc == 0 && !o->timed_out && !(all > 0 && used >= all) &&
                cap_left(o, t0, cap);
        if (whole) {
            cg_mapping_destroy(o->partial); /* the whole array's is wanted */
            o->partial = NULL;
            o->max_steps = all > 0 ? all - used : 0;
        }
    } else {
        whole = cap_left(o, t0, cap);
    }
    if (whole) {
        rc = cg__heur_map(nl, m, g, o, map, d);
        o->steps += used;
    }
    o->max_steps = all;
    o->timeout_s = cap;
    return rc;
}

/* The parity bound's relations as the annealer's tables (cg__nego_opts),
 * both NULL where the analysis ties no op, or its table would pass
 * PARITY_TABLE_MAX bytes.  0, or -1 on no memory. */
#define PARITY_TABLE_MAX (64 << 20)
static int parity_tables(const cg_netlist *nl, const cg_mrrg *m,
                         const cg_dfg *g, int **cls, unsigned char **off)
{
    *cls = NULL;
    *off = NULL;
    int n = cg_dfg_nnodes(g), np = cg_netlist_nprims(nl), rc;
    size_t size = (size_t)n * (size_t)np * (size_t)cg_mrrg_ii(m);
    if (size > PARITY_TABLE_MAX)
        return 0;
    cg__parity *P = cg__parity_create(nl, m, g, &rc);
    if (!P)
        return rc;
    int *c = malloc(sizeof(int) * ((size_t)n + 1));
    unsigned char *o = calloc(size + 1, 1);
    bool any = false;
    if (c && o) {
        cg__parity_table(P, np, c, o);
        for (int v = 0; v < n; v++)
            any |= c[v] >= 0;
    }
    cg__parity_destroy(P);
    if (any) {
        *cls = c;
        *off = o;
        return 0;
    }
    rc = c && o ? 0 : -1; /* no class, or no memory */
    free(c);
    free(o);
    return rc;
}

/* The negotiated annealer (nego.c) after the heuristic failed, from its
 * partial mapping, within what is left of the II's wall-clock cap (the
 * II started at t0); cg__nego_map's result, o->timed_out set when the
 * wall clock ended it (or left it no time). */
static int nego_run(const cg_netlist *nl, const cg_mrrg *m, const cg_dfg *g,
                    const cg_map_params *p, double t0, cg__heur_opts *o,
                    cg_mapping **map, cg_diags *d)
{
    double left = left_of(t0, p->timeout_s);
    if (left <= 0) {
        o->timed_out = true;
        return 0;
    }
    cg__nego_opts no = {0};
    no.seed = o->seed;
    no.max_moves = p->nego_moves;
    no.w = &p->anneal;
    no.timeout_s = left;
    no.orders = o->orders;
    no.norders = o->norders;
    no.from = o->partial;
    int *cls = NULL;
    unsigned char *off = NULL;
    if (parity_tables(nl, m, g, &cls, &off) < 0) {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "out of memory mapping '%s' at II=%d", cg_dfg_name(g),
                     cg_mrrg_ii(m));
        return -1;
    }
    no.par_class = cls;
    no.par_off = off;
    int rc = cg__nego_map(nl, m, g, &no, map, d);
    o->timed_out = no.timed_out;
    free(cls);
    free(off);
    return rc;
}

/* In the auto search, SAT at the II where the heuristic failed, before
 * the annealer, with sat_climb_share of its conflicts and what is left
 * of the II's cap (it started at t0): SAT maps most small loops in a
 * second where the annealer would search for tens.  With whole, the
 * budget and models of the search below the climb instead (try_ii), which
 * then does not run SAT there again.  Its outcome into *sat (the mapping
 * stays in *map); 0, or -1 on an error. */
static int sat_at(const cg_netlist *nl, const cg_dfg *g, cg_mrrg *m,
                  const cg_map_params *p, bool whole, double t0,
                  cg__ilp_out *sat, cg_mapping **map, cg__sat **keep,
                  cg_diags *d)
{
    memset(sat, 0, sizeof *sat);
    sat->outcome = CG_II_TIMEOUT;
    sat->refuted = -1;
    long conflicts = whole || p->sat_conflicts <= 0 ? p->sat_conflicts
                     : (long)ceil(p->sat_conflicts * p->sat_climb_share);
    if (try_sat(nl, g, m, p, conflicts, !whole, t0 + p->timeout_s, sat,
                keep, d) < 0)
        return -1;
    *map = sat->mapping;
    sat->mapping = NULL;
    if (sat->outcome != CG_II_TIMEOUT && p->dump_lp &&
        dump_only(nl, g, m, p->dump_lp, d) < 0) {
        cg_mapping_destroy(*map);
        *map = NULL;
        return -1;
    }
    return 0;
}

/* heur_at's code for SAT's outcome at an II (after sat_at's rc): 1
 * mapped, 3 refuted, 0 undecided, -1 on an error. */
static int sat_rc(int rc, const cg__ilp_out *sat)
{
    return rc < 0 ? -1
           : sat->outcome == CG_II_MAPPED ? 1
           : sat->outcome == CG_II_INFEASIBLE ? 3 : 0;
}

/* How the climb runs SAT at one II in the auto search (heur_at). */
typedef enum climb_mode {
    CLIMB_SHARE, /* sat_climb_share of its conflicts, before the annealer */
    CLIMB_WHOLE, /* its whole budget and the search below's models there
                    (sat_at), before the annealer */
    CLIMB_FIRST, /* the same before the heuristic, with large_rec_conflicts
                    for a large model */
    CLIMB_KEEP   /* the share before the annealer; where neither decided,
                    its model is kept for the search below (a small DFG:
                    no big rule, try_sat) */
} climb_mode;

/* The heuristic at one II, then in the auto search SAT (into *sat, when
 * *sat_ran; as mode says), and where neither decided the annealer; 1 when
 * one mapped and the mapping is checked (res owns the MRRG and mapping;
 * sat->outcome says whether SAT mapped it), 2 when the register bound
 * (bound.c) proves the II impossible, 4 when the parity bound (parity.c)
 * does, 3 when SAT refutes it, 0 when
 * nothing decided it (*partial then the heuristic's best partial mapping,
 * or NULL; with CLIMB_KEEP, cs->live the SAT model its work limit
 * stopped, on cs->m, both the caller's), -1 on an error.  *capped when
 * the wall clock, not the steps or moves, ended the heuristic's search
 * or SAT's. */
static int heur_at(const cg_netlist *nl, const cg_dfg *g,
                   const cg_map_params *p, int ii, cg_map_result *res,
                   climb_mode mode, bool *capped, cg_mapping **partial,
                   cg__ilp_out *sat, bool *sat_ran, climb_sat *cs,
                   cg_diags *d)
{
    *partial = NULL;
    *sat_ran = false;
    cg__sat *kept = NULL;
    bool sat_whole = mode == CLIMB_WHOLE || mode == CLIMB_FIRST;
    double t0 = cg_clock_now();
    progress(p, ii, CG_STAGE_BOUND);
    cg_mrrg *m = cg_mrrg_build(nl, ii, d);
    if (!m)
        return -1;
    int rc = cg__bound_registers(nl, m, g, d), by = 2;
    if (rc == 0) {
        rc = cg__bound_parity(nl, m, g);
        by = 4;
        if (rc < 0)
            cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                         "out of memory bounding '%s' at II=%d",
                         cg_dfg_name(g), ii);
    }
    if (rc != 0) { /* an error is in d */
        cg_mrrg_destroy(m);
        return rc < 0 ? -1 : by;
    }
    cg__heur_order *orders = NULL;
    int norders = heur_orders(g, &orders);
    cg__heur_opts o = {p->timeout_s, p->seed + (unsigned)ii, orders,
                       norders > 0 ? norders : 0,       0,
                       0,           p->heur_steps,      0,
                       false,       NULL,               p->partial_tries,
                       NULL,        0,                  &p->heur};
    cg_mapping *map = NULL;
    rc = norders < 0 ? -1 : 0;
    if (rc == 0 && mode == CLIMB_FIRST && p->search == CG_SEARCH_AUTO) {
        cg_map_params q = *p;
        q.large_conflicts = p->large_rec_conflicts;
        *sat_ran = true;
        rc = sat_rc(sat_at(nl, g, m, &q, true, t0, sat, &map, NULL, d),
                    sat);
        o.timed_out = rc == 0 && sat->capped;
    }
    if (rc == 0 && !o.timed_out && *sat_ran) {
        o.timeout_s = left_of(t0, p->timeout_s); /* what SAT left */
        o.timed_out = o.timeout_s <= 0;
    }
    if (rc == 0 && !o.timed_out) {
        progress(p, ii, CG_STAGE_HEURISTIC);
        rc = heur_run(nl, m, g, p, &o, &map, d);
    }
    if (rc == 0 && !o.timed_out && p->search == CG_SEARCH_AUTO &&
        !*sat_ran && (sat_whole || p->sat_climb_share > 0)) {
        *sat_ran = true;
        rc = sat_rc(sat_at(nl, g, m, p, sat_whole, t0, sat, &map,
                           mode == CLIMB_KEEP ? &kept : NULL, d), sat);
        o.timed_out = rc == 0 && sat->capped; /* the II's cap is spent */
    }
    if (rc == 0 && !o.timed_out && p->nego_moves > 0) {
        progress(p, ii, CG_STAGE_ANNEALER);
        rc = nego_run(nl, m, g, p, t0, &o, &map, d);
    }
    *capped = o.timed_out;
    if (rc == 0)
        *partial = o.partial;
    else
        cg_mapping_destroy(o.partial);
    free(orders);
    if (norders < 0)
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                     "out of memory ordering '%s' at II=%d", cg_dfg_name(g),
                     ii);
    if (rc == 1 && !(*sat_ran && sat->outcome == CG_II_MAPPED) &&
        p->dump_lp && dump_only(nl, g, m, p->dump_lp, d) < 0) {
        cg_mapping_destroy(map);
        rc = -1;
    }
    if (rc == 0 && kept) {
        cs->live = kept;
        cs->m = m; /* the model's MRRG */
        return 0;
    }
    cg__sat_destroy(kept);
    if (rc == 1) {
        if (accept(nl, g, m, map, res, d) == 0)
            return 1;
        cg_mapping_destroy(map);
        rc = -1;
    }
    cg_mrrg_destroy(m);
    return rc;
}

/* What the heuristic pass learnt per II (index ii - MII). */
typedef struct sweep {
    int lo;          /* the first II tried: the MII, or min_ii above it */
    int mapped_ii;   /* first II it mapped, 0 when none */
    double secs;     /* time spent at that II */
    cg_map_prover *proven; /* per II: what proved it impossible (a bound
                        or SAT), CG_BY_NONE when nothing did */
    double *psecs;   /* per II: the heuristic's (or bound's) seconds */
    bool *capped;    /* per II: the wall clock ended the heuristic there
                        (or SAT, when it ran first) */
    cg_mapping **partial; /* per II: its best partial mapping, or NULL */
    double loop_end; /* the loop's wall-clock cap (time_limit_s), 0 = none */
    bool *loop_binds; /* per II: what the loop had left was its cap, below
                        the II's timeout_s (or nothing was left) */
    bool *sat_ran;   /* per II: SAT ran there (after the heuristic, or
                        first for a recurrence-bound DFG) */
    cg__ilp_out *sat; /* per II: its outcome (no mapping) */
    bool least_sat;  /* SAT with its whole budget at the climb's first II
                        the bounds leave (a large DFG in auto) */
    bool *sat_whole; /* per II: SAT ran there so: the search below does
                        not run it again */
    climb_sat kept;  /* the climb's SAT model at its MRRG's II
                        (CLIMB_KEEP), for the search below to go on with
                        (live NULL: none) */
    int mii;         /* the index base of the arrays */
} sweep;

/* The parameters of one II: its wall-clock cap is the smaller of the
 * per-II one and what the loop has left.  false when nothing is left. */
static bool per_ii(const cg_map_params *p, const sweep *sw, int ii,
                   cg_map_params *q)
{
    *q = *p;
    if (sw->loop_end > 0 && sw->loop_end - cg_clock_now() < q->timeout_s) {
        q->timeout_s = sw->loop_end - cg_clock_now();
        sw->loop_binds[ii - sw->mii] = true;
    }
    return q->timeout_s > 0;
}

/* The heuristic from the MII up, each II first bounded (bound.c): 0 with
 * sw filled, -1 on an error. */
static int heur_search(const cg_netlist *nl, const cg_dfg *g,
                       const cg_map_params *p, cg_map_result *res,
                       sweep *sw, cg_diags *d)
{
    bool least = true; /* the bound proved every II below ii impossible */
    /* a recurrence-bound DFG: SAT first (large_rec_conflicts) */
    bool first = res->mii.rec_mii > res->mii.res_mii;
    bool large = is_large(p, g);
    for (int ii = sw->lo; ii <= p->max_ii; ii++) {
        double t0 = cg_clock_now();
        cg_map_params q;
        if (!per_ii(p, sw, ii, &q)) { /* the loop's time is up */
            res->capped = true;
            for (int i = ii; i <= p->max_ii; i++)
                sw->capped[i - res->mii.mii] =
                    sw->loop_binds[i - res->mii.mii] = true;
            return 0;
        }
        int i = ii - res->mii.mii;
        bool whole = sw->least_sat && least;
        /* at the first II the bound leaves: a large DFG's SAT with its
           whole budget there (least_sat); a small one's share kept for
           the search below */
        climb_mode mode = whole ? (first ? CLIMB_FIRST : CLIMB_WHOLE)
                          : least && !large && p->search == CG_SEARCH_AUTO
                              ? CLIMB_KEEP
                              : CLIMB_SHARE;
        climb_sat cs = {0};
        int rc = heur_at(nl, g, &q, ii, res, mode, &sw->capped[i],
                         &sw->partial[i], &sw->sat[i], &sw->sat_ran[i], &cs,
                         d);
        sw->sat_whole[i] = whole && sw->sat_ran[i];
        if (cs.live)
            sw->kept = cs;
        double secs = cg_clock_now() - t0;
        if (rc < 0)
            return -1;
        least &= rc == 2 || rc == 4;
        sw->psecs[i] = secs;
        if (rc >= 2) {
            sw->proven[i] = rc == 3   ? CG_BY_SAT
                            : rc == 4 ? CG_BY_PARITY
                                      : CG_BY_BOUND;
        } else if (rc == 1) {
            sw->mapped_ii = ii;
            sw->secs = secs;
            return 0;
        }
    }
    return 0;
}

/* The II below the climb's that needs no search there: one the climb's
 * bound or SAT proved impossible (recorded so; its model still written
 * for dump_lp), or one the loop's time leaves nothing for (recorded open,
 * with what the climb spent there).  true when ii is recorded (*rc -1 on
 * an error), else false with *q its parameters. */
static bool skip_ii(const cg_netlist *nl, const cg_dfg *g,
                    const cg_map_params *p, const sweep *sw, int ii,
                    cg_map_params *q, cg_map_result *res, bool *timed_out,
                    int *rc, cg_diags *d)
{
    int i = ii - res->mii.mii;
    const cg__ilp_out *sat = sw->sat_ran[i] ? &sw->sat[i] : NULL;
    if (sw->proven[i]) {
        record(res, ii, CG_II_INFEASIBLE, sw->psecs[i], sat, false,
               sw->proven[i]);
        if (p->dump_lp) { /* the model is still promised */
            cg_mrrg *m = cg_mrrg_build(nl, ii, d);
            *rc = m ? dump_only(nl, g, m, p->dump_lp, d) : -1;
            cg_mrrg_destroy(m);
        }
        return true;
    }
    /* the per-II cap ended the climb here before the loop's did */
    bool own_cap = sw->capped[i] && !sw->loop_binds[i];
    if (per_ii(p, sw, ii, q))
        return false;
    sw->loop_binds[i] &= !own_cap; /* the loop's time is up: left open */
    record(res, ii, CG_II_TIMEOUT, sw->psecs[i], sat, true, CG_BY_NONE);
    *timed_out = true;
    return true;
}

/* What the climb did at ii, added to the try recorded at index t by the
 * search below it: its seconds, its SAT conflicts and refuted slack, and
 * its wall-clock cap (a heuristic the clock stopped leaves the II open to
 * a faster machine, whatever was found after it; so does a SAT run the
 * search below did not repeat, sat_whole). */
static void add_climb(const sweep *sw, int ii, cg_map_result *res, int t)
{
    int i = ii - res->mii.mii;
    const cg__ilp_out *sat = sw->sat_ran[i] ? &sw->sat[i] : NULL;
    res->tried[t].seconds += sw->psecs[i];
    if (sat)
        res->tried[t].conflicts += sat->conflicts;
    if (sat && res->tried[t].outcome == CG_II_TIMEOUT &&
        sat->refuted > res->tried[t].refuted)
        res->tried[t].refuted = sat->refuted;
    bool capped = sw->capped[i] || (sw->sat_whole[i] && sat->capped);
    res->tried[t].capped |= capped;
    res->capped |= capped;
}

/* What the climb's SAT at ii leaves to the search below there: with its
 * kept model, if any, which the caller then owns. */
static climb_sat climb_of(sweep *sw, int ii)
{
    int i = ii - sw->mii;
    climb_sat cs = {0};
    if (sw->kept.live && cg_mrrg_ii(sw->kept.m) == ii) {
        cs = sw->kept;
        sw->kept.live = NULL;
        sw->kept.m = NULL;
    }
    cs.too_big = sw->sat_ran[i] && sw->sat[i].too_big;
    cs.done = sw->sat_whole[i];
    cs.spent = sw->sat[i].conflicts;
    return cs;
}

/* The heuristic and the annealer again at ii with n fresh seeds (seed +
 * k x 1,000,003), the annealer with moves moves, within q's cap from t0;
 * 1 when one mapped (res holds it), 0 when none did (*capped when the
 * clock ended one), -1 on an error. */
static int retry_at(const cg_netlist *nl, const cg_dfg *g,
                    const cg_map_params *q, int ii, int n, long moves,
                    double t0, cg_map_result *res, bool *capped,
                    cg_diags *d)
{
    for (int k = 1; k <= n; k++) {
        cg_map_params r = *q;
        r.timeout_s = left_of(t0, q->timeout_s);
        if (r.timeout_s <= 0) {
            *capped = true;
            return 0;
        }
        r.seed = q->seed + (unsigned)k * 1000003u;
        r.nego_moves = moves;
        r.sat_climb_share = 0; /* SAT ran at ii just before */
        cg_mapping *partial = NULL;
        cg__ilp_out sat;
        bool sat_ran = false, cap = false;
        int rc = heur_at(nl, g, &r, ii, res, CLIMB_SHARE, &cap, &partial,
                         &sat, &sat_ran, NULL, d);
        cg_mapping_destroy(partial);
        *capped |= cap;
        if (rc < 0 || rc == 1)
            return rc;
    }
    return 0;
}

/* The retries at ii after SAT left it undecided there (res->tried[t], a
 * timeout), from t0, recorded in that try: mapped by the heuristic when
 * one maps, its seconds all those spent at ii since t1.  map_at's rc
 * after them. */
static int retry_try(const cg_netlist *nl, const cg_dfg *g,
                     const cg_map_params *q, int ii, int n, long moves,
                     double t0, double t1, int t, cg_map_result *res,
                     cg_diags *d)
{
    bool capped = false;
    int rc = retry_at(nl, g, q, ii, n, moves, t0, res, &capped, d);
    res->tried[t].seconds += cg_clock_now() - t1;
    if (rc == 1) {
        res->tried[t].outcome = CG_II_MAPPED;
        res->tried[t].by = CG_BY_HEURISTIC;
        res->tried[t].capped = false;
        res->tried[t].refuted = -1;
    }
    res->tried[t].capped |= capped && rc != 1;
    res->capped |= res->tried[t].capped;
    return rc;
}

/* The ILP at the IIs from the MII to below - 1 (or max_ii when the
 * heuristic mapped nothing), skipping those the bound proved; 1 when it
 * mapped one (res holds it, replacing the heuristic's), 0 when not, -1 on
 * an error.  *timed_out when some II timed out. */
static int ilp_search(const cg_netlist *nl, const cg_dfg *g,
                      const cg_map_params *p, sweep *sw,
                      cg_map_result *res, bool *timed_out, cg_diags *d)
{
    int last = sw->mapped_ii > 0 ? sw->mapped_ii - 1 : p->max_ii;
    cg_mapping *hmap = res->mapping;
    cg_mrrg *hm = res->mrrg;
    res->mapping = NULL;
    res->mrrg = NULL;
    int rc = 0;
    for (int ii = sw->lo; ii <= last && rc == 0; ii++) {
        res->ii = ii;
        int i = ii - res->mii.mii;
        cg_map_params q;
        if (skip_ii(nl, g, p, sw, ii, &q, res, timed_out, &rc, d))
            continue;
        int ntried = res->ntried;
        rc = map_at(nl, g, &q, ii, sw->partial[i], climb_of(sw, ii), res,
                    d);
        if (rc == 0 && res->ntried > ntried && q.retries > 0 &&
            q.search == CG_SEARCH_AUTO && !is_large(&q, g) &&
            res->tried[ntried].outcome == CG_II_TIMEOUT) {
            /* a fresh cap, as SAT may have spent the II's, within what
               the loop's time limit leaves */
            double t1 = cg_clock_now();
            cg_map_params r;
            if (per_ii(p, sw, ii, &r)) {
                rc = retry_try(nl, g, &r, ii, r.retries, r.retry_moves, t1,
                               t1, ntried, res, d);
            } else {
                res->tried[ntried].capped = true;
                res->capped = true;
            }
        }
        if (rc >= 0 && res->ntried > ntried)
            add_climb(sw, ii, res, ntried);
        if (rc == 0 && res->ntried &&
            res->tried[res->ntried - 1].outcome == CG_II_TIMEOUT)
            *timed_out = true;
    }
    if (rc == 1) {
        cg_mapping_destroy(hmap);
        cg_mrrg_destroy(hm);
    } else {
        res->mapping = hmap;
        res->mrrg = hm;
    }
    return rc;
}

static int by_ii(const void *a, const void *b)
{
    int x = ((const cg_map_try *)a)->ii, y = ((const cg_map_try *)b)->ii;
    return (x > y) - (x < y);
}

/* Large DFGs in the auto search (large_retries > 0): the IIs below the
 * one the climb mapped, from the top down, each with SAT (its budget by
 * the model's size, try_sat) and then the heuristic and annealer with
 * fresh seeds, within a fresh per-II cap.  One seed's annealer fails at
 * an II where another's maps (dct8 at II 5 on the 8x8: one of four
 * seeds), and a mapping is likeliest just below the climb's, so those IIs
 * get the time first; an II mapped is kept and the search goes on below it.  1 when an
 * II below the climb's mapped (res holds the lowest; the tries above it
 * are dropped), 0 when none did, -1 on an error. */
static int descend(const cg_netlist *nl, const cg_dfg *g,
                   const cg_map_params *p, sweep *sw, cg_map_result *res,
                   bool *timed_out, cg_diags *d)
{
    cg_mapping *best = res->mapping;
    cg_mrrg *bm = res->mrrg;
    int best_ii = sw->mapped_ii, rc = 0;
    res->mapping = NULL;
    res->mrrg = NULL;
    for (int ii = sw->mapped_ii - 1; ii >= sw->lo && rc >= 0; ii--) {
        int i = ii - res->mii.mii;
        cg_map_params q;
        if (skip_ii(nl, g, p, sw, ii, &q, res, timed_out, &rc, d))
            continue;
        double t0 = cg_clock_now();
        int t = res->ntried; /* map_at records one try unless it fails */
        rc = map_at(nl, g, &q, ii, sw->partial[i], climb_of(sw, ii), res,
                    d);
        if (rc < 0)
            break;
        if (rc == 0 && res->tried[t].outcome == CG_II_TIMEOUT) {
            res->tried[t].seconds = 0; /* all of the II's: from t0 */
            rc = retry_try(nl, g, &q, ii, q.large_retries, q.nego_moves, t0,
                           t0, t, res, d);
        }
        if (rc >= 0)
            add_climb(sw, ii, res, t);
        if (rc == 1) {
            cg_mapping_destroy(best);
            cg_mrrg_destroy(bm);
            best = res->mapping;
            bm = res->mrrg;
            best_ii = ii;
            res->mapping = NULL;
            res->mrrg = NULL;
            rc = 0;
        } else if (rc == 0 && res->tried[t].outcome == CG_II_TIMEOUT) {
            *timed_out = true;
        }
    }
    res->mapping = best;
    res->mrrg = bm;
    if (rc < 0)
        return -1;
    int k = 0; /* the tries at or below the II kept, in increasing II */
    for (int t = 0; t < res->ntried; t++)
        if (res->tried[t].ii <= best_ii)
            res->tried[k++] = res->tried[t];
    res->ntried = k;
    qsort(res->tried, (size_t)k, sizeof res->tried[0], by_ii);
    res->ii = best_ii;
    return best_ii < sw->mapped_ii;
}

/* The heuristic alone (CG_SEARCH_HEURISTIC): each II below the one it
 * mapped (or up to max_ii) is recorded as the bound proved it, else as
 * ended by a limit.  *timed_out when one was. */
static void heur_only(const cg_map_params *p, const sweep *sw,
                      cg_map_result *res, bool *timed_out)
{
    int last = sw->mapped_ii > 0 ? sw->mapped_ii - 1 : p->max_ii;
    for (int ii = sw->lo; ii <= last; ii++) {
        int i = ii - res->mii.mii;
        res->ii = ii; /* the last tried, when none maps */
        if (!sw->proven[i])
            *timed_out = true;
        record(res, ii, sw->proven[i] ? CG_II_INFEASIBLE : CG_II_TIMEOUT,
               sw->psecs[i], NULL, !sw->proven[i] && sw->capped[i],
               sw->proven[i]);
    }
}

/* ", bottleneck op 'OP'" into buf, or "" at ResMII 1 (every op fits one
 * context: none binds, as the row's bottleneck column says). */
static const char *bottleneck(const cg_mii *mii, char *buf, size_t n)
{
    if (mii->res_mii <= 1)
        return "";
    snprintf(buf, n, ", bottleneck op '%s'", cg_op_name(mii->bottleneck));
    return buf;
}

/* min_ii against the MII and max_ii: 0, or -1 with an error. */
static int check_range(const cg_dfg *g, const cg_map_params *p,
                       const cg_mii *mii, cg_diags *d)
{
    char bn[64];
    if (p->min_ii > p->max_ii)
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "the lowest II allowed (%d) is above the highest (%d): "
                     "give --ii alone, or a --max-ii of at least %d",
                     p->min_ii, p->max_ii, p->min_ii);
    else if (p->min_ii > 0 && p->min_ii < mii->mii)
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "'%s' cannot map at II %d: it needs II >= %d (ResMII "
                     "%d%s; RecMII %d)",
                     cg_dfg_name(g), p->min_ii, mii->mii, mii->res_mii,
                     bottleneck(mii, bn, sizeof bn), mii->rec_mii);
    else if (mii->mii > p->max_ii)
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "'%s' needs II >= %d (ResMII %d%s; RecMII %d) but the "
                     "highest II allowed is %d: %s",
                     cg_dfg_name(g), mii->mii, mii->res_mii,
                     bottleneck(mii, bn, sizeof bn), mii->rec_mii, p->max_ii,
                     mii->mii > CG_MAP_MAX_II
                         ? "the mapper tries no II above that; split the "
                           "loop or give the array more units of that op"
                         : "raise the II limit (--max-ii), or leave it out "
                           "to follow the MII");
    else
        return 0;
    return -1;
}

/* The II search on g (cg_map's, before the immediates). */
static int map_search(const cg_netlist *nl, const cg_dfg *g,
                      const cg_map_params *p, cg_map_result *res, cg_diags *d)
{
    double t0 = cg_clock_now();
    memset(res, 0, sizeof *res);
    res->status = CG_MAP_ERROR;
    if (cg_mii_compute(nl, g, &res->mii, d) < 0)
        return -1;
    cg_map_params top = *p;
    top.max_ii = cg_map_top_ii(p, res->mii.mii);
    bool large = is_large(p, g);
    if (large) { /* large_conflicts: try_sat, by the model's size */
        top.heur_steps = p->large_steps;
        top.nego_moves = p->large_moves;
        top.timeout_s = p->large_timeout_s;
        if (!p->large_climb_sat)
            top.sat_climb_share = 0; /* SAT in the climb only where
                                        sweep.least_sat says */
    }
    p = &top;
    if (check_range(g, p, &res->mii, d) < 0)
        return -1;
    int span = p->max_ii - res->mii.mii + 1;
    sweep sw = {
        .lo = p->min_ii > res->mii.mii ? p->min_ii : res->mii.mii,
        .proven = calloc((size_t)span + 1, sizeof(cg_map_prover)),
        .psecs = calloc((size_t)span + 1, sizeof(double)),
        .capped = calloc((size_t)span + 1, sizeof(bool)),
        .partial = calloc((size_t)span + 1, sizeof(cg_mapping *)),
        .loop_end = p->time_limit_s > 0 ? t0 + p->time_limit_s : 0,
        .loop_binds = calloc((size_t)span + 1, sizeof(bool)),
        .sat_ran = calloc((size_t)span + 1, sizeof(bool)),
        .sat = calloc((size_t)span + 1, sizeof(cg__ilp_out)),
        .least_sat = large && p->search == CG_SEARCH_AUTO,
        .sat_whole = calloc((size_t)span + 1, sizeof(bool)),
        .mii = res->mii.mii};
    res->timeout_s = p->timeout_s;
    res->time_limit_s = p->time_limit_s;
    res->min_ii = p->min_ii;
    bool timed_out = false;
    int rc = !sw.proven || !sw.psecs || !sw.capped || !sw.partial ||
             !sw.loop_binds || !sw.sat_ran || !sw.sat || !sw.sat_whole ? -1
                                                                       : 0;
    if (rc < 0)
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0, "out of memory "
                     "mapping '%s'", cg_dfg_name(g));
    if (rc == 0 && p->search != CG_SEARCH_ILP &&
        p->search != CG_SEARCH_SAT)
        rc = heur_search(nl, g, p, res, &sw, d);
    if (rc == 0 && p->search == CG_SEARCH_HEURISTIC)
        heur_only(p, &sw, res, &timed_out);
    else if (rc == 0 && sw.mapped_ii > sw.lo && p->search == CG_SEARCH_AUTO &&
             large && p->large_retries > 0)
        rc = descend(nl, g, p, &sw, res, &timed_out, d);
    else if (rc == 0 && sw.mapped_ii != sw.lo)
        rc = ilp_search(nl, g, p, &sw, res, &timed_out, d);
    if (rc == 0 && sw.mapped_ii > 0) {
        res->ii = sw.mapped_ii;
        int i = sw.mapped_ii - res->mii.mii;
        bool by_sat = sw.sat_ran[i] && sw.sat[i].outcome == CG_II_MAPPED;
        record(res, sw.mapped_ii, CG_II_MAPPED, sw.secs,
               by_sat ? &sw.sat[i] : NULL, sw.capped[i], CG_BY_HEURISTIC);
        if (sw.sat_ran[i] && !by_sat) /* SAT spent them before the annealer */
            res->tried[res->ntried - 1].conflicts = sw.sat[i].conflicts;
    }
    free(sw.proven);
    free(sw.psecs);
    /* which cap ended each capped II: the loop's, where it was the
       binding one there */
    for (int t = 0; sw.loop_binds && t < res->ntried; t++)
        res->tried[t].loop_capped =
            res->tried[t].capped && res->tried[t].ii >= sw.mii &&
            res->tried[t].ii - sw.mii < span &&
            sw.loop_binds[res->tried[t].ii - sw.mii];
    free(sw.loop_binds);
    free(sw.capped);
    for (int i = 0; sw.partial && i < span; i++)
        cg_mapping_destroy(sw.partial[i]);
    free(sw.partial);
    free(sw.sat_ran);
    free(sw.sat);
    free(sw.sat_whole);
    cg__sat_destroy(sw.kept.live); /* the search below did not need it */
    cg_mrrg_destroy(sw.kept.m);
    if (rc == 0)
        rc = undecided_margins(nl, g, res, d);
    res->seconds = cg_clock_now() - t0;
    if (rc < 0)
        return -1;
    res->status = res->mapping ? CG_MAP_MAPPED
                  : timed_out  ? CG_MAP_TIMEOUT
                               : CG_MAP_INFEASIBLE;
    return 0;
}

/* res's mapping of the reduced graph r->g as one of g (imm.c), checked
 * on g like every mapping.  0, or -1 with an error. */
static int expand(const cg_netlist *nl, const cg_dfg *g,
                  const cg__imm_red *r, cg_map_result *res, cg_diags *d)
{
    cg_mapping *m = cg__imm_expand(r, g, res->mapping);
    if (!m) {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0, "out of memory "
                     "expanding the mapping of '%s'", cg_dfg_name(g));
        return -1;
    }
    cg_mapping_destroy(res->mapping);
    res->mapping = NULL;
    cg_mrrg *mrrg = res->mrrg;
    res->mrrg = NULL;
    int fus = res->fus_used;
    if (accept(nl, g, mrrg, m, res, d) < 0) {
        cg_mapping_destroy(m);
        cg_mrrg_destroy(mrrg);
        res->status = CG_MAP_ERROR;
        return -1;
    }
    res->fus_used = fus; /* the folded consts use none */
    return 0;
}

int cg_map(const cg_netlist *nl, const cg_dfg *g, const cg_map_params *p,
           cg_map_result *res, cg_diags *d)
{
    cg__imm_red r;
    if (cg_map_params_check(p, cg_dfg_file(g), d) < 0 ||
        cg__imm_reduce(nl, g, &r, d) < 0) {
        memset(res, 0, sizeof *res);
        res->status = CG_MAP_ERROR;
        return -1;
    }
    int rc = map_search(nl, r.g ? r.g : g, p, res, d);
    if (rc == 0 && r.g && res->mapping)
        rc = expand(nl, g, &r, res, d);
    cg__imm_red_free(&r);
    return rc;
}

void cg_map_result_free(cg_map_result *res)
{
    if (!res)
        return;
    cg_mapping_destroy(res->mapping);
    cg_mrrg_destroy(res->mrrg);
    res->mapping = NULL;
    res->mrrg = NULL;
}
