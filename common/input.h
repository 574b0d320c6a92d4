/* input.h: an input file of cgramap (architecture, templates, DFG) read
 * whole, with a clear error for each way that fails.  The size is capped
 * (CG_MAX_INPUT_BYTES, common/limits.h): a device or a FIFO given as an
 * input would otherwise be read until memory runs out. */
#ifndef CG_INPUT_H
#define CG_INPUT_H

#include "diag.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The whole file at path, NUL-terminated (malloc'd, the caller frees it),
 * its size in *len when len is not NULL.  NULL after an error on path in
 * d: it cannot be opened (check the path), it is a folder (name `want`,
 * e.g. "an .xml file"), it holds more than CG_MAX_INPUT_BYTES, no memory,
 * or a read error. */
char *cg_input_read(const char *path, const char *want, size_t *len,
                    cg_diags *d);
/* cg_input_read for a text file: also NULL after "PATH: error: a NUL
 * byte; KIND is text" (kind e.g. "a DFG file") when the file holds one. */
char *cg_input_read_text(const char *path, const char *want,
                         const char *kind, cg_diags *d);

#ifdef __cplusplus
}
#endif

#endif
