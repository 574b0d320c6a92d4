/* Tests for common/diag.c: the "file:line: error: message" format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(format_with_line),
        cmocka_unit_test(append_copies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
