/* test_area.c: yosys's area of tests/rtl/data/tiny.xml (rtl/area.c): each
 * module once, the array's totals within 5% of the figures recorded when
 * the test was written (yosys 0.23, 16 contexts: 9853 cells, 1520
 * flip-flops, 24209 NAND2-equivalents), 93 configuration bits per PE per
 * context, a second run read from the cache; the same figures from three
 * yosys runs at a time into a fresh cache; the first module named when
 * yosys is missing; the weight table's values. */
#include <dirent.h>

#include "rtl_test_util.h"

static void near(double got, double want)
{
    if (got < want * 0.95 || got > want * 1.05)
        fail_msg("%g is not within 5%% of %g", got, want);
}

/* tiny.xml's RTL at the default parameters, with its diagnostics. */
typedef struct tiny {
    cg_netlist *nl;
    cg_diags *d;
    cg_rtl *r;
} tiny;

static tiny tiny_open(void)
{
    tiny t = {load("tests/rtl/data/tiny.xml"), cg_diags_create(), NULL};
    cg_rtl_params p;
    cg_rtl_params_init(&p);
    t.r = cg_rtl_create(t.nl, &p, t.d);
    assert_non_null(t.r);
    return t;
}

static void tiny_close(tiny *t)
{
    cg_rtl_destroy(t->r);
    cg_netlist_destroy(t->nl);
    cg_diags_destroy(t->d);
}

static void test_tiny(void **state)
{
    (void)state;
    need_tool("yosys");
    tiny t = tiny_open();
    cg_rtl *r = t.r;
    cg_diags *d = t.d;
    cg_rtl_area a;
    int rc = cg_rtl_area_of(r, cache_dir(), 1, &a, d);
    cg_diags_print(d, stderr);
    assert_int_equal(rc, 0);
    assert_int_equal(a.nmodules, 9);
    near((double)a.cells, 9853);
    near((double)a.ffs, 1520);
    near(a.nand2, 24209);
    cg_rtl_area_free(&a);
    assert_int_equal(cg_rtl_area_of(r, cache_dir(), 1, &a, d), 0);
    assert_int_equal(a.cached, 9);
    cg_rtl_area_free(&a);
    int least, most;
    double mean;
    cg_rtl_bits_per_block(r, &least, &most, &mean);
    assert_int_equal(least, 93);
    assert_int_equal(most, 93);
    tiny_close(&t);
}

/* A fresh folder under the build folder for a cache of its own. */
static char *fresh_cache(char *buf, size_t n)
{
    snprintf(buf, n, "%s", scratch("area.XXXXXX"));
    assert_non_null(mkdtemp(buf));
    return buf;
}

/* Three modules synthesized at a time give what one at a time gave (the
 * shared cache holds test_tiny's figures), module by module. */
static void test_jobs(void **state)
{
    (void)state;
    need_tool("yosys");
    tiny t = tiny_open();
    cg_rtl *r = t.r;
    cg_diags *d = t.d;
    char dir[1024];
    cg_rtl_area one, three;
    assert_int_equal(cg_rtl_area_of(r, cache_dir(), 1, &one, d), 0);
    assert_int_equal(cg_rtl_area_of(r, fresh_cache(dir, sizeof dir), 3,
                                    &three, d), 0);
    cg_diags_print(d, stderr);
    assert_int_equal(three.cached, 0);
    assert_int_equal(three.nmodules, one.nmodules);
    for (int i = 0; i < one.nmodules; i++) {
        assert_int_equal(three.mod[i].cells, one.mod[i].cells);
        assert_int_equal(three.mod[i].ffs, one.mod[i].ffs);
        assert_int_equal(three.mod[i].ntypes, one.mod[i].ntypes);
    }
    assert_int_equal(three.cells, one.cells);
    assert_true(three.nand2 == one.nand2);
    cg_rtl_area_free(&one);
    cg_rtl_area_free(&three);
    cg_rtl_remove_tree(dir);
    tiny_close(&t);
}

/* Without yosys on PATH: -1, and the error says yosys is missing (it
 * once blamed the first module, as if yosys had failed on it). */
static void test_no_yosys(void **state)
{
    (void)state;
    tiny t = tiny_open();
    cg_rtl *r = t.r;
    cg_diags *d = t.d;
    char dir[1024], *path = strdup(getenv("PATH"));
    cg_rtl_area a;
    setenv("PATH", fresh_cache(dir, sizeof dir), 1); /* nothing in it */
    int rc = cg_rtl_area_of(r, dir, 2, &a, d);
    setenv("PATH", path, 1);
    free(path);
    assert_int_equal(rc, -1);
    assert_int_equal(cg_diags_size(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->msg, "yosys is not installed "
                        "(scripts/setup.sh installs it): the area comes from "
                        "its synthesis of the array's modules");
    DIR *dp = opendir(dir); /* yosys's folders are gone */
    assert_non_null(dp);
    int left = 0;
    for (struct dirent *e; (e = readdir(dp));)
        left += e->d_name[0] != '.';
    closedir(dp);
    assert_int_equal(left, 0);
    cg_rtl_remove_tree(dir);
    tiny_close(&t);
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
        cmocka_unit_test(test_jobs),
        cmocka_unit_test(test_no_yosys),
        cmocka_unit_test(test_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
