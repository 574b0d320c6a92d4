/* names_internal.h: what the checker, the simulator and the writers share:
 * readable names of MRRG nodes (so that messages and files agree) and the
 * edge between two nodes of a route. */
#ifndef CG_NAMES_INTERNAL_H
#define CG_NAMES_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "../map.h"

/* "<prim>@c<ctx>" for a FUNC node ("block_1_2.func@c1"),
 * "<prim>.<port>@c<ctx>" for a port, "<prim>.reg<r>@c<ctx>" for a register
 * of a RegisterFile.  Writes at most n bytes into buf; returns buf. */
const char *cg__map_node_name(const cg_mrrg *m, const cg_netlist *nl, int id,
                              char *buf, size_t n);

/* The MRRG edge from node a to node b, -1 when none. */
int cg__map_find_edge(const cg_mrrg *m, int a, int b);

/* A Graphviz string: quoted, '"' and '\' escaped, newlines as \n (for
 * the mapping pictures, write.c and write_pe.c). */
void cg__map_dot_str(FILE *out, const char *s);
/* A colour per value (DFG node), so that crossing routes read apart. */
const char *cg__map_value_color(int v);
/* A mapping picture's first lines: the comment, "digraph NAME {" and the
 * graph attributes every picture shares (neato, points, straight edges),
 * then attrs (node and edge defaults). */
void cg__map_dot_head(FILE *out, const cg_dfg *g, const char *comment,
                      const char *attrs);

#endif
