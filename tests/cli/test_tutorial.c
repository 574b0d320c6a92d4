/* test_tutorial.c: every command of docs/tutorial.md (its lines "    $ ...")
 * runs, in that order, in a copy of docs/tutorial/ with the built cgramap
 * on the PATH, and exits 0; the output the tutorial shows under a command
 * (its indented lines up to the prose) is what the command prints on
 * stdout, exactly but for the seconds (doc_check.h), so the doc cannot
 * drift from the program; the files the tutorial says it writes are there
 * (the comparison's report too).  Work limits decide every row shown; the test
 * is not run under the sanitizers (tests/cli/CMakeLists.txt), whose slower
 * build takes much longer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <sys/stat.h>

#include "doc_check.h"

static bool exists(const char *dir, const char *name)
{
    char p[4200];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0;
}

static void test_tutorial(void **state)
{
    (void)state;
    char tmp[] = "/tmp/cg_tutorialXXXXXX", dir[64], cmd[512];
    assert_non_null(mkdtemp(tmp));
    snprintf(dir, sizeof dir, "%s/docs/tutorial", tmp);
    snprintf(cmd, sizeof cmd, "mkdir -p %s/docs %s/benchmarks/archs && "
             "cp -r docs/tutorial %s/docs/ && cp benchmarks/archs/"
             "default_4x4.xml %s/benchmarks/archs/", tmp, tmp, tmp, tmp);
    assert_int_equal(system(cmd), 0);
    int n, compared;
    doc_check("docs/tutorial.md", dir, &n, &compared);
    assert_int_equal(n, 7);
    assert_int_equal(compared, 5);
    assert_true(exists(dir, "my3x3.svg"));
    assert_true(exists(dir, "madd.dot"));
    assert_true(exists(dir, "maps/madd.madd.svg"));
    assert_true(exists(dir, "maps/madd.madd.pe.svg"));
    assert_true(exists(dir, "madd.json"));
    assert_true(exists(dir, "compare/index.html"));
    assert_true(exists(dir, "compare/ii.svg"));
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tutorial),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
