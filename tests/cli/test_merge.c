/* test_merge.c: `cgramap --shard I/N` and `cgramap merge`.  Two arrays
 * (the default 4x4 and 6x6 files) and two loops (sum, dot: each maps at
 * its MII within a few hundred steps, so every row is the same on any
 * machine) split in two shards: the merge prints and writes what one run
 * of the whole comparison does (rows, table, JSON, CSV, report), and one
 * array's sweep what the plain main job does.  Then what the merge
 * refuses, by its exact message, writing nothing: a missing shard, a
 * shard given twice, parts of other flags, of another version, of
 * another split, a file that is no part; and --shard's own usage
 * errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "run_cgramap.h"
#include "sweep_check.h"

#define A4 "benchmarks/archs/default_4x4.xml"
#define A6 "benchmarks/archs/default_6x6.xml"
#define SUM "benchmarks/microbench/sum"
#define DOT "benchmarks/microbench/dot"
#define LIMITS "--timeout", "10", "--max-ii", "4", "--steps", "2000"

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Shard i of 2 of the comparison into part NAME. */
static void shard(int i, const char *name, const char *steps)
{
    run r;
    char spec[8];
    snprintf(spec, sizeof spec, "%d/2", i);
    run_cgramap(&r, (const char *const[]){
        "--shard", spec, "--json", in_tmp(name), "--arch", A4, "--arch", A6,
        "--timeout", "10", "--max-ii", "4", "--steps", steps, SUM, DOT, NULL});
    assert_int_equal(r.status, 0);
    assert_true(exists(in_tmp(name)));
}

static void test_merge_equals_one_run(void **state)
{
    (void)state;
    static run one, m;
    run_cgramap(&one, (const char *const[]){
        "--arch", A4, "--arch", A6, LIMITS, "--json", in_tmp("one.json"),
        "--csv", in_tmp("one.csv"), "--report", in_tmp("rep1"), SUM, DOT,
        NULL});
    assert_int_equal(one.status, 0);
    shard(1, "p1.json", "2000");
    shard(2, "p2.json", "2000");
    /* the parts in any order */
    run_cgramap(&m, (const char *const[]){
        "merge", in_tmp("p2.json"), in_tmp("p1.json"), "--json",
        in_tmp("m.json"), "--csv", in_tmp("m.csv"), "--report",
        in_tmp("rep2"), NULL});
    assert_int_equal(m.status, 0);
    assert_non_null(strstr(m.out, "comparison of 2 arrays on 2 loops"));
    assert_same_rows(one.out, m.out);
    assert_same_json(in_tmp("one.json"), in_tmp("m.json"));
    assert_same_csv(in_tmp("one.csv"), in_tmp("m.csv"));
    static const char *const rep[] = {"index.html", "ii.svg", "cycles.svg",
                                      "cost.svg"};
    for (int k = 0; k < 4; k++) {
        char a[256], b[256];
        snprintf(a, sizeof a, "%s/rep1/%s", sweep_tmp, rep[k]);
        snprintf(b, sizeof b, "%s/rep2/%s", sweep_tmp, rep[k]);
        assert_same_file(a, b);
    }
}

/* One array, no --report: the merge prints the plain main job's rows. */
static void test_merge_one_array(void **state)
{
    (void)state;
    static run one, m, s;
    run_cgramap(&one, (const char *const[]){LIMITS, "--json",
                                           in_tmp("one1.json"), SUM, DOT,
                                           NULL});
    assert_int_equal(one.status, 0);
    for (int i = 1; i <= 2; i++) {
        run_cgramap(&s, (const char *const[]){
            "--shard", i == 1 ? "1/2" : "2/2", "--json",
            in_tmp(i == 1 ? "q1.json" : "q2.json"), LIMITS, SUM, DOT, NULL});
        assert_int_equal(s.status, 0);
    }
    run_cgramap(&m, (const char *const[]){"merge", in_tmp("q1.json"),
                                         in_tmp("q2.json"), "--json",
                                         in_tmp("m1.json"), NULL});
    assert_int_equal(m.status, 0);
    assert_null(strstr(m.out, "array "));
    assert_same_rows(one.out, m.out);
    assert_same_json(in_tmp("one1.json"), in_tmp("m1.json"));
}

/* merge ARGS... must fail with exactly err and write no --json. */
static void refused(const char *const *parts, const char *err)
{
    const char *args[16] = {"merge", "--json", in_tmp("refused.json")};
    int n = 3;
    for (int k = 0; parts[k]; k++)
        args[n++] = parts[k];
    args[n] = NULL;
    run r;
    run_cgramap(&r, args);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, err);
    assert_false(exists(in_tmp("refused.json")));
}

/* A copy of part from with key set to the JSON value text. */
static void edited(const char *from, const char *to, const char *key,
                   const char *text)
{
    json_t *p = json_load_file(from, 0, NULL);
    assert_non_null(p);
    json_object_set_new(p, key, json_loads(text, JSON_DECODE_ANY, NULL));
    assert_int_equal(json_dump_file(p, to, 0), 0);
    json_decref(p);
}

static void test_refusals(void **state)
{
    (void)state;
    char p1[256], p2[256], want[1024];
    snprintf(p1, sizeof p1, "%s", in_tmp("p1.json"));
    snprintf(p2, sizeof p2, "%s", in_tmp("p2.json"));

    refused((const char *const[]){p1, NULL},
            "cgramap merge: shard 2/2 is missing; run it and give its part "
            "too\n");
    snprintf(want, sizeof want, "cgramap merge: shard 1/2 is given twice "
             "(%s and %s); give each part once\n", p1, p1);
    refused((const char *const[]){p1, p1, p2, NULL}, want);

    shard(2, "steps.json", "3000");
    snprintf(want, sizeof want, "cgramap merge: %s was run with --steps 3000 "
             "and %s with --steps 2000; merge the parts of one sweep (the "
             "same options and PATHs)\n", in_tmp("steps.json"), p1);
    refused((const char *const[]){p1, in_tmp("steps.json"), NULL}, want);
    /* an option one part left out is said so ("--steps none" named a
       value cgramap refuses) */
    json_t *np = json_load_file(in_tmp("steps.json"), 0, NULL);
    assert_non_null(np);
    assert_int_equal(json_object_del(json_object_get(np, "flags"),
                                     "--steps"), 0);
    assert_int_equal(json_dump_file(np, in_tmp("nosteps.json"), 0), 0);
    json_decref(np);
    snprintf(want, sizeof want, "cgramap merge: %s was run with --steps "
             "(left out: its default) and %s with --steps 2000; merge the "
             "parts of one sweep (the same options and PATHs)\n",
             in_tmp("nosteps.json"), p1);
    refused((const char *const[]){p1, in_tmp("nosteps.json"), NULL}, want);

    edited(p2, in_tmp("old.json"), "version", "\"0.0.9\"");
    snprintf(want, sizeof want, "cgramap merge: %s was written by cgramap "
             "0.0.9 and %s by cgramap %s; run every shard of a sweep with "
             "one cgramap\n", in_tmp("old.json"), p1, CG_VERSION);
    refused((const char *const[]){p1, in_tmp("old.json"), NULL}, want);

    edited(p2, in_tmp("of3.json"), "shard", "[2, 3]");
    snprintf(want, sizeof want, "cgramap merge: %s is shard 2/3 and %s "
             "shard 1/2; merge the parts of one split\n", in_tmp("of3.json"),
             p1);
    refused((const char *const[]){p1, in_tmp("of3.json"), NULL}, want);

    edited(p2, in_tmp("noise.json"), "cgramap_part", "null");
    snprintf(want, sizeof want, "%s: error: not a part of a sweep (no "
             "\"cgramap_part\": 1, \"shard\" and \"plan\"); give the --json "
             "files that cgramap --shard I/N wrote\n", in_tmp("noise.json"));
    refused((const char *const[]){p1, in_tmp("noise.json"), NULL}, want);
    /* a missing part and a folder are said so (a missing part was 'not a
       part of a sweep' at line -1) */
    refused((const char *const[]){p1, "/nonexistent/p.json", NULL},
            "/nonexistent/p.json: error: cannot open the part: No such file "
            "or directory; check the path\n");
    refused((const char *const[]){p1, "/tmp", NULL},
            "/tmp: error: is a directory, not a file; give the --json files "
            "the shards wrote\n");
}

/* A row a wall-clock cap ended is named (a work limit decides every
 * other row, so only such a row may differ from one run's). */
static void test_capped_named(void **state)
{
    (void)state;
    json_t *p = json_load_file(in_tmp("p1.json"), 0, NULL);
    assert_non_null(p);
    json_t *rec = json_array_get(json_object_get(json_array_get(
        json_object_get(p, "units"), 0), "records"), 0);
    json_object_set_new(rec, "capped", json_true());
    /* its array: the plan's unit's */
    json_int_t unit = json_integer_value(json_object_get(json_array_get(
        json_object_get(p, "units"), 0), "unit"));
    json_int_t arr = json_integer_value(json_object_get(json_array_get(
        json_object_get(json_object_get(p, "plan"), "units"), (size_t)unit),
        "array"));
    const char *label = json_string_value(json_object_get(json_array_get(
        json_object_get(p, "arrays"), (size_t)arr), "label"));
    char want[512];
    snprintf(want, sizeof want, "cgramap merge: note: a wall-clock cap "
             "(--timeout, --time-limit), not a work limit, ended an II of "
             "%s/%s on %s; that row may differ from another run's "
             "(docs/sweeps.md, \"What breaks it\")\n",
             json_string_value(json_object_get(rec, "benchmark")),
             json_string_value(json_object_get(rec, "loop")),
             label);
    assert_int_equal(json_dump_file(p, in_tmp("cap1.json"), 0), 0);
    json_decref(p);
    run r;
    run_cgramap(&r, (const char *const[]){"merge", in_tmp("cap1.json"),
                                         in_tmp("p2.json"), NULL});
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, want));
}

static void test_shard_usage(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--shard", "1/2", SUM, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: --shard 1/2 writes its part with "
                        "--json PART.json: give it\n");
    run_cgramap(&r, (const char *const[]){"--shard", "1/2", "--json", "p",
                                         "--csv", "c", SUM, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: --csv is written by cgramap merge "
                        "from every shard's part, not by one shard: give it "
                        "to merge\n");
    run_cgramap(&r, (const char *const[]){"--shard", "3/2", "--json", "p",
                                         SUM, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: Invalid value for --shard: 3/2 "
                        "(I/N: shard I of N, 1 <= I <= N <= 4096)\n");
    run_cgramap(&r, (const char *const[]){"merge", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap merge: give the parts, PART.json... "
                        "(see cgramap merge --help)\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_equals_one_run),
        cmocka_unit_test(test_merge_one_array),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_capped_named),
        cmocka_unit_test(test_shard_usage),
    };
    return cmocka_run_group_tests(tests, sweep_setup, sweep_teardown);
}
