/* test_run.c: the reference interpreter (dfg/run.c).  Small DFGs in the
 * .dot form with their expected memory and live-outs worked out by hand;
 * every error with its exact message and line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dfg/dfg.h"

#define BASE 0x1000

typedef struct fixture {
    cg_dfg *g;
    cg_diags *d;
    uint8_t bytes[64];
    cg_mem mem;
    uint64_t in[32], out[32];
} fixture;

static void load(fixture *f, const char *text)
{
    f->d = cg_diags_create();
    f->g = cg_dfg_read_dot_string(text, "t.dot", f->d);
    assert_non_null(f->g);
    memset(f->bytes, 0, sizeof f->bytes);
    memset(f->in, 0, sizeof f->in);
    memset(f->out, 0, sizeof f->out);
    f->mem = (cg_mem){f->bytes, BASE, sizeof f->bytes};
}

static void done(fixture *f)
{
    cg_dfg_destroy(f->g);
    cg_diags_destroy(f->d);
}

static int run(fixture *f, int64_t iters)
{
    return cg_dfg_run(f->g, iters, &f->mem, f->in, f->out, f->d);
}

static int id(fixture *f, const char *name)
{
    int i = cg_dfg_find(f->g, name);
    assert_true(i >= 0);
    return i;
}

/* The only diagnostic, formatted. */
static void assert_error(fixture *f, const char *want)
{
    assert_int_equal(cg_diags_size(f->d), 1);
    char *s = cg_diag_format(cg_diags_get(f->d, 0));
    assert_string_equal(s, want);
    free(s);
}

/* a[i] = a[i] * 3 + s, s the running sum of the old a[i] starting at 5:
 * a recurrence with a non-zero initial value, loads before a store. */
static const char *scale_text =
    "digraph scale {\n"
    "  base[opcode=input width=64];\n"
    "  c5[opcode=const width=32 value=5];\n"
    "  c4[opcode=const width=64 value=4];\n"
    "  c3[opcode=const width=32 value=3];\n"
    "  i[opcode=add width=64];\n"
    "  off[opcode=mul width=64];\n"
    "  addr[opcode=gep width=64];\n"
    "  x[opcode=load width=32];\n"
    "  s[opcode=add width=32];\n"
    "  m[opcode=mul width=32];\n"
    "  y[opcode=add width=32];\n"
    "  st[opcode=store width=32];\n"
    "  last[opcode=output width=32];\n"
    "  one[opcode=const width=64 value=1];\n"
    "  zero[opcode=const width=64 value=-1];\n"
    "  i->i[operand=0 distance=1 init=zero];\n"
    "  one->i[operand=1];\n"
    "  i->off[operand=0];\n"
    "  c4->off[operand=1];\n"
    "  base->addr[operand=0];\n"
    "  off->addr[operand=1];\n"
    "  addr->x[operand=0];\n"
    "  s->s[operand=0 distance=1 init=c5];\n"
    "  x->s[operand=1];\n"
    "  x->m[operand=0];\n"
    "  c3->m[operand=1];\n"
    "  m->y[operand=0];\n"
    "  s->y[operand=1];\n"
    "  addr->st[operand=0];\n"
    "  y->st[operand=1];\n"
    "  s->last[operand=0];\n"
    "}\n";

static void test_recurrence_with_initial_value(void **state)
{
    (void)state;
    fixture f;
    load(&f, scale_text);
    f.in[id(&f, "base")] = BASE + 8;
    int32_t a[4] = {7, -2, 100, 0x7fffffff};
    memcpy(f.bytes + 8, a, sizeof a);
    assert_int_equal(run(&f, 4), 0);
    int32_t want[4], s = 5;
    for (int k = 0; k < 4; k++) {
        s = (int32_t)((uint32_t)s + (uint32_t)a[k]);
        want[k] = (int32_t)((uint32_t)a[k] * 3u + (uint32_t)s);
    }
    assert_memory_equal(f.bytes + 8, want, sizeof want);
    assert_int_equal(f.out[id(&f, "last")], (uint32_t)s);
    /* nothing outside the four words changed */
    for (int k = 0; k < 8; k++)
        assert_int_equal(f.bytes[k], 0);
    for (int k = 24; k < 64; k++)
        assert_int_equal(f.bytes[k], 0);
    assert_int_equal(cg_diags_size(f.d), 0);
    done(&f);
}

static void test_zero_iterations_change_nothing(void **state)
{
    (void)state;
    fixture f;
    load(&f, scale_text);
    f.in[id(&f, "base")] = BASE;
    f.out[id(&f, "last")] = 99;
    memset(f.bytes, 0xab, sizeof f.bytes);
    assert_int_equal(run(&f, 0), 0);
    for (size_t k = 0; k < sizeof f.bytes; k++)
        assert_int_equal(f.bytes[k], 0xab);
    assert_int_equal(f.out[id(&f, "last")], 99);
    done(&f);
}

/* Fibonacci over a distance-2 and a distance-1 edge, each with its own
 * initial value, in 8 bits so that it wraps. */
static void test_distance_two_and_width(void **state)
{
    (void)state;
    fixture f;
    load(&f, "digraph fib {\n"
             "  a[opcode=const width=8 value=1];\n"
             "  b[opcode=input width=8];\n"
             "  f[opcode=add width=8];\n"
             "  o[opcode=output width=8];\n"
             "  f->f[operand=0 distance=2 init=a];\n"
             "  f->f[operand=1 distance=1 init=b];\n"
             "  f->o[operand=0];\n"
             "}\n");
    f.in[id(&f, "b")] = 0x102; /* only the low 8 bits count: 2 */
    /* each edge has its own initial value: f[-2] reads a, f[-1] reads b */
    uint8_t v[20];
    for (int k = 0; k < 20; k++)
        v[k] = (uint8_t)((k >= 2 ? v[k - 2] : 1) + (k >= 1 ? v[k - 1] : 2));
    uint8_t z = v[19];
    assert_int_equal(run(&f, 20), 0);
    assert_int_equal(f.out[id(&f, "o")], z);
    done(&f);
}

/* Signedness: sext of a negative byte, a signed and an unsigned compare,
 * select, ashr versus lshr, sdiv versus udiv. */
static void test_signedness(void **state)
{
    (void)state;
    fixture f;
    load(&f, "digraph sg {\n"
             "  v[opcode=input width=8];\n"
             "  w[opcode=sext width=32];\n"
             "  z[opcode=zext width=32];\n"
             "  lt[opcode=icmp pred=slt width=1];\n"
             "  ult[opcode=icmp pred=ult width=1];\n"
             "  sel[opcode=select width=32];\n"
             "  c1[opcode=const width=32 value=1];\n"
             "  c2[opcode=const width=32 value=2];\n"
             "  as[opcode=ashr width=32];\n"
             "  ls[opcode=lshr width=32];\n"
             "  sd[opcode=sdiv width=32];\n"
             "  ud[opcode=udiv width=32];\n"
             "  o1[opcode=output width=32];\n"
             "  o2[opcode=output width=32];\n"
             "  o3[opcode=output width=32];\n"
             "  o4[opcode=output width=32];\n"
             "  o5[opcode=output width=32];\n"
             "  o6[opcode=output width=1];\n"
             "  v->w[operand=0];\n"
             "  v->z[operand=0];\n"
             "  w->lt[operand=0];\n"
             "  c1->lt[operand=1];\n"
             "  w->ult[operand=0];\n"
             "  c1->ult[operand=1];\n"
             "  lt->sel[operand=0];\n"
             "  w->sel[operand=1];\n"
             "  z->sel[operand=2];\n"
             "  w->as[operand=0];\n"
             "  c1->as[operand=1];\n"
             "  w->ls[operand=0];\n"
             "  c1->ls[operand=1];\n"
             "  w->sd[operand=0];\n"
             "  c2->sd[operand=1];\n"
             "  w->ud[operand=0];\n"
             "  c2->ud[operand=1];\n"
             "  sel->o1[operand=0];\n"
             "  as->o2[operand=0];\n"
             "  ls->o3[operand=0];\n"
             "  sd->o4[operand=0];\n"
             "  ud->o5[operand=0];\n"
             "  ult->o6[operand=0];\n"
             "}\n");
    f.in[id(&f, "v")] = 0xf9; /* -7 */
    assert_int_equal(run(&f, 1), 0);
    assert_int_equal(f.out[id(&f, "o1")], 0xfffffff9u);      /* -7 < 1 */
    assert_int_equal(f.out[id(&f, "o2")], 0xfffffffcu);      /* -7 >> 1 */
    assert_int_equal(f.out[id(&f, "o3")], 0x7ffffffcu);
    assert_int_equal(f.out[id(&f, "o4")], 0xfffffffdu);      /* -3 */
    assert_int_equal(f.out[id(&f, "o5")], 0x7ffffffcu);
    assert_int_equal(f.out[id(&f, "o6")], 0);                /* huge >= 1 */
    done(&f);
}

/* Within an iteration memory ops act in id order: a load after a store to
 * the same address sees the stored value, one before it the old one. */
static const char *order_text =
    "digraph order {\n"
    "  p[opcode=input width=64];\n"
    "  v[opcode=input width=16];\n"
    "  before[opcode=load width=16];\n"
    "  st[opcode=store width=16];\n"
    "  after[opcode=load width=16];\n"
    "  o1[opcode=output width=16];\n"
    "  o2[opcode=output width=16];\n"
    "  p->before[operand=0];\n"
    "  p->st[operand=0];\n"
    "  v->st[operand=1];\n"
    "  p->after[operand=0];\n"
    "  before->o1[operand=0];\n"
    "  after->o2[operand=0];\n"
    "}\n";

static void test_memory_order(void **state)
{
    (void)state;
    fixture f;
    load(&f, order_text);
    f.in[id(&f, "p")] = BASE + 62;
    f.in[id(&f, "v")] = 0xbeef;
    f.bytes[62] = 0x34;
    f.bytes[63] = 0x12;
    assert_int_equal(run(&f, 1), 0);
    assert_int_equal(f.out[id(&f, "o1")], 0x1234);
    assert_int_equal(f.out[id(&f, "o2")], 0xbeef);
    assert_int_equal(f.bytes[62], 0xef); /* little-endian */
    assert_int_equal(f.bytes[63], 0xbe);
    done(&f);
}

static void test_access_outside_memory(void **state)
{
    (void)state;
    fixture f;
    load(&f, order_text);
    f.in[id(&f, "p")] = BASE + 63; /* the second byte is past the end */
    assert_int_equal(run(&f, 1), -1);
    assert_error(&f, "error: load 'before' at iteration 0 accesses 2 "
                     "bytes at 0x103f, outside the memory image "
                     "[0x1000, 0x1040)");
    done(&f);
    load(&f, order_text);
    f.in[id(&f, "p")] = BASE - 2;
    assert_int_equal(run(&f, 1), -1);
    assert_error(&f, "error: load 'before' at iteration 0 accesses 2 "
                     "bytes at 0xffe, outside the memory image "
                     "[0x1000, 0x1040)");
    done(&f);
}

static void test_division_by_zero(void **state)
{
    (void)state;
    fixture f;
    load(&f, "digraph dz {\n"
             "  n[opcode=input width=32];\n"
             "  k[opcode=input width=32];\n"
             "  q[opcode=srem width=32 line=12];\n"
             "  o[opcode=output width=32];\n"
             "  n->q[operand=0];\n"
             "  k->q[operand=1];\n"
             "  q->o[operand=0];\n"
             "  graph [file=\"k.c\"];\n"
             "}\n");
    f.in[id(&f, "n")] = 7;
    assert_int_equal(run(&f, 3), -1);
    assert_error(&f, "k.c:12: error: srem 'q' divides by zero at iteration 0");
    done(&f);
}

/* A graph without a file attribute has nowhere to point (the node lines
 * are C source lines): the message stands alone. */

/* CGRA-ME files give no constant values: reading them is fine, running
 * them is not. */
static void test_const_without_value(void **state)
{
    (void)state;
    fixture f;
    load(&f, "digraph acc {\n"
             "  c[opcode=const];\n"
             "  a[opcode=add];\n"
             "  o[opcode=output];\n"
             "  c->a[operand=0];\n"
             "  a->a[operand=1];\n"
             "  a->o[operand=0];\n"
             "}\n");
    assert_int_equal(run(&f, 0), 0);
    assert_int_equal(run(&f, 2), -1);
    assert_error(&f, "error: const 'c' has no value; the interpreter "
                     "needs one (value=N in the .dot file)");
    done(&f);
    load(&f, "digraph acc {\n"
             "  i[opcode=const width=32];\n"
             "  a[opcode=add width=32];\n"
             "  one[opcode=const width=32 value=1];\n"
             "  a->a[operand=0 distance=1 init=i];\n"
             "  one->a[operand=1];\n"
             "}\n");
    assert_int_equal(run(&f, 2), -1);
    assert_error(&f, "error: const 'i' gives the initial value of 'a' "
                     "but has no value; give it one (value=N in the .dot "
                     "file)");
    done(&f);
}

static void test_bad_iterations_and_graph(void **state)
{
    (void)state;
    fixture f;
    load(&f, order_text);
    assert_int_equal(run(&f, -1), -1);
    assert_error(&f, "error: cannot run 'order' for -1 iterations; "
                     "give 0 or more");
    done(&f);
    /* a graph cg_dfg_check rejects is not run: an add missing operand 1 */
    cg_diags *d = cg_diags_create();
    cg_dfg *g = cg_dfg_create("bad");
    int in = cg_dfg_add_node(g, CG_OP_INPUT, 32, "in");
    int a = cg_dfg_add_node(g, CG_OP_ADD, 32, "a");
    cg_dfg_add_edge(g, in, a, 0, 0, -1);
    uint64_t ins[2] = {0, 0};
    assert_int_equal(cg_dfg_run(g, 1, NULL, ins, NULL, d), -1);
    assert_true(cg_diags_errors(d) >= 1);
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recurrence_with_initial_value),
        cmocka_unit_test(test_zero_iterations_change_nothing),
        cmocka_unit_test(test_distance_two_and_width),
        cmocka_unit_test(test_signedness),
        cmocka_unit_test(test_memory_order),
        cmocka_unit_test(test_access_outside_memory),
        cmocka_unit_test(test_division_by_zero),
        cmocka_unit_test(test_const_without_value),
        cmocka_unit_test(test_bad_iterations_and_graph),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
