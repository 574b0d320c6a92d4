/* test_cli_doc.c: the examples of docs/cli.md that show a command ("    $
 * ...") run, in order, in a scratch folder that sees the source tree's
 * benchmarks/, docs/ and tests/ (symbolic links), with the built cgramap on
 * the PATH; each exits 0 and prints what the page shows under it but for
 * the seconds (doc_check.h: "..." stands for lines left out).  So the
 * reference's rows, tables and messages are the program's, not a memory
 * of them.  Not run under the sanitizers, as test_tutorial. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <limits.h>
#include <unistd.h>

#include "doc_check.h"

static void test_cli_doc(void **state)
{
    (void)state;
    char tmp[] = "/tmp/cg_cli_docXXXXXX", cmd[PATH_MAX + 512];
    char src[PATH_MAX];
    assert_non_null(getcwd(src, sizeof src));
    assert_non_null(mkdtemp(tmp));
    snprintf(cmd, sizeof cmd, "for d in benchmarks docs tests; do ln -s "
             "'%s'/$d '%s'/$d || exit 1; done", src, tmp);
    assert_int_equal(system(cmd), 0);
    int n, compared;
    doc_check("docs/cli.md", tmp, &n, &compared);
    assert_int_equal(n, 9);
    assert_int_equal(compared, 8);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_doc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
