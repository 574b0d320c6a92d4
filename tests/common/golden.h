/* golden.h: the one golden-file compare of the tests.  Header-only;
 * include after cmocka.h.
 *
 * cg_golden_check(path, text): path is relative to the source tree
 * (CG_SOURCE_DIR, which ctest sets, else the working directory, which
 * ctest sets to the source tree too).  The file must exist and hold
 * exactly text; otherwise the test fails naming the file, with what it
 * got on stderr.  With CG_UPDATE_GOLDEN set in the environment it writes
 * text to the file instead (review the change with git diff). */
#ifndef CG_TEST_GOLDEN_H
#define CG_TEST_GOLDEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static inline void cg_golden_check(const char *path, const char *text)
{
    char full[4096];
    const char *src = getenv("CG_SOURCE_DIR");
    if (snprintf(full, sizeof full, "%s/%s", src ? src : ".", path) >=
        (int)sizeof full)
        fail_msg("golden file path %s/%s is too long", src, path);
    if (getenv("CG_UPDATE_GOLDEN")) {
        FILE *f = fopen(full, "wb");
        if (!f)
            fail_msg("cannot write golden file %s", full);
        fputs(text, f);
        fclose(f);
        return;
    }
    char *want = cg_slurp(full, NULL);
    if (!want)
        fail_msg("golden file %s is missing (CG_UPDATE_GOLDEN=1 writes it)",
                 full);
    if (strcmp(want, text) != 0) {
        fprintf(stderr, "---- got, where %s has other text:\n%s----\n",
                full, text);
        free(want);
        fail_msg("output differs from %s", full);
    }
    free(want);
}

#endif
