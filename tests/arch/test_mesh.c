/* test_mesh.c: the ready-made arrays of arch/mesh.c: the default
 * architecture equals its XML twin benchmarks/archs/default_4x4.xml byte
 * for byte (and the shipped 6x6, 8x8 and diagonal 8x8 variants theirs),
 * each cg_mesh_params option against a golden summary or netlist, the
 * PE's ports and primitives the mapper relies on, and bad parameters. */
#include "arch_test_util.h"

#include "xml/xml.h"

/* Assert that a (built in C) and benchmarks/archs/<file>.xml flatten to
 * byte-identical netlists; return a's netlist text (the caller frees). */
static char *expect_xml_twin(cg_arch *a, const char *file)
{
    cg_diags *d = cg_diags_create();
    assert_non_null(a);
    char path[1024];
    snprintf(path, sizeof path, "%s/benchmarks/archs/%s.xml", src_dir(),
             file);
    cg_arch *x = cg_xml_read(path, NULL, d);
    if (!x || cg_diags_size(d))
        cg_diags_print(d, stderr);
    assert_non_null(x);
    assert_int_equal(cg_diags_size(d), 0);
    char *ta = arch_text(a, AS_WRITE), *tx = arch_text(x, AS_WRITE);
    assert_string_equal(ta, tx);
    free(tx);
    cg_arch_destroy(x);
    cg_diags_destroy(d);
    return ta;
}

static void test_default_equals_xml(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_default(d);
    assert_int_equal(cg_diags_size(d), 0);
    char *ta = expect_xml_twin(a, "default_4x4");
    check_golden("default_4x4.txt", ta);
    free(ta);
    ta = arch_text(a, AS_SUMMARY);
    check_golden("default_4x4_summary.txt", ta);
    free(ta);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* The shipped larger variants of the default array are cg_arch_mesh with
 * cg_mesh_params_init's values but the size (and the diagonal links);
 * their summaries are golden in tests/xml (bench_*.txt). */
static void test_variants_equal_xml(void **state)
{
    (void)state;
    static const struct {
        int n;
        bool diagonal;
        const char *file;
    } twins[] = {
        {6, false, "default_6x6"},
        {8, false, "default_8x8"},
        {8, true, "diagonal_8x8"},
    };
    for (size_t i = 0; i < sizeof twins / sizeof *twins; i++) {
        cg_mesh_params p;
        cg_mesh_params_init(&p);
        p.rows = p.cols = twins[i].n;
        p.diagonal = twins[i].diagonal;
        cg_diags *d = cg_diags_create();
        cg_arch *a = cg_arch_mesh(&p, d);
        assert_int_equal(cg_diags_size(d), 0);
        free(expect_xml_twin(a, twins[i].file));
        cg_arch_destroy(a);
        cg_diags_destroy(d);
    }
}

/* What the mapper and the CLI rely on: names, pins and positions. */
static void test_default_pe(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_default(d);
    cg_netlist *nl = cg_arch_flatten(a, d);
    assert_non_null(nl);
    assert_int_equal(cg_netlist_rows(nl), 6);
    assert_int_equal(cg_netlist_cols(nl), 6);
    int f = cg_netlist_find_prim(nl, "block_2_3.func");
    assert_true(f >= 0);
    const cg_nl_prim *p = cg_netlist_prim(nl, f);
    assert_int_equal(p->p.kind, CG_PRIM_FUNC);
    assert_int_equal(p->row, 2);
    assert_int_equal(p->col, 3);
    assert_true(p->p.ops & CG_OPSET(CG_OP_SELECT));
    assert_true(p->p.ops & CG_OPSET(CG_OP_UREM));
    assert_true(cg_netlist_prim_port(nl, f, "in_c") >= 0);
    assert_int_equal(cg_netlist_find_prim(nl, "block_2_3.mem"), -1);
    int m = cg_netlist_find_prim(nl, "block_2_4.mem");
    assert_true(m >= 0);
    assert_int_equal(cg_netlist_prim(nl, m)->memory, 0);
    assert_true(cg_netlist_find_prim(nl, "block_4_1.mem") >= 0);
    assert_true(cg_netlist_find_prim(nl, "block_0_1.io") >= 0);
    assert_int_equal(cg_netlist_find_prim(nl, "block_0_0.io"), -1);
    assert_true(cg_netlist_find_prim(nl, "block_1_1.const") >= 0);
    /* func.out reaches the register through reg_in_mux; reg.out leaves
     * the PE and comes back to the operand muxes */
    int mux = cg_netlist_find_prim(nl, "block_2_3.reg_in_mux");
    assert_true(mux >= 0);
    const cg_nl_port *out = cg_netlist_port(nl, cg_netlist_prim_port(nl, f,
                                                                     "out"));
    const cg_nl_net *n = cg_netlist_net(nl, out->net);
    int hits = 0;
    for (int k = 0; k < n->nsinks; k++)
        hits += cg_netlist_port(nl, n->sinks[k])->prim == mux;
    assert_int_equal(hits, 1);
    assert_non_null(cg_netlist_dma(nl));
    assert_int_equal(cg_netlist_nmemories(nl), 1);
    assert_string_equal(cg_netlist_memory(nl, 0)->name, "spm");
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
}

static void mesh_golden(const cg_mesh_params *p, const char *golden,
                        int form)
{
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_mesh(p, d);
    if (!a || cg_diags_size(d))
        cg_diags_print(d, stderr);
    assert_non_null(a);
    char *t = arch_text(a, form);
    check_golden(golden, t);
    free(t);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

static void test_variants(void **state)
{
    (void)state;
    cg_mesh_params p;
    cg_mesh_params_init(&p);
    p.rows = 2, p.cols = 3, p.diagonal = true, p.io = false;
    p.mem_columns = false;
    p.ops = CG_OPSET(CG_OP_ADD);
    mesh_golden(&p, "mesh_diagonal_2x3.txt", AS_WRITE);
    cg_mesh_params_init(&p);
    p.rows = 3, p.cols = 3, p.torus = true, p.io = false, p.width = 16;
    p.mem_columns = false;
    p.ops = CG_OPSET(CG_OP_ADD) | CG_OPSET(CG_OP_SUB);
    mesh_golden(&p, "mesh_torus_3x3.txt", AS_WRITE);
    cg_mesh_params_init(&p);
    p.rows = p.cols = 8;
    p.ops = CG_OPSET(CG_OP_ADD) | CG_OPSET(CG_OP_SUB);
    p.mul_ops = CG_OPSET(CG_OP_MUL);
    mesh_golden(&p, "mesh_hetero_8x8_summary.txt", AS_SUMMARY);
}

static void test_bad_params(void **state)
{
    (void)state;
    cg_mesh_params p;
    cg_diags *d = cg_diags_create();
    cg_mesh_params_init(&p);
    p.torus = true;
    assert_null(cg_arch_mesh(&p, d));
    expect_diag(d, 0, "error: bad mesh parameters: io and torus exclude "
                      "each other: a torus has no sides");
    cg_mesh_params_init(&p);
    p.cols = 0;
    assert_null(cg_arch_mesh(&p, d));
    expect_diag(d, 1, "error: bad mesh parameters: rows and cols must be "
                      ">= 1");
    cg_mesh_params_init(&p);
    p.mem_banks = 3;
    assert_null(cg_arch_mesh(&p, d));
    expect_diag(d, 2, "error: bad mesh parameters: mem_columns needs "
                      "mem_bytes >= 1 and mem_banks >= 1 dividing it");
    cg_mesh_params_init(&p);
    p.rows = 2000000000, p.cols = 2000000000;
    assert_null(cg_arch_mesh(&p, d));
    expect_diag(d, 3, "error: bad mesh parameters: the 2000000000x2000000000 "
                      "grid and its IO ring is above the limit of 262144 "
                      "cells");
    cg_mesh_params_init(&p);
    p.ops = 0;
    assert_null(cg_arch_mesh(&p, d));
    expect_diag(d, 4, "error: bad mesh parameters: ops must list at least "
                      "one opcode");
    assert_int_equal(cg_diags_size(d), 5);
    cg_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_equals_xml),
        cmocka_unit_test(test_variants_equal_xml),
        cmocka_unit_test(test_default_pe),
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_bad_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
