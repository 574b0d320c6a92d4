/* fuzz_util.h: what the fuzz targets share (tests/fuzz/, docs/fuzzing.md). */
#ifndef CG_FUZZ_UTIL_H
#define CG_FUZZ_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The input as a NUL-terminated string (an embedded NUL ends it early, as
 * it would for a file read as text).  NULL when out of memory. */
static inline char *cg_fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s) {
        memcpy(s, data, size);
        s[size] = 0;
    }
    return s;
}

#endif
