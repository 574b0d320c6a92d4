/* flow.h: the flow stage of cgramap: one loop end to end.
 *
 *   plan       a C loop's nest is tiled on the array's tile memory
 *              (cg_tile_plan_dfg with p->tile's assumptions); when it needs
 *              more than one tile the array runs its tile DFG
 *              (cg_tile_dfg_build), which is then the graph mapped
 *   map        cg_map with p->map
 *   check      the independent checker (cg_map_check)
 *   schedule   the tiling's double-buffered timeline with the mapping's II
 *              and pipeline depth (cg_tile_schedule)
 *   verify     the reference run and the simulation, compared byte for
 *              byte: for a C loop the kernel runs natively on globals
 *              seeded with p->seed and each of its first p->executions
 *              executions of the loop is replayed by the simulator from
 *              the same memory and live-ins (a tiled loop: the whole tiled
 *              run, DMA descriptors plus the simulated tile DFG for every
 *              inner-loop run, against the whole native run); a DFG
 *              without C code is compared with the DFG interpreter on a
 *              seeded image.  The reference run happens in a child process
 *              stopped after p->run_limit_s seconds, so a kernel that loops
 *              for hours or crashes ends as "not verified", with why.
 *
 * Every policy number of the stage is a field of cg_flow_params.  The
 * library never prints or exits: messages go to cg_diags with the loop's
 * file and line; a loop that does not map, check or verify is an outcome
 * in cg_flow_result, not an error.
 */
#ifndef CG_FLOW_H
#define CG_FLOW_H

#include <stdbool.h>
#include <stdint.h>

#include "../arch/arch.h"
#include "../common/diag.h"
#include "../dfg/dfg.h"
#include "../extract/extract.h"
#include "../mapper/map.h"
#include "../tiling/tile.h"
#include "../verify/rtl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parameters ------------------------------------------------------------ */

/* Defaults of cg_flow_params_init. */
#define CG_FLOW_SEED 0x6367726d6170ULL   /* "cgrmap" */
#define CG_FLOW_EXECUTIONS 16
#define CG_FLOW_DOT_ITERS 16
#define CG_FLOW_DOT_MEM (64 * 1024)
#define CG_FLOW_DOT_INPUT_RANGE 1024
#define CG_FLOW_RUN_LIMIT_S 120

typedef struct cg_flow_params {
    cg_map_params map;        /* the mapper's policy and limits
                                 (cg_map_params_init's) */
    bool tiling;              /* plan a C loop's nest and run it tiled when
                                 it needs several tiles (default true) */
    cg_tile_params tile;      /* the plan's assumptions: cg_tile_params_init's
                                 (II 1, depth 8, the array's tile memory),
                                 as `cgramap tile` plans */
    uint64_t seed;            /* seed of the reference run's data: the
                                 kernel's writable globals, or a DFG's image
                                 and live-ins (CG_FLOW_SEED) */
    int64_t executions;       /* executions of a C loop replayed by the
                                 simulator, each against the native run
                                 (>= 1, CG_FLOW_EXECUTIONS); the tiled run
                                 always covers every execution */
    int64_t dot_iters;        /* a DFG without C code: iterations simulated
                                 (>= 1, CG_FLOW_DOT_ITERS) */
    uint64_t dot_mem;         /* ... on a seeded image of this many bytes at
                                 address 0 (>= 1, CG_FLOW_DOT_MEM) */
    uint64_t dot_input_range; /* ... with live-ins drawn from 0 .. this - 1,
                                 small so that addresses built from them
                                 stay in the image (>= 1,
                                 CG_FLOW_DOT_INPUT_RANGE) */
    int nsyms;                /* ... except the live-ins whose sym is named */
    cg_extract_sym syms[CG_EXTRACT_MAX_SYMS]; /* here: they take its value
                                 (names borrowed) */
    bool rtl;                 /* also run the first execution's mapping on
                                 the array's RTL (verify/rtl.h) and
                                 compare; a tiled loop: the first
                                 inner-loop run of its first tile (default
                                 false) */
    cg_cosim_params cosim;    /* ... with this simulator and cache (its
                                 cache_dir must be set when rtl is) */
    double run_limit_s;       /* seconds the reference run and its
                                 comparison may take (> 0,
                                 CG_FLOW_RUN_LIMIT_S) */
} cg_flow_params;

/* The defaults above. */
void cg_flow_params_init(cg_flow_params *p);

/* ---- steps ------------------------------------------------------------------ */

/* The tiling of a loop, planned before mapping. */
typedef struct cg_flow_tiling {
    cg_tile_plan *plan;       /* NULL: no nest, no tile memory, not tileable */
    cg_tile_program *prog;    /* the plan's transfers and compute steps */
    cg_tile_dfg *td;          /* set when the plan has more than one tile:
                                 the array runs this DFG, not the loop's */
    cg_diags *msgs;           /* why it is not tiled (warnings) */
} cg_flow_tiling;

/* Plan loop g's nest on nl's tile memory with tp into *t (always
 * initialised; free with cg_flow_tiling_free).  A nest that cannot be
 * tiled, or a plan whose tile DFG cannot be made, is not an error: t->plan
 * (or t->td) stays NULL and t->msgs says why, as warnings. */
void cg_flow_tiling_plan(cg_flow_tiling *t, const cg_dfg *g,
                         const cg_netlist *nl, const cg_tile_params *tp);
void cg_flow_tiling_free(cg_flow_tiling *t);
/* The tile DFG of plan (of more than one tile) for loop g, or NULL with
 * warnings in msgs: why it cannot be made, and that the loop's own DFG is
 * then mapped and verified on a flat memory (what cg_flow_tiling_plan
 * does, and `cgramap tile` says). */
cg_tile_dfg *cg_flow_tile_dfg(const cg_tile_plan *plan, const cg_dfg *g,
                              cg_diags *msgs);

/* What the verification found. */
typedef enum cg_flow_verdict {
    CG_FLOW_UNVERIFIED,   /* "-": no checked mapping to verify */
    CG_FLOW_WRONG,        /* "no": rejected by the checker, or the
                             simulation differs (the first difference in
                             the diagnostics) */
    CG_FLOW_VERIFIED,     /* "yes": same memory and live-outs */
    CG_FLOW_NOTHING_RUN,  /* "n/a": the kernel never ran the loop, or the
                             interpreter cannot run the DFG: nothing to
                             compare, nothing found wrong */
    CG_FLOW_NOT_VERIFIED  /* "not verified": the reference run failed
                             (crashed, exceeded run_limit_s): nothing was
                             compared */
} cg_flow_verdict;
/* "-", "no", "yes", "n/a", "not verified". */
const char *cg_flow_verdict_name(cg_flow_verdict v);

typedef struct cg_flow_verification {
    cg_flow_verdict verdict;
    char why[1024];           /* CG_FLOW_NOT_VERIFIED: the first error of
                                 the reference run, without file and line */
    int64_t compared;         /* executions (or the DFG's runs) compared */
    int64_t tile_runs;        /* inner-loop runs of the tiled run, -1 when
                                 no tiled run was made */
    char rtl[600];            /* p->rtl: the RTL co-simulation of the first
                                 execution: "yes", "no: <first
                                 difference>", "n/a: <why>"; a tiled loop:
                                 "yes (first tile of N: inner-loop run 1
                                 of R equal to the cycle simulator's)",
                                 "no: inner-loop run 1 of the first tile:
                                 ...", "n/a: ..."; "" when not asked for */
} cg_flow_verification;

/* Verify r, a checked mapping of `mapped` (loop g itself, or t's tile DFG
 * when t->td is set), against the reference: x is the compiled C file g
 * was extracted from (NULL for a DFG without C code: the interpreter is
 * the reference).  r NULL runs the DFG interpreter where the simulator
 * would run (a proof of the extraction or of the tiling alone; needs x).
 * Runs in a child process limited to p->run_limit_s.  0 with the verdict
 * in *v; -1 on bad input, an error at g's file: a NULL p, g or v, a
 * parameter out of range, an r without a mapping, no r and no x, or a
 * tiled t without x. */
int cg_flow_verify(const cg_flow_params *p, const cg_netlist *nl,
                   const cg_dfg *g, cg_extract_prog *x,
                   const cg_flow_tiling *t, const cg_map_result *r,
                   cg_flow_verification *v, cg_diags *d);

/* The data a DFG without C code is verified on: mem->size bytes from
 * p->seed (cg_rng_data_next) into mem->data, then a live-in per node id
 * into in (only input nodes' are read) below p->dot_input_range, or the
 * value p->syms gives its sym.  cgramap sim draws the same. */
void cg_flow_dot_data(const cg_flow_params *p, const cg_dfg *g,
                      cg_mem *mem, uint64_t *in);
/* The bytes of that image: p->dot_mem, or more when g states the memory
 * its addresses lie in (cg_dfg_memory: a .dot cgramap dfg wrote, whose
 * globals start at 0x10000), to hold it. */
uint64_t cg_flow_dot_mem(const cg_flow_params *p, const cg_dfg *g);

/* One execution of a loop replayed and compared: g runs from in's memory
 * and live-ins for in's iterations, simulated on mapping m (of mrrg on
 * nl), or by the DFG interpreter when m is NULL, and must leave in's memory
 * and live-outs (compared at each output's width).  0 when the same; -1
 * with the first difference, or the run's failure, in d (what names the
 * reference in the message, e.g. "the C code"). */
int cg_flow_replay(const cg_netlist *nl, const cg_mrrg *mrrg,
                   const cg_mapping *m, const cg_dfg *g,
                   const cg_extract_instance *in, const char *what,
                   cg_diags *d);

/* ---- what a mapping proved and used ------------------------------------------ */

/* What r's II is known to be.  text: "optimal" (II = MII, or every lower
 * II proven infeasible), "open: II a..b" (the IIs from the MII up that are
 * not settled: they only hit the per-II limit or were not tried; below the
 * mapped II, or up to the last II tried when none mapped) or "-".  hint:
 * one line saying why, and what may settle the open IIs (timeout_s is the
 * per-II limit the mapping had). */
typedef struct cg_flow_proof {
    char text[272];           /* "open: II " and up to 256 of ranges */
    char hint[1024];
} cg_flow_proof;
void cg_flow_proof_of(const cg_map_result *r, double timeout_s,
                      cg_flow_proof *out);

/* How a mapping uses the array. */
typedef struct cg_flow_usage {
    int funcunits;            /* FuncUnits running an op */
    int funcunits_total;      /* the array's FuncUnits */
    int fu_ops, const_ops, io_ops, mem_ops; /* ops on each kind of unit */
    double fu_util;           /* fu_ops / (funcunits_total x II) */
    int routes;               /* routing nodes used */
} cg_flow_usage;
/* The usage of r's mapping on nl; -1 when r has no mapping (or no
 * memory). */
int cg_flow_usage_of(const cg_map_result *r, const cg_netlist *nl,
                     cg_flow_usage *out);

/* ---- one loop ------------------------------------------------------------------ */

typedef struct cg_flow_result {
    const cg_dfg *loop;       /* the loop given (borrowed) */
    const cg_dfg *mapped;     /* the graph mapped: loop, or the tile DFG of
                                 tiling.td (owned by the result) */
    cg_flow_tiling tiling;    /* the plan (C loops only) */
    cg_map_result map;        /* the mapper's result (owned) */
    bool checked;             /* the checker accepted the mapping */
    cg_flow_proof proof;      /* what map's II is known to be */
    bool used;                /* usage is set (the loop mapped) */
    cg_flow_usage usage;
    bool scheduled;           /* sched is set: a plan, and a checked
                                 mapping to take II and depth from */
    cg_tile_sched sched;      /* the tiling's timeline (tiles, DMA bytes and
                                 bound: cg_tile_plan_summary(tiling.plan)) */
    cg_flow_verification verification;
} cg_flow_result;

/* An empty result: nothing mapped, verdict CG_FLOW_UNVERIFIED. */
void cg_flow_result_init(cg_flow_result *r);
/* Frees what r owns (not r); r is empty afterwards. */
void cg_flow_result_free(cg_flow_result *r);

/* Run loop g through the flow on nl: plan (when x is set and p->tiling),
 * map, check, schedule, verify (when checked).  x is the compiled C file g
 * came from (the native run is the reference), NULL for a DFG without C
 * code.  *out is initialised first; free it with cg_flow_result_free.
 * Messages go to d in step order; the tiling's warnings only once the
 * mapping checked.  0 when the flow ran to its end (out says how far the
 * loop got); -1 on bad input: NULL arguments, a parameter out of range
 * (an error at g's file naming it), a DFG that breaks the DFG rules
 * (cg_dfg_check's errors, at file:line of the node) or one the mapper
 * refuses. */
int cg_flow_loop(const cg_netlist *nl, const cg_dfg *g, cg_extract_prog *x,
                 const cg_flow_params *p, cg_flow_result *out, cg_diags *d);

#ifdef __cplusplus
}
#endif

#endif
