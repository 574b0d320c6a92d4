/* bench.h: the parts of the main job `cgramap DIR...` and of `cgramap map`:
 * finding the loops (scan), running one loop through the pipeline (extract
 * or read, map, check, simulate) into a JSON record, running files in
 * worker processes, and reporting the records (rows, JSON, CSV).
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
#include "dfg/extract.h"
#include "mapper/map.h"

/* How many executions of a C loop the simulator replays (each against the
 * native run's memory and live-outs). */
#define CG_CLI_VERIFY_INSTANCES 16
/* A .dot DFG has no C code: it is simulated for this many iterations on a
 * seeded image and compared with the DFG interpreter. */
#define CG_CLI_DOT_ITERS 16
#define CG_CLI_DOT_MEM (64 * 1024)

typedef struct cg_cli_opts {
    const char *arch, *templates;
    cg_map_params map;
    int jobs;                 /* worker processes */
    const char *json, *csv;   /* report files, NULL = none */
    const char *mapping_dir;  /* per-loop mapping files, NULL = none */
} cg_cli_opts;

/* ---- scan ---------------------------------------------------------------- */

typedef enum cg_cli_job_kind { CG_CLI_JOB_C, CG_CLI_JOB_DOT } cg_cli_job_kind;

/* One input file: a C file (all its tagged loops, or the LOOP_TAGS of the
 * folder's Makefile) or a .dot DFG. */
typedef struct cg_cli_job {
    cg_cli_job_kind kind;
    char *path;
    char *bench;     /* a Makefile folder's name, else the file's stem */
    char *makefile;  /* the folder's Makefile, NULL when none */
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
 * messages. */
json_t *cg_cli_job_run(const cg_cli_job *j, const cg_netlist *nl,
                       const cg_cli_opts *o);

/* Map, check and verify one loop.  x is the compiled C file g came from
 * (the native run is the reference), NULL for a .dot DFG (the interpreter
 * is).  Messages of the earlier steps in d are kept in the record. */
json_t *cg_cli_loop_run(const char *bench, const char *file, const cg_dfg *g,
                        cg_extract_prog *x, const cg_netlist *nl,
                        const cg_cli_opts *o, cg_diags *d);

/* The tiling columns of a mapped C loop (bench_tile.c): tiles, dma_bytes,
 * dma_bound, dma_ratio, bound_kind, mem_use, cycles, stalls added to cols.
 * Nothing is added for a loop without a nest; an architecture without a
 * tile memory adds a warning, a nest that cannot be tiled an error. */
void cg_cli_loop_tile(json_t *cols, const cg_dfg *g, const cg_map_result *r,
                      const cg_netlist *nl, cg_diags *d);

/* The record of a loop (or a file) that failed before mapping. */
json_t *cg_cli_error_record(const char *bench, const char *file,
                            const char *loop, cg_diags *d);

/* ---- workers ----------------------------------------------------------- */

/* Run every job in up to o->jobs worker processes; on_done(arg, i, recs)
 * is called for job i in job order as soon as it and every job before it
 * are done (recs is then owned by the callee).  A worker that dies gets an
 * error record naming the signal. */
typedef void (*cg_cli_done_fn)(void *arg, int i, json_t *recs);
void cg_cli_run_jobs(const cg_cli_jobs *jobs, const cg_netlist *nl,
                     const cg_cli_opts *o, cg_cli_done_fn on_done, void *arg);

/* ---- report -------------------------------------------------------------- */

void cg_cli_row_header(FILE *out);
/* The row of one record; its messages go to err. */
void cg_cli_row(const json_t *rec, FILE *out, FILE *err);
/* Did the loop map, check and verify? */
bool cg_cli_record_ok(const json_t *rec);
/* Whole-or-nothing report files of every record. */
int cg_cli_write_json(const char *path, json_t *recs);
int cg_cli_write_csv(const char *path, const json_t *recs);

#endif
