/* desc_internal.h: what tiling/desc.c and tiling/desc_lower.c share (not
 * installed).
 */
#ifndef CG_DESC_INTERNAL_H
#define CG_DESC_INTERNAL_H

#include "tile.h"

/* 0 when d is well formed (see cg_tile_desc_lower for the rules), else -1
 * with an error saying how to fix it. */
int cg__tile_desc_check(const cg_tile_desc *d, cg_diags *diag);

/* "DMA IN descriptor (array 2, tile 5)" into buf: how messages name d. */
void cg__tile_desc_label(const cg_tile_desc *d, char *buf, size_t len);

/* An error about descriptor d (its label first, then ", entry N of the
 * list" when entry >= 0) into diag; -1 (desc.c, desc_export.c). */
int cg__tile_desc_fail(cg_diags *diag, const cg_tile_desc *d, int entry,
                       const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
