/* arch.h: the architecture model of cgramap and its C API.
 *
 * An architecture (cg_arch) is a library of module definitions, one of which
 * is the top ("architecture") module, plus the tile memories and the DMA
 * engine.  Modules hold ports, wires, primitive instances, sub-module
 * instances and connections.  Nothing is resolved while building: names are
 * checked by cg_arch_flatten(), which turns the hierarchy into a device
 * netlist (cg_netlist) of primitives, ports and nets.  Every later stage (the
 * MRRG, the simulator, the pictures) reads only the netlist.
 *
 * Parameters of the XML language (mode="add sub", if=...) are resolved by the
 * XML front end, which defines one concrete module per distinct parameter set;
 * this model has no parameters.
 *
 * Errors never abort: functions that can fail take a cg_diags and return a
 * negative value (or NULL).  Objects created after cg_arch_set_loc() carry
 * that location, so flattening errors point at the XML line that made them.
 */
#ifndef CG_ARCH_H
#define CG_ARCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../common/diag.h"
#include "../common/limits.h"
#include "../common/op.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cg_dir { CG_DIR_IN, CG_DIR_OUT, CG_DIR_INOUT } cg_dir;

/* Primitive kinds and their ports (exactly these names):
 *   FuncUnit      in_a, in_b, [in_c], out (ops; width; latency; in_c only
 *                                          when the ops include select)
 *   MEMUnit       addr, data_in, data_out (ops load store; memory, bank)
 *   Register      in, out
 *   Multiplexer   in0..in{n-1}, select, out (select is configuration)
 *   TriState      in, enable, out
 *   IO            in, out, bidir
 *   RegisterFile  in0.., address_in0.., WEN0.., out0.., address_out0..
 *   ConstUnit     out                     (supplies an immediate per context)
 * Multiplexer select, TriState enable, RegisterFile address_* and WEN*, and
 * IO bidir are configuration: they need no connection.  docs/arch.md has
 * the details, the default array's PE and every message.
 */
typedef enum cg_prim_kind {
    CG_PRIM_FUNC,
    CG_PRIM_MEM,
    CG_PRIM_REG,
    CG_PRIM_MUX,
    CG_PRIM_TRISTATE,
    CG_PRIM_IO,
    CG_PRIM_REGFILE,
    CG_PRIM_CONST,
    CG_PRIM_COUNT
} cg_prim_kind;

/* Parameters of a primitive instance.  Fill with cg_prim_params_init(). */
typedef struct cg_prim_params {
    cg_prim_kind kind;
    int width;          /* data width in bits, default 32 */
    cg_opset ops;       /* FuncUnit: default add sub; MEMUnit: load store */
    int latency;        /* FuncUnit: cycles from inputs to out, default 0 */
    int ninput;         /* Multiplexer inputs (default 2); RegisterFile
                           write ports (default 1) */
    int noutput;        /* RegisterFile read ports, default 1 */
    int log2_nregs;     /* RegisterFile: log2 of the register count, def. 2 */
    const char *memory; /* MEMUnit: tile memory it reaches, NULL = the only
                           one (or none declared) */
    int bank;           /* MEMUnit: bank it reaches, -1 = every bank */
    unsigned imm_operands; /* FuncUnit, MEMUnit: bit k set = operand k
                           (in_a, in_b, in_c; addr, data_in) may be an
                           immediate from the configuration instead of a
                           routed value; default 0 = none */
    int imm_width;      /* bits of each immediate field, sign-extended to
                           the operand; 0 = width (needs imm_operands) */
} cg_prim_params;

/* Name as written in XML ("FuncUnit", "MEMUnit", ...). */
const char *cg_prim_kind_name(cg_prim_kind k);
/* Parse a primitive module name; false when it is not a primitive. */
bool cg_prim_kind_parse(const char *name, cg_prim_kind *k);
/* Fill defaults for kind. */
void cg_prim_params_init(cg_prim_params *p, cg_prim_kind kind);

/* Maximum DMA dimensions any architecture may declare. */
#define CG_DMA_MAX_DIMS 8
/* The bandwidths a DMA engine may have, in bytes per cycle: below one byte
 * in 1000 cycles a transfer's cycles would leave the counts' range. */
#define CG_DMA_MIN_BYTES_PER_CYCLE 0.001
#define CG_DMA_MAX_BYTES_PER_CYCLE 1048576.0
/* Is b in CG_DMA_MIN..MAX_BYTES_PER_CYCLE (false for NaN)? */
bool cg_dma_bytes_per_cycle_ok(double b);

/* The DMA engine between external memory and the tile memories. */
typedef struct cg_dma_params {
    int64_t ext_bytes;       /* size of the external memory */
    double bytes_per_cycle;  /* sustained bandwidth per channel */
    int setup_cycles;        /* fixed cost of each transfer */
    int channels;            /* transfers that may run at once */
    int max_dims;            /* dimensions of one descriptor (1..8) */
    int64_t max_size[CG_DMA_MAX_DIMS];   /* elements per dimension, 0 = any */
    int64_t max_stride[CG_DMA_MAX_DIMS]; /* |stride| in bytes, 0 = any */
} cg_dma_params;
void cg_dma_params_init(cg_dma_params *p); /* 1 channel, 4 B/cycle, 4 dims */

/* ---- building an architecture ---------------------------------------- */

typedef struct cg_arch cg_arch;

cg_arch *cg_arch_create(void);
void cg_arch_destroy(cg_arch *a); /* accepts NULL */

/* Location stamped on every object created from now on (file is copied). */
void cg_arch_set_loc(cg_arch *a, const char *file, int line);

/* Define a module; returns its id (>= 0), or -1 with an error when the name
 * is taken or is a primitive's. */
int cg_arch_module_define(cg_arch *a, const char *name, cg_diags *d);
/* Id of a defined module, -1 when none. */
int cg_arch_module_find(const cg_arch *a, const char *name);
/* The top module, whose instances are the blocks of the grid. */
void cg_arch_set_top(cg_arch *a, int mod);
/* Grid size, used by the netlist and the pictures. */
void cg_arch_set_grid(cg_arch *a, int rows, int cols);

/* Add a port or wire to module mod; -1 with an error on a duplicate name. */
int cg_arch_add_port(cg_arch *a, int mod, const char *name, cg_dir dir,
                     int width, cg_diags *d);
int cg_arch_add_wire(cg_arch *a, int mod, const char *name, int width,
                     cg_diags *d);
/* Add a primitive instance; -1 with an error on a duplicate name or bad
 * parameters (width < 1, latency < 0, ninput < 1, FuncUnit without ops,
 * an immediate on another kind or on an operand the unit lacks, an
 * immediate width outside 1..width or without any immediate operand). */
int cg_arch_add_prim(cg_arch *a, int mod, const char *inst,
                     const cg_prim_params *p, cg_diags *d);
/* Add an instance of a user module (may be defined later). */
int cg_arch_add_submodule(cg_arch *a, int mod, const char *inst,
                          const char *module, cg_diags *d);
/* Grid position of an instance of the top module (a "block"). */
void cg_arch_set_position(cg_arch *a, int mod, int inst, int row, int col);

/* Connect two references inside mod.  A reference is "port" or "this.port"
 * (a port or wire of mod) or "inst.port".  Checked when flattening.  from
 * and to may list several references separated by blanks: each source is
 * connected to each target (one to several is fan-out; several to one is
 * a two-driver error when flattening, use cg_arch_connect_select). */
int cg_arch_connect(cg_arch *a, int mod, const char *from, const char *to,
                    cg_diags *d);
/* Drive `to` from any of froms[0..n-1] through a new multiplexer named
 * "<to's instance>_<port>_mux" (one per target). */
int cg_arch_connect_select(cg_arch *a, int mod, const char *const *froms,
                           int n, const char *to, cg_diags *d);

/* Declare a tile memory (scratchpad): bytes in all, split into banks, each
 * bank with `ports` accesses per cycle.  -1 with an error on bad values. */
int cg_arch_add_memory(cg_arch *a, const char *name, int64_t bytes,
                       int banks, int ports, cg_diags *d);
/* Declare the external memory and DMA engine (at most one). */
int cg_arch_set_dma(cg_arch *a, const cg_dma_params *p, cg_diags *d);
/* The bits of a memory address (1..64, default 32; -1 with an error
 * otherwise).  The extractor narrows index arithmetic, loop counters and
 * address constants to it where exact (docs/dfg.md), so that they fit
 * units of that width; ops wider than their unit are rejected by the
 * mapper and the checker (docs/mapper.md, "Widths"). */
int cg_arch_set_addr_width(cg_arch *a, int bits, cg_diags *d);

/* ---- ready-made arrays ------------------------------------------------- */

typedef struct cg_mesh_params {
    int rows, cols;
    bool diagonal;      /* also connect the four diagonal neighbours */
    bool torus;         /* wrap around at the edges */
    bool mem_columns;   /* west and east columns get a MEMUnit per PE */
    bool io;            /* IO blocks on every side port, none in corners */
    cg_opset ops;       /* ops of every PE's FuncUnit */
    cg_opset mul_ops;   /* extra ops on PEs where (row + col) is even, for
                           heterogeneous arrays; 0 = none */
    int width;          /* data width in bits */
    int64_t mem_bytes;  /* tile memory bytes when mem_columns (0 = none) */
    int mem_banks;
} cg_mesh_params;
/* 4x4, no diagonal, no torus, memory columns, IO, all ALU ops, 32 bits,
 * 16 KiB in 2 banks. */
void cg_mesh_params_init(cg_mesh_params *p);
/* Build a mesh array; NULL with an error on bad parameters. */
cg_arch *cg_arch_mesh(const cg_mesh_params *p, cg_diags *d);
/* The architecture embedded in the CLI (a 4x4 mesh whose west and east
 * columns load and store to a tile memory fed by DMA). */
cg_arch *cg_arch_default(cg_diags *d);

/* ---- the device netlist ------------------------------------------------ */

typedef struct cg_netlist cg_netlist;

typedef struct cg_nl_prim {
    const char *name;   /* unique hierarchical name, "block_2_3.func" */
    cg_prim_params p;   /* p.memory points into the netlist */
    int row, col;       /* grid position of its block, -1 when none */
    int port0, nports;  /* its ports are port0 .. port0+nports-1 */
    int memory;         /* MEMUnit: index of its tile memory, -1 none */
    cg_loc loc;         /* where it was declared */
} cg_nl_prim;

typedef struct cg_nl_port {
    const char *name;   /* port name on the primitive ("in_a") */
    int prim;
    cg_dir dir;
    int width;
    int net;            /* -1 when unconnected */
} cg_nl_port;

typedef struct cg_nl_net {
    int driver;         /* port id of the single driver */
    int nsinks;
    const int *sinks;   /* port ids */
} cg_nl_net;

typedef struct cg_nl_memory {
    const char *name;
    int64_t bytes;
    int banks, ports;
    cg_loc loc;         /* where it is declared (file NULL: unknown) */
} cg_nl_memory;

/* Resolve every name, expand hierarchy and check: unknown module, port or
 * instance (with the list of what exists), two drivers on one input, width
 * mismatches (errors); unconnected primitive inputs (warnings).  NULL when
 * any error was reported. */
cg_netlist *cg_arch_flatten(const cg_arch *a, cg_diags *d);
void cg_netlist_destroy(cg_netlist *nl); /* accepts NULL */

int cg_netlist_rows(const cg_netlist *nl);
int cg_netlist_cols(const cg_netlist *nl);
int cg_netlist_nprims(const cg_netlist *nl);
const cg_nl_prim *cg_netlist_prim(const cg_netlist *nl, int i);
int cg_netlist_find_prim(const cg_netlist *nl, const char *name); /* -1 */
int cg_netlist_nports(const cg_netlist *nl);
const cg_nl_port *cg_netlist_port(const cg_netlist *nl, int i);
/* Port id of prim's port `name`, -1 when it has none. */
int cg_netlist_prim_port(const cg_netlist *nl, int prim, const char *name);
int cg_netlist_nnets(const cg_netlist *nl);
const cg_nl_net *cg_netlist_net(const cg_netlist *nl, int i);
int cg_netlist_nmemories(const cg_netlist *nl);
const cg_nl_memory *cg_netlist_memory(const cg_netlist *nl, int i);
/* The DMA engine, NULL when the architecture declares none. */
const cg_dma_params *cg_netlist_dma(const cg_netlist *nl);
/* Where the DMA engine is declared, and where the architecture is (its
 * top module: <architecture> in XML); file NULL when unknown (the C API
 * without cg_arch_set_loc, the embedded default).  For messages about
 * what the netlist lacks or holds. */
cg_loc cg_netlist_dma_loc(const cg_netlist *nl);
cg_loc cg_netlist_loc(const cg_netlist *nl);
/* The architecture's address width (cg_arch_set_addr_width). */
int cg_netlist_addr_width(const cg_netlist *nl);

/* Check the netlist's invariants (ports belong to their primitive, one
 * driver per net, sinks sorted and on the net, equal widths along a net,
 * names sorted and unique, memory indices valid); 0, or -1 with an error
 * per broken one.  Flatten's output always passes; later stages may run it
 * on netlists they edit or reload. */
int cg_netlist_check(const cg_netlist *nl, cg_diags *d);

/* The writers return 0 when every byte reached out (flushed), or -1 with
 * errno ENOMEM (out of memory: nothing written) or the write's error
 * (ENOSPC for a full disk, ...). */
/* Deterministic text form of the whole netlist (golden tests). */
int cg_netlist_write(const cg_netlist *nl, FILE *out);
/* Human summary: grid, blocks, FuncUnits per opcode, MEMUnits, registers,
 * muxes, register files, IOs, const units, memories and DMA. */
int cg_netlist_summary(const cg_netlist *nl, FILE *out);
/* The pictures' geometry, in points with y growing upward (Graphviz's
 * convention): xy[2i], xy[2i+1] get the centre of primitive i (blocks on
 * their grid, a block's primitives on a small grid inside its cell,
 * primitives outside any block on a square below the array); size gets
 * the width and height of the array's cells (a picture of several arrays
 * side by side shifts each by them).  xy holds 2 * nprims doubles. */
void cg_netlist_layout(const cg_netlist *nl, double *xy, double size[2]);
/* Graphviz picture of the array on its grid: primitives pinned at
 * cg_netlist_layout's points (inputscale=72), one outline per block, every
 * connection an arrow.  Render with `neato -Tsvg`. */
int cg_netlist_write_dot(const cg_netlist *nl, FILE *out);
/* Graphviz picture of the array at the PE level: one box per block on the
 * grid (its name, its FuncUnits' op classes, its other units), one
 * straight arrow per pair of connected blocks (two heads when values flow
 * both ways), so that diagonal links are diagonal.  `neato -Tsvg`. */
int cg_netlist_write_pe_dot(const cg_netlist *nl, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
