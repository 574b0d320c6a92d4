/* ilp_test_util.h: what the tests of the MRRG, the MII and the ILP mapper
 * share: small architectures built with the arch C API (a one-FuncUnit
 * loop and an n x m mesh), small DFGs, and an independent re-check of a
 * mapping's rules written for the tests (placement, one use per resource,
 * connected routes to the right pin, the timing equation). */
#ifndef ILP_TEST_UTIL_H
#define ILP_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "dfg/dfg.h"
#include "mapper/search/heur_internal.h"
#include "mapper/map.h"
#include "tests/common/flatten.h"
#include "verify/verify.h"

/* "tiny": one block with an IO io, a FuncUnit fu (ops, latency lat), a
 * Register r and a mux in front of fu.in_a:
 *   io.out -> fu_in_a_mux.in0, fu.in_b      fu.out -> r.in
 *   r.out  -> fu_in_a_mux.in1, io.in        fu_in_a_mux.out -> fu.in_a */
static inline cg_netlist *tiny_netlist(cg_opset ops, int lat)
{
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    int top = cg_arch_module_define(a, "architecture", d);
    cg_arch_set_top(a, top);
    cg_arch_set_grid(a, 1, 1);
    cg_prim_params fu, r, io;
    cg_prim_params_init(&fu, CG_PRIM_FUNC);
    fu.ops = ops;
    fu.latency = lat;
    cg_prim_params_init(&r, CG_PRIM_REG);
    cg_prim_params_init(&io, CG_PRIM_IO);
    cg_arch_add_prim(a, top, "fu", &fu, d);
    cg_arch_add_prim(a, top, "r", &r, d);
    cg_arch_add_prim(a, top, "io", &io, d);
    const char *srcs[] = {"io.out", "r.out"};
    cg_arch_connect_select(a, top, srcs, 2, "fu.in_a", d);
    cg_arch_connect(a, top, "io.out", "fu.in_b", d);
    cg_arch_connect(a, top, "fu.out", "r.in", d);
    cg_arch_connect(a, top, "r.out", "io.in", d);
    return flatten_ok(a, d);
}

/* An rows x cols mesh of the default PE (memory columns, IO ring). */
static inline cg_netlist *mesh_netlist(int rows, int cols)
{
    cg_diags *d = cg_diags_create();
    cg_mesh_params p;
    cg_mesh_params_init(&p);
    p.rows = rows;
    p.cols = cols;
    return flatten_ok(cg_arch_mesh(&p, d), d);
}

static inline int dfg_node(cg_dfg *g, cg_op op, const char *name)
{
    int id = cg_dfg_add_node(g, op, op == CG_OP_ICMP ? 1 : 32, name);
    assert_true(id >= 0);
    if (op == CG_OP_CONST)
        cg_dfg_set_value(g, id, 7);
    return id;
}

/* a -> b -> c -> e -> o and a -> e directly: reconvergent paths of
 * unequal length (b and c each take a cycle), for the heuristic, the ILP
 * and SAT tests alike; the ids the tests look at. */
typedef struct reconv {
    cg_dfg *g;
    int a, c, e;    /* nodes */
    int ce, direct; /* edges c -> e and a -> e */
} reconv;

static inline reconv reconv_dfg(void)
{
    reconv r = {cg_dfg_create("reconv"), 0, 0, 0, 0, 0};
    cg_dfg *g = r.g;
    int a = dfg_node(g, CG_OP_INPUT, "a"), b = dfg_node(g, CG_OP_ADD, "b");
    int c = dfg_node(g, CG_OP_MUL, "c"), e = dfg_node(g, CG_OP_SUB, "e");
    int o = dfg_node(g, CG_OP_OUTPUT, "o");
    cg_dfg_add_edge(g, a, b, 0, 0, -1);
    cg_dfg_add_edge(g, a, b, 1, 0, -1);
    cg_dfg_add_edge(g, b, c, 0, 0, -1);
    cg_dfg_add_edge(g, b, c, 1, 0, -1);
    r.ce = cg_dfg_add_edge(g, c, e, 0, 0, -1);
    r.direct = cg_dfg_add_edge(g, a, e, 1, 0, -1);
    cg_dfg_add_edge(g, e, o, 0, 0, -1);
    r.a = a;
    r.c = c;
    r.e = e;
    return r;
}

/* out = (a + b) * k: inputs a, b (nodes 0, 1), const k (2), add s (3),
 * mul m (4), output o (5). */
static inline cg_dfg *axpy_dfg(void)
{
    cg_dfg *g = cg_dfg_create("axpy");
    int a = dfg_node(g, CG_OP_INPUT, "a"), b = dfg_node(g, CG_OP_INPUT, "b");
    int k = dfg_node(g, CG_OP_CONST, "k"), s = dfg_node(g, CG_OP_ADD, "s");
    int m = dfg_node(g, CG_OP_MUL, "m"), o = dfg_node(g, CG_OP_OUTPUT, "o");
    cg_dfg_add_edge(g, a, s, 0, 0, -1);
    cg_dfg_add_edge(g, b, s, 1, 0, -1);
    cg_dfg_add_edge(g, s, m, 0, 0, -1);
    cg_dfg_add_edge(g, k, m, 1, 0, -1);
    cg_dfg_add_edge(g, m, o, 0, 0, -1);
    return g;
}

/* len adds after node from, each adding its producer to itself; the
 * last of them (from when len is 0). */
static inline int chain_after(cg_dfg *g, int from, int len)
{
    int prev = from;
    for (int i = 0; i < len; i++) {
        int v = dfg_node(g, CG_OP_ADD, NULL);
        cg_dfg_add_edge(g, prev, v, 0, 0, -1);
        cg_dfg_add_edge(g, prev, v, 1, 0, -1);
        prev = v;
    }
    return prev;
}

/* x -> a1 -> ... -> a<len> -> o: a chain of adds, each adding its
 * producer to itself. */
static inline cg_dfg *add_chain(int len)
{
    cg_dfg *g = cg_dfg_create("chain");
    int prev = chain_after(g, dfg_node(g, CG_OP_INPUT, "x"), len);
    cg_dfg_add_edge(g, prev, dfg_node(g, CG_OP_OUTPUT, "o"), 0, 0, -1);
    return g;
}

/* x -> b1 -> ... -> b<len> -> e and x -> e directly, output e. */
static inline cg_dfg *long_and_short(int len)
{
    cg_dfg *g = cg_dfg_create("ls");
    int x = dfg_node(g, CG_OP_INPUT, "x"), prev = chain_after(g, x, len);
    int e = dfg_node(g, CG_OP_SUB, "e");
    cg_dfg_add_edge(g, prev, e, 0, 0, -1);
    cg_dfg_add_edge(g, x, e, 1, 0, -1);
    cg_dfg_add_edge(g, e, dfg_node(g, CG_OP_OUTPUT, "o"), 0, 0, -1);
    return g;
}

/* Two independent chains a -> s -> o and b -> t -> p (s = a + a,
 * t = b - b); ids[] gets a, s, t, p (for extra orderings between them). */
static inline cg_dfg *two_chains(int ids[4])
{
    cg_dfg *g = cg_dfg_create("two");
    int a = dfg_node(g, CG_OP_INPUT, "a"), s = dfg_node(g, CG_OP_ADD, "s");
    int o = dfg_node(g, CG_OP_OUTPUT, "o");
    int b = dfg_node(g, CG_OP_INPUT, "b"), t = dfg_node(g, CG_OP_SUB, "t");
    int p = dfg_node(g, CG_OP_OUTPUT, "p");
    cg_dfg_add_edge(g, a, s, 0, 0, -1);
    cg_dfg_add_edge(g, a, s, 1, 0, -1);
    cg_dfg_add_edge(g, s, o, 0, 0, -1);
    cg_dfg_add_edge(g, b, t, 0, 0, -1);
    cg_dfg_add_edge(g, b, t, 1, 0, -1);
    cg_dfg_add_edge(g, t, p, 0, 0, -1);
    ids[0] = a;
    ids[1] = s;
    ids[2] = t;
    ids[3] = p;
    return g;
}

/* two_chains with the extra orderings (as memory orders would be) that
 * t starts at least 3 cycles after s of the same iteration and a of
 * iteration i+3 no earlier than p of iteration i, in ord[0..1]. */
static inline cg_dfg *ordered_chains(int ids[4], cg__heur_order ord[2])
{
    cg_dfg *g = two_chains(ids);
    ord[0] = (cg__heur_order){ids[1], ids[2], 0, 3};
    ord[1] = (cg__heur_order){ids[3], ids[0], 3, 0};
    return g;
}

/* The orderings of ordered_chains hold in map, at II ii. */
static inline void assert_chain_orders(const cg_mapping *map,
                                       const int ids[4], int ii)
{
    assert_true(map->start[ids[2]] >= map->start[ids[1]] + 3);
    assert_true(map->start[ids[0]] + 3 * ii >= map->start[ids[3]]);
}

/* The accumulator s = s + x (s carried one iteration), with an output of
 * s when with_output. */
static inline cg_dfg *accumulator(bool with_output)
{
    cg_dfg *g = cg_dfg_create("acc");
    int x = dfg_node(g, CG_OP_INPUT, "x"), s = dfg_node(g, CG_OP_ADD, "s");
    cg_dfg_add_edge(g, x, s, 1, 0, -1);
    cg_dfg_add_edge(g, s, s, 0, 1, -1);
    if (with_output)
        cg_dfg_add_edge(g, s, dfg_node(g, CG_OP_OUTPUT, "o"), 0, 0, -1);
    return g;
}

/* x fans out to k ops (x+x, x*x, ...), each to an output. */
static inline cg_dfg *fanout(int k)
{
    cg_dfg *g = cg_dfg_create("fanout");
    int x = dfg_node(g, CG_OP_INPUT, "x");
    for (int i = 0; i < k; i++) {
        int v = dfg_node(g, i % 2 ? CG_OP_MUL : CG_OP_ADD, NULL);
        cg_dfg_add_edge(g, x, v, 0, 0, -1);
        cg_dfg_add_edge(g, x, v, 1, 0, -1);
        cg_dfg_add_edge(g, v, dfg_node(g, CG_OP_OUTPUT, NULL), 0, 0, -1);
    }
    return g;
}

/* A mapping's rules, re-checked here without the library's checker:
 * every op on a FUNC node that supports it in context start mod II, no
 * FUNC node twice, each route a chain of MRRG edges from the producer's
 * FUNC node to the pin of the right operand of the consumer's, no ROUTE
 * node carrying two values, and start(dst) + d*II = start(src) + latency
 * of the route.  Returns the number of ROUTE nodes used. */
static inline int verify_mapping(const cg_netlist *nl, const cg_mrrg *m,
                                 const cg_dfg *g, const cg_mapping *map)
{
    int nn = cg_mrrg_nnodes(m), ii = cg_mrrg_ii(m);
    int *owner = malloc(sizeof(int) * (size_t)nn);
    for (int i = 0; i < nn; i++)
        owner[i] = -1;
    assert_int_equal(map->ii, ii);
    for (int v = 0; v < cg_dfg_nnodes(g); v++) {
        int p = map->place[v];
        assert_true(p >= 0 && p < nn);
        assert_true(cg_mrrg_supports(m, nl, p, cg_dfg_get_node(g, v)->op));
        int64_t c = ((map->start[v] % ii) + ii) % ii;
        assert_int_equal(cg_mrrg_get_node(m, p)->context, c);
        assert_int_equal(owner[p], -1);
        owner[p] = v;
    }
    int used = 0;
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        int at = map->place[ed->src], lat = 0;
        assert_true(map->route_len[e] >= 1);
        for (int i = 0; i < map->route_len[e]; i++) {
            int to = map->route[e][i], n, found = -1;
            const int *out = cg_mrrg_out(m, at, &n);
            for (int j = 0; j < n && found < 0; j++)
                if (cg_mrrg_get_edge(m, out[j])->to == to)
                    found = out[j];
            assert_true(found >= 0);
            lat += cg_mrrg_get_edge(m, found)->delay;
            assert_int_equal(cg_mrrg_get_node(m, to)->kind, CG_MRRG_ROUTE);
            if (owner[to] < 0) {
                owner[to] = ed->src;
                used++;
            }
            assert_int_equal(owner[to], ed->src);
            at = to;
        }
        const cg_mrrg_node *pin = cg_mrrg_get_node(m, at);
        assert_int_equal(pin->func, map->place[ed->dst]);
        assert_int_equal(pin->operand, ed->operand);
        assert_int_equal(map->start[ed->dst] + (int64_t)ed->distance * ii,
                         map->start[ed->src] + lat);
    }
    free(owner);
    return used;
}

/* Latency of the route of DFG edge e in a mapping, from its producer's
 * FUNC node `from` (the sum of the MRRG edge delays along it). */
static inline int route_latency(const cg_mrrg *m, const cg_mapping *map,
                                int from, int e)
{
    int lat = 0, at = from;
    for (int i = 0; i < map->route_len[e]; i++) {
        int n;
        const int *out = cg_mrrg_out(m, at, &n);
        for (int j = 0; j < n; j++)
            if (cg_mrrg_get_edge(m, out[j])->to == map->route[e][i]) {
                lat += cg_mrrg_get_edge(m, out[j])->delay;
                break;
            }
        at = map->route[e][i];
    }
    return lat;
}

#endif
