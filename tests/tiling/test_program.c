/* Tests for tiling/program.c: the step order, descriptors per transfer,
 * bytes moved against the plan's traffic, padding outside an array, and a
 * sequential run of the program (descriptors executed on an external image,
 * a C-coded kernel on the tile image) that must leave the external image
 * byte-identical to the untiled kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "dfg/dfg.h"
#include "tests/tiling/nests.h"
#include "tests/tiling/tile_test_util.h"
#include "tiling/tile.h"
#include "tiling/tile_internal.h"

static cg_tile_program *build(const planned *p)
{
    cg_diags *d = cg_diags_create();
    cg_tile_program *g = cg_tile_program_build(p->plan, d);
    if (cg_diags_errors(d))
        cg_diags_print(d, stderr);
    assert_int_equal(cg_diags_errors(d), 0);
    assert_non_null(g);
    cg_diags_destroy(d);
    return g;
}

/* ---- the bytes of a program ---------------------------------------------- */

/* Every descriptor fits the DMA; bytes per array and direction match the
 * plan's buffers, transfers per array match its loads, the total the
 * plan's traffic. */
static void check_bytes(const planned *p, const cg_tile_program *g)
{
    const cg_tile_model *m = p->model;
    const cg_tile_target *t = cg_tile_plan_target(p->plan);
    int64_t in[8] = {0}, out[8] = {0}, nin[8] = {0}, nout[8] = {0}, total = 0;
    for (int64_t i = 0; i < cg_tile_program_nsteps(g); i++) {
        const cg_tile_step *s = cg_tile_program_step(g, i);
        if (s->kind != CG_TILE_STEP_DMA)
            continue;
        int64_t bytes = 0;
        for (int k = s->first; k < s->first + s->count; k++) {
            const cg_tile_desc *d = &cg_tile_program_descs(g)->v[k];
            assert_true(cg_tile_desc_fits(d, &t->dma));
            assert_int_equal(d->array, s->array);
            assert_int_equal(d->dir, s->dir);
            assert_int_equal(d->tile, s->tile);
            bytes += cg_tile_desc_ext_bytes(d);
        }
        (s->dir == CG_TILE_IN ? in : out)[s->array] += bytes;
        (s->dir == CG_TILE_IN ? nin : nout)[s->array]++;
        total += bytes;
    }
    for (int a = 0; a < cg_tile_model_narrays(m); a++) {
        const cg_tile_buffer *b = cg_tile_plan_buffer(p->plan, a);
        const cg_tile_array_info *ai = cg_tile_model_array(m, a);
        assert_int_equal(in[a], b->in_bytes);
        assert_int_equal(out[a], b->out_bytes);
        assert_int_equal(nin[a], ai->load ? b->loads : 0);
        assert_int_equal(nout[a], ai->written ? b->loads : 0);
    }
    assert_int_equal(total, cg_tile_plan_summary(p->plan)->traffic);
}

/* ---- a sequential run ------------------------------------------------------ */

/* A kernel: the stored value from the loaded ones, in access order. */
typedef uint32_t (*combine_fn)(const uint32_t *v, int n);

typedef struct run_ctx {
    const planned *p;
    combine_fn f;
    cg_mem *ext;     /* NULL: the tiled run (use the tile image) */
} run_ctx;

/* Byte address of view index idx of array a: in the external image
 * (untiled: array index first + step * idx) or in the tile image through
 * tile t's layout. */
static int64_t elem_addr(const run_ctx *c, int a, int64_t t,
                         const int64_t *idx)
{
    const cg_tile_array_info *ai = cg_tile_model_array(c->p->model, a);
    int64_t addr = 0;
    if (c->ext) {
        int64_t stride = ai->elem_size;
        addr = ai->base;
        for (int d = ai->ndims - 1; d >= 0; d--) {
            addr += (ai->first[d] + ai->step[d] * idx[d]) * stride;
            stride *= ai->dims[d];
        }
        return addr;
    }
    cg_tile_box box;
    int64_t pitch[CG_TILE_MAX_DIMS];
    assert_true(cg_tile_plan_layout(c->p->plan, a, t, &box, &addr, pitch) >=
                0);
    for (int d = 0; d < ai->ndims; d++) {
        assert_true(idx[d] >= box.lo[d] && idx[d] < box.lo[d] + box.size[d]);
        addr += (idx[d] - box.lo[d]) * pitch[d];
    }
    return addr;
}

static uint32_t *at(const run_ctx *c, cg_mem *mem, int64_t t, int acc,
                    const int64_t *k)
{
    const cg_tile_access_info *x = cg_tile_model_access(c->p->model, acc);
    const cg_tile_array_info *ai = cg_tile_model_array(c->p->model, x->array);
    int64_t idx[CG_TILE_MAX_DIMS];
    for (int d = 0; d < ai->ndims; d++) {
        idx[d] = x->cst[d];
        for (int l = 0; l < cg_tile_model_nloops(c->p->model); l++)
            idx[d] += x->coef[d][l] * k[l];
    }
    int64_t a = elem_addr(c, x->array, t, idx);
    assert_true(a >= (int64_t)mem->base &&
                a + 4 <= (int64_t)(mem->base + mem->size));
    return (uint32_t *)(mem->data + (a - (int64_t)mem->base));
}

/* Iterations origin..origin+size-1 in nest order (loop 0 outermost). */
static void iterate(const run_ctx *c, cg_mem *mem, int64_t t,
                    const int64_t *origin, const int64_t *size)
{
    const cg_tile_model *m = c->p->model;
    int L = cg_tile_model_nloops(m), n = cg_tile_model_naccesses(m);
    int64_t k[CG_TILE_MAX_LOOPS];
    for (int l = 0; l < L; l++)
        k[l] = origin[l];
    for (;;) {
        uint32_t v[32];
        int nv = 0, st = -1;
        for (int i = 0; i < n; i++)
            if (cg_tile_model_access(m, i)->is_store)
                st = i;
            else
                v[nv++] = *at(c, mem, t, i, k);
        *at(c, mem, t, st, k) = c->f(v, nv);
        int l = L - 1;
        while (l >= 0 && ++k[l] == origin[l] + size[l]) {
            k[l] = origin[l];
            l--;
        }
        if (l < 0)
            return;
    }
}

static int compute_tile(void *ctx, int64_t t, cg_mem *tile, cg_diags *d)
{
    (void)d;
    const run_ctx *c = ctx;
    int64_t origin[CG_TILE_MAX_LOOPS], size[CG_TILE_MAX_LOOPS];
    cg_tile_plan_tile(c->p->plan, t, origin, size);
    iterate(c, tile, t, origin, size);
    return 0;
}

/* The program's steps, one after the other. */
static void run_program(const cg_tile_program *g, cg_mem *ext, cg_mem *tile,
                        run_ctx *c)
{
    cg_diags *d = cg_diags_create();
    const cg_tile_descs *l = cg_tile_program_descs(g);
    for (int64_t i = 0; i < cg_tile_program_nsteps(g); i++) {
        const cg_tile_step *s = cg_tile_program_step(g, i);
        if (s->kind == CG_TILE_STEP_COMPUTE) {
            compute_tile(c, s->tile, tile, d);
            continue;
        }
        for (int k = s->first; k < s->first + s->count; k++)
            assert_int_equal(cg_tile_desc_exec(&l->v[k], ext, tile, d), 0);
    }
    if (cg_diags_errors(d))
        cg_diags_print(d, stderr);
    assert_int_equal(cg_diags_errors(d), 0);
    cg_diags_destroy(d);
}

/* Tiled run vs untiled run on the same random image: byte-identical. */
static void check_run(const nestb *b, const planned *p,
                      const cg_tile_program *g, combine_fn f)
{
    uint64_t size = (uint64_t)b->next_base - 0x1000;
    uint8_t *want = malloc(size), *got = malloc(size);
    int64_t tbytes = cg_tile_plan_target(p->plan)->mem_bytes;
    uint8_t *tmem = calloc(1, (size_t)tbytes);
    srand(42);
    for (uint64_t i = 0; i < size; i++)
        want[i] = got[i] = (uint8_t)rand();
    cg_mem ew = {want, 0x1000, size}, eg = {got, 0x1000, size};
    cg_mem tm = {tmem, 0, (uint64_t)tbytes};
    run_ctx ref = {p, f, &ew};
    int64_t zero[CG_TILE_MAX_LOOPS] = {0}, trip[CG_TILE_MAX_LOOPS];
    for (int l = 0; l < cg_tile_model_nloops(p->model); l++)
        trip[l] = cg_tile_model_trip(p->model, l);
    iterate(&ref, &ew, 0, zero, trip);
    run_ctx tiled = {p, f, NULL};
    run_program(g, &eg, &tm, &tiled);
    assert_memory_equal(got, want, size);
    free(want);
    free(got);
    free(tmem);
}

/* The program's bytes against the plan and its run against the untiled
 * one, then both freed. */
static void prove_and_free(const nestb *b, planned *p, cg_tile_program *g,
                           combine_fn f)
{
    check_bytes(p, g);
    check_run(b, p, g, f);
    cg_tile_program_destroy(g);
    planned_free(p);
}

static uint32_t sum_all(const uint32_t *v, int n)
{
    uint32_t s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

/* C + A*B with the loads in access order C, A, B */
static uint32_t mac(const uint32_t *v, int n)
{
    (void)n;
    return v[0] + v[1] * v[2];
}

static uint32_t scale(const uint32_t *v, int n)
{
    (void)n;
    return v[0] * 3u + 1u;
}

/* for i < m, j < n: B[2i+1][j] += A[i][3j]: A's columns and B's rows
 * strided (views of step 3 and 2), B read and written there; the holes
 * keep their random bytes in both runs. */
static void nest_strided2d(nestb *b, int64_t m, int64_t n)
{
    nb_init(b);
    int i = nb_loop(b, "i", m), j = nb_loop(b, "j", n);
    int A = nb_array(b, "A", 4, 2, m, 3 * n + 1);
    int B = nb_array(b, "B", 4, 2, 2 * m + 1, n);
    int64_t ca[2] = {0, 0}, ka[2] = {1, 3}, cb[2] = {1, 0}, kb[2] = {2, 1};
    int loop[2] = {i, j};
    nb_access(b, 0, false, A, ca, loop, ka);
    nb_access(b, 1, false, B, cb, loop, kb);
    nb_access(b, 2, true, B, cb, loop, kb);
}

/* for i < n: y[i] += x[2n - 1 - 2i]: a strided view walked backwards
 * (coefficient -2, first element 1). */
static void nest_strided_back(nestb *b, int64_t n)
{
    nb_init(b);
    int i = nb_loop(b, "i", n);
    int x = nb_array(b, "x", 4, 1, 2 * n), y = nb_array(b, "y", 4, 1, n);
    int64_t cx[1] = {2 * n - 1}, kx[1] = {-2};
    int loop[1] = {i};
    nb_access(b, 0, false, x, cx, loop, kx);
    nb_acc1(b, 1, false, y, i, 0);
    nb_acc1(b, 2, true, y, i, 0);
}

/* ---- tests ------------------------------------------------------------------ */

static void vadd_step_order(void **state)
{
    (void)state;
    nestb b;
    nest_vadd(&b, 1000);
    cg_tile_target t;
    test_target(&t, 1200); /* 6 buffers of 50 elements */
    planned p = plan(&b, &t);
    const cg_tile_summary *s = cg_tile_plan_summary(p.plan);
    assert_int_equal(s->size[0], 50);
    assert_int_equal(s->ntiles, 20);
    cg_tile_program *g = build(&p);
    /* in a0 b0; per k: in a,b of k+1 (not after the last), compute, out c */
    assert_int_equal(cg_tile_program_nsteps(g), 2 + 19 * 2 + 20 * 2);
    int64_t i = 0;
    for (int a = 0; a < 2; a++) {
        const cg_tile_step *st = cg_tile_program_step(g, i++);
        assert_int_equal(st->kind, CG_TILE_STEP_DMA);
        assert_int_equal(st->dir, CG_TILE_IN);
        assert_int_equal(st->array, a);
        assert_int_equal(st->tile, 0);
        assert_int_equal(st->buffer, 0);
    }
    for (int64_t k = 0; k < 20; k++) {
        for (int a = 0; a < 2 && k + 1 < 20; a++) {
            const cg_tile_step *st = cg_tile_program_step(g, i++);
            assert_int_equal(st->kind, CG_TILE_STEP_DMA);
            assert_int_equal(st->dir, CG_TILE_IN);
            assert_int_equal(st->array, a);
            assert_int_equal(st->tile, k + 1);
            assert_int_equal(st->buffer, (k + 1) % 2);
            assert_int_equal(st->count, 1);
        }
        const cg_tile_step *st = cg_tile_program_step(g, i++);
        assert_int_equal(st->kind, CG_TILE_STEP_COMPUTE);
        assert_int_equal(st->tile, k);
        st = cg_tile_program_step(g, i++);
        assert_int_equal(st->dir, CG_TILE_OUT);
        assert_int_equal(st->array, 2);
        assert_int_equal(st->tile, k);
        assert_int_equal(st->buffer, k % 2);
    }
    /* one contiguous descriptor per transfer */
    assert_int_equal(cg_tile_program_descs(g)->n, 2 * 20 + 20);
    const cg_tile_desc *d = &cg_tile_program_descs(g)->v[2]; /* a, tile 1 */
    assert_int_equal(d->ndims, 1);
    assert_int_equal(d->size[0], 50);
    assert_int_equal(d->ext_base + d->ext_offset, 0x1000 + 50 * 4);
    assert_int_equal(d->tile_base + d->tile_offset,
                     cg_tile_plan_buffer(p.plan, 0)->addr[1]);
    prove_and_free(&b, &p, g, sum_all);
}

/* gemm with an uneven size: resident C swapped (out, then in) whenever its
 * box changes; streamed A and B. */
static void gemm_resident_swaps_and_run(void **state)
{
    (void)state;
    nestb b;
    nest_gemm(&b, 13, 11, 9);
    cg_tile_target t;
    test_target(&t, 512);
    planned p = plan(&b, &t);
    const cg_tile_summary *s = cg_tile_plan_summary(p.plan);
    assert_true(s->ntiles > 1);
    cg_tile_program *g = build(&p);
    /* every resident swap is an OUT of tile k directly followed by the IN
       of tile k+1 of the same array and buffer */
    int swaps = 0;
    for (int64_t i = 0; i < cg_tile_program_nsteps(g); i++) {
        const cg_tile_step *st = cg_tile_program_step(g, i);
        int a = st->array;
        if (st->kind != CG_TILE_STEP_DMA || st->dir != CG_TILE_OUT ||
            cg_tile_plan_buffer(p.plan, a)->streamed ||
            i + 1 == cg_tile_program_nsteps(g))
            continue;
        const cg_tile_step *nx = cg_tile_program_step(g, i + 1);
        if (nx->kind == CG_TILE_STEP_DMA && nx->array == a) {
            assert_int_equal(nx->dir, CG_TILE_IN);
            assert_int_equal(nx->tile, st->tile + 1);
            assert_int_equal(nx->buffer, st->buffer);
            swaps++;
        }
    }
    int resident_written = 0;
    for (int a = 0; a < 3; a++)
        if (!cg_tile_plan_buffer(p.plan, a)->streamed &&
            cg_tile_model_array(p.model, a)->written)
            resident_written += (int)cg_tile_plan_buffer(p.plan, a)->loads -
                                1;
    assert_int_equal(swaps, resident_written);
    /* the last step writes the last tile out */
    const cg_tile_step *last =
        cg_tile_program_step(g, cg_tile_program_nsteps(g) - 1);
    assert_int_equal(last->dir, CG_TILE_OUT);
    assert_int_equal(last->tile, s->ntiles - 1);
    prove_and_free(&b, &p, g, mac);
}

static void gemm_order_variants_run(void **state)
{
    (void)state;
    int64_t mems[] = {256, 700, 2048};
    for (int i = 0; i < 3; i++) {
        nestb b;
        nest_gemm(&b, 10, 7, 12);
        cg_tile_target t;
        test_target(&t, mems[i]);
        planned p = plan(&b, &t);
        cg_tile_program *g = build(&p);
        prove_and_free(&b, &p, g, mac);
    }
}

/* Many plans (every kernel, memory sizes from tight to whole, buffers kept
 * in one bank or not, orders searched or fixed): bytes and results hold. */
static void many_plans_run(void **state)
{
    (void)state;
    int streamed = 0, resident = 0;
    for (int k = 0; k < 7; k++)
        for (int64_t mem = 160; mem <= 3000; mem = mem * 3 / 2) {
            nestb b;
            combine_fn f = sum_all;
            switch (k) {
            case 0: nest_gemm(&b, 9, 11, 7); f = mac; break;
            case 1: nest_gemv(&b, 13, 17); f = mac; break;
            case 2: nest_jacobi(&b, 12); break;
            case 3: nest_conv(&b, 9); break;
            case 4: nest_strided2d(&b, 7, 10); break;
            case 5: nest_strided_back(&b, 40); break;
            default: nest_inplace(&b, 9, 14); f = scale; break;
            }
            for (int split = 0; split < 2; split++) {
                cg_tile_target t;
                test_target(&t, mem);
                t.any_bank = !split;
                cg_diags *d = cg_diags_create();
                cg_tile_model *m = cg_tile_model_build(&b.n, "k.c", d);
                cg_tile_params prm;
                cg_tile_params_init(&prm);
                prm.search_orders = !split;
                planned p = {m, cg_tile_plan_model(m, &t, &prm, d)};
                cg_diags_destroy(d);
                if (!p.plan) { /* too small for this kernel */
                    planned_free(&p);
                    continue;
                }
                for (int a = 0; a < cg_tile_model_narrays(m); a++) {
                    const cg_tile_buffer *bf = cg_tile_plan_buffer(p.plan, a);
                    streamed += bf->streamed;
                    resident += !bf->streamed && bf->loads > 1;
                }
                cg_tile_program *g = build(&p);
                prove_and_free(&b, &p, g, f);
            }
        }
    assert_true(streamed > 0 && resident > 0); /* both kinds were run */
}

/* The strided 2-D nest: descriptors move only view elements (external
 * strides 3 elements in A's rows, 2 rows in B), traffic is compulsory, and
 * the tiled run is byte-identical to the untiled one. */
static void strided_views_run(void **state)
{
    (void)state;
    nestb b;
    nest_strided2d(&b, 20, 30);
    cg_tile_target t;
    test_target(&t, 1024);
    planned p = plan(&b, &t);
    const cg_tile_summary *s = cg_tile_plan_summary(p.plan);
    assert_true(s->ntiles > 1);
    assert_int_equal(s->traffic, 20 * 30 * 4 * 3); /* A in, B in and out */
    assert_int_equal(s->traffic, s->compulsory);
    cg_tile_program *g = build(&p);
    const cg_tile_descs *l = cg_tile_program_descs(g);
    for (int k = 0; k < l->n; k++) {
        const cg_tile_desc *x = &l->v[k];
        if (x->array == 0) /* A: every 3rd element of a row of 91 */
            assert_int_equal(x->ext_stride[0], 12);
        else if (x->ndims > 1) /* B: every 2nd row of 30 */
            assert_int_equal(x->ext_stride[1], 2 * 30 * 4);
    }
    prove_and_free(&b, &p, g, sum_all);
    /* walked backwards: the view has step 2 from element 1, the access
       coefficient -1 in it; tiled in several tiles, same bytes */
    nest_strided_back(&b, 300);
    p = plan(&b, &t);
    const cg_tile_array_info *x = cg_tile_model_array(p.model, 0);
    assert_int_equal(x->step[0], 2);
    assert_int_equal(x->first[0], 1);
    assert_int_equal(cg_tile_model_access(p.model, 0)->coef[0][0], -1);
    assert_true(cg_tile_plan_summary(p.plan)->ntiles > 1);
    assert_int_equal(cg_tile_plan_summary(p.plan)->traffic, 300 * 4 * 3);
    g = build(&p);
    prove_and_free(&b, &p, g, sum_all);
}

/* Jacobi: A's boxes overlap by the halo; B is written whole, never read. */
static void jacobi_halo_run(void **state)
{
    (void)state;
    nestb b;
    nest_jacobi(&b, 30);
    cg_tile_target t;
    test_target(&t, 1024);
    planned p = plan(&b, &t);
    assert_true(cg_tile_plan_summary(p.plan)->ntiles > 1);
    cg_tile_program *g = build(&p);
    for (int64_t i = 0; i < cg_tile_program_nsteps(g); i++) {
        const cg_tile_step *st = cg_tile_program_step(g, i);
        if (st->kind == CG_TILE_STEP_DMA && st->array == 1)
            assert_int_equal(st->dir, CG_TILE_OUT); /* B: no IN */
    }
    /* A's box of tile 0 is the tile plus one row/column each side */
    cg_tile_box box;
    int64_t addr, pitch[CG_TILE_MAX_DIMS], origin[8], size[8];
    cg_tile_plan_tile(p.plan, 0, origin, size);
    cg_tile_plan_layout(p.plan, 0, 0, &box, &addr, pitch);
    assert_int_equal(box.lo[0], 0);
    assert_int_equal(box.lo[1], 0);
    assert_int_equal(box.size[0], size[0] + 2);
    assert_int_equal(box.size[1], size[1] + 2);
    prove_and_free(&b, &p, g, sum_all);
}

static void inplace_and_conv_run(void **state)
{
    (void)state;
    nestb b;
    nest_inplace(&b, 20, 17);
    cg_tile_target t;
    test_target(&t, 400);
    planned p = plan(&b, &t);
    cg_tile_program *g = build(&p);
    prove_and_free(&b, &p, g, scale);

    nest_conv(&b, 14);
    test_target(&t, 1024);
    p = plan(&b, &t);
    g = build(&p);
    prove_and_free(&b, &p, g, sum_all);
}

/* Tight DMA limits: transfers split, every descriptor fits, same result. */
static void tight_dma_limits_run(void **state)
{
    (void)state;
    nestb b;
    nest_jacobi(&b, 30);
    cg_tile_target t;
    test_target(&t, 1024);
    t.dma.max_dims = 1;
    t.dma.max_size[0] = 5;
    planned p = plan(&b, &t);
    cg_tile_program *g = build(&p);
    const cg_tile_descs *l = cg_tile_program_descs(g);
    int64_t dmasteps = 0;
    for (int64_t i = 0; i < cg_tile_program_nsteps(g); i++)
        dmasteps += cg_tile_program_step(g, i)->kind == CG_TILE_STEP_DMA;
    assert_true(l->n > dmasteps); /* some transfer split */
    for (int i = 0; i < l->n; i++) {
        assert_int_equal(l->v[i].ndims, 1);
        assert_true(l->v[i].size[0] <= 5);
    }
    prove_and_free(&b, &p, g, sum_all);
}

/* A halo box reaching past the array's border (a 3x3 window around the
 * corner element): the part outside is padding, read in as zeros and never
 * written back. */
static void halo_padding_at_border(void **state)
{
    (void)state;
    nestb b;
    nest_jacobi(&b, 8);
    cg_tile_target t;
    test_target(&t, 4096);
    planned p = plan(&b, &t);
    cg_tile_box box = {2, {-1, -1}, {3, 3}};
    cg_tile_desc d;
    cg_tile_box_desc(p.plan, 0, &box, 0, CG_TILE_IN, 0, &d);
    const cg_tile_buffer *bf = cg_tile_plan_buffer(p.plan, 0);
    assert_int_equal(d.ndims, 2);
    assert_int_equal(d.size[0], 3);
    assert_int_equal(d.pad_lo[0], 1);
    assert_int_equal(d.pad_hi[0], 0);
    assert_int_equal(d.pad_lo[1], 1);
    assert_int_equal(d.pad_hi[1], 0);
    assert_int_equal(d.ext_base, 0x1000);
    assert_int_equal(d.ext_offset, -(8 * 4) - 4);
    assert_int_equal(d.ext_stride[0], 4);
    assert_int_equal(d.ext_stride[1], 32);
    assert_int_equal(d.tile_stride[1], bf->extent[1] * 4);
    /* run it: zeros in the padded row and column, A[0..1][0..1] else */
    uint32_t ext[64], tile[1024];
    for (int i = 0; i < 64; i++)
        ext[i] = 100u + (uint32_t)i;
    memset(tile, 0xff, sizeof tile);
    cg_mem em = {(uint8_t *)ext, 0x1000, sizeof ext};
    cg_mem tm = {(uint8_t *)tile, 0, sizeof tile};
    cg_diags *dg = cg_diags_create();
    assert_int_equal(cg_tile_desc_exec(&d, &em, &tm, dg), 0);
    int64_t w = bf->extent[1], a0 = bf->addr[0] / 4;
    uint32_t want[3][3] = {{0, 0, 0}, {0, 100, 101}, {0, 108, 109}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            assert_int_equal(tile[a0 + i * w + j], want[i][j]);
    /* out: only the 4 real elements go back */
    d.dir = CG_TILE_OUT;
    tile[a0 + w + 1] = 7;
    tile[a0 + 0] = 9; /* padding: not written */
    assert_int_equal(cg_tile_desc_exec(&d, &em, &tm, dg), 0);
    assert_int_equal(ext[0], 7);
    assert_int_equal(cg_tile_desc_ext_bytes(&d), 16);
    assert_int_equal(cg_diags_errors(dg), 0);
    cg_diags_destroy(dg);
    planned_free(&p);
}

static void whole_plan_program(void **state)
{
    (void)state;
    nestb b;
    nest_saxpy(&b, 10);
    cg_tile_target t;
    test_target(&t, 4096);
    planned p = plan(&b, &t);
    cg_tile_program *g = build(&p);
    assert_int_equal(cg_tile_program_nsteps(g), 4); /* in x, in y, run, out y */
    assert_int_equal(cg_tile_program_step(g, 2)->kind, CG_TILE_STEP_COMPUTE);
    assert_int_equal(cg_tile_program_step(g, 3)->array, 1);
    check_bytes(&p, g);
    cg_tile_program_destroy(g);
    planned_free(&p);
}

typedef struct table_ctx {
    const planned *p;
    const cg_tile_program *g;
} table_ctx;

static void write_table(const void *ctx, FILE *f)
{
    const table_ctx *c = ctx;
    const cg_tile_descs *l = cg_tile_program_descs(c->g);
    assert_int_equal(cg_tile_desc_write_table(l->v, l->n, c->p->model, f), 0);
}

static void golden_program(void **state)
{
    (void)state;
    nestb b;
    nest_jacobi(&b, 10);
    cg_tile_target t;
    test_target(&t, 256);
    planned p = plan(&b, &t);
    cg_tile_program *g = build(&p);
    table_ctx c = {&p, g};
    char *txt = capture(write_table, &c);
    golden("jacobi10.program.txt", txt);
    free(txt);
    json_t *j = cg__tile_program_json(g, p.plan);
    char *js = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    size_t n = strlen(js);
    js = realloc(js, n + 2);
    js[n] = '\n';
    js[n + 1] = 0;
    golden("jacobi10.program.json", js);
    free(js);
    json_decref(j);
    /* the 4D export of descriptor 0 (in A, sizes 6,4, strides 4,40 / 4,24
       bytes): count, bias, (stride, size) x 4 in elements */
    uint64_t *w;
    size_t nw;
    cg_diags *dg = cg_diags_create();
    const cg_tile_descs *l = cg_tile_program_descs(g);
    assert_int_equal(cg_tile_desc_export_4d(l->v, 1, false, &w, &nw, dg), 0);
    uint64_t ext[] = {1, 0x1000 / 4, 1, 6, 10, 4, 0, 1, 0, 1};
    assert_int_equal(nw, 10);
    assert_memory_equal(w, ext, sizeof ext);
    free(w);
    assert_int_equal(cg_tile_desc_export_4d(l->v, 1, true, &w, &nw, dg), 0);
    uint64_t tile[] = {1, 0, 1, 6, 6, 4, 0, 1, 0, 1};
    assert_memory_equal(w, tile, sizeof tile);
    free(w);
    assert_int_equal(cg_tile_desc_export_4d(l->v, l->n, true, &w, &nw, dg),
                     0);
    assert_int_equal(w[0], (uint64_t)l->n);
    assert_int_equal(nw, 1 + 9 * (size_t)l->n);
    free(w);
    cg_diags_destroy(dg);
    check_run(&b, &p, g, sum_all);
    cg_tile_program_destroy(g);
    planned_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vadd_step_order),
        cmocka_unit_test(gemm_resident_swaps_and_run),
        cmocka_unit_test(gemm_order_variants_run),
        cmocka_unit_test(many_plans_run),
        cmocka_unit_test(jacobi_halo_run),
        cmocka_unit_test(strided_views_run),
        cmocka_unit_test(inplace_and_conv_run),
        cmocka_unit_test(tight_dma_limits_run),
        cmocka_unit_test(halo_padding_at_border),
        cmocka_unit_test(whole_plan_program),
        cmocka_unit_test(golden_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
