/* foreign.c: what the readers of other mappers' DFGs share (nus_read.c,
 * text_read.c): nodes and edges added with the line that made them, so
 * that cg_dfg_check's messages point into the file; the file read whole;
 * opcodes looked up in a table of the format's names. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/input.h"
#include "../common/util.h"
#include "dfg_internal.h"

void cg__fdfg_error(cg__fdfg *f, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cg_diags_vadd(f->d, CG_SEV_ERROR, f->file, line, fmt, ap);
    va_end(ap);
    f->errors++;
}

int cg__fdfg_node(cg__fdfg *f, cg_op op, int width, const char *name,
                  int line)
{
    int id = cg_dfg_add_node(f->g, op, width, name);
    if (id < 0 || CG_GROW(f->nline, f->ncap, id + 1) < 0) {
        cg__fdfg_error(f, line, "out of memory");
        return -1;
    }
    f->nline[id] = line;
    return id;
}

int cg__fdfg_edge(cg__fdfg *f, int src, int dst, int operand, int distance,
                  int line)
{
    int id = cg_dfg_add_edge(f->g, src, dst, operand, distance, -1);
    if (id < 0 || CG_GROW(f->eline, f->ecap, id + 1) < 0) {
        cg__fdfg_error(f, line, "out of memory");
        return -1;
    }
    f->eline[id] = line;
    return id;
}

static cg_loc loc_node(const void *ctx, int id)
{
    const cg__fdfg *f = ctx;
    return (cg_loc){f->file, f->nline[id]};
}

static cg_loc loc_edge(const void *ctx, int id)
{
    const cg__fdfg *f = ctx;
    return (cg_loc){f->file, f->eline[id]};
}

cg_dfg *cg__fdfg_finish(cg__fdfg *f)
{
    if (!f->errors) {
        cg__dfg_locator loc = {loc_node, loc_edge, f};
        f->errors = cg__dfg_check(f->g, &loc, f->d);
    }
    free(f->nline);
    free(f->eline);
    if (f->errors) {
        cg_dfg_destroy(f->g);
        return NULL;
    }
    return f->g;
}

/* The graph's name: the file's base name without its extension. */
int cg__fdfg_init(cg__fdfg *f, const char *file, cg_diags *d)
{
    memset(f, 0, sizeof *f);
    f->file = file;
    f->d = d;
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    const char *dot = strrchr(base, '.');
    char *name = strndup(base, dot && dot != base ? (size_t)(dot - base)
                                                  : strlen(base));
    f->g = name ? cg_dfg_create(name) : NULL;
    free(name);
    if (!f->g) {
        cg_diags_add(d, CG_SEV_ERROR, file, 0, "out of memory");
        return -1;
    }
    return 0;
}

char *cg__fdfg_slurp(const char *path, cg_diags *d)
{
    return cg_input_read_text(path, "an .xml or .txt DFG file", "a DFG file",
                              d);
}

const cg__fop *cg__fop_find(const cg__fop *t, const char *name)
{
    for (; t->name; t++)
        if (!strcasecmp(t->name, name))
            return t;
    return NULL;
}

void cg__fop_list(const cg__fop *t, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; t[i].name && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? " " : "",
                              t[i].name);
}
