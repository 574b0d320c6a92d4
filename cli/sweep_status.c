/* sweep_status.c: what became of each shard of a Slurm sweep.  The folder
 * says what is final (a part: done; a .failed file, the exit status the
 * task script wrote: failed); squeue says what still waits or runs;
 * sacct, where the cluster keeps accounts, says which tasks Slurm itself
 * ended (time or memory limit, cancelled) before the script could write
 * anything.  A task that ran (its log is there) and left no part is
 * failed even without sacct. */
#include "cli/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

json_t *cg_cli_sweep_state_read(const char *dir, bool say)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/sweep.state", dir);
    json_error_t e;
    json_t *s = json_load_file(path, 0, &e);
    if (!s && say)
        fprintf(stderr, "%s: error: no sweep here (%s); write one with "
                "cgramap sweep --slurm %s [OPTION]... PATH...\n", path,
                e.text, dir);
    return s;
}

/* Is id one of the sweep's shard jobs? */
static bool shard_job(const json_t *jobs, const char *id)
{
    size_t i;
    json_t *j;
    json_array_foreach(jobs, i, j)
        if (!strcmp(json_string_value(json_object_get(j, "kind")), "shards")
            && !strcmp(json_string_value(json_object_get(j, "id")), id))
            return true;
    return false;
}

/* Lines "JOB TASK STATE" of cmd (squeue or sacct, whose output is made
 * to look alike) for the sweep's shard jobs into state/why. */
static void ask(const char *cmd, const json_t *jobs, int n,
                cg_cli_shard_state *state, char **why, bool queue)
{
    FILE *f = popen(cmd, "r");
    if (!f)
        return;
    char line[512], job[64], st[64];
    int task;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%63[^_| ]%*[_| ]%d%*[| ]%63s", job, &task, st) == 3
            && task >= 1 && task <= n && shard_job(jobs, job) &&
            state[task] != CG_CLI_SHARD_DONE &&
            (queue || state[task] != CG_CLI_SHARD_RUNNING) &&
            (queue || strcmp(st, "COMPLETED") != 0)) {
            state[task] = queue ? CG_CLI_SHARD_RUNNING : CG_CLI_SHARD_FAILED;
            free(why[task]);
            size_t m = strlen(job) + strlen(st) + 32;
            why[task] = malloc(m);
            snprintf(why[task], m, "job %s_%d %s", job, task, st);
        }
    pclose(f);
}

/* dir/sub/shard-S.ext is there, with something in it when full. */
static bool exists(const char *dir, const char *sub, int s, const char *ext,
                   bool full)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s/shard-%d.%s", dir, sub, s, ext);
    return stat(path, &st) == 0 && (!full || st.st_size > 0);
}

/* Why shard s failed, from what its task wrote: "exit status N" from its
 * .failed file, or that its log has no part (malloc'd; NULL when none of
 * them says). */
static char *failed_why(const char *dir, int s)
{
    char path[4096], line[64] = "", *why = NULL;
    snprintf(path, sizeof path, "%s/parts/shard-%d.failed", dir, s);
    FILE *f = fopen(path, "r");
    if (f) {
        int code;
        if (fgets(line, sizeof line, f) && sscanf(line, "%d", &code) == 1 &&
            (why = malloc(64))) {
            int k = snprintf(why, 64, "exit status %d", code);
            if (code > 128) /* the shell's 128 + signal */
                snprintf(why + k, (size_t)(64 - k), ": signal %d",
                         code - 128);
        }
        fclose(f);
    } else if (exists(dir, "logs", s, "out", false) && (why = malloc(64))) {
        snprintf(why, 64, "no part; see logs/shard-%d.out", s);
    }
    return why;
}

/* The shard jobs' ids joined by commas, for sacct -j. */
static void job_ids(const json_t *jobs, char *buf, size_t n)
{
    size_t i, at = 0;
    json_t *j;
    buf[0] = '\0';
    json_array_foreach(jobs, i, j)
        if (at < n && !strcmp(json_string_value(json_object_get(j, "kind")),
                              "shards"))
            at += (size_t)snprintf(buf + at, n - at, "%s%s", at ? "," : "",
                                   json_string_value(json_object_get(j,
                                                                     "id")));
}

void cg_cli_sweep_states(const char *dir, const json_t *jobs, int n,
                         cg_cli_shard_state *state, char **why)
{
    for (int s = 1; s <= n; s++) {
        state[s] = exists(dir, "parts", s, "json", true) ? CG_CLI_SHARD_DONE
                   : exists(dir, "parts", s, "failed", false)
                       ? CG_CLI_SHARD_FAILED : CG_CLI_SHARD_MISSING;
        why[s] = NULL;
    }
    char ids[2048], cmd[2300];
    job_ids(jobs, ids, sizeof ids);
    if (ids[0]) {
        ask("squeue -h -r --me -o '%F %K %T' 2>/dev/null", jobs, n, state,
            why, true);
        snprintf(cmd, sizeof cmd, "sacct -n -X -P -j %s -o JobID,State "
                 "2>/dev/null", ids);
        ask(cmd, jobs, n, state, why, false);
    }
    for (int s = 1; s <= n; s++) {
        if (state[s] == CG_CLI_SHARD_MISSING &&
            exists(dir, "logs", s, "out", false))
            state[s] = CG_CLI_SHARD_FAILED; /* ran, left no part */
        if (state[s] == CG_CLI_SHARD_FAILED && !why[s])
            why[s] = failed_why(dir, s); /* sacct said nothing */
    }
}

bool cg_cli_sweep_job_queued(const char *id)
{
    char cmd[256], line[64];
    snprintf(cmd, sizeof cmd, "squeue -h -j '%s' -o %%T 2>/dev/null", id);
    FILE *f = popen(cmd, "r");
    bool queued = f && fgets(line, sizeof line, f) != NULL;
    if (f)
        pclose(f);
    return queued;
}

int cg_cli_sweep_status(const char *dir)
{
    json_t *st = cg_cli_sweep_state_read(dir, true);
    if (!st)
        return 1;
    int n = (int)json_integer_value(json_object_get(st, "shards"));
    cg_cli_shard_state *state = calloc((size_t)n + 1, sizeof *state);
    char **why = calloc((size_t)n + 1, sizeof *why);
    if (!state || !why || n < 1) {
        fprintf(stderr, "%s/sweep.state: error: no shard count in it; write "
                "the sweep again\n", dir);
        free(state);
        free(why);
        json_decref(st);
        return 1;
    }
    cg_cli_sweep_states(dir, json_object_get(st, "jobs"), n, state, why);
    static const char *const names[] = {"missing", "done", "running",
                                        "failed"};
    int count[4] = {0};
    for (int s = 1; s <= n; s++)
        count[state[s]]++;
    printf("%s: %d shard%s: %d done, %d running, %d failed, %d missing\n",
           dir, n, n == 1 ? "" : "s", count[CG_CLI_SHARD_DONE],
           count[CG_CLI_SHARD_RUNNING], count[CG_CLI_SHARD_FAILED],
           count[CG_CLI_SHARD_MISSING]);
    for (int s = 1; s <= n; s++) {
        if (state[s] != CG_CLI_SHARD_DONE)
            printf("shard %d/%d: %s%s%s%s\n", s, n, names[state[s]],
                   why[s] ? " (" : "", why[s] ? why[s] : "",
                   why[s] ? ")" : "");
        free(why[s]);
    }
    char merged[4096];
    struct stat sb;
    snprintf(merged, sizeof merged, "%s/merged.txt", dir);
    printf("merged: %s\n", stat(merged, &sb) == 0 && sb.st_size > 0
                               ? merged : "not yet");
    int rc = count[CG_CLI_SHARD_DONE] == n ? 0 : 1;
    free(state);
    free(why);
    json_decref(st);
    return rc;
}
