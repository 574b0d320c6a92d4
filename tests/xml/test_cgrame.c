/* test_cgrame.c: CGRA-ME 1.x's architecture files taken as they are
 * (tests/xml/data/cgrame/, written after its shipped files): ADL0's
 * <architecture row= col= cgra-rows= cgra-cols=> and its mesh meaning (the
 * PEs inside the grid's border, the IO ring on it), mesh ports written
 * ".out", ADL1's <mesh row-range= col-range=> and its templates with a
 * module named like the primitive it wraps, ADRES-like files with the
 * MemPort primitive and inout pins joined across module boundaries. */
#include "xml_test_util.h"

#define DATA "tests/xml/data/cgrame/"

/* Read DATA file (with DATA templates, or NULL) expecting success and
 * exactly nwarn warnings; the summary (or netlist) against golden. */
static void expect_file(const char *file, const char *templates, int nwarn,
                        const char *golden, int summary, cg_diags **dout)
{
    char path[256], tpath[256];
    snprintf(path, sizeof path, DATA "%s", file);
    if (templates)
        snprintf(tpath, sizeof tpath, DATA "%s", templates);
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_xml_read(path, templates ? tpath : NULL, d);
    if (!a || cg_diags_size(d) != nwarn)
        assert_non_null(a);
    assert_int_equal(cg_diags_size(d), nwarn);
    char *text = netlist_text(a, summary);
    check_golden(golden, text);
    free(text);
    cg_arch_destroy(a);
    if (dout)
        *dout = d;
    else
        cg_diags_destroy(d);
}

/* Read xml expecting success without a diagnostic; its summary holds
 * each of the NULL-terminated want. */
static void expect_summary(const char *xml, const char *const *want)
{
    cg_diags *d = cg_diags_create();
    cg_arch *a = read_mem(xml, d);
    if (!a || cg_diags_size(d))
        cg_diags_print(d, stderr);
    assert_non_null(a);
    assert_int_equal(cg_diags_size(d), 0);
    char *text = netlist_text(a, 1);
    for (int i = 0; want[i]; i++)
        if (!strstr(text, want[i]))
            fail_msg("'%s' not in:\n%s", want[i], text);
    free(text);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* arch-homo-orth.xml: row="4" col="4" is the whole grid, so 2x2 PEs at
 * rows and columns 1..2 and 8 IOs on the border (corners empty), as in
 * CGRA-ME; cgra-rows="2" cgra-cols="2" agree and say nothing more.  The
 * netlist shows block_1_1.in1 (in-east=".in1") fed by block_1_2.out. */
static void test_adl0_mesh(void **state)
{
    (void)state;
    expect_file("homo_orth.xml", NULL, 0, "cgrame_homo_orth.txt", 0, NULL);
    expect_file("homo_orth.xml", NULL, 0, "cgrame_homo_orth_summary.txt", 1,
                NULL);
}

/* arch-homo-diag.xml: the same grid with eight neighbours. */
static void test_adl0_diagonal(void **state)
{
    (void)state;
    expect_file("homo_diag.xml", NULL, 0, "cgrame_homo_diag_summary.txt", 1,
                NULL);
}

/* ADL1: root <architecture row="4" col="5">, a mesh over rows 0..3 and
 * columns 0..3 (its border the IO ring, 2x2 PEs inside), and a block of
 * the template IO (which holds the IO primitive) at (1, 4): 13 blocks,
 * 9 IOs. */
static void test_adl1_mesh_templates(void **state)
{
    (void)state;
    expect_file("adl1_arch.xml", "adl1_templates.xml", 0,
                "cgrame_adl1_summary.txt", 1, NULL);
}

/* Without a templates file, an ADL1 file takes cgramap's default ones
 * (xml/module_templates.xml, built in): the same file then gets the
 * default meshblock1 (CGRA-ME's ops: add sub mul div and or xor shl shr)
 * and IO; the file given above overrides it (only add sub there). */
static void test_adl1_default_templates(void **state)
{
    (void)state;
    expect_file("adl1_arch.xml", NULL, 0, "cgrame_adl1_default_summary.txt",
                1, NULL);
}

/* A module the default templates lack: the message lists theirs and says
 * to give a templates file (once, not per mesh cell). */
static void test_adl1_unknown_module(void **state)
{
    (void)state;
    expect_error("<architecture rows=\"2\" cols=\"2\">\n<pattern><block "
                 "module=\"pe\"/></pattern></architecture>\n",
                 "t.xml:2: error: unknown module 'pe' (modules: meshblock1, "
                 "diagblock1, IO, MemPort, VLIWAdresPE, VLIWAdresPETorroid, "
                 "CGAAdresPE, globalRF, externRF1_1, externRF2_1; "
                 "primitives: FuncUnit, MEMUnit, Register, Multiplexer, "
                 "TriState, IO, RegisterFile, ConstUnit, MemPort); a file "
                 "whose root is <architecture> takes its modules from a "
                 "templates file, here cgramap's default one "
                 "(cgramap/module_templates.xml): give yours (cgramap "
                 "--templates FILE)");
}

/* The built-in text is xml/module_templates.xml byte for byte (the file
 * installed as share/cgramap/module_templates.xml). */
static void test_default_templates_text(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/xml/module_templates.xml", src_dir());
    char *want = cg_slurp(path, NULL);
    assert_non_null(want);
    assert_string_equal(cg_xml_default_templates(), want);
    free(want);
}

/* CGRA-ME's ADRES layout in an ADL1 file that names only default
 * templates (globalRF, IO, MemPort, VLIWAdresPE, externRF1_1,
 * CGAAdresPE): 19 blocks, 2 MemPorts, 5 register files. */
static void test_adres_default_templates(void **state)
{
    (void)state;
    expect_file("adres_default.xml", NULL, 0,
                "cgrame_adres_default_summary.txt", 1, NULL);
}

/* rows="4" cols="4", which CGRA-ME never reads, and a mesh over rows and
 * columns 0..5: the grid grows to 6x6 with a warning; 4x4 PEs, 16 IOs. */
static void test_ranges_past_size(void **state)
{
    (void)state;
    cg_diags *d;
    expect_file("adl1_grow.xml", "adl1_templates.xml", 1,
                "cgrame_grow_summary.txt", 1, &d);
    expect_diag(d, 0, DATA "adl1_grow.xml:2: warning: a <mesh>'s "
                "row-range=/col-range= reach past the 4x4 grid given here; "
                "the grid grows to 6x6 to hold them (CGRA-ME places mesh "
                "blocks where the ranges say)");
    cg_diags_destroy(d);
}

/* Line 1: a PE with the four mesh inputs. */
#define PE                                                                    \
    "<cgra><module name=\"pe\"><input name=\"in0\"/><input name=\"in1\"/>"   \
    "<input name=\"in2\"/><input name=\"in3\"/><output name=\"out\"/>"       \
    "<inst name=\"r\" module=\"Register\"/><connection select-from=\""       \
    "this.in0 this.in1 this.in2 this.in3\" to=\"r.in\"/>"                    \
    "<connection from=\"r.out\" to=\"this.out\"/></module>\n"
#define PORTS                                                                 \
    "out-north=\".out\" out-east=\".out\" out-west=\".out\" "                \
    "out-south=\".out\" in-north=\".in0\" in-east=\".in1\" "                 \
    "in-west=\".in2\" in-south=\".in3\""
#define MESH(arch, mesh)                                                      \
    PE "<architecture " arch ">\n<mesh " mesh " " PORTS ">\n"                \
       "<interior><block module=\"pe\"/></interior></mesh>"                  \
       "</architecture></cgra>\n"

/* A <pattern> whose ranges reach past the grid given (CGRA-ME's ADRES
 * files: rows="12", row-range="6 12"): CGRA-ME has no bound check and
 * places those blocks, so cgramap does too, growing the grid, with a
 * warning naming them; the array is adres_default.xml's, summary and
 * all. */
static void test_pattern_past_grid(void **state)
{
    (void)state;
    cg_diags *d;
    expect_file("adres_past.xml", NULL, 1, "cgrame_adres_default_summary.txt",
                1, &d);
    expect_diag(d, 0, DATA "adres_past.xml:11: warning: the <pattern>'s "
                "row-range=/col-range= reach past the 6x4 grid given here; "
                "as CGRA-ME does, its blocks there are placed anyway and the "
                "grid grows to 7x4: 4 blocks outside the grid given "
                "(block_6_0, block_6_1, block_6_2, block_6_3)");
    cg_diags_destroy(d);
    /* a pattern whose blocks are all left out there still says so */
    d = cg_diags_create();
    cg_arch *a = read_mem(PE "<architecture rows=\"1\" cols=\"1\">\n"
                          "<pattern row-range=\"0 1\"><block module=\"pe\" "
                          "if=\"0\"/></pattern></architecture></cgra>\n", d);
    assert_non_null(a);
    assert_int_equal(cg_diags_size(d), 1);
    expect_diag(d, 0, "t.xml:3: warning: the <pattern>'s row-range=/"
                "col-range= reach past the 1x1 grid given here, but none of "
                "its blocks is placed there (an if= is false); the grid "
                "grows to 2x1 all the same");
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* cgra-rows=/cgra-cols= that disagree with row=/col=: a warning, and the
 * grid follows row=/col= (2x3 PEs inside a 4x5 grid, 10 IOs). */
static void test_settings_disagree(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_arch *a = read_mem(MESH("row=\"4\" col=\"5\" cgra-rows=\"4\" "
                               "cgra-cols=\"5\"", "io=\"every-side-port\""),
                          d);
    assert_non_null(a);
    assert_int_equal(cg_diags_size(d), 1);
    expect_diag(d, 0, "t.xml:2: warning: cgra-rows=\"4\" cgra-cols=\"5\" do "
                "not match the 2x3 PEs that row=\"4\" col=\"5\" leave inside "
                "the mesh's border; cgramap (as CGRA-ME) builds the grid "
                "from row= and col=");
    char *text = netlist_text(a, 1);
    assert_non_null(strstr(text, "grid: 4x5\nblocks: 16\n"));
    assert_non_null(strstr(text, "registers: 6\n"));
    assert_non_null(strstr(text, "IOs: 10\n"));
    free(text);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* With row=/col= and no IO ring, the border stays empty (CGRA-ME's
 * interior is rows 1..row-2 all the same): 2x2 registers in a 4x4 grid. */
static void test_border_without_io(void **state)
{
    (void)state;
    expect_summary(MESH("row=\"4\" col=\"4\"", ""),
                   (const char *const[]){"grid: 4x4\nblocks: 4\n",
                                         "IOs: 0\n", NULL});
}

/* A stamp with one side given and more blocks: row="1" with two blocks is
 * a 1x2 stamp (CGRA-ME's reading), here a PE and an empty cell, so the
 * 2x2 interior gets PEs in its first column only. */
#define STAMP(interior, blocks)                                               \
    PE "<architecture row=\"4\" col=\"4\">\n<mesh " PORTS ">\n"              \
       "<interior " interior ">" blocks "</interior></mesh>"                 \
       "</architecture></cgra>\n"
static void test_stamp_from_blocks(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_arch *a = read_mem(STAMP("row=\"1\"", "<block module=\"pe\"/><block/>"),
                          d);
    assert_non_null(a);
    assert_int_equal(cg_diags_size(d), 0);
    char *text = netlist_text(a, 0);
    assert_non_null(strstr(text, "prim block_1_1.r Register at=1,1"));
    assert_non_null(strstr(text, "prim block_2_1.r Register at=2,1"));
    assert_null(strstr(text, "block_1_2"));
    assert_null(strstr(text, "block_2_2"));
    free(text);
    cg_arch_destroy(a);
    /* the same on a <pattern>: col="1" and two blocks is a 2x1 stamp */
    a = read_mem(PE "<architecture rows=\"2\" cols=\"2\">\n<pattern "
                 "col=\"1\"><block module=\"pe\"/><block/></pattern>"
                 "</architecture></cgra>\n", d);
    assert_non_null(a);
    text = netlist_text(a, 0);
    assert_non_null(strstr(text, "prim block_0_0.r Register at=0,0"));
    assert_non_null(strstr(text, "prim block_0_1.r Register at=0,1"));
    assert_null(strstr(text, "block_1_"));
    free(text);
    cg_arch_destroy(a);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
}

/* CGRA-ME's arch-hetero-orth.xml: a 1x8 stamp on the 2x2 interior is
 * placed as CGRA-ME places it, cell (r, c) from stamp cell (r mod 1,
 * c mod 8): the mul PE in column 1 (rows 1 and 2), the other in column 2,
 * six blocks unplaced, with a warning.  A stamp smaller than the interior
 * but not dividing it (1x2 on 2x3) is cut at the edge.  cgramap's own
 * spelling (rows=/cols=) keeps it an error (tests/xml/test_mesh.c). */
static void test_stamp_modulo(void **state)
{
    (void)state;
    cg_diags *d;
    expect_file("hetero_orth.xml", NULL, 1, "cgrame_hetero_orth_summary.txt",
                1, &d);
    expect_diag(d, 0, DATA "hetero_orth.xml:26: warning: the 1x8 <interior> "
                "stamp does not tile the 2x2 interior; as in CGRA-ME, "
                "interior cell (r, c) takes the stamp's cell (r mod 1, c mod "
                "8): 6 of its 8 cells lie beyond the interior and are not "
                "placed");
    cg_diags_destroy(d);
    d = cg_diags_create();
    cg_arch *a = cg_xml_read(DATA "hetero_orth.xml", NULL, d);
    char *text = netlist_text(a, 0);
    assert_non_null(strstr(text, "prim block_1_1.fu FuncUnit at=1,1 "
                           "width=32 latency=0 ops=add,sub,mul,sdiv,"));
    assert_non_null(strstr(text, "prim block_2_1.fu FuncUnit at=2,1 "
                           "width=32 latency=0 ops=add,sub,mul,sdiv,"));
    assert_non_null(strstr(text, "prim block_1_2.fu FuncUnit at=1,2 "
                           "width=32 latency=0 ops=add,sub,and,"));
    assert_non_null(strstr(text, "prim block_2_2.fu FuncUnit at=2,2 "
                           "width=32 latency=0 ops=add,sub,and,"));
    free(text);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
    d = cg_diags_create();
    a = read_mem(PE "<architecture row=\"4\" col=\"5\">\n<mesh " PORTS
                 ">\n<interior col=\"2\"><block module=\"pe\"/><block/>"
                 "</interior></mesh></architecture></cgra>\n", d);
    assert_non_null(a);
    assert_int_equal(cg_diags_size(d), 1);
    expect_diag(d, 0, "t.xml:4: warning: the 1x2 <interior> stamp does not "
                "tile the 2x3 interior; as in CGRA-ME, interior cell (r, c) "
                "takes the stamp's cell (r mod 1, c mod 2): its last repeats "
                "are cut at the interior's edge");
    text = netlist_text(a, 1);
    assert_non_null(strstr(text, "registers: 4\n")); /* columns 1 and 3 */
    free(text);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* ADRES-like ADL1 files (adres_arch.xml, adres_templates.xml): MemPort
 * blocks (a template wrapping the MemPort primitive, ninput="4") at rows 2
 * and 5, and top-level inout pins joined to IOs' bidir in both written
 * directions across the module boundary.  Each MemPort is built from two
 * 4-input multiplexers, a MEMUnit and a register: 2 MEMUnits, 10
 * registers (8 PEs + 2 MemPorts). */
static void test_adres_memport(void **state)
{
    (void)state;
    expect_file("adres_arch.xml", "adres_templates.xml", 0,
                "cgrame_adres_summary.txt", 1, NULL);
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_xml_read(DATA "adres_arch.xml",
                             DATA "adres_templates.xml", d);
    assert_non_null(a);
    char *text = netlist_text(a, 0);
    /* the MemPort's parts, and its in0 reached from the PE below */
    assert_non_null(strstr(text, "prim block_2_0.mem_port.mem_unit MEMUnit "
                           "at=2,0"));
    assert_non_null(strstr(text, "prim block_2_0.mem_port.mux_addr "
                           "Multiplexer at=2,0"));
    assert_non_null(strstr(text, "prim block_2_0.mem_port.reg Register "
                           "at=2,0"));
    free(text);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* MemPort as an <inst> or a <block> of an ADL0 file (no template of that
 * name): one module per parameter set; its attributes are a MEMUnit's
 * plus ninput; a <sub-module> may not name it. */
#define MP(inst)                                                              \
    "<cgra><module name=\"m\"><input name=\"a\" size=\"16\"/><input "    \
    "name=\"b\" size=\"16\"/><output name=\"o\" size=\"16\"/>" inst "</module>\n<architecture rows=\"1\" "      \
    "cols=\"1\"><pattern><block module=\"m\"/></pattern></architecture>"    \
    "</cgra>\n"
static void test_memport_inst(void **state)
{
    (void)state;
    expect_summary(MP("<inst name=\"p\" module=\"MemPort\" ninput=\"2\" "
                      "size=\"16\"/><connection from=\"a\" to=\"p.in0\"/>"
                      "<connection from=\"b\" to=\"p.in1\"/>"
                      "<connection from=\"p.out\" to=\"o\"/>"),
                   (const char *const[]){"MEMUnits: 1\n", "registers: 1\n",
                                         "muxes: 2 (2..2 inputs)\n", NULL});
    /* a block of an ADL0 file; ninput defaults to 2 */
    cg_diags *d = cg_diags_create();
    cg_arch *a = read_mem("<cgra><architecture rows=\"1\" cols=\"1\"><pattern>"
                 "<block module=\"MemPort\"/></pattern></architecture>"
                 "</cgra>\n", d);
    assert_non_null(a);
    assert_true(cg_arch_module_find(a, "MemPort(ninput=2,size=32)") >= 0);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
    expect_error(MP("<inst name=\"p\" module=\"MemPort\" op=\"load\"/>"),
                 "t.xml:1: error: unknown attribute 'op' on MemPort 'p' "
                 "(attributes: size, ninput, memory, bank)");
    expect_error(MP("<sub-module name=\"p\" module=\"MemPort\"/>"),
                 "t.xml:1: error: <sub-module> 'p' names primitive "
                 "'MemPort'; use <inst> for primitives");
    expect_error(MP("<inst name=\"p\" module=\"MemPort\" size=\"16\"/>"
                    "<connection from=\"p.in2\" to=\"o\"/>"),
                 "t.xml:1: error: unknown port 'in2' on instance 'p' of "
                 "module 'MemPort(ninput=2,size=16)' (ports: in0, in1, out)");
}

/* Inout ports joined across module boundaries are one pin, whichever
 * way the connection is written (CGRA-ME's IO template joins io.bidir to
 * this.bidir, the top joins that to its own inout).  A real output driving
 * an inout that is also driven from the other side stays an error. */
#define PIN(inner, outer)                                                     \
    "<cgra><module name=\"w\"><inout name=\"bidir\"/><output name=\"o\"/>"  \
    "<input name=\"i\"/><inst name=\"io\" module=\"IO\"/><connection "     \
    "from=\"i\" to=\"io.in\"/><connection " inner "/>"                     \
    "<connection from=\"io.out\" to=\"o\"/></module>\n<architecture "       \
    "rows=\"1\" cols=\"1\"><inout name=\"pin\"/><pattern><block "          \
    "module=\"w\"/></pattern><connection " outer "/></architecture>"        \
    "</cgra>\n"
static void test_inout_join(void **state)
{
    (void)state;
    static const char *const inner[] = {
        "from=\"io.bidir\" to=\"this.bidir\"",
        "from=\"this.bidir\" to=\"io.bidir\""};
    static const char *const outer[] = {
        "from=\"this.pin\" to=\"block_0_0.bidir\"",
        "from=\"block_0_0.bidir\" to=\"this.pin\""};
    for (int i = 0; i < 2; i++)
        for (int o = 0; o < 2; o++) {
            char xml[2048];
            snprintf(xml, sizeof xml, PIN("%s", "%s"), inner[i], outer[o]);
            expect_summary(xml, (const char *const[]){"IOs: 1\n", NULL});
        }
    expect_error(PIN("from=\"io.out\" to=\"this.bidir\"",
                     "from=\"block_0_0.o\" to=\"block_0_0.bidir\""),
                 "t.xml:1: error: inout port 'block_0_0.bidir' is driven "
                 "both inside and outside its module (by 'block_0_0.o' and "
                 "by 'io.out'); drive it from one side");
}

/* Line 1: a PE with an input and an output. */
#define PE_MOD                                                                \
    "<cgra><module name=\"pe\"><input name=\"in\"/><output name=\"out\"/>"  \
    "<inst name=\"r\" module=\"Register\"/><connection from=\"this.in\" "     \
    "to=\"r.in\"/><connection from=\"r.out\" to=\"this.out\"/></module>\n"

/* CGRA-ME substitutes "(name)" as text, so its files may give a counter
 * any name (its archfiles/archfile.xml: counter="stupid counter name"):
 * taken while nothing refers to it, an error when something does, as
 * cgramap reads "(a b)" as a call. */
static void test_counter_any_name(void **state)
{
    (void)state;
    const char *const want[] = {"blocks: 4", NULL};
    expect_summary(PE_MOD "<architecture row=\"2\" col=\"2\">\n"
                   "<pattern counter=\"stupid counter name\" "
                   "wrap-around=\"on\"><block module=\"pe\"/>\n"
                   "<connection from=\"(rel 0 1).out\" to=\"(rel 0 0).in\"/>"
                   "</pattern></architecture></cgra>\n", want);
    expect_error(PE_MOD "<architecture row=\"1\" col=\"2\">\n"
                 "<pattern counter=\"a b\"><block module=\"pe\" "
                 "k=\"(a b)\"/></pattern></architecture></cgra>\n",
                 "t.xml:3: error: counter=\"a b\" is not a valid counter "
                 "name to refer to as (name); use letters, digits and '_' "
                 "(not rel, empty, not, this)");
}

static void test_errors(void **state)
{
    (void)state;
    expect_error(MESH("row=\"4\" col=\"4\"", "row-range=\"1 2\""),
                 "t.xml:3: error: the <mesh> covers rows 1..2, columns "
                 "0..3: no PE fits inside its border row and column (they "
                 "hold the IO ring); give it at least 3 rows and 3 columns");
    expect_error(MESH("row=\"2\" col=\"4\"", ""),
                 "t.xml:3: error: the <mesh> covers rows 0..1, columns "
                 "0..3: no PE fits inside its border row and column (they "
                 "hold the IO ring); give it at least 3 rows and 3 columns");
    expect_error(MESH("row=\"4\" col=\"4\"", "row-range=\"0\""),
                 "t.xml:3: error: row-range=\"0\" must be two numbers 'first "
                 "last' with 0 <= first <= last <= 3");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adl0_mesh),
        cmocka_unit_test(test_adl0_diagonal),
        cmocka_unit_test(test_adl1_mesh_templates),
        cmocka_unit_test(test_adl1_default_templates),
        cmocka_unit_test(test_adl1_unknown_module),
        cmocka_unit_test(test_default_templates_text),
        cmocka_unit_test(test_adres_default_templates),
        cmocka_unit_test(test_ranges_past_size),
        cmocka_unit_test(test_pattern_past_grid),
        cmocka_unit_test(test_settings_disagree),
        cmocka_unit_test(test_border_without_io),
        cmocka_unit_test(test_stamp_from_blocks),
        cmocka_unit_test(test_stamp_modulo),
        cmocka_unit_test(test_adres_memport),
        cmocka_unit_test(test_memport_inst),
        cmocka_unit_test(test_inout_join),
        cmocka_unit_test(test_counter_any_name),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
