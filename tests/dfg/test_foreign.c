/* test_foreign.c: other mappers' DFGs, the NUS mappers' DFG XML and the
 * SAT-based mappers' text form (dfg/nus_read.c, dfg/text_read.c): the same
 * loop written in both (tests/dfg/data/foreign/scale.*) reads to graphs
 * that compute the same memory, and every error names file:line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diag_list.h"

#include "dfg/dfg.h"

#define DATA "tests/dfg/data/foreign/"

static cg_dfg *read_ok(const char *path)
{
    cg_diags *d = cg_diags_create();
    cg_dfg *g = cg_dfg_read_file(path, d);
    if (!g || cg_diags_size(d))
        cg_diags_print(d, stderr);
    assert_non_null(g);
    assert_int_equal(cg_diags_size(d), 0);
    cg_diags_destroy(d);
    return g;
}

/* Memory after 8 iterations of g from a[k] = k + 1 (a at byte 256). */
static uint8_t *run8(const cg_dfg *g)
{
    uint8_t *m = calloc(1024, 1);
    assert_non_null(m);
    for (int k = 0; k < 64; k++)
        m[256 + 4 * k] = (uint8_t)(k + 1);
    cg_mem mem = {m, 0, 1024};
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_run(g, 8, &mem, NULL, NULL, d), 0);
    cg_diags_destroy(d);
    return m;
}

/* a and b leave the same memory after 8 iterations (run8); both freed. */
static void same_memory(cg_dfg *a, cg_dfg *b)
{
    uint8_t *ma = run8(a), *mb = run8(b);
    assert_memory_equal(ma, mb, 1024);
    free(ma);
    free(mb);
    cg_dfg_destroy(a);
    cg_dfg_destroy(b);
}

static int count_op(const cg_dfg *g, cg_op op)
{
    int k = 0;
    for (int i = 0; i < cg_dfg_nnodes(g); i++)
        k += cg_dfg_get_node(g, i)->op == op;
    return k;
}

/* scale.xml and scale.txt: 12 nodes (7 ops, 5 immediates as consts), the
 * counter's edge at distance 1, and the same memory after 8 iterations:
 * b[i] = 3 * a[i] for i = 1..8 (the counter starts at 0 + 1).  The XML's
 * PS edge is dropped; its RecParent (and the pair within an iteration) is
 * the stated memory order. */
static void test_scale_both_forms(void **state)
{
    (void)state;
    cg_dfg *x = read_ok(DATA "scale.xml"), *t = read_ok(DATA "scale.txt");
    assert_string_equal(cg_dfg_name(x), "scale");
    for (int k = 0; k < 2; k++) {
        const cg_dfg *g = k ? t : x;
        assert_int_equal(cg_dfg_nnodes(g), 12);
        assert_int_equal(cg_dfg_nedges(g), 13);
        assert_int_equal(count_op(g, CG_OP_CONST), 5);
        assert_int_equal(count_op(g, CG_OP_SHL), 1);
        const cg_dfg_edge *e = cg_dfg_get_edge(g, 0);
        assert_int_equal(e->src, cg_dfg_find(g, "n0"));
        assert_int_equal(e->dst, cg_dfg_find(g, "n0"));
        assert_int_equal(e->distance, 1);
    }
    const cg_mem_order *o;
    assert_int_equal(cg_dfg_mem_order(x, &o), 2);
    assert_int_equal(o[1].first, cg_dfg_find(x, "n6"));
    assert_int_equal(o[1].then, cg_dfg_find(x, "n3"));
    assert_int_equal(o[1].distance, 1);
    assert_int_equal(cg_dfg_mem_order(t, &o), -1); /* none stated */
    uint8_t *mx = run8(x), *mt = run8(t);
    assert_memory_equal(mx, mt, 1024);
    for (int i = 1; i <= 8; i++)
        assert_int_equal(mx[512 + 4 * i], 3 * (i + 1));
    assert_int_equal(mx[512], 0);
    assert_int_equal(mx[512 + 4 * 9], 0);
    free(mx);
    free(mt);
    cg_dfg_destroy(x);
    cg_dfg_destroy(t);
}

/* scale_morpher.xml: scale.xml as Morpher's generator writes it (a
 * <MutexBB> beside the <DFG>, no blank between some attributes, a
 * <GEPOffset> of 0) reads to the same graph. */
static void test_morpher_syntax(void **state)
{
    (void)state;
    cg_dfg *x = read_ok(DATA "scale.xml");
    cg_dfg *m = read_ok(DATA "scale_morpher.xml");
    assert_string_equal(cg_dfg_name(m), "scale_morpher");
    assert_int_equal(cg_dfg_nnodes(m), cg_dfg_nnodes(x));
    assert_int_equal(cg_dfg_nedges(m), cg_dfg_nedges(x));
    for (int i = 0; i < cg_dfg_nnodes(x); i++) {
        const cg_dfg_node *a = cg_dfg_get_node(x, i);
        const cg_dfg_node *b = cg_dfg_get_node(m, i);
        assert_int_equal(a->op, b->op);
        assert_int_equal(a->value, b->value);
    }
    for (int e = 0; e < cg_dfg_nedges(x); e++) {
        const cg_dfg_edge *a = cg_dfg_get_edge(x, e);
        const cg_dfg_edge *b = cg_dfg_get_edge(m, e);
        assert_int_equal(a->src, b->src);
        assert_int_equal(a->dst, b->dst);
        assert_int_equal(a->operand, b->operand);
        assert_int_equal(a->distance, b->distance);
    }
    same_memory(x, m);
}

/* Write text to path; read it with cg_dfg_read_file expecting NULL and
 * exactly the messages given, NULL-ended. */
static void expect_errors(const char *path, const char *text, ...)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    cg_diags *d = cg_diags_create();
    assert_null(cg_dfg_read_file(path, d));
    va_list ap;
    va_start(ap, text);
    expect_diag_list(d, ap);
    va_end(ap);
    cg_diags_destroy(d);
    remove(path);
}

#define T "/tmp/cg_foreign_t.txt"
static void test_text_errors(void **state)
{
    (void)state;
    expect_errors(T, "node 0 add\nnode 0 sub\n",
                  T ":2: error: node 0 is declared twice; give each node its "
                  "own ID", NULL);
    expect_errors(T, "node 1 frob\n",
                  T ":1: error: node 1: unknown opcode 'frob' (compares: eq "
                  "ne lt le gt ge ult ule ugt uge; other opcodes: nop input "
                  "output const trunc sext zext phi select add sub mul sdiv "
                  "udiv srem urem and or xor shl ashr lshr icmp gep load "
                  "store)", NULL);
    expect_errors(T, "node 1 const\nnode 2 add 5\n",
                  T ":1: error: node 1: a const needs its VALUE, a whole "
                  "number",
                  T ":2: error: node 2: only a const takes a VALUE", NULL);
    expect_errors(T, "node 1 const 4\nedge 1 9 0\n",
                  T ":2: error: edge: no node 9 (declare it with 'node 9 "
                  "OPCODE')", NULL);
    expect_errors(T, "node 1 const 4\n\nedge 1 1 -1\nlink 1 2\n",
                  T ":4: error: unknown line 'link ...' (lines: 'node ID "
                  "OPCODE [VALUE]', 'edge SRC DST DISTANCE [OPERAND]', '# "
                  "comment')", NULL);
    expect_errors(T, "node 1 const 4\nedge 1 1 -1\n",
                  T ":2: error: expected 'edge SRC DST DISTANCE [OPERAND]' "
                  "with DISTANCE a whole number >= 0 and OPERAND 0, 1 or 2",
                  NULL);
    /* cg_dfg_check's messages at the lines that made the node or edge */
    expect_errors(T, "# an add with one operand\nnode 1 const 4\n"
                  "node 2 add\nnode 3 output\nedge 1 2 0\nedge 2 3 0\n",
                  T ":3: error: node 'n2' (add): operand 1 has no edge (add "
                  "takes 2 operands)", NULL);
    expect_errors("/tmp/cg_foreign_t.dfg", "",
                  "/tmp/cg_foreign_t.dfg: error: not a DFG file: a DFG is "
                  "read from .dot (CGRA-ME, cgramap), .xml (the NUS mappers), "
                  ".txt (the SAT-based mappers' text form) or NAME_nodes "
                  "(SAT-MapIt's files)", NULL);
}

#define X "/tmp/cg_foreign_t.xml"
#define NODE(idx, op, body) "<Node idx=\"" idx "\"><OP>" op "</OP>" body \
                            "</Node>\n"
static void test_nus_errors(void **state)
{
    (void)state;
    expect_errors(X, "<DFG>\n<Node idx=\"0\"><OP>ADD</OP>\n</DFG>\n",
                  X ":3: error: malformed XML: Opening and ending tag "
                  "mismatch: Node line 2 and DFG; fix the XML syntax there",
                  NULL);
    expect_errors(X, "<Graph/>\n", X ":1: error: the root must be <DFG> "
                  "(the NUS mappers' DFG XML, beside it Morpher's "
                  "<MutexBB>), not <Graph>", NULL);
    expect_errors(X, "\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<MutexBB>\n"
                  "</MutexBB>\n",
                  X ": error: no <DFG> in the file (the NUS mappers' DFG "
                  "XML)", NULL);
    expect_errors(X, "<DFG>\n" NODE("0", "MOVC", "") "</DFG>\n<DFG>\n"
                  "</DFG>\n", X ":4: error: a second <DFG> (the first at "
                  "line 1): a file holds one loop's DFG", NULL);
    expect_errors(X, "<MutexBB/>\n<DFG>\n<Node idx=\"0\"BB=\"b\"CONST=\"1\">"
                  "\n<OP>MOVC</OP><GEPOffset> 8 </GEPOffset></Node>\n"
                  "</DFG>\n",
                  X ":4: error: <GEPOffset> 8 </GEPOffset>: only 0 is read "
                  "(whether CONST holds another offset already is not "
                  "known)", NULL);
    expect_errors(X, "<MutexBB/>\n<DFG>\n<Node idx=\"0\"BB=\"b\"CONST=\"1\">"
                  "\n<OP>CMERGE</OP><GEPOffset>0</GEPOffset></Node>\n"
                  "</DFG>\n",
                  X ":4: error: node 0: CMERGE (Morpher's partial-predication "
                  "merge, a value passed on when its predicate holds) is not "
                  "read: cgramap has no predicated execution", NULL);
    expect_errors(X, "<DFG>\n" NODE("0", "FROB", "") "</DFG>\n",
                  X ":2: error: node 0: unknown opcode 'FROB' (opcodes: ADD "
                  "SUB MUL DIV REM AND OR XOR LS RS ARS CMP CLT CGT SELECT "
                  "LOAD LOADH LOADB STORE STOREH STOREB MOVC)", NULL);
    expect_errors(X, "<DFG>\n<Node idx=\"0\" PRIO=\"1\"><OP>ADD</OP>"
                  "<Extra/></Node>\n</DFG>\n",
                  X ":2: error: unknown attribute 'PRIO' on <Node> "
                  "(attributes: idx ASAP ALAP BB CONST)",
                  X ":2: error: unknown tag <Extra> inside <Node> (expected: "
                  "OP, Inputs, Outputs, BasePointerName, RecParents, GEPOffset)",
                  NULL);
    expect_errors(X, "<DFG>\n" NODE("0", "MOVC", "") NODE("0", "ADD", "")
                  "</DFG>\n", X ":3: error: node idx=\"0\" is declared "
                  "twice (first at line 2)", NULL);
    expect_errors(X, "<DFG>\n<Node idx=\"0\" CONST=\"1\"><OP>MOVC</OP>\n"
                  "<Outputs><Output idx=\"1\" type=\"P\"/>\n"
                  "<Output idx=\"7\" type=\"I1\"/>\n"
                  "<Output idx=\"1\" type=\"I9\"/></Outputs></Node>\n"
                  NODE("1", "ADD", "") "</DFG>\n",
                  X ":3: error: a predicate edge (type=\"P\") into a add: "
                  "cgramap has no predicated execution, only SELECT takes a "
                  "predicate",
                  X ":4: error: <Output> of node 0 names no node "
                  "(idx=\"7\")",
                  X ":5: error: <Output> type=\"I9\" is not one of I1, I2, "
                  "I3, P, PS", NULL);
    expect_errors(X, "<DFG>\n<Node idx=\"0\" CONST=\"1\"><OP>MOVC</OP>"
                  "<Outputs><Output idx=\"1\" type=\"I3\"/></Outputs></Node>\n"
                  "<Node idx=\"1\" CONST=\"2\"><OP>ADD</OP></Node>\n</DFG>\n",
                  X ":3: error: node 1: CONST=\"2\" but every operand of its "
                  "add has an edge", NULL);
    /* a LOAD without its address: cg_dfg_check at the <Node>'s line */
    expect_errors(X, "<DFG>\n" NODE("4", "LOAD", "") "</DFG>\n",
                  X ":2: error: node 'n4' (load): operand 0 has no edge "
                  "(load takes 1 operands)", NULL);
}

/* ---- SAT-MapIt's files ------------------------------------------------ */

#define SAT DATA "sat/"

/* sat/scale_*: scale.txt's loop as SAT-MapIt's pass writes it: the phi
 * counter becomes the increment's own edge one iteration back (init the
 * phi's constant 1), the beq exit branch and its live-in are left out,
 * the store's LLVM operands (value, address) become cgramap's (address,
 * value); the same memory as scale.txt after 8 iterations. */
static void test_satmapit_scale(void **state)
{
    (void)state;
    cg_dfg *g = read_ok(SAT "scale_nodes"), *t = read_ok(DATA "scale.txt");
    assert_string_equal(cg_dfg_name(g), "scale");
    assert_int_equal(cg_dfg_nnodes(g), 13);
    assert_int_equal(cg_dfg_nedges(g), 13);
    assert_int_equal(count_op(g, CG_OP_CONST), 6);
    assert_int_equal(count_op(g, CG_OP_PHI), 0);
    assert_int_equal(count_op(g, CG_OP_INPUT), 0);
    assert_int_equal(cg_dfg_find(g, "n8"), -1);
    int inc = cg_dfg_find(g, "n1"), st = cg_dfg_find(g, "n7");
    int seen = 0;
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        if (x->src == inc && x->dst != cg_dfg_find(g, "n2") &&
            x->dst != inc)
            fail_msg("n1 feeds node %d", x->dst);
        if (x->src == inc) {
            assert_int_equal(x->distance, 1);
            assert_int_equal(x->init, cg_dfg_find(g, "n20"));
            seen++;
        }
        if (x->dst == st)
            assert_int_equal(x->src, cg_dfg_find(g, x->operand ? "n5"
                                                               : "n6"));
    }
    assert_int_equal(seen, 2);
    same_memory(g, t);
}

/* Write the SAT-MapIt files of prefix P (NULL text: no such file). */
static void write_sat(const char *const files[][2], int n)
{
    for (int i = 0; i < n; i++) {
        char path[128];
        snprintf(path, sizeof path, "/tmp/cg_sat_t_%s", files[i][0]);
        remove(path);
        if (!files[i][1])
            continue;
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(files[i][1], f);
        fclose(f);
    }
}

static void expect_sat_errors(const char *nodes, const char *edges,
                              const char *consts, ...)
{
    const char *const files[][2] = {{"nodes", nodes}, {"edges", edges},
                                    {"constants", consts},
                                    {"livein_edges", NULL},
                                    {"liveout_edges", NULL}};
    write_sat(files, 5);
    cg_diags *d = cg_diags_create();
    assert_null(cg_dfg_read_file("/tmp/cg_sat_t_nodes", d));
    va_list ap;
    va_start(ap, consts);
    expect_diag_list(d, ap);
    va_end(ap);
    cg_diags_destroy(d);
    write_sat((const char *const[][2]){{"nodes", NULL}, {"edges", NULL},
                                       {"constants", NULL}}, 3);
}

/* A live-in as a phi's initial value and a live-out: s = (s << 1) |
 * (x & 1); x >>= 1 over the bits of x (a live-in), s the live-out; the
 * counter and its blt exit on another live-in are left out.  After 8
 * iterations from x = 0xb4, s is 0x2d (the low byte reversed). */
static void test_satmapit_live(void **state)
{
    (void)state;
    const char *const files[][2] = {
        {"nodes", "0 phi 5 20 -1 40\n1 phi 7 21 -1 40\n2 phi 6 30 -1 40\n"
                  "3 shl 0 22 -1 9\n4 and 2 23 -1 11\n5 or 3 4 -1 12\n"
                  "6 lshr 2 24 -1 10\n7 add 1 25 -1 1\n8 blt 7 31 -1 26\n"},
        {"edges", "0 3 0 1\n1 7 0 1\n2 6 0 1\n2 4 0 1\n3 5 0 1\n4 5 0 1\n"
                  "5 0 1 1\n6 2 1 1\n7 8 0 1\n7 1 1 1\n"},
        {"constants", "20 0 0 1\n21 1 0 1\n22 3 1 1\n23 4 1 1\n24 6 1 1\n"
                      "25 7 1 1\n"},
        {"livein_edges", "30 2 0 1\n31 8 0 1\n"},
        {"liveout_edges", "5 40 0 1\n"}};
    write_sat(files, 5);
    cg_dfg *g = read_ok("/tmp/cg_sat_t_nodes");
    assert_string_equal(cg_dfg_name(g), "cg_sat_t");
    assert_int_equal(cg_dfg_nnodes(g), 10);
    assert_int_equal(count_op(g, CG_OP_INPUT), 1);
    assert_int_equal(count_op(g, CG_OP_OUTPUT), 1);
    assert_int_equal(cg_dfg_find(g, "n31"), -1);
    uint64_t *in = calloc((size_t)cg_dfg_nnodes(g), sizeof *in);
    uint64_t *out = calloc((size_t)cg_dfg_nnodes(g), sizeof *out);
    assert_non_null(in);
    assert_non_null(out);
    in[cg_dfg_find(g, "n30")] = 0xb4;
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_run(g, 8, NULL, in, out, d), 0);
    assert_int_equal(out[cg_dfg_find(g, "n40")], 0x2d);
    cg_diags_destroy(d);
    free(in);
    free(out);
    cg_dfg_destroy(g);
    write_sat((const char *const[][2]){{"nodes", NULL}, {"edges", NULL},
                                       {"constants", NULL},
                                       {"livein_edges", NULL},
                                       {"liveout_edges", NULL}}, 5);
}

#define SN "/tmp/cg_sat_t_nodes"
static void test_satmapit_errors(void **state)
{
    (void)state;
    const char *ok_edges = "0 1 0 1\n";
    expect_sat_errors("0 load 5 -1 -1 30\n1 bsfa 0 -1 2 7\n2 store x\n",
                      ok_edges, NULL,
                      SN ":2: error: node 1: 'bsfa' is not read (read: add "
                      "sub mul sdiv udiv srem urem and or xor shl lshr ashr "
                      "load store select phi, and the exit branch beq bne "
                      "blt ble bgt bge)",
                      SN ":3: error: expected 6 whole numbers (the second a "
                      "name), blank-separated", NULL);
    expect_sat_errors("0 load 5 -1 -1 30\n1 store 0 0 -1 31\n", "", NULL,
                      SN ":1: error: node 0: its LOP names no node, "
                      "constant or live-in",
                      SN ":2: error: node 1: its LOP is node 0, but the "
                      "_edges file has no edge 0 1",
                      SN ":2: error: node 1: its ROP is node 0, but the "
                      "_edges file has no edge 0 1", NULL);
    expect_sat_errors("0 phi 1 2 -1 40\n3 store 0 0 -1 31\n",
                      "0 3 0 1\n", "1 0 0 0\n2 0 1 1\n",
                      SN ":1: error: phi 0: read only with one operand from "
                      "the loop (an edge of distance 1, not from a phi) and "
                      "one constant or live-in", NULL);
    expect_sat_errors("0 add -1 -1 -1 1\n", "9 0 1 1\n", "1 0 4 7\n",
                      "/tmp/cg_sat_t_constants:1: error: constant 1: its "
                      "node 0 is no instruction of the _nodes file, or its "
                      "position 7 is not 0 (LOP) or 1 (ROP)", NULL);
    expect_sat_errors("0 add 1 2 -1 1\n", "", "1 0 4 0\n2 0 5 1\n",
                      SN ": error: no store and no live-out: the loop "
                      "computes nothing that stays", NULL);
    expect_sat_errors("0 load 1 -1 -1 30\n", NULL, "1 0 4 0\n",
                      "/tmp/cg_sat_t_edges: error: cannot open the file: No "
                      "such file or directory; check the path", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_both_forms),
        cmocka_unit_test(test_morpher_syntax),
        cmocka_unit_test(test_satmapit_scale),
        cmocka_unit_test(test_satmapit_live),
        cmocka_unit_test(test_satmapit_errors),
        cmocka_unit_test(test_text_errors),
        cmocka_unit_test(test_nus_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
