/* names_internal.h: what the checker, the simulator and the writers share:
 * readable names of MRRG nodes (so that messages and files agree) and the
 * edge between two nodes of a route. */
#ifndef CG_NAMES_INTERNAL_H
#define CG_NAMES_INTERNAL_H

#include <stddef.h>

#include "../map.h"

/* "<prim>@c<ctx>" for a FUNC node ("block_1_2.func@c1"),
 * "<prim>.<port>@c<ctx>" for a port, "<prim>.reg<r>@c<ctx>" for a register
 * of a RegisterFile.  Writes at most n bytes into buf; returns buf. */
const char *cg__map_node_name(const cg_mrrg *m, const cg_netlist *nl, int id,
                              char *buf, size_t n);

/* The MRRG edge from node a to node b, -1 when none. */
int cg__map_find_edge(const cg_mrrg *m, int a, int b);

#endif
