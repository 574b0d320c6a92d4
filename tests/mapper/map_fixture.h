/* map_fixture.h: what the tests of the checker, the simulator and the
 * writers share: a one-block array "pipe" built with the arch C API, the
 * DFG "sq" that it runs, and a hand-made mapping of sq at II=1 whose routes
 * are written by MRRG node names; "duo", a one-block array with two
 * MEMUnits on two banks.
 *
 * pipe: const k, FuncUnits f0 (add, latency 0), f1 (add mul udiv, latency 1),
 * f2 (add, latency 0), register r0, MEMUnit mem, IO io (pipe_netlist_imm:
 * with immediates on the FuncUnits):
 *   r0.out -> f0.in_a        select(k.out, r0.out)  -> f0.in_b
 *   select(f0.out, k.out) -> r0.in
 *   f0.out -> f1.in_a, f1.in_b
 *   select(f0.out, r0.out) -> f2.in_a      f1.out -> f2.in_b, mem.addr
 *   f2.out -> mem.data_in, io.in
 *
 * sq: n = n' + one (n' = n one iteration earlier, 0 at first), a = n * n,
 * s = n + a, output o = s, store s (32 bits) at address a.  So n_i = i+1,
 * s_i = n_i + n_i^2, and the path n -> s is reconvergent: directly and
 * through the latency-1 multiplier. */
#ifndef MAP_FIXTURE_H
#define MAP_FIXTURE_H

#include "ilp_test_util.h"
#include "mapper/model/names_internal.h"

enum { N_N, N_ONE, N_A, N_S, N_O, N_ST };       /* node ids of sq */
enum { E_NN, E_ONE, E_NA0, E_NA1, E_NS, E_AS, E_SO, E_AST, E_SST };

/* An architecture whose top module (*top) will hold the primitives. */
static inline cg_arch *top_only(int *top, cg_diags *d)
{
    cg_arch *a = cg_arch_create();
    *top = cg_arch_module_define(a, "architecture", d);
    cg_arch_set_top(a, *top);
    return a;
}

/* pipe with immediates on its FuncUnits: operands imm (a mask), fields of
 * width bits (0 = 32). */
static inline cg_netlist *pipe_netlist_imm(unsigned imm, int width)
{
    cg_diags *d = cg_diags_create();
    int top;
    cg_arch *a = top_only(&top, d);
    cg_arch_set_grid(a, 1, 1);
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_CONST);
    cg_arch_add_prim(a, top, "k", &p, d);
    cg_prim_params_init(&p, CG_PRIM_FUNC);
    p.ops = CG_OPSET(CG_OP_ADD);
    p.imm_operands = imm;
    p.imm_width = width;
    cg_arch_add_prim(a, top, "f0", &p, d);
    cg_arch_add_prim(a, top, "f2", &p, d);
    p.ops |= CG_OPSET(CG_OP_MUL) | CG_OPSET(CG_OP_UDIV);
    p.latency = 1;
    cg_arch_add_prim(a, top, "f1", &p, d);
    cg_prim_params_init(&p, CG_PRIM_REG);
    cg_arch_add_prim(a, top, "r0", &p, d);
    cg_prim_params_init(&p, CG_PRIM_MEM);
    p.latency = 0;
    cg_arch_add_prim(a, top, "mem", &p, d);
    cg_prim_params_init(&p, CG_PRIM_IO);
    cg_arch_add_prim(a, top, "io", &p, d);
    const char *b_in[] = {"k.out", "r0.out"}, *r_in[] = {"f0.out", "k.out"};
    const char *a2_in[] = {"f0.out", "r0.out"};
    cg_arch_connect(a, top, "r0.out", "f0.in_a", d);
    cg_arch_connect_select(a, top, b_in, 2, "f0.in_b", d);
    cg_arch_connect_select(a, top, r_in, 2, "r0.in", d);
    cg_arch_connect(a, top, "f0.out", "f1.in_a f1.in_b", d);
    cg_arch_connect_select(a, top, a2_in, 2, "f2.in_a", d);
    cg_arch_connect(a, top, "f1.out", "f2.in_b mem.addr", d);
    cg_arch_connect(a, top, "f2.out", "mem.data_in io.in", d);
    return flatten_ok(a, d);
}

static inline cg_netlist *pipe_netlist(void)
{
    return pipe_netlist_imm(0, 0);
}

/* duo: one block with ConstUnits k0, k1, MEMUnits m0 (bank 0) and m1
 * (bank 1) of the 64-byte tile memory "spm" (2 banks of 32 bytes),
 * registers r0, r1, a FuncUnit fu (add) and an IO io:
 *   select(k0.out, k1.out) -> m0.addr, m1.addr
 *   m0.data_out -> r0.in      r0.out -> r1.in      r1.out -> m1.data_in
 *   select(m0.data_out, m1.data_out) -> fu.in_a, fu.in_b
 *   fu.out -> io.in */
static inline cg_netlist *duo_netlist(void)
{
    cg_diags *d = cg_diags_create();
    int top;
    cg_arch *a = top_only(&top, d);
    cg_arch_set_grid(a, 1, 1);
    cg_arch_add_memory(a, "spm", 64, 2, 2, d);
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_CONST);
    cg_arch_add_prim(a, top, "k0", &p, d);
    cg_arch_add_prim(a, top, "k1", &p, d);
    cg_prim_params_init(&p, CG_PRIM_MEM);
    p.latency = 0;
    p.bank = 0;
    cg_arch_add_prim(a, top, "m0", &p, d);
    p.bank = 1;
    cg_arch_add_prim(a, top, "m1", &p, d);
    cg_prim_params_init(&p, CG_PRIM_REG);
    cg_arch_add_prim(a, top, "r0", &p, d);
    cg_arch_add_prim(a, top, "r1", &p, d);
    cg_prim_params_init(&p, CG_PRIM_FUNC);
    p.ops = CG_OPSET(CG_OP_ADD);
    cg_arch_add_prim(a, top, "fu", &p, d);
    cg_prim_params_init(&p, CG_PRIM_IO);
    cg_arch_add_prim(a, top, "io", &p, d);
    const char *k[] = {"k0.out", "k1.out"};
    const char *m[] = {"m0.data_out", "m1.data_out"};
    cg_arch_connect_select(a, top, k, 2, "m0.addr", d);
    cg_arch_connect_select(a, top, k, 2, "m1.addr", d);
    cg_arch_connect(a, top, "m0.data_out", "r0.in", d);
    cg_arch_connect(a, top, "r0.out", "r1.in", d);
    cg_arch_connect(a, top, "r1.out", "m1.data_in", d);
    cg_arch_connect_select(a, top, m, 2, "fu.in_a", d);
    cg_arch_connect_select(a, top, m, 2, "fu.in_b", d);
    cg_arch_connect(a, top, "fu.out", "io.in", d);
    return flatten_ok(a, d);
}

/* Add edges {src, dst, operand, distance} (init 0) and check g. */
static inline cg_dfg *checked(cg_dfg *g, const int (*e)[4], size_t n)
{
    for (size_t i = 0; i < n; i++)
        cg_dfg_add_edge(g, e[i][0], e[i][1], e[i][2], e[i][3], -1);
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_check(g, d), 0);
    cg_diags_destroy(d);
    return g;
}

static inline cg_dfg *sq_dfg(void)
{
    cg_dfg *g = cg_dfg_create("sq");
    cg_dfg_add_node(g, CG_OP_ADD, 32, "n");
    cg_dfg_add_node(g, CG_OP_CONST, 32, "one");
    cg_dfg_set_value(g, N_ONE, 1);
    cg_dfg_add_node(g, CG_OP_MUL, 32, "a");
    cg_dfg_add_node(g, CG_OP_ADD, 32, "s");
    cg_dfg_add_node(g, CG_OP_OUTPUT, 32, "o");
    cg_dfg_add_node(g, CG_OP_STORE, 32, "st");
    const int e[][4] = {
        {N_N, N_N, 0, 1}, {N_ONE, N_N, 1, 0}, {N_N, N_A, 0, 0},
        {N_N, N_A, 1, 0}, {N_N, N_S, 0, 0}, {N_A, N_S, 1, 0},
        {N_S, N_O, 0, 0}, {N_A, N_ST, 0, 0}, {N_S, N_ST, 1, 0}
    };
    return checked(g, e, sizeof e / sizeof e[0]);
}

/* MRRG node id by its readable name; fails the test when there is none. */
static inline int mnode(const cg_mrrg *m, const cg_netlist *nl,
                        const char *name)
{
    char b[200];
    for (int i = 0; i < cg_mrrg_nnodes(m); i++)
        if (strcmp(cg__map_node_name(m, nl, i, b, sizeof b), name) == 0)
            return i;
    fail_msg("no MRRG node named %s", name);
    return -1;
}

/* Set edge e's route to the blank-separated node names in names. */
static inline void set_route(cg_mapping *map, const cg_mrrg *m,
                             const cg_netlist *nl, int e, const char *names)
{
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", names);
    free(map->route[e]);
    map->route[e] = malloc(sizeof(int) * 16);
    map->route_len[e] = 0;
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
        map->route[e][map->route_len[e]++] = mnode(m, nl, t);
}

/* The balanced mapping of sq at II=1. */
static inline cg_mapping *sq_mapping(const cg_mrrg *m, const cg_netlist *nl)
{
    cg_mapping *map = cg_mapping_create(1, 6, 9);
    const char *unit[] = {"f0@c0", "k@c0", "f1@c0", "f2@c0", "io@c0",
                          "mem@c0"};
    const int64_t start[] = {0, 0, 0, 1, 1, 1};
    for (int v = 0; v < 6; v++) {
        map->place[v] = mnode(m, nl, unit[v]);
        map->start[v] = start[v];
    }
    set_route(map, m, nl, E_NN, "f0.out@c0 r0_in_mux.in0@c0 r0_in_mux.out@c0 "
              "r0.in@c0 r0.out@c0 f0.in_a@c0");
    set_route(map, m, nl, E_ONE, "k.out@c0 f0_in_b_mux.in0@c0 "
              "f0_in_b_mux.out@c0 f0.in_b@c0");
    set_route(map, m, nl, E_NA0, "f0.out@c0 f1.in_a@c0");
    set_route(map, m, nl, E_NA1, "f0.out@c0 f1.in_b@c0");
    set_route(map, m, nl, E_NS, "f0.out@c0 r0_in_mux.in0@c0 "
              "r0_in_mux.out@c0 r0.in@c0 r0.out@c0 f2_in_a_mux.in1@c0 "
              "f2_in_a_mux.out@c0 f2.in_a@c0");
    set_route(map, m, nl, E_AS, "f1.out@c0 f2.in_b@c0");
    set_route(map, m, nl, E_SO, "f2.out@c0 io.in@c0");
    set_route(map, m, nl, E_AST, "f1.out@c0 mem.addr@c0");
    set_route(map, m, nl, E_SST, "f2.out@c0 mem.data_in@c0");
    return map;
}

/* What sq computes, written out independently of the interpreter and the
 * simulator: iterations 0..iters-1 on a memory of size bytes at 0. */
static inline uint64_t sq_expected(int iters, uint8_t *mem, size_t size)
{
    uint64_t s = 0;
    for (uint64_t n = 1; n <= (uint64_t)iters; n++) {
        s = (n + n * n) & 0xffffffffu;
        for (int b = 0; b < 4 && n * n + b < size; b++)
            mem[n * n + b] = (uint8_t)(s >> (8 * b));
    }
    return s;
}

/* scale: i = i' + 4 (i' = 0 at first), x = load32(i), y = x * 3,
 * store32(i + b, y) with the live-in b = 64, acc = acc' + x, output acc.  i -> store is
 * reconvergent (through the load and the multiplier, and through the
 * adder), acc is a recurrence. */
static inline cg_dfg *scale_dfg(void)
{
    cg_dfg *g = cg_dfg_create("scale");
    int c4 = dfg_node(g, CG_OP_CONST, "c4"), i = dfg_node(g, CG_OP_ADD, "i");
    int x = dfg_node(g, CG_OP_LOAD, "x"), k = dfg_node(g, CG_OP_CONST, "k");
    int y = dfg_node(g, CG_OP_MUL, "y"), b = dfg_node(g, CG_OP_INPUT, "b");
    int ad = dfg_node(g, CG_OP_ADD, "ad"), st = dfg_node(g, CG_OP_STORE, "st");
    int acc = dfg_node(g, CG_OP_ADD, "acc");
    int o = dfg_node(g, CG_OP_OUTPUT, "o");
    cg_dfg_set_value(g, c4, 4);
    cg_dfg_set_value(g, k, 3);
    const int e[][4] = {
        {i, i, 0, 1}, {c4, i, 1, 0}, {i, x, 0, 0}, {x, y, 0, 0},
        {k, y, 1, 0}, {i, ad, 0, 0}, {b, ad, 1, 0}, {ad, st, 0, 0},
        {y, st, 1, 0}, {acc, acc, 0, 1}, {x, acc, 1, 0}, {acc, o, 0, 0}
    };
    return checked(g, e, sizeof e / sizeof e[0]);
}

/* Map g with the ILP (II up to 4); the mapping must pass the checker. */
static inline void map_checked(const cg_netlist *nl, const cg_dfg *g,
                               cg_map_result *r, cg_diags *d)
{
    cg_map_params p;
    cg_map_params_init(&p);
    p.timeout_s = 30;
    p.max_ii = 4;
    assert_int_equal(cg_map(nl, g, &p, r, d), 0);
    assert_int_equal(r->status, CG_MAP_MAPPED);
    assert_int_equal(cg_map_check(nl, r->mrrg, g, r->mapping, d), 0);
    if (getenv("CG_SHOW_MAPPING"))
        (void)cg_mapping_write(r->mapping, r->mrrg, nl, g, stderr);
}

/* A test's state: pipe, its MRRG at II=1, sq and the balanced mapping,
 * a 64-byte memory image filled with 0xaa, inputs and outputs. */
#define SQ_MEM 64
typedef struct sq_fx {
    cg_netlist *nl;
    cg_mrrg *m;
    cg_dfg *g;
    cg_mapping *map;
    uint8_t mem[SQ_MEM];
    uint64_t in[6], out[6];
} sq_fx;

static inline int sq_setup(void **state)
{
    sq_fx *f = calloc(1, sizeof *f);
    cg_diags *d = cg_diags_create();
    f->nl = pipe_netlist();
    f->m = cg_mrrg_build(f->nl, 1, d);
    f->g = sq_dfg();
    f->map = sq_mapping(f->m, f->nl);
    memset(f->mem, 0xaa, SQ_MEM);
    cg_diags_destroy(d);
    *state = f;
    return 0;
}

static inline int sq_teardown(void **state)
{
    sq_fx *f = *state;
    cg_mapping_destroy(f->map);
    cg_dfg_destroy(f->g);
    cg_mrrg_destroy(f->m);
    cg_netlist_destroy(f->nl);
    free(f);
    return 0;
}

/* The diagnostics as "file:line: error: msg" lines, joined by newlines
 * (owned by the caller). */
static inline char *diag_text(const cg_diags *d)
{
    size_t cap = 1, len = 0;
    char *out = calloc(1, 1);
    for (int i = 0; i < cg_diags_size(d); i++) {
        char *s = cg_diag_format(cg_diags_get(d, i));
        cap += strlen(s) + 1;
        out = realloc(out, cap);
        len += (size_t)sprintf(out + len, "%s\n", s);
        free(s);
    }
    return out;
}

#endif
