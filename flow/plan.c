/* plan.c: the tiling of a loop and its schedule.  A loop extracted from C
 * carries its nest (dfg.h); before mapping, the nest is planned on the
 * architecture's tile memory exactly as `cgramap tile` plans it (one whole
 * tile when its data fits; the tagged loop kept whole when it carries a
 * value) and its transfers are built and lowered to the DMA engine.
 *
 * When the plan needs more than one tile, what the array runs is the tile
 * DFG (cg_tile_dfg_build): that graph is mapped, and verified by the whole
 * tiled run (verify.c).  A loop that fits whole maps its own DFG.  Either
 * way the double-buffered timeline is scheduled with the II and pipeline
 * depth of the mapping that was made.
 */
#include "flow_internal.h"

#include <stdlib.h>
#include <string.h>

/* An architecture without a tile memory is not an error of the loop: the
 * message says why it was not tiled. */
static bool has_tile_memory(const cg_netlist *nl, const cg_dfg *g,
                            const cg_tile_params *tp, cg_diags *msgs)
{
    cg_diags *td = cg_diags_create();
    cg_tile_target t;
    bool ok = cg_tile_target_from_netlist(nl, tp->memory, tp->mem_bytes, &t,
                                          td) == 0;
    if (!ok)
        cg_diags_add(msgs, CG_SEV_WARNING, cg_dfg_file(g), 0,
                     "loop '%s' is not tiled: %s", cg_dfg_name(g),
                     cg_diags_size(td) ? cg_diags_get(td, 0)->msg
                                       : "no tile memory");
    cg_diags_destroy(td);
    return ok;
}

/* Messages of a tiling that failed become warnings: the loop is mapped
 * and verified all the same (on its own DFG), only without a plan. */
static void demote(const cg_diags *td, const cg_dfg *g, cg_diags *msgs)
{
    for (int i = 0; i < cg_diags_size(td); i++) {
        const cg_diag *x = cg_diags_get(td, i);
        if (x->sev == CG_SEV_ERROR)
            cg_diags_add(msgs, CG_SEV_WARNING, x->file, x->line,
                         "loop '%s' is not tiled: %s", cg_dfg_name(g),
                         x->msg);
        else
            cg_diags_add(msgs, x->sev, x->file, x->line, "%s", x->msg);
    }
}

/* A plan of several tiles whose tile DFG cannot be made (a value leaves
 * the loop, phi nodes, a live-in that changes between executions): the
 * array cannot run it tiled, so the loop DFG is mapped on a flat memory,
 * and the message says so. */
cg_tile_dfg *cg_flow_tile_dfg(const cg_tile_plan *plan, const cg_dfg *g,
                              cg_diags *msgs)
{
    cg_diags *bd = cg_diags_create();
    cg_tile_dfg *td = bd ? cg_tile_dfg_build(plan, g, bd) : NULL;
    int64_t ntiles = cg_tile_plan_summary(plan)->ntiles;
    for (int i = 0; !td && bd && i < cg_diags_size(bd); i++) {
        const cg_diag *x = cg_diags_get(bd, i);
        cg_diags_add(msgs, CG_SEV_WARNING, x->file, x->line,
                     "loop '%s' needs %lld tiles but has no tile DFG, so its "
                     "own DFG is mapped and verified on a flat memory: %s",
                     cg_dfg_name(g), (long long)ntiles, x->msg);
    }
    cg_diags_destroy(bd);
    return td;
}

void cg_flow_tiling_plan(cg_flow_tiling *t, const cg_dfg *g,
                         const cg_netlist *nl, const cg_tile_params *tp)
{
    memset(t, 0, sizeof *t);
    t->msgs = cg_diags_create();
    const cg_nest *n = cg_dfg_nest(g);
    if (!n || n->nloops == 0 || !has_tile_memory(nl, g, tp, t->msgs))
        return;
    cg_diags *td = cg_diags_create();
    t->plan = cg_tile_plan_dfg(g, nl, tp, td);
    t->prog = t->plan ? cg_tile_program_build(t->plan, td) : NULL;
    if (!t->prog) {
        demote(td, g, t->msgs);
        cg_tile_plan_destroy(t->plan);
        t->plan = NULL;
    } else if (cg_tile_plan_summary(t->plan)->ntiles > 1) {
        t->td = cg_flow_tile_dfg(t->plan, g, t->msgs);
    }
    if (t->prog)
        demote(td, g, t->msgs); /* warnings of a good plan, if any */
    cg_diags_destroy(td);
}

void cg_flow_tiling_free(cg_flow_tiling *t)
{
    cg_tile_dfg_destroy(t->td);
    cg_tile_program_destroy(t->prog);
    cg_tile_plan_destroy(t->plan);
    cg_diags_destroy(t->msgs);
    memset(t, 0, sizeof *t);
}

/* Cycles from the first op's start to the last op's start, plus one: how
 * long one iteration occupies the pipeline.  Nodes without edges (unused
 * constants) have no timing constraint, so their start says nothing. */
static int mapping_depth(const cg_mapping *m, const cg_dfg *g)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        int ends[2] = {x->src, x->dst};
        for (int k = 0; k < 2; k++) {
            int64_t t = m->start[ends[k]];
            lo = t < lo ? t : lo;
            hi = t > hi ? t : hi;
        }
    }
    return lo <= hi ? (int)(hi - lo + 1) : 1;
}

bool cg__flow_schedule(const cg_flow_tiling *t, const cg_dfg *mapped,
                       const cg_map_result *r, cg_tile_sched *s,
                       cg_diags *d)
{
    if (!t->prog || !r->mapping)
        return false;
    int depth = mapping_depth(r->mapping, mapped);
    cg_diags *td = cg_diags_create();
    bool ok = cg_tile_schedule(t->plan, t->prog, r->ii, depth, s, td) == 0;
    cg_diags_append(d, td);
    cg_diags_destroy(td);
    return ok;
}
