/* test_files.c: the output files of cgramap (cli/files.c), run as users
 * run it: an unwritable --json/--csv found before any loop runs, new files
 * created with the umask's mode and replaced ones keeping theirs, a
 * symbolic link kept, "-", /dev/stdout and a FIFO written in place; and
 * every kind of output file, and standard output, failing (/dev/full, a
 * parent that is a file, a file size limit for a disk that fills up): the
 * error names the file and why, the exit status is 1, and a file is left
 * as it was with no temporary file beside it. */
#define _XOPEN_SOURCE 700 /* mkdtemp, symlink */
#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/resource.h>
#include <sys/stat.h>

#include "run_cgramap.h"

/* One small loop: it maps at II 1 in milliseconds. */
#define ACC "tests/cli/data/bench/loose/acc.dot"
#define CSV_HEADER "\"benchmark\",\"file\",\"loop\","
#define SUM "benchmarks/microbench/sum/sum.c"
#define JACOBI "benchmarks/microbench/jacobi2d/jacobi2d.c"
#define FULL_ERR "/dev/full: error: cannot write this file (No space left " \
                 "on device)\n"

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

/* A link to no file yet stays a link too: the file it names is made (the
 * link was replaced by a regular file, and the target never made); a
 * link into a missing folder or a loop of links is refused before any
 * loop runs, with the reason. */
static void test_dangling_symlink_kept(void **state)
{
    (void)state;
    char dir[32], path[64], link[64], want[256];
    temp_path(dir, path, sizeof path, "t.csv");
    snprintf(link, sizeof link, "%s/link.csv", dir);
    assert_int_equal(symlink("t.csv", link), 0);
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
    assert_int_equal(symlink("none/t.csv", link), 0);
    run_cgramap(&r, (const char *const[]){"--csv", link, ACC, NULL});
    assert_int_equal(r.status, 1);
    snprintf(want, sizeof want, "%s: error: cannot write this file for --csv "
             "(No such file or directory); nothing was run\n", link);
    assert_string_equal(r.err, want);
    unlink(link);
    assert_int_equal(symlink("link.csv", link), 0);
    run_cgramap(&r, (const char *const[]){"--csv", link, ACC, NULL});
    assert_int_equal(r.status, 1);
    snprintf(want, sizeof want, "%s: error: cannot write this file for --csv "
             "(Too many levels of symbolic links); nothing was run\n", link);
    assert_string_equal(r.err, want);
    unlink(link);
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

/* Each command's output file on /dev/full: written through the writer,
 * whose failure shows at its flush. */
static void test_dev_full(void **state)
{
    (void)state;
    const char *const cmds[][10] = {
        {"dfg", SUM, "-o", "/dev/full", NULL},
        {"arch", "--dot", "/dev/full", NULL},
        {"arch", "--svg", "/dev/full", NULL},
        {"map", ACC, "--mapping", "/dev/full", NULL},
        {"--json", "/dev/full", ACC, NULL},
        {"--csv", "/dev/full", ACC, NULL},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        run r;
        run_cgramap(&r, cmds[i]);
        assert_int_equal(r.status, 1);
        assert_string_equal(r.err, FULL_ERR);
    }
}

/* A path whose parent is a file: the temporary cannot be made. */
static void test_parent_is_file(void **state)
{
    (void)state;
    char dir[32], file[64], path[80], want[160];
    temp_path(dir, file, sizeof file, "f");
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/x.dot", file);
    snprintf(want, sizeof want, "%s: error: cannot write this file (Not a "
             "directory)\n", path);
    run r;
    run_cgramap(&r, (const char *const[]){"dfg", SUM, "-o", path, NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, want);
    unlink(file);
    rmdir(dir);
}

/* run_cgramap with every file it writes limited to max bytes, its own
 * standard output and error included: a disk that fills up (a write past
 * the limit fails with EFBIG; SIGXFSZ ignored, as the child inherits). */
static void run_limited(run *r, rlim_t max, const char *const *args)
{
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = max;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    run_cgramap(r, args);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
}

/* The names in dir, "." and ".." left out, joined by blanks. */
static void list_dir(const char *dir, char *buf, size_t n)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    buf[0] = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            snprintf(buf + strlen(buf), n - strlen(buf), "%s ", e->d_name);
    closedir(d);
}

/* A replaced file that cannot be written whole keeps its old content, and
 * its temporary file is gone. */
static void test_replaced_file_kept(void **state)
{
    (void)state;
    char dir[32], path[64], want[160], names[256], text[64];
    temp_path(dir, path, sizeof path, "acc.txt");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("old\n", f);
    fclose(f);
    run r;
    run_limited(&r, 200, (const char *const[]){"map", ACC, "--mapping", path,
                                               NULL});
    snprintf(want, sizeof want, "%s: error: cannot write this file (File "
             "too large)\n", path);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, want);
    slurp(path, text, sizeof text);
    assert_string_equal(text, "old\n");
    list_dir(dir, names, sizeof names);
    assert_string_equal(names, "acc.txt ");
    unlink(path);
    rmdir(dir);
}

/* Standard output that cannot take the graphs, the plan, the summary or
 * the mapping. */
static void test_stdout_fails(void **state)
{
    (void)state;
    const char *const cmds[][10] = {
        {"dfg", SUM, NULL},
        {"tile", JACOBI, "--loop", "jacobi2d", "--mem", "512", NULL},
        {"tile", JACOBI, "--loop", "jacobi2d", "--mem", "512", "--json",
         NULL},
        {"arch", NULL},
        {"map", ACC, "--mapping", "-", NULL},
        /* the rows, the verdict, the help: printed, then lost (they once
           exited 0) */
        {"map", ACC, NULL},
        {"check", "tests/cli/data/saved/scale.dot",
         "tests/cli/data/saved/scale.txt", NULL},
        {"--no-progress", ACC, NULL},
        {"--help", NULL},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        run r;
        run_cgramap_to(&r, "/dev/full", cmds[i]);
        assert_int_equal(r.status, 1);
        /* rows printed through stdio may fail before the end, and the
           failed write's reason is gone by then */
        if (i < 5) { /* through cg_cli_write_file: the reason, alone */
            assert_string_equal(r.err, "cgramap: error: cannot write "
                                "standard output (No space left on "
                                "device)\n");
            continue;
        }
        const char *tail = strstr(r.err, "cgramap: error: cannot write");
        assert_non_null(tail);
        if (strcmp(tail, "cgramap: error: cannot write standard output "
                         "(No space left on device)\n"))
            assert_string_equal(tail, "cgramap: error: cannot write "
                                "standard output (a write failed)\n");
    }
}

/* --mapping-dir on a disk that fills up: of the five files (the smallest
 * 233 bytes) none is left, whole or in part, and no temporary file. */
static void test_mapping_dir_nothing_partial(void **state)
{
    (void)state;
    char dir[32], sub[64], names[256];
    temp_path(dir, sub, sizeof sub, "maps");
    assert_int_equal(mkdir(sub, 0700), 0);
    run r;
    run_limited(&r, 200, (const char *const[]){"--mapping-dir", sub, ACC,
                                               NULL});
    assert_int_equal(r.status, 1);
    list_dir(sub, names, sizeof names);
    assert_string_equal(names, "");
    rmdir(sub);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unwritable_before_any_loop),
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_symlink_kept),
        cmocka_unit_test(test_dangling_symlink_kept),
        cmocka_unit_test(test_stdout),
        cmocka_unit_test(test_fifo),
        cmocka_unit_test(test_dev_full),
        cmocka_unit_test(test_parent_is_file),
        cmocka_unit_test(test_replaced_file_kept),
        cmocka_unit_test(test_stdout_fails),
        cmocka_unit_test(test_mapping_dir_nothing_partial),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
