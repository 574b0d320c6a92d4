/* place.c: a fast heuristic placement that the ILP restricts itself around.
 *
 * Simulated annealing of DFG nodes onto primitives, each primitive holding
 * at most II nodes (one per context).  The cost is the sum over DFG edges of
 * the grid (Manhattan) distance between the two primitives: values travel
 * one hop per register on a mesh, so short edges mean short, balanceable
 * routes.  Contexts and timing are left to the ILP, which picks them among
 * every context of the primitives near this placement.
 */
#include <math.h>
#include <stdlib.h>

#include "../../common/util.h"
#include "../model/model_internal.h"
#include "place_internal.h"

typedef struct anneal {
    const cg_netlist *nl;
    const cg_dfg *g;
    int n, ii;
    int *prim;       /* per DFG node */
    int *load;       /* per primitive: nodes placed on it */
    int **cand;      /* per DFG node: supporting primitives */
    int *ncand;
    int **adj;       /* per DFG node: neighbours (both directions) */
    int *nadj;
    cg_rng rng;
} anneal;

static uint64_t next(anneal *a)
{
    return cg_rng_next(&a->rng);
}

static int dist(const anneal *a, int p, int q)
{
    const cg_nl_prim *x = cg_netlist_prim(a->nl, p);
    const cg_nl_prim *y = cg_netlist_prim(a->nl, q);
    return abs(x->row - y->row) + abs(x->col - y->col);
}

/* Cost of node v's edges with v on primitive p. */
static int node_cost(const anneal *a, int v, int p)
{
    int c = 0;
    for (int j = 0; j < a->nadj[v]; j++) {
        int u = a->adj[v][j];
        if (u != v)
            c += dist(a, p, a->prim[u]);
    }
    return c;
}

static int setup(anneal *a)
{
    int np = cg_netlist_nprims(a->nl);
    a->prim = NULL;
    a->load = calloc((size_t)np + 1, sizeof *a->load);
    a->cand = calloc((size_t)a->n + 1, sizeof *a->cand);
    a->ncand = calloc((size_t)a->n + 1, sizeof *a->ncand);
    a->adj = calloc((size_t)a->n + 1, sizeof *a->adj);
    a->nadj = calloc((size_t)a->n + 1, sizeof *a->nadj);
    if (!a->load || !a->cand || !a->ncand || !a->adj || !a->nadj)
        return -1;
    for (int v = 0; v < a->n; v++) {
        a->cand[v] = malloc(sizeof(int) * ((size_t)np + 1));
        if (!a->cand[v])
            return -1;
        const cg_dfg_node *op = cg_dfg_get_node(a->g, v);
        for (int p = 0; p < np; p++)
            if (cg__map_node_fits(cg_netlist_prim(a->nl, p), op))
                a->cand[v][a->ncand[v]++] = p;
    }
    int m = cg_dfg_nedges(a->g);
    for (int v = 0; v < a->n; v++) {
        a->adj[v] = malloc(sizeof(int) * (2 * (size_t)m + 1));
        if (!a->adj[v])
            return -1;
    }
    for (int e = 0; e < m; e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(a->g, e);
        a->adj[ed->src][a->nadj[ed->src]++] = ed->dst;
        a->adj[ed->dst][a->nadj[ed->dst]++] = ed->src;
    }
    return 0;
}

static void teardown(anneal *a)
{
    for (int v = 0; v < a->n; v++) {
        if (a->cand)
            free(a->cand[v]);
        if (a->adj)
            free(a->adj[v]);
    }
    free(a->load);
    free(a->cand);
    free(a->ncand);
    free(a->adj);
    free(a->nadj);
}

/* Greedy start: each node on its first candidate with a free slot. */
static int initial(anneal *a)
{
    for (int v = 0; v < a->n; v++) {
        a->prim[v] = -1;
        int off = a->ncand[v] ? (int)(next(a) % (uint64_t)a->ncand[v]) : 0;
        for (int j = 0; j < a->ncand[v]; j++) {
            int p = a->cand[v][(j + off) % a->ncand[v]];
            if (a->load[p] < a->ii) {
                a->prim[v] = p;
                a->load[p]++;
                break;
            }
        }
        if (a->prim[v] < 0)
            return -1;
    }
    return 0;
}

/* One move: v to a random candidate, swapping with a node there when the
 * primitive is full and that node can take v's place. */
static void step(anneal *a, double temp)
{
    int v = (int)(next(a) % (uint64_t)a->n);
    int q = a->cand[v][next(a) % (uint64_t)a->ncand[v]], p = a->prim[v];
    if (q == p)
        return;
    int w = -1;
    if (a->load[q] >= a->ii) {
        int start = (int)(next(a) % (uint64_t)a->n);
        for (int j = 0; j < a->n && w < 0; j++) {
            int u = (start + j) % a->n;
            if (a->prim[u] == q &&
                cg__map_node_fits(cg_netlist_prim(a->nl, p),
                                  cg_dfg_get_node(a->g, u)))
                w = u;
        }
        if (w < 0)
            return;
    }
    int before = node_cost(a, v, p) + (w >= 0 ? node_cost(a, w, q) : 0);
    a->prim[v] = q;
    if (w >= 0)
        a->prim[w] = p;
    int after = node_cost(a, v, q) + (w >= 0 ? node_cost(a, w, p) : 0);
    int delta = after - before;
    double r = (double)(next(a) % 1000000) / 1e6;
    if (delta <= 0 || (temp > 0 && r < exp(-delta / temp))) {
        if (w < 0) {
            a->load[p]--;
            a->load[q]++;
        }
        return;
    }
    a->prim[v] = p;
    if (w >= 0)
        a->prim[w] = q;
}

int cg__place_anneal(const cg_netlist *nl, const cg_dfg *g, int ii,
                     unsigned seed, const cg_map_place_params *w, int *prim)
{
    anneal a = {.nl = nl, .g = g, .n = cg_dfg_nnodes(g), .ii = ii};
    cg_rng_init(&a.rng, 0x9e3779b97f4a7c15ull ^ ((uint64_t)seed * 0x100000001b3ull));
    if (a.n == 0)
        return 0;
    int rc = setup(&a);
    a.prim = prim;
    if (rc == 0)
        rc = initial(&a);
    if (rc == 0) {
        long iters = w->moves_per_node * a.n;
        double temp = w->t_start;
        for (long it = 0; it < iters; it++) {
            step(&a, temp);
            if (it % (iters / w->cool_steps + 1) == 0)
                temp *= w->cooling;
        }
        for (long it = 0; it < w->quench_per_node * a.n; it++)
            step(&a, 0);
    }
    teardown(&a);
    return rc;
}
