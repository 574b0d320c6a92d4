/* test_extract.c: the extractor's errors (exact messages and lines), its
 * options, the loop nest it records, and the CGRA-ME dot form of every
 * benchmark DFG (write -> read -> write is byte-identical). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extract/extract.h"
#include "tests/common/golden.h"

static const char *const benches[] = {
    "accumulate", "bicg", "cap", "conv2", "conv3", "dot", "fir", "gemm",
    "gemv", "histogram", "initrec", "jacobi2d", "mac", "mac2",
    "matrixmultiply", "mults1", "mults2", "narrow", "nomem1", "relu", "saxpy",
    "simple", "simple2", "sobel", "stride", "sum"};

static char *diag(const cg_diags *d, int i)
{
    return cg_diag_format(cg_diags_get(d, i));
}

static void assert_diag(const cg_diags *d, int i, const char *want)
{
    assert_true(i < cg_diags_size(d));
    char *s = diag(d, i);
    assert_string_equal(s, want);
    free(s);
}

static cg_dfg *extract(const char *path, const char *tag,
                       const cg_extract_params *p)
{
    cg_diags *d = cg_diags_create();
    cg_dfg **gs = NULL;
    int n = 0;
    int rc = cg_extract_file(path, tag, p, &gs, &n, d);
    if (rc || n != 1)
        cg_diags_print(d, stderr);
    assert_int_equal(rc, 0);
    assert_int_equal(n, 1);
    cg_dfg *g = gs[0];
    free(gs);
    cg_diags_destroy(d);
    return g;
}

static int count_op(const cg_dfg *g, cg_op op)
{
    int k = 0;
    for (int i = 0; i < cg_dfg_nnodes(g); i++)
        k += cg_dfg_get_node(g, i)->op == op;
    return k;
}

/* -O0 among the extra clang flags leaves sum's body in 3 blocks: the
 * message names the flag (it sent the user to rewrite the loop). */
static void test_low_opt_named(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_extract_params p;
    cg_extract_params_init(&p);
    p.cflags = "-g -O0";
    cg_dfg **gs = NULL;
    int n = 0;
    assert_int_equal(cg_extract_file("benchmarks/microbench/sum/sum.c", NULL,
                                     &p, &gs, &n, d), -1);
    assert_int_equal(n, 0);
    assert_diag(d, 0, "benchmarks/microbench/sum/sum.c:9: error: loop 'sum': "
                "has 3 blocks in its body; only single-block bodies are "
                "supported (write if/else as ?: without stores inside, or "
                "tag the inner loop); the extra clang flag '-O0' lowers the "
                "-O2 that makes one block: leave it out");
    free(gs);
    cg_diags_destroy(d);
}

/* One bad loop never stops the others; each says why, at its line. */
static void test_errors(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_dfg **gs = NULL;
    int n = 0;
    assert_int_equal(cg_extract_file("tests/extract/data/errors.c", NULL, NULL,
                                     &gs, &n, d), -1);
    assert_int_equal(cg_diags_size(d), 5);
    assert_diag(d, 0, "tests/extract/data/errors.c:9: error: loop 'call': calls "
                "'lookup'; calls are not supported in loop bodies (make the "
                "callee static inline or move the call out of the loop)");
    assert_diag(d, 1, "tests/extract/data/errors.c:15: error: loop 'blocks': has "
                "3 blocks in its body; only single-block bodies are "
                "supported (write if/else as ?: without stores inside, or "
                "tag the inner loop)");
    assert_diag(d, 2, "tests/extract/data/errors.c:24: error: loop 'exits': has 2 "
                "exits; only loops with one exit are supported (remove the "
                "break, return or goto)");
    assert_diag(d, 3, "tests/extract/data/errors.c:39: error: loop 'nowhere' not "
                "found: no loop of the optimized code spans this line (the "
                "optimizer removed or fully unrolled it, or the tag is not "
                "inside a loop)");
    assert_diag(d, 4, "tests/extract/data/errors.c:48: error: loop 'gone' not "
                "found: the loop at line 48 is gone from the optimized code "
                "(fully unrolled, replaced by a formula or removed); the "
                "nearest remaining loop starts at line 46");
    assert_int_equal(n, 1);
    assert_string_equal(cg_dfg_name(gs[0]), "good");
    cg_dfg_destroy(gs[0]);
    free(gs);
    cg_diags_destroy(d);
}

/* Phis that feed each other round a cycle are refused (they once
 * recursed until the stack overflowed); a chain of phis is read. */
static void test_phi_cycle(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_dfg **gs = NULL;
    int n = 0;
    assert_int_equal(cg_extract_file("tests/extract/data/phis.c", "rotate",
                                     NULL, &gs, &n, d), -1);
    assert_int_equal(n, 0);
    assert_int_equal(cg_diags_size(d), 1);
    assert_diag(d, 0, "tests/extract/data/phis.c:31: error: loop 'rotate': "
                "keeps values in a cycle of phis with no operation between "
                "them (values rotated from one iteration to the next); "
                "cgramap cannot give such a cycle its registers: compute one "
                "of the rotated values in the loop body");
    free(gs);
    gs = NULL;
    assert_int_equal(cg_extract_file("tests/extract/data/phis.c", "three",
                                     NULL, &gs, &n, d), 0);
    assert_int_equal(n, 1);
    assert_int_equal(cg_diags_size(d), 1);
    cg_dfg_destroy(gs[0]);
    free(gs);
    cg_diags_destroy(d);
}

static void test_no_such_tag(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_dfg **gs = NULL;
    int n = 0;
    assert_int_equal(cg_extract_file("tests/extract/data/errors.c", "nosuch",
                                     NULL, &gs, &n, d), -1);
    assert_int_equal(n, 0);
    assert_int_equal(cg_diags_size(d), 1);
    assert_diag(d, 0, "tests/extract/data/errors.c: error: no loop tagged "
                "'nosuch' (tags in the file: call, blocks, exits, good, "
                "nowhere, gone)");
    free(gs);
    cg_diags_destroy(d);
}

/* clang's first error at its line, everything it said as notes. */
static void test_clang_error(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_extract_params p;
    cg_extract_params_init(&p);
    assert_null(cg_extract_open("tests/extract/data/broken.c", &p, d));
    assert_int_equal(cg_diags_errors(d), 1);
    assert_diag(d, 0, "tests/extract/data/broken.c:6: error: clang-16: use of "
                "undeclared identifier 'undeclared'");
    assert_diag(d, 1, "note: broken.c:6:16: error: use of undeclared "
                "identifier 'undeclared'");
    cg_diags_destroy(d);
}

/* CFLAGS reach clang. */
static void test_cflags(void **state)
{
    (void)state;
    cg_extract_params p;
    cg_extract_params_init(&p);
    p.cflags = "-DN=12 -Wall";
    cg_dfg *g = extract("tests/extract/data/cflags.c", "scale", &p);
    assert_int_equal(cg_extract_trip(g), 12);
    cg_dfg_destroy(g);
    cg_diags *d = cg_diags_create();
    assert_null(cg_extract_open("tests/extract/data/cflags.c", NULL, d));
    assert_diag(d, 0, "tests/extract/data/cflags.c:3: error: clang-16: \"compile "
                "with -DN=<size>\"");
    cg_diags_destroy(d);
}

static void test_missing_file(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    assert_null(cg_extract_open("tests/extract/data/none.c", NULL, d));
    assert_diag(d, 0, "tests/extract/data/none.c: error: cannot read the file: "
                "No such file or directory");
    /* a folder: once "cannot read clang's bitcode" (fopen takes it) */
    assert_null(cg_extract_open("tests/extract/data", NULL, d));
    assert_int_equal(cg_diags_size(d), 2);
    assert_diag(d, 1, "tests/extract/data: error: is a directory, not a C file; "
                "name a .c file with //DFGLOOP tags");
    cg_diags_destroy(d);
}

/* clang's messages: the first 8 lines as notes, then how many more (a
 * binary .c once echoed 16 KB); a binary is refused before clang runs. */
static void test_clang_noise(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    assert_null(cg_extract_open("tests/extract/data/noisy.c", NULL, d));
    assert_int_equal(cg_diags_size(d), 10);
    assert_diag(d, 0, "tests/extract/data/noisy.c:2: error: clang-16: unknown "
                "type name 'not'");
    assert_diag(d, 1, "note: noisy.c:2:1: error: unknown type name 'not'");
    assert_diag(d, 8, "note: noisy.c:3:1: error: unknown type name 'not'");
    assert_diag(d, 9, "note: (35 more lines of clang's messages not shown)");
    cg_diags_clear(d);
    assert_null(cg_extract_open("tests/extract/data/nul.c", NULL, d));
    assert_int_equal(cg_diags_size(d), 1);
    assert_diag(d, 0, "tests/extract/data/nul.c:3: error: a NUL byte; a C file is "
                "text (is this the right file?)");
    cg_diags_destroy(d);
}

/* Tags inside a block comment are commented out (a warning says so),
 * inside a string they are text; a tag on a line starting two loops names
 * the last one with a warning naming both columns (once silent). */
static void test_tag_reader(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_extract_prog *x = cg_extract_open("tests/extract/data/tags.c", NULL, d);
    assert_non_null(x);
    assert_int_equal(cg_extract_ntags(x), 2);
    assert_string_equal(cg_extract_tag(x, 0), "k");
    assert_int_equal(cg_extract_tag_line(x, 0), 11);
    assert_string_equal(cg_extract_tag(x, 1), "two");
    assert_int_equal(cg_diags_size(d), 1);
    assert_diag(d, 0, "tests/extract/data/tags.c:5: warning: a //DFGLOOP tag "
                "inside a /* */ comment is ignored; take it out of the "
                "comment to extract the loop");
    cg_diags_clear(d);
    cg_dfg *g = cg_extract_loop(x, "two", d);
    assert_non_null(g);
    assert_int_equal(cg_diags_size(d), 1);
    assert_diag(d, 0, "tests/extract/data/tags.c:16: warning: loop tag 'two': 2 "
                "loops start on line 16 (columns 5, 33); the tag names the "
                "last one, at column 33; put each loop on a line of its own "
                "to tag another");
    cg_dfg_destroy(g);
    cg_extract_close(x);
    cg_diags_destroy(d);
}

/* A kernel parameter the loop uses without a value: the native run
 * passes the default (16) and its note names it. */
static void test_run_needs_parameter(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_extract_prog *x = cg_extract_open("tests/extract/data/errors.c", NULL, d);
    assert_non_null(x);
    cg_mem m;
    assert_int_equal(cg_extract_image(x, &m), 0);
    assert_int_equal(cg_extract_run(x, "good", &m, NULL, NULL, NULL, d), -1);
    assert_diag(d, 0, "tests/extract/data/errors.c: error: loop 'good' was not "
                "extracted; extract it before running it");
    cg_diags_clear(d);
    cg_dfg *g = cg_extract_loop(x, "good", d);
    assert_non_null(g);
    cg_diags_clear(d);
    int64_t n = 0;
    assert_int_equal(cg_extract_run(x, "good", &m, NULL, NULL, &n, d), 0);
    assert_int_equal(n, 1);
    assert_int_equal(cg_diags_size(d), 1);
    assert_diag(d, 0, "tests/extract/data/errors.c: note: loop 'good': the "
                "native run assumes what nothing in the file sets: kernel "
                "'good' parameter k = 16 (the default; --sym k=VALUE sets "
                "it)");
    free(m.data);
    cg_dfg_destroy(g);
    cg_extract_close(x);
    cg_diags_destroy(d);
}

/* Run loop tag of params.c with no symbols; the number of executions. */
static int64_t run_params(cg_extract_prog *x, const char *tag, int rc,
                          cg_diags *d)
{
    cg_dfg *g = cg_extract_loop(x, tag, d);
    assert_non_null(g);
    cg_mem m;
    assert_int_equal(cg_extract_image(x, &m), 0);
    int64_t n = -1;
    assert_int_equal(cg_extract_run(x, tag, &m, NULL, NULL, &n, d), rc);
    free(m.data);
    cg_dfg_destroy(g);
    return n;
}

/* A parameter the tagged loop does not use needs no value: the run passes
 * 0 and says so.  One the loop uses, or that bounds a loop around it,
 * gets the default, 16, named in the run's note (the nest runs the inner
 * loop 16 times). */
static void test_run_unused_parameter(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_extract_prog *x = cg_extract_open("tests/extract/data/params.c", NULL, d);
    assert_non_null(x);
    assert_int_equal(run_params(x, "plain", 0, d), 1);
    assert_int_equal(cg_diags_size(d), 1);
    assert_diag(d, 0, "tests/extract/data/params.c: note: kernel 'kernel': "
                "parameter 'c' has no value, and neither loop 'plain' nor a "
                "loop around it uses it, so the native run passes 0");
    cg_diags_clear(d);
    assert_int_equal(run_params(x, "scaled", 0, d), 1);
    assert_int_equal(cg_diags_size(d), 1);
    assert_diag(d, 0, "tests/extract/data/params.c: note: loop 'scaled': the "
                "native run assumes what nothing in the file sets: kernel "
                "'kernel' parameter c = 16 (the default; --sym c=VALUE sets "
                "it)");
    cg_diags_clear(d);
    assert_int_equal(run_params(x, "inner", 0, d), 16);
    assert_diag(d, 0, "tests/extract/data/params.c: note: loop 'inner': the "
                "native run assumes what nothing in the file sets: kernel "
                "'nest' parameter m = 16 (the default; --sym m=VALUE sets "
                "it)");
    cg_extract_close(x);
    cg_diags_destroy(d);
}

/* Makefile variables and DFG flags, CGRA-ME spellings. */
static void test_makefile(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_extract_makefile m;
    assert_int_equal(cg_extract_makefile_read(
                         "benchmarks/microbench/nomem1/Makefile", &m, d), 0);
    assert_string_equal(m.loop_tags, "nomem1");
    assert_string_equal(m.dfg_flags, "--sym n=50 --sym seed=7");
    assert_string_equal(m.cflags, "");
    cg_extract_params p;
    cg_extract_params_init(&p);
    assert_int_equal(cg_extract_params_parse(&p, m.dfg_flags, "Makefile", d),
                     0);
    assert_int_equal(p.nsyms, 2);
    assert_string_equal(p.syms[1].name, "seed");
    assert_int_equal(p.syms[1].value, 7);
    char flags[] = "-no-phi-removal --sym=k=-3 -no-leaf-removal -no-hoist -O3";
    assert_int_equal(cg_extract_params_parse(&p, flags, "Makefile", d), -1);
    assert_false(p.phi_removal);
    assert_false(p.leaf_removal);
    assert_false(p.hoist);
    assert_int_equal(p.syms[2].value, -3);
    assert_diag(d, 0, "Makefile: error: unknown DFG flag '-O3' (known: "
                "-no-phi-removal, -no-leaf-removal, -no-hoist, --sym NAME=VALUE, "
                "-loop-tags 'TAGS' in a Makefile)");
    /* CGRA-ME's one-dash spelling, as the command line takes it */
    char one_dash[] = "-sym j=4 -sym=i=5";
    assert_int_equal(cg_extract_params_parse(&p, one_dash, "Makefile", d), 0);
    assert_string_equal(p.syms[3].name, "j");
    assert_int_equal(p.syms[3].value, 4);
    assert_string_equal(p.syms[4].name, "i");
    assert_int_equal(p.syms[4].value, 5);
    char bad[] = "--sym k";
    assert_int_equal(cg_extract_params_parse(&p, bad, "Makefile", d), -1);
    assert_diag(d, 1, "Makefile: error: --sym needs NAME=INTEGER, got 'k'");
    cg_extract_makefile_free(&m);
    cg_diags_destroy(d);
}

#define MK "tests/extract/data/make/"

/* CGRA-ME's folders: `include ../../rules.mk` is followed (relative to the
 * Makefile), its ?= defaults apply where the Makefile set nothing, and the
 * -loop-tags '$(LOOP_TAGS)' it adds to DFG_FLAGS names the loops. */
static void test_makefile_include(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_extract_makefile m;
    assert_int_equal(cg_extract_makefile_read(MK "bench/two/Makefile", &m, d),
                     0);
    assert_int_equal(cg_diags_size(d), 0);
    assert_string_equal(m.loop_tags, "loop1 loop2");
    assert_string_equal(m.dfg_flags, "");
    assert_string_equal(m.cflags, "-O3");
    cg_extract_makefile_free(&m);
    assert_int_equal(cg_extract_makefile_read(MK "bench/dflt/Makefile", &m,
                                              d), 0);
    assert_string_equal(m.loop_tags, "loop");
    assert_string_equal(m.cflags, "-O3");
    cg_extract_makefile_free(&m);
    assert_int_equal(cg_diags_size(d), 0);
    /* make's comment that goes on after a '\' and another variable's
     * define body are not assignments (CFLAGS was -O9, then -O8) */
    assert_int_equal(cg_extract_makefile_read(MK "skipped/Makefile", &m, d),
                     0);
    assert_int_equal(cg_diags_size(d), 0);
    assert_null(m.cflags);
    assert_string_equal(m.loop_tags, "cap");
    assert_string_equal(m.dfg_flags, "-sym=limit=1000");
    cg_extract_makefile_free(&m);
    /* a 36 KB line, continued: once cut at 4 KB into two lines */
    assert_int_equal(cg_extract_makefile_read(MK "longline/Makefile", &m, d),
                     0);
    assert_int_equal(strlen(m.cflags), 36784);
    assert_true(!strncmp(m.cflags, "-DX0=0 -DX1=1 ", 14));
    assert_string_equal(m.cflags + 36784 - 17, "-DX2999=2999  -O2");
    cg_extract_makefile_free(&m);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
}

/* What cgramap cannot take is an error at the line that wrote it. */
static void test_makefile_errors(void **state)
{
    (void)state;
    static const struct {
        const char *dir, *want;
    } cases[] = {
        {"bad", MK "bad/Makefile:2: error: unknown DFG flag '-O2' (known: "
                "-no-phi-removal, -no-leaf-removal, -no-hoist, --sym NAME=VALUE, "
                "-loop-tags 'TAGS' in a Makefile)"},
        {"clash", MK "clash/Makefile:2: error: -loop-tags 'a c' names other "
                  "loops than LOOP_TAGS = a b (" MK "clash/Makefile:1); "
                  "give the tags once, in LOOP_TAGS"},
        {"noinc", MK "noinc/Makefile:3: error: cannot read the included "
                  "file '" MK "noinc/../missing.mk': No such file or "
                  "directory (make reads it relative to the Makefile's "
                  "folder)"},
        {"cond", MK "cond/Makefile:3: error: cgramap does not evaluate "
                 "make conditionals (ifeq, ifdef, ...); set CFLAGS outside "
                 "them"},
        {"shell", MK "shell/Makefile:1: error: cgramap does not run make "
                  "functions such as '$(shell echo -g)'; write the value "
                  "out"},
        /* once skipped in silence: DFG_FLAGS kept --sym limit=1000 */
        {"define", MK "define/Makefile:3: error: cgramap does not read "
                   "'define DFG_FLAGS' (a multi-line value); write "
                   "DFG_FLAGS = VALUE on one line"},
        {"undefine", MK "undefine/Makefile:3: error: cgramap does not run "
                     "'undefine DFG_FLAGS'; remove the line or write "
                     "DFG_FLAGS ="},
        /* found by fuzzing (docs/fuzzing.md): 16 GB and a hang, 2^30
         * references expanding to nothing (counted when undefined too), := doubling a value, /dev/zero
         * read forever, a folder read as an empty file; a chain of 40
         * variables and a real loop, once both "refers to itself" */
        {"double", MK "double/Makefile:3: error: expanding 'B0' takes more "
                   "than 1048576 bytes (variables that each use the one "
                   "before twice double at every step); write the value "
                   "out"},
        {"emptydouble", MK "emptydouble/Makefile:5: error: expanding "
                        "'E3' takes more than 65536 references "
                        "(variables that each use the one before twice "
                        "double at every step); write the value out"},
        {"doublenow", MK "doublenow/Makefile:19: error: expanding 'A' takes "
                      "more than 1048576 bytes (variables that each use the "
                      "one before twice double at every step); write the "
                      "value out"},
        {"zero", MK "zero/Makefile:2: error: '/dev/zero' is a device or "
                 "pipe, not a file; name a Makefile"},
        {"folder", MK "folder/Makefile:2: error: '" MK "folder/..' is a "
                   "directory, not a file; name a Makefile"},
        {"deep", MK "deep/Makefile:11: error: 'E9' is reached through more "
                 "than 32 nested references; cgramap stops there (write "
                 "the value out)"},
        {"loop", MK "loop/Makefile:2: error: variable 'B' refers to itself "
                 "(through $(...)); make refuses it too"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cg_diags *d = cg_diags_create();
        char path[256];
        snprintf(path, sizeof path, MK "%s/Makefile", cases[i].dir);
        cg_extract_makefile m;
        assert_int_equal(cg_extract_makefile_read(path, &m, d), -1);
        if (cg_diags_size(d) != 1)
            cg_diags_print(d, stderr);
        assert_int_equal(cg_diags_size(d), 1);
        assert_diag(d, 0, cases[i].want);
        assert_null(m.loop_tags);
        cg_diags_destroy(d);
    }
}

/* Defaults remove phis and dead leaves; the flags keep them.  Initial
 * values of recurrences are kept (initrec starts at 12345). */
static void test_phi_removal(void **state)
{
    (void)state;
    const char *path = "benchmarks/microbench/initrec/initrec.c";
    cg_extract_params p;
    cg_extract_params_init(&p);
    cg_dfg *g = extract(path, "initrec", &p);
    assert_int_equal(count_op(g, CG_OP_PHI), 0);
    bool init = false;
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        if (x->distance == 1 && x->init >= 0) {
            const cg_dfg_node *n = cg_dfg_get_node(g, x->init);
            init |= n->op == CG_OP_CONST && n->value == 12345;
        }
    }
    assert_true(init);
    cg_dfg_destroy(g);
    p.phi_removal = false;
    g = extract(path, "initrec", &p);
    assert_int_equal(count_op(g, CG_OP_PHI), 2); /* counter and s */
    cg_dfg_destroy(g);
}

/* Count the executions and iterations of a loop's native run. */
static void count_iters(void *arg, const cg_extract_instance *in)
{
    *(int64_t *)arg += in->iters;
}

/* CGRA-ME's shape (array_control): the exit compare goes with what only
 * it reads (loop_exit, the icmp, the input of the bound n), with and
 * without leaf removal; the native run still counts the iterations (n=10)
 * that verification takes.  An exit read from memory is warned about. */
static void test_array_control(void **state)
{
    (void)state;
    const char *path = "tests/extract/data/control.c";
    cg_extract_params p;
    cg_extract_params_init(&p);
    cg_dfg *g = extract(path, "bounded", &p);
    assert_int_equal(count_op(g, CG_OP_ICMP), 1);
    assert_int_equal(count_op(g, CG_OP_INPUT), 1);
    assert_true(cg_dfg_find(g, "loop_exit") >= 0);
    int full = cg_dfg_nnodes(g);
    cg_dfg_destroy(g);
    p.array_control = true;
    for (int leaves = 0; leaves < 2; leaves++) {
        p.leaf_removal = leaves == 0;
        g = extract(path, "bounded", &p);
        assert_int_equal(count_op(g, CG_OP_ICMP), 0);
        assert_int_equal(count_op(g, CG_OP_INPUT), 0);
        assert_int_equal(count_op(g, CG_OP_OUTPUT), 0);
        assert_int_equal(cg_dfg_find(g, "loop_exit"), -1);
        assert_int_equal(cg_dfg_nnodes(g), full - 3); /* exit, icmp, n */
        cg_dfg_destroy(g);
    }
    p.leaf_removal = true;
    p.nsyms = 1;
    p.syms[0] = (cg_extract_sym){"n", 10};
    cg_diags *d = cg_diags_create();
    cg_extract_prog *x = cg_extract_open(path, &p, d);
    assert_non_null(x);
    g = cg_extract_loop(x, "bounded", d);
    assert_non_null(g);
    cg_mem m;
    assert_int_equal(cg_extract_image(x, &m), 0);
    int64_t iters = 0;
    assert_int_equal(cg_extract_run(x, "bounded", &m, count_iters, &iters,
                                    NULL, d), 0);
    assert_int_equal(iters, 10);
    assert_int_equal(cg_diags_size(d), 0);
    free(m.data);
    cg_dfg_destroy(g);
    g = cg_extract_loop(x, "sentinel", d);
    assert_non_null(g);
    assert_diag(d, 0, "tests/extract/data/control.c:19: warning: loop "
                "'sentinel': its exit depends on memory (the load at line "
                "19); with the loop control left to the array's controller, "
                "the controller must know the trip count before the loop "
                "starts (cgramap verifies with the count of the native run)");
    cg_dfg_destroy(g);
    cg_extract_close(x);
    cg_diags_destroy(d);
}

/* The first execution's live-ins (by node id) and the number of probes. */
typedef struct first_in {
    int probes;
    uint64_t in0;
    int64_t iters; /* of the last execution */
} first_in;

static void keep_first(void *arg, const cg_extract_instance *in)
{
    first_in *f = arg;
    if (f->probes++ == 0)
        f->in0 = in->inputs[0];
}

static void keep_iters(void *arg, const cg_extract_instance *in)
{
    ((first_in *)arg)->iters = in->iters;
}

/* tests/extract/data/native.c: a null global pointer gets a seeded buffer
 * of its own ("*p", after everything else), so reading through it runs
 * and its live-in is the buffer's layout address, narrowed to 32 bits (a
 * pointer live-in lies in the layout); a pointer read only as a scalar
 * (*count) gets a buffer holding its value; a fixed-size stack array has its place in the layout
 * ("stacked.t", after the globals), its bytes copied in at the loop's
 * entry; one of variable size has none: the run says so and no execution
 * is compared; a loop clang folds is gone, and back with
 * keep_exit_values. */
static void test_native_corners(void **state)
{
    (void)state;
    const char *path = "tests/extract/data/native.c";
    cg_extract_params p;
    cg_extract_params_init(&p);
    p.nsyms = 1;
    p.syms[0] = (cg_extract_sym){"n", 8};
    cg_diags *d = cg_diags_create();
    cg_extract_prog *x = cg_extract_open(path, &p, d);
    assert_non_null(x);
    int gp = cg_extract_global_find(x, "p"), gb = cg_extract_global_find(x,
                                                                        "*p");
    int gt = cg_extract_global_find(x, "stacked.t");
    assert_true(cg_extract_global_get(x, gp)->is_ptr);
    assert_false(cg_extract_global_get(x, gb)->is_ptr);
    assert_true(cg_extract_global_get(x, gb)->is_buffer);
    assert_false(cg_extract_global_get(x, gb)->is_value);
    assert_int_equal(cg_extract_global_get(x, gb)->bytes, 4096);
    int gc = cg_extract_global_find(x, "*count");
    assert_true(gc > gb); /* buffers come last, in the globals' order */
    assert_true(cg_extract_global_get(x, gc)->is_value);
    assert_true(cg_extract_global_get(x, gc)->assumed);
    assert_int_equal(cg_extract_global_get(x, gc)->value,
                     CG_EXTRACT_PTR_VALUE);
    assert_true(gt >= 0);
    assert_true(cg_extract_global_get(x, gt)->is_stack);
    assert_int_equal(cg_extract_global_get(x, gt)->bytes, 4 * 32);
    cg_dfg *g = cg_extract_loop(x, "through", d);
    assert_non_null(g);
    assert_int_equal(cg_dfg_get_node(g, 0)->op, CG_OP_INPUT);
    assert_int_equal(cg_dfg_get_node(g, 0)->width, 32);
    cg_mem m;
    assert_int_equal(cg_extract_image(x, &m), 0);
    cg_extract_fill_random(x, &m, 7);
    uint64_t target;
    memcpy(&target, m.data + (cg_extract_global_get(x, gp)->base - m.base), 8);
    assert_int_equal(target, cg_extract_global_get(x, gb)->base);
    first_in f = {0};
    assert_int_equal(cg_extract_run(x, "through", &m, keep_first, &f, NULL,
                                    d), 0);
    assert_int_equal(f.probes, 1);
    assert_int_equal(f.in0, cg_extract_global_get(x, gb)->base);
    assert_diag(d, 0, "tests/extract/data/native.c: note: loop 'through': "
                "the native run assumes what nothing in the file sets: p "
                "points at a seeded buffer of 4096 bytes");
    cg_diags_clear(d);
    cg_dfg_destroy(g);
    /* the trip count read through count: 16 iterations by default, 5 with
     * --sym count=5; the note says which */
    g = cg_extract_loop(x, "counted", d);
    assert_non_null(g);
    int64_t runs;
    assert_int_equal(cg_extract_run(x, "counted", &m, keep_iters, &f, &runs,
                                    d), 0);
    assert_int_equal(f.iters, CG_EXTRACT_PTR_VALUE);
    assert_diag(d, 0, "tests/extract/data/native.c: note: loop 'counted': "
                "the native run assumes what nothing in the file sets: "
                "*count = 16 (the default; --sym count=VALUE sets it); p "
                "points at a seeded buffer of 4096 bytes");
    cg_diags_clear(d);
    cg_dfg_destroy(g);
    cg_extract_close(x);
    free(m.data);
    p.nsyms = 2;
    p.syms[1] = (cg_extract_sym){"count", 5};
    x = cg_extract_open(path, &p, d);
    assert_non_null(x);
    g = cg_extract_loop(x, "counted", d);
    assert_int_equal(cg_extract_image(x, &m), 0);
    cg_extract_fill_random(x, &m, 7);
    assert_int_equal(cg_extract_run(x, "counted", &m, keep_iters, &f, &runs,
                                    d), 0);
    assert_int_equal(f.iters, 5);
    assert_diag(d, 0, "tests/extract/data/native.c: note: loop 'counted': "
                "the native run assumes what nothing in the file sets: "
                "*count = 5 (--sym count=5); p points at a seeded buffer of "
                "4096 bytes");
    cg_diags_clear(d);
    cg_dfg_destroy(g);
    g = cg_extract_loop(x, "stacked", d);
    assert_non_null(g);
    f.probes = 0;
    assert_int_equal(cg_extract_run(x, "stacked", &m, keep_first, &f, NULL,
                                    d), 0);
    assert_int_equal(f.probes, 1);
    assert_int_equal(f.in0, cg_extract_global_get(x, gt)->base);
    assert_int_equal(cg_diags_size(d), 0);
    cg_dfg_destroy(g);
    g = cg_extract_loop(x, "sized", d);
    assert_non_null(g);
    f.probes = 0;
    assert_int_equal(cg_extract_run(x, "sized", &m, keep_first, &f, NULL,
                                    d), -1);
    assert_int_equal(f.probes, 0);
    assert_diag(d, 0, "tests/extract/data/native.c: error: loop 'sized': a "
                "pointer it reads (DFG node 0) points outside the layout's "
                "globals and fixed-size stack arrays (a stack array of "
                "variable size, or memory not from a global); the array's "
                "memory holds only those, so its run cannot be compared");
    cg_diags_clear(d);
    cg_dfg_destroy(g);
    free(m.data);
    assert_true(cg_extract_loop_gone(x, "folded"));
    assert_false(cg_extract_loop_gone(x, "through"));
    assert_null(cg_extract_loop(x, "folded", d));
    cg_extract_close(x);
    p.keep_exit_values = true;
    x = cg_extract_open(path, &p, d);
    assert_false(cg_extract_loop_gone(x, "folded"));
    g = cg_extract_loop(x, "folded", d);
    assert_non_null(g);
    assert_int_equal(count_op(g, CG_OP_OUTPUT), 2); /* s and the exit */
    cg_dfg_destroy(g);
    cg_extract_close(x);
    cg_diags_destroy(d);
}

/* gemm: three loops of 8, A[i][k] and B[k][j] as byte offsets. */
static void test_nest_gemm(void **state)
{
    (void)state;
    cg_dfg *g = extract("benchmarks/microbench/gemm/gemm.c", "gemm", NULL);
    const cg_nest *n = cg_dfg_nest(g);
    assert_non_null(n);
    assert_int_equal(n->nloops, 3);
    for (int l = 0; l < 3; l++) {
        assert_int_equal(n->loops[l].trip, 8);
        assert_int_equal(n->loops[l].start, 0);
        assert_int_equal(n->loops[l].step, 1);
        assert_int_equal(n->loops[l].line, 9 + l + (l == 2));
    }
    assert_int_equal(n->naccesses, 2);
    static const int64_t want[2][3] = {{32, 0, 4}, {0, 4, 32}};
    for (int a = 0; a < 2; a++) {
        const cg_nest_access *x = &n->accesses[a];
        assert_false(x->is_store);
        assert_true(x->index.is_affine);
        assert_int_equal(x->index.cst, 0);
        assert_string_equal(n->arrays[x->array].name, a ? "B" : "A");
        for (int l = 0; l < 3; l++)
            assert_int_equal(x->index.coef[l], want[a][l]);
    }
    int ex = cg_dfg_find(g, "loop_exit");
    assert_true(ex >= 0);
    assert_int_equal(cg_dfg_get_node(g, ex)->op, CG_OP_OUTPUT);
    const cg_dfg_edge *c = cg_dfg_get_edge(g, cg_dfg_operand_edge(g, ex, 0));
    assert_int_equal(cg_dfg_get_node(g, c->src)->op, CG_OP_ICMP);
    assert_int_equal(cg_dfg_get_node(g, c->src)->pred, CG_PRED_EQ);
    const cg_nest_array *A = &n->arrays[n->accesses[0].array];
    assert_int_equal(A->bytes, 256);
    assert_int_equal(A->elem_size, 4);
    assert_int_equal(A->ndims, 2);
    assert_int_equal(A->dims[0], 8);
    assert_int_equal(A->dims[1], 8);
    cg_dfg_destroy(g);
}

/* nomem1's trip count is the parameter n: symbolic until given. */
static void test_symbolic_trip(void **state)
{
    (void)state;
    const char *path = "benchmarks/microbench/nomem1/nomem1.c";
    cg_dfg *g = extract(path, "nomem1", NULL);
    const cg_nest *n = cg_dfg_nest(g);
    assert_int_equal(n->nloops, 1);
    assert_int_equal(n->loops[0].trip, -1);
    assert_string_equal(n->loops[0].trip_sym, "n");
    assert_int_equal(cg_extract_trip(g), -1);
    cg_dfg_destroy(g);
    cg_extract_params p;
    cg_extract_params_init(&p);
    p.syms[p.nsyms++] = (cg_extract_sym){"n", 37};
    g = extract(path, "nomem1", &p);
    assert_int_equal(cg_extract_trip(g), 37);
    cg_dfg_destroy(g);
}

/* Two loops on one line: the later column; a tag inside the body. */
static void test_matching(void **state)
{
    (void)state;
    cg_dfg *g = extract("tests/extract/data/match.c", "inner", NULL);
    const cg_nest *n = cg_dfg_nest(g);
    assert_int_equal(n->nloops, 2);
    assert_int_equal(n->loops[0].line, 7);
    assert_int_equal(n->loops[1].line, 7);
    assert_int_equal(n->accesses[0].index.coef[0], 32);
    assert_int_equal(n->accesses[0].index.coef[1], 4);
    cg_dfg_destroy(g);
    g = extract("tests/extract/data/match.c", "below", NULL);
    n = cg_dfg_nest(g);
    assert_int_equal(n->nloops, 1);
    assert_int_equal(n->loops[0].line, 14);
    assert_int_equal(n->loops[0].trip, 8);
    cg_dfg_destroy(g);
}

/* stride: b[j] with j = 3, 5, 7, ... is affine in the counter i. */
static void test_second_counter(void **state)
{
    (void)state;
    cg_dfg *g = extract("benchmarks/microbench/stride/stride.c", "stride",
                        NULL);
    const cg_nest *n = cg_dfg_nest(g);
    assert_int_equal(n->naccesses, 2);
    const cg_nest_access *st = &n->accesses[1];
    assert_true(st->is_store);
    assert_string_equal(n->arrays[st->array].name, "b");
    assert_true(st->index.is_affine);
    assert_int_equal(st->index.cst, 12);
    assert_int_equal(st->index.coef[0], 8);
    cg_dfg_destroy(g);
}

/* x[2*i+1] is (i << 1) | 1 in the IR: affine because the bits are
 * disjoint; y[i | 1] is not. */
static void test_or_index(void **state)
{
    (void)state;
    cg_dfg *g = extract("tests/extract/data/orindex.c", "orindex", NULL);
    const cg_nest *n = cg_dfg_nest(g);
    assert_int_equal(n->naccesses, 3);
    int seen = 0;
    for (int a = 0; a < n->naccesses; a++) {
        const cg_nest_access *x = &n->accesses[a];
        const char *arr = n->arrays[x->array].name;
        if (!strcmp(arr, "y")) {
            assert_false(x->index.is_affine);
            seen |= 1;
        } else if (x->is_store) {
            assert_true(x->index.is_affine);
            assert_int_equal(x->index.cst, 4);     /* element 1 */
            assert_int_equal(x->index.coef[0], 8); /* 2 elements */
            seen |= 2;
        } else {
            assert_true(x->index.is_affine);
            assert_int_equal(x->index.cst, 8);
            assert_int_equal(x->index.coef[0], 16);
            seen |= 4;
        }
    }
    assert_int_equal(seen, 7);
    cg_dfg_destroy(g);
}

/* histogram: hist[data[i] & 15] is not affine, data[i] is. */
static void test_indirect(void **state)
{
    (void)state;
    cg_dfg *g = extract("benchmarks/microbench/histogram/histogram.c",
                        "histogram", NULL);
    const cg_nest *n = cg_dfg_nest(g);
    int affine = 0, other = 0;
    for (int a = 0; a < n->naccesses; a++) {
        const char *arr = n->arrays[n->accesses[a].array].name;
        if (!strcmp(arr, "data")) {
            assert_true(n->accesses[a].index.is_affine);
            assert_int_equal(n->accesses[a].index.coef[0], 1);
            affine++;
        } else {
            assert_string_equal(arr, "hist");
            assert_false(n->accesses[a].index.is_affine);
            other++;
        }
    }
    assert_int_equal(affine, 1);
    assert_int_equal(other, 2);
    cg_dfg_destroy(g);
}

static int count_width(const cg_dfg *g, int w)
{
    int k = 0;
    for (int i = 0; i < cg_dfg_nnodes(g); i++)
        k += cg_dfg_get_node(g, i)->width == w;
    return k;
}

/* Extract tag of path at address width aw; *d receives the diagnostics. */
static cg_dfg *extract_at(const char *path, const char *tag, int aw,
                          cg_diags *d)
{
    cg_extract_params p;
    cg_extract_params_init(&p);
    p.addr_width = aw;
    cg_dfg **gs = NULL;
    int n = 0;
    assert_int_equal(cg_extract_file(path, tag, &p, &gs, &n, d), 0);
    assert_int_equal(n, 1);
    cg_dfg *g = gs[0];
    free(gs);
    assert_int_equal(cg_dfg_check(g, d), 0);
    return g;
}

/* tag of path extracted at address width aw has n64 nodes of 64 bits and
 * exactly the diagnostics want (NULL-terminated). */
static void expect_widths(const char *path, const char *tag, int aw, int n64,
                          const char *const *want)
{
    cg_diags *d = cg_diags_create();
    cg_dfg *g = extract_at(path, tag, aw, d);
    assert_int_equal(count_width(g, 64), n64);
    int n = 0;
    for (; want[n]; n++)
        assert_diag(d, n, want[n]);
    assert_int_equal(cg_diags_size(d), n);
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
}

/* Index arithmetic, counters and address constants narrowed to the
 * address width where exact (by ranges: saxpy; by an inbounds access of a
 * global: offset), kept wide with a warning where not. */
static void test_widths(void **state)
{
    (void)state;
    const char *saxpy = "benchmarks/microbench/saxpy/saxpy.c";
    const char *w = "tests/extract/data/widths.c";
    const char *const none[] = {NULL};
    expect_widths(saxpy, "saxpy", 64, 10, none); /* LLVM's widths */
    expect_widths(saxpy, "saxpy", 32, 0, none);
    expect_widths(w, "offset", 32, 0, none);
    /* saxpy's arrays start at 65536: no address fits in 16 bits */
    expect_widths(saxpy, "saxpy", 16, 10, (const char *const[]){
        "benchmarks/microbench/saxpy/saxpy.c:8: warning: loop 'saxpy': "
        "'const0' (const) and the ops tied to it stay 64 bits, wider than "
        "the address width 16: the address of 'load9' (load), range "
        "[65536, 65788], is not proven to lie in [0, 2^16) (no known range, "
        "and not an inbounds access of a global below 2^16)", NULL});
    /* a loaded index: its zext from 32 bits is exact at 32; at 17 bits the
     * counter and the other addresses narrow (they fit), a[...]'s do not */
    expect_widths(w, "gather", 32, 0, none);
    expect_widths(w, "gather", 17, 5, (const char *const[]){
        "tests/extract/data/widths.c:49: warning: loop 'gather': 'const3' "
        "(const) and the ops tied to it stay 64 bits, wider than the address "
        "width 17: 'zext13' (zext) extends 32 bits, more than 17", NULL});
    /* load, const 0, add, output */
    expect_widths(w, "wide", 32, 4, (const char *const[]){
        "tests/extract/data/widths.c:20: warning: loop 'wide': 'load7' (load) "
        "and the ops tied to it stay 64 bits, wider than the address width "
        "32: 'load7' (load) accesses 64-bit data", NULL});
    /* B[k][j] with j fixed is not split (its start &B[0][j] is no
     * inbounds address): split, B.base stayed 64 bits and 66 nodes with
     * it, wider than every unit */
    expect_widths("benchmarks/large/gemm_block/gemm_block.c", "gemm_block",
                  32, 0, none);
    /* for (int i = 0; i < n; i++): the counter ends at zext(n) */
    expect_widths(w, "symtrip", 32, 0, none);
    /* for (long i = 0; i < m; i++): nothing bounds it */
    expect_widths(w, "symlong", 32, 12, (const char *const[]){
        "tests/extract/data/widths.c:38: warning: loop 'symlong': 'const0' "
        "(const) and the ops tied to it stay 64 bits, wider than the address "
        "width 32: 'icmp14' (icmp) compares unknown with unknown, not proven "
        "to fit in 32 bits", NULL});
    /* the nodes narrowed: 16 of saxpy's 18 are 32 bits (icmp, exit: 1);
     * x[i] and y[i] share i * 4 */
    cg_diags *d = cg_diags_create();
    cg_dfg *g = extract_at(saxpy, "saxpy", 32, d);
    assert_int_equal(count_width(g, 32), 16);
    assert_int_equal(cg_dfg_nnodes(g), 18);
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
}

/* The graph as plain text, independent of the dot writer. */
static char *listing(const cg_dfg *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    for (int i = 0; i < cg_dfg_nnodes(g); i++) {
        const cg_dfg_node *n = cg_dfg_get_node(g, i);
        fprintf(f, "node %d %s i%d line %d", i, cg_op_name(n->op), n->width,
                n->line);
        if (n->op == CG_OP_ICMP)
            fprintf(f, " %s", cg_pred_name(n->pred));
        if (n->has_value)
            fprintf(f, " value %lld", (long long)n->value);
        if (n->sym)
            fprintf(f, " sym %s", n->sym);
        fprintf(f, "\n");
    }
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        fprintf(f, "edge %d -> %d.%d", x->src, x->dst, x->operand);
        if (x->distance)
            fprintf(f, " distance %d init %d", x->distance, x->init);
        fprintf(f, "\n");
    }
    fclose(f);
    return buf;
}

/* The exact graphs of a few benchmarks (CG_UPDATE_GOLDEN=1 rewrites
 * tests/extract/golden/NAME.txt; review the diff). */
static void test_golden(void **state)
{
    (void)state;
    static const char *const names[] = {"sum", "fir", "gemm", "relu",
                                        "narrow"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char src[256], gold[256];
        snprintf(src, sizeof src, "benchmarks/microbench/%s/%s.c", names[i],
                 names[i]);
        snprintf(gold, sizeof gold, "tests/extract/golden/%s.txt",
                 names[i]);
        cg_dfg *g = extract(src, names[i], NULL);
        char *have = listing(g);
        cg_golden_check(gold, have);
        free(have);
        cg_dfg_destroy(g);
    }
}

static char *dot_text(const cg_dfg *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(cg_dfg_write_dot(g, f), 0);
    fclose(f);
    return buf;
}

/* Every benchmark's DFG in dot form reads back to the same text. */
static void test_dot_roundtrip(void **state)
{
    (void)state;
    cg_extract_params p;
    cg_extract_params_init(&p);
    p.syms[p.nsyms++] = (cg_extract_sym){"n", 50};
    for (size_t i = 0; i < sizeof benches / sizeof *benches; i++) {
        char path[256];
        snprintf(path, sizeof path, "benchmarks/microbench/%s/%s.c",
                 benches[i], benches[i]);
        cg_dfg *g = extract(path, benches[i], &p);
        char *a = dot_text(g);
        cg_diags *d = cg_diags_create();
        cg_dfg *h = cg_dfg_read_dot_string(a, path, d);
        if (!h)
            cg_diags_print(d, stderr);
        assert_non_null(h);
        assert_int_equal(cg_dfg_check(h, d), 0);
        char *b = dot_text(h);
        assert_string_equal(a, b);
        assert_int_equal(cg_dfg_nnodes(h), cg_dfg_nnodes(g));
        assert_int_equal(cg_dfg_nedges(h), cg_dfg_nedges(g));
        free(a);
        free(b);
        cg_dfg_destroy(h);
        cg_dfg_destroy(g);
        cg_diags_destroy(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_low_opt_named),
        cmocka_unit_test(test_no_such_tag),
        cmocka_unit_test(test_clang_error),
        cmocka_unit_test(test_cflags),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_run_needs_parameter),
        cmocka_unit_test(test_run_unused_parameter),
        cmocka_unit_test(test_clang_noise),
        cmocka_unit_test(test_tag_reader),
        cmocka_unit_test(test_makefile),
        cmocka_unit_test(test_makefile_include),
        cmocka_unit_test(test_makefile_errors),
        cmocka_unit_test(test_phi_removal),
        cmocka_unit_test(test_phi_cycle),
        cmocka_unit_test(test_array_control),
        cmocka_unit_test(test_native_corners),
        cmocka_unit_test(test_nest_gemm),
        cmocka_unit_test(test_symbolic_trip),
        cmocka_unit_test(test_matching),
        cmocka_unit_test(test_second_counter),
        cmocka_unit_test(test_or_index),
        cmocka_unit_test(test_indirect),
        cmocka_unit_test(test_golden),
        cmocka_unit_test(test_widths),
        cmocka_unit_test(test_dot_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
