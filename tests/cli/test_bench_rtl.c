/* test_bench_rtl.c: the main job with --rtl (Icarus Verilog, whose model
 * of the default 4x4 compiles in seconds; the compiled models are kept in
 * the build folder's rtl-cache, as tests/rtl's are).  The row's rtl word
 * goes to the rows, the JSON and the CSV's last column; a sharded run
 * with --rtl gives the rows and reports of one run, the merge refuses a
 * part run without it or with another simulator, and `cgramap sweep`
 * writes --rtl-sim and --rtl-cache into its shards' command; a tiled loop
 * (benchmarks/tiled/saxpy, 3 tiles) co-simulates the first inner-loop run
 * of its first tile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "run_cgramap.h"
#include "sweep_check.h"

#define SUM "benchmarks/microbench/sum"
#define DOT "benchmarks/microbench/dot"
#define LIMITS "--timeout", "10", "--max-ii", "4", "--steps", "2000"

static const char *rtl_cache(void)
{
    static char buf[1024];
    const char *b = getenv("CG_BINARY_DIR");
    snprintf(buf, sizeof buf, "%s/rtl-cache", b ? b : ".");
    return buf;
}

/* The CSV's header and the line of a loop (ends cut). */
static void csv_lines(const char *path, char *head, char *line,
                      const char *bench, size_t n)
{
    char text[8192];
    slurp(path, text, sizeof text);
    char *end = strstr(text, "\r\n");
    assert_non_null(end);
    snprintf(head, n, "%.*s", (int)(end - text), text);
    char key[64];
    snprintf(key, sizeof key, "\r\n\"%s\",", bench);
    char *at = strstr(text, key);
    assert_non_null(at);
    at += 2;
    snprintf(line, n, "%.*s", (int)(strstr(at, "\r\n") - at), at);
}

static bool ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

/* sum and dot map, verify and run equal on the RTL: "rtl: yes" under
 * each row, "rtl": "yes" in the JSON, a last CSV column rtl; a file that
 * fails whole (bad.dot: no loop record) leaves it empty.  Without --rtl
 * the CSV has no such column. */
static void test_csv_column(void **state)
{
    (void)state;
    static run r;
    run_cgramap(&r, (const char *const[]){
        "--rtl-sim", "iverilog", "--rtl-cache", rtl_cache(), LIMITS,
        "--json", in_tmp("r.json"), "--csv", in_tmp("r.csv"), SUM, DOT,
        "tests/cli/data/bench/loose/bad.dot", NULL});
    assert_int_equal(r.status, 1); /* bad.dot */
    mask_times(r.out);
    const char *sum = strstr(r.out, "\nsum ");
    assert_non_null(sum);
    assert_non_null(strstr(sum, " yes\n  rtl: yes\ndot "));
    assert_non_null(strstr(sum, " yes\n  rtl: yes\nbad "));
    char head[4096], line[4096];
    csv_lines(in_tmp("r.csv"), head, line, "sum", sizeof head);
    assert_true(ends_with(head, ",\"checked\",\"verified\",\"rtl\""));
    assert_true(ends_with(line, ",\"yes\",\"yes\",\"yes\""));
    csv_lines(in_tmp("r.csv"), head, line, "dot", sizeof head);
    assert_true(ends_with(line, ",\"yes\",\"yes\",\"yes\""));
    csv_lines(in_tmp("r.csv"), head, line, "bad", sizeof head);
    assert_true(ends_with(line, ",\"no\",\"-\",\"\""));
    json_t *all = json_load_file(in_tmp("r.json"), 0, NULL);
    assert_non_null(all);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(all, 0), "rtl")), "yes");
    json_decref(all);

    run_cgramap(&r, (const char *const[]){LIMITS, "--csv", in_tmp("n.csv"),
                                          SUM, NULL});
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "rtl:"));
    csv_lines(in_tmp("n.csv"), head, line, "sum", sizeof head);
    assert_true(ends_with(head, ",\"checked\",\"verified\""));
    assert_true(ends_with(line, ",\"yes\",\"yes\""));
}

/* Shard i of 2 of sum and dot with the given --rtl options into part. */
static void shard(int i, const char *part, const char *sim)
{
    run r;
    char spec[8];
    snprintf(spec, sizeof spec, "%d/2", i);
    const char *args[24] = {"--shard", spec, "--json", part, LIMITS};
    int n = 10;
    if (sim) {
        args[n++] = "--rtl-sim";
        args[n++] = sim;
        args[n++] = "--rtl-cache";
        args[n++] = rtl_cache();
    }
    args[n++] = SUM;
    args[n++] = DOT;
    args[n] = NULL;
    run_cgramap(&r, args);
    assert_int_equal(r.status, 0);
}

/* merge PART... must fail with exactly err. */
static void refused(const char *a, const char *b, const char *err)
{
    run r;
    run_cgramap(&r, (const char *const[]){"merge", a, b, NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, err);
}

static void test_shards(void **state)
{
    (void)state;
    static run one, m;
    run_cgramap(&one, (const char *const[]){
        "--rtl-sim", "iverilog", "--rtl-cache", rtl_cache(), LIMITS,
        "--json", in_tmp("one.json"), "--csv", in_tmp("one.csv"), SUM, DOT,
        NULL});
    assert_int_equal(one.status, 0);
    char p1[256], p2[256];
    snprintf(p1, sizeof p1, "%s", in_tmp("p1.json"));
    snprintf(p2, sizeof p2, "%s", in_tmp("p2.json"));
    shard(1, p1, "iverilog");
    shard(2, p2, "iverilog");
    run_cgramap(&m, (const char *const[]){"merge", p2, p1, "--json",
                                          in_tmp("m.json"), "--csv",
                                          in_tmp("m.csv"), NULL});
    assert_int_equal(m.status, 0);
    assert_non_null(strstr(m.out, "  rtl: yes\n"));
    assert_same_rows(one.out, m.out);
    assert_same_json(in_tmp("one.json"), in_tmp("m.json"));
    assert_same_csv(in_tmp("one.csv"), in_tmp("m.csv"));

    char want[1024];
    shard(2, in_tmp("plain.json"), NULL);
    snprintf(want, sizeof want, "cgramap merge: %s was run with --rtl-sim "
             "none (no --rtl) and %s with --rtl-sim iverilog; merge the "
             "parts of one sweep (the same options and PATHs)\n",
             in_tmp("plain.json"), p1);
    refused(p1, in_tmp("plain.json"), want);
    /* the simulator decides the word too (a part is not run: edited) */
    json_t *p = json_load_file(p2, 0, NULL);
    assert_non_null(p);
    json_object_set_new(json_object_get(p, "flags"), "--rtl-sim",
                        json_string("verilator"));
    assert_int_equal(json_dump_file(p, in_tmp("vl.json"), 0), 0);
    json_decref(p);
    snprintf(want, sizeof want, "cgramap merge: %s was run with --rtl-sim "
             "verilator and %s with --rtl-sim iverilog; merge the parts of "
             "one sweep (the same options and PATHs)\n", in_tmp("vl.json"),
             p1);
    refused(p1, in_tmp("vl.json"), want);
}

/* The sweep's shards get --rtl-sim from the flags and --rtl-cache as
 * given; --rtl alone is --rtl-sim verilator. */
static void test_sweep_script(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){
        "sweep", "--slurm", in_tmp("sw"), "--rtl-sim", "iverilog",
        "--rtl-cache", "/scratch/models", SUM, NULL});
    assert_int_equal(r.status, 0);
    char text[16384], path[300];
    snprintf(path, sizeof path, "%s/sw/sweep.sbatch", sweep_tmp);
    slurp(path, text, sizeof text);
    assert_non_null(strstr(text, " --rtl-cache '/scratch/models' \\\n"));
    assert_non_null(strstr(text, "\n    '--rtl-sim' 'iverilog' \\\n"));
    run_cgramap(&r, (const char *const[]){"sweep", "--slurm", in_tmp("sw2"),
                                          "--rtl", SUM, NULL});
    assert_int_equal(r.status, 0);
    snprintf(path, sizeof path, "%s/sw2/sweep.sbatch", sweep_tmp);
    slurp(path, text, sizeof text);
    assert_non_null(strstr(text, "\n    '--rtl-sim' 'verilator' \\\n"));
    assert_null(strstr(text, "--rtl-cache"));
}

/* saxpy runs in 3 tiles of one inner-loop run each, gemv in 3 tiles of
 * rows, the first of 31 inner-loop runs: the first run of the first tile
 * runs on the RTL from the tile memory the cycle simulator started it
 * from. */
static void test_tiled_first_tile(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){
        "--rtl-sim", "iverilog", "--rtl-cache", rtl_cache(), "--timeout",
        "30", "--max-ii", "4", "--csv", in_tmp("t.csv"),
        "benchmarks/tiled/saxpy", "benchmarks/tiled/gemv", NULL});
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
    mask_times(r.out);
    const char *want =
        "saxpy          saxpy             12      1      1 -             1 "
        "mapped                   optimal TIME    4/16   25%     2   3   3"
        "     89      3      30720   1.00       7770      5195 yes\n"
        "  rtl: yes (first tile of 3: inner-loop run 1 of 1 equal to the "
        "cycle simulator's)\n"
        "gemv           gemv              13      1      2 -             2 "
        "mapped                   optimal TIME    4/16   12%     2   3   4"
        "    105      3      17152   1.00      10697      2121 yes\n"
        "  rtl: yes (first tile of 3: inner-loop run 1 of 31 equal to the "
        "cycle simulator's)\n";
    assert_true(ends_with(r.out, want));
    char head[4096], line[4096];
    csv_lines(in_tmp("t.csv"), head, line, "saxpy", sizeof head);
    assert_true(ends_with(line, ",\"yes\",\"yes\",\"yes (first tile of 3: "
                          "inner-loop run 1 of 1 equal to the cycle "
                          "simulator's)\""));
}

/* -j 2 with a fresh cache: the array's model is compiled once, before
 * the workers start, not by both (an iverilog on PATH that logs each
 * call before running the real one counts the compiles). */
static void test_one_compile(void **state)
{
    (void)state;
    char bin[256], cmd[4096], real[512] = "";
    FILE *w = popen("command -v iverilog", "r");
    assert_non_null(w);
    assert_non_null(fgets(real, sizeof real, w));
    pclose(w);
    real[strcspn(real, "\n")] = '\0';
    snprintf(bin, sizeof bin, "%s", in_tmp("bin"));
    assert_int_equal(mkdir(bin, 0777), 0);
    snprintf(cmd, sizeof cmd, "printf '#!/bin/sh\\necho \"$*\" >> %s/calls"
             "\\nexec %s \"$@\"\\n' > %s/iverilog && chmod +x "
             "%s/iverilog", bin, real, bin, bin);
    assert_int_equal(system(cmd), 0);
    const char *old = getenv("PATH");
    char path[4096];
    snprintf(path, sizeof path, "%s:%s", bin, old ? old : "/usr/bin");
    char *saved = strdup(old ? old : "");
    assert_int_equal(setenv("PATH", path, 1), 0);
    run r;
    run_cgramap(&r, (const char *const[]){
        "-j", "2", "--rtl-sim", "iverilog", "--rtl-cache",
        in_tmp("fresh-cache"), LIMITS, SUM, DOT, NULL});
    assert_int_equal(setenv("PATH", saved, 1), 0);
    free(saved);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " yes\n  rtl: yes\ndot "));
    char calls[4096];
    snprintf(path, sizeof path, "%s/calls", bin);
    slurp(path, calls, sizeof calls);
    assert_int_equal(strchr(calls, '\n') - calls + 1, (long)strlen(calls));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_column),
        cmocka_unit_test(test_shards),
        cmocka_unit_test(test_sweep_script),
        cmocka_unit_test(test_tiled_first_tile),
        cmocka_unit_test(test_one_compile),
    };
    return cmocka_run_group_tests(tests, sweep_setup, sweep_teardown);
}
