/* test_tutorial.c: every command of docs/tutorial.md (its lines "    $ ...")
 * runs, in that order, in a copy of docs/tutorial/ with the built cgramap
 * on the PATH, and exits 0; the output the tutorial shows under a command
 * (its indented lines up to the prose) is what the command prints on
 * stdout, exactly but for the seconds, so the doc cannot drift from the
 * program; the files the tutorial says it writes are there (the
 * comparison's report too).  Work limits decide every row shown; the test
 * is not run under the sanitizers (tests/cli/CMakeLists.txt), whose slower
 * build takes much longer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <regex.h>
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
 * its stdout into out, its stderr into err. */
static int run_in(const char *dir, const char *cmd, char *out, char *err,
                  size_t cap)
{
    char bin[1024], line[4096], o[128], e[128];
    snprintf(bin, sizeof bin, "%s", CG_CGRAMAP);
    snprintf(o, sizeof o, "%s/.out", dir);
    snprintf(e, sizeof e, "%s/.err", dir);
    snprintf(line, sizeof line, "cd '%s' && PATH='%s':\"$PATH\" %s > '%s' "
             "2> '%s'", dir, dirname(bin), cmd, o, e);
    int st = system(line);
    read_all(o, out, cap);
    read_all(e, err, cap);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* s with every time ("0.12s") replaced by "TIME", the spaces before it
 * dropped (a longer time takes them), and trailing blanks cut from each
 * line, into out. */
static void stable(const char *s, char *out, size_t cap)
{
    regex_t re;
    assert_int_equal(regcomp(&re, " *[0-9]+\\.[0-9]+s( |$)",
                             REG_EXTENDED | REG_NEWLINE), 0);
    size_t n = 0;
    regmatch_t m[2];
    while (regexec(&re, s, 2, m, 0) == 0) {
        n += (size_t)snprintf(out + n, cap - n, "%.*s TIME%s",
                              (int)m[0].rm_so, s,
                              m[1].rm_eo > m[1].rm_so ? " " : "");
        assert_true(n < cap);
        s += m[0].rm_eo;
    }
    n += (size_t)snprintf(out + n, cap - n, "%s", s);
    assert_true(n < cap);
    regfree(&re);
    size_t w = 0; /* trailing blanks out */
    for (size_t r = 0; r < n; r++) {
        if (out[r] == '\n')
            while (w && out[w - 1] == ' ')
                w--;
        out[w++] = out[r];
    }
    while (w && (out[w - 1] == ' ' || out[w - 1] == '\n'))
        w--;
    out[w] = '\0';
}

/* The output docs/tutorial.md shows under a command: the lines after its
 * "    $ " line that are blank or indented by 4 (the indent cut), up to the
 * next command or prose; trailing blank lines dropped.  Reads from f. */
static void shown(FILE *f, char *line, size_t lcap, char *want, size_t cap,
                  bool *more)
{
    size_t n = 0, keep = 0;
    *more = false;
    want[0] = '\0';
    while (fgets(line, (int)lcap, f)) {
        bool blank = line[strspn(line, " \n")] == '\0';
        if (strncmp(line, "    $ ", 6) == 0) {
            *more = true; /* the next command, for the caller */
            break;
        }
        if (!blank && strncmp(line, "    ", 4) != 0)
            break;
        const char *t = blank ? "\n" : line + 4;
        n += (size_t)snprintf(want + n, cap - n, "%s", t);
        assert_true(n < cap);
        if (!blank)
            keep = n;
    }
    want[keep] = '\0';
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
    static char out[65536], err[65536], want[65536], a[65536], b[65536];
    assert_non_null(mkdtemp(tmp));
    snprintf(dir, sizeof dir, "%s/docs/tutorial", tmp);
    snprintf(cmd, sizeof cmd, "mkdir -p %s/docs %s/benchmarks/archs && "
             "cp -r docs/tutorial %s/docs/ && cp benchmarks/archs/"
             "default_4x4.xml %s/benchmarks/archs/", tmp, tmp, tmp, tmp);
    assert_int_equal(system(cmd), 0);
    FILE *f = fopen("docs/tutorial.md", "r");
    assert_non_null(f);
    char line[1024];
    int n = 0, compared = 0;
    bool next = false;
    while (next || fgets(line, sizeof line, f)) {
        if (strncmp(line, "    $ ", 6) != 0) {
            next = false;
            continue;
        }
        line[strcspn(line, "\n")] = '\0';
        char run_line[1024];
        snprintf(run_line, sizeof run_line, "%s", line + 6);
        int rc = run_in(dir, run_line, out, err, sizeof out);
        if (rc != 0)
            fprintf(stderr, "docs/tutorial.md: '%s' exited %d:\n%s%s",
                    run_line, rc, out, err);
        assert_int_equal(rc, 0);
        shown(f, line, sizeof line, want, sizeof want, &next);
        if (want[0]) { /* what the doc shows is what it prints */
            stable(want, a, sizeof a);
            stable(out, b, sizeof b);
            if (strcmp(a, b) != 0)
                fprintf(stderr, "docs/tutorial.md shows under '%s':\n%s\n"
                        "but it prints:\n%s\n", run_line, a, b);
            assert_string_equal(a, b);
            compared++;
        }
        n++;
    }
    fclose(f);
    assert_int_equal(n, 7);
    assert_int_equal(compared, 5);
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
