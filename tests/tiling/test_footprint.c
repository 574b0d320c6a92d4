/* Tests for tiling/footprint.c: affine maps per dimension, boxes with halos,
 * buffer capacities, the flat fallback and the exact error messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "tests/tiling/nests.h"
#include "tiling/tile.h"

static char *first_error(cg_diags *d)
{
    for (int i = 0; i < cg_diags_size(d); i++)
        if (cg_diags_get(d, i)->sev == CG_SEV_ERROR)
            return cg_diag_format(cg_diags_get(d, i));
    return NULL;
}

/* Build must fail with exactly this first error. */
static void expect_error(const cg_nest *n, const char *msg)
{
    cg_diags *d = cg_diags_create();
    cg_tile_model *m = cg_tile_model_build(n, "k.c", d);
    assert_null(m);
    char *e = first_error(d);
    assert_non_null(e);
    assert_string_equal(e, msg);
    free(e);
    cg_diags_destroy(d);
}

static cg_tile_model *build(const nestb *b)
{
    cg_diags *d = cg_diags_create();
    cg_tile_model *m = cg_tile_model_build(&b->n, "k.c", d);
    assert_int_equal(cg_diags_errors(d), 0);
    cg_diags_destroy(d);
    assert_non_null(m);
    return m;
}

static void gemm_maps_and_boxes(void **state)
{
    (void)state;
    nestb b;
    nest_gemm(&b, 40, 30, 20);
    cg_tile_model *m = build(&b);
    assert_int_equal(cg_tile_model_nloops(m), 3);
    assert_int_equal(cg_tile_model_trip(m, 2), 20);
    const cg_tile_access_info *a = cg_tile_model_access(m, 1); /* A[i][k] */
    assert_int_equal(a->array, 0);
    assert_int_equal(a->coef[0][0], 1);
    assert_int_equal(a->coef[1][2], 1);
    assert_int_equal(a->coef[0][2], 0);
    assert_int_equal(a->cst[0], 0);
    const cg_tile_array_info *C = cg_tile_model_array(m, 2);
    assert_true(C->read && C->written && C->load);
    assert_int_equal(C->loops, 3); /* i and j */
    assert_int_equal(cg_tile_model_array(m, 0)->loops, 5); /* i and k */
    int64_t org[3] = {2, 3, 4}, sz[3] = {5, 6, 7};
    cg_tile_box box;
    cg_tile_footprint(m, 0, org, sz, &box);
    assert_int_equal(box.ndims, 2);
    assert_int_equal(box.lo[0], 2);
    assert_int_equal(box.size[0], 5);
    assert_int_equal(box.lo[1], 4);
    assert_int_equal(box.size[1], 7);
    cg_tile_footprint(m, 1, org, sz, &box); /* B[k][j] */
    assert_int_equal(box.lo[0], 4);
    assert_int_equal(box.size[0], 7);
    assert_int_equal(box.lo[1], 3);
    assert_int_equal(box.size[1], 6);
    int64_t ext[2];
    assert_int_equal(cg_tile_capacity(m, 2, sz, ext), 30);
    assert_int_equal(ext[0], 5);
    assert_int_equal(ext[1], 6);
    cg_tile_model_destroy(m);
}

/* The halo of a 5-point stencil falls out of the maps; loops start at 1. */
static void jacobi_halo(void **state)
{
    (void)state;
    nestb b;
    nest_jacobi(&b, 10);
    cg_tile_model *m = build(&b);
    assert_int_equal(cg_tile_model_trip(m, 0), 8);
    /* A[i-1][j] with i = 1 + k0: element row k0 */
    const cg_tile_access_info *x = cg_tile_model_access(m, 1);
    assert_int_equal(x->cst[0], 0);
    assert_int_equal(x->cst[1], 1);
    int64_t org[2] = {0, 0}, sz[2] = {4, 4};
    cg_tile_box box;
    cg_tile_footprint(m, 0, org, sz, &box);
    assert_int_equal(box.lo[0], 0);
    assert_int_equal(box.size[0], 6);
    assert_int_equal(box.lo[1], 0);
    assert_int_equal(box.size[1], 6);
    int64_t org2[2] = {4, 4};
    cg_tile_footprint(m, 0, org2, sz, &box);
    assert_int_equal(box.lo[0], 4);
    assert_int_equal(box.size[0], 6);
    cg_tile_footprint(m, 1, org2, sz, &box); /* B: no halo */
    assert_int_equal(box.lo[0], 5);
    assert_int_equal(box.size[0], 4);
    assert_int_equal(cg_tile_capacity(m, 0, sz, NULL), 36);
    assert_int_equal(cg_tile_capacity(m, 1, sz, NULL), 16);
    const cg_tile_array_info *B = cg_tile_model_array(m, 1);
    assert_true(B->written && !B->read && !B->load); /* dense store */
    assert_true(cg_tile_model_array(m, 0)->exact[0]);
    cg_tile_model_destroy(m);
}

/* for (i = 2; i < 20; i += 2) x[i] = x[i] + 1: 9 iterations, stride 2.
 * Only even elements are touched: the view keeps those (step 2). */
static void start_and_step(void **state)
{
    (void)state;
    nestb b;
    nb_init(&b);
    int i = nb_loop_ss(&b, "i", 9, 2, 2);
    int x = nb_array(&b, "x", 4, 1, (int64_t)20);
    nb_acc1(&b, 0, false, x, i, 0);
    nb_acc1(&b, 1, true, x, i, 0);
    cg_tile_model *m = build(&b);
    const cg_tile_access_info *a = cg_tile_model_access(m, 0);
    const cg_tile_array_info *ai = cg_tile_model_array(m, 0);
    assert_int_equal(ai->step[0], 2);
    assert_int_equal(ai->first[0], 0);
    assert_int_equal(ai->vdims[0], 10);
    assert_int_equal(ai->dims[0], 20);
    assert_int_equal(a->cst[0], 1); /* element 2 is view index 1 */
    assert_int_equal(a->coef[0][0], 1);
    int64_t org[1] = {3}, sz[1] = {3};
    cg_tile_box box;
    cg_tile_footprint(m, 0, org, sz, &box);
    assert_int_equal(box.lo[0], 4); /* elements 8, 10, 12, no gaps */
    assert_int_equal(box.size[0], 3);
    assert_true(ai->load); /* it is read */
    cg_tile_model_destroy(m);
}

/* x[2i+3] = ..., i < 6: a strided store covers its view, so nothing is
 * read in (no read-modify-write of the holes). */
static void strided_store_view(void **state)
{
    (void)state;
    nestb b;
    nb_init(&b);
    int i = nb_loop(&b, "i", 6);
    int x = nb_array(&b, "x", 4, 1, (int64_t)16);
    int64_t cst[1] = {3}, coef[1] = {2};
    int loop[1] = {i};
    nb_access(&b, 0, true, x, cst, loop, coef);
    cg_tile_model *m = build(&b);
    const cg_tile_array_info *ai = cg_tile_model_array(m, 0);
    assert_true(ai->written && !ai->read && !ai->load);
    assert_int_equal(ai->step[0], 2);
    assert_int_equal(ai->first[0], 1);
    assert_int_equal(ai->vdims[0], 8); /* odd elements 1 .. 15 */
    assert_int_equal(cg_tile_model_access(m, 0)->cst[0], 1);
    cg_tile_model_destroy(m);
}

/* x[2i] and x[2i+1] touch both residues: no step, and the store x[4i]
 * beside the read x[4i+2] shares step 2 only. */
static void strided_mixed_residues(void **state)
{
    (void)state;
    nestb b;
    nb_init(&b);
    int i = nb_loop(&b, "i", 4);
    int x = nb_array(&b, "x", 4, 1, (int64_t)16);
    int y = nb_array(&b, "y", 4, 1, (int64_t)16);
    int64_t c0[1] = {0}, c1[1] = {1}, c2[1] = {2}, k2[1] = {2}, k4[1] = {4};
    int loop[1] = {i};
    nb_access(&b, 0, false, x, c0, loop, k2);
    nb_access(&b, 1, false, x, c1, loop, k2);
    nb_access(&b, 2, false, y, c2, loop, k4);
    nb_access(&b, 3, false, y, c0, loop, k4);
    cg_tile_model *m = build(&b);
    assert_int_equal(cg_tile_model_array(m, 0)->step[0], 1);
    assert_int_equal(cg_tile_model_array(m, 0)->vdims[0], 16);
    assert_int_equal(cg_tile_model_array(m, 1)->step[0], 2);
    assert_int_equal(cg_tile_model_access(m, 2)->cst[0], 1);
    assert_int_equal(cg_tile_model_access(m, 2)->coef[0][0], 2);
    cg_tile_model_destroy(m);
}

/* a[i][j-1] with j from 0 reaches the previous row: not expressible per
 * dimension, so the array is seen flat. */
static void flat_fallback(void **state)
{
    (void)state;
    nestb b;
    nb_init(&b);
    int i = nb_loop_ss(&b, "i", 3, 1, 1), j = nb_loop(&b, "j", 8);
    int a = nb_array(&b, "a", 4, 2, (int64_t)4, (int64_t)8);
    int o = nb_array(&b, "o", 4, 2, (int64_t)4, (int64_t)8);
    nb_acc2(&b, 0, false, a, i, 0, j, -1);
    nb_acc2(&b, 1, true, o, i, 0, j, 0);
    cg_tile_model *m = build(&b);
    const cg_tile_array_info *ai = cg_tile_model_array(m, 0);
    assert_true(ai->flat);
    assert_int_equal(ai->ndims, 1);
    assert_int_equal(ai->dims[0], 32);
    const cg_tile_access_info *x = cg_tile_model_access(m, 0);
    assert_int_equal(x->cst[0], 7);
    assert_int_equal(x->coef[0][0], 8);
    assert_int_equal(x->coef[0][1], 1);
    assert_false(cg_tile_model_array(m, 1)->flat);
    cg_tile_model_destroy(m);
}

/* Accesses with different coefficients: the dimension is not exact and the
 * buffer holds the whole nest's extent there. */
static void transposed_not_exact(void **state)
{
    (void)state;
    nestb b;
    nb_init(&b);
    int i = nb_loop(&b, "i", 16), j = nb_loop(&b, "j", 16);
    int a = nb_array(&b, "a", 4, 2, (int64_t)16, (int64_t)16);
    int o = nb_array(&b, "o", 4, 2, (int64_t)16, (int64_t)16);
    nb_acc2(&b, 0, false, a, i, 0, j, 0);
    nb_acc2(&b, 1, false, a, j, 0, i, 0);
    nb_acc2(&b, 2, true, o, i, 0, j, 0);
    cg_tile_model *m = build(&b);
    const cg_tile_array_info *ai = cg_tile_model_array(m, 0);
    assert_false(ai->exact[0]);
    int64_t sz[2] = {4, 2}, ext[2];
    assert_int_equal(cg_tile_capacity(m, 0, sz, ext), 256);
    int64_t org[2] = {4, 0};
    cg_tile_box box;
    cg_tile_footprint(m, 0, org, sz, &box);
    assert_int_equal(box.lo[0], 0); /* a[j][i]: rows 0..1 */
    assert_int_equal(box.size[0], 8);
    assert_int_equal(box.lo[1], 0);
    assert_int_equal(box.size[1], 8);
    cg_tile_model_destroy(m);
}

static void error_symbolic_trip(void **state)
{
    (void)state;
    nestb b;
    nest_vadd(&b, 100);
    b.n.loops[0].trip = -1;
    b.n.loops[0].trip_sym = "n";
    expect_error(&b.n, "k.c:10: error: loop 'i' has a symbolic trip count "
                       "'n'; tiling needs a known count (give the symbol a "
                       "value)");
    b.n.loops[0].trip_sym = NULL; /* nothing names it */
    expect_error(&b.n, "k.c:10: error: loop 'i' has a trip count that is "
                       "neither a number nor a symbol (its bound is computed "
                       "in a loop, or it has no counter tiling can follow); "
                       "tiling needs a known count");
    b.n.loops[0].trip_sym = "n";
    b.n.loops[0].trip_in_memory = true;
    expect_error(&b.n, "k.c:10: error: loop 'i' reads its trip count from "
                       "global 'n' in memory; tiling needs a known count: "
                       "pass it to the kernel as a parameter (--sym then "
                       "gives its value) or make it a constant");
}

static void error_non_affine(void **state)
{
    (void)state;
    nestb b;
    nest_vadd(&b, 100);
    b.acc[1].index.is_affine = false;
    expect_error(&b.n, "k.c:10: error: access to 'b' (node 1) is not affine "
                       "in the loop counters; tiling needs indices of the "
                       "form c + a0*i0 + a1*i1 + ...");
}

static void error_unknown_array(void **state)
{
    (void)state;
    nestb b;
    nest_vadd(&b, 100);
    b.acc[2].array = -1;
    expect_error(&b.n, "k.c:10: error: access (node 2) is not to a known "
                       "global array; tiling needs every load and store to "
                       "index a global array");
}

static void error_misaligned(void **state)
{
    (void)state;
    nestb b;
    nest_vadd(&b, 100);
    b.acc[0].index.cst = 2;
    expect_error(&b.n, "k.c:10: error: index of access to 'a' (node 0) is "
                       "not a whole number of 4-byte elements; tiling needs "
                       "element-aligned accesses");
}

static void error_out_of_bounds(void **state)
{
    (void)state;
    nestb b;
    nest_vadd(&b, 100);
    b.acc[0].index.cst = 8;
    expect_error(&b.n, "k.c:10: error: access to 'a' (node 0) leaves the "
                       "array (100 elements) within the loop bounds");
}

static void error_written_other_index(void **state)
{
    (void)state;
    nestb b;
    nest_saxpy(&b, 100);
    b.acc[1].index.cst = 4; /* y[i+1] read, y[i] written */
    b.arr[1].bytes += 4;
    b.arr[1].dims[0] += 1;
    expect_error(&b.n, "k.c:10: error: array 'y' is written (node 2) and "
                       "also read through a different index (node 1); tiling "
                       "would reorder these accesses (write and read it at "
                       "one index, or use another array)");
}

static void error_written_diagonal(void **state)
{
    (void)state;
    nestb b;
    nb_init(&b);
    int i = nb_loop(&b, "i", 8), j = nb_loop(&b, "j", 8);
    int x = nb_array(&b, "x", 4, 1, (int64_t)16);
    int64_t cst[1] = {0}, coef[1] = {1};
    int loop[1] = {i};
    int k = nb_access(&b, 0, true, x, cst, loop, coef);
    b.acc[k].index.coef[j] = 4; /* x[i + j] */
    expect_error(&b.n, "k.c:11: error: array 'x' is written (node 0) through "
                       "an index where one loop drives two dimensions or two "
                       "loops drive one; tiles would overlap on it");
}

static void error_zero_trip(void **state)
{
    (void)state;
    nestb b;
    nest_gemm(&b, 4, 4, 4);
    b.n.loops[1].trip = 0;
    expect_error(&b.n, "k.c:11: error: loop 'j' never runs (trip count 0): "
                       "nothing to tile");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gemm_maps_and_boxes),
        cmocka_unit_test(jacobi_halo),
        cmocka_unit_test(start_and_step),
        cmocka_unit_test(strided_store_view),
        cmocka_unit_test(strided_mixed_residues),
        cmocka_unit_test(flat_fallback),
        cmocka_unit_test(transposed_not_exact),
        cmocka_unit_test(error_symbolic_trip),
        cmocka_unit_test(error_non_affine),
        cmocka_unit_test(error_unknown_array),
        cmocka_unit_test(error_misaligned),
        cmocka_unit_test(error_out_of_bounds),
        cmocka_unit_test(error_written_other_index),
        cmocka_unit_test(error_written_diagonal),
        cmocka_unit_test(error_zero_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
