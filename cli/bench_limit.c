/* bench_limit.c: a loop's reference run under a time limit.
 *
 * Verifying runs the user's C code natively (and the simulator inside its
 * probes) in this process, where a kernel that loops for hours cannot be
 * interrupted.  So the run happens in a child process: the parent waits up
 * to the limit, then kills it and reports "reference run exceeded N s".
 * The child hands back its verdict, its messages and the columns it added,
 * as JSON in an anonymous temporary file (like the workers of
 * bench_jobs.c). */
#include "cli/bench.h"
#include "common/util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child: run fn, write {"verdict", "cols", "diags"} to out, exit. */
static void child(cg_cli_verify_fn fn, void *arg, json_t *cols, FILE *out)
{
    cg_diags *d = cg_diags_create();
    const char *v = fn(arg, cols, d);
    json_t *diags = json_array();
    for (int i = 0; i < cg_diags_size(d); i++) {
        const cg_diag *e = cg_diags_get(d, i);
        json_array_append_new(diags, json_pack("[i, s?, i, s?]", (int)e->sev,
                                               e->file, e->line, e->msg));
    }
    json_t *res = json_pack("{s:s?, s:O, s:o}", "verdict", v, "cols", cols,
                            "diags", diags);
    int rc = !res || json_dumpf(res, out, JSON_COMPACT) || fflush(out);
    _exit(rc ? 3 : 0); /* no atexit handlers: the parent owns stdio */
}

/* Wait for pid up to limit_s seconds; false (and pid killed) past it. */
static bool wait_limited(pid_t pid, double limit_s, int *status)
{
    struct timespec nap = {0, 1000000};
    double t0 = cg_clock_now();
    for (;;) {
        pid_t got = waitpid(pid, status, WNOHANG);
        if (got == pid || got < 0)
            return got == pid;
        if (cg_clock_now() - t0 >= limit_s) {
            kill(pid, SIGKILL);
            waitpid(pid, status, 0);
            return false;
        }
        nanosleep(&nap, NULL);
        if (nap.tv_nsec < 50000000) /* 1 ms, doubling up to 50 ms */
            nap.tv_nsec *= 2;
    }
}

/* The verdict string as one of fn's literals (a JSON string dies with its
 * document). */
static const char *verdict(const char *v)
{
    static const char *const known[] = {"yes", "no", "n/a"};
    for (int i = 0; v && i < 3; i++)
        if (!strcmp(v, known[i]))
            return known[i];
    return NULL;
}

/* Take the child's result: messages into d, columns into cols. */
static const char *take(FILE *in, json_t *cols, cg_diags *d)
{
    rewind(in);
    json_t *res = json_loadf(in, 0, NULL);
    json_t *diags = json_object_get(res, "diags");
    size_t i;
    json_t *e;
    json_array_foreach(diags, i, e)
        cg_diags_add(d, (cg_severity)json_integer_value(json_array_get(e, 0)),
                     json_string_value(json_array_get(e, 1)),
                     (int)json_integer_value(json_array_get(e, 2)), "%s",
                     json_string_value(json_array_get(e, 3)) ?
                     json_string_value(json_array_get(e, 3)) : "");
    json_object_update(cols, json_object_get(res, "cols"));
    const char *v = verdict(json_string_value(json_object_get(res,
                                                              "verdict")));
    json_decref(res);
    return v;
}

const char *cg_cli_verify_limited(double limit_s, const char *file,
                                  const char *loop, cg_cli_verify_fn fn,
                                  void *arg, json_t *cols, cg_diags *d)
{
    FILE *tmp = tmpfile();
    fflush(stdout);
    fflush(stderr);
    pid_t self = getpid();
    pid_t pid = tmp ? fork() : -1;
    if (pid == 0) {
        /* Die with this process: a worker that SIGINT or SIGTERM ends
         * (bench_jobs.c) cannot stop its reference run itself. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != self)
            _exit(3);
        child(fn, arg, cols, tmp);
    }
    if (pid < 0) {
        cg_diags_add(d, CG_SEV_WARNING, file, 0, "no process to spare for "
                     "the reference run of loop '%s'; it runs without "
                     "--run-timeout", loop);
        if (tmp)
            fclose(tmp);
        return fn(arg, cols, d);
    }
    int status = 0;
    const char *v = NULL;
    if (!wait_limited(pid, limit_s, &status))
        cg_diags_add(d, CG_SEV_ERROR, file, 0, "reference run exceeded %g s "
                     "and was stopped (loop '%s'); raise --run-timeout to "
                     "let it finish", limit_s, loop);
    else if (WIFSIGNALED(status))
        cg_diags_add(d, CG_SEV_ERROR, file, 0, "reference run crashed (signal "
                     "%d, %s) in loop '%s'; run the C program natively to "
                     "find the fault", WTERMSIG(status),
                     strsignal(WTERMSIG(status)), loop);
    else if (WEXITSTATUS(status) != 0)
        cg_diags_add(d, CG_SEV_ERROR, file, 0, "reference run ended without "
                     "a result (exit status %d) in loop '%s'",
                     WEXITSTATUS(status), loop);
    else
        v = take(tmp, cols, d);
    fclose(tmp);
    return v;
}
