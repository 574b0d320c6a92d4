/* Tests for tiling/select.c: tile sizes, resident/streamed operands, buffer
 * placement, exact traffic, and the memory-too-small message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>

#include "tests/tiling/nests.h"
#include "tests/tiling/tile_test_util.h"
#include "tiling/tile.h"
#include "tiling/tile_internal.h"

static void whole_when_it_fits(void **state)
{
    (void)state;
    nestb b;
    nest_vadd(&b, 100);
    cg_tile_target t;
    test_target(&t, 16384);
    planned p = plan(&b, &t);
    const cg_tile_summary *s = cg_tile_plan_summary(p.plan);
    assert_true(s->whole);
    assert_int_equal(s->ntiles, 1);
    assert_int_equal(s->size[0], 100);
    assert_int_equal(s->traffic, 1200); /* a, b in; c out */
    assert_int_equal(s->compulsory, 1200);
    for (int a = 0; a < 3; a++)
        assert_int_equal(cg_tile_plan_buffer(p.plan, a)->nbuf, 1);
    assert_false(cg_tile_model_array(p.model, 2)->load); /* c: out only */
    assert_int_equal(cg_tile_plan_buffer(p.plan, 2)->in_bytes, 0);
    planned_free(&p);
}

/* b[3 + 2i] = a[i] - ..., i < n (benchmarks/microbench/stride): b is
 * only written, at every other element.  Compulsory traffic is the touched
 * elements, a's n in and b's n out, not b's span; the view of b keeps only
 * the touched elements, so the plan moves exactly that: ratio 1. */
static void nest_strided_store(nestb *b, int64_t n, int64_t step)
{
    nb_init(b);
    int i = nb_loop(b, "i", n);
    int A = nb_array(b, "a", 4, 1, n), B = nb_array(b, "b", 4, 1,
                                                    step * n + 4);
    nb_acc1(b, 0, false, A, i, 0);
    int64_t cst[1] = {3}, coef[1] = {step};
    int loop[1] = {i};
    nb_access(b, 1, true, B, cst, loop, coef);
}

static void strided_store_compulsory(void **state)
{
    (void)state;
    nestb b;
    nest_strided_store(&b, 32, 2);
    cg_tile_target t;
    test_target(&t, 16384);
    planned p = plan(&b, &t);
    const cg_tile_summary *s = cg_tile_plan_summary(p.plan);
    assert_int_equal(s->compulsory, 32 * 4 + 32 * 4);
    assert_int_equal(s->bound_kind, CG_TILE_BOUND_COMPULSORY);
    assert_true(s->bound == 256.0);
    assert_true(s->whole);
    assert_int_equal(s->traffic, 256);
    assert_int_equal(cg_tile_plan_buffer(p.plan, 1)->in_bytes, 0);
    planned_free(&p);
    /* large enough to need many tiles: still only the touched elements */
    nest_strided_store(&b, 100000, 3);
    p = plan(&b, &t);
    s = cg_tile_plan_summary(p.plan);
    assert_false(s->whole);
    assert_int_equal(s->compulsory, 100000 * 4 * 2);
    assert_int_equal(s->traffic, s->compulsory);
    assert_true(s->mem_use >= 0.75);
    planned_free(&p);
}

static void vadd_streams_at_compulsory_traffic(void **state)
{
    (void)state;
    nestb b;
    nest_vadd(&b, 100000);
    cg_tile_target t;
    test_target(&t, 16384);
    planned p = plan(&b, &t);
    const cg_tile_summary *s = cg_tile_plan_summary(p.plan);
    assert_false(s->whole);
    assert_int_equal(s->traffic, s->compulsory);
    assert_int_equal(s->bound_kind, CG_TILE_BOUND_COMPULSORY);
    assert_true(s->mem_use >= 0.75);
    assert_true(s->mem_used <= 16384);
    /* 3 streamed arrays, 2 buffers each, as large as they fit */
    for (int a = 0; a < 3; a++) {
        const cg_tile_buffer *bf = cg_tile_plan_buffer(p.plan, a);
        assert_true(bf->streamed);
        assert_int_equal(bf->nbuf, 2);
        assert_int_equal(bf->bytes, s->size[0] * 4);
    }
    assert_true(6 * s->size[0] * 4 <= 16384);
    assert_int_equal(s->count[0], (100000 + s->size[0] - 1) / s->size[0]);
    planned_free(&p);
}

/* gemm: C stays resident while A and B stream along k; the tiles are near
 * sqrt(M) and the traffic is within 13% of the bound at n = 16 sqrt(M). */
static void gemm_resident_c(void **state)
{
    (void)state;
    nestb b;
    nest_gemm(&b, 1024, 1024, 1024);
    cg_tile_target t;
    test_target(&t, 16384);
    planned p = plan(&b, &t);
    const cg_tile_summary *s = cg_tile_plan_summary(p.plan);
    assert_int_equal(s->order[2], 2); /* k innermost */
    assert_true(cg_tile_plan_buffer(p.plan, 0)->streamed);
    assert_true(cg_tile_plan_buffer(p.plan, 1)->streamed);
    const cg_tile_buffer *C = cg_tile_plan_buffer(p.plan, 2);
    assert_false(C->streamed);
    assert_int_equal(C->nbuf, 1);
    assert_int_equal(C->in_bytes, 1024 * 1024 * 4);
    assert_int_equal(C->out_bytes, 1024 * 1024 * 4);
    assert_true(s->size[0] >= 45 && s->size[0] <= 80);
    assert_true(s->size[1] >= 45 && s->size[1] <= 80);
    assert_int_equal(s->bound_kind, CG_TILE_BOUND_GEMM);
    double M = 4096, n = 1024;
    assert_true(fabs(s->bound - 4 * (2 * n * n * n / sqrt(M) - 2 * M)) < 1);
    /* A is moved once per j tile, B once per i tile */
    assert_int_equal(cg_tile_plan_buffer(p.plan, 0)->in_bytes,
                     (int64_t)1024 * 1024 * 4 * s->count[1]);
    assert_int_equal(cg_tile_plan_buffer(p.plan, 1)->in_bytes,
                     (int64_t)1024 * 1024 * 4 * s->count[0]);
    assert_true(s->ratio < 1.13);
    assert_true(s->mem_use >= 0.9);
    planned_free(&p);
}

static void too_small_message(void **state)
{
    (void)state;
    nestb b;
    nest_gemm(&b, 64, 64, 64);
    cg_tile_target t;
    test_target(&t, 16);
    cg_diags *d = cg_diags_create();
    cg_tile_model *m = cg_tile_model_build(&b.n, "gemm.c", d);
    assert_null(cg_tile_plan_model(m, &t, NULL, d));
    assert_int_equal(cg_diags_errors(d), 1);
    char *e = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(e, "gemm.c:10: error: tile memory 'spm' (16 bytes) "
                           "cannot hold the buffers of even the smallest "
                           "tile (1x1x1 iterations): A 2 x 4 B, B 2 x 4 B, "
                           "C 1 x 4 B = 20 bytes; give a larger memory or "
                           "use fewer arrays");
    free(e);
    cg_tile_model_destroy(m);
    cg_diags_destroy(d);
}

/* The tagged loop kept whole: its tile is the full trip. */
static void keep_inner(void **state)
{
    (void)state;
    nestb b;
    nest_inplace(&b, 64, 300);
    cg_tile_target t;
    test_target(&t, 16384);
    cg_diags *d = cg_diags_create();
    cg_tile_model *m = cg_tile_model_build(&b.n, "k.c", d);
    cg_tile_model_keep_inner(m, true);
    cg_tile_plan *pl = cg_tile_plan_model(m, &t, NULL, d);
    assert_non_null(pl);
    assert_int_equal(cg_tile_plan_summary(pl)->size[1], 300);
    cg_tile_plan_destroy(pl);
    nest_inplace(&b, 64, 3000); /* 2 buffers of one 3000-int row: 24000 B */
    cg_tile_model_destroy(m);
    m = cg_tile_model_build(&b.n, "k.c", d);
    cg_tile_model_keep_inner(m, true);
    assert_null(cg_tile_plan_model(m, &t, NULL, d));
    char *e = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(e, "k.c:10: error: tile memory 'spm' (16384 bytes) "
                           "cannot hold the buffers of even the smallest "
                           "tile (1x3000 iterations): a 2 x 12000 B = 24000 "
                           "bytes; give a larger memory or use fewer "
                           "arrays");
    free(e);
    cg_tile_model_destroy(m);
    cg_diags_destroy(d);
}

/* MEMUnits reach only bank 1: every buffer lies in [8192, 16384). */
static void bank_placement(void **state)
{
    (void)state;
    nestb b;
    nest_jacobi(&b, 100);
    cg_tile_target t;
    test_target(&t, 16384);
    t.any_bank = false;
    t.bank_mask = 2;
    planned p = plan(&b, &t);
    for (int a = 0; a < 2; a++) {
        const cg_tile_buffer *bf = cg_tile_plan_buffer(p.plan, a);
        assert_int_equal(bf->bank, 1);
        for (int k = 0; k < bf->nbuf; k++) {
            assert_true(bf->addr[k] >= 8192);
            assert_true(bf->addr[k] + bf->bytes <= 16384);
        }
    }
    assert_true(cg_tile_plan_summary(p.plan)->mem_used <= 8192);
    planned_free(&p);
    /* both banks reachable, one each: the two arrays split across them */
    nest_jacobi(&b, 100);
    t.bank_mask = 3;
    p = plan(&b, &t);
    assert_int_not_equal(cg_tile_plan_buffer(p.plan, 0)->bank,
                         cg_tile_plan_buffer(p.plan, 1)->bank);
    planned_free(&p);
}

/* Tiles enumerate every iteration exactly once (sizes that do not divide). */
static void tiles_cover_iterations(void **state)
{
    (void)state;
    nestb b;
    nest_gemm(&b, 100, 90, 70);
    cg_tile_target t;
    test_target(&t, 4096);
    planned p = plan(&b, &t);
    const cg_tile_summary *s = cg_tile_plan_summary(p.plan);
    static unsigned char seen[100][90][70];
    memset(seen, 0, sizeof seen);
    int64_t o[3], z[3];
    for (int64_t k = 0; k < s->ntiles; k++) {
        cg_tile_plan_tile(p.plan, k, o, z);
        for (int64_t i = o[0]; i < o[0] + z[0]; i++)
            for (int64_t j = o[1]; j < o[1] + z[1]; j++)
                for (int64_t l = o[2]; l < o[2] + z[2]; l++)
                    seen[i][j][l]++;
    }
    for (int i = 0; i < 100; i++)
        for (int j = 0; j < 90; j++)
            for (int l = 0; l < 70; l++)
                assert_int_equal(seen[i][j][l], 1);
    planned_free(&p);
}

/* Traffic recounted by walking the tiles: a box is brought in when it
 * differs from the array's box of the previous tile and written out when the
 * next tile's differs. */
static bool same_box(const cg_tile_box *x, const cg_tile_box *y)
{
    for (int d = 0; d < x->ndims; d++)
        if (x->lo[d] != y->lo[d] || x->size[d] != y->size[d])
            return false;
    return true;
}

static void check_traffic_by_walking(nestb *b, int64_t mem)
{
    cg_tile_target t;
    test_target(&t, mem);
    planned p = plan(b, &t);
    const cg_tile_summary *s = cg_tile_plan_summary(p.plan);
    int na = cg_tile_model_narrays(p.model);
    for (int a = 0; a < na; a++) {
        const cg_tile_array_info *ai = cg_tile_model_array(p.model, a);
        int64_t in = 0, out = 0, o[8], z[8];
        cg_tile_box prev = {0}, cur, next; /* prev: read only from k = 1 */
        for (int64_t k = 0; k < s->ntiles; k++) {
            cg_tile_plan_tile(p.plan, k, o, z);
            cg_tile_footprint(p.model, a, o, z, &cur);
            int64_t elems = 1;
            for (int d = 0; d < cur.ndims; d++)
                elems *= cur.size[d];
            bool new_box = k == 0 || !same_box(&prev, &cur);
            bool last = k == s->ntiles - 1;
            if (!last) {
                cg_tile_plan_tile(p.plan, k + 1, o, z);
                cg_tile_footprint(p.model, a, o, z, &next);
                last = !same_box(&next, &cur);
            }
            if (new_box && ai->load)
                in += elems * ai->elem_size;
            if (last && ai->written)
                out += elems * ai->elem_size;
            prev = cur;
        }
        assert_int_equal(cg_tile_plan_buffer(p.plan, a)->in_bytes, in);
        assert_int_equal(cg_tile_plan_buffer(p.plan, a)->out_bytes, out);
    }
    planned_free(&p);
}

static void traffic_matches_walk(void **state)
{
    (void)state;
    nestb b;
    nest_gemm(&b, 100, 90, 70);
    check_traffic_by_walking(&b, 4096);
    nest_jacobi(&b, 60);
    check_traffic_by_walking(&b, 4096);
    nest_gemv(&b, 200, 150);
    check_traffic_by_walking(&b, 4096);
    nest_conv(&b, 50);
    check_traffic_by_walking(&b, 4096);
    nest_inplace(&b, 70, 50);
    check_traffic_by_walking(&b, 2048);
}

/* Selection stays fast (the perf program measures it; this only guards
 * against a search that explodes). */
static void selection_bounded(void **state)
{
    (void)state;
    nestb b;
    nest_gemm(&b, 2000, 1500, 1800);
    cg_tile_target t;
    test_target(&t, 16384);
    planned p = plan(&b, &t);
    assert_true(cg_tile_plan_summary(p.plan)->candidates < 400000);
    planned_free(&p);
}

static void write_plan(const void *p, FILE *f)
{
    assert_int_equal(cg_tile_plan_write(p, f), 0);
}

/* The text and JSON forms of a plan (selection time left out of the JSON
 * compared, it depends on the machine). */
static void plan_printers_golden(void **state)
{
    (void)state;
    nestb b;
    nest_jacobi(&b, 100);
    cg_tile_target t;
    test_target(&t, 16384);
    planned p = plan(&b, &t);
    char *text = capture(write_plan, p.plan);
    golden("jacobi100.plan.txt", text);
    free(text);
    json_t *j = cg__tile_plan_json(p.plan);
    assert_non_null(j);
    assert_true(json_real_value(json_object_get(j, "seconds")) >= 0);
    json_object_del(j, "seconds");
    char *js = json_dumps(j, JSON_SORT_KEYS | JSON_INDENT(1));
    size_t n = strlen(js);
    js = realloc(js, n + 2);
    js[n] = '\n';
    js[n + 1] = 0;
    golden("jacobi100.plan.json", js);
    free(js);
    json_decref(j);
    planned_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(whole_when_it_fits),
        cmocka_unit_test(vadd_streams_at_compulsory_traffic),
        cmocka_unit_test(strided_store_compulsory),
        cmocka_unit_test(gemm_resident_c),
        cmocka_unit_test(too_small_message),
        cmocka_unit_test(keep_inner),
        cmocka_unit_test(bank_placement),
        cmocka_unit_test(tiles_cover_iterations),
        cmocka_unit_test(traffic_matches_walk),
        cmocka_unit_test(selection_bounded),
        cmocka_unit_test(plan_printers_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
