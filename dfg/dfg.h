/* dfg.h: data-flow graphs of loop bodies, their Graphviz form, the reference
 * interpreter, and the loop nest around a tagged loop.
 *
 * A DFG is one iteration of a loop body.  Nodes are operations (op.h); an
 * edge feeds operand `operand` of `dst` with the value `src` produced
 * `distance` iterations earlier (0 = same iteration).  For the first
 * `distance` iterations a loop-carried edge reads the value of its `init`
 * node (a const or input node), or 0 when init is -1.
 *
 * Memory is byte-addressed and little-endian.  load/store access width/8
 * bytes at operand 0; store writes operand 1.  Within an iteration, memory
 * operations take effect in node order (ids ascending), which the extractor
 * makes equal to program order.
 *
 * The graph owns all its strings; ids are dense ints from 0.
 */
#ifndef CG_DFG_H
#define CG_DFG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../common/diag.h"
#include "../common/op.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cg_dfg_node {
    cg_op op;
    cg_pred pred;       /* icmp only */
    int width;          /* result width in bits; load/store: bits accessed;
                           icmp: 1 */
    const char *name;   /* unique within the graph */
    int line;           /* source line, 0 when unknown */
    bool has_value;     /* const: value is known */
    int64_t value;      /* const: the value */
    const char *sym;    /* const: global whose address it is; input: live-in
                           name; NULL otherwise */
    int bank;           /* load/store: the tile-memory bank its MEMUnit must
                           reach (set by the tiler), -1 = any */
} cg_dfg_node;

typedef struct cg_dfg_edge {
    int src, dst;
    int operand;        /* operand index at dst */
    int distance;       /* iterations between production and use */
    int init;           /* node giving the value before the first
                           production, -1 = 0 */
} cg_dfg_edge;

typedef struct cg_dfg cg_dfg;

cg_dfg *cg_dfg_create(const char *name);   /* name: the loop tag */
void cg_dfg_destroy(cg_dfg *g);            /* accepts NULL */
const char *cg_dfg_name(const cg_dfg *g);
/* Source file of the loop (for messages), NULL when unknown. */
const char *cg_dfg_file(const cg_dfg *g);
void cg_dfg_set_file(cg_dfg *g, const char *file);

/* Add a node; name NULL makes "<op><id>"; a name already taken gets a
 * ".1", ".2", ... suffix.  Returns the id, -1 on no memory.  The new node
 * has pred CG_PRED_NONE, line 0, no value, no sym, bank -1. */
int cg_dfg_add_node(cg_dfg *g, cg_op op, int width, const char *name);
/* Node id for changes in place; NULL for a bad id.  The pointer is valid
 * until the next cg_dfg_add_node.  A node's name is fixed once added
 * (cg_dfg_find hashes it); set sym only through the functions below (the
 * graph owns its strings). */
cg_dfg_node *cg_dfg_node_mut(cg_dfg *g, int id);
void cg_dfg_set_sym(cg_dfg *g, int id, const char *sym);
/* A const's value: sets value and has_value. */
void cg_dfg_set_value(cg_dfg *g, int id, int64_t value);
/* Add an edge; returns its id. */
int cg_dfg_add_edge(cg_dfg *g, int src, int dst, int operand, int distance,
                    int init);
/* Edge id for changes in place; NULL for a bad id.  Valid until the next
 * cg_dfg_add_edge. */
cg_dfg_edge *cg_dfg_edge_mut(cg_dfg *g, int id);
/* Drop the nodes whose keep_node[id] is false (with every edge touching
 * them, and init references to them become -1) and the edges whose
 * keep_edge[id] is false; either array may be NULL (keep all).  Survivors
 * keep their relative order; new_id (NULL or nnodes ints) receives each old
 * node id's new id, or -1. */
void cg_dfg_compact(cg_dfg *g, const bool *keep_node, const bool *keep_edge,
                    int *new_id);

int cg_dfg_nnodes(const cg_dfg *g);
const cg_dfg_node *cg_dfg_get_node(const cg_dfg *g, int id);
int cg_dfg_find(const cg_dfg *g, const char *name); /* -1 when none */
int cg_dfg_nedges(const cg_dfg *g);
const cg_dfg_edge *cg_dfg_get_edge(const cg_dfg *g, int id);
/* Edge feeding operand k of node id, -1 when none (the first one when
 * several do).  Scans the edges: precompute in hot loops. */
int cg_dfg_operand_edge(const cg_dfg *g, int id, int k);

/* Check the graph: every operand fed exactly once, no operand beyond the
 * op's arity, distances >= 0, no cycle of distance 0, init nodes are const
 * or input (and only on edges with distance >= 1), widths 1..64 (load and
 * store: 8, 16, 32 or 64), icmp: 1 bit with a predicate, operand widths as
 * LLVM types require (binary ops, gep, phi, output, select values, store
 * data: the node's width; select condition: 1; icmp: equal; trunc: not
 * wider, sext/zext: not narrower).  Errors name the node and its source
 * line (file:line when the graph has a file).  0 when the graph is good,
 * -1 otherwise. */
int cg_dfg_check(const cg_dfg *g, cg_diags *d);

/* ---- Graphviz I/O ------------------------------------------------------ */

/* Read the CGRA-ME .dot form ("a[opcode=add];", "a->b[operand=1];") and
 * cgramap's own attributes (width, value, pred, distance, init, sym, line,
 * bank).
 * An edge without distance that closes a cycle in depth-first order from
 * the graph's sources gets distance 1.  NULL on error. */
cg_dfg *cg_dfg_read_dot(const char *path, cg_diags *d);
cg_dfg *cg_dfg_read_dot_string(const char *text, const char *filename,
                               cg_diags *d);
/* ---- other mappers' DFGs (docs/dfg.md, "Other mappers' DFGs") --------- */

/* The DFG XML of the NUS mapper family (<DFG>, <Node idx>, <OP>,
 * <Outputs>...), and the text form of the SAT-based mapper family (node
 * and edge lines).  Errors name file:line; NULL on error. */
cg_dfg *cg_dfg_read_nus_xml(const char *path, cg_diags *d);
cg_dfg *cg_dfg_read_text(const char *path, cg_diags *d);
/* By path's extension: .dot, .xml (NUS), .txt (text); another is an
 * error naming them. */
cg_dfg *cg_dfg_read_file(const char *path, cg_diags *d);

/* Write cgramap's .dot form: CGRA-ME readable, and lossless.  0 when every
 * byte reached out (flushed), or -1 with errno set by the failed write
 * (ENOSPC for a full disk, ...). */
int cg_dfg_write_dot(const cg_dfg *g, FILE *out);

/* ---- the interpreter --------------------------------------------------- */

/* A memory image: size bytes starting at byte address base. */
typedef struct cg_mem {
    uint8_t *data;
    uint64_t base;
    uint64_t size;
} cg_mem;

/* Run iterations 0..iters-1.  inputs[id] is read for each input node,
 * outputs[id] receives each output node's value in the last iteration
 * (both indexed by node id, outputs may be NULL).  Fails with an error
 * naming the node on an access outside mem, a division by zero or a const
 * without a value. */
int cg_dfg_run(const cg_dfg *g, int64_t iters, cg_mem *mem,
               const uint64_t *inputs, uint64_t *outputs, cg_diags *d);

/* ---- memory order stated with the graph ------------------------------- */

/* An ordering edge between two memory ops that may access a common byte
 * (at least one a store): `then` of iteration i + distance must take
 * effect after `first` of iteration i.  The mapper derives them from the
 * nest (cg_map_mem_orders, mapper/map.h); a graph can also state them, as
 * the .dot files `cgramap dfg` writes do (graph attribute memory_order),
 * so a DFG saved without its nest keeps the precise order. */
typedef struct cg_mem_order {
    int first, then;  /* DFG load/store nodes */
    int distance;     /* iterations from first's to then's, >= 0 */
    int latency;      /* cycles then must start after first (0: map.h) */
} cg_mem_order;

/* The order stated with g: *v (owned by g) and the number of pairs, or -1
 * when g states none. */
int cg_dfg_mem_order(const cg_dfg *g, const cg_mem_order **v);
/* State g's order: n pairs copied from v (n = 0 states that no two memory
 * ops touch a common byte).  -1 with an error naming the node when a pair
 * names a node that is not a load or store, two loads, a negative
 * distance, distance 0 with `first` not before `then` (program order is id
 * order), or a node whose name the .dot attribute cannot hold (blanks,
 * ':' or "->"). */
int cg_dfg_set_mem_order(cg_dfg *g, const cg_mem_order *v, int n,
                         cg_diags *d);
/* Drop the stated order (the mapper then derives it again). */
void cg_dfg_clear_mem_order(cg_dfg *g);
/* The memory g's addresses lie in, [base, base + bytes): the extractor's
 * layout of the C file's globals (from 0x10000), stated so that a DFG
 * saved without its C file is run on memory that holds them (.dot graph
 * attribute memory="BASE BYTES").  cg_dfg_memory returns bytes, 0 when g
 * states none, and *base (may be NULL). */
void cg_dfg_set_memory(cg_dfg *g, uint64_t base, uint64_t bytes);
uint64_t cg_dfg_memory(const cg_dfg *g, uint64_t *base);
/* cg_dfg_write_dot stating the n pairs of v as g's memory order instead
 * of the order g states (n < 0: none).  The main job's --mapping-dir
 * passes the order the mapper derived from the nest, which the .dot
 * cannot hold: read back, the graph is ordered as it was mapped. */
int cg_dfg_write_dot_ordered(const cg_dfg *g, const cg_mem_order *v, int n,
                             FILE *out);

/* ---- the loop nest (filled by the extractor, read by the tiler) -------- */

#define CG_NEST_MAX_LOOPS 8

/* value = cst + sum coef[l] * counter[l] + sum sym_coef[s] * symbol[s],
 * counters indexed from the outermost loop (0) to the tagged loop. */
typedef struct cg_affine {
    bool is_affine;               /* false: not expressible */
    int64_t cst;
    int64_t coef[CG_NEST_MAX_LOOPS];
} cg_affine;

typedef struct cg_nest_loop {
    const char *counter;  /* source name of the counter when known */
    int line;             /* line of the loop keyword */
    int64_t start, step;  /* counter = start + step * k */
    int64_t trip;         /* trip count, -1 when symbolic */
    const char *trip_sym; /* symbolic trip count's name, NULL otherwise */
    bool trip_in_memory;  /* trip_sym names a global the count is read
                             from (no --sym gives it) */
} cg_nest_loop;

typedef struct cg_nest_array {
    const char *name;     /* global's name */
    int64_t base;         /* byte address in the extractor's memory layout */
    int64_t bytes;        /* size of the global */
    int elem_size;        /* bytes per element */
    int ndims;
    int64_t dims[CG_NEST_MAX_LOOPS]; /* C declaration dims, outermost first */
} cg_nest_array;

typedef struct cg_nest_access {
    int node;             /* load or store node of the DFG */
    bool is_store;
    int array;            /* index into arrays, -1 when unknown */
    cg_affine index;      /* byte offset from the array base */
} cg_nest_access;

typedef struct cg_nest_livein {
    int node;             /* input node of the DFG */
    cg_affine value;      /* its value as a function of the outer counters */
    bool varies;          /* not affine, and computed in a loop around the
                             tagged one: it may change between executions
                             (a load clang hoisted out of the loop, say) */
} cg_nest_livein;

typedef struct cg_nest {
    int nloops;                 /* enclosing loops + the tagged loop (last) */
    cg_nest_loop loops[CG_NEST_MAX_LOOPS];
    int narrays;
    cg_nest_array *arrays;
    int naccesses;
    cg_nest_access *accesses;
    int nliveins;
    cg_nest_livein *liveins;
} cg_nest;

/* The nest recorded with the graph, NULL when none (e.g. read from .dot). */
const cg_nest *cg_dfg_nest(const cg_dfg *g);
/* Give g a nest; g takes ownership of nest and everything it points to
 * (allocated with malloc; strings too). */
void cg_dfg_set_nest(cg_dfg *g, cg_nest *nest);
void cg_nest_destroy(cg_nest *n); /* accepts NULL */

#ifdef __cplusplus
}
#endif

#endif
