/* sched.c: the double-buffered timeline of a program.
 *
 * The program's steps are walked once, in order.  Its order is already one
 * where every buffer's previous user comes first, so one pass with a
 * handful of "ready at" times suffices:
 *   - descriptors issue in program order (a descriptor never starts before
 *     the previous one), each on the channel that frees first;
 *   - an IN waits for its buffer: the compute that last used it and the
 *     OUT that last drained it;
 *   - an OUT waits for the compute of its tile;
 *   - compute k waits for compute k-1, the INs of tile k, and the OUT that
 *     last drained each buffer of a written array it uses (a written array
 *     that is not read in has no IN to wait for that).
 * Transfer times are cg_tile_desc_cycles, compute times
 * cg_tile_compute_cycles.
 */
#include "../common/util.h"
#include "tile_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef struct timeline {
    const cg_tile_plan *p;
    int ii, depth;
    int64_t chan[CG_TILE_MAX_CHANNELS]; /* when each channel frees */
    int nchan;
    int64_t last_issue;       /* start of the previous descriptor */
    int64_t (*used)[2];       /* per array and buffer: compute end */
    int64_t (*drained)[2];    /* per array and buffer: OUT end */
    int64_t *in_end;          /* per tile: end of its INs */
    int64_t compute_end, end;
    cg_tile_sched *s;
} timeline;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Issue one descriptor no earlier than `ready`; returns its end. */
static int64_t issue(timeline *tl, const cg_tile_desc *d, int64_t ready)
{
    int c = 0;
    for (int i = 1; i < tl->nchan; i++)
        if (tl->chan[i] < tl->chan[c])
            c = i;
    int64_t start = max64(max64(ready, tl->last_issue), tl->chan[c]);
    int64_t cyc = cg_tile_desc_cycles(d, &tl->p->t.dma);
    tl->last_issue = start;
    tl->chan[c] = start + cyc;
    tl->s->dma_busy_cycles += cyc;
    tl->s->ntransfers += d->repeat;
    if (d->dir == CG_TILE_IN)
        tl->s->in_bytes += cg_tile_desc_ext_bytes(d);
    else
        tl->s->out_bytes += cg_tile_desc_ext_bytes(d);
    tl->end = max64(tl->end, start + cyc);
    return start + cyc;
}

static void dma(timeline *tl, const cg_tile_program *g, const cg_tile_step *st)
{
    int a = st->array, b = st->buffer;
    int64_t ready = st->dir == CG_TILE_IN
                        ? max64(tl->used[a][b], tl->drained[a][b])
                        : tl->used[a][b];
    int64_t end = 0;
    const cg_tile_descs *l = cg_tile_program_descs(g);
    for (int k = st->first; k < st->first + st->count; k++)
        end = max64(end, issue(tl, &l->v[k], ready));
    if (st->dir == CG_TILE_IN)
        tl->in_end[st->tile] = max64(tl->in_end[st->tile], end);
    else
        tl->drained[a][b] = max64(tl->drained[a][b], end);
}

static void compute(timeline *tl, int64_t t)
{
    const cg_tile_plan *p = tl->p;
    const cg_tile_model *m = p->m;
    int64_t origin[CG_TILE_MAX_LOOPS], size[CG_TILE_MAX_LOOPS];
    cg_tile_plan_tile(p, t, origin, size);
    int64_t start = max64(tl->compute_end, tl->in_end[t]);
    for (int a = 0; a < m->narrays; a++) {
        int b = p->buf[a].streamed ? (int)(t % 2) : 0;
        if (m->arrays[a].written)
            start = max64(start, tl->drained[a][b]);
    }
    int64_t cyc = cg_tile_compute_cycles(size, m->nloops, tl->ii, tl->depth);
    tl->compute_end = start + cyc;
    tl->s->compute_cycles += cyc;
    for (int a = 0; a < m->narrays; a++)
        tl->used[a][p->buf[a].streamed ? (int)(t % 2) : 0] = tl->compute_end;
    tl->end = max64(tl->end, tl->compute_end);
}

/* The steps of g (the whole program or one part of it) in order. */
static int walk(void *ctx, const cg_tile_program *g, cg_diags *d)
{
    (void)d;
    timeline *tl = ctx;
    for (int64_t i = 0; i < cg_tile_program_nsteps(g); i++) {
        const cg_tile_step *st = cg_tile_program_step(g, i);
        if (st->kind == CG_TILE_STEP_COMPUTE)
            compute(tl, st->tile);
        else
            dma(tl, g, st);
    }
    return 0;
}

/* g NULL (cg_tile_schedule_plan): the program of p made part by part. */
int cg_tile_schedule(const cg_tile_plan *p, const cg_tile_program *g, int ii,
                     int depth, cg_tile_sched *s, cg_diags *d)
{
    const cg_tile_model *m = p->m;
    memset(s, 0, sizeof *s);
    s->ii = ii;
    s->depth = depth;
    double bw = p->t.dma.bytes_per_cycle;
    if (ii < 1 || depth < 0 || !cg_dma_bytes_per_cycle_ok(bw)) {
        cg_diags_add(d, CG_SEV_ERROR, m->file, 0,
                     "cannot schedule with II %d, depth %d and DMA bandwidth "
                     "%g bytes/cycle; II must be >= 1, depth >= 0 and the "
                     "bandwidth %g..%.0f", ii, depth, bw,
                     CG_DMA_MIN_BYTES_PER_CYCLE, CG_DMA_MAX_BYTES_PER_CYCLE);
        return -1;
    }
    timeline tl = {.p = p, .ii = ii, .depth = depth, .s = s};
    assert(p->t.dma.channels <= CG_TILE_MAX_CHANNELS); /* the plan's check */
    tl.nchan = p->t.dma.channels < 1 ? 1 : p->t.dma.channels;
    tl.used = calloc((size_t)m->narrays + 1, sizeof *tl.used);
    tl.drained = calloc((size_t)m->narrays + 1, sizeof *tl.drained);
    tl.in_end = calloc((size_t)p->s.ntiles + 1, sizeof *tl.in_end);
    int rc = 0;
    if (!tl.used || !tl.drained || !tl.in_end) {
        cg_diags_add(d, CG_SEV_ERROR, m->file, 0, "out of memory");
        rc = -1;
    }
    if (rc == 0)
        rc = g ? walk(&tl, g, d) : cg__tile_program_stream(p, walk, &tl, d);
    s->total_cycles = tl.end;
    s->stall_cycles = tl.end - s->compute_cycles;
    free(tl.used);
    free(tl.drained);
    free(tl.in_end);
    return rc;
}

int cg_tile_schedule_plan(const cg_tile_plan *p, int ii, int depth,
                          cg_tile_sched *s, cg_diags *d)
{
    return cg_tile_schedule(p, NULL, ii, depth, s, d);
}

/* ---- printing ------------------------------------------------------------- */

int cg_tile_sched_write(const cg_tile_sched *s, const cg_tile_plan *p,
                        FILE *out)
{
    const cg_tile_target *t = &p->t;
    fprintf(out, "schedule: II %d, depth %d, DMA %d channel(s) of %g "
            "bytes/cycle, %d setup cycles\n", s->ii, s->depth,
            t->dma.channels < 1 ? 1 : t->dma.channels, t->dma.bytes_per_cycle,
            t->dma.setup_cycles);
    fprintf(out, "  total %lld cycles: compute %lld, DMA stalls %lld "
            "(%.1f%%)\n", (long long)s->total_cycles,
            (long long)s->compute_cycles, (long long)s->stall_cycles,
            s->total_cycles ? 100.0 * (double)s->stall_cycles /
                                  (double)s->total_cycles : 0.0);
    fprintf(out, "  DMA busy %lld cycles over %lld transfer(s); moved %lld "
            "bytes in, %lld bytes out\n", (long long)s->dma_busy_cycles,
            (long long)s->ntransfers, (long long)s->in_bytes,
            (long long)s->out_bytes);
    return cg_write_end(out, true);
}

json_t *cg__tile_sched_json(const cg_tile_sched *s)
{
    return json_pack("{s:i, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "ii",
                     s->ii, "depth", s->depth, "total_cycles",
                     (json_int_t)s->total_cycles, "compute_cycles",
                     (json_int_t)s->compute_cycles, "stall_cycles",
                     (json_int_t)s->stall_cycles, "dma_busy_cycles",
                     (json_int_t)s->dma_busy_cycles, "transfers",
                     (json_int_t)s->ntransfers, "in_bytes",
                     (json_int_t)s->in_bytes, "out_bytes",
                     (json_int_t)s->out_bytes);
}
