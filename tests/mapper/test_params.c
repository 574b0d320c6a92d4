/* test_params.c: the search's numbers as parameters (map.h): the
 * heuristic's priorities and costs (cg_map_params.heur), the placement the
 * restricted ILP models centre on (.place) and the clustering (.cluster).
 * Their defaults are the values the searches were tuned with; a value out
 * of range is an error naming the field, and cg_map maps nothing; each
 * search reads its own fields. */
#include "map_fixture.h"

#include <math.h>

#include "mapper/search/cluster_internal.h"
#include "mapper/search/heur_internal.h"
#include "mapper/search/place_internal.h"

static void test_defaults(void **state)
{
    (void)state;
    cg_map_params p;
    cg_map_params_init(&p);
    const cg_map_heur_params *h = &p.heur;
    assert_true(h->w_bump == 2.0 && h->prio_noise == 1.5);
    assert_true(h->late_src == 0.3 && h->w_late == 1.0 && h->w_ahead == 0.5);
    assert_true(h->noise_start == 1.0 && h->noise_attempts == 40.0);
    assert_true(h->noise_max == 6.0 && h->extra_starts == 3);
    const cg_map_place_params *pl = &p.place;
    assert_true(pl->moves_per_node == 4000 && pl->t_start == 4.0);
    assert_true(pl->cooling == 0.92 && pl->cool_steps == 100);
    assert_true(pl->quench_per_node == 200);
    const cg_map_cluster_params *c = &p.cluster;
    assert_true(c->target_ops == 32 && c->metis_ufactor == 30);
    assert_true(c->metis_ncuts == 1 && c->ilp_nodes == 500);
    assert_true(c->ilp_time_s == 30 && c->halo == 1);
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map_params_check(&p, NULL, d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
}

/* p with one change refused with exactly want, at k.c. */
static void refused(const cg_map_params *p, const char *want)
{
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map_params_check(p, "k.c", d), -1);
    assert_int_equal(cg_diags_size(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->file, "k.c");
    assert_string_equal(cg_diags_get(d, 0)->msg, want);
    cg_diags_destroy(d);
}

/* The defaults with field set to v refused with exactly msg. */
#define REFUSED(field, v, msg)                                               \
    do {                                                                     \
        cg_map_params_init(&p);                                              \
        p.field = v;                                                         \
        refused(&p, msg);                                                    \
    } while (0)

static void test_out_of_range(void **state)
{
    (void)state;
    cg_map_params p;
    REFUSED(heur.late_src, 1.5,
            "cg_map_params.heur.late_src is 1.5; "
            "it must be at least 0 and at most 1");
    REFUSED(heur.w_ahead, NAN,
            "cg_map_params.heur.w_ahead is nan; "
            "it must be at least 0 and at most 1000000000");
    REFUSED(heur.noise_max, 0.5, /* below noise_start */
            "cg_map_params.heur.noise_max is 0.5; "
            "it must be at least 1 and at most 1000000000");
    REFUSED(heur.noise_attempts, 0,
            "cg_map_params.heur.noise_attempts is 0; "
            "it must be above 0 and at most 1000000000");
    REFUSED(heur.extra_starts, -1,
            "cg_map_params.heur.extra_starts is -1; "
            "it must be at least 0 and at most 1000");
    REFUSED(place.cooling, 0,
            "cg_map_params.place.cooling is 0; "
            "it must be above 0 and at most 1");
    REFUSED(place.moves_per_node, 2000000,
            "cg_map_params.place.moves_per_node is 2000000; "
            "it must be at least 0 and at most 1000000");
    REFUSED(place.cool_steps, 0,
            "cg_map_params.place.cool_steps is 0; "
            "it must be at least 1 and at most 1000000");
    REFUSED(cluster.halo, -1,
            "cg_map_params.cluster.halo is -1; "
            "it must be at least 0 and at most 1000000");
    REFUSED(cluster.ilp_time_s, 0,
            "cg_map_params.cluster.ilp_time_s is 0; "
            "it must be above 0 and at most 1000000000");
    REFUSED(cluster.target_ops, 0,
            "cg_map_params.cluster.target_ops is 0; "
            "it must be at least 1 and at most 1000000");
    REFUSED(sat_horizon, CG_MAP_MAX_SAT_HORIZON + 1,
            "cg_map_params.sat_horizon is 65; it must be 0 to 64");
    REFUSED(sat_wide_horizon, -1,
            "cg_map_params.sat_wide_horizon is -1; it must be 0 to 64");
    REFUSED(sat_probe_share, 1.5,
            "cg_map_params.sat_probe_share is 1.5; "
            "it must be at least 0 and at most 1");
    REFUSED(sat_wide_share, NAN,
            "cg_map_params.sat_wide_share is nan; "
            "it must be at least 0 and at most 1");
    REFUSED(max_ii, CG_MAP_MAX_II + 1,
            "cg_map_params.max_ii is 65; it must be 0 to 64");
    cg_map_params_init(&p); /* the limits themselves are taken */
    p.sat_horizon = CG_MAP_MAX_SAT_HORIZON;
    p.sat_wide_horizon = CG_MAP_MAX_SAT_HORIZON;
    p.max_ii = CG_MAP_MAX_II;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map_params_check(&p, NULL, d), 0);
    cg_diags_destroy(d);
}
#undef REFUSED

/* One error per field out of range, and cg_map maps nothing. */
static void test_map_refuses(void **state)
{
    (void)state;
    cg_map_params p;
    cg_map_params_init(&p);
    p.heur.prio_noise = -1;
    p.cluster.metis_ncuts = 0;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = axpy_dfg();
    cg_dfg_set_file(g, "axpy.c");
    cg_diags *d = cg_diags_create();
    cg_map_result r;
    assert_int_equal(cg_map(nl, g, &p, &r, d), -1);
    assert_null(r.mapping);
    assert_int_equal(cg_diags_size(d), 2);
    assert_string_equal(cg_diags_get(d, 0)->file, "axpy.c");
    assert_string_equal(cg_diags_get(d, 0)->msg, "cg_map_params.heur."
                        "prio_noise is -1; it must be at least 0 and at most "
                        "1000000000");
    assert_string_equal(cg_diags_get(d, 1)->msg, "cg_map_params.cluster."
                        "metis_ncuts is 0; it must be at least 1 and at most "
                        "1000");
    cg_map_result_free(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* The heuristic on the reconvergent DFG at II 1 with weights w (NULL:
 * the defaults); its mapping or NULL. */
static cg_mapping *heur_with(const cg_netlist *nl, const cg_mrrg *m,
                             const cg_dfg *g, const cg_map_heur_params *w,
                             int *attempts)
{
    cg__heur_opts o;
    memset(&o, 0, sizeof o);
    o.timeout_s = 60;
    o.seed = 1;
    o.max_steps = 4000;
    o.w = w;
    cg_mapping *map = NULL;
    cg_diags *d = cg_diags_create();
    assert_true(cg__heur_map(nl, m, g, &o, &map, d) >= 0);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
    *attempts = o.attempts;
    return map;
}

static bool same_mapping(const cg_mapping *a, const cg_mapping *b)
{
    if (!a || !b)
        return a == b;
    return memcmp(a->place, b->place, sizeof(int) * (size_t)a->nnodes) ==
               0 &&
           memcmp(a->start, b->start, sizeof(int64_t) * (size_t)a->nnodes) ==
               0;
}

/* No weights are the defaults; other weights another search. */
static void test_heur_reads_its_params(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    reconv rc = reconv_dfg();
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 1, d);
    cg_map_params p;
    cg_map_params_init(&p);
    int n0, n1, n2;
    cg_mapping *a = heur_with(nl, m, rc.g, NULL, &n0);
    cg_mapping *b = heur_with(nl, m, rc.g, &p.heur, &n1);
    assert_non_null(a);
    assert_int_equal(n0, n1);
    assert_true(same_mapping(a, b));
    p.heur.prio_noise = 40;
    p.heur.noise_start = p.heur.noise_max = 50;
    cg_mapping *c = heur_with(nl, m, rc.g, &p.heur, &n2);
    assert_false(n2 == n0 && same_mapping(a, c));
    /* more starts per unit than the default's II + 3: each one has room
       (the sanitizer build checks the choices' array) */
    cg_map_params_init(&p);
    p.heur.extra_starts = 40;
    cg_mapping_destroy(heur_with(nl, m, rc.g, &p.heur, &n2));
    cg_mapping_destroy(a);
    cg_mapping_destroy(b);
    cg_mapping_destroy(c);
    cg_mrrg_destroy(m);
    cg_dfg_destroy(rc.g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* Summed grid distance of g's edges under placement prim. */
static int wirelength(const cg_netlist *nl, const cg_dfg *g, const int *prim)
{
    int c = 0;
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        const cg_nl_prim *x = cg_netlist_prim(nl, prim[ed->src]);
        const cg_nl_prim *y = cg_netlist_prim(nl, prim[ed->dst]);
        c += abs(x->row - y->row) + abs(x->col - y->col);
    }
    return c;
}

/* Without moves the placement is the random greedy start; the default
 * schedule shortens it. */
static void test_place_reads_its_params(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = add_chain(12);
    int n = cg_dfg_nnodes(g);
    int *annealed = malloc(sizeof(int) * (size_t)n);
    int *greedy = malloc(sizeof(int) * (size_t)n);
    cg_map_params p;
    cg_map_params_init(&p);
    assert_int_equal(cg__place_anneal(nl, g, 1, 1, &p.place, annealed), 0);
    p.place.moves_per_node = p.place.quench_per_node = 0;
    assert_int_equal(cg__place_anneal(nl, g, 1, 1, &p.place, greedy), 0);
    assert_true(wirelength(nl, g, annealed) < wirelength(nl, g, greedy));
    free(annealed);
    free(greedy);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The clusters follow target_ops: ceil(nodes / target_ops) of them. */
static void test_cluster_reads_its_params(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = add_chain(60);
    int n = cg_dfg_nnodes(g);
    cg_map_params p;
    cg_map_params_init(&p);
    p.cluster_threshold = 8;
    for (int ops = 16; ops <= 32; ops += 16) {
        p.cluster.target_ops = ops;
        cg__cluster_params cp;
        cg__cluster_params_from(&p, &cp);
        assert_int_equal(cp.threshold, 8);
        cg__cluster_out out;
        cg_diags *d = cg_diags_create();
        assert_int_equal(cg__cluster_place(nl, g, 4, &cp, &out, d), 0);
        assert_int_equal(out.nclusters, (n + ops - 1) / ops);
        cg__cluster_out_free(&out);
        cg_diags_destroy(d);
    }
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_map_refuses),
        cmocka_unit_test(test_heur_reads_its_params),
        cmocka_unit_test(test_place_reads_its_params),
        cmocka_unit_test(test_cluster_reads_its_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
