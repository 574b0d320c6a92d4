/* test_extract_proof.c: every tagged loop of every benchmark computes what
 * its C code computes.  The globals get seeded random bytes, the kernel runs
 * natively (LLVM MCJIT, cg_extract_run) and at each execution of the tagged
 * loop the DFG interpreter, started from the same memory and live-ins for
 * the trip count the extractor recorded, must leave byte-identical memory
 * and the same live-outs (the flow stage's replay, cg_flow_replay, without
 * a mapping).  The loop nest the extractor recorded is checked against the
 * same executions.  Each loop is proven three ways: by default, without
 * phi/leaf removal, and in CGRA-ME's shape (the loop control left to the
 * array's controller: no exit compare; the count is the native run's, as
 * the main job's verification takes it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "extract/extract.h"
#include "flow/flow.h"

/* One tagged loop of one benchmark, with or without phi/leaf removal. */
typedef struct variant {
    char dir[256];      /* benchmarks/microbench/NAME, benchmarks/large/NAME */
    char file[512];     /* .../NAME.c */
    char tag[64];
    char flags[256];    /* DFG_FLAGS of the folder's Makefile */
    char cflags[256];   /* CFLAGS */
    bool raw;           /* -no-phi-removal -no-leaf-removal -no-hoist */
    bool array;         /* array_control (--loop-control array) */
    int addr_width;     /* 0: the default */
    char name[128];
} variant;

typedef struct check {
    const cg_dfg *g;
    int64_t trip;
    int64_t instances;
    int failures;
    char first[512];
} check;

__attribute__((format(printf, 2, 3)))
static void fail_once(check *c, const char *fmt, ...)
{
    if (c->failures++)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->first, sizeof c->first, fmt, ap);
    va_end(ap);
}

static void check_accesses(check *c, const cg_extract_instance *in,
                           const int64_t *k);

/* The nest's live-ins, evaluated at the outer counters of this instance
 * (instances run in row-major order of the outer loops), are the values
 * the native code had. */
static void check_nest(check *c, const cg_extract_instance *in)
{
    const cg_nest *n = cg_dfg_nest(c->g);
    int64_t k[CG_NEST_MAX_LOOPS] = {0}, rest = in->index;
    for (int l = n->nloops - 2; l >= 0; l--) {
        if (n->loops[l].trip <= 0)
            return; /* no constant nest: nothing to check against */
        k[l] = rest % n->loops[l].trip;
        rest /= n->loops[l].trip;
    }
    for (int i = 0; i < n->nliveins; i++) {
        const cg_nest_livein *li = &n->liveins[i];
        if (!li->value.is_affine)
            continue;
        int64_t v = li->value.cst;
        for (int l = 0; l < n->nloops - 1; l++)
            v += li->value.coef[l] * (n->loops[l].start + n->loops[l].step * k[l]);
        int w = cg_dfg_get_node(c->g, li->node)->width;
        if (cg_trunc((uint64_t)v, w) != cg_trunc(in->inputs[li->node], w))
            fail_once(c, "instance %lld: live-in node %d is %lld by the nest, "
                      "%lld natively", (long long)in->index, li->node,
                      (long long)v, (long long)in->inputs[li->node]);
    }
    check_accesses(c, in, k);
}

/* g plus an output per load/store fed like its address operand; *first
 * receives the id of the first added output. */
static cg_dfg *with_address_outputs(const cg_dfg *g, int *first)
{
    cg_dfg *h = cg_dfg_create("addresses");
    int n = cg_dfg_nnodes(g);
    for (int i = 0; i < n; i++) {
        const cg_dfg_node *a = cg_dfg_get_node(g, i);
        int id = cg_dfg_add_node(h, a->op, a->width, NULL);
        cg_dfg_node *b = cg_dfg_node_mut(h, id);
        b->pred = a->pred;
        b->has_value = a->has_value;
        b->value = a->value;
        if (a->sym)
            cg_dfg_set_sym(h, id, a->sym);
    }
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        cg_dfg_add_edge(h, x->src, x->dst, x->operand, x->distance, x->init);
    }
    *first = n;
    const cg_nest *ne = cg_dfg_nest(g);
    for (int a = 0; a < ne->naccesses; a++) {
        const cg_dfg_edge *x =
            cg_dfg_get_edge(g, cg_dfg_operand_edge(g, ne->accesses[a].node, 0));
        int o = cg_dfg_add_node(h, CG_OP_OUTPUT,
                                cg_dfg_get_node(g, x->src)->width, NULL);
        cg_dfg_add_edge(h, x->src, o, 0, x->distance, x->init);
    }
    return h;
}

/* The nest's affine accesses give the addresses the DFG computes in every
 * iteration (read through extra outputs, one run per iteration count). */
static void check_accesses(check *c, const cg_extract_instance *in,
                           const int64_t *k)
{
    const cg_nest *ne = cg_dfg_nest(c->g);
    int first, last = ne->nloops - 1;
    cg_dfg *h = with_address_outputs(c->g, &first);
    int n = cg_dfg_nnodes(h);
    uint64_t *ins = calloc((size_t)n, sizeof *ins);
    uint64_t *outs = calloc((size_t)n, sizeof *outs);
    memcpy(ins, in->inputs, (size_t)cg_dfg_nnodes(c->g) * sizeof *ins);
    cg_mem m = *in->before;
    m.data = malloc((size_t)m.size);
    cg_diags *d = cg_diags_create();
    for (int64_t it = 1; it <= in->iters && !c->failures; it++) {
        memcpy(m.data, in->before->data, (size_t)m.size);
        if (cg_dfg_run(h, it, &m, ins, outs, d)) {
            fail_once(c, "instance %lld: address run failed",
                      (long long)in->index);
            break;
        }
        for (int a = 0; a < ne->naccesses; a++) {
            const cg_nest_access *x = &ne->accesses[a];
            if (!x->index.is_affine || x->array < 0)
                continue;
            int64_t v = ne->arrays[x->array].base + x->index.cst;
            for (int l = 0; l < ne->nloops; l++) {
                int64_t kk = l == last ? it - 1 : k[l];
                v += x->index.coef[l] *
                     (ne->loops[l].start + ne->loops[l].step * kk);
            }
            if ((uint64_t)v != outs[first + a])
                fail_once(c, "instance %lld iteration %lld: access node %d "
                          "at 0x%llx, the nest says 0x%llx",
                          (long long)in->index, (long long)(it - 1), x->node,
                          (unsigned long long)outs[first + a],
                          (unsigned long long)v);
        }
    }
    cg_diags_destroy(d);
    free(m.data);
    free(ins);
    free(outs);
    cg_dfg_destroy(h);
}

/* One execution of the loop: the DFG from the same state. */
static void on_instance(void *arg, const cg_extract_instance *in)
{
    check *c = arg;
    c->instances++;
    check_nest(c, in);
    if (c->trip >= 0 && in->iters != c->trip)
        fail_once(c, "instance %lld ran %lld iterations, nest says %lld",
                  (long long)in->index, (long long)in->iters,
                  (long long)c->trip);
    cg_diags *d = cg_diags_create();
    if (cg_flow_replay(NULL, NULL, NULL, c->g, in, "the C code", d) != 0) {
        char *msg = cg_diags_size(d) ? cg_diag_format(cg_diags_get(d, 0))
                                     : NULL;
        fail_once(c, "instance %lld: %s", (long long)in->index,
                  msg ? msg : "?");
        free(msg);
    }
    cg_diags_destroy(d);
}

static void print_diags(const cg_diags *d)
{
    for (int i = 0; i < cg_diags_size(d); i++) {
        char *s = cg_diag_format(cg_diags_get(d, i));
        fprintf(stderr, "%s\n", s);
        free(s);
    }
}

static void test_proof(void **state)
{
    const variant *v = *state;
    char flags[256];
    snprintf(flags, sizeof flags, "%s", v->flags);
    cg_extract_params p;
    cg_extract_params_init(&p);
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_extract_params_parse(&p, flags, v->dir, d), 0);
    if (v->raw)
        p.phi_removal = p.leaf_removal = p.hoist = false;
    p.array_control = v->array;
    if (v->addr_width)
        p.addr_width = v->addr_width;
    p.cflags = v->cflags;
    cg_extract_prog *x = cg_extract_open(v->file, &p, d);
    print_diags(d);
    assert_non_null(x);
    cg_dfg *g = cg_extract_loop(x, v->tag, d);
    print_diags(d);
    assert_non_null(g);
    assert_int_equal(cg_dfg_check(g, d), 0);
    cg_mem mem;
    assert_int_equal(cg_extract_image(x, &mem), 0);
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    for (const char *s = v->file; *s; s++)
        seed = seed * 31 + (uint8_t)*s;
    cg_extract_fill_random(x, &mem, seed);
    check c = {.g = g, .trip = cg_extract_trip(g)};
    assert_true(c.trip > 0);
    int64_t n = 0;
    int rc = cg_extract_run(x, v->tag, &mem, on_instance, &c, &n, d);
    print_diags(d);
    assert_int_equal(rc, 0);
    if (c.failures)
        fprintf(stderr, "%s: %d failure(s), first: %s\n", v->name,
                c.failures, c.first);
    assert_int_equal(c.failures, 0);
    assert_true(n >= 1);
    assert_int_equal(n, c.instances);
    free(mem.data);
    cg_dfg_destroy(g);
    cg_extract_close(x);
    cg_diags_destroy(d);
}

/* Each tag of the folder dir/name's LOOP_TAGS (if it has a Makefile), with
 * the default options, with phi/leaf removal off and with the array's loop
 * control, appended to out[*n]
 * while *n < cap. */
static void collect_folder(const char *root, const char *name, variant *out,
                           int *n, int cap)
{
    char mk[600];
    variant v = {.raw = false};
    snprintf(v.dir, sizeof v.dir, "%s/%.200s", root, name);
    snprintf(mk, sizeof mk, "%s/Makefile", v.dir);
    cg_extract_makefile m;
    cg_diags *d = cg_diags_create();
    if (name[0] != '.' && cg_extract_makefile_read(mk, &m, d) == 0) {
        snprintf(v.file, sizeof v.file, "%s/%.200s.c", v.dir, name);
        snprintf(v.flags, sizeof v.flags, "%s", m.dfg_flags ? m.dfg_flags : "");
        snprintf(v.cflags, sizeof v.cflags, "%s", m.cflags ? m.cflags : "");
        char *save = NULL;
        for (char *t = strtok_r(m.loop_tags, " ", &save); t && *n < cap - 1;
             t = strtok_r(NULL, " ", &save))
            for (int way = 0; way < 3; way++) {
                snprintf(v.tag, sizeof v.tag, "%s", t);
                v.raw = way == 1;
                v.array = way == 2;
                snprintf(v.name, sizeof v.name, "%s%s", t,
                         way == 1   ? " (no phi/leaf removal)"
                         : way == 2 ? " (loop control by the array)"
                                    : "");
                out[(*n)++] = v;
            }
        cg_extract_makefile_free(&m);
    }
    cg_diags_destroy(d);
}

/* The narrowing's own cases (tests/extract/data/widths.c): an unknown offset
 * proven by inbounds, a 64-bit sum, symbolic trip counts, a loaded index,
 * each both ways; the loaded index also narrowed in part, at 17 bits. */
static void collect_widths(variant *out, int *n, int cap)
{
    static const char *const tags[] = {"offset", "wide", "symtrip",
                                       "symlong", "gather"};
    for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
        for (int way = 0; way < 3 && *n < cap; way++) {
            if (way == 2 && strcmp(tags[i], "gather"))
                continue;
            variant v = {.raw = way == 1, .addr_width = way == 2 ? 17 : 0};
            snprintf(v.dir, sizeof v.dir, "tests/extract/data");
            snprintf(v.file, sizeof v.file, "tests/extract/data/widths.c");
            snprintf(v.tag, sizeof v.tag, "%s", tags[i]);
            snprintf(v.flags, sizeof v.flags, "--sym k=3 --sym n=10 "
                     "--sym m=10");
            snprintf(v.name, sizeof v.name, "widths.c %s%s", tags[i],
                     way == 1 ? " (no phi/leaf removal)"
                     : way == 2 ? " at 17 bits" : "");
            out[(*n)++] = v;
        }
}

/* Chains of phis (tests/extract/data/phis.c), each three ways. */
static void collect_phis(variant *out, int *n, int cap)
{
    static const char *const tags[] = {"three", "five"};
    for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
        for (int way = 0; way < 3 && *n < cap; way++) {
            variant v = {.raw = way == 1, .array = way == 2};
            snprintf(v.dir, sizeof v.dir, "tests/extract/data");
            snprintf(v.file, sizeof v.file, "tests/extract/data/phis.c");
            snprintf(v.tag, sizeof v.tag, "%s", tags[i]);
            snprintf(v.name, sizeof v.name, "phis.c %s%s", tags[i],
                     way == 1   ? " (no phi/leaf removal)"
                     : way == 2 ? " (loop control by the array)"
                                : "");
            out[(*n)++] = v;
        }
}

/* Every folder of benchmarks/microbench and benchmarks/large with a
 * Makefile, every tag of its LOOP_TAGS, with the default options, with
 * phi/leaf removal off and with the array's loop control; then the loops
 * of tests/extract/data/widths.c and phis.c. */
static int collect(variant **out)
{
    static const char *const roots[] = {"benchmarks/microbench",
                                        "benchmarks/large"};
    enum { CAP = 1024 };
    int n = 0;
    *out = calloc(CAP, sizeof **out);
    for (size_t r = 0; r < sizeof roots / sizeof *roots; r++) {
        struct dirent **ents = NULL;
        int ne = scandir(roots[r], &ents, NULL, alphasort);
        assert_true(ne > 0);
        for (int i = 0; i < ne; i++) {
            collect_folder(roots[r], ents[i]->d_name, *out, &n, CAP);
            free(ents[i]);
        }
        free(ents);
    }
    collect_widths(*out, &n, CAP);
    collect_phis(*out, &n, CAP);
    return n;
}

int main(void)
{
    variant *vs = NULL;
    int n = collect(&vs);
    struct CMUnitTest *tests = calloc((size_t)n + 1, sizeof *tests);
    for (int i = 0; i < n; i++)
        tests[i] = (struct CMUnitTest){vs[i].name, test_proof, NULL, NULL,
                                       &vs[i]};
    int rc = _cmocka_run_group_tests("extract_proof", tests, (size_t)n, NULL,
                                     NULL);
    free(tests);
    free(vs);
    return rc;
}
