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
#include "tiling/tile.h"

#include "cli/syms.h"

/* How many executions of a C loop the simulator replays (each against the
 * native run's memory and live-outs). */
#define CG_CLI_VERIFY_INSTANCES 16
/* A .dot DFG has no C code: it is simulated for this many iterations on a
 * seeded image and compared with the DFG interpreter. */
#define CG_CLI_DOT_ITERS 16
#define CG_CLI_DOT_MEM (64 * 1024)
/* Seed of the globals of every native reference run ("cgrmap"). */
#define CG_CLI_SEED 0x6367726d6170ULL

typedef struct cg_cli_opts {
    const char *arch, *templates;
    cg_map_params map;
    int jobs;                 /* worker processes */
    const char *json, *csv;   /* report files, NULL = none */
    const char *mapping_dir;  /* per-loop mapping files, NULL = none */
    cg_cli_syms syms;         /* --sym: over each Makefile's DFG_FLAGS;
                                 for a .dot, the live-ins of that sym */
    double run_limit_s;       /* --run-timeout: a loop's reference run */
    int loop_control;         /* --loop-control: CG_CLI_LOOP_* */
} cg_cli_opts;
/* --loop-control: auto (the default) is array when no unit of the
 * architecture computes icmp, else dfg (docs/cli.md). */
enum { CG_CLI_LOOP_AUTO, CG_CLI_LOOP_DFG, CG_CLI_LOOP_ARRAY };
struct cg_netlist;
/* Whether loops get CGRA-ME's shape (extraction's array_control) on nl. */
bool cg_cli_array_control(const cg_cli_opts *o, const struct cg_netlist *nl);
/* Default of --run-timeout, seconds. */
#define CG_CLI_RUN_LIMIT_S 120

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

/* ---- tiling (bench_tile.c) ------------------------------------------------ */

/* The tiling of a C loop's nest, planned before mapping as `cgramap tile`
 * plans it (II 1, depth 8 assumed for the tile selection). */
typedef struct cg_cli_tiling {
    cg_tile_plan *plan;      /* NULL: no nest, no tile memory, not tileable */
    cg_tile_program *prog;   /* the plan's transfers and compute steps */
    cg_tile_dfg *td;         /* set when the plan has more than one tile:
                                the array runs this DFG, not the loop's */
    cg_diags *msgs;          /* why it is not tiled (warnings), for the
                                record once the loop mapped */
} cg_cli_tiling;

/* Plan loop g's nest on nl's tile memory into *t (always initialised; free
 * with cg_cli_tiling_free).  A nest that cannot be tiled leaves t->plan
 * NULL and says why in t->msgs. */
void cg_cli_tiling_plan(cg_cli_tiling *t, const cg_dfg *g,
                        const cg_netlist *nl);
void cg_cli_tiling_free(cg_cli_tiling *t);

/* The tiling columns (tiles, dma_bytes, dma_bound, dma_ratio, bound_kind,
 * mem_use, cycles, stalls) added to cols: the plan's figures and its
 * schedule with r's II and the pipeline depth of r's mapping of `mapped`
 * (the graph r mapped).  Nothing when there is no plan or no mapping. */
void cg_cli_tiling_cols(json_t *cols, const cg_cli_tiling *t,
                        const cg_dfg *mapped, const cg_map_result *r,
                        cg_diags *d);

/* A verification: "yes", "no", "n/a", or NULL with why in d. */
typedef const char *(*cg_cli_verify_fn)(void *arg, json_t *cols,
                                        cg_diags *d);
/* fn(arg, cols, d) in a child process stopped after limit_s seconds
 * (bench_limit.c): its verdict, its messages appended to d and its
 * columns to cols; NULL with "reference run exceeded N s ..." (or the
 * signal that ended it) in d at file. */
const char *cg_cli_verify_limited(double limit_s, const char *file,
                                  const char *loop, cg_cli_verify_fn fn,
                                  void *arg, json_t *cols, cg_diags *d);
/* The tiled run of loop g (t->td set, r a checked mapping of its graph):
 * the kernel runs natively on globals seeded with CG_CLI_SEED; from the
 * same seeded image the program's DMA descriptors run on the external
 * image and the simulator runs r's mapping for every inner-loop run
 * (cg_tile_run); the final images must be byte-identical.  "yes", "no"
 * (the first differing address, or the failure, in d), "n/a" (the kernel
 * never ran the loop) or NULL when the native run itself failed (why in
 * d): nothing was compared.  Adds "tile_runs" to cols. */
const char *cg_cli_verify_tiled(const cg_cli_tiling *t, const cg_dfg *g,
                                cg_extract_prog *x, const cg_netlist *nl,
                                const cg_map_result *r, json_t *cols,
                                cg_diags *d);

/* The record of a loop (or a file) that failed before mapping. */
json_t *cg_cli_error_record(const char *bench, const char *file,
                            const char *loop, cg_diags *d);

/* ---- what a mapping proved and used (map_cols.c) ----------------------- */

/* What r's II is known to be.  text: "optimal" (II = MII, or every lower
 * II proven infeasible), "open: II a..b" (the IIs from the MII up that are
 * not settled: they only hit the per-II limit or were not tried; below the
 * mapped II, or up to the last II tried when none mapped) or "-".  hint:
 * one line saying why, and what may settle the open IIs. */
typedef struct cg_cli_proof {
    char text[272];   /* "open: II " and up to 256 of ranges */
    char hint[1024];
} cg_cli_proof;
void cg_cli_proof_of(const cg_map_result *r, double timeout_s,
                     cg_cli_proof *out);

/* The mapping columns of a record: ii, status, seconds, proof, proof_hint,
 * tries; res_mii, rec_mii and mii once the MII is known, bottleneck (the
 * op class that sets ResMII) when ResMII > 1; and when r mapped: funcunits (FuncUnits running
 * an op), funcunits_total (the array's), fu_ops (ops on FuncUnits),
 * fu_util = fu_ops / (funcunits_total x II), const_ops, io_ops, mem_ops
 * (the other slots) and routes (routing nodes). */
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
 * without records got one with status "interrupted". */
typedef void (*cg_cli_done_fn)(void *arg, int i, json_t *recs);
int cg_cli_run_jobs(const cg_cli_jobs *jobs, const cg_netlist *nl,
                     const cg_cli_opts *o, cg_cli_done_fn on_done, void *arg);

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
