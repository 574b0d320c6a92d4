/* test_bench_jobs.c: the main job's workers (cli/bench_jobs.c) when a
 * signal stops the run: cgramap is started on a kernel whose reference run
 * spins (tests/cli/data/refrun/spin.c), signalled once its workers are in
 * that run, and must exit 130 (SIGINT) or 143 (SIGTERM), leave no worker
 * or reference run behind, and report the finished rows with the others
 * marked "interrupted", in the table and in both report files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <time.h>

#include "run_cgramap.h"

#define ACC "tests/cli/data/bench/loose/acc.dot"
#define SPIN "tests/cli/data/refrun/spin.c"
/* Seconds to wait for the workers to reach the reference run (mapping
 * spin under the sanitizers included). */
#define REACH_S 180

/* A started cgramap: its pid and where its streams go. */
typedef struct bg {
    pid_t pid;
    char out[32], err[32], json[32], csv[32];
} bg;

/* Start cgramap with args after "--json J --csv C", SIGINT and SIGTERM at
 * their defaults whatever this test inherited (a shell's background job
 * ignores SIGINT, and cgramap keeps it ignored then). */
static void start(bg *b, const char *const *args)
{
    strcpy(b->out, "/tmp/cg_sig_outXXXXXX");
    strcpy(b->err, "/tmp/cg_sig_errXXXXXX");
    strcpy(b->json, "/tmp/cg_sig_jsXXXXXX");
    strcpy(b->csv, "/tmp/cg_sig_csXXXXXX");
    int fo = mkstemp(b->out), fe = mkstemp(b->err);
    int fj = mkstemp(b->json), fc = mkstemp(b->csv);
    assert_true(fo >= 0 && fe >= 0 && fj >= 0 && fc >= 0);
    close(fj);
    close(fc);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fo, 1);
    posix_spawn_file_actions_adddup2(&fa, fe, 2);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    posix_spawnattr_setsigdefault(&at, &s);
    sigemptyset(&s);
    posix_spawnattr_setsigmask(&at, &s);
    posix_spawnattr_setpgroup(&at, 0); /* a group of its own, a terminal's */
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF |
                                  POSIX_SPAWN_SETSIGMASK |
                                  POSIX_SPAWN_SETPGROUP);
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)CG_CGRAMAP;
    argv[n++] = "--json";
    argv[n++] = b->json;
    argv[n++] = "--csv";
    argv[n++] = b->csv;
    for (int i = 0; args[i]; i++)
        argv[n++] = (char *)args[i];
    argv[n] = NULL;
    assert_int_equal(posix_spawn(&b->pid, CG_CGRAMAP, &fa, &at, argv,
                                 environ), 0);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    close(fo);
    close(fe);
}

/* The parent of process pid (0 when it is gone), its state letter and
 * the CPU time it used (clock ticks). */
static pid_t parent_of(pid_t pid, char *state, long *ticks)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')');
    int ppid = 0;
    long ut = 0, st = 0;
    if (!p || sscanf(p + 1, " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld "
                     "%ld", state, &ppid, &ut, &st) != 4)
        return 0;
    *ticks = ut + st;
    return ppid;
}

/* The children of pid into kids (at most cap); how many. */
static int children(pid_t pid, pid_t *kids, int cap)
{
    DIR *d = opendir("/proc");
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < cap) {
        pid_t p = (pid_t)atoi(e->d_name);
        char st;
        long ticks;
        if (p > 0 && parent_of(p, &st, &ticks) == pid)
            kids[n++] = p;
    }
    closedir(d);
    return n;
}

/* Wait until cgramap has `workers` workers, each with its reference run
 * spinning (a child of its own that used 0.3 s of CPU: a worker's other
 * children end at once), and the file out holds want; those processes
 * into procs (2 x workers). */
static void wait_for_runs(const bg *b, int workers, const char *want,
                          pid_t *procs)
{
    struct timespec nap = {0, 20000000};
    char out[65536];
    for (int t = 0; t < REACH_S * 50; t++) {
        slurp(b->out, out, sizeof out);
        pid_t w[8];
        int nw = children(b->pid, w, 8), runs = 0;
        for (int i = 0; i < nw && i < workers; i++) {
            procs[2 * i] = w[i];
            char st;
            long ticks = 0;
            runs += children(w[i], &procs[2 * i + 1], 1) == 1 &&
                    parent_of(procs[2 * i + 1], &st, &ticks) == w[i] &&
                    ticks >= sysconf(_SC_CLK_TCK) * 3 / 10;
        }
        if (nw == workers && runs == workers && strstr(out, want))
            return;
        nanosleep(&nap, NULL);
    }
    fail_msg("cgramap did not reach the reference runs in %d s", REACH_S);
}

/* Every process in procs ended (gone, or a zombie about to be reaped),
 * waiting up to 5 s each; else they are killed and the test fails. */
static void expect_gone(const pid_t *procs, int n)
{
    struct timespec nap = {0, 20000000};
    for (int i = 0; i < n; i++) {
        char st = 0;
        long ticks;
        int t = 0;
        while (parent_of(procs[i], &st, &ticks) != 0 && st != 'Z' &&
               t++ < 250)
            nanosleep(&nap, NULL);
        if (parent_of(procs[i], &st, &ticks) == 0 || st == 'Z')
            continue;
        for (int k = 0; k < n; k++) /* not left spinning for hours */
            kill(procs[k], SIGKILL);
        fail_msg("process %d survived cgramap (state %c)",
                 (int)procs[i], st);
    }
}

/* What a stopped cgramap left: stdout (times masked), stderr and status
 * in r, the JSON report, the CSV report. */
typedef struct stopped {
    run r;
    json_t *js;
    char csv[8192];
} stopped;

/* Run cgramap with args until `workers` workers spin in their reference
 * runs and its stdout holds want, send sig (to its whole process group
 * when sig < 0, as a terminal's Ctrl-C does), expect exit status want_st
 * and none of those processes left; what it wrote into *s. */
static void run_stopped(const char *const *args, int workers,
                        const char *want, int sig, int want_st, stopped *s)
{
    bg b;
    start(&b, args);
    pid_t procs[8];
    wait_for_runs(&b, workers, want, procs);
    assert_int_equal(sig < 0 ? kill(-b.pid, -sig) : kill(b.pid, sig), 0);
    int st;
    assert_int_equal(waitpid(b.pid, &st, 0), b.pid);
    assert_true(WIFEXITED(st));
    s->r.status = WEXITSTATUS(st);
    assert_int_equal(s->r.status, want_st);
    expect_gone(procs, 2 * workers);
    slurp(b.out, s->r.out, sizeof s->r.out);
    slurp(b.err, s->r.err, sizeof s->r.err);
    mask_times(s->r.out);
    s->js = json_load_file(b.json, 0, NULL);
    assert_non_null(s->js);
    slurp(b.csv, s->csv, sizeof s->csv);
    unlink(b.out);
    unlink(b.err);
    unlink(b.json);
    unlink(b.csv);
}

#define HEADER                                                               \
    "benchmark      loop           nodes ResMII RecMII bottleneck   II "     \
    "status                   proof                      time     FUs  util "    \
    "const  IO mem routes  tiles  DMA bytes  ratio     cycles    stalls "    \
    "verified\n"
#define ACC_ROW                                                              \
    "acc            acc                3      1      1 -             1 "     \
    "mapped                   optimal TIME    1/16    6%     0   2   0     " \
    "17      -          -      -          -         - yes\n"
#define SPIN_ROW                                                             \
    "spin           -                  -      -      - -             - "     \
    "interrupted              -                             -       -     -     " \
    "-   -   -      -      -          -      -          -         - -\n"
#define ACC_ROW_STOPPED                                                      \
    "acc            -                  -      -      - -             - "     \
    "interrupted              -                             -       -     -     " \
    "-   -   -      -      -          -      -          -         - -\n"
#define CSV_SPIN                                                             \
    "\"spin\",\"" SPIN "\",\"-\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\","    \
    "\"interrupted\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"," \
    "\"\",\"\",\"\",\"\",\"\",\"\",\"no\",\"-\"\r\n"

static void expect_status(const json_t *js, int i, const char *file,
                          const char *status)
{
    const json_t *rec = json_array_get(js, (size_t)i);
    assert_string_equal(json_string_value(json_object_get(rec, "file")), file);
    assert_string_equal(json_string_value(json_object_get(rec, "status")),
                        status);
}

/* -j 2: acc's row is out, two workers run spin's reference run; SIGINT
 * stops both (and their runs), and acc's row stays in every report. */
static void test_sigint_keeps_finished_rows(void **state)
{
    (void)state;
    stopped s;
    run_stopped((const char *const[]){"-j", "2", "--timeout", "20", ACC,
                                      SPIN, SPIN, NULL},
                2, "\nacc ", SIGINT, 130, &s);
    assert_string_equal(s.r.out, HEADER ACC_ROW SPIN_ROW SPIN_ROW);
    assert_string_equal(s.r.err, "cgramap: stopped by SIGINT: 1 of 3 files "
                                 "finished; the rows of the other 2 say "
                                 "'interrupted', and so do the reports\n");
    assert_int_equal(json_array_size(s.js), 3);
    expect_status(s.js, 0, ACC, "mapped");
    expect_status(s.js, 1, SPIN, "interrupted");
    expect_status(s.js, 2, SPIN, "interrupted");
    json_decref(s.js);
    const char *line2 = strchr(strchr(s.csv, '\n') + 1, '\n') + 1;
    assert_string_equal(line2, CSV_SPIN CSV_SPIN);
}

/* -j 1: SIGTERM during the first file; the second never started.  Both
 * are "interrupted", nothing finished. */
static void test_sigterm_before_any_row(void **state)
{
    (void)state;
    stopped s;
    run_stopped((const char *const[]){"--timeout", "20", SPIN, ACC, NULL},
                1, "verified\n", SIGTERM, 143, &s);
    assert_string_equal(s.r.out, HEADER SPIN_ROW ACC_ROW_STOPPED);
    assert_string_equal(s.r.err, "cgramap: stopped by SIGTERM: 0 of 2 files "
                                 "finished; the rows of the other 2 say "
                                 "'interrupted', and so do the reports\n");
    assert_int_equal(json_array_size(s.js), 2);
    expect_status(s.js, 0, SPIN, "interrupted");
    expect_status(s.js, 1, ACC, "interrupted");
    json_decref(s.js);
}

/* Ctrl-C: SIGINT to cgramap, its worker and the reference run at once;
 * the worker is "interrupted", not "crashed (signal 2)".  (Which of
 * cgramap's signals, the SIGINT or the worker's SIGCHLD, is taken first
 * is up to the kernel: these runs took the SIGINT first.) */
static void test_sigint_to_the_group(void **state)
{
    (void)state;
    stopped s;
    run_stopped((const char *const[]){"--timeout", "20", ACC, SPIN, NULL},
                1, "\nacc ", -SIGINT, 130, &s);
    assert_string_equal(s.r.out, HEADER ACC_ROW SPIN_ROW);
    assert_string_equal(s.r.err, "cgramap: stopped by SIGINT: 1 of 2 files "
                                 "finished; the rows of the other 1 say "
                                 "'interrupted', and so do the reports\n");
    json_decref(s.js);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigint_keeps_finished_rows),
        cmocka_unit_test(test_sigterm_before_any_row),
        cmocka_unit_test(test_sigint_to_the_group),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
