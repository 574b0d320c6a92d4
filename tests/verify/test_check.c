/* test_check.c: the independent checker (verify/check.c) on hand-made
 * mappings of sq on pipe (map_fixture.h): the balanced mapping passes; each
 * broken one gets exactly its messages: unbalanced reconvergent timing, a
 * routing node carrying two values, a route to the wrong pin, a
 * disconnected route, an unsupported op, a wrong context, two ops on one
 * unit, a mapping for another II, and one value entering a mux by two
 * inputs. */
#include "../mapper/map_fixture.h"

typedef sq_fx fx;

/* Run the checker; its messages, one per line. */
static char *check(fx *f, int want_rc)
{
    cg_diags *d = cg_diags_create();
    int rc = cg_map_check(f->nl, f->m, f->g, f->map, d);
    char *s = diag_text(d);
    if (getenv("CG_SHOW_DIAGS"))
        fprintf(stderr, "%s", s);
    assert_int_equal(rc, want_rc);
    assert_int_equal(cg_diags_errors(d), cg_diags_size(d));
    cg_diags_destroy(d);
    return s;
}

static void expect(fx *f, const char *msgs)
{
    char *s = check(f, msgs[0] ? -1 : 0);
    assert_string_equal(s, msgs);
    free(s);
}

static void test_balanced_passes(void **state)
{
    expect(*state, "");
}

/* n -> s straight through the mux instead of through r0: the path is one
 * cycle short of the one through the multiplier. */
static void test_unbalanced_reconvergence(void **state)
{
    fx *f = *state;
    set_route(f->map, f->m, f->nl, E_NS, "f0.out@c0 f2_in_a_mux.in0@c0 "
              "f2_in_a_mux.out@c0 f2.in_a@c0");
    expect(f, "error: edge 4 'n'->'s' (operand 0, distance 0): timing does "
              "not hold: start('s') + 0*II = 1 but start('n') + route "
              "latency 0 = 0\n");
}

/* one reaches f0.in_b through r0 (timing made to hold by starting it a
 * cycle early), where n already is. */
static void test_route_node_used_twice(void **state)
{
    fx *f = *state;
    f->map->start[N_ONE] = -1;
    set_route(f->map, f->m, f->nl, E_ONE, "k.out@c0 r0_in_mux.in1@c0 "
              "r0_in_mux.out@c0 r0.in@c0 r0.out@c0 f0_in_b_mux.in1@c0 "
              "f0_in_b_mux.out@c0 f0.in_b@c0");
    expect(f, "error: routing node r0_in_mux.out@c0 carries two values: 'n' (edge 0 "
              "'n'->'n' (operand 0, distance 1)) and 'one' (edge 1 'one'->'n' "
              "(operand 1, distance 0))\n"
              "error: routing node r0.in@c0 carries two values: 'n' (edge 0 "
              "'n'->'n' (operand 0, distance 1)) and 'one' (edge 1 'one'->'n' "
              "(operand 1, distance 0))\n"
              "error: routing node r0.out@c0 carries two values: 'n' (edge 0 "
              "'n'->'n' (operand 0, distance 1)) and 'one' (edge 1 'one'->'n' "
              "(operand 1, distance 0))\n");
}

static void test_wrong_pin(void **state)
{
    fx *f = *state;
    set_route(f->map, f->m, f->nl, E_NA0, "f0.out@c0 f1.in_b@c0");
    expect(f, "error: edge 2 'n'->'a' (operand 0, distance 0): route ends at "
              "f1.in_b@c0, not at the operand 0 pin of f1@c0 where 'a' is "
              "placed\n");
}

static void test_disconnected_route(void **state)
{
    fx *f = *state;
    set_route(f->map, f->m, f->nl, E_NA0,
              "f0.out@c0 f2.in_b@c0 f1.in_a@c0");
    expect(f, "error: edge 2 'n'->'a' (operand 0, distance 0): route is not "
              "connected: no MRRG edge from f0.out@c0 to f2.in_b@c0 (entry "
              "1)\n");
}

static void test_unsupported_op(void **state)
{
    fx *f = *state;
    cg_dfg_node_mut(f->g, N_S)->op = CG_OP_SUB;
    expect(f, "error: node 's' (sub) is placed on f2@c0, which does not support "
              "sub\n");
}

static void test_wrong_context_and_shared_unit(void **state)
{
    fx *f = *state;
    cg_mapping_destroy(f->map);
    cg_mrrg_destroy(f->m);
    cg_diags *d = cg_diags_create();
    f->m = cg_mrrg_build(f->nl, 2, d);
    cg_diags_destroy(d);
    f->map = cg_mapping_create(2, 6, 9);
    for (int v = 0; v < 6; v++) {
        f->map->place[v] = mnode(f->m, f->nl, "f0@c1");
        f->map->start[v] = v; /* n: context 0; one: 1, right */
    }
    for (int e = 0; e < 9; e++)
        set_route(f->map, f->m, f->nl, e, "f0.out@c1");
    char *s = check(f, -1);
    const char *want =
        "error: node 'n' starts at cycle 0 (context 0 at II=2) but is placed "
        "on f0@c1 in context 1\n"
        "error: node 'one' (const) is placed on f0@c1, which does not support "
        "const\n"
        "error: function node f0@c1 holds two ops: 'n' and 'one'\n";
    assert_true(strncmp(s, want, strlen(want)) == 0);
    free(s);
}

/* n unplaced, a on a routing node: both reported, their edges skipped. */
static void test_unplaced(void **state)
{
    fx *f = *state;
    f->map->place[N_N] = -1;
    f->map->place[N_A] = mnode(f->m, f->nl, "f1.out@c0");
    expect(f, "error: node 'n' (add) is not placed on any function node "
              "(place -1)\n"
              "error: node 'a' (mul) is placed on f1.out@c0, which is not a "
              "function node of the MRRG\n");
}

static void test_other_ii(void **state)
{
    fx *f = *state;
    f->map->ii = 2;
    expect(f, "error: mapping is for II=2 but the MRRG is built for II=1\n");
}

/* x reaches the shared mux m once through in0 (to fa) and once through
 * r and in1 (to fb): one value, but m would have to select both inputs.
 *   io.out -> m.in0, r.in, fa.in_b     r.out -> m.in1, fb.in_b
 *   m.out -> fa.in_a, fb.in_a */
static void test_mux_selects_one_input(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    int top;
    cg_arch *a = top_only(&top, d);
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_IO);
    cg_arch_add_prim(a, top, "io", &p, d);
    cg_prim_params_init(&p, CG_PRIM_REG);
    cg_arch_add_prim(a, top, "r", &p, d);
    cg_prim_params_init(&p, CG_PRIM_MUX);
    cg_arch_add_prim(a, top, "m", &p, d);
    cg_prim_params_init(&p, CG_PRIM_FUNC);
    cg_arch_add_prim(a, top, "fa", &p, d);
    cg_arch_add_prim(a, top, "fb", &p, d);
    cg_arch_connect(a, top, "io.out", "m.in0 r.in fa.in_b", d);
    cg_arch_connect(a, top, "r.out", "m.in1 fb.in_b", d);
    cg_arch_connect(a, top, "m.out", "fa.in_a fb.in_a", d);
    sq_fx f = {0};
    f.nl = flatten_ok(a, d);
    d = cg_diags_create();
    f.m = cg_mrrg_build(f.nl, 1, d);
    f.g = cg_dfg_create("twice");
    int x = cg_dfg_add_node(f.g, CG_OP_INPUT, 32, "x");
    int fa = cg_dfg_add_node(f.g, CG_OP_ADD, 32, "a");
    int fb = cg_dfg_add_node(f.g, CG_OP_ADD, 32, "b");
    for (int k = 0; k < 4; k++)
        cg_dfg_add_edge(f.g, x, k < 2 ? fa : fb, k % 2, 0, -1);
    f.map = cg_mapping_create(1, 3, 4);
    const char *unit[] = {"io@c0", "fa@c0", "fb@c0"};
    for (int v = 0; v < 3; v++) {
        f.map->place[v] = mnode(f.m, f.nl, unit[v]);
        f.map->start[v] = v == fb;
    }
    set_route(f.map, f.m, f.nl, 0, "io.out@c0 m.in0@c0 m.out@c0 fa.in_a@c0");
    set_route(f.map, f.m, f.nl, 1, "io.out@c0 fa.in_b@c0");
    set_route(f.map, f.m, f.nl, 2, "io.out@c0 r.in@c0 r.out@c0 m.in1@c0 "
              "m.out@c0 fb.in_a@c0");
    set_route(f.map, f.m, f.nl, 3, "io.out@c0 r.in@c0 r.out@c0 fb.in_b@c0");
    expect(&f, "error: routing node m.out@c0 is entered from m.in0@c0 (edge "
               "0 'x'->'a' (operand 0, distance 0)) and from m.in1@c0 (edge "
               "2 'x'->'b' (operand 0, distance 0)): it selects one input "
               "per context\n");
    cg_diags_destroy(d);
    cg_mapping_destroy(f.map);
    cg_dfg_destroy(f.g);
    cg_mrrg_destroy(f.m);
    cg_netlist_destroy(f.nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_balanced_passes, sq_setup,
                                        sq_teardown),
        cmocka_unit_test_setup_teardown(test_unbalanced_reconvergence, sq_setup,
                                        sq_teardown),
        cmocka_unit_test_setup_teardown(test_route_node_used_twice, sq_setup,
                                        sq_teardown),
        cmocka_unit_test_setup_teardown(test_wrong_pin, sq_setup, sq_teardown),
        cmocka_unit_test_setup_teardown(test_disconnected_route, sq_setup,
                                        sq_teardown),
        cmocka_unit_test_setup_teardown(test_unsupported_op, sq_setup, sq_teardown),
        cmocka_unit_test_setup_teardown(test_wrong_context_and_shared_unit,
                                        sq_setup, sq_teardown),
        cmocka_unit_test_setup_teardown(test_other_ii, sq_setup, sq_teardown),
        cmocka_unit_test(test_mux_selects_one_input),
        cmocka_unit_test_setup_teardown(test_unplaced, sq_setup, sq_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
