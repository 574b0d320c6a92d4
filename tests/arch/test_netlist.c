/* test_netlist.c: reading the netlist (arch/netlist.c): accessors and
 * their bounds, lookups, the summary and the Graphviz picture (golden),
 * the writers' failure on a full disk, and the natural order of primitive
 * names. */
#include "arch_test_util.h"

#include <errno.h>

#include "xml/xml.h"

static cg_netlist *small(cg_diags *d)
{
    cg_mesh_params p;
    cg_mesh_params_init(&p);
    p.rows = 1, p.cols = 2;
    p.ops = CG_OPSET(CG_OP_ADD);
    cg_arch *a = cg_arch_mesh(&p, d);
    assert_non_null(a);
    cg_netlist *nl = cg_arch_flatten(a, d);
    cg_arch_destroy(a); /* the netlist owns everything it points to */
    assert_non_null(nl);
    return nl;
}

static void test_accessors(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_netlist *nl = small(d);
    assert_null(cg_netlist_prim(nl, -1));
    assert_null(cg_netlist_prim(nl, cg_netlist_nprims(nl)));
    assert_null(cg_netlist_port(nl, cg_netlist_nports(nl)));
    assert_null(cg_netlist_net(nl, cg_netlist_nnets(nl)));
    assert_null(cg_netlist_memory(nl, 1));
    assert_int_equal(cg_netlist_prim_port(nl, -1, "out"), -1);
    assert_int_equal(cg_netlist_find_prim(nl, "nothing"), -1);
    /* every primitive is found by its name, ports point back at it, and
     * every net's ports say they are on it */
    for (int i = 0; i < cg_netlist_nprims(nl); i++) {
        const cg_nl_prim *p = cg_netlist_prim(nl, i);
        assert_int_equal(cg_netlist_find_prim(nl, p->name), i);
        for (int k = 0; k < p->nports; k++)
            assert_int_equal(cg_netlist_port(nl, p->port0 + k)->prim, i);
        assert_string_equal(p->loc.file, "<cg_arch_mesh>");
    }
    for (int i = 0; i < cg_netlist_nnets(nl); i++) {
        const cg_nl_net *n = cg_netlist_net(nl, i);
        assert_int_equal(cg_netlist_port(nl, n->driver)->net, i);
        assert_int_not_equal(cg_netlist_port(nl, n->driver)->dir, CG_DIR_IN);
        for (int k = 0; k < n->nsinks; k++)
            assert_int_equal(cg_netlist_port(nl, n->sinks[k])->net, i);
    }
    const cg_nl_prim *mem = cg_netlist_prim(nl, cg_netlist_find_prim(
                                                    nl, "block_1_2.mem"));
    assert_string_equal(mem->p.memory, "spm");
    assert_ptr_equal(mem->p.memory, cg_netlist_memory(nl, 0)->name);
    cg_netlist_destroy(nl);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
}

static void test_forms(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_netlist *nl = small(d);
    char *t = nl_text(nl, AS_SUMMARY);
    check_golden("netlist_small_summary.txt", t);
    free(t);
    t = nl_text(nl, AS_DOT);
    check_golden("netlist_small.dot", t);
    free(t);
    t = nl_text(nl, AS_PE_DOT);
    check_golden("netlist_small_pe.dot", t);
    free(t);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* Each writer says when its bytes did not reach the file: /dev/full fails
 * every write, seen when the writer flushes. */
static void test_writers_full(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_netlist *nl = small(d);
    for (int form = AS_WRITE; form <= AS_PE_DOT; form++) {
        FILE *f = fopen("/dev/full", "w");
        assert_non_null(f);
        errno = 0;
        assert_int_equal(nl_write(nl, form, f), -1);
        assert_int_equal(errno, ENOSPC);
        fclose(f);
    }
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* The checker passes flatten's output and finds a broken invariant. */
static void test_check(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_netlist *nl = small(d);
    assert_int_equal(cg_netlist_check(nl, d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    /* a sink that claims another net (edit through the const view) */
    const cg_nl_net *n = cg_netlist_net(nl, 0);
    cg_nl_port *sink = (cg_nl_port *)cg_netlist_port(nl, n->sinks[0]);
    sink->net = 1;
    assert_int_equal(cg_netlist_check(nl, d), -1);
    char want[128];
    snprintf(want, sizeof want, "error: netlist invariant broken: net sink "
             "is an output, off the net, or of another width (id %d)",
             n->sinks[0]);
    expect_diag(d, 0, want);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
}

/* block_2_0 sorts before block_10_0: an 11-row grid. */
static void test_natural_order(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_mesh_params p;
    cg_mesh_params_init(&p);
    p.rows = 11, p.cols = 1, p.io = false, p.mem_columns = false;
    p.ops = CG_OPSET(CG_OP_ADD);
    cg_arch *a = cg_arch_mesh(&p, d);
    cg_netlist *nl = cg_arch_flatten(a, d);
    assert_non_null(nl);
    int two = cg_netlist_find_prim(nl, "block_2_0.func");
    int ten = cg_netlist_find_prim(nl, "block_10_0.func");
    assert_true(two >= 0 && ten > two);
    assert_string_equal(cg_netlist_prim(nl, 0)->name, "block_0_0.const");
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accessors),
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_writers_full),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_natural_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
