/* test_map_cols.c: what a row says a mapping proved (cli/map_cols.c),
 * from mapper results made up II by II: optimal at the MII, optimal by
 * proofs, open IIs that hit the limit or were never tried, a loop that did
 * not map.  The texts are exact: they are the rows' proof column and the
 * note under an open row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "cli/bench.h"

/* A result with MII res/rec and the outcomes of IIs lo, lo+1, ... as a
 * string: 'i' infeasible, 't' timeout, 'm' mapped, '.' not tried. */
static cg_map_result result(cg_map_status st, int res, int rec, int lo,
                            const char *outcomes)
{
    cg_map_result r;
    memset(&r, 0, sizeof r);
    r.status = st;
    r.mii.res_mii = res;
    r.mii.rec_mii = rec;
    r.mii.mii = res > rec ? res : rec;
    r.mii.bottleneck = CG_OP_LOAD;
    for (int k = 0; outcomes[k]; k++) {
        r.ii = lo + k;
        if (outcomes[k] == '.')
            continue;
        r.tried[r.ntried].ii = lo + k;
        r.tried[r.ntried++].outcome = outcomes[k] == 'i' ? CG_II_INFEASIBLE
                                    : outcomes[k] == 't' ? CG_II_TIMEOUT
                                    : CG_II_MAPPED;
    }
    return r;
}

static void expect(const cg_map_result *r, const char *text,
                   const char *hint)
{
    cg_cli_proof p;
    cg_cli_proof_of(r, 60, &p);
    assert_string_equal(p.text, text);
    assert_string_equal(p.hint, hint);
}

static void test_optimal(void **state)
{
    (void)state;
    cg_map_result r = result(CG_MAP_MAPPED, 2, 1, 2, "m");
    expect(&r, "optimal", "II 2 is the MII (ResMII 2, RecMII 1), a lower "
           "bound");
    r = result(CG_MAP_MAPPED, 1, 2, 2, "iim");
    expect(&r, "optimal", "II 2..3 proven infeasible, so II 4 is the least");
}

static void test_open(void **state)
{
    (void)state;
    cg_map_result r = result(CG_MAP_MAPPED, 2, 1, 2, "ittm");
    expect(&r, "open: II 3..4", "II 3..4 hit the work limit (--steps, "
           "--ilp-nodes) without a mapping or a proof; II 5 may not be the "
           "least: larger work limits or --solver cbc may map a lower II or "
           "prove it infeasible");
    /* the wall clock, not a work limit, ended II 4 */
    r.tried[2].capped = true;
    expect(&r, "open: II 3..4", "II 3 hit the work limit (--steps, "
           "--ilp-nodes) without a mapping or a proof; II 4 hit a "
           "wall-clock cap (--timeout 60 s, or --time-limit): a faster or "
           "idle machine may settle it; II 5 may not be the least: larger work "
           "limits or --solver cbc may map a lower II or prove it "
           "infeasible");
    /* a search that skips IIs: those are open too, and a timeout between
     * proofs is its own range */
    r = result(CG_MAP_MAPPED, 2, 2, 2, ".it.im");
    expect(&r, "open: II 2, 4..5", "II 4 hit the work limit (--steps, "
           "--ilp-nodes) without a mapping or a proof; II 2, 5 were not "
           "tried; II 7 may not be the least: larger work limits or "
           "--solver cbc may map a lower II or prove it infeasible");
    /* an II timed out once, then proven: settled */
    r = result(CG_MAP_MAPPED, 1, 1, 1, "tm");
    r.tried[r.ntried].ii = 1;
    r.tried[r.ntried++].outcome = CG_II_INFEASIBLE;
    expect(&r, "optimal", "II 1 proven infeasible, so II 2 is the least");
}

static void test_not_mapped(void **state)
{
    (void)state;
    cg_map_result r = result(CG_MAP_TIMEOUT, 1, 1, 1, "itt");
    expect(&r, "open: II 2..3", "II 2..3 hit the work limit (--steps, "
           "--ilp-nodes) without a mapping or a proof; no II mapped: larger "
           "work limits, --solver cbc or a larger --max-ii may map it");
    r = result(CG_MAP_INFEASIBLE, 1, 1, 1, "iiii");
    expect(&r, "-", "every II from 1 to 4 is proven infeasible: a larger "
           "--max-ii or an array with more units may map it");
    r = result(CG_MAP_ERROR, 0, 0, 0, "");
    expect(&r, "-", "");
}

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
    json_decref(c);
    r = result(CG_MAP_MAPPED, 1, 2, 2, "m");
    r.mapping = NULL; /* no usage without a mapping */
    c = cg_cli_map_cols(&r, NULL, 60);
    assert_null(json_object_get(c, "bottleneck"));
    assert_int_equal(json_integer_value(json_object_get(c, "mii")), 2);
    json_decref(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_optimal),
        cmocka_unit_test(test_open),
        cmocka_unit_test(test_not_mapped),
        cmocka_unit_test(test_cols),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
