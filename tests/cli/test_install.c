/* test_install.c: `cmake --install` into a fresh prefix gives a working
 * cgramap, the libraries, the public headers (never the internal ones nor
 * common/'s helpers), the umbrella header <cgramap/cgramap.h> with
 * cg_version, the default ADL1 templates and a pkg-config file that a user
 * program compiles and links with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "run_cgramap.h" /* slurp */


static char prefix[] = "/tmp/cg_install_XXXXXX";

__attribute__((format(printf, 1, 2)))
static int sh(const char *fmt, ...)
{
    char cmd[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    return system(cmd);
}

static bool present(const char *rel)
{
    char p[256];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", prefix, rel);
    return stat(p, &st) == 0;
}

static int setup(void **state)
{
    (void)state;
    const char *bin = getenv("CG_BINARY_DIR");
    if (!bin || !mkdtemp(prefix))
        return -1;
    return sh("cmake --install %s --prefix %s > /dev/null", bin, prefix);
}

static int teardown(void **state)
{
    (void)state;
    return sh("rm -rf %s", prefix);
}

static void test_files(void **state)
{
    (void)state;
    const char *want[] = {
        "bin/cgramap", "lib/libcg_common.a", "lib/libcg_arch.a",
        "lib/libcg_xml.a", "lib/libcg_dfg.a", "lib/libcg_extract.a",
        "lib/libcg_mapper.a", "lib/libcg_mapper_model.a",
        "lib/libcg_verify.a", "lib/libcg_tiling.a", "lib/libcg_flow.a",
        "lib/pkgconfig/cgramap.pc", "include/cgramap/arch/arch.h",
        "include/cgramap/xml/xml.h", "include/cgramap/dfg/dfg.h",
        "include/cgramap/extract/extract.h", "include/cgramap/mapper/map.h",
        "include/cgramap/tiling/tile.h", "include/cgramap/flow/flow.h",
        "include/cgramap/common/diag.h",
        "include/cgramap/common/limits.h", "include/cgramap/common/op.h",
        "include/cgramap/common/version.h", "include/cgramap/cgramap.h",
        "include/cgramap/mapper/mapping_io.h",
        "include/cgramap/verify/verify.h",
        "share/cgramap/module_templates.xml"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        if (!present(want[i]))
            fail_msg("%s not installed", want[i]);
    }
    assert_false(present("include/cgramap/dfg/dfg_internal.h"));
    assert_false(present("include/cgramap/flow/flow_internal.h"));
    /* common/'s helpers are the libraries' own, not an API */
    const char *helper[] = {"util", "arena", "strmap", "input"};
    for (size_t i = 0; i < sizeof helper / sizeof *helper; i++) {
        char h[64];
        snprintf(h, sizeof h, "include/cgramap/common/%s.h", helper[i]);
        if (present(h))
            fail_msg("%s installed", h);
    }
    char out[64];
    snprintf(out, sizeof out, "%s/v", prefix);
    assert_int_equal(sh("%s/bin/cgramap --version > %s", prefix, out), 0);
    char v[64];
    slurp(out, v, sizeof v);
    assert_string_equal(v, "cgramap " CG_VERSION "\n");
}

/* Write the program text to PREFIX/name, build it with compiler against
 * the installed prefix, found only through pkg-config (the .pc file
 * locates its prefix itself), run it and return what it printed. */
static void build_and_run(const char *name, const char *compiler,
                          const char *text, char *out, size_t cap)
{
    char src[64], cmd[1024], log[64];
    snprintf(src, sizeof src, "%s/%s", prefix, name);
    FILE *f = fopen(src, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cd %s && %s " CG_USER_CFLAGS " %s -o prog "
             "$(PKG_CONFIG_PATH=%s/lib/pkgconfig pkg-config --cflags --libs "
             "cgramap) && ./prog > out", prefix, compiler, name, prefix);
    assert_int_equal(system(cmd), 0);
    snprintf(log, sizeof log, "%s/out", prefix);
    slurp(log, out, cap);
}

/* The umbrella header alone declares every stage, and cg_version says
 * what cgramap --version says. */
static void test_umbrella(void **state)
{
    (void)state;
    char text[64];
    build_and_run("all.c", "cc -std=c11", "#include <cgramap/cgramap.h>\n"
          "#include <stdio.h>\n"
          "int main(void) {\n"
          "    cg_flow_params p;\n    cg_flow_params_init(&p);\n"
          "    printf(\"%s %s\\n\", cg_version(),\n"
          "           cg_map_status_name(CG_MAP_INFEASIBLE));\n"
          "    return 0;\n}\n", text, sizeof text);
    assert_string_equal(text, CG_VERSION " infeasible\n");
}

/* A C user program against the installed prefix. */
static void test_pkg_config(void **state)
{
    (void)state;
    char text[64];
    build_and_run("use.c", "cc -std=c11", "#include \"arch/arch.h\"\n#include <stdio.h>\n"
          "int main(void) {\n"
          "    cg_diags *d = cg_diags_create();\n"
          "    cg_arch *a = cg_arch_default(d);\n"
          "    cg_netlist *nl = cg_arch_flatten(a, d);\n"
          "    puts(nl ? \"flattened\" : \"failed\");\n"
          "    cg_netlist_destroy(nl);\n    cg_arch_destroy(a);\n"
          "    cg_diags_destroy(d);\n    return 0;\n}\n", text, sizeof text);
    assert_string_equal(text, "flattened\n");
}

/* A C++ program includes every public header and links: the headers
 * declare their functions extern "C". */
static void test_cplusplus(void **state)
{
    (void)state;
    char text[64];
    build_and_run("use.cpp", "c++", "#include \"common/diag.h\"\n#include \"common/limits.h\"\n"
          "#include \"common/op.h\"\n#include \"common/version.h\"\n"
          "#include \"arch/arch.h\"\n"
          "#include \"xml/xml.h\"\n#include \"dfg/dfg.h\"\n"
          "#include \"extract/extract.h\"\n#include \"mapper/map.h\"\n"
          "#include \"mapper/mapping_io.h\"\n"
          "#include \"rtl/rtl.h\"\n"
          "#include \"verify/verify.h\"\n#include \"verify/rtl.h\"\n"
          "#include \"tiling/tile.h\"\n#include \"flow/flow.h\"\n"
          "#include <cstdio>\n"
          "int main() {\n"
          "    cg_diags *d = cg_diags_create();\n"
          "    cg_arch *a = cg_arch_default(d);\n"
          "    cg_netlist *nl = cg_arch_flatten(a, d);\n"
          "    cg_flow_params p;\n    cg_flow_params_init(&p);\n"
          "    cg_dfg *g = cg_dfg_create(\"x\");\n"
          "    cg_mrrg *m;\n"
          "    cg_mapping *x = cg_mapping_read(\"/none\", nl, g, &m, d);\n"
          "    std::printf(\"%s %d %d %d\\n\", nl ? \"flattened\" : \"failed\","
          " cg_map_top_ii(&p.map, 1), (int)p.executions,"
          " x == NULL && m == NULL);\n"
          "    cg_dfg_destroy(g);\n"

          "    cg_netlist_destroy(nl);\n    cg_arch_destroy(a);\n"
          "    cg_diags_destroy(d);\n    return 0;\n}\n", text, sizeof text);
    assert_string_equal(text, "flattened 16 16 1\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_pkg_config),
        cmocka_unit_test(test_umbrella),
        cmocka_unit_test(test_cplusplus),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
