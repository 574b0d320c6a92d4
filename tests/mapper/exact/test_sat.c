/* test_sat.c: the exact SAT mapper (mapper/exact/sat.c, sat_cnf.c): small
 * DFGs mapped and re-checked (verify_mapping, and the library's checker);
 * reconvergent paths balanced by exact delays; a recurrence closing at
 * II; IIs refuted, with the horizon the refutation covers or none (a
 * recurrence); the optimum II found and proven by the II search with
 * --mapper sat; a mapping simulated to the interpreter's memory and
 * live-out; the conflict limit (undecided, and the same answer twice),
 * and a big model's own limit, alone and in the search of a large DFG;
 * the DIMACS file of --dump-cnf; a zero-delay routing cycle, whose
 * self-supporting values the loop clauses cut; the at-most-k counter, the
 * register count it keeps, and the slack bound that makes a refutation
 * cover every schedule; the probe and the wider window, each solved at
 * once; the counts of registers and units per context, on sobel, and the
 * SAT mapper's answers against the full ILP's where those counts are
 * tight; a search its work limit stopped, continued on the same model
 * (alone, and in the climb at the first II the bound leaves). */
#include "../ilp_test_util.h"

#include "../glpk_reset.h"
#include "../map_fixture.h"

#include <unistd.h>

#include "mapper/exact/exact_internal.h"
#include "mapper/exact/sat_internal.h"
#include "xml/xml.h"

typedef struct solved {
    cg_mrrg *m;
    cg__sat_out out;
} solved;

static solved solve_opts(const cg_netlist *nl, const cg_dfg *g, int ii,
                         const cg__sat_opts *o)
{
    cg_diags *d = cg_diags_create();
    solved s;
    s.m = cg_mrrg_build(nl, ii, d);
    assert_non_null(s.m);
    int rc = cg__sat_solve(s.m, nl, g, o, &s.out, NULL, d);
    if (rc != 0)
        cg_diags_print(d, stderr);
    assert_int_equal(rc, 0);
    assert_int_equal(s.out.outcome == CG_II_MAPPED, s.out.mapping != NULL);
    if (s.out.mapping) {
        assert_true(verify_mapping(nl, s.m, g, s.out.mapping) > 0);
        assert_int_equal(cg_map_check(nl, s.m, g, s.out.mapping, d), 0);
    }
    cg_diags_destroy(d);
    return s;
}

/* Solve with horizon 4, no conflict limit. */
static solved solve_at(const cg_netlist *nl, const cg_dfg *g, int ii)
{
    cg__sat_opts o = {4, 0, 60, 0, NULL, 0, 0, 0, false, 0, 0, false};
    return solve_opts(nl, g, ii, &o);
}

static void done(solved *s)
{
    cg_mapping_destroy(s->out.mapping);
    cg_mrrg_destroy(s->m);
}

static void test_map_small(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = axpy_dfg();
    solved s = solve_at(nl, g, 1);
    assert_int_equal(s.out.outcome, CG_II_MAPPED);
    assert_true(s.out.vars > 0 && s.out.clauses > 0);
    done(&s);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* a -> b -> c -> e and a -> e directly: the direct route waits exactly
 * as long as the two ops take. */
static void test_reconvergent(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    reconv r = reconv_dfg();
    cg_dfg *g = r.g;
    int a = r.a, e = r.e, direct = r.direct;
    solved s = solve_at(nl, g, 2);
    assert_int_equal(s.out.outcome, CG_II_MAPPED);
    const cg_mapping *map = s.out.mapping;
    assert_true(map->start[e] - map->start[a] >= 2);
    assert_int_equal(route_latency(s.m, map, map->place[a], direct),
                     map->start[e] - map->start[a]);
    done(&s);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* s = s + x * k carried one iteration: the route back takes II cycles. */
static void test_recurrence(void **state)
{
    (void)state;
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
        solved r = solve_at(nl, g, ii);
        assert_int_equal(r.out.outcome, CG_II_MAPPED);
        assert_int_equal(route_latency(r.m, r.out.mapping,
                                       r.out.mapping->place[s], back), ii);
        done(&r);
    }
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* tiny (one IO, one adder of latency 1): the accumulator with an output
 * needs the one IO twice in a context at II 2 and 3, refuted within the
 * horizon; at II 1 no route closes the recurrence (latency + register
 * is 2 cycles), refuted for every horizon; without the output it maps
 * at II 2. */
static void test_infeasible(void **state)
{
    (void)state;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 1);
    cg_dfg *g = accumulator(true);
    for (int ii = 2; ii <= 3; ii++) {
        solved r = solve_at(nl, g, ii);
        assert_int_equal(r.out.outcome, CG_II_INFEASIBLE);
        assert_int_equal(r.out.horizon, -1);
        done(&r);
    }
    solved r1 = solve_at(nl, g, 1);
    assert_int_equal(r1.out.outcome, CG_II_INFEASIBLE);
    assert_int_equal(r1.out.horizon, -1);
    assert_int_equal(r1.out.vars, 0); /* decided before any encoding */
    done(&r1);
    cg_dfg *g2 = accumulator(false);
    solved r = solve_at(nl, g2, 2);
    assert_int_equal(r.out.outcome, CG_II_MAPPED);
    done(&r);
    cg_dfg_destroy(g);
    cg_dfg_destroy(g2);
    cg_netlist_destroy(nl);
}

/* x fans out to k ops on the 2x2: at II 1, k = 2 maps and k = 3 does not
 * (x leaves its IO on one wire, three PEs cannot all hear it in one
 * cycle); the II search with the SAT mapper alone finds II 2 for k = 3
 * and says II 1 is refuted with horizon 4. */

static void test_fanout(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g2 = fanout(2), *g3 = fanout(3);
    solved a = solve_at(nl, g2, 1);
    assert_int_equal(a.out.outcome, CG_II_MAPPED);
    done(&a);
    solved b = solve_at(nl, g3, 1);
    assert_int_equal(b.out.outcome, CG_II_INFEASIBLE);
    assert_int_equal(b.out.horizon, -1);
    done(&b);
    cg_map_params p;
    cg_map_params_init(&p);
    p.search = CG_SEARCH_SAT;
    p.max_ii = 4;
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g3, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_MAPPED);
    assert_int_equal(r.ii, 2);
    assert_int_equal(r.ntried, 2);
    assert_int_equal(r.tried[0].outcome, CG_II_INFEASIBLE);
    assert_int_equal(r.tried[0].by, CG_BY_SAT);
    assert_int_equal(r.tried[0].horizon, -1);
    assert_int_equal(r.tried[1].outcome, CG_II_MAPPED);
    assert_int_equal(r.tried[1].by, CG_BY_SAT);
    assert_string_equal(cg_map_prover_name(r.tried[0].by), "sat");
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g2);
    cg_dfg_destroy(g3);
    cg_netlist_destroy(nl);
}

/* The progress callback sees each stage as the auto search enters it:
 * at II 1 the bound and the heuristic fail and SAT refutes it (so the
 * annealer never runs), then II 2 maps by the heuristic. */
static void note_stage(void *arg, int ii, cg_map_stage stage)
{
    char *log = arg;
    size_t n = strlen(log);
    snprintf(log + n, 256 - n, "%d %s;", ii, cg_map_stage_name(stage));
}

/* fanout(3) on the 2x2 mapped with p, each stage logged into log: it
 * maps, and the checker accepts the mapping. */
static void map_fanout(cg_map_params *p, char *log, cg_map_result *r)
{
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = fanout(3);
    p->progress = note_stage;
    p->progress_arg = log;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, p, r, d), 0);
    assert_int_equal(r->status, CG_MAP_MAPPED);
    assert_int_equal(cg_map_check(nl, r->mrrg, g, r->mapping, d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* map_fanout: it maps at II 2 after SAT refuted II 1, in the climb or as
 * the prover. */
static void map_logged(cg_map_params *p, char *log, cg_map_result *r)
{
    map_fanout(p, log, r);
    assert_int_equal(r->ii, 2);
    assert_int_equal(r->tried[0].by, CG_BY_SAT);
    assert_int_equal(r->tried[0].outcome, CG_II_INFEASIBLE);
}

static void test_progress(void **state)
{
    (void)state;
    char log[256] = "";
    cg_map_params p;
    cg_map_params_init(&p);
    p.max_ii = 4;
    cg_map_result r;
    map_logged(&p, log, &r);
    assert_string_equal(log, "1 bound;1 heuristic;1 SAT;2 bound;"
                             "2 heuristic;");
    assert_int_equal(r.tried[0].horizon, -1);
    assert_true(r.tried[0].conflicts > 0);
    assert_int_equal(r.tried[1].by, CG_BY_HEURISTIC);
    cg_map_result_free(&r);
}

/* A small DFG's first II the bound leaves keeps the climb's SAT model:
 * the share (one conflict here) decides nothing, the annealer fails, the
 * climb maps II 2, and the search below goes on with the kept model,
 * which refutes II 1 with the rest of the conflicts.  Where the share
 * was the whole budget (one conflict, share 1), the search below has no
 * conflict left and runs no SAT at II 1 (built again, it would spend one
 * more); II 1 is undecided there, so the heuristic and the annealer try
 * it again with two fresh seeds (the retries). */
static void test_progress_split(void **state)
{
    (void)state;
    char log[256] = "";
    cg_map_params p;
    cg_map_params_init(&p);
    p.max_ii = 4;
    p.nego_moves = 1000;
    p.sat_conflicts = 1000;
    p.sat_climb_share = 1.0 / 1000;
    cg_map_result r;
    map_logged(&p, log, &r);
    assert_string_equal(log, "1 bound;1 heuristic;1 SAT;1 annealer;"
                             "2 bound;2 heuristic;1 SAT;");
    assert_int_equal(r.ntried, 2);
    assert_int_equal(r.tried[0].horizon, -1);
    assert_true(r.tried[0].conflicts > 1); /* the share's and the rest's */
    assert_false(r.tried[0].capped);
    cg_map_result_free(&r);

    log[0] = '\0';
    p.sat_conflicts = 1;
    p.sat_climb_share = 1;
    p.retry_moves = 1000;
    map_fanout(&p, log, &r);
    assert_string_equal(log, "1 bound;1 heuristic;1 SAT;1 annealer;"
                             "2 bound;2 heuristic;"
                             "1 bound;1 heuristic;1 annealer;"
                             "1 bound;1 heuristic;1 annealer;");
    assert_int_equal(r.ii, 2);
    assert_int_equal(r.tried[0].outcome, CG_II_TIMEOUT);
    assert_int_equal(r.tried[0].conflicts, 1);
    cg_map_result_free(&r);
}

/* The same DFG counted large (large_above 0): SAT runs in the climb only
 * at the first II the register bound leaves, with the whole budget of
 * the search below, which does not run it there again.  By default it
 * refutes II 1 there (the annealer never runs); II 2, where the
 * heuristic is given one step, gets no SAT (the bound left II 1, not
 * II 2) and the annealer maps it.  With every model big and one
 * conflict SAT decides nothing at II 1: the annealer takes II 1, the
 * climb maps II 2 without SAT, and below it II 1 gets the heuristic and
 * the annealer with a fresh seed but no second SAT run; the row keeps
 * the climb's conflicts. */
static void test_progress_large(void **state)
{
    (void)state;
    static const struct {
        long literals, conflicts, steps;
        const char *log;
        cg_ii_outcome first;
    } cases[] = {{300000, 2000, 1,
                  "1 bound;1 heuristic;1 SAT;2 bound;2 heuristic;"
                  "2 annealer;",
                  CG_II_INFEASIBLE},
                 {0, 1, 300,
                  "1 bound;1 heuristic;1 SAT;1 annealer;2 bound;"
                  "2 heuristic;1 bound;1 heuristic;1 annealer;",
                  CG_II_TIMEOUT}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char log[256] = "";
        cg_map_params p;
        cg_map_params_init(&p);
        assert_false(p.large_climb_sat);
        assert_int_equal(p.large_conflicts, 2000);
        p.max_ii = 2;
        p.large_above = 0;
        p.large_moves = 1000;
        p.large_sat_literals = cases[i].literals;
        p.large_conflicts = cases[i].conflicts;
        p.large_steps = cases[i].steps;
        cg_map_result r;
        map_fanout(&p, log, &r);
        assert_int_equal(r.ii, 2);
        assert_string_equal(log, cases[i].log);
        assert_int_equal(r.tried[0].outcome, cases[i].first);
        assert_int_equal(r.tried[0].by, cases[i].first == CG_II_INFEASIBLE
                                            ? CG_BY_SAT : CG_BY_NONE);
        if (cases[i].conflicts == 1)
            assert_true(r.tried[0].conflicts <= 2);
        else
            assert_true(r.tried[0].conflicts >= 1);
        assert_int_equal(r.tried[1].by, CG_BY_HEURISTIC);
        cg_map_result_free(&r);
    }
}

/* The conflicts SAT spent at the II the annealer then maps are the row's
 * for that II (they were dropped: 0).  fanout(3) on the 2x2 at II 2,
 * counted large, so SAT has its whole budget there: every model big and
 * given 5 conflicts, it decides nothing (6 learnt clauses over its two
 * models), and the annealer maps the II after the heuristic's one step. */
static void test_conflicts_before_annealer(void **state)
{
    (void)state;
    cg_map_params p;
    cg_map_params_init(&p);
    p.min_ii = p.max_ii = 2;
    p.large_above = 0;
    p.large_steps = 1;
    p.large_moves = 1000;
    p.large_sat_literals = 0;
    p.large_conflicts = 5;
    char log[256] = "";
    cg_map_result r;
    map_fanout(&p, log, &r);
    assert_string_equal(log, "2 bound;2 heuristic;2 SAT;2 annealer;");
    assert_int_equal(r.ntried, 1);
    assert_int_equal(r.tried[0].by, CG_BY_HEURISTIC);
    assert_true(r.tried[0].conflicts > 0);
    cg_map_result_free(&r);
}

/* The large DFGs' SAT budget follows the model's size: fanout(3) counted
 * large with large_conflicts 1 keeps sat_conflicts (its model is far
 * below large_sat_literals), and SAT refutes II 1 as the prover; with
 * large_sat_literals 0 every model is big, the one conflict decides
 * nothing and II 1 stays open. */
static void test_large_sat_literals(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = fanout(3);
    cg_diags *d = cg_diags_create();
    cg_map_params p;
    cg_map_params_init(&p);
    long dflt = p.large_sat_literals;
    assert_int_equal(dflt, 300000);
    p.max_ii = 2;
    p.large_above = 0;
    p.large_moves = 1000;
    p.large_conflicts = 1;
    for (int big = 0; big <= 1; big++) {
        p.large_sat_literals = big ? 0 : dflt;
        cg_map_result r;
        assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
        assert_int_equal(r.status, CG_MAP_MAPPED);
        assert_int_equal(r.ii, 2);
        assert_int_equal(r.tried[0].ii, 1);
        assert_int_equal(r.tried[0].outcome,
                         big ? CG_II_TIMEOUT : CG_II_INFEASIBLE);
        assert_int_equal(r.tried[0].by, big ? CG_BY_NONE : CG_BY_SAT);
        if (big)
            assert_true(r.tried[0].conflicts <= 2);
        else
            assert_true(r.tried[0].conflicts > 2);
        cg_map_result_free(&r);
    }
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* A zero-delay routing cycle: muxes b and c feed each other.  x (on io0
 * or io2) reaches f.in_a through mux a, y must reach f.in_b through a
 * then b: both need a in the same cycle, so no II maps.  y may also
 * circle through the cycle d <-> e (which reaches f only through a), and
 * b <-> c can hold a y that no producer feeds: without loop clauses that
 * is a solution (every support and forward clause holds).  The mapper
 * finds the sink unreached, adds the loop clause and refutes the II. */
static cg_netlist *loop_netlist(void)
{
    cg_diags *d = cg_diags_create();
    int top;
    cg_arch *a = top_only(&top, d);
    cg_arch_set_grid(a, 1, 1);
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_IO);
    cg_arch_add_prim(a, top, "io0", &p, d);
    cg_arch_add_prim(a, top, "io2", &p, d);
    cg_prim_params_init(&p, CG_PRIM_FUNC);
    cg_arch_add_prim(a, top, "f", &p, d);
    cg_prim_params_init(&p, CG_PRIM_MUX);
    const char *mux[] = {"b", "c", "d", "e"};
    for (int i = 0; i < 4; i++)
        cg_arch_add_prim(a, top, mux[i], &p, d);
    p.ninput = 3;
    cg_arch_add_prim(a, top, "a", &p, d);
    cg_arch_connect(a, top, "io0.out", "a.in0", d);
    cg_arch_connect(a, top, "io2.out", "a.in1 d.in0", d);
    cg_arch_connect(a, top, "a.out", "f.in_a b.in0", d);
    cg_arch_connect(a, top, "b.out", "f.in_b c.in0 c.in1", d);
    cg_arch_connect(a, top, "c.out", "b.in1", d);
    cg_arch_connect(a, top, "d.out", "e.in0 e.in1", d);
    cg_arch_connect(a, top, "e.out", "d.in1 a.in2", d);
    return flatten_ok(a, d);
}

static void test_zero_delay_cycle(void **state)
{
    (void)state;
    cg_netlist *nl = loop_netlist();
    cg_dfg *g = cg_dfg_create("xy");
    int x = cg_dfg_add_node(g, CG_OP_INPUT, 32, "x");
    int y = cg_dfg_add_node(g, CG_OP_INPUT, 32, "y");
    int s = cg_dfg_add_node(g, CG_OP_ADD, 32, "s");
    cg_dfg_add_edge(g, x, s, 0, 0, -1);
    cg_dfg_add_edge(g, y, s, 1, 0, -1);
    solved r = solve_at(nl, g, 1);
    assert_int_equal(r.out.outcome, CG_II_INFEASIBLE);
    assert_int_equal(r.out.horizon, -1);
    assert_true(r.out.loop_rounds >= 1);
    done(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* scale (a load, a multiply, a store, two recurrences) mapped by the II
 * search with the SAT mapper alone, then simulated: memory and live-out
 * equal the interpreter's on the same data. */
static void test_simulated(void **state)
{
    (void)state;
    enum { BYTES = 256, ITERS = 6 };
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = scale_dfg();
    cg_map_params p;
    cg_map_params_init(&p);
    p.search = CG_SEARCH_SAT;
    p.max_ii = 4;
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
    assert_int_equal(r.status, CG_MAP_MAPPED);
    assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), 0);
    uint8_t mem[BYTES], want[BYTES];
    for (int j = 0; j < BYTES; j++)
        mem[j] = want[j] = (uint8_t)(j * 7 + 1);
    uint64_t in[10] = {[5] = 64}, out[10] = {0}, wout[10] = {0};
    cg_mem m = {mem, 0, BYTES}, wm = {want, 0, BYTES};
    assert_int_equal(cg_dfg_run(g, ITERS, &wm, in, wout, d), 0);
    assert_int_equal(cg_sim_run(nl, r.mrrg, g, r.mapping, ITERS, &m, in, out,
                                d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    assert_int_equal(out[9], wout[9]);
    assert_memory_equal(mem, want, BYTES);
    assert_memory_not_equal(mem, (uint8_t[BYTES]){0}, BYTES);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* A conflict limit too small to decide leaves the II undecided, not
 * capped, with the same conflicts spent each time; a decided II comes
 * out the same twice, byte for byte. */
static void test_conflict_limit(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = fanout(3);
    cg__sat_opts o = {4, 1, 60, 0, NULL, 0, 0, 0, false, 0, 0, false};
    solved a = solve_opts(nl, g, 1, &o), b = solve_opts(nl, g, 1, &o);
    assert_int_equal(a.out.outcome, CG_II_TIMEOUT);
    assert_false(a.out.capped);
    assert_int_equal(a.out.conflicts, b.out.conflicts);
    assert_true(a.out.conflicts >= 1);
    done(&a);
    done(&b);
    cg_dfg *h = scale_dfg();
    o.conflicts = 0;
    solved c = solve_opts(nl, h, 2, &o), e = solve_opts(nl, h, 2, &o);
    assert_int_equal(c.out.outcome, CG_II_MAPPED);
    assert_int_equal(c.out.conflicts, e.out.conflicts);
    const cg_mapping *x = c.out.mapping, *y = e.out.mapping;
    assert_memory_equal(x->place, y->place, sizeof(int) * (size_t)x->nnodes);
    assert_memory_equal(x->start, y->start,
                        sizeof(int64_t) * (size_t)x->nnodes);
    for (int i = 0; i < x->nedges; i++) {
        assert_int_equal(x->route_len[i], y->route_len[i]);
        assert_memory_equal(x->route[i], y->route[i],
                            sizeof(int) * (size_t)x->route_len[i]);
    }
    done(&c);
    done(&e);
    cg_dfg_destroy(h);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The big-model rule: a model of more routing literals than big_literals
 * gets big_conflicts (here 1: undecided, as with conflicts 1 above); one
 * of at most that many keeps conflicts (0: no limit, decided): the
 * boundary is the model's own count. */
static void test_big_model(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = fanout(3);
    cg__sat_opts o = {4, 0, 60, 0, NULL, 0, 0, 0, true, 0, 1, false};
    solved a = solve_opts(nl, g, 1, &o);
    assert_int_equal(a.out.outcome, CG_II_TIMEOUT);
    assert_false(a.out.capped);
    assert_true(a.out.conflicts >= 1);
    assert_true(a.out.literals > 0);
    o.big_literals = a.out.literals - 1; /* one more than the limit: big */
    solved e = solve_opts(nl, g, 1, &o);
    assert_int_equal(e.out.outcome, CG_II_TIMEOUT);
    assert_int_equal(e.out.conflicts, a.out.conflicts);
    done(&e);
    o.big_literals = a.out.literals; /* at the limit: not big */
    solved b = solve_opts(nl, g, 1, &o);
    assert_int_not_equal(b.out.outcome, CG_II_TIMEOUT);
    assert_true(b.out.conflicts > a.out.conflicts);
    o.big = false;
    o.big_literals = 0;
    solved c = solve_opts(nl, g, 1, &o);
    assert_int_equal(c.out.outcome, b.out.outcome);
    assert_int_equal(c.out.conflicts, b.out.conflicts);
    done(&a);
    done(&b);
    done(&c);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* At most k of n: any k true is satisfiable, k + 1 is not; k = 0 makes
 * every literal false; n <= k adds nothing. */
static void test_at_most_k(void **state)
{
    (void)state;
    for (int k = 0; k <= 3; k++) {
        cg__cnf *c = cg__cnf_create();
        int lits[6];
        for (int i = 0; i < 6; i++)
            lits[i] = cg__cnf_var(c);
        assert_int_equal(cg__cnf_at_most_k(c, lits, 6, k), 0);
        long used;
        bool capped;
        for (int first = 0; first + k < 6; first++) {
            /* lits[first..first+k-1] true: satisfiable; one more: not */
            assert_int_equal(cg__cnf_solve(c, lits + first, k, 0, 0, &used,
                                           &capped),
                             CG__SAT_SAT);
            for (int i = 0; i < 6; i++)
                assert_int_equal(cg__cnf_value(c, lits[i]),
                                 i >= first && i < first + k);
            assert_int_equal(cg__cnf_solve(c, lits + first, k + 1, 0, 0,
                                           &used, &capped),
                             CG__SAT_UNSAT);
        }
        cg__cnf_destroy(c);
    }
    cg__cnf *c = cg__cnf_create();
    int lits[3] = {cg__cnf_var(c), cg__cnf_var(c), cg__cnf_var(c)};
    assert_int_equal(cg__cnf_at_most_k(c, lits, 3, 3), 0);
    assert_int_equal(cg__cnf_nclauses(c), 0);
    cg__cnf_destroy(c);
}

/* The register count: the long path of ls(6) on the 2x2 at II 1 needs
 * more registers than the mesh has.  The counter over the values'
 * lifetimes refutes it by propagation, where the routing clauses alone
 * make it a pigeonhole the solver refutes a case at a time. */
static void test_register_count(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = long_and_short(6);
    /* and the solver writes nothing to stdout, though this formula is
       refuted as it is added (CaDiCaL's "c found falsified original
       clause" unless told to be quiet) */
    char out[] = "/tmp/cg_sat_stdoutXXXXXX";
    int fd = mkstemp(out), saved = dup(1);
    assert_true(fd >= 0 && saved >= 0);
    fflush(stdout);
    dup2(fd, 1);
    solved r = solve_at(nl, g, 1);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    assert_int_equal(lseek(fd, 0, SEEK_END), 0);
    close(fd);
    unlink(out);
    assert_int_equal(r.out.outcome, CG_II_INFEASIBLE);
    assert_int_equal(r.out.horizon, -1);
    assert_true(r.out.conflicts <= 5); /* 2 with the counter, 81 without */
    done(&r);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The slack bound: fanout(3) at II 1 on the 2x2, refuted with each
 * horizon H.  Below the bound B a refutation holds for slack H only;
 * from B on, the model is built for slack B and covers every mapping. */
static void test_slack_bound(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = fanout(3);
    int vars_b = 0; /* B = 1 here */
    for (int h = 0; h <= 4; h++) {
        cg__sat_opts o = {h, 0, 60, 0, NULL, 0, 0, 0, false, 0, 0, false};
        solved r = solve_opts(nl, g, 1, &o);
        assert_int_equal(r.out.outcome, CG_II_INFEASIBLE);
        assert_int_equal(r.out.horizon, h == 0 ? 0 : -1);
        if (h == 1)
            vars_b = r.out.vars;
        else if (h > 1) /* the same window, whatever H above B */
            assert_int_equal(r.out.vars, vars_b);
        else
            assert_true(r.out.vars > 0);
        done(&r);
    }
    assert_true(vars_b > 0);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* fanout(3) on the 2x2 with a horizon of 0.  At II 2 the slack-0 window
 * is refuted, but the wider window (4) maps, and the mapping checks; at
 * II 1 the slack bound ends the wider window below 4, so its refutation
 * covers every schedule.  The probe (the whole window solved at once
 * first) with no wider window gives the answer of no probe. */
static void test_probe(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = fanout(3);
    cg__sat_opts none = {0, 0, 60, 0, NULL, 0, 0, 0, false, 0, 0, false};
    cg__sat_opts wide = {0, 0, 60, 0, NULL, 4, 0.5, 0, false, 0, 0, false};
    cg__sat_opts same = {0, 0, 60, 0, NULL, 0, 0, 0.5, false, 0, 0, false};
    solved a = solve_opts(nl, g, 2, &none), b = solve_opts(nl, g, 2, &wide);
    solved c = solve_opts(nl, g, 2, &same);
    assert_int_equal(a.out.outcome, CG_II_INFEASIBLE);
    assert_int_equal(a.out.horizon, 0);
    assert_int_equal(b.out.outcome, CG_II_MAPPED);
    assert_int_equal(c.out.outcome, CG_II_INFEASIBLE);
    assert_int_equal(c.out.horizon, 0);
    done(&a);
    done(&b);
    done(&c);
    a = solve_opts(nl, g, 1, &none);
    b = solve_opts(nl, g, 1, &wide);
    assert_int_equal(a.out.outcome, CG_II_INFEASIBLE);
    assert_int_equal(a.out.horizon, 0);
    assert_int_equal(b.out.outcome, CG_II_INFEASIBLE);
    assert_int_equal(b.out.horizon, -1);
    done(&a);
    done(&b);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The II search passes the wider window on: --mapper sat with a horizon
 * of 0 maps fanout(3) at II 2 through sat_wide_horizon's window (II 1
 * refuted for every schedule there); without it, every II up to 4 is
 * refuted at slack 0 (this DFG needs a value to wait) and none maps. */
static void test_probe_search(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = fanout(3);
    for (int wide = 0; wide < 2; wide++) {
        cg_map_params p;
        cg_map_params_init(&p);
        p.search = CG_SEARCH_SAT;
        p.sat_horizon = 0;
        p.sat_wide_horizon = wide ? 4 : 0;
        p.max_ii = 4;
        cg_map_result r;
        cg_diags *d = cg_diags_create();
        assert_int_equal(cg_map(nl, g, &p, &r, d), 0);
        assert_int_equal(r.status == CG_MAP_MAPPED, wide);
        assert_int_equal(r.ntried, wide ? 2 : 4);
        for (int i = 0; i < (wide ? 1 : 4); i++) {
            assert_int_equal(r.tried[i].outcome, CG_II_INFEASIBLE);
            assert_int_equal(r.tried[i].horizon, wide ? -1 : 0);
        }
        if (wide)
            assert_int_equal(r.ii, 2);
        cg_map_result_free(&r);
        cg_diags_destroy(d);
    }
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* --dump-cnf: the DIMACS header gives the formula's size; an unwritable
 * path is an error naming it. */
static void test_dump_cnf(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = axpy_dfg();
    char path[] = "/tmp/cg_sat_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    cg__sat_opts o = {2, 0, 60, 0, path, 0, 0, 0, false, 0, 0, false};
    solved s = solve_opts(nl, g, 1, &o);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int vars = 0;
    long clauses = 0;
    assert_int_equal(fscanf(f, "p cnf %d %ld", &vars, &clauses), 2);
    assert_int_equal(vars, s.out.vars);
    assert_int_equal(clauses, s.out.clauses);
    long zeros = 0;
    int lit;
    while (fscanf(f, "%d", &lit) == 1)
        zeros += lit == 0;
    assert_int_equal(zeros, clauses);
    fclose(f);
    unlink(path);
    done(&s);
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 1, d);
    o.dump_cnf = "/nonexistent/dir/x.cnf";
    cg__sat_out out;
    assert_int_equal(cg__sat_solve(m, nl, g, &o, &out, NULL, d), -1);
    char *text = diag_text(d);
    assert_string_equal(text, "/nonexistent/dir/x.cnf: error: cannot write "
                              "the SAT model of 'axpy' at II=1\n");
    free(text);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* GLPK out of memory on the slack bound's LPs (its memory limit set to
 * 1 MB): the SAT mapper's error names them and GLPK's reason, and the
 * process goes on; GLPK starts afresh, so the same II then solves. */
static void test_slack_glpk_out_of_memory(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = long_and_short(300); /* LPs past 1 MB */
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 2, d);
    cg__sat_opts o = {4, 1, 60, 0, NULL, 0, 0, 0, false, 0, 0, false};
    cg__sat_out out;
    glp_mem_limit(1); /* MB */
    assert_int_equal(cg__sat_solve(m, nl, g, &o, &out, NULL, d), -1);
    assert_null(out.mapping);
    char *text = diag_text(d);
    assert_string_equal(text, "error: GLPK stopped on the slack bound's LPs "
                              "of 'ls' at II=2 (the SAT model's window): "
                              "glp_alloc: memory allocation limit "
                              "exceeded\n");
    free(text);
    assert_int_equal(cg__sat_solve(m, nl, g, &o, &out, NULL, d), 0);
    assert_int_equal(cg_diags_errors(d), 1);
    cg_mapping_destroy(out.mapping);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The counts per context: sobel (the microbenchmark, 42 nodes) at II 2
 * on the default 4x4 needs 31 of the 32 register slots, and its
 * schedules fit the total count; with the II search's options the
 * counts of registers and units per context refute it in 3,583
 * conflicts, where the total count alone took 39,381 (docs/mapper.md,
 * "The SAT mapper"). */
static void test_context_counts(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_diags *d = cg_diags_create();
    cg_dfg *g = cg_dfg_read_dot("tests/mapper/data/sobel.dot", d);
    assert_non_null(g);
    cg_map_params p; /* the II search's SAT options */
    cg_map_params_init(&p);
    cg__sat_opts o = {p.sat_horizon,      p.sat_conflicts,   120, 0, NULL,
                      p.sat_wide_horizon, p.sat_wide_share,
                      p.sat_probe_share,  false,             0,   0, false};
    solved r = solve_opts(nl, g, 2, &o);
    assert_int_equal(r.out.outcome, CG_II_INFEASIBLE);
    assert_int_equal(r.out.horizon, -1);
    assert_true(r.out.conflicts <= 4000);
    done(&r);
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
    cg_netlist_destroy(nl);
}

/* solve_opts with a model kept: *keep the model when the work limit left
 * the II undecided, NULL otherwise. */
static solved solve_kept(const cg_netlist *nl, const cg_dfg *g, int ii,
                         const cg__sat_opts *o, cg__sat **keep)
{
    cg_diags *d = cg_diags_create();
    solved s;
    s.m = cg_mrrg_build(nl, ii, d);
    assert_non_null(s.m);
    assert_int_equal(cg__sat_solve(s.m, nl, g, o, &s.out, keep, d), 0);
    assert_int_equal(*keep != NULL, s.out.outcome == CG_II_TIMEOUT);
    cg_diags_destroy(d);
    return s;
}

/* A search its work limit stopped goes on where it stopped
 * (cg__sat_continue): fanout(3) on the 2x2 at II 1, stopped after one
 * conflict, in the slacks or inside the probe, is then refuted for every
 * schedule; sobel at II 2, slack by slack, keeps the slacks it refuted
 * (one conflict more reports them again); sobel at II 3, stopped after
 * 20 conflicts, is then mapped by the same model, and the checker and
 * the simulator's verify_mapping accept the mapping.  A search that decides
 * (fanout(2) at II 1, no conflict limit) keeps no model. */
static void test_continue(void **state)
{
    (void)state;
    cg_map_params p;
    cg_map_params_init(&p);
    cg__sat_opts o = {p.sat_horizon, 0,   60,    0, NULL, 0, 0,
                      p.sat_probe_share, false, 0, 0, false};
    cg__sat_opts more = {p.sat_horizon,      0,                 60, 0, NULL,
                         p.sat_wide_horizon, p.sat_wide_share,
                         p.sat_probe_share,  false,             0,  0, false};
    cg_diags *d = cg_diags_create();
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g2 = fanout(2), *g3 = fanout(3);
    cg__sat *S;
    solved a = solve_kept(nl, g2, 1, &o, &S);
    assert_int_equal(a.out.outcome, CG_II_MAPPED);
    assert_null(S);
    done(&a);
    o.conflicts = 1;
    solved b = solve_kept(nl, g3, 1, &o, &S);
    assert_non_null(S);
    assert_int_equal(b.out.conflicts, 1);
    cg__sat_out out;
    assert_int_equal(cg__sat_continue(S, &more, &out, d), 0);
    assert_int_equal(out.outcome, CG_II_INFEASIBLE);
    assert_int_equal(out.horizon, -1);
    assert_true(out.vars > 0 && out.clauses > 0);
    cg__sat_destroy(S);
    done(&b);

    o.probe = 1; /* stopped inside the probe, which goes on */
    solved b1 = solve_kept(nl, g3, 1, &o, &S);
    assert_non_null(S);
    assert_int_equal(cg__sat_continue(S, &more, &out, d), 0);
    assert_int_equal(out.outcome, CG_II_INFEASIBLE);
    cg__sat_destroy(S);
    done(&b1);

    cg_netlist *nl4 = mesh_netlist(4, 4);
    cg_dfg *sobel = cg_dfg_read_dot("tests/mapper/data/sobel.dot", d);
    assert_non_null(sobel);
    o.probe = 0; /* slack by slack: the refuted slacks stay refuted */
    o.conflicts = 200;
    solved r = solve_kept(nl4, sobel, 2, &o, &S);
    assert_non_null(S);
    assert_true(r.out.refuted >= 0);
    cg__sat_opts one = o;
    one.conflicts = 1;
    assert_int_equal(cg__sat_continue(S, &one, &out, d), 0);
    assert_int_equal(out.outcome, CG_II_TIMEOUT);
    assert_true(out.refuted >= r.out.refuted);
    assert_true(out.conflicts <= 1);
    cg__sat_destroy(S);
    done(&r);
    o.conflicts = 20;
    solved c = solve_kept(nl4, sobel, 3, &o, &S);
    assert_non_null(S);
    more.conflicts = p.sat_conflicts;
    more.wide = 0; /* S itself maps it, not a wider model */
    assert_int_equal(cg__sat_continue(S, &more, &out, d), 0);
    assert_int_equal(out.outcome, CG_II_MAPPED);
    assert_true(verify_mapping(nl4, c.m, sobel, out.mapping) > 0);
    assert_int_equal(cg_map_check(nl4, c.m, sobel, out.mapping, d), 0);
    cg_mapping_destroy(out.mapping);
    cg__sat_destroy(S);
    done(&c);
    cg_dfg_destroy(sobel);
    cg_netlist_destroy(nl4);
    cg_dfg_destroy(g2);
    cg_dfg_destroy(g3);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* The full ILP's answer at II ii: MAPPED, INFEASIBLE or TIMEOUT. */
static cg_ii_outcome ilp_answer(const cg_netlist *nl, const cg_dfg *g,
                                int ii)
{
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, ii, d);
    cg__kgraph *k = cg__kgraph_build(m, nl);
    assert_non_null(k);
    cg__ilp_opts o = {NULL, 0, 30, NULL, false, CG_SOLVER_GLPK, 0, 0, NULL,
                      NULL};
    cg__ilp_out out;
    assert_int_equal(cg__ilp_solve(k, nl, g, &o, &out, d), 0);
    cg_mapping_destroy(out.mapping);
    cg__kgraph_destroy(k);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    return out.outcome;
}

/* Every count the model keeps (registers in all and per context, units
 * per context) is implied by the mapping rules, so it never refutes an
 * II that has a mapping: on small DFGs at II 1 to 3, wherever the full
 * ILP decides and SAT is not stopped by the clock, the SAT mapper's
 * answer (a mapping, or a refutation within slack 8, or of every
 * schedule where the slack bound allows) is the ILP's.  On the 2x2 of the
 * default PE (a register per PE, units of latency 0) and on
 * lat_rf_2x2.xml (units of latency 1 and 0 for the same op, a
 * RegisterFile); each has cases of both answers. */
/* x -> y = x + x, then long_and_short's shape from y: y -> b1 -> ... ->
 * b<len> -> e and y -> e directly.  y's value waits beside the chain in
 * a register or a RegisterFile, which an IO's value cannot enter on
 * lat_rf_2x2. */
static cg_dfg *held(int len)
{
    cg_dfg *g = cg_dfg_create("held");
    int x = dfg_node(g, CG_OP_INPUT, "x"), y = dfg_node(g, CG_OP_ADD, "y");
    cg_dfg_add_edge(g, x, y, 0, 0, -1);
    cg_dfg_add_edge(g, x, y, 1, 0, -1);
    int prev = chain_after(g, y, len), e = dfg_node(g, CG_OP_SUB, "e");
    cg_dfg_add_edge(g, prev, e, 0, 0, -1);
    cg_dfg_add_edge(g, y, e, 1, 0, -1);
    cg_dfg_add_edge(g, e, dfg_node(g, CG_OP_OUTPUT, "o"), 0, 0, -1);
    return g;
}

static void agree_with_ilp(cg_netlist *nl)
{
    cg_dfg *g[24];
    int ng = 0;
    for (int k = 1; k <= 4; k++)
        g[ng++] = long_and_short(k);
    for (int k = 1; k <= 4; k++)
        g[ng++] = fanout(k);
    for (int k = 1; k <= 4; k++)
        g[ng++] = held(k);
    for (int k = 2; k <= 8; k *= 2) /* 4 adds at II 1, 8 at 2: every unit */
        g[ng++] = add_chain(k);
    g[ng++] = accumulator(true);
    g[ng++] = axpy_dfg();
    reconv rc = reconv_dfg();
    g[ng++] = rc.g;
    int compared[2] = {0}; /* refuted, mapped */
    for (int i = 0; i < ng; i++) {
        for (int ii = 1; ii <= 3; ii++) {
            cg__sat_opts o = {8, 0, 60, 0, NULL, 0, 0, 0, false, 0, 0, false};
            solved r = solve_opts(nl, g[i], ii, &o);
            cg_ii_outcome want = ilp_answer(nl, g[i], ii);
            if (want != CG_II_TIMEOUT && r.out.outcome != CG_II_TIMEOUT) {
                assert_int_equal(r.out.outcome, want);
                compared[want == CG_II_MAPPED]++;
            }
            done(&r);
        }
        cg_dfg_destroy(g[i]);
    }
    assert_true(compared[0] >= 5 && compared[1] >= 10);
    cg_netlist_destroy(nl);
}

static void test_counts_agree_with_ilp(void **state)
{
    (void)state;
    agree_with_ilp(mesh_netlist(2, 2));
    cg_diags *d = cg_diags_create();
    agree_with_ilp(flatten_ok(
        cg_xml_read("tests/mapper/data/lat_rf_2x2.xml", NULL, d), d));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_small),
        cmocka_unit_test(test_reconvergent),
        cmocka_unit_test(test_recurrence),
        cmocka_unit_test(test_infeasible),
        cmocka_unit_test(test_fanout),
        cmocka_unit_test(test_progress),
        cmocka_unit_test(test_progress_split),
        cmocka_unit_test(test_progress_large),
        cmocka_unit_test(test_large_sat_literals),
        cmocka_unit_test(test_conflicts_before_annealer),
        cmocka_unit_test(test_zero_delay_cycle),
        cmocka_unit_test(test_simulated),
        cmocka_unit_test(test_conflict_limit),
        cmocka_unit_test(test_big_model),
        cmocka_unit_test(test_dump_cnf),
        cmocka_unit_test(test_at_most_k),
        cmocka_unit_test(test_register_count),
        cmocka_unit_test(test_slack_bound),
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_probe_search),
        cmocka_unit_test(test_context_counts),
        cmocka_unit_test_teardown(test_slack_glpk_out_of_memory, glpk_reset),
        cmocka_unit_test(test_continue),
        cmocka_unit_test(test_counts_agree_with_ilp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
