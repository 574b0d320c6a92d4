/* saved.h: what `cgramap check` and `cgramap sim` start from: an
 * architecture, a DFG and a mapping of it saved by `cgramap map
 * --mapping` or `--mapping-dir` (mapper/mapping_io.h). */
#ifndef CG_CLI_SAVED_H
#define CG_CLI_SAVED_H

#include "arch/arch.h"
#include "common/diag.h"
#include "dfg/dfg.h"
#include "mapper/map.h"

typedef struct cg_cli_saved {
    cg_diags *d;      /* every error of reading, checking, simulating */
    cg_netlist *nl;
    cg_dfg *g;
    cg_mrrg *mrrg;    /* at the mapping's II */
    cg_mapping *m;
} cg_cli_saved;

/* Read the architecture (the default one when arch is NULL), the DFG and
 * the mapping into s.  0, or -1 with the errors in s->d; s is to be freed
 * either way. */
int cg_cli_saved_init(cg_cli_saved *s, const char *arch,
                      const char *templates, const char *dot,
                      const char *mapping);
/* The checker (cg_map_check) on s; each of its errors about a node or
 * an edge is followed by a note at the mapping file's line that places
 * the node or routes the edge ("MAPPING:10: note: the line that places
 * 'ld'"), the line to look at or edit.  0 when the mapping is accepted. */
int cg_cli_saved_check(cg_cli_saved *s, const char *mapping);
/* Print s->d to stderr and free what s holds. */
void cg_cli_saved_free(cg_cli_saved *s);

#endif
