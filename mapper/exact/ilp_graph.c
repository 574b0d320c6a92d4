/* ilp_graph.c: the MRRG compressed for the ILP.
 *
 * Most ROUTE nodes of an MRRG are links of a chain: a primitive port, the
 * net it drives, the port at the other end.  A node with one in-edge and one
 * out-edge that is neither an operand pin nor a result port is used by a
 * route exactly when that route takes both its edges, so it needs no
 * variable of its own: it is folded into an edge (a "kedge") from the last
 * kept node before it to the first kept node after it, with the delays
 * summed and the folded nodes remembered so a route can be written out node
 * by node.  This typically removes well over half the nodes.
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "exact_internal.h"
#include "sym_internal.h"

static int indeg(const cg_mrrg *m, int i)
{
    int n;
    cg_mrrg_in(m, i, &n);
    return n;
}

static int outdeg(const cg_mrrg *m, int i)
{
    int n;
    cg_mrrg_out(m, i, &n);
    return n;
}

static bool is_chain(const cg_mrrg *m, int i)
{
    const cg_mrrg_node *n = cg_mrrg_get_node(m, i);
    return n->kind == CG_MRRG_ROUTE && n->func < 0 && indeg(m, i) == 1 &&
           outdeg(m, i) == 1;
}

/* Follow MRRG edge e through chain nodes to a kept node; record the kedge.
 * Chains that loop back without a kept node are dropped. */
static int follow(cg__kgraph *k, int from, int e, int *cap_e, int *cap_v,
                  int *nvia)
{
    const cg_mrrg *m = k->m;
    int delay = 0, to, via0 = *nvia, steps = 0;
    for (;;) {
        const cg_mrrg_edge *ed = cg_mrrg_get_edge(m, e);
        delay += ed->delay;
        to = ed->to;
        if (k->kept[to])
            break;
        if (++steps > k->nnodes)
            return 0;
        if (CG_GROW(k->via, *cap_v, *nvia + 1))
            return -1;
        k->via[(*nvia)++] = to;
        int n;
        e = cg_mrrg_out(m, to, &n)[0];
    }
    if (CG_GROW(k->edges, *cap_e, k->nedges + 1))
        return -1;
    k->edges[k->nedges++] =
        (cg__kedge){from, to, delay, *nvia - via0, via0};
    return 0;
}

static int csr(cg__kgraph *k, bool out, int **off, int **ids)
{
    const int *key = !k->nedges ? NULL
                     : out        ? &k->edges[0].from
                                  : &k->edges[0].to;
    return cg__map_csr(k->nnodes, k->nedges, key,
                       sizeof *k->edges, off, ids);
}

/* Pins, result edges, positions and the delay bound. */
static int annotate(cg__kgraph *k, const cg_netlist *nl)
{
    int n = k->nnodes;
    k->func_out = malloc(sizeof(int) * ((size_t)n + 1));
    k->row = malloc(sizeof(int) * ((size_t)n + 1));
    k->col = malloc(sizeof(int) * ((size_t)n + 1));
    if (!k->func_out || !k->row || !k->col)
        return -1;
    memset(k->func_out, -1, sizeof(int) * ((size_t)n + 1));
    int *maxd = calloc((size_t)n + 1, sizeof *maxd);
    if (!maxd)
        return -1;
    for (int i = 0; i < n; i++) {
        const cg_mrrg_node *nd = cg_mrrg_get_node(k->m, i);
        const cg_nl_prim *pr = cg_netlist_prim(nl, nd->prim);
        k->row[i] = pr->row;
        k->col[i] = pr->col;
    }
    for (int e = 0; e < k->nedges; e++) {
        const cg__kedge *ke = &k->edges[e];
        if (cg_mrrg_get_node(k->m, ke->from)->kind == CG_MRRG_FUNC)
            k->func_out[ke->from] = e;
        if (ke->delay > maxd[ke->from])
            maxd[ke->from] = ke->delay;
    }
    /* A route is a simple path: at most one FUNC out edge and each kept
     * ROUTE node once. */
    int func_max = 0;
    long sum = 0;
    for (int i = 0; i < n; i++) {
        if (!k->kept[i])
            continue;
        if (cg_mrrg_get_node(k->m, i)->kind == CG_MRRG_FUNC) {
            if (maxd[i] > func_max)
                func_max = maxd[i];
        } else {
            sum += maxd[i];
        }
    }
    sum += func_max;
    k->max_delay = sum > 1000000 ? 1000000 : (int)sum;
    free(maxd);
    return 0;
}

cg__kgraph *cg__kgraph_build(const cg_mrrg *m, const cg_netlist *nl)
{
    cg__kgraph *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->m = m;
    k->nnodes = cg_mrrg_nnodes(m);
    k->kept = calloc((size_t)k->nnodes + 1, sizeof *k->kept);
    if (!k->kept)
        goto fail;
    for (int i = 0; i < k->nnodes; i++)
        k->kept[i] = !is_chain(m, i);
    int cap_e = 0, cap_v = 0, nvia = 0;
    for (int i = 0; i < k->nnodes; i++) {
        if (!k->kept[i])
            continue;
        int n;
        const int *out = cg_mrrg_out(m, i, &n);
        for (int j = 0; j < n; j++)
            if (follow(k, i, out[j], &cap_e, &cap_v, &nvia) < 0)
                goto fail;
    }
    if (csr(k, true, &k->out_off, &k->out_ids) < 0 ||
        csr(k, false, &k->in_off, &k->in_ids) < 0 || annotate(k, nl) < 0)
        goto fail;
    /* The kgraph is a function of the MRRG's structure (kinds, FUNC links,
     * degrees, edges and delays), so the MRRG's automorphisms are its own. */
    k->sym = cg__sym_find(m, nl);
    if (!k->sym)
        goto fail;
    return k;
fail:
    cg__kgraph_destroy(k);
    return NULL;
}

void cg__kgraph_destroy(cg__kgraph *k)
{
    if (!k)
        return;
    free(k->kept);
    free(k->edges);
    free(k->via);
    free(k->out_off);
    free(k->out_ids);
    free(k->in_off);
    free(k->in_ids);
    free(k->func_out);
    free(k->row);
    free(k->col);
    cg__sym_destroy(k->sym);
    free(k);
}
