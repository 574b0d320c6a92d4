/* test_arch.c: the building C API of arch/arch.c: primitive kinds and
 * defaults, and a small hand-written array that must flatten to exactly
 * the netlist of its XML equivalent. */
#include "arch_test_util.h"

#include "xml/xml.h"

static void test_kinds_and_defaults(void **state)
{
    (void)state;
    static const char *const names[] = {"FuncUnit", "MEMUnit", "Register",
                                        "Multiplexer", "TriState", "IO",
                                        "RegisterFile", "ConstUnit"};
    for (int k = 0; k < CG_PRIM_COUNT; k++) {
        cg_prim_kind got;
        assert_string_equal(cg_prim_kind_name((cg_prim_kind)k), names[k]);
        assert_true(cg_prim_kind_parse(names[k], &got));
        assert_int_equal(got, k);
    }
    cg_prim_kind got;
    assert_false(cg_prim_kind_parse("funcunit", &got));
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_FUNC);
    assert_int_equal(p.width, 32);
    assert_int_equal(p.latency, 0);
    assert_true(p.ops == (CG_OPSET(CG_OP_ADD) | CG_OPSET(CG_OP_SUB)));
    cg_prim_params_init(&p, CG_PRIM_MEM);
    assert_true(p.ops == (CG_OPSET(CG_OP_LOAD) | CG_OPSET(CG_OP_STORE)));
    assert_int_equal(p.bank, -1);
    assert_null(p.memory);
    cg_prim_params_init(&p, CG_PRIM_MUX);
    assert_int_equal(p.ninput, 2);
    cg_prim_params_init(&p, CG_PRIM_REGFILE);
    assert_int_equal(p.ninput, 1);
    assert_int_equal(p.noutput, 1);
    assert_int_equal(p.log2_nregs, 2);
    cg_dma_params dma;
    cg_dma_params_init(&dma);
    assert_int_equal(dma.channels, 1);
    assert_int_equal(dma.max_dims, 4);
    assert_true(dma.bytes_per_cycle == 4.0);
    cg_arch_destroy(NULL);
    cg_netlist_destroy(NULL);
    /* module ids the API never gave are errors, not crashes */
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    assert_int_equal(cg_arch_add_port(a, 3, "x", CG_DIR_IN, 8, d), -1);
    assert_int_equal(cg_arch_connect(a, -1, "x", "y", d), -1);
    cg_arch_set_position(a, 0, 0, 1, 1);
    int m = cg_arch_module_define(a, "m", d);
    assert_int_equal(cg_arch_connect(a, m, " ", "y", d), -1);
    assert_int_equal(cg_diags_size(d), 3);
    expect_diag(d, 2, "error: a connection needs a source and a target (got "
                      "from=' ', to='y')");
    expect_diag(d, 0, "error: module id 3 does not exist "
                      "(cg_arch_module_define returned it?)");
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* The same 2x2 array in XML... */
static const char *const xml =
    "<cgra>\n"
    "<module name=\"pe\">\n"
    "  <input name=\"in0\"/><input name=\"in1\"/><output name=\"out\"/>\n"
    "  <inst name=\"alu\" module=\"FuncUnit\" op=\"add mul select\" latency=\"1\"/>\n"
    "  <inst name=\"k\" module=\"ConstUnit\"/>\n"
    "  <inst name=\"r\" module=\"Register\"/>\n"
    "  <connection select-from=\"this.in0 this.in1 k.out\" to=\"alu.in_a alu.in_b\"/>\n"
    "  <connection from=\"r.out\" to=\"alu.in_c\"/>\n"
    "  <connection from=\"alu.out\" to=\"r.in\"/>\n"
    "  <connection from=\"r.out\" to=\"this.out\"/>\n"
    "</module>\n"
    "<module name=\"mem\">\n"
    "  <input name=\"addr\"/><output name=\"out\"/>\n"
    "  <inst name=\"m\" module=\"MEMUnit\" memory=\"spm\" bank=\"1\"/>\n"
    "  <connection from=\"this.addr\" distribute-to=\"m.addr m.data_in\"/>\n"
    "  <connection from=\"m.data_out\" to=\"this.out\"/>\n"
    "</module>\n"
    "<architecture rows=\"2\" cols=\"2\">\n"
    "  <block module=\"pe\" row=\"0\" col=\"0\"/>\n"
    "  <block module=\"pe\" row=\"0\" col=\"1\"/>\n"
    "  <block module=\"pe\" row=\"1\" col=\"1\"/>\n"
    "  <block module=\"mem\" row=\"1\" col=\"0\"/>\n"
    "  <connection from=\"block_0_0.out\" to=\"block_0_1.in0 block_1_0.addr\"/>\n"
    "  <connection select-from=\"block_0_1.out block_1_0.out\" to=\"block_1_1.in0\"/>\n"
    "  <connection from=\"block_1_1.out\" to=\"block_0_0.in0\"/>\n"
    "  <memory name=\"spm\" bytes=\"2048\" banks=\"2\" ports=\"2\"/>\n"
    "  <dma ext-bytes=\"65536\" bytes-per-cycle=\"8\" setup-cycles=\"3\" "
    "channels=\"2\" max-dims=\"2\"><dim index=\"1\" max-size=\"64\"/></dma>\n"
    "</architecture>\n"
    "</cgra>\n";

/* ...and through the C API. */
static cg_arch *build_c(cg_diags *d)
{
    cg_arch *a = cg_arch_create();
    int pe = cg_arch_module_define(a, "pe", d);
    cg_arch_add_port(a, pe, "in0", CG_DIR_IN, 32, d);
    cg_arch_add_port(a, pe, "in1", CG_DIR_IN, 32, d);
    cg_arch_add_port(a, pe, "out", CG_DIR_OUT, 32, d);
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_FUNC);
    p.ops = CG_OPSET(CG_OP_ADD) | CG_OPSET(CG_OP_MUL) | CG_OPSET(CG_OP_SELECT);
    p.latency = 1;
    cg_arch_add_prim(a, pe, "alu", &p, d);
    cg_prim_params_init(&p, CG_PRIM_CONST);
    cg_arch_add_prim(a, pe, "k", &p, d);
    cg_prim_params_init(&p, CG_PRIM_REG);
    cg_arch_add_prim(a, pe, "r", &p, d);
    const char *ops[] = {"this.in0", "this.in1", "k.out"};
    cg_arch_connect_select(a, pe, ops, 3, "alu.in_a", d);
    cg_arch_connect_select(a, pe, ops, 3, "alu.in_b", d);
    cg_arch_connect(a, pe, "r.out", "alu.in_c", d);
    cg_arch_connect(a, pe, "alu.out", "r.in", d);
    cg_arch_connect(a, pe, "r.out", "out", d);
    int mem = cg_arch_module_define(a, "mem", d);
    cg_arch_add_port(a, mem, "addr", CG_DIR_IN, 32, d);
    cg_arch_add_port(a, mem, "out", CG_DIR_OUT, 32, d);
    cg_prim_params_init(&p, CG_PRIM_MEM);
    p.memory = "spm";
    p.bank = 1;
    cg_arch_add_prim(a, mem, "m", &p, d);
    cg_arch_connect(a, mem, "addr", " m.addr  m.data_in ", d); /* fan-out */
    cg_arch_connect(a, mem, "m.data_out", "this.out", d);
    int top = cg_arch_module_define(a, "architecture", d);
    cg_arch_set_top(a, top);
    cg_arch_set_grid(a, 2, 2);
    static const char *const blocks[][2] = {
        {"block_0_0", "pe"}, {"block_0_1", "pe"}, {"block_1_1", "pe"},
        {"block_1_0", "mem"}};
    for (int i = 0; i < 4; i++) {
        int id = cg_arch_add_submodule(a, top, blocks[i][0], blocks[i][1], d);
        cg_arch_set_position(a, top, id, blocks[i][0][6] - '0',
                             blocks[i][0][8] - '0');
    }
    cg_arch_connect(a, top, "block_0_0.out", "block_0_1.in0 block_1_0.addr",
                    d);
    const char *sel[] = {"block_0_1.out", "block_1_0.out"};
    cg_arch_connect_select(a, top, sel, 2, "block_1_1.in0", d);
    cg_arch_connect(a, top, "block_1_1.out", "block_0_0.in0", d);
    cg_arch_add_memory(a, "spm", 2048, 2, 2, d);
    cg_dma_params dma;
    cg_dma_params_init(&dma);
    dma.ext_bytes = 65536, dma.bytes_per_cycle = 8, dma.setup_cycles = 3;
    dma.channels = 2, dma.max_dims = 2, dma.max_size[1] = 64;
    cg_arch_set_dma(a, &dma, d);
    return a;
}

/* Immediates through the C API: none by default; a unit of another kind
 * and a width of 0 without operands are fine only as defaults. */
static void test_immediates(void **state)
{
    (void)state;
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_FUNC);
    assert_int_equal(p.imm_operands, 0);
    assert_int_equal(p.imm_width, 0);
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    int m = cg_arch_module_define(a, "m", d);
    p.imm_operands = 2;
    p.imm_width = 8;
    assert_true(cg_arch_add_prim(a, m, "f", &p, d) >= 0);
    cg_prim_params_init(&p, CG_PRIM_REG);
    p.imm_operands = 1;
    assert_int_equal(cg_arch_add_prim(a, m, "r", &p, d), -1);
    cg_prim_params_init(&p, CG_PRIM_MEM);
    p.imm_operands = 4; /* data_out is a result */
    assert_int_equal(cg_arch_add_prim(a, m, "mem", &p, d), -1);
    p.imm_operands = 3;
    p.imm_width = -1;
    assert_int_equal(cg_arch_add_prim(a, m, "mem", &p, d), -1);
    assert_int_equal(cg_diags_size(d), 3);
    expect_diag(d, 0, "error: Register 'r' cannot take immediates: only "
                      "FuncUnits and MEMUnits can");
    expect_diag(d, 1, "error: MEMUnit 'mem' has no operand 2 to take an "
                      "immediate (operands: addr, data_in)");
    expect_diag(d, 2, "error: MEMUnit 'mem' needs an immediate width of "
                      "1..32 bits, its width (got -1)");
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

static void test_c_api_equals_xml(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_arch *c = build_c(d);
    assert_int_equal(cg_diags_size(d), 0);
    cg_arch *x = cg_xml_read_memory(xml, "small.xml", NULL, NULL, d);
    if (!x || cg_diags_size(d))
        cg_diags_print(d, stderr);
    assert_non_null(x);
    /* in1 of every pe is left open at the top: no warning, it is a
     * module port; every primitive input is connected inside. */
    assert_int_equal(cg_diags_size(d), 0);
    char *tc = arch_text(c, AS_WRITE), *tx = arch_text(x, AS_WRITE);
    assert_string_equal(tc, tx);
    check_golden("c_api_small.txt", tc);
    free(tc);
    free(tx);
    cg_arch_destroy(c);
    cg_arch_destroy(x);
    cg_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds_and_defaults),
        cmocka_unit_test(test_immediates),
        cmocka_unit_test(test_c_api_equals_xml),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
