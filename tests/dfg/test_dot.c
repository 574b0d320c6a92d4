/* test_dot.c: the Graphviz form of DFGs (dfg/dot_*.c): golden writes,
 * write -> read -> write round trips that compare every field, CGRA-ME
 * files (no widths, no values, recurrences closed by cycles), every
 * syntax form accepted, every error with its exact message and line, and
 * the writers' failure on a full disk.  The benchmarks' DFGs round-trip
 * in tests/extract/test_extract.c. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diag_list.h"

#include "common/util.h"
#include "tests/common/golden.h"
#include "dfg/dfg.h"

/* ---- helpers ----------------------------------------------------------- */

static char *dot_text(const cg_dfg *g)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(cg_dfg_write_dot(g, f), 0);
    fclose(f);
    return buf;
}

static void assert_same_str(const char *a, const char *b)
{
    if (!a || !b)
        assert_ptr_equal(a, b);
    else
        assert_string_equal(a, b);
}

/* Every field of every node and edge, the name and the file. */
static void assert_same_graph(const cg_dfg *a, const cg_dfg *b)
{
    assert_string_equal(cg_dfg_name(a), cg_dfg_name(b));
    assert_same_str(cg_dfg_file(a), cg_dfg_file(b));
    assert_int_equal(cg_dfg_nnodes(a), cg_dfg_nnodes(b));
    assert_int_equal(cg_dfg_nedges(a), cg_dfg_nedges(b));
    for (int i = 0; i < cg_dfg_nnodes(a); i++) {
        const cg_dfg_node *x = cg_dfg_get_node(a, i);
        const cg_dfg_node *y = cg_dfg_get_node(b, i);
        assert_int_equal(x->op, y->op);
        assert_int_equal(x->pred, y->pred);
        assert_int_equal(x->width, y->width);
        assert_string_equal(x->name, y->name);
        assert_int_equal(x->line, y->line);
        assert_int_equal(x->has_value, y->has_value);
        assert_int_equal(x->value, y->value);
        assert_same_str(x->sym, y->sym);
        assert_int_equal(x->bank, y->bank);
    }
    for (int e = 0; e < cg_dfg_nedges(a); e++)
        assert_memory_equal(cg_dfg_get_edge(a, e), cg_dfg_get_edge(b, e),
                            sizeof(cg_dfg_edge));
    const cg_mem_order *oa, *ob;
    int na = cg_dfg_mem_order(a, &oa), nb = cg_dfg_mem_order(b, &ob);
    assert_int_equal(na, nb);
    if (na > 0)
        assert_memory_equal(oa, ob, sizeof *oa * (size_t)na);
}

/* g read without a message (else the messages are printed); frees d. */
static cg_dfg *read_clean(cg_dfg *g, cg_diags *d)
{
    if (!g)
        cg_diags_print(d, stderr);
    assert_non_null(g);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
    return g;
}

static cg_dfg *read_ok(const char *path)
{
    cg_diags *d = cg_diags_create();
    return read_clean(cg_dfg_read_dot(path, d), d);
}

static cg_dfg *read_ok_string(const char *text)
{
    cg_diags *d = cg_diags_create();
    return read_clean(cg_dfg_read_dot_string(text, "s.dot", d), d);
}


/* text (as file t.dot) fails with exactly the messages given, NULL-ended. */
static void expect_errors(const char *text, ...)
{
    cg_diags *d = cg_diags_create();
    assert_null(cg_dfg_read_dot_string(text, "t.dot", d));
    va_list ap;
    va_start(ap, text);
    expect_diag_list(d, ap);
    va_end(ap);
    cg_diags_destroy(d);
}

/* d holds exactly the n messages of want, in order; frees d. */
static void expect_diags(cg_diags *d, const char *const *want, int n)
{
    if (cg_diags_size(d) != n)
        cg_diags_print(d, stderr);
    assert_int_equal(cg_diags_size(d), n);
    for (int i = 0; i < n; i++) {
        char *have = cg_diag_format(cg_diags_get(d, i));
        assert_string_equal(have, want[i]);
        free(have);
    }
    cg_diags_destroy(d);
}

#define OPS "nop input output const trunc sext zext phi select add sub mul " \
            "sdiv udiv srem urem and or xor shl ashr lshr icmp gep load store"

/* ---- graphs built through the API -------------------------------------- */

/* An accumulator with a compare and a select; names that need quotes. */
static cg_dfg *acc_graph(void)
{
    cg_dfg *g = cg_dfg_create("acc");
    cg_dfg_set_file(g, "bench/acc.c");
    int x = cg_dfg_add_node(g, CG_OP_INPUT, 32, "x");
    cg_dfg_set_sym(g, x, "x");
    cg_dfg_node_mut(g, x)->line = 3;
    int zero = cg_dfg_add_node(g, CG_OP_CONST, 32, NULL);
    cg_dfg_set_value(g, zero, 0);
    int sum = cg_dfg_add_node(g, CG_OP_ADD, 32, "sum");
    cg_dfg_node_mut(g, sum)->line = 4;
    int lim = cg_dfg_add_node(g, CG_OP_CONST, 32, "lim.1");
    cg_dfg_set_value(g, lim, -7);
    int cmp = cg_dfg_add_node(g, CG_OP_ICMP, 1, "cmp");
    cg_dfg_node_mut(g, cmp)->pred = CG_PRED_SLT;
    int sel = cg_dfg_add_node(g, CG_OP_SELECT, 32, "node");
    int out = cg_dfg_add_node(g, CG_OP_OUTPUT, 32, "out \"q\" \\");
    int done = cg_dfg_add_node(g, CG_OP_OUTPUT, 1, "loop_exit");
    cg_dfg_add_edge(g, x, sum, 0, 0, -1);
    cg_dfg_add_edge(g, sum, sum, 1, 1, zero);
    cg_dfg_add_edge(g, sum, cmp, 0, 0, -1);
    cg_dfg_add_edge(g, lim, cmp, 1, 0, -1);
    cg_dfg_add_edge(g, cmp, sel, 0, 0, -1);
    cg_dfg_add_edge(g, sum, sel, 1, 0, -1);
    cg_dfg_add_edge(g, x, sel, 2, 0, -1);
    cg_dfg_add_edge(g, sel, out, 0, 0, -1);
    cg_dfg_add_edge(g, cmp, done, 0, 0, -1);
    return g;
}

/* Memory at 8 bits, sext/trunc, a gep; named G, no file. */
static cg_dfg *mem_graph(void)
{
    cg_dfg *g = cg_dfg_create("G");
    int base = cg_dfg_add_node(g, CG_OP_CONST, 64, NULL);
    cg_dfg_set_value(g, base, 4096);
    cg_dfg_set_sym(g, base, "A");
    int i = cg_dfg_add_node(g, CG_OP_INPUT, 64, "i");
    int addr = cg_dfg_add_node(g, CG_OP_GEP, 64, NULL);
    int ld = cg_dfg_add_node(g, CG_OP_LOAD, 8, NULL);
    int ext = cg_dfg_add_node(g, CG_OP_SEXT, 32, NULL);
    int t = cg_dfg_add_node(g, CG_OP_TRUNC, 8, NULL);
    int st = cg_dfg_add_node(g, CG_OP_STORE, 8, NULL);
    cg_dfg_add_edge(g, base, addr, 0, 0, -1);
    cg_dfg_add_edge(g, i, addr, 1, 0, -1);
    cg_dfg_add_edge(g, addr, ld, 0, 0, -1);
    cg_dfg_add_edge(g, ld, ext, 0, 0, -1);
    cg_dfg_add_edge(g, ext, t, 0, 0, -1);
    cg_dfg_add_edge(g, addr, st, 0, 0, -1);
    cg_dfg_add_edge(g, t, st, 1, 0, -1);
    return g;
}

/* Written form against tests/dfg/golden/dot/NAME.dot (CG_UPDATE_GOLDEN=1
 * rewrites it; review the diff), then read back: same fields, same bytes. */
static void golden(cg_dfg *g, const char *name)
{
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_check(g, d), 0);
    char path[256];
    snprintf(path, sizeof path, "tests/dfg/golden/dot/%s.dot", name);
    char *have = dot_text(g);
    cg_golden_check(path, have);
    char *want = cg_slurp(path, NULL);
    assert_non_null(want);
    assert_string_equal(have, want);
    cg_dfg *h = cg_dfg_read_dot(path, d);
    assert_non_null(h);
    assert_same_graph(g, h);
    char *again = dot_text(h);
    assert_string_equal(again, want);
    free(have), free(want), free(again);
    cg_dfg_destroy(h);
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
}

static void test_golden_acc(void **state)
{
    (void)state;
    golden(acc_graph(), "acc");
}

static void test_golden_mem(void **state)
{
    (void)state;
    golden(mem_graph(), "mem");
}

/* A tile DFG: its load and store carry the banks the tiler chose. */
static void test_golden_banks(void **state)
{
    (void)state;
    cg_dfg *g = mem_graph();
    for (int v = 0; v < cg_dfg_nnodes(g); v++) {
        cg_dfg_node *n = cg_dfg_node_mut(g, v);
        if (n->op == CG_OP_LOAD || n->op == CG_OP_STORE)
            n->bank = n->op == CG_OP_LOAD ? 1 : 0;
    }
    golden(g, "banks");
}

/* Both writers say when their bytes did not reach the file: /dev/full
 * fails every write, seen when the writer flushes. */
static void test_write_full(void **state)
{
    (void)state;
    cg_dfg *g = mem_graph();
    cg_mem_order o = {3, 6, 0, 0};
    for (int ordered = 0; ordered < 2; ordered++) {
        FILE *f = fopen("/dev/full", "w");
        assert_non_null(f);
        errno = 0;
        assert_int_equal(ordered ? cg_dfg_write_dot_ordered(g, &o, 1, f)
                                 : cg_dfg_write_dot(g, f), -1);
        assert_int_equal(errno, ENOSPC);
        fclose(f);
    }
    cg_dfg_destroy(g);
}

/* A stated memory order (what `cgramap dfg` writes): load3 before store6
 * in an iteration, store6 before load3 of the next. */
static void test_golden_order(void **state)
{
    (void)state;
    cg_dfg *g = mem_graph();
    cg_diags *d = cg_diags_create();
    cg_mem_order o[2] = {{3, 6, 0, 0}, {6, 3, 1, 0}};
    assert_int_equal(cg_dfg_set_mem_order(g, o, 2, d), 0);
    const cg_mem_order *v;
    assert_int_equal(cg_dfg_mem_order(g, &v), 2);
    assert_int_equal(v[1].first, 6);
    cg_diags_destroy(d);
    golden(g, "order");
    /* an empty order is stated too (no pair aliases), absent is not */
    cg_dfg *e = read_ok_string("digraph e {\n graph [memory_order=\"\"];\n"
                               " a[opcode=input];\n}\n");
    assert_int_equal(cg_dfg_mem_order(e, &v), 0);
    cg_dfg_clear_mem_order(e);
    assert_int_equal(cg_dfg_mem_order(e, &v), -1);
    cg_dfg_destroy(e);
}

/* What the attribute cannot hold or does not allow: exact messages at the
 * line of the attribute. */
static void test_order_errors(void **state)
{
    (void)state;
    const char *body = " l[opcode=load width=32];\n s[opcode=store "
                       "width=32];\n m[opcode=load width=32];\n"
                       " a[opcode=input width=64];\n v[opcode=input "
                       "width=32];\n a->l[operand=0];\n a->s[operand=0];\n"
                       " v->s[operand=1];\n a->m[operand=0];\n}\n";
    static const char *const cases[][2] = {
        {"l->s", "t.dot:2: error: memory_order entry 'l->s' is not "
                 "FIRST->THEN:DISTANCE"},
        {"l->s:-1", "t.dot:2: error: memory_order entry 'l->s:-1': the "
                    "distance is not a whole number >= 0"},
        {"l->x:0", "t.dot:2: error: memory_order entry 'l->x:0' names no "
                   "node 'x'"},
        {"l->m:1", "t.dot:2: error: memory_order: loop 'o': memory order "
                   "pair 0 ('l' -> 'm', distance 1) orders two loads (only "
                   "pairs with a store need an order)"},
        {"s->l:0", "t.dot:2: error: memory_order: loop 'o': memory order "
                   "pair 0 ('s' -> 'l', distance 0) has distance 0 but its "
                   "first op does not come first in program order (node "
                   "order)"},
        {"l->s:0 a->s:1", "t.dot:2: error: memory_order: loop 'o': memory "
                          "order pair 1 ('a' -> 's', distance 1) names a "
                          "node that is not a load or store"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[1024];
        snprintf(text, sizeof text, "digraph o {\n graph [memory_order=\"%s"
                 "\"];\n%s", cases[i][0], body);
        expect_errors(text, cases[i][1], NULL);
    }
    /* a name the attribute cannot hold is refused when stated; the
       order stated before stays */
    cg_dfg *g = read_ok_string("digraph n {\n a[opcode=input width=64];\n"
                               " \"l:x\"[opcode=load width=32];\n"
                               " m[opcode=load width=32];\n"
                               " st[opcode=store width=32];\n"
                               " a->\"l:x\"[operand=0];\n a->m[operand=0];\n"
                               " a->st[operand=0];\n \"l:x\"->st[operand=1];"
                               "\n}\n");
    cg_diags *d = cg_diags_create();
    cg_mem_order ok = {2, 3, 0, 0}, bad = {1, 3, 0, 0};
    assert_int_equal(cg_dfg_set_mem_order(g, &ok, 1, d), 0);
    assert_int_equal(cg_dfg_set_mem_order(g, &bad, 1, d), -1);
    char *msg = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(msg, "error: loop 'n': memory order pair 0 ('l:x' "
                        "-> 'st', distance 0) names a node whose name has "
                        "blanks, ':' or \"->\", which the .dot attribute "
                        "memory_order cannot hold (rename it)");
    free(msg);
    const cg_mem_order *v;
    assert_int_equal(cg_dfg_mem_order(g, &v), 1);
    assert_int_equal(v[0].first, 2);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
}

/* Names no bare id can carry: each is quoted and comes back the same. */
static void test_odd_names(void **state)
{
    (void)state;
    static const char *const names[] = {
        "", "12", "-5", "Node", "subgraph", "a b", "tab\there",
        "line\nbreak", "back\\", "back\\\nslash", "q\"uote\"",
        "caf\xc3\xa9", "x.1", "a->b", "//c", "#h", "[x=1]"};
    size_t n = sizeof names / sizeof *names;
    cg_dfg *g = cg_dfg_create("odd names");
    for (size_t i = 0; i < n; i++) {
        int id = cg_dfg_add_node(g, CG_OP_INPUT, 32, names[i]);
        cg_dfg_set_sym(g, id, names[n - 1 - i]);
        assert_string_equal(cg_dfg_get_node(g, id)->name, names[i]);
    }
    char *a = dot_text(g);
    cg_diags *d = cg_diags_create();
    cg_dfg *h = cg_dfg_read_dot_string(a, "odd.dot", d);
    if (!h)
        cg_diags_print(d, stderr);
    assert_non_null(h);
    assert_same_graph(g, h);
    char *b = dot_text(h);
    assert_string_equal(a, b);
    free(a), free(b);
    cg_dfg_destroy(g);
    cg_dfg_destroy(h);
    cg_diags_destroy(d);
}

/* ---- CGRA-ME files ----------------------------------------------------- */

static int find_edge(const cg_dfg *g, const char *src, const char *dst)
{
    int s = cg_dfg_find(g, src), t = cg_dfg_find(g, dst);
    for (int e = 0; e < cg_dfg_nedges(g); e++)
        if (cg_dfg_get_edge(g, e)->src == s && cg_dfg_get_edge(g, e)->dst == t)
            return e;
    fail_msg("no edge %s -> %s", src, dst);
    return -1;
}

/* No widths, const values only as CGRA-ME 2's constVal="4", CGRA-ME's
 * opcode spellings, a self-loop and a three-node cycle: the cycle-closing
 * edges get distance 1, the rest 0; "digraph G" is named after the file. */
static void test_cgrame(void **state)
{
    (void)state;
    cg_diags *wd = cg_diags_create();
    cg_dfg *g = cg_dfg_read_dot("tests/dfg/data/dot/cgrame_mac.dot", wd);
    assert_non_null(g);
    expect_diags(wd, (const char *const[]){
        "tests/dfg/data/dot/cgrame_mac.dot:9: warning: opcode 'div' (node "
        "'div7') is read as sdiv, but CGRA-ME writes sdiv, udiv, srem and "
        "urem all as 'div'; where another was meant, write its name (udiv, "
        "srem, urem)"}, 1);
    assert_string_equal(cg_dfg_name(g), "cgrame_mac");
    assert_null(cg_dfg_file(g));
    assert_int_equal(cg_dfg_nnodes(g), 11);
    assert_int_equal(cg_dfg_nedges(g), 14);
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        bool closes = e == find_edge(g, "add2", "add2") ||
                      e == find_edge(g, "shra8", "add6");
        assert_int_equal(x->distance, closes ? 1 : 0);
        assert_int_equal(x->init, -1);
    }
    const cg_dfg_node *c = cg_dfg_get_node(g, cg_dfg_find(g, "const1"));
    assert_false(c->has_value);
    c = cg_dfg_get_node(g, cg_dfg_find(g, "const10")); /* CGRA-ME 2 */
    assert_true(c->has_value);
    assert_int_equal(c->value, 4);
    assert_int_equal(cg_dfg_get_node(g, cg_dfg_find(g, "div7"))->op,
                     CG_OP_SDIV);
    assert_int_equal(cg_dfg_get_node(g, cg_dfg_find(g, "shra8"))->op,
                     CG_OP_ASHR);
    for (int i = 0; i < cg_dfg_nnodes(g); i++) {
        assert_int_equal(cg_dfg_get_node(g, i)->width, 32);
        assert_int_equal(cg_dfg_get_node(g, i)->line, 0);
    }
    /* cgramap's form of it round-trips. */
    char *a = dot_text(g);
    cg_diags *d = cg_diags_create();
    cg_dfg *h = cg_dfg_read_dot_string(a, "x.dot", d);
    assert_non_null(h);
    assert_same_graph(g, h);
    cg_dfg_destroy(h);
    cg_diags_destroy(d);
    free(a);
    cg_dfg_destroy(g);
}

/* CGRA-ME's spellings: a phi with three operands is a select (operand 0
 * the condition), a phi with two stays a loop phi; div, rem and shr are
 * read as sdiv, srem and lshr with one warning per spelling and file, at
 * the first node's opcode=, counting the others.  cgramap's own names
 * draw nothing. */
static void test_cgrame_spellings(void **state)
{
    (void)state;
    const char *text =
        "digraph k {\n"                                   /* 1 */
        "a[opcode=input]; b[opcode=input]; c[opcode=icmp, pred=slt];\n"
        "sel[opcode=phi];\n"                              /* 3 */
        "p[opcode=phi]; q[opcode=add];\n"
        "d1[opcode=div]; d2[opcode=div];\n"               /* 5 */
        "r[\n opcode=rem];\n"                             /* 6, 7 */
        "s[opcode=shr]; o[opcode=output];\n"              /* 8 */
        "a->c[operand=0]; b->c[operand=1];\n"
        "c->sel[operand=0]; a->sel[operand=1]; b->sel[operand=2];\n"
        "a->p[operand=0]; q->p[operand=1]; p->q[operand=0]; b->q[operand=1];\n"
        "sel->d1[operand=0]; q->d1[operand=1]; d1->d2[operand=0];\n"
        "b->d2[operand=1]; d2->r[operand=0]; a->r[operand=1];\n"
        "r->s[operand=0]; b->s[operand=1]; s->o[operand=0];\n"
        "}\n";
    cg_diags *d = cg_diags_create();
    cg_dfg *g = cg_dfg_read_dot_string(text, "t.dot", d);
    if (!g)
        cg_diags_print(d, stderr);
    assert_non_null(g);
    static const char *const want[] = {
        "t.dot:3: warning: opcode 'phi' (node 'sel') with three operands is "
        "read as select, as CGRA-ME writes LLVM's select: operand 0 the "
        "condition, 1 the value if true, 2 the value if false",
        "t.dot:5: warning: opcode 'div' (node 'd1' and 1 more) is read as "
        "sdiv, but CGRA-ME writes sdiv, udiv, srem and urem all as 'div'; "
        "where another was meant, write its name (udiv, srem, urem)",
        "t.dot:7: warning: opcode 'rem' (node 'r') is read as srem, but "
        "CGRA-ME writes srem and urem all as 'rem'; where another was "
        "meant, write its name (urem)",
        "t.dot:8: warning: opcode 'shr' (node 's') is read as lshr, but "
        "CGRA-ME writes ashr and lshr all as 'shr'; where another was "
        "meant, write its name (ashr)"};
    expect_diags(d, want, 4);
    assert_int_equal(cg_dfg_get_node(g, cg_dfg_find(g, "sel"))->op,
                     CG_OP_SELECT);
    assert_int_equal(cg_dfg_get_node(g, cg_dfg_find(g, "p"))->op, CG_OP_PHI);
    assert_int_equal(cg_dfg_get_node(g, cg_dfg_find(g, "d2"))->op,
                     CG_OP_SDIV);
    assert_int_equal(cg_dfg_get_node(g, cg_dfg_find(g, "r"))->op,
                     CG_OP_SREM);
    assert_int_equal(cg_dfg_get_node(g, cg_dfg_find(g, "s"))->op,
                     CG_OP_LSHR);
    cg_dfg_destroy(g);
    /* cgramap's own names: no warning */
    g = read_ok_string("digraph k { a[opcode=input]; b[opcode=input];\n"
                       "q[opcode=udiv]; o[opcode=output]; a->q[operand=0];\n"
                       "b->q[operand=1]; q->o[operand=0]; }\n");
    cg_dfg_destroy(g);
}

/* A store of a file in CGRA-ME 1.x's form (node k named its opcode and k,
 * no width=; as its pass wrote simple/graph_loop.dot) is read in LLVM's
 * operand order, 0 the value and 1 the address, with one warning at the
 * first store; a width= anywhere makes it cgramap's order again. */
static void test_cgrame1_stores(void **state)
{
    (void)state;
    /* b[i] = a[i] + 5, addresses i * 4 (CGRA-ME drops the base) */
    const char *text =
        "digraph G {\n"
        "const0[opcode=const];\nmul1[opcode=mul];\nload2[opcode=load];\n"
        "const3[opcode=const];\nadd4[opcode=add];\nconst5[opcode=const];\n"
        "mul6[opcode=mul];\nstore7[opcode=store];\nadd8[opcode=add];\n"
        "const9[opcode=const];\nstore10[opcode=store];\n"
        "const0->mul1[operand=0]; add8->mul1[operand=1];\n"
        "mul1->load2[operand=0];\n"
        "load2->add4[operand=0]; const3->add4[operand=1];\n"
        "const5->mul6[operand=0]; add8->mul6[operand=1];\n"
        "add4->store7[operand=0]; //add->store\n"
        "mul6->store7[operand=1]; //gep_mul->store\n"
        "add4->store10[operand=0]; mul1->store10[operand=1];\n"
        "add8->add8[operand=0]; const9->add8[operand=1];\n"
        "}\n";
    cg_diags *d = cg_diags_create();
    cg_dfg *g = cg_dfg_read_dot_string(text, "g.dot", d);
    assert_non_null(g);
    expect_diags(d, (const char *const[]){
        "g.dot:9: warning: store 'store7' and 1 more: the file is as "
        "CGRA-ME 1.x's DFG pass writes it (node k named its opcode and k, "
        "no width=), which keeps LLVM's store operands: operand 0 is read "
        "as the value and 1 as the address (cgramap writes 0 the address, "
        "1 the value)"}, 1);
    assert_int_equal(cg_dfg_get_edge(g, find_edge(g, "mul6", "store7"))
                     ->operand, 0);
    assert_int_equal(cg_dfg_get_edge(g, find_edge(g, "add4", "store7"))
                     ->operand, 1);
    assert_int_equal(cg_dfg_get_edge(g, find_edge(g, "mul1", "store10"))
                     ->operand, 0);
    assert_int_equal(cg_dfg_get_edge(g, find_edge(g, "add8", "add8"))
                     ->distance, 1);
    /* written back in cgramap's order, it reads back unchanged */
    char *a = dot_text(g);
    cg_dfg *h = read_ok_string(a);
    assert_same_graph(g, h);
    cg_dfg_destroy(h);
    free(a);
    cg_dfg_destroy(g);
    /* one width= and the file is not CGRA-ME 1.x's: operands as written */
    const char *rest = strstr(text, "mul1[");
    assert_non_null(rest);
    char *w = malloc(strlen(text) + 64);
    assert_non_null(w);
    strcpy(w, "digraph G {\nconst0[opcode=const width=32];\n");
    strcat(w, rest);
    g = read_ok_string(w);
    assert_int_equal(cg_dfg_get_edge(g, find_edge(g, "add4", "store7"))
                     ->operand, 0);
    assert_int_equal(cg_dfg_get_edge(g, find_edge(g, "mul6", "store7"))
                     ->operand, 1);
    cg_dfg_destroy(g);
    free(w);
}

/* CGRA-ME 2.x's form (cgrame2_scale.dot): operands by name (LHS RHS,
 * any2input in file order, addr and data), constVal= and memName=; its
 * loop branch (br, the exit icmp, the trip count and the block inputs)
 * left out; the same memory as the loop it writes (b[i] = 3 * a[i] for
 * i = 1..8).  Messages after the branch is gone still name their line. */
static void test_cgrame2(void **state)
{
    (void)state;
    cg_dfg *g = read_ok("tests/dfg/data/dot/cgrame2_scale.dot");
    assert_int_equal(cg_dfg_nnodes(g), 14);
    assert_int_equal(cg_dfg_nedges(g), 15);
    const char *gone[] = {"i9_br", "i8_icmp", "input0", "bb0", ".loopexit"};
    for (int i = 0; i < 5; i++)
        assert_int_equal(cg_dfg_find(g, gone[i]), -1);
    static const struct {
        const char *src, *dst;
        int operand, distance;
    } want[] = {{"const0", "i0_phi", 0, 0}, {"i7_add", "i0_phi", 1, 1},
                {"i1_shl", "i2_add", 0, 0}, {"const2", "i2_add", 1, 0},
                {"const4", "i5_add", 0, 0}, {"i1_shl", "i5_add", 1, 0},
                {"i5_add", "i6_store", 0, 0}, {"i4_mul", "i6_store", 1, 0},
                {"i2_add", "i3_load", 0, 0}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const cg_dfg_edge *x =
            cg_dfg_get_edge(g, find_edge(g, want[i].src, want[i].dst));
        assert_int_equal(x->operand, want[i].operand);
        assert_int_equal(x->distance, want[i].distance);
    }
    uint8_t m[1024] = {0};
    for (int k = 0; k < 64; k++)
        m[256 + 4 * k] = (uint8_t)(k + 1);
    cg_mem mem = {m, 0, sizeof m};
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_run(g, 8, &mem, NULL, NULL, d), 0);
    for (int i = 0; i <= 9; i++)
        assert_int_equal(m[512 + 4 * i], i >= 1 && i <= 8 ? 3 * (i + 1) : 0);
    cg_diags_destroy(d);
    cg_dfg_destroy(g);
    expect_errors("digraph G {\n b[opcode=br]; c[opcode=input];\n"
                  " a[opcode=input]; st[opcode=store];\n"
                  " c->b[operand=branch_true]; a->st[operand=addr];\n"
                  " a->st[operand=pred];\n}\n",
                  "t.dot:5: error: edge 'a' -> 'st': operand='pred' "
                  "(CGRA-ME 2.x's predicate) is not read: cgramap has no "
                  "predicated execution", NULL);
    expect_errors("digraph G {\n b[opcode=br]; c[opcode=input];\n"
                  " a[opcode=input]; st[opcode=store];\n"
                  " c->b[operand=branch_true]; a->st[operand=addr];\n}\n",
                  "t.dot:3: error: node 'st' (store): operand 1 has no edge "
                  "(store takes 2 operands)", NULL);
}

/* Widths left out: icmp 1, an output takes its operand's width (also
 * through a chain), everything else 32. */
static void test_default_widths(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_dfg *g = cg_dfg_read_dot_string(
        "digraph w {\n"
        "  o2[opcode=output]; s[opcode=select]; c[opcode=icmp pred=ne];\n"
        "  a[opcode=input width=8]; b[opcode=input width=8];\n"
        "  o1[opcode=output]; x[opcode=xor];\n"
        "  a->c[operand=0]; b->c[operand=1]; c->o1[operand=0];\n"
        "  c->s[operand=0]; a->s[operand=1]; b->s[operand=2];\n"
        "  s->x[operand=0]; b->x[operand=1]; x->o2[operand=0];\n"
        "}\n", "w.dot", d);
    assert_non_null(g);
    static const struct { const char *n; int w; } want[] = {
        {"o2", 8}, {"s", 8}, {"c", 1}, {"o1", 1}, {"x", 8}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        assert_int_equal(cg_dfg_get_node(g, cg_dfg_find(g, want[i].n))->width,
                         want[i].w);
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
}

/* Comments, quotes, concatenation, HTML strings, both separators, optional
 * semicolons, defaults, graph attributes, chains, merged statements,
 * multi-line statements, cosmetic attributes, explicit distances. */
static void test_forms(void **state)
{
    (void)state;
    cg_dfg *g = read_ok("tests/dfg/data/dot/forms.dot");
    assert_string_equal(cg_dfg_name(g), "forms");
    assert_int_equal(cg_dfg_nnodes(g), 8);
    assert_int_equal(cg_dfg_nedges(g), 9);
    const cg_dfg_node *in = cg_dfg_get_node(g, 0);
    assert_string_equal(in->name, "in a");
    assert_int_equal(in->op, CG_OP_INPUT);
    assert_int_equal(in->width, 16);
    assert_string_equal(in->sym, "a");
    const cg_dfg_node *b = cg_dfg_get_node(g, 1);
    assert_int_equal(b->op, CG_OP_ADD);
    assert_int_equal(b->line, 7);
    assert_int_equal(b->width, 16);
    assert_int_equal(cg_dfg_get_node(g, cg_dfg_find(g, "c"))->width, 16);
    const cg_dfg_node *k = cg_dfg_get_node(g, cg_dfg_find(g, "k"));
    assert_true(k->has_value);
    assert_int_equal(k->value, -3);
    int e = find_edge(g, "b", "c"); /* from the chain, operand by default */
    assert_int_equal(cg_dfg_get_edge(g, e)->operand, 0);
    e = find_edge(g, "one", "cnt");
    assert_int_equal(cg_dfg_get_edge(g, e)->operand, 1);
    e = find_edge(g, "cnt", "cnt");
    assert_int_equal(cg_dfg_get_edge(g, e)->distance, 1);
    assert_int_equal(cg_dfg_get_edge(g, e)->init, cg_dfg_find(g, "k"));
    e = find_edge(g, "q", "p"); /* explicit: the cycle is closed already */
    assert_int_equal(cg_dfg_get_edge(g, e)->distance, 2);
    assert_int_equal(cg_dfg_get_edge(g, find_edge(g, "p", "q"))->distance, 0);
    cg_dfg_destroy(g);
}

/* No ID: named after the file; a quoted "G" is a name. */
static void test_names(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    const char *text = "digraph { a[opcode=input]; }";
    cg_dfg *g = cg_dfg_read_dot_string(text, "dir/loop.dot", d);
    assert_string_equal(cg_dfg_name(g), "loop");
    cg_dfg_destroy(g);
    g = cg_dfg_read_dot_string("digraph \"G\" { }", "dir/loop.dot", d);
    assert_string_equal(cg_dfg_name(g), "G");
    assert_int_equal(cg_dfg_nnodes(g), 0);
    cg_dfg_destroy(g);
    g = cg_dfg_read_dot_string("\xef\xbb\xbf" "digraph bom { }", NULL, d);
    assert_string_equal(cg_dfg_name(g), "bom"); /* a byte order mark */
    cg_dfg_destroy(g);
    assert_int_equal(cg_diags_size(d), 0);
    /* Without a file name, messages say <string>. */
    assert_null(cg_dfg_read_dot_string("digraph {\n a[opcode=b];\n}", NULL,
                                       d));
    char *s = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(s, "<string>:2: error: node 'a': unknown opcode 'b' "
                        "(opcodes: " OPS ")");
    free(s);
    cg_diags_destroy(d);
}

/* ---- errors ------------------------------------------------------------ */

static void test_syntax_errors(void **state)
{
    (void)state;
    expect_errors("digraph G {\n  a[opcode=add] ]\n}\n",
                  "t.dot:2: error: unexpected ']'; expected a statement "
                  "('name[opcode=...];' or 'a->b[operand=K];')", NULL);
    expect_errors("digraph G {\n  a[opcode=\"add];\n}\n",
                  "t.dot:2: error: unterminated string: the '\"' opened here "
                  "has no closing '\"'", NULL);
    expect_errors("digraph G {\n  /* no end\n  a[opcode=add];\n}\n",
                  "t.dot:2: error: unterminated comment: the '/*' opened "
                  "here has no closing '*/'", NULL);
    expect_errors("digraph G {\n  a[opcode=\"add\" /* open\n];\n}\n",
                  "t.dot:2: error: unterminated comment: the '/*' opened "
                  "here has no closing '*/'", NULL);
    expect_errors("digraph G {\n  a[opcode=<input];\n}\n",
                  "t.dot:2: error: unterminated HTML string: the '<' opened "
                  "here has no closing '>'", NULL);
    expect_errors("digraph G {\n  a[opcode=input];\n",
                  "t.dot:3: error: unexpected end of file: the '{' at line 1 "
                  "is never closed with '}'", NULL);
    expect_errors("digraph G {\n  a[opcode add];\n}\n",
                  "t.dot:2: error: unexpected 'add'; expected '=' after "
                  "attribute 'opcode' (attributes are name=value)", NULL);
    expect_errors("digraph G {\n  a[opcode=];\n}\n",
                  "t.dot:2: error: unexpected ']'; expected a value after "
                  "'opcode='", NULL);
    expect_errors("digraph G {\n  a->;\n}\n",
                  "t.dot:2: error: unexpected ';'; expected a node name after "
                  "'->'", NULL);
    expect_errors("digraph G {\n  1a[opcode=add];\n}\n",
                  "t.dot:2: error: '1a' is not a valid id: an id that starts "
                  "with a digit must be quoted (\"1a\")", NULL);
    expect_errors("digraph G {\n  a[opcode=add] @\n}\n",
                  "t.dot:2: error: unexpected character '@'", NULL);
    expect_errors("digraph a { }\ndigraph b { }\n",
                  "t.dot:2: error: unexpected 'digraph'; expected end of file "
                  "after the graph's closing '}' (one digraph per file: "
                  "`cgramap dfg --loop TAG -o TAG.dot` writes one loop's)",
                  NULL);
    expect_errors("G { }\n", "t.dot:1: error: unexpected 'G'; expected "
                  "'digraph' (a DFG file is 'digraph NAME { ... }')", NULL);
    expect_errors("digraph G a[opcode=add];\n", "t.dot:1: error: unexpected "
                  "'a'; expected '{' after 'digraph'", NULL);
    expect_errors("digraph G {\n  node;\n}\n", "t.dot:2: error: 'node' must "
                  "be followed by an attribute list [name=value, ...]", NULL);
    expect_errors("digraph G {\n  a[opcode=\"ad\" + add];\n}\n",
                  "t.dot:2: error: '+' must be followed by a quoted string",
                  NULL);
    expect_errors("digraph G {\n  a[opcode=\"ad\" + /* open\n];\n}\n",
                  "t.dot:2: error: unterminated comment: the '/*' opened "
                  "here has no closing '*/'", NULL);
}

/* What a DFG file cannot say in Graphviz's language. */
static void test_unsupported(void **state)
{
    (void)state;
    expect_errors("graph G {\n}\n", "t.dot:1: error: 'graph' is an undirected "
                  "graph; a DFG is directed: write 'digraph'", NULL);
    expect_errors("digraph G {\n  a -- b;\n}\n", "t.dot:2: error: '--' is an "
                  "undirected edge; a DFG's edges are directed: write '->'",
                  NULL);
    expect_errors("digraph G {\n  subgraph s { a; }\n}\n", "t.dot:2: error: "
                  "subgraphs are not supported in a DFG file; write each edge "
                  "as 'a->b[operand=K];'", NULL);
    expect_errors("digraph G {\n  a -> { b c };\n}\n", "t.dot:2: error: "
                  "subgraphs are not supported in a DFG file; write each edge "
                  "as 'a->b[operand=K];'", NULL);
    expect_errors("digraph G {\n  a:out -> b;\n}\n", "t.dot:2: error: ports "
                  "('node:port') are not supported in a DFG file; operand=K "
                  "on the edge says which input it feeds", NULL);
}

static void test_node_errors(void **state)
{
    (void)state;
    expect_errors("digraph G {\n  a[opcode=input bank=1];\n"
                  "  b[opcode=load bank=-2];\n  c[opcode=store bank=x];\n}\n",
                  "t.dot:2: error: node 'a' (input): bank= is only for load "
                  "and store nodes",
                  "t.dot:3: error: node 'b': bank=-2 is out of range (-1 to "
                  "2147483647)",
                  "t.dot:4: error: node 'c': bank='x' is not an integer", NULL);
    expect_errors("digraph G {\n  a[opcode=input];\n  b[opcode=frobnicate];\n"
                  "  a->b[operand=0];\n}\n",
                  "t.dot:3: error: node 'b': unknown opcode 'frobnicate' "
                  "(opcodes: " OPS ")", NULL);
    expect_errors("digraph G {\n  a[label=x];\n  b[shape=box];\n}\n",
                  "t.dot:2: error: node 'a' has no opcode (give it "
                  "opcode=NAME, NAME one of: " OPS ")",
                  "t.dot:3: error: node 'b' has no opcode (give it "
                  "opcode=NAME, NAME one of: " OPS ")", NULL);
    expect_errors("digraph G {\n  a[opcode=input\n    width=wide];\n}\n",
                  "t.dot:3: error: node 'a': width='wide' is not an integer",
                  NULL);
    expect_errors("digraph G {\n  a[opcode=input line=-1];\n}\n",
                  "t.dot:2: error: node 'a': line=-1 is out of range (0 to "
                  "2147483647)", NULL);
    expect_errors("digraph G {\n  a[opcode=const value=99999999999999999999]"
                  ";\n}\n", "t.dot:2: error: node 'a': "
                  "value=99999999999999999999 is out of range "
                  "(-9223372036854775808 to 9223372036854775807)", NULL);
    expect_errors("digraph G {\n  a[opcode=icmp pred=lt];\n}\n",
                  "t.dot:2: error: node 'a': unknown predicate 'lt' (pred= "
                  "one of eq ne slt sle sgt sge ult ule ugt uge)", NULL);
    expect_errors("digraph G {\n  a[opcode=input value=3 sym=s];\n"
                  "  b[opcode=load sym=s];\n}\n",
                  "t.dot:2: error: node 'a' (input): value= is only for const "
                  "nodes",
                  "t.dot:3: error: node 'b' (load): sym= is only for const "
                  "and input nodes", NULL);
    expect_errors("digraph G {\n  a[opcode=cnst\n    value=3];\n"
                  "  b[opcode=add\n    constVal=\"1\"];\n}\n",
                  "t.dot:2: error: node 'a': unknown opcode 'cnst' (opcodes: "
                  OPS ")",
                  "t.dot:5: error: node 'b' (add): constVal= is only for "
                  "const nodes", NULL);
    /* an unknown attribute in a default: once, not once per node */
    expect_errors("digraph G {\n  node [foo=1 bar=2]\n  a[opcode=input];\n"
                  "  b[opcode=input];\n}\n",
                  "t.dot:2: error: node 'a': unknown attribute 'foo' (node "
                  "attributes: opcode width value pred sym line bank; label, "
                  "shape, color and other purely cosmetic Graphviz "
                  "attributes are ignored)",
                  "t.dot:2: error: node 'a': unknown attribute 'bar' (node "
                  "attributes: opcode width value pred sym line bank; label, "
                  "shape, color and other purely cosmetic Graphviz "
                  "attributes are ignored)", NULL);
    expect_errors("digraph G {\n  a[opcode=input bits=8];\n}\n",
                  "t.dot:2: error: node 'a': unknown attribute 'bits' (node "
                  "attributes: opcode width value pred sym line bank; label, "
                  "shape, color and other purely cosmetic Graphviz "
                  "attributes are ignored)", NULL);
}

static void test_edge_errors(void **state)
{
    (void)state;
    const char *head = "digraph G {\n  a[opcode=input];\n"
                       "  o[opcode=output];\n";
    char text[512];
    snprintf(text, sizeof text, "%s  a->zz[operand=0];\n  yy->o[operand=0];"
             "\n}\n", head);
    expect_errors(text, "t.dot:4: error: edge 'a' -> 'zz': node 'zz' is not "
                  "declared (declare it with 'zz[opcode=...];')",
                  "t.dot:5: error: edge 'yy' -> 'o': node 'yy' is not "
                  "declared (declare it with 'yy[opcode=...];')", NULL);
    snprintf(text, sizeof text, "%s  a->o[operand=x];\n}\n", head);
    expect_errors(text, "t.dot:4: error: edge 'a' -> 'o': operand='x' is not "
                  "an integer", NULL);
    snprintf(text, sizeof text, "%s  a->o;\n}\n", head);
    expect_errors(text, "t.dot:4: error: edge 'a' -> 'o' has no operand "
                  "(give it operand=K, K the input of 'o' it feeds: output "
                  "takes 1)", NULL);
    snprintf(text, sizeof text, "%s  a->o[operand=0 distance=1 init=z];\n}\n",
             head);
    expect_errors(text, "t.dot:4: error: edge 'a' -> 'o': init node 'z' is "
                  "not declared", NULL);
    snprintf(text, sizeof text, "%s  a->o[operand=0 weight=2 delay=1];\n}\n",
             head);
    expect_errors(text, "t.dot:4: error: edge 'a' -> 'o': unknown attribute "
                  "'delay' (edge attributes: operand distance init; label, "
                  "shape, color and other purely cosmetic Graphviz "
                  "attributes are ignored)", NULL);
}

/* The checker's messages, placed at the .dot statements. */
static void test_check_errors(void **state)
{
    (void)state;
    expect_errors("digraph G {\n  a[opcode=input];\n  s[opcode=add];\n"
                  "  a->s[operand=0];\n}\n",
                  "t.dot:3: error: node 's' (add): operand 1 has no edge (add "
                  "takes 2 operands)", NULL);
    expect_errors("digraph G {\n  a[opcode=input];\n  b[opcode=input];\n"
                  "  s[opcode=add];\n  a->s[operand=0];\n  a->s[operand=1];\n"
                  "  b->s[operand=0];\n}\n",
                  "t.dot:7: error: node 's': operand 0 is fed twice, by 'a' "
                  "and by 'b'", NULL);
    expect_errors("digraph G {\n  a[opcode=input];\n  o[opcode=output];\n"
                  "  a->o[operand=0];\n  a->o[operand=1];\n}\n",
                  "t.dot:5: error: edge 'a' -> 'o': operand 1 is out of "
                  "range: output takes 1 operand", NULL);
    expect_errors("digraph G {\n  a[opcode=input];\n  s[opcode=add];\n"
                  "  t[opcode=add];\n  a->s[operand=0];\n  a->t[operand=0];\n"
                  "  s->t[operand=1 distance=0];\n  t->s[operand=1 "
                  "distance=0];\n}\n",
                  "t.dot:3: error: node 's' is on a cycle of distance-0 edges "
                  "('s' <- 't' <- 's'); a value cannot depend on itself in one "
                  "iteration: give the loop-carried edge a distance >= 1",
                  NULL);
    expect_errors("digraph G {\n  a[opcode=input width=16];\n"
                  "  c[opcode=icmp];\n  a->c[operand=0];\n  a->c[operand=1];"
                  "\n}\n",
                  "t.dot:3: error: node 'c' (icmp) has no predicate (pred= "
                  "one of eq ne slt sle sgt sge ult ule ugt uge)", NULL);
}

/* 3,000 random edits of the good file at path (fixed seed): the reader
 * never crashes or leaks (run under ASan), and fails only with located
 * messages. */
static void mutate_file(const char *path)
{
    static const char alphabet[] = "{}[];,=:->\"</*#\\\n ax01_+";
    char *good = cg_slurp(path, NULL);
    assert_non_null(good);
    size_t len = strlen(good);
    unsigned seed = 12345;
    int failed = 0;
    for (int round = 0; round < 3000; round++) {
        char *t = malloc(len + 8);
        memcpy(t, good, len + 1);
        for (int k = 0; k < 1 + round % 3; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % len;
            char c = alphabet[(seed >> 20) % (sizeof alphabet - 1)];
            if (seed & 1)
                t[at] = c;
            else
                memmove(t + at, t + at + 1, len - at); /* delete */
        }
        cg_diags *d = cg_diags_create();
        cg_dfg *g = cg_dfg_read_dot_string(t, "m.dot", d);
        if (!g) {
            failed++;
            assert_true(cg_diags_errors(d) > 0);
            for (int i = 0; i < cg_diags_size(d); i++) {
                char *m = cg_diag_format(cg_diags_get(d, i));
                assert_true(strncmp(m, "m.dot:", 6) == 0 &&
                            m[6] >= '1' && m[6] <= '9');
                free(m);
            }
        } else {
            assert_int_equal(cg_diags_size(d), 0);
        }
        cg_dfg_destroy(g);
        cg_diags_destroy(d);
        free(t);
    }
    assert_true(failed > 1000); /* most edits break the file */
    free(good);
}

/* cgramap's form, and CGRA-ME 2.x's (named operands, a br left out). */
static void test_mutations(void **state)
{
    (void)state;
    mutate_file("tests/dfg/golden/dot/acc.dot");
    mutate_file("tests/dfg/data/dot/cgrame2_scale.dot");
}

/* Files that cannot be read, or are not text. */
static void test_bad_files(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    assert_null(cg_dfg_read_dot("tests/dfg/data/dot/none.dot", d));
    assert_int_equal(cg_diags_size(d), 1);
    char *s = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(s, "tests/dfg/data/dot/none.dot: error: cannot open "
                        "the file: No such file or directory; check the "
                        "path");
    free(s);
    assert_null(cg_dfg_read_dot("tests/dfg/data/dot", d));
    s = cg_diag_format(cg_diags_get(d, 1));
    assert_string_equal(s, "tests/dfg/data/dot: error: is a directory, not "
                        "a file; name a .dot file");
    free(s);
    assert_null(cg_dfg_read_dot("tests/dfg/data/dot/nul.dot", d));
    s = cg_diag_format(cg_diags_get(d, 2));
    assert_string_equal(s, "tests/dfg/data/dot/nul.dot:2: error: a NUL byte; "
                        "a .dot file is text");
    free(s);
    assert_null(cg_dfg_read_dot("/dev/zero", d)); /* once read forever */
    s = cg_diag_format(cg_diags_get(d, 3));
    assert_string_equal(s, "/dev/zero: error: more than 67108864 bytes, the "
                        "limit for an architecture, template, DFG or "
                        "mapping file (CG_MAX_INPUT_BYTES); name the text "
                        "file meant");
    free(s);
    cg_diags_destroy(d);
}

/* memory="BASE BYTES": the memory a graph's addresses lie in (the
 * extractor's layout), read and written back; a malformed value refused
 * at its line. */
static void test_memory_attr(void **state)
{
    (void)state;
    const char *body = " a[opcode=input width=32];\n"
                       " l[opcode=load width=32];\n a->l[operand=0];\n"
                       " o[opcode=output width=32];\n l->o[operand=0];\n}\n";
    char text[512];
    snprintf(text, sizeof text, "digraph m {\n graph [memory=\"65536 "
             "272\"];\n%s", body);
    cg_dfg *g = read_ok_string(text);
    uint64_t base;
    assert_int_equal(cg_dfg_memory(g, &base), 272);
    assert_int_equal(base, 65536);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_int_equal(cg_dfg_write_dot(g, f), 0);
    fclose(f);
    assert_non_null(strstr(out, "    graph [memory=\"65536 272\"];\n"));
    free(out);
    cg_dfg_destroy(g);
    snprintf(text, sizeof text, "digraph m {\n graph [memory=\"65536\"];\n%s",
             body);
    expect_errors(text, "t.dot:2: error: memory=\"65536\" is not 'BASE "
                  "BYTES' (the first byte address and the bytes the graph's "
                  "addresses lie in, each below 2^48, as cgramap dfg writes "
                  "them); fix or remove it", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_attr),
        cmocka_unit_test(test_golden_acc),
        cmocka_unit_test(test_golden_mem),
        cmocka_unit_test(test_golden_banks),
        cmocka_unit_test(test_golden_order),
        cmocka_unit_test(test_write_full),
        cmocka_unit_test(test_order_errors),
        cmocka_unit_test(test_odd_names),
        cmocka_unit_test(test_cgrame),
        cmocka_unit_test(test_cgrame_spellings),
        cmocka_unit_test(test_cgrame1_stores),
        cmocka_unit_test(test_cgrame2),
        cmocka_unit_test(test_default_widths),
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_unsupported),
        cmocka_unit_test(test_node_errors),
        cmocka_unit_test(test_edge_errors),
        cmocka_unit_test(test_check_errors),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
