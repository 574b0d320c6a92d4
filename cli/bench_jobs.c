/* bench_jobs.c: each job (one input file) runs in its own worker process.
 * That gives -j N for free, and it keeps every loop's outcome even when
 * one of them crashes cgramap: the parent records that file as an error
 * naming the signal and goes on.  A worker writes its records as JSON into
 * an anonymous temporary file the parent reads back when it exits. */
#include "cli/bench.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

static void worker(const cg_cli_job *j, const cg_netlist *nl,
                   const cg_cli_opts *o, FILE *out)
{
    json_t *recs = cg_cli_job_run(j, nl, o);
    int rc = json_dumpf(recs, out, JSON_COMPACT) || fflush(out);
    json_decref(recs);
    _exit(rc ? 3 : 0); /* no atexit handlers: the parent owns stdio */
}

static int start(slot *s, const cg_cli_job *j, const cg_netlist *nl,
                 const cg_cli_opts *o)
{
    s->out = tmpfile();
    if (!s->out)
        return -1;
    fflush(stdout);
    fflush(stderr);
    s->pid = fork();
    if (s->pid == 0)
        worker(j, nl, o, s->out);
    return s->pid < 0 ? -1 : 0;
}

static void finish(slot *s, const cg_cli_job *j, int status)
{
    json_t *recs = NULL;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        rewind(s->out);
        recs = json_loadf(s->out, 0, NULL);
    }
    s->recs = json_is_array(recs) ? recs : (json_decref(recs), died(j, status));
    fclose(s->out);
    s->out = NULL;
    s->pid = 0;
}

/* Wait for one worker; false when none is left. */
static bool reap(slot *slots, const cg_cli_jobs *jobs)
{
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid <= 0)
        return false;
    for (int i = 0; i < jobs->n; i++)
        if (slots[i].pid == pid) {
            finish(&slots[i], &jobs->v[i], status);
            break;
        }
    return true;
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

void cg_cli_run_jobs(const cg_cli_jobs *jobs, const cg_netlist *nl,
                     const cg_cli_opts *o, cg_cli_done_fn on_done, void *arg)
{
    slot *slots = calloc((size_t)jobs->n + 1, sizeof *slots);
    if (!slots)
        return;
    int next = 0, reported = 0, running = 0;
    while (reported < jobs->n) {
        while (running < o->jobs && next < jobs->n) {
            if (start(&slots[next], &jobs->v[next], nl, o) == 0)
                running++;
            else
                run_inline(&slots[next], &jobs->v[next], nl, o);
            next++;
        }
        while (reported < jobs->n && slots[reported].recs) {
            on_done(arg, reported, slots[reported].recs);
            reported++;
        }
        if (reported < jobs->n && running > 0 && reap(slots, jobs))
            running--;
    }
    free(slots);
}
