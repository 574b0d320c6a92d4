/* route.c: routes of an exact delay on the MRRG.
 *
 * Timing in a modulo schedule is exact: a value produced at start(src)
 * must reach the consumer's pin exactly start(dst) + d*II - start(src)
 * cycles later, so a shortest path is not enough -- a route may have to
 * wait, which on a mesh means bouncing through free registers.  The search
 * runs over states (MRRG node, delay so far), in increasing delay (Dial's
 * buckets; edges between ROUTE nodes delay 0 or a few cycles), pruned by
 * the least delay still needed to reach the sink through free nodes
 * (computed backwards first).  A state's path is kept simple by walking its
 * predecessor chain before extending it: the checker rejects a route that
 * enters a node twice, and the hardware could not hold two iterations'
 * copies of a value in one node anyway.
 */
#include <stdlib.h>

#include "../../common/util.h"
#include "heur_internal.h"

#define MAX_DELAY CG__ROUTE_MAX_DELAY

struct cg__router {
    const cg_mrrg *m;
    int nn;
    int *h;          /* least delay from node to the sink, valid where
                        hstamp == hcur (else none): no O(nodes) reset per
                        route on a large MRRG */
    int *hstamp, hcur;
    int *vis, nvis;  /* the nodes the backward search reached */
    int *mark, mcur; /* seeds already listed */
    int *stamp;      /* (node, delay) visited when == cur */
    int cur;
    int ns, scap;    /* states */
    int *sn, *sd, *sp, *snext;
    cg__pathf *sf;   /* the filter of the nodes on each state's path */
    int *head, *tail; /* per delay: first and last state of the bucket */
    bool oom;        /* a state could not be stored: a route may have been
                        missed (cg__router_oom) */
};

bool cg__router_oom(const cg__router *r)
{
    return r->oom;
}

cg__router *cg__router_create(const cg_mrrg *m)
{
    cg__router *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->m = m;
    r->nn = cg_mrrg_nnodes(m);
    size_t nn = (size_t)r->nn + 1;
    r->h = malloc(nn * sizeof *r->h);
    r->hstamp = calloc(nn, sizeof *r->hstamp);
    r->vis = malloc(nn * sizeof *r->vis);
    r->mark = calloc(nn, sizeof *r->mark);
    r->stamp = calloc(nn * (MAX_DELAY + 1), sizeof *r->stamp);
    r->head = malloc((MAX_DELAY + 2) * sizeof *r->head);
    r->tail = malloc((MAX_DELAY + 2) * sizeof *r->tail);
    if (!r->h || !r->stamp || !r->head || !r->tail || !r->hstamp ||
        !r->vis || !r->mark) {
        cg__router_destroy(r);
        return NULL;
    }
    return r;
}

void cg__router_destroy(cg__router *r)
{
    if (!r)
        return;
    free(r->h);
    free(r->hstamp);
    free(r->vis);
    free(r->mark);
    free(r->stamp);
    free(r->sn);
    free(r->sd);
    free(r->sp);
    free(r->snext);
    free(r->sf);
    free(r->head);
    free(r->tail);
    free(r);
}

static bool is_route(const cg_mrrg *m, int i)
{
    return cg_mrrg_get_node(m, i)->kind == CG_MRRG_ROUTE;
}

/* Append a state to bucket `delay`; -1 on no memory. */
static int push(cg__router *r, int node, int delay, int pred)
{
    if (r->ns >= r->scap) { /* rare: the arrays only grow */
        int c1 = r->scap, c2 = r->scap, c3 = r->scap, c4 = r->scap;
        int c5 = r->scap;
        if (CG_GROW(r->sn, c1, r->ns + 1) || CG_GROW(r->sd, c2, r->ns + 1) ||
            CG_GROW(r->sp, c3, r->ns + 1) ||
            CG_GROW(r->snext, c4, r->ns + 1) ||
            CG_GROW(r->sf, c5, r->ns + 1)) {
            r->oom = true;
            return -1;
        }
        r->scap = c1;
    }
    int s = r->ns++;
    r->sn[s] = node;
    r->sd[s] = delay;
    r->sp[s] = pred;
    r->sf[s] = cg__pathf_add(pred >= 0 ? &r->sf[pred] : NULL, node);
    r->snext[s] = -1;
    if (r->tail[delay] < 0)
        r->head[delay] = s;
    else
        r->snext[r->tail[delay]] = s;
    r->tail[delay] = s;
    r->stamp[(size_t)node * (MAX_DELAY + 1) + (size_t)delay] = r->cur;
    return 0;
}

static void reset_buckets(cg__router *r, int limit)
{
    r->ns = 0;
    for (int i = 0; i <= limit + 1; i++)
        r->head[i] = r->tail[i] = -1;
}

static int hget(const cg__router *r, int x)
{
    return r->hstamp[x] == r->hcur ? r->h[x] : -1;
}

/* h[]: least delay from each free ROUTE node to the sink, backwards
 * through free nodes (Dial's algorithm, bounded by limit); the nodes
 * reached are listed in vis. */
static int backward(cg__router *r, const cg__occ *occ, int sink, int limit)
{
    r->hcur++;
    r->nvis = 0;
    r->cur++;
    reset_buckets(r, limit);
    if (push(r, sink, 0, -1) < 0)
        return -1;
    for (int dl = 0; dl <= limit; dl++)
        for (int s = r->head[dl]; s >= 0; s = r->snext[s]) {
            int x = r->sn[s];
            if (hget(r, x) >= 0)
                continue;
            r->h[x] = dl;
            r->hstamp[x] = r->hcur;
            r->vis[r->nvis++] = x;
            int n;
            const int *in = cg_mrrg_in(r->m, x, &n);
            for (int j = 0; j < n; j++) {
                const cg_mrrg_edge *e = cg_mrrg_get_edge(r->m, in[j]);
                int nd = dl + e->delay;
                if (nd > limit || hget(r, e->from) >= 0 ||
                    !is_route(r->m, e->from) || occ->owner[e->from] >= 0)
                    continue;
                if (push(r, e->from, nd, -1) < 0)
                    return -1;
            }
        }
    return 0;
}

/* Is node x on the path that ends in state s?  Asked of the path's filter
 * first: most often its bit is clear and the path is not walked. */
static bool on_chain(const cg__router *r, int s, int x)
{
    if (s >= 0 && !cg__pathf_may(&r->sf[s], x))
        return false;
    for (; s >= 0; s = r->sp[s])
        if (r->sn[s] == x)
            return true;
    return false;
}

/* Least delay from x to the sink via one out-edge into a free node. */
static int h_via(const cg__router *r, int x)
{
    int n, best = -1;
    const int *out = cg_mrrg_out(r->m, x, &n);
    for (int j = 0; j < n; j++) {
        const cg_mrrg_edge *e = cg_mrrg_get_edge(r->m, out[j]);
        int h = hget(r, e->to);
        if (h >= 0 && (best < 0 || e->delay + h < best))
            best = e->delay + h;
    }
    return best;
}

static bool seen(const cg__router *r, int node, int delay)
{
    return r->stamp[(size_t)node * (MAX_DELAY + 1) + (size_t)delay] ==
           r->cur;
}

static int by_id(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The value's tree nodes with an edge into a node the backward search
 * reached (no other can lead to the sink), in increasing id, into out;
 * their number. */
static int tree_near(cg__router *r, const cg__occ *occ, int value, int *out)
{
    int k = 0;
    r->mcur++;
    for (int i = 0; i < r->nvis; i++) {
        int n;
        const int *in = cg_mrrg_in(r->m, r->vis[i], &n);
        for (int j = 0; j < n; j++) {
            int x = cg_mrrg_get_edge(r->m, in[j])->from;
            if (occ->owner[x] == value && r->mark[x] != r->mcur) {
                r->mark[x] = r->mcur;
                out[k++] = x;
            }
        }
    }
    qsort(out, (size_t)k, sizeof *out, by_id);
    return k;
}

/* Seeds: the value's tree nodes at their arrival (marked pred -2: not
 * new) and the free result ports of the producer. */
static int seed(cg__router *r, const cg__occ *occ, int value, int src_func,
                int delay)
{
    int *tree = r->vis + r->nvis; /* vis holds nn: the rest is free */
    int nt = tree_near(r, occ, value, tree);
    for (int i = 0; i < nt; i++) {
        int x = tree[i];
        if (occ->arrive[x] > delay)
            continue;
        int hv = h_via(r, x);
        if (hv >= 0 && occ->arrive[x] + hv <= delay &&
            push(r, x, occ->arrive[x], -2) < 0)
            return -1;
    }
    int n;
    const int *out = cg_mrrg_out(r->m, src_func, &n);
    for (int j = 0; j < n; j++) {
        const cg_mrrg_edge *e = cg_mrrg_get_edge(r->m, out[j]);
        if (occ->owner[e->to] >= 0 || hget(r, e->to) < 0 ||
            e->delay + hget(r, e->to) > delay || seen(r, e->to, e->delay))
            continue;
        if (push(r, e->to, e->delay, -1) < 0)
            return -1;
    }
    return 0;
}

/* Write the new nodes of the path ending in state s; returns their count. */
static int unwind(const cg__router *r, int s, int src_func, int *path,
                  int *from)
{
    int n = 0;
    for (int t = s; t >= 0; t = r->sp[t]) {
        if (r->sp[t] == -2) {
            *from = r->sn[t];
            break;
        }
        path[n++] = r->sn[t];
        if (r->sp[t] == -1)
            *from = src_func;
    }
    for (int i = 0; i < n / 2; i++) {
        int t = path[i];
        path[i] = path[n - 1 - i];
        path[n - 1 - i] = t;
    }
    return n;
}

/* Extend state s along its out-edges; 1 when the sink is reached. */
static int expand(cg__router *r, const cg__occ *occ, int s, int sink,
                  int delay)
{
    int x = r->sn[s], dl = r->sd[s], n;
    const int *out = cg_mrrg_out(r->m, x, &n);
    for (int j = 0; j < n; j++) {
        const cg_mrrg_edge *e = cg_mrrg_get_edge(r->m, out[j]);
        int y = e->to, nd = dl + e->delay;
        int hy = hget(r, y);
        if (hy < 0 || nd + hy > delay || occ->owner[y] >= 0 ||
            seen(r, y, nd) || on_chain(r, s, y))
            continue;
        if (push(r, y, nd, s) < 0)
            return -1;
        if (y == sink && nd == delay)
            return 1;
    }
    return 0;
}

int cg__route_exact(cg__router *r, const cg__occ *occ, int value,
                    int src_func, int sink, int delay, int *path, int *from)
{
    if (delay < 0 || delay > MAX_DELAY)
        return -1;
    if (occ->owner[sink] == value) { /* reached by a forced hop already */
        *from = sink;
        return occ->arrive[sink] == delay ? 0 : -1;
    }
    if (occ->owner[sink] >= 0)
        return -1;
    if (backward(r, occ, sink, delay) < 0 || hget(r, sink) != 0)
        return -1;
    r->cur++;
    reset_buckets(r, delay);
    if (seed(r, occ, value, src_func, delay) < 0)
        return -1;
    for (int dl = 0; dl <= delay; dl++)
        for (int s = r->head[dl]; s >= 0; s = r->snext[s]) {
            if (r->sn[s] == sink && r->sd[s] == delay)
                return unwind(r, s, src_func, path, from);
            if (cg_mrrg_get_node(r->m, r->sn[s])->operand >= 0)
                continue; /* a pin leads only into its unit */
            int rc = expand(r, occ, s, sink, delay);
            if (rc < 0)
                return -1;
            if (rc == 1)
                return unwind(r, r->ns - 1, src_func, path, from);
        }
    return -1;
}
