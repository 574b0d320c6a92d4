/* test_progress.c: the main job's progress line (cli/progress.c).  On a
 * terminal (a pseudo-terminal here) it names the files done and, for the
 * running loop, its II, the mapper's stage and the seconds in it; it is
 * cleared before each row and at the end.  With --no-progress, or when
 * stderr is not a terminal, nothing of it is written. */
#define _DEFAULT_SOURCE /* forkpty */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pty.h>

#include "run_cgramap.h"

#define ACC "tests/cli/data/bench/loose/acc.dot"
/* heuristic and annealer at II 1, II 2 maps, SAT refutes II 1: with
 * --steps 100000 the heuristic alone spends seconds at II 1 (the default
 * search takes under one on a quiet machine, too short for a tick) */
#define MAC2 "benchmarks/microbench/mac2"

/* Run cgramap with args on a pseudo-terminal (stdout and stderr both);
 * everything it wrote into buf.  Its exit status. */
static int run_on_tty(const char *const *args, char *buf, size_t cap)
{
    char *argv[16];
    int n = 0;
    argv[n++] = (char *)CG_CGRAMAP;
    for (; args[n - 1]; n++)
        argv[n] = (char *)args[n - 1];
    argv[n] = NULL;
    int master;
    struct winsize ws = {.ws_row = 40, .ws_col = 200};
    pid_t pid = forkpty(&master, NULL, NULL, &ws);
    assert_true(pid >= 0);
    if (pid == 0) {
        execv(CG_CGRAMAP, argv);
        _exit(127);
    }
    size_t len = 0;
    for (;;) {
        ssize_t r = read(master, buf + len, cap - 1 - len);
        if (r > 0)
            len += (size_t)r;
        else if (r < 0 && errno == EINTR)
            continue;
        else
            break; /* EIO once the child has closed the terminal */
        assert_true(len < cap - 1);
    }
    buf[len] = '\0';
    close(master);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static bool matches(const char *s, const char *re)
{
    regex_t r;
    assert_int_equal(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0);
    bool m = regexec(&r, s, 0, NULL, 0) == 0;
    regfree(&r);
    return m;
}

static void test_line_on_tty(void **state)
{
    (void)state;
    static char buf[1 << 16];
    const char *args[] = {"--conflicts", "50000", "--steps", "100000", ACC,
                          MAC2, NULL};
    assert_int_equal(run_on_tty(args, buf, sizeof buf), 0);
    /* mac2 runs for seconds after acc's row: a tick draws it */
    assert_true(matches(buf, "\r\033\\[K\\[1/2\\] \\| mac2: II [12], "
                             "(bound|heuristic|annealer|SAT), [0-9]+ s"));
    /* each row starts on a cleared line, and the last clear ends it */
    assert_true(matches(buf, "\r\033\\[Kmac2 +mac2 +25 "));
    const char *row = strstr(buf, "\r\033[Kmac2 ");
    assert_non_null(row);
    assert_null(strstr(row, "[1/2]"));
    assert_null(strstr(row, "[2/2]"));
    size_t n = strlen(buf);
    assert_true(n >= 4 && strcmp(buf + n - 4, "\r\033[K") == 0);
}

static void test_none_without_tty(void **state)
{
    (void)state;
    static char buf[1 << 16];
    const char *args[] = {"--no-progress", ACC, NULL};
    assert_int_equal(run_on_tty(args, buf, sizeof buf), 0);
    assert_null(strstr(buf, "\033[K"));
    assert_non_null(strstr(buf, "acc "));
    run r;
    const char *piped[] = {ACC, NULL};
    run_cgramap(&r, piped);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.err, "\033[K"));
    assert_null(strstr(r.err, "[0/1]"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_on_tty),
        cmocka_unit_test(test_none_without_tty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
