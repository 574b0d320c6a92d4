/* test_sym.c: the spatial symmetries of an MRRG (mapper/exact/sym.c) and their
 * breaking in the full ILP model: exactly the maps the array has are
 * verified (mirrors of the default 4x4, all eight of a 3x3 without memory
 * columns and of the NSWE mesh, the up-down mirror of the ADRES-like
 * array, the four that keep a checkerboard of multipliers), maps that
 * would move a unit onto a different one (ops, banks) or change an edge
 * are rejected, mappings moved by each verified map pass the independent
 * checker, a DFG still maps with the restricted op on one unit per orbit,
 * and an infeasible II stays infeasible. */
#include "../ilp_test_util.h"

#include "../../arch/arch_test_util.h"

#include <unistd.h>

#include "mapper/exact/exact_internal.h"
#include "mapper/exact/sym_internal.h"
#include "xml/xml.h"

static cg_netlist *default_netlist(void)
{
    cg_diags *d = cg_diags_create();
    return flatten_ok(cg_arch_default(d), d);
}

static cg_netlist *mesh_with(int n, bool mem, cg_opset mul_ops)
{
    cg_diags *d = cg_diags_create();
    cg_mesh_params p;
    cg_mesh_params_init(&p);
    p.rows = p.cols = n;
    p.mem_columns = mem;
    if (mul_ops) {
        p.ops &= ~mul_ops;
        p.mul_ops = mul_ops;
    }
    return flatten_ok(cg_arch_mesh(&p, d), d);
}

/* The verified kinds of nl's MRRG at ii must be exactly those of want. */
static void expect_kinds(const cg_netlist *nl, int ii,
                         const cg__sym_kind *want, int nwant)
{
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, ii, d);
    assert_non_null(m);
    cg__sym *s = cg__sym_find(m, nl);
    assert_non_null(s);
    for (int k = 0; k < CG__SYM_COUNT; k++) {
        bool w = false;
        for (int i = 0; i < nwant; i++)
            w = w || want[i] == (cg__sym_kind)k;
        if (w != s->ok[k])
            fprintf(stderr, "kind %d: expected %d, got %d\n", k, w, s->ok[k]);
        assert_int_equal(w, s->ok[k]);
        assert_int_equal(s->ok[k] && k > 0, s->map[k] != NULL);
    }
    assert_int_equal(cg__sym_count(s), nwant - 1);
    cg__sym_destroy(s);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
}

/* The FUNC node of primitive name in context c. */
static int func_node(const cg_mrrg *m, const cg_netlist *nl,
                     const char *name, int c)
{
    int p = cg_netlist_find_prim(nl, name);
    assert_true(p >= 0);
    for (int i = 0; i < cg_mrrg_nnodes(m); i++) {
        const cg_mrrg_node *n = cg_mrrg_get_node(m, i);
        if (n->kind == CG_MRRG_FUNC && n->prim == p && n->context == c)
            return i;
    }
    fail();
    return -1;
}

/* The default 4x4 (memory columns west and east, IO ring): the mirrors
 * and the half turn; a quarter turn or transpose would put a MEMUnit on a
 * row.  Orbits of four, by context. */
static void test_default_4x4(void **state)
{
    (void)state;
    cg_netlist *nl = default_netlist();
    const cg__sym_kind want[] = {CG__SYM_ID, CG__SYM_LR, CG__SYM_UD,
                                 CG__SYM_ROT180};
    expect_kinds(nl, 1, want, 4);
    expect_kinds(nl, 2, want, 4);
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 2, d);
    cg__sym *s = cg__sym_find(m, nl);
    assert_non_null(s);
    int a = func_node(m, nl, "block_1_1.func", 1);
    const char *same[] = {"block_1_4.func", "block_4_1.func",
                          "block_4_4.func"};
    for (int i = 0; i < 3; i++)
        assert_int_equal(s->rep[func_node(m, nl, same[i], 1)], s->rep[a]);
    assert_true(s->rep[func_node(m, nl, "block_1_1.func", 0)] != s->rep[a]);
    assert_true(s->rep[func_node(m, nl, "block_1_2.func", 1)] != s->rep[a]);
    assert_true(s->rep[func_node(m, nl, "block_2_2.func", 1)] != s->rep[a]);
    /* the mirror left-right moves the west MEMUnit onto the east one */
    int w = func_node(m, nl, "block_2_1.mem", 0);
    assert_int_equal(s->map[CG__SYM_LR][w],
                     func_node(m, nl, "block_2_4.mem", 0));
    /* candidates: the 16 FuncUnits of context 0 keep one per orbit */
    int cand[16], n = 0;
    for (int r = 1; r <= 4; r++)
        for (int c = 1; c <= 4; c++) {
            char name[32];
            snprintf(name, sizeof name, "block_%d_%d.func", r, c);
            cand[n++] = func_node(m, nl, name, 0);
        }
    assert_int_equal(cg__sym_restrict(s, cand, n), 4);
    cg__sym_destroy(s);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_netlist_destroy(nl);
}

/* A 3x3 without memory columns is symmetric under all eight maps (the
 * multiplexer inputs are matched through their drivers: a quarter turn
 * sends in_n's source to in_e's). */
static void test_square_all_eight(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_with(3, false, 0);
    const cg__sym_kind want[] = {
        CG__SYM_ID,        CG__SYM_LR,   CG__SYM_UD,    CG__SYM_ROT180,
        CG__SYM_TRANSPOSE, CG__SYM_ANTI, CG__SYM_ROT90, CG__SYM_ROT270};
    expect_kinds(nl, 1, want, 8);
    cg_netlist_destroy(nl);
}

static cg_netlist *xml_netlist(const char *path)
{
    cg_diags *d = cg_diags_create();
    return flatten_ok(cg_xml_read(path, NULL, d), d);
}

/* Shipped XML arrays.  The NSWE mesh has no IO ring: the PEs of the edges
 * have unconnected multiplexer inputs, which match among themselves, and
 * all eight maps hold.  ADRES-like: register files (their registers map by
 * index), MEMUnits on the west column only: just the up-down mirror. */
static void test_shipped_xml(void **state)
{
    (void)state;
    const cg__sym_kind all[] = {
        CG__SYM_ID,        CG__SYM_LR,   CG__SYM_UD,    CG__SYM_ROT180,
        CG__SYM_TRANSPOSE, CG__SYM_ANTI, CG__SYM_ROT90, CG__SYM_ROT270};
    const cg__sym_kind ud[] = {CG__SYM_ID, CG__SYM_UD};
    cg_netlist *nl = xml_netlist("benchmarks/archs/nswe_mesh.xml");
    expect_kinds(nl, 2, all, 8);
    cg_netlist_destroy(nl);
    nl = xml_netlist("benchmarks/archs/adres_4x4.xml");
    expect_kinds(nl, 2, ud, 2);
    cg_netlist_destroy(nl);
}

/* Multipliers on a checkerboard ((row + col) even) of a 4x4: a mirror or a
 * quarter turn moves a multiplier onto an adder-only PE and is rejected;
 * the half turn and both transposes keep the board. */
static void test_checkerboard_rejected(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_with(4, false, CG_OPSET(CG_OP_MUL));
    const cg__sym_kind want[] = {CG__SYM_ID, CG__SYM_ROT180,
                                 CG__SYM_TRANSPOSE, CG__SYM_ANTI};
    expect_kinds(nl, 1, want, 4);
    cg_netlist_destroy(nl);
}

/* A 1x2 row of blocks, each a MEMUnit (bank bl, br) whose address and
 * data come from the other block or a constant, its load going out through
 * a register; an IO io in each, whose input only the east block's
 * constant drives when extra. */
static cg_netlist *row_of(int bl, int br, bool extra)
{
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    cg_arch_add_memory(a, "spm", 64, 2, 2, d);
    const char *mods[] = {"left", "right"};
    int banks[] = {bl, br};
    for (int i = 0; i < 2; i++) {
        int m = cg_arch_module_define(a, mods[i], d);
        cg_arch_add_port(a, m, "in", CG_DIR_IN, 32, d);
        cg_arch_add_port(a, m, "out", CG_DIR_OUT, 32, d);
        cg_prim_params p;
        cg_prim_params_init(&p, CG_PRIM_MEM);
        p.bank = banks[i];
        cg_arch_add_prim(a, m, "mem", &p, d);
        cg_prim_params_init(&p, CG_PRIM_CONST);
        cg_arch_add_prim(a, m, "k", &p, d);
        cg_prim_params_init(&p, CG_PRIM_REG);
        cg_arch_add_prim(a, m, "reg", &p, d);
        const char *srcs[] = {"this.in", "k.out"};
        cg_arch_connect_select(a, m, srcs, 2, "mem.addr", d);
        cg_arch_connect_select(a, m, srcs, 2, "mem.data_in", d);
        cg_prim_params_init(&p, CG_PRIM_IO);
        cg_arch_add_prim(a, m, "io", &p, d);
        cg_arch_connect(a, m, "mem.data_out", "reg.in", d);
        cg_arch_connect(a, m, "reg.out", "this.out", d);
        if (i && extra)
            cg_arch_connect(a, m, "k.out", "io.in", d);
    }
    int top = cg_arch_module_define(a, "architecture", d);
    cg_arch_set_top(a, top);
    cg_arch_set_grid(a, 1, 2);
    int l = cg_arch_add_submodule(a, top, "block_0_0", "left", d);
    int r = cg_arch_add_submodule(a, top, "block_0_1", "right", d);
    cg_arch_set_position(a, top, l, 0, 0);
    cg_arch_set_position(a, top, r, 0, 1);
    cg_arch_connect(a, top, "block_0_0.out", "block_0_1.in", d);
    cg_arch_connect(a, top, "block_0_1.out", "block_0_0.in", d);
    return flatten_ok(a, d);
}

static cg_netlist *bank_row(int bl, int br)
{
    return row_of(bl, br, false);
}

/* Banks matter: with both MEMUnits reaching every bank the mirror is kept,
 * with bank 0 west and bank 1 east it is rejected (a load of bank 1 fits
 * only the east one).  The up-down mirror of a one-row box is the
 * identity on positions and stays. */
static void test_banks_rejected(void **state)
{
    (void)state;
    const cg__sym_kind both[] = {CG__SYM_ID, CG__SYM_LR, CG__SYM_UD,
                                 CG__SYM_ROT180};
    const cg__sym_kind split[] = {CG__SYM_ID, CG__SYM_UD};
    cg_netlist *nl = bank_row(-1, -1);
    expect_kinds(nl, 2, both, 4);
    cg_netlist_destroy(nl);
    nl = bank_row(0, 1);
    expect_kinds(nl, 2, split, 2);
    cg_netlist_destroy(nl);
    nl = bank_row(1, 1);
    expect_kinds(nl, 2, both, 4);
    cg_netlist_destroy(nl);
}

/* Same units, same names, same multiplexers, but one more wire in the
 * east block: the node map exists and the edge check rejects it. */
static void test_edges_rejected(void **state)
{
    (void)state;
    const cg__sym_kind id[] = {CG__SYM_ID, CG__SYM_UD};
    cg_netlist *nl = row_of(-1, -1, true);
    expect_kinds(nl, 2, id, 2);
    cg_netlist_destroy(nl);
}

/* o = (a + b) * c: the add (node 0) has the most candidates (ties go to
 * the lowest id). */
static cg_dfg *mac(void)
{
    cg_dfg *g = cg_dfg_create("mac");
    int s = dfg_node(g, CG_OP_ADD, "s");
    int a = dfg_node(g, CG_OP_INPUT, "a"), b = dfg_node(g, CG_OP_INPUT, "b");
    int c = dfg_node(g, CG_OP_INPUT, "c"), p = dfg_node(g, CG_OP_MUL, "p");
    int o = dfg_node(g, CG_OP_OUTPUT, "o");
    cg_dfg_add_edge(g, a, s, 0, 0, -1);
    cg_dfg_add_edge(g, b, s, 1, 0, -1);
    cg_dfg_add_edge(g, s, p, 0, 0, -1);
    cg_dfg_add_edge(g, c, p, 1, 0, -1);
    cg_dfg_add_edge(g, p, o, 0, 0, -1);
    return g;
}

/* Number of distinct columns F_<v>_* in an LP file's Generals section. */
static int count_f(const char *path, int v)
{
    char *text = cg_slurp(path, NULL);
    assert_non_null(text);
    char pre[16];
    snprintf(pre, sizeof pre, " F_%d_", v);
    const char *at = strstr(text, "Generals");
    assert_non_null(at);
    int n = 0;
    while ((at = strstr(at, pre)) != NULL) {
        n++;
        at++;
    }
    free(text);
    return n;
}

/* Solve g on nl at ii, full model, symmetries broken or not; the LP goes
 * to lp when given.  Checked by the library's checker and the tests'. */
static cg_ii_outcome solve_full(const cg_netlist *nl, const cg_dfg *g, int ii,
                                bool sym, const char *lp)
{
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, ii, d);
    cg__kgraph *k = cg__kgraph_build(m, nl);
    assert_non_null(k);
    assert_non_null(k->sym);
    if (!sym) {
        cg__sym_destroy(k->sym);
        k->sym = NULL;
    }
    cg__ilp_opts o = {NULL, 0, 60, lp, false, CG_SOLVER_GLPK, 0, 0, NULL, NULL};
    cg__ilp_out out;
    assert_int_equal(cg__ilp_solve(k, nl, g, &o, &out, d), 0);
    if (out.outcome == CG_II_MAPPED) {
        assert_int_equal(cg_map_check(nl, m, g, out.mapping, d), 0);
        verify_mapping(nl, m, g, out.mapping);
    }
    cg_mapping_destroy(out.mapping);
    cg__kgraph_destroy(k);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    return out.outcome;
}

/* The full model on the default 4x4 at II=1 maps with and without the
 * symmetries broken; broken, the add keeps 4 of its 16 FuncUnits. */
static void test_full_model_maps(void **state)
{
    (void)state;
    cg_netlist *nl = default_netlist();
    cg_dfg *g = mac();
    char path[] = "/tmp/cg_test_sym_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(solve_full(nl, g, 1, false, path), CG_II_MAPPED);
    assert_int_equal(count_f(path, 0), 16);
    assert_int_equal(count_f(path, 1), 16); /* 16 IOs */
    assert_int_equal(solve_full(nl, g, 1, true, path), CG_II_MAPPED);
    assert_int_equal(count_f(path, 0), 4);
    assert_int_equal(count_f(path, 1), 16); /* one op only */
    remove(path);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* End to end: cg_map maps mac at its MII on the default 4x4, checked. */
static void test_map_end_to_end(void **state)
{
    (void)state;
    cg_netlist *nl = default_netlist();
    cg_dfg *g = mac();
    cg_map_params p;
    cg_map_params_init(&p);
    p.timeout_s = 30;
    cg_map_result res;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_map(nl, g, &p, &res, d), 0);
    assert_int_equal(res.status, CG_MAP_MAPPED);
    assert_int_equal(res.ii, 1);
    assert_int_equal(cg_map_check(nl, res.mrrg, g, res.mapping, d), 0);
    cg_map_result_free(&res);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The image of map under the node map nm. */
static cg_mapping *image(const cg_mapping *map, const int *nm)
{
    cg_mapping *out = cg_mapping_create(map->ii, map->nnodes, map->nedges);
    assert_non_null(out);
    for (int v = 0; v < map->nnodes; v++) {
        out->place[v] = nm[map->place[v]];
        out->start[v] = map->start[v];
    }
    for (int e = 0; e < map->nedges; e++) {
        out->route_len[e] = map->route_len[e];
        out->route[e] = malloc(sizeof(int) * ((size_t)map->route_len[e] + 1));
        assert_non_null(out->route[e]);
        for (int i = 0; i < map->route_len[e]; i++)
            out->route[e][i] = nm[map->route[e][i]];
    }
    return out;
}

/* Map g on nl (cg_map), then move the mapping by every verified map: the
 * independent checker must accept each image (and does not accept a
 * mapping whose op moved alone).  Returns how many images were checked. */
static int check_images(const cg_netlist *nl, const cg_dfg *g, int ii)
{
    cg_map_params p;
    cg_map_params_init(&p);
    p.timeout_s = 20;
    p.max_ii = ii;
    cg_map_result res;
    cg_diags *d = cg_diags_create();
    int mrc = cg_map(nl, g, &p, &res, d);
    if (mrc != 0)
        cg_diags_print(d, stderr);
    assert_int_equal(mrc, 0);
    assert_int_equal(res.status, CG_MAP_MAPPED);
    cg__sym *s = cg__sym_find(res.mrrg, nl);
    assert_non_null(s);
    int n = 0;
    for (int k = 1; k < CG__SYM_COUNT; k++) {
        if (!s->ok[k])
            continue;
        cg_mapping *im = image(res.mapping, s->map[k]);
        int rc = cg_map_check(nl, res.mrrg, g, im, d);
        if (rc != 0)
            cg_diags_print(d, stderr);
        assert_int_equal(rc, 0);
        /* sanity: op 0 put back alone (its routes moved) is rejected */
        if (im->place[0] != res.mapping->place[0]) {
            im->place[0] = res.mapping->place[0];
            assert_int_equal(cg_map_check(nl, res.mrrg, g, im, d), -1);
        }
        cg_mapping_destroy(im);
        n++;
    }
    cg__sym_destroy(s);
    cg_map_result_free(&res);
    cg_diags_destroy(d);
    return n;
}

/* o = load(a) + 7 stored back at a, and o out; on bank 1 when banked. */
static cg_dfg *load_add_store(void)
{
    cg_dfg *g = cg_dfg_create("las");
    int a = dfg_node(g, CG_OP_INPUT, "a"), l = dfg_node(g, CG_OP_LOAD, "l");
    int k = dfg_node(g, CG_OP_CONST, "k"), s = dfg_node(g, CG_OP_ADD, "s");
    int st = dfg_node(g, CG_OP_STORE, "st");
    int o = dfg_node(g, CG_OP_OUTPUT, "o");
    cg_dfg_node_mut(g, l)->bank = 1;
    cg_dfg_node_mut(g, st)->bank = 1;
    cg_dfg_add_edge(g, a, l, 0, 0, -1);
    cg_dfg_add_edge(g, l, s, 0, 0, -1);
    cg_dfg_add_edge(g, k, s, 1, 0, -1);
    cg_dfg_add_edge(g, a, st, 0, 0, -1);
    cg_dfg_add_edge(g, s, st, 1, 0, -1);
    cg_dfg_add_edge(g, s, o, 0, 0, -1);
    return g;
}

/* The symmetries are automorphisms as the checker sees them: mappings on
 * the default 4x4 (loads and stores too), the 3x3 and the NSWE mesh moved
 * by each verified map still pass cg_map_check. */
static void test_images_check(void **state)
{
    (void)state;
    cg_netlist *nl = default_netlist();
    cg_dfg *g = mac(), *h = load_add_store();
    assert_int_equal(check_images(nl, g, 2), 3);
    assert_int_equal(check_images(nl, h, 2), 3);
    cg_netlist_destroy(nl);
    nl = mesh_with(3, false, 0);
    assert_int_equal(check_images(nl, g, 2), 7);
    cg_netlist_destroy(nl);
    nl = xml_netlist("benchmarks/archs/nswe_mesh.xml");
    cg_dfg *adds = cg_dfg_create("adds");
    int a = dfg_node(adds, CG_OP_ADD, "a"), b = dfg_node(adds, CG_OP_SUB, "b");
    int c = dfg_node(adds, CG_OP_MUL, "c");
    cg_dfg_add_edge(adds, a, b, 0, 0, -1);
    cg_dfg_add_edge(adds, a, b, 1, 0, -1);
    cg_dfg_add_edge(adds, b, c, 0, 0, -1);
    cg_dfg_add_edge(adds, b, c, 1, 0, -1);
    cg_dfg_add_edge(adds, c, a, 0, 1, -1);
    cg_dfg_add_edge(adds, c, a, 1, 1, -1);
    assert_int_equal(check_images(nl, adds, 4), 7);
    cg_netlist_destroy(nl);
    cg_dfg_destroy(adds);
    cg_dfg_destroy(g);
    cg_dfg_destroy(h);
}

/* Four adds in a recurrence of distance 1 on the 2x2 (every PE with a
 * MEMUnit: all eight maps): every hop takes a cycle through a register, so
 * the ring needs II=4; II=3 is proven infeasible with the symmetries
 * broken or not, and II=4 maps either way. */
static void test_infeasible_stays(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_with(2, true, 0);
    cg_dfg *g = cg_dfg_create("ring");
    int first = dfg_node(g, CG_OP_ADD, NULL), prev = first;
    for (int i = 0; i < 3; i++) {
        int v = dfg_node(g, CG_OP_ADD, NULL);
        cg_dfg_add_edge(g, prev, v, 0, 0, -1);
        cg_dfg_add_edge(g, prev, v, 1, 0, -1);
        prev = v;
    }
    cg_dfg_add_edge(g, prev, first, 0, 1, -1);
    cg_dfg_add_edge(g, prev, first, 1, 1, -1);
    for (int sym = 0; sym <= 1; sym++)
        assert_int_equal(solve_full(nl, g, 3, sym, NULL), CG_II_INFEASIBLE);
    for (int sym = 0; sym <= 1; sym++)
        assert_int_equal(solve_full(nl, g, 4, sym, NULL), CG_II_MAPPED);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_4x4),
        cmocka_unit_test(test_square_all_eight),
        cmocka_unit_test(test_shipped_xml),
        cmocka_unit_test(test_checkerboard_rejected),
        cmocka_unit_test(test_banks_rejected),
        cmocka_unit_test(test_edges_rejected),
        cmocka_unit_test(test_full_model_maps),
        cmocka_unit_test(test_map_end_to_end),
        cmocka_unit_test(test_images_check),
        cmocka_unit_test(test_infeasible_stays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
