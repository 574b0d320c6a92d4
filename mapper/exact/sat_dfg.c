/* sat_dfg.c: what the SAT model (sat.c) reads of the DFG and the MRRG:
 * each op's edges and the FUNC nodes it may take. */
#include <stdlib.h>
#include <string.h>

#include "exact_internal.h"
#include "sat_internal.h"
#include "sym_internal.h"

bool cg__sat_passable(const cg_mrrg *m, int i)
{
    const cg_mrrg_node *nd = cg_mrrg_get_node(m, i);
    return nd->kind == CG_MRRG_ROUTE && nd->operand < 0;
}

/* Out- and in-edges of every DFG node, in edge order. */
static int edge_lists(cg__sat_dfg *D, const cg_dfg *g)
{
    size_t n2 = (size_t)D->n + 2, ne1 = (size_t)D->ne + 1;
    D->out_off = calloc(n2, sizeof(int));
    D->in_off = calloc(n2, sizeof(int));
    D->out_ids = malloc(ne1 * sizeof(int));
    D->in_ids = malloc(ne1 * sizeof(int));
    if (!D->out_off || !D->in_off || !D->out_ids || !D->in_ids)
        return -1;
    for (int e = 0; e < D->ne; e++) {
        D->out_off[cg_dfg_get_edge(g, e)->src + 1]++;
        D->in_off[cg_dfg_get_edge(g, e)->dst + 1]++;
    }
    for (int v = 0; v < D->n; v++) {
        D->out_off[v + 1] += D->out_off[v];
        D->in_off[v + 1] += D->in_off[v];
    }
    int *fo = D->out_off, *fi = D->in_off;
    for (int e = 0; e < D->ne; e++) { /* fill, then shift back */
        D->out_ids[fo[cg_dfg_get_edge(g, e)->src]++] = e;
        D->in_ids[fi[cg_dfg_get_edge(g, e)->dst]++] = e;
    }
    for (int v = D->n; v > 0; v--) {
        fo[v] = fo[v - 1];
        fi[v] = fi[v - 1];
    }
    fo[0] = fi[0] = 0;
    return 0;
}

/* May op v take FUNC node p: it supports v, fits its width and bank, has
 * the pins v's operands need and, when v's value is used, a way out. */
static bool fits(const cg__sat_dfg *D, const cg_mrrg *m,
                 const cg_netlist *nl, const cg_dfg *g, int v, int p)
{
    const cg_mrrg_node *nd = cg_mrrg_get_node(m, p);
    if (nd->kind != CG_MRRG_FUNC ||
        !cg__map_node_fits(cg_netlist_prim(nl, nd->prim),
                           cg_dfg_get_node(g, v)))
        return false;
    if (D->out_off[v + 1] > D->out_off[v]) {
        int n, any = 0;
        const int *o = cg_mrrg_out(m, p, &n);
        for (int i = 0; i < n && !any; i++)
            any = cg_mrrg_get_node(m, cg_mrrg_get_edge(m, o[i])->to)->kind ==
                  CG_MRRG_ROUTE;
        if (!any)
            return false;
    }
    for (int j = D->in_off[v]; j < D->in_off[v + 1]; j++)
        if (cg_mrrg_pin(m, p, cg_dfg_get_edge(g, D->in_ids[j])->operand) <
            0)
            return false;
    return true;
}

/* The primitives of v's FUNC nodes, increasing; mark: scratch, one
 * byte per primitive, all 0 (and left so). */
static int units_of(cg__sat_dfg *D, const cg_mrrg *m, int v, int nprims,
                    unsigned char *mark)
{
    int k = 0;
    for (int i = 0; i < D->ncand[v]; i++) {
        int pr = cg_mrrg_get_node(m, D->cand[v][i])->prim;
        k += !mark[pr];
        mark[pr] = 1;
    }
    D->units[v] = malloc(sizeof(int) * ((size_t)k + 1));
    if (!D->units[v])
        return -1;
    for (int pr = 0; pr < nprims; pr++)
        if (mark[pr]) {
            D->units[v][D->nunits[v]++] = pr;
            mark[pr] = 0;
        }
    return 0;
}

/* The FUNC nodes of every op and their units; with cut, the op with the
 * most keeps one node per orbit of the verified symmetries (a mapping
 * moved by a symmetry is one), its units stay all it may take. */
static int candidates(cg__sat_dfg *D, const cg_mrrg *m,
                      const cg_netlist *nl, const cg_dfg *g, bool cut)
{
    int nn = cg_mrrg_nnodes(m), np = cg_netlist_nprims(nl);
    unsigned char *mark = calloc((size_t)np + 1, 1);
    int rc = mark ? 0 : -1;
    for (int v = 0; rc == 0 && v < D->n; v++) {
        D->cand[v] = malloc(sizeof(int) * ((size_t)nn + 1));
        if (!D->cand[v]) {
            rc = -1;
            break;
        }
        for (int p = 0; p < nn; p++)
            if (fits(D, m, nl, g, v, p))
                D->cand[v][D->ncand[v]++] = p;
        rc = units_of(D, m, v, np, mark);
    }
    free(mark);
    if (rc < 0)
        return -1;
    if (!cut)
        return 0;
    cg__sym *sym = cg__sym_find(m, nl);
    if (!sym)
        return -1;
    int best = 0;
    for (int v = 1; v < D->n; v++)
        if (D->ncand[v] > D->ncand[best])
            best = v;
    if (D->n > 0)
        D->ncand[best] = cg__sym_restrict(sym, D->cand[best], D->ncand[best]);
    cg__sym_destroy(sym);
    return 0;
}

int cg__sat_dfg_init(cg__sat_dfg *D, const cg_mrrg *m, const cg_netlist *nl,
                     const cg_dfg *g, bool cut)
{
    memset(D, 0, sizeof *D);
    D->n = cg_dfg_nnodes(g);
    D->ne = cg_dfg_nedges(g);
    if (edge_lists(D, g) < 0)
        return -1;
    D->cand = calloc((size_t)D->n + 1, sizeof *D->cand);
    D->ncand = calloc((size_t)D->n + 1, sizeof *D->ncand);
    D->units = calloc((size_t)D->n + 1, sizeof *D->units);
    D->nunits = calloc((size_t)D->n + 1, sizeof *D->nunits);
    if (!D->cand || !D->ncand || !D->units || !D->nunits)
        return -1;
    return candidates(D, m, nl, g, cut);
}

void cg__sat_dfg_free(cg__sat_dfg *D)
{
    free(D->out_off);
    free(D->out_ids);
    free(D->in_off);
    free(D->in_ids);
    for (int v = 0; D->cand && v < D->n; v++)
        free(D->cand[v]);
    free(D->cand);
    free(D->ncand);
    for (int v = 0; D->units && v < D->n; v++)
        free(D->units[v]);
    free(D->units);
    free(D->nunits);
    memset(D, 0, sizeof *D);
}
