/* dfg_internal.h: what dfg/'s files share and nothing else needs. */
#ifndef CG_DFG_INTERNAL_H
#define CG_DFG_INTERNAL_H

#include <stddef.h>

#include "dfg.h"

/* An allocation of g failed since its creation: a name, a symbol, a node or
 * an edge is missing (the setters return nothing). */
bool cg__dfg_oom(const cg_dfg *g);

/* Where to point a message about a node or an edge: the source line of the
 * C code for cg_dfg_check, the .dot statement for the dot reader. */
typedef struct cg__dfg_locator {
    cg_loc (*node)(const void *ctx, int id);
    cg_loc (*edge)(const void *ctx, int id);
    const void *ctx;
} cg__dfg_locator;

/* cg_dfg_check with messages placed by loc (NULL: the graph's file and
 * each node's line).  Returns the number of errors added. */
int cg__dfg_check(const cg_dfg *g, const cg__dfg_locator *loc, cg_diags *d);

/* A topological order of the nodes over distance-0 edges (edges with an
 * invalid end are ignored); with mem_chain, memory ops are also ordered by
 * id.  Fills order[0..k) and returns k, which is nnodes iff there is no
 * cycle; -1 on no memory. */
int cg__dfg_topo(const cg_dfg *g, bool mem_chain, int *order);

/* ---- readers of other mappers' DFGs (foreign.c) ----------------------- */

/* A graph being read, with the line of each node and edge. */
typedef struct cg__fdfg {
    cg_dfg *g;
    const char *file;
    cg_diags *d;
    int errors;
    int *nline, ncap, *eline, ecap;
} cg__fdfg;

/* An opcode of a foreign format: its name (matched in any case), the op,
 * the width of its result (0: 32), the predicate (icmp). */
typedef struct cg__fop {
    const char *name;
    cg_op op;
    int width;
    cg_pred pred;
} cg__fop;

/* A graph named after file's base name.  -1 after an error. */
int cg__fdfg_init(cg__fdfg *f, const char *file, cg_diags *d);
/* Add a node or an edge made at line; -1 after an error. */
int cg__fdfg_node(cg__fdfg *f, cg_op op, int width, const char *name,
                  int line);
int cg__fdfg_edge(cg__fdfg *f, int src, int dst, int operand, int distance,
                  int line);
void cg__fdfg_error(cg__fdfg *f, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* cg_dfg_check with messages at the file's lines; the graph, or NULL
 * (and the graph freed) after any error. */
cg_dfg *cg__fdfg_finish(cg__fdfg *f);
/* The file as a NUL-terminated string, NULL after an error. */
char *cg__fdfg_slurp(const char *path, cg_diags *d);
/* The entry of table t (ended by a NULL name) named name, NULL if none;
 * the names of t, blank-separated, into buf. */
const cg__fop *cg__fop_find(const cg__fop *t, const char *name);
void cg__fop_list(const cg__fop *t, char *buf, size_t len);

/* SAT-MapIt's DFG files of one loop, PREFIX_nodes and its siblings
 * (sat_read.c); nodes_path ends in "_nodes". */
cg_dfg *cg__dfg_read_satmapit(const char *nodes_path, cg_diags *d);

static inline bool cg__dfg_is_mem(cg_op op)
{
    return op == CG_OP_LOAD || op == CG_OP_STORE;
}

#endif
