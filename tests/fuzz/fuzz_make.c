/* fuzz_make.c: the benchmark Makefile reader (LOOP_TAGS, DFG_FLAGS, CFLAGS;
 * extract/extract_make.c).  The input is written to a Makefile in a fresh
 * folder, so that relative includes find only what the input names. */
#include <stdio.h>
#include <unistd.h>

#include "../../extract/extract.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[] = "/tmp/cg_fuzz_make.XXXXXX", path[64];
    if (!mkdtemp(dir))
        abort();
    snprintf(path, sizeof path, "%s/Makefile", dir);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f))
        abort();
    cg_diags *d = cg_diags_create();
    cg_extract_makefile m;
    if (d && cg_extract_makefile_read(path, &m, d) == 0)
        cg_extract_makefile_free(&m);
    cg_diags_destroy(d);
    unlink(path);
    rmdir(dir);
    return 0;
}
