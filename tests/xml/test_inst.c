/* test_inst.c: instances (xml/inst.c): primitive parameters, opcodes,
 * module parameters with if=, one concrete module per parameter set, and
 * the mistakes: unknown module, attribute, opcode, parameter. */
#include "xml_test_util.h"

/* Wraps a module body (line 1) in a 1x1 architecture (line 2). */
#define ONE(body)                                                             \
    "<cgra><module name=\"m\">" body "</module>\n"                           \
    "<architecture rows=\"1\" cols=\"1\"><pattern><block module=\"m\"/>"     \
    "</pattern></architecture></cgra>\n"

static void test_primitives(void **state)
{
    (void)state;
    expect_golden(ONE("<input name=\"a\" size=\"16\"/><output name=\"o\" size=\"16\"/>"
                      "<inst name=\"fu\" module=\"FuncUnit\" op=\"add mul shra shrl "
                      "div cmp\" size=\"16\" latency=\"2\"/>"
                      "<inst name=\"r\" module=\"Register\" size=\"16\"/>"
                      "<inst name=\"mx\" module=\"Multiplexer\" ninput=\"3\" size=\"16\"/>"
                      "<inst name=\"rf\" module=\"RegisterFile\" ninput=\"2\" "
                      "noutput=\"3\" log2-nregister=\"4\" size=\"16\"/>"
                      "<inst name=\"k\" module=\"ConstUnit\" size=\"16\"/>"
                      "<inst name=\"t\" module=\"TriState\" size=\"16\"/>"
                      "<inst name=\"io\" module=\"IO\" size=\"16\"/>"
                      "<connection from=\"this.a\" to=\"fu.in_a\"/>"
                      "<connection from=\"k.out\" to=\"fu.in_b\"/>"
                      "<connection from=\"fu.out\" to=\"r.in\"/>"
                      "<connection from=\"r.out\" to=\"this.o\"/>"),
                  "inst_prims.txt", 0);
}

/* The real-file idiom: a FuncUnit only when mode is not empty, with its
 * opcodes from the parameter; blocks with equal parameters share one
 * concrete module. */
static void test_parameters_and_if(void **state)
{
    (void)state;
    expect_golden("<cgra><module name=\"pe\"><input name=\"a\"/>"
                  "<output name=\"o\"/>"
                  "<inst name=\"func\" module=\"FuncUnit\" "
                  "if=\"(not (empty (mode)))\" op=\"(mode)\"/>"
                  "<inst name=\"reg\" module=\"Register\" if=\"(empty (mode))\" "
                  "size=\"(* (w) 2)\"/>"
                  "<connection if=\"(not (empty (mode)))\" from=\"this.a\" "
                  "to=\"func.in_a func.in_b\"/>"
                  "<connection if=\"(not (empty (mode)))\" from=\"func.out\" "
                  "to=\"this.o\"/>"
                  "<connection if=\"(empty (mode))\" from=\"this.a\" to=\"reg.in\"/>"
                  "<connection if=\"(empty (mode))\" from=\"reg.out\" to=\"this.o\"/>"
                  "</module>\n"
                  "<architecture rows=\"1\" cols=\"3\">\n"
                  "<pattern col=\"3\"><block module=\"pe\" mode=\"add sub mul\" w=\"16\"/>"
                  "<block module=\"pe\" mode=\"\" w=\"16\"/>"
                  "<block module=\"pe\" mode=\"add sub mul\" w=\"16\"/></pattern>\n"
                  "<connection from=\"block_0_0.o\" to=\"block_0_1.a\"/>\n"
                  "<connection from=\"block_0_1.o\" to=\"block_0_2.a\"/>\n"
                  "<connection from=\"block_0_2.o\" to=\"block_0_0.a\"/>\n"
                  "</architecture></cgra>\n",
                  "inst_params.txt", 0);
}

/* Parameters pass down through sub-modules. */
static void test_nested_parameters(void **state)
{
    (void)state;
    expect_golden("<cgra><module name=\"alu\"><input name=\"a\"/>"
                  "<output name=\"o\"/><inst name=\"fu\" module=\"FuncUnit\" "
                  "op=\"(ops)\"/><connection from=\"this.a\" distribute-to="
                  "\"fu.in_a fu.in_b\"/><connection from=\"fu.out\" to=\"this.o\"/>"
                  "</module>\n"
                  "<module name=\"pe\"><input name=\"a\"/><output name=\"o\"/>"
                  "<sub-module name=\"x\" module=\"alu\" ops=\"(mode) mul\"/>"
                  "<inst name=\"y\" module=\"alu\" ops=\"(mode)\"/>"
                  "<connection from=\"this.a\" to=\"x.a\"/>"
                  "<connection from=\"x.o\" to=\"y.a\"/>"
                  "<connection from=\"y.o\" to=\"this.o\"/></module>\n"
                  "<architecture rows=\"1\" cols=\"1\">"
                  "<pattern><block module=\"pe\" mode=\"and or\"/></pattern>"
                  "<connection from=\"block_0_0.o\" to=\"block_0_0.a\"/>"
                  "</architecture></cgra>\n",
                  "inst_nested.txt", 0);
}

/* immediate= and immediate-size= on a FuncUnit and a MEMUnit, also from
 * a parameter: the netlist lists them, the summary counts them. */
static void test_immediates(void **state)
{
    (void)state;
    static const char *const xml =
        "<cgra><module name=\"m\">"
        "<input name=\"a\"/><output name=\"o\"/>"
        "<inst name=\"fu\" module=\"FuncUnit\" op=\"add select\" "
        "immediate=\"in_b, in_c\" immediate-size=\"12\"/>"
        "<inst name=\"mem\" module=\"MEMUnit\" immediate=\"(imm)\"/>"
        "<connection from=\"this.a\" to=\"fu.in_a fu.in_b fu.in_c mem.addr "
        "mem.data_in\"/>"
        "<connection from=\"fu.out\" to=\"this.o\"/></module>\n"
        "<architecture rows=\"1\" cols=\"1\"><pattern>"
        "<block module=\"m\" imm=\"data_in\"/></pattern>"
        "<memory name=\"spm\" bytes=\"64\"/></architecture>"
        "</cgra>\n";
    expect_golden(xml, "inst_imm.txt", 0);
    expect_golden(xml, "inst_imm_summary.txt", 1);
}

static void test_immediate_errors(void **state)
{
    (void)state;
    expect_error(ONE("<inst name=\"f\" module=\"FuncUnit\" "
                     "immediate=\"in_b data_in\"/>"),
                 "t.xml:1: error: unknown operand 'data_in' in "
                 "immediate=\"in_b data_in\" on FuncUnit 'f' (operands: "
                 "in_a, in_b, in_c)");
    expect_error(ONE("<inst name=\"m\" module=\"MEMUnit\" "
                     "immediate=\"in_a\"/>"),
                 "t.xml:1: error: unknown operand 'in_a' in "
                 "immediate=\"in_a\" on MEMUnit 'm' (operands: addr, "
                 "data_in)");
    expect_error(ONE("<inst name=\"f\" module=\"FuncUnit\" op=\"add\" "
                     "immediate=\"in_c\"/>"),
                 "t.xml:1: error: FuncUnit 'f' has no operand 2 to take an "
                 "immediate (operands: in_a, in_b)");
    expect_error(ONE("<inst name=\"f\" module=\"FuncUnit\" size=\"16\" "
                     "immediate=\"in_a\" immediate-size=\"17\"/>"),
                 "t.xml:1: error: FuncUnit 'f' needs an immediate width of "
                 "1..16 bits, its width (got 17)");
    expect_error(ONE("<inst name=\"f\" module=\"FuncUnit\" "
                     "immediate-size=\"8\"/>"),
                 "t.xml:1: error: FuncUnit 'f' gives an immediate width (8) "
                 "but no operand takes an immediate; name the operands or "
                 "drop the width");
    expect_error(ONE("<inst name=\"f\" module=\"FuncUnit\" immediate=\"in_a\" "
                     "immediate-size=\"0\"/>"),
                 "t.xml:1: error: immediate-size=\"0\" on <inst> must be an "
                 "integer >= 1");
    expect_error(ONE("<inst name=\"r\" module=\"Register\" "
                     "immediate=\"in\"/>"),
                 "t.xml:1: error: unknown attribute 'immediate' on Register "
                 "'r' (attributes: size)");
}

static void test_errors(void **state)
{
    (void)state;
    expect_error(ONE("<inst name=\"f\" module=\"FuncUnit\" op=\"add frob\"/>"),
                 "t.xml:1: error: unknown opcode 'frob' on FuncUnit 'f' "
                 "(opcodes: nop input output const trunc sext zext phi select "
                 "add sub mul sdiv udiv srem urem and or xor shl ashr lshr "
                 "icmp gep load store)");
    expect_error(ONE("<inst name=\"f\" module=\"FuncUnit\" op=\"\"/>"),
                 "t.xml:1: error: op=\"\" on FuncUnit 'f' lists no opcode; "
                 "give at least one (opcodes: nop input output const trunc "
                 "sext zext phi select add sub mul sdiv udiv srem urem and "
                 "or xor shl ashr lshr icmp gep load store)");
    /* two spellings of one attribute: one was dropped without a word */
    expect_error(ONE("<inst name=\"f\" module=\"FuncUnit\" op=\"add\" "
                     "ops=\"sub\"/>"),
                 "t.xml:1: error: give the opcodes of 'f' as op= or ops=, not "
                 "both");
    expect_error(ONE("<inst name=\"r\" module=\"Register\" ninput=\"2\"/>"),
                 "t.xml:1: error: unknown attribute 'ninput' on Register 'r' "
                 "(attributes: size)");
    expect_error(ONE("<inst name=\"x\" module=\"Adder\"/>"),
                 "t.xml:1: error: unknown module 'Adder' (modules: m; "
                 "primitives: FuncUnit, MEMUnit, Register, Multiplexer, "
                 "TriState, IO, RegisterFile, ConstUnit, MemPort)");
    expect_error(ONE("<inst module=\"Register\"/>"),
                 "t.xml:1: error: <inst> needs a name=\"...\"");
    expect_error(ONE("<inst name=\"r\"/>"),
                 "t.xml:1: error: <inst> 'r' needs a module=\"...\"");
    expect_error(ONE("<inst name=\"r\" module=\"Register\" size=\"0\"/>"),
                 "t.xml:1: error: size=\"0\" on <inst> must be an integer >= 1");
    /* Once truncated to an int: 4294967297 became a 1-bit register. */
    expect_error(ONE("<inst name=\"r\" module=\"Register\" "
                     "size=\"4294967297\"/>"),
                 "t.xml:1: error: size=\"4294967297\" on <inst> is above the "
                 "limit of 65536");
    expect_error(ONE("<inst name=\"x\" module=\"Multiplexer\" "
                     "ninput=\"4097\"/>"),
                 "t.xml:1: error: ninput=\"4097\" on <inst> is above the limit "
                 "of 4096");
    expect_error(ONE("<inst name=\"f\" module=\"FuncUnit\" "
                     "latency=\"(* 65536 65536)\"/>"),
                 "t.xml:1: error: latency=\"4294967296\" on <inst> is above "
                 "the limit of 65536");
    expect_error(ONE("<sub-module name=\"r\" module=\"Register\"/>"),
                 "t.xml:1: error: <sub-module> 'r' names primitive 'Register'; "
                 "use <inst> for primitives");
    /* the block that uses the module is named: it lacks the parameter */
    expect_error(ONE("<inst name=\"f\" module=\"FuncUnit\" op=\"(mode)\"/>"),
                 "t.xml:1: error: undefined parameter 'mode' in expression "
                 "'(mode)'; give it on the instance (mode=\"...\" at t.xml:2) "
                 "or define a counter of that name");
    expect_error("<cgra><module name=\"pe\"><inst name=\"f\" module=\"FuncUnit\" "
                 "op=\"(mode)\"/></module>\n<architecture rows=\"1\" cols=\"1\">\n"
                 "<pattern><block module=\"pe\" mdoe=\"add\"/></pattern>"
                 "</architecture></cgra>\n",
                 "t.xml:3: error: unknown attribute 'mdoe' on <block>: module "
                 "'pe' has no parameter 'mdoe' (parameters: mode)");
    expect_error("<cgra><module name=\"pe\"><inst name=\"f\" module=\"FuncUnit\" "
                 "op=\"(/ 1 (n))\"/></module>\n<architecture rows=\"1\" cols=\"1\">\n"
                 "<pattern><block module=\"pe\" n=\"0\"/></pattern>"
                 "</architecture></cgra>\n",
                 "t.xml:1: error: division by zero in expression '(/ 1 (n))' "
                 "(in module 'pe(n=0)')");
    /* A mistake in a module used with two parameter sets: once (it came
     * once per set, the same text each time), naming the first set. */
    expect_error("<cgra><module name=\"pe\"><inst name=\"f\" module=\"FuncUnit\" "
                 "op=\"(ops)\"/>\n<inst name=\"g\" module=\"FuncUnit\" "
                 "latency=\"-1\"/></module>\n<architecture rows=\"1\" "
                 "cols=\"2\">\n<block module=\"pe\" ops=\"add\" row=\"0\" "
                 "col=\"0\"/><block module=\"pe\" ops=\"mul\" row=\"0\" "
                 "col=\"1\"/></architecture></cgra>\n",
                 "t.xml:2: error: latency=\"-1\" on <inst> must be an integer "
                 ">= 0 (in module 'pe(ops=add)')");
    /* the same inside a module without parameters, twice: named by the
     * innermost module with parameters that the mistake is in */
    expect_error("<cgra><module name=\"alu\"><inst name=\"f\" "
                 "module=\"FuncUnit\" op=\"(op)\"/><bogus/></module>\n"
                 "<module name=\"pe\"><sub-module name=\"a\" module=\"alu\" "
                 "op=\"add\"/><sub-module name=\"b\" module=\"alu\" "
                 "op=\"mul\"/></module>\n<architecture rows=\"1\" "
                 "cols=\"1\">\n<pattern><block module=\"pe\"/></pattern>"
                 "</architecture></cgra>\n",
                 "t.xml:1: error: unknown tag <bogus> inside <module> "
                 "(expected: input, output, inout, wire, inst, sub-module, "
                 "connection) (in module 'alu(op=add)')");
    expect_error("<cgra><module name=\"pe\"><sub-module name=\"x\" module=\"pe\"/>"
                 "</module>\n<architecture rows=\"1\" cols=\"1\">\n"
                 "<pattern><block module=\"pe\"/></pattern>"
                 "</architecture></cgra>\n",
                 "t.xml:1: error: module 'pe' contains itself (through this "
                 "instance); remove the recursion");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_primitives),
        cmocka_unit_test(test_parameters_and_if),
        cmocka_unit_test(test_immediates),
        cmocka_unit_test(test_immediate_errors),
        cmocka_unit_test(test_nested_parameters),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
