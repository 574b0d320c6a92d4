/* test_write.c: the mapping writers (mapper/model/write.c) on the balanced
 * mapping of sq on pipe (map_fixture.h), compared with golden files in
 * tests/mapper/golden/ (regenerate with CG_UPDATE_GOLDEN=1 and review the
 * diff): text, JSON configuration, Graphviz, also with a const as an
 * immediate; the names of MRRG nodes; the JSON of an ILP mapping at II=2
 * read back with jansson; and each writer's failure on a full disk. */
#include "../map_fixture.h"

#include "common/util.h"
#include "tests/common/golden.h"

#include <errno.h>
#include <jansson.h>

typedef int (*writer)(const cg_mapping *, const cg_mrrg *,
                      const cg_netlist *, const cg_dfg *, FILE *);

/* Write with w and compare with golden/<name> (or replace it). */
static void golden(sq_fx *f, writer w, const char *name)
{
    FILE *t = tmpfile();
    assert_non_null(t);
    assert_int_equal(w(f->map, f->m, f->nl, f->g, t), 0);
    rewind(t);
    char *got = cg_slurp_stream(t, NULL);
    fclose(t);
    char path[512];
    snprintf(path, sizeof path, "tests/mapper/golden/%s", name);
    cg_golden_check(path, got);
    free(got);
}

static void test_text(void **state)
{
    golden(*state, cg_mapping_write, "sq.txt");
}

static void test_json(void **state)
{
    golden(*state, cg_mapping_write_json, "sq.json");
}

static void test_dot(void **state)
{
    golden(*state, cg_mapping_write_dot, "sq.dot");
}

/* The PE-level picture (write_pe.c): sq's primitives lie outside any
 * block, so each is a box of its own. */
static void test_pe_dot(void **state)
{
    golden(*state, cg_mapping_write_pe_dot, "sq_pe.dot");
}

/* Each writer says when its bytes did not reach the file: /dev/full fails
 * every write, seen when the writer flushes. */
static void test_full(void **state)
{
    sq_fx *f = *state;
    const writer w[] = {cg_mapping_write, cg_mapping_write_json,
                        cg_mapping_write_dot, cg_mapping_write_pe_dot};
    for (int i = 0; i < 4; i++) {
        FILE *t = fopen("/dev/full", "w");
        assert_non_null(t);
        errno = 0;
        assert_int_equal(w[i](f->map, f->m, f->nl, f->g, t), -1);
        assert_int_equal(errno, ENOSPC);
        fclose(t);
    }
}

/* sq with 'one' as an 8-bit immediate of f0's in_b (pipe_netlist_imm). */
static int imm_setup(void **state)
{
    sq_setup(state);
    sq_fx *f = *state;
    cg_diags *d = cg_diags_create();
    cg_mapping_destroy(f->map);
    cg_mrrg_destroy(f->m);
    cg_netlist_destroy(f->nl);
    f->nl = pipe_netlist_imm(2, 8);
    f->m = cg_mrrg_build(f->nl, 1, d);
    f->map = sq_mapping(f->m, f->nl);
    f->map->place[N_ONE] = -1;
    free(f->map->route[E_ONE]);
    f->map->route[E_ONE] = NULL;
    f->map->route_len[E_ONE] = 0;
    assert_int_equal(cg_map_check(f->nl, f->m, f->g, f->map, d), 0);
    cg_diags_destroy(d);
    return 0;
}

/* The immediate: 'one' placed as such, its edge without a route, and in
 * the JSON the immediates of 'n' (pin, const, bits, value). */
static void test_text_imm(void **state)
{
    golden(*state, cg_mapping_write, "sq_imm.txt");
}

static void test_json_imm(void **state)
{
    golden(*state, cg_mapping_write_json, "sq_imm.json");
}

static void test_dot_imm(void **state)
{
    golden(*state, cg_mapping_write_dot, "sq_imm.dot");
}

/* A FUNC node, a port, a register of a register file, a bad id. */
static void test_node_names(void **state)
{
    sq_fx *f = *state;
    char b[64];
    int id = mnode(f->m, f->nl, "f1@c0");
    assert_int_equal(cg_mrrg_get_node(f->m, id)->kind, CG_MRRG_FUNC);
    id = mnode(f->m, f->nl, "f2_in_a_mux.out@c0");
    assert_int_equal(cg_mrrg_get_node(f->m, id)->kind, CG_MRRG_ROUTE);
    assert_string_equal(cg__map_node_name(f->m, f->nl, -3, b, sizeof b),
                        "#-3");
    cg_diags *d = cg_diags_create();
    int top;
    cg_arch *a = top_only(&top, d);
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_REGFILE);
    p.log2_nregs = 1;
    cg_arch_add_prim(a, top, "rf", &p, d);
    cg_netlist *nl = flatten_ok(a, d);
    d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 2, d);
    assert_non_null(m);
    int r1 = mnode(m, nl, "rf.reg1@c1");
    assert_int_equal(cg_mrrg_get_node(m, r1)->port, -1);
    assert_int_equal(mnode(m, nl, "rf.reg0@c1"), r1 - 1);
    assert_int_equal(cg_mrrg_get_node(m, mnode(m, nl, "rf.reg0@c0"))->context,
                     0);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_netlist_destroy(nl);
}

/* The picture puts four context panels in a row: at II=6 (nothing placed)
 * panel 5 is the second of the second row.  pipe's 10 primitives lie
 * outside any block: a square of 4 columns (480 points) and 3 rows (180),
 * panels 120 points apart across and 240 down; every primitive drawn,
 * faint, in every context. */
static void test_dot_panels(void **state)
{
    sq_fx *f = *state;
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(f->nl, 6, d);
    assert_non_null(m);
    cg_mapping *map = cg_mapping_create(6, f->map->nnodes, f->map->nedges);
    assert_non_null(map);
    for (int v = 0; v < map->nnodes; v++)
        map->place[v] = -1;
    FILE *t = tmpfile();
    assert_int_equal(cg_mapping_write_dot(map, m, f->nl, f->g, t), 0);
    rewind(t);
    char *got = cg_slurp_stream(t, NULL);
    fclose(t);
    assert_non_null(strstr(got, "title4 [shape=plaintext, style=\"\", "
                           "fixedsize=false, fontsize=16, fontcolor=black, "
                           "label=\"context 4\", pos=\"0,-340!\"];"));
    assert_non_null(strstr(got, "  c5_p0 [pos=\"600,-420!\", tooltip="
                           "\"f0@c5\", label=\"f0\"];\n"));
    assert_non_null(strstr(got, "  c3_p9 [pos=\"1920,-120!\""));
    assert_null(strstr(got, "c6_"));
    assert_null(strstr(got, "->"));
    assert_null(strstr(got, "fillcolor=light"));
    free(got);
    cg_mapping_destroy(map);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
}

/* The JSON of an ILP mapping at II=2 read back: one entry per context,
 * every op once in the context of its start, every mux select a valid
 * input of a mux on some route, the placements and routes complete. */
static void test_json_of_ilp_mapping(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = scale_dfg();
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    map_checked(nl, g, &r, d);
    FILE *t = tmpfile();
    assert_int_equal(cg_mapping_write_json(r.mapping, r.mrrg, nl, g, t), 0);
    rewind(t);
    char *text = cg_slurp_stream(t, NULL);
    fclose(t);
    json_error_t err;
    json_t *root = json_loads(text, 0, &err);
    assert_non_null(root);
    assert_int_equal(json_integer_value(json_object_get(root, "ii")), r.ii);
    json_t *ctx = json_object_get(root, "contexts");
    assert_int_equal(json_array_size(ctx), (size_t)r.ii);
    size_t nops = 0, i;
    json_t *c;
    json_array_foreach(ctx, i, c) {
        assert_int_equal(json_integer_value(json_object_get(c, "context")),
                         (json_int_t)i);
        json_t *ops = json_object_get(c, "ops"), *op, *mx;
        size_t j;
        json_array_foreach(ops, j, op) {
            int v = cg_dfg_find(g, json_string_value(json_object_get(op,
                                                                     "node")));
            assert_true(v >= 0);
            assert_int_equal(r.mapping->start[v] % r.ii, (int64_t)i);
            nops++;
        }
        json_array_foreach(json_object_get(c, "muxes"), j, mx) {
            int prim = cg_netlist_find_prim(
                nl, json_string_value(json_object_get(mx, "mux")));
            assert_true(prim >= 0);
            const cg_nl_prim *pr = cg_netlist_prim(nl, prim);
            assert_int_equal(pr->p.kind, CG_PRIM_MUX);
            json_int_t sel = json_integer_value(json_object_get(mx, "select"));
            assert_true(sel >= 0 && sel < pr->p.ninput);
        }
    }
    assert_int_equal(nops, (size_t)cg_dfg_nnodes(g));
    assert_int_equal(json_array_size(json_object_get(root, "placements")),
                     (size_t)cg_dfg_nnodes(g));
    assert_int_equal(json_array_size(json_object_get(root, "routes")),
                     (size_t)cg_dfg_nedges(g));
    json_decref(root);
    free(text);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_text, sq_setup, sq_teardown),
        cmocka_unit_test_setup_teardown(test_json, sq_setup, sq_teardown),
        cmocka_unit_test_setup_teardown(test_dot, sq_setup, sq_teardown),
        cmocka_unit_test_setup_teardown(test_pe_dot, sq_setup, sq_teardown),
        cmocka_unit_test_setup_teardown(test_full, sq_setup, sq_teardown),
        cmocka_unit_test_setup_teardown(test_dot_panels, sq_setup,
                                        sq_teardown),
        cmocka_unit_test_setup_teardown(test_node_names, sq_setup,
                                        sq_teardown),
        cmocka_unit_test(test_json_of_ilp_mapping),
        cmocka_unit_test_setup_teardown(test_text_imm, imm_setup,
                                        sq_teardown),
        cmocka_unit_test_setup_teardown(test_json_imm, imm_setup,
                                        sq_teardown),
        cmocka_unit_test_setup_teardown(test_dot_imm, imm_setup,
                                        sq_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
