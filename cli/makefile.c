/* makefile.c: the Makefile beside a C file (makefile.h). */
#include "cli/makefile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cg_cli_makefile_beside(const char *cfile, char **path)
{
    const char *slash = strrchr(cfile, '/');
    int dir = slash ? (int)(slash - cfile) + 1 : 0; /* with its '/' */
    size_t n = (size_t)dir + sizeof "Makefile";
    *path = malloc(n);
    if (!*path)
        return -1;
    snprintf(*path, n, "%.*sMakefile", dir, cfile);
    struct stat st;
    if (stat(*path, &st) != 0 || !S_ISREG(st.st_mode)) {
        free(*path);
        *path = NULL;
    }
    return 0;
}

int cg_cli_makefile_apply(const char *path, cg_extract_makefile *mk,
                          cg_extract_params *p, cg_diags *d)
{
    if (cg_extract_makefile_read(path, mk, d) != 0 ||
        (mk->dfg_flags &&
         cg_extract_params_parse(p, mk->dfg_flags, path, d) != 0))
        return -1;
    p->cflags = mk->cflags;
    return 0;
}

int cg_cli_makefile_apply_beside(const char *cfile, cg_extract_makefile *mk,
                                 cg_extract_params *p, cg_diags *d)
{
    char *path;
    if (cg_cli_makefile_beside(cfile, &path) != 0) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "out of memory");
        return -1;
    }
    int rc = path ? cg_cli_makefile_apply(path, mk, p, d) : 0;
    free(path);
    return rc;
}
