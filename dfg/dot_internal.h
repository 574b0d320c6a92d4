/* dot_internal.h: what the .dot parser (dot_parse.c) hands the DFG builder
 * (dot_read.c): the statements of one digraph, with the line of each, as
 * strings.  Nothing here knows what an opcode is. */
#ifndef CG_DOT_INTERNAL_H
#define CG_DOT_INTERNAL_H

#include <stdbool.h>

#include "../common/arena.h"
#include "../common/diag.h"
#include "../common/strmap.h"

typedef struct cg__dot_attr {
    const char *key, *val;
    int line;               /* line of the key */
} cg__dot_attr;

typedef struct cg__dot_attrs {
    cg__dot_attr *v;
    int n, cap;
} cg__dot_attrs;

/* A node: every statement naming it merged, defaults first, in order. */
typedef struct cg__dot_node {
    const char *name;
    int line;               /* its first node statement */
    cg__dot_attrs a;
} cg__dot_node;

typedef struct cg__dot_edge {
    const char *src, *dst;
    int line;               /* the line of its '->' */
    cg__dot_attrs a;
} cg__dot_edge;

typedef struct cg__dot_graph {
    const char *file;       /* for messages, never NULL */
    const char *id;         /* the digraph's ID, NULL when none */
    bool id_quoted;
    cg__dot_attrs gattrs;   /* graph [...] and ID=ID statements */
    cg__dot_node *nodes;    /* in order of first declaration */
    int nnodes, cap_nodes;
    cg_strmap *index;       /* node name -> index in nodes, NULL when none */
    cg__dot_edge *edges;    /* in file order */
    int nedges, cap_edges;
    cg_arena *strs;         /* every string above: a file's ids die
                               together, with the graph */
} cg__dot_graph;

/* Parse text as one Graphviz digraph into g (zeroed by the caller, file
 * set).  Syntax errors go into d as "file:line: message"; -1 then. */
int cg__dot_parse(const char *text, cg__dot_graph *g, cg_diags *d);
/* Free what cg__dot_parse allocated (g itself is the caller's). */
void cg__dot_graph_free(cg__dot_graph *g);
/* Node index by name, -1 when none (hashed: a .dot may have 100k nodes). */
int cg__dot_find(const cg__dot_graph *g, const char *name);
/* The last value given to key, NULL when none (*line receives its line). */
const char *cg__dot_get(const cg__dot_attrs *a, const char *key, int *line);

#endif
