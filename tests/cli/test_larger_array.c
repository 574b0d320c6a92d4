/* test_larger_array.c: a larger array of the same PE never gives a higher
 * II (docs/mapper.md, "Effort and determinism").  The SAT mapper below the
 * heuristic's II on the 8x8 gets only what is left of a wall-clock limit,
 * so this test is not run under the sanitizers (tests/cli/CMakeLists.txt),
 * whose slower build could leave a loop unmapped within it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>

#include "json_rows.h"

static int ii_of(const char *arch, const char *bench)
{
    const char *json = "/tmp/cg_det_ii.json";
    /* the heuristic's II is decided by its steps; the SAT mapper below
       it, on the 8x8's large models, only gets what is left of 60 s and
       at most 20000 conflicts: whatever it maps is lower still */
    json_t *all = rows_of((const char *const[]){
        "--arch", arch, "--time-limit", "60", "--max-ii", "4", "--steps",
        "3000", "--ilp-nodes", "50", "--conflicts", "20000", "--json", json,
        bench, NULL}, json);
    remove(json);
    int ii = (int)json_integer_value(
        json_object_get(json_array_get(all, 0), "ii"));
    json_decref(all);
    return ii;
}

/* The 8x8 default holds the 4x4 default's PEs and more: a loop never maps
 * at a higher II on it (CGRA-Mapper's issue #16 is the failure avoided). */
static void test_larger_array_not_worse(void **state)
{
    (void)state;
    static const char *const benches[] = {
        "benchmarks/microbench/conv3", "benchmarks/microbench/histogram",
        "benchmarks/microbench/mac"};
    for (size_t i = 0; i < sizeof benches / sizeof *benches; i++) {
        int small = ii_of("benchmarks/archs/default_4x4.xml", benches[i]);
        int large = ii_of("benchmarks/archs/default_8x8.xml", benches[i]);
        if (large > small)
            fprintf(stderr, "%s: II %d on 8x8, %d on 4x4\n", benches[i],
                    large, small);
        assert_true(large <= small);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_larger_array_not_worse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
