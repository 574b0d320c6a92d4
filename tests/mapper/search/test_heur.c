/* test_heur.c: the heuristic mapper (mapper/search/heur.c) and its exact-delay
 * router (mapper/search/route.c), through heur_internal.h: routes of an exact
 * delay (waiting where the shortest path is too short, none where it is
 * too long), small DFGs mapped, reconvergent paths of different lengths
 * balanced, recurrences closing at exactly II, extra orderings kept, and
 * "nothing found" on an impossible II.  Every mapping passes cg_map_check
 * and verify_mapping (ilp_test_util.h). */
#include "../ilp_test_util.h"

#include "mapper/search/cluster_internal.h"
#include "mapper/search/heur_internal.h"

/* Map g on nl at ii with the heuristic; NULL when it found nothing. */
static cg_mapping *heur_at(const cg_netlist *nl, const cg_mrrg *m,
                           const cg_dfg *g, const cg__heur_order *orders,
                           int norders)
{
    cg_diags *d = cg_diags_create();
    cg__heur_opts o = {5,     1,    orders, norders, 2000, 0, 0,
                       0,     false, NULL,  0,       NULL, 0, NULL};
    cg_mapping *map = NULL;
    int rc = cg__heur_map(nl, m, g, &o, &map, d);
    assert_true(rc == 0 || rc == 1);
    assert_int_equal(rc == 1, map != NULL);
    assert_true(o.attempts >= 1 && o.attempts <= 2000);
    if (!map)
        print_message("no mapping at II=%d after %d attempts\n",
                      cg_mrrg_ii(m), o.attempts);
    if (map) {
        int ck = cg_map_check(nl, m, g, map, d);
        if (ck != 0)
            cg_diags_print(d, stderr);
        assert_int_equal(ck, 0);
        assert_true(verify_mapping(nl, m, g, map) > 0);
    }
    cg_diags_destroy(d);
    return map;
}

/* The FUNC node of the block at (row, col)'s FuncUnit in context c, and
 * an operand pin of it. */
static int func_at(const cg_mrrg *m, const cg_netlist *nl, int row, int col,
                   int c)
{
    for (int i = 0; i < cg_mrrg_nnodes(m); i++) {
        const cg_mrrg_node *n = cg_mrrg_get_node(m, i);
        const cg_nl_prim *p = cg_netlist_prim(nl, n->prim);
        if (n->kind == CG_MRRG_FUNC && n->context == c &&
            p->p.kind == CG_PRIM_FUNC && p->row == row && p->col == col)
            return i;
    }
    fail_msg("no FuncUnit at (%d,%d)", row, col);
    return -1;
}

static int pin_of(const cg_mrrg *m, int func, int operand)
{
    for (int i = 0; i < cg_mrrg_nnodes(m); i++)
        if (cg_mrrg_get_node(m, i)->func == func &&
            cg_mrrg_get_node(m, i)->operand == operand)
            return i;
    fail_msg("no pin %d", operand);
    return -1;
}

/* From (1,1)'s FuncUnit to (1,2)'s operand 0 on the 2x2 at II=2: a hop
 * between PEs takes a cycle (the register), so delay 0 is too short; the
 * shortest route and longer ones that wait (bouncing through other
 * registers) are found with their exact delay, each a simple path; a pin
 * another value holds blocks the route. */
static void test_route_exact(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 2, d);
    assert_non_null(m);
    int nn = cg_mrrg_nnodes(m);
    cg__occ occ = {malloc(sizeof(int) * (size_t)nn),
                   malloc(sizeof(int) * (size_t)nn),
                   malloc(sizeof(int) * (size_t)nn)};
    for (int i = 0; i < nn; i++)
        occ.owner[i] = -1;
    int *path = malloc(sizeof(int) * (size_t)nn);
    bool *seen = calloc((size_t)nn, sizeof *seen);
    cg__router *r = cg__router_create(m);
    assert_non_null(r);
    int src = func_at(m, nl, 1, 1, 0);
    int found = 0;
    for (int delay = 0; delay <= 6; delay++) {
        int sink = pin_of(m, func_at(m, nl, 1, 2, delay % 2), 0), from;
        int len = cg__route_exact(r, &occ, 0, src, sink, delay, path, &from);
        if (delay < 1) {
            assert_int_equal(len, -1);
            continue;
        }
        if (len < 0)
            continue;
        found++;
        assert_int_equal(from, src);
        assert_int_equal(path[len - 1], sink);
        cg_mapping *map = cg_mapping_create(2, 1, 1);
        map->route[0] = path;
        map->route_len[0] = len;
        assert_int_equal(route_latency(m, map, src, 0), delay);
        map->route[0] = NULL;
        cg_mapping_destroy(map);
        memset(seen, 0, sizeof *seen * (size_t)nn);
        for (int i = 0; i < len; i++) {
            assert_false(seen[path[i]]);
            seen[path[i]] = true;
        }
    }
    assert_true(found >= 3); /* the shortest and longer, waiting ones */
    /* a taken pin blocks the route */
    int sink = pin_of(m, func_at(m, nl, 1, 2, 0), 0), from;
    occ.owner[sink] = 5;
    assert_int_equal(cg__route_exact(r, &occ, 0, src, sink, 2, path, &from),
                     -1);
    cg__router_destroy(r);
    free(path);
    free(seen);
    free(occ.owner);
    free(occ.arrive);
    free(occ.pred);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_netlist_destroy(nl);
}

/* out = (a + b) * k at II=1. */
static void test_small(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = axpy_dfg();
    int k = cg_dfg_find(g, "k"), mu = cg_dfg_find(g, "m");
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 1, d);
    cg_mapping *map = heur_at(nl, m, g, NULL, 0);
    assert_non_null(map);
    int64_t lo = map->start[0];
    for (int v = 1; v < cg_dfg_nnodes(g); v++)
        if (map->start[v] < lo)
            lo = map->start[v];
    assert_int_equal(lo, 0); /* whole stages shifted to start in [0, II) */
    /* the const sits in its consumer's PE, same cycle */
    assert_int_equal(map->start[k], map->start[mu]);
    cg_mapping_destroy(map);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* a -> b -> c -> e and a -> e directly: the direct route must wait for
 * the long path (reconvergent paths of unequal length), at II 2 and 3. */
static void test_reconvergent(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    reconv r = reconv_dfg();
    cg_dfg *g = r.g;
    int a = r.a, c = r.c, e = r.e, ce = r.ce, direct = r.direct;
    cg_diags *d = cg_diags_create();
    for (int ii = 2; ii <= 3; ii++) {
        cg_mrrg *m = cg_mrrg_build(nl, ii, d);
        cg_mapping *map = heur_at(nl, m, g, NULL, 0);
        assert_non_null(map);
        /* b and c each take at least a cycle (result via the register) */
        assert_true(map->start[e] - map->start[a] >= 2);
        int la = route_latency(m, map, map->place[a], direct);
        assert_int_equal(la, map->start[e] - map->start[a]);
        assert_int_equal(route_latency(m, map, map->place[c], ce),
                         map->start[e] - map->start[c]);
        assert_true(la > map->start[e] - map->start[c]); /* unequal */
        cg_mapping_destroy(map);
        cg_mrrg_destroy(m);
    }
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* s = s + x * k carried one iteration (a self-loop), and a two-op cycle
 * p -> q -> p: each back route takes exactly distance * II cycles. */
static void test_recurrence(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = cg_dfg_create("rec");
    int x = dfg_node(g, CG_OP_INPUT, "x"), k = dfg_node(g, CG_OP_CONST, "k");
    int mu = dfg_node(g, CG_OP_MUL, "m"), s = dfg_node(g, CG_OP_ADD, "s");
    int o = dfg_node(g, CG_OP_OUTPUT, "o");
    int p = dfg_node(g, CG_OP_ADD, "p"), q = dfg_node(g, CG_OP_XOR, "q");
    cg_dfg_add_edge(g, x, mu, 0, 0, -1);
    cg_dfg_add_edge(g, k, mu, 1, 0, -1);
    cg_dfg_add_edge(g, mu, s, 0, 0, -1);
    int self = cg_dfg_add_edge(g, s, s, 1, 1, -1);
    cg_dfg_add_edge(g, s, o, 0, 0, -1);
    cg_dfg_add_edge(g, x, p, 0, 0, -1);
    cg_dfg_add_edge(g, p, q, 0, 0, -1);
    cg_dfg_add_edge(g, x, q, 1, 0, -1);
    int back = cg_dfg_add_edge(g, q, p, 1, 1, -1);
    cg_diags *d = cg_diags_create();
    for (int ii = 2; ii <= 3; ii++) { /* RecMII 2: two ops, two registers */
        cg_mrrg *m = cg_mrrg_build(nl, ii, d);
        cg_mapping *map = heur_at(nl, m, g, NULL, 0);
        assert_non_null(map);
        assert_int_equal(route_latency(m, map, map->place[s], self), ii);
        assert_int_equal(route_latency(m, map, map->place[q], back),
                         map->start[p] + ii - map->start[q]);
        cg_mapping_destroy(map);
        cg_mrrg_destroy(m);
    }
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* Two independent chains; extra orderings (as memory orders would be)
 * say that t starts at least 3 cycles after s of the same iteration, and
 * a of iteration i+3 no earlier than p of iteration i. */
static void test_orders(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    int id[4];
    cg__heur_order ord[2];
    cg_dfg *g = ordered_chains(id, ord);
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 2, d);
    cg_mapping *map = heur_at(nl, m, g, ord, 2);
    assert_non_null(map);
    assert_chain_orders(map, id, 2);
    cg_mapping_destroy(map);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* tiny (one IO, one adder of latency 1): the accumulator with an output
 * cannot map at II=2 (input and output need the one IO in the same
 * context); the heuristic gives up after its attempts, without error. */
static void test_nothing_found(void **state)
{
    (void)state;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 1);
    cg_dfg *g = accumulator(true);
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 2, d);
    assert_null(heur_at(nl, m, g, NULL, 0));
    assert_int_equal(cg_diags_size(d), 0);
    cg_mrrg_destroy(m);
    /* without the output it maps at II=2 */
    cg_dfg *g2 = accumulator(false);
    m = cg_mrrg_build(nl, 2, d);
    cg_mapping *map = heur_at(nl, m, g2, NULL, 0);
    assert_non_null(map);
    cg_mapping_destroy(map);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_dfg_destroy(g2);
    cg_netlist_destroy(nl);
}

/* Every primitive in grid columns lo..hi, for each of the n nodes. */
static cg__prim_sets columns(const cg_netlist *nl, int n, int lo, int hi)
{
    cg__prim_sets s = {n, calloc((size_t)n + 1, sizeof(int)),
                       calloc((size_t)n * cg_netlist_nprims(nl) + 1,
                              sizeof(int))};
    int k = 0;
    for (int v = 0; v < n; v++) {
        s.off[v] = k;
        for (int p = 0; p < cg_netlist_nprims(nl); p++) {
            int c = cg_netlist_prim(nl, p)->col;
            if (c >= lo && c <= hi)
                s.ids[k++] = p;
        }
    }
    s.off[n] = k;
    return s;
}

/* With allowed sets (a cluster's region, cluster_internal.h) every op is
 * placed inside its set; an op whose set holds no unit that runs it maps
 * nowhere.  The steps are a work limit: never exceeded, and the same
 * seed and steps give the same mapping. */
static void test_allowed_and_steps(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = axpy_dfg();
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 1, d);
    cg__prim_sets west = columns(nl, cg_dfg_nnodes(g), 0, 2);
    cg__heur_opts o = {5,    1,     NULL, 0, 0,    0, 4000,
                       0,    false, &west, 0, NULL, 0, NULL};
    cg_mapping *map = NULL;
    assert_int_equal(cg__heur_map(nl, m, g, &o, &map, d), 1);
    assert_int_equal(cg_map_check(nl, m, g, map, d), 0);
    assert_true(o.steps >= cg_dfg_nnodes(g) && o.steps <= 4000);
    for (int v = 0; v < cg_dfg_nnodes(g); v++) {
        int pr = cg_mrrg_get_node(m, map->place[v])->prim;
        assert_true(cg_netlist_prim(nl, pr)->col <= 2);
    }
    cg_mapping *again = NULL;
    long steps = o.steps;
    assert_int_equal(cg__heur_map(nl, m, g, &o, &again, d), 1);
    assert_int_equal(o.steps, steps);
    assert_memory_equal(again->place, map->place,
                        sizeof(int) * (size_t)map->nnodes);
    cg_mapping_destroy(again);
    cg_mapping_destroy(map);
    /* no FuncUnit in column 0 (the IO ring): nothing maps, within the
       steps */
    cg__prim_sets ring = columns(nl, cg_dfg_nnodes(g), 0, 0);
    o.allowed = &ring;
    o.max_steps = 300;
    map = NULL;
    assert_int_equal(cg__heur_map(nl, m, g, &o, &map, d), 0);
    assert_null(map);
    assert_true(o.steps <= 300);
    assert_int_equal(cg_diags_size(d), 0);
    cg__prim_sets_free(&west);
    cg__prim_sets_free(&ring);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The routers' path filter (cg__pathf): never says "not on the path" of a
 * node that is (the routers would then pass a node twice), and with 20
 * nodes in it says "not on it" of most others (else it saves nothing). */
static void test_path_filter(void **state)
{
    (void)state;
    cg__pathf f = cg__pathf_add(NULL, 7);
    assert_true(cg__pathf_may(&f, 7));
    for (int x = 100; x < 119; x++)
        f = cg__pathf_add(&f, x * 37);
    assert_true(cg__pathf_may(&f, 7));
    for (int x = 100; x < 119; x++)
        assert_true(cg__pathf_may(&f, x * 37));
    int rejected = 0;
    for (int x = 5000; x < 6000; x++)
        rejected += !cg__pathf_may(&f, x);
    assert_true(rejected > 800);
    cg__pathf empty = cg__pathf_add(NULL, 0);
    empty.w[0] = empty.w[1] = 0;
    for (int x = 0; x < 1000; x++)
        assert_false(cg__pathf_may(&empty, x));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_route_exact),
        cmocka_unit_test(test_small),
        cmocka_unit_test(test_reconvergent),
        cmocka_unit_test(test_recurrence),
        cmocka_unit_test(test_orders),
        cmocka_unit_test(test_nothing_found),
        cmocka_unit_test(test_allowed_and_steps),
        cmocka_unit_test(test_path_filter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
