/* test_badinput.c: bad inputs of issue 14 at the command line, each with
 * its exact stderr: a folder where a file is wanted, a flatten warning
 * (once printed twice), a mistake in a module used with two parameter sets
 * (once printed twice without the module), a Makefile that doubles its
 * variables (once gigabytes or a hang). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_cgramap.h"

#define DATA "tests/cli/data/badinput/"

static void expect_run(const char *const *args, int status, const char *out,
                       const char *err)
{
    run r;
    run_cgramap(&r, args);
    assert_string_equal(r.err, err);
    if (out)
        assert_string_equal(r.out, out);
    assert_int_equal(r.status, status);
}

static void test_directories(void **state)
{
    (void)state;
    expect_run((const char *const[]){"arch", "--arch", "tests/cli/data",
                                     NULL}, 1, "",
               "tests/cli/data: error: is a directory, not a file; name an "
               ".xml file\n");
    expect_run((const char *const[]){"arch", "--arch", DATA "warn.xml",
                                     "--templates", "tests/cli/data", NULL},
               1, "",
               "tests/cli/data: error: is a directory, not a file; name an "
               ".xml file\n");
    expect_run((const char *const[]){"dfg", "tests/cli/data", NULL}, 1, "",
               "tests/cli/data: error: is a directory, not a C file; name a "
               ".c file with //DFGLOOP tags\n");
    expect_run((const char *const[]){"map", "tests/cli/data", NULL}, 1, "",
               "tests/cli/data: error: is a directory, not a file; name a "
               ".dot, .xml, .txt or NAME_nodes DFG file\n");
}

static void test_flatten_warning_once(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"arch", "--arch", DATA "warn.xml",
                                         NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err,
        DATA "warn.xml:7: warning: input 'in_b' of FuncUnit 'f' in module "
        "'pe' is not connected; connect it or remove the unit\n");
    assert_true(!strncmp(r.out, "grid: 1x2\n", 10));
}

static void test_module_error_once(void **state)
{
    (void)state;
    expect_run((const char *const[]){"arch", "--arch", DATA "params.xml",
                                     NULL}, 1, "",
               DATA "params.xml:10: error: latency=\"-1\" on <inst> must be an "
               "integer >= 0 (in module 'pe(ops=add)')\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_directories),
        cmocka_unit_test(test_flatten_warning_once),
        cmocka_unit_test(test_module_error_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
