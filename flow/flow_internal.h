/* flow_internal.h: what the files of flow/ share and no user needs. */
#ifndef CG_FLOW_INTERNAL_H
#define CG_FLOW_INTERNAL_H

#include "../verify/verify.h"
#include "flow.h"

/* A verification run (verify.c) under the time limit (limit.c): fn fills
 * v, adding its messages to d. */
typedef void (*cg__flow_verify_fn)(void *arg, cg_flow_verification *v,
                                   cg_diags *d);
/* fn(arg, v, d) in a child process stopped after limit_s seconds: its
 * verification into v, its messages appended to d; when the child exceeds
 * the limit or dies, v->verdict is CG_FLOW_NOT_VERIFIED and d says why
 * (an error at file naming the loop). */
void cg__flow_limited(double limit_s, const char *file, const char *loop,
                      cg__flow_verify_fn fn, void *arg,
                      cg_flow_verification *v, cg_diags *d);

/* The tiling's timeline with r's II and the pipeline depth of r's mapping
 * of `mapped` into *s; false (why in d) when there is no plan, no mapping
 * or the schedule failed. */
bool cg__flow_schedule(const cg_flow_tiling *t, const cg_dfg *mapped,
                       const cg_map_result *r, cg_tile_sched *s,
                       cg_diags *d);

/* "the kernel never ran the loop on its data, so nothing was simulated",
 * a warning on loop g. */
void cg__flow_never_ran(const cg_dfg *g, cg_diags *d);

/* The offset of the first byte of want (as many bytes of got) that got
 * differs in, -1 when none. */
int64_t cg__flow_first_difference(const cg_mem *got, const cg_mem *want);

/* 0 when p's fields are in range; -1 with an error at g's file naming
 * the first that is not. */
int cg__flow_params_check(const cg_flow_params *p, const cg_dfg *g,
                          cg_diags *d);

/* Run r's mapping of g on the RTL from in's memory and live-ins (p->cosim)
 * and compare with in's after-image and live-outs: the outcome in *res
 * (n/a when the co-simulation could not run, the error in d). */
void cg__flow_cosim(const cg_flow_params *p, const cg_netlist *nl,
                    const cg_map_result *r, const cg_dfg *g,
                    const cg_extract_instance *in, cg_cosim_result *res,
                    cg_diags *d);

/* The tiled run of loop g (t->td set) against its native run, with r's
 * mapping of t's tile DFG simulated for every inner-loop run (the
 * interpreter when r is NULL); fills out (tile_runs included).  With
 * p->rtl, r set and out->rtl empty, the first inner-loop run of the first
 * tile is co-simulated against the cycle simulator's run too: its word in
 * out->rtl ("yes (first tile of N: ...)", "no: inner-loop run 1 of the
 * first tile: ...", "n/a: ..."). */
void cg__flow_verify_tiled(const cg_flow_params *p, const cg_netlist *nl,
                           const cg_dfg *g, cg_extract_prog *x,
                           const cg_flow_tiling *t, const cg_map_result *r,
                           cg_flow_verification *out, cg_diags *d);

#endif
