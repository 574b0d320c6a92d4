/* dfg_compat.h: includes dfg/dfg.h while its accessors share their names
 * with its typedefs (cg_dfg_node, cg_dfg_edge), which C rejects: the
 * function names are renamed by macro for the duration of the include.
 * Remove this file once dfg.h renames them (as map.h did for the MRRG).
 */
#ifndef CG_TILE_DFG_COMPAT_H
#define CG_TILE_DFG_COMPAT_H

#define cg_dfg_node(g, id) cg__tile_dfg_node_accessor(g, id)
#define cg_dfg_edge(g, id) cg__tile_dfg_edge_accessor(g, id)
#include "../dfg/dfg.h"
#undef cg_dfg_node
#undef cg_dfg_edge

#endif
