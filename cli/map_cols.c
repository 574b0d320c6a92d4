/* map_cols.c: what a row says about a mapping, derived from cg_map_result
 * alone: the MII and its parts, what the II is proven to be (optimal, or
 * which lower IIs are still open) and how the mapping uses the array
 * (FuncUnits and their utilisation, the other slots apart), the last two
 * as the flow stage states them (flow/proof.c).  The main job's records
 * and `cgramap map`'s row are both made here, so the two never
 * disagree. */
#include "cli/bench.h"

#include <stdlib.h>
#include <string.h>

static const char *outcome_word(cg_ii_outcome o)
{
    return o == CG_II_MAPPED ? "mapped"
           : o == CG_II_INFEASIBLE ? "infeasible" : "timeout";
}

/* One II tried: its outcome, what decided it ("by": heuristic, bound,
 * lp, ilp, sat or "-") and, refuted by SAT, the schedule slack the
 * refutation covers ("horizon", null when it covers every slack); left
 * undecided after SAT refuted the shorter schedules, the largest slack it
 * refuted ("refuted"); left undecided, the register bound's figures
 * ("reg_need" of "reg_have"). */
static json_t *try_of(const cg_map_result *r, int i)
{
    json_t *t = json_pack(
        "{s:i, s:s, s:s, s:b, s:f, s:i, s:i, s:i, s:I}", "ii",
        r->tried[i].ii, "outcome", outcome_word(r->tried[i].outcome), "by",
        cg_map_prover_name(r->tried[i].by), "capped", r->tried[i].capped,
        "seconds", r->tried[i].seconds, "rows", r->tried[i].rows, "cols",
        r->tried[i].cols, "nonzeros", r->tried[i].nonzeros, "conflicts",
        (json_int_t)r->tried[i].conflicts);
    if (t && r->tried[i].by == CG_BY_SAT &&
        r->tried[i].outcome == CG_II_INFEASIBLE)
        json_object_set_new(t, "horizon", r->tried[i].horizon >= 0
                                              ? json_integer(
                                                    r->tried[i].horizon)
                                              : json_null());
    if (t && r->tried[i].outcome == CG_II_TIMEOUT && r->tried[i].refuted >= 0)
        json_object_set_new(t, "refuted",
                            json_integer(r->tried[i].refuted));
    if (t && r->tried[i].outcome == CG_II_TIMEOUT &&
        r->tried[i].reg_need >= 0) {
        json_object_set_new(t, "reg_need",
                            json_integer(r->tried[i].reg_need));
        json_object_set_new(t, "reg_have",
                            json_integer(r->tried[i].reg_have));
    }
    return t;
}

static json_t *tries(const cg_map_result *r)
{
    json_t *a = json_array();
    for (int i = 0; i < r->ntried; i++)
        json_array_append_new(a, try_of(r, i));
    return a;
}

/* The usage columns of r's mapping on nl into cols; -1 when out of
 * memory (the caller checked that r mapped). */
static int usage_cols(json_t *cols, const cg_map_result *r,
                      const cg_netlist *nl)
{
    cg_flow_usage u;
    if (cg_flow_usage_of(r, nl, &u) != 0)
        return -1;
    return json_object_update_new(cols, json_pack(
        "{s:i, s:i, s:i, s:f, s:i, s:i, s:i, s:i}", "funcunits", u.funcunits,
        "funcunits_total", u.funcunits_total, "fu_ops", u.fu_ops, "fu_util",
        u.fu_util, "const_ops", u.const_ops, "io_ops", u.io_ops, "mem_ops",
        u.mem_ops, "routes", u.routes));
}

json_t *cg_cli_map_cols(const cg_map_result *r, const cg_netlist *nl,
                        double timeout_s)
{
    cg_flow_proof pf;
    cg_flow_proof_of(r, timeout_s, &pf);
    json_t *cols = json_pack("{s:i, s:s, s:f, s:s, s:s, s:b, s:o}", "ii",
                             r->ii, "status", cg_map_status_name(r->status),
                             "seconds", r->seconds, "proof", pf.text,
                             "proof_hint", pf.hint, "capped", r->capped,
                             "tries", tries(r));
    int bad = !cols;
    if (!bad && r->mii.mii >= 1)
        bad = json_object_update_new(cols, json_pack(
            "{s:i, s:i, s:i}", "res_mii", r->mii.res_mii, "rec_mii",
            r->mii.rec_mii, "mii", r->mii.mii));
    /* at ResMII 1 every op fits one context: none binds (null, so that
       every record with an MII has the key) */
    if (!bad && r->mii.mii >= 1)
        bad = json_object_set_new(cols, "bottleneck",
                                  r->mii.res_mii > 1
                                      ? json_string(cg_op_name(
                                            r->mii.bottleneck))
                                      : json_null());
    if (!bad && r->status == CG_MAP_MAPPED && r->mapping && r->mrrg)
        bad = usage_cols(cols, r, nl);
    if (bad) { /* a row without some columns would pass for a full one */
        json_decref(cols);
        return NULL;
    }
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
