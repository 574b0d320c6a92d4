/* test_map.c: the II search of cg_map (mapper/map.c): a mapping at the MII
 * that passes the checker, per-II outcomes (proven infeasible up to
 * max_ii), a mapping above the MII proven optimal by the register bound,
 * the LP dump per II tried, and the errors: an op no unit supports, an MII
 * above the II limit; the lowest II (min_ii, --ii) and the choice of
 * searches (heuristic alone, ILP alone); a loop time limit that is up
 * before the search (every II open, capped) or during the climb (the
 * climb's seconds and caps kept); the policy fields: their
 * defaults, their errors, partial tries feeding the repair, the clustering
 * threshold and the regions' share of the steps and of the cap per II,
 * the large DFGs' budgets and their search below the climb's
 * II; the status names. */
#include "ilp_test_util.h"

#include <math.h>
#include <unistd.h>

static cg_map_params params(double timeout, int max_ii)
{
    cg_map_params p;
    cg_map_params_init(&p);
    assert_int_equal(p.max_ii, 0);
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
/* The words of the rows and records, one per status; a value outside
 * the enum is an error, not a read past the table. */
static void test_status_names(void **state)
{
    (void)state;
    assert_string_equal(cg_map_status_name(CG_MAP_MAPPED), "mapped");
    assert_string_equal(cg_map_status_name(CG_MAP_INFEASIBLE), "infeasible");
    assert_string_equal(cg_map_status_name(CG_MAP_TIMEOUT), "timeout");
    assert_string_equal(cg_map_status_name(CG_MAP_ERROR), "error");
    assert_string_equal(cg_map_status_name((cg_map_status)7), "error");
    assert_string_equal(cg_map_status_name((cg_map_status)-1), "error");
}

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
                        "raise the II limit (--max-ii), or leave it out to "
                        "follow the MII");
    cg_map_result_free(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* The highest II tried follows the MII unless max_ii is set: twenty
 * inputs on tiny's one IO map at II 20 with the defaults (16 would
 * refuse them), and an MII above CG_MAP_MAX_II is an error that says no
 * limit helps. */
static void test_top_ii_follows_mii(void **state)
{
    (void)state;
    cg_map_params p;
    cg_map_params_init(&p);
    assert_int_equal(cg_map_top_ii(&p, 1), 16);
    assert_int_equal(cg_map_top_ii(&p, 8), 16);
    assert_int_equal(cg_map_top_ii(&p, 9), 18);
    assert_int_equal(cg_map_top_ii(&p, 40), CG_MAP_MAX_II);
    p.max_ii = 5;
    assert_int_equal(cg_map_top_ii(&p, 40), 5);
    p.max_ii = 0;
    p.timeout_s = 20;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 0);
    for (int n = 20; n <= 70; n += 50) {
        cg_dfg *g = cg_dfg_create("many");
        cg_dfg_set_file(g, "m.c");
        for (int i = 0; i < n; i++)
            dfg_node(g, CG_OP_INPUT, NULL);
        cg_map_result r;
        cg_diags *d = cg_diags_create();
        int rc = cg_map(nl, g, &p, &r, d);
        if (n == 20) {
            assert_int_equal(rc, 0);
            assert_int_equal(r.status, CG_MAP_MAPPED);
            assert_int_equal(r.ii, 20);
            assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
        } else {
            assert_int_equal(rc, -1);
            assert_string_equal(cg_diags_get(d, 0)->msg,
                                "'many' needs II >= 70 (ResMII 70, "
                                "bottleneck op 'input'; RecMII 0) but the "
                                "highest II allowed is 64: the mapper tries "
                                "no II above that; split the loop or give "
                                "the array more units of that op");
        }
        cg_map_result_free(&r);
        cg_diags_destroy(d);
        cg_dfg_destroy(g);
    }
    cg_netlist_destroy(nl);
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
    p.nego_moves = 0;
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_TIMEOUT);
    assert_int_equal(r.ntried, 3);
    assert_int_equal(r.tried[0].outcome, CG_II_INFEASIBLE);
    assert_int_equal(r.tried[1].outcome, CG_II_TIMEOUT);
    assert_false(r.tried[1].capped); /* the steps, not the clock */
    assert_null(r.mapping);
    /* an open II has the register bound's figures, a settled one none */
    assert_int_equal(r.tried[1].reg_need, 9);  /* the LP's optimum */
    assert_int_equal(r.tried[1].reg_have, 12); /* 4 registers x II 3 */
    assert_int_equal(r.tried[0].reg_need, -1);
    /* the last II tried (was 0, so the row had no proof and no hint) */
    assert_int_equal(r.ii, 4);
    cg_map_result_free(&r);
    /* where the heuristic gives up, the negotiated annealer maps, from its
       partial mapping, with no ILP (no rows) */
    p.nego_moves = 20000;
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_MAPPED);
    assert_int_equal(r.ii, 3);
    assert_int_equal(r.tried[1].outcome, CG_II_MAPPED);
    assert_int_equal(r.tried[1].rows, 0);
    assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
    cg_map_result_free(&r);
    assert_int_equal(cg_diags_size(d), 0);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* A loop whose time limit is up before any II is searched: every II is
 * left open (timeout, capped by the wall clock), never infeasible, by the
 * auto search (heuristic then ILP) and by the ILP alone; the result is a
 * timeout, capped. */
static void test_time_limit_leaves_open(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = long_and_short(4);
    cg_map_params p = params(20, 4);
    p.time_limit_s = 1e-9;
    cg_diags *d = cg_diags_create();
    const cg_map_search searches[] = {CG_SEARCH_AUTO, CG_SEARCH_ILP};
    for (int k = 0; k < 2; k++) {
        cg_map_result r;
        p.search = searches[k];
        assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
        assert_int_equal(r.status, CG_MAP_TIMEOUT);
        assert_true(r.capped);
        assert_null(r.mapping);
        assert_int_equal(r.mii.mii, 2);
        assert_int_equal(r.ntried, 3); /* II 2..4 */
        for (int i = 0; i < r.ntried; i++) {
            assert_int_equal(r.tried[i].ii, 2 + i);
            assert_int_equal(r.tried[i].outcome, CG_II_TIMEOUT);
            assert_true(r.tried[i].capped);
            assert_int_equal(r.tried[i].by, CG_BY_NONE);
        }
        cg_map_result_free(&r);
    }
    assert_int_equal(cg_diags_size(d), 0);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* cg_map of g on nl with p into r: it returns with status want and no
 * diagnostic. */
static void map_want(const cg_netlist *nl, const cg_dfg *g,
                     const cg_map_params *p, cg_map_status want,
                     cg_map_result *r)
{
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, p, r, d), 0);
    assert_int_equal(r->status, want);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
}

/* The loop's time runs out in the climb: each II keeps the seconds the
 * climb spent there, and an II whose own cap (--timeout) ended its climb
 * says so rather than blaming the loop's (--time-limit), which only kept
 * the search below from it.  The accumulator with an output on one IO
 * maps at no II; the heuristic, with no step limit, searches II 2 until
 * its cap (0.4 s), II 3 until the loop's (0.3 s left), and II 4 not at
 * all.  Both once read 0 s and "the loop's cap" (sha256 on the 8x8). */
static void test_time_limit_keeps_climb(void **state)
{
    (void)state;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 1);
    cg_dfg *g = accumulator(true);
    cg_map_params p = params(0.4, 4);
    p.time_limit_s = 0.7;
    p.heur_steps = 0;
    p.nego_moves = 0;
    cg_map_result r;
    map_want(nl, g, &p, CG_MAP_TIMEOUT, &r);
    assert_int_equal(r.ntried, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(r.tried[i].ii, 2 + i);
        assert_int_equal(r.tried[i].outcome, CG_II_TIMEOUT);
        assert_true(r.tried[i].capped);
    }
    assert_true(r.tried[0].seconds >= 0.35);
    assert_false(r.tried[0].loop_capped);
    assert_true(r.tried[1].seconds >= 0.1);
    assert_true(r.tried[1].loop_capped);
    assert_true(r.tried[2].seconds < 0.1);
    assert_true(r.tried[2].loop_capped);
    cg_map_result_free(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* Above the clustering threshold the heuristic spends its steps in the
 * cluster regions first; when they use all of them, nothing is left for
 * the whole array.  It once went on there with a step limit of 0, which
 * means none: the wall clock ended it, or it mapped with steps it did not
 * have (here: a 12-add chain on the 4x4 at II 1, one step). */
static void test_cluster_steps(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = add_chain(12);
    cg_map_params p = params(20, 1);
    p.search = CG_SEARCH_HEURISTIC;
    p.cluster_threshold = 4;
    p.heur_steps = 1;
    p.nego_moves = 0;
    cg_map_result r;
    map_want(nl, g, &p, CG_MAP_TIMEOUT, &r);
    assert_int_equal(r.ntried, 1);
    assert_int_equal(r.tried[0].outcome, CG_II_TIMEOUT);
    assert_false(r.tried[0].capped);
    cg_map_result_free(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The cluster regions' pass and the whole array's share the II's cap.
 * x fanned out to 12 ops (25 nodes) at II 2 on the 4x4, which the
 * heuristic does not map: the regions get 5,000 steps (about a second on
 * the 2-core VM, RelWithDebInfo), the whole array the rest of a million,
 * so the 2 s cap ends it.  The whole array's pass once got a cap of its
 * own: the II then took over 2.5 s (bicg_unroll3 at II 12 on the 8x8,
 * 67 s for --timeout 40).  Where the regions' steps take longer than the
 * cap (sanitizers), the regions' pass is capped and the II takes 2 s with
 * or without the fix. */
static void test_cluster_cap(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = fanout(12);
    cg_map_params p = params(2.0, 2);
    p.min_ii = 2;
    p.search = CG_SEARCH_HEURISTIC;
    p.cluster_threshold = 4;
    p.heur_steps = 1000000;
    p.cluster_step_share = 0.005;
    p.nego_moves = 0;
    cg_map_result r;
    map_want(nl, g, &p, CG_MAP_TIMEOUT, &r);
    assert_int_equal(r.ntried, 1);
    assert_int_equal(r.tried[0].ii, 2);
    assert_true(r.tried[0].capped);
    assert_true(r.tried[0].seconds >= 1.9);
    assert_true(r.tried[0].seconds < 2.5);
    cg_map_result_free(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* A DFG of more than large_above nodes takes large_steps, large_moves and
 * large_timeout_s instead of heur_steps, nego_moves and timeout_s.  The
 * 12-add chain (14 nodes) at II 1 on the 4x4, by the heuristic and the annealer alone: one step and
 * no moves map nothing; counted large, it gets the large defaults and
 * maps; and with the large budgets starved, the small ones no longer
 * help it. */
static void test_large_budgets(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = add_chain(12);
    cg_map_params p = params(20, 1);
    assert_int_equal(p.large_above, 48);
    assert_int_equal(p.large_steps, 300);
    assert_int_equal(p.large_moves, 400000);
    assert_true(p.large_timeout_s == 300);
    p.search = CG_SEARCH_HEURISTIC;
    p.heur_steps = 1;
    p.nego_moves = 0;
    static const struct {
        int above;
        long steps, moves;
        cg_map_status want;
    } cases[] = {{14, 300, 400000, CG_MAP_TIMEOUT},
                 {13, 300, 400000, CG_MAP_MAPPED},
                 {13, 1, 0, CG_MAP_TIMEOUT}};
    cg_diags *d = cg_diags_create();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (i == 2)
            p.heur_steps = 5000;
        p.large_above = cases[i].above;
        p.large_steps = cases[i].steps;
        p.large_moves = cases[i].moves;
        cg_map_result r;
        assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
        assert_int_equal(r.status, cases[i].want);
        /* the cap per II it ran under: large_timeout_s when counted large */
        assert_true(r.timeout_s == (cases[i].above < 14 ? 300 : 20));
        assert_int_equal(r.ntried, 1);
        assert_false(r.tried[0].capped);
        if (r.status == CG_MAP_MAPPED)
            assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
        cg_map_result_free(&r);
    }
    assert_int_equal(cg_diags_size(d), 0);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* params(20, 3) where neither SAT (its model "too large") nor the ILP
 * (one node, one simplex iteration) can help, no partial mapping is
 * kept, and the seed is 2: the heuristic and the annealer decide. */
static cg_map_params only_heuristic(void)
{
    cg_map_params p = params(20, 3);
    p.sat_max_literals = 1;
    p.ilp_nodes = 1;
    p.lp_iters = 1;
    p.partial_tries = 0;
    p.restricted_above = 1000;
    p.seed = 2;
    return p;
}

/* The 12-add chain on the 4x4 mapped with p: II 1 when a retry mapped it
 * (retried), else II 2 with II 1 open, the mapping checked; the number
 * of tries the row keeps. */
static int chain_row(const cg_map_params *p, bool retried)
{
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = add_chain(12);
    cg_diags *d = cg_diags_create();
    cg_map_result r;
    assert_int_equal(cg_map(nl, g, p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_MAPPED);
    assert_int_equal(r.ii, retried ? 1 : 2);
    assert_int_equal(r.tried[0].ii, 1);
    assert_int_equal(r.tried[0].outcome,
                     retried ? CG_II_MAPPED : CG_II_TIMEOUT);
    assert_int_equal(r.tried[0].by, retried ? CG_BY_HEURISTIC : CG_BY_NONE);
    assert_false(r.tried[0].capped);
    assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
    int ntried = r.ntried;
    cg_map_result_free(&r);
    assert_int_equal(cg_diags_size(d), 0);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
    return ntried;
}

/* Below the II the climb mapped, a large DFG's IIs are searched from the
 * top down, each with large_retries more runs of the heuristic and the
 * annealer on fresh seeds.  The 12-add chain on the 4x4, counted large,
 * with one attempt's steps, no moves, and neither SAT (its model "too
 * large") nor the ILP (one node, one simplex iteration) able to help:
 * with seed 2 the climb fails at II 1 and maps II 2; without retries II 1
 * stays open; one retry maps it, and the row keeps the tries up to II 1
 * alone.  The large DFGs' SAT conflicts are large_conflicts (for models
 * of more than large_sat_literals), which --conflicts also sets. */
static void test_large_descent(void **state)
{
    (void)state;
    cg_map_params p = only_heuristic();
    assert_int_equal(p.large_conflicts, 2000);
    assert_int_equal(p.large_sat_literals, 300000);
    assert_int_equal(p.large_retries, 1);
    p.large_above = 4;
    p.large_steps = 14;
    p.large_moves = 0;
    for (int retries = 0; retries <= 1; retries++) {
        p.large_retries = retries;
        assert_int_equal(chain_row(&p, retries > 0), retries ? 1 : 2);
    }
}

/* Small DFGs too: at an II below the climb's that SAT leaves undecided,
 * the heuristic and the annealer run again with `retries` fresh seeds
 * (retry_moves moves each).  The 12-add chain on the 4x4 with one
 * attempt's steps, no moves, and neither SAT (its model "too large") nor
 * the ILP (one node, one simplex iteration) able to help: with seed 2 the
 * climb fails at II 1 and maps II 2; without retries II 1 stays open;
 * with them a retry maps it. */
static void test_small_retries(void **state)
{
    (void)state;
    cg_map_params p = only_heuristic();
    assert_int_equal(p.retries, 2);
    assert_int_equal(p.retry_moves, 800000);
    p.heur_steps = 14;
    p.nego_moves = 0;
    p.retry_moves = 0;
    for (int retries = 0; retries <= 2; retries += 2) {
        p.retries = retries;
        chain_row(&p, retries > 0);
    }
}

/* The retries' annealer runs retry_moves moves, not nego_moves: with 5
 * heuristic steps the 12-add chain (14 ops) maps nowhere by the heuristic,
 * and with nego_moves 0 the climb's annealer never runs; retry_moves
 * 20,000 then maps II 1 (a retry at every II the climb left undecided,
 * here all of them), retry_moves 0 nothing. */
static void test_retry_moves(void **state)
{
    (void)state;
    for (int moves = 0; moves <= 20000; moves += 20000) {
        cg_map_params p = only_heuristic();
        p.heur_steps = 5;
        p.nego_moves = 0;
        p.retry_moves = moves;
        cg_netlist *nl = mesh_netlist(4, 4);
        cg_dfg *g = add_chain(12);
        cg_diags *d = cg_diags_create();
        cg_map_result r;
        assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
        if (moves == 0) {
            assert_int_equal(r.status, CG_MAP_TIMEOUT);
            assert_int_equal(r.ntried, 3);
        } else {
            assert_int_equal(r.status, CG_MAP_MAPPED);
            assert_int_equal(r.ii, 1);
            assert_int_equal(r.tried[0].outcome, CG_II_MAPPED);
            assert_int_equal(r.tried[0].by, CG_BY_HEURISTIC);
            assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
        }
        cg_map_result_free(&r);
        assert_int_equal(cg_diags_size(d), 0);
        cg_dfg_destroy(g);
        cg_netlist_destroy(nl);
        cg_diags_destroy(d);
    }
}

/* x -> a1 -> a2 -> a3 -> o, a3 back into a1 one iteration later: a ring
 * of three adds, so its RecMII is above its ResMII on the 4x4. */
static cg_dfg *add_ring(void)
{
    cg_dfg *g = cg_dfg_create("ring");
    int x = dfg_node(g, CG_OP_INPUT, "x"), a[3];
    for (int i = 0; i < 3; i++)
        a[i] = dfg_node(g, CG_OP_ADD, NULL);
    cg_dfg_add_edge(g, x, a[0], 0, 0, -1);
    cg_dfg_add_edge(g, a[2], a[0], 1, 1, -1);
    for (int i = 1; i < 3; i++) {
        cg_dfg_add_edge(g, a[i - 1], a[i], 0, 0, -1);
        cg_dfg_add_edge(g, a[i - 1], a[i], 1, 0, -1);
    }
    cg_dfg_add_edge(g, a[2], dfg_node(g, CG_OP_OUTPUT, "o"), 0, 0, -1);
    return g;
}

/* Below the MII of a loop whose ResMII is 1, no bottleneck op is named
 * (none binds; the message once named one, the row '-'). */
static void test_min_ii_no_bottleneck(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = add_ring();
    cg_map_params p = params(20, 4);
    p.min_ii = p.max_ii = 1;
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &r, d), -1);
    assert_string_equal(cg_diags_get(d, 0)->msg,
                        "'ring' cannot map at II 1: it needs II >= 3 (ResMII "
                        "1; RecMII 3)");
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* A large DFG whose RecMII is above its ResMII gets SAT before the
 * heuristic at the climb's first II (with large_rec_conflicts for a
 * large model): the ring, counted large, is mapped there by SAT, where
 * the heuristic would map it at once; the 12-add chain (ResMII >= RecMII)
 * keeps the heuristic first.  (The ring's model is small, so the
 * conflicts it gets are sat_conflicts; test_large_rec_conflicts counts
 * every model large.) */
static void test_large_recurrence_sat_first(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_diags *d = cg_diags_create();
    cg_map_params p = params(20, 8);
    assert_int_equal(p.large_rec_conflicts, 30000);
    cg_dfg *ring = add_ring(), *chain = add_chain(12);
    for (int large = 0; large <= 1; large++) {
        p.large_above = large ? 2 : 48;
        cg_map_result r;
        assert_int_equal(cg_map(nl, ring, &p, &r, d), 0);
        assert_int_equal(r.status, CG_MAP_MAPPED);
        assert_true(r.mii.rec_mii > r.mii.res_mii);
        assert_int_equal(r.ii, r.mii.mii);
        assert_int_equal(r.ntried, 1);
        assert_int_equal(r.tried[0].by, large ? CG_BY_SAT : CG_BY_HEURISTIC);
        assert_int_equal(cg_map_check(nl, r.mrrg, ring, r.mapping, d), 0);
        cg_map_result_free(&r);
        assert_int_equal(cg_map(nl, chain, &p, &r, d), 0);
        assert_int_equal(r.status, CG_MAP_MAPPED);
        assert_true(r.mii.rec_mii <= r.mii.res_mii);
        assert_int_equal(r.tried[0].by, CG_BY_HEURISTIC);
        cg_map_result_free(&r);
    }
    assert_int_equal(cg_diags_size(d), 0);
    cg_dfg_destroy(ring);
    cg_dfg_destroy(chain);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* A recurrence of four adds with two skip edges and two more adds off it
 * (RecMII 4, ResMII 2 on the 2x2): SAT refutes II 4, its MII, in a few
 * hundred conflicts. */
static cg_dfg *add_skip_ring(void)
{
    cg_dfg *g = cg_dfg_create("skip_ring");
    int x = dfg_node(g, CG_OP_INPUT, "x"), a[6];
    for (int i = 0; i < 6; i++)
        a[i] = dfg_node(g, CG_OP_ADD, NULL);
    cg_dfg_add_edge(g, x, a[0], 1, 0, -1);
    cg_dfg_add_edge(g, a[0], a[1], 0, 0, -1);
    cg_dfg_add_edge(g, x, a[1], 1, 0, -1);
    cg_dfg_add_edge(g, a[1], a[2], 0, 0, -1);
    cg_dfg_add_edge(g, a[0], a[2], 1, 0, -1);
    cg_dfg_add_edge(g, a[2], a[3], 0, 0, -1);
    cg_dfg_add_edge(g, a[1], a[3], 1, 0, -1);
    cg_dfg_add_edge(g, a[3], a[0], 0, 1, -1);
    cg_dfg_add_edge(g, a[3], a[4], 0, 0, -1);
    cg_dfg_add_edge(g, a[0], a[4], 1, 0, -1);
    cg_dfg_add_edge(g, a[2], a[5], 0, 0, -1);
    cg_dfg_add_edge(g, a[0], a[5], 1, 0, -1);
    cg_dfg_add_edge(g, a[5], dfg_node(g, CG_OP_OUTPUT, "o"), 0, 0, -1);
    return g;
}

/* SAT first at a large recurrence-bound DFG's first II gets
 * large_rec_conflicts, not large_conflicts (every model counted large:
 * large_sat_literals 0).  The skip ring's II 4 is refuted with the
 * default 30,000 (about 500 conflicts), also when large_conflicts is
 * 100; with large_rec_conflicts 100 SAT stops within them undecided,
 * and the heuristic and the annealer after it cannot map the II
 * either. */
static void test_large_rec_conflicts(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_diags *d = cg_diags_create();
    cg_dfg *g = add_skip_ring();
    const struct {
        long rec, large;
        cg_ii_outcome outcome;
    } runs[] = {{30000, 2000, CG_II_INFEASIBLE},
                {30000, 100, CG_II_INFEASIBLE},
                {100, 2000, CG_II_TIMEOUT}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        cg_map_params p = params(30, 4);
        p.large_above = 2;
        p.large_sat_literals = 0;
        p.large_steps = 50;
        p.large_moves = 2000;
        p.large_rec_conflicts = runs[i].rec;
        p.large_conflicts = runs[i].large;
        cg_map_result r;
        assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
        assert_int_equal(r.mii.mii, 4);
        assert_int_equal(r.mii.rec_mii, 4);
        assert_int_equal(r.mii.res_mii, 2);
        assert_int_equal(r.status, runs[i].outcome == CG_II_INFEASIBLE
                                       ? CG_MAP_INFEASIBLE : CG_MAP_TIMEOUT);
        assert_int_equal(r.ntried, 1);
        assert_int_equal(r.tried[0].ii, 4);
        assert_int_equal(r.tried[0].outcome, runs[i].outcome);
        if (runs[i].outcome == CG_II_INFEASIBLE) {
            assert_int_equal(r.tried[0].by, CG_BY_SAT);
            assert_true(r.tried[0].conflicts > 100);
        } else {
            /* the wider window's model first, with sat_wide_share
               of them more */
            assert_true(r.tried[0].conflicts <=
                        100 + (long)ceil(100 * p.sat_wide_share));
            assert_false(r.tried[0].capped);
        }
        cg_map_result_free(&r);
    }
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* The annealer's weights and schedule are parameters with the values
 * nego.c was tuned with; a weight out of range, or a temperature that
 * does not fall, is an error naming it, and cg_map maps nothing. */
static void test_anneal_params(void **state)
{
    (void)state;
    cg_map_params p;
    cg_map_params_init(&p);
    assert_true(p.anneal.w_shared == 4.0 && p.anneal.w_unrouted == 20.0);
    assert_true(p.anneal.w_order == 20.0 && p.anneal.w_len == 0.05);
    assert_true(p.anneal.w_short == 4.0 && p.anneal.t_start == 2.0);
    assert_true(p.anneal.t_end == 0.05 && p.anneal.rounds == 300);
    assert_true(p.anneal.h_step == 0.2 && p.anneal.p_grow == 1.05);
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map_params_check(&p, NULL, d), 0);
    p.anneal.p_grow = 0.5;
    assert_int_equal(cg_map_params_check(&p, "k.c", d), -1);
    assert_string_equal(cg_diags_get(d, 0)->msg, "cg_map_params.anneal.p_grow "
                        "is 0.5; it must be at least 1 and at most 1e9");
    cg_diags_clear(d);
    cg_map_params_init(&p);
    p.anneal.w_len = NAN;
    assert_int_equal(cg_map_params_check(&p, "k.c", d), -1);
    assert_string_equal(cg_diags_get(d, 0)->msg, "cg_map_params.anneal.w_len "
                        "is nan; it must be at least 0 and at most 1e9");
    cg_diags_clear(d);
    cg_map_params_init(&p);
    p.anneal.t_start = 0.01;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = axpy_dfg();
    cg_dfg_set_file(g, "axpy.c");
    cg_map_result r;
    assert_int_equal(cg_map(nl, g, &p, &r, d), -1);
    assert_null(r.mapping);
    assert_int_equal(cg_diags_size(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->msg, "cg_map_params.anneal: "
                        "t_start 0.01, t_end 0.05, rounds 300; the "
                        "temperature must fall (t_start > t_end > 0) over at "
                        "least one round");
    cg_map_result_free(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* The policy's defaults are the constants the search used before it had
 * fields (so every result stays as it was); each bad field is an error
 * naming it, its value and its range, and cg_map maps nothing. */
static void test_policy_params(void **state)
{
    (void)state;
    cg_map_params p;
    cg_map_params_init(&p);
    assert_int_equal(p.partial_tries, 8);
    assert_true(p.repair_node_share == 1.0 / 16);
    assert_true(p.repair_time_share == 0.5);
    assert_true(p.restricted_node_share == 0.25);
    assert_int_equal(p.cluster_threshold, 48);
    assert_true(p.cluster_step_share == 0.5);
    assert_int_equal(p.restricted_above, 6);
    assert_int_equal(p.nego_moves, 100000);
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map_params_check(&p, NULL, d), 0);
    p.partial_tries = -1;
    p.repair_node_share = 0;
    p.repair_time_share = 1.5;
    p.restricted_node_share = NAN;
    p.cluster_threshold = -2;
    p.cluster_step_share = 2;
    p.restricted_above = -1;
    p.nego_moves = -5;
    p.large_steps = -6;
    p.large_moves = -7;
    p.large_above = -8;
    p.large_conflicts = -9;
    p.large_retries = -10;
    p.large_sat_literals = -11;
    p.large_rec_conflicts = -12;
    p.retry_moves = -13;
    p.retries = -14;
    assert_int_equal(cg_map_params_check(&p, "k.c", d), -1);
    assert_int_equal(cg_diags_errors(d), 17);
    static const char *const want[] = {
        "cg_map_params.partial_tries is -1; it must be 0 or more",
        "cg_map_params.nego_moves is -5; it must be 0 or more",
        "cg_map_params.large_steps is -6; it must be 0 or more",
        "cg_map_params.large_moves is -7; it must be 0 or more",
        "cg_map_params.large_conflicts is -9; it must be 0 or more",
        "cg_map_params.large_rec_conflicts is -12; it must be 0 or more",
        "cg_map_params.large_sat_literals is -11; it must be 0 or more",
        "cg_map_params.retry_moves is -13; it must be 0 or more",
        "cg_map_params.large_above is -8; it must be 0 or more",
        "cg_map_params.large_retries is -10; it must be 0 or more",
        "cg_map_params.retries is -14; it must be 0 or more",
        "cg_map_params.repair_node_share is 0; it must be a share above 0 "
        "and at most 1",
        "cg_map_params.repair_time_share is 1.5; it must be a share above 0 "
        "and at most 1",
        "cg_map_params.restricted_node_share is nan; it must be a share "
        "above 0 and at most 1",
        "cg_map_params.cluster_threshold is -2; it must be 0 or more",
        "cg_map_params.cluster_step_share is 2; it must be a share above 0 "
        "and at most 1",
        "cg_map_params.restricted_above is -1; it must be 0 or more"};
    for (int i = 0; i < 14; i++) {
        assert_string_equal(cg_diags_get(d, i)->file, "k.c");
        assert_string_equal(cg_diags_get(d, i)->msg, want[i]);
    }
    /* cg_map refuses them before any work */
    cg_diags_clear(d);
    cg_map_params_init(&p);
    p.repair_time_share = -0.5;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = axpy_dfg();
    cg_dfg_set_file(g, "axpy.c");
    cg_map_result r;
    assert_int_equal(cg_map(nl, g, &p, &r, d), -1);
    assert_int_equal(r.status, CG_MAP_ERROR);
    assert_null(r.mapping);
    assert_int_equal(cg_diags_size(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->file, "axpy.c");
    assert_string_equal(cg_diags_get(d, 0)->msg,
                        "cg_map_params.repair_time_share is -0.5; it must "
                        "be a share above 0 and at most 1");
    cg_map_result_free(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* ls at II 3 with a heuristic given one step: it maps nothing, and the
 * SAT mapper is kept out (its model passes a literal limit of 1), so the
 * ILP decides.  With the default partial tries the repair completes the
 * heuristic's partial mapping with a small model; with none there is
 * nothing to repair and the II gets exactly the models of the ILP alone. */
static void test_partial_tries(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = long_and_short(4);
    cg_map_params p = params(20, 3);
    p.min_ii = 3;
    p.heur_steps = 1;
    p.nego_moves = 0;
    p.sat_max_literals = 1;
    cg_diags *d = cg_diags_create();
    int rows[3];
    for (int run = 0; run < 3; run++) {
        p.partial_tries = run == 1 ? 0 : 8;
        p.search = run == 2 ? CG_SEARCH_ILP : CG_SEARCH_AUTO;
        cg_map_result r;
        assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
        assert_int_equal(r.status, CG_MAP_MAPPED);
        assert_int_equal(r.ntried, 1);
        assert_int_equal(r.tried[0].ii, 3);
        assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
        rows[run] = r.tried[0].rows;
        cg_map_result_free(&r);
    }
    assert_int_equal(cg_diags_size(d), 0);
    assert_int_equal(rows[1], rows[2]); /* no repair: the ILP alone's */
    assert_true(rows[0] > 0 && rows[0] * 4 < rows[2]); /* the repair's */
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* A chain of 5 adds (7 nodes) on the 4x4 at II 1, the heuristic given one
 * step, no repair and no SAT mapper (a literal limit of 1): above
 * restricted_above nodes a restricted model around the annealed placement
 * maps it, a small model; at or below, the full model does. */
static void test_restricted_above(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = add_chain(5);
    cg_map_params p = params(20, 1);
    p.heur_steps = 1;
    p.nego_moves = 0;
    p.partial_tries = 0;
    p.sat_max_literals = 1;
    cg_diags *d = cg_diags_create();
    int rows[2];
    for (int run = 0; run < 2; run++) {
        p.restricted_above = run == 0 ? 6 : 7;
        cg_map_result r;
        assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
        assert_int_equal(r.status, CG_MAP_MAPPED);
        assert_int_equal(r.ii, 1);
        assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
        rows[run] = r.tried[0].rows;
        cg_map_result_free(&r);
    }
    assert_int_equal(cg_diags_size(d), 0);
    assert_true(rows[0] > 0 && rows[0] < rows[1]);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* An adder/subtracter and an IO on a 2 x 2 grid, neither with a position. */
static cg_netlist *loose_netlist(void)
{
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    int top = cg_arch_module_define(a, "architecture", d);
    cg_arch_set_top(a, top);
    cg_arch_set_grid(a, 2, 2);
    cg_arch_set_loc(a, "loose.xml", 7);
    cg_prim_params fu, io;
    cg_prim_params_init(&fu, CG_PRIM_FUNC);
    fu.ops = CG_OPSET(CG_OP_ADD) | CG_OPSET(CG_OP_SUB);
    fu.latency = 1; /* the output a cycle after the input, on the one IO */
    cg_prim_params_init(&io, CG_PRIM_IO);
    cg_arch_add_prim(a, top, "fu", &fu, d);
    cg_arch_add_prim(a, top, "io", &io, d);
    cg_arch_connect(a, top, "io.out", "fu.in_a fu.in_b", d);
    cg_arch_connect(a, top, "fu.out", "io.in", d);
    return flatten_ok(a, d);
}

/* Two copies of o = x + x: six nodes, two components. */
static cg_dfg *two_doubles(void)
{
    cg_dfg *g = cg_dfg_create("dbl");
    for (int i = 0; i < 2; i++) {
        int x = dfg_node(g, CG_OP_INPUT, "x");
        int s = dfg_node(g, CG_OP_ADD, "s");
        cg_dfg_add_edge(g, x, s, 0, 0, -1);
        cg_dfg_add_edge(g, x, s, 1, 0, -1);
        cg_dfg_add_edge(g, s, dfg_node(g, CG_OP_OUTPUT, "o"), 0, 0, -1);
    }
    return g;
}

/* cluster_threshold reaches the clustering: above it every unit must be
 * on the grid.  two_doubles maps on the loose array at the default
 * threshold; at 2 its 6 nodes are split into clusters, which the loose
 * units refuse, naming the threshold.  On the 2x2 mesh, whose units are
 * on the grid, ls (7 nodes) at threshold 2 maps through the cluster
 * regions at II 3, as it does on the whole array (II 2: the bound). */
static void test_cluster_threshold(void **state)
{
    (void)state;
    cg_netlist *nl = loose_netlist();
    cg_dfg *g = two_doubles();
    cg_map_params p = params(20, 16);
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_MAPPED);
    assert_int_equal(r.ii, 4);
    cg_map_result_free(&r);
    p.cluster_threshold = 2;
    assert_int_equal(cg_map(nl, g, &p, &r, d), -1);
    assert_int_equal(r.status, CG_MAP_ERROR);
    assert_int_equal(cg_diags_errors(d), 2);
    for (int i = 0; i < 2; i++) {
        char want[400];
        snprintf(want, sizeof want, "cannot split the array into regions "
                 "for 'dbl' (6 nodes, above the clustering threshold 2): "
                 "unit '%s' is at row -1, col -1, not on the 2 x 2 grid; "
                 "give its block a position on the grid or raise the "
                 "threshold (--cluster-above, cg_map_params."
                 "cluster_threshold)", i ? "io" : "fu");
        assert_string_equal(cg_diags_get(d, i)->msg, want);
    }
    cg_map_result_free(&r);
    cg_netlist_destroy(nl);
    cg_dfg_destroy(g);
    nl = mesh_netlist(2, 2);
    g = long_and_short(4);
    cg_diags_clear(d);
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_MAPPED);
    assert_int_equal(r.ii, 3);
    assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    cg_map_result_free(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_maps_at_mii),
        cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_infeasible_up_to_max_ii),
        cmocka_unit_test(test_optimal_above_mii),
        cmocka_unit_test(test_unsupported_op),
        cmocka_unit_test(test_mii_above_limit),
        cmocka_unit_test(test_top_ii_follows_mii),
        cmocka_unit_test(test_min_ii),
        cmocka_unit_test(test_min_ii_no_bottleneck),
        cmocka_unit_test(test_search_choice),
                cmocka_unit_test(test_time_limit_leaves_open),
        cmocka_unit_test(test_time_limit_keeps_climb),
        cmocka_unit_test(test_cluster_steps),
        cmocka_unit_test(test_cluster_cap),
        cmocka_unit_test(test_large_budgets),
        cmocka_unit_test(test_large_descent),
        cmocka_unit_test(test_small_retries),
        cmocka_unit_test(test_retry_moves),
        cmocka_unit_test(test_large_recurrence_sat_first),
        cmocka_unit_test(test_large_rec_conflicts),
        cmocka_unit_test(test_policy_params),
        cmocka_unit_test(test_anneal_params),
        cmocka_unit_test(test_partial_tries),
        cmocka_unit_test(test_restricted_above),
        cmocka_unit_test(test_cluster_threshold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
