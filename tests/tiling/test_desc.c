/* Tests for tiling/desc.c, desc_lower.c and desc_export.c: the cost of a
 * descriptor, whether it fits a DMA engine, its lowering (every case is
 * proven by executing the original and the lowered list on the same seeded
 * memory images and comparing them byte for byte), the executor's and the
 * checker's exact messages, and the three export forms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dfg/dfg.h"
#include "tests/tiling/tile_test_util.h"
#include "tiling/tile.h"
#include "tiling/tile_internal.h"

/* ---- helpers ---------------------------------------------------------------- */

static int64_t rnd(cg_rng *s, int64_t lo, int64_t hi) /* lo..hi */
{
    return lo + (int64_t)(cg_rng_next(s) % (uint64_t)(hi - lo + 1));
}

/* A descriptor of `n` dimensions: sizes, external and tile strides given
 * innermost first; array 1, tile 3, bases 0x1000 and 0. */
static cg_tile_desc mk(cg_tile_dir dir, int elem, int n, const int64_t *size,
                       const int64_t *es, const int64_t *ts)
{
    cg_tile_desc d;
    memset(&d, 0, sizeof d);
    d.dir = dir;
    d.array = 1;
    d.tile = 3;
    d.elem_size = elem;
    d.ndims = n;
    for (int k = 0; k < n; k++) {
        d.size[k] = size[k];
        d.ext_stride[k] = es[k];
        d.tile_stride[k] = ts[k];
    }
    d.ext_base = 0x1000;
    d.repeat = 1;
    return d;
}

/* 4 dims, no limits (0 = any) */
static cg_dma_params dma_free(void)
{
    cg_dma_params p;
    cg_dma_params_init(&p);
    return p;
}

/* Add x*stride over x in [a, b] to the range [*lo, *hi]. */
static void span(int64_t a, int64_t b, int64_t stride, int64_t *lo,
                 int64_t *hi)
{
    int64_t u = a * stride, v = b * stride;
    *lo += u < v ? u : v;
    *hi += u < v ? v : u;
}

/* Bytes one side of d touches: the external side its real elements, the
 * tile side every element. */
static void side_range(const cg_tile_desc *d, bool ext, int64_t *lo,
                       int64_t *hi)
{
    *lo = ext ? d->ext_base + d->ext_offset : d->tile_base + d->tile_offset;
    *hi = *lo + d->elem_size - 1;
    for (int k = 0; k < d->ndims; k++) {
        int64_t a = ext ? d->pad_lo[k] : 0;
        int64_t b = d->size[k] - 1 - (ext ? d->pad_hi[k] : 0);
        span(a, b, ext ? d->ext_stride[k] : d->tile_stride[k], lo, hi);
    }
    span(0, d->repeat - 1, ext ? d->repeat_ext_stride : d->repeat_tile_stride,
         lo, hi);
}

typedef struct images {
    cg_mem ext, tile;
} images;

/* Images exactly covering what d touches (plus 16 bytes each side), filled
 * with seeded random bytes. */
static images images_for(const cg_tile_desc *d, uint64_t seed)
{
    images im;
    int64_t lo, hi;
    cg_rng r;
    cg_rng_init(&r, seed);
    cg_mem *m[2] = {&im.ext, &im.tile};
    for (int s = 0; s < 2; s++) {
        side_range(d, s == 0, &lo, &hi);
        if (lo > hi) /* an OUT of padding only */
            lo = hi = 0x100;
        m[s]->base = (uint64_t)(lo - 16 < 0 ? 0 : lo - 16);
        m[s]->size = (uint64_t)(hi + 17 - (int64_t)m[s]->base);
        m[s]->data = malloc(m[s]->size);
        assert_non_null(m[s]->data);
        for (uint64_t i = 0; i < m[s]->size; i++)
            m[s]->data[i] = (uint8_t)(cg_rng_next(&r) >> 24);
    }
    return im;
}

static images images_copy(const images *a)
{
    images b = *a;
    b.ext.data = malloc(a->ext.size);
    b.tile.data = malloc(a->tile.size);
    memcpy(b.ext.data, a->ext.data, a->ext.size);
    memcpy(b.tile.data, a->tile.data, a->tile.size);
    return b;
}

static void images_free(images *im)
{
    free(im->ext.data);
    free(im->tile.data);
}

static void exec_ok(const cg_tile_desc *d, images *im)
{
    cg_diags *dg = cg_diags_create();
    int rc = cg_tile_desc_exec(d, &im->ext, &im->tile, dg);
    if (rc)
        cg_diags_print(dg, stderr);
    assert_int_equal(rc, 0);
    assert_int_equal(cg_diags_size(dg), 0);
    cg_diags_destroy(dg);
}

static int64_t padded_any(const cg_tile_desc *d)
{
    for (int k = 0; k < d->ndims; k++)
        if (d->pad_lo[k] || d->pad_hi[k])
            return 1;
    return 0;
}

/* Lower d for dma into out (emptied first) and prove it: every result fits
 * dma, moves the same elements, and executing the original and the lowered
 * list on copies of the same seeded images leaves both images
 * byte-identical. */
static void lower_proven(const cg_tile_desc *d, const cg_dma_params *dma,
                         cg_tile_descs *out, uint64_t seed)
{
    cg_tile_descs_free(out);
    cg_diags *dg = cg_diags_create();
    int rc = cg_tile_desc_lower(d, dma, out, dg);
    if (rc)
        cg_diags_print(dg, stderr);
    assert_int_equal(rc, 0);
    assert_int_equal(cg_diags_size(dg), 0);
    cg_diags_destroy(dg);
    int64_t moved = 0;
    for (int i = 0; i < out->n; i++) {
        assert_true(cg_tile_desc_fits(&out->v[i], dma));
        assert_int_equal(out->v[i].dir, d->dir);
        assert_int_equal(out->v[i].array, d->array);
        assert_int_equal(out->v[i].tile, d->tile);
        if (d->dir == CG_TILE_OUT)
            assert_int_equal(padded_any(&out->v[i]), 0);
        moved += cg_tile_desc_elems(&out->v[i]) * out->v[i].repeat;
    }
    int64_t want = cg_tile_desc_elems(d) * d->repeat;
    if (d->dir == CG_TILE_OUT)
        want = cg_tile_desc_ext_bytes(d) / d->elem_size;
    assert_int_equal(moved, want);
    images a = images_for(d, seed), b = images_copy(&a);
    exec_ok(d, &a);
    for (int i = 0; i < out->n; i++)
        exec_ok(&out->v[i], &b);
    assert_memory_equal(a.ext.data, b.ext.data, a.ext.size);
    assert_memory_equal(a.tile.data, b.tile.data, a.tile.size);
    images_free(&a);
    images_free(&b);
}

/* The one error message of a failing call. */
static void expect_error(cg_diags *dg, const char *msg)
{
    assert_int_equal(cg_diags_size(dg), 1);
    const cg_diag *e = cg_diags_get(dg, 0);
    assert_int_equal(e->sev, CG_SEV_ERROR);
    assert_string_equal(e->msg, msg);
}

/* ---- cost and limits ------------------------------------------------------------ */

static void elems_bytes_cycles(void **state)
{
    (void)state;
    int64_t size[] = {10, 20}, es[] = {4, 400}, ts[] = {4, 40};
    cg_tile_desc d = mk(CG_TILE_IN, 4, 2, size, es, ts);
    cg_dma_params dma = dma_free(); /* 4 B/cycle, 10 setup cycles */
    assert_int_equal(cg_tile_desc_elems(&d), 200);
    assert_int_equal(cg_tile_desc_ext_bytes(&d), 800);
    assert_int_equal(cg_tile_desc_cycles(&d, &dma), 10 + 200);
    d.pad_lo[0] = 1;
    d.pad_hi[1] = 2;
    d.repeat = 3;
    /* padding is moved (zeros) but not read: 9 x 18 real elements */
    assert_int_equal(cg_tile_desc_elems(&d), 200);
    assert_int_equal(cg_tile_desc_ext_bytes(&d), 9 * 18 * 4 * 3);
    assert_int_equal(cg_tile_desc_cycles(&d, &dma), 3 * (10 + 200));
    dma.bytes_per_cycle = 3; /* 800 bytes: ceil(266.7) cycles */
    assert_int_equal(cg_tile_desc_cycles(&d, &dma), 3 * (10 + 267));
    dma.bytes_per_cycle = 0;
    assert_int_equal(cg_tile_desc_cycles(&d, &dma), -1);
    dma.bytes_per_cycle = 1e-15; /* the quotient past int64_t: refused */
    assert_int_equal(cg_tile_desc_cycles(&d, &dma), -1);
    dma.bytes_per_cycle = INFINITY;
    assert_int_equal(cg_tile_desc_cycles(&d, &dma), -1);
    d.elem_size = 2;
    d.ndims = 1;
    d.size[0] = 7;
    d.pad_lo[0] = 0;
    d.repeat = 1;
    assert_int_equal(cg_tile_desc_elems(&d), 7);
    assert_int_equal(cg_tile_desc_ext_bytes(&d), 14);
}

static void fits_each_limit(void **state)
{
    (void)state;
    int64_t size[] = {8, 4, 3}, es[] = {4, -64, 1024}, ts[] = {4, 32, 128};
    cg_tile_desc d = mk(CG_TILE_IN, 4, 3, size, es, ts);
    cg_dma_params dma = dma_free();
    assert_true(cg_tile_desc_fits(&d, &dma));
    dma.max_dims = 2;
    assert_false(cg_tile_desc_fits(&d, &dma));
    dma.max_dims = 3;
    assert_true(cg_tile_desc_fits(&d, &dma));
    dma.max_size[1] = 4; /* equal to the limit fits */
    assert_true(cg_tile_desc_fits(&d, &dma));
    dma.max_size[1] = 3;
    assert_false(cg_tile_desc_fits(&d, &dma));
    dma.max_size[1] = 0;
    dma.max_stride[2] = 1024;
    assert_true(cg_tile_desc_fits(&d, &dma));
    dma.max_stride[2] = 1023; /* external stride 1024 */
    assert_false(cg_tile_desc_fits(&d, &dma));
    dma.max_stride[2] = 0;
    dma.max_stride[1] = 63; /* |-64| on the external side */
    assert_false(cg_tile_desc_fits(&d, &dma));
    dma.max_stride[1] = 64;
    assert_true(cg_tile_desc_fits(&d, &dma));
    d.tile_stride[1] = -65; /* tile side checked too */
    assert_false(cg_tile_desc_fits(&d, &dma));
    d.ndims = 0;
    assert_false(cg_tile_desc_fits(&d, &dma));
}

static void descs_list(void **state)
{
    (void)state;
    cg_tile_descs l = {0};
    int64_t size[] = {1}, es[] = {4}, ts[] = {4};
    cg_tile_desc d = mk(CG_TILE_IN, 4, 1, size, es, ts);
    for (int i = 0; i < 40; i++) {
        d.tile = i;
        assert_int_equal(cg_tile_descs_push(&l, &d), 0);
    }
    assert_int_equal(l.n, 40);
    assert_true(l.cap >= 40);
    assert_int_equal(l.v[39].tile, 39);
    cg_tile_descs_free(&l);
    assert_null(l.v);
    assert_int_equal(l.n, 0);
    assert_int_equal(l.cap, 0);
}

/* ---- lowering --------------------------------------------------------------------- */

/* A 4x5x6 block contiguous on both sides is one dimension of 120. */
static void lower_merges_contiguous(void **state)
{
    (void)state;
    int64_t size[] = {4, 5, 6}, es[] = {4, 16, 80}, ts[] = {4, 16, 80};
    cg_tile_desc d = mk(CG_TILE_IN, 4, 3, size, es, ts);
    d.ext_offset = 8;
    d.tile_offset = 64;
    cg_dma_params dma = dma_free();
    cg_tile_descs out = {0};
    lower_proven(&d, &dma, &out, 1);
    assert_int_equal(out.n, 1);
    const cg_tile_desc *o = &out.v[0];
    assert_int_equal(o->ndims, 1);
    assert_int_equal(o->size[0], 120);
    assert_int_equal(o->ext_stride[0], 4);
    assert_int_equal(o->tile_stride[0], 4);
    assert_int_equal(o->ext_base, 0x1000);
    assert_int_equal(o->ext_offset, 8);
    assert_int_equal(o->tile_offset, 64);
    assert_int_equal(o->repeat, 1);
    /* only the inner two merge when the outer one skips a row */
    d.ext_stride[2] = 96;
    lower_proven(&d, &dma, &out, 2);
    assert_int_equal(out.n, 1);
    assert_int_equal(out.v[0].ndims, 2);
    assert_int_equal(out.v[0].size[0], 20);
    assert_int_equal(out.v[0].size[1], 6);
    assert_int_equal(out.v[0].ext_stride[1], 96);
    assert_int_equal(out.v[0].tile_stride[1], 80);
    /* size-1 dimensions are dropped, and padding survives a merge */
    int64_t s2[] = {8, 1, 3}, e2[] = {2, 999, 16}, t2[] = {2, 0, 16};
    d = mk(CG_TILE_IN, 2, 3, s2, e2, t2);
    d.pad_lo[2] = 1;
    lower_proven(&d, &dma, &out, 3);
    assert_int_equal(out.n, 1);
    assert_int_equal(out.v[0].ndims, 1);
    assert_int_equal(out.v[0].size[0], 24);
    assert_int_equal(out.v[0].pad_lo[0], 8);
    assert_int_equal(out.v[0].pad_hi[0], 0);
    cg_tile_descs_free(&out);
}

/* A transposing read: the unit-stride dimension becomes the innermost, a
 * negative unit stride is reversed. */
static void lower_unit_stride_innermost(void **state)
{
    (void)state;
    int64_t size[] = {8, 100}, es[] = {400, 4}, ts[] = {4, 32};
    cg_tile_desc d = mk(CG_TILE_IN, 4, 2, size, es, ts);
    cg_dma_params dma = dma_free();
    cg_tile_descs out = {0};
    lower_proven(&d, &dma, &out, 4);
    assert_int_equal(out.n, 1);
    assert_int_equal(out.v[0].size[0], 100);
    assert_int_equal(out.v[0].ext_stride[0], 4);
    assert_int_equal(out.v[0].tile_stride[0], 32);
    assert_int_equal(out.v[0].size[1], 8);
    assert_int_equal(out.v[0].ext_stride[1], 400);
    /* read backwards: a reversed copy walks the source forwards */
    int64_t s2[] = {16}, e2[] = {-4}, t2[] = {4};
    d = mk(CG_TILE_IN, 4, 1, s2, e2, t2);
    d.ext_offset = 60;
    d.pad_lo[0] = 3;
    lower_proven(&d, &dma, &out, 5);
    assert_int_equal(out.n, 1);
    assert_int_equal(out.v[0].ext_stride[0], 4);
    assert_int_equal(out.v[0].tile_stride[0], -4);
    assert_int_equal(out.v[0].ext_offset, 0);
    assert_int_equal(out.v[0].tile_offset, 60);
    assert_int_equal(out.v[0].pad_lo[0], 0);
    assert_int_equal(out.v[0].pad_hi[0], 3);
    cg_tile_descs_free(&out);
}

/* Sizes beyond max_size: by a factor into two dimensions when one divides,
 * else into full chunks and a remainder. */
static void lower_splits_sizes(void **state)
{
    (void)state;
    int64_t size[] = {1000}, es[] = {4}, ts[] = {4};
    cg_tile_desc d = mk(CG_TILE_IN, 4, 1, size, es, ts);
    cg_dma_params dma = dma_free();
    dma.max_size[0] = 256;
    dma.max_size[1] = 256;
    cg_tile_descs out = {0};
    lower_proven(&d, &dma, &out, 6);
    assert_int_equal(out.n, 1);
    assert_int_equal(out.v[0].ndims, 2);
    assert_int_equal(out.v[0].size[0], 250);
    assert_int_equal(out.v[0].size[1], 4);
    assert_int_equal(out.v[0].ext_stride[1], 1000);
    assert_int_equal(out.v[0].tile_stride[1], 1000);
    /* 1009 is prime: 3 x 256 and a chunk of 241 */
    d.size[0] = 1009;
    lower_proven(&d, &dma, &out, 7);
    assert_int_equal(out.n, 2);
    assert_int_equal(out.v[0].size[0], 256);
    assert_int_equal(out.v[0].size[1], 3);
    assert_int_equal(out.v[0].ext_offset, 0);
    assert_int_equal(out.v[1].ndims, 1);
    assert_int_equal(out.v[1].size[0], 241);
    assert_int_equal(out.v[1].ext_offset, 768 * 4);
    assert_int_equal(out.v[1].tile_offset, 768 * 4);
    /* an outer dimension too large for its own limit */
    int64_t s2[] = {10, 300}, e2[] = {4, 4000}, t2[] = {4, 40};
    d = mk(CG_TILE_OUT, 4, 2, s2, e2, t2);
    dma.max_size[0] = 0;
    dma.max_size[1] = 100;
    lower_proven(&d, &dma, &out, 8);
    assert_int_equal(out.n, 1);
    assert_int_equal(out.v[0].ndims, 3);
    assert_int_equal(out.v[0].size[1], 100);
    assert_int_equal(out.v[0].size[2], 3);
    assert_int_equal(out.v[0].ext_stride[2], 400000);
    cg_tile_descs_free(&out);
}

/* A stride beyond max_stride is peeled into the repeat. */
static void lower_peels_long_strides(void **state)
{
    (void)state;
    int64_t size[] = {16, 10}, es[] = {4, 4096}, ts[] = {4, 64};
    cg_tile_desc d = mk(CG_TILE_IN, 4, 2, size, es, ts);
    cg_dma_params dma = dma_free();
    dma.max_stride[1] = 1024;
    cg_tile_descs out = {0};
    lower_proven(&d, &dma, &out, 9);
    assert_int_equal(out.n, 1);
    assert_int_equal(out.v[0].ndims, 1);
    assert_int_equal(out.v[0].size[0], 16);
    assert_int_equal(out.v[0].repeat, 10);
    assert_int_equal(out.v[0].repeat_ext_stride, 4096);
    assert_int_equal(out.v[0].repeat_tile_stride, 64);
    /* two such dimensions: the larger is the repeat, the other is
       enumerated into separate descriptors */
    int64_t s2[] = {16, 10, 3}, e2[] = {4, 4096, 65536}, t2[] = {4, 64, 640};
    d = mk(CG_TILE_IN, 4, 3, s2, e2, t2);
    lower_proven(&d, &dma, &out, 10);
    assert_int_equal(out.n, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(out.v[i].repeat, 10);
        assert_int_equal(out.v[i].ext_offset, i * 65536);
        assert_int_equal(out.v[i].tile_offset, i * 640);
    }
    /* a stride too long on the tile side only */
    int64_t s3[] = {4, 4}, e3[] = {4, 16}, t3[] = {4, 2048};
    d = mk(CG_TILE_OUT, 4, 2, s3, e3, t3);
    lower_proven(&d, &dma, &out, 11);
    assert_int_equal(out.n, 1);
    assert_int_equal(out.v[0].repeat, 4);
    assert_int_equal(out.v[0].repeat_tile_stride, 2048);
    cg_tile_descs_free(&out);
}

/* More dimensions than the engine has. */
static void lower_too_many_dims(void **state)
{
    (void)state;
    int64_t size[] = {5, 4, 3, 2}, es[] = {4, 40, 400, 4000},
            ts[] = {4, 20, 80, 240};
    cg_tile_desc d = mk(CG_TILE_IN, 4, 4, size, es, ts);
    cg_dma_params dma = dma_free();
    dma.max_dims = 2;
    cg_tile_descs out = {0};
    lower_proven(&d, &dma, &out, 12);
    /* dims 2 and 3 peeled: 3 is the repeat, 2 gives two descriptors */
    assert_int_equal(out.n, 2);
    assert_int_equal(out.v[0].ndims, 2);
    assert_int_equal(out.v[0].repeat, 3);
    assert_int_equal(out.v[0].repeat_ext_stride, 400);
    assert_int_equal(out.v[1].ext_offset, 4000);
    dma.max_dims = 1;
    lower_proven(&d, &dma, &out, 13);
    assert_int_equal(out.n, 3 * 2 * 1);
    assert_int_equal(out.v[0].ndims, 1);
    assert_int_equal(out.v[0].repeat, 4);
    /* a repeat continuing dimension 3 merges with it */
    d.repeat = 2;
    d.repeat_ext_stride = 8000;
    d.repeat_tile_stride = 480;
    dma.max_dims = 4;
    lower_proven(&d, &dma, &out, 14);
    assert_int_equal(out.n, 1);
    assert_int_equal(out.v[0].ndims, 4);
    assert_int_equal(out.v[0].size[3], 4);
    assert_int_equal(out.v[0].repeat, 1);
    /* a repeat of its own is one more dimension to place */
    d.repeat_ext_stride = 9000;
    lower_proven(&d, &dma, &out, 21);
    assert_int_equal(out.n, 1);
    assert_int_equal(out.v[0].ndims, 4);
    assert_int_equal(out.v[0].repeat, 2);
    assert_int_equal(out.v[0].repeat_ext_stride, 9000);
    dma.max_dims = 3; /* dimension 3 and the repeat peeled (a tie: the
                         first peeled becomes the repeat) */
    lower_proven(&d, &dma, &out, 22);
    assert_int_equal(out.n, 2);
    assert_int_equal(out.v[0].repeat, 2);
    assert_int_equal(out.v[0].repeat_ext_stride, 4000);
    assert_int_equal(out.v[1].ext_offset, 9000);
    cg_tile_descs_free(&out);
}

/* Padding stays right when a size is split: the pad borders do not fall on
 * the factor, so the box is cut at them. */
static void lower_keeps_padding(void **state)
{
    (void)state;
    int64_t size[] = {34, 34}, es[] = {4, 400}, ts[] = {4, 136};
    cg_tile_desc d = mk(CG_TILE_IN, 4, 2, size, es, ts);
    d.pad_lo[0] = d.pad_lo[1] = 1;
    d.pad_hi[0] = d.pad_hi[1] = 1;
    d.ext_offset = -404; /* row -1, column -1 of the array */
    d.ext_base = 0x2000;
    cg_dma_params dma = dma_free();
    dma.max_size[0] = 16;
    dma.max_size[1] = 16;
    cg_tile_descs out = {0};
    lower_proven(&d, &dma, &out, 15);
    int64_t zeros = 0, allpad = 0;
    for (int i = 0; i < out.n; i++) {
        int64_t e = cg_tile_desc_elems(&out.v[i]) * out.v[i].repeat;
        int64_t real = cg_tile_desc_ext_bytes(&out.v[i]) / 4;
        zeros += e - real;
        allpad += real == 0;
    }
    assert_int_equal(zeros, 34 * 34 - 32 * 32);
    assert_true(allpad >= 1); /* column 33 (and row 33) alone */
    /* the same written out: only the 32 x 32 real elements, no padding */
    d.dir = CG_TILE_OUT;
    lower_proven(&d, &dma, &out, 16);
    int64_t moved = 0;
    for (int i = 0; i < out.n; i++)
        moved += cg_tile_desc_ext_bytes(&out.v[i]);
    assert_int_equal(moved, 32 * 32 * 4);
    /* an OUT of padding only moves nothing */
    d.pad_lo[1] = 34;
    d.pad_hi[1] = 0;
    lower_proven(&d, &dma, &out, 17);
    assert_int_equal(out.n, 0);
    /* an IN of padding only writes zeros and reads nothing */
    d.dir = CG_TILE_IN;
    lower_proven(&d, &dma, &out, 18);
    assert_true(out.n >= 1);
    for (int i = 0; i < out.n; i++)
        assert_int_equal(cg_tile_desc_ext_bytes(&out.v[i]), 0);
    /* padding aligned to the factor is kept in the outer dimension */
    int64_t s2[] = {40}, e2[] = {2}, t2[] = {2};
    d = mk(CG_TILE_IN, 2, 1, s2, e2, t2);
    d.pad_lo[0] = 10;
    d.pad_hi[0] = 20;
    dma.max_size[0] = 10;
    dma.max_size[1] = 0;
    lower_proven(&d, &dma, &out, 19);
    assert_int_equal(out.n, 1);
    assert_int_equal(out.v[0].size[0], 10);
    assert_int_equal(out.v[0].size[1], 4);
    assert_int_equal(out.v[0].pad_lo[1], 1);
    assert_int_equal(out.v[0].pad_hi[1], 2);
    cg_tile_descs_free(&out);
}

/* A random descriptor whose destinations are distinct: each side laid out
 * densely (with gaps, in a random dimension order and random directions);
 * a source may repeat elements (stride 0) on an IN. */
static void random_side(cg_rng *s, cg_tile_desc *d, bool ext,
                        bool may_alias)
{
    int order[CG_TILE_DESC_DIMS];
    int n = d->ndims;
    for (int k = 0; k < n; k++)
        order[k] = k;
    for (int k = n - 1; k > 0; k--) {
        int j = (int)rnd(s, 0, k), t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
    int64_t at = d->elem_size, *st = ext ? d->ext_stride : d->tile_stride;
    for (int i = 0; i < n; i++) {
        int k = order[i];
        int64_t gap = rnd(s, 0, 3) == 0 ? 2 : 1;
        st[k] = at * gap * (rnd(s, 0, 2) == 0 ? -1 : 1);
        if (may_alias && rnd(s, 0, 5) == 0)
            st[k] = 0;
        at *= gap * d->size[k];
    }
    int64_t rs = at * (rnd(s, 0, 2) == 0 ? -1 : 1);
    if (ext)
        d->repeat_ext_stride = may_alias && rnd(s, 0, 4) == 0 ? 0 : rs;
    else
        d->repeat_tile_stride = rs;
    /* offset puts the lowest address at base + 32 */
    int64_t lo = 0, hi = 0;
    for (int k = 0; k < n; k++)
        span(0, d->size[k] - 1, st[k], &lo, &hi);
    span(0, d->repeat - 1, ext ? d->repeat_ext_stride : d->repeat_tile_stride,
         &lo, &hi);
    if (ext)
        d->ext_offset = 32 - lo;
    else
        d->tile_offset = 32 - lo;
}

static cg_tile_desc random_desc(cg_rng *s)
{
    static const int elems[] = {1, 2, 4, 8};
    cg_tile_desc d;
    memset(&d, 0, sizeof d);
    d.dir = rnd(s, 0, 1) ? CG_TILE_IN : CG_TILE_OUT;
    d.array = (int)rnd(s, 0, 3);
    d.tile = rnd(s, 0, 9);
    d.elem_size = elems[rnd(s, 0, 3)];
    d.ndims = (int)rnd(s, 1, 5);
    for (int k = 0; k < d.ndims; k++) {
        d.size[k] = rnd(s, 1, k == 0 ? 12 : 5);
        if (rnd(s, 0, 3) == 0) {
            d.pad_lo[k] = rnd(s, 0, d.size[k]);
            d.pad_hi[k] = rnd(s, 0, d.size[k] - d.pad_lo[k]);
        }
    }
    d.repeat = rnd(s, 1, 3);
    d.ext_base = 0x4000 + 8 * rnd(s, 0, 16);
    d.tile_base = 8 * rnd(s, 0, 16);
    random_side(s, &d, false, false);
    random_side(s, &d, true, d.dir == CG_TILE_IN);
    return d;
}

static cg_dma_params random_dma(cg_rng *s, int elem)
{
    cg_dma_params p = dma_free();
    p.max_dims = (int)rnd(s, 1, 4);
    for (int k = 0; k < p.max_dims; k++) {
        p.max_size[k] = rnd(s, 0, 2) == 0 ? 0 : rnd(s, 1, 7);
        p.max_stride[k] = rnd(s, 0, 2) == 0 ? 0 : elem * rnd(s, 1, 40);
    }
    return p;
}

/* Hundreds of random descriptors and engines, each lowering proven. */
static void lower_random_proven(void **state)
{
    (void)state;
    cg_rng s;
    cg_rng_init(&s, 0x9e3779b97f4a7c15u);
    cg_tile_descs out = {0};
    for (int i = 0; i < 600; i++) {
        cg_tile_desc d = random_desc(&s);
        cg_dma_params dma = random_dma(&s, d.elem_size);
        lower_proven(&d, &dma, &out, (uint64_t)i + 100);
    }
    cg_tile_descs_free(&out);
}

static void lower_errors(void **state)
{
    (void)state;
    cg_diags *dg = cg_diags_create();
    cg_tile_descs out = {0};
    int64_t size[] = {4, 4}, es[] = {4, 16}, ts[] = {4, 8};
    cg_tile_desc d = mk(CG_TILE_IN, 4, 2, size, es, ts);
    cg_dma_params dma = dma_free();
    assert_int_equal(cg_tile_desc_lower(&d, &dma, &out, dg), -1);
    expect_error(dg, "DMA IN descriptor (array 1, tile 3): on the "
                 "tile-memory side, dimension 1 (size 4, stride 8 bytes) "
                 "lands inside the 16 bytes spanned by the smaller strides, "
                 "so a destination is written twice; give each element its "
                 "own destination (each |stride| at least the span of the "
                 "smaller ones)");
    cg_diags_clear(dg);
    /* an OUT's destinations are external */
    d.dir = CG_TILE_OUT;
    d.tile_stride[1] = 16;
    d.ext_stride[0] = 0;
    assert_int_equal(cg_tile_desc_lower(&d, &dma, &out, dg), -1);
    expect_error(dg, "DMA OUT descriptor (array 1, tile 3): on the external "
                 "side, dimension 0 (size 4, stride 0 bytes) lands inside "
                 "the 4 bytes spanned by the smaller strides, so a "
                 "destination is written twice; give each element its own "
                 "destination (each |stride| at least the span of the "
                 "smaller ones)");
    cg_diags_clear(dg);
    d.ext_stride[0] = 4;
    d.repeat = 2; /* the repeat writes over the first issue */
    assert_int_equal(cg_tile_desc_lower(&d, &dma, &out, dg), -1);
    expect_error(dg, "DMA OUT descriptor (array 1, tile 3): on the external "
                 "side, the repeat (size 2, stride 0 bytes) lands inside the "
                 "4 bytes spanned by the smaller strides, so a destination "
                 "is written twice; give each element its own destination "
                 "(each |stride| at least the span of the smaller ones)");
    cg_diags_clear(dg);
    d.repeat = 1;
    dma.max_dims = 9;
    assert_int_equal(cg_tile_desc_lower(&d, &dma, &out, dg), -1);
    expect_error(dg, "DMA OUT descriptor (array 1, tile 3): the DMA engine "
                 "allows 9 dimension(s); declare between 1 and 8");
    cg_diags_clear(dg);
    dma.max_dims = 4;
    dma.max_stride[3] = -2;
    assert_int_equal(cg_tile_desc_lower(&d, &dma, &out, dg), -1);
    expect_error(dg, "DMA OUT descriptor (array 1, tile 3): the DMA engine's "
                 "limits of dimension 3 are size 0 and stride -2; use a "
                 "positive limit, or 0 for none");
    assert_int_equal(out.n, 0);
    cg_tile_descs_free(&out);
    cg_diags_destroy(dg);
}

/* ---- executing and checking --------------------------------------------------- */

/* Reads and writes exactly the described elements; padding of an IN is
 * zero-filled and never read, padding of an OUT is not written. */
static void exec_moves_elements(void **state)
{
    (void)state;
    uint8_t ext[64], tile[32];
    for (int i = 0; i < 64; i++)
        ext[i] = (uint8_t)(i + 1);
    memset(tile, 0xee, sizeof tile);
    cg_mem E = {ext, 0x100, 64}, T = {tile, 0, 32};
    /* 2 x 3 elements of 2 bytes, the first column padding, rows 16 apart */
    int64_t size[] = {3, 2}, es[] = {2, 16}, ts[] = {2, 6};
    cg_tile_desc d = mk(CG_TILE_IN, 2, 2, size, es, ts);
    d.ext_base = 0x100;
    d.ext_offset = -2; /* column -1 is outside the array */
    d.pad_lo[0] = 1;
    d.tile_offset = 4;
    cg_diags *dg = cg_diags_create();
    assert_int_equal(cg_tile_desc_exec(&d, &E, &T, dg), 0);
    uint8_t want[32];
    memset(want, 0xee, sizeof want);
    uint8_t row0[] = {0, 0, 1, 2, 3, 4}, row1[] = {0, 0, 17, 18, 19, 20};
    memcpy(want + 4, row0, 6);
    memcpy(want + 10, row1, 6);
    assert_memory_equal(tile, want, 32);
    /* back out, shifted by one element: padding is skipped */
    d.dir = CG_TILE_OUT;
    d.ext_offset = 30;
    assert_int_equal(cg_tile_desc_exec(&d, &E, &T, dg), 0);
    assert_int_equal(ext[29], 30); /* padding position untouched */
    assert_int_equal(ext[32], 1);
    assert_int_equal(ext[35], 4);
    assert_int_equal(ext[48], 17);
    assert_int_equal(ext[51], 20);
    assert_int_equal(ext[52], 53);
    assert_int_equal(cg_diags_size(dg), 0);
    cg_diags_destroy(dg);
}

static void exec_outside_image(void **state)
{
    (void)state;
    uint8_t ext[256], tile[64];
    memset(ext, 7, sizeof ext);
    memset(tile, 9, sizeof tile);
    cg_mem E = {ext, 0x1000, 256}, T = {tile, 0x40, 64};
    int64_t size[] = {4, 2}, es[] = {4, 0x80}, ts[] = {4, 16};
    cg_tile_desc d = mk(CG_TILE_IN, 4, 2, size, es, ts);
    d.ext_offset = 0x78; /* row 1 runs from 0x10f8 past the end */
    d.tile_base = 0x40;
    cg_diags *dg = cg_diags_create();
    assert_int_equal(cg_tile_desc_exec(&d, &E, &T, dg), -1);
    expect_error(dg, "DMA IN descriptor (array 1, tile 3): element (2, 1) of "
                 "issue 0 reads external bytes 0x1100..0x1103, outside the "
                 "external image 0x1000..0x10ff; fix the descriptor's base, "
                 "offset or strides, or give an image that covers them");
    for (int i = 0; i < 64; i++) /* nothing written */
        assert_int_equal(tile[i], 9);
    cg_diags_clear(dg);
    /* the tile side of a repeat, below the image */
    d.ext_offset = 0;
    d.repeat = 2;
    d.repeat_ext_stride = 8;
    d.repeat_tile_stride = -0x48;
    d.tile_offset = 0x20;
    assert_int_equal(cg_tile_desc_exec(&d, &E, &T, dg), -1);
    expect_error(dg, "DMA IN descriptor (array 1, tile 3): element (0, 0) of "
                 "issue 1 writes tile-memory bytes 0x18..0x1b, outside the "
                 "tile-memory image 0x40..0x7f; fix the descriptor's base, "
                 "offset or strides, or give an image that covers them");
    cg_diags_clear(dg);
    /* an OUT writes the external side; a negative address */
    d.dir = CG_TILE_OUT;
    d.repeat = 1;
    d.tile_offset = 0;
    d.array = -1;
    d.ext_base = 0;
    d.ext_offset = -8;
    assert_int_equal(cg_tile_desc_exec(&d, &E, &T, dg), -1);
    expect_error(dg, "DMA OUT descriptor: element (0, 0) of issue 0 writes "
                 "external bytes -0x8..-0x5, outside the external image "
                 "0x1000..0x10ff; fix the descriptor's base, offset or "
                 "strides, or give an image that covers them");
    cg_diags_clear(dg);
    cg_mem empty = {NULL, 0, 0};
    d.ext_base = 0x1000;
    d.ext_offset = 0;
    d.array = 2;
    d.tile = -1;
    assert_int_equal(cg_tile_desc_exec(&d, &E, &empty, dg), -1);
    expect_error(dg, "DMA OUT descriptor (array 2): element (0, 0) of issue 0 "
                 "reads tile-memory bytes 0x40..0x43, outside the empty "
                 "tile-memory image; fix the descriptor's base, offset or "
                 "strides, or give an image that covers them");
    for (int i = 0; i < 256; i++)
        assert_int_equal(ext[i], 7);
    cg_diags_destroy(dg);
}

/* Each malformation, with its message (the executor and the lowering
 * share the check). */
static void malformed_messages(void **state)
{
    (void)state;
    static const struct {
        int what;
        const char *msg;
    } cases[] = {
        {0, "direction 7; use CG_TILE_IN or CG_TILE_OUT"},
        {1, "0 dimension(s); use 1 to 8 (a single element is one dimension "
            "of size 1; fold further dimensions into the repeat or separate "
            "descriptors)"},
        {2, "element size 3 bytes; use 1, 2, 4 or 8"},
        {3, "repeat 0; use 1 for a single issue"},
        {4, "dimension 1 has size 0; every size must be at least 1 (drop an "
            "empty transfer instead of describing it)"},
        {5, "dimension 0 has padding -1/0 (lo/hi); padding counts elements "
            "and cannot be negative"},
        {6, "dimension 1 pads 2 + 2 elements of its 3; pad_lo + pad_hi may be "
            "at most the size"},
        {7, "addresses or element count reach 2^62; check the sizes, "
            "strides, repeat and offsets"},
        {8, "addresses or element count reach 2^62; check the sizes, "
            "strides, repeat and offsets"},
    };
    int64_t size[] = {4, 3}, es[] = {4, 16}, ts[] = {4, 16};
    uint8_t buf[64] = {0};
    cg_mem E = {buf, 0x1000, 64}, T = {buf, 0, 64};
    cg_dma_params dma = dma_free();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cg_tile_desc d = mk(CG_TILE_IN, 4, 2, size, es, ts);
        switch (cases[i].what) {
        case 0: d.dir = (cg_tile_dir)7; break;
        case 1: d.ndims = 0; break;
        case 2: d.elem_size = 3; break;
        case 3: d.repeat = 0; break;
        case 4: d.size[1] = 0; break;
        case 5: d.pad_lo[0] = -1; break;
        case 6: d.pad_lo[1] = d.pad_hi[1] = 2; break;
        case 7: d.ext_stride[1] = (int64_t)1 << 61; break;
        case 8: d.repeat = (int64_t)1 << 40; d.size[0] = 1 << 30; break;
        }
        char want[512];
        const char *label = cases[i].what == 0 ? "DMA ? descriptor (array 1, "
                                                 "tile 3)"
                                               : "DMA IN descriptor (array "
                                                 "1, tile 3)";
        snprintf(want, sizeof want, "%s: %s", label, cases[i].msg);
        cg_diags *dg = cg_diags_create();
        assert_int_equal(cg_tile_desc_exec(&d, &E, &T, dg), -1);
        expect_error(dg, want);
        cg_diags_clear(dg);
        cg_tile_descs out = {0};
        assert_int_equal(cg_tile_desc_lower(&d, &dma, &out, dg), -1);
        expect_error(dg, want);
        assert_int_equal(out.n, 0);
        cg_diags_destroy(dg);
    }
}

/* ---- export ------------------------------------------------------------------------ */

static void export_4d_words(void **state)
{
    (void)state;
    int64_t size[] = {16, 8}, es[] = {4, 400}, ts[] = {4, 64};
    cg_tile_desc d = mk(CG_TILE_IN, 4, 2, size, es, ts);
    d.ext_offset = 8;
    d.tile_base = 0x200;
    uint64_t *w;
    size_t n;
    cg_diags *dg = cg_diags_create();
    assert_int_equal(cg_tile_desc_export_4d(&d, 1, false, &w, &n, dg), 0);
    uint64_t ext[] = {1, 0x1008 / 4, 1, 16, 100, 8, 0, 1, 0, 1};
    assert_int_equal(n, 10);
    assert_memory_equal(w, ext, sizeof ext);
    free(w);
    assert_int_equal(cg_tile_desc_export_4d(&d, 1, true, &w, &n, dg), 0);
    uint64_t tile[] = {1, 0x200 / 4, 1, 16, 16, 8, 0, 1, 0, 1};
    assert_int_equal(n, 10);
    assert_memory_equal(w, tile, sizeof tile);
    free(w);
    /* a reversed row read twice, 2-byte elements: strides in two's
       complement, one entry per issue */
    int64_t s2[] = {5}, e2[] = {-2}, t2[] = {2};
    cg_tile_desc r = mk(CG_TILE_IN, 2, 1, s2, e2, t2);
    r.ext_offset = 8;
    r.repeat = 2;
    r.repeat_ext_stride = -10;
    r.repeat_tile_stride = 10;
    cg_tile_desc both[2] = {d, r};
    assert_int_equal(cg_tile_desc_export_4d(both, 2, false, &w, &n, dg), 0);
    uint64_t two[] = {3,
                      0x1008 / 4, 1, 16, 100, 8, 0, 1, 0, 1,
                      0x1008 / 2, UINT64_MAX, 5, 0, 1, 0, 1, 0, 1,
                      0x0ffe / 2, UINT64_MAX, 5, 0, 1, 0, 1, 0, 1};
    assert_int_equal(n, 28);
    assert_memory_equal(w, two, sizeof two);
    free(w);
    /* a fifth dimension becomes entries too */
    int64_t s5[] = {2, 2, 2, 2, 3}, e5[] = {4, 8, 16, 32, 64},
            t5[] = {4, 8, 16, 32, 64};
    cg_tile_desc f = mk(CG_TILE_OUT, 4, 5, s5, e5, t5);
    assert_int_equal(cg_tile_desc_export_4d(&f, 1, true, &w, &n, dg), 0);
    assert_int_equal(n, 1 + 3 * 9);
    assert_int_equal(w[0], 3);
    assert_int_equal(w[1 + 9], 16);
    assert_int_equal(w[1 + 18], 32);
    assert_int_equal(w[1 + 18 + 7], 8); /* stride of dimension 3 */
    free(w);
    assert_int_equal(cg_diags_size(dg), 0);
    cg_diags_destroy(dg);
}

static void export_4d_errors(void **state)
{
    (void)state;
    int64_t size[] = {16, 8}, es[] = {4, 400}, ts[] = {4, 64};
    cg_tile_desc v[2];
    v[0] = mk(CG_TILE_IN, 4, 2, size, es, ts);
    v[1] = v[0];
    v[1].pad_hi[1] = 1;
    uint64_t *w = (uint64_t *)1;
    size_t n = 5;
    cg_diags *dg = cg_diags_create();
    assert_int_equal(cg_tile_desc_export_4d(v, 2, false, &w, &n, dg), -1);
    assert_null(w);
    assert_int_equal(n, 0);
    expect_error(dg, "DMA IN descriptor (array 1, tile 3), entry 1 of the "
                 "list: dimension 1 has padding 0/1 (lo/hi), which the 4D "
                 "data mover cannot express; lower an OUT first (lowering "
                 "drops its padding) and zero-fill an IN's padding another "
                 "way");
    cg_diags_clear(dg);
    v[1].pad_hi[1] = 0;
    v[1].tile_stride[1] = 66;
    assert_int_equal(cg_tile_desc_export_4d(v, 2, false, &w, &n, dg), 0);
    free(w);
    assert_int_equal(cg_tile_desc_export_4d(v, 2, true, &w, &n, dg), -1);
    expect_error(dg, "DMA IN descriptor (array 1, tile 3), entry 1 of the "
                 "list: the tile-side stride of dimension 1 is 66 bytes, not "
                 "a whole number of 4-byte elements; the 4D data mover "
                 "counts in elements, so align it");
    cg_diags_clear(dg);
    /* a stride never stepped, or the stride of a single issue, is free */
    v[1].size[1] = 1;
    v[1].repeat_tile_stride = 3;
    assert_int_equal(cg_tile_desc_export_4d(v, 2, true, &w, &n, dg), 0);
    assert_int_equal(w[10 + 3], 0); /* (0, 1) like an unused dimension */
    assert_int_equal(w[10 + 4], 1);
    free(w);
    v[1].repeat = 2;
    assert_int_equal(cg_tile_desc_export_4d(v, 2, true, &w, &n, dg), -1);
    expect_error(dg, "DMA IN descriptor (array 1, tile 3), entry 1 of the "
                 "list: the tile-side repeat stride is 3 bytes, not a whole "
                 "number of 4-byte elements; the 4D data mover counts in "
                 "elements, so align it");
    cg_diags_destroy(dg);
}

/* The lowered halo read of a 3x3 convolution tile: the golden table and
 * JSON. */
static cg_tile_descs golden_list(void)
{
    int64_t size[] = {18, 10}, es[] = {4, 400}, ts[] = {4, 72};
    cg_tile_desc d = mk(CG_TILE_IN, 4, 2, size, es, ts);
    d.pad_lo[1] = 1;
    d.pad_lo[0] = 1;
    d.ext_offset = -404;
    d.tile_base = 0x100;
    cg_dma_params dma = dma_free();
    dma.max_size[0] = 8;
    cg_tile_descs out = {0};
    lower_proven(&d, &dma, &out, 20);
    int64_t s2[] = {16, 8}, e2[] = {-4, 400}, t2[] = {4, 64};
    cg_tile_desc o = mk(CG_TILE_OUT, 4, 2, s2, e2, t2);
    o.array = 0;
    o.tile = -1;
    o.repeat = 2;
    o.repeat_ext_stride = 3200;
    o.repeat_tile_stride = 512;
    assert_int_equal(cg_tile_descs_push(&out, &o), 0);
    return out;
}

typedef struct table_ctx {
    const cg_tile_descs *l;
} table_ctx;

static void write_table(const void *ctx, FILE *f)
{
    const cg_tile_descs *l = ((const table_ctx *)ctx)->l;
    assert_int_equal(cg_tile_desc_write_table(l->v, l->n, NULL, f), 0);
}

static void table_and_json_golden(void **state)
{
    (void)state;
    cg_tile_descs l = golden_list();
    table_ctx c = {&l};
    char *text = capture(write_table, &c);
    golden("desc.table.txt", text);
    free(text);
    json_t *a = json_array();
    for (int i = 0; i < l.n; i++)
        json_array_append_new(a, cg__tile_desc_json(&l.v[i], NULL));
    char *js = json_dumps(a, JSON_SORT_KEYS | JSON_INDENT(1));
    size_t n = strlen(js);
    js = realloc(js, n + 2);
    js[n] = '\n';
    js[n + 1] = 0;
    golden("desc.json", js);
    free(js);
    json_decref(a);
    cg_tile_descs_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(elems_bytes_cycles),
        cmocka_unit_test(fits_each_limit),
        cmocka_unit_test(descs_list),
        cmocka_unit_test(lower_merges_contiguous),
        cmocka_unit_test(lower_unit_stride_innermost),
        cmocka_unit_test(lower_splits_sizes),
        cmocka_unit_test(lower_peels_long_strides),
        cmocka_unit_test(lower_too_many_dims),
        cmocka_unit_test(lower_keeps_padding),
        cmocka_unit_test(lower_random_proven),
        cmocka_unit_test(lower_errors),
        cmocka_unit_test(exec_moves_elements),
        cmocka_unit_test(exec_outside_image),
        cmocka_unit_test(malformed_messages),
        cmocka_unit_test(export_4d_words),
        cmocka_unit_test(export_4d_errors),
        cmocka_unit_test(table_and_json_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
