/* test_nego.c: the negotiated annealer (mapper/search/nego.c) through
 * heur_internal.h: it maps from nothing and from the heuristic's partial
 * mapping, negotiates shared nodes away (the routes share nodes on the
 * way and none at the end), keeps extra orderings, gives up on an
 * impossible II when its moves run out, gives the same mapping for
 * the same seed, and maps more often with the parity tables.  Every mapping passes cg_map_check and verify_mapping
 * (ilp_test_util.h). */
#include "../ilp_test_util.h"

#include "mapper/exact/exact_internal.h"
#include "mapper/search/heur_internal.h"

/* Anneal g on nl at ii (from `from` when not NULL); NULL when the moves
 * ran out.  *o keeps the options and what came out. */
static cg_mapping *nego_at(const cg_netlist *nl, const cg_mrrg *m,
                           const cg_dfg *g, cg__nego_opts *o)
{
    cg_diags *d = cg_diags_create();
    cg_mapping *map = NULL;
    int rc = cg__nego_map(nl, m, g, o, &map, d);
    assert_true(rc == 0 || rc == 1);
    assert_int_equal(rc == 1, map != NULL);
    assert_int_equal(cg_diags_size(d), 0);
    assert_false(o->timed_out);
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

/* The annealer's default weights and schedule (cg_map_params_init's). */
static const cg_map_anneal_params *anneal_defaults(void)
{
    static cg_map_params p;
    cg_map_params_init(&p);
    return &p.anneal;
}

static cg__nego_opts opts(unsigned seed, long moves)
{
    cg__nego_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.max_moves = moves;
    o.timeout_s = 60;
    o.w = anneal_defaults();
    return o;
}

/* The heuristic's complete mapping of g (which must map). */
static cg_mapping *heur_whole(const cg_netlist *nl, const cg_mrrg *m,
                              const cg_dfg *g, cg_diags *d)
{
    cg__heur_opts h;
    memset(&h, 0, sizeof h);
    h.timeout_s = 60;
    h.seed = 1;
    h.max_steps = 2000;
    cg_mapping *map = NULL;
    assert_int_equal(cg__heur_map(nl, m, g, &h, &map, d), 1);
    return map;
}

/* From nothing: every op placed at random, the routes share nodes at
 * first (shared_peak > 0), and the annealer ends with none shared. */
static void test_from_nothing(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = long_and_short(4);
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 3, d);
    cg__nego_opts o = opts(1, 20000);
    cg_mapping *map = nego_at(nl, m, g, &o);
    assert_non_null(map);
    assert_true(o.moves > 0 && o.moves < 20000);
    assert_true(o.shared_peak > 0);
    cg_mapping_destroy(map);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* From a mapping: a complete one is kept with no move; with two ops
 * taken out (place -1, no routes to or from them) the annealer completes
 * it. */
static void test_from_partial(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = long_and_short(4);
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 3, d);
    cg_mapping *part = heur_whole(nl, m, g, d);
    /* a complete mapping to start from is legal at once: kept as it is */
    cg__nego_opts whole = opts(1, 20000);
    whole.from = part;
    cg_mapping *same = nego_at(nl, m, g, &whole);
    assert_non_null(same);
    assert_int_equal(whole.moves, 0);
    for (int v = 0; v < cg_dfg_nnodes(g); v++) {
        assert_int_equal(same->place[v], part->place[v]);
        assert_int_equal(same->start[v] % 3, part->start[v] % 3);
    }
    cg_mapping_destroy(same);
    int gone[] = {2, 3};
    for (int i = 0; i < 2; i++)
        part->place[gone[i]] = -1;
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        if (part->place[ed->src] < 0 || part->place[ed->dst] < 0) {
            free(part->route[e]);
            part->route[e] = NULL;
            part->route_len[e] = 0;
        }
    }
    cg__nego_opts o = opts(1, 20000);
    o.from = part;
    cg_mapping *map = nego_at(nl, m, g, &o);
    assert_non_null(map);
    cg_mapping_destroy(map);
    cg_mapping_destroy(part);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* An op with no edge (the init value of a loop-carried edge) has no
 * timing, so moves shift it by whole stages at no cost: the mapping
 * gives it back in the first stage, in its slot, wherever it wandered
 * (here 20 stages late in the mapping started from, kept as it is). */
static void test_edgeless_start(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = long_and_short(4);
    int init = dfg_node(g, CG_OP_INPUT, "init");
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 3, d);
    cg_mapping *part = heur_whole(nl, m, g, d);
    part->start[init] += 20 * 3;
    cg__nego_opts o = opts(1, 20000);
    o.from = part;
    cg_mapping *map = nego_at(nl, m, g, &o);
    assert_non_null(map);
    assert_int_equal(o.moves, 0);
    assert_true(map->start[init] >= 0 && map->start[init] < 3);
    assert_int_equal(map->start[init], part->start[init] % 3);
    assert_int_equal(map->place[init], part->place[init]);
    cg_mapping_destroy(map);
    cg_mapping_destroy(part);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The same seed and moves give the same mapping, route for route. */
static void test_same_seed(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = long_and_short(4);
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 3, d);
    cg__nego_opts o1 = opts(7, 20000), o2 = opts(7, 20000);
    cg_mapping *a = nego_at(nl, m, g, &o1), *b = nego_at(nl, m, g, &o2);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(o1.moves, o2.moves);
    for (int v = 0; v < cg_dfg_nnodes(g); v++) {
        assert_int_equal(a->place[v], b->place[v]);
        assert_int_equal(a->start[v], b->start[v]);
    }
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        assert_int_equal(a->route_len[e], b->route_len[e]);
        assert_memory_equal(a->route[e], b->route[e],
                            sizeof(int) * (size_t)a->route_len[e]);
    }
    cg_mapping_destroy(a);
    cg_mapping_destroy(b);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* Extra orderings (as memory orders) hold in the mapping: t at least 3
 * cycles after s, a of iteration i+3 no earlier than p of iteration i. */
static void test_orders(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    int id[4];
    cg__heur_order ord[2];
    cg_dfg *g = ordered_chains(id, ord);
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 2, d);
    cg__nego_opts op = opts(1, 20000);
    op.orders = ord;
    op.norders = 2;
    cg_mapping *map = nego_at(nl, m, g, &op);
    assert_non_null(map);
    assert_chain_orders(map, id, 2);
    cg_mapping_destroy(map);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* tiny (one IO): the accumulator with an output cannot map at II 2 (its
 * input and output need the one IO in the same context); the annealer
 * makes every move allowed and reports nothing, without error.  Without
 * the output it maps. */
static void test_impossible(void **state)
{
    (void)state;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 1);
    cg_dfg *g = accumulator(true), *g2 = accumulator(false);
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 2, d);
    cg__nego_opts o = opts(1, 3000);
    assert_null(nego_at(nl, m, g, &o));
    assert_int_equal(o.moves, 3000);
    o = opts(1, 3000);
    cg_mapping *map = nego_at(nl, m, g2, &o);
    assert_non_null(map);
    cg_mapping_destroy(map);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_dfg_destroy(g2);
    cg_netlist_destroy(nl);
}

/* The parity tables (cg__parity_table) of g on m into o; they stay
 * allocated until free_parity. */
static void with_parity(const cg_netlist *nl, const cg_mrrg *m,
                        const cg_dfg *g, cg__nego_opts *o)
{
    int rc, n = cg_dfg_nnodes(g), np = cg_netlist_nprims(nl);
    cg__parity *P = cg__parity_create(nl, m, g, &rc);
    assert_non_null(P);
    int *cls = calloc((size_t)n, sizeof *cls);
    unsigned char *off = calloc((size_t)n * (size_t)np * (size_t)cg_mrrg_ii(m), 1);
    assert_true(cls && off);
    cg__parity_table(P, np, cls, off);
    cg__parity_destroy(P);
    o->par_class = cls;
    o->par_off = off;
}

static void free_parity(cg__nego_opts *o)
{
    free((void *)o->par_class);
    free((void *)o->par_off);
}

/* The parity tables steer the annealer: matrixmultiply (the
 * microbenchmark) at II 1 on the default 4x4, where every start of the
 * wrong parity is one no route can serve, maps from nothing (40,000
 * moves) with more of 16 seeds with them than without. */
static void test_parity_steers(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_diags *d = cg_diags_create();
    cg_dfg *g = cg_dfg_read_dot("tests/mapper/data/matrixmultiply.dot", d);
    assert_non_null(g);
    cg_mrrg *m = cg_mrrg_build(nl, 1, d);
    int with = 0, without = 0;
    for (unsigned seed = 1; seed <= 16; seed++) {
        cg__nego_opts o = opts(seed, 40000);
        cg_mapping *map = nego_at(nl, m, g, &o);
        without += map != NULL;
        cg_mapping_destroy(map);
        o = opts(seed, 40000);
        with_parity(nl, m, g, &o);
        map = nego_at(nl, m, g, &o);
        with += map != NULL;
        cg_mapping_destroy(map);
        free_parity(&o);
    }
    /* measured: 6 of 16 with the tables, 1 without */
    assert_true(with >= 5 && with >= without + 4);
    cg_mrrg_destroy(m);
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_from_nothing),
        cmocka_unit_test(test_from_partial),
        cmocka_unit_test(test_edgeless_start),
        cmocka_unit_test(test_same_seed),
        cmocka_unit_test(test_orders),
        cmocka_unit_test(test_impossible),
        cmocka_unit_test(test_parity_steers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
