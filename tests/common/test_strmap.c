/* Tests for common/strmap.c: put, get, replace, lengths, growth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "common/strmap.h"

static void put_get_replace(void **state)
{
    (void)state;
    cg_strmap *m = cg_strmap_create();
    assert_non_null(m);
    int v = 99;
    assert_false(cg_strmap_get(m, "a", &v));
    assert_int_equal(v, 99); /* untouched when absent */
    assert_int_equal(cg_strmap_put(m, "a", 1), 0);
    assert_int_equal(cg_strmap_put(m, "", 2), 0); /* the empty key is a key */
    assert_int_equal(cg_strmap_put(m, "ab", -3), 0);
    assert_true(cg_strmap_get(m, "a", &v));
    assert_int_equal(v, 1);
    assert_true(cg_strmap_get(m, "", &v));
    assert_int_equal(v, 2);
    assert_true(cg_strmap_get(m, "ab", &v));
    assert_int_equal(v, -3);
    assert_false(cg_strmap_get(m, "b", &v));
    assert_false(cg_strmap_get(m, "abc", &v));
    assert_int_equal(cg_strmap_count(m), 3);
    assert_int_equal(cg_strmap_put(m, "a", 7), 0); /* replaces */
    assert_true(cg_strmap_get(m, "a", &v));
    assert_int_equal(v, 7);
    assert_int_equal(cg_strmap_count(m), 3);
    cg_strmap_destroy(m);
}

/* The key is copied: the caller's buffer may change after put. */
static void keys_are_copied(void **state)
{
    (void)state;
    cg_strmap *m = cg_strmap_create();
    char buf[8] = "key";
    assert_int_equal(cg_strmap_put(m, buf, 5), 0);
    buf[0] = 'x';
    int v = 0;
    assert_true(cg_strmap_get(m, "key", &v));
    assert_int_equal(v, 5);
    assert_false(cg_strmap_get(m, buf, &v));
    cg_strmap_destroy(m);
}

/* getn looks up a prefix of a longer string (as "inst" of "inst.port"). */
static void getn_prefix(void **state)
{
    (void)state;
    cg_strmap *m = cg_strmap_create();
    assert_int_equal(cg_strmap_put(m, "pe_1", 4), 0);
    int v = 0;
    assert_true(cg_strmap_getn(m, "pe_1.out", 4, &v));
    assert_int_equal(v, 4);
    assert_false(cg_strmap_getn(m, "pe_1.out", 3, &v));
    assert_false(cg_strmap_getn(m, "pe_1.out", 5, &v));
    cg_strmap_destroy(m);
}

/* NULL is an empty map for get and count (maps made on first use). */
static void null_is_empty(void **state)
{
    (void)state;
    int v = 1;
    assert_false(cg_strmap_get(NULL, "a", &v));
    assert_false(cg_strmap_getn(NULL, "a", 1, &v));
    assert_int_equal(v, 1);
    assert_int_equal(cg_strmap_count(NULL), 0);
    cg_strmap_destroy(NULL);
}

/* Many keys: the table grows many times and every key keeps its value;
 * keys not put are absent. */
static void growth(void **state)
{
    (void)state;
    enum { N = 100000 };
    cg_strmap *m = cg_strmap_create();
    char k[32];
    for (int i = 0; i < N; i++) {
        snprintf(k, sizeof k, "n%d", i);
        assert_int_equal(cg_strmap_put(m, k, i), 0);
    }
    assert_int_equal(cg_strmap_count(m), N);
    for (int i = 0; i < N; i++) {
        int v = -1;
        snprintf(k, sizeof k, "n%d", i);
        assert_true(cg_strmap_get(m, k, &v));
        assert_int_equal(v, i);
        snprintf(k, sizeof k, "m%d", i);
        assert_false(cg_strmap_get(m, k, &v));
    }
    cg_strmap_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(put_get_replace),
        cmocka_unit_test(keys_are_copied),
        cmocka_unit_test(getn_prefix),
        cmocka_unit_test(null_is_empty),
        cmocka_unit_test(growth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
