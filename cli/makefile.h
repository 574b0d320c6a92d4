/* makefile.h: the Makefile beside a C file.  A folder with a Makefile is a
 * CGRA-ME style benchmark (docs/dfg.md, "Reading a benchmark Makefile"):
 * its DFG_FLAGS and CFLAGS belong to every .c file of the folder, so the
 * main job (the folder or one of its files named), `cgramap dfg` and
 * `cgramap tile` all extract the same graphs from it. */
#ifndef CG_CLI_MAKEFILE_H
#define CG_CLI_MAKEFILE_H

#include "common/diag.h"
#include "extract/extract.h"

/* The Makefile of cfile's folder, when it is a regular file: its path
 * (malloc'd) in *path, else NULL.  0, or -1 when out of memory. */
int cg_cli_makefile_beside(const char *cfile, char **path);

/* Read the Makefile at path into mk (LOOP_TAGS, DFG_FLAGS, CFLAGS) and
 * apply its DFG_FLAGS and CFLAGS to p, whose strings then point into mk
 * (free mk after p's last use).  0, or -1 with file:line errors in d. */
int cg_cli_makefile_apply(const char *path, cg_extract_makefile *mk,
                          cg_extract_params *p, cg_diags *d);

/* The Makefile of cfile's folder, if there is one, applied to p as
 * cg_cli_makefile_apply does; 0 when there is none. */
int cg_cli_makefile_apply_beside(const char *cfile, cg_extract_makefile *mk,
                                 cg_extract_params *p, cg_diags *d);

#endif
