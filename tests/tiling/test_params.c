/* test_params.c: the tile search's effort as parameters
 * (cg_tile_params.search, tiling/select.c and bound.c) and the limits of
 * a plan (CG_TILE_MAX_ARRAYS, _BANKS, _CHANNELS): the defaults are the
 * values the search was tuned with, a value out of range is an error
 * naming the field, past a limit an error naming it, and the search reads
 * its fields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "tests/tiling/nests.h"
#include "tests/tiling/tile_test_util.h"
#include "tiling/tile.h"

static void defaults(void **state)
{
    (void)state;
    cg_tile_params p;
    cg_tile_params_init(&p);
    const cg_tile_search_params *w = &p.search;
    assert_int_equal(w->coarse_keep, 12);
    assert_true(w->coarse_step == 1.25 && w->refine_within == 1.25);
    assert_int_equal(w->window_radius, 32);
    assert_int_equal(w->window_combos, 4096);
    assert_int_equal(w->all_orders_upto, 5);
    assert_int_equal(w->bound_orders_upto, 4);
    assert_int_equal(w->bound_bisect, 48);
    int grid[4] = {400, 60, 16, 6};
    assert_memory_equal(w->bound_grid, grid, sizeof grid);
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_tile_params_check(&p, NULL, d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
}

/* p refused by the check and by the planner, with exactly want at k.c. */
static void refused(const cg_tile_params *p, const char *want)
{
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_tile_params_check(p, "k.c", d), -1);
    assert_int_equal(cg_diags_size(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->msg, want);
    cg_diags_clear(d);
    nestb b;
    nest_vadd(&b, 100);
    cg_tile_target t;
    test_target(&t, 16384);
    cg_tile_model *m = cg_tile_model_build(&b.n, "k.c", d);
    assert_null(cg_tile_plan_model(m, &t, p, d));
    assert_int_equal(cg_diags_size(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->file, "k.c");
    assert_string_equal(cg_diags_get(d, 0)->msg, want);
    cg_tile_model_destroy(m);
    cg_diags_destroy(d);
}

static void out_of_range(void **state)
{
    (void)state;
    cg_tile_params p;
    cg_tile_params_init(&p);
    p.search.coarse_step = 0.5;
    refused(&p, "cg_tile_params.search.coarse_step is 0.5; it must be at "
            "least 1 and at most 1000");
    cg_tile_params_init(&p);
    p.search.all_orders_upto = 6; /* 720 orders */
    refused(&p, "cg_tile_params.search.all_orders_upto is 6; it must be at "
            "least 1 and at most 5");
    cg_tile_params_init(&p);
    p.search.bound_grid[2] = 0;
    refused(&p, "cg_tile_params.search.bound_grid[2] is 0; it must be at "
            "least 1 and at most 1000");
    cg_tile_params_init(&p);
    p.search.refine_within = NAN;
    refused(&p, "cg_tile_params.search.refine_within is nan; it must be at "
            "least 1 and at most 1000");
}

/* The plan of b on t refused with exactly want, at file:line. */
static void over_limit_at(const nestb *b, const cg_tile_target *t,
                          const char *want, const char *file, int line)
{
    cg_diags *d = cg_diags_create();
    cg_tile_model *m = cg_tile_model_build(&b->n, "k.c", d);
    assert_non_null(m);
    assert_null(cg_tile_plan_model(m, t, NULL, d));
    assert_int_equal(cg_diags_size(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->msg, want);
    assert_string_equal(cg_diags_get(d, 0)->file, file);
    assert_int_equal(cg_diags_get(d, 0)->line, line);
    cg_tile_model_destroy(m);
    cg_diags_destroy(d);
}

/* Without the declaration's place: the loop's file. */
static void over_limit(const nestb *b, const cg_tile_target *t,
                       const char *want)
{
    over_limit_at(b, t, want, "k.c", 0);
}

/* One past each limit is an error naming it (at the architecture's line
 * that declares the memory or the DMA engine, when known: it named the C
 * file); at the limit, a plan. */
static void limits(void **state)
{
    (void)state;
    nestb b;
    nest_vadd(&b, 100);
    cg_tile_target t;
    test_target(&t, 1 << 20);
    t.banks = CG_TILE_MAX_BANKS + 1;
    over_limit(&b, &t, "the tile memory has 65 banks; tiling handles up to "
               "64");
    test_target(&t, 1 << 20);
    t.dma.channels = CG_TILE_MAX_CHANNELS + 1;
    over_limit(&b, &t, "the DMA engine has 65 channels; tiling handles up "
               "to 64");
    t.dma_loc = (cg_loc){"a.xml", 49};
    over_limit_at(&b, &t, "the DMA engine has 65 channels; tiling handles "
                  "up to 64", "a.xml", 49);
    test_target(&t, 1 << 20);
    t.banks = CG_TILE_MAX_BANKS + 1;
    t.mem_loc = (cg_loc){"a.xml", 48};
    over_limit_at(&b, &t, "the tile memory has 65 banks; tiling handles up "
                  "to 64", "a.xml", 48);
    /* c[i] = sum of CG_TILE_MAX_ARRAYS + 1 arrays' i-th elements */
    enum { N = CG_TILE_MAX_ARRAYS + 1 };
    cg_nest_array arr[N];
    cg_nest_access acc[N];
    char names[N][8];
    for (int a = 0; a < N; a++) {
        snprintf(names[a], sizeof names[a], "a%d", a);
        arr[a] = b.arr[0];
        arr[a].name = names[a];
        arr[a].base = 0x1000 + 0x1000 * a;
        acc[a] = b.acc[0];
        acc[a].node = a;
        acc[a].array = a;
        acc[a].is_store = a == N - 1;
    }
    b.n.arrays = arr;
    b.n.accesses = acc;
    b.n.narrays = b.n.naccesses = N;
    test_target(&t, 1 << 20);
    over_limit(&b, &t, "the loop nest touches 65 arrays; tiling handles up "
               "to 64");
    b.n.narrays = b.n.naccesses = N - 1;
    cg_diags *d = cg_diags_create();
    cg_tile_model *m = cg_tile_model_build(&b.n, "k.c", d);
    cg_tile_plan *pl = cg_tile_plan_model(m, &t, NULL, d);
    assert_non_null(pl);
    cg_tile_plan_destroy(pl);
    cg_tile_model_destroy(m);
    cg_diags_destroy(d);
}

/* gemm's plan with search parameters w: its candidates and bound. */
static const cg_tile_summary *plan_with(const nestb *b,
                                        const cg_tile_target *t,
                                        const cg_tile_search_params *w,
                                        planned *out)
{
    cg_diags *d = cg_diags_create();
    cg_tile_params p;
    cg_tile_params_init(&p);
    p.search = *w;
    out->model = cg_tile_model_build(&b->n, "k.c", d);
    out->plan = cg_tile_plan_model(out->model, t, &p, d);
    assert_non_null(out->plan);
    cg_diags_destroy(d);
    return cg_tile_plan_summary(out->plan);
}

/* A narrower search evaluates fewer candidates; a coarser relaxation
 * gives the halo bound another value. */
static void search_reads_its_params(void **state)
{
    (void)state;
    nestb b;
    nest_gemm(&b, 96, 80, 72);
    cg_tile_target t;
    test_target(&t, 8192);
    cg_tile_params dflt;
    cg_tile_params_init(&dflt);
    planned full, narrow;
    const cg_tile_summary *f = plan_with(&b, &t, &dflt.search, &full);
    cg_tile_search_params w = dflt.search;
    w.coarse_keep = 0;
    w.coarse_step = 2;
    w.window_radius = 1;
    w.all_orders_upto = 1;
    const cg_tile_summary *n = plan_with(&b, &t, &w, &narrow);
    assert_true(n->candidates < f->candidates);
    assert_true(n->traffic >= f->traffic);
    planned_free(&full);
    planned_free(&narrow);
    nest_jacobi(&b, 200);
    const cg_tile_summary *fj = plan_with(&b, &t, &dflt.search, &full);
    w = dflt.search;
    w.bound_grid[0] = 1;
    w.bound_bisect = 0;
    const cg_tile_summary *cj = plan_with(&b, &t, &w, &narrow);
    assert_int_equal(fj->bound_kind, CG_TILE_BOUND_HALO);
    assert_true(cj->bound != fj->bound);
    planned_free(&full);
    planned_free(&narrow);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults),
        cmocka_unit_test(out_of_range),
        cmocka_unit_test(limits),
        cmocka_unit_test(search_reads_its_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
