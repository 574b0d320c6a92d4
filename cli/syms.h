/* syms.h: `--sym NAME=VALUE` on the command line of the main job, `dfg`
 * and `tile`: the value of a kernel parameter or a symbolic trip count,
 * the same as `--sym` in a benchmark Makefile's DFG_FLAGS.  A value given
 * on the command line wins over the Makefile's for the same name. */
#ifndef CG_CLI_SYMS_H
#define CG_CLI_SYMS_H

#include "common/diag.h"
#include "extract/extract.h"

typedef struct cg_cli_syms {
    int n;
    cg_extract_sym v[CG_EXTRACT_MAX_SYMS];
} cg_cli_syms;

/* Add --sym's argument NAME=INTEGER to s (arg is cut at '=' in place and
 * must outlive s), replacing an earlier value of NAME.  -1 with
 * "<cmd>: Invalid value for --sym: ARG (NAME=INTEGER)" or a count error
 * on stderr. */
int cg_cli_sym_add(cg_cli_syms *s, char *arg, const char *cmd);
/* Give p s's values, over the ones of the same name p has.  -1 with an
 * error in d when p would hold more than CG_EXTRACT_MAX_SYMS symbols. */
int cg_cli_syms_apply(cg_extract_params *p, const cg_cli_syms *s,
                      cg_diags *d);

#endif
