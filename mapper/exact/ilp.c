/* ilp.c: the exact mapping ILP at one II, built on the compressed MRRG and
 * solved with GLPK.
 *
 * Variables (all 0/1 unless said):
 *   F[p,v]   op v on FUNC node p (p supports v; near the heuristic
 *            placement when the model is restricted)
 *   k[v]     integer stage: start(v) = context(p) + II * k[v]
 *   x[a,e]   kedge a is on the route of DFG edge e (value src(e) to the
 *            operand pin of dst(e))
 *   y[a,v]   kedge a carries value v (continuous: it follows from x); for a
 *            value with one use, x itself
 * Rows:
 *   sum_p F[p,v] = 1;  sum_v F[p,v] <= 1
 *   route of e: x[out(p),e] = F[p,src]; flow in = flow out at every ROUTE
 *   node; flow into pin_k(p) = F[p,dst]
 *   x[a,e] <= y[a,v]
 *   per ROUTE node: sum over its in-kedges a and values v of y[a,v] <= 1 --
 *   one value, entering by one edge (this is the mux rule, per in-edge: a
 *   value may leave a FuncUnit and come back to it; and it makes the routes
 *   of one value a tree, so a node shared by two uses holds the value at
 *   one time only)
 *   timing: start(dst) + d*II = start(src) + sum_a delay(a) x[a,e]
 *   memory order: start(then) + d*II >= start(first) + latency for every
 *   edge of cg_map_mem_orders (a store before a later access of the same
 *   location, ...)
 * A route is then a path plus, possibly, detached cycles.  Cycles of zero
 * delay are harmless (the route written out is the path); a cycle with a
 * delay would pad the timing ("ghost cycle"), so each one is cut (sum of
 * its x <= length - 1) lazily: in GLPK's row-generation callback whenever
 * a node's LP has an integral route, so the branch and bound goes on
 * (MIP presolve is off for that: the callback must see the original
 * columns), and after the search for solutions its heuristics found, by
 * solving again.  (Arrival potentials that forbid such cycles up front
 * were measured slower: docs/mapper.md.)
 * Symmetry: contexts are interchangeable (a time shift), so DFG node 0
 * starts at cycle 0; in the full model, one op keeps one candidate per
 * orbit of the array's verified spatial symmetries (sym.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "ilp_internal.h"
#include "sym_internal.h"

typedef struct model {
    const cg__kgraph *k;
    const cg_netlist *nl;
    const cg_dfg *g;
    const cg__ilp_opts *o;
    int ii, n, m, nk, nn;
    int **cand, *ncand;  /* per DFG node: FUNC nodes */
    int **fcol;          /* per DFG node, per candidate: column */
    int *kcol;           /* per DFG node */
    int **xcol;          /* per DFG edge, per kedge: column or 0 */
    int **ycol;          /* per value with >= 2 uses, per kedge, else NULL */
    int *nuses, *use1;   /* per DFG node: uses, and the use when one */
    int *df, *db;        /* scratch distances per MRRG node */
    int *path;           /* scratch: kedges of a route */
    bool *used;          /* scratch: per kedge */
    bool lp_values;      /* read LP values (in the callback), not MIP */
    bool oom;            /* an allocation failed (not a broken route) */
    double *x;           /* CBC's solution (1-based), NULL with GLPK */
    /* a cut's row (nk + 1 each), kept here so that a jump out of GLPK
     * leaks nothing */
    int *cut_ind;
    double *cut_val;
    cg__lp lp;
} model;

/* ---- candidates ---------------------------------------------------------- */

static int grid_dist(const model *M, int node, int prim)
{
    const cg_nl_prim *pr = cg_netlist_prim(M->nl, prim);
    return abs(M->k->row[node] - pr->row) + abs(M->k->col[node] - pr->col);
}

static bool fits(const model *M, int v, int p)
{
    const cg_mrrg_node *nd = cg_mrrg_get_node(M->k->m, p);
    const cg_dfg_node *op = cg_dfg_get_node(M->g, v);
    if (!cg__map_node_fits(cg_netlist_prim(M->nl, nd->prim), op))
        return false;
    const cg_mapping *fix = M->o->fix;
    if (fix && fix->place[v] >= 0) {
        if (!M->o->freed[v] && p != fix->place[v])
            return false; /* kept */
        int prim = cg_mrrg_get_node(M->k->m, fix->place[v])->prim;
        if (M->o->freed[v] && grid_dist(M, p, prim) > M->o->radius)
            return false;
    } else if (fix && M->o->center && M->o->center[v] >= 0 &&
               grid_dist(M, p, M->o->center[v]) > M->o->radius + 1) {
        return false; /* not placed: near its placed neighbours */
    }
    if (!fix && M->o->center &&
        grid_dist(M, p, M->o->center[v]) > M->o->radius)
        return false;
    if (!fix && v == 0 && nd->context != 0)
        return false; /* time-shift symmetry (kept ops fix the time) */
    if (M->nuses[v] > 0 && M->k->func_out[p] < 0)
        return false;
    for (int e = 0; e < M->m; e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(M->g, e);
        if (ed->dst == v &&
            cg_mrrg_pin(M->k->m, p, ed->operand) < 0)
            return false;
    }
    return true;
}

/* The full model is invariant under the verified symmetries (sym.c) and
 * so is fits(): any mapping moves by one of them to a mapping where the op
 * with the most candidates sits on its orbit's representative.  One op
 * only: a second would need the first's stabiliser. */
static void break_symmetry(model *M)
{
    if (M->o->center || M->o->fix || !M->k->sym)
        return;
    int best = 0;
    for (int v = 1; v < M->n; v++)
        if (M->ncand[v] > M->ncand[best])
            best = v;
    if (M->n > 0)
        M->ncand[best] = cg__sym_restrict(M->k->sym, M->cand[best],
                                          M->ncand[best]);
}

static int make_cands(model *M)
{
    for (int v = 0; v < M->n; v++) {
        M->cand[v] = malloc(sizeof(int) * ((size_t)M->nn + 1));
        M->fcol[v] = malloc(sizeof(int) * ((size_t)M->nn + 1));
        if (!M->cand[v] || !M->fcol[v])
            return -1;
        for (int p = 0; p < M->nn; p++)
            if (cg_mrrg_get_node(M->k->m, p)->kind == CG_MRRG_FUNC &&
                fits(M, v, p))
                M->cand[v][M->ncand[v]++] = p;
    }
    break_symmetry(M);
    for (int v = 0; v < M->n; v++)
        for (int i = 0; i < M->ncand[v]; i++)
            M->fcol[v][i] = cg__lp_col(&M->lp, GLP_IV, 0, 1, 0);
    return 0;
}

/* ---- regions: the kedges a route of e may take ------------------------- */

/* May a route pass through ROUTE node i (restricted models keep routes in
 * the bounding box of the candidates, one block wider)? */
static bool inside(const model *M, const int *box, int i)
{
    if ((!M->o->center && !M->o->fix) || M->k->row[i] < 0)
        return true;
    return M->k->row[i] >= box[0] - 1 && M->k->row[i] <= box[1] + 1 &&
           M->k->col[i] >= box[2] - 1 && M->k->col[i] <= box[3] + 1;
}

static bool passable(const model *M, int i)
{
    const cg_mrrg_node *nd = cg_mrrg_get_node(M->k->m, i);
    return nd->kind == CG_MRRG_ROUTE && nd->operand < 0;
}

/* Shortest delays from the sources (forward) or to the sinks (backward)
 * through passable nodes; dist -1 = unreachable. */
static int dijkstra(const model *M, const int *box, bool fwd, int *dist,
                    const int *seeds, const int *seed_d, int nseeds)
{
    const cg__kgraph *k = M->k;
    cg__heap h = {0, malloc(sizeof(long) * ((size_t)k->nedges + nseeds + 1)),
              malloc(sizeof(int) * ((size_t)k->nedges + nseeds + 1))};
    if (!h.key || !h.val) {
        free(h.key);
        free(h.val);
        return -1;
    }
    for (int i = 0; i < M->nn; i++)
        dist[i] = -1;
    for (int s = 0; s < nseeds; s++)
        cg__heap_push(&h, seed_d[s], seeds[s]);
    while (h.n) {
        long d;
        int i = cg__heap_pop(&h, &d);
        if (dist[i] >= 0)
            continue;
        dist[i] = (int)d;
        if (!passable(M, i) && fwd)
            continue; /* a pin ends a forward search */
        const int *off = fwd ? k->out_off : k->in_off;
        const int *ids = fwd ? k->out_ids : k->in_ids;
        for (int j = off[i]; j < off[i + 1]; j++) {
            const cg__kedge *ke = &k->edges[ids[j]];
            int nb = fwd ? ke->to : ke->from;
            if (dist[nb] >= 0 || d + ke->delay > k->max_delay)
                continue;
            bool ok = fwd ? cg_mrrg_get_node(k->m, nb)->kind ==
                                    CG_MRRG_ROUTE && inside(M, box, nb)
                          : passable(M, nb) && inside(M, box, nb);
            if (ok)
                cg__heap_push(&h, d + ke->delay, nb);
        }
    }
    free(h.key);
    free(h.val);
    return 0;
}

static void box_of(const model *M, int v, int *box)
{
    for (int i = 0; i < M->ncand[v]; i++) {
        int p = M->cand[v][i];
        if (M->k->row[p] < 0)
            continue;
        if (M->k->row[p] < box[0]) box[0] = M->k->row[p];
        if (M->k->row[p] > box[1]) box[1] = M->k->row[p];
        if (M->k->col[p] < box[2]) box[2] = M->k->col[p];
        if (M->k->col[p] > box[3]) box[3] = M->k->col[p];
    }
}

static bool kept(const model *M, int v)
{
    return M->o->fix && M->o->fix->place[v] >= 0 && !M->o->freed[v];
}

/* The columns of an edge between two kept ops: the kedges of its route in
 * the partial mapping (so x is forced to that route); M->df marks its
 * nodes. */
static int fixed_region(model *M, int e)
{
    const cg_mapping *fix = M->o->fix;
    const cg__kgraph *k = M->k;
    M->xcol[e] = calloc((size_t)k->nedges + 1, sizeof(int));
    if (!M->xcol[e])
        return -1;
    for (int i = 0; i < M->nn; i++)
        M->df[i] = 0;
    for (int i = 0; i < fix->route_len[e]; i++)
        M->df[fix->route[e][i]] = 1;
    int src = fix->place[cg_dfg_get_edge(M->g, e)->src];
    for (int a = 0; a < k->nedges; a++) {
        const cg__kedge *ke = &k->edges[a];
        bool on = (ke->from == src || M->df[ke->from]) && M->df[ke->to];
        for (int j = 0; on && j < ke->nvia; j++)
            on = M->df[k->via[ke->via0 + j]];
        if (on)
            M->xcol[e][a] = cg__lp_col(&M->lp, GLP_IV, 0, 1, 1);
    }
    return 0;
}

/* Columns x[a,e] for every kedge a on some source-to-sink path of e. */
static int make_region(model *M, int e)
{
    const cg_dfg_edge *ed = cg_dfg_get_edge(M->g, e);
    const cg__kgraph *k = M->k;
    if (kept(M, ed->src) && kept(M, ed->dst) && M->o->fix->route[e])
        return fixed_region(M, e);
    int box[4] = {1 << 30, -(1 << 30), 1 << 30, -(1 << 30)};
    box_of(M, ed->src, box);
    box_of(M, ed->dst, box);
    int nu = M->ncand[ed->src], nw = M->ncand[ed->dst];
    int *seeds = malloc(sizeof(int) * ((size_t)(nu > nw ? nu : nw) + 1));
    int *sd = calloc((size_t)(nu > nw ? nu : nw) + 1, sizeof *sd);
    M->xcol[e] = calloc((size_t)k->nedges + 1, sizeof(int));
    if (!seeds || !sd || !M->xcol[e])
        goto fail;
    for (int i = 0; i < nu; i++) {
        const cg__kedge *ke = &k->edges[k->func_out[M->cand[ed->src][i]]];
        seeds[i] = ke->to;
        sd[i] = ke->delay;
    }
    if (dijkstra(M, box, true, M->df, seeds, sd, nu) < 0)
        goto fail;
    for (int i = 0; i < nw; i++) {
        seeds[i] = cg_mrrg_pin(k->m, M->cand[ed->dst][i], ed->operand);
        sd[i] = 0;
    }
    if (dijkstra(M, box, false, M->db, seeds, sd, nw) < 0)
        goto fail;
    for (int a = 0; a < k->nedges; a++) {
        const cg__kedge *ke = &k->edges[a];
        int before;
        if (cg_mrrg_get_node(k->m, ke->from)->kind == CG_MRRG_FUNC) {
            /* only the outputs of the producer's candidates */
            bool mine = false;
            for (int i = 0; i < nu && !mine; i++)
                mine = M->cand[ed->src][i] == ke->from;
            if (!mine || M->db[ke->to] < 0)
                continue;
            before = 0;
        } else {
            if (!passable(M, ke->from) || M->df[ke->from] < 0 ||
                M->db[ke->to] < 0)
                continue;
            before = M->df[ke->from];
        }
        if ((long)before + ke->delay + M->db[ke->to] > k->max_delay)
            continue;
        M->xcol[e][a] = cg__lp_col(&M->lp, GLP_IV, 0, 1, 1);
    }
    free(seeds);
    free(sd);
    return 0;
fail:
    free(seeds);
    free(sd);
    return -1;
}

/* ---- rows ---------------------------------------------------------------- */

static int fcol_of(const model *M, int v, int p)
{
    for (int i = 0; i < M->ncand[v]; i++)
        if (M->cand[v][i] == p)
            return M->fcol[v][i];
    return 0;
}

static void rows_place(model *M)
{
    for (int v = 0; v < M->n; v++) {
        int r = cg__lp_row(&M->lp, GLP_FX, 1, 1);
        for (int i = 0; i < M->ncand[v]; i++)
            cg__lp_coef(&M->lp, r, M->fcol[v][i], 1);
    }
    /* One op per FUNC node: count candidates per node first. */
    int *cnt = calloc((size_t)M->nn + 1, sizeof *cnt);
    if (!cnt) {
        M->lp.oom = true;
        return;
    }
    for (int v = 0; v < M->n; v++)
        for (int i = 0; i < M->ncand[v]; i++)
            cnt[M->cand[v][i]]++;
    for (int p = 0; p < M->nn; p++) {
        if (cnt[p] < 2)
            continue;
        int r = cg__lp_row(&M->lp, GLP_UP, 0, 1);
        for (int v = 0; v < M->n; v++)
            cg__lp_coef(&M->lp, r, fcol_of(M, v, p), 1);
    }
    free(cnt);
}

static bool is_sink(const model *M, int e, int node, int *fc)
{
    const cg_dfg_edge *ed = cg_dfg_get_edge(M->g, e);
    for (int i = 0; i < M->ncand[ed->dst]; i++)
        if (cg_mrrg_pin(M->k->m, M->cand[ed->dst][i], ed->operand) ==
            node) {
            *fc = M->fcol[ed->dst][i];
            return true;
        }
    return false;
}

/* Source, conservation and sink rows of the route of e. */
static void rows_route(model *M, int e)
{
    const cg_dfg_edge *ed = cg_dfg_get_edge(M->g, e);
    const cg__kgraph *k = M->k;
    const int *x = M->xcol[e];
    for (int i = 0; i < M->ncand[ed->src]; i++) {
        int p = M->cand[ed->src][i], a = k->func_out[p];
        int r = cg__lp_row(&M->lp, GLP_FX, 0, 0);
        cg__lp_coef(&M->lp, r, x[a], 1);
        cg__lp_coef(&M->lp, r, M->fcol[ed->src][i], -1);
    }
    for (int b = 0; b < M->nn; b++) {
        if (!k->kept[b] ||
            cg_mrrg_get_node(k->m, b)->kind != CG_MRRG_ROUTE)
            continue;
        int fc = 0;
        bool sink = is_sink(M, e, b, &fc);
        bool any = sink;
        for (int j = k->in_off[b]; j < k->in_off[b + 1] && !any; j++)
            any = x[k->in_ids[j]] != 0;
        for (int j = k->out_off[b]; j < k->out_off[b + 1] && !any; j++)
            any = x[k->out_ids[j]] != 0;
        if (!any)
            continue;
        int r = cg__lp_row(&M->lp, GLP_FX, 0, 0);
        for (int j = k->in_off[b]; j < k->in_off[b + 1]; j++)
            cg__lp_coef(&M->lp, r, x[k->in_ids[j]], 1);
        if (sink) {
            cg__lp_coef(&M->lp, r, fc, -1);
            continue;
        }
        for (int j = k->out_off[b]; j < k->out_off[b + 1]; j++)
            cg__lp_coef(&M->lp, r, x[k->out_ids[j]], -1);
    }
}

/* y[a,v] >= x[a,e] for the values with several uses. */
static int rows_values(model *M)
{
    for (int e = 0; e < M->m; e++) {
        int v = cg_dfg_get_edge(M->g, e)->src;
        if (M->nuses[v] < 2)
            continue;
        if (!M->ycol[v]) {
            M->ycol[v] = calloc((size_t)M->nk + 1, sizeof(int));
            if (!M->ycol[v])
                return -1;
        }
        for (int a = 0; a < M->nk; a++) {
            if (!M->xcol[e][a])
                continue;
            if (!M->ycol[v][a])
                M->ycol[v][a] = cg__lp_col(&M->lp, GLP_CV, 0, 1, 0);
            int r = cg__lp_row(&M->lp, GLP_UP, -1e30, 0);
            cg__lp_coef(&M->lp, r, M->xcol[e][a], 1);
            cg__lp_coef(&M->lp, r, M->ycol[v][a], -1);
        }
    }
    return 0;
}

static int carry_col(const model *M, int v, int a)
{
    if (M->nuses[v] == 0)
        return 0;
    if (M->nuses[v] == 1)
        return M->xcol[M->use1[v]][a];
    return M->ycol[v] ? M->ycol[v][a] : 0;
}

/* One value, by one in-edge, per ROUTE node. */
static void rows_capacity(model *M)
{
    const cg__kgraph *k = M->k;
    for (int b = 0; b < M->nn; b++) {
        if (!k->kept[b] ||
            cg_mrrg_get_node(k->m, b)->kind != CG_MRRG_ROUTE)
            continue;
        int terms = 0;
        for (int j = k->in_off[b]; j < k->in_off[b + 1] && terms < 2; j++)
            for (int v = 0; v < M->n && terms < 2; v++)
                terms += carry_col(M, v, k->in_ids[j]) != 0;
        if (terms < 2)
            continue;
        int r = cg__lp_row(&M->lp, GLP_UP, -1e30, 1);
        for (int j = k->in_off[b]; j < k->in_off[b + 1]; j++)
            for (int v = 0; v < M->n; v++)
                cg__lp_coef(&M->lp, r, carry_col(M, v, k->in_ids[j]), 1);
    }
}

static void rows_timing(model *M)
{
    for (int e = 0; e < M->m; e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(M->g, e);
        double rhs = -(double)ed->distance * M->ii;
        int r = cg__lp_row(&M->lp, GLP_FX, rhs, rhs);
        for (int i = 0; i < M->ncand[ed->dst]; i++)
            cg__lp_coef(&M->lp, r, M->fcol[ed->dst][i],
                        cg_mrrg_get_node(M->k->m, M->cand[ed->dst][i])
                            ->context);
        cg__lp_coef(&M->lp, r, M->kcol[ed->dst], M->ii);
        for (int i = 0; i < M->ncand[ed->src]; i++)
            cg__lp_coef(&M->lp, r, M->fcol[ed->src][i],
                        -cg_mrrg_get_node(M->k->m, M->cand[ed->src][i])
                             ->context);
        cg__lp_coef(&M->lp, r, M->kcol[ed->src], -M->ii);
        for (int a = 0; a < M->nk; a++)
            cg__lp_coef(&M->lp, r, M->xcol[e][a],
                        -(double)M->k->edges[a].delay);
    }
}

/* start(v) as terms of a row: context of its FUNC node plus II * k[v]. */
static void start_terms(model *M, int r, int v, double sign)
{
    for (int i = 0; i < M->ncand[v]; i++)
        cg__lp_coef(&M->lp, r, M->fcol[v][i],
                    sign * cg_mrrg_get_node(M->k->m, M->cand[v][i])->context);
    cg__lp_coef(&M->lp, r, M->kcol[v], sign * M->ii);
}

/* Memory order (cg_map_mem_orders): start(then) - start(first) >=
 * latency - distance*II.  -1 on no memory. */
static int rows_order(model *M)
{
    cg_mem_order *o = NULL;
    int no = cg_map_mem_orders(M->g, &o);
    for (int i = 0; i < no; i++) {
        if (o[i].first == o[i].then)
            continue; /* start(v) + d*II >= start(v) holds */
        double rhs = o[i].latency - (double)o[i].distance * M->ii;
        int r = cg__lp_row(&M->lp, GLP_LO, rhs, 0);
        start_terms(M, r, o[i].then, 1);
        start_terms(M, r, o[i].first, -1);
    }
    free(o);
    return no < 0 ? -1 : 0;
}

/* ---- model lifetime ----------------------------------------------------- */

static int model_init(model *M)
{
    M->n = cg_dfg_nnodes(M->g);
    M->m = cg_dfg_nedges(M->g);
    M->nk = M->k->nedges;
    M->nn = M->k->nnodes;
    M->ii = cg_mrrg_ii(M->k->m);
    cg__lp_init(&M->lp);
    size_t n1 = (size_t)M->n + 1, m1 = (size_t)M->m + 1;
    M->cand = calloc(n1, sizeof *M->cand);
    M->fcol = calloc(n1, sizeof *M->fcol);
    M->ncand = calloc(n1, sizeof *M->ncand);
    M->kcol = calloc(n1, sizeof *M->kcol);
    M->ycol = calloc(n1, sizeof *M->ycol);
    M->nuses = calloc(n1, sizeof *M->nuses);
    M->use1 = calloc(n1, sizeof *M->use1);
    M->xcol = calloc(m1, sizeof *M->xcol);
    M->df = malloc(sizeof(int) * ((size_t)M->nn + 1));
    M->db = malloc(sizeof(int) * ((size_t)M->nn + 1));
    if (!M->cand || !M->fcol || !M->ncand || !M->kcol || !M->ycol ||
        !M->nuses || !M->use1 || !M->xcol || !M->df || !M->db)
        return -1;
    for (int e = 0; e < M->m; e++) {
        int v = cg_dfg_get_edge(M->g, e)->src;
        M->nuses[v]++;
        M->use1[v] = e;
    }
    return 0;
}

static void model_free(model *M)
{
    for (int v = 0; M->cand && M->fcol && M->ycol && v < M->n; v++) {
        free(M->cand[v]);
        free(M->fcol[v]);
        free(M->ycol[v]);
    }
    for (int e = 0; M->xcol && e < M->m; e++)
        free(M->xcol[e]);
    free(M->cand);
    free(M->fcol);
    free(M->ncand);
    free(M->kcol);
    free(M->ycol);
    free(M->nuses);
    free(M->use1);
    free(M->xcol);
    free(M->df);
    free(M->db);
    free(M->path);
    free(M->used);
    free(M->cut_ind);
    free(M->cut_val);
    free(M->x);
    cg__lp_free(&M->lp);
}

/* Build every column and row; -1 on no memory. */
static int model_build(model *M)
{
    if (model_init(M) < 0 || make_cands(M) < 0)
        return -1;
    long kmax = (long)M->n * (M->k->max_delay / M->ii + 2) + 2;
    for (int v = 0; v < M->n; v++) {
        double lo = -(double)kmax, hi = (double)kmax;
        if (kept(M, v)) { /* start = context + II * k, as in fix */
            const cg_mapping *fix = M->o->fix;
            lo = hi = (double)((fix->start[v] -
                                cg_mrrg_get_node(M->k->m, fix->place[v])
                                    ->context) / M->ii);
        } else if (v == 0 && !M->o->fix) {
            lo = hi = 0;
        }
        M->kcol[v] = cg__lp_col(&M->lp, GLP_IV, lo, hi, 0);
    }
    for (int e = 0; e < M->m; e++)
        if (make_region(M, e) < 0)
            return -1;
    rows_place(M);
    for (int e = 0; e < M->m; e++)
        rows_route(M, e);
    if (rows_values(M) < 0)
        return -1;
    rows_capacity(M);
    rows_timing(M);
    if (rows_order(M) < 0)
        return -1;
    return M->lp.oom ? -1 : 0;
}

/* ---- solving and reading the solution ----------------------------------- */

/* Value of a column in the MIP solution (GLPK's or CBC's), or in the
 * current LP solution while the row-generation callback runs. */
static double val(const model *M, glp_prob *P, int col)
{
    if (M->x)
        return M->x[col];
    return M->lp_values ? glp_get_col_prim(P, col) : glp_mip_col_val(P, col);
}

static bool on(const model *M, glp_prob *P, int col)
{
    return col && val(M, P, col) > 0.5;
}

/* The out-kedge of node b taken by route e, -1 when none. */
static int next_kedge(const model *M, glp_prob *P, int e, int b)
{
    for (int j = M->k->out_off[b]; j < M->k->out_off[b + 1]; j++)
        if (on(M, P, M->xcol[e][M->k->out_ids[j]]))
            return M->k->out_ids[j];
    return -1;
}

/* The kedges of route e from its producer to the pin, in order; -1 when
 * the solution has no such path (a bug of the model). */
static int trace(const model *M, glp_prob *P, int e, int *path, int *len)
{
    const cg_dfg_edge *ed = cg_dfg_get_edge(M->g, e);
    int a = -1;
    for (int i = 0; i < M->ncand[ed->src] && a < 0; i++)
        if (on(M, P, M->fcol[ed->src][i]))
            a = M->k->func_out[M->cand[ed->src][i]];
    *len = 0;
    while (a >= 0 && *len < M->nk) {
        path[(*len)++] = a;
        int b = M->k->edges[a].to;
        if (!passable(M, b))
            return 0; /* reached an operand pin */
        a = next_kedge(M, P, e, b);
    }
    return -1;
}

/* Cut every cycle of positive delay that route e carries beside its path.
 * Returns the number of cuts, -1 on a broken route. */
static int cut_ghosts(model *M, glp_prob *P, int e, int *path, bool *used)
{
    int len, cuts = 0;
    if (trace(M, P, e, path, &len) < 0)
        return -1;
    memset(used, 0, sizeof *used * (size_t)M->nk);
    for (int i = 0; i < len; i++)
        used[path[i]] = true;
    for (int a0 = 0; a0 < M->nk; a0++) {
        if (used[a0] || !on(M, P, M->xcol[e][a0]))
            continue;
        int n = 0, delay = 0, a = a0;
        do {
            used[a] = true;
            path[n++] = a;
            delay += M->k->edges[a].delay;
            a = next_kedge(M, P, e, M->k->edges[a].to);
        } while (a >= 0 && a != a0 && n < M->nk);
        if (delay == 0)
            continue;
        int r = glp_add_rows(P, 1);
        for (int i = 0; i < n; i++) {
            M->cut_ind[i + 1] = M->xcol[e][path[i]];
            M->cut_val[i + 1] = 1;
        }
        glp_set_mat_row(P, r, n, M->cut_ind, M->cut_val);
        glp_set_row_bnds(P, r, GLP_UP, 0, n - 1);
        cuts++;
    }
    return cuts;
}

/* Route of e as MRRG ROUTE nodes (folded nodes included), from the
 * producer's result port to the consumer's pin. */
static int write_route(model *M, glp_prob *P, int e, int *path,
                       cg_mapping *map)
{
    int len, n = 0;
    if (trace(M, P, e, path, &len) < 0)
        return -1;
    for (int i = 0; i < len; i++)
        n += M->k->edges[path[i]].nvia + 1;
    map->route[e] = malloc(sizeof(int) * ((size_t)n + 1));
    if (!map->route[e]) {
        M->oom = true;
        return -1;
    }
    n = 0;
    for (int i = 0; i < len; i++) {
        const cg__kedge *ke = &M->k->edges[path[i]];
        for (int j = 0; j < ke->nvia; j++)
            map->route[e][n++] = M->k->via[ke->via0 + j];
        map->route[e][n++] = ke->to;
    }
    map->route_len[e] = n;
    return 0;
}

static cg_mapping *read_solution(model *M, glp_prob *P, int *path)
{
    cg_mapping *map = cg_mapping_create(M->ii, M->n, M->m);
    if (!map) {
        M->oom = true;
        return NULL;
    }
    int64_t lo = 0;
    for (int v = 0; v < M->n; v++) {
        map->place[v] = -1;
        for (int i = 0; i < M->ncand[v]; i++)
            if (on(M, P, M->fcol[v][i]))
                map->place[v] = M->cand[v][i];
        if (map->place[v] < 0)
            goto fail;
        double k = val(M, P, M->kcol[v]);
        int64_t kv = (int64_t)(k + (k < 0 ? -0.5 : 0.5));
        map->start[v] =
            cg_mrrg_get_node(M->k->m, map->place[v])->context +
            (int64_t)M->ii * kv;
        if (v == 0 || map->start[v] < lo)
            lo = map->start[v];
    }
    /* Shift whole stages so the first op starts in [0, II). */
    int64_t shift = lo >= 0 ? lo / M->ii * M->ii
                            : -((-lo + M->ii - 1) / M->ii * M->ii);
    for (int v = 0; v < M->n; v++)
        map->start[v] -= shift;
    for (int e = 0; e < M->m; e++)
        if (write_route(M, P, e, path, map) < 0)
            goto fail;
    return map;
fail:
    cg_mapping_destroy(map);
    return NULL;
}

static void name_columns(const model *M, glp_prob *P)
{
    char buf[64];
    for (int v = 0; v < M->n; v++) {
        for (int i = 0; i < M->ncand[v]; i++) {
            snprintf(buf, sizeof buf, "F_%d_%d", v, M->cand[v][i]);
            glp_set_col_name(P, M->fcol[v][i], buf);
        }
        snprintf(buf, sizeof buf, "k_%d", v);
        glp_set_col_name(P, M->kcol[v], buf);
        for (int a = 0; M->ycol[v] && a < M->nk; a++)
            if (M->ycol[v][a]) {
                snprintf(buf, sizeof buf, "y_%d_%d", v, a);
                glp_set_col_name(P, M->ycol[v][a], buf);
            }
    }
    for (int e = 0; e < M->m; e++)
        for (int a = 0; a < M->nk; a++)
            if (M->xcol[e][a]) {
                snprintf(buf, sizeof buf, "x_%d_%d", e, a);
                glp_set_col_name(P, M->xcol[e][a], buf);
            }
}

/* Is the route of e integral in the current LP solution? */
static bool route_integral(const model *M, glp_prob *P, int e)
{
    for (int a = 0; a < M->nk; a++) {
        double x = M->xcol[e][a] ? glp_get_col_prim(P, M->xcol[e][a]) : 0;
        if (x > 1e-6 && x < 1 - 1e-6)
            return false;
    }
    return true;
}

/* GLPK's row generation: each time the LP of a branch-and-bound node is
 * solved, cut the ghost cycles of the routes that are already integral,
 * so that the search goes on instead of ending on a padded solution. */
static void rowgen(glp_tree *T, void *info)
{
    model *M = info;
    if (M->o->nodes > 0 && glp_ios_reason(T) == GLP_ISELECT) {
        int active, live, total;
        glp_ios_tree_size(T, &active, &live, &total);
        if (total > M->o->nodes) { /* the work limit: GLP_ESTOP */
            glp_ios_terminate(T);
            return;
        }
    }
    if (glp_ios_reason(T) != GLP_IROWGEN)
        return;
    glp_prob *P = glp_ios_get_prob(T);
    M->lp_values = true;
    for (int e = 0; e < M->m; e++)
        if (route_integral(M, P, e))
            cut_ghosts(M, P, e, M->path, M->used); /* -1: not a path yet */
    M->lp_values = false;
}

/* The LP relaxation (warm-started from the last basis); its outcome when
 * it already decides the II (infeasible, out of time or iterations), else
 * -1.  *capped when the wall clock stopped it. */
static int relax(glp_prob *P, double left, int iters, bool *capped)
{
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    sp.tm_lim = left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
    if (iters > 0)
        sp.it_lim = iters;
    int ret = glp_simplex(P, &sp);
    *capped = ret == GLP_ETMLIM;
    if (ret == 0 && glp_get_status(P) == GLP_OPT)
        return -1;
    if (ret == 0 && (glp_get_status(P) == GLP_NOFEAS ||
                     glp_get_prim_stat(P) == GLP_NOFEAS))
        return CG_II_INFEASIBLE;
    return CG_II_TIMEOUT;
}

/* Cut the ghost cycles of every route of the solution in hand; their
 * number, -1 on a broken route. */
static int cut_all(model *M, glp_prob *P)
{
    int cuts = 0;
    for (int e = 0; e < M->m && cuts >= 0; e++) {
        int c = cut_ghosts(M, P, e, M->path, M->used);
        cuts = c < 0 ? -1 : cuts + c;
    }
    return cuts;
}

/* One MIP solve by CBC: 1 when its solution had ghost cycles (now cut:
 * solve again), else 0 with out->outcome set; -1 on an internal error.
 * CBC has no row generation through its C interface, so the cycles are
 * cut between solves. */
static int solve_cbc(model *M, glp_prob *P, double left, cg__ilp_out *out)
{
    cg_ii_outcome o;
    if (cg__cbc_solve(P, left, M->o->nodes, &o, &out->capped, &M->x) < 0)
        return -1;
    out->outcome = o;
    if (o != CG_II_MAPPED)
        return 0;
    int cuts = cut_all(M, P);
    if (cuts == 0)
        out->mapping = read_solution(M, P, M->path);
    free(M->x);
    M->x = NULL;
    if (cuts < 0 || (cuts == 0 && !out->mapping))
        return -1;
    return cuts > 0;
}

/* Solve until mapped, proven infeasible or out of time: ghost cycles are
 * cut in the search (rowgen) and, for solutions GLPK's heuristics find
 * outside it, after it, solving again.  -1 on an internal error. */
static int solve(model *M, glp_prob *P, double deadline, cg__ilp_out *out)
{
    M->path = malloc(sizeof(int) * ((size_t)M->nk + 1));
    M->used = malloc(sizeof(bool) * ((size_t)M->nk + 1));
    M->cut_ind = malloc(sizeof(int) * ((size_t)M->nk + 1));
    M->cut_val = malloc(sizeof(double) * ((size_t)M->nk + 1));
    if (!M->path || !M->used || !M->cut_ind || !M->cut_val) {
        M->oom = true;
        return -1;
    }
    for (;;) {
        double left = deadline - cg_clock_now();
        out->capped = left <= 0;
        int lp = left > 0 ? relax(P, left, M->o->lp_iters, &out->capped)
                          : CG_II_TIMEOUT;
        if (lp >= 0 || M->o->relax_only) {
            out->outcome = lp >= 0 ? (cg_ii_outcome)lp : CG_II_TIMEOUT;
            return 0;
        }
        left = deadline - cg_clock_now();
        if (M->o->solver == CG_SOLVER_CBC) {
            int rc = left > 0 ? solve_cbc(M, P, left, out) : 0;
            if (rc == 1)
                continue;
            if (left <= 0) {
                out->outcome = CG_II_TIMEOUT;
                out->capped = true;
            }
            return rc;
        }
        glp_iocp parm;
        glp_init_iocp(&parm);
        parm.msg_lev = GLP_MSG_OFF;
        parm.fp_heur = GLP_ON;
        parm.mip_gap = 1e9; /* any feasible mapping will do */
        /* GLPK's default branching (Driebeck-Tomlin) and backtracking
         * (best local bound): depth-first and other branchings were
         * faster on one loop and several times slower on others
         * (docs/mapper.md) */
        parm.cb_func = rowgen;
        parm.cb_info = M;
        parm.tm_lim = left > 1e6 ? 1000000000
                      : left > 0 ? (int)(left * 1000) + 1
                                 : 1;
        int ret = glp_intopt(P, &parm);
        int st = glp_mip_status(P);
        if (st == GLP_OPT || st == GLP_FEAS) {
            int cuts = cut_all(M, P);
            if (cuts < 0)
                return -1;
            if (cuts > 0)
                continue;
            out->mapping = read_solution(M, P, M->path);
            out->outcome = CG_II_MAPPED;
            return out->mapping ? 0 : -1;
        }
        out->outcome = ret == GLP_ENOPFS || st == GLP_NOFEAS
                           ? CG_II_INFEASIBLE
                           : CG_II_TIMEOUT;
        out->capped = ret == GLP_ETMLIM; /* not GLP_ESTOP: the node limit */
        return 0;
    }
}

/* The model in GLPK, solved; 0, or -1 with an error in d. */
static int solve_model(model *M, double deadline, cg__ilp_out *out,
                       cg_diags *d)
{
    glp_prob *P = cg__lp_to_glpk(&M->lp, &out->nonzeros);
    out->rows = glp_get_num_rows(P);
    out->cols = glp_get_num_cols(P);
    int rc = 0;
    if (M->o->dump_lp) {
        name_columns(M, P);
        if (glp_write_lp(P, NULL, M->o->dump_lp) != 0) {
            cg_diags_add(d, CG_SEV_ERROR, M->o->dump_lp, 0,
                         "cannot write the LP model (II=%d) to this file: "
                         "check that its folder exists and is writable",
                         M->ii);
            rc = -1;
        }
    }
    if (rc == 0 && solve(M, P, deadline, out) < 0) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, M->oom
                     ? "out of memory solving the ILP of '%s' at II=%d"
                     : "internal error: the ILP solution of '%s' at II=%d "
                       "has a broken route (a mapper bug)",
                     cg_dfg_name(M->g), M->ii);
        rc = -1;
    }
    glp_delete_prob(P);
    return rc;
}

/* solve_model's arguments, for cg__glpk_guard. */
typedef struct solve_call {
    model *M;
    double deadline;
    cg__ilp_out *out;
    cg_diags *d;
} solve_call;

static int solve_guarded(void *arg)
{
    solve_call *c = arg;
    return solve_model(c->M, c->deadline, c->out, c->d);
}

int cg__ilp_solve(const cg__kgraph *k, const cg_netlist *nl,
                  const cg_dfg *g, const cg__ilp_opts *o, cg__ilp_out *out,
                  cg_diags *d)
{
    double deadline = cg_clock_now() + o->timeout_s;
    memset(out, 0, sizeof *out);
    model *M = &(model){.k = k, .nl = nl, .g = g, .o = o};
    if (model_build(M) < 0) {
        model_free(M);
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                     "out of memory building the ILP of '%s' at II=%d",
                     cg_dfg_name(g), cg_mrrg_ii(k->m));
        return -1;
    }
    solve_call c = {M, deadline, out, d};
    char said[160]; /* GLPK's first line, when it stopped */
    int rc = cg__glpk_guard(solve_guarded, &c, said, sizeof said);
    if (rc == CG__GLPK_FAILED) {
        cg_mapping_destroy(out->mapping);
        out->mapping = NULL;
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                     "GLPK stopped on the ILP of '%s' at II=%d (%d rows, %d "
                     "columns): %s", cg_dfg_name(g), M->ii, M->lp.nrows,
                     M->lp.ncols, said);
        rc = -1;
    }
    model_free(M);
    return rc;
}
