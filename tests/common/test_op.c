/* Tests for common/op.c: names, aliases and the semantics of each op. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/op.h"

static void names_and_aliases(void **state)
{
    (void)state;
    cg_op op;
    assert_true(cg_op_parse("shra", &op));
    assert_int_equal(op, CG_OP_ASHR);
    assert_true(cg_op_parse("shrl", &op));
    assert_int_equal(op, CG_OP_LSHR);
    assert_true(cg_op_parse("shr", &op));
    assert_int_equal(op, CG_OP_LSHR);
    assert_true(cg_op_parse("div", &op));
    assert_int_equal(op, CG_OP_SDIV);
    assert_false(cg_op_parse("fadd", &op));
    for (int i = 0; i < CG_OP_COUNT; i++) {
        assert_true(cg_op_parse(cg_op_name((cg_op)i), &op));
        assert_int_equal(op, i);
    }
}

static uint64_t eval2(cg_op op, int w, uint64_t a, uint64_t b)
{
    uint64_t x[2] = {a, b}, r = 0xdead;
    assert_true(cg_op_eval(op, CG_PRED_NONE, w, w, x, &r));
    return r;
}

static void semantics(void **state)
{
    (void)state;
    assert_int_equal(eval2(CG_OP_ADD, 8, 200, 100), 44);
    assert_int_equal(eval2(CG_OP_SUB, 32, 1, 2), 0xffffffffu);
    assert_int_equal(eval2(CG_OP_ASHR, 8, 0x80, 1), 0xc0);
    assert_int_equal(eval2(CG_OP_LSHR, 8, 0x80, 1), 0x40);
    assert_int_equal(eval2(CG_OP_SDIV, 32, (uint32_t)-7, 2), (uint32_t)-3);
    assert_int_equal(eval2(CG_OP_SREM, 32, (uint32_t)-7, 2), (uint32_t)-1);
    assert_int_equal(eval2(CG_OP_UDIV, 32, (uint32_t)-7, 2), 0x7ffffffc);
    uint64_t x[2] = {5, 0}, r;
    assert_false(cg_op_eval(CG_OP_SDIV, CG_PRED_NONE, 32, 32, x, &r));
    uint64_t c[2] = {0xff, 1};
    assert_true(cg_op_eval(CG_OP_ICMP, CG_PRED_SLT, 1, 8, c, &r));
    assert_int_equal(r, 1); /* -1 < 1 signed */
    assert_true(cg_op_eval(CG_OP_ICMP, CG_PRED_ULT, 1, 8, c, &r));
    assert_int_equal(r, 0);
    uint64_t s[1] = {0x80};
    assert_true(cg_op_eval(CG_OP_SEXT, CG_PRED_NONE, 32, 8, s, &r));
    assert_int_equal(r, 0xffffff80u);
    uint64_t sel[3] = {0, 7, 9};
    assert_true(cg_op_eval(CG_OP_SELECT, CG_PRED_NONE, 32, 32, sel, &r));
    assert_int_equal(r, 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_and_aliases),
        cmocka_unit_test(semantics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
