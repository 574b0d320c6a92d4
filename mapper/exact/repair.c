/* repair.c: the ILP as a finisher of the heuristic (large-neighbourhood
 * search).
 *
 * When the heuristic finds no mapping at an II, its best partial mapping
 * (heur.c: the attempt that skipped the fewest ops) usually has most ops
 * placed and routed.  The repair keeps those and solves the exact ILP only
 * for a neighbourhood of the ops it skipped: the skipped ops near their
 * placed neighbours (within radius + 1 of the one nearest to the others), the
 * ops within `hops` DFG edges of them within `radius` cells of where the
 * heuristic put them, and the routes that touch a freed op.  The model
 * then grows with the neighbourhood, not with the array times the II.
 * Rounds widen the neighbourhood until one maps; an infeasible or
 * undecided round proves nothing about the II (the kept ops may be the
 * obstacle), so the full model still decides what is impossible.
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "exact_internal.h"

/* The rounds: DFG hops around the skipped ops, the cells a freed op may
 * move, and the cells around a skipped op's center within which every op
 * is freed too (the registers that jam a skipped op are often held by
 * ops that are not its DFG neighbours). */
static const struct {
    int hops, radius, cells;
} rounds[] = {{1, 1, 0}, {2, 1, 0}, {1, 1, 1}, {2, 2, 2}};

/* Free every op placed within `cells` of a skipped op's center. */
static void free_around(const cg__kgraph *k, const cg_netlist *nl,
                        const cg_dfg *g, const cg_mapping *fix,
                        const int *center, int cells, bool *freed)
{
    int n = cg_dfg_nnodes(g);
    for (int u = 0; u < n && cells > 0; u++) {
        if (fix->place[u] >= 0 || center[u] < 0)
            continue;
        for (int v = 0; v < n; v++)
            if (fix->place[v] >= 0 &&
                cg__prim_dist(nl, cg_mrrg_get_node(k->m, fix->place[v])->prim,
                     center[u]) <= cells)
                freed[v] = true;
    }
}

/* freed[v]: v not placed in fix or within hops edges of such an op, and
 * the operand-less producers (consts, inputs) of a freed op: a const kept
 * on its ConstUnit, which feeds only its own PE, would pin its consumer. */
static void neighbourhood(const cg_dfg *g, const cg_mapping *fix, int hops,
                          const bool *has_operand, bool *freed, bool *next)
{
    int n = cg_dfg_nnodes(g), m = cg_dfg_nedges(g);
    for (int v = 0; v < n; v++)
        freed[v] = fix->place[v] < 0;
    for (int h = 0; h < hops; h++) {
        memcpy(next, freed, sizeof *freed * (size_t)n);
        for (int e = 0; e < m; e++) {
            const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
            if (freed[ed->src] || freed[ed->dst])
                next[ed->src] = next[ed->dst] = true;
        }
        memcpy(freed, next, sizeof *freed * (size_t)n);
    }
    for (int e = 0; e < m; e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        if (freed[ed->dst] && !has_operand[ed->src])
            freed[ed->src] = true;
    }
}

/* center[v] for an op fix does not place: of the units of its placed DFG
 * neighbours, the one nearest to all of them (the first of equals), -1
 * when none is placed.  -1 for placed ops. */
static void centers(const cg__kgraph *k, const cg_netlist *nl,
                    const cg_dfg *g, const cg_mapping *fix, int *center,
                    int *near)
{
    int n = cg_dfg_nnodes(g), m = cg_dfg_nedges(g);
    for (int v = 0; v < n; v++) {
        center[v] = -1;
        if (fix->place[v] >= 0)
            continue;
        int nn = 0;
        for (int e = 0; e < m; e++) {
            const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
            int w = ed->src == v ? ed->dst : ed->dst == v ? ed->src : -1;
            if (w >= 0 && w != v && fix->place[w] >= 0)
                near[nn++] = cg_mrrg_get_node(k->m, fix->place[w])->prim;
        }
        long best = -1;
        for (int i = 0; i < nn; i++) {
            long sum = 0;
            for (int j = 0; j < nn; j++)
                sum += cg__prim_dist(nl, near[i], near[j]);
            if (best < 0 || sum < best) {
                best = sum;
                center[v] = near[i];
            }
        }
    }
}

int cg__repair(const cg__kgraph *k, const cg_netlist *nl, const cg_dfg *g,
               const cg_mapping *fix, const cg__repair_opts *ro,
               cg__ilp_out *out, cg_diags *d)
{
    int n = cg_dfg_nnodes(g);
    bool *freed = malloc(sizeof(bool) * ((size_t)n + 1));
    bool *next = malloc(sizeof(bool) * ((size_t)n + 1));
    int *center = malloc(sizeof(int) * ((size_t)n + 1));
    int *near = malloc(sizeof(int) * ((size_t)cg_dfg_nedges(g) + 1));
    bool *has_operand = calloc((size_t)n + 1, sizeof *has_operand);
    memset(out, 0, sizeof *out);
    out->outcome = CG_II_TIMEOUT;
    int rc = !freed || !next || !center || !near || !has_operand ? -1 : 0;
    if (rc < 0)
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0, "out of memory "
                     "repairing the mapping of '%s'", cg_dfg_name(g));
    else
        centers(k, nl, g, fix, center, near);
    for (int e = 0; rc == 0 && e < cg_dfg_nedges(g); e++)
        has_operand[cg_dfg_get_edge(g, e)->dst] = true;
    for (size_t r = 0; rc == 0 && r < sizeof rounds / sizeof rounds[0];
         r++) {
        double left = ro->deadline - cg_clock_now();
        if (left <= 0) {
            out->capped = true;
            break;
        }
        neighbourhood(g, fix, rounds[r].hops, has_operand, freed, next);
        free_around(k, nl, g, fix, center, rounds[r].cells, freed);
        cg__ilp_opts o = {center,     rounds[r].radius, left,
                          NULL,       false,            ro->solver,
                          ro->nodes,  ro->lp_iters,     fix,
                          freed};
        rc = cg__ilp_solve(k, nl, g, &o, out, d);
        if (out->outcome == CG_II_MAPPED)
            break;
    }
    if (rc == 0 && out->outcome != CG_II_MAPPED)
        out->outcome = CG_II_TIMEOUT;
    free(freed);
    free(next);
    free(center);
    free(near);
    free(has_operand);
    return rc;
}
