/* input.c: cg_input_read, the one reader of the architecture, template,
 * DFG and mapping files, so that each failure says the same thing whatever
 * the file. */
#include "input.h"
#include "limits.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

char *cg_input_read(const char *path, const char *want, size_t *len,
                    cg_diags *d)
{
    char *buf = cg_slurp_max(path, CG_MAX_INPUT_BYTES, len);
    int err = buf ? 0 : errno;
    if (buf)
        return buf;
    if (err == EISDIR) /* fopen takes a folder, fread then fails */
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "is a directory, not a file; "
                     "name %s", want);
    else if (err == ENOENT || err == EACCES || err == ENOTDIR)
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "cannot open the file: %s; "
                     "check the path", strerror(err));
    else if (err == EFBIG)
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "more than %d bytes, the "
                     "limit for an architecture, template, DFG or mapping "
                     "file (CG_MAX_INPUT_BYTES); name the text file meant",
                     CG_MAX_INPUT_BYTES);
    else if (err == ENOMEM)
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "out of memory reading the "
                     "file");
    else
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "cannot read the file: %s",
                     strerror(err));
    return NULL;
}

char *cg_input_read_text(const char *path, const char *want,
                         const char *kind, cg_diags *d)
{
    size_t len = 0;
    char *text = cg_input_read(path, want, &len, d);
    if (text && strlen(text) != len) {
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "a NUL byte; %s is text",
                     kind);
        free(text);
        return NULL;
    }
    return text;
}
