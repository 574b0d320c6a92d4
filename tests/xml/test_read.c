/* test_read.c: the entry points (xml/read.c): files and memory, libxml2's
 * messages with their lines, roots, the two-file template form, the
 * shipped architectures of benchmarks/archs (parsed, flattened and
 * summarized against golden files; the tori PE by PE; default_4x4_imm is
 * default_4x4 with immediates), and the errors only flattening finds,
 * reported at the XML line that made the object. */
#include "xml_test_util.h"

static char *path_of(const char *rel)
{
    char *p = malloc(1024);
    snprintf(p, 1024, "%s/%s", src_dir(), rel);
    return p;
}

static void test_malformed(void **state)
{
    (void)state;
    expect_error("<cgra><module name=\"m\">\n</cgra>\n",
                 "t.xml:2: error: malformed XML: Opening and ending tag "
                 "mismatch: module line 1 and cgra; fix the XML syntax there");
    expect_error("<cgra a=\"1\" a=\"2\"/>",
                 "t.xml:1: error: malformed XML: Attribute a redefined; fix "
                 "the XML syntax there");
    expect_error("",
                 "t.xml:1: error: malformed XML: Document is empty; fix the "
                 "XML syntax there");
}

/* An entity reference is an error at its element's line, whether the
 * entity is declared (libxml2 keeps the reference as a node every reader
 * would skip); an undeclared one is malformed XML, with or without a DTD
 * (none is loaded). */
static void test_entities(void **state)
{
    (void)state;
    expect_error("<!DOCTYPE cgra [<!ENTITY pe \"<module name='m'/>\">]>\n"
                 "<cgra>\n&pe;\n</cgra>\n",
                 "t.xml:2: error: entity reference '&pe;' in <cgra>; cgramap "
                 "does not expand XML entities: write out the text it stands "
                 "for");
    expect_error("<!DOCTYPE cgra [<!ENTITY n \"4\">]>\n<cgra>\n"
                 "<architecture rows=\"&n;\" cols=\"4\"/>\n</cgra>\n",
                 "t.xml:3: error: entity reference '&n;' in <architecture>; "
                 "cgramap does not expand XML entities: write out the text it "
                 "stands for");
    expect_error("<!DOCTYPE cgra SYSTEM \"none.dtd\">\n<cgra>\n"
                 "<module name=\"m\">&x;</module>\n</cgra>\n",
                 "t.xml:3: error: malformed XML: Entity 'x' not defined; fix "
                 "the XML syntax there");
    expect_error("<cgra>\n&x;\n</cgra>\n",
                 "t.xml:2: error: malformed XML: Entity 'x' not defined; fix "
                 "the XML syntax there");
}

static void test_roots(void **state)
{
    (void)state;
    expect_error("<cgrA/>", "t.xml:1: error: unknown root tag <cgrA> "
                 "(expected: cgra, or architecture with a templates file)");
    expect_error("<cgra>\n</cgra>", "t.xml:1: error: <cgra> has no "
                 "<architecture>; add one with the grid's blocks");
    expect_error("<cgra><architecture rows=\"1\" cols=\"1\"/>\n"
                 "<architecture rows=\"1\" cols=\"1\"/></cgra>",
                 "t.xml:2: error: second <architecture> (the first is at "
                 "line 1); a file describes one array");
    cg_diags *d = cg_diags_create();
    assert_null(cg_xml_read_memory("<architecture rows=\"1\" cols=\"1\"/>",
                                   "a.xml", "<cgra/>", "tm.xml", d));
    assert_int_equal(cg_diags_size(d), 1);
    expect_diag(d, 0, "tm.xml:1: error: the templates file's root must be "
                      "<templates>, not <cgra>");
    cg_diags_destroy(d);
}

static void test_files(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    assert_null(cg_xml_read("/nonexistent/arch.xml", NULL, d));
    expect_diag(d, 0, "/nonexistent/arch.xml: error: cannot open the file: "
                      "No such file or directory; check the path");
    /* a folder, as the architecture or its templates: once "cannot read
     * the file" with no reason */
    char *dir = path_of("benchmarks/archs");
    char *arch = path_of("benchmarks/archs/two_file/mesh_arch.xml");
    assert_null(cg_xml_read(dir, NULL, d));
    assert_null(cg_xml_read(arch, dir, d));
    assert_int_equal(cg_diags_size(d), 3);
    char want[1024];
    snprintf(want, sizeof want, "%s: error: is a directory, not a file; name "
             "an .xml file", dir);
    expect_diag(d, 1, want);
    expect_diag(d, 2, want);
    free(dir);
    free(arch);
    cg_diags_destroy(d);
}

/* The two-file form builds the same netlist as the same text inlined. */
static void test_two_files(void **state)
{
    (void)state;
    char *arch = path_of("benchmarks/archs/two_file/mesh_arch.xml");
    char *tmpl = path_of("benchmarks/archs/two_file/module_templates.xml");
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_xml_read(arch, tmpl, d);
    if (!a)
        cg_diags_print(d, stderr);
    assert_non_null(a);
    char *text = netlist_text(a, 0);
    check_golden("two_file.txt", text);
    free(text);
    text = netlist_text(a, 1);
    check_golden("two_file_summary.txt", text);
    free(text);
    cg_arch_destroy(a);
    /* Without the templates file the module is unknown. */
    assert_null(cg_xml_read(arch, NULL, d));
    assert_true(cg_diags_errors(d) >= 1);
    cg_diags_destroy(d);
    free(arch);
    free(tmpl);
}

/* A module (lines 2..) in a 1x1 architecture (the line after it). */
#define PE(body)                                                              \
    "<cgra>\n<module name=\"pe\">\n<input name=\"a\"/><input name=\"b\"/>"  \
    "<output name=\"o\"/>\n<inst name=\"func\" module=\"FuncUnit\"/>\n"     \
    body "</module>\n<architecture rows=\"1\" cols=\"1\"><pattern>"           \
    "<block module=\"pe\"/></pattern></architecture></cgra>\n"

/* Errors only flattening finds, at the line of the element that made the
 * object; the arch is NULL. */
static void test_flatten_errors(void **state)
{
    (void)state;
    expect_error(PE("<connection from=\"a\" to=\"func.in_a func.in_b\"/>\n"
                    "<connection from=\"b\" to=\"func.in_c\"/>\n"),
                 "t.xml:6: error: unknown port 'in_c' on FuncUnit 'func' "
                 "(ports: in_a, in_b, out)");
    expect_error(PE("<connection from=\"this.a\" to=\"func.in_a\"/>\n"
                    "<connection from=\"this.b\" to=\"func.in_a func.in_b\"/>\n"),
                 "t.xml:6: error: 'func.in_a' in module 'pe' is driven by both "
                 "'a' (at t.xml:5) and 'b'; list both in one select-from= to "
                 "put a multiplexer in front of it");
    /* a pattern's stamps repeat its connections: a bad reference in one
       is one error, not one per stamp */
    expect_error("<cgra><module name=\"pe\"><input name=\"i\"/><output "
                 "name=\"o\"/><inst name=\"f\" module=\"FuncUnit\"/>"
                 "<connection from=\"i\" to=\"f.in_a f.in_b\"/>"
                 "<connection from=\"f.out\" to=\"o\"/></module>\n"
                 "<architecture rows=\"1\" cols=\"3\">\n"
                 "<pattern><block module=\"pe\"/></pattern>\n"
                 "<pattern><connection from=\"nowhere\" "
                 "to=\"(rel 0 0).i\"/></pattern>\n"
                 "</architecture></cgra>\n",
                 "t.xml:4: error: unknown port or wire 'nowhere' in module "
                 "'architecture' (ports and wires: none)");
    /* one connection written twice: no multiplexer to suggest */
    expect_error(PE("<connection from=\"this.a\" to=\"func.in_a\"/>\n"
                    "<connection from=\"this.a\" to=\"func.in_a func.in_b\"/>\n"),
                 "t.xml:6: error: 'func.in_a' in module 'pe' is connected "
                 "from 'a' twice (also at t.xml:5); remove one of the "
                 "connections");
    expect_error(PE("<connection from=\"a b\" to=\"func.in_a\"/>\n"
                    "<connection from=\"b\" to=\"func.in_b\"/>\n"),
                 "t.xml:5: error: 'func.in_a' in module 'pe' is driven by both "
                 "'a' (at t.xml:5) and 'b'; list both in one select-from= to "
                 "put a multiplexer in front of it");
    expect_error(PE("<wire name=\"w\" size=\"16\"/>\n"
                    "<connection from=\"a\" distribute-to=\"func.in_a func.in_b\"/>\n"
                    "<connection from=\"func.out\" to=\"w\"/>\n"),
                 "t.xml:7: error: width mismatch: 'func.out' is 32 bits but 'w' "
                 "is 16 bits; give both the same size=");
    expect_error(PE("<connection from=\"a\" to=\"func.in_a func.in_b\"/>\n"
                    "<connection from=\"a\" to=\"fun.in_a\"/>\n"),
                 "t.xml:6: error: unknown instance 'fun' in reference "
                 "'fun.in_a' in module 'pe' (instances: func)");
    expect_error(PE("<connection from=\"a\" to=\"func.in_b\"/>\n"
                    "<connection from=\"this.c\" to=\"func.in_a\"/>\n"),
                 "t.xml:6: error: unknown port or wire 'c' in module 'pe' "
                 "(ports and wires: a, b, o)");
    expect_error(PE("<inst name=\"func\" module=\"Register\"/>\n"
                    "<connection from=\"a\" to=\"func.in_a func.in_b\"/>\n"),
                 "t.xml:5: error: duplicate instance 'func' in module 'pe' "
                 "(first declared at t.xml:4); rename one");
    expect_error(PE("<wire name=\"a\"/>\n"
                    "<connection from=\"a\" to=\"func.in_a func.in_b\"/>\n"),
                 "t.xml:5: error: duplicate wire 'a' in module 'pe' (first "
                 "declared at t.xml:3); rename one");
    expect_error(PE("<connection from=\"a\" to=\"func.in_a func.in_b\"/>\n"
                    "<connection from=\"func.in_a\" to=\"o\"/>\n"),
                 "t.xml:6: error: 'func.in_a' is an input of FuncUnit 'func'; "
                 "it cannot drive 'o' (swap from= and to=?)");
    expect_error(PE("<inst name=\"m\" module=\"MEMUnit\" memory=\"spm\"/>\n"
                    "<connection from=\"a\" distribute-to=\"func.in_a "
                    "func.in_b m.addr m.data_in\"/>\n"),
                 "t.xml:5: error: MEMUnit 'm' reaches tile memory 'spm', which "
                 "is not declared (memories: none)");
    /* the top module's connections too */
    expect_error("<cgra><module name=\"pe\"><output name=\"o\"/></module>\n"
                 "<architecture rows=\"1\" cols=\"2\"><pattern><block "
                 "module=\"pe\"/></pattern>\n"
                 "<connection from=\"block_0_0.o\" to=\"block_0_1.i\"/>\n"
                 "</architecture></cgra>\n",
                 "t.xml:3: error: unknown port 'i' on instance 'block_0_1' of "
                 "module 'pe' (ports: o)");
}

/* An unconnected primitive input is a warning: the arch is built.  The
 * warning is the flatten's, given once: the reader's own check flatten
 * keeps it to itself (read then flatten once printed it twice). */
/* Read xml without a diagnostic, flatten it: want is its only warning,
 * or none when NULL. */
static void expect_flatten_warning(const char *xml, const char *want)
{
    cg_diags *d = cg_diags_create();
    cg_arch *a = read_mem(xml, d);
    assert_non_null(a);
    assert_int_equal(cg_diags_size(d), 0);
    cg_netlist_destroy(cg_arch_flatten(a, d));
    assert_int_equal(cg_diags_size(d), want ? 1 : 0);
    if (want)
        expect_diag(d, 0, want);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

static void test_unconnected_warning(void **state)
{
    (void)state;
    expect_flatten_warning(PE("<connection from=\"a\" to=\"func.in_a\"/>\n"
                              "<connection from=\"func.out\" to=\"o\"/>\n"),
                           "t.xml:4: warning: input 'in_b' of FuncUnit "
                           "'func' in module 'pe' is not connected; connect "
                           "it or remove the unit");
}

/* Issue 26's XML details.  An attribute of a start tag spread over lines
 * is reported at its own line (libxml2 gives the element the line where
 * its start tag ends); a parameter a module only compares with words takes
 * one of them (or the other half of on/off); a tile memory no MEMUnit
 * reaches is a warning. */
static void test_attr_lines(void **state)
{
    (void)state;
    const char *mod = "<cgra><module name=\"pe\"><output name=\"o\"/>"
                      "<inst name=\"r\" module=\"Register\"/><connection "
                      "from=\"r.out\" to=\"this.o\"/></module>\n";
    char xml[1024];
    snprintf(xml, sizeof xml, "%s<architecture rows=\"1\" cols=\"1\">\n"
             "<block module=\"pe\" row=\"0\" col=\"0\" bogus=\"1\"\n"
             "       />\n</architecture></cgra>\n", mod);
    expect_error(xml, "t.xml:3: error: unknown attribute 'bogus' on <block>: "
                      "module 'pe' has no parameter 'bogus' (parameters: "
                      "none)");
    snprintf(xml, sizeof xml, "%s<architecture rows=\"1\"\n"
             "   cols=\"x\"\n   address-width=\"32\">\n"
             "</architecture></cgra>\n", mod);
    expect_error(xml, "t.xml:3: error: cols=\"x\" on <architecture> must be "
                      "an integer >= 1");
    snprintf(xml, sizeof xml, "%s<architecture rows=\"1\" cols=\"1\">\n"
             "<pattern\n  wrap-around=\"yes\"\n  row-range=\"0 0\">"
             "<block module=\"pe\"/></pattern>\n</architecture></cgra>\n",
             mod);
    expect_error(xml, "t.xml:4: error: wrap-around=\"yes\" must be \"on\" "
                      "or \"off\"");
    /* two elements of the same name on the line: the one that has it */
    snprintf(xml, sizeof xml, "%s<architecture rows=\"1\" cols=\"2\">\n"
             "<block module=\"pe\" row=\"0\" col=\"0\"/><block module=\"pe\""
             "\n row=\"0\"\n col=\"1\" zz=\"1\"/>\n</architecture></cgra>\n",
             mod);
    expect_error(xml, "t.xml:5: error: unknown attribute 'zz' on <block>: "
                      "module 'pe' has no parameter 'zz' (parameters: "
                      "none)");
}

#define MEMPE(value)                                                          \
    "<cgra>\n<module name=\"pe\">\n<input name=\"a\"/><output name=\"o\"/>\n" \
    "<inst name=\"m\" module=\"MEMUnit\" if=\"(= (mem) on)\"/>\n"            \
    "<inst name=\"f\" module=\"FuncUnit\" if=\"(= off (mem))\"/>\n"          \
    "<connection if=\"(= (mem) on)\" from=\"a\" to=\"m.addr m.data_in\"/>\n" \
    "<connection if=\"(= (mem) on)\" from=\"m.data_out\" to=\"o\"/>\n"       \
    "<connection if=\"(= (mem) off)\" from=\"a\" to=\"f.in_a f.in_b\"/>\n"   \
    "<connection if=\"(= (mem) off)\" from=\"f.out\" to=\"o\"/>\n"           \
    "</module>\n<architecture rows=\"1\" cols=\"1\">\n<pattern>"             \
    "<block module=\"pe\"\n mem=\"" value "\"/></pattern>\n"                 \
    "<memory name=\"spm\" bytes=\"1024\"/>\n</architecture></cgra>\n"

static void test_compared_param(void **state)
{
    (void)state;
    expect_error(MEMPE("onn"), "t.xml:13: error: mem=\"onn\" on <block>: "
                 "module 'pe' reads parameter 'mem' only in (= (mem) on), "
                 "(= (mem) off), so this value selects nothing; give one "
                 "of: on, off");
    expect_flatten_warning(MEMPE("on"), NULL);
    /* mem="off": no MEMUnit reaches the tile memory */
    expect_flatten_warning(MEMPE("off"), "t.xml:14: warning: tile memory "
                           "'spm' is reached by no MEMUnit, so no load or "
                           "store can use it; give a MEMUnit memory=\"spm\", "
                           "or remove the memory");
    /* a parameter with another use takes any value */
    cg_diags *d = cg_diags_create();
    cg_arch *a = read_mem("<cgra><module name=\"pe\"><output name=\"o\"/><inst "
                 "name=\"f\" module=\"FuncUnit\" op=\"(ops)\"/><inst "
                 "name=\"r\" module=\"Register\" if=\"(= (ops) add)\"/>"
                 "<connection from=\"f.out\" to=\"o\"/></module><architecture rows=\"1\" cols=\"1\">"
                 "<pattern><block module=\"pe\" ops=\"sub\"/></pattern>"
                 "</architecture></cgra>\n", d);
    assert_non_null(a);
    assert_int_equal(cg_diags_errors(d), 0);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* A FuncUnit that lists load or store: read, with a warning at its line
 * that its memory is an abstract one (CGRA-ME's abstract fabrics list
 * them so); a FuncUnit without them: no warning. */
static void test_func_memory(void **state)
{
    (void)state;
    const char *ops[] = {"add load store", "add store", "add sub"};
    const char *want[] = {"load and store", "store", NULL};
    for (int k = 0; k < 3; k++) {
        char xml[1024], msg[512];
        snprintf(xml, sizeof xml, "<cgra><module name=\"pe\">\n<output "
                 "name=\"o\"/>\n<inst name=\"f\" module=\"FuncUnit\" "
                 "op=\"%s\"/>\n<connection from=\"f.out\" to=\"o\"/>"
                 "</module><architecture rows=\"1\" cols=\"1\"><pattern>"
                 "<block module=\"pe\"/></pattern></architecture></cgra>\n",
                 ops[k]);
        cg_diags *d = cg_diags_create();
        cg_arch *a = read_mem(xml, d);
        assert_non_null(a);
        assert_int_equal(cg_diags_errors(d), 0);
        assert_int_equal(cg_diags_size(d), want[k] ? 1 : 0);
        if (want[k]) {
            snprintf(msg, sizeof msg, "t.xml:3: warning: FuncUnit 'f' lists "
                     "%s: a FuncUnit reaches no memory, so those run on an "
                     "abstract one that no tile memory, DMA or RTL has (the "
                     "RTL refuses them); give loads and stores a MEMUnit",
                     want[k]);
            expect_diag(d, 0, msg);
        }
        cg_arch_destroy(a);
        cg_diags_destroy(d);
    }
}

static void summary_of(const char *file)
{
    char rel[256], golden[256];
    snprintf(rel, sizeof rel, "benchmarks/archs/%s.xml", file);
    snprintf(golden, sizeof golden, "bench_%s.txt", file);
    char *path = path_of(rel);
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_xml_read(path, NULL, d);
    if (!a || cg_diags_size(d))
        cg_diags_print(d, stderr);
    assert_non_null(a);
    assert_int_equal(cg_diags_size(d), 0);
    char *text = netlist_text(a, 1);
    check_golden(golden, text);
    free(text);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
    free(path);
}

static void test_benchmarks(void **state)
{
    (void)state;
    static const char *const files[] = {
        "nswe_mesh", "nswe_mesh_8x8", "diagonal", "diagonal_8x8",
        "adres_4x4", "hetero_4x4", "hetero_8x8", "default_4x4",
        "default_6x6", "default_8x8", "default_torus_8x8",
        "default_4x4_imm",
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        summary_of(files[i]);
}

/* The name of the primitive driving input pin `pin` of prim `name`. */
static const char *driver_of(const cg_netlist *nl, const char *name,
                             const char *pin)
{
    int p = cg_netlist_find_prim(nl, name);
    assert_true(p >= 0);
    int port = cg_netlist_prim_port(nl, p, pin);
    assert_true(port >= 0);
    int net = cg_netlist_port(nl, port)->net;
    assert_true(net >= 0);
    int drv = cg_netlist_net(nl, net)->driver;
    return cg_netlist_prim(nl, cg_netlist_port(nl, drv)->prim)->name;
}

/* The shipped 8x8 tori, PE by PE: MEMUnits on columns 0 and 7, an IO in
 * each PE of the outer ring and its value on the PE's multiplexers,
 * multipliers everywhere (default) or where row + column is even
 * (hetero), and links wrapping around: in_n of row 0 is row 7's output,
 * in_w of column 0 is column 7's. */
static void check_torus(const char *file, int checkerboard)
{
    char *path = path_of(file);
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_xml_read(path, NULL, d);
    assert_non_null(a);
    cg_netlist *nl = cg_arch_flatten(a, d);
    assert_non_null(nl);
    assert_int_equal(cg_netlist_rows(nl), 8);
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) {
            char name[64], want[64];
            snprintf(name, sizeof name, "block_%d_%d.mem", r, c);
            assert_int_equal(cg_netlist_find_prim(nl, name) >= 0,
                             c == 0 || c == 7);
            int ring = r == 0 || r == 7 || c == 0 || c == 7;
            snprintf(name, sizeof name, "block_%d_%d.io", r, c);
            assert_int_equal(cg_netlist_find_prim(nl, name) >= 0, ring);
            snprintf(name, sizeof name, "block_%d_%d.func", r, c);
            const cg_nl_prim *f =
                cg_netlist_prim(nl, cg_netlist_find_prim(nl, name));
            int mul = (f->p.ops & CG_OPSET(CG_OP_MUL)) != 0;
            assert_int_equal(mul, !checkerboard || (r + c) % 2 == 0);
            /* the operand mux: in_n in_e in_s in_w reg const (io) */
            snprintf(name, sizeof name, "block_%d_%d.func_in_b_mux", r, c);
            snprintf(want, sizeof want, "block_%d_%d.reg", (r + 7) % 8, c);
            assert_string_equal(driver_of(nl, name, "in0"), want);
            snprintf(want, sizeof want, "block_%d_%d.reg", r, (c + 7) % 8);
            assert_string_equal(driver_of(nl, name, "in3"), want);
            snprintf(want, sizeof want, "block_%d_%d.io", r, c);
            if (ring)
                assert_string_equal(driver_of(nl, name, "in6"), want);
            else
                assert_int_equal(cg_netlist_prim_port(
                    nl, cg_netlist_find_prim(nl, name), "in6"), -1);
        }
    assert_int_equal(cg_diags_size(d), 0);
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
    free(path);
}

static void test_shipped_tori(void **state)
{
    (void)state;
    check_torus("benchmarks/archs/default_torus_8x8.xml", 0);
    check_torus("benchmarks/archs/hetero_8x8.xml", 1);
}

/* The netlist of benchmarks/archs/<file>.xml as text. */
static char *netlist_of(const char *file)
{
    char rel[256];
    snprintf(rel, sizeof rel, "benchmarks/archs/%s.xml", file);
    char *path = path_of(rel);
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_xml_read(path, NULL, d);
    assert_non_null(a);
    char *text = netlist_text(a, 0);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
    free(path);
    return text;
}

/* default_4x4_imm is the default array plus immediates: its netlist less
 * the immediates of its 16 FuncUnits and 8 MEMUnits is the default's. */
static void test_default_imm_variant(void **state)
{
    (void)state;
    char *def = netlist_of("default_4x4"), *imm = netlist_of("default_4x4_imm");
    static const char *const cut[] = {
        " immediate=in_a,in_b,in_c immediate-size=32",
        " immediate=addr,data_in immediate-size=32"};
    const int want[] = {16, 8};
    for (int k = 0; k < 2; k++) {
        int n = 0;
        for (char *p; (p = strstr(imm, cut[k])); n++)
            memmove(p, p + strlen(cut[k]), strlen(p + strlen(cut[k])) + 1);
        assert_int_equal(n, want[k]);
    }
    assert_string_equal(imm, def);
    free(def);
    free(imm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_entities),
        cmocka_unit_test(test_roots),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_two_files),
        cmocka_unit_test(test_flatten_errors),
        cmocka_unit_test(test_unconnected_warning),
        cmocka_unit_test(test_attr_lines),
        cmocka_unit_test(test_compared_param),
        cmocka_unit_test(test_func_memory),
        cmocka_unit_test(test_benchmarks),
        cmocka_unit_test(test_shipped_tori),
        cmocka_unit_test(test_default_imm_variant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
