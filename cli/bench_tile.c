/* bench_tile.c: the tiling columns of a main-job record.  A loop extracted
 * from C carries its nest (dfg.h); the nest is planned on the
 * architecture's tile memory (one whole tile when its data fits; the
 * tagged loop kept whole when it carries a value), its
 * transfers built and lowered to the DMA engine, and the double-buffered
 * timeline scheduled with the II and pipeline depth of the loop's mapping.
 */
#include "cli/bench.h"

#include "tiling/tile.h"

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

/* An architecture without a tile memory is not an error of the loop: its
 * row says why it was not tiled. */
static bool has_tile_memory(const cg_netlist *nl, const cg_dfg *g,
                            cg_diags *d)
{
    cg_diags *td = cg_diags_create();
    cg_tile_target t;
    bool ok = cg_tile_target_from_netlist(nl, NULL, 0, &t, td) == 0;
    if (!ok)
        cg_diags_add(d, CG_SEV_WARNING, cg_dfg_file(g), 0,
                     "loop '%s' is not tiled: %s", cg_dfg_name(g),
                     cg_diags_size(td) ? cg_diags_get(td, 0)->msg
                                       : "no tile memory");
    cg_diags_destroy(td);
    return ok;
}

static void put_plan(json_t *cols, const cg_tile_plan *p,
                     const cg_tile_sched *s)
{
    const cg_tile_summary *u = cg_tile_plan_summary(p);
    json_object_set_new(cols, "tiles", json_integer(u->ntiles));
    json_object_set_new(cols, "dma_bytes", json_integer(u->traffic));
    json_object_set_new(cols, "dma_bound", json_real(u->bound));
    json_object_set_new(cols, "dma_ratio", json_real(u->ratio));
    json_object_set_new(cols, "bound_kind",
                        json_string(cg_tile_bound_name(u->bound_kind)));
    json_object_set_new(cols, "mem_use", json_real(u->mem_use));
    json_object_set_new(cols, "cycles", json_integer(s->total_cycles));
    json_object_set_new(cols, "stalls", json_integer(s->stall_cycles));
}

/* Messages of a plan that failed become warnings: the loop mapped and
 * verified all the same; its row only lacks the tiling columns. */
static void demote(const cg_diags *td, const cg_dfg *g, cg_diags *d)
{
    for (int i = 0; i < cg_diags_size(td); i++) {
        const cg_diag *x = cg_diags_get(td, i);
        if (x->sev == CG_SEV_ERROR)
            cg_diags_add(d, CG_SEV_WARNING, x->file, x->line,
                         "loop '%s' is not tiled: %s", cg_dfg_name(g),
                         x->msg);
        else
            cg_diags_add(d, x->sev, x->file, x->line, "%s", x->msg);
    }
}

void cg_cli_loop_tile(json_t *cols, const cg_dfg *g, const cg_map_result *r,
                      const cg_netlist *nl, cg_diags *d)
{
    const cg_nest *n = cg_dfg_nest(g);
    if (!n || n->nloops == 0 || !r->mapping || !has_tile_memory(nl, g, d))
        return;
    cg_tile_params p;
    cg_tile_params_init(&p);
    p.ii = r->ii;
    p.depth = mapping_depth(r->mapping, g);
    cg_diags *td = cg_diags_create();
    cg_tile_plan *plan = cg_tile_plan_dfg(g, nl, &p, td);
    cg_tile_program *prog = plan ? cg_tile_program_build(plan, td) : NULL;
    cg_tile_sched s;
    if (prog && cg_tile_schedule(plan, prog, p.ii, p.depth, &s, td) == 0)
        put_plan(cols, plan, &s);
    demote(td, g, d);
    cg_diags_destroy(td);
    cg_tile_program_destroy(prog);
    cg_tile_plan_destroy(plan);
}
