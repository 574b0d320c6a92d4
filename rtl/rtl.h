/* rtl.h: the hardware stage: Verilog-2005 for any flattened netlist, its
 * configuration bit map, bitstreams from mappings, their disassembly and
 * testbenches (docs/rtl.md).
 *
 * The array is configured through one shift chain: cfg_in enters the
 * control block (the II and the first context), then every primitive that
 * has configuration, in netlist order; each holds `contexts` copies of its
 * fields, one per context, and reads the copy of the current context.
 * Chain position 0 is the flip-flop next to cfg_in; a bitstream of N bits
 * is shifted in from position N-1 down to 0 (the first bit shifted in
 * travels farthest).  The bit map (cg_rtl_write_bitmap) gives every
 * field's position: base + context * per_context + offset.
 *
 * What the hardware computes per context mirrors the cycle simulator
 * (verify/sim.c) and cg_op_eval: each FuncUnit runs its configured op at
 * the configured width, an operand of a loop-carried edge reads the
 * configured init value in the first `distance` iterations, memory
 * accesses of iterations outside 0..iters-1 are suppressed.  Iterations
 * are counted by a wave counter (one per II cycles) and a stage field per
 * unit and context.
 *
 * The area report runs yosys (cg_rtl_area_of) through cg_rtl_exec, which
 * the co-simulation (verify/rtl.c) uses for the simulators; nothing else
 * here runs a tool.
 */
#ifndef CG_RTL_H
#define CG_RTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../arch/arch.h"
#include "../common/diag.h"
#include "../dfg/dfg.h"
#include "../mapper/map.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most configuration contexts a design holds: the mapper's highest
 * II (CG_MAP_MAX_II).  A plain number so that the CLI may use it. */
#define CG_RTL_MAX_CONTEXTS 64

/* Generation policy.  Fill with cg_rtl_params_init. */
typedef struct cg_rtl_params {
    int contexts;    /* configuration contexts per primitive: the largest
                        II the array runs (1..CG_RTL_MAX_CONTEXTS,
                        default 16) */
    int stage_bits;  /* bits of a unit's stage field: a schedule may span
                        at most 2^stage_bits - 1 waves (1..16, default 8) */
    int dist_bits;   /* bits of an operand's loop-carried distance field
                        (1..8, default 3: distances up to 7) */
} cg_rtl_params;
void cg_rtl_params_init(cg_rtl_params *p);

/* ---- combinational loops --------------------------------------------- */

/* Every netlist cycle that passes no register (Register, RegisterFile
 * write, unit latency >= 1): one error per strongly connected set of such
 * ports, naming a cycle through it port by port ("combinational loop:
 * a.out -> b.in0 -> ... -> a.out") at the line declaring its first
 * primitive; sets whose cycles pass the same declarations in other blocks
 * are counted in that error, not repeated.  Returns the number of sets
 * found (0 when none), -1 on no memory. */
int cg_rtl_find_loops(const cg_netlist *nl, cg_diags *d);

/* ---- the design ------------------------------------------------------ */

/* One configuration field of one instance, for context 0 (add context *
 * per_context for context c). */
typedef struct cg_rtl_field {
    const char *name;  /* "op", "sel", "init", "imm1", ... */
    int offset;        /* bits from the instance's base */
    int width;
} cg_rtl_field;

/* The configuration layout of one netlist primitive. */
typedef struct cg_rtl_inst {
    int prim;          /* netlist primitive */
    int module;        /* index of its Verilog module (cg_rtl_module) */
    int base;          /* chain position of its first bit; -1 when it has
                          no configuration */
    int per_context;   /* bits per context (0: none) */
    int nfields;
    cg_rtl_field fields[16];
} cg_rtl_inst;

typedef struct cg_rtl cg_rtl;

/* Lay out nl's configuration and its modules.  NULL with errors in d on a
 * combinational loop (cg_rtl_find_loops), parameters out of range or a
 * primitive the templates cannot build (width above 64). */
cg_rtl *cg_rtl_create(const cg_netlist *nl, const cg_rtl_params *p,
                      cg_diags *d);
void cg_rtl_destroy(cg_rtl *r); /* accepts NULL */

const cg_netlist *cg_rtl_netlist(const cg_rtl *r);
const cg_rtl_params *cg_rtl_get_params(const cg_rtl *r);
int cg_rtl_chain_length(const cg_rtl *r);   /* bits in all */
int cg_rtl_ctx_bits(const cg_rtl *r);       /* bits of a context number */
const cg_rtl_inst *cg_rtl_inst_of(const cg_rtl *r, int prim);
/* Distinct Verilog modules and the name of module i ("cg_FuncUnit_0"). */
int cg_rtl_nmodules(const cg_rtl *r);
const char *cg_rtl_module_name(const cg_rtl *r, int i);
/* A FuncUnit's op code k (1..nops) names op ops[k-1]: the unit's ops in
 * cg_op order; 0 is idle.  The code of op on prim, 0 when it has none. */
int cg_rtl_op_code(const cg_rtl *r, int prim, cg_op op);
/* Verilog-safe name of prim's instance ("p3_block_1_1_func"). */
const char *cg_rtl_inst_name(const cg_rtl *r, int prim);

/* The whole design: one module per distinct (primitive, parameters),
 * then the top module cg_array.  0, or -1 with errno. */
int cg_rtl_write_verilog(const cg_rtl *r, FILE *out);
/* Only module i (the area report synthesizes modules one by one). */
int cg_rtl_write_module(const cg_rtl *r, int i, FILE *out);
/* The bit map as JSON.  0, or -1 with errno. */
int cg_rtl_write_bitmap(const cg_rtl *r, FILE *out);

/* ---- bitstreams ------------------------------------------------------ */

/* A configuration: one byte (0 or 1) per chain position. */
typedef struct cg_rtl_bits {
    int n;
    uint8_t *bit;
} cg_rtl_bits;
void cg_rtl_bits_free(cg_rtl_bits *b);

/* The configuration of mapping m (of g on r's netlist at m->ii) into *out:
 * the control block, each unit's op, width, stage and loop-carried
 * operands, mux selects, register-file addresses, constants and
 * immediates; every other bit 0.  inputs (per DFG node id, may be NULL for
 * 0) give the init values that are live-ins.  tmin is the schedule's
 * first start.  0, or -1 with an error naming what the hardware cannot
 * hold (II above the contexts, a stage or distance beyond its field, an
 * input on a unit without a port out of the array, two different init
 * values on one unit and context). */
int cg_rtl_bitstream(const cg_rtl *r, const cg_mrrg *mrrg, const cg_dfg *g,
                     const cg_mapping *m, const uint64_t *inputs,
                     cg_rtl_bits *out, cg_diags *d);
/* Text form, shift order (position n-1 first), one bit per line after a
 * comment line: what $readmemb reads.  0, or -1 with errno. */
int cg_rtl_write_bits(const cg_rtl_bits *b, FILE *out);
/* Read cg_rtl_write_bits' form; 0, or -1 with an error at file. */
int cg_rtl_read_bits(FILE *in, const char *file, cg_rtl_bits *out,
                     cg_diags *d);
/* The disassembly: per context, every instance with a nonzero field and
 * its fields by name, ops by name ("ctx 0 p5_block_1_1_func op=add w=32
 * ..."); deterministic.  0, or -1 with errno. */
int cg_rtl_disassemble(const cg_rtl *r, const cg_rtl_bits *b, FILE *out);
/* Field `name` of prim's instance in context c of b; 0 when absent. */
uint64_t cg_rtl_field_value(const cg_rtl *r, const cg_rtl_bits *b, int prim,
                            const char *name, int c);

/* ---- testbenches ----------------------------------------------------- */

/* The largest memory image and the most live-outs a testbench takes. */
#define CG_RTL_TB_MEM_MAX (1 << 22)
#define CG_RTL_TB_OUTS_MAX 64

/* A testbench module cg_tb for the array, the same for every mapping (so
 * a simulator compiles it once per array).  It reads, from the folder it
 * runs in: bitstream.txt (cg_rtl_write_bits), mem.hex (cg_rtl_write_mem),
 * order.hex, livein.hex and outsel.hex (cg_rtl_write_run_tables), and the
 * plusargs +iters +cycles +base +size +nouts (cg_rtl_plusargs).  It
 * shifts the bitstream in, resets, runs prologue, iterations and epilogue,
 * serving the MEMUnits' requests in the middle of each cycle from a byte
 * memory in the order order.hex gives per context (the simulator's:
 * iteration order, then node order), drives live-ins on the IO ports per
 * context, samples live-outs where outsel.hex says, then writes
 * mem_out.hex and outs.txt and prints "cg_tb: done".  0, or -1 with
 * errno. */
int cg_rtl_write_testbench(const cg_rtl *r, FILE *out);

/* What one run of a mapping needs beside the design and the bitstream. */
typedef struct cg_rtl_run {
    const cg_mrrg *mrrg;
    const cg_dfg *g;
    const cg_mapping *m;
    int64_t iters;
    uint64_t mem_base, mem_size;  /* the image's address range */
    const uint64_t *inputs;       /* live-ins per DFG node id, NULL = 0 */
} cg_rtl_run;

/* The run's tables: order.hex, livein.hex, outsel.hex into the three
 * streams.  0, or -1 with errno (EINVAL: more live-outs than the
 * testbench takes, or an output on a unit other than an IO). */
int cg_rtl_write_run_tables(const cg_rtl *r, const cg_rtl_run *run,
                            FILE *order, FILE *livein, FILE *outsel);
/* The run's plusargs into buf ("+iters=16 +cycles=40 ..."); the cycles
 * run after reset.  -1 when buf is too small. */
int cg_rtl_plusargs(const cg_rtl_run *run, char *buf, size_t len);
/* The DFG output nodes in the order outs.txt lists them; their number. */
int cg_rtl_run_outputs(const cg_rtl_run *run, int *nodes);
/* The memory image as $readmemh reads it: one byte per line. */
int cg_rtl_write_mem(const cg_mem *mem, FILE *out);

/* ---- tools --------------------------------------------------------------- */

/* Run argv (argv[0] looked up on PATH) in folder dir, its output appended
 * to dir/log; its exit status, 127 when it could not start.  What the
 * co-simulation (verify/rtl.c) and the area report run their tools with. */
int cg_rtl_exec(const char *dir, char *const *argv);
/* cg_rtl_exec in two halves, for tools run side by side: start argv in
 * dir (its process id, -1 when fork failed) and wait for it (its exit
 * status as cg_rtl_exec's, -1 when pid is not a child). */
int cg_rtl_spawn(const char *dir, char *const *argv);
int cg_rtl_wait(int pid);
/* cg_rtl_wait without waiting: true with *status set once pid has ended
 * (or is no child: *status -1), false while it runs. */
bool cg_rtl_try_wait(int pid, int *status);
/* Remove folder dir and everything in it, as far as it can (a folder of
 * the tools' own: what is left is left quietly). */
void cg_rtl_remove_tree(const char *dir);
/* The last nonempty line of dir/log into buf (for messages). */
void cg_rtl_log_tail(const char *dir, char *buf, size_t len);

/* ---- area ----------------------------------------------------------------- */

/* The NAND2-equivalent weight of a yosys generic cell type ("$_AND_"),
 * docs/rtl.md's table; 1 for a type the table lacks. */
double cg_rtl_nand2_weight(const char *cell);

/* One distinct module synthesized. */
typedef struct cg_rtl_module_area {
    int instances;    /* primitives of the array that are this module */
    int cells, ffs;   /* generic cells, flip-flops among them */
    double nand2;     /* NAND2-equivalents by the weight table */
    int ntypes;
    struct { char type[64]; int count; } types[32]; /* cells by type */
} cg_rtl_module_area;

typedef struct cg_rtl_area {
    int nmodules;
    cg_rtl_module_area *mod; /* per module (cg_rtl_module_name) */
    long cells, ffs;         /* the array: each module times instances */
    double nand2;
    int cached;              /* modules read from the cache */
} cg_rtl_area;

/* Synthesize every distinct module of r with yosys (`synth -top M;
 * stat`), each once and up to jobs at a time (jobs <= 0: one per online
 * processor), its statistics cached in cache_dir under the hash of its
 * text.  The figures do not depend on jobs.  0 with *out filled (free
 * with cg_rtl_area_free); -1 with an error naming the first module, in
 * module order, that failed and yosys's last line (or that yosys is
 * missing). */
int cg_rtl_area_of(const cg_rtl *r, const char *cache_dir, int jobs,
                   cg_rtl_area *out, cg_diags *d);
void cg_rtl_area_free(cg_rtl_area *a);

/* Configuration bits per context of each grid block with a FuncUnit (a
 * PE): the least, the most and the mean over them. */
void cg_rtl_bits_per_block(const cg_rtl *r, int *least, int *most,
                           double *mean);

#ifdef __cplusplus
}
#endif

#endif
