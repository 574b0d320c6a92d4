/* shard.h: a sweep split across machines (docs/sweeps.md).
 *
 * The main job's work is a list of units, one per (array, loop): the
 * arrays in the order given (each --arch, or each value of the --param
 * product), and for each the loops under the PATHs in the main job's own
 * order.  `--shard I/N` runs the units of shard I and writes them, with
 * everything `cgramap merge` needs to print what one run of the whole
 * sweep prints, as one JSON part.  Every shard computes the same plan
 * from the same input, so the shards need no coordinator.
 *
 * The split balances a cost estimate, not a count (cg_cli_shard_cost,
 * docs/sweeps.md): the loop's size (DFG nodes times MII, squared) times
 * the array's FuncUnits, times a weight for what a probe of the loop at
 * its MII found (shard_cost.c), calibrated once on recorded mapping
 * seconds.  Units are dealt largest first to the shard with the least
 * cost so far (ties: the lower unit, the lower shard), the greedy rule
 * for balanced partitions.
 */
#ifndef CG_CLI_SHARD_H
#define CG_CLI_SHARD_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "cli/bench.h"
#include "cli/compare.h"

#define CG_CLI_MAX_SHARDS 4096
#define CG_CLI_PART_FORMAT 1 /* "cgramap_part" of the part files */

/* ---- the split (shard_split.c) ------------------------------------------ */

/* "I/N" into *i, *n (1 <= I <= N <= CG_CLI_MAX_SHARDS); 0, or -1 after
 * "PROG: Invalid value for --shard: V (...)" on stderr. */
int cg_cli_shard_parse(const char *prog, const char *v, int *i, int *n);
/* What the plan's probe found at a loop's MII (shard_cost.c): the
 * heuristic alone, CG_CLI_PROBE_STEPS steps, no annealer, mapped it; the
 * register bound refuted it; neither (the full search must decide it,
 * with SAT: the loops that take the time; also a loop whose MII the
 * parity bound refutes: shard_cost.c says why).  NONE: no probe (the loop did
 * not extract, or its MII could not be computed). */
typedef enum cg_cli_probe { CG_CLI_PROBE_NONE, CG_CLI_PROBE_MAPPED,
                            CG_CLI_PROBE_BOUND,
                            CG_CLI_PROBE_OPEN } cg_cli_probe;
#define CG_CLI_PROBE_STEPS 1000
/* The cost weights of the probe's classes, calibrated once on the
 * recorded mapping seconds of microbench + tiled (benchmarks/perf/
 * results, 2026-11-28 shard-balance): the seconds per unit of size of
 * each class relative to MAPPED's (234 and 20 for OPEN and BOUND),
 * rounded. */
#define CG_CLI_COST_MAPPED 1.0
#define CG_CLI_COST_BOUND 20.0
#define CG_CLI_COST_OPEN 200.0
/* "mapped", "bound", "open" ("none" for NONE); and back (NONE for any
 * other string or NULL). */
const char *cg_cli_probe_name(cg_cli_probe p);
cg_cli_probe cg_cli_probe_parse(const char *s);
/* A unit's cost estimate: (nodes x mii)^2 x funcunits x the weight of
 * probe (each count at least 1; NONE weighs as MAPPED). */
double cg_cli_shard_cost(int nodes, int mii, int funcunits,
                         cg_cli_probe probe);
/* A shard plan's record of one loop: {"loop", "nodes", "mii", "probe"},
 * the last three only when g extracted (g non-NULL) and the probe on nl
 * ran.  NULL when out of memory. */
json_t *cg_cli_count_record(const char *loop, const cg_dfg *g,
                            const cg_netlist *nl);
/* Deal n units of the given costs to nshards shards: shard[k] in
 * 1..nshards.  Deterministic: the same costs give the same shards.  0, or
 * -1 when out of memory. */
int cg_cli_shard_split(const double *cost, int n, int nshards, int *shard);

/* ---- the plan (shard_plan.c) -------------------------------------------- */

typedef struct cg_cli_unit {
    int array;   /* index into the plan's arrays */
    int job;     /* index into the plan's jobs */
    int loop;    /* the job's loop, 0.. (0 also for a file that fails as a
                    whole, cg_cli_job's loop) */
    char *name;  /* the loop's name ("-": the whole file) */
    int nodes;   /* its DFG's, 0 when it did not extract */
    int mii;     /* its MII on the array, 0 when not probed */
    cg_cli_probe probe;
    double cost;
    int shard;   /* 1..N */
} cg_cli_unit;

typedef struct cg_cli_plan {
    cg_cli_array arr[CG_CLI_MAX_ARRAYS];
    int narr;
    cg_netlist *nl[CG_CLI_MAX_ARRAYS];  /* NULL: not read */
    cg_arch *arch[CG_CLI_MAX_ARRAYS];
    json_t *arr_msgs[CG_CLI_MAX_ARRAYS]; /* reading it: strings */
    cg_cli_jobs jobs;
    bool scan_failed;  /* a PATH could not be read (said on stderr) */
    cg_cli_unit *u;
    int nu;
} cg_cli_plan;

/* Read the arrays, scan the PATHs, count the loops of every file (in
 * worker processes, as the main job runs them) and split the units into
 * o->nshards shards.  0, or -1 after a message (out of memory, a signal). */
int cg_cli_plan_make(cg_cli_plan *p, const cg_cli_cmp_opts *c,
                     const cg_cli_opts *o, char *const *paths, int npaths);
void cg_cli_plan_free(cg_cli_plan *p);
/* A JSON array of messages, one a line. */
void cg_cli_print_msgs(const json_t *msgs, FILE *f);

/* ---- the flags that decide a row (shard_flags.c) ------------------------ */

/* Every option of o and c that may change a record, and the PATHs, as
 * {"--timeout": "60", ..., "--arch": [...], "paths": [...]}: each value
 * as the command line takes it back.  Options that change no record
 * (-j, --json, --csv, --mapping-dir, --report, --shard) are not in it. */
json_t *cg_cli_flags(const cg_cli_opts *o, const cg_cli_cmp_opts *c,
                     char *const *paths, int npaths);
/* The main job's argv (after "cgramap", NULL-terminated, malloc'd; the
 * strings borrowed from flags) that gives those options again. */
char **cg_cli_flags_argv(const json_t *flags, int *argc);
void cg_cli_flags_argv_free(char **argv);
/* The first key where a and b differ (NULL when none); its values as
 * text in va, vb ("none" when absent). */
const char *cg_cli_flags_diff(const json_t *a, const json_t *b, char *va,
                              char *vb, size_t n);

/* ---- running a shard (shard.c) ------------------------------------------ */

/* `cgramap --shard I/N --json PART [OPTION]... PATH...`: plan, run shard
 * I's units printing their rows, write the part.  The exit status, as the
 * main job's. */
int cg_cli_shard_run(const cg_cli_cmp_opts *c, const cg_cli_opts *o,
                     char *const *paths, int npaths);

/* ---- the main job's parsing (bench_cmd.c) ------------------------------- */

/* Parse the main job's argv into o and c; *paths_at is where the PATHs
 * start.  0, or the exit status after a message (2 usage, 1 an unwritable
 * output). */
int cg_cli_bench_parse(int argc, char **argv, cg_cli_opts *o,
                       cg_cli_cmp_opts *c, int *paths_at);

#endif
