/* bench_jobs.c: each job (one input file) runs in its own worker process.
 * That gives -j N for free, and it keeps every loop's outcome even when
 * one of them crashes cgramap: the parent records that file as an error
 * naming the signal and goes on.  A worker writes its records as JSON into
 * an anonymous temporary file the parent reads back when it exits.
 *
 * SIGINT and SIGTERM to the parent stop the run: it starts no more jobs,
 * forwards the signal to its workers (SIGKILL for any still running
 * CG_CLI_STOP_GRACE_S later: a library in the worker may catch the signal,
 * libCbcSolver installs handlers with signal()), waits for them and
 * reports every job in order: the finished ones with their records, the
 * others with one record of status "interrupted".  Workers stay in
 * cgramap's process group, so a terminal's Ctrl-C and Ctrl-Z reach them
 * too; a worker's reference run dies with it (flow/limit.c).  A signal
 * that comes after the last job was reported acts as it did before the
 * run (the report files are written whole or not at all). */
#include "cli/bench.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Seconds a worker has to end after the forwarded signal. */
#define CG_CLI_STOP_GRACE_S 2.0

/* The signal that stops the run, 0 while none came.  The one piece of
 * global state: a signal handler gets no argument to reach the run with,
 * and setting a volatile sig_atomic_t is all it may safely do. */
static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
    stop_sig = sig;
}

/* Only there so that SIGCHLD, and SIGALRM for the progress line, end
 * sigsuspend (reap). */
static void on_child(int sig)
{
    (void)sig;
}

/* What the run changed and puts back: dispositions and the signal mask. */
typedef struct sigs {
    struct sigaction intr, term, chld, alrm;
    sigset_t mask;
} sigs;

/* Block SIGINT, SIGTERM and SIGCHLD (they are taken only in reap's
 * sigsuspend, so none is lost between a check and a wait) and catch them.
 * A SIGINT or SIGTERM ignored on entry (nohup, a background job of a
 * shell without job control) stays ignored. */
static void catch_signals(sigs *old)
{
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGCHLD);
    sigaddset(&block, SIGALRM);
    sigprocmask(SIG_BLOCK, &block, &old->mask);
    stop_sig = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_child;
    sigaction(SIGCHLD, &sa, &old->chld);
    sigaction(SIGALRM, &sa, &old->alrm);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, NULL, &old->intr);
    sigaction(SIGTERM, NULL, &old->term);
    if (old->intr.sa_handler != SIG_IGN)
        sigaction(SIGINT, &sa, NULL);
    if (old->term.sa_handler != SIG_IGN)
        sigaction(SIGTERM, &sa, NULL);
}

static void restore_signals(const sigs *old)
{
    sigaction(SIGINT, &old->intr, NULL);
    sigaction(SIGTERM, &old->term, NULL);
    sigaction(SIGCHLD, &old->chld, NULL);
    sigaction(SIGALRM, &old->alrm, NULL);
    sigprocmask(SIG_SETMASK, &old->mask, NULL);
}

typedef struct slot {
    pid_t pid;       /* 0 when the job is not running */
    FILE *out;       /* the worker's records */
    json_t *recs;    /* NULL until done */
} slot;

/* Records of a worker that died or wrote nothing readable. */
static json_t *died(const cg_cli_job *j, int status)
{
    cg_diags *d = cg_diags_create();
    if (WIFSIGNALED(status))
        cg_diags_add(d, CG_SEV_ERROR, j->path, 0, "cgramap crashed on this "
                     "file (signal %d, %s); the other files are not "
                     "affected; please report it", WTERMSIG(status),
                     strsignal(WTERMSIG(status)));
    else
        cg_diags_add(d, CG_SEV_ERROR, j->path, 0, "the worker for this file "
                     "ended without a result (exit status %d)",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    json_t *a = json_array();
    json_array_append_new(a, cg_cli_error_record(j->bench, j->path, NULL, d));
    cg_diags_destroy(d);
    return a;
}

/* The record of a job a stop signal ended or kept from starting. */
static json_t *interrupted(const cg_cli_job *j)
{
    json_t *a = json_array();
    json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:b, s:s, s:[]}",
                                       "benchmark", j->bench, "file", j->path,
                                       "loop", "-", "status", "interrupted",
                                       "checked", 0, "verified", "-",
                                       "messages"));
    return a;
}

static void worker(const cg_cli_job *j, const cg_netlist *nl,
                   const cg_cli_opts *o, FILE *out, const sigs *old)
{
    restore_signals(old); /* the worker dies of SIGINT and SIGTERM */
    json_t *recs = cg_cli_job_run(j, nl, o);
    int rc = json_dumpf(recs, out, JSON_COMPACT) || fflush(out);
    json_decref(recs);
    _exit(rc ? 3 : 0); /* no atexit handlers: the parent owns stdio */
}

/* Start job i's worker in s; its notes go to its progress slot. */
static int start(slot *s, const cg_cli_jobs *jobs, int i,
                 const cg_netlist *nl, const cg_cli_opts *o, const sigs *old)
{
    s->out = tmpfile();
    if (!s->out)
        return -1;
    fflush(stdout);
    fflush(stderr);
    cg_cli_opts w = *o;
    w.slot = cg_cli_progress_slot_of(o->progress, i);
    s->pid = fork();
    if (s->pid == 0)
        worker(&jobs->v[i], nl, &w, s->out, old);
    if (s->pid > 0)
        cg_cli_progress_running(o->progress, i, true);
    return s->pid < 0 ? -1 : 0;
}

/* Take the records of the worker in s that ended with status.  One
 * without records was interrupted, not crashed, once the run is stopping
 * or when SIGINT or SIGTERM ended it: a terminal's Ctrl-C reaches the
 * workers too, and one may be reaped before the parent takes its own. */
static void finish(slot *s, const cg_cli_job *j, int status)
{
    json_t *recs = NULL;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        rewind(s->out);
        recs = json_loadf(s->out, 0, NULL);
    }
    if (!json_is_array(recs)) {
        json_decref(recs);
        bool stopped = stop_sig || (WIFSIGNALED(status) &&
                                    (WTERMSIG(status) == SIGINT ||
                                     WTERMSIG(status) == SIGTERM));
        recs = stopped ? interrupted(j) : died(j, status);
    }
    s->recs = recs;
    fclose(s->out);
    s->out = NULL;
    s->pid = 0;
}

/* Finish the worker pid; false when pid is none of ours. */
static bool finish_pid(slot *slots, const cg_cli_jobs *jobs,
                       const cg_cli_opts *o, pid_t pid, int status)
{
    for (int i = 0; pid > 0 && i < jobs->n; i++)
        if (slots[i].pid == pid) {
            finish(&slots[i], &jobs->v[i], status);
            cg_cli_progress_running(o->progress, i, false);
            return true;
        }
    return false;
}

/* Wait for one worker or a stop signal, with the signals blocked except
 * in sigsuspend, drawing the progress line when it is due; true when a
 * worker ended. */
static bool reap(slot *slots, const cg_cli_jobs *jobs, const cg_cli_opts *o,
                 const sigs *old)
{
    sigset_t wait_mask = old->mask;
    sigdelset(&wait_mask, SIGINT);
    sigdelset(&wait_mask, SIGTERM);
    sigdelset(&wait_mask, SIGCHLD);
    sigdelset(&wait_mask, SIGALRM);
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) == 0 && !stop_sig) {
        sigsuspend(&wait_mask);
        if (cg_cli_progress_due(o->progress))
            cg_cli_progress_draw(o->progress);
    }
    return finish_pid(slots, jobs, o, pid, status);
}

/* SIGALRM every second while a progress line is drawn, or none. */
static void tick(const cg_cli_opts *o, bool on)
{
    if (!o->progress)
        return;
    struct itimerval t = {{on, 0}, {on, 0}};
    setitimer(ITIMER_REAL, &t, NULL);
    sigset_t pending, alrm;
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    int sig;
    /* a tick still pending would kill cgramap once its handler is put
     * back: take it while it is blocked */
    if (!on && sigpending(&pending) == 0 && sigismember(&pending, SIGALRM))
        sigwait(&alrm, &sig);
}

static int running_count(const slot *slots, const cg_cli_jobs *jobs)
{
    int n = 0;
    for (int i = 0; i < jobs->n; i++)
        n += slots[i].pid > 0;
    return n;
}

/* Forward sig to the running workers and wait for them, killing those
 * still there after CG_CLI_STOP_GRACE_S. */
static void stop_workers(slot *slots, const cg_cli_jobs *jobs,
                         const cg_cli_opts *o, int sig)
{
    for (int i = 0; i < jobs->n; i++)
        if (slots[i].pid > 0)
            kill(slots[i].pid, sig);
    struct timespec nap = {0, 10000000}; /* 10 ms */
    int status;
    for (int t = 0; t < CG_CLI_STOP_GRACE_S * 100 &&
                    running_count(slots, jobs) > 0; t++) {
        pid_t pid;
        while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
            finish_pid(slots, jobs, o, pid, status);
        nanosleep(&nap, NULL);
    }
    for (int i = 0; i < jobs->n; i++)
        if (slots[i].pid > 0) {
            kill(slots[i].pid, SIGKILL);
            if (waitpid(slots[i].pid, &status, 0) == slots[i].pid)
                finish(&slots[i], &jobs->v[i], status);
        }
}

/* A job that could not start runs here, in this process. */
static void run_inline(slot *s, const cg_cli_job *j, const cg_netlist *nl,
                       const cg_cli_opts *o)
{
    if (s->out)
        fclose(s->out);
    s->out = NULL;
    s->pid = 0;
    s->recs = cg_cli_job_run(j, nl, o);
}

/* Report the jobs from *reported on that are done, in order. */
static void report_done(slot *slots, const cg_cli_jobs *jobs, int *reported,
                        cg_cli_done_fn on_done, void *arg)
{
    while (*reported < jobs->n && slots[*reported].recs) {
        on_done(arg, *reported, slots[*reported].recs);
        ++*reported;
    }
}

/* With --rtl and more than one worker: the array's model compiled (or
 * found in the cache) once here, not by every worker at once (each would
 * miss the cache and compile it too: minutes of CPU for an 8x8).  A
 * failure is left to the workers to say, row by row. */
static void prepare_model(const cg_cli_jobs *jobs, const cg_netlist *nl,
                          const cg_cli_opts *o)
{
    if (!o->rtl || o->jobs < 2 || jobs->n < 2)
        return;
    cg_flow_params p;
    cg_cli_flow_params(o, &p);
    cg_cosim_result res;
    cg_cosim_prepare(nl, &p.cosim, &res);
}

/* A job that runs inline (no worker could be forked) keeps the signals
 * blocked: it finishes before the run stops. */
int cg_cli_run_jobs(const cg_cli_jobs *jobs, const cg_netlist *nl,
                    const cg_cli_opts *o, cg_cli_done_fn on_done, void *arg)
{
    prepare_model(jobs, nl, o);
    slot *slots = calloc((size_t)jobs->n + 1, sizeof *slots);
    if (!slots) {
        fprintf(stderr, "cgramap: out of memory: no file was run\n");
        return -1;
    }
    sigs old;
    catch_signals(&old);
    tick(o, true);
    int next = 0, reported = 0, running = 0;
    while (reported < jobs->n && !stop_sig) {
        while (running < o->jobs && next < jobs->n) {
            if (start(&slots[next], jobs, next, nl, o, &old) == 0)
                running++;
            else
                run_inline(&slots[next], &jobs->v[next], nl, o);
            next++;
        }
        report_done(slots, jobs, &reported, on_done, arg);
        if (reported < jobs->n && running > 0 &&
            reap(slots, jobs, o, &old))
            running--;
    }
    int sig = stop_sig;
    if (sig) {
        stop_workers(slots, jobs, o, sig);
        for (int i = next; i < jobs->n; i++)
            slots[i].recs = interrupted(&jobs->v[i]);
        report_done(slots, jobs, &reported, on_done, arg);
    }
    tick(o, false);
    restore_signals(&old);
    free(slots);
    return sig;
}
