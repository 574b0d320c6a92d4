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
 * PS edge is dropped; its RecParent (both ways across iterations) and the
 * pair within an iteration are the stated memory order. */
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
    assert_int_equal(cg_dfg_mem_order(x, &o), 3);
    assert_int_equal(o[1].first, cg_dfg_find(x, "n6"));
    assert_int_equal(o[1].then, cg_dfg_find(x, "n3"));
    assert_int_equal(o[1].distance, 1);
    assert_int_equal(o[2].first, cg_dfg_find(x, "n3"));
    assert_int_equal(o[2].then, cg_dfg_find(x, "n6"));
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
                  X ":4: error: <GEPOffset> 8 </GEPOffset> with CONST=\"1\": "
                  "read only when it is 0 or equals the node's CONST (a base "
                  "address of 0 plus the offset, as older files write it); "
                  "otherwise whether CONST holds the offset already is not "
                  "known", NULL);
    expect_errors(X, "<DFG>\n" NODE("0", "FROB", "") "</DFG>\n",
                  X ":2: error: node 0: unknown opcode 'FROB' (opcodes: ADD "
                  "SUB MUL DIV REM AND OR XOR LS RS ARS CMP CLT CGT SELECT "
                  "LOAD LOADH LOADB STORE STOREH STOREB MOVC SEXT CMERGE "
                  "OLOAD OLOADH OLOADB OSTORE)", NULL);
    expect_errors(X, "<DFG>\n<Node idx=\"0\" PRIO=\"1\"><OP>ADD</OP>"
                  "<Extra/></Node>\n</DFG>\n",
                  X ":2: error: unknown attribute 'PRIO' on <Node> "
                  "(attributes: idx ASAP ALAP BB CONST)",
                  X ":2: error: unknown tag <Extra> inside <Node> (expected: "
                  "OP, Inputs, Outputs, BasePointerName, RecParents, GEPOffset)",
                  NULL);
    /* an idx declared twice, neither side telling the edges apart */
    expect_errors(X, "<DFG>\n" NODE("0", "SUB", "") NODE("0", "ADD", "")
                  "</DFG>\n", X ":3: error: node idx=\"0\" is declared "
                  "twice (first at line 2): a SUB and a ADD; the edges into "
                  "it name only the idx, so they are read only when they tell "
                  "the two apart: one takes no inputs (MOVC, OLOAD, the "
                  "loop-start LOADB), or a CMERGE and the STOREB that resets "
                  "the loop-start flag", NULL);
    expect_errors(X, "<DFG>\n" NODE("0", "MOVC", "") NODE("0", "ADD", "")
                  NODE("0", "SUB", "") "</DFG>\n", X ":4: error: node "
                  "idx=\"0\" is declared a third time (first at line 2)",
                  NULL);
    expect_errors(X, "<DFG>\n<Node idx=\"0\" CONST=\"1\"><OP>MOVC</OP>\n"
                  "<Outputs><Output idx=\"1\" type=\"I1\"/>\n"
                  "<Output idx=\"7\" type=\"I1\"/>\n"
                  "<Output idx=\"1\" type=\"I9\"/></Outputs></Node>\n"
                  NODE("1", "ADD", "") "</DFG>\n",
                  X ":4: error: <Output> of node 0 names no node "
                  "(idx=\"7\")",
                  X ":5: error: <Output> type=\"I9\" is not one of I1, I2, "
                  "I3, P, PS", NULL);
    expect_errors(X, "<DFG>\n<Node idx=\"0\" CONST=\"1\"><OP>MOVC</OP>\n"
                  "<Outputs><Output idx=\"1\" type=\"P\"/></Outputs></Node>"
                  "\n" NODE("1", "ADD", "") "</DFG>\n",
                  X ":3: error: a predicate edge (type=\"P\") from node 0 "
                  "(MOVC) into node 1 (ADD): Morpher's partial predication "
                  "runs the op only when the predicate holds; cgramap has no "
                  "predicated execution (read: a SELECT's condition, CMERGEs "
                  "merged by a SELECT, the loop control)", NULL);
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

/* ---- Morpher's partial predication ----------------------------------- */

/* The edge into operand k of node dst (by name): its source's name,
 * distance and init's name ("-" when none), as "src d init". */
static void expect_edge(const cg_dfg *g, const char *dst, int k,
                        const char *want)
{
    int e = cg_dfg_operand_edge(g, cg_dfg_find(g, dst), k);
    assert_true(e >= 0);
    const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
    char got[96];
    snprintf(got, sizeof got, "%s %d %s", cg_dfg_get_node(g, x->src)->name,
             x->distance, x->init < 0 ? "-"
             : cg_dfg_get_node(g, x->init)->name);
    assert_string_equal(got, want);
}

/* Run g for 8 iterations on a[k] = k + 1 (a at byte 256) with the live-ins
 * named: each input's sym and value; the memory and outputs (caller frees
 * both). */
static uint8_t *run_live(const cg_dfg *g, const char *sym, uint64_t value,
                         const char *sym2, uint64_t value2, uint64_t **out)
{
    uint8_t *m = calloc(1024, 1);
    uint64_t *in = calloc((size_t)cg_dfg_nnodes(g), sizeof *in);
    *out = calloc((size_t)cg_dfg_nnodes(g), sizeof **out);
    assert_non_null(m);
    assert_non_null(in);
    assert_non_null(*out);
    for (int k = 0; k < 64; k++)
        m[256 + 4 * k] = (uint8_t)(k + 1);
    for (int i = 0; i < cg_dfg_nnodes(g); i++) {
        const cg_dfg_node *x = cg_dfg_get_node(g, i);
        if (x->op == CG_OP_INPUT && sym && !strcmp(x->sym, sym))
            in[i] = value;
        if (x->op == CG_OP_INPUT && sym2 && !strcmp(x->sym, sym2))
            in[i] = value2;
    }
    cg_mem mem = {m, 0, 1024};
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_run(g, 8, &mem, in, *out, d), 0);
    cg_diags_destroy(d);
    free(in);
    return m;
}

static void free_live(uint8_t *m, uint64_t *out, cg_dfg *g)
{
    free(m);
    free(out);
    cg_dfg_destroy(g);
}

/* morpher_phi.xml: the counter's and s's phis become loop-carried edges
 * from their next values (init: the CMERGE's CONST 0 as a const, the
 * OLOAD s as an input); the loop-start flag, its reset, the exit flag,
 * their MOVCs and the exit comparison (used only by them) are left out;
 * OLOAD k and s are inputs, OSTORE s an output.  8 iterations from
 * k = 3, s = 10: b[i] = 3 * a[i], s = 10 + 1 + ... + 8 = 46. */
static void test_morpher_phi(void **state)
{
    (void)state;
    cg_dfg *g = read_ok(DATA "morpher_phi.xml");
    static const char *const names[] = {
        "n10", "n11", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n13",
        "n21_const", "n1_const", "n2_const", "n3_const", "n6_const"};
    static const cg_op ops[] = {
        CG_OP_INPUT, CG_OP_INPUT, CG_OP_ADD, CG_OP_SHL, CG_OP_ADD,
        CG_OP_LOAD, CG_OP_MUL, CG_OP_ADD, CG_OP_ADD, CG_OP_STORE,
        CG_OP_OUTPUT, CG_OP_CONST, CG_OP_CONST, CG_OP_CONST, CG_OP_CONST,
        CG_OP_CONST};
    assert_int_equal(cg_dfg_nnodes(g), 16);
    for (int i = 0; i < 16; i++) { /* live-ins first, then by data, idx */
        assert_string_equal(cg_dfg_get_node(g, i)->name, names[i]);
        assert_int_equal(cg_dfg_get_node(g, i)->op, ops[i]);
    }
    assert_string_equal(cg_dfg_get_node(g, 0)->sym, "k");
    assert_string_equal(cg_dfg_get_node(g, 1)->sym, "s");
    assert_int_equal(cg_dfg_get_node(g, 11)->value, 0);
    assert_int_equal(cg_dfg_nedges(g), 16);
    expect_edge(g, "n1", 0, "n1 1 n21_const");  /* i + 1, i a phi */
    expect_edge(g, "n1", 1, "n1_const 0 -");
    expect_edge(g, "n2", 0, "n1 1 n21_const");  /* i << 2 */
    expect_edge(g, "n3", 0, "n2 0 -");
    expect_edge(g, "n4", 0, "n3 0 -");           /* the load's I2 */
    expect_edge(g, "n5", 0, "n4 0 -");
    expect_edge(g, "n5", 1, "n10 0 -");
    expect_edge(g, "n7", 0, "n7 1 n11");         /* s + a[i], s a phi */
    expect_edge(g, "n7", 1, "n4 0 -");
    expect_edge(g, "n8", 0, "n6 0 -");           /* the store's I2 */
    expect_edge(g, "n8", 1, "n5 0 -");           /* and its I1 */
    expect_edge(g, "n13", 0, "n7 0 -");
    const cg_mem_order *o;
    assert_int_equal(cg_dfg_mem_order(g, &o), 3); /* RecParent: both ways */
    uint64_t *out;
    uint8_t *m = run_live(g, "k", 3, "s", 10, &out);
    for (int i = 0; i < 8; i++)
        assert_int_equal(m[512 + 4 * i], 3 * (i + 1));
    assert_int_equal(m[512 + 4 * 8], 0);
    assert_int_equal(out[cg_dfg_find(g, "n13")], 46);
    free_live(m, out, g);
}

/* morpher_select.xml: the SELECT of two CMERGEs under CLT with opposite
 * NPB is select(a[i] < t, a[i], 100): the CMERGE passing when the
 * comparison holds (NPB="0") is operand 1 though its edge is I2.  From
 * t = 5: b[i] = 1 2 3 4 100 100 100 100. */
static void test_morpher_select(void **state)
{
    (void)state;
    cg_dfg *g = read_ok(DATA "morpher_select.xml");
    assert_int_equal(cg_dfg_nnodes(g), 15);
    assert_int_equal(cg_dfg_nedges(g), 16);
    int s = cg_dfg_find(g, "n7"), c = cg_dfg_find(g, "n5");
    assert_int_equal(cg_dfg_get_node(g, s)->op, CG_OP_SELECT);
    assert_int_equal(cg_dfg_get_node(g, c)->op, CG_OP_ICMP);
    assert_int_equal(cg_dfg_get_node(g, c)->pred, CG_PRED_SLT);
    assert_int_equal(cg_dfg_find(g, "n9"), -1); /* the exit CMP */
    expect_edge(g, "n7", 0, "n5 0 -");
    expect_edge(g, "n7", 1, "n4 0 -");
    expect_edge(g, "n7", 2, "n26_const 0 -");
    assert_int_equal(cg_dfg_get_node(g, cg_dfg_find(g, "n26_const"))->value,
                     100);
    expect_edge(g, "n5", 1, "n10 0 -");
    uint64_t *out;
    uint8_t *m = run_live(g, "t", 5, NULL, 0, &out);
    static const int want[] = {1, 2, 3, 4, 100, 100, 100, 100, 0};
    for (int i = 0; i < 9; i++)
        assert_int_equal(m[512 + 4 * i], want[i]);
    free_live(m, out, g);
}

/* One <Node> a line: O(idx, type) an <Output>, P(idx, npb) a predicate
 * <Output>, N(idx, type) one to the next iteration. */
#define MN(idx, op, extra, outs) "<Node idx=\"" idx "\"" extra "><OP>" op \
                                 "</OP><Outputs>" outs "</Outputs></Node>\n"
#define O(idx, t) "<Output idx=\"" idx "\" type=\"" t "\"/>"
#define N(idx, t) "<Output idx=\"" idx "\" nextiter=\"1\" type=\"" t "\"/>"
#define P(idx, npb) "<Output idx=\"" idx "\" NPB=\"" npb "\" type=\"P\"/>"
#define C(v) " CONST=\"" v "\""
#define BASE(b) "<BasePointerName>" b "</BasePointerName>"
#define MB(idx, op, extra, base, outs) "<Node idx=\"" idx "\"" extra "><OP>" \
    op "</OP>" BASE(base) "<Outputs>" outs "</Outputs></Node>\n"
/* the loop control of a counter 0, 1, ... up to 8 (phi 0, its CMERGEs
 * 21 and 22, the exit CMP 9, the flags 20, 30, 31 and their MOVCs), as
 * lines 2 to 11; the body's nodes follow */
#define LOOP LOOP_HEAD MN("21", "CMERGE", C("0"), O("0", "I1")) LOOP_TAIL
#define LOOP_HEAD                                                            \
    MN("0", "SELECT", "", O("1", "I1") O("2", "I1"))                         \
    MN("1", "ADD", C("1"), O("22", "I1") O("9", "I1"))                       \
    MN("9", "CMP", C("8"), P("22", "1") P("31", "0"))                        \
    MB("20", "LOADB", C("4094"), "loopstart", P("21", "0") P("30", "0"))
#define LOOP_TAIL                                                            \
    MN("22", "CMERGE", "", N("0", "I2"))                                     \
    MB("30", "STOREB", C("4094"), "loopstart", "")                           \
    MB("31", "STOREB", C("2047"), "loopend", "")                             \
    MN("32", "MOVC", C("0"), O("30", "I1"))                                  \
    MN("33", "MOVC", C("1"), O("31", "I1"))
/* a store of node 2's value at node 2 (the body's one effect) */
#define STORE2 MN("2", "LS", C("2"), O("8", "I1") O("8", "I2"))           \
               MN("8", "STORE", "", "")

/* Morpher writes a GEP as one ADD of its indices and its base address
 * (CONST), two of them both I2: a chain of adds (n5_sum) in the graph; a
 * compare used as a value is zero-extended (n6_zext).  Stored at
 * 12 i + k + 40 for i = 0..7, k = 100: 4 i < 12, a word 1 or 0. */
static void test_morpher_gep_sum(void **state)
{
    (void)state;
    FILE *f = fopen(X, "w");
    assert_non_null(f);
    fputs("<DFG>\n" LOOP
          MN("2", "LS", C("2"), O("5", "I3") O("4", "I1") O("6", "I1"))
          MN("4", "LS", C("1"), O("5", "I2"))
          MB("3", "OLOAD", C("-1"), "k", O("5", "I2"))
          MB("5", "ADD", C("40"), "b", O("8", "I2"))
          MN("6", "CLT", C("12"), O("8", "I1"))
          MN("8", "STORE", "", "") "</DFG>\n", f);
    fclose(f);
    cg_dfg *g = read_ok(X);
    remove(X);
    expect_edge(g, "n5", 0, "n2 0 -");
    expect_edge(g, "n5", 1, "n5_sum 0 -");
    expect_edge(g, "n5_sum", 0, "n3 0 -");
    expect_edge(g, "n5_sum", 1, "n5_sum.1 0 -");
    expect_edge(g, "n5_sum.1", 0, "n4 0 -");
    expect_edge(g, "n5_sum.1", 1, "n5_const 0 -");
    expect_edge(g, "n8", 1, "n6_zext 0 -");
    expect_edge(g, "n6_zext", 0, "n6 0 -");
    uint64_t *out;
    uint8_t *m = run_live(g, "k", 100, NULL, 0, &out);
    for (int a = 0; a < 256; a++)
        assert_int_equal(m[a], a >= 140 && a <= 164 && (a - 140) % 12 == 0);
    free_live(m, out, g);
}

static void test_morpher_errors(void **state)
{
    (void)state;
    /* the loop itself reads */
    FILE *f = fopen(X, "w");
    assert_non_null(f);
    fputs("<DFG>\n" LOOP STORE2 "</DFG>\n", f);
    fclose(f);
    cg_dfg *g = read_ok(X);
    assert_int_equal(cg_dfg_nnodes(g), 6); /* n1 n2 n8, the init, 2 CONSTs */
    cg_dfg_destroy(g);
    /* and so does it with no base pointer names (older files): the flags
     * are known by their addresses and MOVCs */
    f = fopen(X, "w");
    assert_non_null(f);
    fputs("<DFG>\n" LOOP_HEAD MN("21", "CMERGE", C("0"), O("0", "I1"))
          MN("22", "CMERGE", "", N("0", "I2"))
          MN("30", "STOREB", C("4094"), "") MN("31", "STOREB", C("2047"), "")
          MN("32", "MOVC", C("0"), O("30", "I1"))
          MN("33", "MOVC", C("1"), O("31", "I1")) STORE2 "</DFG>\n", f);
    fclose(f);
    g = read_ok(X);
    assert_int_equal(cg_dfg_nnodes(g), 6);
    cg_dfg_destroy(g);
    remove(X);
    /* a CMERGE whose user is not a SELECT: predicated execution */
    expect_errors(X, "<DFG>\n" LOOP STORE2
                  MN("40", "CMERGE", C("5"), O("41", "I1"))
                  MN("41", "ADD", C("1"), O("8", "I1")) "</DFG>\n",
                  X ":14: error: node 40 (CMERGE) feeds node 41 (ADD): a "
                  "CMERGE is read only as an input of a SELECT (a loop phi "
                  "or an if-conversion); elsewhere it predicates its user, "
                  "and cgramap has no predicated execution", NULL);
    /* a predicated store */
    expect_errors(X, "<DFG>\n" LOOP
                  MN("2", "LS", C("2"), O("8", "I1") O("8", "I2"))
                  MN("7", "CLT", C("3"), P("8", "0"))
                  MN("8", "STORE", "", "") "</DFG>\n",
                  X ":13: error: a predicated store: node 8 (STORE) writes "
                  "only when node 7 (CLT) is true (a predicate edge, "
                  "type=\"P\"); cgramap has no predicated execution, and "
                  "storing select(predicate, value, the old value loaded) is "
                  "not the same loop: it reads and writes the address in "
                  "iterations where the loop does not touch it (an address "
                  "that may lie outside the arrays then, a store that can "
                  "overwrite another's value); not read (where the old value "
                  "is safe to read, store the selected value unconditionally "
                  "in the source)", NULL);
    /* three CMERGEs into one SELECT */
    expect_errors(X, "<DFG>\n" LOOP STORE2
                  MN("40", "CMERGE", C("1"), O("43", "I1"))
                  MN("41", "CMERGE", C("2"), O("43", "I1"))
                  MN("42", "CMERGE", C("3"), O("43", "I2"))
                  MN("43", "SELECT", "", O("8", "I1")) "</DFG>\n",
                  X ":17: error: node 43 (SELECT) merges 3 CMERGEs and 0 "
                  "other inputs: read only with two CMERGEs (a loop phi, or "
                  "an if-conversion under one comparison); which input is "
                  "valid cannot be proven otherwise", NULL);
    /* two CMERGEs under unrelated predicates */
    expect_errors(X, "<DFG>\n" LOOP STORE2
                  MN("39", "CLT", C("3"), P("40", "0"))
                  MN("38", "CGT", C("5"), P("41", "1"))
                  MN("40", "CMERGE", C("1"), O("43", "I1"))
                  MN("41", "CMERGE", C("2"), O("43", "I2"))
                  MN("43", "SELECT", "", O("8", "I1")) "</DFG>\n",
                  X ":18: error: node 43 (SELECT) merges node 40 (CMERGE) "
                  "and node 41 (CMERGE), which are neither a loop phi (one "
                  "passes the initial value under the loop-start LOADB, the "
                  "other the value of the iteration before) nor an "
                  "if-conversion (one comparison, opposite NPB, same "
                  "iteration): which is valid cannot be proven", NULL);
    /* a CMERGE with no value */
    expect_errors(X, "<DFG>\n" LOOP STORE2
                  MN("40", "CMERGE", "", O("43", "I1"))
                  MN("41", "CMERGE", C("2"), N("43", "I2"))
                  MN("43", "SELECT", "", O("8", "I1")) "</DFG>\n",
                  X ":14: error: node 40 (CMERGE): read only with at most one "
                  "predicate input and one value (a data input, or its "
                  "CONST); it has 0 and 0 and no CONST", NULL);
    /* a loop phi whose initial value is computed */
    expect_errors(X, "<DFG>\n" LOOP_HEAD MN("21", "CMERGE", "", O("0", "I1"))
                  LOOP_TAIL STORE2 MN("39", "ADD", C("3"), O("21", "I1"))
                  "</DFG>\n",
                  X ":2: error: node 0 (SELECT): the loop phi's initial value "
                  "is node 39 (ADD), computed, not a constant (MOVC, CONST) "
                  "or a live-in (OLOAD); cgramap's loop-carried edges start "
                  "from a constant or a live-in", NULL);
    /* a loop phi whose next value passes under another condition */
    expect_errors(X, "<DFG>\n"
                  MN("0", "SELECT", "", O("1", "I1") O("2", "I1"))
                  MN("1", "ADD", C("1"), O("22", "I1") O("9", "I1"))
                  MN("9", "CMP", C("8"), P("31", "0"))
                  MN("39", "CLT", C("3"), P("22", "1"))
                  MB("20", "LOADB", C("4094"), "loopstart", P("21", "0")
                     P("30", "0"))
                  MN("21", "CMERGE", C("0"), O("0", "I1")) LOOP_TAIL STORE2
                  "</DFG>\n",
                  X ":2: error: node 0 (SELECT): its CMERGE 22 passes the next "
                  "value only when node 39 (CLT) is false, which is not the "
                  "loop's continue condition (the opposite of the STOREB to "
                  "loopend's predicate); the value would be missing in some "
                  "iterations, which cgramap cannot express", NULL);
    /* an if-conversion under something else than a comparison */
    expect_errors(X, "<DFG>\n" LOOP STORE2
                  MN("39", "AND", C("3"), P("40", "0") P("41", "1"))
                  MN("40", "CMERGE", C("1"), O("43", "I1"))
                  MN("41", "CMERGE", C("2"), O("43", "I2"))
                  MN("43", "SELECT", "", O("8", "I1")) "</DFG>\n",
                  X ":17: error: node 43 (SELECT): its CMERGEs are selected by "
                  "node 39 (AND), not a comparison (CMP, CLT, CGT); read "
                  "only with a comparison as the select's condition", NULL);
    /* the loop-start flag read as a value */
    expect_errors(X, "<DFG>\n"
                  MN("0", "SELECT", "", O("1", "I1") O("2", "I1"))
                  MN("1", "ADD", C("1"), O("22", "I1") O("9", "I1"))
                  MN("9", "CMP", C("8"), P("22", "1") P("31", "0"))
                  MB("20", "LOADB", C("4094"), "loopstart", P("21", "0")
                     P("30", "0") O("2", "I2"))
                  MN("21", "CMERGE", C("0"), O("0", "I1")) LOOP_TAIL STORE2
                  "</DFG>\n",
                  X ":5: error: node 20 (LOADB), the loop-start flag, feeds "
                  "node 2 (LS) as a value: read only as the predicate "
                  "(NPB=\"0\") of a CMERGE passing a loop phi's initial "
                  "value, of the STOREB that resets it and of an older "
                  "generator's loop phi (a SELECT with one CMERGE)", NULL);
    /* an OLOAD with an input; an OSTORE under another predicate */
    expect_errors(X, "<DFG>\n" LOOP STORE2
                  MN("39", "CLT", C("3"), O("40", "I1") P("41", "0"))
                  MN("40", "OLOAD", C("-1"), O("42", "I2"))
                  MN("41", "OSTORE", C("-1"), "")
                  MN("42", "ADD", C("1"), O("41", "I1")) "</DFG>\n",
                  X ":14: error: node 39 (CLT) feeds node 40, a scalar live-in "
                  "(OLOAD), which is read only without inputs",
                  X ":14: error: a predicate edge (type=\"P\") from node 39 "
                  "(CLT) into node 41 (OSTORE), a scalar live-out: read only "
                  "under the loop's exit condition (the STOREB to loopend's "
                  "predicate), where it is the value of the last iteration",
                  NULL);
    /* the loop-end flag's STOREB without its MOVC */
    expect_errors(X, "<DFG>\n" LOOP_HEAD
                  MN("21", "CMERGE", C("0"), O("0", "I1"))
                  MN("22", "CMERGE", "", N("0", "I2"))
                  MB("30", "STOREB", C("4094"), "loopstart", "")
                  MB("31", "STOREB", C("2047"), "loopend", "")
                  MN("32", "MOVC", C("0"), O("30", "I1"))
                  MN("33", "ADD", C("1"), O("31", "I1")) STORE2 "</DFG>\n",
                  X ":9: error: node 31 (STOREB): a STOREB to the loop's end "
                  "flag (loop control) is read only with one predicate input "
                  "and a MOVC as its data", NULL);
}

/* ---- Morpher's sub-word values, an idx declared twice, GEPOffset ----- */

/* Write text to X and read it expecting no message. */
static cg_dfg *read_text_ok(const char *text)
{
    FILE *f = fopen(X, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    cg_dfg *g = read_ok(X);
    remove(X);
    return g;
}

/* morpher_widths.xml: the LOADH is a 16-bit load, sign-extended by its
 * SEXT directly and zero-extended (n5_zext) where it is used as a word;
 * the LOADB's SEXT (65540) extends its byte; the OLOADH k is a 16-bit
 * input used zero-extended; the STOREH stores a word truncated
 * (n10_trunc16).  Run on halves and bytes with the sign bit set, and k
 * given as 0x10003 (the half-word 3): b[i] = (h * 3) >> 1 in 16 bits,
 * d[i] = (signed char)p[i] + (unsigned short)a[i]. */
static void test_morpher_widths(void **state)
{
    (void)state;
    static const int16_t a[8] = {5, -2, 32767, -32768, 3, -1, 100, -256};
    static const int8_t p[8] = {1, -128, -1, 5, 127, 0, -2, 10};
    cg_dfg *g = read_ok(DATA "morpher_widths.xml");
    static const char *const nodes[][3] = {
        {"n5", "load", "16"},   {"n13", "load", "8"},
        {"n11", "input", "16"}, {"n7", "sext", "32"},
        {"n15", "sext", "32"},  {"n5_zext", "zext", "32"},
        {"n11_zext", "zext", "32"}, {"n10_trunc16", "trunc", "16"},
        {"n12", "store", "16"}, {"n17", "store", "32"}};
    for (int i = 0; i < 10; i++) {
        const cg_dfg_node *x = cg_dfg_get_node(g, cg_dfg_find(g, nodes[i][0]));
        assert_non_null(x);
        assert_string_equal(cg_op_name(x->op), nodes[i][1]);
        assert_int_equal(x->width, atoi(nodes[i][2]));
    }
    assert_int_equal(count_op(g, CG_OP_ZEXT), 2);
    assert_int_equal(count_op(g, CG_OP_TRUNC), 1);
    expect_edge(g, "n7", 0, "n5 0 -");        /* the half-word itself */
    expect_edge(g, "n15", 0, "n13 0 -");      /* the byte itself */
    expect_edge(g, "n14", 0, "n5_zext 0 -");  /* LOADH as a word */
    expect_edge(g, "n14", 1, "n15 0 -");
    expect_edge(g, "n8", 0, "n7 0 -");
    expect_edge(g, "n8", 1, "n11_zext 0 -");
    expect_edge(g, "n12", 1, "n10_trunc16 0 -");
    expect_edge(g, "n17", 1, "n14 0 -");
    uint8_t m[1024] = {0};
    for (int i = 0; i < 8; i++) {
        m[256 + 2 * i] = (uint8_t)(uint16_t)a[i];
        m[257 + 2 * i] = (uint8_t)((uint16_t)a[i] >> 8);
        m[384 + i] = (uint8_t)p[i];
    }
    uint64_t *in = calloc((size_t)cg_dfg_nnodes(g), sizeof *in);
    assert_non_null(in);
    in[cg_dfg_find(g, "n11")] = 0x10003;
    cg_mem mem = {m, 0, sizeof m};
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_dfg_run(g, 8, &mem, in, NULL, d), 0);
    cg_diags_destroy(d);
    for (int i = 0; i < 8; i++) {
        int32_t v = a[i] * 3, half = v >= 0 ? v / 2 : -((1 - v) / 2);
        uint16_t b = (uint16_t)half;
        uint32_t w = (uint32_t)(p[i] + (int32_t)(uint16_t)a[i]);
        assert_int_equal(m[512 + 2 * i] | m[513 + 2 * i] << 8, b);
        assert_int_equal((uint32_t)m[640 + 4 * i] |
                         (uint32_t)m[641 + 4 * i] << 8 |
                         (uint32_t)m[642 + 4 * i] << 16 |
                         (uint32_t)m[643 + 4 * i] << 24, w);
    }
    assert_int_equal(m[512 + 16] | m[640 + 32], 0);
    free(in);
    cg_dfg_destroy(g);
}

/* the loop of LOOP STORE2 with the reset STOREB (no base pointer, as
 * older files write it) declared with the idx of the CMERGE 22, and the
 * edges into 22 given in ORDER */
#define TWIN_LOOP(ORDER)                                                     \
    "<DFG>\n" MN("0", "SELECT", "", O("1", "I1") O("2", "I1"))               \
    MN("1", "ADD", C("1"), O("22", "I1") O("9", "I1"))                       \
    MN("9", "CMP", C("8"), P("22", "1") P("31", "0"))                        \
    MB("20", "LOADB", C("4094"), "loopstart", P("21", "0") ORDER)            \
    MN("21", "CMERGE", C("0"), O("0", "I1"))                                 \
    MN("22", "CMERGE", "", N("0", "I2"))                                     \
    MN("22", "STOREB", C("4094"), "")                                        \
    MB("31", "STOREB", C("2047"), "loopend", "")                             \
    MN("32", "MOVC", C("0"), O("22", "I1"))                                  \
    MN("33", "MOVC", C("1"), O("31", "I1")) STORE2 "</DFG>\n"

/* An idx declared twice (older files of Morpher's generator): a CMERGE
 * and the STOREB resetting the loop-start flag (the flag's predicate and
 * the MOVC 0 are the STOREB's, the rest the CMERGE's), and the
 * loop-start LOADB and a LOAD (every edge into it the LOAD's), read to
 * the graphs the files would give with distinct idx; where the edges do
 * not tell the two apart, refused. */
static void test_morpher_twins(void **state)
{
    (void)state;
    cg_dfg *plain = read_text_ok("<DFG>\n" LOOP STORE2 "</DFG>\n");
    cg_dfg *twin = read_text_ok(TWIN_LOOP(P("22", "0")));
    assert_int_equal(cg_dfg_nnodes(twin), 6);
    assert_int_equal(cg_dfg_nedges(twin), cg_dfg_nedges(plain));
    expect_edge(twin, "n1", 0, "n1 1 n21_const");
    same_memory(plain, twin);
    /* the loop-start LOADB and the LOAD of a[i] share idx 4: b[i] = a[i] */
#define COPY(F)                                                              \
    "<DFG>\n" MN("0", "SELECT", "", O("1", "I1") O("2", "I1"))               \
    MN("1", "ADD", C("1"), O("22", "I1") O("9", "I1"))                       \
    MN("9", "CMP", C("8"), P("22", "1") P("31", "0"))                        \
    MB(F, "LOADB", C("4094"), "loopstart", P("21", "0") P("30", "0"))        \
    MN("21", "CMERGE", C("0"), O("0", "I1")) LOOP_TAIL                       \
    MN("2", "LS", C("2"), O("3", "I1") O("5", "I1"))                         \
    MN("3", "ADD", C("256"), O("4", "I2")) MN("4", "LOAD", "", O("8", "I1")) \
    MN("5", "ADD", C("512"), O("8", "I2")) MN("8", "STORE", "", "")          \
    "</DFG>\n"
    plain = read_text_ok(COPY("20"));
    twin = read_text_ok(COPY("4"));
    assert_int_equal(cg_dfg_nnodes(twin), cg_dfg_nnodes(plain));
    expect_edge(twin, "n4", 0, "n3 0 -");
    expect_edge(twin, "n8", 1, "n4 0 -");
    uint8_t *m = run8(twin);
    for (int i = 0; i < 8; i++)
        assert_int_equal(m[512 + 4 * i], i + 1);
    free(m);
    same_memory(plain, twin);
#undef COPY
    /* two predicates from the flag into 22: whose is which is not known */
    expect_errors(X, TWIN_LOOP(P("22", "0") P("22", "0")),
                  X ":8: error: node idx=\"22\" is declared twice (first at "
                  "line 7): a CMERGE and the STOREB resetting the loop-start "
                  "flag, but 2 predicate edges from the flag (node 20) and 1 "
                  "MOVC 0 go into it, where the STOREB takes one of each: "
                  "which node each feeds is not known", NULL);
}

/* <GEPOffset> equal to CONST (older files: base addresses 0, CONST the
 * offset) is in CONST already: the same graph as <GEPOffset>0; another
 * is refused. */
static void test_morpher_gep_offset(void **state)
{
    (void)state;
#define GEP(K, G)                                                            \
    "<DFG>\n" LOOP MN("2", "LS", C("2"), O("3", "I1") O("8", "I1"))          \
    "<Node idx=\"3\"" K "><OP>ADD</OP><GEPOffset>" G "</GEPOffset>"          \
    "<Outputs>" O("8", "I2") "</Outputs></Node>\n"                           \
    MN("8", "STORE", "", "") "</DFG>\n"
    cg_dfg *a = read_text_ok(GEP(C("8"), "0"));
    cg_dfg *b = read_text_ok(GEP(C("8"), "8"));
    uint8_t *m = run8(b);
    for (int i = 0; i < 8; i++) /* 4 i stored at 4 i + 8 */
        assert_int_equal(m[8 + 4 * i], 4 * i);
    free(m);
    same_memory(a, b);
    expect_errors(X, GEP(C("264"), "8"),
                  X ":13: error: <GEPOffset>8</GEPOffset> with "
                  "CONST=\"264\": read only when it is 0 or equals the "
                  "node's CONST (a base address of 0 plus the offset, as "
                  "older files write it); otherwise whether CONST holds the "
                  "offset already is not known", NULL);
    expect_errors(X, GEP("", "8"),
                  X ":13: error: <GEPOffset>8</GEPOffset> on a node without "
                  "CONST: read only when it is 0 or equals the node's CONST "
                  "(a base address of 0 plus the offset, as older files write "
                  "it); otherwise whether CONST holds the offset already is "
                  "not known", NULL);
#undef GEP
}

/* What stays refused among the older forms: a SEXT's CONST of other
 * widths or none, a loop phi folded into its user (no SELECT), a SELECT
 * under the loop-start flag with one CMERGE (no initial value). */
static void test_morpher_older_errors(void **state)
{
    (void)state;
    expect_errors(X, "<DFG>\n" LOOP STORE2
                  MN("40", "LOADH", "", O("41", "I1"))
                  MN("41", "SEXT", C("131080"), O("42", "I1"))
                  MN("42", "SEXT", "", "") "</DFG>\n",
                  X ":15: error: node 41: SEXT CONST=\"131080\" is read only "
                  "as (bytes from << 16) | bytes to, from 1 or 2 bytes to 4 "
                  "(65540, 131076: a byte or a half-word extended to a word)",
                  X ":16: error: node 42: a SEXT without CONST (Morpher's "
                  "generator writes the widths there, (bytes from << 16) | "
                  "bytes to)", NULL);
    expect_errors(X, "<DFG>\n"
                  MB("57", "OLOAD", C("-1"), "i0", O("1", "I1"))
                  MN("1", "ADD", C("4"), N("1", "I1") O("8", "I1")
                     O("8", "I2"))
                  MN("8", "STORE", "", "") "</DFG>\n",
                  X ":3: error: node 1 (ADD): its I1 is fed by node 57 (OLOAD) "
                  "of this iteration and by node 1 (ADD) of the iteration "
                  "before (nextiter=\"1\"), with no SELECT between them (a "
                  "loop phi folded into its user, as Morpher's generator "
                  "writes without partial predication): which value it takes "
                  "in which iteration is not stated; not read", NULL);
}

/* An older generator's loop phi: a SELECT under the loop-start flag whose
 * one CMERGE passes the value of the iteration before, and no initial
 * value.  Read with a live-in as that value (n0_init), and warned.  From
 * n0_init = 512: p = 512, 516, ...; each iteration stores p + 4 at
 * p + 4.  Its CMERGE under another condition than the loop's continue
 * condition is refused, as a two-CMERGE phi's is. */
static void test_morpher_livein_phi(void **state)
{
    (void)state;
    FILE *f = fopen(X, "w");
    assert_non_null(f);
    fputs("<DFG>\n"
          MB("20", "LOADB", C("4094"), "loopstart", P("0", "0"))
          MN("0", "SELECT", "", O("1", "I1"))
          MN("1", "ADD", C("4"), O("50", "I1") O("8", "I1") O("8", "I2"))
          MN("50", "CMERGE", "", N("0", "I2"))
          MN("8", "STORE", "", "") "</DFG>\n", f);
    fclose(f);
    cg_diags *d = cg_diags_create();
    cg_dfg *g = cg_dfg_read_file(X, d);
    remove(X);
    assert_non_null(g);
    assert_int_equal(cg_diags_size(d), 1);
    char *msg = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(msg, X ":3: warning: node 0 (SELECT): its predicate "
                        "is the loop-start flag and its one CMERGE, node 50 "
                        "(CMERGE), passes the value of the iteration before: "
                        "a loop phi (of an older generator) whose value "
                        "before the first iteration the file does not state; "
                        "read as a live-in, 'n0_init' (a mapping for any "
                        "value maps it for the one the loop starts with)");
    free(msg);
    cg_diags_destroy(d);
    int in = cg_dfg_find(g, "n0_init");
    assert_true(in >= 0);
    assert_int_equal(cg_dfg_get_node(g, in)->op, CG_OP_INPUT);
    assert_string_equal(cg_dfg_get_node(g, in)->sym, "n0_init");
    expect_edge(g, "n1", 0, "n1 1 n0_init"); /* p + 4, p the phi */
    expect_edge(g, "n8", 0, "n1 0 -");
    expect_edge(g, "n8", 1, "n1 0 -");
    uint64_t *out;
    uint8_t *m = run_live(g, "n0_init", 512, NULL, 0, &out);
    for (int i = 0; i < 8; i++) {
        uint32_t w;
        memcpy(&w, m + 516 + 4 * i, 4);
        assert_int_equal(w, 516 + 4 * i);
    }
    assert_int_equal(m[548], 0);
    assert_int_equal(m[512], 0);
    free_live(m, out, g);
    /* its CMERGE under a condition that is not the loop's continue
     * condition: the next value would be missing in some iterations */
    expect_errors(X, "<DFG>\n"
                  MB("20", "LOADB", C("4094"), "loopstart", P("0", "0"))
                  MN("0", "SELECT", "", O("1", "I1") O("9", "I1"))
                  MN("1", "ADD", C("4"), O("50", "I1") O("8", "I1")
                     O("8", "I2"))
                  MN("9", "CMP", C("8"), P("50", "0"))
                  MN("50", "CMERGE", "", N("0", "I2"))
                  MN("8", "STORE", "", "") "</DFG>\n",
                  X ":3: error: node 0 (SELECT): its CMERGE 50 passes the "
                  "next value only when node 9 (CMP) is true, which is not "
                  "the loop's continue condition (the opposite of the STOREB "
                  "to loopend's predicate, and the file has none); the value "
                  "would be missing in some iterations, which cgramap cannot "
                  "express", NULL);
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
        cmocka_unit_test(test_morpher_phi),
        cmocka_unit_test(test_morpher_select),
        cmocka_unit_test(test_morpher_gep_sum),
        cmocka_unit_test(test_morpher_errors),
        cmocka_unit_test(test_morpher_widths),
        cmocka_unit_test(test_morpher_twins),
        cmocka_unit_test(test_morpher_gep_offset),
        cmocka_unit_test(test_morpher_older_errors),
        cmocka_unit_test(test_morpher_livein_phi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
