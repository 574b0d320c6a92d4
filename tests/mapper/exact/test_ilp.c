/* test_ilp.c: one ILP at one II (mapper/exact/ilp*.c, through
 * exact_internal.h): a small DFG mapped, reconvergent paths of different
 * lengths balanced by the timing rows, a recurrence closing exactly at II, an
 * II proven infeasible (by the relaxation, and by the branch and bound), a
 * model restricted around the heuristic placement, each with GLPK and CBC, and
 * --dump-lp's CPLEX LP file (and its error on an unwritable path).  Every
 * mapping is re-checked by verify_mapping (ilp_test_util.h). */
#include "../ilp_test_util.h"

#include "../../arch/arch_test_util.h"
#include "../glpk_reset.h"

#include <unistd.h>

#include "mapper/exact/exact_internal.h"
#include "mapper/exact/sym_internal.h"
#include "mapper/search/place_internal.h"

typedef struct solved {
    cg_mrrg *m;
    cg__ilp_out out;
} solved;

/* Solve g on nl at ii with solver (full model unless center is given). */
static solved solve_at(const cg_netlist *nl, const cg_dfg *g, int ii,
                       const int *center, int radius, const char *dump,
                       cg_map_solver solver)
{
    cg_diags *d = cg_diags_create();
    solved s;
    s.m = cg_mrrg_build(nl, ii, d);
    assert_non_null(s.m);
    cg__kgraph *k = cg__kgraph_build(s.m, nl);
    assert_non_null(k);
    cg__ilp_opts o = {center, radius, 30,   dump, false,
                      solver, 0,      0,    NULL, NULL};
    int rc = cg__ilp_solve(k, nl, g, &o, &s.out, d);
    if (rc != 0)
        cg_diags_print(d, stderr);
    assert_int_equal(rc, 0);
    assert_true(s.out.rows > 0 && s.out.cols > 0 && s.out.nonzeros > 0);
    assert_int_equal(s.out.outcome == CG_II_MAPPED, s.out.mapping != NULL);
    cg__kgraph_destroy(k);
    cg_diags_destroy(d);
    return s;
}

static void done(solved *s)
{
    cg_mapping_destroy(s->out.mapping);
    cg_mrrg_destroy(s->m);
}

/* out = a + b */
static cg_dfg *adder(void)
{
    cg_dfg *g = cg_dfg_create("adder");
    int a = dfg_node(g, CG_OP_INPUT, "a"), b = dfg_node(g, CG_OP_INPUT, "b");
    int s = dfg_node(g, CG_OP_ADD, "s"), o = dfg_node(g, CG_OP_OUTPUT, "o");
    cg_dfg_add_edge(g, a, s, 0, 0, -1);
    cg_dfg_add_edge(g, b, s, 1, 0, -1);
    cg_dfg_add_edge(g, s, o, 0, 0, -1);
    return g;
}

static void test_map_small(void **state)
{
    cg_map_solver solver = *(const cg_map_solver *)*state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = adder();
    solved s = solve_at(nl, g, 1, NULL, 0, NULL, solver);
    assert_int_equal(s.out.outcome, CG_II_MAPPED);
    assert_true(verify_mapping(nl, s.m, g, s.out.mapping) > 0);
    /* whole stages shifted so the earliest op starts in [0, II) */
    int64_t lo = s.out.mapping->start[0];
    for (int v = 1; v < cg_dfg_nnodes(g); v++)
        if (s.out.mapping->start[v] < lo)
            lo = s.out.mapping->start[v];
    assert_int_equal(lo, 0);
    done(&s);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* a -> b -> c -> e and a -> e directly: the short path must be delayed to
 * meet the long one at e. */
static void test_reconvergent(void **state)
{
    cg_map_solver solver = *(const cg_map_solver *)*state;
    cg_netlist *nl = mesh_netlist(2, 2);
    reconv r = reconv_dfg();
    cg_dfg *g = r.g;
    int a = r.a, e = r.e, direct = r.direct;
    solved s = solve_at(nl, g, 2, NULL, 0, NULL, solver);
    assert_int_equal(s.out.outcome, CG_II_MAPPED);
    verify_mapping(nl, s.m, g, s.out.mapping);
    const cg_mapping *map = s.out.mapping;
    /* b and c each take at least a cycle (result through the register) */
    assert_true(map->start[e] - map->start[a] >= 2);
    assert_int_equal(route_latency(s.m, map, map->place[a], direct),
                     map->start[e] - map->start[a]);
    done(&s);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* s = s + x * k, carried one iteration: the route from s back to its own
 * operand takes exactly II cycles. */
static void test_recurrence(void **state)
{
    cg_map_solver solver = *(const cg_map_solver *)*state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = cg_dfg_create("mac");
    int x = dfg_node(g, CG_OP_INPUT, "x"), k = dfg_node(g, CG_OP_CONST, "k");
    int mu = dfg_node(g, CG_OP_MUL, "m"), s = dfg_node(g, CG_OP_ADD, "s");
    int o = dfg_node(g, CG_OP_OUTPUT, "o");
    cg_dfg_add_edge(g, x, mu, 0, 0, -1);
    cg_dfg_add_edge(g, k, mu, 1, 0, -1);
    cg_dfg_add_edge(g, mu, s, 0, 0, -1);
    int back = cg_dfg_add_edge(g, s, s, 1, 1, -1);
    cg_dfg_add_edge(g, s, o, 0, 0, -1);
    for (int ii = 1; ii <= 2; ii++) {
        solved r = solve_at(nl, g, ii, NULL, 0, NULL, solver);
        assert_int_equal(r.out.outcome, CG_II_MAPPED);
        verify_mapping(nl, r.m, g, r.out.mapping);
        assert_int_equal(route_latency(r.m, r.out.mapping,
                                       r.out.mapping->place[s], back), ii);
        done(&r);
    }
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* tiny (one IO, one adder of latency 1): the accumulator closes only at
 * II=2 (latency + register), where its input and output need the one IO
 * in the same context; at II=3 the loop cannot take three cycles. */
static void test_infeasible(void **state)
{
    cg_map_solver solver = *(const cg_map_solver *)*state;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 1);
    cg_dfg *g = accumulator(true);
    for (int ii = 2; ii <= 3; ii++) {
        solved r = solve_at(nl, g, ii, NULL, 0, NULL, solver);
        assert_int_equal(r.out.outcome, CG_II_INFEASIBLE);
        done(&r);
    }
    /* without the output it maps at II=2 */
    cg_dfg *g2 = accumulator(false);
    solved r = solve_at(nl, g2, 2, NULL, 0, NULL, solver);
    assert_int_equal(r.out.outcome, CG_II_MAPPED);
    verify_mapping(nl, r.m, g2, r.out.mapping);
    done(&r);
    cg_dfg_destroy(g);
    cg_dfg_destroy(g2);
    cg_netlist_destroy(nl);
}

/* fanout(k) (ilp_test_util.h) on the 2x2 at II=1: k=2 maps; k=3 does not
 * (x leaves its IO on one wire, and three PEs cannot all hear it in one
 * cycle).  Without the symmetry breaking the LP relaxation is feasible
 * there, so the branch and bound itself must prove it.
 *
 * The ILP of fanout(k) at II=1 on the 2x2, without the spatial
 * symmetry breaking (which lets the LP relaxation itself prove k=3
 * impossible, test_sym.c): relax_only solves only the relaxation. */
static cg__ilp_out solve_plain_nodes(const cg_netlist *nl, int k,
                                     bool relax_only, cg_map_solver solver,
                                     int nodes, cg_mrrg **m)
{
    cg_diags *d = cg_diags_create();
    *m = cg_mrrg_build(nl, 1, d);
    cg__kgraph *kg = cg__kgraph_build(*m, nl);
    assert_non_null(kg);
    cg__sym_destroy(kg->sym);
    kg->sym = NULL;
    cg_dfg *g = fanout(k);
    cg__ilp_opts o = {NULL, 0, 30, NULL, relax_only, solver, nodes, 0, NULL,
                      NULL};
    cg__ilp_out out;
    assert_int_equal(cg__ilp_solve(kg, nl, g, &o, &out, d), 0);
    if (out.mapping)
        verify_mapping(nl, *m, g, out.mapping);
    cg_dfg_destroy(g);
    cg__kgraph_destroy(kg);
    cg_diags_destroy(d);
    return out;
}

static cg__ilp_out solve_plain(const cg_netlist *nl, int k, bool relax_only,
                               cg_map_solver solver, cg_mrrg **m)
{
    return solve_plain_nodes(nl, k, relax_only, solver, 0, m);
}

static void test_fanout(void **state)
{
    cg_map_solver solver = *(const cg_map_solver *)*state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_mrrg *m;
    cg__ilp_out out = solve_plain(nl, 2, false, solver, &m);
    assert_int_equal(out.outcome, CG_II_MAPPED);
    cg_mapping_destroy(out.mapping);
    cg_mrrg_destroy(m);
    /* k=3: the relaxation decides nothing, the branch and bound proves */
    out = solve_plain(nl, 3, true, solver, &m);
    assert_int_equal(out.outcome, CG_II_TIMEOUT);
    cg_mrrg_destroy(m);
    out = solve_plain(nl, 3, false, solver, &m);
    assert_int_equal(out.outcome, CG_II_INFEASIBLE);
    assert_null(out.mapping);
    cg_mrrg_destroy(m);
    cg_netlist_destroy(nl);
}

/* fanout(3) again, GLPK's branch and bound stopped by its work limit (one
 * node) before it proves anything: the II is undecided (timeout), not
 * infeasible, and not capped (the limit is work, not the wall clock).
 * (CBC's cuts prove it at the root node: GLPK only.) */
static void test_node_limit(void **state)
{
    cg_map_solver solver = *(const cg_map_solver *)*state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_mrrg *m;
    cg__ilp_out out = solve_plain_nodes(nl, 3, false, solver, 1, &m);
    assert_int_equal(out.outcome, CG_II_TIMEOUT);
    assert_false(out.capped);
    assert_null(out.mapping);
    cg_mrrg_destroy(m);
    cg_netlist_destroy(nl);
}

/* A chain of adds on the 4x4, restricted to radius 1 around the annealed
 * placement: mapped, with every op within the radius. */
static void test_restricted(void **state)
{
    cg_map_solver solver = *(const cg_map_solver *)*state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = add_chain(5);
    int n = cg_dfg_nnodes(g);
    int *center = malloc(sizeof(int) * (size_t)n);
    cg_map_params mp;
    cg_map_params_init(&mp);
    assert_int_equal(cg__place_anneal(nl, g, 1, 1, &mp.place, center), 0);
    solved s = solve_at(nl, g, 1, center, 1, NULL, solver);
    assert_int_equal(s.out.outcome, CG_II_MAPPED);
    verify_mapping(nl, s.m, g, s.out.mapping);
    for (int v = 0; v < n; v++) {
        const cg_nl_prim *p = cg_netlist_prim(
            nl, cg_mrrg_get_node(s.m, s.out.mapping->place[v])->prim);
        const cg_nl_prim *c = cg_netlist_prim(nl, center[v]);
        assert_true(abs(p->row - c->row) + abs(p->col - c->col) <= 1);
    }
    done(&s);
    free(center);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

static void test_dump_lp(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = adder();
    char path[] = "/tmp/cg_test_ilp_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    solved s = solve_at(nl, g, 1, NULL, 0, path, CG_SOLVER_GLPK);
    assert_int_equal(s.out.outcome, CG_II_MAPPED);
    char *text = cg_slurp(path, NULL);
    assert_non_null(strstr(text, "Minimize"));
    assert_non_null(strstr(text, "Subject To"));
    assert_non_null(strstr(text, "F_2_")); /* the add's placement */
    assert_non_null(strstr(text, "x_0_"));  /* the route of edge 0 */
    assert_non_null(strstr(text, "Generals"));
    assert_non_null(strstr(text, "End"));
    free(text);
    remove(path);
    done(&s);
    /* an unwritable path is an error naming the file */
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 1, d);
    cg__kgraph *k = cg__kgraph_build(m, nl);
    cg__ilp_opts o = {NULL, 0, 5, "/nonexistent-dir/model.lp", false,
                      CG_SOLVER_GLPK, 0, 0, NULL, NULL};
    cg__ilp_out out;
    assert_int_equal(cg__ilp_solve(k, nl, g, &o, &out, d), -1);
    assert_null(out.mapping);
    assert_int_equal(cg_diags_errors(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->file,
                        "/nonexistent-dir/model.lp");
    assert_string_equal(cg_diags_get(d, 0)->msg,
                        "cannot write the LP model (II=1) to this file: "
                        "check that its folder exists and is writable");
    cg__kgraph_destroy(k);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* GLPK past its memory limit, as when memory runs out (sha256's ILP at
 * 1.7 GB ended the process): the solve is an error, not an abort, GLPK
 * starts afresh, and the next solve maps as before. */
static void test_glpk_out_of_memory(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = adder();
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 2, d);
    cg__kgraph *k = cg__kgraph_build(m, nl);
    cg__ilp_opts o = {NULL, 0, 30, NULL, false, CG_SOLVER_GLPK, 0, 0, NULL,
                      NULL};
    cg__ilp_out out;
    glp_mem_limit(1); /* MB */
    assert_int_equal(cg__ilp_solve(k, nl, g, &o, &out, d), -1);
    assert_null(out.mapping);
    assert_int_equal(cg_diags_errors(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->msg,
                        "GLPK stopped on the ILP of 'adder' at II=2 (623 "
                        "rows, 964 columns): glp_alloc: memory allocation "
                        "limit exceeded");
    assert_int_equal(cg__ilp_solve(k, nl, g, &o, &out, d), 0);
    assert_int_equal(out.outcome, CG_II_MAPPED);
    verify_mapping(nl, m, g, out.mapping);
    cg_mapping_destroy(out.mapping);
    assert_int_equal(cg_diags_errors(d), 1);
    cg__kgraph_destroy(k);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

int main(void)
{
    /* the model-level tests run with both solvers: same model, so the same
       outcomes and mappings the checker accepts */
    static const cg_map_solver glpk = CG_SOLVER_GLPK, cbc = CG_SOLVER_CBC;
#define BOTH(t) {#t " (glpk)", t, NULL, NULL, (void *)&glpk}, \
                {#t " (cbc)", t, NULL, NULL, (void *)&cbc}
    const struct CMUnitTest tests[] = {
        BOTH(test_map_small),
        BOTH(test_reconvergent),
        BOTH(test_recurrence),
        BOTH(test_infeasible),
        BOTH(test_fanout),
        {"test_node_limit (glpk)", test_node_limit, NULL, NULL,
         (void *)&glpk},
        BOTH(test_restricted),
        cmocka_unit_test(test_dump_lp),
        cmocka_unit_test_teardown(test_glpk_out_of_memory, glpk_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
