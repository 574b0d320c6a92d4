/* test_sweep.c: `cgramap sweep --slurm DIR` without a cluster: the job
 * array and merge scripts against golden files (read by eye when they
 * were made: tests/cli/golden/sweep.sbatch, merge.sbatch; the folder,
 * the working directory and cgramap's path written as @DIR@, @CWD@,
 * @EXE@), the task limits computed from the effort limits, --status
 * from the parts and the .failed files alone, and the usage errors.
 * test_slurm.c runs the scripts on a real Slurm. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>

#include "run_cgramap.h"
#include "sweep_check.h"
#include "tests/common/golden.h"

#define A4 "benchmarks/archs/default_4x4.xml"
#define A6 "benchmarks/archs/default_6x6.xml"
#define SUM "benchmarks/microbench/sum"
#define DOT "benchmarks/microbench/dot"

/* Every from in s replaced by to, in place (s has room). */
static void replace_all(char *s, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to);
    for (char *p = strstr(s, from); p; p = strstr(p + nt, from)) {
        memmove(p + nt, p + nf, strlen(p + nf) + 1);
        memcpy(p, to, nt);
    }
}

/* DIR/name with the machine's paths as placeholders, against golden. */
static void assert_golden(const char *name, const char *golden)
{
    static char got[16384];
    char path[300], dir[PATH_MAX], cwd[PATH_MAX], exe[PATH_MAX];
    snprintf(path, sizeof path, "%s/sweep/%s", sweep_tmp, name);
    slurp(path, got, sizeof got);
    assert_non_null(realpath(in_tmp("sweep"), dir));
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_non_null(realpath(CG_CGRAMAP, exe));
    replace_all(got, exe, "@EXE@");
    replace_all(got, dir, "@DIR@");
    replace_all(got, cwd, "@CWD@");
    cg_golden_check(golden, got);
}

static void test_scripts(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){
        "sweep", "--slurm", in_tmp("sweep"), "--shards", "3", "--partition",
        "short", "--account", "proj42", "--arch", A4, "--arch", A6,
        "--timeout", "10", "--max-ii", "4", "--steps", "2000", "-j", "2",
        "--report", in_tmp("sweep/report"), "--sym", "n=4", SUM, DOT, NULL});
    assert_int_equal(r.status, 0);
    /* 2 loops a task, each at most 4 IIs x 10 s and a 120 s reference
     * run, on 2 workers: 160 s, 3 minutes, and 5 more; 2 workers of
     * 1 GiB and 100 bytes for each of 20000000 SAT literals */
    char want[PATH_MAX + 128], dir[PATH_MAX];
    assert_non_null(realpath(in_tmp("sweep"), dir));
    snprintf(want, sizeof want, "%s/sweep.sbatch: 3 shards of 4 loops, at "
             "most 2 a task; 0:08:00 and 5864 MB a task\n", dir);
    assert_string_equal(r.out, want);
    assert_golden("sweep.sbatch", "tests/cli/golden/sweep.sbatch");
    assert_golden("merge.sbatch", "tests/cli/golden/merge.sbatch");
    /* one loop a task on 2 workers: still a whole loop's 160 s (the time
     * was once divided by -j regardless: 80 s, 0:07:00, less than the
     * loop may take, and Slurm would have killed the task) */
    run_cgramap(&r, (const char *const[]){
        "sweep", "--slurm", in_tmp("sweep1"), "--timeout", "10",
        "--max-ii", "4", "-j", "2", SUM, NULL});
    assert_int_equal(r.status, 0);
    char dir1[PATH_MAX];
    assert_non_null(realpath(in_tmp("sweep1"), dir1));
    snprintf(want, sizeof want, "%s/sweep.sbatch: 4 shards of 1 loops, at "
             "most 1 a task; 0:08:00 and 5864 MB a task\n", dir1);
    assert_string_equal(r.out, want);
    /* the limits given */
    run_cgramap(&r, (const char *const[]){
        "sweep", "--slurm", in_tmp("sweep"), "--task-time", "90",
        "--task-mem", "700", SUM, NULL});
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof want, "%s/sweep.sbatch: 4 shards of 1 loops, at "
             "most 1 a task; 1:30:00 and 700 MB a task\n", dir);
    assert_string_equal(r.out, want);
}

static void touch(const char *name, const char *text)
{
    FILE *f = fopen(in_tmp(name), "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Without a cluster: a part is done, a .failed file failed (with the exit
 * status it holds, once left out), a log without a part failed (where to
 * look), nothing at all missing. */
static void test_status(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"sweep", "--slurm",
                                         in_tmp("st"), SUM, NULL});
    assert_int_equal(r.status, 0);
    touch("st/parts/shard-1.json", "{}");
    touch("st/parts/shard-2.failed", "137\n");
    touch("st/logs/shard-3.out", "");
    run_cgramap(&r, (const char *const[]){"sweep", "--status", in_tmp("st"),
                                         NULL});
    assert_int_equal(r.status, 1);
    char want[512];
    snprintf(want, sizeof want, "%s: 4 shards: 1 done, 0 running, 2 failed, "
             "1 missing\nshard 2/4: failed (exit status 137: signal 9)\n"
             "shard 3/4: failed (no part; see logs/shard-3.out)\n"
             "shard 4/4: missing\nmerged: not yet\n", in_tmp("st"));
    assert_string_equal(r.out, want);
}

static void test_usage(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"sweep", SUM, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap sweep: give --slurm DIR (write the "
                        "scripts) or --status DIR (see cgramap sweep "
                        "--help)\n");
    run_cgramap(&r, (const char *const[]){"sweep", "--slurm", in_tmp("u"),
                                         "--shards", "0", SUM, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap sweep: Invalid value for --shards: 0 "
                        "(a whole number from 1 to 4096)\n");
    run_cgramap(&r, (const char *const[]){"sweep", "--status", in_tmp("u"),
                                         SUM, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap sweep: --status DIR takes nothing "
                        "else\n");
    run_cgramap(&r, (const char *const[]){"sweep", "--status",
                                         in_tmp("none"), NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "/none/sweep.state: error: no sweep here"));
    /* a PATH not read: no scripts (they were written for 0 loops, exit 0) */
    char want[512];
    run_cgramap(&r, (const char *const[]){"sweep", "--slurm", in_tmp("np"),
                                         "/nonexistent/bench", NULL});
    assert_int_equal(r.status, 1);
    snprintf(want, sizeof want, "/nonexistent/bench: error: no such file or "
             "folder\ncgramap sweep: a PATH could not be read (above); no "
             "sweep written to %s\n", in_tmp("np"));
    assert_string_equal(r.err, want);
    assert_string_equal(r.out, "");
    char sb[512];
    snprintf(sb, sizeof sb, "%s/sweep.sbatch", in_tmp("np"));
    assert_int_equal(access(sb, F_OK), -1);
    /* nor the folders it made for the sweep */
    assert_int_equal(access(in_tmp("np"), F_OK), -1);
    /* a partition that would split its #SBATCH line */
    run_cgramap(&r, (const char *const[]){"sweep", "--slurm", in_tmp("pa"),
                                         "--partition", "a b", SUM, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap sweep: --partition 'a b' is not a "
                        "Slurm name: give one without blanks or quotes\n");
    /* a bad option of the main job's: no folder left behind (DIR/parts
       and DIR/logs were made before the options were read) */
    run_cgramap(&r, (const char *const[]){"sweep", "--slurm", in_tmp("ue"),
                                         "--timeout", "abc", SUM, NULL});
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--timeout"));
    assert_int_equal(access(in_tmp("ue"), F_OK), -1);
    /* an sbatch that fails: its exit status (the wait status, 256 for
       exit 1, was printed) */
    char bin[512], path[4096];
    snprintf(bin, sizeof bin, "%s/bin", in_tmp("fake"));
    snprintf(path, sizeof path, "mkdir -p %s && printf '#!/bin/sh\\nexit "
             "3\\n' > %s/sbatch && chmod +x %s/sbatch", bin, bin, bin);
    assert_int_equal(system(path), 0);
    const char *old = getenv("PATH");
    snprintf(path, sizeof path, "%s:%s", bin, old ? old : "/usr/bin:/bin");
    char *keep = strdup(old ? old : "");
    setenv("PATH", path, 1);
    run_cgramap(&r, (const char *const[]){"sweep", "--slurm", in_tmp("sub"),
                                         "--submit", SUM, NULL});
    setenv("PATH", keep, 1);
    free(keep);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "failed (exit status 3); is Slurm's sbatch "
                           "here (Debian: slurm-client)?\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scripts),
        cmocka_unit_test(test_status),
        cmocka_unit_test(test_usage),
    };
    return cmocka_run_group_tests(tests, sweep_setup, sweep_teardown);
}
