/* test_compare_sweep.c: how --param sets an attribute of <architecture>
 * in an architecture file's text (cli/compare_sweep.c, linked in): a
 * value replaced in either quotes, an attribute added at the end of the
 * start tag (also a self-closing one), a name that only ends like it left
 * alone, markup that is no element (comments, CDATA) skipped, line breaks
 * kept so that the reader's messages keep their lines, and no
 * <architecture> at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "cli/compare.h"

static void expect(const char *text, const char *name, const char *value,
                   const char *want)
{
    char *got = cg_cli_set_arch_attr(text, name, value, (int)strlen(value));
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

static void test_replace(void **state)
{
    (void)state;
    expect("<cgra><architecture rows=\"4\" cols=\"4\"></architecture></cgra>",
           "rows", "6",
           "<cgra><architecture rows=\"6\" cols=\"4\"></architecture></cgra>");
    expect("<architecture cols='4' rows = '4'>", "rows", "12",
           "<architecture cols='4' rows = '12'>");
}

static void test_add(void **state)
{
    (void)state;
    expect("<architecture cgra-rows=\"4\">", "rows", "6",
           "<architecture cgra-rows=\"4\" rows=\"6\">");
    expect("<architecture rows=\"4\"/>", "address-width", "16",
           "<architecture rows=\"4\" address-width=\"16\"/>");
    expect("<architecture>", "rows", "2", "<architecture rows=\"2\">");
    /* malformed tags are the reader's to report; no endless scan here */
    expect("<architecture / rows='1' x>", "rows", "2",
           "<architecture / rows='2' x>");
    expect("<architecture ? =>", "rows", "2",
           "<architecture ? = rows=\"2\">");
}

static void test_skips_other_markup(void **state)
{
    (void)state;
    expect("<?xml version=\"1.0\"?>\n<!-- <architecture rows=\"1\"> -->\n"
           "<cgra><architectures/><![CDATA[<architecture rows=\"2\">]]>\n"
           "<architecture\n  rows=\"3\"\n  cols=\"3\">",
           "rows", "5",
           "<?xml version=\"1.0\"?>\n<!-- <architecture rows=\"1\"> -->\n"
           "<cgra><architectures/><![CDATA[<architecture rows=\"2\">]]>\n"
           "<architecture\n  rows=\"5\"\n  cols=\"3\">");
}

static void test_no_architecture(void **state)
{
    (void)state;
    assert_null(cg_cli_set_arch_attr("<cgra><!-- <architecture> --></cgra>",
                                     "rows", "4", 1));
    assert_null(cg_cli_set_arch_attr("", "rows", "4", 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replace),
        cmocka_unit_test(test_add),
        cmocka_unit_test(test_skips_other_markup),
        cmocka_unit_test(test_no_architecture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
