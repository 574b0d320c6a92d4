/* run.c: the tiled run.  A program's DMA steps are executed by the
 * descriptor executor (desc.c) between an external-memory image and a
 * tile-memory image; at each compute step every inner-loop run of the tile
 * executes the tile DFG on the tile memory, either by the reference
 * interpreter (cg_dfg_run) or by the cycle-accurate simulator of its mapped
 * configuration (cg_sim_run).  The proof (tests/tiling/test_tiled_run.c)
 * compares the external image afterwards with the kernel's native run.
 * An observer (cg_tile_run_params.on_run) sees each run of the first
 * compute steps with the tile memory before and after it: the RTL
 * co-simulation of the first tile (flow/tiled.c).
 */
#include "tile_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../verify/verify.h"

int cg_tile_program_run(const cg_tile_program *g, cg_mem *ext, cg_mem *tile,
                        cg_tile_compute_fn compute, void *ctx, cg_diags *d)
{
    const cg_tile_descs *descs = cg_tile_program_descs(g);
    for (int64_t i = 0; i < cg_tile_program_nsteps(g); i++) {
        const cg_tile_step *s = cg_tile_program_step(g, i);
        if (s->kind == CG_TILE_STEP_COMPUTE) {
            if (compute && compute(ctx, s->tile, tile, d) < 0)
                return -1;
            continue;
        }
        for (int k = s->first; k < s->first + s->count; k++)
            if (cg_tile_desc_exec(&descs->v[k], ext, tile, d) < 0)
                return -1;
    }
    return 0;
}

void cg_tile_run_params_init(cg_tile_run_params *rp)
{
    memset(rp, 0, sizeof *rp);
}

typedef struct runner {
    const cg_tile_dfg *t;
    const cg_tile_plan *p;
    const cg_tile_run_params *rp;
    cg_tile_run_stats *st;
    uint64_t *inputs;        /* by tile DFG node id */
    uint64_t *outputs;       /* ... for an observer (rp->on_run) */
    cg_mem before;           /* the tile memory before a watched run */
    int64_t step_runs;       /* runs of the current compute step so far */
} runner;

/* The tile DFG on mem for iters iterations: simulated or interpreted. */
static int run_dfg(runner *r, int64_t iters, cg_mem *mem, uint64_t *outs,
                   cg_diags *d)
{
    const cg_dfg *g = cg_tile_dfg_graph(r->t);
    const cg_tile_run_params *rp = r->rp;
    if (rp->mapping)
        return cg_sim_run(rp->nl, rp->mrrg, g, rp->mapping, iters, mem,
                          r->inputs, outs, d);
    return cg_dfg_run(g, iters, mem, r->inputs, outs, d);
}

/* One inner-loop run: iterations k[L-1] .. k[L-1]+iters-1 at outer
 * iterations k[0..L-2]; shown to the observer when its step is watched. */
static int run_once(runner *r, int64_t tile, const int64_t *k, int64_t iters,
                    cg_mem *mem, cg_diags *d)
{
    const cg_tile_run_params *rp = r->rp;
    if (cg_tile_dfg_inputs(r->t, tile, k, rp->invariant, r->inputs, d) < 0)
        return -1;
    r->st->runs++;
    r->st->iters += iters;
    int64_t step = r->st->tiles - 1, run = r->step_runs++;
    if (!rp->on_run || step >= rp->watch_steps)
        return run_dfg(r, iters, mem, NULL, d);
    if (!r->before.data) {
        r->before = (cg_mem){malloc(mem->size ? mem->size : 1), mem->base,
                             mem->size};
        r->outputs = calloc((size_t)cg_dfg_nnodes(cg_tile_dfg_graph(r->t)) +
                            1, sizeof *r->outputs);
        if (!r->before.data || !r->outputs) {
            cg_diags_add(d, CG_SEV_ERROR, r->p->m->file, 0, "out of memory");
            return -1;
        }
    }
    memcpy(r->before.data, mem->data, mem->size);
    if (run_dfg(r, iters, mem, r->outputs, d) < 0)
        return -1;
    cg_tile_run_view v = {step, tile, run, iters, &r->before, mem, r->inputs,
                          r->outputs};
    rp->on_run(rp->on_run_arg, &v);
    return 0;
}

/* Every inner-loop run of tile `tile`, outer loops in nest order. */
static int compute_tile(void *ctx, int64_t tile, cg_mem *mem, cg_diags *d)
{
    runner *r = ctx;
    int L = r->p->m->nloops;
    int64_t origin[CG_TILE_MAX_LOOPS], size[CG_TILE_MAX_LOOPS];
    int64_t k[CG_TILE_MAX_LOOPS];
    cg_tile_plan_tile(r->p, tile, origin, size);
    memcpy(k, origin, sizeof k);
    r->st->tiles++;
    r->step_runs = 0;
    for (;;) {
        if (run_once(r, tile, k, size[L - 1], mem, d) < 0)
            return -1;
        int l = L - 2;
        while (l >= 0 && ++k[l] == origin[l] + size[l]) {
            k[l] = origin[l];
            l--;
        }
        if (l < 0)
            return 0;
    }
}

int cg_tile_run(const cg_tile_program *g, const cg_tile_dfg *t,
                const cg_tile_run_params *rp, cg_mem *ext,
                cg_tile_run_stats *st, cg_diags *d)
{
    const cg_tile_plan *p = cg_tile_dfg_plan(t);
    cg_tile_run_stats local;
    st = st ? st : &local;
    memset(st, 0, sizeof *st);
    cg_mem tile = {calloc((size_t)p->t.mem_bytes + 1, 1), 0,
                   (uint64_t)p->t.mem_bytes};
    runner r = {t, p, rp, st,
                calloc((size_t)cg_dfg_nnodes(cg_tile_dfg_graph(t)) + 1,
                       sizeof(uint64_t)), NULL, {0}, 0};
    int rc = -1;
    if (!tile.data || !r.inputs)
        cg_diags_add(d, CG_SEV_ERROR, p->m->file, 0, "out of memory");
    else
        rc = cg_tile_program_run(g, ext, &tile, compute_tile, &r, d);
    for (int64_t i = 0; i < cg_tile_program_nsteps(g); i++)
        if (cg_tile_program_step(g, i)->kind == CG_TILE_STEP_DMA) {
            st->dma_steps++;
            st->descs += cg_tile_program_step(g, i)->count;
        }
    free(tile.data);
    free(r.inputs);
    free(r.outputs);
    free(r.before.data);
    return rc;
}
