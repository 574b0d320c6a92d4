/* flow.c: one loop end to end (plan, map, check, schedule, verify), its
 * parameters and its result.  The steps live beside: plan.c (tiling and
 * schedule), verify.c and tiled.c (the proof), limit.c (the reference run
 * in a child process), proof.c (what the II is known to be, what the
 * mapping uses). */
#include "flow_internal.h"

#include <math.h>
#include <string.h>

void cg_flow_params_init(cg_flow_params *p)
{
    memset(p, 0, sizeof *p);
    cg_map_params_init(&p->map);
    p->tiling = true;
    cg_tile_params_init(&p->tile);
    p->seed = CG_FLOW_SEED;
    p->executions = CG_FLOW_EXECUTIONS;
    p->dot_iters = CG_FLOW_DOT_ITERS;
    p->dot_mem = CG_FLOW_DOT_MEM;
    p->dot_input_range = CG_FLOW_DOT_INPUT_RANGE;
    p->run_limit_s = CG_FLOW_RUN_LIMIT_S;
    cg_cosim_params_init(&p->cosim);
}

/* One field out of range: say which, its value and what it must be. */
static int bad_param(const cg_dfg *g, cg_diags *d, const char *field,
                     double value, const char *want)
{
    cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0, "loop '%s': "
                 "cg_flow_params.%s is %g; it must be %s", cg_dfg_name(g),
                 field, value, want);
    return -1;
}

int cg__flow_params_check(const cg_flow_params *p, const cg_dfg *g,
                          cg_diags *d)
{
    if (p->executions < 1)
        return bad_param(g, d, "executions", (double)p->executions,
                         "at least 1");
    if (p->dot_iters < 1)
        return bad_param(g, d, "dot_iters", (double)p->dot_iters,
                         "at least 1");
    if (p->dot_mem < 1)
        return bad_param(g, d, "dot_mem", (double)p->dot_mem, "at least 1");
    if (p->dot_input_range < 1)
        return bad_param(g, d, "dot_input_range",
                         (double)p->dot_input_range, "at least 1");
    if (p->nsyms < 0 || p->nsyms > CG_EXTRACT_MAX_SYMS)
        return bad_param(g, d, "nsyms", p->nsyms,
                         "from 0 to CG_EXTRACT_MAX_SYMS");
    if (!(p->run_limit_s > 0) || !isfinite(p->run_limit_s))
        return bad_param(g, d, "run_limit_s", p->run_limit_s,
                         "a number of seconds above 0");
    return 0;
}

const char *cg_flow_verdict_name(cg_flow_verdict v)
{
    switch (v) {
    case CG_FLOW_UNVERIFIED: return "-";
    case CG_FLOW_WRONG: return "no";
    case CG_FLOW_VERIFIED: return "yes";
    case CG_FLOW_NOTHING_RUN: return "n/a";
    case CG_FLOW_NOT_VERIFIED: break;
    }
    return "not verified";
}

void cg_flow_result_init(cg_flow_result *r)
{
    memset(r, 0, sizeof *r);
    r->map.status = CG_MAP_ERROR;
    r->verification.verdict = CG_FLOW_UNVERIFIED;
    r->verification.tile_runs = -1;
    snprintf(r->proof.text, sizeof r->proof.text, "-");
}

void cg_flow_result_free(cg_flow_result *r)
{
    cg_map_result_free(&r->map);
    cg_flow_tiling_free(&r->tiling);
    cg_flow_result_init(r);
}

/* The DFG rules (cg_dfg_check) hold for g: the mapper and simulator
 * rely on them.  Only a failing check's errors reach d. */
static bool good_dfg(const cg_dfg *g, cg_diags *d)
{
    cg_diags *cd = cg_diags_create();
    bool ok = cd && cg_dfg_check(g, cd) == 0;
    if (cd && !ok)
        cg_diags_append(d, cd);
    cg_diags_destroy(cd);
    return ok;
}

/* What the mapping is known and seen to be: proof, usage, checked. */
static void judge(const cg_netlist *nl, cg_flow_result *out, cg_diags *d)
{
    cg_map_result *r = &out->map;
    cg_flow_proof_of(r, r->timeout_s, &out->proof);
    bool mapped = r->status == CG_MAP_MAPPED;
    out->used = mapped && cg_flow_usage_of(r, nl, &out->usage) == 0;
    out->checked = mapped &&
                   cg_map_check(nl, r->mrrg, out->mapped, r->mapping, d) == 0;
    if (mapped && !out->checked)
        out->verification.verdict = CG_FLOW_WRONG;
}

int cg_flow_loop(const cg_netlist *nl, const cg_dfg *g, cg_extract_prog *x,
                 const cg_flow_params *p, cg_flow_result *out, cg_diags *d)
{
    if (!out || !d)
        return -1;
    cg_flow_result_init(out);
    if (!nl || !g || !p) {
        cg_diags_add(d, CG_SEV_ERROR, g ? cg_dfg_file(g) : NULL, 0,
                     "cg_flow_loop needs an array, a loop and parameters "
                     "(one of them is NULL)");
        return -1;
    }
    out->loop = out->mapped = g;
    /* the mapper's policy too, before the plan's work */
    if (cg__flow_params_check(p, g, d) != 0 ||
        cg_map_params_check(&p->map, cg_dfg_file(g), d) != 0 || !good_dfg(g, d))
        return -1;
    if (x && p->tiling)
        cg_flow_tiling_plan(&out->tiling, g, nl, &p->tile);
    if (out->tiling.td)
        out->mapped = cg_tile_dfg_graph(out->tiling.td);
    int rc = cg_map(nl, out->mapped, &p->map, &out->map, d);
    judge(nl, out, d);
    if (!out->checked)
        return rc;
    /* why it is not tiled: said once it mapped, and before the
       verification, whose difference an access outside an array that
       the tiler found may explain */
    if (out->tiling.msgs)
        cg_diags_append(d, out->tiling.msgs);
    cg_flow_verify(p, nl, g, x, &out->tiling, &out->map,
                   &out->verification, d);
    out->scheduled = cg__flow_schedule(&out->tiling, out->mapped, &out->map,
                                       &out->sched, d);
    return rc;
}
