/* Tests for dfg/dfg.c and dfg/check.c: the model and its checker. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dfg/dfg.h"

/* The only error of d, formatted; the test fails when there is not
 * exactly one. */
static void expect_one(cg_diags *d, const char *want)
{
    if (cg_diags_size(d) != 1)
        cg_diags_print(d, stderr);
    assert_int_equal(cg_diags_size(d), 1);
    char *s = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(s, want);
    free(s);
}

static void ids_names_strings(void **state)
{
    (void)state;
    cg_dfg *g = cg_dfg_create("loop");
    char buf[16];
    strcpy(buf, "x");
    int a = cg_dfg_add_node(g, CG_OP_INPUT, 32, buf);
    strcpy(buf, "zzz"); /* the graph owns its copy */
    int b = cg_dfg_add_node(g, CG_OP_ADD, 32, NULL);
    int c = cg_dfg_add_node(g, CG_OP_ADD, 32, "x");
    int e = cg_dfg_add_node(g, CG_OP_ADD, 32, "add1");
    assert_int_equal(a, 0);
    assert_int_equal(b, 1);
    assert_string_equal(cg_dfg_get_node(g, a)->name, "x");
    assert_string_equal(cg_dfg_get_node(g, b)->name, "add1");
    assert_string_equal(cg_dfg_get_node(g, c)->name, "x.1");
    assert_string_equal(cg_dfg_get_node(g, e)->name, "add1.1");
    assert_int_equal(cg_dfg_find(g, "x.1"), c);
    assert_int_equal(cg_dfg_find(g, "nope"), -1);
    assert_null(cg_dfg_get_node(g, 4));
    assert_null(cg_dfg_get_node(g, -1));
    assert_string_equal(cg_dfg_name(g), "loop");
    assert_null(cg_dfg_file(g));
    strcpy(buf, "k.c");
    cg_dfg_set_file(g, buf);
    strcpy(buf, "zzz");
    assert_string_equal(cg_dfg_file(g), "k.c");
    cg_dfg_set_sym(g, a, "A");
    assert_string_equal(cg_dfg_get_node(g, a)->sym, "A");
    cg_dfg_set_value(g, a, -7);
    assert_true(cg_dfg_get_node(g, a)->has_value);
    assert_int_equal(cg_dfg_get_node(g, a)->value, -7);
    int e0 = cg_dfg_add_edge(g, a, b, 1, 0, -1);
    int e1 = cg_dfg_add_edge(g, b, b, 0, 1, a);
    assert_int_equal(cg_dfg_nedges(g), 2);
    assert_int_equal(cg_dfg_operand_edge(g, b, 1), e0);
    assert_int_equal(cg_dfg_operand_edge(g, b, 0), e1);
    assert_int_equal(cg_dfg_operand_edge(g, c, 0), -1);
    cg_dfg_edge_mut(g, e1)->operand = 2;
    assert_int_equal(cg_dfg_operand_edge(g, b, 0), -1);
    assert_int_equal(cg_dfg_get_edge(g, e1)->init, a);
    cg_dfg_destroy(g);
    cg_dfg_destroy(NULL);
}

static void compact_renumbers(void **state)
{
    (void)state;
    cg_dfg *g = cg_dfg_create("c");
    int i0 = cg_dfg_add_node(g, CG_OP_INPUT, 32, "i");
    int k = cg_dfg_add_node(g, CG_OP_CONST, 32, "k");
    int dead = cg_dfg_add_node(g, CG_OP_ADD, 32, "dead");
    int s = cg_dfg_add_node(g, CG_OP_ADD, 32, "s");
    cg_dfg_add_edge(g, i0, dead, 0, 0, -1);
    cg_dfg_add_edge(g, i0, s, 0, 0, -1);
    cg_dfg_add_edge(g, s, s, 1, 1, k);
    cg_dfg_add_edge(g, dead, s, 1, 0, -1);
    bool keep[4] = {true, true, false, true};
    int map[4];
    cg_dfg_compact(g, keep, NULL, map);
    assert_int_equal(map[0], 0);
    assert_int_equal(map[2], -1);
    assert_int_equal(map[3], 2);
    assert_int_equal(cg_dfg_nnodes(g), 3);
    assert_int_equal(cg_dfg_nedges(g), 2);
    assert_string_equal(cg_dfg_get_node(g, 2)->name, "s");
    const cg_dfg_edge *e = cg_dfg_get_edge(g, 1);
    assert_int_equal(e->src, 2);
    assert_int_equal(e->dst, 2);
    assert_int_equal(e->init, 1);
    bool keep_e[2] = {true, false};
    cg_dfg_compact(g, NULL, keep_e, NULL);
    assert_int_equal(cg_dfg_nedges(g), 1);
    assert_int_equal(cg_dfg_nnodes(g), 3);
    cg_dfg_destroy(g);
}

/* cg_dfg_find after a compaction (it is hashed): kept names at their new
 * ids, a dropped name at none, even where its old id is another node's
 * now; a new node may take the dropped name again. */
static void find_after_compact(void **state)
{
    (void)state;
    cg_dfg *g = cg_dfg_create("c");
    cg_dfg_add_node(g, CG_OP_INPUT, 32, "a");
    cg_dfg_add_node(g, CG_OP_INPUT, 32, "b");
    cg_dfg_add_node(g, CG_OP_INPUT, 32, "c");
    bool keep[3] = {false, true, true};
    cg_dfg_compact(g, keep, NULL, NULL);
    assert_int_equal(cg_dfg_find(g, "a"), -1);
    assert_int_equal(cg_dfg_find(g, "b"), 0);
    assert_int_equal(cg_dfg_find(g, "c"), 1);
    bool keep2[2] = {true, false};
    cg_dfg_compact(g, keep2, NULL, NULL);
    assert_int_equal(cg_dfg_find(g, "c"), -1); /* its old id 1 is past the end */
    int a = cg_dfg_add_node(g, CG_OP_ADD, 32, "a");
    int c = cg_dfg_add_node(g, CG_OP_ADD, 32, "c");
    assert_int_equal(a, 1);
    assert_string_equal(cg_dfg_get_node(g, a)->name, "a");
    assert_int_equal(cg_dfg_find(g, "a"), 1);
    assert_int_equal(cg_dfg_find(g, "c"), c);
    assert_int_equal(cg_dfg_find(g, "b"), 0);
    cg_dfg_destroy(g);
}

/* sum += A[i] shaped graph: good as built. */
static cg_dfg *sum_graph(void)
{
    cg_dfg *g = cg_dfg_create("sum");
    cg_dfg_set_file(g, "sum.c");
    int a = cg_dfg_add_node(g, CG_OP_INPUT, 64, "addr");
    int ld = cg_dfg_add_node(g, CG_OP_LOAD, 32, "ld");
    int s = cg_dfg_add_node(g, CG_OP_ADD, 32, "s");
    int o = cg_dfg_add_node(g, CG_OP_OUTPUT, 32, "out");
    int z = cg_dfg_add_node(g, CG_OP_CONST, 32, "init");
    cg_dfg_node_mut(g, s)->line = 7;
    cg_dfg_add_edge(g, a, ld, 0, 0, -1);
    cg_dfg_add_edge(g, ld, s, 0, 0, -1);
    cg_dfg_add_edge(g, s, s, 1, 1, z);
    cg_dfg_add_edge(g, s, o, 0, 0, -1);
    return g;
}

static void check_good(void **state)
{
    (void)state;
    cg_dfg *g = sum_graph();
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_check(g, d), 0);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
}

/* Apply f to a fresh sum graph and expect message want first. */
static void want_check(void (*f)(cg_dfg *), const char *want)
{
    cg_dfg *g = sum_graph();
    f(g);
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_check(g, d), -1);
    if (cg_diags_size(d) == 2) /* an operand moved away leaves a hole */
        assert_non_null(strstr(cg_diags_get(d, 1)->msg,
                               "node 's' (add): operand 0 has no edge (add "
                               "takes 2 operands)"));
    else
        assert_int_equal(cg_diags_size(d), 1);
    char *s = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(s, want);
    free(s);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
}

static void mk_missing(cg_dfg *g) { cg_dfg_edge_mut(g, 1)->operand = 2; }
static void mk_twice(cg_dfg *g) { cg_dfg_edge_mut(g, 1)->operand = 1; }
static void mk_zero_cycle(cg_dfg *g)
{
    cg_dfg_edge_mut(g, 2)->distance = 0;
    cg_dfg_edge_mut(g, 2)->init = -1;
}
static void mk_neg(cg_dfg *g) { cg_dfg_edge_mut(g, 2)->distance = -1; }
static void mk_bad_init(cg_dfg *g) { cg_dfg_edge_mut(g, 2)->init = 1; }
static void mk_init_d0(cg_dfg *g)
{
    cg_dfg_add_edge(g, 0, 1, 0, 0, 4);
    cg_dfg_edge_mut(g, 0)->operand = 7;
}
static void mk_width(cg_dfg *g) { cg_dfg_node_mut(g, 1)->width = 16; }
static void mk_memwidth(cg_dfg *g)
{
    cg_dfg_node_mut(g, 1)->width = 12;
    cg_dfg_node_mut(g, 2)->width = 12;
    cg_dfg_node_mut(g, 3)->width = 12;
    cg_dfg_node_mut(g, 4)->width = 12;
}
static void mk_pred(cg_dfg *g) { cg_dfg_node_mut(g, 2)->pred = CG_PRED_EQ; }
static void mk_no_file(cg_dfg *g)
{
    cg_dfg_set_file(g, NULL);
    cg_dfg_edge_mut(g, 1)->operand = 2;
}

static void check_errors(void **state)
{
    (void)state;
    want_check(mk_missing,
                 "sum.c:7: error: edge 'ld' -> 's': operand 2 is out of "
                 "range: add takes 2 operands");
    cg_dfg *g = sum_graph();
    mk_missing(g);
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_check(g, d), -1);
    assert_int_equal(cg_diags_size(d), 2);
    char *s = cg_diag_format(cg_diags_get(d, 1));
    assert_string_equal(s, "sum.c:7: error: node 's' (add): operand 0 has no "
                           "edge (add takes 2 operands)");
    free(s);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    want_check(mk_no_file,
                 "error: edge 'ld' -> 's': operand 2 is out of range: add "
                 "takes 2 operands (line 7)");
    want_check(mk_zero_cycle,
                 "sum.c:7: error: node 's' is on a cycle of distance-0 edges "
                 "('s' <- 's'); a value cannot depend on itself in one "
                 "iteration: give the loop-carried edge a distance >= 1");
    want_check(mk_neg, "sum.c:7: error: edge 's' -> 's': distance -1 is "
                         "negative (0 = same iteration, k = k iterations "
                         "earlier)");
    want_check(mk_bad_init, "sum.c:7: error: edge 's' -> 's': init node "
                              "'ld' is a load; it must be a const or an "
                              "input");
    want_check(mk_width, "sum.c:7: error: node 's' (add, 32 bits): operand "
                           "0 from 'ld' is 16 bits; it must be 32 bits");
    want_check(mk_memwidth, "sum.c: error: node 'ld' (load): width 12 is "
                              "not 8, 16, 32 or 64 (the bits accessed)");
    want_check(mk_pred, "sum.c:7: error: node 's' (add) has a predicate; "
                          "only icmp nodes have one");
    (void)mk_twice;
    (void)mk_init_d0;
}

static void check_twice_and_init(void **state)
{
    (void)state;
    cg_dfg *g = sum_graph();
    cg_dfg_add_edge(g, 0, 1, 0, 0, -1);
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_check(g, d), -1);
    expect_one(d, "sum.c: error: node 'ld': operand 0 is fed twice, by "
                  "'addr' and by 'addr'");
    cg_diags_destroy(d);
    cg_dfg_destroy(g);

    g = sum_graph();
    cg_dfg_edge_mut(g, 0)->init = 4;
    d = cg_diags_create();
    assert_int_equal(cg_dfg_check(g, d), -1);
    expect_one(d, "sum.c: error: edge 'addr' -> 'ld' has init 'init' but "
                  "distance 0; only loop-carried edges (distance >= 1) have "
                  "an init");
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
}

static void check_longer_cycle_and_icmp(void **state)
{
    (void)state;
    cg_dfg *g = cg_dfg_create("c");
    int a = cg_dfg_add_node(g, CG_OP_ADD, 8, "a");
    int b = cg_dfg_add_node(g, CG_OP_SUB, 8, "b");
    int i = cg_dfg_add_node(g, CG_OP_INPUT, 8, "i");
    int c = cg_dfg_add_node(g, CG_OP_ICMP, 1, "c");
    int t = cg_dfg_add_node(g, CG_OP_TRUNC, 16, "t");
    cg_dfg_add_edge(g, i, a, 0, 0, -1);
    cg_dfg_add_edge(g, b, a, 1, 0, -1);
    cg_dfg_add_edge(g, a, b, 0, 0, -1);
    cg_dfg_add_edge(g, i, b, 1, 0, -1);
    cg_dfg_add_edge(g, a, c, 0, 0, -1);
    cg_dfg_add_edge(g, b, c, 1, 0, -1);
    cg_dfg_add_edge(g, i, t, 0, 0, -1);
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_check(g, d), -1);
    assert_int_equal(cg_diags_size(d), 3);
    char *s0 = cg_diag_format(cg_diags_get(d, 0));
    char *s1 = cg_diag_format(cg_diags_get(d, 1));
    char *s2 = cg_diag_format(cg_diags_get(d, 2));
    assert_string_equal(s0, "error: node 'c' (icmp) has no predicate (pred= "
                            "one of eq ne slt sle sgt sge ult ule ugt uge)");
    assert_string_equal(s1, "error: node 't' (trunc): operand 'i' is 8 bits, "
                            "the result 16; trunc cannot widen");
    assert_string_equal(s2, "error: node 'a' is on a cycle of distance-0 "
                            "edges ('a' <- 'b' <- 'a'); a value cannot depend "
                            "on itself in one iteration: give the "
                            "loop-carried edge a distance >= 1");
    free(s0), free(s1), free(s2);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
}

static void nest_owned(void **state)
{
    (void)state;
    cg_dfg *g = cg_dfg_create("n");
    assert_null(cg_dfg_nest(g));
    cg_nest *n = calloc(1, sizeof *n);
    n->nloops = 2;
    n->loops[0].counter = strdup("i");
    n->loops[1].trip_sym = strdup("N");
    n->narrays = 1;
    n->arrays = calloc(1, sizeof *n->arrays);
    n->arrays[0].name = strdup("A");
    n->naccesses = 1;
    n->accesses = calloc(1, sizeof *n->accesses);
    cg_dfg_set_nest(g, n);
    assert_ptr_equal(cg_dfg_nest(g), n);
    cg_dfg_set_nest(g, n); /* same nest again: kept, not freed */
    cg_nest *m = calloc(1, sizeof *m);
    cg_dfg_set_nest(g, m); /* replaces and frees n */
    cg_dfg_destroy(g);     /* frees m; ASan checks both */
    cg_nest_destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ids_names_strings),
        cmocka_unit_test(compact_renumbers),
        cmocka_unit_test(find_after_compact),
        cmocka_unit_test(check_good),
        cmocka_unit_test(check_errors),
        cmocka_unit_test(check_twice_and_init),
        cmocka_unit_test(check_longer_cycle_and_icmp),
        cmocka_unit_test(nest_owned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
