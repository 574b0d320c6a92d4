/* bench.h: the parts of the main job `cgramap DIR...` and of `cgramap map`:
 * finding the loops (scan), running one loop through the pipeline (extract
 * or read, map, check, simulate) into a JSON record, running files in
 * worker processes, and reporting the records (rows, JSON, CSV).  The
 * pipeline itself is the flow stage (flow/flow.h).
 *
 * A record is the one description of a loop's outcome: the rows, --json and
 * --csv are all printed from it, so they never disagree.
 */
#ifndef CG_CLI_BENCH_H
#define CG_CLI_BENCH_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "arch/arch.h"
#include "dfg/dfg.h"
#include "extract/extract.h"
#include "flow/flow.h"
#include "mapper/map.h"
#include "tiling/tile.h"

#include "cli/syms.h"

typedef struct cg_cli_progress cg_cli_progress;
typedef struct cg_cli_progress_slot cg_cli_progress_slot;

typedef struct cg_cli_opts {
    const char *arch, *templates;
    cg_map_params map;
    int jobs;                 /* worker processes */
    const char *json, *csv;   /* report files, NULL = none */
    const char *mapping_dir;  /* per-loop mapping files, NULL = none */
    bool rtl;                 /* --rtl: co-simulate each loop's RTL */
    int rtl_tool;             /* --rtl-sim: a cg_cosim_tool */
    const char *rtl_cache;    /* --rtl-cache, NULL = the default: */
    char rtl_cache_dflt[1024]; /* cg_cli_rtl_cache's folder */
    cg_cli_syms syms;         /* --sym: over each Makefile's DFG_FLAGS;
                                 for a .dot, the live-ins of that sym */
    double run_limit_s;       /* --run-timeout: a loop's reference run
                                 (default CG_FLOW_RUN_LIMIT_S) */
    int loop_control;         /* --loop-control: CG_CLI_LOOP_* */
    bool no_progress;         /* --no-progress */
    cg_cli_progress *progress; /* the run's progress line, NULL = none */
    cg_cli_progress_slot *slot; /* in a worker: its note in the line */
    int shard, nshards;       /* --shard I/N (cli/shard.h), 0/0 = none */
    bool count_loops;         /* a shard's plan: each job's records are
                                 its loops' node counts, nothing mapped */
} cg_cli_opts;

/* The flow parameters of o: cg_flow_params_init's with o's mapper
 * parameters, reference-run limit and --sym values. */
void cg_cli_flow_params(const cg_cli_opts *o, cg_flow_params *p);
/* --loop-control: auto (the default) is array when no unit of the
 * architecture computes icmp, else dfg (docs/cli.md). */
enum { CG_CLI_LOOP_AUTO, CG_CLI_LOOP_DFG, CG_CLI_LOOP_ARRAY };
struct cg_netlist;
/* Whether loops get CGRA-ME's shape (extraction's array_control) on nl. */
bool cg_cli_array_control(const cg_cli_opts *o, const struct cg_netlist *nl);
/* The main job's note on one array that leaves loop control to the
 * array (--loop-control auto, no icmp unit), into d. */
void cg_cli_control_note(const cg_cli_opts *o, const struct cg_netlist *nl,
                         cg_diags *d);

/* ---- scan ---------------------------------------------------------------- */

typedef enum cg_cli_job_kind { CG_CLI_JOB_C, CG_CLI_JOB_DOT } cg_cli_job_kind;

/* One input file: a C file (all its tagged loops, or the LOOP_TAGS of the
 * folder's Makefile) or a .dot DFG. */
typedef struct cg_cli_job {
    cg_cli_job_kind kind;
    char *path;
    char *bench;     /* a Makefile folder's name, else the file's stem */
    char *makefile;  /* the folder's Makefile, NULL when none */
    int loop;        /* -1: every loop of the file; k >= 0: only its k-th
                        loop, a shard's unit (a file that fails as a whole
                        gives its error record for k = 0 alone) */
} cg_cli_job;

typedef struct cg_cli_jobs {
    cg_cli_job *v;
    int n, cap;
} cg_cli_jobs;

/* Append the jobs under path (a folder, walked recursively in name order,
 * or a single .c/.dot file).  -1 with a message on stderr when path cannot
 * be read. */
int cg_cli_scan(const char *path, cg_cli_jobs *out);
void cg_cli_jobs_free(cg_cli_jobs *j);

/* ---- one loop, one file -------------------------------------------------- */

/* The JSON records of every loop of job j (an array, never NULL).  A loop
 * that fails at any step still gets a record with status "error" and its
 * messages.  With o->count_loops nothing is mapped: one record per loop,
 * {"loop", "nodes"} (nodes absent when the loop did not extract), or the
 * file's error record when it fails as a whole. */
json_t *cg_cli_job_run(const cg_cli_job *j, const cg_netlist *nl,
                       const cg_cli_opts *o);

/* One loop through the flow (cg_flow_loop: plan, map, check, schedule,
 * verify) into its record, its mapping files written to o->mapping_dir.
 * x is the compiled C file g came from (the native run is the reference),
 * NULL for a .dot DFG (the interpreter is).  Messages of the earlier steps
 * in d are kept in the record. */
json_t *cg_cli_loop_run(const char *bench, const char *file, const cg_dfg *g,
                        cg_extract_prog *x, const cg_netlist *nl,
                        const cg_cli_opts *o, cg_diags *d);

/* The record of a loop (or a file) that failed before mapping. */
json_t *cg_cli_error_record(const char *bench, const char *file,
                            const char *loop, cg_diags *d);

/* ---- what a mapping proved and used (map_cols.c, from flow/proof.c) ---- */

/* The mapping columns of a record: ii, status, seconds, proof, proof_hint,
 * tries; res_mii, rec_mii and mii once the MII is known, bottleneck (the
 * op class that sets ResMII) when ResMII > 1; and when r mapped: funcunits (FuncUnits running
 * an op), funcunits_total (the array's), fu_ops (ops on FuncUnits),
 * fu_util = fu_ops / (funcunits_total x II), const_ops, io_ops, mem_ops
 * (the other slots) and routes (routing nodes).  NULL when out of
 * memory. */
json_t *cg_cli_map_cols(const cg_map_result *r, const cg_netlist *nl,
                        double timeout_s);
/* When cols' proof is open, its hint as a note on loop g into d (the row
 * says "open", the note says why and what may settle it). */
void cg_cli_proof_note(const json_t *cols, const cg_dfg *g, cg_diags *d);

/* ---- workers ----------------------------------------------------------- */

/* Run every job in up to o->jobs worker processes; on_done(arg, i, recs)
 * is called for job i in job order as soon as it and every job before it
 * are done (recs is then owned by the callee).  A worker that dies gets an
 * error record naming the signal.  0, or the signal (SIGINT, SIGTERM) that
 * stopped the run: the workers were stopped and waited for, and every job
 * without records got one with status "interrupted"; -1 when out of
 * memory before any job ran (said on stderr). */
typedef void (*cg_cli_done_fn)(void *arg, int i, json_t *recs);
int cg_cli_run_jobs(const cg_cli_jobs *jobs, const cg_netlist *nl,
                     const cg_cli_opts *o, cg_cli_done_fn on_done, void *arg);

/* ---- progress (progress.c) ---------------------------------------------- */

/* The progress line of a run of jobs, drawn on tty: NULL when out of
 * memory (the run then goes without one). */
cg_cli_progress *cg_cli_progress_create(const cg_cli_jobs *jobs, FILE *tty);
void cg_cli_progress_destroy(cg_cli_progress *p);
/* Job's slot, shared with the worker that runs it; NULL for NULL p. */
cg_cli_progress_slot *cg_cli_progress_slot_of(cg_cli_progress *p, int job);
/* In a worker: it starts loop (NULL s: nothing). */
void cg_cli_progress_loop(cg_cli_progress_slot *s, const char *loop);
/* The mapper's progress callback (cg_map_progress_fn), arg a slot. */
void cg_cli_progress_stage(void *arg, int ii, cg_map_stage stage);
/* In the parent: job runs or no longer does; done files are reported. */
void cg_cli_progress_running(cg_cli_progress *p, int job, bool on);
void cg_cli_progress_done(cg_cli_progress *p, int done);
/* Draw the line (done files, each running job's loop, II, stage and
 * seconds in it), or clear it before rows are printed; due when a second
 * has passed since the last draw.  NULL p: nothing. */
void cg_cli_progress_draw(cg_cli_progress *p);
void cg_cli_progress_clear(cg_cli_progress *p);
bool cg_cli_progress_due(const cg_cli_progress *p);

/* ---- report -------------------------------------------------------------- */

void cg_cli_row_header(FILE *out);
/* The mapping part of a row (nodes .. routes), shared with `cgramap map`:
 * its header, and its cells from a record. */
void cg_cli_map_header(FILE *out);
void cg_cli_map_cells(const json_t *rec, FILE *out);
/* The row of one record; its messages go to err. */
void cg_cli_row(const json_t *rec, FILE *out, FILE *err);
/* Did the loop map, check and verify (yes, or n/a: not found wrong)? */
bool cg_cli_record_ok(const json_t *rec);
/* Whole-or-nothing report files of every record. */
int cg_cli_write_json(const char *path, json_t *recs);
int cg_cli_write_csv(const char *path, const json_t *recs);

#endif
