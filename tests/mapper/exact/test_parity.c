/* test_parity.c: the parity bound (mapper/exact/parity.c): two taps of one
 * value a cycle apart meeting again are refuted at II 1 on a mesh of the
 * default PE (bipartite, with or without the wrap of an even torus), not
 * on one with diagonal links or an odd torus, nor at II 2, nor without the
 * distance; the SAT mapper agrees (it refutes for every schedule what the
 * bound refutes, and the bound never refutes what it maps, on random small
 * DFGs), and answers the same with the bound's relations as clauses as
 * without; the II search records the proof as the parity bound's. */
#include "../ilp_test_util.h"

#include "mapper/exact/exact_internal.h"
#include "mapper/exact/sat_internal.h"

static int parity(const cg_netlist *nl, const cg_dfg *g, int ii)
{
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, ii, d);
    assert_non_null(m);
    int rc = cg__bound_parity(nl, m, g);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    return rc;
}

/* The SAT mapper at II ii (horizon 4, no conflict limit; without the
 * parity bound when plain) into *out, its mapping checked; the MRRG, the
 * caller's to destroy. */
static cg_mrrg *sat_at(const cg_netlist *nl, const cg_dfg *g, int ii,
                       bool plain, cg__sat_out *out)
{
    cg__sat_opts o = {4, 0, 60, 0, NULL, 0, 0, 0, false, 0, 0, plain};
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, ii, d);
    assert_non_null(m);
    assert_int_equal(cg__sat_solve(m, nl, g, &o, out, NULL, d), 0);
    if (out->outcome == CG_II_MAPPED)
        assert_int_equal(cg_map_check(nl, m, g, out->mapping, d), 0);
    cg_diags_destroy(d);
    return m;
}

/* A torus has no IO (no sides to put it on). */
static cg_netlist *mesh(int rows, int cols, bool diagonal, bool torus)
{
    cg_diags *d = cg_diags_create();
    cg_mesh_params p;
    cg_mesh_params_init(&p);
    p.rows = rows;
    p.cols = cols;
    p.diagonal = diagonal;
    p.torus = torus;
    p.io = !torus;
    return flatten_ok(cg_arch_mesh(&p, d), d);
}

/* p = x + x; a = p + p; b = p' + p' (p one iteration earlier, when
 * distance is 1); s = a + b; output s.  As conv2's load reaches its add
 * through two multiplies, one of them of the next iteration.  Without
 * io, x is a const and s goes to t = s + s. */
static cg_dfg *two_taps(int distance, bool io)
{
    cg_dfg *g = cg_dfg_create("taps");
    int x = dfg_node(g, io ? CG_OP_INPUT : CG_OP_CONST, "x");
    int p = dfg_node(g, CG_OP_ADD, "p");
    int a = dfg_node(g, CG_OP_ADD, "a"), b = dfg_node(g, CG_OP_ADD, "b");
    int s = dfg_node(g, CG_OP_ADD, "s");
    for (int k = 0; k < 2; k++) {
        cg_dfg_add_edge(g, x, p, k, 0, -1);
        cg_dfg_add_edge(g, p, a, k, 0, -1);
        cg_dfg_add_edge(g, p, b, k, distance, -1);
    }
    cg_dfg_add_edge(g, a, s, 0, 0, -1);
    cg_dfg_add_edge(g, b, s, 1, 0, -1);
    int o = dfg_node(g, io ? CG_OP_OUTPUT : CG_OP_ADD, io ? "o" : "t");
    for (int k = 0; k < (io ? 1 : 2); k++)
        cg_dfg_add_edge(g, s, o, k, 0, -1);
    return g;
}

static void test_two_taps(void **state)
{
    (void)state;
    cg_dfg *g = two_taps(1, true), *g0 = two_taps(0, true);
    cg_dfg *gt = two_taps(1, false);
    cg_netlist *m2 = mesh(2, 2, false, false), *m3 = mesh(3, 3, false, false);
    cg_netlist *dg = mesh(3, 3, true, false);
    cg_netlist *t4 = mesh(4, 4, false, true), *t3 = mesh(3, 3, false, true);
    assert_int_equal(parity(m2, g, 1), 1);
    assert_int_equal(parity(m3, g, 1), 1);
    assert_int_equal(parity(t4, gt, 1), 1); /* an even torus: bipartite */
    assert_int_equal(parity(t3, gt, 1), 0); /* an odd one: a cycle of 3 */
    assert_int_equal(parity(dg, g, 1), 0); /* diagonals: odd cycles */
    assert_int_equal(parity(m2, g, 2), 0); /* own register, other context */
    assert_int_equal(parity(m2, g0, 1), 0);
    /* SAT without the bound refutes it for every schedule, and maps it
       with diagonals */
    cg__sat_out out;
    cg_mrrg *m = sat_at(m2, g, 1, true, &out);
    assert_int_equal(out.outcome, CG_II_INFEASIBLE);
    assert_int_equal(out.horizon, -1);
    cg_mrrg_destroy(m);
    m = sat_at(dg, g, 1, true, &out);
    assert_int_equal(out.outcome, CG_II_MAPPED);
    cg_mapping_destroy(out.mapping);
    cg_mrrg_destroy(m);
    cg_netlist_destroy(m2);
    cg_netlist_destroy(m3);
    cg_netlist_destroy(dg);
    cg_netlist_destroy(t4);
    cg_netlist_destroy(t3);
    cg_dfg_destroy(g);
    cg_dfg_destroy(g0);
    cg_dfg_destroy(gt);
}

/* A random DFG of n adds over input x (operands of earlier nodes, a third
 * of them from the iteration before; now and then the add's own value of
 * the iteration before), the last add to an output. */
static cg_dfg *random_dfg(unsigned *seed, int n)
{
    cg_dfg *g = cg_dfg_create("rand");
    int x = dfg_node(g, CG_OP_INPUT, "x"), last = x;
    for (int i = 0; i < n; i++) {
        int v = dfg_node(g, CG_OP_ADD, NULL);
        for (int k = 0; k < 2; k++) {
            *seed = *seed * 1103515245u + 12345u;
            bool self = k == 1 && (*seed >> 4) % 5 == 0;
            int src = self ? v : (int)(*seed >> 16) % (v - x) + x;
            int dist = self || (*seed >> 8) % 3 == 0;
            cg_dfg_add_edge(g, src, v, k, dist, -1);
        }
        last = v;
    }
    cg_dfg_add_edge(g, last, dfg_node(g, CG_OP_OUTPUT, "o"), 0, 0, -1);
    return g;
}

/* Every relation the analysis states holds in mapping map: within a
 * class, start - phi - rel has one parity. */
static void assert_relations(const cg_netlist *nl, const cg_mrrg *m,
                             const cg_dfg *g, const cg_mapping *map)
{
    int rc, n = cg_dfg_nnodes(g), seen[64];
    cg__parity *P = cg__parity_create(nl, m, g, &rc);
    assert_int_equal(rc, 0);
    assert_true(n <= 64);
    for (int v = 0; P && v < n; v++)
        seen[v] = -1;
    for (int v = 0; P && v < n; v++) {
        int rel, c = cg__parity_class(P, v, &rel);
        if (c < 0)
            continue;
        int q = (int)((map->start[v] - cg__parity_phi(P, v, map->place[v]) -
                       rel) & 1);
        if (seen[c] < 0)
            seen[c] = q;
        assert_int_equal(q, seen[c]);
    }
    cg__parity_destroy(P);
}

/* Against the SAT mapper (without the bound's clauses) on the 2x2 mesh:
 * every II the bound refutes, SAT refutes too (within its horizon at
 * least), the bound refutes no II that SAT maps, and SAT's mappings keep
 * every relation the analysis states.  Both happen, so the check is not
 * empty. */
static void test_agrees_with_sat(void **state)
{
    (void)state;
    cg_netlist *nl = mesh(2, 2, false, false);
    unsigned seed = 7;
    int fired = 0, mapped = 0;
    for (int t = 0; t < 40; t++) {
        int ii = 1 + t % 2, n = 2 + t % 3;
        cg_dfg *g = random_dfg(&seed, n);
        int rc = parity(nl, g, ii);
        cg__sat_out out;
        cg_mrrg *m = sat_at(nl, g, ii, true, &out);
        if (rc == 1)
            assert_int_equal(out.outcome, CG_II_INFEASIBLE);
        if (out.outcome == CG_II_MAPPED) {
            assert_int_equal(rc, 0);
            assert_relations(nl, m, g, out.mapping);
        }
        fired += rc == 1;
        mapped += out.outcome == CG_II_MAPPED;
        cg_mapping_destroy(out.mapping);
        cg_mrrg_destroy(m);
        cg_dfg_destroy(g);
    }
    assert_true(fired >= 3);
    assert_true(mapped >= 3);
    cg_netlist_destroy(nl);
}

/* On default_8x8, where SAT's window covers no more than slack 4, the SAT
 * mapper refutes the two taps at II 1 for every schedule, by the bound,
 * without a conflict (--mapper sat runs no bound of its own). */
static void test_sat_refutes_by_parity(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(8, 8);
    cg_dfg *g = two_taps(1, true);
    cg__sat_out out;
    cg_mrrg *m = sat_at(nl, g, 1, false, &out);
    assert_int_equal(out.outcome, CG_II_INFEASIBLE);
    assert_int_equal(out.horizon, -1);
    assert_int_equal(out.conflicts, 0);
    cg_mrrg_destroy(m);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The SAT mapper with the bound's relations as clauses (its default)
 * answers as without them, on random DFGs on the 2x2 and the 3x3: the
 * clauses cut no mapping. */
static void test_sat_clauses(void **state)
{
    (void)state;
    cg_netlist *nl[2] = {mesh(2, 2, false, false), mesh(3, 3, false, false)};
    unsigned seed = 11;
    int mapped = 0, refuted = 0;
    for (int t = 0; t < 30; t++) {
        int ii = 1 + t % 2, a = t % 3 == 2, n = 2 + t % 4 + 2 * a;
        cg_dfg *g = random_dfg(&seed, n);
        cg__sat_out x, y;
        cg_mrrg *m = sat_at(nl[a], g, ii, false, &x);
        cg_mrrg *m0 = sat_at(nl[a], g, ii, true, &y);
        assert_int_equal(x.outcome, y.outcome);
        mapped += x.outcome == CG_II_MAPPED;
        refuted += x.outcome == CG_II_INFEASIBLE;
        cg_mapping_destroy(x.mapping);
        cg_mapping_destroy(y.mapping);
        cg_mrrg_destroy(m);
        cg_mrrg_destroy(m0);
        cg_dfg_destroy(g);
    }
    assert_true(mapped >= 5 && refuted >= 5);
    cg_netlist_destroy(nl[0]);
    cg_netlist_destroy(nl[1]);
}

/* One block: FuncUnits fa and fb (add), registers ra and rb, an IO:
 *   io.out -> fa.in_b, fb.in_b     fa.out -> ra.in    ra.out -> fb.in_a
 *   fb.out -> rb.in                rb.out -> fa.in_a, io.in
 * so every route out of fa passes ra and ends at fb's pin. */
static cg_netlist *chain_netlist(void)
{
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    int top = cg_arch_module_define(a, "architecture", d);
    cg_arch_set_top(a, top);
    cg_arch_set_grid(a, 1, 1);
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_FUNC);
    p.ops = CG_OPSET(CG_OP_ADD);
    cg_arch_add_prim(a, top, "fa", &p, d);
    cg_arch_add_prim(a, top, "fb", &p, d);
    cg_prim_params_init(&p, CG_PRIM_REG);
    cg_arch_add_prim(a, top, "ra", &p, d);
    cg_arch_add_prim(a, top, "rb", &p, d);
    cg_prim_params_init(&p, CG_PRIM_IO);
    cg_arch_add_prim(a, top, "io", &p, d);
    cg_arch_connect(a, top, "io.out", "fa.in_b fb.in_b", d);
    cg_arch_connect(a, top, "fa.out", "ra.in", d);
    cg_arch_connect(a, top, "ra.out", "fb.in_a", d);
    cg_arch_connect(a, top, "fb.out", "rb.in", d);
    cg_arch_connect(a, top, "rb.out", "fa.in_a io.in", d);
    return flatten_ok(a, d);
}

/* The FUNC node of the primitive whose name ends in suffix. */
static int func_of(const cg_netlist *nl, const cg_mrrg *m, const char *suffix)
{
    for (int i = 0; i < cg_mrrg_nnodes(m); i++) {
        const cg_mrrg_node *nd = cg_mrrg_get_node(m, i);
        const char *name = cg_netlist_prim(nl, nd->prim)->name;
        size_t k = strlen(name), l = strlen(suffix);
        if (nd->kind == CG_MRRG_FUNC && k >= l &&
            strcmp(name + k - l, suffix) == 0)
            return i;
    }
    fail_msg("no FUNC node of %s", suffix);
    return -1;
}

/* The nodes every route out of fa takes end at fb's pin: nothing of fb
 * (its FUNC node, its result) is held by fa's value.  (Before the fix
 * the walk went on through the pin into fb and its register.) */
static void test_forced_ends_at_pin(void **state)
{
    (void)state;
    cg_netlist *nl = chain_netlist();
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 1, d);
    assert_non_null(m);
    int fa = func_of(nl, m, "fa"), fb = func_of(nl, m, "fb");
    int *nodes = malloc(sizeof(int) * (size_t)cg_mrrg_nnodes(m));
    int k = cg__parity_forced(m, fa, nodes);
    assert_true(k >= 2);
    for (int i = 0; i < k; i++)
        assert_int_equal(cg_mrrg_get_node(m, nodes[i])->kind,
                         CG_MRRG_ROUTE);
    const cg_mrrg_node *last = cg_mrrg_get_node(m, nodes[k - 1]);
    assert_int_equal(last->func, fb);
    assert_int_equal(last->operand, 0);
    free(nodes);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_netlist_destroy(nl);
}

/* The II search: II 1 proven by the parity bound, recorded so (on the
 * 4x4: the 2x2's 4 registers are the register bound's proof). */
static void test_search_records(void **state)
{
    (void)state;
    cg_netlist *nl = mesh(4, 4, false, false);
    cg_dfg *g = two_taps(1, true);
    cg_map_params p;
    cg_map_params_init(&p);
    p.max_ii = 4;
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_MAPPED);
    assert_int_equal(r.ii, 2);
    assert_int_equal(r.tried[0].ii, 1);
    assert_int_equal(r.tried[0].outcome, CG_II_INFEASIBLE);
    assert_int_equal(r.tried[0].by, CG_BY_PARITY);
    assert_string_equal(cg_map_prover_name(r.tried[0].by), "parity");
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_taps),
        cmocka_unit_test(test_agrees_with_sat),
        cmocka_unit_test(test_sat_clauses),
        cmocka_unit_test(test_sat_refutes_by_parity),
        cmocka_unit_test(test_forced_ends_at_pin),
        cmocka_unit_test(test_search_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
