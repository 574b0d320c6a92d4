/* test_bench_tiled.c: the main job on loops whose nest needs more than one
 * tile of the default 16 KiB tile memory (benchmarks/tiled/saxpy, gemv).
 * What the array runs there is the tile DFG: the rows show its mapping,
 * the schedule uses that mapping's II and pipeline depth, and `verified`
 * is the whole tiled run (DMA descriptors and the simulated tile DFG per
 * inner-loop run) compared byte for byte with the native run.  A loop that
 * fits whole (microbench/sum) still maps its own DFG.  A kernel whose
 * tiled run is really wrong (tests/cli/data/tiled_bad/rowscale: a live-in
 * loaded before the tagged loop changes per row, the run gives each row
 * the first one) is caught by the comparison: `no`, the first differing
 * address, exit 1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>

#include "run_cgramap.h"

static json_t *record(json_t *all, const char *bench)
{
    size_t i;
    json_t *rec;
    json_array_foreach(all, i, rec)
        if (!strcmp(json_string_value(json_object_get(rec, "benchmark")),
                    bench))
            return rec;
    fail_msg("no record %s", bench);
    return NULL;
}

static json_int_t get_int(const json_t *rec, const char *key)
{
    json_t *v = json_object_get(rec, key);
    assert_true(json_is_integer(v));
    return json_integer_value(v);
}

static const char *get_str(const json_t *rec, const char *key)
{
    const char *s = json_string_value(json_object_get(rec, key));
    assert_non_null(s);
    return s;
}

/* The start time of node `name` in a mapping file's text. */
static int start_of(const char *text, const char *name, size_t len)
{
    char key[96];
    snprintf(key, sizeof key, " '%.*s' ", (int)len, name);
    const char *p = strstr(text, key);
    assert_non_null(p);
    const char *s = strstr(p, " start ");
    assert_non_null(s);
    return atoi(s + 7);
}

/* The pipeline depth of a mapping file (cg_mapping_write) as the main job
 * counts it: last minus first start of the nodes routes connect, plus one
 * (an input that only gives a recurrence its initial value has no route);
 * its first line into first. */
static int mapping_depth(const char *path, char *first, size_t n)
{
    char text[65536];
    slurp(path, text, sizeof text);
    snprintf(first, n, "%.*s", (int)strcspn(text, "\n"), text);
    int lo = 1 << 30, hi = -1;
    for (char *p = strstr(text, "\nroute "); p; p = strstr(p + 1, "\nroute ")) {
        for (int k = 0; k < 2; k++) {
            char *a = strchr(p, '\'');   /* 'src'->'dst' */
            for (int j = 0; j < 2 * k; j++)
                a = strchr(a + 1, '\'');
            char *b = strchr(a + 1, '\'');
            int t = start_of(text, a + 1, (size_t)(b - a - 1));
            lo = t < lo ? t : lo;
            hi = t > hi ? t : hi;
        }
    }
    assert_true(hi >= lo);
    return hi - lo + 1;
}

/* The schedule's compute cycles (cycles - stalls) are the tile DFG
 * mapping's: every inner-loop run costs iters * II + depth. */
static void assert_compute(const json_t *rec, const char *maps,
                           const char *name, json_int_t iters,
                           const char *header)
{
    char path[256], first[128];
    snprintf(path, sizeof path, "%s/%s.%s.txt", maps, name, name);
    int depth = mapping_depth(path, first, sizeof first);
    assert_string_equal(first, header);
    json_int_t ii = get_int(rec, "ii"), runs = get_int(rec, "tile_runs");
    assert_int_equal(get_int(rec, "cycles") - get_int(rec, "stalls"),
                     iters * ii + runs * depth);
    /* the tile DFG is saved beside its mapping: `check` reads both */
    char dfg[256];
    snprintf(dfg, sizeof dfg, "%s/%s.%s.dfg.dot", maps, name, name);
    run r;
    run_cgramap(&r, (const char *const[]){"check", dfg, path, NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "ok\n");
}

/* saxpy (2560 iterations, 3 tiles: 3 runs) and gemv (64x64, 3 tiles of
 * rows: 64 runs) map their tile DFGs (12 and 13 nodes instead of the
 * loop DFGs' 18 and 19) and their tiled runs match the native run; sum
 * fits whole and maps its loop DFG as before. */
static void test_tiled_rows(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_tiled_XXXXXX", js[64], maps[64], cmd[128];
    assert_non_null(mkdtemp(dir));
    snprintf(js, sizeof js, "%s/r.json", dir);
    snprintf(maps, sizeof maps, "%s/maps", dir);
    run r;
    run_cgramap(&r, (const char *const[]){
        "--timeout", "30", "--max-ii", "4", "--json", js, "--mapping-dir",
        maps, "benchmarks/tiled/saxpy", "benchmarks/tiled/gemv",
        "benchmarks/microbench/sum", NULL});
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
    mask_times(r.out);
    assert_string_equal(r.out,
        "benchmark      loop           nodes ResMII RecMII bottleneck   II status   "
        "                proof                      time     FUs  util const  IO mem "
        "routes  tiles  DMA bytes  ratio     cycles    stalls verified\n"
        "saxpy          saxpy             12      1      1 -             1 mapped "
        "                  optimal TIME    4/16   25%     2   3   3     89      "
        "3      30720   1.00       7770      5195 yes\n"
        "gemv           gemv              13      1      2 -             2 mapped "
        "                  optimal TIME    4/16   12%     2   3   4    105      "
        "3      17152   1.00      10697      2121 yes\n"
        "sum            sum               14      1      1 -             1 mapped "
        "                  optimal TIME    5/16   31%     6   2   1     69      "
        "1        256   1.00        143        74 yes\n");
    json_error_t e;
    json_t *all = json_load_file(js, 0, &e);
    assert_non_null(all);
    json_t *saxpy = record(all, "saxpy"), *gemv = record(all, "gemv");
    json_t *sum = record(all, "sum");
    assert_string_equal(get_str(saxpy, "mapped_dfg"), "tile");
    assert_int_equal(get_int(saxpy, "nodes"), 12);
    assert_int_equal(get_int(saxpy, "loop_nodes"), 18);
    assert_int_equal(get_int(saxpy, "tiles"), 3);
    assert_int_equal(get_int(saxpy, "tile_runs"), 3);
    assert_string_equal(get_str(saxpy, "verified"), "yes");
    assert_string_equal(get_str(gemv, "mapped_dfg"), "tile");
    assert_int_equal(get_int(gemv, "nodes"), 13);
    assert_int_equal(get_int(gemv, "loop_nodes"), 19);
    assert_int_equal(get_int(gemv, "tile_runs"), 64);
    assert_string_equal(get_str(sum, "mapped_dfg"), "loop");
    assert_int_equal(get_int(sum, "nodes"), 14);
    assert_int_equal(get_int(sum, "loop_nodes"), 14);
    assert_null(json_object_get(sum, "tile_runs"));
    /* --mapping-dir holds the tile DFG's mapping, and the schedule is
       made with its II and depth */
    assert_compute(saxpy, maps, "saxpy", 2560,
                   "mapping 'saxpy.tile' II=1 nodes=12 edges=12");
    assert_compute(gemv, maps, "gemv", 64 * 64,
                   "mapping 'gemv.tile' II=2 nodes=13 edges=13");
    json_decref(all);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* rowscale scales row i by s[i], loaded before the tagged loop: a
 * live-in that is not affine in i.  A tiled run would give every run of a
 * tile one value (it once scaled every row by s[0] and was `verified no`),
 * so the plan of 5 tiles gets no tile DFG: the loop's own DFG is mapped
 * and verified on a flat memory, and a warning says why and what to do. */
static void test_tiled_varying_livein(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          "tests/cli/data/tiled_bad", NULL});
    assert_int_equal(r.status, 0);
    mask_times(r.out);
    assert_non_null(strstr(r.out,
        "rowscale       rowscale          16      1      1 -             1 "
        "mapped                   optimal TIME    6/16   38%     4   4   2"));
    assert_non_null(strstr(r.out, "      5      36864   1.00 "));
    assert_non_null(strstr(r.out, " yes\n"));
    assert_string_equal(r.err,
        "tests/cli/data/tiled_bad/rowscale/rowscale.c:17: warning: loop "
        "'rowscale' needs 5 tiles but has no tile DFG, so its own DFG is "
        "mapped and verified on a flat memory: loop 'rowscale': live-in "
        "'livein1' is computed in a loop around it and is not affine in its "
        "counters, so no run of a tile can be given its value; when clang "
        "hoisted a load out of the loop, build with -mllvm "
        "-enable-load-pre=false (a Makefile's CFLAGS), else compute it "
        "inside the tagged loop\n");
    /* `cgramap tile` plans it, and says the same */
    run_cgramap(&r, (const char *const[]){"tile", "tests/cli/data/tiled_bad/"
                                          "rowscale/rowscale.c", "--loop",
                                          "rowscale", NULL});
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "rowscale.c:17: warning: loop 'rowscale' "
                                  "needs 5 tiles but has no tile DFG"));
    /* the same when the value starts an induction variable (it was
       tiled, and verified no) */
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          "tests/cli/data/tiled_ivstart",
                                          NULL});
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " yes\n"));
    assert_non_null(strstr(r.err, "ivstart.c:13: warning: loop 'ivstart' "
                                  "needs 5 tiles but has no tile DFG, so its "
                                  "own DFG is mapped and verified on a flat "
                                  "memory: loop 'ivstart': live-in "
                                  "'livein2' is computed in a loop around "
                                  "it"));
}

/* The tiled run's reference is the native run too: axpyp (4096 ints of a
 * and b: 4 tiles) maps its tile DFG, but its kernel takes a pointer the
 * native run cannot pass, so the row is not verified, never "no".  axpy
 * without c's value runs with the default 16 (its note says so), with it
 * as given; both verify. */
static void test_tiled_not_verified(void **state)
{
    (void)state;
    const char *why = "kernel 'axpyp' of loop 'axpyp': parameter 'unused' "
        "is not an integer, and the native run passes integers only (--sym "
        "values); make it an integer, or a global the kernel reads";
    const char *cols = "      4      49152   1.00      12408      8292 ";
    char want[1024];
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          "tests/cli/data/tiled_ptrparam",
                                          NULL});
    assert_int_equal(r.status, 1);
    snprintf(want, sizeof want, "%snot verified: %s\n", cols, why);
    assert_non_null(strstr(r.out, want));
    snprintf(want, sizeof want, "tests/cli/data/tiled_ptrparam/axpyp.c: "
             "error: %s\n", why);
    assert_string_equal(r.err, want);
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          "--sym", "n=4096",
                                          "tests/cli/data/tiled_params",
                                          NULL});
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof want, "%syes\n", cols);
    assert_non_null(strstr(r.out, want));
    assert_string_equal(r.err, "tests/cli/data/tiled_params/axpy.c: note: "
                        "loop 'axpy': the native run assumes what nothing in "
                        "the file sets: kernel 'axpy' parameter c = 16 (the "
                        "default; --sym c=VALUE sets it)\n");
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          "--sym", "n=4096", "--sym", "c=-2",
                                          "tests/cli/data/tiled_params",
                                          NULL});
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof want, "%syes\n", cols);
    assert_non_null(strstr(r.out, want));
    assert_string_equal(r.err, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiled_rows),
        cmocka_unit_test(test_tiled_varying_livein),
        cmocka_unit_test(test_tiled_not_verified),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
