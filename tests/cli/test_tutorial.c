/* test_tutorial.c: every command of docs/tutorial.md (its lines "    $ ...")
 * runs, in that order, in a copy of docs/tutorial/ with the built cgramap
 * on the PATH, and exits 0; the files the tutorial says it writes are
 * there (the comparison's report too), the mapped row verifies and the
 * sweep names its instances.  The comparison with the default
 * array maps within a wall-clock limit, so the test is not run under the
 * sanitizers (tests/cli/CMakeLists.txt), whose slower build may not map
 * it within that limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static void read_all(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* Run cmd (a shell line) in dir with cgramap's folder first on the PATH;
 * its stdout into out. */
static int run_in(const char *dir, const char *cmd, char *out, size_t cap)
{
    char bin[4096], line[8192], log[4200];
    snprintf(bin, sizeof bin, "%s", CG_CGRAMAP);
    snprintf(log, sizeof log, "%s/.out", dir);
    snprintf(line, sizeof line, "cd '%s' && PATH='%s':\"$PATH\" %s > '%s' "
             "2>&1", dir, dirname(bin), cmd, log);
    int st = system(line);
    read_all(log, out, cap);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

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
    static char out[65536];
    assert_non_null(mkdtemp(tmp));
    snprintf(dir, sizeof dir, "%s/docs/tutorial", tmp);
    snprintf(cmd, sizeof cmd, "mkdir -p %s/docs %s/benchmarks/archs && "
             "cp -r docs/tutorial %s/docs/ && cp benchmarks/archs/"
             "default_4x4.xml %s/benchmarks/archs/", tmp, tmp, tmp, tmp);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen("docs/tutorial.md", "r");
    assert_non_null(f);
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "    $ ", 6) != 0)
            continue;
        line[strcspn(line, "\n")] = '\0';
        int rc = run_in(dir, line + 6, out, sizeof out);
        if (rc != 0)
            fprintf(stderr, "docs/tutorial.md: '%s' exited %d:\n%s",
                    line + 6, rc, out);
        assert_int_equal(rc, 0);
        if (strstr(line, "--mapping-dir maps"))
            assert_non_null(strstr(out, " optimal "));
        if (strstr(line, "--param"))
            assert_non_null(strstr(out, "\nmy3x3.xml[cgra-rows=4]   "));
        n++;
    }
    fclose(f);
    assert_int_equal(n, 7);
    assert_true(exists(dir, "my3x3.svg"));
    assert_true(exists(dir, "madd.dot"));
    assert_true(exists(dir, "maps/madd.madd.svg"));
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
