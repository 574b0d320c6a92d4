/* test_verilog.c: the Verilog and the bit map of tests/rtl/data/tiny.xml
 * (one PE with a primitive of every kind, read by eye when it was locked
 * in) are byte-identical to golden/tiny.v and golden/tiny_bitmap.json
 * (tests/common/golden.h: CG_UPDATE_GOLDEN=1 rewrites them);
 * the layout's figures (modules, chain length, a FuncUnit's fields) are
 * what the bit map says; parameters out of range are refused by name. */
#include "rtl_test_util.h"
#include "tests/common/golden.h"

static char *text_of(int (*fn)(const cg_rtl *, FILE *), const cg_rtl *r)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    assert_int_equal(fn(r, f), 0);
    fclose(f);
    return s;
}

static cg_rtl *tiny(cg_netlist **nl)
{
    cg_rtl_params p;
    cg_rtl_params_init(&p);
    *nl = load("tests/rtl/data/tiny.xml");
    cg_diags *d = cg_diags_create();
    cg_rtl *r = cg_rtl_create(*nl, &p, d);
    assert_non_null(r);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
    return r;
}

static void test_golden(void **state)
{
    (void)state;
    cg_netlist *nl;
    cg_rtl *r = tiny(&nl);
    char *v = text_of(cg_rtl_write_verilog, r);
    char *j = text_of(cg_rtl_write_bitmap, r);
    cg_golden_check("tests/rtl/golden/tiny.v", v);
    cg_golden_check("tests/rtl/golden/tiny_bitmap.json", j);
    free(v);
    free(j);
    cg_rtl_destroy(r);
    cg_netlist_destroy(nl);
}

/* 9 modules (3- and 2-input muxes differ); 2 x 4 control bits, then 16
 * contexts of: const 8, func 44, three muxes 2 each, io 2, mem 26, two
 * muxes 1 each, reg-in mux 1, register file 3, tristate 1. */
static void test_layout(void **state)
{
    (void)state;
    cg_netlist *nl;
    cg_rtl *r = tiny(&nl);
    assert_int_equal(cg_rtl_nmodules(r), 9);
    assert_int_equal(cg_rtl_chain_length(r),
                     8 + 16 * (8 + 44 + 6 + 2 + 26 + 2 + 1 + 3 + 1));
    int f = cg_netlist_find_prim(nl, "block_0_0.func");
    const cg_rtl_inst *in = cg_rtl_inst_of(r, f);
    assert_int_equal(in->per_context, 44);
    assert_int_equal(in->base, 8 + 16 * 8);
    assert_string_equal(in->fields[0].name, "op");
    assert_int_equal(cg_rtl_op_code(r, f, CG_OP_ADD), 2);
    assert_int_equal(cg_rtl_op_code(r, f, CG_OP_MUL), 0);
    assert_string_equal(cg_rtl_inst_name(r, f), "p1_block_0_0_func");
    int reg = cg_netlist_find_prim(nl, "block_0_0.reg");
    assert_int_equal(cg_rtl_inst_of(r, reg)->base, -1);
    cg_rtl_destroy(r);
    cg_netlist_destroy(nl);
}

static void test_bad_params(void **state)
{
    (void)state;
    cg_netlist *nl = load("tests/rtl/data/tiny.xml");
    cg_rtl_params p;
    cg_rtl_params_init(&p);
    p.contexts = 65;
    cg_diags *d = cg_diags_create();
    assert_null(cg_rtl_create(nl, &p, d));
    char *s = diag_lines(d);
    assert_string_equal(s, "RTL parameters out of range: contexts 65 "
                        "(1..64), stage bits 8 (1..16), distance bits 3 "
                        "(1..8)\n");
    free(s);
    cg_diags_destroy(d);
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
