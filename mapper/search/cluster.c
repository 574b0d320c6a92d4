/* cluster.c: clustering of large DFGs and placement of the clusters onto
 * regions of the array, before detailed placement (cluster_internal.h).
 *
 * Cluster-based CGRA mappers (PANORAMA, DAC'22) split a large loop into
 * clusters of ops that exchange many values, place the clusters on parts of
 * the array so that heavy traffic stays short, and only then place each op:
 * the detailed placer works on a small neighbourhood instead of the whole
 * array.  Here:
 *   1. Classes.  Two nodes are of one op class when exactly the same units
 *      (cg__map_node_fits) can run them: ALU ops on a uniform array, loads
 *      and stores of one bank, inputs and outputs, consts, ...
 *   2. Clusters.  At most params.threshold nodes: one cluster.  Above, METIS
 *      k-way (minimum edge cut, sizes balanced within metis_ufactor) splits
 *      the undirected DFG (an edge's weight = the DFG edges between its two
 *      nodes) into nclusters parts.  Each const then joins its (first)
 *      consumer's part: a ConstUnit feeds its own PE.  Clusters are
 *      renumbered in the order of their lowest node id and empty parts
 *      dropped.
 *   3. Regions.  The grid is cut into tr x tc tiles, about one per cluster
 *      and as square as possible, rows (and columns) split into bands that
 *      hold about equal numbers of units.  A region is a rectangle of 1 or
 *      2 x 1 or 2 tiles.  An ILP gives each cluster a region such that
 *      every tile carries at most ceil(clusters / tiles) clusters (a
 *      cluster counts 1 / its region's tiles on each), and the ops of the
 *      clusters of each region fit its units x II slots class by class (a
 *      transportation problem from op classes to groups of units that run
 *      the same classes, sharing the units of overlapping regions: exact
 *      by Hall's theorem, like ResMII).  It minimises the Manhattan
 *      distance between region centres summed over the DFG edges between
 *      clusters, plus each cluster's inner edges times the mean distance
 *      inside its region.  Wider regions let a cluster reach units its own
 *      tile lacks (MEMUnits in the border columns).  When no assignment
 *      fits (or the work limit ends the search with none), the tiling is
 *      coarsened (one band fewer in the dimension with more tiles) and the
 *      ILP run again, down to one tile: the whole array, which fails only
 *      when II is below the resource MII.
 * Everything is deterministic: METIS runs with a fixed seed, GLPK's
 * branch and bound is deterministic and stops at a node count; only the
 * wall-clock cap, a safety net, can change a result, and it says so.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glpk.h>
#include <metis.h>

#include "../../common/util.h"
#include "../model/model_internal.h"
#include "cluster_internal.h"
#include "lp_internal.h"

void cg__cluster_params_from(const cg_map_params *p, cg__cluster_params *out)
{
    memset(out, 0, sizeof *out);
    out->threshold = p->cluster_threshold;
    out->seed = p->seed;
    out->w = p->cluster;
}

void cg__cluster_params_init(cg__cluster_params *p)
{
    cg_map_params dflt;
    cg_map_params_init(&dflt);
    cg__cluster_params_from(&dflt, p);
}

/* The working state shared by the steps. */
typedef struct cl {
    const cg_netlist *nl;
    const cg_dfg *g;
    const cg__cluster_params *p;
    int ii, n;
    cg_diags *d;
    int nu;            /* units: primitives that run some node */
    int *unit;         /* unit -> primitive id */
    int nclass;
    int *class_of;     /* per node */
    int nsig;          /* unit signatures: the set of classes a unit runs */
    int *sig_of;       /* per unit */
    bool *sig_runs;    /* nsig x nclass */
    int k;             /* clusters */
    int *part;         /* per node: its cluster */
    int *need;         /* k x nclass: nodes of each class per cluster */
    int npair;         /* cluster pairs with traffic */
    int *pair;         /* npair x 2 */
    int *traffic;      /* per pair: DFG edges between the two */
    int *internal;     /* per cluster: DFG edges inside it */
} cl;

/* One tiling of the grid and the regions built from it. */
typedef struct tiling {
    int tr, tc, t;     /* tile rows, tile columns, tiles */
    cg__region *rect;  /* per tile */
    int *count;        /* t x nsig: units of each signature per tile */
    int nr;            /* candidate regions: rectangles of 1..2 x 1..2
                          tiles, single tiles first (region i < t is
                          tile i) */
    int *span;         /* nr x 4: first tile row and column, tile rows and
                          columns */
    cg__region *reg;   /* per region: its cells */
} tiling;

static void cl_free(cl *c)
{
    free(c->unit);
    free(c->class_of);
    free(c->sig_of);
    free(c->sig_runs);
    free(c->part);
    free(c->need);
    free(c->pair);
    free(c->traffic);
    free(c->internal);
}

static int oom(cl *c, const char *what)
{
    cg_diags_add(c->d, CG_SEV_ERROR, NULL, 0,
                 "out of memory %s while clustering '%s'", what,
                 cg_dfg_name(c->g));
    return -1;
}

/* ---- input checks ------------------------------------------------------ */

static int check_params(const cg__cluster_params *p, int ii, int n,
                        cg_diags *d)
{
    const char *bad = NULL;
    if (ii < 1)
        bad = "ii must be >= 1";
    else if (p->threshold < 0)
        bad = "threshold must be >= 0";
    else if (p->nclusters < 0)
        bad = "nclusters must be >= 0 (0 = from target_ops)";
    else if (p->nclusters > n && n > p->threshold)
        bad = "nclusters must not exceed the DFG's nodes";
    else if (p->nclusters == 0 && p->w.target_ops < 1)
        bad = "target_ops must be >= 1 when nclusters is 0";
    else if (p->w.metis_ufactor < 1 || p->w.metis_ncuts < 1)
        bad = "metis_ufactor and metis_ncuts must be >= 1";
    else if (p->w.ilp_nodes < 1 || !(p->w.ilp_time_s > 0))
        bad = "ilp_nodes must be >= 1 and ilp_time_s > 0";
    if (bad)
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                     "bad clustering parameters: %s (ii %d, threshold %d, "
                     "nclusters %d, target_ops %d, DFG nodes %d)",
                     bad, ii, p->threshold, p->nclusters, p->w.target_ops, n);
    return bad ? -1 : 0;
}

/* Every node must have a unit: the units are the primitives that run
 * some node. */
static int find_units(cl *c)
{
    int np = cg_netlist_nprims(c->nl);
    c->unit = malloc(sizeof(int) * ((size_t)np + 1));
    if (!c->unit)
        return oom(c, "listing units");
    c->nu = 0;
    for (int q = 0; q < np; q++)
        for (int v = 0; v < c->n; v++)
            if (cg__map_node_fits(cg_netlist_prim(c->nl, q),
                                  cg_dfg_get_node(c->g, v))) {
                c->unit[c->nu++] = q;
                break;
            }
    return 0;
}

static int check_nodes_run(cl *c, const bool *fits)
{
    int bad = 0;
    for (int v = 0; v < c->n; v++) {
        bool any = false;
        for (int u = 0; u < c->nu && !any; u++)
            any = fits[(size_t)v * (size_t)c->nu + (size_t)u];
        if (any)
            continue;
        const cg_dfg_node *nd = cg_dfg_get_node(c->g, v);
        cg_diags_add(c->d, CG_SEV_ERROR, cg_dfg_file(c->g), nd->line,
                     "cannot cluster '%s': no unit of the architecture runs "
                     "node '%s' (op '%s'%s): add a unit that supports it",
                     cg_dfg_name(c->g), nd->name, cg_op_name(nd->op),
                     nd->bank >= 0 ? ", on its bank" : "");
        bad = -1;
    }
    return bad;
}

/* ---- op classes and unit signatures ------------------------------------- */

/* Group the rows of an r x w boolean matrix: id[i] = the group of row i,
 * groups numbered in order of first appearance; returns the count. */
static int group_rows(const bool *m, int r, int w, int *id, int *first)
{
    int ng = 0;
    for (int i = 0; i < r; i++) {
        id[i] = -1;
        for (int j = 0; j < ng && id[i] < 0; j++)
            if (memcmp(m + (size_t)first[j] * (size_t)w,
                       m + (size_t)i * (size_t)w, (size_t)w) == 0)
                id[i] = j;
        if (id[i] < 0) {
            first[ng] = i;
            id[i] = ng++;
        }
    }
    return ng;
}

/* class_of from the node x unit fit matrix, then sig_of and sig_runs from
 * the unit x class matrix. */
static int classify(cl *c, const bool *fits)
{
    size_t n = (size_t)c->n, nu = (size_t)c->nu;
    int *first = malloc(sizeof(int) * (n + nu + 1));
    c->class_of = malloc(sizeof(int) * (n + 1));
    c->sig_of = malloc(sizeof(int) * (nu + 1));
    bool *uc = NULL;
    if (!first || !c->class_of || !c->sig_of)
        goto fail;
    c->nclass = group_rows(fits, c->n, c->nu, c->class_of, first);
    size_t nc = (size_t)c->nclass;
    uc = calloc(nu * nc + 1, sizeof *uc);
    if (!uc)
        goto fail;
    for (int i = 0; i < c->nclass; i++)
        for (size_t u = 0; u < nu; u++)
            uc[u * nc + (size_t)i] = fits[(size_t)first[i] * nu + u];
    c->nsig = group_rows(uc, c->nu, c->nclass, c->sig_of, first);
    c->sig_runs = malloc(sizeof(bool) * ((size_t)c->nsig * nc + 1));
    if (!c->sig_runs)
        goto fail;
    for (int s = 0; s < c->nsig; s++)
        memcpy(c->sig_runs + (size_t)s * nc, uc + (size_t)first[s] * nc, nc);
    free(uc);
    free(first);
    return 0;
fail:
    free(uc);
    free(first);
    return oom(c, "grouping op classes");
}

static int classes(cl *c)
{
    if (find_units(c) < 0)
        return -1;
    bool *fits = calloc((size_t)c->n * (size_t)c->nu + 1, sizeof *fits);
    if (!fits)
        return oom(c, "listing units");
    for (int v = 0; v < c->n; v++)
        for (int u = 0; u < c->nu; u++)
            fits[(size_t)v * (size_t)c->nu + (size_t)u] = cg__map_node_fits(
                cg_netlist_prim(c->nl, c->unit[u]), cg_dfg_get_node(c->g, v));
    int rc = check_nodes_run(c, fits);
    if (rc == 0)
        rc = classify(c, fits);
    free(fits);
    return rc;
}

/* ---- clusters (METIS) --------------------------------------------------- */

/* The undirected DFG in METIS's CSR form, without self-loops, parallel
 * edges merged into one whose weight is their count. */
static int metis_graph(cl *c, idx_t **xadj, idx_t **adj, idx_t **wgt)
{
    int m = cg_dfg_nedges(c->g);
    *xadj = calloc((size_t)c->n + 2, sizeof **xadj);
    *adj = malloc(sizeof **adj * (2 * (size_t)m + 1));
    *wgt = malloc(sizeof **wgt * (2 * (size_t)m + 1));
    int *last = malloc(sizeof(int) * ((size_t)c->n + 1));
    if (!*xadj || !*adj || !*wgt || !last) {
        free(last);
        return oom(c, "building the METIS graph");
    }
    for (int v = 0; v < c->n; v++)
        last[v] = -1;
    idx_t len = 0;
    for (int v = 0; v < c->n; v++) {
        (*xadj)[v] = len;
        for (int e = 0; e < m; e++) {
            const cg_dfg_edge *ed = cg_dfg_get_edge(c->g, e);
            int u = ed->src == v ? ed->dst : ed->dst == v ? ed->src : v;
            if (u == v)
                continue;
            if (last[u] >= (*xadj)[v]) {
                (*wgt)[last[u]]++;
                continue;
            }
            last[u] = len;
            (*adj)[len] = u;
            (*wgt)[len++] = 1;
        }
    }
    (*xadj)[c->n] = len;
    free(last);
    return 0;
}

/* Number the clusters in the order of their lowest node, dropping empty
 * ones: the numbering then does not depend on METIS's labels. */
static int renumber(cl *c, const idx_t *raw, int nraw)
{
    int *map = malloc(sizeof(int) * ((size_t)nraw + 1));
    if (!map)
        return oom(c, "numbering clusters");
    for (int i = 0; i < nraw; i++)
        map[i] = -1;
    c->k = 0;
    for (int v = 0; v < c->n; v++) {
        if (map[raw[v]] < 0)
            map[raw[v]] = c->k++;
        c->part[v] = map[raw[v]];
    }
    free(map);
    return 0;
}

/* Each const joins its first consumer's cluster.  A ConstUnit feeds its
 * own PE, so a const must sit where its consumer sits; METIS, balancing
 * the parts, may cut the one edge of a const, and the two regions then
 * need not share a PE (gemm_block at II 12: every attempt of the
 * heuristic failed on such a const). */
static void follow_consumers(const cl *c, idx_t *raw)
{
    /* backwards: the first edge out of a const writes last */
    for (int e = cg_dfg_nedges(c->g) - 1; e >= 0; e--) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(c->g, e);
        if (cg_dfg_get_node(c->g, ed->src)->op == CG_OP_CONST)
            raw[ed->src] = raw[ed->dst];
    }
}

static int wanted_clusters(const cl *c)
{
    if (c->n <= c->p->threshold)
        return 1;
    int k = c->p->nclusters;
    if (k == 0)
        k = (c->n + c->p->w.target_ops - 1) / c->p->w.target_ops;
    return k < 2 ? 2 : k > c->n ? c->n : k;
}

static int run_metis(cl *c, int want)
{
    idx_t *xadj = NULL, *adj = NULL, *wgt = NULL;
    idx_t *raw = malloc(sizeof(idx_t) * ((size_t)c->n + 1));
    int rc = raw ? metis_graph(c, &xadj, &adj, &wgt) : oom(c, "for METIS");
    if (rc == 0) {
        idx_t opt[METIS_NOPTIONS], nv = c->n, ncon = 1, np = want, cut = 0;
        METIS_SetDefaultOptions(opt);
        opt[METIS_OPTION_SEED] = (idx_t)(c->p->seed & 0x7fffffff);
        opt[METIS_OPTION_UFACTOR] = c->p->w.metis_ufactor;
        opt[METIS_OPTION_NCUTS] = c->p->w.metis_ncuts;
        opt[METIS_OPTION_NUMBERING] = 0;
        int st = METIS_PartGraphKway(&nv, &ncon, xadj, adj, NULL, NULL, wgt,
                                     &np, NULL, NULL, opt, &cut, raw);
        if (st != METIS_OK) {
            cg_diags_add(c->d, CG_SEV_ERROR, NULL, 0,
                         "METIS failed (status %d) splitting '%s' (%d "
                         "nodes) into %d clusters: check the clustering "
                         "parameters (metis_ufactor %d)",
                         st, cg_dfg_name(c->g), c->n, want,
                         c->p->w.metis_ufactor);
            rc = -1;
        }
    }
    if (rc == 0) {
        follow_consumers(c, raw);
        rc = renumber(c, raw, want);
    }
    free(raw);
    free(xadj);
    free(adj);
    free(wgt);
    return rc;
}

static int partition(cl *c)
{
    c->part = calloc((size_t)c->n + 1, sizeof *c->part);
    if (!c->part)
        return oom(c, "numbering clusters");
    int want = wanted_clusters(c);
    c->k = 1;
    return want > 1 ? run_metis(c, want) : 0;
}

/* need (per cluster and class) and the traffic between cluster pairs. */
static int tally(cl *c)
{
    size_t k = (size_t)c->k;
    c->need = calloc(k * (size_t)c->nclass + 1, sizeof *c->need);
    int *w = calloc(k * k + 1, sizeof *w);
    c->pair = malloc(sizeof(int) * (k * k + 1));
    c->traffic = malloc(sizeof(int) * (k * k + 1));
    c->internal = calloc(k + 1, sizeof *c->internal);
    if (!c->need || !w || !c->pair || !c->traffic || !c->internal) {
        free(w);
        return oom(c, "counting cluster traffic");
    }
    for (int v = 0; v < c->n; v++)
        c->need[(size_t)c->part[v] * (size_t)c->nclass +
                (size_t)c->class_of[v]]++;
    for (int e = 0; e < cg_dfg_nedges(c->g); e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(c->g, e);
        int a = c->part[ed->src], b = c->part[ed->dst];
        c->internal[a] += a == b;
        if (a != b)
            w[(size_t)(a < b ? a : b) * k + (size_t)(a < b ? b : a)]++;
    }
    c->npair = 0;
    for (int a = 0; a < c->k; a++)
        for (int b = a + 1; b < c->k; b++)
            if (w[(size_t)a * k + (size_t)b]) {
                c->pair[2 * c->npair] = a;
                c->pair[2 * c->npair + 1] = b;
                c->traffic[c->npair++] = w[(size_t)a * k + (size_t)b];
            }
    free(w);
    return 0;
}

/* ---- tilings ------------------------------------------------------------ */

/* The first tiling: at least min(k, rows*cols) tiles, minimising the tile
 * count times the tiles' aspect ratio (fewer tiles, then fewer tile rows,
 * on a tie). */
static void first_tiling(int k, int rows, int cols, int *tr, int *tc)
{
    int want = k < rows * cols ? k : rows * cols;
    double best = INFINITY;
    for (int r = 1; r <= rows; r++)
        for (int q = 1; q <= cols; q++) {
            if (r * q < want)
                continue;
            double h = (double)rows / r, w = (double)cols / q;
            double score = r * q * (h > w ? h / w : w / h);
            if (score < best - 1e-9 ||
                (score < best + 1e-9 && r * q < *tr * *tc)) {
                best = score;
                *tr = r;
                *tc = q;
            }
        }
}

/* Units out of the grid or without a position cannot be in a tile. */
static int check_positions(cl *c, int rows, int cols)
{
    int rc = 0;
    for (int u = 0; u < c->nu; u++) {
        const cg_nl_prim *pr = cg_netlist_prim(c->nl, c->unit[u]);
        if (pr->row >= 0 && pr->row < rows && pr->col >= 0 &&
            pr->col < cols)
            continue;
        cg_error_at(c->d, pr->loc,
                    "cannot split the array into regions for '%s' (%d "
                    "nodes, above the clustering threshold %d): unit '%s' "
                    "is at row %d, col %d, not on the %d x %d grid; give "
                    "its block a position on the grid or raise the "
                    "threshold (--cluster-above, cg_map_params."
                    "cluster_threshold)",
                    cg_dfg_name(c->g), c->n, c->p->threshold, pr->name,
                    pr->row, pr->col, rows, cols);
        rc = -1;
    }
    return rc;
}

static bool in_rect(const cg_nl_prim *pr, const cg__region *r, int rows,
                    int cols)
{
    if (r->row0 <= 0 && r->col0 <= 0 && r->row1 >= rows - 1 &&
        r->col1 >= cols - 1)
        return true; /* the whole grid, with any unplaced primitive */
    return pr->row >= r->row0 && pr->row <= r->row1 &&
           pr->col >= r->col0 && pr->col <= r->col1;
}

static void tiling_free(tiling *t)
{
    free(t->rect);
    free(t->count);
    free(t->span);
    free(t->reg);
}

/* Does region r contain tile i? */
static bool reg_has(const tiling *t, int r, int i)
{
    const int *sp = t->span + 4 * r;
    int a = i / t->tc, b = i % t->tc;
    return a >= sp[0] && a < sp[0] + sp[2] && b >= sp[1] && b < sp[1] + sp[3];
}

/* The candidate regions of t (its rectangles of up to 2 x 2 tiles). */
static int regions_make(tiling *t)
{
    t->span = malloc(sizeof(int) * 16 * (size_t)t->t);
    t->reg = malloc(sizeof *t->reg * 4 * (size_t)t->t);
    if (!t->span || !t->reg)
        return -1;
    t->nr = 0;
    for (int h = 1; h <= 2 && h <= t->tr; h++)
        for (int w = 1; w <= 2 && w <= t->tc; w++)
            for (int a = 0; a + h <= t->tr; a++)
                for (int b = 0; b + w <= t->tc; b++) {
                    int *sp = t->span + 4 * t->nr;
                    sp[0] = a, sp[1] = b, sp[2] = h, sp[3] = w;
                    const cg__region *lo = &t->rect[a * t->tc + b];
                    const cg__region *hi =
                        &t->rect[(a + h - 1) * t->tc + b + w - 1];
                    t->reg[t->nr++] = (cg__region){lo->row0, lo->col0,
                                                   hi->row1, hi->col1};
                }
    return 0;
}

/* Cut len rows (or columns) into nb bands holding about equal numbers of
 * units: band i starts at start[i], start[nb] = len.  Each boundary is the
 * line whose count of units before it is nearest to its share (the lower
 * one on a tie), leaving every band at least one line.  Equal cells would
 * give the border bands of an array with an IO ring fewer PEs. */
static int bands(const cl *c, bool by_col, int len, int nb, int *start)
{
    int *cum = calloc((size_t)len + 1, sizeof *cum);
    if (!cum)
        return -1;
    for (int u = 0; u < c->nu; u++) {
        const cg_nl_prim *pr = cg_netlist_prim(c->nl, c->unit[u]);
        int at = by_col ? pr->col : pr->row;
        if (at >= 0 && at < len)
            cum[at + 1]++;
    }
    for (int i = 0; i < len; i++)
        cum[i + 1] += cum[i];
    start[0] = 0;
    start[nb] = len;
    for (int i = 1; i < nb; i++) {
        double share = (double)cum[len] * i / nb;
        int best = start[i - 1] + 1;
        for (int r = best + 1; r <= len - (nb - i); r++)
            if (fabs(cum[r] - share) < fabs(cum[best] - share))
                best = r;
        start[i] = best;
    }
    free(cum);
    return 0;
}

static int tiling_make(cl *c, int tr, int tc, tiling *t)
{
    int rows = cg_netlist_rows(c->nl), cols = cg_netlist_cols(c->nl);
    t->tr = tr;
    t->tc = tc;
    t->t = tr * tc;
    t->rect = malloc(sizeof *t->rect * (size_t)t->t);
    t->count = calloc((size_t)t->t * (size_t)c->nsig + 1, sizeof *t->count);
    int *rs = malloc(sizeof(int) * ((size_t)tr + 1));
    int *cs = malloc(sizeof(int) * ((size_t)tc + 1));
    if (!t->rect || !t->count || !rs || !cs ||
        bands(c, false, rows, tr, rs) < 0 || bands(c, true, cols, tc, cs) < 0) {
        free(rs);
        free(cs);
        return oom(c, "tiling the array");
    }
    for (int i = 0; i < t->t; i++) {
        int a = i / tc, b = i % tc;
        t->rect[i] = (cg__region){rs[a], cs[b], rs[a + 1] - 1, cs[b + 1] - 1};
        for (int u = 0; u < c->nu; u++)
            if (in_rect(cg_netlist_prim(c->nl, c->unit[u]), &t->rect[i],
                        rows, cols))
                t->count[(size_t)i * (size_t)c->nsig +
                         (size_t)c->sig_of[u]]++;
    }
    free(rs);
    free(cs);
    return regions_make(t) < 0 ? oom(c, "tiling the array") : 0;
}

/* ---- the ILP ------------------------------------------------------------ */

/* One model: built in lp (lp_internal.h), then solved as P. */
typedef struct ilp {
    cg__lp lp;
    glp_prob *P;
    int *x;            /* k x nr: assignment columns */
    int nodes;         /* branch-and-bound nodes, from the callback */
    int limit;
    bool limit_hit;
} ilp;

static void add(ilp *m, int row, int col, double v)
{
    cg__lp_coef(&m->lp, row, col, v);
}

static int new_row(ilp *m, int type, double lb, double ub)
{
    return cg__lp_row(&m->lp, type, lb, ub);
}

/* A binary column, or a continuous one bounded only below by 0. */
static int new_col(ilp *m, int kind, double cost)
{
    return kind == GLP_BV ? cg__lp_col(&m->lp, GLP_IV, 0, 1, cost)
                          : cg__lp_col(&m->lp, GLP_CV, 0, INFINITY, cost);
}

/* Each cluster in one region, at most ceil(k / t) clusters' regions on
 * each tile. */
static void rows_assign(const cl *c, const tiling *t, ilp *m)
{
    for (int a = 0; a < c->k; a++) {
        int r = new_row(m, GLP_FX, 1, 1);
        for (int g = 0; g < t->nr; g++)
            add(m, r, m->x[a * t->nr + g], 1);
    }
    int share = (c->k + t->t - 1) / t->t;
    for (int i = 0; i < t->t && share < c->k; i++) {
        int r = new_row(m, GLP_UP, 0, share);
        for (int g = 0; g < t->nr; g++) {
            const int *sp = t->span + 4 * g;
            for (int a = 0; a < c->k && reg_has(t, g, i); a++)
                add(m, r, m->x[a * t->nr + g], 1.0 / (sp[2] * sp[3]));
        }
    }
}

/* Supply rows: each group of units of one signature in a tile serves at
 * most its units x II ops.  srow[i * nsig + s], 0 for an empty group. */
static void rows_supply(const cl *c, const tiling *t, ilp *m, int *srow)
{
    for (int i = 0; i < t->t * c->nsig; i++)
        srow[i] = t->count[i] ? new_row(m, GLP_UP, 0,
                                        (double)t->count[i] * c->ii)
                              : 0;
}

/* Per region and class: the ops of that class of the clusters in the
 * region flow to groups of units in the region's tiles that run the
 * class (a transportation problem: exact by Hall's theorem). */
static int rows_capacity(const cl *c, const tiling *t, ilp *m)
{
    int ns = c->nsig, nc = c->nclass;
    int *srow = malloc(sizeof(int) * ((size_t)t->t * (size_t)ns + 1));
    if (!srow)
        return -1;
    rows_supply(c, t, m, srow);
    for (int g = 0; g < t->nr; g++)
        for (int q = 0; q < nc; q++) {
            int r = new_row(m, GLP_FX, 0, 0);
            for (int a = 0; a < c->k; a++) {
                int need = c->need[(size_t)a * (size_t)nc + (size_t)q];
                if (need)
                    add(m, r, m->x[a * t->nr + g], -need);
            }
            for (int i = 0; i < t->t; i++)
                for (int s = 0; s < ns && reg_has(t, g, i); s++) {
                    int sr = srow[i * ns + s];
                    if (!sr || !c->sig_runs[(size_t)s * (size_t)nc +
                                            (size_t)q])
                        continue;
                    int f = new_col(m, GLP_CV, 0);
                    add(m, r, f, 1);
                    add(m, sr, f, 1); /* an earlier row: f is new */
                }
        }
    free(srow);
    return 0;
}

/* Per cluster pair with traffic: dr >= |row centre difference|, dc the
 * same for columns, costing traffic each.  Centres are doubled (row0 +
 * row1) to stay integers. */
static void rows_distance(const cl *c, const tiling *t, ilp *m)
{
    for (int e = 0; e < c->npair; e++) {
        int a = c->pair[2 * e], b = c->pair[2 * e + 1];
        for (int axis = 0; axis < 2; axis++) {
            int dcol = new_col(m, GLP_CV, c->traffic[e]);
            for (int sign = -1; sign <= 1; sign += 2) {
                int r = new_row(m, GLP_LO, 0, 0);
                add(m, r, dcol, 1);
                for (int g = 0; g < t->nr; g++) {
                    const cg__region *q = &t->reg[g];
                    int ctr = axis ? q->col0 + q->col1 : q->row0 + q->row1;
                    add(m, r, m->x[a * t->nr + g], sign * ctr);
                    add(m, r, m->x[b * t->nr + g], -sign * ctr);
                }
            }
        }
    }
}

/* A cluster's edges inside its region cost, in doubled cells, twice the
 * mean Manhattan distance between two points of an h x w rectangle,
 * (h + w) / 3: a larger region is chosen only when it pays. */
static double inside_cost(const cl *c, const tiling *t, int a, int g)
{
    const cg__region *q = &t->reg[g];
    int h = q->row1 - q->row0 + 1, w = q->col1 - q->col0 + 1;
    return c->internal[a] * 2.0 * (h + w) / 3.0;
}

/* The model in m->lp, then as m->P: 0, or -1 on no memory. */
static int build(const cl *c, const tiling *t, ilp *m)
{
    m->x = malloc(sizeof(int) * ((size_t)c->k * (size_t)t->nr + 1));
    if (!m->x)
        return -1;
    for (int a = 0; a < c->k; a++)
        for (int g = 0; g < t->nr; g++)
            m->x[a * t->nr + g] = new_col(m, GLP_BV,
                                          inside_cost(c, t, a, g));
    rows_assign(c, t, m);
    if (rows_capacity(c, t, m) < 0)
        return -1;
    rows_distance(c, t, m);
    if (m->lp.oom)
        return -1;
    int nonzeros;
    m->P = cg__lp_to_glpk(&m->lp, &nonzeros);
    return 0;
}

/* Stop branch and bound at the node limit: a count, so the point where
 * it stops is the same on every machine. */
static void node_limit(glp_tree *T, void *info)
{
    ilp *m = info;
    int active, current, total;
    glp_ios_tree_size(T, &active, &current, &total);
    m->nodes = total;
    if (glp_ios_reason(T) == GLP_ISELECT && total > m->limit) {
        m->limit_hit = true;
        glp_ios_terminate(T);
    }
}

/* Solve; 1 with each cluster's region in reg_of, 0 proven infeasible, 2 when the
 * limits ended the search before any placement, -1 when GLPK failed. */
static int solve(cl *c, const tiling *t, ilp *m, int *reg_of,
                 cg__cluster_out *out)
{
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    /* the feasibility pump: as good or better at the same node count on
     * the DFGs of docs/mapper.md (depth-first search, MIR cuts and
     * pseudocost branching were better on some, worse on others) */
    parm.fp_heur = GLP_ON;
    parm.cb_func = node_limit;
    parm.cb_info = m;
    m->limit = c->p->w.ilp_nodes;
    double ms = c->p->w.ilp_time_s * 1000;
    parm.tm_lim = ms >= INT_MAX ? INT_MAX : (int)ms + 1;
    int ret = glp_intopt(m->P, &parm);
    out->ilp_nodes += m->nodes;
    out->node_limit_hit |= m->limit_hit;
    if (ret == GLP_ETMLIM) {
        out->time_cap_hit = true;
        cg_diags_add(c->d, CG_SEV_WARNING, NULL, 0,
                     "clustering '%s': the %g s wall-clock cap stopped the "
                     "region ILP (%d x %d tiles) after %d of its %d nodes: "
                     "the result may differ on another machine; raise "
                     "cg_map_params.cluster.ilp_time_s or lower its ilp_nodes",
                     cg_dfg_name(c->g), c->p->w.ilp_time_s, t->tr, t->tc,
                     m->nodes, m->limit);
    }
    if (ret != 0 && ret != GLP_ETMLIM && ret != GLP_ESTOP &&
        ret != GLP_ENOPFS) {
        cg_diags_add(c->d, CG_SEV_ERROR, NULL, 0,
                     "internal error: GLPK failed (glp_intopt code %d) on "
                     "the region ILP of '%s' (%d x %d tiles)",
                     ret, cg_dfg_name(c->g), t->tr, t->tc);
        return -1;
    }
    int st = glp_mip_status(m->P);
    if (st != GLP_OPT && st != GLP_FEAS)
        return ret == GLP_ENOPFS || (ret == 0 && st == GLP_NOFEAS) ? 0 : 2;
    for (int a = 0; a < c->k; a++)
        for (int g = 0; g < t->nr; g++)
            if (glp_mip_col_val(m->P, m->x[a * t->nr + g]) > 0.5)
                reg_of[a] = g;
    return 1;
}

/* place_on's work, for cg__glpk_guard. */
typedef struct place_call {
    cl *c;
    const tiling *t;
    ilp *m;
    int *reg_of;
    cg__cluster_out *out;
} place_call;

static int place_guarded(void *arg)
{
    place_call *a = arg;
    if (build(a->c, a->t, a->m) < 0)
        return oom(a->c, "building the region ILP");
    return solve(a->c, a->t, a->m, a->reg_of, a->out);
}

/* Build and solve the ILP on tiling t: as solve(), or -1 with an error. */
static int place_on(cl *c, const tiling *t, int *reg_of,
                    cg__cluster_out *out)
{
    ilp m = {0};
    cg__lp_init(&m.lp);
    place_call a = {c, t, &m, reg_of, out};
    char said[160];
    int rc = cg__glpk_guard(place_guarded, &a, said, sizeof said);
    if (rc == CG__GLPK_FAILED) {
        m.P = NULL; /* gone with GLPK's environment */
        cg_diags_add(c->d, CG_SEV_ERROR, NULL, 0,
                     "GLPK stopped on the region ILP of '%s' (%d x %d "
                     "tiles): %s", cg_dfg_name(c->g), t->tr, t->tc, said);
        rc = -1;
    }
    if (m.P)
        glp_delete_prob(m.P);
    free(m.x);
    cg__lp_free(&m.lp);
    return rc;
}

/* ---- the result --------------------------------------------------------- */

static void record(const cl *c, const tiling *t, const int *reg_of,
                   cg__cluster_out *out)
{
    out->status = CG__CLUSTER_PLACED;
    out->tile_rows = t->tr;
    out->tile_cols = t->tc;
    for (int a = 0; a < c->k; a++)
        out->region[a] = t->reg[reg_of[a]];
    double cost = 0;
    for (int e = 0; e < c->npair; e++) {
        const cg__region *x = &out->region[c->pair[2 * e]];
        const cg__region *y = &out->region[c->pair[2 * e + 1]];
        cost += c->traffic[e] *
                (abs(x->row0 + x->row1 - y->row0 - y->row1) +
                 abs(x->col0 + x->col1 - y->col0 - y->col1)) / 2.0;
    }
    out->cost = cost;
}

/* One band fewer in the dimension with more tiles (rows on a tie): each
 * step enlarges the tiles a little, so the regions stay as small as the
 * capacities allow. */
static void coarsen(int *tr, int *tc)
{
    if (*tr >= *tc)
        (*tr)--;
    else
        (*tc)--;
}

/* Try tilings from the first to 1 x 1 until the ILP places the clusters. */
static int place_clusters(cl *c, cg__cluster_out *out)
{
    int rows = cg_netlist_rows(c->nl), cols = cg_netlist_cols(c->nl);
    int tr = 1, tc = 1;
    if (rows >= 1 && cols >= 1 && c->k > 1)
        first_tiling(c->k, rows, cols, &tr, &tc);
    if (tr * tc > 1 && check_positions(c, rows, cols) < 0)
        return -1;
    int *reg_of = malloc(sizeof(int) * ((size_t)c->k + 1));
    if (!reg_of)
        return oom(c, "placing clusters");
    for (;;) {
        tiling t = {0};
        int rc = tiling_make(c, tr, tc, &t);
        if (rc == 0)
            rc = place_on(c, &t, reg_of, out);
        if (rc == 1)
            record(c, &t, reg_of, out);
        else if (rc == 2)
            out->status = CG__CLUSTER_LIMIT;
        else if (rc == 0)
            out->status = CG__CLUSTER_NO_FIT;
        tiling_free(&t);
        if (rc < 0 || rc == 1 || tr * tc == 1) {
            free(reg_of);
            return rc < 0 ? -1 : 0;
        }
        coarsen(&tr, &tc);
    }
}

static int fill_out(const cl *c, cg__cluster_out *out)
{
    out->nnodes = c->n;
    out->nclusters = c->k;
    out->cluster = malloc(sizeof(int) * ((size_t)c->n + 1));
    out->region = calloc((size_t)c->k + 1, sizeof *out->region);
    if (!out->cluster || !out->region)
        return -1;
    memcpy(out->cluster, c->part, sizeof(int) * (size_t)c->n);
    out->cut = 0;
    for (int e = 0; e < cg_dfg_nedges(c->g); e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(c->g, e);
        out->cut += c->part[ed->src] != c->part[ed->dst];
    }
    return 0;
}

int cg__cluster_place(const cg_netlist *nl, const cg_dfg *g, int ii,
                      const cg__cluster_params *p, cg__cluster_out *out,
                      cg_diags *d)
{
    memset(out, 0, sizeof *out);
    cl c = {.nl = nl, .g = g, .p = p, .ii = ii, .n = cg_dfg_nnodes(g),
            .d = d};
    if (check_params(p, ii, c.n, d) < 0)
        return -1;
    int rc = classes(&c);
    if (rc == 0)
        rc = partition(&c);
    if (rc == 0)
        rc = tally(&c);
    if (rc == 0 && fill_out(&c, out) < 0)
        rc = oom(&c, "writing the clusters");
    if (rc == 0)
        rc = place_clusters(&c, out);
    cl_free(&c);
    if (rc < 0)
        cg__cluster_out_free(out);
    return rc;
}

void cg__cluster_out_free(cg__cluster_out *out)
{
    free(out->cluster);
    free(out->region);
    memset(out, 0, sizeof *out);
}

/* ---- allowed primitives ------------------------------------------------- */

int cg__cluster_allowed(const cg_netlist *nl, const cg_dfg *g,
                        const cg__cluster_out *c, int halo,
                        cg__prim_sets *out, cg_diags *d)
{
    memset(out, 0, sizeof *out);
    int n = cg_dfg_nnodes(g), np = cg_netlist_nprims(nl);
    int rows = cg_netlist_rows(nl), cols = cg_netlist_cols(nl);
    if (halo < 0 || c->status != CG__CLUSTER_PLACED || c->nnodes != n) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                     "cannot list the primitives allowed per node of '%s': "
                     "%s", cg_dfg_name(g),
                     halo < 0 ? "halo must be >= 0"
                     : c->status != CG__CLUSTER_PLACED
                         ? "the clusters have no regions (status NO_FIT)"
                         : "the clustering is of another DFG (node count)");
        return -1;
    }
    out->n = n;
    out->off = malloc(sizeof(int) * ((size_t)n + 1));
    out->ids = malloc(sizeof(int) * ((size_t)n * (size_t)np + 1));
    if (!out->off || !out->ids) {
        cg__prim_sets_free(out);
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                     "out of memory listing allowed primitives of '%s'",
                     cg_dfg_name(g));
        return -1;
    }
    int len = 0;
    for (int v = 0; v < n; v++) {
        out->off[v] = len;
        cg__region r = c->region[c->cluster[v]];
        r.row0 -= halo, r.col0 -= halo, r.row1 += halo, r.col1 += halo;
        for (int q = 0; q < np; q++) {
            const cg_nl_prim *pr = cg_netlist_prim(nl, q);
            if (cg__map_node_fits(pr, cg_dfg_get_node(g, v)) &&
                in_rect(pr, &r, rows, cols))
                out->ids[len++] = q;
        }
    }
    out->off[n] = len;
    return 0;
}

void cg__prim_sets_free(cg__prim_sets *s)
{
    free(s->off);
    free(s->ids);
    memset(s, 0, sizeof *s);
}
