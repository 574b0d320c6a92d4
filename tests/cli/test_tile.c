/* test_tile.c: `cgramap tile FILE.c --loop TAG`, run as users run it: the
 * plan, descriptor table and schedule of jacobi2d on a small tile memory
 * against a golden file, the same as one JSON object, --ii/--depth, help,
 * and the errors (unknown loop tag, memory too small, bad values) with
 * their exact messages and exit statuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>

#include "run_cgramap.h"
#include "tests/common/golden.h"

#define JACOBI "benchmarks/microbench/jacobi2d/jacobi2d.c"
/* What `cgramap tile` says of its plan of 4 tiles: clang's load PRE keeps
 * a column of A in live-ins, which no run of a tile can be given, so the
 * main job would map the loop whole (benchmarks/tiled/jacobi2d builds
 * with the flag). */
#define JACOBI_WARNING                                                       \
    JACOBI ":9: warning: loop 'jacobi2d' needs 4 tiles but has no tile "    \
    "DFG, so its own DFG is mapped and verified on a flat memory: loop "    \
    "'jacobi2d': live-in '.pre' is computed in a loop around it and is "    \
    "not affine in its counters, so no run of a tile can be given its "     \
    "value; when clang hoisted a load out of the loop, build with -mllvm "  \
    "-enable-load-pre=false (a Makefile's CFLAGS), else compute it inside " \
    "the tagged loop\n"

/* r->out against tests/cli/golden/name (tests/common/golden.h). */
static void golden(const run *r, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/cli/golden/%s", name);
    cg_golden_check(path, r->out);
}

static void jacobi_text(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *[]){"tile", JACOBI, "--loop", "jacobi2d",
                                     "--mem", "512", NULL});
    assert_string_equal(r.err, JACOBI_WARNING);
    assert_int_equal(r.status, 0);
    golden(&r, "tile_jacobi2d.txt");
}

/* --templates: a two-file architecture (CGRA-ME's module templates beside
 * the architecture) is read with its templates, so what stops it is the
 * tile memory it lacks, named at the architecture's line (it named no
 * file); without them its module 'pe' is unknown. */
static void two_file_arch(void **state)
{
    (void)state;
    const char *arch = "benchmarks/archs/two_file/mesh_arch.xml";
    run r;
    run_cgramap(&r, (const char *[]){"tile", JACOBI, "--loop", "jacobi2d",
                                     "--arch", arch, "--templates",
                                     "benchmarks/archs/two_file/"
                                     "module_templates.xml", NULL});
    assert_string_equal(r.err, "benchmarks/archs/two_file/mesh_arch.xml:6: "
                        "error: the architecture declares no tile memory; "
                        "tiling needs a <memory> (and a <dma>)\n");
    assert_int_equal(r.status, 1);
    run_cgramap(&r, (const char *[]){"tile", JACOBI, "--loop", "jacobi2d",
                                     "--arch", arch, NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "benchmarks/archs/two_file/mesh_arch.xml:11:"
                                  " error: unknown module 'pe'"));
}

/* File `path` against tests/cli/golden/name (CG_UPDATE_GOLDEN=1 rewrites
 * the golden). */
static void golden_file(const char *path, const char *name)
{
    static char got[65536];
    slurp(path, got, sizeof got);
    run r;
    snprintf(r.out, sizeof r.out, "%s", got);
    golden(&r, name);
}

/* --export-4d writes both sides of the 8 descriptors of the text golden
 * (1 + 8 * 9 words each; descriptor 0, `in A` 40 elements from byte
 * 65536, is bias 0x4000, (1, 40) on the external side), says so after the
 * schedule, and keeps --json's output pure JSON. */
static void export_4d(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_tile_XXXXXX", prefix[64], ext[80], tile[80];
    assert_non_null(mkdtemp(dir));
    snprintf(prefix, sizeof prefix, "%s/j", dir);
    snprintf(ext, sizeof ext, "%s.ext.hex", prefix);
    snprintf(tile, sizeof tile, "%s.tile.hex", prefix);
    run r;
    run_cgramap(&r, (const char *[]){"tile", JACOBI, "--loop", "jacobi2d",
                                     "--mem", "512", "--export-4d", prefix,
                                     NULL});
    assert_string_equal(r.err, JACOBI_WARNING);
    assert_int_equal(r.status, 0);
    char line[256];
    snprintf(line, sizeof line, "\n4D descriptor buffers: %s, %s (8 entries "
             "each)\n", ext, tile);
    size_t n = strlen(r.out), k = strlen(line);
    assert_true(n > k);
    assert_string_equal(r.out + n - k, line);
    golden_file(ext, "tile_jacobi2d.ext.hex");
    golden_file(tile, "tile_jacobi2d.tile.hex");
    remove(ext);
    remove(tile);
    run_cgramap(&r, (const char *[]){"tile", JACOBI, "--loop", "jacobi2d",
                                     "--mem", "512", "--json", "--export-4d",
                                     prefix, NULL});
    assert_int_equal(r.status, 0);
    json_error_t e;
    json_t *j = json_loads(r.out, 0, &e);
    assert_non_null(j);
    json_decref(j);
    golden_file(ext, "tile_jacobi2d.ext.hex");
    remove(ext);
    remove(tile);
    rmdir(dir);
}

/* An unwritable prefix: the error, status 1, no file; an empty one is a
 * usage error. */
static void export_4d_unwritable(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *[]){"tile", JACOBI, "--loop", "jacobi2d",
                                     "--export-4d", "", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "cgramap tile: --export-4d needs a file "
                        "prefix (PREFIX.ext.hex and PREFIX.tile.hex are "
                        "written)\n");
    run_cgramap(&r, (const char *[]){"tile", JACOBI, "--loop", "jacobi2d",
                                     "--mem", "512", "--export-4d",
                                     "/nonexistent/j", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "/nonexistent/j.ext.hex: error: cannot write "
                        "this file (No such file or directory)\n");
}

static int64_t get_int(json_t *o, const char *path1, const char *path2)
{
    json_t *x = json_object_get(o, path1);
    if (path2)
        x = json_object_get(x, path2);
    assert_true(json_is_integer(x));
    return json_integer_value(x);
}

/* The JSON holds the same plan, descriptors and schedule; --ii and --depth
 * reach the schedule (4 tiles of 2 x (8 * ii + depth) cycles: the tagged
 * loop carries a loaded value, so it is kept whole). */
static void jacobi_json(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *[]){"tile", JACOBI, "--loop", "jacobi2d",
                                     "--mem", "512", "--ii", "3", "--depth",
                                     "2", "--json", NULL});
    assert_string_equal(r.err, JACOBI_WARNING);
    assert_int_equal(r.status, 0);
    json_error_t e;
    json_t *j = json_loads(r.out, 0, &e);
    assert_non_null(j);
    assert_int_equal(json_object_size(j), 3);
    json_t *plan = json_object_get(j, "plan");
    json_t *descs = json_object_get(j, "descriptors");
    assert_int_equal(get_int(plan, "ntiles", NULL), 4);
    assert_int_equal(get_int(plan, "traffic", NULL), 896);
    assert_int_equal(json_array_size(descs), 8);
    int64_t bytes = 0;
    for (size_t i = 0; i < json_array_size(descs); i++)
        bytes += get_int(json_array_get(descs, i), "ext_bytes", NULL);
    assert_int_equal(bytes, 896);
    json_t *d0 = json_array_get(descs, 0);
    assert_string_equal(json_string_value(json_object_get(d0, "dir")), "in");
    assert_string_equal(json_string_value(json_object_get(d0, "array")), "A");
    assert_int_equal(get_int(j, "schedule", "ii"), 3);
    assert_int_equal(get_int(j, "schedule", "depth"), 2);
    assert_int_equal(get_int(j, "schedule", "compute_cycles"),
                     4 * 2 * (8 * 3 + 2));
    assert_int_equal(get_int(j, "schedule", "in_bytes"), 640);
    assert_int_equal(get_int(j, "schedule", "out_bytes"), 256);
    json_decref(j);
}

/* --sym gives a symbolic trip count its value, as DFG_FLAGS does: vadd's
 * n = 512 ints of a and b on a 2 KiB memory: 4 tiles of 128. */
static void sym_trip(void **state)
{
    (void)state;
    const char *vadd = "tests/cli/data/params/vadd.c";
    run r;
    run_cgramap(&r, (const char *[]){"tile", vadd, "--loop", "vadd", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "tests/cli/data/params/vadd.c:8: error: loop "
                        "'indvars.iv' has a symbolic trip count 'n'; tiling "
                        "needs a known count (give the symbol a value)\n");
    run_cgramap(&r, (const char *[]){"tile", vadd, "--loop", "vadd",
                                     "--sym", "n=512", "--mem", "2048",
                                     NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "\n  loop indvars.iv trip 512, tile 128, "
                                  "4 tile(s)\n"));
    run_cgramap(&r, (const char *[]){"tile", vadd, "--loop", "vadd",
                                     "--sym", "=3", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap tile: Invalid value for --sym: =3 "
                        "(NAME=INTEGER)\n");
    /* a count read from a global is named, and no --sym gives it (the
       message named '?' and asked for a value --sym n=... never gave) */
    const char *gtrip = "tests/cli/data/gtrip/gtrip.c";
    run_cgramap(&r, (const char *[]){"tile", gtrip, "--loop", "gtrip",
                                     "--sym", "n=64", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "tests/cli/data/gtrip/gtrip.c:10: error: "
                        "loop 'indvars.iv' reads its trip count from global "
                        "'n' in memory; tiling needs a known count: pass it "
                        "to the kernel as a parameter (--sym then gives its "
                        "value) or make it a constant\n");
    run_cgramap(&r, (const char *[]){"tile", gtrip, "--loop", "gtrip2",
                                     NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "gtrip.c:17: error: loop 'indvars.iv' "
                                  "reads its trip count from global 'n' in "
                                  "memory"));
}

static void help(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *[]){"tile", "--help", NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "  --ii N         initiation interval "
                                  "assumed for compute time (default 1)\n"));
    assert_non_null(strstr(r.out, "  --depth N      pipeline depth in cycles "
                                  "per run of the inner loop (default 8)\n"));
    assert_non_null(strstr(r.out, "  --no-makefile  ignore the Makefile next "
                                  "to FILE.c\n"));
    /* -h too, as every other command takes it (it was an unknown option) */
    static run h;
    run_cgramap(&h, (const char *[]){"tile", "-h", NULL});
    assert_int_equal(h.status, 0);
    assert_string_equal(h.out, r.out);
}

/* benchmarks/tiled/gemm's Makefile passes CFLAGS that keep C[i][j]'s load
 * and store in the tagged loop: with them the nest has A, B and C (40x40
 * ints, 19200 bytes: 3 tiles); --no-makefile extracts with the defaults,
 * where LICM moves C out of the loop and A and B fit whole. */
static void makefile_flags(void **state)
{
    (void)state;
    const char *gemm = "benchmarks/tiled/gemm/gemm.c";
    run r;
    run_cgramap(&r, (const char *[]){"tile", gemm, "--loop", "gemm", NULL});
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "; 3 tile(s)\n"));
    for (int i = 0; i < 3; i++) {
        char row[32];
        snprintf(row, sizeof row, "\n  %c             4 40x40 ", "ABC"[i]);
        assert_non_null(strstr(r.out, row));
    }
    run_cgramap(&r, (const char *[]){"tile", gemm, "--loop", "gemm",
                                     "--no-makefile", NULL});
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "1 tile(s), everything fits\n"));
    assert_non_null(strstr(r.out, "\n  B             4 40x40 "));
    assert_null(strstr(r.out, "\n  C "));
}

static void unknown_loop(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *[]){"tile", JACOBI, "--loop", "nope", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, JACOBI ": error: no loop tagged 'nope' (tags "
                        "in the file: jacobi2d)\n");
}

static void memory_too_small(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *[]){"tile", JACOBI, "--loop", "jacobi2d",
                                     "--mem", "40", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, JACOBI ":7: error: tile memory 'spm' (40 "
                        "bytes) cannot hold the buffers of even the smallest "
                        "tile (1x8 iterations): A 2 x 120 B, B 2 x 32 B = "
                        "304 bytes; give a larger memory or use fewer "
                        "arrays\n");
}

static void bad_values(void **state)
{
    (void)state;
    /* the ranges said, the II's as every command's (1..1000000 once) */
    const char *cases[][3] = {
        {"--ii", "0", "cgramap tile: Invalid value for --ii: 0 (a whole "
                      "number from 1 to 64)\n"},
        {"--ii", "65", "cgramap tile: Invalid value for --ii: 65 (a whole "
                       "number from 1 to 64)\n"},
        {"--depth", "-1", "cgramap tile: Invalid value for --depth: -1 (a "
                          "whole number from 0 to 1000000)\n"},
        {"--mem", "12k", "cgramap tile: Invalid value for --mem: 12k (a "
                         "whole number from 1 to 9007199254740991)\n"},
    };
    for (int i = 0; i < 4; i++) {
        run r;
        run_cgramap(&r, (const char *[]){"tile", JACOBI, "--loop",
                                         "jacobi2d", cases[i][0],
                                         cases[i][1], NULL});
        assert_int_equal(r.status, 2);
        assert_string_equal(r.out, "");
        assert_string_equal(r.err, cases[i][2]);
    }
    run r;
    run_cgramap(&r, (const char *[]){"tile", JACOBI, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap tile: usage: cgramap tile FILE.c "
                        "--loop TAG [--arch A.xml [--templates T.xml]] "
                        "[--mem BYTES] [--ii N] "
                        "[--depth N] [--json] [--no-makefile] "
                        "[--export-4d PREFIX] [--sym NAME=VALUE] (see "
                        "cgramap tile --help)\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_file_arch),
        cmocka_unit_test(jacobi_text),
        cmocka_unit_test(jacobi_json),
        cmocka_unit_test(help),
        cmocka_unit_test(sym_trip),
        cmocka_unit_test(export_4d),
        cmocka_unit_test(export_4d_unwritable),
        cmocka_unit_test(makefile_flags),
        cmocka_unit_test(unknown_loop),
        cmocka_unit_test(memory_too_small),
        cmocka_unit_test(bad_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
