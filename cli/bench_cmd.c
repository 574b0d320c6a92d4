/* bench_cmd.c: the main job, `cgramap [OPTION]... PATH...`: every loop
 * found under PATH (bench_scan.c) is extracted or read, mapped, checked and
 * simulated (bench_loop.c) in worker processes (bench_jobs.c), and printed
 * as one row per loop in a fixed order, with optional JSON and CSV reports
 * (bench_report.c).  One loop failing never stops the others.  Several
 * --arch, a --param sweep or --report: cli/compare.c runs it per array. */
#include "cli/bench.h"
#include "cli/commands.h"
#include "cli/compare.h"
#include "cli/options.h"
#include "cli/shard.h"

#include "arch/arch.h"
#include "common/diag.h"
#include "xml/xml.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct report {
    const cg_cli_jobs *jobs;
    json_t *all;       /* every record, in order */
    int failed;
    cg_cli_progress *progress; /* NULL unless stderr is a terminal */
} report;

static void on_done(void *arg, int i, json_t *recs)
{
    report *r = arg;
    cg_cli_progress_clear(r->progress); /* the rows go where it was */
    size_t k;
    json_t *rec;
    json_array_foreach(recs, k, rec) {
        cg_cli_row(rec, stdout, stderr);
        r->failed |= !cg_cli_record_ok(rec);
    }
    json_array_extend(r->all, recs);
    json_decref(recs);
    fflush(stdout);
    cg_cli_progress_done(r->progress, i + 1);
    if (i + 1 < r->jobs->n)
        cg_cli_progress_draw(r->progress);
}

/* The last line of a run a signal stopped: how much of it is missing
 * (a file not finished has one record, "interrupted"). */
static void stopped_note(const report *r, int sig)
{
    size_t k;
    int missed = 0;
    json_t *rec;
    json_array_foreach(r->all, k, rec)
        missed += strcmp(json_string_value(json_object_get(rec, "status")),
                         "interrupted") == 0;
    fprintf(stderr, "cgramap: stopped by %s: %d of %d files finished; the "
            "rows of the other %d say 'interrupted', and so do the "
            "reports\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
            r->jobs->n - missed, r->jobs->n, missed);
}

/* Scan, run, report; the exit status. */
static int bench_run(const cg_netlist *nl, const cg_cli_opts *o,
                     char *const *paths, int npaths)
{
    cg_cli_jobs jobs = {0};
    int bad = 0;
    for (int i = 0; i < npaths; i++)
        bad |= cg_cli_scan(paths[i], &jobs) != 0;
    report r = {&jobs, json_array(), bad, NULL};
    if (!r.all) {
        fprintf(stderr, "cgramap: out of memory\n");
        cg_cli_jobs_free(&jobs);
        return 1;
    }
    cg_cli_opts ro = *o;
    if (!o->no_progress && isatty(2) == 1)
        ro.progress = r.progress = cg_cli_progress_create(&jobs, stderr);
    cg_cli_row_header(stdout);
    fflush(stdout);
    int sig = cg_cli_run_jobs(&jobs, nl, &ro, on_done, &r);
    cg_cli_progress_clear(r.progress);
    cg_cli_progress_destroy(r.progress);
    if (sig < 0) { /* out of memory, said */
        r.failed = 1;
        sig = 0;
    }
    if (sig)
        stopped_note(&r, sig);
    if (jobs.n == 0 && !bad) {
        fprintf(stderr, "cgramap: no tagged .c file, benchmark folder or "
                ".dot file found\n");
        r.failed = 1;
    }
    if (o->json && cg_cli_write_json(o->json, r.all) != 0)
        r.failed = 1;
    if (o->csv && cg_cli_write_csv(o->csv, r.all) != 0)
        r.failed = 1;
    json_decref(r.all);
    cg_cli_jobs_free(&jobs);
    return sig ? 128 + sig : r.failed ? 1 : 0; /* the shell's 130, 143 */
}

/* A whole number in 1..max for opt. */
static int bench_int(const char *opt, const char *v, int max, int *out)
{
    double x;
    if (cg_cli_whole("cgramap", opt, v, 1, max, &x))
        return -1;
    *out = (int)x;
    return 0;
}

static int bench_opt(int c, cg_cli_opts *o, cg_cli_cmp_opts *co, char **argv)
{
    double x;
    switch (c) {
    case 'a':
        o->arch = optarg;
        return cg_cli_cmp_add_arch(co, optarg) ? 2 : 0;
    case 'P': return cg_cli_cmp_add_param(co, optarg) ? 2 : 0;
    case 'O':
        co->report_dir = optarg;
        return cg_cli_name("cgramap", "--report", optarg) ? 2 : 0;
    case 603: co->area = true; return 0;
    case 'H':
        return cg_cli_shard_parse("cgramap", optarg, &o->shard,
                                  &o->nshards) ? 2 : 0;
    case 't': o->templates = optarg; return 0;
    case 'T':
        if (cg_cli_seconds("cgramap", "--timeout", optarg, &x)) return 2;
        o->map.timeout_s = o->map.large_timeout_s = x; /* every size */
        return 0;
    case 'I':
        return bench_int("--max-ii", optarg, CG_MAP_MAX_II, &o->map.max_ii)
                   ? 2 : 0;
    case 'Q': o->no_progress = true; return 0;
    case 'S':
        if (cg_map_solver_parse(optarg, &o->map.solver) == 0)
            return 0;
        fprintf(stderr, "cgramap: Invalid value for --solver: %s (glpk or "
                "cbc)\n", optarg);
        return 2;
    case 'j': return bench_int("-j", optarg, 64, &o->jobs) ? 2 : 0;
    case 'J':
    case 'C':
        *(c == 'J' ? &o->json : &o->csv) = optarg;
        return cg_cli_path("cgramap", c == 'J' ? "--json" : "--csv",
                           optarg) ? 2 : 0;
    case 'M':
        o->mapping_dir = optarg;
        return cg_cli_name("cgramap", "--mapping-dir", optarg) ? 2 : 0;
    case 600: o->rtl = true; return 0;
    case 601:
        o->rtl = true;
        if (!strcmp(optarg, "verilator") || !strcmp(optarg, "iverilog")) {
            o->rtl_tool = optarg[0] == 'i' ? CG_COSIM_IVERILOG
                                           : CG_COSIM_VERILATOR;
            return 0;
        }
        fprintf(stderr, "cgramap: --rtl-sim takes verilator or iverilog, "
                "not '%s'\n", optarg);
        return 2;
    case 602:
        o->rtl = true;
        o->rtl_cache = optarg;
        return cg_cli_name("cgramap", "--rtl-cache", optarg) ? 2 : 0;
    case 'R':
        return cg_cli_seconds("cgramap", "--run-timeout", optarg,
                              &o->run_limit_s) ? 2 : 0;
    case 's': return cg_cli_sym_add(&o->syms, optarg, "cgramap") ? 2 : 0;
    case 'L':
        if (!strcmp(optarg, "auto") || !strcmp(optarg, "dfg") ||
            !strcmp(optarg, "array")) {
            o->loop_control = !strcmp(optarg, "auto") ? CG_CLI_LOOP_AUTO
                              : !strcmp(optarg, "dfg") ? CG_CLI_LOOP_DFG
                                                       : CG_CLI_LOOP_ARRAY;
            return 0;
        }
        fprintf(stderr, "cgramap: Invalid value for --loop-control: %s "
                "(auto, dfg or array)\n", optarg);
        return 2;
    case CG_CLI_OPT_SEED:
    case CG_CLI_OPT_STEPS:
    case CG_CLI_OPT_NODES:
    case CG_CLI_OPT_TIME_LIMIT:
    case CG_CLI_OPT_II:
    case CG_CLI_OPT_MAPPER:
    case CG_CLI_OPT_REPAIR_TRIES:
    case CG_CLI_OPT_CLUSTER_ABOVE:
    case CG_CLI_OPT_MOVES:
    case CG_CLI_OPT_CONFLICTS:
    case CG_CLI_OPT_HORIZON:
    case CG_CLI_OPT_SAT_LITERALS:
        return cg_cli_effort_opt("cgramap", c, optarg, &o->map) ? 2 : 0;
    case ':':
        fprintf(stderr, "cgramap: option '%s' needs a value\n",
                argv[optind - 1]);
        return 2;
    default:
        fprintf(stderr, "cgramap: unknown option '%s' (see cgramap --help)\n",
                cg_cli_bad_opt(argv, (char[3]){0}));
        return 2;
    }
}

/* Do paths a and b name one file (the same string, or the same existing
 * file under two names)? */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return !strcmp(a, b) || (stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
                             sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
}

static int make_dir(const char *dir, const char *opt)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        fprintf(stderr, "%s: error: %s needs a folder and this is a file; "
                "give a folder's path\n", dir, opt);
        return -1;
    }
    if (mkdir(dir, 0777) == 0)
        return 0;
    fprintf(stderr, "%s: error: cannot create this folder for %s; create it "
            "or check its parent\n", dir, opt);
    return -1;
}

/* A shard writes its part with --json; the CSV and the report are the
 * merge's, from every part.  0, or 2 after the message. */
static int shard_check(const cg_cli_opts *o, const cg_cli_cmp_opts *co)
{
    if (!o->nshards)
        return 0;
    const char *merged = o->csv ? "--csv" : co->report_dir ? "--report"
                                                           : NULL;
    if (merged) {
        fprintf(stderr, "cgramap: %s is written by cgramap merge from every "
                "shard's part, not by one shard: give it to merge\n", merged);
        return 2;
    }
    if (co->area) {
        fprintf(stderr, "cgramap: --area belongs to a comparison run on one "
                "machine, not to a shard: cgramap area --arch A.xml gives "
                "an array's area\n");
        return 2;
    }
    if (!o->json) {
        fprintf(stderr, "cgramap: --shard %d/%d writes its part with --json "
                "PART.json: give it\n", o->shard, o->nshards);
        return 2;
    }
    return 0;
}

int cg_cli_bench_parse(int argc, char **argv, cg_cli_opts *o,
                       cg_cli_cmp_opts *co, int *paths_at)
{
    static const struct option opts[] = {
        {"arch", required_argument, NULL, 'a'},
        {"templates", required_argument, NULL, 't'},
        {"timeout", required_argument, NULL, 'T'},
        {"max-ii", required_argument, NULL, 'I'},
        {"solver", required_argument, NULL, 'S'},
        {"jobs", required_argument, NULL, 'j'},
        {"json", required_argument, NULL, 'J'},
        {"csv", required_argument, NULL, 'C'},
        {"mapping-dir", required_argument, NULL, 'M'},
        {"run-timeout", required_argument, NULL, 'R'},
        {"rtl", no_argument, NULL, 600},
        {"rtl-sim", required_argument, NULL, 601},
        {"rtl-cache", required_argument, NULL, 602},
        {"sym", required_argument, NULL, 's'},
        {"loop-control", required_argument, NULL, 'L'},
        {"param", required_argument, NULL, 'P'},
        {"report", required_argument, NULL, 'O'},
        {"area", no_argument, NULL, 603},
        {"no-progress", no_argument, NULL, 'Q'},
        {"shard", required_argument, NULL, 'H'},
        CG_CLI_EFFORT_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    memset(co, 0, sizeof *co);
    cg_map_params_init(&o->map);
    o->jobs = 1;
    o->run_limit_s = CG_FLOW_RUN_LIMIT_S;
    cg_cli_rtl_cache(o->rtl_cache_dflt, sizeof o->rtl_cache_dflt);
    optind = 1;
    opterr = 0;
    int c, rc;
    bool abbrev = false;
    while ((c = cg_cli_getopt(argc, argv, ":j:", opts, false, "cgramap",
                              &abbrev)) != -1)
        if ((rc = bench_opt(c, o, co, argv)) != 0)
            return rc;
    if (abbrev)
        return 2;
    if (optind == argc) {
        fprintf(stderr, "cgramap: give at least one PATH (see cgramap"
                " --help)\n");
        return 2;
    }
    *paths_at = optind;
    if (cg_cli_cmp_check(co) != 0 || shard_check(o, co) != 0)
        return 2;
    if (o->json && o->csv && same_file(o->json, o->csv)) {
        fprintf(stderr, "cgramap: --json and --csv name the same file "
                "'%s'; give each its own\n", o->csv);
        return 2;
    }
    /* Found now, not after every loop has run. */
    if ((o->json && cg_cli_check_writable(o->json, "--json") < 0) ||
        (o->csv && cg_cli_check_writable(o->csv, "--csv") < 0))
        return 1;
    /* Like -o, the folder is made when missing (its parent must exist);
     * failing here, before any loop runs, loses no work. */
    if ((o->mapping_dir && make_dir(o->mapping_dir, "--mapping-dir")) ||
        (co->report_dir && make_dir(co->report_dir, "--report")))
        return 1;
    return 0;
}

/* `cgramap [OPTION]... PATH...` */
int cg_cli_main_job(int argc, char **argv)
{
    cg_cli_opts o;
    cg_cli_cmp_opts co;
    int at;
    int rc = cg_cli_bench_parse(argc, argv, &o, &co, &at);
    if (rc)
        return rc;
    if (o.nshards)
        return cg_cli_shard_run(&co, &o, argv + at, argc - at);
    if (cg_cli_cmp_wanted(&co))
        return cg_cli_compare(&co, &o, argv + at, argc - at);
    cg_diags *d = cg_diags_create();
    if (!d) {
        fprintf(stderr, "cgramap: out of memory\n");
        return 1;
    }
    cg_netlist *nl = cg_cli_load_netlist(o.arch, o.templates, d);
    if (nl)
        cg_cli_control_note(&o, nl, d);
    cg_diags_print(d, stderr);
    rc = nl ? bench_run(nl, &o, argv + at, argc - at) : 1;
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
    return rc;
}
