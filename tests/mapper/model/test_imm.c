/* test_imm.c: immediates (mapper/model/imm.c) and what the checker, the
 * simulator and the writers make of them.  The reduction folds a const
 * only when every unit that can run its consumer takes an immediate on
 * that operand and the value fits (node and edge counts, renumbering, the
 * memory order kept); the checker accepts sq (map_fixture.h) with 'one'
 * as f0's immediate on pipe_netlist_imm and rejects it, with exact
 * messages, on units without the immediate, with a field too narrow, with
 * a route left, without a value or a use; the simulator feeds the field
 * (a too narrow one changes the result); cg_map computes the MII on the
 * reduced graph; scale and relu mapped on the shipped default 4x4 with and
 * without immediates simulate to byte-identical memory. */
#include "../map_fixture.h"

#include "mapper/model/imm_internal.h"
#include "xml/xml.h"

/* ---- the reduction ------------------------------------------------------ */

static void reduce(const cg_netlist *nl, const cg_dfg *g, cg__imm_red *r)
{
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg__imm_reduce(nl, g, r, d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
}

/* sq on pipe: 'one' feeds operand 1 (in_b) of the add 'n'; f0, f1 and f2
 * all run add, so all must take in_b. */
static void test_reduce_sq(void **state)
{
    (void)state;
    cg_dfg *g = sq_dfg();
    cg__imm_red r;
    cg_netlist *nl = pipe_netlist();
    reduce(nl, g, &r); /* no immediates: nothing folds */
    assert_null(r.g);
    cg_netlist_destroy(nl);
    nl = pipe_netlist_imm(1, 0); /* in_a only */
    reduce(nl, g, &r);
    assert_null(r.g);
    cg_netlist_destroy(nl);
    nl = pipe_netlist_imm(2, 0);
    reduce(nl, g, &r);
    assert_non_null(r.g);
    assert_int_equal(cg_dfg_nnodes(r.g), 5);
    assert_int_equal(cg_dfg_nedges(r.g), 8);
    const int node[] = {0, -1, 1, 2, 3, 4};
    const int edge[] = {0, -1, 1, 2, 3, 4, 5, 6, 7};
    assert_memory_equal(r.node, node, sizeof node);
    assert_memory_equal(r.edge, edge, sizeof edge);
    assert_string_equal(cg_dfg_get_node(r.g, 1)->name, "a");
    assert_string_equal(cg_dfg_name(r.g), "sq");
    const cg_dfg_edge *x = cg_dfg_get_edge(r.g, 0);
    assert_true(x->src == 0 && x->dst == 0 && x->operand == 0 &&
                x->distance == 1);
    cg__imm_red_free(&r);
    cg_netlist_destroy(nl);
    cg_dfg_destroy(g);
}

/* Two adders, a0 with an immediate on in_b of bits bits, a1 with
 * (imm1) or without; an IO. */
static cg_netlist *two_adders(int bits, bool imm1)
{
    cg_diags *d = cg_diags_create();
    int top;
    cg_arch *a = top_only(&top, d);
    cg_arch_set_grid(a, 1, 1);
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_FUNC);
    p.ops = CG_OPSET(CG_OP_ADD);
    p.imm_operands = 2;
    p.imm_width = bits;
    cg_arch_add_prim(a, top, "a0", &p, d);
    p.imm_operands = imm1 ? 2 : 0;
    p.imm_width = imm1 ? bits : 0;
    cg_arch_add_prim(a, top, "a1", &p, d);
    cg_prim_params_init(&p, CG_PRIM_IO);
    cg_arch_add_prim(a, top, "io", &p, d);
    cg_arch_connect(a, top, "io.out", "a0.in_a a0.in_b a1.in_a a1.in_b", d);
    cg_arch_connect(a, top, "a0.out", "io.in", d);
    return flatten_ok(a, d);
}

/* x = input + k with k of value v: folded or not. */
static bool folds(const cg_netlist *nl, int64_t v)
{
    cg_dfg *g = cg_dfg_create("k");
    int in = dfg_node(g, CG_OP_INPUT, "in"), k = dfg_node(g, CG_OP_CONST, "k");
    int x = dfg_node(g, CG_OP_ADD, "x");
    cg_dfg_set_value(g, k, v);
    cg_dfg_add_edge(g, in, x, 0, 0, -1);
    cg_dfg_add_edge(g, k, x, 1, 0, -1);
    cg__imm_red r;
    reduce(nl, g, &r);
    bool f = r.g != NULL;
    if (f)
        assert_int_equal(cg_dfg_nnodes(r.g), 2);
    cg__imm_red_free(&r);
    cg_dfg_destroy(g);
    return f;
}

/* Every unit that can run the consumer must take the immediate, and a
 * 4-bit field holds -8..7 of the value read as a signed 32-bit number. */
static void test_reduce_rule(void **state)
{
    (void)state;
    cg_netlist *nl = two_adders(0, false);
    assert_false(folds(nl, 1));
    cg_netlist_destroy(nl);
    nl = two_adders(4, true);
    assert_true(folds(nl, 7));
    assert_true(folds(nl, -8));
    assert_true(folds(nl, 0xfffffff8)); /* -8 in 32 bits */
    assert_false(folds(nl, 8));
    assert_false(folds(nl, -9));
    cg_netlist_destroy(nl);
}

/* A const only used as an initial value stays; one without a value too. */
static void test_reduce_keeps(void **state)
{
    (void)state;
    cg_netlist *nl = pipe_netlist_imm(3, 0);
    cg_dfg *g = cg_dfg_create("keep");
    int z = dfg_node(g, CG_OP_CONST, "z"), n = dfg_node(g, CG_OP_ADD, "n");
    int u = cg_dfg_add_node(g, CG_OP_CONST, 32, "u");
    cg_dfg_add_edge(g, n, n, 0, 1, z);
    cg_dfg_add_edge(g, u, n, 1, 0, -1);
    cg__imm_red r;
    reduce(nl, g, &r);
    assert_null(r.g);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* scale's consts fold (c4 into i's in_b, k into the multiplier's in_b);
 * the stated memory order and the nest follow the new ids. */
static void test_reduce_memory_order(void **state)
{
    (void)state;
    cg_netlist *nl = pipe_netlist_imm(2, 0);
    cg_dfg *g = scale_dfg();
    int x = cg_dfg_find(g, "x"), st = cg_dfg_find(g, "st");
    cg_mem_order o = {x, st, 1, 0};
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_set_mem_order(g, &o, 1, d), 0);
    cg_diags_destroy(d);
    cg__imm_red r;
    reduce(nl, g, &r);
    assert_int_equal(cg_dfg_nnodes(r.g), 8);
    const cg_mem_order *v;
    assert_int_equal(cg_dfg_mem_order(r.g, &v), 1);
    assert_int_equal(v[0].first, cg_dfg_find(r.g, "x"));
    assert_int_equal(v[0].then, cg_dfg_find(r.g, "st"));
    assert_int_equal(v[0].distance, 1);
    cg__imm_red_free(&r);
    cg_dfg_clear_mem_order(g);
    cg_nest *nest = calloc(1, sizeof *nest);
    nest->nloops = 1;
    nest->loops[0].counter = strdup("i");
    nest->loops[0] = (cg_nest_loop){nest->loops[0].counter, 1, 0, 1, 32,
                                    NULL, false};
    nest->narrays = 1;
    nest->arrays = calloc(1, sizeof *nest->arrays);
    nest->arrays[0].name = strdup("a");
    nest->arrays[0].bytes = 256;
    nest->arrays[0].elem_size = 4;
    nest->naccesses = 2;
    nest->accesses = calloc(2, sizeof *nest->accesses);
    nest->accesses[0] = (cg_nest_access){x, false, 0, {true, 0, {4}}};
    nest->accesses[1] = (cg_nest_access){st, true, 0, {true, 64, {4}}};
    cg_dfg_set_nest(g, nest);
    reduce(nl, g, &r);
    const cg_nest *rn = cg_dfg_nest(r.g);
    assert_non_null(rn);
    assert_int_equal(rn->naccesses, 2);
    assert_int_equal(rn->accesses[0].node, cg_dfg_find(r.g, "x"));
    assert_int_equal(rn->accesses[1].node, cg_dfg_find(r.g, "st"));
    assert_string_equal(rn->arrays[0].name, "a");
    assert_string_equal(rn->loops[0].counter, "i");
    assert_int_equal(rn->accesses[1].index.cst, 64);
    cg_mem_order *mo = NULL, *ro = NULL;
    int n = cg_map_mem_orders(g, &mo);
    assert_true(n >= 1);
    assert_int_equal(cg_map_mem_orders(r.g, &ro), n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(ro[i].first, r.node[mo[i].first]);
        assert_int_equal(ro[i].then, r.node[mo[i].then]);
        assert_int_equal(ro[i].distance, mo[i].distance);
    }
    free(mo);
    free(ro);
    cg__imm_red_free(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* ---- checker and simulator on sq with 'one' folded ---------------------- */

/* sq's balanced mapping on pipe_netlist_imm(imm, bits) with 'one' as f0's
 * immediate (route kept when keep_route). */
static sq_fx *folded(unsigned imm, int bits, bool keep_route)
{
    sq_fx *f = calloc(1, sizeof *f);
    cg_diags *d = cg_diags_create();
    f->nl = pipe_netlist_imm(imm, bits);
    f->m = cg_mrrg_build(f->nl, 1, d);
    f->g = sq_dfg();
    f->map = sq_mapping(f->m, f->nl);
    f->map->place[N_ONE] = -1;
    if (!keep_route) {
        free(f->map->route[E_ONE]);
        f->map->route[E_ONE] = NULL;
        f->map->route_len[E_ONE] = 0;
    }
    memset(f->mem, 0xaa, SQ_MEM);
    cg_diags_destroy(d);
    return f;
}

static void expect_checked(sq_fx *f, const char *msgs)
{
    cg_diags *d = cg_diags_create();
    int rc = cg_map_check(f->nl, f->m, f->g, f->map, d);
    char *s = diag_text(d);
    assert_string_equal(s, msgs);
    assert_int_equal(rc, msgs[0] ? -1 : 0);
    free(s);
    cg_diags_destroy(d);
}

/* Simulate 5 iterations; the messages. */
static char *simulate(sq_fx *f)
{
    cg_diags *d = cg_diags_create();
    cg_mem m = {f->mem, 0, SQ_MEM};
    cg_sim_run(f->nl, f->m, f->g, f->map, 5, &m, f->in, f->out, d);
    char *s = diag_text(d);
    cg_diags_destroy(d);
    return s;
}

static void free_fx(sq_fx *f)
{
    void *p = f;
    sq_teardown(&p);
}

static void test_check_accepts(void **state)
{
    (void)state;
    sq_fx *f = folded(2, 0, false);
    expect_checked(f, "");
    free_fx(f);
    f = folded(2, 2, false); /* 1 fits 2 bits (-2..1) */
    expect_checked(f, "");
    free_fx(f);
}

static void test_check_rejects(void **state)
{
    (void)state;
    sq_fx *f = folded(1, 0, false);
    expect_checked(f, "error: edge 1 'one'->'n' (operand 1, distance 0): const "
                    "'one' is not placed, so it must be an immediate, but "
                    "f0@c0 takes no immediate on operand 1\n");
    free_fx(f);
    f = folded(2, 1, false);
    expect_checked(f, "error: edge 1 'one'->'n' (operand 1, distance 0): const "
                    "'one' = 1 does not fit the 1-bit immediate of f0@c0 "
                    "(-1..0)\n");
    free_fx(f);
    f = folded(2, 0, true);
    expect_checked(f, "error: edge 1 'one'->'n' (operand 1, distance 0): 'one' "
                    "is an immediate (not placed) but the edge has a route "
                    "of 4 nodes; an immediate needs none\n");
    free_fx(f);
    f = folded(2, 0, false);
    cg_dfg_node_mut(f->g, N_ONE)->has_value = false;
    expect_checked(f, "error: const 'one' is not placed, so it must be an "
                    "immediate, but it has no value\n");
    free_fx(f);
}

/* An unplaced const that feeds nothing is no immediate. */
static void test_check_unused(void **state)
{
    (void)state;
    sq_fx f = {0};
    cg_diags *d = cg_diags_create();
    f.nl = pipe_netlist_imm(2, 0);
    f.m = cg_mrrg_build(f.nl, 1, d);
    f.g = cg_dfg_create("lone");
    dfg_node(f.g, CG_OP_CONST, "k");
    f.map = cg_mapping_create(1, 1, 0);
    expect_checked(&f, "error: const 'k' is not placed but feeds no operand "
                     "to be an immediate of; place it on a ConstUnit\n");
    cg_diags_destroy(d);
    cg_mapping_destroy(f.map);
    cg_dfg_destroy(f.g);
    cg_mrrg_destroy(f.m);
    cg_netlist_destroy(f.nl);
}

/* The field feeds the operand: the same memory and live-out as 'one' on
 * the ConstUnit; a 1-bit field holds 1 as -1, so n counts down. */
static void test_sim_feeds_field(void **state)
{
    (void)state;
    uint8_t want[SQ_MEM];
    memset(want, 0xaa, SQ_MEM);
    uint64_t o = sq_expected(5, want, SQ_MEM);
    sq_fx *f = folded(2, 0, false);
    char *s = simulate(f);
    assert_string_equal(s, "");
    free(s);
    assert_int_equal(f->out[N_O], o);
    assert_memory_equal(f->mem, want, SQ_MEM);
    free_fx(f);
    f = folded(2, 1, false);
    s = simulate(f);
    free(s);
    assert_int_equal(f->out[N_O], 20); /* n = -5: -5 + 25 */
    free_fx(f);
    f = folded(1, 0, false);
    s = simulate(f);
    assert_string_equal(s, "error: simulation: cannot configure const 'one' "
                           "as an immediate of 'n' (operand 1): f0@c0 takes "
                           "no immediate there\n");
    free(s);
    free_fx(f);
}

/* ---- cg_map around the reduction ----------------------------------------- */

/* a = a' + c1, b = a + c2, output b: two consts on pipe's one ConstUnit
 * need II 2; as immediates the MII is 1, and the mapping is expanded to
 * the original ids. */
static void test_map_mii_on_reduced(void **state)
{
    (void)state;
    cg_dfg *g = cg_dfg_create("two");
    int c1 = dfg_node(g, CG_OP_CONST, "c1"), a = dfg_node(g, CG_OP_ADD, "a");
    int c2 = dfg_node(g, CG_OP_CONST, "c2"), b = dfg_node(g, CG_OP_ADD, "b");
    int o = dfg_node(g, CG_OP_OUTPUT, "o");
    const int e[][4] = {{a, a, 0, 1}, {c1, a, 1, 0}, {a, b, 0, 0},
                        {c2, b, 1, 0}, {b, o, 0, 0}};
    checked(g, e, sizeof e / sizeof e[0]);
    cg_map_params p;
    cg_map_params_init(&p);
    p.max_ii = 1;
    p.timeout_s = 10;
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    cg_netlist *nl = pipe_netlist();
    assert_int_equal(cg_map(nl, g, &p, &r, d), -1);
    char *s = diag_text(d);
    assert_string_equal(s, "error: 'two' needs II >= 2 (ResMII 2, bottleneck "
                           "op 'const'; RecMII 0) but the highest II allowed "
                           "is 1: raise the II limit (--max-ii), or "
                           "leave it out to follow the MII\n");
    free(s);
    cg_map_result_free(&r);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
    d = cg_diags_create();
    nl = pipe_netlist_imm(2, 0);
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_MAPPED);
    assert_int_equal(r.mii.mii, 1);
    assert_int_equal(r.fus_used, 3);
    assert_int_equal(r.mapping->nnodes, 5);
    assert_int_equal(r.mapping->nedges, 5);
    assert_int_equal(r.mapping->place[c1], -1);
    assert_int_equal(r.mapping->place[c2], -1);
    assert_int_equal(r.mapping->route_len[1], 0);
    assert_int_equal(r.mapping->route_len[3], 0);
    assert_int_equal(r.mapping->start[c2], r.mapping->start[b]);
    assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
    uint64_t out[5] = {0};
    cg_dfg_set_value(g, c1, 3);
    cg_dfg_set_value(g, c2, -1);
    assert_int_equal(cg_sim_run(nl, r.mrrg, g, r.mapping, 4, NULL, NULL, out,
                                d), 0);
    assert_int_equal(out[o], 11); /* a = 12, b = a - 1 */
    assert_int_equal(cg_diags_size(d), 0);
    cg_map_result_free(&r);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
}

static cg_netlist *xml_netlist(const char *path)
{
    cg_diags *d = cg_diags_create();
    return flatten_ok(cg_xml_read(path, NULL, d), d);
}

/* relu: narrow loads, sext, icmp against 0, select on in_c (see
 * verify/test_sim.c); here with a constant 5 on select's in_b so that the
 * immediate reaches every operand kind. */
static cg_dfg *relu5_dfg(void)
{
    cg_dfg *g = cg_dfg_create("relu5");
    int one = dfg_node(g, CG_OP_CONST, "one"), i = dfg_node(g, CG_OP_ADD, "i");
    int x = cg_dfg_add_node(g, CG_OP_LOAD, 8, "x");
    int w = dfg_node(g, CG_OP_SEXT, "w"), z = dfg_node(g, CG_OP_CONST, "z");
    int c = dfg_node(g, CG_OP_ICMP, "c"), r = dfg_node(g, CG_OP_SELECT, "r");
    int acc = dfg_node(g, CG_OP_ADD, "acc");
    int o = dfg_node(g, CG_OP_OUTPUT, "o"), five = dfg_node(g, CG_OP_CONST,
                                                           "five");
    int st = cg_dfg_add_node(g, CG_OP_STORE, 32, "st");
    int b = dfg_node(g, CG_OP_CONST, "b"), ad = dfg_node(g, CG_OP_ADD, "ad");
    cg_dfg_set_value(g, one, 1);
    cg_dfg_set_value(g, z, 0);
    cg_dfg_set_value(g, five, 5);
    cg_dfg_set_value(g, b, 64);
    cg_dfg_node_mut(g, c)->pred = CG_PRED_SLT;
    const int e[][4] = {
        {i, i, 0, 1}, {one, i, 1, 0}, {i, x, 0, 0}, {x, w, 0, 0},
        {w, c, 0, 0}, {z, c, 1, 0}, {c, r, 0, 0}, {five, r, 1, 0},
        {w, r, 2, 0}, {acc, acc, 0, 1}, {r, acc, 1, 0}, {acc, o, 0, 0},
        {i, ad, 0, 0}, {b, ad, 1, 0}, {ad, st, 0, 0}, {r, st, 1, 0}
    };
    return checked(g, e, sizeof e / sizeof e[0]);
}

/* Map g on the shipped array, check, simulate iters iterations on mem;
 * the FUs used and the live-out of node o. */
static int map_sim(const char *arch, const cg_dfg *g, int iters,
                   uint8_t *mem, size_t bytes, int o, uint64_t *live)
{
    cg_netlist *nl = xml_netlist(arch);
    cg_map_params p;
    cg_map_params_init(&p);
    p.timeout_s = 20;
    p.max_ii = 6;
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_MAPPED);
    assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
    uint64_t out[32] = {0};
    cg_mem m = {mem, 0, bytes};
    assert_int_equal(cg_sim_run(nl, r.mrrg, g, r.mapping, iters, &m, NULL,
                                out, d), 0);
    if (cg_diags_size(d))
        cg_diags_print(d, stderr);
    assert_int_equal(cg_diags_size(d), 0);
    *live = out[o];
    int fus = r.fus_used;
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_netlist_destroy(nl);
    return fus;
}

/* The same kernel on the default 4x4 and on its immediates variant: four
 * consts fewer on units, byte-identical memory, equal live-outs, both
 * equal to the interpreter's. */
static void test_default_vs_imm(void **state)
{
    (void)state;
    enum { BYTES = 160, ITERS = 20 };
    cg_dfg *g = relu5_dfg();
    uint8_t init[BYTES], a[BYTES], b[BYTES], want[BYTES];
    for (int j = 0; j < BYTES; j++)
        init[j] = (uint8_t)(j * 37 + 11);
    memcpy(a, init, BYTES);
    memcpy(b, init, BYTES);
    memcpy(want, init, BYTES);
    uint64_t la, lb, lw[16] = {0};
    cg_mem m = {want, 0, BYTES};
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_run(g, ITERS, &m, NULL, lw, d), 0);
    cg_diags_destroy(d);
    int o = cg_dfg_find(g, "o");
    int fa = map_sim("benchmarks/archs/default_4x4.xml", g, ITERS, a, BYTES,
                     o, &la);
    int fb = map_sim("benchmarks/archs/default_4x4_imm.xml", g, ITERS, b,
                     BYTES, o, &lb);
    assert_int_equal(fa, 13);
    assert_int_equal(fb, 9);
    assert_memory_equal(a, want, BYTES);
    assert_memory_equal(b, want, BYTES);
    assert_int_equal(la, lw[o]);
    assert_int_equal(lb, lw[o]);
    assert_true(memcmp(want, init, BYTES) != 0);
    cg_dfg_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_sq),
        cmocka_unit_test(test_reduce_rule),
        cmocka_unit_test(test_reduce_keeps),
        cmocka_unit_test(test_reduce_memory_order),
        cmocka_unit_test(test_check_accepts),
        cmocka_unit_test(test_check_rejects),
        cmocka_unit_test(test_check_unused),
        cmocka_unit_test(test_sim_feeds_field),
        cmocka_unit_test(test_map_mii_on_reduced),
        cmocka_unit_test(test_default_vs_imm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
