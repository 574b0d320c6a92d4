/* test_repair.c: the ILP as the heuristic's finisher (mapper/exact/repair.c
 * and the repair model of ilp.c): a complete heuristic mapping with ops taken
 * out is completed again, the kept ops where they were; the heuristic's
 * partial mappings (cg__heur_opts.partial) are consistent. */
#include "../ilp_test_util.h"

#include "mapper/exact/exact_internal.h"
#include "mapper/search/heur_internal.h"

/* A sum tree of 8 inputs, each times a const, to one output: 24 nodes. */
static cg_dfg *tree_dfg(void)
{
    cg_dfg *g = cg_dfg_create("tree");
    int level[8];
    for (int i = 0; i < 8; i++) {
        int in = dfg_node(g, CG_OP_INPUT, "in");
        int k = dfg_node(g, CG_OP_CONST, "k");
        int m = dfg_node(g, CG_OP_MUL, "m");
        cg_dfg_add_edge(g, in, m, 0, 0, -1);
        cg_dfg_add_edge(g, k, m, 1, 0, -1);
        level[i] = m;
    }
    for (int w = 8; w > 1; w /= 2)
        for (int i = 0; i < w / 2; i++) {
            int s = dfg_node(g, CG_OP_ADD, "s");
            cg_dfg_add_edge(g, level[2 * i], s, 0, 0, -1);
            cg_dfg_add_edge(g, level[2 * i + 1], s, 1, 0, -1);
            level[i] = s;
        }
    cg_dfg_add_edge(g, level[0], dfg_node(g, CG_OP_OUTPUT, "o"), 0, 0, -1);
    return g;
}

static cg_mapping *heur_map(const cg_netlist *nl, const cg_mrrg *m,
                            const cg_dfg *g)
{
    cg_diags *d = cg_diags_create();
    cg__heur_opts o = {30, 1, NULL, 0, 0, 0, 20000, 0, false, NULL,
                       0,  NULL, 0, NULL};
    cg_mapping *map = NULL;
    assert_int_equal(cg__heur_map(nl, m, g, &o, &map, d), 1);
    assert_int_equal(cg_map_check(nl, m, g, map, d), 0);
    cg_diags_destroy(d);
    return map;
}

/* map without ops a and b (their routes gone too), as a partial mapping. */
static void take_out(const cg_dfg *g, cg_mapping *map, int a, int b)
{
    map->place[a] = map->place[b] = -1;
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        if (ed->src == a || ed->dst == a || ed->src == b || ed->dst == b) {
            free(map->route[e]);
            map->route[e] = NULL;
            map->route_len[e] = 0;
        }
    }
}

/* Two ops taken out of a heuristic mapping: the repair maps again, every
 * other op at its unit and start, and the checker accepts it. */
static void test_repair_completes(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = tree_dfg();
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 2, d);
    cg__kgraph *k = cg__kgraph_build(m, nl);
    assert_non_null(k);
    cg_mapping *full = heur_map(nl, m, g);
    cg_mapping *fix = heur_map(nl, m, g);
    int a = 2, b = cg_dfg_nnodes(g) - 2; /* a mul, the last add */
    take_out(g, fix, a, b);
    cg__repair_opts ro = {1e9, CG_SOLVER_GLPK, 0, 0};
    cg__ilp_out out;
    assert_int_equal(cg__repair(k, nl, g, fix, &ro, &out, d), 0);
    assert_int_equal(out.outcome, CG_II_MAPPED);
    assert_int_equal(cg_map_check(nl, m, g, out.mapping, d), 0);
    assert_true(verify_mapping(nl, m, g, out.mapping) > 0);
    /* the first round frees a, b and their neighbours only: every other
     * op stays on its unit, at its start up to whole stages */
    bool *near = calloc((size_t)cg_dfg_nnodes(g), sizeof *near);
    near[a] = near[b] = true;
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        if (ed->src == a || ed->src == b || ed->dst == a || ed->dst == b)
            near[ed->src] = near[ed->dst] = true;
    }
    int64_t shift = 0;
    bool first = true;
    for (int v = 0; v < cg_dfg_nnodes(g); v++) {
        if (near[v])
            continue;
        assert_int_equal(out.mapping->place[v], full->place[v]);
        if (first)
            shift = out.mapping->start[v] - full->start[v];
        first = false;
        assert_int_equal(out.mapping->start[v] - full->start[v], shift);
    }
    assert_int_equal(shift % 2, 0);
    free(near);
    cg_mapping_destroy(out.mapping);
    cg_mapping_destroy(full);
    cg_mapping_destroy(fix);
    cg__kgraph_destroy(k);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* A heuristic that fails (the tree's 15 ALU ops cannot share the 2x2's 4
 * FuncUnits at II 3) leaves its best partial mapping: skipped ops unplaced,
 * exactly the edges between placed ops routed, each route ending on its
 * consumer's pin; no partial without partial_tries. */
static void test_heur_partial(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = tree_dfg();
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 3, d);
    cg__heur_opts o = {30, 1, NULL, 0, 0, 0, 200, 0, false, NULL,
                       0,  NULL, 0, NULL};
    cg_mapping *map = NULL;
    assert_int_equal(cg__heur_map(nl, m, g, &o, &map, d), 0);
    assert_null(o.partial);
    o.partial_tries = 4;
    assert_int_equal(cg__heur_map(nl, m, g, &o, &map, d), 0);
    assert_non_null(o.partial);
    int skipped = 0;
    for (int v = 0; v < cg_dfg_nnodes(g); v++)
        skipped += o.partial->place[v] < 0;
    assert_int_equal(skipped, o.skipped);
    assert_true(skipped > 0 && skipped < cg_dfg_nnodes(g));
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        bool both = o.partial->place[ed->src] >= 0 &&
                    o.partial->place[ed->dst] >= 0;
        assert_int_equal(o.partial->route[e] != NULL, both);
        if (!both)
            continue;
        int last = o.partial->route[e][o.partial->route_len[e] - 1];
        assert_int_equal(cg_mrrg_get_node(m, last)->func,
                         o.partial->place[ed->dst]);
        assert_int_equal(cg_mrrg_get_node(m, last)->operand, ed->operand);
    }
    assert_true(o.steps > 200); /* the partial attempts come on top */
    cg_mapping_destroy(o.partial);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repair_completes),
        cmocka_unit_test(test_heur_partial),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
