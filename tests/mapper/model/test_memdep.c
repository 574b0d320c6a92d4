/* test_memdep.c: the memory order (mapper/model/memdep.c) and its use by the
 * MII and the ILP: the exact ordering edges of a histogram without a nest
 * (every pair with a store), with one (different arrays never alias) and
 * with banks (different banks never alias),
 * a stated order (a .dot's memory_order) taken as it is,
 * of affine accesses (the distance where the bytes overlap, widths, a
 * negative step, a stride of 0, outer counters); RecMII of a histogram
 * counts load -> add -> store -> next load; the histogram maps at that II
 * and simulates byte-identically to the interpreter while an II=1 schedule
 * (what the mapper found before) does not; a copy between two arrays gets
 * no ordering edge and keeps II=1; the checker rejects a hand-made
 * mapping that breaks the order across iterations; a DFG whose data flow
 * contradicts its memory order is an error. */
#include "../map_fixture.h"

/* A nest of one loop (counter = start + step*k) over two arrays; access i
 * is {node, is_store, array, affine, cst, coef of the loop}. */
static void set_nest(cg_dfg *g, int64_t start, int64_t step,
                     const int64_t (*acc)[6], int n)
{
    cg_nest *nest = calloc(1, sizeof *nest);
    nest->nloops = 1;
    nest->loops[0] = (cg_nest_loop){NULL, 0, start, step, -1, NULL, false};
    nest->narrays = 2;
    nest->arrays = calloc(2, sizeof *nest->arrays);
    nest->naccesses = n;
    nest->accesses = calloc((size_t)n, sizeof *nest->accesses);
    for (int i = 0; i < n; i++) {
        cg_nest_access *a = &nest->accesses[i];
        a->node = (int)acc[i][0];
        a->is_store = acc[i][1] != 0;
        a->array = (int)acc[i][2];
        a->index.is_affine = acc[i][3] != 0;
        a->index.cst = acc[i][4];
        a->index.coef[0] = acc[i][5];
    }
    cg_dfg_set_nest(g, nest);
}

/* The ordering edges of g as "first->then/d" words, blank-separated. */
static char *orders(const cg_dfg *g)
{
    cg_mem_order *o;
    int n = cg_map_mem_orders(g, &o);
    assert_true(n >= 0);
    char *s = calloc(1, 32 * (size_t)n + 1);
    for (int i = 0; i < n; i++) {
        assert_int_equal(o[i].latency, 0);
        sprintf(s + strlen(s), "%s%s->%s/%d", i ? " " : "",
                cg_dfg_get_node(g, o[i].first)->name,
                cg_dfg_get_node(g, o[i].then)->name, o[i].distance);
    }
    free(o);
    return s;
}

static void expect_orders(const cg_dfg *g, const char *want)
{
    char *s = orders(g);
    assert_string_equal(s, want);
    free(s);
}

/* hist: i = i' + 4 (i = 64 at first), x = load32(i) (the data),
 * a = x & 12 (a bin of 4 bytes at 0..15), h = load32(a), h1 = h + 1,
 * store32(a, h1). */
enum { H_C4, H_C60, H_I, H_X, H_C12, H_A, H_H, H_ONE, H_H1, H_ST };
static cg_dfg *hist_dfg(void)
{
    cg_dfg *g = cg_dfg_create("hist");
    static const struct { cg_op op; const char *name; int64_t v; } n[] = {
        {CG_OP_CONST, "c4", 4},    {CG_OP_CONST, "c60", 60},
        {CG_OP_ADD, "i", 0},       {CG_OP_LOAD, "x", 0},
        {CG_OP_CONST, "c12", 12},  {CG_OP_AND, "a", 0},
        {CG_OP_LOAD, "h", 0},      {CG_OP_CONST, "one", 1},
        {CG_OP_ADD, "h1", 0},      {CG_OP_STORE, "st", 0}};
    for (size_t i = 0; i < sizeof n / sizeof *n; i++) {
        int id = dfg_node(g, n[i].op, n[i].name);
        if (n[i].op == CG_OP_CONST)
            cg_dfg_set_value(g, id, n[i].v);
    }
    cg_dfg_add_edge(g, H_I, H_I, 0, 1, H_C60);
    const int e[][4] = {
        {H_C4, H_I, 1, 0}, {H_I, H_X, 0, 0}, {H_X, H_A, 0, 0},
        {H_C12, H_A, 1, 0}, {H_A, H_H, 0, 0}, {H_H, H_H1, 0, 0},
        {H_ONE, H_H1, 1, 0}, {H_A, H_ST, 0, 0}, {H_H1, H_ST, 1, 0}};
    return checked(g, e, sizeof e / sizeof e[0]);
}

/* Without a nest any two accesses may alias: x with st too. */
static void test_no_nest_orders_every_pair(void **state)
{
    (void)state;
    cg_dfg *g = hist_dfg();
    expect_orders(g, "x->st/0 x->st/1 st->x/1 h->st/0 h->st/1 st->h/1 "
                     "st->st/1");
    cg_dfg_destroy(g);
}

/* A stated order (what a .dot from `cgramap dfg` carries) is the order,
 * nest or not; stating none again derives it; the RecMII follows. */
static void test_stated_order(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = hist_dfg();
    cg_diags *d = cg_diags_create();
    const cg_mem_order o[] = {{H_H, H_ST, 0, 0}, {H_ST, H_H, 1, 0}};
    assert_int_equal(cg_dfg_set_mem_order(g, o, 2, d), 0);
    expect_orders(g, "h->st/0 st->h/1");
    cg_mii mii;
    assert_int_equal(cg_mii_compute(nl, g, &mii, d), 0);
    assert_int_equal(mii.rec_mii, 2); /* 4 without the statement */
    assert_int_equal(cg_dfg_set_mem_order(g, NULL, 0, d), 0);
    expect_orders(g, "");
    cg_dfg_clear_mem_order(g);
    expect_orders(g, "x->st/0 x->st/1 st->x/1 h->st/0 h->st/1 st->h/1 "
                     "st->st/1");
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The data (array 0, affine) never aliases the bins (array 1, indirect). */
static void test_nest_separates_arrays(void **state)
{
    (void)state;
    cg_dfg *g = hist_dfg();
    const int64_t acc[][6] = {
        {H_X, 0, 0, 1, 0, 4}, {H_H, 0, 1, 0, 0, 0}, {H_ST, 1, 1, 0, 0, 0}};
    set_nest(g, 0, 1, acc, 3);
    expect_orders(g, "h->st/0 h->st/1 st->h/1 st->st/1");
    cg_dfg_destroy(g);
}

/* Two banks hold disjoint bytes: no order between h and st, even without
 * a nest; in one bank, or with one of them in any bank, they are kept. */
static void test_banks_separate(void **state)
{
    (void)state;
    cg_dfg *g = hist_dfg();
    cg_dfg_node_mut(g, H_X)->bank = 0;
    cg_dfg_node_mut(g, H_H)->bank = 1;
    cg_dfg_node_mut(g, H_ST)->bank = 0;
    expect_orders(g, "x->st/0 x->st/1 st->x/1 st->st/1");
    cg_dfg_node_mut(g, H_X)->bank = -1;
    cg_dfg_node_mut(g, H_H)->bank = 0;
    expect_orders(g, "x->st/0 x->st/1 st->x/1 h->st/0 h->st/1 st->h/1 "
                     "st->st/1");
    cg_dfg_destroy(g);
}

/* ld = load(off_ld), st = store(off_st) on array 0, offsets affine in the
 * counter; ld is node 1, st node 2 (program order ld, st). */
static cg_dfg *pair_dfg(int ld_bits, int64_t ld_cst, int64_t st_cst,
                        int64_t coef, int64_t start, int64_t step)
{
    cg_dfg *g = cg_dfg_create("pair");
    int p = dfg_node(g, CG_OP_INPUT, "p");
    int ld = cg_dfg_add_node(g, CG_OP_LOAD, ld_bits, "ld");
    int st = dfg_node(g, CG_OP_STORE, "st");
    int w = dfg_node(g, CG_OP_INPUT, "w");
    cg_dfg_add_edge(g, p, ld, 0, 0, -1);
    cg_dfg_add_edge(g, p, st, 0, 0, -1);
    cg_dfg_add_edge(g, w, st, 1, 0, -1);
    const int64_t acc[][6] = {{ld, 0, 0, 1, ld_cst, coef},
                              {st, 1, 0, 1, st_cst, coef}};
    set_nest(g, start, step, acc, 2);
    return g;
}

static void expect_pair(int ld_bits, int64_t ld_cst, int64_t st_cst,
                        int64_t coef, int64_t start, int64_t step,
                        const char *want)
{
    cg_dfg *g = pair_dfg(ld_bits, ld_cst, st_cst, coef, start, step);
    expect_orders(g, want);
    cg_dfg_destroy(g);
}

static void test_affine_distances(void **state)
{
    (void)state;
    /* a[i+1] = ...a[i]: the store feeds the next iteration's load */
    expect_pair(32, 0, 4, 4, 0, 1, "st->ld/1");
    /* a[i] = ...a[i+2]: the load must precede the store two later */
    expect_pair(32, 8, 0, 4, 0, 1, "ld->st/2");
    /* a[i] = ...a[i]: same iteration only (program order) */
    expect_pair(32, 0, 0, 4, 0, 1, "ld->st/0");
    /* byte 3 of the word stored in the same iteration, never another */
    expect_pair(8, 3, 0, 4, 0, 1, "ld->st/0");
    /* byte 4 is the word the next iteration stores: read it first */
    expect_pair(8, 4, 0, 4, 0, 1, "ld->st/1");
    /* counting down: store a[i-1], load a[i] */
    expect_pair(32, 0, -4, 4, 10, -1, "st->ld/1");
    /* a scalar in memory: every distance, so the least one */
    expect_pair(32, 0, 0, 0, 0, 1, "ld->st/0 ld->st/1 st->ld/1 st->st/1");
    /* step 3 words apart, offsets 6 words apart: distance 2 */
    expect_pair(32, 24, 0, 4, 0, 3, "ld->st/2");
}

/* What the nest cannot settle is ordered at every distance. */
static void test_unknown_is_conservative(void **state)
{
    (void)state;
    cg_dfg *g = pair_dfg(32, 0, 4, 4, 0, 1);
    cg_nest *n = (cg_nest *)cg_dfg_nest(g);
    /* the store moves at another rate (and never meets itself) */
    n->accesses[1].index.coef[0] = 8;
    expect_orders(g, "ld->st/0 ld->st/1 st->ld/1");
    n->accesses[1].index.coef[0] = 4;
    n->accesses[0].array = -1; /* unknown array */
    expect_orders(g, "ld->st/0 ld->st/1 st->ld/1");
    n->accesses[0].array = 0;
    n->nloops = 2; /* loop 0 is now an outer loop: coefs differ there */
    n->loops[1] = n->loops[0];
    n->accesses[1].index.coef[1] = 4;
    n->accesses[0].index.coef[1] = 4;
    n->accesses[1].index.coef[0] = 16;
    expect_orders(g, "ld->st/0 ld->st/1 st->ld/1");
    cg_dfg_destroy(g);
}

/* The nest the extractor would record: the data (array 0, affine) and
 * the bins (array 1, indirect). */
static void hist_nest(cg_dfg *g)
{
    const int64_t acc[][6] = {
        {H_X, 0, 0, 1, 0, 4}, {H_H, 0, 1, 0, 0, 0}, {H_ST, 1, 1, 0, 0, 0}};
    set_nest(g, 0, 1, acc, 3);
}

static void test_rec_mii_histogram(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = hist_dfg();
    cg_mii mii;
    cg_diags *d = cg_diags_create();
    /* no nest: st -> next x closes x -> a -> h -> h1 -> st, one register
     * hop each: 4 */
    assert_int_equal(cg_mii_compute(nl, g, &mii, d), 0);
    assert_int_equal(mii.rec_mii, 4);
    /* with it: h -> h1 -> st -> next h: 2 */
    hist_nest(g);
    assert_int_equal(cg_mii_compute(nl, g, &mii, d), 0);
    assert_int_equal(mii.rec_mii, 2);
    assert_int_equal(mii.res_mii, 1);
    assert_int_equal(mii.mii, 2);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

enum { HBYTES = 128, HITERS = 8 };

/* Memory: four zero bins at 0..15, the data words at 64.. (bins 0, 0, 4,
 * 4, 4, 12, 0, 8: the same bin in consecutive iterations). */
static void hist_memory(uint8_t *m)
{
    static const uint32_t data[HITERS] = {0, 0x10, 4, 4, 0x24, 12, 0, 8};
    memset(m, 0, HBYTES);
    memcpy(m + 64, data, sizeof data); /* little-endian host */
}

/* Simulate a mapping of g and compare with the interpreter; the first
 * differing byte's offset, -1 when identical. */
static int sim_vs_interp(const cg_netlist *nl, const cg_mrrg *mrrg,
                         const cg_dfg *g, const cg_mapping *map)
{
    uint8_t got[HBYTES], want[HBYTES];
    hist_memory(got);
    hist_memory(want);
    cg_diags *d = cg_diags_create();
    cg_mem mg = {got, 0, HBYTES}, mw = {want, 0, HBYTES};
    assert_int_equal(cg_dfg_run(g, HITERS, &mw, NULL, NULL, d), 0);
    assert_int_equal(cg_sim_run(nl, mrrg, g, map, HITERS, &mg, NULL, NULL,
                                d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
    for (int b = 0; b < HBYTES; b++)
        if (got[b] != want[b])
            return b;
    return -1;
}

static void test_histogram_maps_and_simulates(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(3, 3);
    cg_dfg *g = hist_dfg();
    hist_nest(g);
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    map_checked(nl, g, &r, d);
    assert_int_equal(r.ii, 2);
    assert_int_equal(r.mii.rec_mii, 2);
    assert_int_equal(sim_vs_interp(nl, r.mrrg, g, r.mapping), -1);
    /* the interpreter's bins: 0 three times, 4 three times, 8 and 12 once */
    uint8_t want[HBYTES];
    hist_memory(want);
    cg_mem mw = {want, 0, HBYTES};
    assert_int_equal(cg_dfg_run(g, HITERS, &mw, NULL, NULL, d), 0);
    const uint32_t bins[4] = {3, 3, 1, 1};
    assert_memory_equal(want, bins, sizeof bins);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The mapping of a histogram whose nest lies (h and st on different
 * arrays, so no ordering edge between them) keeps h -> h1 -> st at 2
 * cycles with II=1, as the mapper did before it knew memory order: the
 * checker rejects it for the true histogram and it simulates wrongly. */
static void test_ignoring_order_is_wrong(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(3, 3);
    cg_dfg *g = hist_dfg(), *bare = hist_dfg();
    hist_nest(g);
    const int64_t lie[][6] = {
        {H_X, 0, 0, 1, 0, 4}, {H_H, 0, 0, 0, 0, 0}, {H_ST, 1, 1, 0, 0, 0}};
    set_nest(bare, 0, 1, lie, 3);
    expect_orders(bare, "st->st/1");
    cg_map_result r;
    cg_diags *d = cg_diags_create();
    map_checked(nl, bare, &r, d);
    assert_int_equal(r.mii.rec_mii, 1);
    assert_int_equal(r.ii, 1);
    /* h -> h1 -> st takes 2 cycles > II: the next h reads a stale bin */
    assert_true(r.mapping->start[H_ST] - r.mapping->start[H_H] > 1);
    assert_true(sim_vs_interp(nl, r.mrrg, g, r.mapping) >= 0);
    cg_diags *cd = cg_diags_create();
    assert_int_equal(cg_map_check(nl, r.mrrg, g, r.mapping, cd), -1);
    char *s = diag_text(cd);
    assert_non_null(strstr(s, "memory order: 'h' (load) must take effect "
                              "after 'st' (store) 1 iteration earlier"));
    free(s);
    cg_diags_destroy(cd);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(bare);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* copy: i = i' + 4 (64 at first), y = load32(i), z = y * 3,
 * store32(i + 32, z): a[k] to b[k] (64.. to 96..).  With the nest (two arrays) no edge
 * and II=1; without it st -> next y closes y -> z -> st: RecMII 2. */
enum { C_C4, C_C60, C_I, C_Y, C_K, C_Z, C_B, C_AD, C_ST };
static cg_dfg *copy_dfg(bool with_nest)
{
    cg_dfg *g = cg_dfg_create("copy");
    static const struct { cg_op op; const char *name; int64_t v; } n[] = {
        {CG_OP_CONST, "c4", 4},  {CG_OP_CONST, "c60", 60},
        {CG_OP_ADD, "i", 0},     {CG_OP_LOAD, "y", 0},
        {CG_OP_CONST, "k", 3},   {CG_OP_MUL, "z", 0},
        {CG_OP_CONST, "b", 32},  {CG_OP_ADD, "ad", 0},
        {CG_OP_STORE, "st", 0}};
    for (size_t i = 0; i < sizeof n / sizeof *n; i++) {
        int id = dfg_node(g, n[i].op, n[i].name);
        if (n[i].op == CG_OP_CONST)
            cg_dfg_set_value(g, id, n[i].v);
    }
    cg_dfg_add_edge(g, C_I, C_I, 0, 1, C_C60);
    const int e[][4] = {
        {C_C4, C_I, 1, 0}, {C_I, C_Y, 0, 0}, {C_Y, C_Z, 0, 0},
        {C_K, C_Z, 1, 0}, {C_I, C_AD, 0, 0}, {C_B, C_AD, 1, 0},
        {C_AD, C_ST, 0, 0}, {C_Z, C_ST, 1, 0}};
    checked(g, e, sizeof e / sizeof e[0]);
    if (with_nest) {
        const int64_t acc[][6] = {{C_Y, 0, 0, 1, 0, 4},
                                  {C_ST, 1, 1, 1, 0, 4}};
        set_nest(g, 0, 1, acc, 2);
    }
    return g;
}

static void test_different_arrays_keep_ii(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(3, 3);
    cg_dfg *g = copy_dfg(true), *bare = copy_dfg(false);
    expect_orders(g, "");
    expect_orders(bare, "y->st/0 y->st/1 st->y/1 st->st/1");
    cg_mii mii;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_mii_compute(nl, bare, &mii, d), 0);
    assert_int_equal(mii.rec_mii, 2);
    assert_int_equal(cg_mii_compute(nl, g, &mii, d), 0);
    assert_int_equal(mii.rec_mii, 1);
    cg_map_result r;
    map_checked(nl, g, &r, d);
    assert_int_equal(r.ii, 1);
    assert_int_equal(sim_vs_interp(nl, r.mrrg, g, r.mapping), -1);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
    cg_dfg_destroy(bare);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* ord on duo: ld = load32(16) on m0, st = store32(16, ld) on m1, the
 * value through r0 and r1; by hand at II=1 with ld at 0 and st at 2, so
 * the load of the next iteration runs before this store. */
static cg_mapping *ord_mapping(const cg_mrrg *m, const cg_netlist *nl,
                               cg_dfg **gp)
{
    cg_dfg *g = cg_dfg_create("ord");
    int k0 = dfg_node(g, CG_OP_CONST, "k0c"), ld = dfg_node(g, CG_OP_LOAD, "ld");
    int k1 = dfg_node(g, CG_OP_CONST, "k1c"), st = dfg_node(g, CG_OP_STORE, "st");
    const int e[][4] = {{k0, ld, 0, 0}, {k1, st, 0, 0}, {ld, st, 1, 0}};
    *gp = checked(g, e, 3);
    cg_mapping *map = cg_mapping_create(1, 4, 3);
    const char *unit[] = {"k0@c0", "m0@c0", "k1@c0", "m1@c0"};
    const int64_t start[] = {0, 0, 2, 2};
    for (int v = 0; v < 4; v++) {
        map->place[v] = mnode(m, nl, unit[v]);
        map->start[v] = start[v];
    }
    set_route(map, m, nl, 0, "k0.out@c0 m0_addr_mux.in0@c0 "
              "m0_addr_mux.out@c0 m0.addr@c0");
    set_route(map, m, nl, 1, "k1.out@c0 m1_addr_mux.in1@c0 "
              "m1_addr_mux.out@c0 m1.addr@c0");
    set_route(map, m, nl, 2, "m0.data_out@c0 r0.in@c0 r0.out@c0 r1.in@c0 "
              "r1.out@c0 m1.data_in@c0");
    return map;
}

static void test_checker_rejects_order(void **state)
{
    (void)state;
    cg_netlist *nl = duo_netlist();
    cg_diags *d = cg_diags_create();
    cg_mrrg *m = cg_mrrg_build(nl, 1, d);
    cg_dfg *g;
    cg_mapping *map = ord_mapping(m, nl, &g);
    assert_int_equal(cg_map_check(nl, m, g, map, d), -1);
    char *s = diag_text(d);
    assert_string_equal(s, "error: memory order: 'ld' (load) must take "
                        "effect after 'st' (store) 1 iteration earlier (they "
                        "may access the same bytes): start('ld') + 1*II >= "
                        "start('st') + 0 does not hold (1 < 2)\n");
    free(s);
    /* the rest of the mapping is right: with ld and st on two arrays it
     * passes */
    const int64_t acc[][6] = {{1, 0, 0, 1, 16, 0}, {3, 1, 1, 1, 16, 0}};
    set_nest(g, 0, 1, acc, 2);
    cg_diags_destroy(d);
    d = cg_diags_create();
    assert_int_equal(cg_map_check(nl, m, g, map, d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    cg_mapping_destroy(map);
    cg_dfg_destroy(g);
    cg_mrrg_destroy(m);
    cg_diags_destroy(d);
    cg_netlist_destroy(nl);
}

/* st (id 1) stores what ld (id 2) loads: program order puts st first,
 * the data flow ld first; no II can do both. */
static void test_contradictory_order(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(2, 2);
    cg_dfg *g = cg_dfg_create("twisted");
    int p = dfg_node(g, CG_OP_INPUT, "p"), st = dfg_node(g, CG_OP_STORE, "st");
    int ld = dfg_node(g, CG_OP_LOAD, "ld");
    const int e[][4] = {{p, st, 0, 0}, {ld, st, 1, 0}, {p, ld, 0, 0}};
    checked(g, e, 3);
    cg_mii mii;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_mii_compute(nl, g, &mii, d), -1);
    char *s = diag_text(d);
    assert_string_equal(s, "error: 'twisted' cannot be scheduled: a load or "
                        "store depends (through the data flow) on a memory "
                        "operation with a higher node id, which memory order "
                        "puts after it; number memory operations in program "
                        "order\n");
    free(s);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_nest_orders_every_pair),
        cmocka_unit_test(test_stated_order),
        cmocka_unit_test(test_nest_separates_arrays),
        cmocka_unit_test(test_banks_separate),
        cmocka_unit_test(test_affine_distances),
        cmocka_unit_test(test_unknown_is_conservative),
        cmocka_unit_test(test_rec_mii_histogram),
        cmocka_unit_test(test_histogram_maps_and_simulates),
        cmocka_unit_test(test_ignoring_order_is_wrong),
        cmocka_unit_test(test_different_arrays_keep_ii),
        cmocka_unit_test(test_checker_rejects_order),
        cmocka_unit_test(test_contradictory_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
