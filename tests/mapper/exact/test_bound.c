/* test_bound.c: the register bound (mapper/exact/bound.c): it proves an II
 * impossible when the routes would need more registers than the MRRG has,
 * and never rejects an II that a mapping exists for (checked against the
 * heuristic's mappings). */
#include "../glpk_reset.h"
#include "../ilp_test_util.h"

#include "mapper/search/heur_internal.h"

static int bound(const cg_netlist *nl, const cg_dfg *g, int ii)
{
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, ii, d);
    assert_non_null(m);
    int rc = cg__bound_registers(nl, m, g, d);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    return rc;
}

static bool maps(const cg_netlist *nl, const cg_dfg *g, int ii)
{
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, ii, d);
    cg__heur_opts o = {5,    1,     NULL, 0, 2000, 0, 0,
                       0,    false, NULL, 0, NULL, 0, NULL};
    cg_mapping *map = NULL;
    assert_true(cg__heur_map(nl, m, g, &o, &map, d) >= 0);
    bool ok = map && cg_map_check(nl, m, g, map, d) == 0;
    cg_mapping_destroy(map);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    return ok;
}

/* On the 2x2 (4 registers per context): 4 adds, the sub and the wait of
 * x's direct route need at least 4 + 1 + 4 > 4 registers at II=1 and
 * 9 > 8 at II=2; a chain of 1 maps at II=1 and is not rejected. */
static void test_proves_and_agrees(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = long_and_short(4);
    assert_int_equal(bound(nl, g, 1), 1);
    assert_int_equal(bound(nl, g, 2), 1);
    assert_int_equal(bound(nl, g, 3), 0);
    cg_dfg *g1 = long_and_short(1);
    assert_int_equal(bound(nl, g1, 1), 0);
    assert_true(maps(nl, g1, 1));
    /* never a proof where the heuristic finds a checked mapping */
    for (int len = 1; len <= 4; len++) {
        cg_dfg *h = long_and_short(len);
        for (int ii = 1; ii <= 4; ii++)
            if (maps(nl, h, ii))
                assert_int_equal(bound(nl, h, ii), 0);
        cg_dfg_destroy(h);
    }
    cg_dfg_destroy(g);
    cg_dfg_destroy(g1);
    cg_netlist_destroy(nl);
}

/* A recurrence that cannot close: tiny's adder of latency 1 feeding
 * itself through its register needs 2 cycles, so II=1 is impossible. */
static void test_recurrence_too_short(void **state)
{
    (void)state;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 1);
    cg_dfg *g = accumulator(false);
    assert_int_equal(bound(nl, g, 1), 1);
    assert_int_equal(bound(nl, g, 2), 0);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* GLPK out of memory on the bound's LP (its memory limit set to 1 MB):
 * an error naming the LP and GLPK's reason, not the end of the process;
 * GLPK starts afresh, so the same bound then runs. */
static void test_glpk_out_of_memory(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = long_and_short(300); /* an LP past 1 MB */
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 1, d);
    glp_mem_limit(1); /* MB */
    assert_int_equal(cg__bound_registers(nl, m, g, d), -1);
    assert_int_equal(cg_diags_errors(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->msg,
                        "GLPK stopped on the register bound's LP of 'ls' "
                        "at II=1: glp_alloc: memory allocation limit "
                        "exceeded");
    assert_int_equal(cg__bound_registers(nl, m, g, d), 1);
    assert_int_equal(cg_diags_errors(d), 1);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_proves_and_agrees),
        cmocka_unit_test(test_recurrence_too_short),
        cmocka_unit_test_teardown(test_glpk_out_of_memory, glpk_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
