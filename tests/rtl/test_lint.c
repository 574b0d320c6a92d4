/* test_lint.c: every array of benchmarks/archs/ yields Verilog that
 * `verilator --lint-only -Wall` and `yosys ... proc; check -assert` pass
 * without a word.  tests/rtl/data/adres_comb.xml (adres_4x4 with
 * FuncUnits of latency 0, whose PEs then pass values around the mesh
 * through logic alone) is refused, one loop named by its exact message.
 * A missing verilator or yosys fails the test with the way to install
 * them. */
#include <dirent.h>

#include "rtl_test_util.h"

static const char adres_loop[] =
    "combinational loop: block_0_0.func.in_a -> block_0_0.func.out -> "
    "block_0_0.result_mux.in0 -> block_0_0.result_mux.out -> "
    "block_0_1.func_in_a_mux.in3 -> block_0_1.func_in_a_mux.out -> "
    "block_0_1.func.in_a -> block_0_1.func.out -> "
    "block_0_0.func_in_a_mux.in1 -> block_0_0.func_in_a_mux.out -> "
    "block_0_0.func.in_a: no register on it (the hardware would have a "
    "cycle of logic); put a Register on it or give a unit on it latency 1";

/* Run cmd; its output, which must be empty, and its status, 0. */
static void quiet(const char *cmd, const char *arch)
{
    char full[2048];
    snprintf(full, sizeof full, "cd %s && %s > lint.log 2>&1", scratch(""),
             cmd);
    int st = system(full);
    char *log = cg_slurp(scratch("lint.log"), NULL);
    if (st != 0 || (log && *log))
        fail_msg("%s: %s: status %d: %s", arch, cmd, st, log ? log : "");
    free(log);
}

static void lint_one(const char *arch, int *linted)
{
    char path[512];
    snprintf(path, sizeof path, "benchmarks/archs/%s", arch);
    cg_netlist *nl = load(path);
    cg_rtl_params p;
    cg_rtl_params_init(&p);
    cg_diags *d = cg_diags_create();
    cg_rtl *r = cg_rtl_create(nl, &p, d);
    if (!r)
        cg_diags_print(d, stderr);
    assert_non_null(r);
    FILE *f = fopen(scratch("lint_array.v"), "w");
    assert_int_equal(cg_rtl_write_verilog(r, f), 0);
    fclose(f);
    quiet("verilator --lint-only -Wall lint_array.v", arch);
    quiet("yosys -q -p 'read_verilog lint_array.v; hierarchy -top "
          "cg_array; proc; check -assert'", arch);
    (*linted)++;
    cg_rtl_destroy(r);
    cg_diags_destroy(d);
    cg_netlist_destroy(nl);
}

static void test_loop_refused(void **state)
{
    (void)state;
    cg_netlist *nl = load("tests/rtl/data/adres_comb.xml");
    cg_rtl_params p;
    cg_rtl_params_init(&p);
    cg_diags *d = cg_diags_create();
    assert_null(cg_rtl_create(nl, &p, d));
    assert_int_equal(cg_diags_size(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->msg, adres_loop);
    cg_diags_destroy(d);
    cg_netlist_destroy(nl);
}

static void test_every_array(void **state)
{
    (void)state;
    need_tool("verilator");
    need_tool("yosys");
    DIR *dir = opendir("benchmarks/archs");
    assert_non_null(dir);
    int linted = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        size_t n = strlen(e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".xml"))
            lint_one(e->d_name, &linted);
    }
    closedir(dir);
    assert_true(linted >= 12);
    remove(scratch("lint_array.v"));
    remove(scratch("lint.log"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_array),
        cmocka_unit_test(test_loop_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
