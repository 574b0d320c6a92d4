/* test_refuted.c: an II the SAT mapper refutes in part.  sobel at II 2
 * on the default array: with the shortest schedule it is refuted within
 * a few hundred conflicts (the probe's tenth, on the whole window, comes
 * first), with one cycle more it takes thousands.  So a limit of 300
 * conflicts leaves II 2 open, and the row says how far the
 * proof went (JSON "refuted": 0, and the note); a limit of 50 ends before
 * even that, and the row says nothing of it.  Conflicts are a work
 * limit, so the same on every machine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "run_cgramap.h"

static json_t *try0(const char *conflicts, run *r)
{
    const char *json = "/tmp/cg_refuted_rows.json";
    const char *const args[] = {"--no-progress", "--mapper", "sat", "--ii",
                                "2", "--timeout", "600", "--conflicts",
                                conflicts, "--json", json,
                                "benchmarks/microbench/sobel", NULL};
    run_cgramap(r, args);
    assert_int_equal(r->status, 1); /* a loop that did not map */
    json_error_t e;
    json_t *rows = json_load_file(json, 0, &e);
    remove(json);
    assert_non_null(rows);
    json_t *row = json_array_get(rows, 0);
    assert_string_equal(json_string_value(json_object_get(row, "proof")),
                        "open: II 2");
    json_t *t = json_deep_copy(
        json_array_get(json_object_get(row, "tries"), 0));
    json_decref(rows);
    assert_int_equal(json_integer_value(json_object_get(t, "ii")), 2);
    assert_string_equal(json_string_value(json_object_get(t, "outcome")),
                        "timeout");
    assert_true(json_is_false(json_object_get(t, "capped")));
    return t;
}

static void test_refuted_in_part(void **state)
{
    (void)state;
    static run r;
    json_t *t = try0("300", &r);
    assert_int_equal(json_integer_value(json_object_get(t, "refuted")), 0);
    json_decref(t);
    assert_non_null(strstr(r.err, "II 2 has no mapping with the shortest "
                                  "schedule (the SAT mapper's limits ended "
                                  "the search beyond)"));
    t = try0("50", &r);
    assert_null(json_object_get(t, "refuted"));
    json_decref(t);
    assert_null(strstr(r.err, "has no mapping"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refuted_in_part),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
