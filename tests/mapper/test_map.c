/* test_map.c: the II search of cg_map (mapper/map.c): a mapping at the MII
 * that passes the checker, per-II outcomes (proven infeasible up to
 * max_ii), a mapping above the MII proven optimal by the register bound,
 * the LP dump per II tried, and the errors: an op no unit supports, an MII
 * above the II limit; the lowest II (min_ii, --ii) and the choice of
 * searches (heuristic alone, ILP alone). */
#include "ilp_test_util.h"

#include <unistd.h>

static cg_map_params params(double timeout, int max_ii)
{
    cg_map_params p;
    cg_map_params_init(&p);
    assert_int_equal(p.max_ii, 16);
    assert_true(p.timeout_s == 60);
    p.timeout_s = timeout;
    p.max_ii = max_ii;
    return p;
}

/* out = (a + b) * k on the 2x2 mesh: maps at II=1, the MII. */
static void test_maps_at_mii(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = axpy_dfg();
    cg_map_params p = params(20, 4);
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    assert_int_equal(r.status, CG_MAP_MAPPED);
    assert_int_equal(r.mii.mii, 1);
    assert_int_equal(r.ii, 1);
    assert_int_equal(r.ntried, 1);
    assert_int_equal(r.tried[0].ii, 1);
    assert_int_equal(r.tried[0].outcome, CG_II_MAPPED);
    /* mapped by the heuristic: no ILP solved, so no model size */
    assert_int_equal(r.tried[0].rows, 0);
    assert_non_null(r.mapping);
    assert_int_equal(cg_mrrg_ii(r.mrrg), 1);
    assert_int_equal(r.fus_used, 6);
    assert_int_equal(r.routes_used, verify_mapping(nl, r.mrrg, g, r.mapping));
    assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
    cg_map_result_free(&r);
    assert_null(r.mapping);
    cg_map_result_free(NULL);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* tiny (one IO, one adder of latency 1): the accumulator with an output
 * has MII 2 and is proven impossible at II 2, 3 and 4 (see test_ilp.c). */
static void test_infeasible_up_to_max_ii(void **state)
{
    (void)state;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 1);
    cg_dfg *g = accumulator(true);
    cg_map_params p = params(20, 4);
    char base[] = "/tmp/cg_test_map_XXXXXX";
    int fd = mkstemp(base);
    assert_true(fd >= 0);
    close(fd);
    p.dump_lp = base;
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_INFEASIBLE);
    assert_int_equal(r.mii.res_mii, 2); /* input and output on one IO */
    assert_int_equal(r.mii.rec_mii, 2); /* latency 1 + the register */
    assert_int_equal(r.ntried, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(r.tried[i].ii, 2 + i);
        assert_int_equal(r.tried[i].outcome, CG_II_INFEASIBLE);
        char path[64];
        snprintf(path, sizeof path, "%s-%d", base, 2 + i);
        assert_int_equal(access(path, R_OK), 0);
        remove(path);
    }
    assert_int_equal(r.ii, 4);
    assert_null(r.mapping);
    assert_null(r.mrrg);
    remove(base);
    cg_map_result_free(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* x -> four adds -> e, and x -> e directly, on the 2x2: MII 2 (five ALU
 * ops on four FuncUnits), but the direct route's wait and the five results
 * need more registers than 2 contexts hold, which the register bound
 * proves in no time (no ILP: 0 rows); the heuristic maps II=3, which is
 * therefore optimal. */
static void test_optimal_above_mii(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = long_and_short(4);
    cg_map_params p = params(20, 4);
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_MAPPED);
    assert_int_equal(r.mii.mii, 2);
    assert_int_equal(r.ii, 3);
    assert_int_equal(r.ntried, 2);
    assert_int_equal(r.tried[0].ii, 2);
    assert_int_equal(r.tried[0].outcome, CG_II_INFEASIBLE);
    assert_int_equal(r.tried[0].rows, 0);
    assert_int_equal(r.tried[1].ii, 3);
    assert_int_equal(r.tried[1].outcome, CG_II_MAPPED);
    assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
    assert_true(verify_mapping(nl, r.mrrg, g, r.mapping) > 0);
    cg_map_result_free(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

static void test_unsupported_op(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = cg_dfg_create("p");
    cg_dfg_set_file(g, "p.c");
    int x = dfg_node(g, CG_OP_INPUT, "x"), v = dfg_node(g, CG_OP_GEP, "ptr");
    cg_dfg_node_mut(g, v)->line = 9;
    cg_dfg_add_edge(g, x, v, 0, 0, -1);
    cg_dfg_add_edge(g, x, v, 1, 0, -1);
    cg_map_params p = params(5, 4);
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &r, d), -1);
    assert_int_equal(r.status, CG_MAP_ERROR);
    assert_int_equal(cg_diags_errors(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->file, "p.c");
    assert_int_equal(cg_diags_get(d, 0)->line, 9);
    assert_string_equal(cg_diags_get(d, 0)->msg,
                        "no unit of the architecture supports op 'gep' "
                        "(node 'ptr'): add it to a FuncUnit's op list or "
                        "use an architecture that has it");
    cg_map_result_free(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* Five inputs on tiny's one IO need II >= 5. */
static void test_mii_above_limit(void **state)
{
    (void)state;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 0);
    cg_dfg *g = cg_dfg_create("wide");
    cg_dfg_set_file(g, "w.c");
    for (int i = 0; i < 5; i++)
        dfg_node(g, CG_OP_INPUT, NULL);
    cg_map_params p = params(5, 3);
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &r, d), -1);
    assert_int_equal(r.status, CG_MAP_ERROR);
    assert_int_equal(r.mii.mii, 5);
    assert_int_equal(cg_diags_errors(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->msg,
                        "'wide' needs II >= 5 (ResMII 5, bottleneck op "
                        "'input'; RecMII 0) but the highest II allowed is 3: "
                        "raise the II limit");
    cg_map_result_free(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* min_ii: IIs below it are not tried (no entry in tried[]); a fixed II
 * below the MII, or a range upside down, is an error naming both. */
static void test_min_ii(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = long_and_short(4);
    cg_dfg_set_file(g, "ls.c");
    cg_map_params p = params(20, 4);
    p.min_ii = 4;
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_MAPPED);
    assert_int_equal(r.ii, 4);
    assert_int_equal(r.ntried, 1);
    assert_int_equal(r.tried[0].ii, 4);
    assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
    cg_map_result_free(&r);
    p.min_ii = p.max_ii = 1;
    assert_int_equal(cg_map(nl, g, &p, &r, d), -1);
    assert_string_equal(cg_diags_get(d, 0)->file, "ls.c");
    assert_string_equal(cg_diags_get(d, 0)->msg,
                        "'ls' cannot map at II 1: it needs II >= 2 (ResMII "
                        "2, bottleneck op 'add'; RecMII 0)");
    p.min_ii = 4;
    p.max_ii = 3;
    assert_int_equal(cg_map(nl, g, &p, &r, d), -1);
    assert_string_equal(cg_diags_get(d, 1)->msg,
                        "the lowest II allowed (4) is above the highest (3): "
                        "give --ii alone, or a --max-ii of at least 4");
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* The searches: the heuristic alone records the II the bound proved and
 * maps II 3 (no ILP: no rows); the ILP alone maps II 3 with a model. */
static void test_search_choice(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = long_and_short(4);
    cg_map_params p = params(20, 4);
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    cg_map_search s;
    assert_int_equal(cg_map_search_parse("heuristic", &s), 0);
    assert_int_equal(s, CG_SEARCH_HEURISTIC);
    assert_int_equal(cg_map_search_parse("annealing", &s), -1);
    assert_string_equal(cg_map_search_name(CG_SEARCH_ILP), "ilp");
    p.search = CG_SEARCH_HEURISTIC;
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.ii, 3);
    assert_int_equal(r.ntried, 2);
    assert_int_equal(r.tried[0].outcome, CG_II_INFEASIBLE);
    assert_int_equal(r.tried[1].outcome, CG_II_MAPPED);
    assert_int_equal(r.tried[1].rows, 0);
    cg_map_result_free(&r);
    p.search = CG_SEARCH_ILP;
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_MAPPED);
    assert_int_equal(r.ii, 3);
    assert_int_equal(r.ntried, 2);
    assert_int_equal(r.tried[0].outcome, CG_II_INFEASIBLE);
    assert_true(r.tried[1].rows > 0);
    assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
    cg_map_result_free(&r);
    /* a heuristic that gives up leaves its IIs open, not infeasible */
    p.search = CG_SEARCH_HEURISTIC;
    p.heur_steps = 1;
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_TIMEOUT);
    assert_int_equal(r.ntried, 3);
    assert_int_equal(r.tried[0].outcome, CG_II_INFEASIBLE);
    assert_int_equal(r.tried[1].outcome, CG_II_TIMEOUT);
    assert_false(r.tried[1].capped); /* the steps, not the clock */
    assert_null(r.mapping);
    cg_map_result_free(&r);
    assert_int_equal(cg_diags_size(d), 0);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_maps_at_mii),
        cmocka_unit_test(test_infeasible_up_to_max_ii),
        cmocka_unit_test(test_optimal_above_mii),
        cmocka_unit_test(test_unsupported_op),
        cmocka_unit_test(test_mii_above_limit),
        cmocka_unit_test(test_min_ii),
        cmocka_unit_test(test_search_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
