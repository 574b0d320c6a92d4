/* test_sim.c: the cycle-accurate simulator (verify/sim.c) on sq mapped on
 * pipe (map_fixture.h): the balanced mapping gives the expected live-out
 * and byte-identical memory (also for 1 iteration, where the prologue and
 * epilogue are all suppressed stages); the unbalanced one -- rejected by
 * the checker -- gives another result; a store outside the memory, a
 * division by zero, and a route the array cannot be configured for fail
 * with messages naming the op and the iteration; a DFG with a recurrence
 * and reconvergent paths mapped by the ILP on the 2x2 mesh passes the
 * checker and simulates to the expected memory and live-out; so does one
 * with a distance-2 recurrence, whose two first iterations read the init
 * value (byte-identical to the interpreter's run too). */
#include "../mapper/map_fixture.h"

typedef sq_fx fx;

/* Simulate iters iterations; the messages (empty when it ran). */
static char *sim(fx *f, int64_t iters, int want_rc)
{
    cg_diags *d = cg_diags_create();
    cg_mem m = {f->mem, 0, SQ_MEM};
    int rc = cg_sim_run(f->nl, f->m, f->g, f->map, iters, &m, f->in, f->out,
                        d);
    char *s = diag_text(d);
    assert_int_equal(rc, want_rc);
    cg_diags_destroy(d);
    return s;
}

static void run_ok(fx *f, int64_t iters)
{
    char *s = sim(f, iters, 0);
    assert_string_equal(s, "");
    free(s);
}

static void test_balanced_matches(void **state)
{
    fx *f = *state;
    for (int iters = 1; iters <= 5; iters++) {
        uint8_t want[SQ_MEM];
        memset(want, 0xaa, SQ_MEM);
        memset(f->mem, 0xaa, SQ_MEM);
        uint64_t o = sq_expected(iters, want, SQ_MEM);
        run_ok(f, iters);
        assert_int_equal(f->out[N_O], o);
        assert_memory_equal(f->mem, want, SQ_MEM);
    }
    assert_int_equal(f->out[N_O], 30);
}

/* n -> s one cycle short: s adds the n of the next iteration. */
static void test_unbalanced_diverges(void **state)
{
    fx *f = *state;
    uint8_t want[SQ_MEM];
    memset(want, 0xaa, SQ_MEM);
    uint64_t o = sq_expected(5, want, SQ_MEM);
    set_route(f->map, f->m, f->nl, E_NS, "f0.out@c0 f2_in_a_mux.in0@c0 "
              "f2_in_a_mux.out@c0 f2.in_a@c0");
    run_ok(f, 5);
    assert_int_equal(o, 30);
    assert_int_equal(f->out[N_O], 6 + 25);
    assert_memory_not_equal(f->mem, want, SQ_MEM);
}

/* The store of iteration 7 writes at 64 = 8*8, past the 64 bytes. */
static void test_store_outside_memory(void **state)
{
    fx *f = *state;
    char *s = sim(f, 9, -1);
    assert_string_equal(s, "error: simulation: store 'st' at iteration 7 on "
                           "mem@c0 accesses 4 bytes at address 0x40, outside "
                           "the memory [0x0, 0x40)\n");
    free(s);
}

/* a = n udiv n', n' = n of the iteration before, 0 (init) in iteration 0:
 * the loop controller feeds the init value, the divider divides by it. */
static void test_division_by_zero(void **state)
{
    fx *f = *state;
    cg_dfg_node_mut(f->g, N_A)->op = CG_OP_UDIV;
    cg_dfg_edge_mut(f->g, E_NA1)->distance = 1;
    f->map->start[N_A] = 1; /* in context 0 at II=1 still */
    char *s = sim(f, 3, -1);
    assert_string_equal(s, "error: simulation: division by zero in 'a' "
                           "(udiv) at iteration 0 on f1@c0\n");
    free(s);
}

/* A route step with no wire under it: no configuration can make it. */
static void test_unconfigurable_route(void **state)
{
    fx *f = *state;
    set_route(f->map, f->m, f->nl, E_NA0,
              "f0.out@c0 f2.in_b@c0 f1.in_a@c0");
    char *s = sim(f, 3, -1);
    assert_string_equal(s, "error: simulation: cannot configure the route "
                           "of 'n'->'a' (operand 0): no connection from "
                           "f0.out@c0 to f2.in_b@c0\n");
    free(s);
}

/* A start time far away would make the cycle loop run for ages. */
static void test_wild_start_time(void **state)
{
    fx *f = *state;
    f->map->start[N_O] = 5000001;
    char *s = sim(f, 3, -1);
    assert_string_equal(s, "error: simulation: the schedule spans 5000001 "
                           "cycles (starts 0 .. 5000001), more than 1000000: "
                           "the start times are wrong\n");
    free(s);
}

/* Zero iterations: nothing runs, nothing is written. */
static void test_zero_iterations(void **state)
{
    fx *f = *state;
    uint8_t want[SQ_MEM];
    memset(want, 0xaa, SQ_MEM);
    f->out[N_O] = 77;
    run_ok(f, 0);
    assert_int_equal(f->out[N_O], 77);
    assert_memory_equal(f->mem, want, SQ_MEM);
}

/* scale mapped by the ILP on the 2x2 mesh: the checker accepts the
 * mapping and the simulation gives the expected memory and live-out. */
static void test_ilp_mapping(void **state)
{
    (void)state;
    enum { BYTES = 256, ITERS = 6 };
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = scale_dfg();
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    map_checked(nl, g, &r, d);
    uint8_t mem[BYTES], want[BYTES];
    for (int j = 0; j < BYTES; j++)
        mem[j] = want[j] = (uint8_t)(j * 7 + 1);
    uint32_t acc = 0;
    for (uint32_t it = 0; it < ITERS; it++) {
        uint32_t i = 4 * (it + 1), x = 0;
        memcpy(&x, want + i, 4); /* little-endian host */
        uint32_t y = x * 3;
        memcpy(want + i + 64, &y, 4);
        acc += x;
    }
    uint64_t in[10] = {[5] = 64}, out[10] = {0};
    cg_mem m = {mem, 0, BYTES};
    assert_int_equal(cg_sim_run(nl, r.mrrg, g, r.mapping, ITERS, &m, in, out,
                                d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    assert_int_equal(out[9], acc);
    assert_memory_equal(mem, want, BYTES);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* relu: i = i' + 1, w = sext(load8(i)), acc = acc' + (w < 0 ? 0 : w):
 * narrow loads, sext from 8 bits, icmp, select on in_c.  Two zeros: a
 * mesh PE's constant reaches only its own unit's pins. */
static cg_dfg *relu_dfg(void)
{
    cg_dfg *g = cg_dfg_create("relu");
    int one = dfg_node(g, CG_OP_CONST, "one"), i = dfg_node(g, CG_OP_ADD, "i");
    int x = cg_dfg_add_node(g, CG_OP_LOAD, 8, "x");
    int w = dfg_node(g, CG_OP_SEXT, "w"), z = dfg_node(g, CG_OP_CONST, "z");
    int c = dfg_node(g, CG_OP_ICMP, "c"), r = dfg_node(g, CG_OP_SELECT, "r");
    int acc = dfg_node(g, CG_OP_ADD, "acc");
    int o = dfg_node(g, CG_OP_OUTPUT, "o"), z2 = dfg_node(g, CG_OP_CONST, "z2");
    cg_dfg_set_value(g, one, 1);
    cg_dfg_set_value(g, z, 0);
    cg_dfg_set_value(g, z2, 0);
    cg_dfg_node_mut(g, c)->pred = CG_PRED_SLT;
    const int e[][4] = {
        {i, i, 0, 1}, {one, i, 1, 0}, {i, x, 0, 0}, {x, w, 0, 0},
        {w, c, 0, 0}, {z, c, 1, 0}, {c, r, 0, 0}, {z2, r, 1, 0},
        {w, r, 2, 0}, {acc, acc, 0, 1}, {r, acc, 1, 0}, {acc, o, 0, 0}
    };
    return checked(g, e, sizeof e / sizeof e[0]);
}

static void test_ilp_mapping_narrow_ops(void **state)
{
    (void)state;
    enum { BYTES = 32, ITERS = 20 };
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = relu_dfg();
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    map_checked(nl, g, &r, d);
    uint8_t mem[BYTES], want[BYTES];
    uint32_t acc = 0;
    for (int j = 0; j < BYTES; j++)
        mem[j] = want[j] = (uint8_t)(j * 37 + 11);
    for (int it = 1; it <= ITERS; it++)
        acc += (int8_t)mem[it] < 0 ? 0 : (uint32_t)(int8_t)mem[it];
    uint64_t out[10] = {0};
    cg_mem m = {mem, 0, BYTES};
    assert_int_equal(cg_sim_run(nl, r.mrrg, g, r.mapping, ITERS, &m, NULL,
                                out, d), 0);
    assert_int_equal(out[8], acc);
    assert_memory_equal(mem, want, BYTES);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* pair: i = i' + 4, x = load32(i), m = s'' * 3 (distance 2: both first
 * iterations read the live-in seed), s = m + x, store32(i + b, s) with
 * the live-in b = 64, output s.  So s is two interleaved sequences, each
 * starting from seed.  A simulator that gives the init value only in
 * iteration 0 makes iteration 1 read another value: the s of a prologue
 * iteration (3 * seed + something) or nothing (0), never seed. */
static cg_dfg *pair_dfg(void)
{
    cg_dfg *g = cg_dfg_create("pair");
    int c4 = dfg_node(g, CG_OP_CONST, "c4"), i = dfg_node(g, CG_OP_ADD, "i");
    int x = dfg_node(g, CG_OP_LOAD, "x"), b = dfg_node(g, CG_OP_INPUT, "b");
    int ad = dfg_node(g, CG_OP_ADD, "ad"), st = dfg_node(g, CG_OP_STORE, "st");
    int k = dfg_node(g, CG_OP_CONST, "k"), m = dfg_node(g, CG_OP_MUL, "m");
    int s = dfg_node(g, CG_OP_ADD, "s"), o = dfg_node(g, CG_OP_OUTPUT, "o");
    int seed = dfg_node(g, CG_OP_INPUT, "seed");
    cg_dfg_set_value(g, c4, 4);
    cg_dfg_set_value(g, k, 3);
    const int e[][4] = {
        {i, i, 0, 1}, {c4, i, 1, 0}, {i, x, 0, 0}, {i, ad, 0, 0},
        {b, ad, 1, 0}, {ad, st, 0, 0}, {s, st, 1, 0}, {k, m, 1, 0},
        {m, s, 0, 0}, {x, s, 1, 0}, {s, o, 0, 0}
    };
    assert_true(cg_dfg_add_edge(g, s, m, 0, 2, seed) >= 0);
    return checked(g, e, sizeof e / sizeof e[0]);
}

/* A distance-2 recurrence mapped, checked and simulated: the memory and
 * the live-out are what the loop computes (written out here) and
 * byte-identical to the interpreter's (cg_dfg_run). */
static void test_distance_two(void **state)
{
    (void)state;
    enum { BYTES = 128, ITERS = 7, SEED = 1000 };
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = pair_dfg();
    int in_b = cg_dfg_find(g, "b"), in_seed = cg_dfg_find(g, "seed");
    int out_o = cg_dfg_find(g, "o");
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    map_checked(nl, g, &r, d);
    uint8_t mem[BYTES], ref[BYTES], want[BYTES];
    for (int j = 0; j < BYTES; j++)
        mem[j] = ref[j] = want[j] = (uint8_t)(j * 13 + 5);
    uint32_t s[ITERS];
    for (int it = 0; it < ITERS; it++) {
        uint32_t i = 4 * (uint32_t)(it + 1), x = 0;
        memcpy(&x, want + i, 4); /* little-endian host */
        s[it] = 3 * (it < 2 ? SEED : s[it - 2]) + x;
        memcpy(want + i + 64, &s[it], 4);
    }
    size_t nn = (size_t)cg_dfg_nnodes(g);
    uint64_t in[16] = {0}, out[16] = {0}, ref_out[16] = {0};
    assert_true(nn <= 16);
    in[in_b] = 64;
    in[in_seed] = SEED;
    cg_mem m = {mem, 0, BYTES}, rm = {ref, 0, BYTES};
    assert_int_equal(cg_sim_run(nl, r.mrrg, g, r.mapping, ITERS, &m, in, out,
                                d), 0);
    assert_int_equal(cg_dfg_run(g, ITERS, &rm, in, ref_out, d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    assert_int_equal(out[out_o], s[ITERS - 1]);
    assert_memory_equal(mem, want, BYTES);
    assert_memory_equal(ref, want, BYTES);
    assert_memory_equal(out, ref_out, sizeof out);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_balanced_matches, sq_setup,
                                        sq_teardown),
        cmocka_unit_test_setup_teardown(test_unbalanced_diverges, sq_setup,
                                        sq_teardown),
        cmocka_unit_test_setup_teardown(test_store_outside_memory, sq_setup,
                                        sq_teardown),
        cmocka_unit_test_setup_teardown(test_division_by_zero, sq_setup,
                                        sq_teardown),
        cmocka_unit_test_setup_teardown(test_unconfigurable_route, sq_setup,
                                        sq_teardown),
        cmocka_unit_test_setup_teardown(test_zero_iterations, sq_setup,
                                        sq_teardown),
        cmocka_unit_test_setup_teardown(test_wild_start_time, sq_setup,
                                        sq_teardown),
        cmocka_unit_test(test_ilp_mapping),
        cmocka_unit_test(test_ilp_mapping_narrow_ops),
        cmocka_unit_test(test_distance_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
