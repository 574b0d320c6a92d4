/* test_bench.c: the main job, `cgramap [OPTION]... PATH...`, run as users
 * run it: rows (times masked) against a golden file, the JSON and CSV
 * reports read back, the mapping files, one bad loop among good ones, the
 * exit statuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <sys/stat.h>

#include "run_cgramap.h"
#include "tests/common/golden.h"
#include "svg_check.h"

#define LOOSE "tests/cli/data/bench/loose"
/* The header row of the table. */
#define HEADER                                                               \
    "benchmark      loop           nodes ResMII RecMII bottleneck   II "     \
    "status                   proof                      time     FUs  util "    \
    "const  IO mem routes  tiles  DMA bytes  ratio     cycles    stalls "    \
    "verified\n"

static const char *loose_errors =
    LOOSE "/bad.dot:3: error: node 'b': unknown opcode 'frobnicate' "
    "(opcodes: nop input output const trunc sext zext phi select add sub mul "
    "sdiv udiv srem urem and or xor shl ashr lshr icmp gep load store)\n"
    LOOSE "/two.c:18: error: loop 'calls': calls 'ext'; calls are not "
    "supported in loop bodies (make the callee static inline or move the "
    "call out of the loop)\n";

/* Two good loops (a CGRA-ME .dot with a self-loop, a C loop checked against
 * its native run) and two bad ones (an unknown opcode, a call): the bad
 * ones get error rows and their messages, the good ones still map and
 * verify, the exit status is 1. */
static void test_rows(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          LOOSE, NULL});
    assert_int_equal(r.status, 1);
    mask_times(r.out);
    cg_golden_check("tests/cli/golden/bench_loose.txt", r.out);
    assert_string_equal(r.err, loose_errors);
}

/* -j 2 runs files in parallel worker processes; rows keep their order. */
static void test_jobs_keep_order(void **state)
{
    (void)state;
    run a, b;
    run_cgramap(&a, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          LOOSE, NULL});
    run_cgramap(&b, (const char *const[]){"-j", "2", "--timeout", "30",
                                          "--max-ii", "4", LOOSE, NULL});
    assert_int_equal(b.status, 1);
    mask_times(a.out);
    mask_times(b.out);
    assert_string_equal(a.out, b.out);
    assert_string_equal(b.err, loose_errors);
}

static json_t *record(json_t *all, const char *bench, const char *loop)
{
    size_t i;
    json_t *rec;
    json_array_foreach(all, i, rec) {
        if (!strcmp(json_string_value(json_object_get(rec, "benchmark")),
                    bench) &&
            !strcmp(json_string_value(json_object_get(rec, "loop")), loop))
            return rec;
    }
    fail_msg("no record %s/%s", bench, loop);
    return NULL;
}

static void test_json_and_csv(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_bench_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char js[64], csv[64], cmd[128];
    snprintf(js, sizeof js, "%s/r.json", dir);
    snprintf(csv, sizeof csv, "%s/r.csv", dir);
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          "--json", js, "--csv", csv, LOOSE,
                                          NULL});
    assert_int_equal(r.status, 1);
    json_error_t e;
    json_t *all = json_load_file(js, 0, &e);
    assert_non_null(all);
    assert_int_equal(json_array_size(all), 4);
    json_t *scale = record(all, "two", "scale");
    assert_string_equal(json_string_value(json_object_get(scale, "status")),
                        "mapped");
    assert_string_equal(json_string_value(json_object_get(scale, "file")),
                        LOOSE "/two.c");
    assert_true(json_is_true(json_object_get(scale, "checked")));
    assert_string_equal(json_string_value(json_object_get(scale, "verified")),
                        "yes");
    assert_string_equal(json_string_value(json_object_get(scale, "solver")),
                        "glpk");
    int ii = (int)json_integer_value(json_object_get(scale, "ii"));
    int mii = (int)json_integer_value(json_object_get(scale, "mii"));
    assert_true(ii >= mii && mii >= 1);
    json_t *tries = json_object_get(scale, "tries");
    assert_int_equal(json_array_size(tries), ii - mii + 1);
    json_t *last = json_array_get(tries, json_array_size(tries) - 1);
    assert_string_equal(json_string_value(json_object_get(last, "outcome")),
                        "mapped");
    /* 0 when the heuristic mapped it (no ILP solved at that II) */
    assert_true(json_integer_value(json_object_get(last, "rows")) >= 0);
    /* a[16] in and b[16] out fit whole: one tile, 128 bytes, the bound
     * itself; nothing overlaps the two transfers of 10 + 64/4 cycles. */
    assert_int_equal(json_integer_value(json_object_get(scale, "tiles")), 1);
    assert_int_equal(json_integer_value(json_object_get(scale, "dma_bytes")),
                     128);
    assert_true(json_real_value(json_object_get(scale, "dma_ratio")) == 1.0);
    assert_string_equal(
        json_string_value(json_object_get(scale, "bound_kind")), "compulsory");
    json_int_t stalls = json_integer_value(json_object_get(scale, "stalls"));
    assert_int_equal(stalls, 52);
    assert_true(json_integer_value(json_object_get(scale, "cycles")) >=
                stalls + 16 * ii);
    assert_null(json_object_get(record(all, "acc", "acc"), "tiles"));
    assert_string_equal(json_string_value(json_object_get(scale, "proof")),
                        "optimal");
    assert_int_equal(json_integer_value(json_object_get(scale, "funcunits")),
                     7);
    assert_int_equal(
        json_integer_value(json_object_get(scale, "funcunits_total")), 16);
    assert_int_equal(json_integer_value(json_object_get(scale, "fu_ops")), 7);
    assert_true(json_real_value(json_object_get(scale, "fu_util")) == 0.4375);
    assert_int_equal(json_integer_value(json_object_get(scale, "const_ops")),
                     8);
    assert_int_equal(json_integer_value(json_object_get(scale, "io_ops")), 1);
    assert_int_equal(json_integer_value(json_object_get(scale, "mem_ops")),
                     2);
    json_t *calls = record(all, "two", "calls");
    assert_string_equal(json_string_value(json_object_get(calls, "status")),
                        "error");
    assert_string_equal(
        json_string_value(json_array_get(json_object_get(calls, "messages"), 0)),
        LOOSE "/two.c:18: error: loop 'calls': calls 'ext'; calls are not "
        "supported in loop bodies (make the callee static inline or move the "
        "call out of the loop)");
    json_decref(all);

    char text[4096];
    slurp(csv, text, sizeof text);
    char *nl = strchr(text, '\n');
    assert_non_null(nl);
    assert_int_equal(nl[-1], '\r'); /* RFC 4180 line ends */
    nl[-1] = '\0';
    assert_string_equal(text, "\"benchmark\",\"file\",\"loop\",\"nodes\","
                        "\"loop_nodes\",\"mapped_dfg\",\"res_mii\",\"rec_mii\","
                        "\"mii\",\"bottleneck\",\"ii\",\"status\",\"proof\","
                        "\"proof_hint\",\"seconds\",\"funcunits\","
                        "\"funcunits_total\",\"fu_ops\",\"fu_util\","
                        "\"const_ops\",\"io_ops\",\"mem_ops\",\"routes\","
                        "\"tiles\",\"dma_bytes\",\"dma_bound\",\"dma_ratio\","
                        "\"cycles\",\"stalls\",\"checked\",\"verified\"");
    /* an error row: every mapping field empty */
    assert_non_null(strstr(nl + 1, "\"bad\",\"" LOOSE "/bad.dot\",\"-\",\"\","
                           "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"error\",\"\","
                           "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\","
                           "\"\",\"\",\"\",\"\",\"\",\"\",\"no\",\"-\"\r\n"));
    /* scale: at its MII of 1, 7 FuncUnits of 16 busy (4 add, 2 mul, an
     * icmp), the rest on 8 ConstUnits, an IO and 2 MEMUnits */
    assert_non_null(strstr(nl + 1, ",\"1\",\"1\",\"1\",\"\",\"1\",\"mapped\","
                           "\"optimal\",\"II 1 is the MII (ResMII 1, RecMII 1), a "
                           "lower bound\","));
    assert_non_null(strstr(nl + 1, ",\"7\",\"16\",\"7\",\"0.438\",\"8\",\"1\","
                           "\"2\",\"111\",\"1\",\"128\","));
    int lines = 0;
    for (char *p = nl + 1; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 4);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A loop time limit that is up before the search: the row says timeout,
 * every II open and capped by the wall clock, never infeasible or
 * optimal; the note names the cap; the JSON's tries agree. */
static void test_time_limit_open(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_tlimit_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char js[64], cmd[96];
    snprintf(js, sizeof js, "%s/r.json", dir);
    run r;
    run_cgramap(&r, (const char *const[]){"--max-ii", "4", "--time-limit",
                                          "1e-9", "--json", js,
                                          "benchmarks/microbench/relu/relu.c",
                                          NULL});
    assert_int_equal(r.status, 1);
    mask_times(r.out);
    assert_string_equal(r.out, HEADER
        "relu           relu              22      1      1 -             4 "
        "timeout                  open: II 1..4 TIME       -     -     - "
        "  -   -      -      -          -      -          -         - -\n");
    assert_string_equal(r.err, "benchmarks/microbench/relu/relu.c: note: "
        "loop 'relu': II 1..4 hit the loop's wall-clock cap (--time-limit "
        "1e-09 s): a larger --time-limit or a faster machine may settle "
        "them; no II mapped: larger work limits, --solver cbc or a larger "
        "--max-ii may map it\n");
    json_error_t e;
    json_t *all = json_load_file(js, 0, &e), *rec = record(all, "relu",
                                                           "relu");
    assert_string_equal(json_string_value(json_object_get(rec, "status")),
                        "timeout");
    assert_true(json_is_true(json_object_get(rec, "capped")));
    json_t *tries = json_object_get(rec, "tries");
    assert_int_equal(json_array_size(tries), 4);
    for (size_t i = 0; i < 4; i++) {
        json_t *t = json_array_get(tries, i);
        assert_int_equal(json_integer_value(json_object_get(t, "ii")),
                         (json_int_t)i + 1);
        assert_string_equal(json_string_value(json_object_get(t,
                                                              "outcome")),
                            "timeout");
        assert_true(json_is_true(json_object_get(t, "capped")));
        assert_string_equal(json_string_value(json_object_get(t, "by")),
                            "-");
    }
    json_decref(all);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static bool exists(const char *dir, const char *name)
{
    char p[256];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0 && st.st_size > 0;
}

/* Count of needle in the file at dir/name. */
static int count_in(const char *dir, const char *name, const char *needle)
{
    static char text[1 << 20];
    char p[256];
    int n = 0;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    slurp(p, text, sizeof text);
    for (const char *s = text; (s = strstr(s, needle)); s++)
        n++;
    return n;
}

/* The primitive-level picture's legend: one, and what each mark means
 * (filled units, "+N", faint boxes, block outlines, arrows and their
 * delays, panels per context) in its text as neato draws it. */
static void check_legend(const char *maps)
{
    static const char *const says[] = {
        ">legend</text>", ">mul x</text>",
        ">a unit running op mul of DFG node x</text>", ">x +2</text>",
        ">node x and, in this context, 2 more values (+N: N more)</text>",
        ">unused in this context</text>",
        ">grey outline: the primitives of one block (PE)</text>",
        ">a route step to another primitive, arriving in this "
        "context;</text>",
        ">one colour per value, the number its delay in cycles</text>",
        ">one panel per context (the cycle mod II, 1), 4 per row; "
        "tooltips</text>",
    };
    assert_int_equal(count_in(maps, "acc.acc.svg", "<title>legend</title>"),
                     1);
    for (size_t i = 0; i < sizeof says / sizeof says[0]; i++)
        if (count_in(maps, "acc.acc.svg", says[i]) != 1)
            fail_msg("acc.acc.svg: '%s' not once in the legend", says[i]);
}

/* acc's pictures (II=1 on the default 4x4).  The primitive level:
 * well-formed, every one of the 152 primitives at its pinned point
 * (svg_check.h), one filled unit per op the text file places on a
 * unit, and the legend.  The PE level: one box per block (32) in context 0's panel, a
 * legend, and each op the text file places written in a box as "OP
 * NODE". */
static void check_picture(const char *maps)
{
    char dot[128], svg[128];
    snprintf(dot, sizeof dot, "%s/acc.acc.dot", maps);
    snprintf(svg, sizeof svg, "%s/acc.acc.svg", maps);
    assert_int_equal(count_in(maps, "acc.acc.txt", "II=1 "), 1);
    assert_int_equal(svg_check_positions(dot, svg), 152);
    int ops = count_in(maps, "acc.acc.txt", " on block_");
    assert_true(ops >= 3);
    /* the legend's sample unit is one more light blue box */
    assert_int_equal(count_in(maps, "acc.acc.svg", "fill=\"lightblue\""),
                     ops + 1);
    check_legend(maps);
    svg_box *b;
    snprintf(svg, sizeof svg, "%s/acc.acc.pe.svg", maps);
    int n = svg_boxes(svg, "node", &b), boxes = 0;
    for (int i = 0; i < n; i++)
        boxes += strncmp(b[i].name, "c0_b", 4) == 0;
    assert_int_equal(boxes, 32);
    assert_non_null(svg_find(b, n, "legend"));
    free(b);
    static char txt[1 << 16], pic[1 << 20];
    snprintf(dot, sizeof dot, "%s/acc.acc.txt", maps);
    slurp(dot, txt, sizeof txt);
    slurp(svg, pic, sizeof pic);
    int found = 0;
    for (const char *l = txt; (l = strstr(l, "\nplace ")); l++) {
        char node[64], op[32], unit[64], text[128];
        if (sscanf(l, "\nplace %*d '%63[^']' %31s on %63s", node, op,
                   unit) != 3)
            continue; /* a const carried as an immediate */
        snprintf(text, sizeof text, ">%s %s</text>", op, node);
        if (!strstr(pic, text))
            fail_msg("%s: no box says '%s %s'", svg, op, node);
        found++;
    }
    assert_int_equal(found, ops);
}

/* Without neato on the PATH, the picture of a mapped loop is not written
 * (no file left), the others are, and the run fails saying why. */
static void test_mapping_dir_no_neato(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_bench_XXXXXX", want[512], cmd[64];
    assert_non_null(mkdtemp(dir));
    run r;
    run_without_neato(&r, dir, (const char *const[]){"--mapping-dir", dir,
                                                     LOOSE "/acc.dot",
                                                     NULL});
    assert_int_equal(r.status, 1);
    snprintf(want, sizeof want, "%s/acc.acc.svg: error: drawing this "
             "picture needs graphviz's neato, which is not installed "
             "(apt-get install graphviz)\n%s/acc.acc.pe.svg: error: drawing "
             "this picture needs graphviz's neato, which is not installed "
             "(apt-get install graphviz)\n%s: error: the mapping files of "
             "loop 'acc' are not all written there (the error above says "
             "why)\n", dir, dir, dir);
    assert_string_equal(r.err, want);
    assert_true(exists(dir, "acc.acc.dot"));
    assert_false(exists(dir, "acc.acc.svg"));
    assert_false(exists(dir, "acc.acc.pe.svg"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* --mapping-dir makes the folder and writes the six files of each
 * mapped loop, none for the others. */
static void test_mapping_dir(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_bench_XXXXXX", maps[64], cmd[128];
    assert_non_null(mkdtemp(dir));
    snprintf(maps, sizeof maps, "%s/maps", dir);
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          "--mapping-dir", maps, LOOSE, NULL});
    assert_int_equal(r.status, 1);
    const char *want[] = {"acc.acc.txt",       "acc.acc.json",
                          "acc.acc.dot",       "acc.acc.dfg.dot",
                          "acc.acc.svg",       "acc.acc.pe.svg",
                          "two.scale.txt",     "two.scale.json",
                          "two.scale.dot",     "two.scale.dfg.dot",
                          "two.scale.svg",     "two.scale.pe.svg"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        assert_true(exists(maps, want[i]));
    assert_false(exists(maps, "two.calls.txt"));
    snprintf(cmd, sizeof cmd, "ls %s | wc -l > %s/n", maps, dir);
    assert_int_equal(system(cmd), 0);
    char n[16], np[80];
    snprintf(np, sizeof np, "%s/n", dir);
    slurp(np, n, sizeof n);
    assert_string_equal(n, "12\n");
    check_picture(maps);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);

    run_cgramap(&r, (const char *const[]){"--mapping-dir", "/nonexistent/m",
                                          LOOSE, NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "/nonexistent/m: error: cannot create this "
                        "folder for --mapping-dir; create it or check its "
                        "parent\n");

    /* a file where the folder should be: refused before any loop runs
       (it once failed after every loop, each write 'Not a directory') */
    char file[128];
    snprintf(file, sizeof file, "%s.file", dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    run_cgramap(&r, (const char *const[]){"--mapping-dir", file, LOOSE,
                                          NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    char msg[256];
    snprintf(msg, sizeof msg, "%s: error: --mapping-dir needs a folder "
             "and this is a file; give a folder's path\n", file);
    assert_string_equal(r.err, msg);
    remove(file);
}

/* A CGRA-ME style folder (Makefile with LOOP_TAGS) and a C loop whose
 * recurrence starts at a non-zero value: both verified against the C code,
 * exit 0.  Each reads 64 ints in one whole tile: 10 + 256/4 = 74 DMA
 * cycles before 64 iterations at the II plus the pipeline depth (5 and 6). */
static void test_benchmark_folders(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          "benchmarks/microbench/sum",
                                          "benchmarks/microbench/initrec",
                                          NULL});
    assert_int_equal(r.status, 0);
    mask_times(r.out);
    assert_string_equal(r.out,
        HEADER
        "sum            sum               14      1      1 -             1 mapped "
        "                  optimal TIME    5/16   31%     6   2   1     69      "
        "1        256   1.00        143        74 yes\n"
        "initrec        initrec           16      1      2 -             2 mapped "
        "                  optimal TIME    6/16   19%     7   2   1     89      "
        "1        256   1.00        208        74 yes\n");
    assert_string_equal(r.err, "");
}

/* A .c file of a CGRA-ME style folder named as a PATH is a job of that
 * folder: its Makefile's DFG_FLAGS apply (cap's --sym limit=1000, without
 * which the native run assumes limit = 16, with a note) and the row is
 * named after the folder, also when the folder is named "." or ends in
 * "/." (the row was once named "."). */
static void test_c_of_benchmark_folder(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          "benchmarks/microbench/cap/cap.c",
                                          "benchmarks/microbench/sum/.",
                                          NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    mask_times(r.out);
    assert_string_equal(r.out,
        HEADER
        "cap            cap               15      1      1 -             2 mapped "
        "                  optimal TIME    5/16   19%     5   2   2    125      "
        "1        512   1.00        283       148 yes\n"
        "sum            sum               14      1      1 -             1 mapped "
        "                  optimal TIME    5/16   31%     6   2   1     69      "
        "1        256   1.00        143        74 yes\n");
}

/* A walk follows a link to a folder once: links back to the folder (a ->
 * ., b -> .) once made 2^40 paths and the run never ended.  A .c file
 * the walk cannot read is an error, exit 1 (it was skipped in silence),
 * and so is a folder inside it that it cannot read (exit 0 before): both
 * only when not root, whom no mode stops. */
static void test_walk_links_and_unreadable(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_walkXXXXXX", cmd[512], want[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cp benchmarks/microbench/sum/sum.c %s/ && "
             "ln -s . %s/a && ln -s . %s/b", dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", dir, NULL});
    assert_int_equal(r.status, 0);
    mask_times(r.out);
    assert_string_equal(r.out, HEADER
        "sum            sum               14      1      1 -             1 mapped "
        "                  optimal TIME    5/16   31%     6   2   1     69      "
        "1        256   1.00        143        74 yes\n");
    snprintf(want, sizeof want, "%s/a: note: skipped: a link to a folder this "
             "walk has already been through\n%s/b: note: skipped: a link to "
             "a folder this walk has already been through\n", dir, dir);
    assert_string_equal(r.err, want);
    if (geteuid() != 0) {
        snprintf(cmd, sizeof cmd, "rm %s/a %s/b && mkdir %s/locked && cp "
                 "%s/sum.c %s/unread.c && chmod 000 %s/locked %s/unread.c",
                 dir, dir, dir, dir, dir, dir, dir);
        assert_int_equal(system(cmd), 0);
        run_cgramap(&r, (const char *const[]){"--timeout", "30", dir, NULL});
        assert_int_equal(r.status, 1);
        snprintf(want, sizeof want, "%s/locked: error: cannot read this "
                 "folder (Permission denied)\n%s/unread.c: error: cannot read "
                 "this file (Permission denied); whether it holds a //DFGLOOP: "
                 "tag is unknown\n", dir, dir);
        assert_string_equal(r.err, want);
    }
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx %s; rm -rf %s", dir, dir);
    assert_int_equal(system(cmd), 0);
}

/* Usage errors found before any loop runs: an option given by a prefix
 * of its name ("--mapping" was taken for --mapping-dir and made a
 * folder, where `cgramap map --mapping` names a file), and --json and
 * --csv naming one file (it held the CSV only). */
static void test_option_spelling_and_same_file(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--mapping", "/tmp/cg_nodir",
                                          "benchmarks/microbench/sum", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "cgramap: unknown option '--mapping' (options "
                        "are spelled in full: --mapping-dir?)\n");
    assert_int_equal(access("/tmp/cg_nodir", F_OK), -1);
    /* every command: the same rule, and dfg's one-dash spellings too */
    run_cgramap(&r, (const char *const[]){"tile", "--lo", "x", "a.c", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap tile: unknown option '--lo' (options "
                        "are spelled in full: --loop?)\n");
    run_cgramap(&r, (const char *const[]){"dfg", "-no-make", "a.c", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap dfg: unknown option '-no-make' "
                        "(options are spelled in full: --no-makefile?)\n");
    run_cgramap(&r, (const char *const[]){"--time=5",
                                          "benchmarks/microbench/sum", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: unknown option '--time=5' (see "
                        "cgramap --help)\n");
    run_cgramap(&r, (const char *const[]){"--max=4",
                                          "benchmarks/microbench/sum", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: unknown option '--max' (options "
                        "are spelled in full: --max-ii?)\n");
    run_cgramap(&r, (const char *const[]){"--json", "/tmp/cg_same.out",
                                          "--csv", "/tmp/cg_same.out",
                                          "benchmarks/microbench/sum", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: --json and --csv name the same file "
                        "'/tmp/cg_same.out'; give each its own\n");
    assert_int_equal(access("/tmp/cg_same.out", F_OK), -1);
}

/* A DFG whose name has a '/' (its digraph's) cannot name mapping files:
 * with DIR/k.x made beforehand, "x/../../pw" once wrote DIR/../pw.*,
 * outside --mapping-dir.  The row stands; the files are refused. */
static void test_loop_name_with_slash(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_slashXXXXXX", cmd[512], dot[128], md[128],
         want[512];
    assert_non_null(mkdtemp(dir));
    snprintf(dot, sizeof dot, "%s/k.dot", dir);
    snprintf(md, sizeof md, "%s/md", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p %s/md/k.x && printf 'digraph "
             "\"x/../../pw\" {\\n a[opcode=input];\\n b[opcode=output];"
             "\\n a->b[operand=0];\\n}\\n' > %s", dir, dot);
    assert_int_equal(system(cmd), 0);
    run r;
    run_cgramap(&r, (const char *const[]){"--mapping-dir", md, dot, NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, " yes\n"));
    snprintf(want, sizeof want, "%s: error: loop 'x/../../pw' has a '/' in "
             "its name, which names its mapping files; rename its graph (the "
             "digraph's name)\n", md);
    assert_non_null(strstr(r.err, want));
    snprintf(cmd, sizeof cmd, "test ! -e %s/pw.txt && test ! -e %s/md/pw.txt",
             dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* One bad tag does not stop the file's other loops (it once made the
 * whole file one error row): the good loop maps and verifies, the tag's
 * error stands under its row, exit 1; `cgramap dfg` prints the good
 * graph and exits 1. */
static void test_bad_tag_others_run(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_badtagXXXXXX", c[64], want[256];
    temp_file(dir, "two.c", "int a[8], b[8];\nvoid k(void)\n{\n"
              "    for (int i = 0; i < 8; i++) //DFGLOOP:\n        a[i] = i;\n"
              "    for (int i = 0; i < 8; i++) //DFGLOOP: good\n"
              "        b[i] = a[i] + 1;\n}\nint main(void) { k(); return 0; }\n",
              c, sizeof c);
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", c, NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\ntwo            good "));
    assert_non_null(strstr(r.out, " yes\n"));
    snprintf(want, sizeof want, "%s:4: error: //DFGLOOP: tag without a name "
             "(write //DFGLOOP: name)\n", c);
    assert_string_equal(r.err, want);
    run_cgramap(&r, (const char *const[]){"dfg", c, NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "digraph good {\n"));
    assert_string_equal(r.err, want);
    remove_temp(dir);
}

/* LOOP_TAGS naming a loop twice (or more) runs it once, with a warning
 * (it ran twice: two rows). */
static void test_loop_tags_repeated(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_ltXXXXXX", cmd[512], want[256];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cp benchmarks/microbench/sum/sum.c %s/ && "
             "printf 'LOOP_TAGS = sum  sum sum\\n' > %s/Makefile", dir, dir);
    assert_int_equal(system(cmd), 0);
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", dir, NULL});
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof want, "%s/Makefile: warning: LOOP_TAGS names 'sum' "
             "more than once; its loop runs once\n", dir);
    assert_string_equal(r.err, want);
    int rows = 0;
    for (const char *p = r.out; (p = strstr(p, " mapped ")); p++)
        rows++;
    assert_int_equal(rows, 1);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A kernel that calls a function nothing defines (declared extern): the
 * native run would jump to nothing; it once crashed and the row blamed
 * the loop ("reference run crashed (signal 11 ...) in loop 'good'").  The
 * call is named at its line; the mapping still stands. */
static void test_undefined_function(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_externXXXXXX", c[64], want[512];
    temp_file(dir, "extcall.c", "int a[64];\nextern void report(int);\n"
              "void k(void) {\n    for (int i = 0; i < 64; i++) { //DFGLOOP: "
              "good\n        a[i] = a[i] + 1;\n    }\n    report(a[0]);\n}\n"
              "int main(void) { k(); return 0; }\n", c, sizeof c);
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", c, NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, " mapped "));
    assert_non_null(strstr(r.out, " not verified: the native run would call "
                                  "'report', which neither this file nor "
                                  "the C library defines; define it in the "
                                  "file (a stub will do) so that the loop "
                                  "can be run natively\n"));
    snprintf(want, sizeof want, "%s:7: error: the native run would call "
             "'report', which neither this file nor the C library defines; "
             "define it in the file (a stub will do) so that the loop can be "
             "run natively\n", c);
    assert_string_equal(r.err, want);
    remove_temp(dir);
}

/* A folder without a Makefile holding k.c and the k.dot cgramap dfg wrote
 * from it: the .dot is skipped with a note (it was a second row, n/a,
 * whose files replaced the C row's); named as a PATH it maps and verifies
 * (its memory= holds the globals).  A k.c in another folder takes the name
 * k~2 with a note: no --mapping-dir file is written twice. */
static void test_dot_beside_c(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_besideXXXXXX", cmd[512], a[64], b[64], m[64],
         dot[128], want[1024], kc[128];
    assert_non_null(mkdtemp(dir));
    snprintf(a, sizeof a, "%s/bench", dir);
    snprintf(b, sizeof b, "%s/other", dir);
    snprintf(m, sizeof m, "%s/M", dir);
    snprintf(dot, sizeof dot, "%s/k.dot", a);
    snprintf(cmd, sizeof cmd, "mkdir %s %s && cp benchmarks/microbench/sum/"
             "sum.c %s/k.c && cp benchmarks/microbench/sum/sum.c %s/k.c", a,
             b, a, b);
    assert_int_equal(system(cmd), 0);
    run r;
    snprintf(kc, sizeof kc, "%s/k.c", a);
    run_cgramap(&r, (const char *const[]){"dfg", kc, "-o", dot, NULL});
    assert_int_equal(r.status, 0);
    run_cgramap(&r, (const char *const[]){"--mapping-dir", m, a, b, NULL});
    assert_int_equal(r.status, 0);
    mask_times(r.out);
    assert_string_equal(r.out, HEADER
        "k              sum               14      1      1 -             1 mapped "
        "                  optimal TIME    5/16   31%     6   2   1     69      "
        "1        256   1.00        143        74 yes\n"
        "k~2            sum               14      1      1 -             1 mapped "
        "                  optimal TIME    5/16   31%     6   2   1     69      "
        "1        256   1.00        143        74 yes\n");
    snprintf(want, sizeof want, "%s: note: skipped: %s/k.c beside it is "
             "extracted, and this .dot is most likely its loop as cgramap dfg "
             "writes it; name the .dot as a PATH to map it on its own\n"
             "%s/k.c: note: benchmark name 'k' is taken by %s/k.c; this "
             "file's rows and --mapping-dir files are named 'k~2'\n", dot, a,
             b, a);
    assert_string_equal(r.err, want);
    snprintf(cmd, sizeof cmd, "test -f %s/k.sum.txt && test -f "
             "%s/k~2.sum.txt", m, m);
    assert_int_equal(system(cmd), 0);
    run_cgramap(&r, (const char *const[]){dot, NULL});
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " yes\n"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A folder as CGRA-ME ships them: //DFGLoop: tags in mixed case, a
 * Makefile that only includes ../../rules.mk (so LOOP_TAGS ?= loop, CFLAGS
 * ?= -O3 and DFG_FLAGS += -loop-tags '$(LOOP_TAGS)' come from there), and
 * a loose file with a //DfgLoop: tag.  Its kernels are those CGRA-ME's
 * own benchmarks make hard to verify natively: gptr reads through a null
 * global pointer (pointed at a seeded buffer of its own, with a note:
 * verified), ptrn also takes its trip count through a pointer (*len, 16
 * by default, with the note naming it: verified), fold is a sum clang
 * -O3 replaces by its formula (compiled again keeping the loop, with a
 * note: verified), stackarr reads an array on the kernel's stack (placed
 * in the layout, its bytes copied in at the loop's entry: verified).
 * Every loop gets a row, every row is verified, exit 0. */
static void test_cgrame_folder(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          "tests/cli/data/cgrame", NULL});
    assert_int_equal(r.status, 0);
    mask_times(r.out);
    assert_string_equal(r.out,
        HEADER
        "scale          scale             16      1      1 -             1 mapped "
        "                  optimal TIME    6/16   38%     7   1   2     95      "
        "1        256   1.00        121        84 yes\n"
        "fold           loop               9      1      1 -             1 mapped "
        "                  optimal TIME    3/16   19%     4   2   0     41      "
        "1          0   1.00        103         0 yes\n"
        "gptr           loop              14      1      1 -             1 mapped "
        "                  optimal TIME    5/16   31%     5   3   1     69      "
        "-          -      -          -         - yes\n"
        "ptrn           loop              20      1      3 -             3 mapped "
        "                  optimal TIME    4/16   17%     5   4   3    138      "
        "-          -      -          -         - yes\n"
        "stackarr       loop              16      1      2 -             2 mapped "
        "                  optimal TIME    5/16   19%     6   2   2     99      "
        "-          -      -          -         - yes\n"
        "vsum           loop              14      1      1 -             1 mapped "
        "                  optimal TIME    5/16   31%     6   2   1     69      "
        "1        256   1.00        143        74 yes\n");
#define MB "tests/cli/data/cgrame/microbench/"
    assert_string_equal(r.err,
        MB "fold/fold.c: note: loop 'loop': clang folded it away (a formula "
        "or nothing left); extracted from the file compiled again keeping the "
        "loop's exit values in it (-mllvm -replexitval=never)\n"
        MB "gptr/gptr.c:13: warning: loop 'loop' is not tiled: access (node "
        "'load7') is not to a known global array; tiling needs every load and "
        "store to index a global array\n"
        MB "gptr/gptr.c: note: loop 'loop': the native run assumes what "
        "nothing in the file sets: p points at a seeded buffer of 4096 bytes\n"
        MB "ptrn/ptrn.c:13: warning: loop 'loop' is not tiled: loop "
        "'indvars.iv' has a symbolic trip count 'sub'; tiling needs a known "
        "count (give the symbol a value)\n"
        MB "ptrn/ptrn.c: note: loop 'loop': the native run assumes what "
        "nothing in the file sets: *len = 16 (the default; --sym len=VALUE "
        "sets it); src, dst point at seeded buffers of 4096 bytes\n"
        MB "stackarr/stackarr.c:13: warning: loop 'loop' is not tiled: access "
        "(node 'load9') is not to a known global array; tiling needs every "
        "load and store to index a global array\n");
#undef MB
}

/* The same benchmark on an ADRES-like ADL1 array whose only memory
 * access is a CGRA-ME MemPort (tests/xml/data/cgrame/adres_*.xml): the
 * load goes through it, the checker and the simulator accept the mapping
 * (verified yes); no tile memory, so no tiling, with the warning. */
static void test_cgrame_memport_map(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){
        "--timeout", "30", "--max-ii", "4", "--arch",
        "tests/xml/data/cgrame/adres_arch.xml", "--templates",
        "tests/xml/data/cgrame/adres_templates.xml",
        "tests/cli/data/cgrame/microbench/vsum/vsum.c", NULL});
    assert_int_equal(r.status, 0);
    mask_times(r.out);
    assert_string_equal(r.out,
        HEADER
        "vsum           loop              14      1      1 -             1 mapped "
        "                  optimal TIME     5/8   62%     6   2   1     67      "
        "-          -      -          -         - yes\n");
    assert_string_equal(r.err, "tests/cli/data/cgrame/microbench/vsum/vsum.c: "
                        "warning: loop 'loop' is not tiled: the architecture "
                        "declares no tile memory; tiling needs a <memory> "
                        "(and a <dma>)\n");
}

/* CGRA-ME's ADRES layout on the default templates has no icmp: by default
 * (--loop-control auto) the loop is extracted in CGRA-ME's shape, the
 * loop control left to the array's controller (a note says so), and maps
 * and verifies with the native run's count; --loop-control dfg keeps the
 * exit compare, which no unit computes. */
static void test_cgrame_loop_control(void **state)
{
    (void)state;
    const char *arch = "tests/xml/data/cgrame/adres_default.xml";
    const char *file = "tests/cli/data/cgrame/microbench/vsum/vsum.c";
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii",
                                          "4", "--arch", arch, file, NULL});
    assert_int_equal(r.status, 0);
    mask_times(r.out);
    assert_string_equal(r.out,
        HEADER
        "vsum           loop              11      1      1 -             1 mapped "
        "                  optimal TIME     4/8   50%     5   1   1     57      "
        "-          -      -          -         - yes\n");
    assert_string_equal(r.err,
        "tests/xml/data/cgrame/adres_default.xml: note: no unit of the "
        "architecture computes icmp: loops extracted from C leave their loop "
        "control to the array's controller, as CGRA-ME's do (no exit "
        "compare); --loop-control dfg keeps it\n"
        "tests/cli/data/cgrame/microbench/vsum/vsum.c: warning: loop 'loop' "
        "is not tiled: the architecture declares no tile memory; tiling "
        "needs a <memory> (and a <dma>)\n");
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          "--loop-control", "dfg", "--arch",
                                          arch, file, NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "vsum.c:10: error: no unit of the "
                           "architecture supports op 'icmp' (node 'icmp9')"));
    run_cgramap(&r, (const char *const[]){"--loop-control", "x", file, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: Invalid value for --loop-control: "
                        "x (auto, dfg or array)\n");
}

/* Other mappers' DFGs named as PATHs: the same loop in the NUS mappers'
 * XML, the SAT-based mappers' text form and SAT-MapIt's files (NAME_nodes,
 * its counter a phi: one more node) maps and verifies (the interpreter's
 * reference run), one row each. */
static void test_foreign_dfgs(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){
        "--timeout", "30", "--max-ii", "4",
        "tests/dfg/data/foreign/scale.xml",
        "tests/dfg/data/foreign/scale.txt",
        "tests/dfg/data/foreign/sat/scale_nodes", NULL});
    assert_int_equal(r.status, 0);
    mask_times(r.out);
#define SCALE_ROW(b)                                                          \
    b "scale             12      1      2 -             2 mapped "           \
    "                  optimal TIME    4/16   16%     5   0   2     86      " \
    "-          -      -          -         - yes\n"
    /* three files of one name: the later two are renamed (their mapping
       files would be the first's), with a note each */
    assert_string_equal(r.out, HEADER SCALE_ROW("scale          ")
                        SCALE_ROW("scale~2        ")
        "scale~3        scale             13      1      2 -             2 mapped "
        "                  optimal TIME    4/16   16%     6   0   2     86      "
        "-          -      -          -         - yes\n");
    assert_string_equal(r.err, "tests/dfg/data/foreign/scale.txt: note: "
        "benchmark name 'scale' is taken by tests/dfg/data/foreign/scale.xml; "
        "this file's rows and --mapping-dir files are named 'scale~2'\n"
        "tests/dfg/data/foreign/sat/scale_nodes: note: benchmark name 'scale' "
        "is taken by tests/dfg/data/foreign/scale.xml; this file's rows and "
        "--mapping-dir files are named 'scale~3'\n");
#undef SCALE_ROW
}

/* Morpher's partial predication, lowered by the reader (loop phis as
 * loop-carried edges, an if-converted select, OLOAD/OSTORE as live-ins
 * and a live-out, the loop control left out), maps on the default 4x4
 * array and verifies against the interpreter. */
static void test_morpher_dfgs(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){
        "--arch", "benchmarks/archs/default_4x4.xml", "--timeout", "30",
        "--max-ii", "4", "tests/dfg/data/foreign/morpher_phi.xml",
        "tests/dfg/data/foreign/morpher_select.xml", NULL});
    assert_int_equal(r.status, 0);
    mask_times(r.out);
    assert_string_equal(r.out, HEADER
        "morpher_phi    morpher_phi       16      1      2 -             2 "
        "mapped                   optimal TIME    5/16   19%     5   3   2    "
        "110      -          -      -          -         - yes\n"
        "morpher_select morpher_select    15      1      1 -             1 "
        "mapped                   optimal TIME    6/16   38%     6   1   2    "
        "113      -          -      -          -         - yes\n");
    assert_string_equal(r.err, "");
}

/* A loop whose accesses are not affine (hist[data[i] & 15]) maps and
 * verifies; only its tiling columns are missing, with a warning per
 * access saying why, and the exit status stays 0. */
static void test_untileable_loop(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          "benchmarks/microbench/histogram",
                                          NULL});
    assert_int_equal(r.status, 0);
    mask_times(r.out);
    assert_non_null(strstr(r.out, "histogram      histogram         20      "
                           "1      2 -             2 mapped                   "
                           "optimal TIME    7/16   25%     8   1   3    131"));
    assert_non_null(strstr(r.out, "      -          -      -          -  "
                           "       - yes\n"));
#define WHY(node) "benchmarks/microbench/histogram/histogram.c:10: " \
                  "warning: loop 'histogram' is not tiled: access to " \
                  "'hist' (node '" node "') is not affine in the loop " \
                  "counters; tiling needs indices of the form c + " \
                  "a0*i0 + a1*i1 + ...\n"
    const char *want = WHY("load14") WHY("store16");
#undef WHY
    assert_string_equal(r.err, want);
}

/* A report file that cannot be written is found before any loop runs
 * (once only after all of them); tests/cli/test_files.c has the rest. */
static void test_unwritable_report(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--json", "/nonexistent/r.json",
                                          LOOSE "/acc.dot", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "/nonexistent/r.json: error: cannot write "
                        "this file for --json (No such file or directory); "
                        "nothing was run\n");
}

/* Numbers out of range: once converted to int (undefined for 2^31 and
 * up), and --timeout 1e400 taken as infinity by the main job while `map`
 * refused it.  Now one rule and one message for both. */
static void test_number_options(void **state)
{
    (void)state;
    static const char *const cases[][3] = {
        {"-j", "2147483648", "a whole number from 1 to 64"},
        {"-j", "1e300", "a whole number from 1 to 64"},
        {"--max-ii", "4294967297", "a whole number from 1 to 64"},
        {"--max-ii", "nan", "a whole number from 1 to 64"},
        {"--steps", "1e300", "a whole number from 1 to 1000000000000"},
        {"--ilp-nodes", "2147483648", "a whole number from 1 to 2147483647"},
        {"--seed", "-1", "a whole number from 0 to 4294967295"},
        {"--timeout", "1e400", "seconds, more than 0 and at most 1e9"},
        {"--timeout", "inf", "seconds, more than 0 and at most 1e9"},
        {"--timeout", "2e9", "seconds, more than 0 and at most 1e9"},
        {"--time-limit", "1e400", "seconds, more than 0 and at most 1e9"},
        {"--ii", "0", "a whole number from 1 to 64"},
        {"--mapper", "annealing", "auto, heuristic, ilp or sat"},
        {"--repair-tries", "-1", "a whole number from 0 to 2147483647"},
        {"--moves", "-1", "a whole number from 0 to 1000000000000"},
        {"--cluster-above", "1.5", "a whole number from 0 to 2147483647"},
        {"--run-timeout", "0", "seconds, more than 0 and at most 1e9"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        for (int map = 0; map < 2; map++) {
            if (map && (!strcmp(cases[i][0], "-j") ||
                        !strcmp(cases[i][0], "--run-timeout")))
                continue; /* options of the main job only */
            run r;
            const char *job[] = {cases[i][0], cases[i][1], LOOSE, NULL};
            const char *one[] = {"map", cases[i][0], cases[i][1],
                                 LOOSE "/acc.dot", NULL};
            run_cgramap(&r, map ? one : job);
            char want[160];
            snprintf(want, sizeof want, "cgramap%s: Invalid value for %s: %s "
                     "(%s)\n", map ? " map" : "", cases[i][0], cases[i][1],
                     cases[i][2]);
            assert_int_equal(r.status, 2);
            assert_string_equal(r.err, want);
        }
    }
}

/* Loop `name` of tests/cli/data/refrun/<name>.c mapped but not verified
 * because of why: exit 1, why as the error on stderr and in the row. */
static void expect_not_verified(const run *r, const char *name,
                                const char *why)
{
    char want[512];
    snprintf(want, sizeof want, "tests/cli/data/refrun/%s.c: error: %s\n",
             name, why);
    assert_int_equal(r->status, 1);
    assert_string_equal(r->err, want);
    snprintf(want, sizeof want, "\n%-14s %-14s", name, name);
    const char *row = strstr(r->out, want);
    assert_non_null(row);
    assert_non_null(strstr(row, " mapped "));
    snprintf(want, sizeof want, " not verified: %s\n", why);
    assert_non_null(strstr(row, want));
}

/* A kernel whose native run would take hours (tests/cli/data/refrun): the
 * reference run is stopped after --run-timeout, the loop keeps its
 * mapping and its row says why it is not verified; the job goes on. */
static void test_reference_run_limit(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--run-timeout", "1", "--timeout",
                                          "20", "tests/cli/data/refrun/spin.c",
                                          LOOSE "/acc.dot", NULL});
    expect_not_verified(&r, "spin", "reference run exceeded 1 s and was "
                        "stopped (loop 'spin'); raise --run-timeout to let "
                        "it finish");
    assert_non_null(strstr(r.out, "\nacc            acc"));
    assert_non_null(strstr(r.out, " yes\n"));
}

/* A kernel that crashes natively after its mapped loop: a row of its
 * own, not a crashed worker.  (The sanitizers' SEGV handler would turn
 * the signal into an exit status and a report: leave the signal alone.) */
static void test_reference_run_crash(void **state)
{
    (void)state;
    const char *old = getenv("ASAN_OPTIONS");
    char *keep = old ? strdup(old) : NULL;
    setenv("ASAN_OPTIONS", "handle_segv=0:detect_leaks=0", 1);
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "20",
                                          "tests/cli/data/refrun/crash.c",
                                          NULL});
    if (keep)
        setenv("ASAN_OPTIONS", keep, 1);
    else
        unsetenv("ASAN_OPTIONS");
    free(keep);
    expect_not_verified(&r, "crash", "reference run crashed (signal 11, "
                        "Segmentation fault) in loop 'crash'; run the C "
                        "program natively to find the fault");
}

static void test_usage_and_nothing_found(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "abc", LOOSE, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: Invalid value for --timeout: abc "
                               "(seconds, more than 0 and at most 1e9)\n");
    run_cgramap(&r, (const char *const[]){"-j", "0", LOOSE, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: Invalid value for -j: 0 (a whole "
                               "number from 1 to 64)\n");
    run_cgramap(&r, (const char *const[]){"--solver", "gurobi", LOOSE, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: Invalid value for --solver: gurobi "
                               "(glpk or cbc)\n");
    run_cgramap(&r, (const char *const[]){"--timeout", "5", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err,
                        "cgramap: give at least one PATH (see cgramap --help)\n");
    char dir[] = "/tmp/cg_bench_XXXXXX";
    assert_non_null(mkdtemp(dir));
    run_cgramap(&r, (const char *const[]){dir, NULL});
    rmdir(dir);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "cgramap: no tagged .c file, benchmark folder "
                        "or .dot file found\n");
    /* a .c file named directly but without a tag: an error row, exit 1;
     * its folder holds no tagged file */
    run_cgramap(&r, (const char *const[]){"tests/cli/data/untagged/plain.c",
                                          NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\nplain          -     "));
    assert_string_equal(r.err, "tests/cli/data/untagged/plain.c: error: no "
                        "//DFGLOOP: tag in the file (put '//DFGLOOP: name' on "
                        "the line of a loop)\n");
    run_cgramap(&r, (const char *const[]){"tests/cli/data/untagged", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "cgramap: no tagged .c file, benchmark folder "
                        "or .dot file found\n");
    run_cgramap(&r, (const char *const[]){"README.md", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "README.md: error: not a folder, a .c file or "
                        "a DFG file (.dot; .xml, .txt, NAME_nodes: other "
                        "mappers' DFGs)\n");
}

/* --solver: x fans out to three ops on a 2x2 mesh (tests/cli/data/solver).
 * The heuristic finds nothing at II=1; the ILP (the same model for both
 * solvers) proves II=1 impossible, then II=2 maps.  The record names the
 * solver.  (tests/mapper/exact/test_ilp.c shows each solver's branch and bound
 * proving it where the relaxation cannot.) */
static void test_solver(void **state)
{
    (void)state;
    const char *solvers[] = {"glpk", "cbc"};
    for (int i = 0; i < 2; i++) {
        char dir[] = "/tmp/cg_solver_XXXXXX", js[64], cmd[96];
        assert_non_null(mkdtemp(dir));
        snprintf(js, sizeof js, "%s/r.json", dir);
        run r;
        run_cgramap(&r, (const char *const[]){
            "--arch", "tests/cli/data/solver/mesh_2x2.xml", "--solver",
            solvers[i], "--max-ii", "3", "--mapper", "ilp", "--json", js,
            "tests/cli/data/solver", NULL});
        assert_int_equal(r.status, 0);
        assert_string_equal(r.err, "");
        json_error_t e;
        json_t *all = json_load_file(js, 0, &e);
        assert_non_null(all);
        json_t *rec = record(all, "fanout", "fanout");
        assert_string_equal(
            json_string_value(json_object_get(rec, "solver")), solvers[i]);
        assert_int_equal(json_integer_value(json_object_get(rec, "ii")), 2);
        assert_string_equal(
            json_string_value(json_object_get(rec, "verified")), "yes");
        /* II 1 is proven impossible, so II 2 is optimal */
        assert_string_equal(
            json_string_value(json_object_get(rec, "proof")), "optimal");
        assert_string_equal(
            json_string_value(json_object_get(rec, "proof_hint")),
            "II 1 proven infeasible, so II 2 is the least");
        json_t *tries = json_object_get(rec, "tries");
        assert_int_equal(json_array_size(tries), 2);
        json_t *t1 = json_array_get(tries, 0);
        assert_int_equal(json_integer_value(json_object_get(t1, "ii")), 1);
        assert_string_equal(
            json_string_value(json_object_get(t1, "outcome")), "infeasible");
        assert_true(json_integer_value(json_object_get(t1, "rows")) > 0);
        json_decref(all);
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        assert_int_equal(system(cmd), 0);
    }
}

/* --repair-tries: with one heuristic step, no annealer (--moves 0) and
 * no SAT model (--sat-literals 1) nothing maps at II 1, so the ILP
 * decides it.  By default the repair completes the heuristic's partial
 * mapping with a small model; --repair-tries 0 leaves nothing to repair
 * and the full model (ten times the rows) maps it. */
static void test_repair_tries(void **state)
{
    (void)state;
    const char *tries[] = {"8", "0"};
    json_int_t rows[2];
    for (int i = 0; i < 2; i++) {
        char dir[] = "/tmp/cg_repair_XXXXXX", js[64], cmd[96];
        assert_non_null(mkdtemp(dir));
        snprintf(js, sizeof js, "%s/r.json", dir);
        run r;
        run_cgramap(&r, (const char *const[]){
            "--steps", "1", "--moves", "0", "--sat-literals", "1", "--ii",
            "1", "--repair-tries", tries[i],
            "--json", js, "tests/cli/data/policy/ls.dot", NULL});
        assert_int_equal(r.status, 0);
        json_error_t e;
        json_t *all = json_load_file(js, 0, &e);
        assert_non_null(all);
        json_t *rec = record(all, "ls", "ls");
        assert_int_equal(json_integer_value(json_object_get(rec, "ii")), 1);
        assert_string_equal(
            json_string_value(json_object_get(rec, "verified")), "yes");
        json_t *t = json_array_get(json_object_get(rec, "tries"), 0);
        rows[i] = json_integer_value(json_object_get(t, "rows"));
        json_decref(all);
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        assert_int_equal(system(cmd), 0);
    }
    assert_true(rows[0] > 0 && rows[0] * 10 < rows[1]);
}

#define PARAMS "tests/extract/data/params.c"
#define VADD "tests/cli/data/params"

#define MATMUL "tests/extract/data/matmul.c"

/* The note of a loop whose kernel parameters the native run gave the
 * default: "FILE: note: loop 'L': ... kernel 'fn' parameter p = 16 ...". */
static void defaulted(char *buf, size_t n, const char *file,
                      const char *loop, const char *fn, const char *p,
                      const char *q)
{
    char more[128] = "";
    if (q)
        snprintf(more, sizeof more, ", %s = 16 (the default; --sym %s=VALUE "
                 "sets it)", q, q);
    snprintf(buf, n, "%s: note: loop '%s': the native run assumes what "
             "nothing in the file sets: kernel '%s' parameter%s %s = 16 (the "
             "default; --sym %s=VALUE sets it)%s\n", file, loop, fn,
             q ? "s" : "", p, p, more);
}

/* Kernel parameters: without --sym, the loops that use c, m (the bound of
 * the loop around 'inner'), n (vadd's trip count) or i and j (matmul's
 * row and column, as in CGRA-ME's matrixmultiply) run natively with the
 * default 16, named in a note under the row, and verify; the loop that
 * does not use c passes 0 for it; --sym on the command line gives other
 * values, and every loop verifies. */
/* gtrip's count is a global (n = 32 in the file), which the reference
 * run seeds with random bytes like every writable global: the run
 * crashes, and a note says why (the message alone sent the user to run
 * the program natively, where it does not crash). */
static void test_seeded_trip(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--time-limit", "20",
                                          "tests/cli/data/gtrip", NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, " not verified: reference run crashed"));
    assert_non_null(strstr(r.err, "tests/cli/data/gtrip/gtrip.c:10: note: "
                                  "loop 'gtrip': a loop of its nest reads "
                                  "its trip count from global 'n', which the "
                                  "reference run fills with seeded random "
                                  "bytes as it does every writable global, "
                                  "so it may run past its arrays: make the "
                                  "count a kernel parameter (--sym then "
                                  "gives its value) or a constant\n"));
}

static void test_kernel_parameters(void **state)
{
    (void)state;
    char want[5][512];
    defaulted(want[0], 512, PARAMS, "scaled", "kernel", "c", NULL);
    defaulted(want[1], 512, PARAMS, "inner", "nest", "m", NULL);
    defaulted(want[2], 512, VADD "/vadd.c", "vadd", "vadd", "n", NULL);
    defaulted(want[3], 512, MATMUL, "loop", "multiply", "i", "j");
    snprintf(want[4], 512, "%s: note: kernel 'kernel': parameter 'c' has no "
             "value, and neither loop 'plain' nor a loop around it uses it, "
             "so the native run passes 0\n", PARAMS);
    run r;
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          PARAMS, VADD, MATMUL, NULL});
    assert_int_equal(r.status, 0);
    int yes = 0;
    for (const char *s = r.out; (s = strstr(s, " yes\n")); s++)
        yes++;
    assert_int_equal(yes, 5);
    for (int i = 0; i < 5; i++) { /* each once */
        const char *at = strstr(r.err, want[i]);
        if (!at)
            fail_msg("no '%s' in:\n%s", want[i], r.err);
        assert_null(strstr(at + 1, want[i]));
    }
    run_cgramap(&r, (const char *const[]){"--timeout", "30", "--max-ii", "4",
                                          "--sym", "i=3", "--sym", "j=5",
                                          MATMUL, NULL});
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " yes\n"));
    assert_null(strstr(r.err, "assumes"));

    char dir[] = "/tmp/cg_params_XXXXXX", js[64], cmd[96];
    assert_non_null(mkdtemp(dir));
    snprintf(js, sizeof js, "%s/r.json", dir);
    run_cgramap(&r, (const char *const[]){"--timeout", "300", "--max-ii",
                                          "4", "--sym", "c=3", "--sym=n=512",
                                          "--sym", "m=2", "--json", js,
                                          "--steps", "2000", "--ilp-nodes",
                                          "20", PARAMS, VADD, NULL});
    /* no error, warning nor note: vadd's II 1, which the heuristic
     * leaves at these work limits (its shared i*4 needs more search),
     * is mapped by the SAT mapper within its default conflicts */
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
    json_error_t e;
    json_t *all = json_load_file(js, 0, &e);
    assert_non_null(all);
    const char *loops[][2] = {{"params", "scaled"}, {"params", "plain"},
                              {"params", "inner"}, {"vadd", "vadd"}};
    for (int i = 0; i < 4; i++)
        assert_string_equal(json_string_value(json_object_get(
            record(all, loops[i][0], loops[i][1]), "verified")), "yes");
    json_t *vadd = record(all, "vadd", "vadd");
    assert_int_equal(json_integer_value(json_object_get(vadd, "ii")), 1);
    json_t *t0 = json_array_get(json_object_get(vadd, "tries"), 0);
    assert_string_equal(json_string_value(json_object_get(t0, "by")), "sat");
    /* n = 512 ints of a and b: in and out, one tile */
    assert_int_equal(json_integer_value(json_object_get(
        record(all, "vadd", "vadd"), "dma_bytes")), 3 * 512 * 4);
    json_decref(all);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);

    /* a .dot's live-in named by sym= takes the --sym value in the
     * reference run: a load at 100000 leaves the 64 KiB image */
    run_cgramap(&r, (const char *const[]){"tests/cli/data/dotsym", NULL});
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " yes\n"));
    assert_string_equal(r.err, "");
    run_cgramap(&r, (const char *const[]){"--sym", "off=100000",
                                          "tests/cli/data/dotsym", NULL});
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " n/a\n"));
    assert_string_equal(r.err, "warning: loop 'ldoff': not simulated: the "
                        "DFG interpreter cannot run it on seeded data (load "
                        "'ld' at iteration 0 accesses 4 bytes at 0x186a0, "
                        "outside the memory image [0x0, 0x10000)); map the C "
                        "file instead for a full proof\n");

    run_cgramap(&r, (const char *const[]){"--sym", "c", VADD, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: Invalid value for --sym: c "
                        "(NAME=INTEGER)\n");
}

/* mac (18 nodes, 7 consts) on the default 4x4 and on its immediates
 * variant: both map and verify against the loop's native run; with
 * immediates the 5 consts that feed ALU and memory operands use no unit. */
static void test_immediates(void **state)
{
    (void)state;
    const char *archs[] = {"benchmarks/archs/default_4x4.xml",
                           "benchmarks/archs/default_4x4_imm.xml"};
    const int consts[] = {7, 2}; /* 18 and 13 units in all */
    for (int i = 0; i < 2; i++) {
        char dir[] = "/tmp/cg_imm_XXXXXX", js[64], cmd[96];
        assert_non_null(mkdtemp(dir));
        snprintf(js, sizeof js, "%s/r.json", dir);
        run r;
        run_cgramap(&r, (const char *const[]){
            "--arch", archs[i], "--timeout", "20", "--max-ii", "4", "--json",
            js, "benchmarks/microbench/mac", NULL});
        assert_int_equal(r.status, 0);
        json_error_t e;
        json_t *all = json_load_file(js, 0, &e);
        assert_non_null(all);
        json_t *rec = record(all, "mac", "mac");
        assert_int_equal(json_integer_value(json_object_get(rec, "nodes")),
                         18);
        assert_int_equal(
            json_integer_value(json_object_get(rec, "const_ops")),
            consts[i]);
        assert_int_equal(json_integer_value(json_object_get(rec, "fu_ops")),
                         7);
        assert_string_equal(
            json_string_value(json_object_get(rec, "verified")), "yes");
        json_decref(all);
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        assert_int_equal(system(cmd), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solver),
        cmocka_unit_test(test_repair_tries),
        cmocka_unit_test(test_immediates),
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_jobs_keep_order),
        cmocka_unit_test(test_json_and_csv),
        cmocka_unit_test(test_time_limit_open),
        cmocka_unit_test(test_mapping_dir),
        cmocka_unit_test(test_mapping_dir_no_neato),
        cmocka_unit_test(test_walk_links_and_unreadable),
        cmocka_unit_test(test_option_spelling_and_same_file),
        cmocka_unit_test(test_loop_name_with_slash),
        cmocka_unit_test(test_undefined_function),
        cmocka_unit_test(test_loop_tags_repeated),
        cmocka_unit_test(test_bad_tag_others_run),
        cmocka_unit_test(test_c_of_benchmark_folder),
        cmocka_unit_test(test_benchmark_folders),
        cmocka_unit_test(test_dot_beside_c),
        cmocka_unit_test(test_cgrame_folder),
        cmocka_unit_test(test_cgrame_memport_map),
        cmocka_unit_test(test_cgrame_loop_control),
        cmocka_unit_test(test_foreign_dfgs),
        cmocka_unit_test(test_morpher_dfgs),
        cmocka_unit_test(test_untileable_loop),
        cmocka_unit_test(test_unwritable_report),
        cmocka_unit_test(test_number_options),
        cmocka_unit_test(test_reference_run_limit),
        cmocka_unit_test(test_reference_run_crash),
        cmocka_unit_test(test_usage_and_nothing_found),
        cmocka_unit_test(test_kernel_parameters),
        cmocka_unit_test(test_seeded_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
