/* A mapping: its allocation and release.  Its reader and writers are
 * read.c and write.c beside it; the checker and simulator that judge it
 * are the verification stage's (verify/). */
#include "../map.h"

#include <stdlib.h>

cg_mapping *cg_mapping_create(int ii, int nnodes, int nedges)
{
    if (ii < 1 || nnodes < 0 || nedges < 0)
        return NULL;
    cg_mapping *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->ii = ii;
    m->nnodes = nnodes;
    m->nedges = nedges;
    /* +1 so that an empty DFG still gets non-NULL arrays */
    m->place = malloc(((size_t)nnodes + 1) * sizeof *m->place);
    m->start = calloc((size_t)nnodes + 1, sizeof *m->start);
    m->route_len = calloc((size_t)nedges + 1, sizeof *m->route_len);
    m->route = calloc((size_t)nedges + 1, sizeof *m->route);
    if (!m->place || !m->start || !m->route_len || !m->route) {
        cg_mapping_destroy(m);
        return NULL;
    }
    for (int i = 0; i < nnodes; i++)
        m->place[i] = -1;
    return m;
}

void cg_mapping_destroy(cg_mapping *m)
{
    if (!m)
        return;
    if (m->route)
        for (int e = 0; e < m->nedges; e++)
            free(m->route[e]);
    free(m->route);
    free(m->route_len);
    free(m->start);
    free(m->place);
    free(m);
}
