/* test_main.c: runs the built cgramap binary and checks its exact stdout,
 * stderr and exit status. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_cgramap.h"
#include "svg_check.h"
#include "tests/common/golden.h"

static void test_help(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--help", NULL});
    assert_int_equal(r.status, 0);
    cg_golden_check("tests/cli/golden/help.txt", r.out);
    assert_string_equal(r.err, "");
    /* after a PATH and other options too (refused as an unexpected
       argument once) */
    run_cgramap(&r, (const char *const[]){"--arch", "x.xml",
                                          "benchmarks/microbench/saxpy", "-h",
                                          NULL});
    assert_int_equal(r.status, 0);
    cg_golden_check("tests/cli/golden/help.txt", r.out);
    assert_string_equal(r.err, "");
}

static void test_version(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--version", NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "cgramap " CG_VERSION "\n");
    run_cgramap(&r, (const char *const[]){"benchmarks/microbench/saxpy",
                                          "--version", "--help", NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "cgramap " CG_VERSION "\n");
}

static void test_bad_usage(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"--bogus", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err,
                        "cgramap: unknown option '--bogus' (see cgramap --help)\n");
    /* a plain word that is no command and no file is a mistyped command */
    run_cgramap(&r, (const char *const[]){"chek", "x.c", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "cgramap: 'chek' is neither a command (arch, "
                        "dfg, map, tile, check, sim, rtl, area, merge, sweep) "
                        "nor a file "
                        "or folder (see cgramap --help)\n");
    /* with a dot or a slash it is a path to scan */
    run_cgramap(&r, (const char *const[]){"x.c", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "x.c: error: no such file or folder\n");
    run_cgramap(&r, (const char *const[]){"nosuch/", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "nosuch/: error: no such file or folder\n");
    /* a word that names an existing folder is a path too */
    run_cgramap(&r, (const char *const[]){"scripts", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "cgramap: no tagged .c file, benchmark folder "
                        "or .dot file found\n");
}

/* Compare a run's stdout with a golden file (tests/common/golden.h). */
static void assert_golden_out(const run *r, const char *golden_path)
{
    cg_golden_check(golden_path, r->out);
}

static void test_arch_default_summary(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"arch", NULL});
    assert_int_equal(r.status, 0);
    assert_golden_out(&r, "tests/cli/golden/arch_default.txt");
    assert_string_equal(r.err, "");
}

/* `cgramap arch --arch FILE` prints the summary in golden, exit 0. */
static void arch_summary(const char *file, const char *golden)
{
    run r;
    run_cgramap(&r, (const char *const[]){"arch", "--arch", file, NULL});
    assert_int_equal(r.status, 0);
    assert_golden_out(&r, golden);
    assert_string_equal(r.err, "");
}

static void test_arch_shipped_summary(void **state)
{
    (void)state;
    arch_summary("benchmarks/archs/hetero_4x4.xml",
                 "tests/cli/golden/arch_hetero_4x4.txt");
}

/* An ADL1 file (root <architecture>) without --templates takes cgramap's
 * default templates: the summary the library test checks. */
static void test_arch_default_templates(void **state)
{
    (void)state;
    arch_summary("tests/xml/data/cgrame/adl1_arch.xml",
                 "tests/xml/golden/cgrame_adl1_default_summary.txt");
}

/* The shipped larger arrays with the default PE (docs/xml.md) run a loop:
 * sum maps at its MII of 1 and verifies on each, the tori with the IO
 * inside their ring PEs. */
static void test_large_archs_map(void **state)
{
    (void)state;
    static const char *const archs[] = {
        "benchmarks/archs/default_6x6.xml", "benchmarks/archs/default_8x8.xml",
        "benchmarks/archs/diagonal_8x8.xml",
        "benchmarks/archs/default_torus_8x8.xml",
        "benchmarks/archs/hetero_8x8.xml"};
    for (size_t i = 0; i < sizeof archs / sizeof *archs; i++) {
        run r;
        run_cgramap(&r, (const char *const[]){
            "--arch", archs[i], "--timeout", "30", "--max-ii", "2",
            "benchmarks/microbench/sum", NULL});
        if (r.status != 0)
            fprintf(stderr, "%s:\n%s%s", archs[i], r.out, r.err);
        assert_int_equal(r.status, 0);
        assert_string_equal(r.err, "");
        mask_times(r.out);
        assert_non_null(strstr(r.out, "\nsum            sum               14 "
                                      "     1      1 -             1 mapped "
                                      "                  optimal "));
        assert_non_null(strstr(r.out, " yes\n"));
    }
}

/* nswe_mesh_8x8.xml stays the guide's example (docs/xml.md): a loop
 * does not map on it, and the main job names every op it cannot place
 * (the exit compare's icmp too: --loop-control dfg keeps it, where the
 * default would leave the loop control to the array, no unit having
 * icmp). */
static void test_example_arch_unsupported(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){
        "--arch", "benchmarks/archs/nswe_mesh_8x8.xml", "--loop-control",
        "dfg", "benchmarks/microbench/sum", NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\nsum            sum               14 "
                                  "     -      - -             - error "));
#define SUM_ERR(line, op, node, fix)                                         \
    "benchmarks/microbench/sum/sum.c:" line ": error: no unit of the "       \
    "architecture supports op '" op "' (node '" node "'): " fix "\n"
    assert_string_equal(
        r.err,
        SUM_ERR("10", "const", "const0",
                "constants need a ConstUnit, or immediates on the units "
                "that use them (immediate=, docs/xml.md)")
            SUM_ERR("10", "load", "load7",
                    "loads and stores need a MEMUnit (docs/xml.md)")
                SUM_ERR("9", "icmp", "icmp9",
                        "add it to a FuncUnit's op list or use an "
                        "architecture that has it")
                    SUM_ERR("9", "output", "loop_exit",
                            "live-outs and the loop's exit test need IO: "
                            "give the mesh IO blocks "
                            "(io=\"every-side-port\", docs/xml.md) or add IO "
                            "primitives; or let the array's controller run "
                            "the loop (cgramap --loop-control array), whose "
                            "exit test then needs none"));
#undef SUM_ERR
}

/* On an array without IO whose controller runs the loop (no exit test in
 * the graph), a live-out's fix is IO alone: the hint to choose
 * --loop-control array, which auto had already chosen, is left out. */
static void test_liveout_needs_io(void **state)
{
    (void)state;
    static run r;
    run_cgramap(&r, (const char *const[]){"--no-progress", "--arch",
        "benchmarks/archs/hetero_4x4.xml", "benchmarks/microbench/sum",
        NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "sum.c:10: error: no unit of the "
                           "architecture supports op 'output' (node "
                           "'output10'): live-outs need IO: give the mesh IO "
                           "blocks (io=\"every-side-port\", docs/xml.md) or "
                           "add IO primitives\n"));
    assert_null(strstr(r.err, "--loop-control array"));
}

static void test_arch_dot(void **state)
{
    (void)state;
    static char got[65536];
    char path[] = "/tmp/cg_cli_dotXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    run r;
    run_cgramap(&r, (const char *const[]){"arch", "--dot", path, NULL});
    assert_int_equal(r.status, 0);
    slurp(path, got, sizeof got);
    unlink(path);
    cg_golden_check("tests/cli/golden/arch_default.dot", got);
}

/* The SVG of the default array: well-formed, every primitive at its pinned
 * point (svg_check.h), inside the outline of its block, the blocks on
 * their grid (columns left to right, rows top down), every connection
 * drawn.  (Before: positions in inches read as points by neato -n put
 * all 152 primitives within 40 points.) */
static void test_arch_svg(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_cli_svgXXXXXX", dot[64], svg[64], cmd[96];
    assert_non_null(mkdtemp(dir));
    snprintf(dot, sizeof dot, "%s/a.dot", dir);
    snprintf(svg, sizeof svg, "%s/a.svg", dir);
    run r;
    run_cgramap(&r, (const char *const[]){"arch", "--dot", dot, "--svg", svg,
                                          NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    int nprims = 0;
    assert_int_equal(sscanf(strstr(r.out, "primitives: "), "primitives: %d",
                            &nprims), 1);
    assert_int_equal(nprims, 152);
    assert_int_equal(svg_check_positions(dot, svg), nprims);
    svg_box *b, *cl, *e;
    int n = svg_boxes(svg, "node", &b), nc = svg_boxes(svg, "cluster", &cl);
    assert_int_equal(nc, 32); /* 4x4 compute blocks, 16 IO blocks */
    for (int i = 0; i < n; i++) {
        int row, col;
        char c[32];
        assert_int_equal(sscanf(b[i].tip, "block_%d_%d.", &row, &col), 2);
        snprintf(c, sizeof c, "cluster_%d_%d", row, col);
        const svg_box *k = svg_find(cl, nc, c);
        assert_non_null(k);
        assert_true(b[i].x0 >= k->x0 && b[i].x1 <= k->x1 &&
                    b[i].y0 >= k->y0 && b[i].y1 <= k->y1);
    }
    const svg_box *b11 = svg_find(cl, nc, "cluster_1_1"),
                  *b12 = svg_find(cl, nc, "cluster_1_2"),
                  *b21 = svg_find(cl, nc, "cluster_2_1");
    assert_true(b11->x1 < b12->x0 && b11->y0 == b12->y0);
    assert_true(b11->y1 < b21->y0 && b11->x0 == b21->x0);
    /* as many arrows as lines "  pA -> pB [...]" in the dot */
    slurp(dot, r.out, sizeof r.out);
    int arrows = 0;
    for (const char *p = r.out; (p = strstr(p, "\n  p")); p++)
        arrows += strcspn(p + 1, "\n") > strcspn(p + 1, ">");
    assert_int_equal(svg_boxes(svg, "edge", &e), arrows);
    assert_true(arrows > 500);
    free(b);
    free(cl);
    free(e);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* Without neato on the PATH, --svg says what to install and leaves no
 * file; the summary is still printed. */
/* The id of the box of block_ROW_COL in a --level pe dot source, -1. */
static int pe_id(const char *dot, int row, int col)
{
    char key[64];
    snprintf(key, sizeof key, " [label=\"block_%d_%d\"", row, col);
    const char *s = strstr(dot, key);
    int id = -1;
    while (s && s > dot && s[-1] != 'b')
        s--;
    if (s && s > dot)
        sscanf(s, "%d", &id);
    return id;
}

/* cgramap arch --level pe: one box per block at its grid point (16 on
 * hetero_4x4), each labelled with its FuncUnit's op classes (hetero_4x4
 * multiplies in a checkerboard) and its other units; one arrow per pair
 * of connected blocks, so diagonal.xml's diagonal and anti-diagonal
 * neighbours are linked by two-headed arrows.  A bad --level is a usage
 * error. */
static void test_arch_pe_svg(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_cli_peXXXXXX", dot[64], svg[64], cmd[96];
    static char src[65536];
    assert_non_null(mkdtemp(dir));
    snprintf(dot, sizeof dot, "%s/pe.dot", dir);
    snprintf(svg, sizeof svg, "%s/pe.svg", dir);
    run r;
    run_cgramap(&r, (const char *const[]){
        "arch", "--arch", "benchmarks/archs/hetero_4x4.xml", "--level", "pe",
        "--dot", dot, "--svg", svg, NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_int_equal(svg_check_positions(dot, svg), 16);
    slurp(dot, src, sizeof src);
    assert_non_null(strstr(src, "  b0 [label=\"block_0_0\" + \"\\nadd logic "
                                "mul\" + \"\\nreg\", tooltip=\"block_0_0\", "
                                "fillcolor=lightblue, pos=\"0,0!\"];\n"));
    assert_non_null(strstr(src, "  b1 [label=\"block_0_1\" + \"\\nadd logic"
                                "\" + \"\\nreg\", tooltip=\"block_0_1\", "
                                "fillcolor=lightblue, pos=\"170,0!\"];\n"));
    run_cgramap(&r, (const char *const[]){
        "arch", "--arch", "benchmarks/archs/diagonal.xml", "--level", "pe",
        "--dot", dot, "--svg", svg, NULL});
    assert_int_equal(r.status, 0);
    slurp(dot, src, sizeof src);
    svg_box *e;
    int ne = svg_boxes(svg, "edge", &e);
    const int pairs[2][4] = {{1, 1, 2, 2}, {1, 2, 2, 1}};
    for (int i = 0; i < 2; i++) {
        int a = pe_id(src, pairs[i][0], pairs[i][1]),
            b = pe_id(src, pairs[i][2], pairs[i][3]);
        char line[64], title[32];
        assert_true(a >= 0 && b > a);
        snprintf(line, sizeof line, "\n  b%d -> b%d [dir=both];\n", a, b);
        assert_non_null(strstr(src, line));
        snprintf(title, sizeof title, "b%d->b%d", a, b);
        assert_non_null(svg_find(e, ne, title));
    }
    free(e);
    run_cgramap(&r, (const char *const[]){"arch", "--level", "box", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap arch: Invalid value for --level: box"
                        " (prim or pe)\n");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_arch_svg_no_neato(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_cli_svgXXXXXX", svg[64], want[256];
    assert_non_null(mkdtemp(dir));
    snprintf(svg, sizeof svg, "%s/a.svg", dir);
    run r;
    run_without_neato(&r, dir, (const char *const[]){"arch", "--svg", svg,
                                                     NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "primitives: 152"));
    snprintf(want, sizeof want, "%s: error: drawing this picture needs "
             "graphviz's neato, which is not installed (apt-get install "
             "graphviz)\n", svg);
    assert_string_equal(r.err, want);
    assert_int_equal(access(svg, F_OK), -1);
    assert_int_equal(rmdir(dir), 0);
}

static void test_arch_bad_xml(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){
        "arch", "--arch", "tests/cli/data/bad.xml", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err,
        "tests/cli/data/bad.xml:4: error: malformed XML: Opening and ending "
        "tag mismatch: module line 2 and architecture; fix the XML syntax "
        "there\n");
}

static void test_arch_usage(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"arch", "--zz", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, "cgramap arch: unknown option '--zz' "
                               "(see cgramap arch --help)\n");
    run_cgramap(&r, (const char *const[]){"arch", "--arch", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err,
                        "cgramap arch: option '--arch' needs a value\n");
    run_cgramap(&r, (const char *const[]){"arch", "--templates", "t.xml",
                                          NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap arch: --templates needs --arch\n");
}

static void test_arch_unwritable_dot(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){
        "arch", "--dot", "/nonexistent_dir/a.dot", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err,
        "/nonexistent_dir/a.dot: error: cannot write this file (No such file or "
        "directory)\n");
}

static void test_dfg(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){
        "dfg", "benchmarks/microbench/fir/fir.c", "--loop", "fir", NULL});
    assert_int_equal(r.status, 0);
    /* the dot format itself is dfg/'s to test; here: one graph, named */
    assert_memory_equal(r.out, "digraph", 7);
    assert_non_null(strstr(r.out, "fir"));
    assert_string_equal(r.err, "");
    run_cgramap(&r, (const char *const[]){
        "dfg", "benchmarks/microbench/fir/fir.c", "--loop", "nosuch", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "benchmarks/microbench/fir/fir.c: error: no "
                        "loop tagged 'nosuch' (tags in the file: fir)\n");
}

/* `cgramap dfg` states the memory order of the nest in the .dot, so
 * `cgramap map` on that file orders only the bins' load and store: MII 2,
 * as from the C file (7 when every pair was ordered). */
static void test_dfg_memory_order(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_dfg_XXXXXX", dot[64];
    assert_non_null(mkdtemp(dir));
    snprintf(dot, sizeof dot, "%s/histogram.dot", dir);
    run r;
    run_cgramap(&r, (const char *const[]){
        "dfg", "benchmarks/microbench/histogram/histogram.c", "-o", dot,
        NULL});
    assert_int_equal(r.status, 0);
    char text[16384];
    slurp(dot, text, sizeof text);
    assert_non_null(strstr(text, "\n    graph [memory_order=\"load14->"
                                 "store16:0 load14->store16:1 store16->"
                                 "load14:1 store16->store16:1\"];\n"));
    run_cgramap(&r, (const char *const[]){"map", "--timeout", "30", dot,
                                          NULL});
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
    mask_times(r.out);
    assert_string_equal(r.out,
        "loop             nodes ResMII RecMII bottleneck   II status          "
        "         proof                      time     FUs  util const  IO mem "
        "routes checked\n"
        "histogram           20      1      2 -             2 mapped          "
        "         optimal TIME    7/16   25%     8   1   3    131 yes\n");
    unlink(dot);
    rmdir(dir);
}

/* --sym as in DFG_FLAGS (both spellings, CGRA-ME's one dash too): the
 * graph holds no symbol values (they reach the nest's trip counts and the
 * native run), so the .dot is the one without them; a malformed value is
 * a usage error. */
static void test_dfg_sym(void **state)
{
    (void)state;
    static run plain, with;
    const char *c = "benchmarks/microbench/nomem1/nomem1.c";
    run_cgramap(&plain, (const char *const[]){"dfg", c, NULL});
    assert_int_equal(plain.status, 0);
    run_cgramap(&with, (const char *const[]){"dfg", c, "--sym", "n=50",
                                             "-sym=seed=7", NULL});
    assert_int_equal(with.status, 0);
    assert_string_equal(with.err, "");
    assert_string_equal(with.out, plain.out);
    run_cgramap(&with, (const char *const[]){"dfg", c, "--sym", "n=5x",
                                             NULL});
    assert_int_equal(with.status, 2);
    assert_string_equal(with.out, "");
    assert_string_equal(with.err, "cgramap dfg: Invalid value for --sym: "
                        "n=5x (NAME=INTEGER)\n");
}

/* The Makefile beside FILE.c applies as in the main job:
 * benchmarks/tiled/gemm's CFLAGS keep C[i][j]'s load and store in the
 * tagged loop (4 memory ops; 2 without them); --cflags replaces its
 * CFLAGS, --no-makefile ignores it.  A Makefile with a wrong flag is an
 * error at its file:line, exit 1; --no-makefile extracts all the same. */
static int mem_ops(const char *dot)
{
    int k = 0;
    for (const char *p = dot; (p = strstr(p, "[opcode=")); p++)
        k += !strncmp(p + 8, "load ", 5) || !strncmp(p + 8, "store ", 6);
    return k;
}

static void test_dfg_makefile(void **state)
{
    (void)state;
    static run r;
    const char *gemm = "benchmarks/tiled/gemm/gemm.c";
    run_cgramap(&r, (const char *const[]){"dfg", gemm, NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_int_equal(mem_ops(r.out), 4);
    run_cgramap(&r, (const char *const[]){"dfg", gemm, "--no-makefile",
                                          NULL});
    assert_int_equal(r.status, 0);
    assert_int_equal(mem_ops(r.out), 2);
    run_cgramap(&r, (const char *const[]){"dfg", gemm, "--cflags", "",
                                          NULL});
    assert_int_equal(r.status, 0);
    assert_int_equal(mem_ops(r.out), 2);

    char dir[] = "/tmp/cg_dfgmkXXXXXX", cmd[256], c[64], want[512];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cp benchmarks/microbench/sum/sum.c %s/k.c && "
             "printf 'LOOP_TAGS = sum\\nDFG_FLAGS = -bogus\\n' > "
             "%s/Makefile", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(c, sizeof c, "%s/k.c", dir);
    run_cgramap(&r, (const char *const[]){"dfg", c, NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    snprintf(want, sizeof want, "%s/Makefile:2: error: unknown DFG flag "
             "'-bogus' (known: -no-phi-removal, -no-leaf-removal, -no-hoist, "
             "--sym NAME=VALUE, -loop-tags 'TAGS' in a Makefile)\n", dir);
    assert_string_equal(r.err, want);
    run_cgramap(&r, (const char *const[]){"dfg", c, "--no-makefile", NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "digraph sum {\n"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A tag names files (--mapping-dir DIR/BENCH.TAG.txt): one with a '/'
 * is refused at its line ("x/../../pwned" once wrote outside DIR). */
static void test_dfg_tag_with_slash(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_tagXXXXXX", c[64], want[256];
    temp_file(dir, "esc.c", "int a[8];\nvoid k(void)\n{\n    for (int i = 0; "
              "i < 8; i++) //DFGLOOP: x/../../pwned\n        a[i] = i;\n}\n",
              c, sizeof c);
    static run r;
    run_cgramap(&r, (const char *const[]){"dfg", c, NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    snprintf(want, sizeof want, "%s:4: error: loop tag 'x/../../pwned' has a "
             "'/'; a tag names the loop's files, so write it without one "
             "(letters, digits, '_', '-', '.')\n", c);
    assert_string_equal(r.err, want);
    remove_temp(dir);
}

static void test_dfg_usage(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"dfg", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err,
                        "cgramap dfg: missing FILE.c (see cgramap dfg --help)\n");
    run_cgramap(&r, (const char *const[]){"dfg", "a.c", "b.c", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap dfg: give exactly one FILE.c "
                               "(see cgramap dfg --help)\n");
    run_cgramap(&r, (const char *const[]){"dfg", "--addr-width", "65", "a.c",
                                          NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap dfg: --addr-width takes 1..64 bits, "
                               "not '65'\n");
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p++)
        n++;
    return n;
}

/* saxpy's index arithmetic: 10 of its 18 nodes are 64 bits in LLVM, none
 * at the default address width 32. */
static void test_dfg_addr_width(void **state)
{
    (void)state;
    const char *c = "benchmarks/microbench/saxpy/saxpy.c";
    run r;
    run_cgramap(&r, (const char *const[]){"dfg", c, NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_int_equal(count(r.out, "width=64"), 0);
    assert_int_equal(count(r.out, "width=32"), 16);
    run_cgramap(&r, (const char *const[]){"dfg", "--addr-width", "64", c,
                                          NULL});
    assert_int_equal(r.status, 0);
    assert_int_equal(count(r.out, "width=64"), 10);
}

static void test_map_usage(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"map", "--timeout", "abc",
                                          "x.dot", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap map: Invalid value for --timeout: "
                               "abc (seconds, more than 0 and at most 1e9)\n");
    run_cgramap(&r, (const char *const[]){"map", "--max-ii", "2.5", "x.dot",
                                          NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap map: Invalid value for --max-ii: 2.5"
                               " (a whole number from 1 to 64)\n");
    /* past the limits (CG_MAP_MAX_II, CG_MAP_MAX_SAT_HORIZON): refused */
    static const char *const past[][4] = {
        {"map", "--max-ii", "65", "cgramap map: Invalid value for --max-ii: "
                                  "65 (a whole number from 1 to 64)\n"},
        {"map", "--horizon", "65", "cgramap map: Invalid value for "
                                   "--horizon: 65 (a whole number from 0 to "
                                   "64)\n"},
        {NULL, "--horizon", "65", "cgramap: Invalid value for --horizon: 65 "
                                  "(a whole number from 0 to 64)\n"},
    };
    for (size_t i = 0; i < sizeof past / sizeof *past; i++) {
        const char *const *w = past[i];
        const char *const argv[] = {w[0], w[1], w[2], "x.dot", NULL};
        run_cgramap(&r, w[0] ? argv : argv + 1);
        assert_int_equal(r.status, 2);
        assert_string_equal(r.err, w[3]);
    }
    /* an empty file name (a --dump-lp prefix "" wrote a file named "-2";
       an empty --json path failed naming no file) */
    run_cgramap(&r, (const char *const[]){"map", "--dump-lp", "", "x.dot",
                                          NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap map: --dump-lp needs a file name, "
                               "not an empty one\n");
    run_cgramap(&r, (const char *const[]){"--json", "", "x", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: --json needs a file name, not an "
                               "empty one\n");
    /* an option where the name should be (`--json --no-progress` wrote a
       file named --no-progress); "-" alone is standard output, for files */
    static const char *const named[][5] = {
        {"--json", "--no-progress", "x", NULL,
         "cgramap: --json needs a file name, not the option '--no-progress' "
         "(a file whose name starts with '-': ./--no-progress)\n"},
        {"merge", "--csv", "-j", "p.json",
         "cgramap merge: --csv needs a file name, not the option '-j' (a "
         "file whose name starts with '-': ./-j)\n"},
        {"dfg", "-o", "--loop", "k.c",
         "cgramap dfg: -o needs a file name, not the option '--loop' (a "
         "file whose name starts with '-': ./--loop)\n"},
        /* "-" is no folder or prefix */
        {"map", "--dump-lp", "-", "x.dot",
         "cgramap map: --dump-lp needs a name, not '-' (standard output "
         "takes files only; one named '-': ./-)\n"},
        {"--report", "-", "x", NULL,
         "cgramap: --report needs a name, not '-' (standard output takes "
         "files only; one named '-': ./-)\n"},
    };
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        const char *const argv[] = {named[i][0], named[i][1], named[i][2],
                                    named[i][3], NULL};
        run_cgramap(&r, argv);
        assert_int_equal(r.status, 2);
        assert_string_equal(r.err, named[i][4]);
    }
    /* an unknown short option inside a group is named as written (the
       argument before the group was named: the program, 'map') */
    run_cgramap(&r, (const char *const[]){"-sym", "a=3", "x", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: unknown option '-s' (see cgramap "
                               "--help)\n");
    run_cgramap(&r, (const char *const[]){"map", "-sym", "a=1", "x.dot",
                                          NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap map: unknown option '-s' (see "
                               "cgramap map --help)\n");
    run_cgramap(&r, (const char *const[]){"--no-progress", "-xj", "2", "x",
                                          NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: unknown option '-x' (see cgramap "
                               "--help)\n");
    run_cgramap(&r, (const char *const[]){"map", "--solver", "CBC", "x.dot",
                                          NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap map: Invalid value for --solver: "
                               "CBC (glpk or cbc)\n");
    /* --ii above a later --max-ii: the loop's error, exit 1 */
    run_cgramap(&r, (const char *const[]){"map", "--ii", "3", "--max-ii",
                                          "2",
                                          "tests/cli/data/bench/loose/acc.dot",
                                          NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "tests/cli/data/bench/loose/acc.dot: error: "
                               "the lowest II allowed (3) is above the "
                               "highest (2): give --ii alone, or a --max-ii "
                               "of at least 3\n");
    /* ... and its row, status error (map printed none) */
    assert_string_equal(r.out,
        "loop             nodes ResMII RecMII bottleneck   II status       "
        "            proof                      time     FUs  util const  "
        "IO mem routes checked\n"
        "acc                  3      -      - -             - error        "
        "            -                             -       -     -     -   "
        "-   -      - no\n");
    /* --ii 2 on a loop of MII 1: II 1 not tried, II 2 mapped */
    run_cgramap(&r, (const char *const[]){"map", "--ii", "2",
                                          "tests/cli/data/bench/loose/acc.dot",
                                          NULL});
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " 2 mapped "));
    assert_non_null(strstr(r.out, "open: II 1 "));
    assert_non_null(strstr(r.err, "II 1 was not tried"));
    run_cgramap(&r, (const char *const[]){"map", "--sym", "c=5", "x.dot",
                                          NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap map: --sym changes nothing here: "
                               "symbol values reach only the reference run, "
                               "and map runs none; give them to cgramap sim "
                               "(a saved mapping run on data) or to the main "
                               "job\n");
    run_cgramap(&r, (const char *const[]){"map", NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap map: give exactly one LOOP.dot"
                               " (see cgramap map --help)\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_bad_usage),
        cmocka_unit_test(test_arch_default_summary),
        cmocka_unit_test(test_arch_shipped_summary),
        cmocka_unit_test(test_arch_default_templates),
        cmocka_unit_test(test_example_arch_unsupported),
        cmocka_unit_test(test_large_archs_map),
        cmocka_unit_test(test_liveout_needs_io),
        cmocka_unit_test(test_arch_dot),
        cmocka_unit_test(test_arch_svg),
        cmocka_unit_test(test_arch_pe_svg),
        cmocka_unit_test(test_arch_svg_no_neato),
        cmocka_unit_test(test_arch_bad_xml),
        cmocka_unit_test(test_arch_usage),
        cmocka_unit_test(test_arch_unwritable_dot),
        cmocka_unit_test(test_dfg),
        cmocka_unit_test(test_dfg_memory_order),
        cmocka_unit_test(test_dfg_sym),
        cmocka_unit_test(test_dfg_makefile),
        cmocka_unit_test(test_dfg_tag_with_slash),
        cmocka_unit_test(test_dfg_usage),
        cmocka_unit_test(test_dfg_addr_width),
        cmocka_unit_test(test_map_usage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
