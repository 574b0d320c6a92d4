/* proof.c: what a mapping proved and used, derived from cg_map_result
 * alone: what the II is proven to be (optimal, or which lower IIs are
 * still open, and what may settle them) and how the mapping uses the
 * array (FuncUnits and their utilisation, the other slots apart).  The
 * flow's result, the main job's rows and `cgramap map`'s row all come
 * from here, so they never disagree. */
#include "flow.h"

#include <stdlib.h>
#include <string.h>

/* ---- the proof ------------------------------------------------------------ */

/* What is known of one II: never tried, only hit a limit, proven
 * infeasible or mapped.  An II tried twice counts by its strongest
 * outcome. */
enum ii_state { II_UNTRIED, II_LOOP_CAPPED, II_CAPPED, II_LIMIT,
                II_INFEASIBLE, II_MAPPED };
#define OPEN_STATES                                                          \
    ((1u << II_UNTRIED) | (1u << II_LOOP_CAPPED) | (1u << II_CAPPED) |      \
     (1u << II_LIMIT))

static enum ii_state ii_state(const cg_map_result *r, int ii)
{
    enum ii_state s = II_UNTRIED;
    for (int i = 0; i < r->ntried; i++) {
        if (r->tried[i].ii != ii)
            continue;
        enum ii_state t = r->tried[i].outcome == CG_II_MAPPED ? II_MAPPED
                        : r->tried[i].outcome == CG_II_INFEASIBLE
                        ? II_INFEASIBLE
                        : r->tried[i].loop_capped ? II_LOOP_CAPPED
                        : r->tried[i].capped ? II_CAPPED : II_LIMIT;
        if (t > s)
            s = t;
    }
    return s;
}

/* The IIs of lo..hi whose state is in the mask, as "3..4, 6" into buf;
 * how many they are. */
static int ii_ranges(const cg_map_result *r, int lo, int hi, unsigned mask,
                     char *buf, size_t n)
{
    int count = 0;
    size_t len = 0;
    buf[0] = '\0';
    for (int a = lo; a <= hi; a++) {
        if (!(mask >> ii_state(r, a) & 1))
            continue;
        int b = a;
        while (b + 1 <= hi && (mask >> ii_state(r, b + 1) & 1))
            b++;
        count += b - a + 1;
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, b > a ? "%s%d..%d"
                                    : "%s%d", len ? ", " : "", a, b);
        a = b;
    }
    return count;
}

/* Append, for each open II of lo..hi that SAT refuted up to a slack,
 * "; II a has no mapping within schedule +k ...". */
static void partial_refutations(const cg_map_result *r, int lo, int hi,
                                cg_flow_proof *out)
{
    for (int ii = lo; ii <= hi; ii++) {
        int k = -1;
        for (int i = 0; i < r->ntried; i++)
            if (r->tried[i].ii == ii && r->tried[i].refuted > k)
                k = r->tried[i].refuted;
        size_t len = strlen(out->hint);
        if (k == 0 && len < sizeof out->hint)
            snprintf(out->hint + len, sizeof out->hint - len, "; II %d has "
                     "no mapping with the shortest schedule (the SAT "
                     "mapper's limits ended the search beyond)", ii);
        else if (k > 0 && len < sizeof out->hint)
            snprintf(out->hint + len, sizeof out->hint - len, "; II %d has "
                     "no mapping whose schedule is at most %d cycle%s longer "
                     "than the shortest (the SAT mapper's limits ended the "
                     "search beyond)", ii, k, k == 1 ? "" : "s");
    }
}

/* Append, for each open II of lo..hi where the register bound leaves
 * less than a tenth of the array's register slots to routes, how close it
 * is: the array, more than the search, may be what keeps it open. */
static void tight_registers(const cg_map_result *r, int lo, int hi,
                            cg_flow_proof *out)
{
    for (int i = 0; i < r->ntried; i++) {
        const cg_map_try *x = &r->tried[i];
        if (x->ii < lo || x->ii > hi || x->outcome != CG_II_TIMEOUT ||
            x->reg_need < 0 || (long)x->reg_need * 10 < (long)x->reg_have * 9)
            continue;
        size_t len = strlen(out->hint);
        if (len < sizeof out->hint)
            snprintf(out->hint + len, sizeof out->hint - len, "; at II %d "
                     "the waits alone take at least %d of the array's %d "
                     "register slots (the register bound): an array with "
                     "more registers may settle it", x->ii, x->reg_need,
                     x->reg_have);
    }
}

/* The IIs from the MII to top that are not settled: the text "open: II
 * ..." and the first part of the hint (which hit the limit, which were not
 * tried).  0 when every one is settled. */
/* The hint and text of an open row for the IIs from the MII to top; how
 * many are open (*searched: how many of them a search tried).  An
 * untried II is below --ii (min_ii) or after the loop's time ran out. */
static int open_iis(const cg_map_result *r, int top, double timeout_s,
                    cg_flow_proof *out, int *searched)
{
    char all[256], limit[256], capped[256], lcapped[256], untried[256];
    int n = ii_ranges(r, r->mii.mii, top, OPEN_STATES, all, sizeof all);
    if (n == 0)
        return 0;
    int nl = ii_ranges(r, r->mii.mii, top, 1u << II_LIMIT, limit,
                       sizeof limit);
    int nc = ii_ranges(r, r->mii.mii, top, 1u << II_CAPPED, capped,
                       sizeof capped);
    int nlc = ii_ranges(r, r->mii.mii, top, 1u << II_LOOP_CAPPED, lcapped,
                        sizeof lcapped);
    int nu = ii_ranges(r, r->mii.mii, top, 1u << II_UNTRIED, untried,
                       sizeof untried);
    snprintf(out->text, sizeof out->text, "open: II %s", all);
    size_t len = 0;
    if (nl)
        len = (size_t)snprintf(out->hint, sizeof out->hint, "II %s hit the "
                               "work limit (--steps, --moves, --conflicts, "
                               "--ilp-nodes) "
                               "without a mapping or a proof", limit);
    if (nc && len < sizeof out->hint)
        len += (size_t)snprintf(out->hint + len, sizeof out->hint - len,
                                "%sII %s hit the wall-clock cap per II "
                                "(--timeout %g s): a faster or idle machine "
                                "may settle %s", nl ? "; " : "", capped,
                                timeout_s, nc > 1 ? "them" : "it");
    if (nlc && len < sizeof out->hint)
        len += (size_t)snprintf(out->hint + len, sizeof out->hint - len,
                                "%sII %s hit the loop's wall-clock cap "
                                "(--time-limit %g s): a larger --time-limit "
                                "or a faster machine may settle %s",
                                nl || nc ? "; " : "", lcapped,
                                r->time_limit_s, nlc > 1 ? "them" : "it");
    if (nu && len < sizeof out->hint) {
        char why[64] = "";
        if (r->min_ii > r->mii.mii)
            snprintf(why, sizeof why, " (--ii %d starts above %s)",
                     r->min_ii, nu > 1 ? "them" : "it");
        snprintf(out->hint + len, sizeof out->hint - len, "%sII %s %s not "
                 "tried%s", nl || nc || nlc ? "; " : "", untried,
                 nu > 1 ? "were" : "was", why);
    }
    *searched = nl + nc + nlc;
    partial_refutations(r, r->mii.mii, top, out);
    tight_registers(r, r->mii.mii, top, out);
    return n;
}

/* The least schedule slack of the SAT refutations among the IIs up to
 * top (the proof holds for that slack), -1 when none rests on one. */
static int sat_horizon(const cg_map_result *r, int top)
{
    int h = -1;
    for (int i = 0; i < r->ntried; i++)
        if (r->tried[i].ii <= top && r->tried[i].by == CG_BY_SAT &&
            r->tried[i].outcome == CG_II_INFEASIBLE &&
            r->tried[i].horizon >= 0 && (h < 0 || r->tried[i].horizon < h))
            h = r->tried[i].horizon;
    return h;
}

/* Append to the hint. */
static void hint_add(cg_flow_proof *out, const char *s)
{
    size_t len = strlen(out->hint);
    snprintf(out->hint + len, sizeof out->hint - len, "%s", s);
}

/* Into buf: "II a..b proven infeasible" for the IIs from the MII to top
 * that are, then, where a SAT refutation among them holds only within a
 * schedule slack H, "(the SAT mapper's refutations cover schedules up to
 * H cycles longer than the shortest", tail and ")".  False when no II
 * there is proven infeasible. */
static bool proven_text(const cg_map_result *r, int top, const char *tail,
                        char *buf, size_t n)
{
    char iis[256];
    if (!ii_ranges(r, r->mii.mii, top, 1u << II_INFEASIBLE, iis, sizeof iis))
        return false;
    int h = sat_horizon(r, top);
    if (h >= 0)
        snprintf(buf, n, "II %s proven infeasible (the SAT mapper's "
                 "refutations cover schedules up to %d cycles longer than "
                 "the shortest%s)", iis, h, tail);
    else
        snprintf(buf, n, "II %s proven infeasible", iis);
    return true;
}

/* Append, where IIs from the MII to top are open, what is proven among
 * them (proven_text), so that an open row does not read as if the IIs it
 * does not name were proven for every schedule. */
static void proven_below(const cg_map_result *r, int top, cg_flow_proof *out)
{
    char s[512];
    if (!proven_text(r, top, "", s, sizeof s))
        return;
    hint_add(out, "; ");
    hint_add(out, s);
}

static void proof_mapped(const cg_map_result *r, double timeout_s,
                         cg_flow_proof *out)
{
    char buf[256];
    int searched;
    if (open_iis(r, r->ii - 1, timeout_s, out, &searched)) {
        proven_below(r, r->ii - 1, out);
        if (searched)
            snprintf(buf, sizeof buf, "; II %d may not be the least: larger "
                     "work limits or --solver cbc may map a lower II or "
                     "prove it infeasible", r->ii);
        else /* --ii, or the time limit ended the search before them */
            snprintf(buf, sizeof buf, "; II %d may not be the least: a "
                     "search of the IIs below it may map one or prove them "
                     "infeasible", r->ii);
        hint_add(out, buf);
        return;
    }
    int h = sat_horizon(r, r->ii - 1);
    if (h >= 0)
        snprintf(out->text, sizeof out->text, "optimal (schedule +%d)", h);
    else
        snprintf(out->text, sizeof out->text, "optimal");
    if (r->ii == r->mii.mii) {
        snprintf(out->hint, sizeof out->hint, "II %d is the MII (ResMII %d, "
                 "RecMII %d), a lower bound", r->ii, r->mii.res_mii,
                 r->mii.rec_mii);
        return;
    }
    char proven[512] = "";
    proven_text(r, r->ii - 1, "; --horizon widens them", proven,
                sizeof proven);
    snprintf(out->hint, sizeof out->hint, "%s, so II %d is the least",
             proven, r->ii);
}

void cg_flow_proof_of(const cg_map_result *r, double timeout_s,
                     cg_flow_proof *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->text, sizeof out->text, "-");
    int searched;
    if (r->status == CG_MAP_MAPPED)
        proof_mapped(r, timeout_s, out);
    else if (r->status == CG_MAP_TIMEOUT && open_iis(r, r->ii, timeout_s,
                                                     out, &searched)) {
        proven_below(r, r->ii, out);
        hint_add(out, "; no II mapped: larger work limits, --solver cbc or "
                 "a larger --max-ii may map it");
    }
    else if (r->status == CG_MAP_INFEASIBLE)
        snprintf(out->hint, sizeof out->hint, "every II from %d to %d is "
                 "proven infeasible: a larger --max-ii or an array with "
                 "more units may map it", r->mii.mii, r->ii);
}

/* ---- how the mapping uses the array ------------------------------------- */

/* FuncUnits that run an op, ops per kind of unit, FuncUnits of the
 * array. */
int cg_flow_usage_of(const cg_map_result *r, const cg_netlist *nl,
                     cg_flow_usage *out)
{
    memset(out, 0, sizeof *out);
    if (r->status != CG_MAP_MAPPED || !r->mapping || !r->mrrg)
        return -1;
    int np = cg_netlist_nprims(nl);
    int ops[CG_PRIM_COUNT] = {0};
    bool *busy = calloc((size_t)np + 1, sizeof *busy);
    if (!busy)
        return -1;
    for (int v = 0; v < r->mapping->nnodes; v++) {
        int f = r->mapping->place[v];
        int pr = f >= 0 ? cg_mrrg_get_node(r->mrrg, f)->prim : -1;
        if (pr < 0)
            continue;
        ops[cg_netlist_prim(nl, pr)->p.kind]++;
        busy[pr] = true;
    }
    for (int p = 0; p < np; p++)
        if (cg_netlist_prim(nl, p)->p.kind == CG_PRIM_FUNC) {
            out->funcunits_total++;
            out->funcunits += busy[p];
        }
    free(busy);
    out->fu_ops = ops[CG_PRIM_FUNC];
    out->const_ops = ops[CG_PRIM_CONST];
    out->io_ops = ops[CG_PRIM_IO];
    out->mem_ops = ops[CG_PRIM_MEM];
    double slots = (double)out->funcunits_total * r->ii;
    out->fu_util = slots > 0 ? (double)out->fu_ops / slots : 0.0;
    out->routes = r->routes_used;
    return 0;
}
