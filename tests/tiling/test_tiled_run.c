/* test_tiled_run.c: the proof of the tiler.  For every benchmark of
 * benchmarks/tiled/ the flow stage's verification (cg_flow_verify) seeds
 * the globals, runs the kernel natively (LLVM MCJIT) and the tiled program
 * on the same image: each tile's compute by the DFG interpreter (no
 * mapping) and by the simulator of the tile DFG's mapping on the default
 * architecture.  The final external memory must be byte-identical to the
 * native run's.
 *
 * Both proofs run twice: on the shipped 16 KiB and on a reduced tile memory
 * (CG_TILED_MEM bytes, 4096 unless set: many tiles, boundary tiles
 * everywhere, the tagged loop split); the two tile DFGs differ only in
 * constants, so one mapping serves both (checked on each).  Four
 * benchmarks are proven again (16 KiB only) on
 * tests/tiling/bank_split_4x4.xml, where
 * each MEMUnit column reaches one bank: buffers sit in one bank each, the
 * tile DFG's loads and stores carry it, the mapper and the simulator
 * honour it.
 *
 * The mapping gets CG_TILED_TIMEOUT seconds per II (6 unless set) up to II
 * CG_TILED_MAX_II (4).  Every tile DFG must map within them (conv2d's 44
 * nodes take a few seconds): a simulated proof not run is a failure.
 * CG_TILED_ONLY=TAG runs one benchmark, CG_TILED_DUMP=1 prints each plan
 * and tile DFG.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "arch/arch.h"
#include "extract/extract.h"
#include "flow/flow.h"
#include "mapper/map.h"
#include "tiling/tile.h"
#include "verify/verify.h"
#include "xml/xml.h"

typedef struct bench {
    char dir[256];       /* benchmarks/tiled/NAME */
    char file[512];      /* .../NAME.c */
    char tag[64];
    char flags[256];     /* DFG_FLAGS */
    char cflags[256];    /* CFLAGS */
    const char *arch;    /* architecture XML, NULL: cg_arch_default */
    char name[96];       /* test name */
} bench;

/* The bank-split twin of the default architecture (see the file). */
#define BANK_ARCH "tests/tiling/bank_split_4x4.xml"
/* Benchmarks proven again on it. */
static const char *const bank_tags[] = {"gemm", "gemv", "saxpy", "inplace"};

static int64_t env_int(const char *name, int64_t def)
{
    const char *s = getenv(name);
    return s && *s ? strtoll(s, NULL, 10) : def;
}

static void print_diags(const cg_diags *d)
{
    for (int i = 0; i < cg_diags_size(d); i++) {
        char *s = cg_diag_format(cg_diags_get(d, i));
        fprintf(stderr, "%s\n", s);
        free(s);
    }
}

typedef struct setup {
    cg_extract_prog *x;
    cg_dfg *g;
    cg_arch *arch;
    cg_netlist *nl;
    cg_flow_params fp;   /* the proof's seed and limit */
    char flags[256];     /* DFG_FLAGS: the native runs' symbol names */
} setup;

/* Extract, flatten the architecture, choose the seed. */
static void prepare(const bench *b, setup *s, cg_diags *d)
{
    snprintf(s->flags, sizeof s->flags, "%s", b->flags);
    cg_extract_params p;
    cg_extract_params_init(&p);
    assert_int_equal(cg_extract_params_parse(&p, s->flags, b->dir, d), 0);
    p.cflags = b->cflags;
    s->x = cg_extract_open(b->file, &p, d);
    print_diags(d);
    assert_non_null(s->x);
    s->g = cg_extract_loop(s->x, b->tag, d);
    print_diags(d);
    assert_non_null(s->g);
    s->arch = b->arch ? cg_xml_read(b->arch, NULL, d) : cg_arch_default(d);
    print_diags(d);
    assert_non_null(s->arch);
    s->nl = cg_arch_flatten(s->arch, d);
    assert_non_null(s->nl);
    cg_flow_params_init(&s->fp);
    s->fp.seed = 0x243F6A8885A308D3ULL;
    for (const char *c = b->tag; *c; c++)
        s->fp.seed = s->fp.seed * 31 + (uint8_t)*c;
    s->fp.run_limit_s = 3600; /* the time is ctest's to limit */
}

static void release(setup *s)
{
    cg_netlist_destroy(s->nl);
    cg_arch_destroy(s->arch);
    cg_dfg_destroy(s->g);
    cg_extract_close(s->x);
}

/* The tiled run of t (simulating res's mapping, or interpreted when res
 * is NULL) from the seeded image, compared with the native run. */
static void tiled(const setup *s, const cg_flow_tiling *t,
                  const cg_map_result *res, const char *what,
                  const char *name)
{
    cg_diags *d = cg_diags_create();
    cg_flow_verification v;
    int rc = cg_flow_verify(&s->fp, s->nl, s->g, s->x, t, res, &v, d);
    print_diags(d);
    assert_int_equal(rc, 0);
    fprintf(stderr, "%s: %s: the loop ran %lld times, %lld inner-loop runs "
            "tiled: %s\n", name, what, (long long)v.compared,
            (long long)v.tile_runs, cg_flow_verdict_name(v.verdict));
    assert_int_equal(v.verdict, CG_FLOW_VERIFIED);
    assert_true(v.tile_runs >= 1);
    cg_diags_destroy(d);
}

/* The tile DFG is rebased: no global's address (a const with a sym), no
 * live-out, and every load/store address comes from its group's base,
 * stream or offset node ("<array>.base", ".addr", ".off"). */
static void assert_rebased(const cg_dfg *tg, const cg_dfg *loop)
{
    const cg_nest *n = cg_dfg_nest(loop);
    for (int id = 0; id < cg_dfg_nnodes(tg); id++) {
        const cg_dfg_node *x = cg_dfg_get_node(tg, id);
        assert_false(x->op == CG_OP_CONST && x->sym);
        assert_false(x->op == CG_OP_OUTPUT);
        if (x->op != CG_OP_LOAD && x->op != CG_OP_STORE)
            continue;
        const cg_dfg_node *a = cg_dfg_get_node(
            tg, cg_dfg_get_edge(tg, cg_dfg_operand_edge(tg, id, 0))->src);
        bool named = false;
        for (int k = 0; k < n->narrays; k++) {
            size_t len = strlen(n->arrays[k].name);
            named |= strncmp(a->name, n->arrays[k].name, len) == 0 &&
                     a->name[len] == '.';
        }
        assert_true(named);
    }
}

/* A plan, its program and tile DFG. */
typedef struct tiling {
    cg_flow_tiling ft;
    char name[128];
} tiling;

/* Same nodes (ops, widths) and edges: a mapping of one is a mapping of
 * the other (only constant values differ between plans). */
static bool same_shape(const cg_dfg *a, const cg_dfg *b)
{
    if (cg_dfg_nnodes(a) != cg_dfg_nnodes(b) ||
        cg_dfg_nedges(a) != cg_dfg_nedges(b))
        return false;
    for (int i = 0; i < cg_dfg_nnodes(a); i++) {
        const cg_dfg_node *x = cg_dfg_get_node(a, i), *y = cg_dfg_get_node(b, i);
        if (x->op != y->op || x->width != y->width || x->bank != y->bank)
            return false;
    }
    for (int e = 0; e < cg_dfg_nedges(a); e++)
        if (memcmp(cg_dfg_get_edge(a, e), cg_dfg_get_edge(b, e),
                   sizeof(cg_dfg_edge)))
            return false;
    return true;
}

/* Map t's tile DFG into *res unless res already holds a mapping of a tile
 * DFG of the same shape (another plan's); the test fails when it does not
 * map within the budget. */
static void map_once(const setup *s, const tiling *t, const cg_dfg *mapped,
                     cg_map_result *res)
{
    const cg_dfg *tg = cg_tile_dfg_graph(t->ft.td);
    if (res->status == CG_MAP_MAPPED && same_shape(mapped, tg)) {
        fprintf(stderr, "%s: same tile DFG shape as the mapped one: its "
                "mapping reused\n", t->name);
        return;
    }
    cg_map_result_free(res);
    memset(res, 0, sizeof *res);
    res->status = CG_MAP_ERROR;
    cg_diags *d = cg_diags_create();
    cg_map_params mp;
    cg_map_params_init(&mp);
    mp.timeout_s = (double)env_int("CG_TILED_TIMEOUT", 6);
    mp.max_ii = (int)env_int("CG_TILED_MAX_II", 4);
    int rc = cg_map(s->nl, tg, &mp, res, d);
    print_diags(d);
    assert_int_equal(rc, 0);
    fprintf(stderr, "%s: tile DFG (%d nodes, %d edges) %s at II=%d (MII %d) "
            "in %.2f s\n", t->name, cg_dfg_nnodes(tg), cg_dfg_nedges(tg),
            res->status == CG_MAP_MAPPED ? "mapped" : "NOT mapped", res->ii,
            res->mii.mii, res->seconds);
    cg_diags_destroy(d);
    if (res->status != CG_MAP_MAPPED)
        fail_msg("%s: no mapping within %g s per II up to II=%d: the "
                 "simulated proof cannot run (raise CG_TILED_TIMEOUT or "
                 "CG_TILED_MAX_II)", t->name, mp.timeout_s, mp.max_ii);
}

/* The simulated proof with the mapping in res (checked against t's own
 * tile DFG). */
static void simulate(const setup *s, const tiling *t, const cg_map_result *res)
{
    cg_diags *d = cg_diags_create();
    int rc = cg_map_check(s->nl, res->mrrg, cg_tile_dfg_graph(t->ft.td),
                          res->mapping, d);
    print_diags(d);
    assert_int_equal(rc, 0);
    tiled(s, &t->ft, res, "simulated", t->name);
    cg_diags_destroy(d);
}

/* The plan for a tile memory of mem bytes (0: the shipped one), its
 * program and tile DFG as the flow makes them, and the interpreted
 * proof. */
static void prove(const bench *b, const setup *s, int64_t mem, tiling *t)
{
    cg_diags *d = cg_diags_create();
    cg_tile_params tp;
    cg_tile_params_init(&tp);
    tp.mem_bytes = mem;
    cg_flow_tiling_plan(&t->ft, s->g, s->nl, &tp);
    print_diags(t->ft.msgs);
    assert_non_null(t->ft.td);
    const cg_tile_summary *sum = cg_tile_plan_summary(t->ft.plan);
    assert_true(sum->ntiles > 1);
    const cg_dfg *tg = cg_tile_dfg_graph(t->ft.td);
    assert_int_equal(cg_dfg_check(tg, d), 0);
    assert_rebased(tg, s->g);
    if (getenv("CG_TILED_DUMP")) { /* debugging: the plan and tile DFG */
        (void)cg_tile_plan_write(t->ft.plan, stderr);
        (void)cg_dfg_write_dot(tg, stderr);
    }
    snprintf(t->name, sizeof t->name, "%s (%lld-byte tile memory)", b->name,
             (long long)sum->mem_bytes);
    if (b->arch) { /* the bank split is exercised: banks are set */
        int banked = 0;
        for (int id = 0; id < cg_dfg_nnodes(tg); id++)
            banked += cg_dfg_get_node(tg, id)->bank >= 0;
        assert_true(banked > 0);
    }
    tiled(s, &t->ft, NULL, "interpreted", t->name);
    cg_diags_destroy(d);
}

/* On the shipped tile memory and a reduced one (many tiles, tiny boundary
 * tiles, the tagged loop split): interpreted, then simulated with one
 * mapping when both tile DFGs have the same shape. */
static void test_tiled(void **state)
{
    const bench *b = *state;
    cg_diags *d = cg_diags_create();
    setup s = {0};
    prepare(b, &s, d);
    tiling big = {0}, small = {0};
    prove(b, &s, 0, &big);
    cg_map_result res = {.status = CG_MAP_ERROR};
    map_once(&s, &big, NULL, &res);
    simulate(&s, &big, &res);
    /* A reduced capacity moves the bank borders the plan assumes
       (mem_bytes / banks) away from the hardware's: not on a bank split. */
    if (!b->arch) {
        prove(b, &s, env_int("CG_TILED_MEM", 4096), &small);
        map_once(&s, &small, cg_tile_dfg_graph(big.ft.td), &res);
        simulate(&s, &small, &res);
    }
    cg_map_result_free(&res);
    cg_flow_tiling_free(&small.ft);
    cg_flow_tiling_free(&big.ft);
    release(&s);
    cg_diags_destroy(d);
}

/* Extract `tag` of benchmarks/microbench/NAME/NAME.c and plan it on the
 * default architecture with a 1 KiB tile memory. */
static cg_tile_plan *micro_plan(const char *name, const char *flags_in,
                                cg_extract_prog **x, cg_dfg **g,
                                cg_netlist **nl, cg_arch **a, cg_diags *d)
{
    char file[256], flags[128];
    snprintf(file, sizeof file, "benchmarks/microbench/%s/%s.c", name, name);
    snprintf(flags, sizeof flags, "%s", flags_in);
    cg_extract_params p;
    cg_extract_params_init(&p);
    assert_int_equal(cg_extract_params_parse(&p, flags, file, d), 0);
    *x = cg_extract_open(file, &p, d);
    assert_non_null(*x);
    *g = cg_extract_loop(*x, name, d);
    assert_non_null(*g);
    *a = cg_arch_default(d);
    *nl = cg_arch_flatten(*a, d);
    cg_tile_params tp;
    cg_tile_params_init(&tp);
    tp.mem_bytes = 1024;
    cg_tile_plan *plan = cg_tile_plan_dfg(*g, *nl, &tp, d);
    print_diags(d);
    assert_non_null(plan);
    return plan;
}

/* The microbenchmark gemv stores its sum after the loop: refused, naming
 * the output and its line. */
static void test_live_out(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_extract_prog *x;
    cg_dfg *g;
    cg_netlist *nl;
    cg_arch *a;
    cg_tile_plan *plan = micro_plan("gemv", "", &x, &g, &nl, &a, d);
    assert_null(cg_tile_dfg_build(plan, g, d));
    assert_int_equal(cg_diags_size(d), 1);
    char *msg = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(msg, "benchmarks/microbench/gemv/gemv.c:11: error: "
                        "loop 'gemv': a value leaves the loop (output "
                        "'output17'); a tiled run keeps only memory (store "
                        "the value inside the loop)");
    free(msg);
    cg_tile_plan_destroy(plan);
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    cg_dfg_destroy(g);
    cg_extract_close(x);
    cg_diags_destroy(d);
}

/* saxpy's alpha is a kernel parameter, not affine in any counter: without
 * invariant values the run's inputs cannot be made. */
static void test_no_invariant(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_extract_prog *x;
    cg_dfg *g;
    cg_netlist *nl;
    cg_arch *a;
    cg_tile_plan *plan = micro_plan("saxpy", "--sym alpha=-7", &x, &g, &nl,
                                    &a, d);
    cg_tile_dfg *td = cg_tile_dfg_build(plan, g, d);
    assert_non_null(td);
    uint64_t in[64] = {0};
    int64_t k[CG_TILE_MAX_LOOPS] = {0};
    assert_true(cg_dfg_nnodes(cg_tile_dfg_graph(td)) <= 64);
    assert_int_equal(cg_tile_dfg_inputs(td, 0, k, NULL, in, d), -1);
    assert_int_equal(cg_diags_size(d), 1);
    char *msg = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(msg, "benchmarks/microbench/saxpy/saxpy.c:8: error: "
                        "loop 'saxpy': live-in 'alpha' is not affine in the "
                        "outer counters; the tiled run needs its value "
                        "(invariant inputs)");
    free(msg);
    cg_tile_dfg_destroy(td);
    cg_tile_plan_destroy(plan);
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    cg_dfg_destroy(g);
    cg_extract_close(x);
    cg_diags_destroy(d);
}

/* A plan and a DFG it was not made from: refused, not a crash. */
static void test_wrong_dfg(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_extract_prog *x1, *x2;
    cg_dfg *g1, *g2;
    cg_netlist *nl1, *nl2;
    cg_arch *a1, *a2;
    cg_tile_plan *p1 = micro_plan("relu", "", &x1, &g1, &nl1, &a1, d);
    cg_tile_plan *p2 = micro_plan("saxpy", "--sym alpha=-7", &x2, &g2, &nl2,
                                  &a2, d);
    assert_null(cg_tile_dfg_build(p2, g1, d));
    assert_int_equal(cg_diags_size(d), 1);
    char *msg = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(msg, "benchmarks/microbench/relu/relu.c: error: "
                        "loop 'relu': the plan's access 0 (node 9) is not "
                        "a load of this DFG; build the tile DFG from the DFG "
                        "the plan was made from");
    free(msg);
    cg_tile_plan_destroy(p1);
    cg_tile_plan_destroy(p2);
    cg_netlist_destroy(nl1);
    cg_netlist_destroy(nl2);
    cg_arch_destroy(a1);
    cg_arch_destroy(a2);
    cg_dfg_destroy(g1);
    cg_dfg_destroy(g2);
    cg_extract_close(x1);
    cg_extract_close(x2);
    cg_diags_destroy(d);
}

/* Every folder of benchmarks/tiled with a Makefile: its first LOOP_TAG. */
static int collect(bench **out)
{
    const char *root = "benchmarks/tiled";
    struct dirent **ents = NULL;
    int ne = scandir(root, &ents, NULL, alphasort), n = 0;
    assert_true(ne > 0);
    *out = calloc((size_t)ne, sizeof **out);
    for (int i = 0; i < ne; i++) {
        bench v;
        char mk[600];
        memset(&v, 0, sizeof v);
        snprintf(v.dir, sizeof v.dir, "%s/%.200s", root, ents[i]->d_name);
        snprintf(mk, sizeof mk, "%s/Makefile", v.dir);
        cg_extract_makefile m;
        cg_diags *d = cg_diags_create();
        if (ents[i]->d_name[0] != '.' &&
            cg_extract_makefile_read(mk, &m, d) == 0) {
            snprintf(v.file, sizeof v.file, "%s/%.200s.c", v.dir,
                     ents[i]->d_name);
            snprintf(v.flags, sizeof v.flags, "%s",
                     m.dfg_flags ? m.dfg_flags : "");
            snprintf(v.cflags, sizeof v.cflags, "%s", m.cflags ? m.cflags : "");
            char *save = NULL, *t = strtok_r(m.loop_tags, " ", &save);
            if (t) {
                snprintf(v.tag, sizeof v.tag, "%s", t);
                (*out)[n++] = v;
            }
            cg_extract_makefile_free(&m);
        }
        cg_diags_destroy(d);
        free(ents[i]);
    }
    free(ents);
    return n;
}

int main(void)
{
    bench *bs = NULL;
    int n = collect(&bs);
    const char *only = getenv("CG_TILED_ONLY");
    int nb = (int)(sizeof bank_tags / sizeof *bank_tags);
    bs = realloc(bs, ((size_t)n + (size_t)nb) * sizeof *bs);
    for (int i = 0, m = n; i < m; i++) {
        snprintf(bs[i].name, sizeof bs[i].name, "%s", bs[i].tag);
        for (int j = 0; j < nb; j++)
            if (strcmp(bs[i].tag, bank_tags[j]) == 0) {
                bs[n] = bs[i];
                bs[n].arch = BANK_ARCH;
                snprintf(bs[n].name, sizeof bs[n].name, "%s (bank split)",
                         bs[i].tag);
                n++;
            }
    }
    struct CMUnitTest *tests = calloc((size_t)n + 4, sizeof *tests);
    int k = 0;
    if (!only) {
        tests[k++] = (struct CMUnitTest){"live_out", test_live_out, NULL,
                                         NULL, NULL};
        tests[k++] = (struct CMUnitTest){"no_invariant", test_no_invariant,
                                         NULL, NULL, NULL};
        tests[k++] = (struct CMUnitTest){"wrong_dfg", test_wrong_dfg, NULL,
                                         NULL, NULL};
    }
    for (int i = 0; i < n; i++)
        if (!only || strcmp(only, bs[i].tag) == 0)
            tests[k++] = (struct CMUnitTest){bs[i].name, test_tiled, NULL,
                                             NULL, &bs[i]};
    int rc = _cmocka_run_group_tests("tiled_run", tests, (size_t)k, NULL,
                                     NULL);
    free(tests);
    free(bs);
    return rc;
}
