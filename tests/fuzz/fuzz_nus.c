/* fuzz_nus.c: the NUS mappers' DFG XML reader (Morpher's partial
 * predication, sub-word values, older generators' forms; dfg/nus_read.c),
 * then cg_dfg_check and the DFG interpreter's first iterations of what it
 * accepts.  The input is written to a file, the reader's only entry. */
#include <stdio.h>
#include <unistd.h>

#include "../../dfg/dfg.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Two iterations on a zeroed 4 KiB image with every live-in 0: an access
 * outside it is an error the interpreter reports, not a crash. */
static void run(const cg_dfg *g, cg_diags *d)
{
    static uint8_t image[4096];
    memset(image, 0, sizeof image);
    size_t n = (size_t)cg_dfg_nnodes(g) + 1;
    uint64_t *in = calloc(n, sizeof *in), *out = calloc(n, sizeof *out);
    cg_mem mem = {image, 0, sizeof image};
    if (in && out)
        cg_dfg_run(g, 2, &mem, in, out, d);
    free(in);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/cg_fuzz_nus.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size || close(fd))
        abort();
    cg_diags *d = cg_diags_create();
    cg_dfg *g = d ? cg_dfg_read_nus_xml(path, d) : NULL;
    if (g && cg_dfg_check(g, d) == 0)
        run(g, d);
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
    unlink(path);
    return 0;
}
