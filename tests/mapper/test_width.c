/* test_width.c: widths, end to end, on a 16-bit array whose kernel's
 * values overflow 16 bits: the accumulator s = s' + x (32 bits, x = 30000,
 * so s leaves 16 bits in its third iteration) with an output o of s.
 *   - the mapper refuses it: every op kind wider than its units, named;
 *   - on a mesh where one FuncUnit alone is 32 bits, the mapper puts the
 *     add there;
 *   - a mapping made on the same mesh at 32 bits is rejected by the
 *     checker on the 16-bit one, naming node, unit and both widths;
 *   - simulated on the 16-bit array it computes at 16 bits: its live-out
 *     differs from the interpreter's, and a warning says where and why;
 *   - a port narrower than the value routed through it is rejected by the
 *     checker and cuts the value in the simulator;
 *   - cg__map_node_fits, which every mapper asks, places an op only on a
 *     unit at least as wide. */
#include "map_fixture.h"

#include "arch/arch_internal.h"
#include "mapper/model/model_internal.h"

enum { ITERS = 4, X = 30000 };

static cg_netlist *mesh_w(int width)
{
    cg_diags *d = cg_diags_create();
    cg_mesh_params p;
    cg_mesh_params_init(&p);
    p.rows = p.cols = 2;
    p.width = width;
    return flatten_ok(cg_arch_mesh(&p, d), d);
}

/* acc with an output, ids x = 0, s = 1, o = 2. */
static cg_dfg *acc(void) { return accumulator(true); }

static void test_mapper_refuses(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_w(16);
    cg_dfg *g = acc();
    cg_map_params p;
    cg_map_params_init(&p);
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &r, d), -1);
    char *s = diag_text(d);
    assert_string_equal(s,
        "error: node 'x' (input) is 32 bits wide, but the widest unit of the "
        "architecture that runs input is 16 bits: an op runs only on a unit "
        "at least as wide (narrow the DFG: for address arithmetic, the "
        "address width; or widen the units)\n"
        "error: node 's' (add) is 32 bits wide, but the widest unit of the "
        "architecture that runs add is 16 bits: an op runs only on a unit at "
        "least as wide (narrow the DFG: for address arithmetic, the address "
        "width; or widen the units)\n"
        "error: node 'o' (output) is 32 bits wide, but the widest unit of "
        "the architecture that runs output is 16 bits: an op runs only on a "
        "unit at least as wide (narrow the DFG: for address arithmetic, the "
        "address width; or widen the units)\n");
    free(s);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* On a 32-bit mesh whose FuncUnits but one are cut to 16 bits, the
 * mapper places the 32-bit add on the one wide FuncUnit (every search asks
 * cg__map_node_fits), and the mapping passes the checker. */
static void test_mapper_avoids_narrow_units(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_w(32);
    int wide = -1, narrow = 0;
    for (int i = 0; i < nl->nprims; i++)
        if (nl->prims[i].p.kind == CG_PRIM_FUNC) {
            if (wide < 0)
                wide = i;
            else {
                nl->prims[i].p.width = 16;
                narrow++;
            }
        }
    assert_int_equal(narrow, 3);
    cg_dfg *g = acc();
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    map_checked(nl, g, &r, d); /* mapped, and the checker agrees */
    assert_int_equal(cg_diags_size(d), 0);
    const cg_mrrg_node *n = cg_mrrg_get_node(r.mrrg, r.mapping->place[1]);
    assert_int_equal(n->prim, wide); /* s */
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The mapping of acc on the 32-bit mesh, and the 16-bit mesh's MRRG at
 * its II (the same nodes: widths do not change the MRRG's shape). */
typedef struct fx {
    cg_netlist *nl32, *nl16;
    cg_dfg *g;
    cg_map_result r;
    cg_mrrg *m16;
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    cg_diags *d = cg_diags_create();
    f->nl32 = mesh_w(32);
    f->nl16 = mesh_w(16);
    f->g = acc();
    map_checked(f->nl32, f->g, &f->r, d);
    f->m16 = cg_mrrg_build(f->nl16, f->r.ii, d);
    assert_non_null(f->m16);
    assert_int_equal(cg_mrrg_nnodes(f->m16), cg_mrrg_nnodes(f->r.mrrg));
    cg_diags_destroy(d);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    cg_mrrg_destroy(f->m16);
    cg_map_result_free(&f->r);
    cg_dfg_destroy(f->g);
    cg_netlist_destroy(f->nl32);
    cg_netlist_destroy(f->nl16);
    free(f);
    return 0;
}

static void test_checker_rejects(void **state)
{
    fx *f = *state;
    static const char *const kind[] = {"IO", "FuncUnit", "IO"};
    char want[2048] = "", b[160];
    size_t len = 0;
    for (int v = 0; v < 3; v++) {
        const cg_dfg_node *n = cg_dfg_get_node(f->g, v);
        cg__map_node_name(f->m16, f->nl16, f->r.mapping->place[v], b,
                          sizeof b);
        len += (size_t)snprintf(want + len, sizeof want - len,
                                "error: node '%s' (%s) is 32 bits wide but "
                                "is placed on %s (%s, 16 bits): an op runs "
                                "only on a unit at least as wide\n",
                                n->name, cg_op_name(n->op), b, kind[v]);
    }
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map_check(f->nl16, f->m16, f->g, f->r.mapping, d),
                     -1);
    char *s = diag_text(d);
    assert_string_equal(s, want);
    free(s);
    cg_diags_destroy(d);
}

/* Run acc for ITERS iterations on nl/m; its output and the diagnostics. */
static uint64_t simulate(fx *f, const cg_netlist *nl, const cg_mrrg *m,
                         char **diags)
{
    uint64_t in[3] = {X, 0, 0}, out[3] = {0, 0, 0};
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_sim_run(nl, m, f->g, f->r.mapping, ITERS, NULL, in,
                                out, d), 0);
    *diags = diag_text(d);
    cg_diags_destroy(d);
    return out[2];
}

static void test_simulated_at_16_bits(void **state)
{
    fx *f = *state;
    uint64_t in[3] = {X, 0, 0}, ref[3] = {0, 0, 0};
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_run(f->g, ITERS, NULL, in, ref, d), 0);
    cg_diags_destroy(d);
    assert_int_equal(ref[2], 4 * X);
    char *s;
    assert_int_equal(simulate(f, f->nl32, f->r.mrrg, &s), 4 * X);
    assert_string_equal(s, "");
    free(s);
    /* verified no: 120000 does not fit, the unit keeps its low 16 bits */
    assert_int_equal(simulate(f, f->nl16, f->m16, &s), (4 * X) & 0xffff);
    char b[160], want[512];
    cg__map_node_name(f->m16, f->nl16, f->r.mapping->place[1], b, sizeof b);
    snprintf(want, sizeof want, "warning: simulation: 's' (add) is 32 bits "
             "wide but runs on %s, 16 bits wide: at iteration 2 it yields "
             "0x5f90 there, not 0x15f90\n", b);
    assert_string_equal(s, want);
    free(s);
}

/* The pin of o that s's route ends at made 16 bits (a netlist edited by hand: flatten
 * never makes one, nets have one width): the checker names the port, the
 * simulator cuts the value there. */
static void test_narrow_port(void **state)
{
    fx *f = *state;
    int e = cg_dfg_operand_edge(f->g, 2, 0);
    int last = f->r.mapping->route_len[e] - 1;
    int r0 = f->r.mapping->route[e][last]; /* o's pin: on this route only */
    cg_netlist *nl = f->nl32;
    int port = cg_mrrg_get_node(f->r.mrrg, r0)->port;
    assert_true(port >= 0);
    nl->ports[port].width = 16;
    char b[160], want[512];
    cg__map_node_name(f->r.mrrg, nl, r0, b, sizeof b);
    snprintf(want, sizeof want, "error: edge %d 's'->'o' (operand 0, "
             "distance 0): the 32-bit value of 's' passes %s, which is 16 "
             "bits wide (route entry %d): a value needs ports at least as "
             "wide\n", e, b, last);
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map_check(nl, f->r.mrrg, f->g, f->r.mapping, d), -1);
    char *s = diag_text(d);
    assert_string_equal(s, want);
    free(s);
    cg_diags_destroy(d);
    assert_int_equal(simulate(f, nl, f->r.mrrg, &s), (4 * X) & 0xffff);
    free(s);
    nl->ports[port].width = 32;
}

static void test_node_fits(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_w(16);
    int fu = cg_netlist_find_prim(nl, "block_1_1.func");
    assert_true(fu >= 0);
    const cg_nl_prim *pr = cg_netlist_prim(nl, fu);
    cg_dfg_node n = {.op = CG_OP_ADD, .width = 16, .bank = -1};
    assert_true(cg__map_node_fits(pr, &n));
    n.width = 17;
    assert_false(cg__map_node_fits(pr, &n));
    n.op = CG_OP_ICMP; /* 1 bit: its operands reach it over 16-bit nets */
    n.width = 1;
    assert_true(cg__map_node_fits(pr, &n));
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mapper_refuses),
        cmocka_unit_test(test_mapper_avoids_narrow_units),
        cmocka_unit_test_setup_teardown(test_checker_rejects, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_simulated_at_16_bits, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_narrow_port, setup, teardown),
        cmocka_unit_test(test_node_fits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
