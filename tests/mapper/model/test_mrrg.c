/* test_mrrg.c: the modulo routing resource graph (mapper/model/mrrg.c) of the
 * one-block "tiny" netlist (ilp_test_util.h): nodes and edges per context,
 * the delay of a Register (one cycle, into the next context modulo II) and
 * of a FuncUnit (its latency), operand pins, mux inputs, and a bad II. */
#include "../ilp_test_util.h"
#include "mapper/model/model_internal.h"
#include "xml/xml.h"

/* ROUTE node of prim.port in context c, or FUNC node of prim (port NULL). */
static int find(const cg_mrrg *m, const cg_netlist *nl, const char *prim,
                const char *port, int c)
{
    int p = cg_netlist_find_prim(nl, prim);
    assert_true(p >= 0);
    int pt = port ? cg_netlist_prim_port(nl, p, port) : -1;
    for (int i = 0; i < cg_mrrg_nnodes(m); i++) {
        const cg_mrrg_node *n = cg_mrrg_get_node(m, i);
        if (n->prim == p && n->context == c && n->port == pt &&
            (port != NULL) == (n->kind == CG_MRRG_ROUTE))
            return i;
    }
    fail_msg("no MRRG node %s.%s at context %d", prim, port ? port : "-", c);
    return -1;
}

/* The edge from -> to; fails when there is none. */
static const cg_mrrg_edge *edge(const cg_mrrg *m, int from, int to)
{
    int n;
    const int *out = cg_mrrg_out(m, from, &n);
    for (int j = 0; j < n; j++)
        if (cg_mrrg_get_edge(m, out[j])->to == to)
            return cg_mrrg_get_edge(m, out[j]);
    fail_msg("no MRRG edge %d -> %d", from, to);
    return NULL;
}

static void shape(int ii, int lat)
{
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), lat);
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, ii, d);
    assert_non_null(m);
    assert_int_equal(cg_mrrg_ii(m), ii);
    /* per context: 10 ROUTE nodes (fu in_a in_b out, r in out, io in out,
     * mux in0 in1 out; io.bidir and mux.select are configuration) and 2
     * FUNC nodes (fu, io) */
    int route = 0, func = 0;
    for (int i = 0; i < cg_mrrg_nnodes(m); i++)
        cg_mrrg_get_node(m, i)->kind == CG_MRRG_FUNC ? func++ : route++;
    assert_int_equal(route, 10 * ii);
    assert_int_equal(func, 2 * ii);
    /* per context: 6 net edges, 1 register, 2 mux inputs, 3 FuncUnit
     * (two pins and the result), 2 IO (pin and result) */
    assert_int_equal(cg_mrrg_nedges(m), 14 * ii);
    int total_in = 0, total_out = 0, n;
    for (int i = 0; i < cg_mrrg_nnodes(m); i++) {
        cg_mrrg_in(m, i, &n);
        total_in += n;
        cg_mrrg_out(m, i, &n);
        total_out += n;
    }
    assert_int_equal(total_in, 14 * ii);
    assert_int_equal(total_out, 14 * ii);
    for (int c = 0; c < ii; c++) {
        int c1 = (c + 1) % ii, cl = (c + lat) % ii;
        const cg_mrrg_edge *e =
            edge(m, find(m, nl, "r", "in", c), find(m, nl, "r", "out", c1));
        assert_int_equal(e->delay, 1);
        assert_int_equal(e->mux_input, -1);
        int fu = find(m, nl, "fu", NULL, c);
        assert_true(cg_mrrg_supports(m, nl, fu, CG_OP_ADD));
        assert_false(cg_mrrg_supports(m, nl, fu, CG_OP_MUL));
        e = edge(m, fu, find(m, nl, "fu", "out", cl));
        assert_int_equal(e->delay, lat);
        int a = find(m, nl, "fu", "in_a", c), b = find(m, nl, "fu", "in_b", c);
        assert_int_equal(cg_mrrg_get_node(m, a)->operand, 0);
        assert_int_equal(cg_mrrg_get_node(m, b)->operand, 1);
        assert_int_equal(cg_mrrg_get_node(m, a)->func, fu);
        assert_int_equal(edge(m, a, fu)->delay, 0);
        assert_int_equal(cg_mrrg_get_node(m, find(m, nl, "fu", "out", cl))
                             ->func, fu);
        int mux = cg_netlist_find_prim(nl, "fu_in_a_mux");
        assert_true(mux >= 0);
        e = edge(m, find(m, nl, "fu_in_a_mux", "in1", c),
                 find(m, nl, "fu_in_a_mux", "out", c));
        assert_int_equal(e->mux_input, 1);
        assert_int_equal(e->delay, 0);
        /* nets stay in their context */
        assert_int_equal(edge(m, find(m, nl, "io", "out", c),
                              find(m, nl, "fu", "in_b", c))->delay, 0);
        int io = find(m, nl, "io", NULL, c);
        assert_true(cg_mrrg_supports(m, nl, io, CG_OP_INPUT));
        assert_true(cg_mrrg_supports(m, nl, io, CG_OP_OUTPUT));
        assert_false(cg_mrrg_supports(m, nl, io, CG_OP_ADD));
        assert_int_equal(cg_mrrg_get_node(m, find(m, nl, "io", "in", c))
                             ->operand, 0);
    }
    assert_int_equal(cg_diags_size(d), 0);
    cg_mrrg_destroy(m);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

static void test_shape_ii1(void **state)
{
    (void)state;
    shape(1, 0);
}

static void test_shape_ii3_latency2(void **state)
{
    (void)state;
    shape(3, 2);
}

static void test_bad_ii(void **state)
{
    (void)state;
    cg_netlist *nl = tiny_netlist(CG_OPSET(CG_OP_ADD), 0);
    cg_diags *d = cg_diags_create();
    assert_null(cg_mrrg_build(nl, 0, d));
    assert_int_equal(cg_diags_errors(d), 1);
    assert_string_equal(cg_diags_get(d, 0)->msg,
                        "initiation interval 0 is not positive: the MRRG "
                        "needs II >= 1");
    cg_mrrg_destroy(NULL);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* The default PE's FuncUnit supports select, so it has the pin in_c
 * (operand 2); a MEMUnit's data_in is operand 1; cg_mrrg_pin finds each
 * pin from its unit. */
static void test_mesh_pins(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 2, d);
    assert_non_null(m);
    int c_pins = 0, data_in = 0;
    for (int i = 0; i < cg_mrrg_nnodes(m); i++) {
        const cg_mrrg_node *n = cg_mrrg_get_node(m, i);
        if (n->kind != CG_MRRG_ROUTE || n->port < 0)
            continue;
        const char *name = cg_netlist_port(nl, n->port)->name;
        if (n->operand >= 0) /* the pin index finds every pin */
            assert_int_equal(cg_mrrg_pin(m, n->func, n->operand), i);
        if (strcmp(name, "in_c") == 0) {
            assert_int_equal(n->operand, 2);
            assert_true(cg_mrrg_supports(m, nl, n->func, CG_OP_SELECT));
            c_pins++;
        }
        if (strcmp(name, "data_in") == 0) {
            assert_int_equal(n->operand, 1);
            assert_true(cg_mrrg_supports(m, nl, n->func, CG_OP_STORE));
            data_in++;
        }
    }
    assert_int_equal(c_pins, 4 * 2);  /* 4 PEs, 2 contexts */
    /* ... and nothing else: an IO has no operand pins, an operand out of
       range or a node out of range none */
    for (int i = 0; i < cg_mrrg_nnodes(m); i++) {
        const cg_mrrg_node *n = cg_mrrg_get_node(m, i);
        if (n->kind == CG_MRRG_FUNC &&
            cg_netlist_prim(nl, n->prim)->p.kind == CG_PRIM_CONST)
            assert_int_equal(cg_mrrg_pin(m, i, 0), -1);
        if (n->kind == CG_MRRG_FUNC)
            assert_int_equal(cg_mrrg_pin(m, i, 3), -1);
    }
    assert_int_equal(cg_mrrg_pin(m, -1, 0), -1);
    assert_int_equal(cg_mrrg_pin(m, cg_mrrg_nnodes(m), 0), -1);
    assert_int_equal(data_in, 4 * 2); /* memory columns: every PE of 2x2 */
    cg_mrrg_destroy(m);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* cg__mrrg_shift: every node's twin one context later has the same
 * kind, primitive, port and operand, a pin's twin belongs to its unit's
 * twin, every edge has a twin of the same delay, and II shifts come
 * back.  On the default PE and on ADRES's (RegisterFile nodes, made
 * after the others). */
static void periodic(cg_netlist *nl, int ii)
{
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, ii, d);
    assert_non_null(m);
    for (int x = 0; x < cg_mrrg_nnodes(m); x++) {
        const cg_mrrg_node *a = cg_mrrg_get_node(m, x);
        int y = cg__mrrg_shift(m, x, 1);
        const cg_mrrg_node *b = cg_mrrg_get_node(m, y);
        assert_int_equal(b->context, (a->context + 1) % ii);
        assert_int_equal(b->kind, a->kind);
        assert_int_equal(b->prim, a->prim);
        assert_int_equal(b->port, a->port);
        assert_int_equal(b->operand, a->operand);
        if (a->func >= 0)
            assert_int_equal(b->func, cg__mrrg_shift(m, a->func, 1));
        assert_int_equal(cg__mrrg_shift(m, y, -1), x);
        assert_int_equal(cg__mrrg_shift(m, x, ii), x);
        assert_int_equal(cg__mrrg_shift(m, x, -3 * ii), x);
    }
    for (int e = 0; e < cg_mrrg_nedges(m); e++) {
        const cg_mrrg_edge *me = cg_mrrg_get_edge(m, e);
        int n, found = 0;
        int from = cg__mrrg_shift(m, me->from, 1);
        const int *out = cg_mrrg_out(m, from, &n);
        for (int j = 0; j < n; j++) {
            const cg_mrrg_edge *t = cg_mrrg_get_edge(m, out[j]);
            found += t->to == cg__mrrg_shift(m, me->to, 1) &&
                     t->delay == me->delay && t->mux_input == me->mux_input;
        }
        assert_int_equal(found, 1);
    }
    cg_mrrg_destroy(m);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

static void test_periodic(void **state)
{
    (void)state;
    periodic(mesh_netlist(2, 2), 3);
    cg_diags *d = cg_diags_create();
    periodic(flatten_ok(
                 cg_xml_read("benchmarks/archs/adres_4x4.xml", NULL, d), d),
             2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape_ii1),
        cmocka_unit_test(test_shape_ii3_latency2),
        cmocka_unit_test(test_bad_ii),
        cmocka_unit_test(test_mesh_pins),
        cmocka_unit_test(test_periodic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
