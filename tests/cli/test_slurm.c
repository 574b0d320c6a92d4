/* test_slurm.c: a sweep on a real Slurm.  The test starts a one-node
 * Slurm of its own (munged, slurmctld and slurmd in the foreground as its
 * children, their configuration, key, state, spool and free ports in a
 * temporary folder, so that it clashes with nothing on the machine), has
 * `cgramap sweep --submit` run 2 arrays x 6 loops as a 3-task job array
 * and the merge after it, checks that the merged table, JSON and CSV are
 * those of one run of the same sweep on this machine (but for the
 * seconds) and that `sweep --status` counts 3 shards done, then stops the
 * daemons.  It runs as root, as CI does (slurmd starts jobs as their
 * user).  When Slurm cannot start, the test fails and says why: it is
 * the one test of the Slurm path, and a skip would hide a broken setup
 * (scripts/setup.sh installs slurm-wlm and munge). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include "run_cgramap.h"
#include "sweep_check.h"

#define A4 "benchmarks/archs/default_4x4.xml"
#define A6 "benchmarks/archs/default_6x6.xml"
#define MB "benchmarks/microbench/"
/* Six loops that map at their MII within a few thousand steps. */
#define LOOPS MB "sum", MB "dot", MB "relu", MB "nomem1", MB "initrec", \
              MB "histogram"
#define LIMITS "--timeout", "10", "--max-ii", "4", "--steps", "2000"
/* Seconds the daemons get to come up, and the sweep to finish. */
#define UP_S 30
#define SWEEP_S 150

enum { MUNGED, SLURMCTLD, SLURMD, NDAEMONS };
static pid_t daemons[NDAEMONS];

static void nap(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    nanosleep(&t, NULL);
}

/* A TCP port nothing listens on now. */
static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET};
    socklen_t n = sizeof a;
    assert_true(fd >= 0);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &n), 0);
    close(fd);
    return ntohs(a.sin_port);
}

/* Run argv (NULL-terminated) as a child, its output into log; its pid. */
static pid_t spawn(const char *const *argv, const char *log)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT |
                                     O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char **)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    return rc == 0 ? pid : -1;
}

/* The first line cmd prints, "" when none. */
static void first_line(const char *cmd, char *buf, size_t n)
{
    FILE *f = popen(cmd, "r");
    buf[0] = '\0';
    if (f && fgets(buf, (int)n, f))
        buf[strcspn(buf, "\n")] = '\0';
    if (f)
        pclose(f);
}

/* Fail, naming why Slurm did not start and the end of its logs. */
static void slurm_failed(const char *why)
{
    char cmd[512], tail[2048] = "";
    snprintf(cmd, sizeof cmd, "tail -n 3 %s/*.log 2>&1 | tr '\\n' ' '",
             sweep_tmp);
    first_line(cmd, tail, sizeof tail);
    fail_msg("Slurm did not start: %s (scripts/setup.sh installs slurm-wlm "
             "and munge; the test runs as root); logs: %s", why, tail);
}

static void write_conf(const char *host, int ctld_port, int d_port)
{
    FILE *f = fopen(in_tmp("slurm.conf"), "w");
    assert_non_null(f);
    fprintf(f,
            "ClusterName=cgtest\nSlurmctldHost=%s(127.0.0.1)\n"
            "SlurmctldPort=%d\nSlurmdPort=%d\nSlurmUser=root\n"
            "SlurmdUser=root\nAuthType=auth/munge\nCredType=cred/munge\n"
            "AuthInfo=socket=%s/munge.sock\nStateSaveLocation=%s/state\n"
            "SlurmdSpoolDir=%s/spool\nSlurmctldPidFile=%s/ctld.pid\n"
            "SlurmdPidFile=%s/d.pid\nProctrackType=proctrack/linuxproc\n"
            "TaskPlugin=task/none\nJobAcctGatherType=jobacct_gather/none\n"
            "AccountingStorageType=accounting_storage/none\n"
            "JobCompType=jobcomp/none\nSwitchType=switch/none\n"
            "MpiDefault=none\nSelectType=select/cons_tres\n"
            "SelectTypeParameters=CR_Core_Memory\nReturnToService=2\n"
            "NodeName=%s NodeAddr=127.0.0.1 CPUs=%ld RealMemory=2000 "
            "State=UNKNOWN\nPartitionName=cgtest Nodes=ALL Default=YES "
            "MaxTime=INFINITE State=UP\n", host, ctld_port, d_port,
            sweep_tmp, sweep_tmp, sweep_tmp, sweep_tmp, sweep_tmp, host,
            sysconf(_SC_NPROCESSORS_ONLN));
    fclose(f);
}

/* A fresh munge key of random bytes, readable by its owner only. */
static void write_key(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "head -c 1024 /dev/urandom > %s/munge.key && "
             "chmod 400 %s/munge.key && mkdir %s/state %s/spool", sweep_tmp,
             sweep_tmp, sweep_tmp, sweep_tmp);
    assert_int_equal(system(cmd), 0);
}

/* Start the three daemons and wait for the node to be idle. */
static void slurm_start(void)
{
    if (geteuid() != 0)
        slurm_failed("not root");
    char host[256], key[300], sock[300], pid[300], seed[300], log[300];
    gethostname(host, sizeof host);
    host[strcspn(host, ".")] = '\0';
    chmod(sweep_tmp, 0755); /* munged wants its socket's folder readable */
    write_key();
    write_conf(host, free_port(), free_port());
    setenv("SLURM_CONF", in_tmp("slurm.conf"), 1);
    snprintf(key, sizeof key, "--key-file=%s/munge.key", sweep_tmp);
    snprintf(sock, sizeof sock, "--socket=%s/munge.sock", sweep_tmp);
    snprintf(pid, sizeof pid, "--pid-file=%s/munged.pid", sweep_tmp);
    snprintf(seed, sizeof seed, "--seed-file=%s/munge.seed", sweep_tmp);
    snprintf(log, sizeof log, "--log-file=%s/munged.log", sweep_tmp);
    daemons[MUNGED] = spawn((const char *const[]){"munged", "-F", "--force",
                                                  key, sock, pid, seed, log,
                                                  NULL},
                            in_tmp("munged.out.log"));
    nap(1);
    daemons[SLURMCTLD] = spawn((const char *const[]){"slurmctld", "-D", "-i",
                                                     NULL},
                               in_tmp("slurmctld.log"));
    nap(1);
    daemons[SLURMD] = spawn((const char *const[]){"slurmd", "-D", "-N", host,
                                                  NULL},
                            in_tmp("slurmd.log"));
    for (int k = 0; k < NDAEMONS; k++)
        if (daemons[k] <= 0)
            slurm_failed("munged, slurmctld or slurmd is not installed");
    char state[64] = "";
    for (int t = 0; t < UP_S * 2 && strcmp(state, "idle"); t++) {
        nap(0.5);
        first_line("sinfo -h -o %T 2>/dev/null", state, sizeof state);
    }
    if (strcmp(state, "idle") != 0)
        slurm_failed("the node is not idle after 30 s");
}

/* Cancel every job (a failed check may leave tasks running: their
 * slurmstepd would outlive slurmd), then SIGTERM to each daemon, SIGKILL
 * 10 s later to any still there. */
static void slurm_stop(void)
{
    if (daemons[SLURMCTLD] > 0) {
        char line[64] = "x";
        (void)!system("scancel --me 2>/dev/null");
        for (int t = 0; t < 40 && line[0]; t++) {
            nap(0.5);
            first_line("squeue -h --me -o %i 2>/dev/null", line, sizeof line);
        }
    }
    for (int k = NDAEMONS - 1; k >= 0; k--)
        if (daemons[k] > 0)
            kill(daemons[k], SIGTERM);
    for (int k = NDAEMONS - 1; k >= 0; k--) {
        if (daemons[k] <= 0)
            continue;
        int st, t = 0;
        while (waitpid(daemons[k], &st, WNOHANG) == 0 && t++ < 100)
            nap(0.1);
        if (t > 100) {
            kill(daemons[k], SIGKILL);
            waitpid(daemons[k], &st, 0);
        }
        daemons[k] = 0;
    }
}

static int teardown(void **state)
{
    slurm_stop();
    return sweep_teardown(state);
}

/* Wait until no job of ours is queued or running. */
static void wait_jobs(void)
{
    char line[256] = "x";
    for (int t = 0; t < SWEEP_S * 2 && line[0]; t++) {
        nap(0.5);
        first_line("squeue -h --me -o %i 2>/dev/null", line, sizeof line);
    }
    assert_string_equal(line, "");
}

static void test_sweep_on_slurm(void **state)
{
    (void)state;
    slurm_start();
    static run sub, one, st;
    run_cgramap(&sub, (const char *const[]){
        "sweep", "--slurm", in_tmp("sweep"), "--shards", "3", "--task-time",
        "10", "--task-mem", "300", "--submit", "--arch", A4, "--arch", A6,
        LIMITS, LOOPS, NULL});
    assert_int_equal(sub.status, 0);
    /* array tasks take job ids of their own as they start, so the
     * merge's id depends on timing */
    assert_non_null(strstr(sub.out, "shards 1,2,3: job 1\nmerge: job "));
    assert_non_null(strstr(sub.out, " (after the shards)\n"));
    /* the one-machine run while Slurm runs the shards */
    run_cgramap(&one, (const char *const[]){
        "--arch", A4, "--arch", A6, LIMITS, "--json", in_tmp("one.json"),
        "--csv", in_tmp("one.csv"), LOOPS, NULL});
    assert_int_equal(one.status, 0);
    wait_jobs();
    run_cgramap(&st, (const char *const[]){"sweep", "--status",
                                          in_tmp("sweep"), NULL});
    char want[512];
    snprintf(want, sizeof want, "%s: 3 shards: 3 done, 0 running, 0 failed, "
             "0 missing\nmerged: %s/sweep/merged.txt\n", in_tmp("sweep"),
             sweep_tmp);
    assert_string_equal(st.out, want);
    assert_int_equal(st.status, 0);
    static char merged[65536];
    slurp(in_tmp("sweep/merged.txt"), merged, sizeof merged);
    assert_non_null(strstr(merged, "comparison of 2 arrays on 6 loops"));
    assert_same_rows(one.out, merged);
    assert_same_json(in_tmp("one.json"), in_tmp("sweep/merged.json"));
    assert_same_csv(in_tmp("one.csv"), in_tmp("sweep/merged.csv"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_on_slurm),
    };
    return cmocka_run_group_tests(tests, sweep_setup, teardown);
}
