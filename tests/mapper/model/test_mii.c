/* test_mii.c: ResMII (per op class, heterogeneous units counted by Hall's
 * condition: FuncUnits, MEMUnits, IOs and ConstUnits) and RecMII (delay
 * over distance of the DFG's cycles, with each edge's least latency plus
 * route delay on the array), and the errors naming an op no unit supports
 * or an edge no route can carry. */
#include "../ilp_test_util.h"

static cg_mii mii_of(const cg_netlist *nl, const cg_dfg *g)
{
    cg_diags *d = cg_diags_create();
    cg_mii m;
    int rc = cg_mii_compute(nl, g, &m, d);
    if (rc != 0)
        cg_diags_print(d, stderr);
    assert_int_equal(rc, 0);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
    return m;
}

/* n nodes of op, each fed by `from` when from >= 0 (operand 0 and 1). */
static void add_ops(cg_dfg *g, cg_op op, int n, int from)
{
    for (int i = 0; i < n; i++) {
        int v = dfg_node(g, op, NULL);
        for (int k = 0; from >= 0 && k < cg_op_arity(op); k++)
            cg_dfg_add_edge(g, from, v, k, 0, -1);
    }
}

/* One FuncUnit and one IO: three adds need three contexts. */
static void test_resmii_tiny(void **state)
{
    (void)state;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 0);
    cg_dfg *g = cg_dfg_create("t");
    int x = dfg_node(g, CG_OP_INPUT, "x");
    add_ops(g, CG_OP_ADD, 3, x);
    cg_mii m = mii_of(nl, g);
    assert_int_equal(m.res_mii, 3);
    assert_int_equal(m.bottleneck, CG_OP_ADD);
    assert_int_equal(m.rec_mii, 0);
    assert_int_equal(m.mii, 3);
    /* input and output share the one IO */
    add_ops(g, CG_OP_OUTPUT, 3, 1);
    m = mii_of(nl, g);
    assert_int_equal(m.res_mii, 4);
    assert_int_equal(m.bottleneck, CG_OP_OUTPUT);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* 2x2 mesh whose mul is only on the PEs where row + col is even (2 of
 * 4): 2 muls and 7 adds fit neither kind alone (1 and 2 contexts) but
 * together need ceil(9 / 4) = 3. */
static void test_resmii_heterogeneous(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_mesh_params p;
    cg_mesh_params_init(&p);
    p.rows = p.cols = 2;
    p.mul_ops = CG_OPSET(CG_OP_MUL);
    p.ops &= ~CG_OPSET(CG_OP_MUL);
    cg_arch *a = cg_arch_mesh(&p, d);
    cg_netlist *nl = cg_arch_flatten(a, d);
    assert_non_null(nl);
    cg_dfg *g = cg_dfg_create("h");
    int x = dfg_node(g, CG_OP_INPUT, "x");
    add_ops(g, CG_OP_MUL, 2, x);
    add_ops(g, CG_OP_ADD, 7, x);
    cg_mii m = mii_of(nl, g);
    assert_int_equal(m.res_mii, 3);
    assert_int_equal(m.bottleneck, CG_OP_ADD);
    /* 5 muls on the 2 mul PEs: ceil(5 / 2) = 3, the mul class */
    cg_dfg *g2 = cg_dfg_create("h2");
    x = dfg_node(g2, CG_OP_INPUT, "x");
    add_ops(g2, CG_OP_MUL, 5, x);
    m = mii_of(nl, g2);
    assert_int_equal(m.res_mii, 3);
    assert_int_equal(m.bottleneck, CG_OP_MUL);
    cg_dfg_destroy(g);
    cg_dfg_destroy(g2);
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* The default 4x4: 8 MEMUnits (west and east columns), 16 ConstUnits, 16
 * IOs on the ring. */
static void test_resmii_units(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    struct { cg_op op; int n, want; } cases[] = {
        {CG_OP_LOAD, 8, 1}, {CG_OP_LOAD, 9, 2}, {CG_OP_CONST, 16, 1},
        {CG_OP_CONST, 17, 2}, {CG_OP_INPUT, 33, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cg_dfg *g = cg_dfg_create("u");
        int src = cases[i].op == CG_OP_LOAD ? dfg_node(g, CG_OP_CONST, "a")
                                            : -1;
        add_ops(g, cases[i].op, cases[i].n, src);
        cg_mii m = mii_of(nl, g);
        assert_int_equal(m.res_mii, cases[i].want);
        if (cases[i].want > 1) /* at 1 every class ties */
            assert_int_equal(m.bottleneck, cases[i].op);
        cg_dfg_destroy(g);
    }
    cg_netlist_destroy(nl);
}

/* A cycle of n adds a0 -> a1 -> ... -> a0 closing with distance dist. */
static cg_dfg *ring(int n, int dist)
{
    cg_dfg *g = cg_dfg_create("ring");
    int x = dfg_node(g, CG_OP_INPUT, "x");
    int first = -1, prev = -1;
    for (int i = 0; i < n; i++) {
        int v = dfg_node(g, CG_OP_ADD, NULL);
        cg_dfg_add_edge(g, x, v, 1, 0, -1);
        if (prev >= 0)
            cg_dfg_add_edge(g, prev, v, 0, 0, -1);
        else
            first = v;
        prev = v;
    }
    cg_dfg_add_edge(g, prev, first, 0, dist, -1);
    return g;
}

/* On the default PE a result reaches an operand only through the
 * register: each edge of a cycle costs at least one cycle. */
static void test_recmii_mesh(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    struct { int n, dist, want; } cases[] = {
        {1, 1, 1}, {3, 1, 3}, {3, 2, 2}, {4, 3, 2}, {5, 1, 5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cg_dfg *g = ring(cases[i].n, cases[i].dist);
        cg_mii m = mii_of(nl, g);
        assert_int_equal(m.rec_mii, cases[i].want);
        assert_int_equal(m.res_mii, 1);
        assert_int_equal(m.mii, cases[i].want);
        cg_dfg_destroy(g);
    }
    cg_netlist_destroy(nl);
}

/* tiny with a FuncUnit of latency 2: the accumulator's edge costs the
 * latency plus the register, 3 cycles. */
static void test_recmii_latency(void **state)
{
    (void)state;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 2);
    cg_dfg *g = accumulator(false);
    cg_mii m = mii_of(nl, g);
    assert_int_equal(m.rec_mii, 3);
    assert_int_equal(m.res_mii, 1);
    assert_int_equal(m.mii, 3);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

static void test_unsupported_op(void **state)
{
    (void)state;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 0);
    cg_dfg *g = cg_dfg_create("k");
    cg_dfg_set_file(g, "k.c");
    int x = dfg_node(g, CG_OP_INPUT, "x"), v = dfg_node(g, CG_OP_MUL, "m");
    cg_dfg_node_mut(g, v)->line = 12;
    cg_dfg_add_edge(g, x, v, 0, 0, -1);
    cg_dfg_add_edge(g, x, v, 1, 0, -1);
    cg_diags *d = cg_diags_create();
    cg_mii m;
    assert_int_equal(cg_mii_compute(nl, g, &m, d), -1);
    assert_int_equal(cg_diags_errors(d), 1);
    const cg_diag *e = cg_diags_get(d, 0);
    assert_string_equal(e->file, "k.c");
    assert_int_equal(e->line, 12);
    assert_string_equal(e->msg,
                        "no unit of the architecture supports op 'mul' "
                        "(node 'm'): add it to a FuncUnit's op list or "
                        "use an architecture that has it");
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* tiny's in_b hears only the IO: an add cannot feed another's operand 1. */
static void test_unroutable_edge(void **state)
{
    (void)state;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 0);
    cg_dfg *g = cg_dfg_create("k");
    int x = dfg_node(g, CG_OP_INPUT, "x"), a = dfg_node(g, CG_OP_ADD, "a");
    int b = dfg_node(g, CG_OP_ADD, "b");
    cg_dfg_node_mut(g, b)->line = 4;
    cg_dfg_add_edge(g, x, a, 0, 0, -1);
    cg_dfg_add_edge(g, x, a, 1, 0, -1);
    cg_dfg_add_edge(g, x, b, 0, 0, -1);
    cg_dfg_add_edge(g, a, b, 1, 0, -1);
    cg_diags *d = cg_diags_create();
    cg_mii m;
    assert_int_equal(cg_mii_compute(nl, g, &m, d), -1);
    assert_int_equal(cg_diags_errors(d), 1);
    assert_int_equal(cg_diags_get(d, 0)->line, 4);
    assert_string_equal(cg_diags_get(d, 0)->msg,
                        "no route of the architecture leads from a unit "
                        "running 'add' (node 'a') to operand 1 of a unit "
                        "running 'add' (node 'b'): connect such units");
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resmii_tiny),
        cmocka_unit_test(test_resmii_heterogeneous),
        cmocka_unit_test(test_resmii_units),
        cmocka_unit_test(test_recmii_mesh),
        cmocka_unit_test(test_recmii_latency),
        cmocka_unit_test(test_unsupported_op),
        cmocka_unit_test(test_unroutable_edge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
