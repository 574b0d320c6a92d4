/* mapping_io.h: a saved mapping read back.
 *
 * The text form cg_mapping_write writes (`cgramap map --mapping`, the .txt
 * of `--mapping-dir`) carries everything a mapping is: its II, each op's
 * MRRG FUNC node (unit and context) and start cycle, and each route's MRRG
 * nodes by name.  Reading it against the same netlist and DFG gives back
 * the same cg_mapping, so that the checker and the simulator can run on it
 * without mapping again, and writing it again gives the same bytes.
 *
 * The reader checks only what it needs to build the mapping (the syntax,
 * that the file maps this DFG, that every name is an MRRG node of the
 * array at that II); whether the mapping is valid is cg_map_check's
 * question.  The format is described in docs/cli.md ("Saved
 * mappings").
 */
#ifndef CG_MAPPING_IO_H
#define CG_MAPPING_IO_H

#include "map.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read the mapping of g on nl saved at path.  Returns the mapping (destroy
 * with cg_mapping_destroy) and sets *mrrg to the MRRG at its II that its
 * node ids refer to (destroy with cg_mrrg_destroy).  NULL, with *mrrg
 * NULL and one error per bad line in d (path:line, what is wrong and how
 * to fix it), when the file cannot be read or does not map g on nl. */
cg_mapping *cg_mapping_read(const char *path, const cg_netlist *nl,
                            const cg_dfg *g, cg_mrrg **mrrg, cg_diags *d);

#ifdef __cplusplus
}
#endif

#endif
