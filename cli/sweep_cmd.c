/* sweep_cmd.c: `cgramap sweep --slurm DIR [--shards N] [--partition P]
 * [--account A] [--task-time MIN] [--task-mem MB] [--submit] [OPTION]...
 * PATH...` and `cgramap sweep --status DIR` (cli/sweep.h, docs/sweeps.md).
 *
 * The sweep is planned here as each shard will plan it (cli/shard.h), so
 * that the scripts know how many loops the busiest task runs.  Every
 * option that decides a row is written out in the task's command line
 * (cg_cli_flags), so a script runs the same sweep whatever cgramap's
 * defaults become; the task runs in the folder sweep was run in, so the
 * PATHs and the files in the rows read as in a run on one machine. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli/commands.h"
#include "common/util.h"
#include "cli/options.h"
#include "cli/shard.h"
#include "cli/sweep.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The options only sweep has. */
typedef struct sweep_opts {
    const char *dir, *status, *partition, *account;
    int shards;
    double task_min, task_mb;  /* 0: from the effort limits */
    bool submit;
} sweep_opts;

/* Minutes a merge task gets: it reads and prints, no loop is run. */
#define CG_CLI_MERGE_MIN 10
#define CG_CLI_MERGE_MB 1024
/* What a task needs beyond its loops' limits: starting, planning. */
#define CG_CLI_TASK_SLACK_MIN 5

/* ---- options ------------------------------------------------------------- */

/* --NAME V or --NAME=V at argv[*i] for one of sweep's options; the
 * value, or NULL when argv[*i] is another option. */
static const char *take(int argc, char **argv, int *i, const char *name,
                        bool *missing)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

/* One of sweep's own options at argv[*i] into s: 1 taken, 0 not one of
 * them, -1 after a usage message. */
static int sweep_opt(int argc, char **argv, int *i, sweep_opts *s)
{
    static const char *const names[] = {"--slurm", "--status", "--partition",
                                        "--account", "--shards",
                                        "--task-time", "--task-mem", NULL};
    if (!strcmp(argv[*i], "--submit"))
        return s->submit = true;
    for (int k = 0; names[k]; k++) {
        bool missing = false;
        const char *v = take(argc, argv, i, names[k], &missing);
        if (missing) {
            fprintf(stderr, "cgramap sweep: option '%s' needs a value\n",
                    names[k]);
            return -1;
        }
        if (!v)
            continue;
        double x;
        switch (k) {
        case 0: s->dir = v; return 1;
        case 1: s->status = v; return 1;
        case 2:
        case 3:
            /* written into an #SBATCH line: a blank or a quote there would
               split or end it */
            if (!*v || strpbrk(v, " \t\n\"'\\#")) {
                fprintf(stderr, "cgramap sweep: %s '%s' is not a Slurm "
                        "name: give one without blanks or quotes\n",
                        names[k], v);
                return -1;
            }
            *(k == 2 ? &s->partition : &s->account) = v;
            return 1;
        case 4:
            if (cg_cli_whole("cgramap sweep", "--shards", v, 1,
                             CG_CLI_MAX_SHARDS, &x))
                return -1;
            s->shards = (int)x;
            return 1;
        case 5:
            return cg_cli_whole("cgramap sweep", "--task-time", v, 1, 1e6,
                                &s->task_min) ? -1 : 1;
        default:
            return cg_cli_whole("cgramap sweep", "--task-mem", v, 1, 1e9,
                                &s->task_mb) ? -1 : 1;
        }
    }
    return 0;
}

/* Split argv into sweep's options (into s) and the main job's (into
 * rest, "cgramap" first); 0, or 2 after the message. */
static int split_args(int argc, char **argv, sweep_opts *s, char **rest,
                      int *nrest)
{
    memset(s, 0, sizeof *s);
    s->shards = 4;
    *nrest = 0;
    rest[(*nrest)++] = "cgramap";
    for (int i = 1; i < argc; i++) {
        int r = sweep_opt(argc, argv, &i, s);
        if (r < 0)
            return 2;
        if (r == 0)
            rest[(*nrest)++] = argv[i];
    }
    rest[*nrest] = NULL;
    if (!s->status && !s->dir) {
        fprintf(stderr, "cgramap sweep: give --slurm DIR (write the scripts) "
                "or --status DIR (see cgramap sweep --help)\n");
        return 2;
    }
    if (s->status && (s->dir || *nrest > 1 || s->submit)) {
        fprintf(stderr, "cgramap sweep: --status DIR takes nothing else\n");
        return 2;
    }
    return 0;
}

/* ---- the limits of a task ------------------------------------------------ */

/* Seconds one loop may take at most: its IIs' wall-clock caps (the
 * larger one, of small or large DFGs: a loop's size is not known here;
 * or the loop's cap), then its reference run. */
static double loop_bound_s(const cg_cli_opts *o)
{
    const cg_map_params *m = &o->map;
    int top = m->max_ii > 0 ? m->max_ii : CG_MAP_MAX_II; /* 0: MII-led */
    int iis = top - (m->min_ii > 0 ? m->min_ii : 1) + 1;
    double cap = m->timeout_s > m->large_timeout_s ? m->timeout_s
                                                   : m->large_timeout_s;
    double map = cap * iis;
    if (m->time_limit_s > 0 && m->time_limit_s < map)
        map = m->time_limit_s;
    return map + o->run_limit_s;
}

/* Megabytes a worker may use: a base for LLVM, the MRRG and the ILP, and
 * the SAT model --sat-literals allows (about 100 bytes a literal with
 * CaDiCaL's clauses and watches); 8 GiB when SAT models are unbounded. */
static double worker_mb(const cg_cli_opts *o)
{
    long lits = o->map.sat_max_literals;
    return lits > 0 ? 1024 + ceil(lits * 100.0 / (1 << 20)) : 8192;
}

/* The busiest shard's loops. */
static int busiest(const cg_cli_plan *p, int n)
{
    int most = 0;
    for (int s = 1; s <= n; s++) {
        int k = 0;
        for (int u = 0; u < p->nu; u++)
            k += p->u[u].shard == s;
        most = k > most ? k : most;
    }
    return most;
}

/* ---- the scripts --------------------------------------------------------- */

/* s quoted for sh: in single quotes, each quote as '\''. */
static void sh_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

typedef struct script {
    const sweep_opts *s;
    const char *dir, *cwd, *exe;  /* absolute */
    char **argv;                  /* the shard's flags, "cgramap" first */
    const cg_cli_opts *o;
    const cg_cli_cmp_opts *c;
    int minutes, mb;
} script;

/* The shebang, what the script is, and the #SBATCH lines both scripts
 * have (sbatch reads them up to the first command). */
static void sbatch_head(FILE *f, const script *x, const char *what,
                        const char *name, int minutes, int mb)
{
    fprintf(f, "#!/bin/sh\n# Written by cgramap sweep (docs/sweeps.md): "
            "%s.\n#SBATCH --job-name=%s\n", what, name);
    fprintf(f, "#SBATCH --time=%d:%02d:00\n#SBATCH --mem=%dM\n", minutes / 60,
            minutes % 60, mb);
    fprintf(f, "#SBATCH --chdir=%s\n", x->cwd);
    if (x->s->partition)
        fprintf(f, "#SBATCH --partition=%s\n", x->s->partition);
    if (x->s->account)
        fprintf(f, "#SBATCH --account=%s\n", x->s->account);
}

static int write_shards(void *arg, FILE *f)
{
    const script *x = arg;
    sbatch_head(f, x, "one array task per shard of the sweep",
                "cgramap-sweep", x->minutes, x->mb);
    fprintf(f, "#SBATCH --array=1-%d\n#SBATCH --cpus-per-task=%d\n"
            "#SBATCH --output=%s/logs/shard-%%a.out\ndir=", x->s->shards,
            x->o->jobs, x->dir);
    sh_quote(f, x->dir);
    fputs("\ni=$SLURM_ARRAY_TASK_ID\npart=\"$dir/parts/shard-$i.json\"\n"
          "rm -f \"$part\" \"$dir/parts/shard-$i.failed\"\n", f);
    sh_quote(f, x->exe);
    fprintf(f, " --shard \"$i/%d\" --json \"$part\" -j %d", x->s->shards,
            x->o->jobs);
    if (x->o->mapping_dir) {
        fputs(" --mapping-dir ", f);
        sh_quote(f, x->o->mapping_dir);
    }
    if (x->o->rtl_cache) { /* where the models are, not what a row says */
        fputs(" --rtl-cache ", f);
        sh_quote(f, x->o->rtl_cache);
    }
    bool value = false; /* every option of the flags takes one */
    for (int k = 1; x->argv[k]; k++) {
        fputs(value ? " " : " \\\n    ", f);
        sh_quote(f, x->argv[k]);
        value = !value && !strncmp(x->argv[k], "--", 2);
    }
    fputs("\nrc=$?\n# 1: a loop did not map or verify; its row is in the "
          "part\nif [ \"$rc\" -le 1 ] && [ -s \"$part\" ]; then exit 0; fi\n"
          "echo \"$rc\" > \"$dir/parts/shard-$i.failed\"\nexit \"$rc\"\n", f);
    return cg_write_end(f, true);
}

static int write_merge(void *arg, FILE *f)
{
    const script *x = arg;
    sbatch_head(f, x, "the parts into what one run of the sweep prints "
                "and writes", "cgramap-merge", CG_CLI_MERGE_MIN,
                CG_CLI_MERGE_MB);
    fprintf(f, "#SBATCH --output=%s/merged.txt\n"
            "#SBATCH --error=%s/logs/merge.err\ndir=", x->dir, x->dir);
    sh_quote(f, x->dir);
    fputs("\nexec ", f);
    sh_quote(f, x->exe);
    fputs(" merge", f);
    static const char *const opt[] = {"--json", "--csv", "--report"};
    const char *v[] = {x->o->json, x->o->csv, x->c->report_dir};
    for (int k = 0; k < 3; k++)
        if (v[k]) {
            fprintf(f, " %s ", opt[k]);
            sh_quote(f, v[k]);
        }
    for (int s = 1; s <= x->s->shards; s++)
        fprintf(f, " \\\n    \"$dir/parts/shard-%d.json\"", s);
    fputc('\n', f);
    return cg_write_end(f, true);
}

/* DIR (sub "") or DIR/sub made when missing; 0 (*made whether it was
 * made), or -1 after the message. */
static int make_sub(const char *dir, const char *sub, bool *made)
{
    char p[4096];
    struct stat st;
    snprintf(p, sizeof p, "%s%s", dir, sub);
    *made = false;
    if (stat(p, &st) == 0)
        return 0;
    if (mkdir(p, 0777) != 0) {
        fprintf(stderr, "%s: error: cannot create this folder for "
                "--slurm; create it or check its parent\n", p);
        return -1;
    }
    *made = true;
    return 0;
}

/* The folders a sweep writes: made[] says which of DIR, DIR/parts and
 * DIR/logs this run made, so that a run that writes no sweep takes them
 * away again. */
static const char *const sweep_subs[] = {"", "/parts", "/logs"};

/* DIR/parts and DIR/logs; 0, or -1 after the message. */
static int make_subs(const char *dir, bool *made)
{
    return make_sub(dir, sweep_subs[1], &made[1]) ||
                   make_sub(dir, sweep_subs[2], &made[2])
               ? -1
               : 0;
}

/* Remove the folders of made[] (empty: nothing was written in them). */
static void unmake(const char *dir, const bool *made)
{
    for (int k = 2; k >= 0; k--) {
        char p[4096];
        snprintf(p, sizeof p, "%s%s", dir, sweep_subs[k]);
        if (made[k])
            rmdir(p);
    }
}

static int write_scripts(const script *x)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/sweep.sbatch", x->dir);
    int rc = cg_cli_write_file(p, write_shards, (void *)x);
    snprintf(p, sizeof p, "%s/merge.sbatch", x->dir);
    rc |= cg_cli_write_file(p, write_merge, (void *)x);
    return rc ? -1 : 0;
}

/* ---- submitting ---------------------------------------------------------- */

/* Run `sbatch --parsable ARGS` and keep the job id; 0, or -1 said. */
static int sbatch(const char *args, char *id, size_t n)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "sbatch --parsable %s", args);
    FILE *f = popen(cmd, "r");
    id[0] = '\0';
    if (f && fgets(id, (int)n, f))
        id[strcspn(id, ";\n")] = '\0'; /* "ID" or "ID;CLUSTER" */
    int st = f ? pclose(f) : -1;
    if (st != 0 || !id[0]) {
        /* the exit status, not the wait status (256 for exit 1) */
        int code = st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 +
                   (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
        fprintf(stderr, "cgramap sweep: `%s` failed (exit status %d); is "
                "Slurm's sbatch here (Debian: slurm-client)?\n", cmd, code);
        return -1;
    }
    return 0;
}

/* The shards to submit, "2,4" (none: ""); *queued: the shard jobs still
 * in the queue, "afterok:ID:ID" (none: ""). */
static void to_submit(const char *dir, const json_t *state, int n,
                      char *list, char *queued, size_t cap)
{
    const json_t *jobs = json_object_get(state, "jobs");
    cg_cli_shard_state *st = calloc((size_t)n + 1, sizeof *st);
    char **why = calloc((size_t)n + 1, sizeof *why);
    list[0] = queued[0] = '\0';
    if (!st || !why) {
        free(st);
        free(why);
        return;
    }
    cg_cli_sweep_states(dir, jobs, n, st, why);
    for (int s = 1; s <= n; s++) {
        if (st[s] != CG_CLI_SHARD_DONE && st[s] != CG_CLI_SHARD_RUNNING)
            snprintf(list + strlen(list), cap - strlen(list), "%s%d",
                     list[0] ? "," : "", s);
        free(why[s]);
    }
    size_t i;
    json_t *j;
    json_array_foreach(jobs, i, j) {
        const char *id = json_string_value(json_object_get(j, "id"));
        if (!strcmp(json_string_value(json_object_get(j, "kind")), "shards")
            && cg_cli_sweep_job_queued(id))
            snprintf(queued + strlen(queued), cap - strlen(queued), ":%s",
                     id);
    }
    free(st);
    free(why);
}

static void state_add(json_t *state, const char *kind, const char *id)
{
    json_array_append_new(json_object_get(state, "jobs"),
                          json_pack("{s:s, s:s}", "kind", kind, "id", id));
}

/* A merge job still waiting for shards of an earlier submission (one of
 * them failed, so it would wait for ever) is cancelled. */
static void cancel_old_merge(const json_t *state)
{
    size_t i;
    json_t *j;
    json_array_foreach(json_object_get(state, "jobs"), i, j) {
        const char *id = json_string_value(json_object_get(j, "id"));
        if (!strcmp(json_string_value(json_object_get(j, "kind")), "merge")
            && cg_cli_sweep_job_queued(id)) {
            char cmd[128];
            snprintf(cmd, sizeof cmd, "scancel '%s'", id);
            if (system(cmd) == 0)
                printf("cancelled the earlier merge job %s\n", id);
        }
    }
}

/* Submit the missing shards and a merge after them; 0, or 1 said. */
static int submit(const script *x, json_t *state)
{
    int n = x->s->shards;
    /* args holds a list or the queued ids, the folder and the words */
    char list[8192], queued[4096], id[64], args[8192 + 4096 + 64];
    to_submit(x->dir, state, n, list, queued, sizeof queued);
    cancel_old_merge(state);
    if (strlen(x->dir) > 4000) {
        fprintf(stderr, "%s: error: the sweep folder's name is too long for "
                "sbatch's command line; use a shorter path\n", x->dir);
        return 1;
    }
    if (list[0]) {
        snprintf(args, sizeof args, "--array=%s '%s/sweep.sbatch'", list,
                 x->dir);
        if (sbatch(args, id, sizeof id) != 0)
            return 1;
        state_add(state, "shards", id);
        printf("shards %s: job %s\n", list, id);
        snprintf(queued + strlen(queued), sizeof queued - strlen(queued),
                 ":%s", id);
    } else
        printf("shards: every one done or queued; none submitted\n");
    if (queued[0])
        snprintf(args, sizeof args, "--dependency=afterok%s '%s/merge.sbatch'",
                 queued, x->dir);
    else
        snprintf(args, sizeof args, "'%s/merge.sbatch'", x->dir);
    if (sbatch(args, id, sizeof id) != 0)
        return 1;
    state_add(state, "merge", id);
    printf("merge: job %s%s\n", id, queued[0] ? " (after the shards)" : "");
    return 0;
}

/* ---- the command --------------------------------------------------------- */

static int state_writer(void *arg, FILE *f)
{
    bool built = json_dumpf(arg, f, JSON_INDENT(2)) == 0;
    if (built)
        fputc('\n', f);
    return cg_write_end(f, built);
}

/* The sweep's state: the one there when it has this shard count, else a
 * new one (a new split: the old parts are of another plan). */
static json_t *state_of(const char *dir, int n)
{
    json_t *st = cg_cli_sweep_state_read(dir, false);
    if (st && json_integer_value(json_object_get(st, "shards")) == n)
        return st;
    json_decref(st);
    return json_pack("{s:i, s:[]}", "shards", n, "jobs");
}

static int sweep_write(const sweep_opts *s, char **rest, int nrest,
                       const char *exe, const char *cwd)
{
    cg_cli_opts o;
    cg_cli_cmp_opts c;
    /* DIR first: --report may be in it; a sweep not written leaves no
       folder it made */
    bool made[3] = {false, false, false};
    int at, rc = make_sub(s->dir, "", &made[0]) ? 1
                 : cg_cli_bench_parse(nrest, rest, &o, &c, &at);
    if (!rc && make_subs(s->dir, made) != 0)
        rc = 1;
    if (rc) {
        unmake(s->dir, made);
        return rc;
    }
    o.nshards = s->shards;
    cg_cli_plan p;
    char dir[PATH_MAX], json[PATH_MAX + 16], csv[PATH_MAX + 16];
    if (!realpath(s->dir, dir) ||
        cg_cli_plan_make(&p, &c, &o, rest + at, nrest - at) != 0) {
        unmake(s->dir, made);
        return 1;
    }
    /* a path not read (its error above) or nothing to map: no scripts,
       which would sweep less than was asked, or nothing */
    if (p.scan_failed || p.nu == 0) {
        fprintf(stderr, "cgramap sweep: %s; no sweep written to %s\n",
                p.scan_failed ? "a PATH could not be read (above)"
                              : "no loops found under the PATHs given",
                s->dir);
        cg_cli_plan_free(&p);
        unmake(s->dir, made);
        return 1;
    }
    snprintf(json, sizeof json, "%s/merged.json", dir);
    snprintf(csv, sizeof csv, "%s/merged.csv", dir);
    o.json = o.json ? o.json : json;
    o.csv = o.csv ? o.csv : csv;
    int most = busiest(&p, s->shards), argc;
    script x = {s, dir, cwd, exe, NULL, &o, &c, 0, 0};
    /* the busiest shard's loops, -j at a time: ceil(most / jobs) in a
       row at worst (one loop is not shared by two workers, so dividing
       most by jobs once gave a task fewer minutes than one loop may take) */
    int rounds = (most + o.jobs - 1) / o.jobs;
    x.minutes = s->task_min ? (int)s->task_min
                            : (int)ceil(rounds * loop_bound_s(&o) / 60)
                                  + CG_CLI_TASK_SLACK_MIN;
    x.mb = s->task_mb ? (int)s->task_mb : (int)(worker_mb(&o) * o.jobs);
    json_t *flags = cg_cli_flags(&o, &c, rest + at, nrest - at);
    x.argv = cg_cli_flags_argv(flags, &argc);
    json_t *state = state_of(dir, s->shards);
    char sp[PATH_MAX + 16];
    snprintf(sp, sizeof sp, "%s/sweep.state", dir);
    rc = write_scripts(&x) != 0;
    printf("%s/sweep.sbatch: %d shards of %d loops, at most %d a task; "
           "%d:%02d:00 and %d MB a task\n", dir, s->shards, p.nu, most,
           x.minutes / 60, x.minutes % 60, x.mb);
    if (!rc && s->submit)
        rc = submit(&x, state);
    if (cg_cli_write_file(sp, state_writer, state) != 0)
        rc = 1;
    json_decref(state);
    cg_cli_flags_argv_free(x.argv);
    json_decref(flags);
    cg_cli_plan_free(&p);
    return rc;
}

static void sweep_help(void)
{
    printf(
"Usage: cgramap sweep --slurm DIR [--shards N] [--partition P] [--account A]\n"
"                     [--task-time MIN] [--task-mem MB] [--submit]\n"
"                     [OPTION]... PATH...\n"
"       cgramap sweep --status DIR\n"
"Write DIR/sweep.sbatch (a Slurm job array, one task per shard of the main\n"
"job with OPTION... PATH...) and DIR/merge.sbatch (cgramap merge of the\n"
"parts, after them); --submit submits the shards that have no part yet and\n"
"the merge.  --status says which shards are done, running, failed, missing.\n"
"      --shards N        shards (default 4)\n"
"      --task-time MIN   minutes a task gets (default: from --timeout,\n"
"                        --max-ii, --time-limit, --run-timeout and -j)\n"
"      --task-mem MB     memory a task gets (default: from --sat-literals\n"
"                        and -j)\n"
"--json, --csv and --report are the merge's (default DIR/merged.json,\n"
"DIR/merged.csv); the table goes to DIR/merged.txt.  See docs/sweeps.md.\n");
}

int cg_cli_sweep(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            sweep_help();
            return 0;
        }
    sweep_opts s;
    char **rest = calloc((size_t)argc + 8, sizeof *rest);
    int nrest, rc = rest ? split_args(argc, argv, &s, rest, &nrest) : 1;
    char exe[PATH_MAX], cwd[PATH_MAX];
    if (rc == 0 && s.status)
        rc = cg_cli_sweep_status(s.status);
    else if (rc == 0 && (!realpath("/proc/self/exe", exe) ||
                         !getcwd(cwd, sizeof cwd))) {
        fprintf(stderr, "cgramap sweep: cannot find cgramap's own path or "
                "the current folder\n");
        rc = 1;
    } else if (rc == 0)
        rc = sweep_write(&s, rest, nrest, exe, cwd);
    free(rest);
    return rc;
}
