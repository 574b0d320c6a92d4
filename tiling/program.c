/* program.c: the plan as a program, every transfer of every tile as DMA
 * descriptors lowered to the target's limits, interleaved with the compute
 * steps in an order a sequential machine may run with the same result as
 * the double-buffered timeline:
 *
 *   in(0); for each tile k: in of streamed arrays for k+1, compute k,
 *   out of streamed arrays of k, resident swaps (a resident array whose box
 *   changes after k is written out if written, then the next box loaded).
 *
 * Buffer layout: an array's box sits row-major in its buffer from box.lo,
 * with the buffer's extents as pitches; the two buffers of a streamed array
 * alternate by tile (tile t uses buffer t % 2).  Only arrays the model marks
 * `load` are brought in: a written array covered whole by its stores is
 * only written out.
 */
#include "tile_internal.h"

#include <stdlib.h>
#include <string.h>

struct cg_tile_program {
    const cg_tile_plan *p;   /* borrowed */
    cg_tile_step *steps;
    int64_t nsteps, cap;
    cg_tile_descs descs;
};

/* ---- layout ------------------------------------------------------------- */

static bool touched(const cg_tile_model *m, int a)
{
    return m->arrays[a].read || m->arrays[a].written;
}

int cg_tile_plan_layout(const cg_tile_plan *p, int a, int64_t t,
                        cg_tile_box *box, int64_t *addr, int64_t *pitch)
{
    const cg_tile_model *m = p->m;
    const cg_tile_array_info *ai = &m->arrays[a];
    const cg_tile_buffer *b = &p->buf[a];
    if (!touched(m, a))
        return -1;
    int64_t origin[CG_TILE_MAX_LOOPS], size[CG_TILE_MAX_LOOPS];
    cg_tile_plan_tile(p, t, origin, size);
    cg_tile_footprint(m, a, origin, size, box);
    for (int d = 0; d < ai->ndims; d++)
        if (!ai->exact[d]) { /* the buffer spans the nest's extent here */
            box->lo[d] = m->full[a].lo[d];
            box->size[d] = m->full[a].size[d];
        }
    int D = ai->ndims;
    pitch[D - 1] = ai->elem_size;
    for (int d = D - 2; d >= 0; d--)
        pitch[d] = pitch[d + 1] * b->extent[d + 1];
    int k = b->streamed ? (int)(t % 2) : 0;
    *addr = b->addr[k];
    return k;
}

static int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void cg_tile_box_desc(const cg_tile_plan *p, int a, const cg_tile_box *box,
                      int buffer, cg_tile_dir dir, int64_t tile,
                      cg_tile_desc *o)
{
    const cg_tile_array_info *ai = &p->m->arrays[a];
    const cg_tile_buffer *b = &p->buf[a];
    int D = box->ndims;
    int64_t astride = ai->elem_size, pitch = ai->elem_size;
    memset(o, 0, sizeof *o);
    o->dir = dir;
    o->array = a;
    o->tile = tile;
    o->elem_size = ai->elem_size;
    o->ndims = D;
    o->ext_base = ai->base;
    o->tile_base = b->addr[buffer];
    o->repeat = 1;
    /* descriptor dimension 0 is the array's innermost */
    for (int d = D - 1, k = 0; d >= 0; d--, k++) {
        int64_t lo = box->lo[d], n = box->size[d];
        o->size[k] = n;
        o->pad_lo[k] = clamp(-lo, 0, n);
        o->pad_hi[k] = clamp(lo + n - ai->vdims[d], 0, n - o->pad_lo[k]);
        o->ext_stride[k] = astride * ai->step[d];
        o->ext_offset += (ai->first[d] + lo * ai->step[d]) * astride;
        o->tile_stride[k] = pitch;
        astride *= ai->dims[d];
        pitch *= b->extent[d];
    }
}

/* ---- building ----------------------------------------------------------- */

static int push_step(cg_tile_program *g, const cg_tile_step *s)
{
    if (g->nsteps == g->cap) {
        int64_t cap = g->cap ? 2 * g->cap : 64;
        cg_tile_step *v = realloc(g->steps, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        g->steps = v;
        g->cap = cap;
    }
    g->steps[g->nsteps++] = *s;
    return 0;
}

/* One transfer of array a's box for tile t, lowered; a step moving
 * nothing (an OUT that is all padding) is left out. */
static int dma_step(cg_tile_program *g, int a, int64_t t, cg_tile_dir dir,
                    cg_diags *d)
{
    const cg_tile_plan *p = g->p;
    cg_tile_box box;
    int64_t addr, pitch[CG_TILE_MAX_DIMS];
    int k = cg_tile_plan_layout(p, a, t, &box, &addr, pitch);
    cg_tile_desc desc;
    cg_tile_box_desc(p, a, &box, k, dir, t, &desc);
    int first = g->descs.n;
    if (cg_tile_desc_lower(&desc, &p->t.dma, &g->descs, d) < 0)
        return -1;
    if (g->descs.n == first)
        return 0;
    cg_tile_step s = {CG_TILE_STEP_DMA, t, a, dir, k, first,
                      g->descs.n - first};
    return push_step(g, &s);
}

/* Tile index of tile t along every loop in `key`, packed for comparison:
 * two tiles share a resident box when these agree. */
static bool same_key(const cg_tile_plan *p, uint32_t key, int64_t t,
                     int64_t u)
{
    int64_t ot[CG_TILE_MAX_LOOPS], ou[CG_TILE_MAX_LOOPS];
    int64_t st[CG_TILE_MAX_LOOPS], su[CG_TILE_MAX_LOOPS];
    cg_tile_plan_tile(p, t, ot, st);
    cg_tile_plan_tile(p, u, ou, su);
    for (int l = 0; l < p->s.nloops; l++)
        if (((key >> l) & 1) && ot[l] != ou[l])
            return false;
    return true;
}

static int tile_steps(cg_tile_program *g, int64_t k, cg_diags *d)
{
    const cg_tile_plan *p = g->p;
    const cg_tile_model *m = p->m;
    int64_t nt = p->s.ntiles;
    int rc = 0;
    for (int a = 0; a < m->narrays && rc == 0; a++)
        if (touched(m, a) && p->buf[a].streamed && m->arrays[a].load &&
            k + 1 < nt)
            rc = dma_step(g, a, k + 1, CG_TILE_IN, d);
    cg_tile_step c = {.kind = CG_TILE_STEP_COMPUTE, .tile = k, .array = -1};
    if (rc == 0)
        rc = push_step(g, &c);
    for (int a = 0; a < m->narrays && rc == 0; a++)
        if (touched(m, a) && p->buf[a].streamed && m->arrays[a].written)
            rc = dma_step(g, a, k, CG_TILE_OUT, d);
    for (int a = 0; a < m->narrays && rc == 0; a++) {
        if (!touched(m, a) || p->buf[a].streamed ||
            (k + 1 < nt && same_key(p, p->key[a], k, k + 1)))
            continue;
        if (m->arrays[a].written)
            rc = dma_step(g, a, k, CG_TILE_OUT, d);
        if (rc == 0 && k + 1 < nt && m->arrays[a].load)
            rc = dma_step(g, a, k + 1, CG_TILE_IN, d);
    }
    return rc;
}

/* The steps in order: the first INs, then tile by tile.  With flush set,
 * the steps and descriptors made so far are handed to flush(ctx, g) after
 * the first INs and after each tile, then dropped (descriptor indices of
 * the steps are within that part): memory per tile, not per program.  0,
 * or -1 with an error. */
static int generate(cg_tile_program *g, cg__tile_chunk_fn flush, void *ctx,
                    cg_diags *d)
{
    const cg_tile_plan *p = g->p;
    const cg_tile_model *m = p->m;
    int rc = 0;
    for (int a = 0; a < m->narrays && rc == 0; a++)
        if (touched(m, a) && m->arrays[a].load)
            rc = dma_step(g, a, 0, CG_TILE_IN, d);
    for (int64_t k = -1; k < p->s.ntiles && rc == 0; k++) {
        if (k >= 0)
            rc = tile_steps(g, k, d);
        if (rc == 0 && flush) {
            rc = flush(ctx, g, d);
            g->nsteps = 0;
            g->descs.n = 0;
        }
    }
    if (rc < 0 && !cg_diags_errors(d))
        cg_diags_add(d, CG_SEV_ERROR, m->file, 0, "out of memory");
    return rc;
}

cg_tile_program *cg_tile_program_build(const cg_tile_plan *p, cg_diags *d)
{
    cg_tile_program *g = calloc(1, sizeof *g);
    if (!g) {
        cg_diags_add(d, CG_SEV_ERROR, p->m->file, 0, "out of memory");
        return NULL;
    }
    g->p = p;
    if (generate(g, NULL, NULL, d) < 0) {
        cg_tile_program_destroy(g);
        return NULL;
    }
    return g;
}

int cg__tile_program_stream(const cg_tile_plan *p, cg__tile_chunk_fn flush,
                            void *ctx, cg_diags *d)
{
    cg_tile_program g = {.p = p};
    int rc = generate(&g, flush, ctx, d);
    free(g.steps);
    cg_tile_descs_free(&g.descs);
    return rc;
}

void cg_tile_program_destroy(cg_tile_program *g)
{
    if (!g)
        return;
    free(g->steps);
    cg_tile_descs_free(&g->descs);
    free(g);
}

int64_t cg_tile_program_nsteps(const cg_tile_program *g) { return g->nsteps; }

const cg_tile_step *cg_tile_program_step(const cg_tile_program *g, int64_t i)
{
    return &g->steps[i];
}

const cg_tile_descs *cg_tile_program_descs(const cg_tile_program *g)
{
    return &g->descs;
}

json_t *cg__tile_program_json(const cg_tile_program *g, const cg_tile_plan *p)
{
    json_t *arr = json_array();
    bool ok = true;
    for (int i = 0; i < g->descs.n && ok; i++)
        cg__json_push(arr, cg__tile_desc_json(&g->descs.v[i], p->m), &ok);
    return cg__json_done(arr, ok);
}
