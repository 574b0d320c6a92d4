/* test_flow.c: whole loops through cg_flow_loop on the default array: a
 * microbenchmark that maps, checks and verifies; a loop that runs tiled
 * (its tile DFG mapped, the whole tiled run compared, and the interpreted
 * tiled run alone; then untiled), its first tile on the RTL; the
 * executions replayed, and a loop the
 * kernel never runs; a .dot DFG against the interpreter; a reference run
 * that exceeds its limit (not verified, and why); a replay that differs
 * (the first difference named, the image's last byte included), and a C
 * loop whose replays differ (wrong, by the interpreter and by the
 * simulator); bad input (parameters, a broken DFG, NULL).
 * The figures asserted are the ones `cgramap` prints for the same loops. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow/flow.h"
#include "verify/verify.h"

typedef struct fixture {
    cg_arch *arch;
    cg_netlist *nl;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    cg_diags *d = cg_diags_create();
    f->arch = cg_arch_default(d);
    f->nl = f->arch ? cg_arch_flatten(f->arch, d) : NULL;
    cg_diags_destroy(d);
    *state = f;
    return f->nl ? 0 : -1;
}

static int teardown(void **state)
{
    fixture *f = *state;
    cg_netlist_destroy(f->nl);
    cg_arch_destroy(f->arch);
    free(f);
    return 0;
}

static void print_diags(const cg_diags *d)
{
    for (int i = 0; i < cg_diags_size(d); i++) {
        char *s = cg_diag_format(cg_diags_get(d, i));
        fprintf(stderr, "%s\n", s);
        free(s);
    }
}

/* d holds n messages, the first of them want. */
static void assert_messages(const cg_diags *d, int n, const char *want)
{
    print_diags(d);
    assert_int_equal(cg_diags_size(d), n);
    char *s = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(s, want);
    free(s);
}

static void assert_one_message(const cg_diags *d, const char *want)
{
    assert_messages(d, 1, want);
}

/* A loop of a C file, compiled with the DFG_FLAGS of its folder's
 * Makefile (flags must outlive the program: symbol names point into it). */
typedef struct loop {
    cg_extract_prog *x;
    cg_dfg *g;
    cg_extract_makefile mk;
} loop;

static void open_loop(loop *l, const char *dir, const char *name)
{
    char path[512];
    cg_diags *d = cg_diags_create();
    snprintf(path, sizeof path, "%s/Makefile", dir);
    assert_int_equal(cg_extract_makefile_read(path, &l->mk, d), 0);
    cg_extract_params p;
    cg_extract_params_init(&p);
    if (l->mk.dfg_flags)
        assert_int_equal(cg_extract_params_parse(&p, l->mk.dfg_flags, path,
                                                 d), 0);
    p.cflags = l->mk.cflags;
    snprintf(path, sizeof path, "%s/%s.c", dir, name);
    l->x = cg_extract_open(path, &p, d);
    l->g = l->x ? cg_extract_loop(l->x, name, d) : NULL;
    print_diags(d);
    assert_non_null(l->g);
    cg_diags_destroy(d);
}

static void close_loop(loop *l)
{
    cg_dfg_destroy(l->g);
    cg_extract_close(l->x);
    cg_extract_makefile_free(&l->mk);
}

/* Parameters small enough for a test: 10 s per II up to II 8. */
static void test_params(cg_flow_params *p)
{
    cg_flow_params_init(p);
    p->map.timeout_s = 10;
    p->map.max_ii = 8;
}

/* Loop name of dir/name.c through the flow with test_params: no message,
 * a checked mapping. */
static void run_clean(const fixture *f, const char *dir, const char *name,
                      loop *l, cg_flow_params *p, cg_flow_result *r,
                      cg_diags *d)
{
    open_loop(l, dir, name);
    test_params(p);
    assert_int_equal(cg_flow_loop(f->nl, l->g, l->x, p, r, d), 0);
    print_diags(d);
    assert_int_equal(cg_diags_size(d), 0);
    assert_true(r->checked);
}

/* relu: mapped at II 2 (II 1 proven infeasible), accepted by the checker
 * (again here), its one execution replayed and the same; its data fits one
 * tile, so the loop's own DFG is mapped and the schedule is made. */
static void test_microbench(void **state)
{
    fixture *f = *state;
    loop l;
    cg_flow_params p;
    cg_flow_result r;
    cg_diags *d = cg_diags_create();
    run_clean(f, "benchmarks/microbench/relu", "relu", &l, &p, &r, d);
    assert_int_equal(r.map.status, CG_MAP_MAPPED);
    assert_int_equal(r.map.ii, 2);
    assert_int_equal(r.map.mii.mii, 1);
    assert_string_equal(r.proof.text, "optimal"); /* II 1 proven infeasible */
    assert_ptr_equal(r.mapped, l.g);
    assert_int_equal(cg_map_check(f->nl, r.map.mrrg, r.mapped,
                                  r.map.mapping, d), 0);
    assert_int_equal(r.verification.verdict, CG_FLOW_VERIFIED);
    assert_string_equal(cg_flow_verdict_name(r.verification.verdict), "yes");
    assert_int_equal(r.verification.compared, 1);
    assert_int_equal(r.verification.tile_runs, -1);
    assert_true(r.used);
    assert_int_equal(r.usage.funcunits, 8);
    assert_int_equal(r.usage.funcunits_total, 16);
    assert_int_equal(r.usage.const_ops, 10);
    assert_true(r.scheduled);
    assert_int_equal(cg_tile_plan_summary(r.tiling.plan)->ntiles, 1);
    assert_int_equal(r.sched.total_cycles, 284);
    assert_int_equal(r.sched.stall_cycles, 148);
    cg_flow_result_free(&r);
    assert_null(r.map.mapping);
    cg_diags_destroy(d);
    close_loop(&l);
}

/* saxpy of benchmarks/tiled needs 3 tiles: its tile DFG is mapped, and
 * the whole tiled run (simulated, then interpreted) leaves the external
 * memory the native run leaves. */
static void test_tiled(void **state)
{
    fixture *f = *state;
    loop l;
    cg_flow_params p;
    cg_flow_result r;
    cg_diags *d = cg_diags_create();
    run_clean(f, "benchmarks/tiled/saxpy", "saxpy", &l, &p, &r, d);
    assert_non_null(r.tiling.td);
    assert_ptr_equal(r.mapped, cg_tile_dfg_graph(r.tiling.td));
    assert_int_equal(cg_dfg_nnodes(r.mapped), 12);
    assert_int_equal(r.verification.verdict, CG_FLOW_VERIFIED);
    assert_int_equal(r.verification.tile_runs, 3);
    const cg_tile_summary *u = cg_tile_plan_summary(r.tiling.plan);
    assert_int_equal(u->ntiles, 3);
    assert_int_equal(u->traffic, 30720);
    assert_true(r.scheduled);
    assert_int_equal(r.sched.total_cycles, 7770);
    assert_int_equal(r.sched.stall_cycles, 5195);
    cg_flow_verification v;
    assert_int_equal(cg_flow_verify(&p, f->nl, l.g, l.x, &r.tiling, NULL, &v,
                                    d), 0);
    assert_int_equal(v.verdict, CG_FLOW_VERIFIED);
    assert_int_equal(v.tile_runs, 3);
    assert_int_equal(cg_diags_size(d), 0);
    cg_flow_result_free(&r);
    /* without tiling: the loop's own DFG on a flat memory */
    p.tiling = false;
    assert_int_equal(cg_flow_loop(f->nl, l.g, l.x, &p, &r, d), 0);
    print_diags(d);
    assert_ptr_equal(r.mapped, l.g);
    assert_null(r.tiling.plan);
    assert_false(r.scheduled);
    assert_int_equal(r.verification.verdict, CG_FLOW_VERIFIED);
    assert_int_equal(r.verification.tile_runs, -1);
    cg_flow_result_free(&r);
    cg_diags_destroy(d);
    close_loop(&l);
}

/* The compiled RTL models of the tests, in the build folder. */
static const char *rtl_cache(void)
{
    static char buf[1024];
    const char *b = getenv("CG_BINARY_DIR");
    snprintf(buf, sizeof buf, "%s/rtl-cache", b ? b : ".");
    return buf;
}

/* With rtl, saxpy's first tile (of 3, one inner-loop run) runs on the
 * array's RTL (Icarus Verilog) from the tile memory and live-ins the
 * cycle simulator started it from, and leaves what the simulator left.  A bitstream with the control block's lowest
 * bit flipped (II 2 where the mapping has 1) is caught in that run. */
static void test_tiled_rtl(void **state)
{
    fixture *f = *state;
    loop l;
    cg_flow_params p;
    cg_flow_result r;
    cg_diags *d = cg_diags_create();
    open_loop(&l, "benchmarks/tiled/saxpy", "saxpy");
    test_params(&p);
    p.rtl = true;
    p.cosim.tool = CG_COSIM_IVERILOG;
    p.cosim.cache_dir = rtl_cache();
    assert_int_equal(cg_flow_loop(f->nl, l.g, l.x, &p, &r, d), 0);
    print_diags(d);
    assert_int_equal(cg_diags_size(d), 0);
    assert_int_equal(r.verification.verdict, CG_FLOW_VERIFIED);
    assert_int_equal(r.map.ii, 1);
    assert_string_equal(r.verification.rtl, "yes (first tile of 3: "
                        "inner-loop run 1 of 1 equal to the cycle "
                        "simulator's)");
    p.cosim.flip_bit = 0;
    cg_flow_verification v;
    assert_int_equal(cg_flow_verify(&p, f->nl, l.g, l.x, &r.tiling, &r.map,
                                    &v, d), 0);
    assert_int_equal(v.verdict, CG_FLOW_VERIFIED);
    assert_string_equal(v.rtl, "no: inner-loop run 1 of the first tile: "
                        "memory at 0x0 is 0x00 after the RTL run, 0xab "
                        "after the cycle simulator");
    cg_flow_result_free(&r);
    cg_diags_destroy(d);
    close_loop(&l);
}

#define SAXPY "benchmarks/tiled/saxpy/saxpy.c"
/* saxpy's first wrong byte with alpha + x for alpha * x (seeded data) */
#define SAXPY_GOT "0x56"
#define SAXPY_AT "0x12800"
#define SAXPY_WANT "0x05"

/* A tiled run whose tile DFG computes otherwise is wrong ("no"), its
 * first difference from the native run named: saxpy's tile DFG with its
 * multiply turned into an add, run interpreted and simulated. */
static void test_tiled_differs(void **state)
{
    fixture *f = *state;
    loop l;
    cg_flow_params p;
    cg_flow_result r;
    cg_diags *d = cg_diags_create();
    run_clean(f, "benchmarks/tiled/saxpy", "saxpy", &l, &p, &r, d);
    assert_int_equal(r.verification.verdict, CG_FLOW_VERIFIED);
    cg_dfg *tg = (cg_dfg *)cg_tile_dfg_graph(r.tiling.td);
    int mul = -1;
    for (int i = 0; i < cg_dfg_nnodes(tg); i++)
        if (cg_dfg_get_node(tg, i)->op == CG_OP_MUL)
            mul = mul < 0 ? i : -2;
    assert_true(mul >= 0); /* the one multiply: alpha * x[i] */
    cg_dfg_node_mut(tg, mul)->op = CG_OP_ADD;
    const char *how[] = {"the interpreted run", "the simulated mapping"};
    for (int k = 0; k < 2; k++) {
        cg_flow_verification v;
        assert_int_equal(cg_flow_verify(&p, f->nl, l.g, l.x, &r.tiling,
                                        k ? &r.map : NULL, &v, d), 0);
        assert_int_equal(v.verdict, CG_FLOW_WRONG);
        assert_int_equal(v.tile_runs, 3);
        char want[512];
        snprintf(want, sizeof want, SAXPY ": error: loop 'saxpy': the tiled "
                 "run (DMA descriptors and %s of the tile DFG) writes "
                 SAXPY_GOT " at address " SAXPY_AT " where the C code leaves "
                 SAXPY_WANT, how[k]);
        assert_one_message(d, want);
        cg_diags_destroy(d);
        d = cg_diags_create();
    }
    cg_flow_result_free(&r);
    cg_diags_destroy(d);
    close_loop(&l);
}

#define REPEAT "tests/flow/data/repeat.c"
/* repeat's first wrong byte with a + 3 + 1 for a * 3 + 1 on the seeded
 * data: a[0] = 0xab..., a * 3 + 1 ends in 0x02, a + 4 in 0xaf */
#define REPEAT_GOT "0xaf"
#define REPEAT_AT "0x10000"
#define REPEAT_WANT "0x02"

/* Loop tag of file, extracted with the kernel parameter n given (its
 * program into *x); asserted to extract. */
static cg_dfg *extract_n(const char *file, const char *tag, int64_t n,
                         cg_extract_prog **x, cg_diags *d)
{
    cg_extract_params xp;
    cg_extract_params_init(&xp);
    xp.syms[xp.nsyms++] = (cg_extract_sym){"n", n};
    *x = cg_extract_open(file, &xp, d);
    cg_dfg *g = *x ? cg_extract_loop(*x, tag, d) : NULL;
    assert_non_null(g);
    return g;
}

/* Loop tag of tests/flow/data/repeat.c (with n = 0) through the flow on
 * its own DFG (the test is of the replays, not of the tiling). */
static void run_repeat(const fixture *f, const char *tag, int64_t executions,
                       cg_flow_result *r, cg_diags *d)
{
    cg_extract_prog *x;
    cg_dfg *g = extract_n(REPEAT, tag, 0, &x, d);
    cg_flow_params p;
    test_params(&p);
    p.tiling = false;
    p.executions = executions;
    assert_int_equal(cg_flow_loop(f->nl, g, x, &p, r, d), 0);
    assert_true(r->checked);
    r->loop = r->mapped = NULL; /* g dies here */
    cg_dfg_destroy(g);
    cg_extract_close(x);
}

/* A loop the kernel runs 5 times: the first `executions` are replayed;
 * one it never runs: nothing compared, and a warning says so. */
static void test_executions(void **state)
{
    fixture *f = *state;
    cg_diags *d = cg_diags_create();
    cg_flow_result r;
    run_repeat(f, "repeat", 2, &r, d);
    assert_int_equal(cg_diags_size(d), 0);
    assert_int_equal(r.verification.verdict, CG_FLOW_VERIFIED);
    assert_int_equal(r.verification.compared, 2);
    cg_flow_result_free(&r);
    run_repeat(f, "repeat", CG_FLOW_EXECUTIONS, &r, d);
    assert_int_equal(r.verification.compared, 5);
    cg_flow_result_free(&r);
    run_repeat(f, "never", CG_FLOW_EXECUTIONS, &r, d);
    assert_int_equal(r.verification.verdict, CG_FLOW_NOTHING_RUN);
    assert_string_equal(cg_flow_verdict_name(r.verification.verdict), "n/a");
    assert_int_equal(r.verification.compared, 0);
    assert_one_message(d, REPEAT ": warning: loop 'never': the kernel never "
                       "ran the loop on its data, so nothing was simulated");
    cg_flow_result_free(&r);
    cg_diags_destroy(d);
}

/* A C loop whose replay differs from the native run is wrong ("no"),
 * whether the interpreter or the simulator replays it: repeat's DFG with
 * its multiply turned into an add (a * 3 + 1 becomes a + 3 + 1) no longer
 * computes what the C code does.  The first difference is named, and the
 * replays stop there. */
static void test_c_replay_differs(void **state)
{
    fixture *f = *state;
    cg_diags *d = cg_diags_create();
    cg_extract_params xp;
    cg_extract_params_init(&xp);
    cg_extract_prog *x = cg_extract_open(REPEAT, &xp, d);
    cg_dfg *g = x ? cg_extract_loop(x, "repeat", d) : NULL;
    assert_non_null(g);
    cg_flow_params p;
    test_params(&p);
    p.tiling = false;
    cg_flow_result r;
    assert_int_equal(cg_flow_loop(f->nl, g, x, &p, &r, d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    assert_int_equal(r.verification.verdict, CG_FLOW_VERIFIED);
    int mul = -1; /* the multiply of the loaded value (the other one
                     scales the index) */
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        if (cg_dfg_get_node(g, ed->src)->op == CG_OP_LOAD &&
            cg_dfg_get_node(g, ed->dst)->op == CG_OP_MUL)
            mul = ed->dst;
    }
    assert_true(mul >= 0);
    cg_dfg_node_mut(g, mul)->op = CG_OP_ADD;
    const char *who[] = {"the DFG interpreter", "the simulated mapping"};
    for (int k = 0; k < 2; k++) {
        cg_flow_verification v;
        assert_int_equal(cg_flow_verify(&p, f->nl, g, x, NULL,
                                        k ? &r.map : NULL, &v, d), 0);
        assert_int_equal(v.verdict, CG_FLOW_WRONG);
        assert_string_equal(cg_flow_verdict_name(v.verdict), "no");
        assert_int_equal(v.compared, 1);
        char want[512];
        /* the DFG was changed, so the interpreter differs too: the
         * mapping is not blamed, the extraction (or the C code) is */
        snprintf(want, sizeof want, REPEAT ": error: loop 'repeat': %s "
                 "writes " REPEAT_GOT " at address " REPEAT_AT " where the "
                 "C code leaves " REPEAT_WANT " (%sthe DFG itself differs "
                 "from the C code: the C code's behaviour may be undefined "
                 "there, or else this is a cgramap bug in the extraction; "
                 "please report it)", who[k],
                 k ? "the DFG interpreter differs too, so not the mapping "
                     "but "
                   : "");
        assert_one_message(d, want);
        cg_diags_destroy(d);
        d = cg_diags_create();
    }
    cg_flow_result_free(&r);
    cg_dfg_destroy(g);
    cg_extract_close(x);
    cg_diags_destroy(d);
}

#define OUTSIDE "tests/flow/data/outside.c"

/* A difference from the native run of a loop whose access leaves its
 * array within the loop bounds blames that access: the C code's behaviour
 * is undefined, its native run no reference.  Without such an access the
 * DFG (the extraction) is blamed when the interpreter differs. */
static void test_outside_array(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    const char *tag[] = {"outside", "repeat"}, *file[] = {OUTSIDE, REPEAT};
    for (int k = 0; k < 2; k++) {
        cg_extract_prog *x;
        cg_dfg *g = extract_n(file[k], tag[k], 20, &x, d);
        const cg_nest *n = cg_dfg_nest(g);
        int oa = cg_tile_access_outside(n);
        if (k == 0) { /* b[i], the first access the model shapes */
            assert_true(oa >= 0);
            assert_string_equal(cg_dfg_get_node(g, n->accesses[oa].node)
                                    ->name, "load9");
        } else {
            assert_int_equal(oa, -1);
        }
        /* a reference whose first byte the loop does not leave */
        uint64_t base, size = cg_dfg_memory(g, &base);
        uint8_t *bytes = calloc(size, 1), *after = calloc(size, 1);
        after[0] = 1;
        cg_mem mem = {bytes, base, size}, want = {after, base, size};
        uint64_t *io = calloc((size_t)cg_dfg_nnodes(g) + 1, sizeof *io);
        cg_extract_instance ins = {0, 0, &mem, &want, io, io};
        assert_int_equal(cg_flow_replay(NULL, NULL, NULL, g, &ins,
                                        "the C code", d), -1);
        char want_msg[512];
        snprintf(want_msg, sizeof want_msg, "%s: error: loop '%s': the DFG "
                 "interpreter writes 0x00 at address 0x%llx where the C code "
                 "leaves 0x01 (%s)", file[k], tag[k],
                 (unsigned long long)base,
                 k ? "the DFG itself differs from the C code: the C code's "
                     "behaviour may be undefined there, or else this is a "
                     "cgramap bug in the extraction; please report it"
                   : "the C code's behaviour is undefined: its access to "
                     "'b' (node 'load9') leaves the array within the loop "
                     "bounds, so its native run is no reference");
        assert_one_message(d, want_msg);
        cg_diags_destroy(d);
        d = cg_diags_create();
        free(bytes);
        free(after);
        free(io);
        cg_dfg_destroy(g);
        cg_extract_close(x);
    }
    cg_diags_destroy(d);
}

/* The whole flow on outside.c with n = 32 (arrays of 16; b comes first in
 * the layout): the simulated mapping's store to a[16] leaves the memory
 * image; the note after that
 * error names the access of the C code that explains it.  The native run
 * writes past a[] too, which must not reach the record of the loop the
 * run keeps: with n = 32 its trip count came back as garbage, and the
 * replay differed from the native run with no error. */
static void test_outside_flow(void **state)
{
    fixture *f = *state;
    cg_diags *d = cg_diags_create();
    cg_extract_prog *x;
    cg_dfg *g = extract_n(OUTSIDE, "outside", 32, &x, d);
    cg_flow_params p;
    test_params(&p);
    cg_flow_result r;
    assert_int_equal(cg_flow_loop(f->nl, g, x, &p, &r, d), 0);
    print_diags(d);
    assert_int_equal(r.verification.verdict, CG_FLOW_WRONG);
    int n = cg_diags_size(d);
    assert_true(n >= 3);
    /* the tiler's warning first, then the simulator's error and the note */
    char *s = cg_diag_format(cg_diags_get(d, 0));
    assert_non_null(strstr(s, "warning: loop 'outside' is not tiled: access "
                              "to 'b' (node 'load9') leaves the array (16 "
                              "elements) within the loop bounds"));
    free(s);
    s = cg_diag_format(cg_diags_get(d, n - 2));
    assert_non_null(strstr(s, "error: simulation: store 'store12' at "
                              "iteration 16 "));
    assert_non_null(strstr(s, "accesses 4 bytes at address 0x10080, outside "
                              "the memory [0x10000, 0x10080)"));
    free(s);
    s = cg_diag_format(cg_diags_get(d, n - 1));
    assert_string_equal(s, OUTSIDE ": note: loop 'outside': its access to "
                        "'b' (node 'load9') leaves the array within the loop "
                        "bounds: the C code's behaviour is undefined there, "
                        "and its native run is no reference");
    free(s);
    cg_flow_result_free(&r);
    cg_dfg_destroy(g);
    cg_extract_close(x);
    cg_diags_destroy(d);
}

#define ACC "tests/cli/data/bench/loose/acc.dot"

/* A .dot DFG has no C code: the interpreter's run on a seeded image is
 * its reference. */
static void test_dot(void **state)
{
    fixture *f = *state;
    cg_diags *d = cg_diags_create();
    cg_dfg *g = cg_dfg_read_dot(ACC, d);
    assert_non_null(g);
    cg_flow_params p;
    test_params(&p);
    cg_flow_result r;
    assert_int_equal(cg_flow_loop(f->nl, g, NULL, &p, &r, d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    assert_true(r.checked);
    assert_false(r.scheduled);
    assert_null(r.tiling.plan);
    assert_int_equal(r.verification.verdict, CG_FLOW_VERIFIED);
    assert_int_equal(r.verification.compared, 1);
    /* without C code only a mapping can be compared (with the
     * interpreter); a result without a mapping is none */
    cg_flow_verification v;
    assert_int_equal(cg_flow_verify(&p, f->nl, g, NULL, NULL, NULL, &v, d),
                     -1);
    assert_one_message(d, "error: loop 'acc': without a mapping only the C "
                       "code can be the reference (give the compiled "
                       "program)");
    cg_flow_result_free(&r);
    cg_diags_destroy(d);
    d = cg_diags_create();
    assert_int_equal(cg_flow_verify(&p, f->nl, g, NULL, NULL, &r.map, &v, d),
                     -1);
    assert_one_message(d, "error: loop 'acc': the map result to verify holds "
                       "no mapping (status is not mapped)");
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
}

/* The replay of ins by r's mapping (the interpreter when r is NULL)
 * fails with one message: acc's error `what`, with whom it blames. */
static void replay_fails(const fixture *f, const cg_map_result *r,
                         const cg_dfg *g, const cg_extract_instance *ins,
                         const char *what)
{
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_flow_replay(f->nl, r ? r->mrrg : NULL,
                                    r ? r->mapping : NULL, g, ins,
                                    "the test", d), -1);
    char want[512];
    snprintf(want, sizeof want, ACC ": error: loop 'acc': %s", what);
    assert_one_message(d, want);
    cg_diags_destroy(d);
}

/* A replay whose reference says otherwise: the first difference, at the
 * live-out's line, naming who computed which value. */
static void test_replay_differs(void **state)
{
    fixture *f = *state;
    cg_diags *d = cg_diags_create();
    cg_dfg *g = cg_dfg_read_dot(ACC, d);
    /* a .dot names no file unless its graph has a "file" attribute (the C
     * source it came from), and its nodes have no C line */
    assert_null(cg_dfg_file(g));
    cg_dfg_set_file(g, ACC);
    cg_flow_params p;
    test_params(&p);
    cg_flow_result r;
    assert_int_equal(cg_flow_loop(f->nl, g, NULL, &p, &r, d), 0);
    uint8_t bytes[16] = {0}, after[16] = {0};
    cg_mem mem = {bytes, 0, sizeof bytes}, want = {after, 0, sizeof after};
    uint64_t in[4] = {3, 0, 0, 0}, out[4] = {0, 0, 999, 0};
    cg_extract_instance ins = {0, 4, &mem, &want, in, out};
    int id = cg_dfg_find(g, "out2");
    assert_int_equal(id, 2);
    assert_int_equal(cg_flow_replay(f->nl, r.map.mrrg, r.map.mapping, g,
                                    &ins, "the test", d), -1);
    /* the interpreter gives 12 too: the DFG, not its mapping, differs
     * from the reference (.dot has no C code to blame) */
    assert_one_message(d, ACC ": error: loop 'acc': live-out 'out2' is 12 "
                       "in the simulated mapping but 999 in the test (the "
                       "DFG interpreter differs too, so not the mapping but "
                       "the DFG itself differs from the test: this is a "
                       "cgramap bug; please report it)");
    cg_diags_destroy(d);
    out[2] = 12;
    after[5] = 1; /* a byte the run never writes */
    const cg_map_result *none = NULL;
    replay_fails(f, none, g, &ins, "the DFG interpreter writes 0x00 at "
                 "address 0x5 where the test leaves 0x01 (the DFG itself "
                 "differs from the test: this is a cgramap bug; please "
                 "report it)");
    /* the last byte of the image is compared too, by both */
    after[5] = 0;
    after[15] = 0x80;
    replay_fails(f, none, g, &ins, "the DFG interpreter writes 0x00 at "
                 "address 0xf where the test leaves 0x80 (the DFG itself "
                 "differs from the test: this is a cgramap bug; please "
                 "report it)");
    replay_fails(f, &r.map, g, &ins, "the simulated mapping writes 0x00 at "
                 "address 0xf where the test leaves 0x80 (the DFG "
                 "interpreter differs too, so not the mapping but the DFG "
                 "itself differs from the test: this is a cgramap bug; "
                 "please report it)");
    /* and with it equal, the replay is the same */
    d = cg_diags_create();
    after[15] = 0;
    assert_int_equal(cg_flow_replay(f->nl, r.map.mrrg, r.map.mapping, g,
                                    &ins, "the test", d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    /* a mapping whose output reads the next iteration's sum (5 x 3), where
     * the
     * interpreter agrees with the reference: the mapping is to blame */
    r.map.mapping->start[id] += r.map.mapping->ii;
    replay_fails(f, &r.map, g, &ins, "live-out 'out2' is 15 in the "
                 "simulated mapping but 12 in the test (this is a cgramap "
                 "bug; please report it)");
    cg_flow_result_free(&r);
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
}

/* A kernel whose native run takes hours: stopped after run_limit_s, the
 * loop keeps its checked mapping and says why it is not verified. */
static void test_reference_run_limit(void **state)
{
    fixture *f = *state;
    cg_diags *d = cg_diags_create();
    cg_extract_params xp;
    cg_extract_params_init(&xp);
    cg_extract_prog *x = cg_extract_open("tests/cli/data/refrun/spin.c", &xp,
                                         d);
    cg_dfg *g = x ? cg_extract_loop(x, "spin", d) : NULL;
    assert_non_null(g);
    cg_flow_params p;
    test_params(&p);
    p.run_limit_s = 1;
    cg_flow_result r;
    assert_int_equal(cg_flow_loop(f->nl, g, x, &p, &r, d), 0);
    assert_true(r.checked);
    assert_int_equal(r.verification.verdict, CG_FLOW_NOT_VERIFIED);
    assert_string_equal(cg_flow_verdict_name(r.verification.verdict),
                        "not verified");
    const char *why = "reference run exceeded 1 s and was stopped (loop "
                      "'spin'); raise --run-timeout to let it finish";
    assert_string_equal(r.verification.why, why);
    char want[256];
    snprintf(want, sizeof want, "tests/cli/data/refrun/spin.c: error: %s",
             why);
    assert_one_message(d, want);
    cg_flow_result_free(&r);
    cg_dfg_destroy(g);
    cg_extract_close(x);
    cg_diags_destroy(d);
}

#define RELU "benchmarks/microbench/relu/relu.c"

/* Bad input is refused before any work, with the place and the fix: a
 * parameter out of range, a DFG that breaks the DFG rules (at the node's
 * line), NULL arguments. */
static void test_bad_input(void **state)
{
    fixture *f = *state;
    loop l;
    open_loop(&l, "benchmarks/microbench/relu", "relu");
    cg_diags *d = cg_diags_create();
    cg_flow_params p;
    test_params(&p);
    p.executions = 0;
    cg_flow_result r;
    assert_int_equal(cg_flow_loop(f->nl, l.g, l.x, &p, &r, d), -1);
    assert_one_message(d, RELU ": error: loop 'relu': "
                       "cg_flow_params.executions is 0; it must be at least "
                       "1");
    assert_int_equal(r.map.status, CG_MAP_ERROR);
    cg_flow_result_free(&r);
    cg_diags_destroy(d);
    d = cg_diags_create();
    test_params(&p);
    p.run_limit_s = 0;
    assert_int_equal(cg_flow_loop(f->nl, l.g, l.x, &p, &r, d), -1);
    assert_one_message(d, RELU ": error: loop 'relu': "
                       "cg_flow_params.run_limit_s is 0; it must be a number "
                       "of seconds above 0");
    cg_flow_result_free(&r);
    cg_diags_destroy(d);
    d = cg_diags_create(); /* the mapper's policy, before the plan */
    test_params(&p);
    p.map.partial_tries = -3;
    assert_int_equal(cg_flow_loop(f->nl, l.g, l.x, &p, &r, d), -1);
    assert_one_message(d, RELU ": error: cg_map_params.partial_tries is -3; "
                       "it must be 0 or more");
    assert_int_equal(r.map.status, CG_MAP_ERROR);
    assert_null(r.tiling.plan);
    cg_flow_result_free(&r);
    cg_diags_destroy(d);
    d = cg_diags_create();
    test_params(&p);
    int add = -1;
    for (int i = 0; add < 0 && i < cg_dfg_nnodes(l.g); i++)
        if (cg_dfg_get_node(l.g, i)->op == CG_OP_ADD)
            add = i;
    cg_dfg_node_mut(l.g, add)->width = 7;
    assert_int_equal(cg_flow_loop(f->nl, l.g, l.x, &p, &r, d), -1);
    assert_messages(d, 2, RELU ":8: error: node 'add11' (add, 7 bits): "
                    "operand 0 from 'const0' is 32 bits; it must be 7 bits");
    cg_flow_result_free(&r);
    cg_diags_destroy(d);
    d = cg_diags_create();
    assert_int_equal(cg_flow_loop(NULL, l.g, l.x, &p, &r, d), -1);
    assert_one_message(d, RELU ": error: cg_flow_loop needs an array, a loop "
                       "and parameters (one of them is NULL)");
    cg_flow_result_free(&r);
    cg_diags_destroy(d);
    close_loop(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_microbench),
        cmocka_unit_test(test_tiled),
        cmocka_unit_test(test_tiled_differs),
        cmocka_unit_test(test_tiled_rtl),
        cmocka_unit_test(test_executions),
        cmocka_unit_test(test_c_replay_differs),
        cmocka_unit_test(test_dot),
        cmocka_unit_test(test_replay_differs),
        cmocka_unit_test(test_outside_array),
        cmocka_unit_test(test_outside_flow),
        cmocka_unit_test(test_reference_run_limit),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
