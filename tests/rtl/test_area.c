/* test_area.c: yosys's area of tests/rtl/data/tiny.xml (rtl/area.c): each
 * module once, the array's totals within 5% of the figures recorded when
 * the test was written (yosys 0.23, 16 contexts: 9853 cells, 1520
 * flip-flops, 24209 NAND2-equivalents), 93 configuration bits per PE per
 * context, a second run read from the cache; the weight table's values. */
#include "rtl_test_util.h"

static void near(double got, double want)
{
    if (got < want * 0.95 || got > want * 1.05)
        fail_msg("%g is not within 5%% of %g", got, want);
}

static void test_tiny(void **state)
{
    (void)state;
    need_tool("yosys");
    cg_netlist *nl = load("tests/rtl/data/tiny.xml");
    cg_rtl_params p;
    cg_rtl_params_init(&p);
    cg_diags *d = cg_diags_create();
    cg_rtl *r = cg_rtl_create(nl, &p, d);
    cg_rtl_area a;
    int rc = cg_rtl_area_of(r, cache_dir(), &a, d);
    cg_diags_print(d, stderr);
    assert_int_equal(rc, 0);
    assert_int_equal(a.nmodules, 9);
    near((double)a.cells, 9853);
    near((double)a.ffs, 1520);
    near(a.nand2, 24209);
    cg_rtl_area_free(&a);
    assert_int_equal(cg_rtl_area_of(r, cache_dir(), &a, d), 0);
    assert_int_equal(a.cached, 9);
    cg_rtl_area_free(&a);
    int least, most;
    double mean;
    cg_rtl_bits_per_block(r, &least, &most, &mean);
    assert_int_equal(least, 93);
    assert_int_equal(most, 93);
    cg_rtl_destroy(r);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

static void test_weights(void **state)
{
    (void)state;
    assert_true(cg_rtl_nand2_weight("$_NAND_") == 1.0);
    assert_true(cg_rtl_nand2_weight("$_MUX_") == 2.33);
    assert_true(cg_rtl_nand2_weight("$_DFF_P_") == 4.67);
    assert_true(cg_rtl_nand2_weight("$_DFFE_PP_") == 5.67);
    assert_true(cg_rtl_nand2_weight("$_SDFF_PP0_") == 5.67);
    assert_true(cg_rtl_nand2_weight("$_XYZ_") == 1.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiny),
        cmocka_unit_test(test_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
