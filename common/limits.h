/* limits.h: the largest architectures (and input files) cgramap accepts,
 * in one place.
 *
 * Each bound is far above any real CGRA and keeps every count of the model,
 * the netlist and the pictures inside an int, so an absurd input is a clear
 * error naming the value and the limit instead of an overflow, a silently
 * truncated number or an allocation of gigabytes.  docs/xml.md and
 * docs/arch.md quote the messages.
 */
#ifndef CG_LIMITS_H
#define CG_LIMITS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Cells of a grid, the IO ring included (512x512). */
#define CG_MAX_GRID_CELLS (1 << 18)
/* Bits of a port, a wire or a unit. */
#define CG_MAX_WIDTH (1 << 16)
/* Cycles of a FuncUnit's latency. */
#define CG_MAX_LATENCY (1 << 16)
/* Ports of one primitive or memory bank: a Multiplexer's inputs, a
 * RegisterFile's write or read ports, a bank's accesses per cycle. */
#define CG_MAX_PORTS (1 << 12)
/* log2 of a RegisterFile's register count. */
#define CG_MAX_LOG2_REGS 16
/* Banks of a tile memory, and the bank a MEMUnit names. */
#define CG_MAX_BANKS (1 << 16)
/* Module instances, and ports and wires, of a flattened architecture. */
#define CG_MAX_NODES (1 << 24)
/* Bytes of one architecture, template, DFG or mapping file (64 MiB; a
 * chain .dot of 300,000 nodes is 15 MB): a device or a FIFO given as one is
 * not read forever. */
#define CG_MAX_INPUT_BYTES (1 << 26)

#ifdef __cplusplus
}
#endif

#endif
