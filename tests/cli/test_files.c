/* test_files.c: the report files of the main job (cli/files.c), run as
 * users run it: an unwritable --json/--csv found before any loop runs, new
 * files created with the umask's mode and replaced ones keeping theirs, a
 * symbolic link kept, "-", /dev/stdout and a FIFO written in place. */
#define _XOPEN_SOURCE 700 /* mkdtemp, symlink */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "run_cgramap.h"

/* One small loop: it maps at II 1 in milliseconds. */
#define ACC "tests/cli/data/bench/loose/acc.dot"
#define CSV_HEADER "\"benchmark\",\"file\",\"loop\","

/* A fresh folder and a path in it. */
static void temp_path(char *dir, char *path, size_t n, const char *name)
{
    strcpy(dir, "/tmp/cg_files_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, n, "%s/%s", dir, name);
}

static void unwritable(const char *opt, const char *path, const char *why)
{
    run r;
    run_cgramap(&r, (const char *const[]){opt, path, ACC, NULL});
    char want[256];
    snprintf(want, sizeof want, "%s: error: cannot write this file for %s "
             "(%s); nothing was run\n", path, opt, why);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, ""); /* not even the header row */
    assert_string_equal(r.err, want);
}

static void test_unwritable_before_any_loop(void **state)
{
    (void)state;
    unwritable("--json", "/nonexistent/r.json", "No such file or directory");
    unwritable("--csv", "/tmp", "it is a folder");
}

static mode_t run_with_umask(mode_t mask, const char *path)
{
    mode_t old = umask(mask);
    run r;
    run_cgramap(&r, (const char *const[]){"--json", path, ACC, NULL});
    umask(old);
    assert_int_equal(r.status, 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return st.st_mode & 07777;
}

/* Once always 0600 (mkstemp's mode). */
static void test_modes(void **state)
{
    (void)state;
    char dir[32], path[64];
    temp_path(dir, path, sizeof path, "r.json");
    assert_int_equal(run_with_umask(027, path), 0640);
    unlink(path);
    assert_int_equal(run_with_umask(022, path), 0644);
    /* a file replaced keeps its mode, whatever the umask */
    assert_int_equal(chmod(path, 0604), 0);
    assert_int_equal(run_with_umask(077, path), 0604);
    unlink(path);
    rmdir(dir);
}

/* A link to a file stays a link; the file it names gets the report. */
static void test_symlink_kept(void **state)
{
    (void)state;
    char dir[32], path[64], link[64];
    temp_path(dir, path, sizeof path, "r.csv");
    snprintf(link, sizeof link, "%s/link.csv", dir);
    FILE *old = fopen(path, "w");
    assert_non_null(old);
    fputs("old\n", old);
    fclose(old);
    assert_int_equal(symlink("r.csv", link), 0);
    run r;
    run_cgramap(&r, (const char *const[]){"--csv", link, ACC, NULL});
    assert_int_equal(r.status, 0);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    char text[4096];
    slurp(path, text, sizeof text);
    assert_true(strncmp(text, CSV_HEADER, strlen(CSV_HEADER)) == 0);
    unlink(link);
    unlink(path);
    rmdir(dir);
}

/* "-" and /dev/stdout: the CSV follows the rows on standard output (here a
 * regular file, which a rename would have replaced, losing the rows). */
static void test_stdout(void **state)
{
    (void)state;
    const char *names[] = {"-", "/dev/stdout"};
    for (int i = 0; i < 2; i++) {
        run r;
        run_cgramap(&r, (const char *const[]){"--csv", names[i], ACC, NULL});
        assert_int_equal(r.status, 0);
        assert_string_equal(r.err, "");
        const char *row = strstr(r.out, "\nacc            acc");
        const char *csv = strstr(r.out, "\n" CSV_HEADER);
        assert_non_null(row);
        assert_non_null(csv);
        assert_true(row < csv);
        assert_non_null(strstr(csv, "\n\"acc\",\"" ACC "\",\"acc\","));
    }
}

/* A FIFO is opened and written, not replaced by a regular file. */
static void test_fifo(void **state)
{
    (void)state;
    char dir[32], path[64];
    temp_path(dir, path, sizeof path, "fifo");
    assert_int_equal(mkfifo(path, 0600), 0);
    /* the reader first, so that cgramap's open does not wait for one */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    assert_true(fd >= 0);
    run r;
    run_cgramap(&r, (const char *const[]){"--json", path, ACC, NULL});
    assert_int_equal(r.status, 0);
    char buf[8192];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    assert_true(n > 0);
    buf[n] = 0;
    assert_non_null(strstr(buf, "\"loop\": \"acc\""));
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unwritable_before_any_loop),
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_symlink_kept),
        cmocka_unit_test(test_stdout),
        cmocka_unit_test(test_fifo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
