/* map_cols.c: what a row says about a mapping, derived from cg_map_result
 * alone: the MII and its parts, what the II is proven to be (optimal, or
 * which lower IIs are still open) and how the mapping uses the array
 * (FuncUnits and their utilisation, the other slots apart).  The main
 * job's records and `cgramap map`'s row are both made here, so the two
 * never disagree. */
#include "cli/bench.h"

#include <stdlib.h>
#include <string.h>

static const char *status_word(cg_map_status s)
{
    switch (s) {
    case CG_MAP_MAPPED: return "mapped";
    case CG_MAP_INFEASIBLE: return "infeasible";
    case CG_MAP_TIMEOUT: return "timeout";
    case CG_MAP_ERROR: break;
    }
    return "error";
}

static const char *outcome_word(cg_ii_outcome o)
{
    return o == CG_II_MAPPED ? "mapped"
           : o == CG_II_INFEASIBLE ? "infeasible" : "timeout";
}

static json_t *tries(const cg_map_result *r)
{
    json_t *a = json_array();
    for (int i = 0; i < r->ntried; i++)
        json_array_append_new(a, json_pack(
            "{s:i, s:s, s:b, s:f, s:i, s:i, s:i}", "ii", r->tried[i].ii,
            "outcome", outcome_word(r->tried[i].outcome), "capped",
            r->tried[i].capped, "seconds", r->tried[i].seconds, "rows",
            r->tried[i].rows, "cols", r->tried[i].cols, "nonzeros",
            r->tried[i].nonzeros));
    return a;
}

/* ---- the proof ------------------------------------------------------------ */

/* What is known of one II: never tried, only hit a limit, proven
 * infeasible or mapped.  An II tried twice counts by its strongest
 * outcome. */
enum ii_state { II_UNTRIED, II_CAPPED, II_LIMIT, II_INFEASIBLE,
                II_MAPPED };
#define OPEN_STATES                                                          \
    ((1u << II_UNTRIED) | (1u << II_CAPPED) | (1u << II_LIMIT))

static enum ii_state ii_state(const cg_map_result *r, int ii)
{
    enum ii_state s = II_UNTRIED;
    for (int i = 0; i < r->ntried; i++) {
        if (r->tried[i].ii != ii)
            continue;
        enum ii_state t = r->tried[i].outcome == CG_II_MAPPED ? II_MAPPED
                        : r->tried[i].outcome == CG_II_INFEASIBLE
                        ? II_INFEASIBLE
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

/* The IIs from the MII to top that are not settled: the text "open: II
 * ..." and the first part of the hint (which hit the limit, which were not
 * tried).  0 when every one is settled. */
static int open_iis(const cg_map_result *r, int top, double timeout_s,
                    cg_cli_proof *out)
{
    char all[256], limit[256], capped[256], untried[256];
    int n = ii_ranges(r, r->mii.mii, top, OPEN_STATES, all, sizeof all);
    if (n == 0)
        return 0;
    int nl = ii_ranges(r, r->mii.mii, top, 1u << II_LIMIT, limit,
                       sizeof limit);
    int nc = ii_ranges(r, r->mii.mii, top, 1u << II_CAPPED, capped,
                       sizeof capped);
    int nu = ii_ranges(r, r->mii.mii, top, 1u << II_UNTRIED, untried,
                       sizeof untried);
    snprintf(out->text, sizeof out->text, "open: II %s", all);
    size_t len = 0;
    if (nl)
        len = (size_t)snprintf(out->hint, sizeof out->hint, "II %s hit the "
                               "work limit (--steps, --ilp-nodes) without a "
                               "mapping or a proof", limit);
    if (nc && len < sizeof out->hint)
        len += (size_t)snprintf(out->hint + len, sizeof out->hint - len,
                                "%sII %s hit a wall-clock cap (--timeout "
                                "%g s, or --time-limit): a faster or idle "
                                "machine may settle %s",
                                nl ? "; " : "", capped, timeout_s,
                                nc > 1 ? "them" : "it");
    if (nu && len < sizeof out->hint)
        snprintf(out->hint + len, sizeof out->hint - len, "%sII %s %s not "
                 "tried", nl || nc ? "; " : "", untried,
                 nu > 1 ? "were" : "was");
    return n;
}

/* Append to the hint. */
static void hint_add(cg_cli_proof *out, const char *s)
{
    size_t len = strlen(out->hint);
    snprintf(out->hint + len, sizeof out->hint - len, "%s", s);
}

static void proof_mapped(const cg_map_result *r, double timeout_s,
                         cg_cli_proof *out)
{
    char buf[256];
    if (open_iis(r, r->ii - 1, timeout_s, out)) {
        snprintf(buf, sizeof buf, "; II %d may not be the least: larger "
                 "work limits or --solver cbc may map a lower II or prove it "
                 "infeasible", r->ii);
        hint_add(out, buf);
        return;
    }
    snprintf(out->text, sizeof out->text, "optimal");
    if (r->ii == r->mii.mii) {
        snprintf(out->hint, sizeof out->hint, "II %d is the MII (ResMII %d, "
                 "RecMII %d), a lower bound", r->ii, r->mii.res_mii,
                 r->mii.rec_mii);
        return;
    }
    ii_ranges(r, r->mii.mii, r->ii - 1, 1u << II_INFEASIBLE, buf,
              sizeof buf);
    snprintf(out->hint, sizeof out->hint, "II %s proven infeasible, so II %d "
             "is the least", buf, r->ii);
}

void cg_cli_proof_of(const cg_map_result *r, double timeout_s,
                     cg_cli_proof *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->text, sizeof out->text, "-");
    if (r->status == CG_MAP_MAPPED)
        proof_mapped(r, timeout_s, out);
    else if (r->status == CG_MAP_TIMEOUT && open_iis(r, r->ii, timeout_s,
                                                     out))
        hint_add(out, "; no II mapped: larger work limits, --solver cbc or "
                 "a larger --max-ii may map it");
    else if (r->status == CG_MAP_INFEASIBLE)
        snprintf(out->hint, sizeof out->hint, "every II from %d to %d is "
                 "proven infeasible: a larger --max-ii or an array with "
                 "more units may map it", r->mii.mii, r->ii);
}

/* ---- how the mapping uses the array ------------------------------------- */

/* FuncUnits that run an op, ops per kind of unit, FuncUnits of the
 * array, into cols. */
static void usage_cols(json_t *cols, const cg_map_result *r,
                       const cg_netlist *nl)
{
    int np = cg_netlist_nprims(nl), total = 0, used = 0;
    int ops[CG_PRIM_COUNT] = {0};
    bool *busy = calloc((size_t)np + 1, sizeof *busy);
    if (!busy)
        return;
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
            total++;
            used += busy[p];
        }
    free(busy);
    json_object_update_new(cols, json_pack(
        "{s:i, s:i, s:i, s:f, s:i, s:i, s:i, s:i}", "funcunits", used,
        "funcunits_total", total, "fu_ops", ops[CG_PRIM_FUNC], "fu_util",
        total ? (double)ops[CG_PRIM_FUNC] / ((double)total * r->ii) : 0.0,
        "const_ops", ops[CG_PRIM_CONST], "io_ops", ops[CG_PRIM_IO],
        "mem_ops", ops[CG_PRIM_MEM], "routes", r->routes_used));
}

json_t *cg_cli_map_cols(const cg_map_result *r, const cg_netlist *nl,
                        double timeout_s)
{
    cg_cli_proof pf;
    cg_cli_proof_of(r, timeout_s, &pf);
    json_t *cols = json_pack("{s:i, s:s, s:f, s:s, s:s, s:b, s:o}", "ii",
                             r->ii, "status", status_word(r->status),
                             "seconds", r->seconds, "proof", pf.text,
                             "proof_hint", pf.hint, "capped", r->capped,
                             "tries", tries(r));
    if (r->mii.mii >= 1)
        json_object_update_new(cols, json_pack(
            "{s:i, s:i, s:i}", "res_mii", r->mii.res_mii, "rec_mii",
            r->mii.rec_mii, "mii", r->mii.mii));
    /* at ResMII 1 every op fits one context: none binds */
    if (r->mii.res_mii > 1)
        json_object_set_new(cols, "bottleneck",
                            json_string(cg_op_name(r->mii.bottleneck)));
    if (r->status == CG_MAP_MAPPED && r->mapping && r->mrrg)
        usage_cols(cols, r, nl);
    return cols;
}

void cg_cli_proof_note(const json_t *cols, const cg_dfg *g, cg_diags *d)
{
    const char *proof = json_string_value(json_object_get(cols, "proof"));
    if (proof && !strncmp(proof, "open", 4))
        cg_diags_add(d, CG_SEV_NOTE, cg_dfg_file(g), 0, "loop '%s': %s",
                     cg_dfg_name(g), json_string_value(json_object_get(
                                         cols, "proof_hint")));
}
