/* heur.c: the heuristic mapper -- modulo scheduling, placement and
 * exact-delay routing in one pass, restarted with new priorities until a
 * complete mapping comes out or the time is up.
 *
 * Ops are taken in a priority order that respects the DFG's distance-0
 * edges (producers before consumers), except that ops without operands
 * (const, input) come right after their first consumer: a ConstUnit feeds
 * only its own PE, so its placement follows the consumer's.  Each op tries
 * every unit that can run it and, on each, the start times its placed
 * neighbours allow: at least the producer's start plus the least route
 * delay to this pin, at most the (already placed) consumer's start minus
 * the least delay from here, for every edge and for every extra ordering
 * (memory order).  For a (unit, start) the edges to placed neighbours are
 * routed with their exact delays (route.c); the cheapest choice (route
 * nodes, start later than needed, distance to the ops it will meet) is
 * kept.  An op with no choice fails the attempt; it gets a higher priority
 * in the next one.  Nothing here is trusted: the caller checks the result
 * with cg_map_check.
 */
#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "../model/model_internal.h"
#include "../model/names_internal.h"
#include "cluster_internal.h"
#include "heur_internal.h"


typedef struct heur {
    const cg_netlist *nl;
    const cg_mrrg *m;
    const cg_dfg *g;
    const cg__heur_opts *o;
    cg_map_heur_params w; /* o->w or the defaults */
    int ii, n, ne, nn, np, nf;
    int *funcnode;   /* prim * ii + c -> FUNC node, -1 */
    int *fidx;       /* prim -> index among FUNC prims, -1 */
    int *dmin;       /* [fidx(p) * nf + fidx(q)] * 3 + k: least delay */
    int **cand;      /* per DFG node: prims that can run it */
    int *ncand;
    int **ein, **eout; /* per DFG node: in- and out-edge ids */
    int *nein, *neout;
    /* the attempt's state */
    int *place;      /* DFG node -> FUNC node, -1 */
    int64_t *start;
    int *func_owner; /* FUNC node -> DFG node, -1 */
    cg__occ occ;
    int *esink;      /* DFG edge -> its pin once routed, -1 */
    int *undo, nundo; /* ROUTE nodes claimed, in order */
    int *path;
    int *seen, stamp; /* scratch marks for can_escape */
    cg__router *r;
    int *order, *bump;
    double *height;
    int64_t *asap, *alap; /* static schedule with the least edge delays */
    cg_rng rng;
    double deadline;
    long steps;      /* ops placed or failed, over all attempts */
    double noise;    /* random part of a choice's cost; grows with the
                        attempts so that later ones explore more */
    double late_src; /* chance that a source follows its last consumer */
    bool use_alap;   /* an op with no placed neighbour starts near its
                        alap (else in the first II cycles) */
    bool oom;        /* an allocation failed: the search ends in an error */
} heur;

static double rnd(heur *H)
{
    return cg_rng_unit(&H->rng);
}

static int modii(const heur *H, int64_t t)
{
    return cg__modii(t, H->ii);
}

static int64_t floor_ii(const heur *H, int64_t t)
{
    return t - modii(H, t);
}

/* ---- setup ------------------------------------------------------------- */

/* Can prim p run node v, with the pins and result port v needs? */
static bool fits(const heur *H, int v, int p)
{
    const cg_dfg_node *nd = cg_dfg_get_node(H->g, v);
    if (H->fidx[p] < 0 ||
        !cg__map_node_fits(cg_netlist_prim(H->nl, p), nd))
        return false;
    int f = H->funcnode[p * H->ii];
    for (int j = 0; j < H->nein[v]; j++) {
        int k = cg_dfg_get_edge(H->g, H->ein[v][j])->operand;
        if (cg_mrrg_pin(H->m, f, k) < 0)
            return false;
    }
    int n;
    cg_mrrg_out(H->m, f, &n);
    return H->neout[v] == 0 || n > 0;
}

static int alloc_edges(heur *H)
{
    for (int v = 0; v < H->n; v++) {
        H->ein[v] = malloc(sizeof(int) * ((size_t)H->ne + 1));
        H->eout[v] = malloc(sizeof(int) * ((size_t)H->ne + 1));
        if (!H->ein[v] || !H->eout[v])
            return -1;
    }
    for (int e = 0; e < H->ne; e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(H->g, e);
        H->ein[ed->dst][H->nein[ed->dst]++] = e;
        H->eout[ed->src][H->neout[ed->src]++] = e;
    }
    return 0;
}

static int index_mrrg(heur *H)
{
    for (int i = 0; i < H->np * H->ii; i++)
        H->funcnode[i] = -1;
    for (int i = 0; i < H->np; i++)
        H->fidx[i] = -1;
    for (int i = 0; i < H->nn; i++) {
        const cg_mrrg_node *nd = cg_mrrg_get_node(H->m, i);
        if (nd->kind == CG_MRRG_FUNC) {
            H->funcnode[nd->prim * H->ii + nd->context] = i;
            if (H->fidx[nd->prim] < 0)
                H->fidx[nd->prim] = H->nf++;
        }
    }
    return 0;
}

/* Least delays from FUNC node f (context 0) to every node through ROUTE
 * nodes, ignoring occupancy (label-correcting, FIFO: delays are small). */
static void dist_from(const heur *H, int f, int *dist, int *queue, bool *inq)
{
    for (int i = 0; i < H->nn; i++) {
        dist[i] = CG__DIST_INF;
        inq[i] = false;
    }
    int qh = 0, qt = 0, cap = H->nn + 1;
    dist[f] = 0;
    queue[qt++] = f;
    while (qh != qt) {
        int x = queue[qh];
        qh = (qh + 1) % cap;
        inq[x] = false;
        const cg_mrrg_node *nx = cg_mrrg_get_node(H->m, x);
        if (x != f && (nx->kind != CG_MRRG_ROUTE || nx->operand >= 0))
            continue; /* pins lead only into their unit */
        int n;
        const int *out = cg_mrrg_out(H->m, x, &n);
        for (int j = 0; j < n; j++) {
            const cg_mrrg_edge *e = cg_mrrg_get_edge(H->m, out[j]);
            if (cg_mrrg_get_node(H->m, e->to)->kind != CG_MRRG_ROUTE ||
                dist[x] + e->delay >= dist[e->to])
                continue;
            dist[e->to] = dist[x] + e->delay;
            if (!inq[e->to]) {
                inq[e->to] = true;
                queue[qt] = e->to;
                qt = (qt + 1) % cap;
            }
        }
    }
}

/* dmin[p][q][k]: least delay from FUNC prim p's start to operand k of q. */
static int make_dmin(heur *H)
{
    int *dist = malloc(sizeof(int) * ((size_t)H->nn + 1));
    int *queue = malloc(sizeof(int) * ((size_t)H->nn + 1));
    bool *inq = malloc(sizeof(bool) * ((size_t)H->nn + 1));
    H->dmin = malloc(sizeof(int) * 3 * ((size_t)H->nf * H->nf + 1));
    if (!dist || !queue || !inq || !H->dmin) {
        free(dist);
        free(queue);
        free(inq);
        return -1;
    }
    for (int i = 0; i < 3 * H->nf * H->nf; i++)
        H->dmin[i] = CG__DIST_INF;
    for (int p = 0; p < H->np; p++) {
        if (H->fidx[p] < 0)
            continue;
        dist_from(H, H->funcnode[p * H->ii], dist, queue, inq);
        for (int q = 0; q < H->np; q++)
            for (int c = 0; H->fidx[q] >= 0 && c < H->ii; c++)
                for (int k = 0; k < 3; k++) {
                    int f = H->funcnode[q * H->ii + c];
                    int pn = f < 0 ? -1 : cg_mrrg_pin(H->m, f, k);
                    int *dm = &H->dmin[(H->fidx[p] * H->nf + H->fidx[q]) *
                                           3 + k];
                    if (pn >= 0 && dist[pn] < *dm)
                        *dm = dist[pn];
                }
    }
    free(dist);
    free(queue);
    free(inq);
    return 0;
}

static int dmin(const heur *H, int p, int q, int k)
{
    return H->dmin[(H->fidx[p] * H->nf + H->fidx[q]) * 3 + k];
}

static int make_cands(heur *H)
{
    const cg__prim_sets *a = H->o->allowed;
    for (int v = 0; v < H->n; v++) {
        H->cand[v] = malloc(sizeof(int) * ((size_t)H->np + 1));
        if (!H->cand[v])
            return -1;
        if (a) { /* ascending, like the loop below */
            for (int i = a->off[v]; i < a->off[v + 1]; i++)
                if (fits(H, v, a->ids[i]))
                    H->cand[v][H->ncand[v]++] = a->ids[i];
            continue;
        }
        for (int p = 0; p < H->np; p++)
            if (fits(H, v, p))
                H->cand[v][H->ncand[v]++] = p;
    }
    return 0;
}

#define ALLOC(x, n) ((x) = calloc((size_t)(n) + 1, sizeof *(x)))

static int setup(heur *H)
{
    H->ii = cg_mrrg_ii(H->m);
    H->n = cg_dfg_nnodes(H->g);
    H->ne = cg_dfg_nedges(H->g);
    H->nn = cg_mrrg_nnodes(H->m);
    H->np = cg_netlist_nprims(H->nl);
    if (!ALLOC(H->funcnode, H->np * H->ii) || !ALLOC(H->fidx, H->np) ||
        !ALLOC(H->cand, H->n) || !ALLOC(H->ncand, H->n) ||
        !ALLOC(H->ein, H->n) || !ALLOC(H->eout, H->n) ||
        !ALLOC(H->nein, H->n) || !ALLOC(H->neout, H->n) || !ALLOC(H->place, H->n) ||
        !ALLOC(H->start, H->n) || !ALLOC(H->func_owner, H->nn) ||
        !ALLOC(H->occ.owner, H->nn) || !ALLOC(H->occ.arrive, H->nn) ||
        !ALLOC(H->occ.pred, H->nn) || !ALLOC(H->esink, H->ne) ||
        !ALLOC(H->undo, H->nn) || !ALLOC(H->path, H->nn) ||
        !ALLOC(H->seen, H->nn) ||
        !ALLOC(H->order, H->n) || !ALLOC(H->bump, H->n) ||
        !ALLOC(H->height, H->n) || !ALLOC(H->asap, H->n) ||
        !ALLOC(H->alap, H->n))
        return -1;
    H->r = cg__router_create(H->m);
    if (!H->r || index_mrrg(H) < 0 || alloc_edges(H) < 0 ||
        make_cands(H) < 0 || make_dmin(H) < 0)
        return -1;
    return 0;
}

/* Free a table of n rows (NULL: nothing). */
static void free_rows(int **rows, int n)
{
    for (int v = 0; rows && v < n; v++)
        free(rows[v]);
    free(rows);
}

static void teardown(heur *H)
{
    free_rows(H->cand, H->n);
    free_rows(H->ein, H->n);
    free_rows(H->eout, H->n);
    void *all[] = {H->funcnode, H->fidx, H->dmin,
                   H->ncand, H->nein, H->neout, H->place,
                   H->start, H->func_owner, H->occ.owner, H->occ.arrive,
                   H->occ.pred, H->esink, H->undo, H->path, H->seen,
                   H->order,
                   H->bump, H->height, H->asap, H->alap};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]);
    cg__router_destroy(H->r);
}

/* ---- the order ----------------------------------------------------------- */

static bool is_source(const heur *H, int v) { return H->nein[v] == 0; }

/* height[v]: the longest chain of distance-0 edges below v. */
static void heights(heur *H)
{
    for (int v = 0; v < H->n; v++)
        H->height[v] = 0;
    for (int pass = 0; pass < H->n; pass++) {
        bool changed = false;
        for (int e = 0; e < H->ne; e++) {
            const cg_dfg_edge *ed = cg_dfg_get_edge(H->g, e);
            if (ed->distance == 0 &&
                H->height[ed->src] < H->height[ed->dst] + 1) {
                H->height[ed->src] = H->height[ed->dst] + 1;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
}

/* Least delay of DFG edge e over the units that can run its ends. */
static int edge_min(const heur *H, int e)
{
    const cg_dfg_edge *ed = cg_dfg_get_edge(H->g, e);
    int best = CG__DIST_INF;
    for (int i = 0; i < H->ncand[ed->src]; i++)
        for (int j = 0; j < H->ncand[ed->dst]; j++) {
            int dm = dmin(H, H->cand[ed->src][i], H->cand[ed->dst][j],
                          ed->operand);
            if (dm < best)
                best = dm;
        }
    return best >= CG__DIST_INF ? 0 : best;
}

/* asap/alap: the earliest and latest starts along distance-0 edges with
 * their least delays.  An op with no placed neighbour starts near its
 * alap (shifted as the schedule drifted): then a recurrence's op placed
 * before its partners does not pin them to the first cycles. */
static void static_schedule(heur *H)
{
    int64_t top = 0;
    for (int v = 0; v < H->n; v++)
        H->asap[v] = 0;
    for (int pass = 0; pass < H->n; pass++) {
        bool changed = false;
        for (int e = 0; e < H->ne; e++) {
            const cg_dfg_edge *ed = cg_dfg_get_edge(H->g, e);
            int64_t t = H->asap[ed->src] + edge_min(H, e);
            if (ed->distance == 0 && ed->src != ed->dst &&
                t > H->asap[ed->dst]) {
                H->asap[ed->dst] = t;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
    for (int v = 0; v < H->n; v++)
        if (H->asap[v] > top)
            top = H->asap[v];
    for (int v = 0; v < H->n; v++)
        H->alap[v] = top;
    for (int pass = 0; pass < H->n; pass++) {
        bool changed = false;
        for (int e = 0; e < H->ne; e++) {
            const cg_dfg_edge *ed = cg_dfg_get_edge(H->g, e);
            int64_t t = H->alap[ed->dst] - edge_min(H, e);
            if (ed->distance == 0 && ed->src != ed->dst &&
                t < H->alap[ed->src]) {
                H->alap[ed->src] = t;
                changed = true;
            }
        }
        if (!changed)
            break;
    }
}

/* Ready: every distance-0 producer that is not a source already taken. */
static bool ready(const heur *H, int v, const bool *taken)
{
    for (int j = 0; j < H->nein[v]; j++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(H->g, H->ein[v][j]);
        if (ed->distance == 0 && ed->src != v && !is_source(H, ed->src) &&
            !taken[ed->src])
            return false;
    }
    return true;
}

/* After consumer v: its sources that need no more consumers placed first
 * (prio[u] of a source counts the consumers it still waits for when it
 * follows its last one, else it is below 1). */
static int take_sources(heur *H, int v, bool *taken, double *prio, int k)
{
    for (int j = 0; j < H->nein[v]; j++) {
        int u = cg_dfg_get_edge(H->g, H->ein[v][j])->src;
        if (!is_source(H, u) || taken[u])
            continue;
        if (prio[u] >= 1 && (prio[u] -= 1) >= 1)
            continue;
        taken[u] = true;
        H->order[k++] = u;
    }
    return k;
}

/* The attempt's order: highest priority ready op first, each source
 * right after its first consumer. */
static int make_order(heur *H)
{
    bool *taken = calloc((size_t)H->n + 1, sizeof *taken);
    double *prio = malloc(sizeof(double) * ((size_t)H->n + 1));
    if (!taken || !prio) {
        free(taken);
        free(prio);
        return -1;
    }
    for (int v = 0; v < H->n; v++)
        prio[v] = H->height[v] + H->w.w_bump * H->bump[v] +
                  H->w.prio_noise * rnd(H);
    int k = 0;
    for (int v = 0; v < H->n; v++)
        if (is_source(H, v)) /* consumer edges to wait for, or none */
            prio[v] = rnd(H) < H->late_src ? (double)H->neout[v] : 0;
    for (;;) {
        int best = -1;
        for (int v = 0; v < H->n; v++)
            if (!taken[v] && !is_source(H, v) && ready(H, v, taken) &&
                (best < 0 || prio[v] > prio[best]))
                best = v;
        if (best < 0)
            break;
        taken[best] = true;
        H->order[k++] = best;
        k = take_sources(H, best, taken, prio, k);
    }
    for (int v = 0; v < H->n; v++)
        if (!taken[v])
            H->order[k++] = v; /* isolated nodes */
    free(taken);
    free(prio);
    return 0;
}

/* ---- routing the edges of one op ----------------------------------------- */

static void claim(heur *H, int value, int from, const int *path, int len)
{
    int prev = from;
    for (int i = 0; i < len; i++) {
        int x = path[i];
        /* the router walks free nodes only, and undo holds each once */
        assert(H->occ.owner[x] < 0 && H->nundo < H->nn);
        int me = cg__map_find_edge(H->m, prev, x);
        int d = me >= 0 ? cg_mrrg_get_edge(H->m, me)->delay : 0;
        H->occ.owner[x] = value;
        H->occ.pred[x] = prev;
        H->occ.arrive[x] = (prev == H->place[value] ? 0
                                                    : H->occ.arrive[prev]) +
                           d;
        H->undo[H->nundo++] = x;
        prev = x;
    }
}

/* Route DFG edge e between two placed ops; nodes used, or -1. */
static int route_edge(heur *H, int e)
{
    const cg_dfg_edge *ed = cg_dfg_get_edge(H->g, e);
    int64_t delay = H->start[ed->dst] + (int64_t)ed->distance * H->ii -
                    H->start[ed->src];
    int sink = cg_mrrg_pin(H->m, H->place[ed->dst], ed->operand);
    if (delay < 0 || delay > INT_MAX || sink < 0)
        return -1;
    int from;
    int len = cg__route_exact(H->r, &H->occ, ed->src, H->place[ed->src],
                              sink, (int)delay, H->path, &from);
    H->oom |= cg__router_oom(H->r);
    if (len < 0)
        return -1;
    claim(H, ed->src, from, H->path, len);
    H->esink[e] = sink;
    return len;
}

static void undo_to(heur *H, int mark)
{
    while (H->nundo > mark) {
        int x = H->undo[--H->nundo];
        H->occ.owner[x] = -1;
    }
}

/* v off its unit, and its edges unrouted: their nodes were given back
 * (undo_to), so a route read from them later (result(), a partial
 * mapping with v skipped) would follow nodes other values now hold. */
static void unplace(heur *H, int v)
{
    H->func_owner[H->place[v]] = -1;
    H->place[v] = -1;
    for (int j = 0; j < H->nein[v]; j++)
        H->esink[H->ein[v][j]] = -1;
    for (int j = 0; j < H->neout[v]; j++)
        H->esink[H->eout[v][j]] = -1;
}

/* Claim the hops every route of v must take (from f's only result port
 * through nodes with one way out, up to the first fork), so that no other
 * value takes them before v's consumers are placed; false when one is
 * taken already. */
static bool reserve(heur *H, int v, int f)
{
    int n, x = f, len = 0;
    const int *out = cg_mrrg_out(H->m, f, &n);
    while (n == 1) {
        int y = cg_mrrg_get_edge(H->m, out[0])->to;
        if (cg_mrrg_get_node(H->m, y)->kind != CG_MRRG_ROUTE || len >= H->nn)
            break;
        if (H->occ.owner[y] >= 0)
            return false;
        H->path[len++] = y;
        x = y;
        if (cg_mrrg_get_node(H->m, y)->operand >= 0)
            break;
        out = cg_mrrg_out(H->m, x, &n);
    }
    claim(H, v, f, H->path, len);
    return true;
}

/* Can v's value still be held past this cycle?  True when its tree (or a
 * free node reachable from it or its unit without delay) is entered
 * through a delay edge, i.e. a register.  An op whose consumers are not
 * all placed needs that: an input placed next to its first consumer, whose
 * PE's register that consumer's result holds, could reach no other. */
static bool can_escape(heur *H, int v)
{
    int n, head = 0, tail = 0;
    for (int i = 0; i < H->nundo; i++) {
        int x = H->undo[i];
        if (H->occ.owner[x] == v)
            H->path[tail++] = x;
    }
    const int *out = cg_mrrg_out(H->m, H->place[v], &n);
    for (int j = 0; j < n; j++) {
        int y = cg_mrrg_get_edge(H->m, out[j])->to;
        if (H->occ.owner[y] < 0 && tail < H->nn)
            H->path[tail++] = y;
    }
    H->stamp++;
    for (int i = 0; i < tail; i++)
        H->seen[H->path[i]] = H->stamp;
    while (head < tail) {
        int x = H->path[head++];
        const int *o = cg_mrrg_out(H->m, x, &n);
        for (int j = 0; j < n; j++) {
            const cg_mrrg_edge *e = cg_mrrg_get_edge(H->m, o[j]);
            if (cg_mrrg_get_node(H->m, e->to)->kind != CG_MRRG_ROUTE)
                continue;
            if (e->delay > 0 && (H->occ.owner[e->to] < 0 ||
                                 H->occ.owner[e->to] == v))
                return true;
            if (e->delay == 0 && H->occ.owner[e->to] < 0 &&
                H->seen[e->to] != H->stamp && tail < H->nn) {
                H->seen[e->to] = H->stamp;
                H->path[tail++] = e->to;
            }
        }
    }
    return false;
}

/* Has v consumers not placed yet? */
static bool waits(const heur *H, int v)
{
    for (int j = 0; j < H->neout[v]; j++)
        if (H->place[cg_dfg_get_edge(H->g, H->eout[v][j])->dst] < 0)
            return true;
    return false;
}

/* Put v on FUNC node f at start t and route its edges to placed ops;
 * returns the route nodes used, or -1 (then nothing is left placed). */
static int try_at(heur *H, int v, int f, int64_t t, bool keep)
{
    int mark = H->nundo, total = 0;
    H->place[v] = f;
    H->start[v] = t;
    H->func_owner[f] = v;
    if (H->neout[v] > 0 && !reserve(H, v, f))
        total = -1;
    for (int j = 0; j < H->nein[v] && total >= 0; j++) {
        int e = H->ein[v][j], u = cg_dfg_get_edge(H->g, e)->src;
        if (H->place[u] >= 0) {
            int c = route_edge(H, e);
            total = c < 0 ? -1 : total + c;
        }
    }
    for (int j = 0; j < H->neout[v] && total >= 0; j++) {
        int e = H->eout[v][j], w = cg_dfg_get_edge(H->g, e)->dst;
        if (w != v && H->place[w] >= 0) {
            int c = route_edge(H, e);
            total = c < 0 ? -1 : total + c;
        }
    }
    if (total >= 0 && !keep && waits(H, v) && !can_escape(H, v))
        total = -1;
    if (total < 0 || !keep) {
        undo_to(H, mark);
        unplace(H, v);
    }
    return total;
}

/* ---- choosing a unit and a start ----------------------------------------- */

typedef struct window {
    int64_t lo, hi;
    bool has_lo, has_hi;
    bool free;       /* no placed neighbour: hi is a guess (alap) */
} window;

/* How far the schedule has drifted past the static asap. */
static int64_t drift(const heur *H)
{
    int64_t d = 0;
    for (int v = 0; v < H->n; v++)
        if (H->place[v] >= 0 && H->start[v] - H->asap[v] > d)
            d = H->start[v] - H->asap[v];
    return d;
}

static void lower(window *w, int64_t t)
{
    if (!w->has_lo || t > w->lo)
        w->lo = t;
    w->has_lo = true;
}

static void upper(window *w, int64_t t)
{
    if (!w->has_hi || t < w->hi)
        w->hi = t;
    w->has_hi = true;
}

static void order_window(const heur *H, int v, window *w)
{
    for (int i = 0; i < H->o->norders; i++) {
        const cg__heur_order *o = &H->o->orders[i];
        int64_t dii = (int64_t)o->distance * H->ii;
        if (o->then == v && o->first != v && H->place[o->first] >= 0)
            lower(w, H->start[o->first] + o->latency - dii);
        if (o->first == v && o->then != v && H->place[o->then] >= 0)
            upper(w, H->start[o->then] + dii - o->latency);
    }
}

/* The starts prim q allows v; false when a placed neighbour is out of
 * reach from q. */
static bool window_of(const heur *H, int v, int q, window *w)
{
    memset(w, 0, sizeof *w);
    for (int j = 0; j < H->nein[v]; j++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(H->g, H->ein[v][j]);
        int64_t dii = (int64_t)ed->distance * H->ii;
        if (ed->src == v) {
            if (dmin(H, q, q, ed->operand) > dii)
                return false;
        } else if (H->place[ed->src] >= 0) {
            int p = cg_mrrg_get_node(H->m, H->place[ed->src])->prim;
            int dm = dmin(H, p, q, ed->operand);
            if (dm >= CG__DIST_INF)
                return false;
            lower(w, H->start[ed->src] + dm - dii);
        }
    }
    for (int j = 0; j < H->neout[v]; j++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(H->g, H->eout[v][j]);
        if (ed->dst == v || H->place[ed->dst] < 0)
            continue;
        int p = cg_mrrg_get_node(H->m, H->place[ed->dst])->prim;
        int dm = dmin(H, q, p, ed->operand);
        if (dm >= CG__DIST_INF)
            return false;
        upper(w, H->start[ed->dst] + (int64_t)ed->distance * H->ii - dm);
    }
    order_window(H, v, w);
    return !(w->has_lo && w->has_hi && w->lo > w->hi);
}

/* Distance from q to the placed ops that v's unplaced neighbours will
 * have to meet: keeps converging values close. */
static double lookahead(const heur *H, int v, int q)
{
    double c = 0;
    for (int pass = 0; pass < 2; pass++) {
        int n = pass ? H->neout[v] : H->nein[v];
        for (int j = 0; j < n; j++) {
            const cg_dfg_edge *ed =
                cg_dfg_get_edge(H->g, pass ? H->eout[v][j] : H->ein[v][j]);
            int w = pass ? ed->dst : ed->src;
            if (H->place[w] >= 0 || w == v)
                continue;
            for (int i = 0; i < H->nein[w]; i++) {
                int u = cg_dfg_get_edge(H->g, H->ein[w][i])->src;
                if (u != v && H->place[u] >= 0)
                    c += cg__prim_dist(H->nl, q, cg_mrrg_get_node(H->m, H->place[u])
                                        ->prim);
            }
        }
    }
    return H->w.w_ahead * c;
}

typedef struct choice {
    int f;
    int64_t t;
    double cost; /* a candidate's: the bound without route nodes */
    int idx;     /* order of enumeration: ties go to the first */
} choice;

/* The starts of window w on prim q (from the earliest when bounded
 * below, else from the latest, II + extra_starts of them) appended to
 * c[*n], each with its cost bound: lateness, lookahead and noise. */
static void starts_of(heur *H, int v, int q, const window *w, int64_t anchor,
                      choice *c, int *n)
{
    int span = H->ii + H->w.extra_starts;
    double ahead = lookahead(H, v, q);
    for (int i = 0; i < span; i++) {
        int64_t t = w->has_lo ? w->lo + i : w->hi - i;
        if (w->has_lo && w->has_hi && t > w->hi)
            break;
        if (w->free && i >= H->ii)
            break;
        int f = H->funcnode[q * H->ii + modii(H, t)];
        if (f < 0 || H->func_owner[f] >= 0)
            continue;
        double late = (double)(t > anchor ? t - anchor : anchor - t);
        c[*n] = (choice){f, t, H->w.w_late * late + ahead + H->noise * rnd(H),
                          *n};
        (*n)++;
    }
}

static int by_bound(const void *a, const void *b)
{
    const choice *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost < y->cost ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* The cheapest choice that routes, ties to the first enumerated: tried
 * in increasing order of their bound, so that once the bound reaches the
 * best cost found no other can win and none is routed (routing is what
 * a step costs; sha256 at II 40 has thousands of starts per op).  The
 * answer is the one trying them in enumeration order would give. */
static choice cheapest(heur *H, int v, choice *c, int n)
{
    qsort(c, (size_t)n, sizeof *c, by_bound);
    choice best = {-1, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        if (best.f >= 0 && (c[i].cost > best.cost ||
                            (c[i].cost == best.cost && c[i].idx > best.idx)))
            break;
        int nodes = try_at(H, v, c[i].f, c[i].t, false);
        if (nodes < 0)
            continue;
        double cost = nodes + c[i].cost;
        if (best.f < 0 || cost < best.cost ||
            (cost == best.cost && c[i].idx < best.idx))
            best = (choice){c[i].f, c[i].t, cost, c[i].idx};
    }
    return best;
}

/* Place and route v; false when no unit and start works. */
static bool place_op(heur *H, int v)
{
    size_t nc = (size_t)H->ncand[v] + 1;
    window *ws = malloc(sizeof(window) * nc);
    bool *ok = malloc(sizeof(bool) * nc);
    /* starts_of gives each unit II + extra_starts choices at most */
    size_t per = (size_t)H->ii + (size_t)H->w.extra_starts;
    choice *c = malloc(sizeof(choice) * nc * per);
    if (!ws || !ok || !c) { /* no memory: the search ends in an error */
        free(ws);
        free(ok);
        free(c);
        H->oom = true;
        return false;
    }
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int i = 0; i < H->ncand[v]; i++) {
        ok[i] = window_of(H, v, H->cand[v][i], &ws[i]);
        if (ok[i] && ws[i].has_lo && ws[i].lo < lo)
            lo = ws[i].lo;
        if (ok[i] && !ws[i].has_lo && ws[i].has_hi && ws[i].hi > hi)
            hi = ws[i].hi;
    }
    for (int i = 0; i < H->ncand[v]; i++)
        if (ok[i] && !ws[i].has_lo && !ws[i].has_hi) {
            ws[i].hi = H->use_alap ? H->alap[v] + drift(H) : H->ii - 1;
            ws[i].has_hi = ws[i].free = true;
        }
    int n = 0;
    for (int i = 0; i < H->ncand[v]; i++)
        if (ok[i])
            starts_of(H, v, H->cand[v][i], &ws[i],
                      ws[i].free     ? ws[i].hi
                      : ws[i].has_lo ? lo
                                     : hi,
                      c, &n);
    choice best = cheapest(H, v, c, n);
    free(ws);
    free(ok);
    free(c);
    return best.f >= 0 && try_at(H, v, best.f, best.t, true) >= 0;
}

/* ---- attempts ------------------------------------------------------------ */

static void reset(heur *H)
{
    for (int v = 0; v < H->n; v++)
        H->place[v] = -1;
    for (int i = 0; i < H->nn; i++)
        H->func_owner[i] = H->occ.owner[i] = -1;
    for (int e = 0; e < H->ne; e++)
        H->esink[e] = -1;
    H->nundo = 0;
}

/* One attempt; the op that failed, -1 when all were placed, -2 when the
 * wall-clock cap ran out, -3 when the steps (the work limit) did, -4 on
 * no memory. */
static int attempt(heur *H)
{
    reset(H);
    for (int i = 0; i < H->n; i++) {
        if (cg_clock_now() > H->deadline)
            return -2;
        if (H->o->max_steps > 0 && H->steps >= H->o->max_steps)
            return -3;
        H->steps++;
        bool placed = place_op(H, H->order[i]);
        if (H->oom)
            return -4;
        if (!placed)
            return H->order[i];
    }
    return -1;
}

/* One attempt that skips the ops it cannot place and goes on; the number
 * skipped, -2 when the wall-clock cap ran out, -4 on no memory. */
static int attempt_skipping(heur *H)
{
    reset(H);
    int skipped = 0;
    for (int i = 0; i < H->n; i++) {
        if (cg_clock_now() > H->deadline)
            return -2;
        H->steps++;
        bool placed = place_op(H, H->order[i]);
        if (H->oom)
            return -4;
        if (!placed) {
            skipped++;
            H->bump[H->order[i]]++;
        }
    }
    return skipped;
}

/* The routes, read back from the trees, and starts shifted by whole
 * stages so that the earliest op starts in [0, II).  An op not placed
 * keeps place -1, an edge not routed route NULL (a partial mapping). */
static cg_mapping *result(heur *H)
{
    cg_mapping *map = cg_mapping_create(H->ii, H->n, H->ne);
    if (!map)
        return NULL;
    int64_t lo = INT64_MAX;
    for (int v = 0; v < H->n; v++)
        if (H->place[v] >= 0 && H->start[v] < lo)
            lo = H->start[v];
    for (int v = 0; v < H->n; v++) {
        map->place[v] = H->place[v];
        map->start[v] = H->place[v] >= 0 ? H->start[v] - floor_ii(H, lo)
                                         : 0;
    }
    for (int e = 0; e < H->ne; e++) {
        if (H->esink[e] < 0)
            continue;
        int len = 0, x = H->esink[e];
        for (; x >= 0 && cg_mrrg_get_node(H->m, x)->kind == CG_MRRG_ROUTE;
             x = H->occ.pred[x]) {
            /* a value's routes are a tree of its own nodes, no cycle */
            assert(H->occ.owner[x] == cg_dfg_get_edge(H->g, e)->src &&
                   len < H->nn);
            H->path[len++] = x;
        }
        /* the tree's root: the producer's unit */
        assert(x == H->place[cg_dfg_get_edge(H->g, e)->src]);
        map->route[e] = malloc(sizeof(int) * ((size_t)len + 1));
        if (!map->route[e]) {
            cg_mapping_destroy(map);
            return NULL;
        }
        for (int i = 0; i < len; i++)
            map->route[e][i] = H->path[len - 1 - i];
        map->route_len[e] = len;
    }
    return map;
}

/* After a failed search: o->partial_tries attempts that skip what they
 * cannot place, with the priorities learnt; the best (fewest skipped, the
 * first of equals) goes to o->partial.  0, or -1 on no memory. */
static int find_partial(heur *H, cg__heur_opts *o)
{
    for (int t = 0; t < o->partial_tries; t++) {
        if (make_order(H) < 0)
            return -1;
        int skipped = attempt_skipping(H);
        if (skipped == -4)
            return -1;
        if (skipped == -2) {
            o->timed_out = true;
            break;
        }
        if (o->partial && skipped >= o->skipped)
            continue;
        cg_mapping *p = result(H);
        if (!p)
            return -1;
        cg_mapping_destroy(o->partial);
        o->partial = p;
        o->skipped = skipped;
    }
    return 0;
}

int cg__heur_map(const cg_netlist *nl, const cg_mrrg *m, const cg_dfg *g,
                 cg__heur_opts *o, cg_mapping **out, cg_diags *d)
{
    heur H = {.nl = nl, .m = m, .g = g, .o = o};
    if (o->w) {
        H.w = *o->w;
    } else {
        cg_map_params dflt;
        cg_map_params_init(&dflt);
        H.w = dflt.heur;
    }
    H.deadline = cg_clock_now() + o->timeout_s;
    o->timed_out = false;
    cg_rng_init(&H.rng, 0x2545f4914f6cdd1dull ^
                            ((uint64_t)o->seed * 0x9e3779b97f4a7c15ull));
    *out = NULL;
    int rc = setup(&H);
    if (rc == 0) {
        heights(&H);
        static_schedule(&H);
        for (int v = 0; v < H.n; v++)
            if (H.ncand[v] == 0)
                rc = 1; /* an op no unit runs: nothing to try */
    }
    int found = 0;
    o->attempts = 0;
    while (rc == 0 &&
           (o->max_attempts <= 0 || o->attempts < o->max_attempts)) {
        o->attempts++;
        if (make_order(&H) < 0) {
            rc = -1;
            break;
        }
        H.noise = H.w.noise_start + o->attempts / H.w.noise_attempts;
        if (H.noise > H.w.noise_max)
            H.noise = H.w.noise_max;
        H.late_src = o->attempts > 1 ? H.w.late_src : 0;
        H.use_alap = o->attempts % 2 == 1; /* both, alternately */
        int failed = attempt(&H);
        if (failed == -1) {
            *out = result(&H);
            found = *out ? 1 : -1;
            break;
        }
        if (failed == -4) {
            rc = -1;
            break;
        }
        if (failed == -2)
            o->timed_out = true;
        if (failed == -2 || failed == -3)
            break;
        H.bump[failed]++;
    }
    o->partial = NULL;
    o->skipped = 0;
    if (rc == 0 && found == 0 && !o->timed_out && find_partial(&H, o) < 0)
        rc = -1;
    o->steps = H.steps;
    teardown(&H);
    if (rc < 0 || found < 0) {
        cg_mapping_destroy(o->partial);
        o->partial = NULL;
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "out of memory in the heuristic mapper ('%s', II=%d)",
                     cg_dfg_name(g), cg_mrrg_ii(m));
        return -1;
    }
    return found;
}

/* ---- the unit tables, for nego.c ------------------------------------------ */

int cg__units_build(const cg_netlist *nl, const cg_mrrg *m, const cg_dfg *g,
                    cg__units *u)
{
    cg__heur_opts o = {0};
    heur H = {.nl = nl, .m = m, .g = g, .o = &o};
    memset(u, 0, sizeof *u);
    int rc = setup(&H);
    if (rc == 0) {
        *u = (cg__units){H.np,   H.nf,    H.funcnode, H.fidx,
                         H.dmin, H.cand,  H.ncand,    H.ein,
                         H.eout, H.nein, H.neout};
        H.funcnode = H.fidx = H.dmin = H.ncand = H.nein = H.neout = NULL;
        H.cand = H.ein = H.eout = NULL;
    }
    teardown(&H);
    return rc;
}

void cg__units_free(cg__units *u, int nnodes)
{
    free_rows(u->cand, nnodes);
    free_rows(u->ein, nnodes);
    free_rows(u->eout, nnodes);
    free(u->nein);
    free(u->neout);
    free(u->ncand);
    free(u->funcnode);
    free(u->fidx);
    free(u->dmin);
    memset(u, 0, sizeof *u);
}

int cg__units_dmin(const cg__units *u, int p, int q, int k)
{
    return u->dmin[(u->fidx[p] * u->nf + u->fidx[q]) * 3 + k];
}

/* The largest delay out of FUNC node f (its latency), 0 when none. */
static int latency_of(const heur *H, int f)
{
    int n, best = 0;
    const int *out = cg_mrrg_out(H->m, f, &n);
    for (int j = 0; j < n; j++)
        if (cg_mrrg_get_edge(H->m, out[j])->delay > best)
            best = cg_mrrg_get_edge(H->m, out[j])->delay;
    return best;
}

int cg__heur_min_delays(const cg_netlist *nl, const cg_mrrg *m,
                        const cg_dfg *g, int *edge_min, int *lat_max)
{
    cg__heur_opts o = {0};
    heur H = {.nl = nl, .m = m, .g = g, .o = &o};
    int rc = setup(&H);
    for (int v = 0; rc == 0 && v < H.n; v++) {
        lat_max[v] = 0;
        for (int i = 0; i < H.ncand[v]; i++) {
            int l = latency_of(&H, H.funcnode[H.cand[v][i] * H.ii]);
            if (l > lat_max[v])
                lat_max[v] = l;
        }
    }
    for (int e = 0; rc == 0 && e < H.ne; e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        edge_min[e] = CG__DIST_INF;
        for (int i = 0; i < H.ncand[ed->src]; i++)
            for (int j = 0; j < H.ncand[ed->dst]; j++) {
                int dm = dmin(&H, H.cand[ed->src][i], H.cand[ed->dst][j],
                              ed->operand);
                if (dm < edge_min[e])
                    edge_min[e] = dm;
            }
    }
    teardown(&H);
    return rc;
}
