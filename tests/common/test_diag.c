/* Tests for common/diag.c: the "file:line: error: message" format, and
 * input quoted in messages (cut at 64 bytes with "...", never inside a
 * UTF-8 character). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"

static void format_with_line(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_diags_add(d, CG_SEV_ERROR, "mesh.xml", 42, "unknown port '%s'", "in_c");
    cg_error_at(d, (cg_loc){"a.xml", 0}, "no line");
    cg_warning_at(d, (cg_loc){NULL, 3}, "no file");
    assert_int_equal(cg_diags_errors(d), 2);
    assert_int_equal(cg_diags_warnings(d), 1);
    char *s = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(s, "mesh.xml:42: error: unknown port 'in_c'");
    free(s);
    s = cg_diag_format(cg_diags_get(d, 1));
    assert_string_equal(s, "a.xml: error: no line");
    free(s);
    s = cg_diag_format(cg_diags_get(d, 2));
    assert_string_equal(s, "warning: no file");
    free(s);
    cg_diags_destroy(d);
}

static void append_copies(void **state)
{
    (void)state;
    cg_diags *a = cg_diags_create(), *b = cg_diags_create();
    cg_diags_add(a, CG_SEV_WARNING, "f", 1, "w");
    cg_diags_append(b, a);
    cg_diags_append(b, a);
    assert_int_equal(cg_diags_size(b), 2);
    assert_int_equal(cg_diags_warnings(b), 2);
    cg_diags_clear(b);
    assert_int_equal(cg_diags_size(b), 0);
    cg_diags_destroy(a);
    cg_diags_destroy(b);
    cg_diags_destroy(NULL);
}

/* 64 bytes are quoted whole, 65 cut to 64 and "..."; a 2-byte character
 * across the cut is left out whole; a megabyte costs 67 bytes. */
static void quote_cuts(void **state)
{
    (void)state;
    char s[100];
    memset(s, 'a', 64);
    s[64] = 0;
    assert_int_equal(CG_QUOTE_MAX, 64);
    assert_string_equal(CG_QUOTE(s), s);
    strcpy(s + 64, "b");
    char want[100];
    memset(want, 'a', 64);
    strcpy(want + 64, "...");
    assert_string_equal(CG_QUOTE(s), want);
    strcpy(s + 63, "\xc3\xa9z"); /* e-acute in bytes 63 and 64 */
    strcpy(want + 63, "...");
    assert_string_equal(CG_QUOTE(s), want);
    strcpy(s + 62, "\xc3\xa9z"); /* bytes 62 and 63: it fits */
    strcpy(want + 62, "\xc3\xa9...");
    assert_string_equal(CG_QUOTE(s), want);
    assert_string_equal(CG_QUOTE(""), "");
    char *big = malloc(1 << 20);
    memset(big, 'x', (1 << 20) - 1);
    big[(1 << 20) - 1] = 0;
    assert_int_equal(strlen(CG_QUOTE(big)), 67);
    free(big);
}

/* One mistake met twice (a module built for two variants of a block)
 * is printed once; the list keeps both, and a different line or text is
 * its own message. */
static void print_once(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_diags_add(d, CG_SEV_ERROR, "a.xml", 26, "unknown port 'in_zz'");
    cg_diags_add(d, CG_SEV_WARNING, "a.xml", 3, "w");
    cg_diags_add(d, CG_SEV_ERROR, "a.xml", 26, "unknown port 'in_zz'");
    cg_diags_add(d, CG_SEV_ERROR, "a.xml", 27, "unknown port 'in_zz'");
    cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "x");
    cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "x");
    assert_int_equal(cg_diags_size(d), 6);
    assert_int_equal(cg_diags_errors(d), 5);
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_non_null(f);
    cg_diags_print(d, f);
    fclose(f);
    assert_string_equal(buf, "a.xml:26: error: unknown port 'in_zz'\n"
                             "a.xml:3: warning: w\n"
                             "a.xml:27: error: unknown port 'in_zz'\n"
                             "error: x\n");
    free(buf);
    cg_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(format_with_line),
        cmocka_unit_test(append_copies),
        cmocka_unit_test(quote_cuts),
        cmocka_unit_test(print_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
