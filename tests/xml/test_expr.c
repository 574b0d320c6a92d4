/* test_expr.c: the expression language of xml/expr.c: parameters and
 * counters, empty/not/=, prefix and infix arithmetic, and its errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "xml/xml_internal.h"

typedef struct fixture {
    cg_diags *d;
    cg__xvar mode, i, empty;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->d = cg_diags_create();
    f->mode = (cg__xvar){.name = "mode", .value = "add sub"};
    f->i = (cg__xvar){.name = "i", .value = "3", .next = &f->mode};
    f->empty = (cg__xvar){.name = "none", .value = " ", .next = &f->i};
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    cg_diags_destroy(f->d);
    free(f);
    return 0;
}

/* Interpolate s with the fixture's variables; NULL on error. */
static char *interp(fixture *f, const char *s)
{
    cg__xsrc src = {f->d, "e.xml", 7, s, NULL};
    return cg__xml_interp(s, &f->empty, &src);
}

static void expect(fixture *f, const char *s, const char *want)
{
    char *got = interp(f, s);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
    assert_int_equal(cg_diags_size(f->d), 0);
}

static void expect_err(fixture *f, const char *s, const char *want)
{
    assert_null(interp(f, s));
    assert_int_equal(cg_diags_size(f->d), 1);
    char *got = cg_diag_format(cg_diags_get(f->d, 0));
    assert_string_equal(got, want);
    free(got);
    cg_diags_clear(f->d);
}

static void test_variables(void **state)
{
    fixture *f = *state;
    expect(f, "(mode)", "add sub");
    expect(f, "in(i)", "in3");
    expect(f, "no expression here", "no expression here");
    expect(f, "a-b_(i)_c", "a-b_3_c");
}

static void test_tests(void **state)
{
    fixture *f = *state;
    expect(f, "(empty (mode))", "0");
    expect(f, "(empty (none))", "1");
    expect(f, "(not (empty (mode)))", "1");
    expect(f, "(not 0)", "1");
    expect(f, "(= (i) 3)", "1");
    expect(f, "(= (mode) 'add sub')", "1");
    expect(f, "(= (mode) add)", "0");
}

static void test_arithmetic(void **state)
{
    fixture *f = *state;
    expect(f, "out(i)*2+1", "out7");
    expect(f, "(+ 1 2 (i))", "6");
    expect(f, "(- (i))", "-3");
    expect(f, "(* (i) (- 10 12))", "-6");
    expect(f, "(/ 7 2)", "3");
    expect(f, "x(i)-10", "x-7");
    expect(f, "(i)/2*4", "4"); /* left to right */
}

static void test_eval_int(void **state)
{
    fixture *f = *state;
    cg__xsrc src = {f->d, "e.xml", 7, "-12 -(i)", NULL};
    const char *p = src.text;
    long v;
    assert_int_equal(cg__xml_eval_int(&p, &f->empty, &src, &v), 0);
    assert_int_equal(v, -12);
    assert_int_equal(*p, ' ');
    p++;
    assert_int_equal(cg__xml_eval_int(&p, &f->empty, &src, &v), 0);
    assert_int_equal(v, -3);
    assert_int_equal(*p, 0);
}

static void test_bool(void **state)
{
    fixture *f = *state;
    cg__xsrc src = {f->d, "e.xml", 7, "(mode)", NULL};
    bool b = false;
    assert_int_equal(cg__xml_eval_bool("(mode)", &f->empty, &src, &b), 0);
    assert_true(b);
    assert_int_equal(cg__xml_eval_bool("(empty (mode))", &f->empty, &src,
                                       &b), 0);
    assert_false(b);
}

static void test_errors(void **state)
{
    fixture *f = *state;
    expect_err(f, "(size)",
               "e.xml:7: error: undefined parameter 'size' in expression "
               "'(size)'; give it on the instance (size=\"...\") or define a "
               "counter of that name");
    expect_err(f, "(/ 4 (- (i) 3))",
               "e.xml:7: error: division by zero in expression "
               "'(/ 4 (- (i) 3))'");
    expect_err(f, "x(i)/0",
               "e.xml:7: error: division by zero in expression 'x(i)/0'");
    expect_err(f, "(+ (mode) 1)",
               "e.xml:7: error: 'add sub' is not an integer in expression "
               "'(+ (mode) 1)'; arithmetic needs integer operands");
    expect_err(f, "(max 1 2)",
               "e.xml:7: error: unknown operator 'max' in expression "
               "'(max 1 2)' (operators: empty, not, =, +, -, *, /)");
    expect_err(f, "(not 1 2)",
               "e.xml:7: error: not takes one operand in expression "
               "'(not 1 2)'");
    expect_err(f, "(empty (mode)",
               "e.xml:7: error: missing ')' in expression '(empty (mode)'");
    expect_err(f, "(rel 0 1)",
               "e.xml:7: error: (rel ...) may only start a reference such as "
               "'(rel 0 1).in' in expression '(rel 0 1)'");
}

/* Every operation is checked: an overflow of the 64-bit range is an error
 * naming the operation and the expression, never a wrapped value or a
 * SIGFPE (LONG_MIN / -1). */
static void test_overflow(void **state)
{
    fixture *f = *state;
    expect(f, "(- -9223372036854775807 1)", "-9223372036854775808");
    expect(f, "(+ 9223372036854775806 1)", "9223372036854775807");
    expect_err(f, "(/ (- -9223372036854775807 1) -1)",
               "e.xml:7: error: '-9223372036854775808 / -1' is outside the "
               "integer range -9223372036854775808..9223372036854775807 in "
               "expression '(/ (- -9223372036854775807 1) -1)'");
    expect_err(f, "(* 3037000500 3037000500)",
               "e.xml:7: error: '3037000500 * 3037000500' is outside the "
               "integer range -9223372036854775808..9223372036854775807 in "
               "expression '(* 3037000500 3037000500)'");
    expect_err(f, "(+ 9223372036854775807 (i))",
               "e.xml:7: error: '9223372036854775807 + 3' is outside the "
               "integer range -9223372036854775808..9223372036854775807 in "
               "expression '(+ 9223372036854775807 (i))'");
    expect_err(f, "(- -2 9223372036854775807)",
               "e.xml:7: error: '-2 - 9223372036854775807' is outside the "
               "integer range -9223372036854775808..9223372036854775807 in "
               "expression '(- -2 9223372036854775807)'");
    expect_err(f, "(- (- -9223372036854775807 1))",
               "e.xml:7: error: '-(-9223372036854775808)' is outside the "
               "integer range -9223372036854775808..9223372036854775807 in "
               "expression '(- (- -9223372036854775807 1))'");
    expect_err(f, "(+ 1 -(- -9223372036854775807 1))",
               "e.xml:7: error: '-(-9223372036854775808)' is outside the "
               "integer range -9223372036854775808..9223372036854775807 in "
               "expression '(+ 1 -(- -9223372036854775807 1))'");
    expect_err(f, "n(i)*4611686018427387904",
               "e.xml:7: error: '3 * 4611686018427387904' is outside the "
               "integer range -9223372036854775808..9223372036854775807 in "
               "expression 'n(i)*4611686018427387904'");
    expect_err(f, "(+ 99999999999999999999 1)",
               "e.xml:7: error: '99999999999999999999' is outside the "
               "integer range -9223372036854775808..9223372036854775807 in "
               "expression '(+ 99999999999999999999 1)'");
}

/* n levels of "(+ 1 " around 1, malloc'd. */
static char *nested(int n)
{
    char *s = malloc((size_t)n * 6 + 2);
    char *q = s;
    for (int i = 0; i < n; i++)
        q += sprintf(q, "(+ 1 ");
    *q++ = '1';
    memset(q, ')', (size_t)n);
    q[n] = 0;
    return s;
}

/* 256 levels of parentheses are fine; a megabyte of them once overflowed
 * the stack (cgramap arch died with SIGSEGV), now an error, from
 * interpolation and from integer attributes alike. */
static void test_nesting(void **state)
{
    fixture *f = *state;
    char *ok = nested(256), *deep = nested(200000);
    expect(f, ok, "257");
    expect_err(f, deep,
               "e.xml:7: error: parentheses nest more than 256 deep in "
               "expression '(+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 "
               "(+ 1 (+ 1 (+ 1...'; simplify it");
    cg__xsrc src = {f->d, "e.xml", 7, deep, NULL};
    const char *p = deep;
    long v;
    assert_int_equal(cg__xml_eval_int(&p, &f->empty, &src, &v), -1);
    assert_int_equal(cg_diags_size(f->d), 1);
    free(ok);
    free(deep);
}

/* Text quoted in a message is cut at 64 bytes with "...": a 1 MB
 * attribute once gave a 1 MB message. */
static void test_long_text(void **state)
{
    fixture *f = *state;
    size_t n = 1 << 20;
    char *s = malloc(n + 8);
    strcpy(s, "(x");
    memset(s + 2, 'a', n); /* a parameter named xaaa... */
    strcpy(s + 2 + n, ")");
    expect_err(f, s,
               "e.xml:7: error: undefined parameter "
               "'xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
               "...' in expression "
               "'(xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
               "...'; give it on the instance "
               "(xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
               "...=\"...\") or define a counter of that name");
    strcpy(s, "(+ 1 ");
    memset(s + 5, '9', n); /* an operand far outside the range */
    strcpy(s + 5 + n, ")");
    expect_err(f, s,
               "e.xml:7: error: "
               "'9999999999999999999999999999999999999999999999999999999999999999"
               "...' is outside the integer range "
               "-9223372036854775808..9223372036854775807 in expression "
               "'(+ 1 99999999999999999999999999999999999999999999999999999999999"
               "...'");
    free(s);
}

static void test_var_refs(void **state)
{
    (void)state;
    char *names[8];
    int n = 0;
    cg__xml_var_refs("(not (empty (mode))) (= (mode) (w)) (+ 1 2) (3)", names,
                     &n, 8);
    assert_int_equal(n, 2);
    assert_string_equal(names[0], "mode");
    assert_string_equal(names[1], "w");
    for (int i = 0; i < n; i++)
        free(names[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_variables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tests, setup, teardown),
        cmocka_unit_test_setup_teardown(test_arithmetic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_eval_int, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bool, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_overflow, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nesting, setup, teardown),
        cmocka_unit_test_setup_teardown(test_long_text, setup, teardown),
        cmocka_unit_test(test_var_refs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
