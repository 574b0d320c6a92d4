/* test_badinput.c: bad inputs of issue 14 at the command line, each with
 * its exact stderr: a folder where a file is wanted, a flatten warning
 * (once printed twice), a mistake in a module used with two parameter sets
 * (once printed twice without the module), a Makefile that doubles its
 * variables (once gigabytes or a hang), /dev/zero as an input (once read
 * until memory ran out). */
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

/* A device (or a FIFO) without end as an input: read up to the cap, then
 * an error; /dev/zero was once read until memory ran out.  zero.dot is a
 * link to /dev/zero, so that map takes it for a .dot file. */
static void test_endless_inputs(void **state)
{
    (void)state;
#define TOO_BIG "more than 67108864 bytes, the limit for an architecture, " \
                "template, DFG or mapping file (CG_MAX_INPUT_BYTES); name the "\
                "text file meant\n"
    expect_run((const char *const[]){"arch", "--arch", "/dev/zero", NULL}, 1,
               "", "/dev/zero: error: " TOO_BIG);
    expect_run((const char *const[]){"arch", "--arch", DATA "warn.xml",
                                     "--templates", "/dev/zero", NULL}, 1,
               "", "/dev/zero: error: " TOO_BIG);
    char dir[] = "/tmp/cg_zeroXXXXXX", dot[64], err[256];
    assert_non_null(mkdtemp(dir));
    snprintf(dot, sizeof dot, "%s/zero.dot", dir);
    assert_int_equal(symlink("/dev/zero", dot), 0);
    snprintf(err, sizeof err, "%s: error: " TOO_BIG, dot);
    expect_run((const char *const[]){"map", dot, NULL}, 1, "", err);
    unlink(dot);
    rmdir(dir);
#undef TOO_BIG
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

/* An empty --arch or --templates names no file (it was ": error: cannot
 * open the file: No such file or directory"). */
static void test_empty_arch(void **state)
{
    (void)state;
    expect_run((const char *const[]){"--no-progress", "--arch", "",
                                     "benchmarks/microbench/sum", NULL},
               1, "", "error: --arch needs a file name, not an empty one; "
               "name an architecture XML file\n");
    expect_run((const char *const[]){"arch", "--arch", DATA "warn.xml",
                                     "--templates", "", NULL},
               1, "", "error: --templates needs a file name, not an empty "
               "one; name the module templates' XML file\n");
}

/* --templates without --arch is refused by every command that reads an
 * array (it was ignored, even when the file did not exist). */
static void test_templates_without_arch(void **state)
{
    (void)state;
#define NEEDS DATA "warn.xml: error: --templates needs --arch: give the " \
              "two-file architecture whose module templates these are with " \
              "--arch FILE.xml\n"
    expect_run((const char *const[]){"map", "--templates", DATA "warn.xml",
                                     "tests/cli/data/saved/scale.dot", NULL},
               1, "", NEEDS);
    expect_run((const char *const[]){"check", "--templates", DATA "warn.xml",
                                     "tests/cli/data/saved/scale.dot",
                                     "tests/cli/data/saved/scale.txt", NULL},
               1, "", NEEDS);
    expect_run((const char *const[]){"--no-progress", "--templates",
                                     DATA "warn.xml",
                                     "tests/cli/data/saved/scale.dot", NULL},
               1, "", NEEDS);
#undef NEEDS
}

/* dfg and tile given a DFG rather than C (clang left no bitcode, and the
 * message said only that). */
static void test_not_c(void **state)
{
    (void)state;
#define NOT_C "tests/cli/data/saved/scale.dot: error: not a C file (.c): " \
              "loops are extracted from C source with //DFGLOOP tags; a DFG " \
              "(.dot, .xml, .txt) goes to cgramap map or the main job\n"
    expect_run((const char *const[]){"dfg", "tests/cli/data/saved/scale.dot",
                                     NULL}, 1, "", NOT_C);
    expect_run((const char *const[]){"tile", "tests/cli/data/saved/scale.dot",
                                     "--loop", "scale", NULL}, 1, "", NOT_C);
#undef NOT_C
    /* a mapping that is not there: no note about --arch (it followed every
       failure to read, where it is about a name the array lacks) */
    expect_run((const char *const[]){"check", "tests/cli/data/saved/scale.dot",
                                     "/nonexistent/m.txt", NULL}, 1, "",
               "/nonexistent/m.txt: error: cannot open the file: No such "
               "file or directory; check the path\n");
    /* a saved mapping given as a DFG: one error, not one a line */
    expect_run((const char *const[]){"map", "tests/cli/data/saved/scale.txt",
                                     NULL}, 1, "",
               "tests/cli/data/saved/scale.txt:1: error: this is a mapping "
               "as cgramap writes it (cgramap map --mapping, --mapping-dir), "
               "not a DFG: give it with its DFG to cgramap check or cgramap "
               "sim\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_templates_without_arch),
        cmocka_unit_test(test_empty_arch),
        cmocka_unit_test(test_not_c),
        cmocka_unit_test(test_directories),
        cmocka_unit_test(test_endless_inputs),
        cmocka_unit_test(test_flatten_warning_once),
        cmocka_unit_test(test_module_error_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
