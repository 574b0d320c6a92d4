/* test_cluster.c: clustering of large DFGs (mapper/search/cluster.c) through
 * cluster_internal.h: disjoint dense subgraphs in disjoint regions, a chain
 * of clusters placed along adjacent tiles, tiles cut into bands of equal
 * unit counts, capacity per op class (and the two-tile region it forces),
 * a small DFG as one cluster on the whole array, an II too small for the
 * array, the primitives allowed per node, consts in their consumers'
 * clusters, two runs giving the same result, the node limit and time cap,
 * a DFG without edges, and the errors on bad input. */
#include "../glpk_reset.h"
#include "../map_fixture.h"

#include "mapper/search/cluster_internal.h"

/* A group of `adds` add nodes named <p>0.. fed by the input <p>in: add j
 * takes add j-1 and add j-3 (the input before the first ones); the first
 * `loads` adds (round robin when there are more loads) each give the
 * address of a load <p>ld<j>.  Returns the id of the first add. */
static int group(cg_dfg *g, const char *p, int adds, int loads)
{
    char name[32];
    snprintf(name, sizeof name, "%sin", p);
    int in = dfg_node(g, CG_OP_INPUT, name), first = -1;
    for (int j = 0; j < adds; j++) {
        snprintf(name, sizeof name, "%s%d", p, j);
        int v = dfg_node(g, CG_OP_ADD, name);
        first = j == 0 ? v : first;
        cg_dfg_add_edge(g, j >= 1 ? v - 1 : in, v, 0, 0, -1);
        cg_dfg_add_edge(g, j >= 3 ? v - 3 : in, v, 1, 0, -1);
    }
    for (int j = 0; j < loads; j++) {
        snprintf(name, sizeof name, "%sld%d", p, j);
        cg_dfg_add_edge(g, first + j % adds, dfg_node(g, CG_OP_LOAD, name),
                        0, 0, -1);
    }
    return first;
}

static bool overlap(const cg__region *a, const cg__region *b)
{
    return a->row0 <= b->row1 && b->row0 <= a->row1 && a->col0 <= b->col1 &&
           b->col0 <= a->col1;
}

static bool same_region(const cg__region *a, const cg__region *b)
{
    return a->row0 == b->row0 && a->col0 == b->col0 && a->row1 == b->row1 &&
           a->col1 == b->col1;
}

/* Cluster with params p; must succeed. */
static void place_ok(const cg_netlist *nl, const cg_dfg *g, int ii,
                     const cg__cluster_params *p, cg__cluster_out *out)
{
    cg_diags *d = cg_diags_create();
    int rc = cg__cluster_place(nl, g, ii, p, out, d);
    if (rc != 0 || cg_diags_size(d))
        cg_diags_print(d, stderr);
    assert_int_equal(rc, 0);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
}

/* Cluster into k clusters with default params otherwise; must place. */
static void place_k(const cg_netlist *nl, const cg_dfg *g, int ii, int k,
                    cg__cluster_out *out)
{
    cg__cluster_params p;
    cg__cluster_params_init(&p);
    p.nclusters = k;
    place_ok(nl, g, ii, &p, out);
    assert_int_equal(out->status, CG__CLUSTER_PLACED);
    assert_int_equal(out->nclusters, k);
}

/* Two disjoint groups of 30 adds on the 4x4 at II 4: two clusters, cut 0,
 * on the two halves of the grid (1 x 2 tiles: each half has 8 FuncUnits,
 * 32 slots); no traffic, so cost 0. */
static cg_dfg *two_clustered(const cg_netlist *nl, int *a0, int *b0,
                             cg__cluster_out *out)
{
    cg_dfg *g = cg_dfg_create("two");
    *a0 = group(g, "a", 30, 0);
    *b0 = group(g, "b", 30, 0);
    place_k(nl, g, 4, 2, out);
    return g;
}

static void test_disjoint(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    int a0, b0;
    cg__cluster_out out;
    cg_dfg *g = two_clustered(nl, &a0, &b0, &out);
    assert_int_equal(out.status, CG__CLUSTER_PLACED);
    assert_int_equal(out.nclusters, 2);
    assert_int_equal(out.cut, 0);
    assert_true(out.cost == 0);
    assert_int_equal(out.tile_rows, 1);
    assert_int_equal(out.tile_cols, 2);
    for (int j = 0; j < 30; j++) {
        assert_int_equal(out.cluster[a0 + j], out.cluster[a0 - 1]);
        assert_int_equal(out.cluster[b0 + j], out.cluster[b0 - 1]);
    }
    assert_int_not_equal(out.cluster[a0], out.cluster[b0]);
    assert_false(overlap(&out.region[0], &out.region[1]));
    for (int c = 0; c < 2; c++)
        assert_int_equal(out.region[c].col1 - out.region[c].col0, 2);
    cg__cluster_out_free(&out);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* Four groups of 12 adds in a chain (one edge between consecutive groups)
 * on the 4x4 at II 4: 2 x 2 tiles of 3 x 3 cells, one cluster each, and
 * consecutive clusters on adjacent tiles: cost 3 edges x 3 cells. */
static void test_chain(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = cg_dfg_create("chain");
    int first[4];
    const char *names[] = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; i++)
        first[i] = group(g, names[i], 12, 0);
    for (int i = 1; i < 4; i++) /* the next group's last add, operand 2 */
        cg_dfg_add_edge(g, first[i - 1] + 11, first[i] + 11, 2, 0, -1);
    cg__cluster_out out;
    place_k(nl, g, 4, 4, &out);
    assert_int_equal(out.cut, 3);
    assert_int_equal(out.tile_rows, 2);
    assert_int_equal(out.tile_cols, 2);
    assert_true(out.cost == 9);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < i; j++)
            assert_false(overlap(&out.region[i], &out.region[j]));
    assert_false(out.node_limit_hit);
    assert_false(out.time_cap_hit);
    cg__cluster_out_free(&out);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* 16 groups of 16 adds (no inputs, which interior tiles could not hold)
 * on the 8x8 at II 4, 16 clusters: 4 x 4 tiles of 4 FuncUnits (16
 * slots) each.  Bands hold equal numbers of units, so the IO ring's rows
 * and columns join the outer bands: 0-2, 3-4, 5-6, 7-9. */
static void test_bands(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(8, 8);
    cg_dfg *g = cg_dfg_create("bands");
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            int v = dfg_node(g, CG_OP_ADD, NULL);
            for (int k = 0; k < 2 && j >= 1 + 2 * k; k++)
                cg_dfg_add_edge(g, v - 1 - 2 * k, v, k, 0, -1);
        }
    cg__cluster_out out;
    place_k(nl, g, 4, 16, &out);
    assert_int_equal(out.cut, 0);
    assert_int_equal(out.tile_rows, 4);
    assert_int_equal(out.tile_cols, 4);
    bool seen[4][4] = {{false}};
    const int start[] = {0, 3, 5, 7}, end[] = {2, 4, 6, 9};
    for (int c = 0; c < 16; c++) {
        const cg__region *r = &out.region[c];
        int a = 0, b = 0;
        while (a < 3 && start[a] != r->row0)
            a++;
        while (b < 3 && start[b] != r->col0)
            b++;
        assert_int_equal(r->row0, start[a]);
        assert_int_equal(r->row1, end[a]);
        assert_int_equal(r->col0, start[b]);
        assert_int_equal(r->col1, end[b]);
        assert_false(seen[a][b]);
        seen[a][b] = true;
    }
    cg__cluster_out_free(&out);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* Units of primitive kind k inside r. */
static int units_in(const cg_netlist *nl, const cg__region *r,
                    cg_prim_kind k)
{
    int n = 0;
    for (int q = 0; q < cg_netlist_nprims(nl); q++) {
        const cg_nl_prim *pr = cg_netlist_prim(nl, q);
        n += pr->p.kind == k && pr->row >= r->row0 && pr->row <= r->row1 &&
             pr->col >= r->col0 && pr->col <= r->col1;
    }
    return n;
}

static bool inside(const cg__region *a, const cg__region *b)
{
    return a->row0 >= b->row0 && a->row1 <= b->row1 && a->col0 >= b->col0 &&
           a->col1 <= b->col1;
}

/* Every region holds, per op class (adds on FuncUnits, loads on MEMUnits,
 * inputs on IOs: disjoint unit sets on the default PE), at most its units
 * x II ops of the clusters whose regions lie inside it (Hall's condition
 * for those clusters). */
static void assert_capacity(const cg_netlist *nl, const cg_dfg *g, int ii,
                            const cg__cluster_out *out)
{
    static const struct { cg_op op; cg_prim_kind k; } cls[] = {
        {CG_OP_ADD, CG_PRIM_FUNC}, {CG_OP_LOAD, CG_PRIM_MEM},
        {CG_OP_INPUT, CG_PRIM_IO}};
    for (int c = 0; c < out->nclusters; c++)
        for (size_t k = 0; k < 3; k++) {
            int ops = 0;
            for (int v = 0; v < cg_dfg_nnodes(g); v++)
                ops += cg_dfg_get_node(g, v)->op == cls[k].op &&
                       inside(&out->region[out->cluster[v]],
                              &out->region[c]);
            assert_true(ops <= ii * units_in(nl, &out->region[c], cls[k].k));
        }
}

/* Four groups of 33 nodes on the 8x8 at II 2, four clusters: group a has
 * 16 adds and 16 loads, the others 32 adds.  2 x 2 tiles have 4 MEMUnits
 * each (8 slots): a's region spans two tiles (8 MEMUnits: 16 slots),
 * and so must another cluster's, on the same two tiles (each tile holds
 * one cluster's worth). */
static void test_capacity(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(8, 8);
    cg_dfg *g = cg_dfg_create("loads");
    int a0 = group(g, "a", 16, 16);
    group(g, "b", 32, 0);
    group(g, "c", 32, 0);
    group(g, "d", 32, 0);
    cg__cluster_out out;
    place_k(nl, g, 2, 4, &out);
    assert_int_equal(out.cut, 0);
    int ld = cg_dfg_find(g, "ald0");
    for (int j = 0; j < 16; j++)
        assert_int_equal(out.cluster[ld + j], out.cluster[a0]);
    assert_int_equal(out.tile_rows, 2);
    assert_int_equal(out.tile_cols, 2);
    const cg__region *ra = &out.region[out.cluster[a0]];
    assert_int_equal((ra->row1 - ra->row0 + 1) * (ra->col1 - ra->col0 + 1),
                     50); /* two 5 x 5 tiles, either way */
    assert_int_equal(units_in(nl, ra, CG_PRIM_MEM), 8);
    int spanning = 0;
    for (int c = 0; c < 4; c++)
        spanning += same_region(&out.region[c], ra);
    assert_int_equal(spanning, 2);
    assert_capacity(nl, g, 2, &out);
    /* at II 4 single tiles hold every cluster */
    cg__cluster_out_free(&out);
    place_k(nl, g, 4, 4, &out);
    assert_int_equal(out.tile_rows, 2);
    assert_int_equal(out.tile_cols, 2);
    for (int c = 0; c < 4; c++)
        for (int e = 0; e < c; e++)
            assert_false(overlap(&out.region[c], &out.region[e]));
    assert_capacity(nl, g, 4, &out);
    cg__cluster_out_free(&out);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* Nine groups of 33 nodes on the 8x8 at II 5: group a has 6 adds and 26
 * loads, the others 32 adds.  The first tiling, 3 x 3 (bands 0-2, 3-6,
 * 7-9), admits no assignment (its corner tiles have 4 FuncUnits, 20
 * slots, and a tile carries one cluster): it is coarsened to 2 x 3, where
 * every region holds its clusters, a's loads included. */
static void test_coarsen(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(8, 8);
    cg_dfg *g = cg_dfg_create("coarse");
    int a0 = group(g, "a", 6, 26);
    char name[4] = "b";
    for (int i = 0; i < 8; i++, name[0]++)
        group(g, name, 32, 0);
    cg__cluster_out out;
    place_k(nl, g, 5, 9, &out);
    assert_int_equal(out.cut, 0);
    assert_int_equal(out.tile_rows, 2);
    assert_int_equal(out.tile_cols, 3);
    assert_true(units_in(nl, &out.region[out.cluster[a0]], CG_PRIM_MEM) *
                    5 >= 26);
    assert_capacity(nl, g, 5, &out);
    cg__cluster_out_free(&out);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* Up to the threshold: one cluster, the whole grid; every node may use
 * every unit that runs it. */
static void test_small(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = cg_dfg_create("small");
    group(g, "a", 20, 4);
    cg__cluster_params p;
    cg__cluster_params_init(&p);
    cg__cluster_out out;
    place_ok(nl, g, 2, &p, &out); /* 20 adds on 16 FuncUnits */
    assert_int_equal(out.status, CG__CLUSTER_PLACED);
    assert_int_equal(out.nclusters, 1);
    assert_int_equal(out.tile_rows * out.tile_cols, 1);
    const cg__region whole = {0, 0, 5, 5};
    assert_true(same_region(&out.region[0], &whole));
    assert_int_equal(out.cut, 0);
    cg__prim_sets s;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg__cluster_allowed(nl, g, &out, 0, &s, d), 0);
    int ld = cg_dfg_find(g, "ald0"), in = cg_dfg_find(g, "ain");
    assert_int_equal(s.off[ld + 1] - s.off[ld], 8);     /* MEMUnits */
    assert_int_equal(s.off[in + 1] - s.off[in], 16);    /* IOs */
    assert_int_equal(s.off[in + 2] - s.off[in + 1], 16); /* FuncUnits */
    cg__prim_sets_free(&s);
    cg__cluster_out_free(&out);
    /* 21 nodes on a one-FuncUnit array at II 4: NO_FIT, not an error */
    cg_netlist *tiny = tiny_netlist(CG_OPSET(CG_OP_ADD), 0);
    cg_dfg_destroy(g);
    g = cg_dfg_create("adds");
    group(g, "a", 20, 0);
    place_ok(tiny, g, 4, &p, &out);
    assert_int_equal(out.status, CG__CLUSTER_NO_FIT);
    assert_int_equal(cg__cluster_allowed(tiny, g, &out, 0, &s, d), -1);
    char *msg = diag_text(d);
    assert_string_equal(msg, "error: cannot list the primitives allowed per "
                        "node of 'adds': the clusters have no regions "
                        "(status NO_FIT)\n");
    free(msg);
    cg__cluster_out_free(&out);
    cg_netlist_destroy(tiny);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* The primitives allowed per node of test_disjoint's clusters: each runs
 * the node and lies in its region; with halo 0 the two groups share none,
 * with halo 1 the FuncUnits of the column next to the border are shared. */
static void test_allowed(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    int a0, b0;
    cg__cluster_out out;
    cg_dfg *g = two_clustered(nl, &a0, &b0, &out);
    cg_diags *d = cg_diags_create();
    cg__prim_sets s0, s1;
    assert_int_equal(cg__cluster_allowed(nl, g, &out, 0, &s0, d), 0);
    assert_int_equal(cg__cluster_allowed(nl, g, &out, 1, &s1, d), 0);
    const cg__region *ra = &out.region[out.cluster[a0]];
    for (int i = s0.off[a0]; i < s0.off[a0 + 1]; i++) {
        const cg_nl_prim *pr = cg_netlist_prim(nl, s0.ids[i]);
        assert_int_equal(pr->p.kind, CG_PRIM_FUNC);
        assert_true(pr->row >= ra->row0 && pr->row <= ra->row1 &&
                    pr->col >= ra->col0 && pr->col <= ra->col1);
        for (int j = s0.off[b0]; j < s0.off[b0 + 1]; j++)
            assert_int_not_equal(s0.ids[i], s0.ids[j]);
    }
    assert_int_equal(s0.off[a0 + 1] - s0.off[a0], 8);
    assert_int_equal(s1.off[a0 + 1] - s1.off[a0], 12);
    assert_int_equal(s1.off[b0 + 1] - s1.off[b0], 12);
    cg__prim_sets_free(&s0);
    assert_int_equal(cg__cluster_allowed(nl, g, &out, -1, &s0, d), -1);
    char *msg = diag_text(d);
    assert_string_equal(msg, "error: cannot list the primitives allowed per "
                        "node of 'two': halo must be >= 0\n");
    free(msg);
    cg__prim_sets_free(&s1);
    cg__cluster_out_free(&out);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* Every const is in its consumer's cluster: a ConstUnit feeds its own PE
 * only.  METIS, balancing the parts, put some consts of this DFG (100
 * muls, each by a const of its own and fed by one of the three muls
 * before it) into other clusters than their muls, whose regions need not
 * share a PE (gemm_block at II 12 failed every attempt on such a const). */
static void test_consts_follow(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(8, 8);
    cg_dfg *g = cg_dfg_create("consts");
    uint32_t seed = 11;
    int prev = dfg_node(g, CG_OP_INPUT, NULL);
    for (int j = 0; j < 100; j++) {
        seed = seed * 1664525u + 1013904223u;
        int c = dfg_node(g, CG_OP_CONST, NULL);
        int m = dfg_node(g, CG_OP_MUL, NULL);
        int back = (int)((seed >> 16) % 3);
        cg_dfg_add_edge(g, prev - 2 * back > 0 ? prev - 2 * back : prev, m,
                        0, 0, -1);
        cg_dfg_add_edge(g, c, m, 1, 0, -1);
        prev = m;
    }
    cg__cluster_out out;
    place_k(nl, g, 4, 9, &out);
    int consts = 0;
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        if (cg_dfg_get_node(g, ed->src)->op != CG_OP_CONST)
            continue;
        consts++;
        assert_int_equal(out.cluster[ed->src], out.cluster[ed->dst]);
    }
    assert_int_equal(consts, 100);
    cg__cluster_out_free(&out);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* A pseudo-random DAG of n nodes: inputs, adds and loads, each add fed by
 * two earlier nodes mostly close to it (a long loop body's locality). */
static cg_dfg *random_dfg(int n, uint32_t seed)
{
    cg_dfg *g = cg_dfg_create("rand");
    for (int v = 0; v < n; v++) {
        seed = seed * 1664525u + 1013904223u;
        cg_op op = v < 4 ? CG_OP_INPUT
                   : (seed >> 24) % 8 == 0 ? CG_OP_LOAD : CG_OP_ADD;
        dfg_node(g, op, NULL);
        for (int k = 0; v >= 4 && k < cg_op_arity(op); k++) {
            seed = seed * 1664525u + 1013904223u;
            int back = 1 + (int)((seed >> 16) % 12);
            if ((seed >> 8) % 10 == 0)
                back = 1 + (int)((seed >> 12) % (uint32_t)v);
            int u = v - back < 0 ? 0 : v - back;
            if (cg_dfg_get_node(g, u)->op == CG_OP_LOAD && u > 0)
                u--; /* loads feed nothing here: keep it a plain DAG */
            cg_dfg_add_edge(g, u, v, k, 0, -1);
        }
    }
    return g;
}

/* Two runs on the same input and params give the same clusters, regions
 * and ILP effort; 200 nodes on the 8x8 at II 4.  A node limit of 1 gives
 * the same clusters on the whole array. */
static void test_deterministic(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(8, 8);
    cg_dfg *g = random_dfg(200, 7);
    cg__cluster_params p;
    cg__cluster_params_init(&p);
    cg__cluster_out a, b;
    place_ok(nl, g, 4, &p, &a);
    place_ok(nl, g, 4, &p, &b);
    assert_int_equal(a.status, CG__CLUSTER_PLACED);
    assert_int_equal(a.nclusters, 7); /* ceil(200 / 32) */
    assert_int_equal(a.nclusters, b.nclusters);
    assert_memory_equal(a.cluster, b.cluster, sizeof(int) * 200);
    assert_memory_equal(a.region, b.region,
                        sizeof(cg__region) * (size_t)a.nclusters);
    assert_true(a.cost == b.cost);
    assert_int_equal(a.ilp_nodes, b.ilp_nodes);
    assert_int_equal(a.cut, b.cut);
    assert_false(a.time_cap_hit);
    assert_capacity(nl, g, 4, &a);
    print_message("rand200 on 8x8 at II 4: %d clusters, cut %d, cost %g, "
                  "tiles %d x %d, %d ILP nodes%s\n", a.nclusters, a.cut,
                  a.cost, a.tile_rows, a.tile_cols, a.ilp_nodes,
                  a.node_limit_hit ? " (node limit hit)" : "");
    cg__cluster_out_free(&a);
    /* the work limit decides: one branch-and-bound node per ILP, the same
     * result on every run, with far fewer nodes */
    p.w.ilp_nodes = 1;
    place_ok(nl, g, 4, &p, &a);
    cg__cluster_out c;
    place_ok(nl, g, 4, &p, &c);
    assert_int_equal(a.status, CG__CLUSTER_PLACED);
    assert_true(a.node_limit_hit);
    assert_false(a.time_cap_hit);
    assert_true(a.ilp_nodes < b.ilp_nodes);
    assert_memory_equal(a.cluster, b.cluster, sizeof(int) * 200);
    assert_memory_equal(a.region, c.region,
                        sizeof(cg__region) * (size_t)a.nclusters);
    assert_int_equal(a.ilp_nodes, c.ilp_nodes);
    cg__cluster_out_free(&a);
    cg__cluster_out_free(&b);
    cg__cluster_out_free(&c);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* A wall-clock cap far below what the ILPs need (500 nodes, 16 clusters:
 * about 2 s) stops them, and the result says so, as a flag and a
 * warning. */
static void test_time_cap(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(8, 8);
    cg_dfg *g = random_dfg(500, 7);
    cg__cluster_params p;
    cg__cluster_params_init(&p);
    p.w.ilp_time_s = 1e-3;
    cg__cluster_out out;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg__cluster_place(nl, g, 10, &p, &out, d), 0);
    assert_true(out.time_cap_hit);
    assert_true(out.status == CG__CLUSTER_PLACED ||
                out.status == CG__CLUSTER_LIMIT);
    assert_int_equal(cg_diags_errors(d), 0);
    assert_true(cg_diags_warnings(d) >= 1);
    const char *want = "clustering 'rand': the 0.001 s wall-clock cap "
                       "stopped the region ILP (";
    assert_memory_equal(cg_diags_get(d, 0)->msg, want, strlen(want));
    cg__cluster_out_free(&out);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* GLPK out of memory on the region ILP (its memory limit set to 1 MB):
 * an error naming the ILP and GLPK's reason, not the end of the process;
 * GLPK starts afresh, so the same clustering then places. */
static void test_glpk_out_of_memory(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(8, 8);
    cg_dfg *g = random_dfg(200, 7);
    cg__cluster_params p;
    cg__cluster_params_init(&p);
    cg__cluster_out out;
    cg_diags *d = cg_diags_create();
    glp_mem_limit(1); /* MB */
    assert_int_equal(cg__cluster_place(nl, g, 10, &p, &out, d), -1);
    assert_int_equal(cg_diags_size(d), 1);
    const char *msg = cg_diags_get(d, 0)->msg,
               *want = "GLPK stopped on the region ILP of 'rand' (",
               *why = " tiles): glp_alloc: memory allocation limit exceeded";
    assert_memory_equal(msg, want, strlen(want));
    assert_true(strlen(msg) > strlen(why));
    assert_string_equal(msg + strlen(msg) - strlen(why), why);
    assert_int_equal(cg__cluster_place(nl, g, 10, &p, &out, d), 0);
    assert_int_equal(out.status, CG__CLUSTER_PLACED);
    assert_int_equal(cg_diags_size(d), 1);
    cg__cluster_out_free(&out);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* A DFG without edges above the threshold: METIS still splits it, nothing
 * crosses clusters. */
static void test_edgeless(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = cg_dfg_create("loose");
    for (int v = 0; v < 60; v++)
        dfg_node(g, CG_OP_ADD, NULL);
    cg__cluster_params p;
    cg__cluster_params_init(&p);
    cg__cluster_out out;
    place_ok(nl, g, 4, &p, &out);
    assert_int_equal(out.status, CG__CLUSTER_PLACED);
    assert_int_equal(out.nclusters, 2);
    assert_int_equal(out.cut, 0);
    assert_capacity(nl, g, 4, &out);
    cg__cluster_out_free(&out);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

/* Run with params p; must fail with exactly the text want. */
static void place_fails(const cg_netlist *nl, const cg_dfg *g, int ii,
                        const cg__cluster_params *p, const char *want)
{
    cg_diags *d = cg_diags_create();
    cg__cluster_out out;
    assert_int_equal(cg__cluster_place(nl, g, ii, p, &out, d), -1);
    assert_null(out.cluster);
    char *msg = diag_text(d);
    assert_string_equal(msg, want);
    free(msg);
    cg_diags_destroy(d);
}

/* A 2x2 grid whose FuncUnit and IO sit in the top module, at no grid
 * position (declared at loose.xml:7). */
static cg_netlist *loose_netlist(void)
{
    cg_diags *d = cg_diags_create();
    int top;
    cg_arch *a = top_only(&top, d);
    cg_arch_set_grid(a, 2, 2);
    cg_arch_set_loc(a, "loose.xml", 7);
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_FUNC);
    cg_arch_add_prim(a, top, "fu", &p, d);
    cg_prim_params_init(&p, CG_PRIM_IO);
    cg_arch_add_prim(a, top, "io", &p, d);
    cg_arch_connect(a, top, "io.out", "fu.in_a fu.in_b", d);
    cg_arch_connect(a, top, "fu.out", "io.in", d);
    return flatten_ok(a, d);
}

static void test_bad_input(void **state)
{
    (void)state;
    cg_netlist *nl = mesh_netlist(4, 4);
    cg_dfg *g = cg_dfg_create("bad");
    group(g, "a", 10, 0);
    cg__cluster_params p;
    cg__cluster_params_init(&p);
    place_fails(nl, g, 0, &p, "error: bad clustering parameters: ii must be "
                ">= 1 (ii 0, threshold 48, nclusters 0, target_ops 32, DFG "
                "nodes 11)\n");
    p.threshold = 4;
    p.nclusters = 12;
    place_fails(nl, g, 2, &p, "error: bad clustering parameters: nclusters "
                "must not exceed the DFG's nodes (ii 2, threshold 4, "
                "nclusters 12, target_ops 32, DFG nodes 11)\n");
    p.nclusters = 2;
    p.w.ilp_time_s = 0;
    place_fails(nl, g, 2, &p, "error: bad clustering parameters: "
                "ilp_nodes must be >= 1 and ilp_time_s > 0 (ii 2, "
                "threshold 4, nclusters 2, target_ops 32, DFG nodes 11)\n");
    /* a node no unit runs */
    cg__cluster_params_init(&p);
    cg_netlist *tiny = tiny_netlist(CG_OPSET(CG_OP_ADD), 0);
    int m = dfg_node(g, CG_OP_MUL, "m");
    cg_dfg_add_edge(g, 1, m, 0, 0, -1);
    cg_dfg_add_edge(g, 2, m, 1, 0, -1);
    cg_dfg_node_mut(g, m)->line = 12;
    cg_dfg_set_file(g, "bad.c");
    place_fails(tiny, g, 4, &p, "bad.c:12: error: cannot cluster 'bad': no "
                "unit of the architecture runs node 'm' (op 'mul'): add a "
                "unit that supports it\n");
    /* above the threshold, units must be on the grid */
    cg_netlist *loose = loose_netlist();
    cg_dfg *adds = cg_dfg_create("adds");
    group(adds, "a", 10, 0);
    p.threshold = 4;
    p.nclusters = 2;
    place_fails(loose, adds, 8, &p, "loose.xml:7: error: cannot split the "
                "array into regions for 'adds' (11 nodes, above the "
                "clustering threshold 4): unit 'fu' is at row -1, col -1, "
                "not on the 2 x 2 grid; give its block a position on the "
                "grid or raise the threshold (--cluster-above, "
                "cg_map_params.cluster_threshold)\n"
                "loose.xml:7: error: cannot split the array into regions "
                "for 'adds' (11 nodes, above the clustering threshold 4): "
                "unit 'io' is at row -1, col -1, not on the 2 x 2 grid; "
                "give its block a position on the grid or raise the "
                "threshold (--cluster-above, cg_map_params."
                "cluster_threshold)\n");
    /* at or below the threshold the whole array needs no positions */
    p.threshold = 11;
    cg__cluster_out out;
    place_ok(loose, adds, 10, &p, &out);
    assert_int_equal(out.status, CG__CLUSTER_PLACED);
    cg__prim_sets s;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg__cluster_allowed(loose, adds, &out, 0, &s, d), 0);
    assert_int_equal(s.off[1] - s.off[0], 1); /* the input: io */
    cg__prim_sets_free(&s);
    cg__cluster_out_free(&out);
    cg_diags_destroy(d);
    cg_dfg_destroy(adds);
    cg_netlist_destroy(loose);
    cg_netlist_destroy(tiny);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_disjoint),
        cmocka_unit_test(test_chain),
        cmocka_unit_test(test_bands),
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_coarsen),
        cmocka_unit_test(test_small),
        cmocka_unit_test(test_allowed),
        cmocka_unit_test(test_consts_follow),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_time_cap),
        cmocka_unit_test_teardown(test_glpk_out_of_memory, glpk_reset),
        cmocka_unit_test(test_edgeless),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
