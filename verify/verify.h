/* verify.h: the verification stage: the independent checker and the
 * cycle-accurate simulator of a mapping.
 *
 * The contract: both take only what a mapping is -- the netlist (arch.h),
 * the MRRG it refers to and the DFG it maps (mapper/map.h), and the
 * cg_mapping itself -- and trust nothing else.  They are built on the
 * mapper's model (the MRRG, the mapping type, immediates and node names:
 * mapper/map.h and mapper/model/) and never on the searches or the exact
 * models (mapper/search/, mapper/exact/), so a mapping from any mapper, or
 * read back from a file (mapper/mapping_io.h), is judged by the same
 * rules.
 * The mapper stage (cg_map) checks what it returns with cg_map_check; the
 * flow stage checks and simulates again, and the tiled run (tiling/)
 * simulates each tile with cg_sim_run.
 *
 * A mapping that breaks a rule is an outcome, not a crash: each returns -1
 * with one error per violation in d and never exits.
 */
#ifndef CG_VERIFY_H
#define CG_VERIFY_H

#include <stdint.h>

#include "../arch/arch.h"
#include "../common/diag.h"
#include "../dfg/dfg.h"
#include "../mapper/map.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the checker ---------------------------------------------------------- */

/* Verify every rule: each op on a FUNC node that supports it in the context
 * start mod II (a load/store with a bank on a MEMUnit that reaches it), on
 * a unit at least as wide as the node and routed through ports at least as
 * wide as its value (docs/mapper.md, "Widths"), no
 * FUNC or ROUTE node used twice, each route a connected path of MRRG edges
 * from the producer to the right operand pin, timing start(dst) +
 * distance*II == start(src) + route latency for every edge, and the memory
 * order of cg_map_mem_orders.  A const with place -1 is an immediate: it
 * needs a value, and each edge it feeds no route and a consumer on a unit
 * that takes an immediate on that operand with a field the value fits.
 * Returns 0 when valid; otherwise -1 with one error per violation. */
int cg_map_check(const cg_netlist *nl, const cg_mrrg *mrrg, const cg_dfg *g,
                 const cg_mapping *m, cg_diags *d);

/* ---- the simulator ------------------------------------------------------- */

/* Execute the configured array cycle by cycle for iters iterations, on mem,
 * with inputs/outputs indexed by DFG node id as in cg_dfg_run().  Side
 * effects of iterations outside 0..iters-1 are suppressed.  A MEMUnit
 * accesses memory in the cycle its op starts; memory operations of one
 * cycle take effect in iteration order, then node order; the mapping must
 * order dependent accesses in time (cg_map_mem_orders; the simulator shows
 * it when it does not).  A load/store with a bank b >= 0 addresses bank b
 * of mem, which is the tile memory: its bytes [b*B, (b+1)*B) from mem->base,
 * B = the memory's bytes / banks.  A const with place -1 is configured as
 * the immediate field of each operand it feeds (sign-extended by the unit).
 * Returns 0, or -1 with an error (access outside mem or outside its bank,
 * division by zero, a route the array cannot be configured for, an
 * immediate on a unit without one there). */
int cg_sim_run(const cg_netlist *nl, const cg_mrrg *mrrg, const cg_dfg *g,
               const cg_mapping *m, int64_t iters, cg_mem *mem,
               const uint64_t *inputs, uint64_t *outputs, cg_diags *d);

#ifdef __cplusplus
}
#endif

#endif
