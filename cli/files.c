/* files.c: output files written whole or not at all: the content goes to a
 * temporary file in the same folder, renamed over the target at the end,
 * so a failure never leaves a truncated file behind. */
#include "cli/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cg_cli_write_file(const char *path, cg_cli_writer fn, void *arg)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp) return -1;
    snprintf(tmp, n, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        fprintf(stderr, "%s: error: cannot write this file\n", path);
        if (fd >= 0) { close(fd); unlink(tmp); }
        free(tmp);
        return -1;
    }
    fn(arg, f);
    int bad = ferror(f) | fclose(f);
    if (bad || rename(tmp, path) != 0) {
        fprintf(stderr, "%s: error: cannot write this file\n", path);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}
