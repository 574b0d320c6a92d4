/* nego.c: simulated annealing of placement and schedule, with negotiated
 * congestion routing (PathFinder) on the MRRG.
 *
 * The heuristic (heur.c) builds a mapping op by op through free nodes only
 * and restarts when an op fits nowhere; on a register-starved array its
 * attempts jam a few ops short.  Here every op always has a unit and a
 * start, and every edge a route of its exact delay, but routes may share a
 * node: a shared node costs more the more it is shared (present cost) and
 * the longer it has been (history cost), so the values negotiate who keeps
 * it, as in VPR's PathFinder.  A move changes one op's unit and start
 * (swapping with the op that holds the slot, taking along the consts that
 * feed only it), reroutes the edges it touches and is kept by the
 * Metropolis rule on the cost: shared nodes (weighted by their history),
 * edges with no route at all, broken memory orders, route length.  The
 * search ends when nothing is shared and every edge is routed: the routes
 * of one value then form a tree (a node is held by one (value, arrival,
 * predecessor) only), which is what the checker accepts.
 *
 * Every choice comes from the seeded generator and the moves are counted:
 * the work limit (moves), not the clock, decides the result.  Nothing here
 * is trusted: the caller checks the mapping with cg_map_check.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "../model/model_internal.h"
#include "heur_internal.h"

/* A node's delays run 0 .. stride - 1: every delay the router searches,
 * 0 .. CG__ROUTE_MAX_DELAY, at the most. */
#define MAX_STRIDE (CG__ROUTE_MAX_DELAY + 1)
#define LB_NONE 255 /* lower_bounds: no delay below stride (<= MAX_STRIDE) */
_Static_assert(MAX_STRIDE < LB_NONE, "LB_NONE is above every delay");
#define SLOTS 4 /* distinct (value, arrival, pred) a node may hold */

/* The cost weights and the cooling schedule are cg_map_anneal_params
 * (map.h), in o->w. */

typedef struct holder {
    int value, arrive, pred, count;
} holder;

typedef struct route {
    int *node, *arrive;
    int len, cap;
    bool ok;           /* routed; else counted in unrouted */
    int short_by;      /* not ok: cycles its delay lacks */
} route;

/* The router's record of state t = node * stride + delay: valid when
 * stamp is the route's stamp. */
typedef struct rstate {
    cg__pathf seen;    /* the filter of its path's nodes */
    double cost;
    int from;          /* the state before it, -1: the source */
    int node;          /* t / stride, kept to spare mark_chain a division */
    int stamp;
} rstate;

typedef struct nego {
    const cg_netlist *nl;
    const cg_mrrg *m;
    const cg_dfg *g;
    cg__nego_opts *o;
    cg__units U;
    int ii, n, ne, nn, stride; /* stride: delays searched + 1 */
    int **ein, **eout, *nein, *neout; /* U's, by shorter names */
    bool *fits;        /* [v * np + p] */
    int *prim;         /* DFG node -> unit */
    int64_t *start;
    int *fowner;       /* FUNC node -> DFG node, -1 */
    route *r, *bak;    /* per edge: its route, the one before the move */
    holder *occ;       /* [node * SLOTS + i] */
    unsigned char *nocc;
    double *hist, pres;
    double shared;     /* sum over nodes of (holders - 1) * (1 + hist) */
    int nshared;       /* sum over nodes of holders - 1 */
    int unrouted, viol;
    double unr;        /* sum over unrouted edges of their penalty */
    double *ehist;     /* per edge: negotiations it was unrouted at */
    long len;
    /* router scratch: least delays to the sink, states, a binary heap */
    unsigned char **lbtab; /* context-0 pin -> its lower_bounds, NULL */
    const unsigned char *lbt; /* the sink's table, read at nodes shifted */
    int lbk;                  /* by lbk contexts */
    int *tbase, *tctx; /* cg__mrrg_twin_slot(x) less x's context, and that
                          context: x's twin in context k is slot
                          tbase[x] + k of a table kept in twin order */
    /* the MRRG's out-edges, copied in node order: the router reads them
       for every state, and the MRRG keeps edge ids, not their ends */
    int *ooff, *oto, *odelay;
    bool *ispin;       /* an operand pin: routes end there */
    int *queue;
    unsigned char *inq;
    rstate *st;        /* per state (node, delay): one record, so that
                          offering a state touches one cache line */
    int scur;
    int *cstamp, ccur, *ccount, *clast; /* mark_chain's, per node */
    int *heap, nheap, hcap;
    double *hkey;
    bool broken;       /* the board overflowed (a bug): no result */
    bool oom;          /* an allocation failed: the search ends in an
                          error */
    /* move scratch */
    int *aff, naff, *affmark, affcur;
    int *movers, nmovers, *oldprim;
    int64_t *oldstart;
    int *bad;
    int *anchor;       /* per parity class: its two lowest ops (-1) */
    cg_rng rng;
} nego;

static double rnd(nego *N) { return cg_rng_unit(&N->rng); }
static int rndi(nego *N, int k) { return k > 0 ? (int)(rnd(N) * k) : 0; }

/* The next stamp of a stamped array of n entries: past INT_MAX (a long
 * run) the array is cleared and the count starts again. */
static int next_stamp(int *cur, int *arr, size_t n)
{
    if (*cur == INT_MAX) {
        memset(arr, 0, n * sizeof *arr);
        *cur = 0;
    }
    return ++*cur;
}

static int modii(const nego *N, int64_t t)
{
    return cg__modii(t, N->ii);
}

static int func_of(const nego *N, int v)
{
    return N->U.funcnode[N->prim[v] * N->ii + modii(N, N->start[v])];
}

static const cg_dfg_edge *edge(const nego *N, int e)
{
    return cg_dfg_get_edge(N->g, e);
}

/* ---- who holds each node ---------------------------------------------- */

static void hold(nego *N, int x, int v, int a, int p)
{
    holder *h = N->occ + (size_t)x * SLOTS;
    for (int i = 0; i < N->nocc[x]; i++)
        if (h[i].value == v && h[i].arrive == a && h[i].pred == p) {
            h[i].count++;
            return;
        }
    if (N->nocc[x] >= SLOTS) { /* the router never asks it: a bug */
        N->broken = true;
        return;
    }
    if (N->nocc[x] >= 1) {
        N->nshared++;
        N->shared += 1 + N->hist[x];
    }
    h[N->nocc[x]++] = (holder){v, a, p, 1};
}

static void release(nego *N, int x, int v, int a, int p)
{
    holder *h = N->occ + (size_t)x * SLOTS;
    for (int i = 0; i < N->nocc[x]; i++)
        if (h[i].value == v && h[i].arrive == a && h[i].pred == p) {
            if (--h[i].count > 0)
                return;
            h[i] = h[--N->nocc[x]];
            if (N->nocc[x] >= 1) {
                N->nshared--;
                N->shared -= 1 + N->hist[x];
            }
            return;
        }
}

/* What unrouted edge e costs: its base, the cycles it lacks, its
 * history. */
static double unrouted_price(const nego *N, int e)
{
    const cg_map_anneal_params *w = N->o->w;
    return (w->w_unrouted + w->w_short * N->r[e].short_by) *
           (1 + N->ehist[e]);
}

/* Put route e's nodes on the board (add) or take them off. */
static void board(nego *N, int e, bool add)
{
    route *r = &N->r[e];
    if (!r->ok) {
        double c = unrouted_price(N, e);
        N->unrouted += add ? 1 : -1;
        N->unr += add ? c : -c;
        return;
    }
    int v = edge(N, e)->src, pred = func_of(N, v);
    for (int i = 0; i < r->len; i++) {
        if (add)
            hold(N, r->node[i], v, r->arrive[i], pred);
        else
            release(N, r->node[i], v, r->arrive[i], pred);
        pred = r->node[i];
    }
    N->len += add ? r->len : -r->len;
}

/* ---- the router -------------------------------------------------------- */

static bool is_route(const nego *N, int x)
{
    return cg_mrrg_get_node(N->m, x)->kind == CG_MRRG_ROUTE;
}

static int lbget(const nego *N, int x)
{
    int c = N->tctx[x] + N->lbk;
    if (c >= N->ii)
        c -= N->ii;
    int h = N->lbt[N->tbase[x] + c];
    return h == LB_NONE ? -1 : h;
}

/* lb[x]: least delay from ROUTE node x to sink whoever holds what
 * (label-correcting, backwards), below stride; LB_NONE beyond.  It
 * depends on the MRRG alone, which repeats itself every context, so one
 * table per pin of context 0 serves the pin's twins in every context.
 * The table is kept in twin order (tbase, tctx): lbget reads it with no
 * table of twins, which at II 16 on the 8x8 is tens of MB. */
static unsigned char *lower_bounds(nego *N, int sink)
{
    unsigned char *lb = malloc((size_t)N->nn + 1),
                  *tw = malloc((size_t)N->nn + 1);
    if (!lb || !tw) {
        free(lb);
        free(tw);
        return NULL;
    }
    memset(lb, LB_NONE, (size_t)N->nn + 1);
    int qh = 0, qt = 0, cap = N->nn + 1;
    lb[sink] = 0;
    N->queue[qt++] = sink;
    N->inq[sink] = 1;
    while (qh != qt) {
        int x = N->queue[qh];
        qh = (qh + 1) % cap;
        N->inq[x] = 0;
        int n;
        const int *in = cg_mrrg_in(N->m, x, &n);
        for (int j = 0; j < n; j++) {
            const cg_mrrg_edge *e = cg_mrrg_get_edge(N->m, in[j]);
            int y = e->from, d = lb[x] + e->delay;
            if (d >= N->stride || !is_route(N, y) ||
                cg_mrrg_get_node(N->m, y)->operand >= 0 || lb[y] <= d)
                continue;
            lb[y] = (unsigned char)d;
            if (!N->inq[y]) { /* queued once at a time: nn slots suffice */
                N->inq[y] = 1;
                N->queue[qt] = y;
                qt = (qt + 1) % cap;
            }
        }
    }
    for (int x = 0; x < N->nn; x++)
        tw[N->tbase[x] + N->tctx[x]] = lb[x];
    free(lb);
    return tw;
}

/* Make the lower bounds towards sink those lbget reads; false on no
 * memory. */
static bool aim(nego *N, int sink)
{
    int c = cg_mrrg_get_node(N->m, sink)->context;
    int s0 = cg__mrrg_shift(N->m, sink, -c);
    if (!N->lbtab[s0] && !(N->lbtab[s0] = lower_bounds(N, s0)))
        return false;
    N->lbt = N->lbtab[s0];
    N->lbk = c ? N->ii - c : 0;
    return true;
}

static void heap_push(nego *N, int s, double key)
{
    if (N->nheap >= N->hcap) {
        int c1 = N->hcap, c2 = N->hcap;
        if (CG_GROW(N->heap, c1, N->nheap + 1) ||
            CG_GROW(N->hkey, c2, N->nheap + 1)) {
            N->oom = true;
            return;
        }
        N->hcap = c1 < c2 ? c1 : c2;
    }
    int i = N->nheap++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (N->hkey[p] < key || (N->hkey[p] == key && N->heap[p] < s))
            break;
        N->heap[i] = N->heap[p];
        N->hkey[i] = N->hkey[p];
        i = p;
    }
    N->heap[i] = s;
    N->hkey[i] = key;
}

static int heap_pop(nego *N, double *key)
{
    int top = N->heap[0];
    *key = N->hkey[0];
    int s = N->heap[--N->nheap];
    double k = N->hkey[N->nheap];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= N->nheap)
            break;
        if (c + 1 < N->nheap &&
            (N->hkey[c + 1] < N->hkey[c] ||
             (N->hkey[c + 1] == N->hkey[c] && N->heap[c + 1] < N->heap[c])))
            c++;
        if (k < N->hkey[c] || (k == N->hkey[c] && s < N->heap[c]))
            break;
        N->heap[i] = N->heap[c];
        N->hkey[i] = N->hkey[c];
        i = c;
    }
    N->heap[i] = s;
    N->hkey[i] = k;
    return top;
}

/* The price of value v entering node x at arrival a from pred, its own
 * path holding x already `again` times: nearly nothing where v's
 * tree already passes so, else 1 + history, times the holders there
 * (present cost); < 0 when x can record no more holders. */
static double price(const nego *N, int x, int v, int a, int pred, int again)
{
    const holder *h = N->occ + (size_t)x * SLOTS;
    for (int i = 0; i < N->nocc[x]; i++)
        if (h[i].value == v && h[i].arrive == a && h[i].pred == pred)
            return 0.01;
    int k = N->nocc[x] + again;
    if (k >= SLOTS)
        return -1;
    return (1 + N->hist[x]) * (1 + N->pres * k);
}

/* Mark the nodes on the path ending in state s: how often it holds each
 * and the delay at which it last does (the largest: delays never fall
 * along a path). */
static void mark_chain(nego *N, int s)
{
    next_stamp(&N->ccur, N->cstamp, (size_t)N->nn + 1);
    for (; s >= 0; s = N->st[s].from) {
        int x = N->st[s].node;
        if (N->cstamp[x] != N->ccur) {
            N->cstamp[x] = N->ccur;
            N->ccount[x] = 0;
            N->clast[x] = s - x * N->stride;
        }
        N->ccount[x]++;
    }
}

/* How often the path ending in state s holds node x: -1 when it does at
 * delay d (a cycle of zero delay: never taken).  A node met at another
 * delay would hold the value at two arrivals: priced as one holder more
 * each time, and counted as sharing on the board, so that negotiation
 * removes it.  *marked: s's path is marked already (mark_chain), which
 * is done at most once per expansion and only when the path's filter
 * may hold x. */
static int on_chain(nego *N, int s, int x, int d, bool *marked)
{
    if (s < 0 || !cg__pathf_may(&N->st[s].seen, x))
        return 0;
    if (!*marked)
        mark_chain(N, s);
    *marked = true;
    if (N->cstamp[x] != N->ccur)
        return 0;
    /* d >= the delay of every state on the path, so a state at x of
       delay d is the last at x */
    return N->clast[x] == d ? -1 : N->ccount[x];
}

/* Offer state (y, d) reached from state s (-1: from the FUNC node). */
static void offer(nego *N, int s, int y, int d, double c)
{
    int t = y * N->stride + d;
    rstate *r = &N->st[t];
    if (r->stamp == N->scur && r->cost <= c)
        return;
    r->stamp = N->scur;
    r->cost = c;
    r->from = s;
    r->node = y;
    /* s is expanded, so its path is final: the filter is the path's */
    r->seen = cg__pathf_add(s >= 0 ? &N->st[s].seen : NULL, y);
    heap_push(N, t, c);
}

/* Expand state s (node x, delay d, cost c) towards the sink. */
static void expand(nego *N, int s, int v, int delay, double c)
{
    int x = s / N->stride, d = s % N->stride;
    bool marked = false;
    for (int j = N->ooff[x]; j < N->ooff[x + 1]; j++) {
        int y = N->oto[j], nd = d + N->odelay[j], h = lbget(N, y);
        if (h < 0 || nd + h > delay)
            continue;
        int again = on_chain(N, s, y, nd, &marked);
        double p = again < 0 ? -1 : price(N, y, v, nd, x, again);
        if (p >= 0)
            offer(N, s, y, nd, c + p);
    }
}

/* Route edge e into N->r[e] (the nodes it held are off the board): the
 * cheapest path of exactly its delay; not ok when there is none. */
static void route_edge(nego *N, int e)
{
    const cg_dfg_edge *ed = edge(N, e);
    route *r = &N->r[e];
    r->ok = false;
    r->len = 0;
    int64_t delay = N->start[ed->dst] + (int64_t)ed->distance * N->ii -
                    N->start[ed->src];
    int f = func_of(N, ed->src);
    int sink = cg_mrrg_pin(N->m, func_of(N, ed->dst), ed->operand);
    int dm = cg__units_dmin(&N->U, N->prim[ed->src], N->prim[ed->dst],
                            ed->operand);
    r->short_by = dm < CG__DIST_INF && delay < dm ? (int)(dm - delay < 64 ? dm - delay
                                                                 : 64)
                                         : 0;
    if (delay < 0 || delay >= N->stride || sink < 0 || f < 0)
        return;
    if (!aim(N, sink)) {
        N->oom = true;
        return;
    }
    if (N->scur == INT_MAX) { /* a long run: clear the stamps, start over */
        for (size_t t = 0; t < (size_t)N->nn * (size_t)N->stride + 1; t++)
            N->st[t].stamp = 0;
        N->scur = 0;
    }
    N->scur++;
    N->nheap = 0;
    int n;
    const int *out = cg_mrrg_out(N->m, f, &n);
    for (int j = 0; j < n; j++) {
        const cg_mrrg_edge *me = cg_mrrg_get_edge(N->m, out[j]);
        int h = lbget(N, me->to);
        double p = h < 0 || me->delay + h > delay
                       ? -1
                       : price(N, me->to, ed->src, me->delay, f, 0);
        if (p >= 0)
            offer(N, -1, me->to, me->delay, p);
    }
    while (N->nheap > 0) {
        double c;
        int s = heap_pop(N, &c);
        if (c > N->st[s].cost)
            continue; /* a cheaper way came later */
        int x = s / N->stride, d = s % N->stride;
        if (x == sink && d == delay) {
            int len = 0;
            for (int t = s; t >= 0; t = N->st[t].from)
                len++;
            if (len > r->cap) {
                int c1 = r->cap, c2 = r->cap;
                if (CG_GROW(r->node, c1, len) ||
                    CG_GROW(r->arrive, c2, len)) {
                    N->oom = true;
                    return;
                }
                r->cap = c1 < c2 ? c1 : c2;
            }
            r->len = len;
            for (int t = s, i = len - 1; t >= 0; t = N->st[t].from, i--) {
                r->node[i] = t / N->stride;
                r->arrive[i] = t % N->stride;
            }
            r->ok = true;
            return;
        }
        if (!N->ispin[x])
            expand(N, s, ed->src, (int)delay, c);
    }
}

/* ---- the cost ------------------------------------------------------------ */

static int broken_orders(const nego *N)
{
    int k = 0;
    for (int i = 0; i < N->o->norders; i++) {
        const cg__heur_order *o = &N->o->orders[i];
        if (N->start[o->then] + (int64_t)o->distance * N->ii <
            N->start[o->first] + o->latency)
            k++;
    }
    return k;
}

static double total(const nego *N)
{
    const cg_map_anneal_params *w = N->o->w;
    return w->w_shared * N->shared + N->unr + w->w_order * N->viol +
           w->w_len * (double)N->len;
}

static bool legal(const nego *N)
{
    return N->nshared == 0 && N->unrouted == 0 && N->viol == 0;
}

/* Negotiation: every node held by more than one value, and every edge
 * left unrouted, gets dearer for good; sharing gets dearer from now on;
 * the weighted sums are recounted. */
static void negotiate(nego *N)
{
    if (N->nshared > N->o->shared_peak)
        N->o->shared_peak = N->nshared;
    N->unr = 0;
    for (int e = 0; e < N->ne; e++)
        if (!N->r[e].ok) {
            N->ehist[e] += N->o->w->h_step;
            N->unr += unrouted_price(N, e);
        }
    N->shared = 0;
    for (int x = 0; x < N->nn; x++)
        if (N->nocc[x] > 1) {
            N->hist[x] += N->o->w->h_step;
            N->shared += (N->nocc[x] - 1) * (1 + N->hist[x]);
        }
    N->pres *= N->o->w->p_grow;
    if (N->pres > 1000)
        N->pres = 1000;
}

/* ---- a move -------------------------------------------------------------- */

/* Mark the edges of op v as affected (once each). */
static void affect(nego *N, int v)
{
    for (int pass = 0; pass < 2; pass++) {
        int k = pass ? N->neout[v] : N->nein[v];
        for (int j = 0; j < k; j++) {
            int e = pass ? N->eout[v][j] : N->ein[v][j];
            if (N->affmark[e] != N->affcur) {
                N->affmark[e] = N->affcur;
                N->aff[N->naff++] = e;
            }
        }
    }
}

/* A const-like op: no operands and one consumer, which it follows. */
static bool follower(const nego *N, int u)
{
    return N->nein[u] == 0 && N->neout[u] == 1;
}

/* The starts unit q allows v given its placed neighbours (followers of v
 * excepted: they move with it): at least *lo when *hlo, at most *hi when
 * *hhi. */
static void window(const nego *N, int v, int q, int64_t *lo, bool *hlo,
                   int64_t *hi, bool *hhi)
{
    *hlo = *hhi = false;
    for (int j = 0; j < N->nein[v]; j++) {
        const cg_dfg_edge *ed = edge(N, N->ein[v][j]);
        if (ed->src == v || N->prim[ed->src] < 0 || follower(N, ed->src))
            continue;
        int dm = cg__units_dmin(&N->U, N->prim[ed->src], q, ed->operand);
        if (dm >= CG__DIST_INF)
            continue;
        int64_t t = N->start[ed->src] + dm - (int64_t)ed->distance * N->ii;
        if (!*hlo || t > *lo)
            *lo = t;
        *hlo = true;
    }
    for (int j = 0; j < N->neout[v]; j++) {
        const cg_dfg_edge *ed = edge(N, N->eout[v][j]);
        if (ed->dst == v || N->prim[ed->dst] < 0)
            continue;
        int dm = cg__units_dmin(&N->U, q, N->prim[ed->dst], ed->operand);
        if (dm >= CG__DIST_INF)
            continue;
        int64_t t = N->start[ed->dst] + (int64_t)ed->distance * N->ii - dm;
        if (!*hhi || t < *hi)
            *hi = t;
        *hhi = true;
    }
}

/* (t - off(v, q, t)) mod 2: what v on q at t makes its class's z. */
static int parity_of(const nego *N, int v, int q, int64_t t)
{
    size_t i = ((size_t)v * (size_t)N->U.np + (size_t)q) * (size_t)N->ii +
               (size_t)modii(N, t);
    return (int)((t - N->o->par_off[i]) & 1);
}

/* The z of v's class as another op of it has it now; -1 when v is in no
 * class or alone in it. */
static int class_z(const nego *N, int v)
{
    if (!N->o->par_class || N->o->par_class[v] < 0)
        return -1;
    int c = N->o->par_class[v];
    int w = N->anchor[2 * c] != v ? N->anchor[2 * c] : N->anchor[2 * c + 1];
    return w < 0 || N->prim[w] < 0 ? -1
                                   : parity_of(N, w, N->prim[w], N->start[w]);
}

/* The start nearest t (t first, then t + 1, t - 1, ...) at which v on q
 * keeps its class's parity: a start of the other parity can never be
 * routed (its delays would have the wrong parity), so the annealer need
 * not try it.  t itself when v is in no class. */
static int64_t keep_parity(const nego *N, int v, int q, int64_t t)
{
    int z = class_z(N, v);
    if (z < 0)
        return t;
    for (int k = 0; k <= 2 * N->ii; k++) {
        int64_t u = t + (k % 2 ? (k + 1) / 2 : -(k / 2));
        if (parity_of(N, v, q, u) == z)
            return u;
    }
    return t;
}

/* t, or t a stage later when only that keeps v's class parity on q at
 * t's context (an odd II); INT64_MIN when neither does. */
static int64_t parity_slot(const nego *N, int v, int q, int64_t t)
{
    int z = class_z(N, v);
    if (z < 0 || parity_of(N, v, q, t) == z)
        return t;
    return N->ii % 2 ? t + N->ii : INT64_MIN;
}

static int64_t pick_start(nego *N, int v, int q)
{
    int64_t lo = 0, hi = 0;
    bool hlo, hhi;
    window(N, v, q, &lo, &hlo, &hi, &hhi);
    int span = N->ii + 1;
    if (hlo && hhi)
        return lo <= hi ? lo + rndi(N, (int)(hi - lo < span ? hi - lo + 1
                                                              : span))
                        : (rnd(N) < 0.5 ? lo : hi);
    if (hlo)
        return lo + rndi(N, span);
    if (hhi)
        return hi - rndi(N, span);
    return N->start[v] + rndi(N, 2 * N->ii + 1) - N->ii;
}

/* Move op v to (q, t), recording it as a mover. */
static void put(nego *N, int v, int q, int64_t t)
{
    N->movers[N->nmovers] = v;
    N->oldprim[N->nmovers] = N->prim[v];
    N->oldstart[N->nmovers++] = N->start[v];
    N->fowner[func_of(N, v)] = -1;
    N->prim[v] = q;
    N->start[v] = t;
}

/* Bring v's followers next to it: on the unit that reaches v's pin
 * soonest (ties at random) with a free slot, as late as that allows. */
static void follow(nego *N, int v)
{
    for (int j = 0; j < N->nein[v]; j++) {
        const cg_dfg_edge *ed = edge(N, N->ein[v][j]);
        int u = ed->src;
        if (u == v || !follower(N, u))
            continue;
        int best = -1, bestd = CG__DIST_INF;
        int64_t bestt = 0;
        for (int i = 0; i < N->U.ncand[u]; i++) {
            int p = N->U.cand[u][i];
            int dm = cg__units_dmin(&N->U, p, N->prim[v], ed->operand);
            if (dm >= CG__DIST_INF || dm > bestd || (dm == bestd && rnd(N) < 0.5))
                continue;
            for (int k = 0; k < N->ii; k++) {
                int64_t t = N->start[v] + (int64_t)ed->distance * N->ii -
                            dm - k;
                int f = N->U.funcnode[p * N->ii + modii(N, t)];
                if (f >= 0 && (N->fowner[f] < 0 || N->fowner[f] == u)) {
                    best = p;
                    bestd = dm;
                    bestt = t;
                    break;
                }
            }
        }
        if (best >= 0 && (best != N->prim[u] || bestt != N->start[u])) {
            put(N, u, best, bestt);
            N->fowner[func_of(N, u)] = u;
        }
    }
}

/* An op to move: most often one whose edges are unrouted or share a
 * node, else any. */
static int pick_op(nego *N)
{
    int nb = 0;
    if (rnd(N) < 0.8)
        for (int e = 0; e < N->ne; e++) {
            const route *r = &N->r[e];
            bool b = !r->ok;
            for (int i = 0; !b && i < r->len; i++)
                b = N->nocc[r->node[i]] > 1;
            if (b) {
                N->bad[nb++] = edge(N, e)->src;
                N->bad[nb++] = edge(N, e)->dst;
            }
        }
    return nb > 0 ? N->bad[rndi(N, nb)] : rndi(N, N->n);
}

/* A unit for v: near its own (within radius cells) most of the time. */
static int pick_unit(nego *N, int v, int radius)
{
    int k = N->U.ncand[v];
    for (int tries = 0; tries < 8; tries++) {
        int q = N->U.cand[v][rndi(N, k)];
        if (cg__prim_dist(N->nl, q, N->prim[v]) <= radius)
            return q;
    }
    return N->U.cand[v][rndi(N, k)];
}

/* Take the affected edges off the board, keeping their routes in bak. */
static void lift(nego *N)
{
    for (int i = 0; i < N->naff; i++) {
        int e = N->aff[i];
        board(N, e, false);
        route t = N->r[e];
        N->r[e] = N->bak[e];
        N->bak[e] = t;
    }
}

static void reroute(nego *N)
{
    for (int i = N->naff - 1; i > 0; i--) { /* a fresh order each time */
        int j = rndi(N, i + 1), t = N->aff[i];
        N->aff[i] = N->aff[j];
        N->aff[j] = t;
    }
    for (int i = 0; i < N->naff; i++) {
        route_edge(N, N->aff[i]);
        board(N, N->aff[i], true);
    }
}

/* Undo the move: movers back (last first), old routes back. */
static void revert(nego *N)
{
    for (int i = 0; i < N->naff; i++)
        board(N, N->aff[i], false);
    for (int i = 0; i < N->nmovers; i++)
        N->fowner[func_of(N, N->movers[i])] = -1;
    for (int i = N->nmovers - 1; i >= 0; i--) {
        N->prim[N->movers[i]] = N->oldprim[i];
        N->start[N->movers[i]] = N->oldstart[i];
    }
    for (int i = 0; i < N->nmovers; i++)
        N->fowner[func_of(N, N->movers[i])] = N->movers[i];
    for (int i = 0; i < N->naff; i++) {
        int e = N->aff[i];
        route t = N->r[e];
        N->r[e] = N->bak[e];
        N->bak[e] = t;
        board(N, e, true);
    }
}

/* One move at temperature temp, kept or undone (or nothing, when the
 * slot drawn is the op's own or cannot take the op there). */
static void move(nego *N, double temp, int radius)
{
    int v = pick_op(N);
    int q = N->prim[v];
    int64_t t = N->start[v] + (rnd(N) < 0.5 ? N->ii : -N->ii);
    if (rnd(N) >= 0.2) { /* else a stage shift: same slot, II earlier or
                            later, only the delays change */
        q = pick_unit(N, v, radius);
        t = keep_parity(N, v, q, pick_start(N, v, q));
    } else if (class_z(N, v) >= 0 && N->ii % 2) {
        t = N->start[v] + (t - N->start[v]) * 2; /* two stages: the parity */
    }
    int f = N->U.funcnode[q * N->ii + modii(N, t)];
    if (f < 0 || (q == N->prim[v] && t == N->start[v]))
        return;
    int w = N->fowner[f];
    int64_t tw = 0;
    int fv = func_of(N, v);
    if (w >= 0 && w != v) { /* swap: w takes v's slot, its start moved to
                               that context */
        if (!N->fits[(size_t)w * N->U.np + N->prim[v]])
            return;
        int c = cg_mrrg_get_node(N->m, fv)->context;
        tw = N->start[w] + modii(N, c - N->start[w]);
        if (tw - N->start[w] > N->ii / 2)
            tw -= N->ii;
        int zw = class_z(N, w);
        if (zw >= 0 && N->ii % 2 && parity_of(N, w, N->prim[v], tw) != zw)
            tw += rnd(N) < 0.5 ? N->ii : -N->ii; /* a stage: its parity */
    }
    double before = total(N);
    next_stamp(&N->affcur, N->affmark, (size_t)N->ne + 1);
    N->naff = N->nmovers = 0;
    affect(N, v);
    if (w >= 0 && w != v)
        affect(N, w);
    lift(N); /* before anything moves: the preds of the routes held */
    int pv = N->prim[v];
    put(N, v, q, t);
    if (w >= 0 && w != v) {
        put(N, w, pv, tw);
        N->fowner[func_of(N, w)] = w;
    }
    N->fowner[func_of(N, v)] = v;
    follow(N, v);
    reroute(N);
    N->viol = broken_orders(N);
    double delta = total(N) - before;
    if (delta <= 0 || rnd(N) < exp(-delta / temp))
        return;
    revert(N);
    N->viol = broken_orders(N);
}

/* ---- the first state ------------------------------------------------------ */

/* Place v at a free slot: a unit at random order, the first free context
 * from the start its placed neighbours suggest; failing that, on a random
 * unit's slot, evicting its op (returned, to be placed again).  -1 when v
 * was placed on a free slot. */
static int place_one(nego *N, int v)
{
    int k = N->U.ncand[v], first = rndi(N, k);
    for (int i = 0; i < k; i++) {
        int q = N->U.cand[v][(first + i) % k];
        N->prim[v] = q; /* for pick_start's fallback */
        N->start[v] = 0;
        int64_t t0 = keep_parity(N, v, q, pick_start(N, v, q));
        for (int c = 0; c < N->ii; c++) {
            int64_t t = parity_slot(N, v, q, t0 + c);
            if (t == INT64_MIN)
                continue;
            int f = N->U.funcnode[q * N->ii + modii(N, t)];
            if (f >= 0 && N->fowner[f] < 0) {
                N->start[v] = t;
                N->fowner[f] = v;
                return -1;
            }
        }
    }
    int q = N->U.cand[v][first];
    int64_t t0 = pick_start(N, v, q) + rndi(N, N->ii);
    int f = N->U.funcnode[q * N->ii + modii(N, t0)];
    int w = N->fowner[f];
    N->prim[v] = q;
    N->start[v] = t0;
    N->fowner[f] = v;
    if (w >= 0)
        N->prim[w] = -1;
    return w;
}

/* Keep what o->from placed; place the rest; route every edge.  false when
 * some op found no slot. */
static bool first_state(nego *N)
{
    const cg_mapping *from = N->o->from;
    for (int v = 0; v < N->n; v++) {
        N->prim[v] = -1;
        if (from && from->place[v] >= 0) {
            N->prim[v] = cg_mrrg_get_node(N->m, from->place[v])->prim;
            N->start[v] = from->start[v];
            N->fowner[from->place[v]] = v;
        }
    }
    long budget = 16L * N->n + 16;
    for (int v = 0; v < N->n; v++) {
        int w = N->prim[v] < 0 ? place_one(N, v) : -1;
        while (w >= 0 && budget-- > 0)
            w = place_one(N, w);
    }
    for (int v = 0; v < N->n; v++)
        if (N->prim[v] < 0)
            return false; /* the evictions did not settle */
    for (int e = 0; e < N->ne; e++) {
        route_edge(N, e);
        board(N, e, true);
    }
    N->viol = broken_orders(N);
    return true;
}

/* ---- setup and result -------------------------------------------------- */

#define ALLOC(x, k) ((x) = calloc((size_t)(k) + 1, sizeof *(x)))

static int setup(nego *N)
{
    N->ii = cg_mrrg_ii(N->m);
    N->n = cg_dfg_nnodes(N->g);
    N->ne = cg_dfg_nedges(N->g);
    N->nn = cg_mrrg_nnodes(N->m);
    N->stride = 3 * N->ii + 16 < MAX_STRIDE ? 3 * N->ii + 16 : MAX_STRIDE;
    N->pres = 0.5;
    if (cg__units_build(N->nl, N->m, N->g, &N->U) < 0)
        return -1;
    N->ein = N->U.ein; /* the units' tables own them */
    N->eout = N->U.eout;
    N->nein = N->U.nein;
    N->neout = N->U.neout;
    size_t ns = (size_t)N->nn * (size_t)N->stride;
    if (!ALLOC(N->fits, (size_t)N->n * (size_t)N->U.np) ||
        !ALLOC(N->prim, N->n) || !ALLOC(N->start, N->n) ||
        !ALLOC(N->fowner, N->nn) || !ALLOC(N->r, N->ne) ||
        !ALLOC(N->bak, N->ne) || !ALLOC(N->occ, (size_t)N->nn * SLOTS) ||
        !ALLOC(N->nocc, N->nn) || !ALLOC(N->hist, N->nn) ||
        !ALLOC(N->ehist, N->ne) ||
        !ALLOC(N->lbtab, N->nn) ||
        !ALLOC(N->tbase, N->nn) || !ALLOC(N->tctx, N->nn) ||
        !ALLOC(N->ooff, N->nn + 1) || !ALLOC(N->ispin, N->nn) ||
        !ALLOC(N->oto, cg_mrrg_nedges(N->m)) ||
        !ALLOC(N->odelay, cg_mrrg_nedges(N->m)) ||
        !ALLOC(N->queue, N->nn) || !ALLOC(N->inq, N->nn) ||
        !ALLOC(N->st, ns) || !ALLOC(N->cstamp, N->nn) ||
        !ALLOC(N->ccount, N->nn) || !ALLOC(N->clast, N->nn) ||
        !ALLOC(N->aff, N->ne) || !ALLOC(N->affmark, N->ne) ||
        !ALLOC(N->movers, 2 * N->n + 2) || !ALLOC(N->oldprim, 2 * N->n + 2) ||
        !ALLOC(N->oldstart, 2 * N->n + 2) || !ALLOC(N->bad, 2 * N->ne) ||
        !ALLOC(N->anchor, 2 * N->n + 2))
        return -1;
    for (int i = 0; i < 2 * N->n; i++)
        N->anchor[i] = -1;
    for (int v = 0; N->o->par_class && v < N->n; v++) {
        int c = N->o->par_class[v];
        if (c >= 0 && N->anchor[2 * c] < 0)
            N->anchor[2 * c] = v;
        else if (c >= 0 && N->anchor[2 * c + 1] < 0)
            N->anchor[2 * c + 1] = v;
    }
    for (int v = 0; v < N->n; v++)
        for (int i = 0; i < N->U.ncand[v]; i++)
            N->fits[(size_t)v * N->U.np + N->U.cand[v][i]] = true;
    for (int i = 0; i < N->nn; i++)
        N->fowner[i] = -1;
    for (int x = 0, k = 0; x < N->nn; x++) {
        N->tctx[x] = cg_mrrg_get_node(N->m, x)->context;
        N->tbase[x] = cg__mrrg_twin_slot(N->m, x) - N->tctx[x];
        int n;
        const int *out = cg_mrrg_out(N->m, x, &n);
        N->ooff[x] = k;
        for (int j = 0; j < n; j++, k++) {
            const cg_mrrg_edge *e = cg_mrrg_get_edge(N->m, out[j]);
            N->oto[k] = e->to;
            N->odelay[k] = e->delay;
        }
        N->ooff[x + 1] = k;
        N->ispin[x] = cg_mrrg_get_node(N->m, x)->operand >= 0;
    }
    return 0;
}

static void teardown(nego *N)
{
    for (int e = 0; e < N->ne; e++) {
        if (N->r) {
            free(N->r[e].node);
            free(N->r[e].arrive);
        }
        if (N->bak) {
            free(N->bak[e].node);
            free(N->bak[e].arrive);
        }
    }
    void *all[] = {N->fits,    N->prim,   N->start,   N->fowner, N->r,
                   N->bak,     N->occ,    N->nocc,    N->hist,   N->ehist,
                   N->tbase,   N->tctx,   N->ooff,    N->oto,    N->odelay,
                   N->ispin,   N->queue,  N->inq,     N->st,     N->cstamp,
                   N->ccount,  N->clast,  N->heap,    N->hkey,   N->aff,
                   N->affmark, N->movers, N->oldprim, N->oldstart, N->bad,
                   N->anchor};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]);
    for (int x = 0; N->lbtab && x < N->nn; x++)
        free(N->lbtab[x]);
    free(N->lbtab);
    cg__units_free(&N->U, N->n);
}

static bool edgeless(const nego *N, int v)
{
    return N->nein[v] == 0 && N->neout[v] == 0;
}

/* The mapping of a legal state, starts shifted by whole stages so that the
 * earliest op starts in [0, II).  An op with no edge (the init value of a
 * loop-carried edge) has no timing to keep, so stage shifts move it at no
 * cost and over a long run its start wanders off (by hundreds of cycles
 * in 20,000,000 moves): it is brought into the first stage of the
 * others, in the same slot. */
static cg_mapping *result(const nego *N)
{
    cg_mapping *map = cg_mapping_create(N->ii, N->n, N->ne);
    if (!map)
        return NULL;
    int64_t lo = INT64_MAX;
    for (int v = 0; v < N->n; v++)
        if (!edgeless(N, v) && N->start[v] < lo)
            lo = N->start[v];
    if (lo == INT64_MAX)
        lo = 0;
    lo -= modii(N, lo);
    for (int v = 0; v < N->n; v++) {
        map->place[v] = func_of(N, v);
        map->start[v] = edgeless(N, v) ? modii(N, N->start[v])
                                       : N->start[v] - lo;
    }
    for (int e = 0; e < N->ne; e++) {
        const route *r = &N->r[e];
        map->route[e] = malloc(sizeof(int) * ((size_t)r->len + 1));
        if (!map->route[e]) {
            cg_mapping_destroy(map);
            return NULL;
        }
        memcpy(map->route[e], r->node, sizeof(int) * (size_t)r->len);
        map->route_len[e] = r->len;
    }
    return map;
}

/* ---- the search ---------------------------------------------------------- */

static int anneal(nego *N)
{
    cg__nego_opts *o = N->o;
    double deadline = cg_clock_now() + o->timeout_s;
    int rows = 0, cols = 0;
    for (int p = 0; p < N->U.np; p++) {
        const cg_nl_prim *pr = cg_netlist_prim(N->nl, p);
        if (pr->row + 1 > rows)
            rows = pr->row + 1;
        if (pr->col + 1 > cols)
            cols = pr->col + 1;
    }
    double temp = o->w->t_start;
    long period = o->max_moves / o->w->rounds;
    if (period < 2L * N->n + 8)
        period = 2L * N->n + 8;
    /* cool geometrically from temp to tmin over the moves allowed */
    double cool = pow(o->w->t_end / temp,
                      (double)period / (double)o->max_moves);
    for (o->moves = 0; o->moves < o->max_moves; o->moves++) {
        if (N->oom || N->broken)
            return -1;
        if (legal(N))
            return 1;
        if (o->moves % 64 == 0 && cg_clock_now() > deadline) {
            o->timed_out = true;
            return 0;
        }
        int radius = 1 + (int)((rows > cols ? rows : cols) * temp / 2.0);
        move(N, temp, radius);
        if ((o->moves + 1) % period == 0) {
            negotiate(N);
            temp = temp * cool > o->w->t_end ? temp * cool : o->w->t_end;
        }
    }
    if (N->oom || N->broken)
        return -1;
    return legal(N) ? 1 : 0;
}

int cg__nego_map(const cg_netlist *nl, const cg_mrrg *m, const cg_dfg *g,
                 cg__nego_opts *o, cg_mapping **out, cg_diags *d)
{
    nego N = {.nl = nl, .m = m, .g = g, .o = o};
    cg_rng_init(&N.rng, 0x9e3779b97f4a7c15ull ^
                            ((uint64_t)o->seed * 0xbf58476d1ce4e5b9ull));
    *out = NULL;
    o->moves = 0;
    o->shared_peak = 0;
    o->timed_out = false;
    int rc = setup(&N);
    for (int v = 0; rc == 0 && v < N.n; v++)
        if (N.U.ncand[v] == 0)
            rc = 1; /* an op no unit runs: nothing to anneal */
    if (rc == 0) {
        bool placed = first_state(&N);
        rc = N.oom ? -1 : placed ? anneal(&N) : 0;
        if (rc == 1) {
            *out = result(&N);
            if (!*out)
                rc = -1;
        }
    } else if (rc == 1) {
        rc = 0;
    }
    teardown(&N);
    if (rc < 0 && N.broken)
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "internal error in the negotiated mapper ('%s', II=%d): "
                     "a node's table of holders overflowed; please report "
                     "it with this DFG, or map with --moves 0",
                     cg_dfg_name(g), cg_mrrg_ii(m));
    else if (rc < 0)
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "out of memory in the negotiated mapper ('%s', II=%d)",
                     cg_dfg_name(g), cg_mrrg_ii(m));
    return rc;
}
