/* rtl.h (verify/): RTL co-simulation, the third opinion on a mapping.
 *
 * The mapping's bitstream (rtl/rtl.h) is loaded into the generated array
 * and run by an HDL simulator -- Verilator 5 (--binary) or Icarus Verilog
 * 11 -- from the memory and live-ins the cycle simulator started from;
 * the memory and live-outs it leaves must be the ones the simulator (and
 * so the native run) left, byte for byte.  The array and its testbench
 * are compiled once per array and simulator into a cache folder named by
 * a hash of their text, so a folder of loops compiles each array once.
 *
 * Not being able to co-simulate (no simulator installed, an array with a
 * combinational loop, a mapping the hardware cannot hold) is an outcome,
 * "n/a" with why, not an error.
 */
#ifndef CG_VERIFY_RTL_H
#define CG_VERIFY_RTL_H

#include <stdint.h>

#include "../arch/arch.h"
#include "../common/diag.h"
#include "../dfg/dfg.h"
#include "../mapper/map.h"
#include "../rtl/rtl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cg_cosim_tool { CG_COSIM_VERILATOR, CG_COSIM_IVERILOG } cg_cosim_tool;
/* "verilator", "iverilog". */
const char *cg_cosim_tool_name(cg_cosim_tool t);

typedef struct cg_cosim_params {
    cg_rtl_params rtl;       /* the array's generation (cg_rtl_params_init) */
    cg_cosim_tool tool;      /* CG_COSIM_VERILATOR by default */
    const char *cache_dir;   /* compiled models, made when missing
                                (required) */
    int flip_bit;            /* >= 0: invert this chain position of the
                                bitstream before the run, to show that a
                                broken bitstream is caught (tests); -1 */
} cg_cosim_params;
void cg_cosim_params_init(cg_cosim_params *p);

typedef enum cg_cosim_verdict {
    CG_COSIM_NA,   /* "n/a": not run, why says why */
    CG_COSIM_SAME, /* "yes": the same memory and live-outs */
    CG_COSIM_DIFF  /* "no": why holds the first difference */
} cg_cosim_verdict;

typedef struct cg_cosim_result {
    cg_cosim_verdict verdict;
    char why[512];
    bool compiled;           /* the model was compiled now, not cached */
} cg_cosim_result;

/* The row's word: "yes", "no: <first difference>", "n/a: <why>". */
void cg_cosim_text(const cg_cosim_result *r, char *buf, size_t len);

/* Compile (or find in the cache) nl's model, so that the runs after it
 * only simulate (the flow compiles before its time-limited reference
 * run).  0 when ready; -1 with the verdict n/a and why in *res. */
int cg_cosim_prepare(const cg_netlist *nl, const cg_cosim_params *p,
                     cg_cosim_result *res);

/* Run mapping m of g on nl's RTL for iters iterations from memory before
 * and live-ins in (per DFG node id), and compare the memory and live-outs
 * it leaves with want_mem and want_out (per DFG node id, compared at each
 * output's width).  before and want_mem cover the same addresses.  0 with
 * the verdict in *res; -1 only on bad input (NULL arguments, no cache
 * folder), with an error in d. */
int cg_cosim_run(const cg_netlist *nl, const cg_mrrg *mrrg, const cg_dfg *g,
                 const cg_mapping *m, int64_t iters, const cg_mem *before,
                 const uint64_t *in, const cg_mem *want_mem,
                 const uint64_t *want_out, const cg_cosim_params *p,
                 cg_cosim_result *res, cg_diags *d);

#ifdef __cplusplus
}
#endif

#endif
