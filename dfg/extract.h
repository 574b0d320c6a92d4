/* extract.h: the LLVM 16 C-API loop extractor (//DFGLOOP tags -> DFGs) and
 * the native run used to prove extracted DFGs right.
 *
 * STATUS: contract only.  No extract*.c implements it yet; see issue 3.
 */
#ifndef CG_EXTRACT_H
#define CG_EXTRACT_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/diag.h"
#include "dfg.h"

#define CG_EXTRACT_MAX_SYMS 16

typedef struct cg_extract_sym {
    const char *name;   /* symbolic trip count or live-in name */
    int64_t value;
} cg_extract_sym;

typedef struct cg_extract_params {
    const char *cflags;      /* extra clang flags, space separated, or NULL */
    bool phi_removal;        /* recurrences become back edges (default) */
    bool leaf_removal;       /* drop dead leaves (default) */
    int nsyms;
    cg_extract_sym syms[CG_EXTRACT_MAX_SYMS];
} cg_extract_params;

/* Defaults: no cflags, phi_removal and leaf_removal on, no symbols. */
void cg_extract_params_init(cg_extract_params *p);

/* Extract every //DFGLOOP-tagged loop of c_path (loop_tag NULL) or only the
 * one named loop_tag.  *out receives *n graphs (caller destroys each and
 * frees the array).  A loop that cannot be extracted adds an error naming
 * file:line and the reason and does not stop the others.  Returns 0 when
 * every requested loop extracted, -1 otherwise (the good ones still in *out).
 */
int cg_extract_file(const char *c_path, const char *loop_tag,
                    const cg_extract_params *p, cg_dfg ***out, int *n,
                    cg_diags *d);

#endif
