/* limit.c: a loop's reference run under a time limit.
 *
 * Verifying runs the user's C code natively (and the simulator inside its
 * probes) in this process, where a kernel that loops for hours cannot be
 * interrupted and one that crashes would take the caller with it.  So the
 * run happens in a child process: the parent waits up to the limit, then
 * kills it and reports "reference run exceeded N s".  The child hands back
 * its verification and its messages as JSON in an anonymous temporary
 * file. */
#include "../common/util.h"
#include "flow_internal.h"

#include <jansson.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child: run fn, write {"verdict", "compared", "tile_runs", "rtl",
 * "diags"}
 * to out, exit. */
static void child(cg__flow_verify_fn fn, void *arg, FILE *out)
{
    cg_diags *d = cg_diags_create();
    cg_flow_verification v = {CG_FLOW_NOT_VERIFIED, "", 0, -1, ""};
    fn(arg, &v, d);
    json_t *diags = json_array();
    for (int i = 0; i < cg_diags_size(d); i++) {
        const cg_diag *e = cg_diags_get(d, i);
        json_array_append_new(diags, json_pack("[i, s?, i, s?]", (int)e->sev,
                                               e->file, e->line, e->msg));
    }
    json_t *res = json_pack("{s:i, s:I, s:I, s:s, s:o}", "verdict",
                            (int)v.verdict, "compared", (json_int_t)v.compared,
                            "tile_runs", (json_int_t)v.tile_runs, "rtl",
                            v.rtl, "diags", diags);
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

/* The child's verdict, if it is one. */
static cg_flow_verdict verdict(const json_t *v)
{
    json_int_t k = json_integer_value(v);
    return json_is_integer(v) && k >= CG_FLOW_UNVERIFIED &&
           k <= CG_FLOW_NOT_VERIFIED ? (cg_flow_verdict)k
                                     : CG_FLOW_NOT_VERIFIED;
}

/* Take the child's result: messages into d, the verification into v. */
static void take(FILE *in, cg_flow_verification *v, cg_diags *d)
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
    v->verdict = verdict(json_object_get(res, "verdict"));
    v->compared = json_integer_value(json_object_get(res, "compared"));
    v->tile_runs = res ? json_integer_value(json_object_get(res, "tile_runs"))
                       : -1;
    const char *rtl = json_string_value(json_object_get(res, "rtl"));
    snprintf(v->rtl, sizeof v->rtl, "%s", rtl ? rtl : "");
    json_decref(res);
}

void cg__flow_limited(double limit_s, const char *file, const char *loop,
                      cg__flow_verify_fn fn, void *arg,
                      cg_flow_verification *v, cg_diags *d)
{
    *v = (cg_flow_verification){CG_FLOW_NOT_VERIFIED, "", 0, -1, ""};
    FILE *tmp = tmpfile();
    fflush(stdout);
    fflush(stderr);
    pid_t self = getpid();
    pid_t pid = tmp ? fork() : -1;
    if (pid == 0) {
        /* Die with this process: a worker that SIGINT or SIGTERM ends
         * (cli/bench_jobs.c) cannot stop its reference run itself. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != self)
            _exit(3);
        child(fn, arg, tmp);
    }
    if (pid < 0) {
        cg_diags_add(d, CG_SEV_WARNING, file, 0, "no process to spare for "
                     "the reference run of loop '%s'; it runs without "
                     "--run-timeout", loop);
        if (tmp)
            fclose(tmp);
        fn(arg, v, d);
        return;
    }
    int status = 0;
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
        take(tmp, v, d);
    fclose(tmp);
}
