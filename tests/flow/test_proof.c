/* test_proof.c: what a mapping proved (flow/proof.c), from mapper
 * results made up II by II: optimal at the MII, optimal by proofs, open
 * IIs that hit the limit or were never tried (and what is proven below
 * them), a loop that did not map.
 * The texts are exact: they are the rows' proof column and the note under
 * an open row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "flow/flow.h"
#include "tests/flow/proof_fixture.h"

static void expect(const cg_map_result *r, const char *text,
                   const char *hint)
{
    cg_flow_proof p;
    cg_flow_proof_of(r, 60, &p);
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

/* An open II where the register bound leaves less than a tenth of the
 * register slots to routes says so; at more than a tenth, nothing. */
static void test_tight_registers(void **state)
{
    (void)state;
    cg_map_result r = result(CG_MAP_TIMEOUT, 4, 4, 4, "tt");
    r.tried[0].reg_need = 254, r.tried[0].reg_have = 256;
    r.tried[1].reg_need = 271, r.tried[1].reg_have = 320; /* 85 % */
    expect(&r, "open: II 4..5", "II 4..5 hit the work limit (--steps, "
           "--moves, --conflicts, --ilp-nodes) without a mapping or a proof; "
           "at II 4 the waits alone take at least 254 of the array's 256 "
           "register slots (the register bound): an array with more "
           "registers may settle it; no II mapped: larger work limits, "
           "--solver cbc or a larger --max-ii may map it");
}

static void test_open(void **state)
{
    (void)state;
    cg_map_result r = result(CG_MAP_MAPPED, 2, 1, 2, "ittm");
    expect(&r, "open: II 3..4", "II 3..4 hit the work limit (--steps, "
           "--moves, --conflicts, --ilp-nodes) without a mapping or a proof; "
           "II 2 proven infeasible; II 5 may not be the "
           "least: larger work limits or --solver cbc may map a lower II or "
           "prove it infeasible");
    /* the wall clock, not a work limit, ended II 4 */
    r.tried[2].capped = true;
    expect(&r, "open: II 3..4", "II 3 hit the work limit (--steps, "
           "--moves, --conflicts, --ilp-nodes) without a mapping or a proof; II 4 hit the "
           "wall-clock cap per II (--timeout 60 s): a faster or idle machine "
           "may settle it; II 2 proven infeasible; II 5 may not be the least: "
           "larger work limits or "
           "--solver cbc may map a lower II or prove it infeasible");
    /* the loop's --time-limit was the cap that fired at II 3: named */
    r.tried[1].capped = r.tried[1].loop_capped = true;
    r.time_limit_s = 30;
    expect(&r, "open: II 3..4", "II 4 hit the wall-clock cap per II "
           "(--timeout 60 s): a faster or idle machine may settle it; II 3 "
           "hit the loop's wall-clock cap (--time-limit 30 s): a larger "
           "--time-limit or a faster machine may settle it; II 2 proven "
           "infeasible; II 5 may not be "
           "the least: larger work limits or --solver cbc may map a lower II "
           "or prove it infeasible");
    /* a search that skips IIs: those are open too, and a timeout between
     * proofs is its own range */
    r = result(CG_MAP_MAPPED, 2, 2, 2, ".it.im");
    expect(&r, "open: II 2, 4..5", "II 4 hit the work limit (--steps, "
           "--moves, --conflicts, --ilp-nodes) without a mapping or a proof; II 2, 5 were not "
           "tried; II 3, 6 proven infeasible; II 7 may not be the least: "
           "larger work limits or "
           "--solver cbc may map a lower II or prove it infeasible");
    /* --ii 4: the IIs below were skipped, not searched, so neither larger
     * work limits nor CBC is the advice (they once were) */
    r = result(CG_MAP_MAPPED, 2, 2, 2, "..m");
    r.min_ii = 4;
    expect(&r, "open: II 2..3", "II 2..3 were not tried (--ii 4 starts "
           "above them); II 4 may not be the least: a search of the IIs "
           "below it may map one or prove them infeasible");
    /* SAT refuted the schedules of II 3 up to slack 1, then its limits
     * ended the search: still open, and the note says how far the proof
     * went */
    r = result(CG_MAP_MAPPED, 2, 1, 2, "ittm");
    r.tried[1].refuted = 1;
    r.tried[2].refuted = 0;
    expect(&r, "open: II 3..4", "II 3..4 hit the work limit (--steps, "
           "--moves, --conflicts, --ilp-nodes) without a mapping or a proof; "
           "II 3 has no mapping whose schedule is at most 1 cycle longer "
           "than the shortest (the SAT mapper's limits ended the search "
           "beyond); II 4 has no mapping with the shortest schedule (the SAT "
           "mapper's limits ended the search beyond); II 2 proven infeasible; "
           "II 5 may not be the least: larger work limits or "
           "--solver cbc may map a lower II or prove it infeasible");
    /* below an open II, one SAT refuted within a slack: the note says the
     * proof covers that slack, as the optimal row's text would */
    r = result(CG_MAP_MAPPED, 1, 1, 1, "itm");
    r.tried[0].by = CG_BY_SAT;
    r.tried[0].horizon = 4;
    expect(&r, "open: II 2", "II 2 hit the work limit (--steps, --moves, "
           "--conflicts, --ilp-nodes) without a mapping or a proof; II 1 "
           "proven infeasible (the SAT mapper's refutations cover schedules "
           "up to 4 cycles longer than the shortest); II 3 may not be the "
           "least: larger work limits or --solver cbc may map a lower II or "
           "prove it infeasible");
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
           "--moves, --conflicts, --ilp-nodes) without a mapping or a proof; "
           "II 1 proven infeasible; no II mapped: larger "
           "work limits, --solver cbc or a larger --max-ii may map it");
    r = result(CG_MAP_INFEASIBLE, 1, 1, 1, "iiii");
    expect(&r, "-", "every II from 1 to 4 is proven infeasible: a larger "
           "--max-ii or an array with more units may map it");
    r = result(CG_MAP_ERROR, 0, 0, 0, "");
    expect(&r, "-", "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_optimal),
        cmocka_unit_test(test_open),
        cmocka_unit_test(test_tight_registers),
        cmocka_unit_test(test_not_mapped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
