/* test_map_cols.c: the columns a row gets from a mapper result
 * (cli/map_cols.c), made up II by II; what the proof texts say is tested
 * in tests/flow/test_proof.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli/bench.h"
#include "tests/flow/proof_fixture.h"

/* The record's columns: MII parts, the bottleneck only when ResMII > 1,
 * no usage columns without a mapping. */
static void test_cols(void **state)
{
    (void)state;
    cg_map_result r = result(CG_MAP_TIMEOUT, 3, 1, 3, "t");
    json_t *c = cg_cli_map_cols(&r, NULL, 60);
    assert_int_equal(json_integer_value(json_object_get(c, "res_mii")), 3);
    assert_int_equal(json_integer_value(json_object_get(c, "rec_mii")), 1);
    assert_string_equal(json_string_value(json_object_get(c, "bottleneck")),
                        "load");
    assert_string_equal(json_string_value(json_object_get(c, "proof")),
                        "open: II 3");
    assert_null(json_object_get(c, "funcunits"));
    /* no "refuted" on a try that SAT did not refute in part */
    json_t *t0 = json_array_get(json_object_get(c, "tries"), 0);
    assert_non_null(t0);
    assert_null(json_object_get(t0, "refuted"));
    /* nor the register bound's figures when not known */
    assert_null(json_object_get(t0, "reg_need"));
    json_decref(c);
    r.tried[0].refuted = 2; /* SAT refuted slacks 0..2, then its limit */
    c = cg_cli_map_cols(&r, NULL, 60);
    t0 = json_array_get(json_object_get(c, "tries"), 0);
    assert_int_equal(json_integer_value(json_object_get(t0, "refuted")), 2);
    assert_null(json_object_get(t0, "horizon"));
    json_decref(c);
    r.tried[0].reg_need = 254; /* the register bound's figures */
    r.tried[0].reg_have = 256;
    c = cg_cli_map_cols(&r, NULL, 60);
    t0 = json_array_get(json_object_get(c, "tries"), 0);
    assert_int_equal(json_integer_value(json_object_get(t0, "reg_need")), 254);
    assert_int_equal(json_integer_value(json_object_get(t0, "reg_have")), 256);
    json_decref(c);
    r = result(CG_MAP_MAPPED, 1, 2, 2, "m");
    r.mapping = NULL; /* no usage without a mapping */
    c = cg_cli_map_cols(&r, NULL, 60);
    assert_true(json_is_null(json_object_get(c, "bottleneck")));
    assert_int_equal(json_integer_value(json_object_get(c, "mii")), 2);
    json_decref(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cols),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
