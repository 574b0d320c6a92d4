/* test_top.c: the <architecture> element of xml/top.c: grid sizes, blocks
 * and their numbering, patterns (ranges, stamps, skips, counters,
 * wrap-around), relative and absolute references, ports, memories and the
 * DMA; each feature against a golden netlist, each mistake with its exact
 * message and line. */
#include "xml_test_util.h"

/* Line 2 of ARCH: a size missing, or given in two spellings. */
#define SIZE_ERROR                                                            \
    "t.xml:2: error: <architecture> needs its size once: row= and col= "     \
    "(the whole grid, as in CGRA-ME), or rows= and cols= (or cgra-rows= "    \
    "and cgra-cols=: the PEs of a mesh, its IO ring around them)"

/* Line 1 of every test file: a PE with two inputs and one output, and a
 * source whose odd-numbered outputs out<k> are driven by ConstUnit c<k>
 * (so the netlist shows which output a reference picked). */
#define MODS                                                                  \
    "<cgra><module name=\"pe\"><input name=\"in\"/><input name=\"in2\"/>"    \
    "<output name=\"out\"/><inst name=\"f\" module=\"FuncUnit\"/>"           \
    "<connection select-from=\"this.in this.in2\" to=\"f.in_a f.in_b\"/>"    \
    "<connection from=\"f.out\" to=\"this.out\"/></module>"                  \
    "<module name=\"src\"><output name=\"out1\"/><output name=\"out3\"/>"     \
    "<output name=\"out5\"/><output name=\"out7\"/>"                         \
    "<inst name=\"c1\" module=\"ConstUnit\"/><inst name=\"c3\" "           \
    "module=\"ConstUnit\"/><inst name=\"c5\" module=\"ConstUnit\"/>"         \
    "<inst name=\"c7\" module=\"ConstUnit\"/>"                               \
    "<connection from=\"c1.out\" to=\"this.out1\"/>"                         \
    "<connection from=\"c3.out\" to=\"this.out3\"/>"                         \
    "<connection from=\"c5.out\" to=\"this.out5\"/>"                         \
    "<connection from=\"c7.out\" to=\"this.out7\"/></module>\n"

static void test_counters_and_skips(void **state)
{
    (void)state;
    /* 2x1 stamps every third column, every other row: blocks at rows 0-1
     * and 4-5 (grid 6 rows), columns 0, 3; each stamp gets top ports named
     * by its counters, driven by the stamp's first block. */
    expect_golden(MODS
                  "<architecture rows=\"6\" cols=\"4\">\n"
                  "<pattern row-range=\"0 5\" col-range=\"0 3\" rows=\"2\" "
                  "row-skip=\"2\" col-skip=\"2\" counter=\"k\" "
                  "row-counter=\"r\" col-counter=\"c\">\n"
                  "<block module=\"pe\"/><block module=\"pe\"/>\n"
                  "<output name=\"o_(k)_(r)_(c)\"/>\n"
                  "<connection from=\"(rel 0 0).out\" to=\"this.o_(k)_(r)_(c)\"/>\n"
                  "<connection from=\"(rel 0 0).out\" to=\"(rel 1 0).in (rel 1 0).in2\"/>\n"
                  "</pattern></architecture></cgra>\n",
                  "top_counters.txt", 0);
}

/* The counters' values made visible: each stamp's block is a "tag" whose
 * ConstUnit is named after the counters passed to it as parameters. */
static void test_counter_values(void **state)
{
    (void)state;
    expect_golden("<cgra><module name=\"tag\">"
                  "<inst name=\"k(k)_r(r)_c(c)_sum(+ (r) (c))\" "
                  "module=\"ConstUnit\"/></module>\n"
                  "<architecture rows=\"5\" cols=\"8\">\n"
                  "<pattern row-range=\"1 4\" col-range=\"0 7\" col=\"2\" "
                  "row-skip=\"1\" col-skip=\"1\" counter=\"n\" "
                  "row-counter=\"i\" col-counter=\"j\">\n"
                  "<block module=\"tag\" k=\"(n)\" r=\"(i)\" c=\"(j)\"/>\n"
                  "</pattern></architecture></cgra>\n",
                  "top_counter_values.txt", 0);
}

static void test_rel_arithmetic(void **state)
{
    (void)state;
    /* Row 3's block in column i reads out(2i+1) of the source at (0, 0):
     * "(rel -3 -(i))" goes up three rows and back i columns. */
    expect_golden(MODS
                  "<architecture rows=\"4\" cols=\"4\">\n"
                  "<block module=\"src\" row=\"0\" col=\"0\"/>\n"
                  "<pattern row-range=\"3 3\" counter=\"i\">\n"
                  "<block module=\"pe\"/>\n"
                  "<connection from=\"(rel -3 -(i)).out(i)*2+1\" "
                  "to=\"(rel 0 0).in\"/>\n"
                  "<connection from=\"block_0_0.out(i)*2+1\" to=\"(rel 0 0).in2\"/>\n"
                  "</pattern></architecture></cgra>\n",
                  "top_rel.txt", 0);
}

static void test_wrap_around(void **state)
{
    (void)state;
    /* A ring: each block of a 1x4 row feeds the one to its west, the first
     * wraps to the last; "(rel 0 -13)" wraps several times. */
    expect_golden(MODS
                  "<architecture row=\"1\" col=\"4\">\n"
                  "<pattern><block module=\"pe\"/></pattern>\n"
                  "<pattern wrap-around=\"on\">\n"
                  "<connection from=\"(rel 0 0).out\" to=\"(rel 0 -1).in\"/>\n"
                  "<connection from=\"(rel 0 0).out\" to=\"(rel 0 -13).in2\"/>\n"
                  "</pattern></architecture></cgra>\n",
                  "top_wrap.txt", 0);
}

static void test_memory_dma(void **state)
{
    (void)state;
    expect_golden("<cgra><module name=\"m\"><input name=\"a\"/>"
                  "<output name=\"o\"/>"
                  "<inst name=\"mem\" module=\"MEMUnit\" memory=\"spm1\" "
                  "bank=\"1\"/><inst name=\"c\" module=\"ConstUnit\"/>"
                  "<connection from=\"this.a\" to=\"mem.addr\"/>"
                  "<connection from=\"c.out\" to=\"mem.data_in\"/>"
                  "<connection from=\"mem.data_out\" to=\"this.o\"/></module>\n"
                  "<architecture rows=\"1\" cols=\"2\">\n"
                  "<pattern><block module=\"m\"/></pattern>\n"
                  "<connection from=\"block_0_0.o\" to=\"block_0_1.a\"/>\n"
                  "<connection from=\"block_0_1.o\" to=\"block_0_0.a\"/>\n"
                  "<memory name=\"spm0\" bytes=\"4096\"/>\n"
                  "<memory name=\"spm1\" bytes=\"8192\" banks=\"4\" ports=\"2\"/>\n"
                  "<dma ext-bytes=\"1048576\" bytes-per-cycle=\"2.5\" "
                  "setup-cycles=\"12\" channels=\"2\" max-dims=\"3\">\n"
                  "<dim index=\"0\" max-size=\"256\" max-stride=\"4\"/>\n"
                  "<dim index=\"2\" max-size=\"16\" max-stride=\"65536\"/>\n"
                  "</dma></architecture></cgra>\n",
                  "top_memory.txt", 0);
}

/* address-width= on <architecture>: 32 when absent, 1..64. */
static void test_address_width(void **state)
{
    (void)state;
#define FMT MODS "<architecture rows=\"1\" cols=\"1\"%s>\n" \
            "<pattern><block module=\"pe\"/></pattern>\n" \
            "</architecture></cgra>\n"
    static const struct { const char *attr; int want; } ok[] = {
        {"", 32}, {" address-width=\"16\"", 16},
        {" address-width=\"64\"", 64}};
    char buf[4096];
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        snprintf(buf, sizeof buf, FMT, ok[i].attr);
        cg_diags *d = cg_diags_create();
        cg_arch *a = read_mem(buf, d);
        assert_non_null(a);
        cg_netlist *nl = cg_arch_flatten(a, d);
        assert_non_null(nl);
        assert_int_equal(cg_netlist_addr_width(nl), ok[i].want);
        cg_netlist_destroy(nl);
        cg_arch_destroy(a);
        cg_diags_destroy(d);
    }
    snprintf(buf, sizeof buf, FMT, " address-width=\"65\"");
    expect_error(buf, "t.xml:2: error: address width 65 is not 1..64 (the "
                 "bits of a memory address, 32 by default)");
    /* the value written, not a stand-in (80 was once reported as 65) */
    snprintf(buf, sizeof buf, FMT, " address-width=\"80\"");
    expect_error(buf, "t.xml:2: error: address width 80 is not 1..64 (the "
                 "bits of a memory address, 32 by default)");
    snprintf(buf, sizeof buf, FMT, " address-width=\"4294967297\"");
    expect_error(buf, "t.xml:2: error: address-width=\"4294967297\" on "
                 "<architecture> is above the limit of 2147483647");
    snprintf(buf, sizeof buf, FMT, " address-width=\"0\"");
    expect_error(buf, "t.xml:2: error: address-width=\"0\" on <architecture> "
                 "must be an integer >= 1");
#undef FMT
}

static void test_ports_and_absolute(void **state)
{
    (void)state;
    expect_golden(MODS
                  "<architecture rows=\"2\" cols=\"1\">\n"
                  "<input name=\"x\"/><output name=\"y\"/>\n"
                  "<block module=\"pe\" row=\"0\" col=\"0\"/>\n"
                  "<block module=\"pe\" row=\"1\" col=\"0\"/>\n"
                  "<connection from=\"this.x\" to=\"block_0_0.in block_1_0.in\"/>\n"
                  "<connection from=\"block_0_0.out\" to=\"block_1_0.in2\"/>\n"
                  "<connection from=\"block_1_0.out\" distribute-to=\"this.y block_0_0.in2\"/>\n"
                  "</architecture></cgra>\n",
                  "top_ports.txt", 0);
}

/* A file with the grid size given and pe then body inside <architecture>,
 * written into the caller's buf. */
#define ARCH(size, body)                                                      \
    (snprintf(buf, sizeof buf, MODS "<architecture %s>\n%s%s"               \
              "</architecture></cgra>\n", size, pe, body), buf)

static void test_errors(void **state)
{
    (void)state;
    const char *pe = "<pattern><block module=\"pe\"/></pattern>\n";
    char buf[4096];
    expect_error(ARCH("rows=\"2\" cols=\"2\"",
                      "<pattern col-range=\"0 1\">\n"
                      "<connection from=\"(rel 0 1).out\" to=\"(rel 0 0).in\"/>\n"
                      "</pattern>\n"),
                 "t.xml:5: error: reference '(rel 0 1).out' from block_0_1 "
                 "leaves the 2x2 grid at (0, 2); narrow the pattern's ranges "
                 "or set wrap-around=\"on\"");
    expect_error(ARCH("rows=\"2\" cols=\"2\"",
                      "<block module=\"pe\" row=\"1\" col=\"1\"/>\n"),
                 "t.xml:4: error: duplicate block at (1, 1): line 3 already "
                 "placed one there; move or remove one");
    expect_error(ARCH("rows=\"2\" cols=\"2\"",
                      "<pattern counter=\"i\" col-counter=\"i\"/>\n"),
                 "t.xml:4: error: counter name 'i' is used by both counter= "
                 "and col-counter=; give each counter its own name");
    expect_error(ARCH("rows=\"2\" cols=\"2\"", "<pattern counter=\"rel\"/>\n"),
                 "t.xml:4: error: counter=\"rel\" is not a valid counter name; "
                 "use letters, digits and '_' (not rel, empty, not, this)");
    expect_error(ARCH("rows=\"3\" cols=\"2\"", "<pattern rows=\"2\"/>\n"),
                 "t.xml:4: error: the 2x1 stamp (skips 0, 0) does not tile "
                 "row-range 0 2, col-range 0 1; adjust the ranges or the "
                 "stamp size");
    expect_error(ARCH("rows=\"2\" cols=\"2\"",
                      "<block module=\"pe\" row=\"2\" col=\"0\"/>\n"),
                 "t.xml:4: error: block at (2, 0) is outside the 2x2 grid; use "
                 "rows 0..1 and columns 0..1");
    expect_error(ARCH("rows=\"2\" cols=\"2\"",
                      "<connection from=\"(rel 0 0).out\" to=\"block_0_0.in\"/>\n"),
                 "t.xml:4: error: reference '(rel 0 0).out' uses (rel ...) "
                 "outside a <pattern>; name the block as block_<row>_<col>");
    expect_error(ARCH("rows=\"2\" cols=\"2\"", "<pattern rows=\"2\" cols=\"2\" "
                      "row=\"2\"/>\n"),
                 "t.xml:4: error: give the stamp size as row= or rows=, not "
                 "both");
    expect_error(ARCH("rows=\"2\" cols=\"2\"", "<pattern wrap-around=\"yes\"/>\n"),
                 "t.xml:4: error: wrap-around=\"yes\" must be \"on\" or \"off\"");
    expect_error(ARCH("rows=\"2\" cols=\"2\"", "<pattern row-range=\"0 2\"/>\n"),
                 "t.xml:4: error: row-range=\"0 2\" must be two numbers 'first "
                 "last' with 0 <= first <= last <= 1");
    expect_error(ARCH("rows=\"2\" cols=\"2\"", "<pattern><blok/></pattern>\n"),
                 "t.xml:4: error: unknown tag <blok> inside <pattern> "
                 "(expected: block, connection, input, output, inout, wire)");
    expect_error(ARCH("rows=\"2\" cols=\"2\"", "<pattern><block/><block/></pattern>\n"),
                 "t.xml:4: error: more <block>s than the 1x1 stamp has cells; "
                 "enlarge the stamp (row=, col=)");
    expect_error(ARCH("rows=\"2\" cols=\"2\"", "<patern/>\n"),
                 "t.xml:4: error: unknown tag <patern> inside <architecture> "
                 "(expected: pattern, block, connection, mesh, diagonal, "
                 "input, output, inout, wire, memory, dma)");
    expect_error(ARCH("rows=\"2\" col=\"2\"", ""),
                 SIZE_ERROR);
    expect_error(ARCH("rows=\"2\" cols=\"2\" cgra-rows=\"2\" "
                      "cgra-cols=\"2\"", ""), SIZE_ERROR);
    expect_error(ARCH("", ""), SIZE_ERROR);
    expect_error(ARCH("row=\"4\" col=\"4\" rows=\"2\" cols=\"2\"", ""),
                 SIZE_ERROR);
    expect_error(ARCH("rows=\"2\" cols=\"x\"", ""),
                 "t.xml:2: error: cols=\"x\" on <architecture> must be an "
                 "integer >= 1");
    pe = "<block module=\"pe\" row=\"0\" col=\"1\"/>\n";
    expect_error(ARCH("rows=\"1\" cols=\"2\"", "<pattern col-range=\"1 1\">"
                      "<connection from=\"(rel 0 0).out\" to=\"(rel 0 -1).in\"/>"
                      "</pattern>\n"),
                 "t.xml:4: error: reference '(rel 0 -1).in' from block_0_1 "
                 "names (0, 0), where no block is placed");
    pe = "<pattern><block module=\"pe\"/></pattern>\n";
    expect_error(ARCH("rows=\"1\" cols=\"1\"", "<memory name=\"m\"/>\n"),
                 "t.xml:4: error: <memory> needs name=\"...\" and bytes=\"...\"");
    expect_error(ARCH("rows=\"1\" cols=\"1\"", "<dma max-dims=\"2\">\n"
                      "<dim index=\"2\"/></dma>\n"),
                 "t.xml:5: error: <dim> needs index=\"0\"..\"1\" (below "
                 "max-dims=\"2\")");
    /* decimal, finite and within the range (inf, 1e400 and hex were
       taken, and tiny ones overflowed the schedule's cycle counts) */
    const char *bpc[] = {"0", "inf", "1e400", "0x10", "1e-15", "2000000",
                         "nan", "4 "};
    for (size_t i = 0; i < sizeof bpc / sizeof *bpc; i++) {
        char dma[128], want[256];
        snprintf(dma, sizeof dma, "<dma bytes-per-cycle=\"%s\"/>\n", bpc[i]);
        snprintf(want, sizeof want, "t.xml:4: error: bytes-per-cycle=\"%s\" "
                 "must be a decimal number from 0.001 to 1048576",
                 bpc[i]);
        expect_error(ARCH("rows=\"1\" cols=\"1\"", dma), want);
    }
    expect_error(ARCH("rows=\"1\" cols=\"1\"", "<dma max-dims=\"9\"/>\n"),
                 "t.xml:4: error: max-dims=\"9\" on <dma> is above the limit "
                 "of 8");
    /* past LONG_MAX: refused, not taken as 2^63 - 1 */
    expect_error(ARCH("rows=\"1\" cols=\"1\"",
                      "<dma ext-bytes=\"99999999999999999999999\"/>\n"),
                 "t.xml:4: error: ext-bytes=\"99999999999999999999999\" on "
                 "<dma> is above the limit of 9223372036854775807");
    expect_error(ARCH("rows=\"1\" cols=\"2\"", "<pattern col-range=\"1 1\">"
                      "<block module=\"pe\" row=\"0\"/></pattern>\n"),
                 "t.xml:4: error: row= and col= belong on a <block> directly "
                 "in <architecture>; inside <pattern> the stamp places the "
                 "block");
}

/* Sizes beyond common/limits.h, out-of-range numbers and overflowing
 * expressions: each a clear error, never a truncated value (rows=
 * "4294967297" once became 1), a huge allocation or a SIGFPE. */
static void test_limits(void **state)
{
    (void)state;
    const char *pe = "<pattern><block module=\"pe\"/></pattern>\n";
    char buf[4096];
    expect_error(ARCH("rows=\"(/ (- -9223372036854775807 1) -1)\" "
                      "cols=\"1\"", ""),
                 "t.xml:2: error: '-9223372036854775808 / -1' is outside the "
                 "integer range -9223372036854775808..9223372036854775807 in "
                 "expression '(/ (- -9223372036854775807 1) -1)'");
    expect_error(ARCH("rows=\"4294967297\" cols=\"1\"", ""),
                 "t.xml:2: error: rows=\"4294967297\" on <architecture> is "
                 "above the limit of 262144");
    expect_error(ARCH("rows=\"1\" cols=\"22147483647\"", ""),
                 "t.xml:2: error: cols=\"22147483647\" on <architecture> is "
                 "above the limit of 262144");
    expect_error(ARCH("rows=\"99999999999999999999\" cols=\"1\"", ""),
                 "t.xml:2: error: rows=\"99999999999999999999\" on "
                 "<architecture> is above the limit of 262144");
    expect_error(ARCH("rows=\"-99999999999999999999\" cols=\"1\"", ""),
                 "t.xml:2: error: rows=\"-99999999999999999999\" on "
                 "<architecture> must be an integer >= 1");
    expect_error(ARCH("rows=\"1000\" cols=\"1000\"", ""),
                 "t.xml:2: error: the 1000x1000 grid has 1000000 cells, above "
                 "the limit of 262144; describe a smaller array");
    expect_error(ARCH("rows=\"262144\" cols=\"262144\"", ""),
                 "t.xml:2: error: the 262144x262144 grid has 68719476736 "
                 "cells, above the limit of 262144; describe a smaller array");
    pe = "<mesh io=\"every-side-port\"/>\n";
    expect_error(ARCH("rows=\"510\" cols=\"511\"", ""),
                 "t.xml:2: error: the 512x513 grid (with its IO ring) has "
                 "262656 cells, above the limit of 262144; describe a smaller "
                 "array");
    pe = "<pattern><block module=\"pe\"/></pattern>\n";
    expect_error(ARCH("rows=\"2\" cols=\"2\"",
                      "<pattern row-skip=\"9223372036854775807\"/>\n"),
                 "t.xml:4: error: row-skip=\"9223372036854775807\" on "
                 "<pattern> is above the limit of 262144");
    expect_error(ARCH("rows=\"2\" cols=\"2\"",
                      "<pattern row-range=\"0 99999999999999999999\"/>\n"),
                 "t.xml:4: error: row-range=\"0 99999999999999999999\" must "
                 "be two numbers 'first last' with 0 <= first <= last <= 1");
    expect_error(ARCH("rows=\"2\" cols=\"2\"",
                      "<pattern><connection from=\"(rel 9223372036854775807 "
                      "0).out\" to=\"(rel 0 0).in\"/></pattern>\n"),
                 "t.xml:4: error: reference '(rel 9223372036854775807 0).out' "
                 "from block_0_0 leaves the 2x2 grid at "
                 "(9223372036854775807, 0); narrow the pattern's ranges or "
                 "set wrap-around=\"on\"");
    expect_error(ARCH("rows=\"1\" cols=\"1\"",
                      "<input name=\"x\" size=\"4294967297\"/>\n"),
                 "t.xml:4: error: size=\"4294967297\" on <input> is above the "
                 "limit of 65536");
    expect_error(ARCH("rows=\"1\" cols=\"1\"",
                      "<memory name=\"m\" bytes=\"64\" ports=\"4097\"/>\n"),
                 "t.xml:4: error: ports=\"4097\" on <memory> is above the "
                 "limit of 4096");
    expect_error(ARCH("rows=\"1\" cols=\"1\"",
                      "<dma channels=\"2147483648\"/>\n"),
                 "t.xml:4: error: channels=\"2147483648\" on <dma> is above "
                 "the limit of 2147483647");
}

/* A megabyte value is quoted by its first 64 bytes and "...": the whole
 * value once made a megabyte message. */
static void test_long_value(void **state)
{
    (void)state;
    const char *pe = "<pattern><block module=\"pe\"/></pattern>\n";
    static char buf[(1 << 20) + 4096];
    char *size = malloc((1 << 20) + 32);
    strcpy(size, "rows=\"");
    memset(size + 6, '9', 1 << 20);
    strcpy(size + 6 + (1 << 20), "\" cols=\"1\"");
    expect_error(ARCH(size, ""),
                 "t.xml:2: error: rows=\""
                 "9999999999999999999999999999999999999999999999999999999999999999"
                 "...\" on <architecture> is above the limit of 262144");
    free(size);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counters_and_skips),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_long_value),
        cmocka_unit_test(test_counter_values),
        cmocka_unit_test(test_rel_arithmetic),
        cmocka_unit_test(test_wrap_around),
        cmocka_unit_test(test_memory_dma),
        cmocka_unit_test(test_address_width),
        cmocka_unit_test(test_ports_and_absolute),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
