/* test_read.c: the entry points (xml/read.c): files and memory, libxml2's
 * messages with their lines, roots, the two-file template form, the
 * shipped architectures of benchmarks/archs (parsed, flattened and
 * summarized against golden files), and the errors only flattening finds,
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
        "adres_4x4", "hetero_4x4", "hetero_8x8",
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        summary_of(files[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_roots),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_two_files),
        cmocka_unit_test(test_benchmarks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
