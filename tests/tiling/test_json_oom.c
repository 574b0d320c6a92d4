/* test_json_oom.c: the tiling's JSON (cg_tile_write_json and the builders
 * of tiling/print.c, program.c, desc_export.c) under allocation failure.
 * jansson allocates through json_set_alloc_funcs, here a counter that
 * fails its n-th allocation (tests/fuzz/failmalloc.c fails only the
 * program's own allocations, never jansson's).  For every n, each builder
 * returns the whole object or NULL, and cg_tile_write_json returns -1
 * with ENOMEM: never a JSON with an entry left out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>

#include "tests/tiling/nests.h"
#include "tests/tiling/tile_test_util.h"
#include "tiling/tile.h"
#include "tiling/tile_internal.h"

/* jansson's allocations: counted, the fail_at-th (from 1) failed, none
 * when fail_at is 0. */
static long count, fail_at;

static void *counting_malloc(size_t n)
{
    if (++count == fail_at)
        return NULL;
    return malloc(n);
}

static void start_counting(long at)
{
    count = 0;
    fail_at = at;
}

/* jacobi 10x10 on 256 bytes: its plan, program and schedule. */
typedef struct fixture {
    planned p;
    cg_tile_program *g;
    cg_tile_sched s;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    nestb b;
    nest_jacobi(&b, 10);
    cg_tile_target t;
    test_target(&t, 256);
    f->p = plan(&b, &t);
    cg_diags *d = cg_diags_create();
    f->g = cg_tile_program_build(f->p.plan, d);
    assert_non_null(f->g);
    assert_int_equal(cg_tile_schedule(f->p.plan, f->g, 1, 8, &f->s, d), 0);
    cg_diags_destroy(d);
    json_set_alloc_funcs(counting_malloc, free);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    json_set_alloc_funcs(malloc, free);
    cg_tile_program_destroy(f->g);
    planned_free(&f->p);
    free(f);
    return 0;
}

/* The whole JSON text, as cg_tile_write_json writes it; NULL when it
 * returns -1 (then errno is ENOMEM). */
static char *written(const fixture *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    int rc = cg_tile_write_json(f->p.plan, f->g, &f->s, out);
    int err = errno;
    fclose(out);
    if (rc == 0)
        return buf;
    assert_int_equal(rc, -1);
    assert_int_equal(err, ENOMEM);
    free(buf);
    return NULL;
}

/* Each of jansson's allocations failed in turn: -1, or (when the one
 * failed was not needed) exactly the normal text. */
static void write_json_whole_or_nothing(void **state)
{
    fixture *f = *state;
    start_counting(0);
    char *want = written(f);
    assert_non_null(want);
    long total = count;
    assert_true(total > 100); /* jacobi10's 8 descriptors and more */
    long failed = 0;
    for (long n = 1; n <= total; n++) {
        start_counting(n);
        char *got = written(f);
        if (got)
            assert_string_equal(got, want);
        else
            failed++;
        free(got);
    }
    assert_int_equal(failed, total); /* every allocation was needed */
    free(want);
}

/* json, dumped, or NULL. */
static char *dumped(json_t *j)
{
    char *s = j ? json_dumps(j, JSON_SORT_KEYS) : NULL;
    json_decref(j);
    return s;
}

/* The builders one by one: the same object or NULL. */
static void builders_whole_or_null(void **state)
{
    fixture *f = *state;
    const cg_tile_descs *l = cg_tile_program_descs(f->g);
    for (int which = 0; which < 3; which++) {
        start_counting(0);
        json_t *j = which == 0   ? cg__tile_plan_json(f->p.plan)
                    : which == 1 ? cg__tile_program_json(f->g, f->p.plan)
                                 : cg__tile_desc_json(&l->v[0], f->p.model);
        long total = count;
        char *want = dumped(j);
        assert_non_null(want);
        for (long n = 1; n <= total; n++) {
            start_counting(n);
            j = which == 0   ? cg__tile_plan_json(f->p.plan)
                : which == 1 ? cg__tile_program_json(f->g, f->p.plan)
                             : cg__tile_desc_json(&l->v[0], f->p.model);
            start_counting(0);
            bool built = j != NULL;
            char *got = dumped(j);
            if (built)
                assert_string_equal(got, want);
            free(got);
        }
        free(want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(write_json_whole_or_nothing, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(builders_whole_or_null, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
