/* test_bank.c: loads and stores with a tile-memory bank (set by the
 * tiler) on duo (map_fixture.h: m0 reaches bank 0, m1 bank 1): the ILP
 * places each load on the MEMUnit of its bank (both ways round) and the
 * mapping simulates like the interpreter; the simulator rejects an address
 * outside the node's bank; the checker rejects a load on a unit of another
 * bank; a bank no unit reaches is an error naming the node and the bank
 * (and the banks the units reach, past 64 too);
 * ResMII counts only the units of a bank. */
#include "map_fixture.h"

enum { B_A0, B_A1, B_L0, B_L1, B_S, B_O };

/* o = load32(a0) + load32(a1), a0 = 40 (bank 1), a1 = 8 (bank 0); l0 and
 * l1 get banks b0 and b1. */
static cg_dfg *two_loads(int b0, int b1)
{
    cg_dfg *g = cg_dfg_create("two");
    int a0 = dfg_node(g, CG_OP_CONST, "a0"), a1 = dfg_node(g, CG_OP_CONST, "a1");
    int l0 = dfg_node(g, CG_OP_LOAD, "l0"), l1 = dfg_node(g, CG_OP_LOAD, "l1");
    int s = dfg_node(g, CG_OP_ADD, "s"), o = dfg_node(g, CG_OP_OUTPUT, "o");
    cg_dfg_set_value(g, a0, 40);
    cg_dfg_set_value(g, a1, 8);
    cg_dfg_node_mut(g, l0)->bank = b0;
    cg_dfg_node_mut(g, l1)->bank = b1;
    const int e[][4] = {{a0, l0, 0, 0}, {a1, l1, 0, 0}, {l0, s, 0, 0},
                        {l1, s, 1, 0}, {s, o, 0, 0}};
    return checked(g, e, sizeof e / sizeof e[0]);
}

static const char *unit_of(const cg_netlist *nl, const cg_map_result *r,
                           int v)
{
    int f = r->mapping->place[v];
    return cg_netlist_prim(nl, cg_mrrg_get_node(r->mrrg, f)->prim)->name;
}

/* 64 bytes: the word 0x01020304 at 40 (bank 1), 0x10 at 8 (bank 0). */
static void two_memory(uint8_t *m)
{
    memset(m, 0, 64);
    const uint32_t hi = 0x01020304, lo = 0x10;
    memcpy(m + 40, &hi, 4);
    memcpy(m + 8, &lo, 4);
}

static void map_and_run(int b0, int b1, const char *u0, const char *u1)
{
    cg_netlist *nl = duo_netlist();
    cg_dfg *g = two_loads(b0, b1);
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    map_checked(nl, g, &r, d);
    assert_int_equal(r.ii, 1);
    assert_string_equal(unit_of(nl, &r, B_L0), u0);
    assert_string_equal(unit_of(nl, &r, B_L1), u1);
    uint8_t mem[64];
    two_memory(mem);
    uint64_t out[6] = {0};
    cg_mem m = {mem, 0, 64};
    assert_int_equal(cg_sim_run(nl, r.mrrg, g, r.mapping, 3, &m, NULL, out,
                                d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    assert_int_equal(out[B_O], 0x01020314);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

static void test_bank_decides_unit(void **state)
{
    (void)state;
    map_and_run(1, 0, "m1", "m0");
}

/* l0 at 40 may only be on m1 (its bank); l1 with bank -1 goes anywhere,
 * so to m0, the one left. */
static void test_any_bank_takes_what_is_left(void **state)
{
    (void)state;
    map_and_run(1, -1, "m1", "m0");
}

/* The mapping is right but l0's address (8) lies in bank 0. */
static void test_sim_rejects_address_outside_bank(void **state)
{
    (void)state;
    cg_netlist *nl = duo_netlist();
    cg_dfg *g = two_loads(1, 0);
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    map_checked(nl, g, &r, d);
    cg_dfg_set_value(g, B_A0, 8);
    uint8_t mem[64];
    two_memory(mem);
    uint64_t out[6] = {0};
    cg_mem m = {mem, 0, 64};
    assert_int_equal(cg_sim_run(nl, r.mrrg, g, r.mapping, 1, &m, NULL, out,
                                d), -1);
    char *s = diag_text(d);
    assert_string_equal(s, "error: simulation: load 'l0' at iteration 0 on "
                        "m1@c0 accesses address 0x8, outside its bank 1 "
                        "[0x20, 0x40)\n");
    free(s);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

static void test_checker_rejects_other_bank(void **state)
{
    (void)state;
    cg_netlist *nl = duo_netlist();
    cg_dfg *g = two_loads(1, 0);
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    map_checked(nl, g, &r, d);
    cg_dfg_node_mut(g, B_L0)->bank = 0;
    assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, d), -1);
    char *s = diag_text(d);
    assert_string_equal(s, "error: node 'l0' (load) must access bank 0 but "
                        "is placed on m1@c0, a MEMUnit that reaches bank 1 "
                        "only\n");
    free(s);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

static void test_unreachable_bank(void **state)
{
    (void)state;
    cg_netlist *nl = duo_netlist();
    cg_dfg *g = two_loads(2, 0);
    cg_map_params p;
    cg_map_params_init(&p);
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &r, d), -1);
    assert_int_equal(r.status, CG_MAP_ERROR);
    char *s = diag_text(d);
    assert_string_equal(s, "error: load 'l0' must access bank 2 (where its "
                        "array was placed) but no MEMUnit of the "
                        "architecture that runs load reaches bank 2 (they "
                        "reach banks 0, 1): place the array in one of those "
                        "banks or give a MEMUnit bank=\"2\"\n");
    free(s);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* MEMUnits of banks 60 to 104 (of 128), a load of bank 7: the error
 * names the banks past 64 too, the first 40 of them, then "...". */
static void test_unreachable_bank_lists_high_banks(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    int top;
    cg_arch *a = top_only(&top, d);
    cg_arch_set_grid(a, 1, 1);
    cg_arch_add_memory(a, "spm", 128 * 4, 128, 1, d);
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_MEM);
    for (int bank = 60; bank <= 104; bank++) {
        char name[16];
        snprintf(name, sizeof name, "m%d", bank);
        p.bank = bank;
        cg_arch_add_prim(a, top, name, &p, d);
    }
    cg_netlist *nl = flatten_ok(a, d);
    cg_dfg *g = cg_dfg_create("far");
    int l = dfg_node(g, CG_OP_LOAD, "l");
    cg_dfg_node_mut(g, l)->bank = 7;
    char want[512];
    int len = snprintf(want, sizeof want, "error: load 'l' must access bank 7 "
                       "(where its array was placed) but no MEMUnit of the "
                       "architecture that runs load reaches bank 7 (they "
                       "reach banks 60");
    for (int bank = 61; bank < 100; bank++)
        len += snprintf(want + len, sizeof want - (size_t)len, ", %d", bank);
    snprintf(want + len, sizeof want - (size_t)len, ", ...): place the array "
             "in one of those banks or give a MEMUnit bank=\"7\"\n");
    cg_mii mii;
    d = cg_diags_create();
    assert_int_equal(cg_mii_compute(nl, g, &mii, d), -1);
    char *s = diag_text(d);
    assert_string_equal(s, want);
    free(s);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* Two loads of bank 1 share m1: ResMII 2, though there are two MEMUnits. */
static void test_res_mii_per_bank(void **state)
{
    (void)state;
    cg_netlist *nl = duo_netlist();
    cg_dfg *g = two_loads(1, 1);
    cg_mii mii;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_mii_compute(nl, g, &mii, d), 0);
    assert_int_equal(mii.res_mii, 2);
    assert_int_equal(mii.bottleneck, CG_OP_LOAD);
    cg_dfg_node_mut(g, B_L1)->bank = -1;
    assert_int_equal(cg_mii_compute(nl, g, &mii, d), 0);
    assert_int_equal(mii.res_mii, 1);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bank_decides_unit),
        cmocka_unit_test(test_any_bank_takes_what_is_left),
        cmocka_unit_test(test_sim_rejects_address_outside_bank),
        cmocka_unit_test(test_checker_rejects_other_bank),
        cmocka_unit_test(test_unreachable_bank),
        cmocka_unit_test(test_unreachable_bank_lists_high_banks),
        cmocka_unit_test(test_res_mii_per_bank),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
