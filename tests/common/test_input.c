/* Tests for common/input.c: cg_input_read's message for each way an input
 * file fails, exact, and the cap on its size (issue 14: a FIFO or
 * /dev/zero given as an architecture was read until memory ran out). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/input.h"
#include "common/limits.h"

#define TOO_BIG "more than 67108864 bytes, the limit for an architecture, " \
                "template, DFG or mapping file (CG_MAX_INPUT_BYTES); name the "\
                "text file meant"

/* cg_input_read on path fails with the one message want. */
static void expect_error(const char *path, const char *want)
{
    cg_diags *d = cg_diags_create();
    size_t len = 7;
    assert_null(cg_input_read(path, "an .xml file", &len, d));
    assert_int_equal(cg_diags_size(d), 1);
    char *s = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(s, want);
    free(s);
    cg_diags_destroy(d);
}

static void reads_whole_file(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    size_t len = 0;
    char *s = cg_input_read("tests/cli/data/bench/loose/acc.dot", "a .dot file",
                            &len, d);
    assert_non_null(s);
    assert_int_equal(len, strlen(s));
    assert_true(!strncmp(s, "// CGRA-ME style", 16));
    assert_int_equal(cg_diags_size(d), 0);
    free(s);
    cg_diags_destroy(d);
}

static void errors(void **state)
{
    (void)state;
    expect_error("/nonexistent/a.xml", "/nonexistent/a.xml: error: cannot "
                 "open the file: No such file or directory; check the path");
    expect_error("tests/common", "tests/common: error: is a directory, not "
                 "a file; name an .xml file");
    expect_error("/dev/zero", "/dev/zero: error: " TOO_BIG);
    assert_int_equal(CG_MAX_INPUT_BYTES, 67108864); /* the message's figure */
}

/* cg_input_read_text: a text file whole; one with a NUL byte refused. */
static void text_only(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    char *s = cg_input_read_text("tests/cli/data/bench/loose/acc.dot",
                                 "a .dot file", "a DFG file", d);
    assert_non_null(s);
    assert_true(!strncmp(s, "// CGRA-ME style", 16));
    free(s);
    char bin[] = "/tmp/cg_textXXXXXX";
    int fd = mkstemp(bin);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "a\0b", 3), 3);
    close(fd);
    assert_null(cg_input_read_text(bin, "a .dot file", "a DFG file", d));
    unlink(bin);
    assert_int_equal(cg_diags_size(d), 1);
    char *m = cg_diag_format(cg_diags_get(d, 0));
    char want[128];
    snprintf(want, sizeof want, "%s: error: a NUL byte; a DFG file is text",
             bin);
    assert_string_equal(m, want);
    free(m);
    cg_diags_destroy(d);
}

/* A FIFO whose writer never stops: the read ends at the cap.  The writer
 * (a child) dies of SIGPIPE once the reader closes its end. */
static void fifo_without_end(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_inputXXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/arch.xml", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);
        FILE *f = fopen(path, "wb");
        static char zeros[65536];
        while (f && fwrite(zeros, 1, sizeof zeros, f) == sizeof zeros)
            ;
        _exit(0);
    }
    char want[256];
    snprintf(want, sizeof want, "%s: error: " TOO_BIG, path);
    expect_error(path, want);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_whole_file),
        cmocka_unit_test(errors),
        cmocka_unit_test(text_only),
        cmocka_unit_test(fifo_without_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
