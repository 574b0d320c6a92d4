/* sat.c: the exact SAT mapper at one II, on the MRRG itself (no
 * compression), solved by CaDiCaL (sat_cnf.c).
 *
 * Time is absolute within one iteration's schedule: op v starts at cycle
 * t in its window [asap(v), alap(v)], and a value occupies MRRG node n at
 * cycle t only when t = context(n) (mod II).  Variables:
 *   x[v,p,t]  op v starts on FUNC node p at cycle t (p supports v, fits
 *             its width and bank, has the pins and output v needs)
 *   r[u,n,t]  the value of op u is on ROUTE node n at cycle t
 *   G[v,t]    start(v) >= t (order encoding, for precedences)
 *   h_k       assumption: every op starts by asap-span + k (the horizon)
 * Clauses:
 *   each op exactly once (at-most-one by a sequential counter); each FUNC
 *   node and each ROUTE node at most one (op or value, cycle) overall,
 *   which is modulo exclusivity: one MRRG node is one context;
 *   support: r[u,n,t] -> OR of r[u,m,t-delay(m->n)] over in-edges from
 *   passable ROUTE nodes, or x[u,p,t-delay(p->n)] for u's FUNC nodes;
 *   sinks: x[w,q,t] -> r[u, pin_k(q), t + d*II] for every edge u->w
 *   (operand k, distance d): the route latency is then exactly
 *   start(w) + d*II - start(u), the checker's timing equation;
 *   forward: a producer's value leaves its unit, and a value on a node
 *   goes on to a successor or is read on its pin (a route tree needs no
 *   other node, so no mapping is lost and stray values are ruled out);
 *   precedences (edges, and the memory order of cg_map_mem_orders) on G;
 *   widths: a value is never on a node narrower than it;
 *   the register count: bound.c's register bound, unary per value through
 *   G, at most the MRRG's delay nodes in all (clauses_registers), and at
 *   each context at most that context's (clauses_context_registers);
 *   the unit count: the ops that only some set of units can run start at
 *   most as many of them at each context (clauses_units).
 * Support clauses alone admit a set of nodes holding a value that support
 * each other around a cycle of zero delay, cut off from the producer.  No
 * shipped array has such a cycle, but an array may: after each solution a
 * search forward from every producer finds the value's route tree, and a
 * value whose sink it does not reach gets a loop clause (those nodes all
 * true need a support from outside them) and the solver runs again.
 * Symmetry: a mapping shifted in time is a mapping (the MRRG repeats
 * itself every context), so some op without predecessors starts at cycle
 * 0; the op with the most candidates keeps one per orbit of the array's
 * verified spatial symmetries (sym.c).
 * The windows come from the longest paths of the precedences, each edge
 * with its least route latency on the MRRG; the horizon H widens every
 * window by H cycles.  An
 * II refuted without the horizon's assumption holds for the whole encoded
 * window (slack H); one that needs the assumption is tried again with the
 * next slack, up to H.  Before that, a share of the conflicts (the probe)
 * solves the whole window at once: a mapping with room to wait is found
 * far sooner than each smaller slack is refuted.  A wider window
 * (wide_horizon) may come first: its own model, solved at once with a
 * share of conflicts more.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "exact_internal.h"
#include "sat_internal.h"
#include "../search/heur_internal.h"

/* The register count's sequential counter is left out above this many
 * variables (its size is the values' lifetimes times the delay nodes:
 * tens of thousands on the 4x4, millions on the 8x8 at large IIs). */
#define CG__SAT_MAX_COUNT_VARS 4000000L

typedef struct xvar {
    int p, t, var;
} xvar;

typedef struct rdom { /* value u on MRRG node n: cycles lo, lo+II, ... */
    int lo, cnt, base;
} rdom;

typedef struct cg__sat {
    const cg_mrrg *m;
    const cg_netlist *nl;
    const cg_dfg *g;
    const cg__sat_opts *o;
    int ii, n, ne, nn, H, s0;
    int *asap, *tail, *alap;
    xvar **x;
    int *nx;
    int *gbase;          /* G[v,t] = gbase[v] + t - asap[v] - 1 */
    int *slot;           /* DFG node -> value slot, -1 without uses */
    int nslots;
    rdom *rd;            /* nslots * nn */
    cg__sat_dfg D;       /* edges per op, FUNC candidates per op */
    int *hvar;           /* horizon assumptions, H of them */
    long lits;           /* routing literals (make_r) */
    int **xfirst;        /* per DFG node, per candidate: its first x */
    int *edelay;         /* per DFG edge: least route latency */
    int *lat;            /* per op: its units' largest latency */
    int kmax, have;      /* the register count's delay and delay nodes */
    bool complete;       /* the slack bound says H covers every mapping */
    bool parity_odd;     /* the parity bound refutes the II (parity.c) */
    cg__cnf *c;
    int *buf;
    int bufcap, nbuf;
    bool oom;
    char glpk_said[160]; /* GLPK's first line when it stopped on the
                            slack bound's LPs, else "" */
    cg__sat_opts kept;   /* o, once the model outlives cg__sat_solve */
    int k;               /* where search stopped at its work limit: the
                            slack it was solving (-1: not started) */
    bool probing;        /* ... in the probe (the whole window at once) */
    int after;           /* the slack to go on with once the probe's share
                            is spent (slacks below it are refuted) */
} sat;

/* ---- windows --------------------------------------------------------------- */

/* The precedences start(b) >= start(a) + w: DFG edges with their least
 * route latency, and the memory order.  *out malloc'd, 3 ints each. */
static int precedences(const sat *S, int **out)
{
    cg_mem_order *mo = NULL;
    int no = cg_map_mem_orders(S->g, &mo);
    if (no < 0)
        return -1;
    int *p = malloc(sizeof(int) * 3 * ((size_t)S->ne + (size_t)no + 1));
    if (!p) {
        free(mo);
        return -1;
    }
    int k = 0;
    for (int e = 0; e < S->ne; e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(S->g, e);
        p[3 * k] = ed->src;
        p[3 * k + 1] = ed->dst;
        p[3 * k++ + 2] = S->edelay[e] - ed->distance * S->ii;
    }
    for (int i = 0; i < no; i++) {
        p[3 * k] = mo[i].first;
        p[3 * k + 1] = mo[i].then;
        p[3 * k++ + 2] = mo[i].latency - mo[i].distance * S->ii;
    }
    free(mo);
    *out = p;
    return k;
}

/* asap and tail by Bellman-Ford over the precedences.  1 when they hold
 * a positive cycle (the II is below a recurrence), 0, -1 on no memory. */
static int windows(sat *S)
{
    int *p = NULL;
    int np = precedences(S, &p);
    if (np < 0)
        return -1;
    bool changed = true;
    for (int it = 0; it <= S->n + 1 && changed; it++) {
        changed = false;
        for (int i = 0; i < np; i++) {
            int a = p[3 * i], b = p[3 * i + 1], w = p[3 * i + 2];
            if (S->asap[a] + w > S->asap[b]) {
                S->asap[b] = S->asap[a] + w;
                changed = true;
            }
            if (w + S->tail[b] > S->tail[a]) {
                S->tail[a] = w + S->tail[b];
                changed = true;
            }
        }
    }
    free(p);
    if (changed)
        return 1;
    S->s0 = 0;
    for (int v = 0; v < S->n; v++)
        if (S->asap[v] + S->tail[v] > S->s0)
            S->s0 = S->asap[v] + S->tail[v];
    for (int v = 0; v < S->n; v++)
        S->alap[v] = S->s0 + S->H - S->tail[v];
    return 0;
}

/* What the register count needs: each op's largest unit latency, the
 * delay nodes and their largest delay.  0, or -1 on no memory. */
static int count_init(sat *S)
{
    S->have = cg__bound_delay_nodes(S->m, &S->kmax);
    int *emin = malloc(sizeof(int) * ((size_t)S->ne + 1));
    S->lat = malloc(sizeof(int) * ((size_t)S->n + 1));
    int rc = emin && S->lat &&
             cg__heur_min_delays(S->nl, S->m, S->g, emin, S->lat) == 0 ? 0
                                                                       : -1;
    free(emin);
    return rc;
}

/* The slack bound (bound.c): when no mapping's schedule is more than B
 * cycles longer than the shortest, a window of B covers every mapping;
 * the horizon shrinks to it when smaller, and a refutation within it is
 * complete.  0, or -1 on no memory or when GLPK stopped on the bound's
 * LPs (S->glpk_said). */
static int slack_bound(sat *S)
{
    int *p = NULL;
    int np = precedences(S, &p), B = 0;
    if (np < 0)
        return -1;
    int rc = cg__bound_slack(S->g, S->ii, p, np, S->asap, S->tail, S->s0,
                             S->lat, S->kmax, S->have, &B, S->glpk_said,
                             sizeof S->glpk_said);
    free(p);
    if (rc < 0)
        return -1; /* no memory, or GLPK stopped (glpk_said) */
    if (rc == 0 && B <= S->H) {
        S->complete = true;
        S->H = B;
        for (int v = 0; v < S->n; v++)
            S->alap[v] = S->s0 + S->H - S->tail[v];
    }
    return 0;
}

/* ---- placement variables ------------------------------------------------ */

static int make_x(sat *S)
{
    int **cand = S->D.cand, *ncand = S->D.ncand, rc = 0;
    S->xfirst = calloc((size_t)S->n + 1, sizeof *S->xfirst);
    if (!S->xfirst)
        return -1;
    for (int v = 0; rc == 0 && v < S->n; v++) {
        int span = S->alap[v] - S->asap[v] + 1;
        long cap = (long)ncand[v] * ((span + S->ii - 1) / S->ii) + 1;
        S->x[v] = malloc(sizeof(xvar) * (size_t)cap);
        S->xfirst[v] = malloc(sizeof(int) * ((size_t)ncand[v] + 1));
        if (!S->x[v] || !S->xfirst[v]) {
            rc = -1;
            break;
        }
        for (int i = 0; i <= ncand[v]; i++) {
            S->xfirst[v][i] = S->nx[v];
            if (i == ncand[v])
                break;
            int p = cand[v][i], ctx = cg_mrrg_get_node(S->m, p)->context;
            int t = S->asap[v] + cg__modii(ctx - S->asap[v], S->ii);
            for (; t <= S->alap[v]; t += S->ii)
                S->x[v][S->nx[v]++] = (xvar){p, t, cg__cnf_var(S->c)};
        }
    }
    return rc;
}

/* ---- route domains ------------------------------------------------------- */

/* May value u (of width w) be on ROUTE node i? */
static bool wide_enough(const sat *S, int i, int w)
{
    return cg__mrrg_node_width(S->m, S->nl, i) >= w;
}

/* Dijkstra from the heap's seeds over ROUTE nodes at least w bits wide:
 * forward through passable nodes (a pin ends a path), or backward into
 * passable nodes.  dist[i] = LONG_MAX when unreached. */
static void spread(const sat *S, cg__heap *h, bool fwd, int w, long *dist)
{
    while (h->n) {
        long d;
        int i = cg__heap_pop(h, &d);
        if (dist[i] != LONG_MAX)
            continue;
        dist[i] = d;
        if (fwd && !cg__sat_passable(S->m, i))
            continue;
        int ne;
        const int *es = fwd ? cg_mrrg_out(S->m, i, &ne)
                            : cg_mrrg_in(S->m, i, &ne);
        for (int j = 0; j < ne; j++) {
            const cg_mrrg_edge *e = cg_mrrg_get_edge(S->m, es[j]);
            int nb = fwd ? e->to : e->from;
            bool ok = fwd ? cg_mrrg_get_node(S->m, nb)->kind ==
                                CG_MRRG_ROUTE
                          : cg__sat_passable(S->m, nb);
            if (ok && dist[nb] == LONG_MAX && wide_enough(S, nb, w))
                cg__heap_push(h, d + e->delay, nb);
        }
    }
}

/* Earliest (ea) and negated latest (la) cycle value u may be on each
 * node: from its producer's placements, and back from the pins of its
 * consumers' placements. */
static void reach(const sat *S, int u, cg__heap *h, long *ea, long *la)
{
    int w = cg_dfg_get_node(S->g, u)->width;
    for (int i = 0; i < S->nn; i++)
        ea[i] = la[i] = LONG_MAX;
    h->n = 0;
    for (int i = 0; i < S->nx[u]; i++) {
        const xvar *x = &S->x[u][i];
        int ne;
        const int *es = cg_mrrg_out(S->m, x->p, &ne);
        for (int j = 0; j < ne; j++) {
            const cg_mrrg_edge *e = cg_mrrg_get_edge(S->m, es[j]);
            if (cg_mrrg_get_node(S->m, e->to)->kind == CG_MRRG_ROUTE &&
                wide_enough(S, e->to, w))
                cg__heap_push(h, (long)x->t + e->delay, e->to);
        }
    }
    spread(S, h, true, w, ea);
    h->n = 0;
    for (int j = S->D.out_off[u]; j < S->D.out_off[u + 1]; j++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(S->g, S->D.out_ids[j]);
        for (int i = 0; i < S->nx[ed->dst]; i++) {
            const xvar *x = &S->x[ed->dst][i];
            int pin = cg_mrrg_pin(S->m, x->p, ed->operand);
            if (pin >= 0 && wide_enough(S, pin, w))
                cg__heap_push(h, -((long)x->t + (long)ed->distance * S->ii),
                          pin);
        }
    }
    spread(S, h, false, w, la);
}

/* The least route latency of every DFG edge, from any candidate of its
 * producer to the operand's pin of any candidate of its consumer (-1:
 * none, so no mapping at this II).  0, or -1 on no memory. */
static int edge_delays(sat *S)
{
    size_t hn = (size_t)cg_mrrg_nedges(S->m) + (size_t)S->nn * 4 + 1;
    cg__heap h = {0, malloc(sizeof(long) * hn), malloc(sizeof(int) * hn)};
    long *dist = malloc(sizeof(long) * ((size_t)S->nn + 1));
    S->edelay = malloc(sizeof(int) * ((size_t)S->ne + 1));
    int rc = h.key && h.val && dist && S->edelay ? 0 : -1;
    for (int e = 0; rc == 0 && e < S->ne; e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(S->g, e);
        int u = ed->src, w = cg_dfg_get_node(S->g, u)->width;
        for (int i = 0; i < S->nn; i++)
            dist[i] = LONG_MAX;
        h.n = 0;
        for (int i = 0; i < S->D.ncand[u]; i++) {
            int ne;
            const int *es = cg_mrrg_out(S->m, S->D.cand[u][i], &ne);
            for (int j = 0; j < ne; j++) {
                const cg_mrrg_edge *me = cg_mrrg_get_edge(S->m, es[j]);
                if (cg_mrrg_get_node(S->m, me->to)->kind == CG_MRRG_ROUTE &&
                    wide_enough(S, me->to, w))
                    cg__heap_push(&h, me->delay, me->to);
            }
        }
        spread(S, &h, true, w, dist);
        long best = LONG_MAX;
        for (int i = 0; i < S->D.ncand[ed->dst]; i++) {
            int pin = cg_mrrg_pin(S->m, S->D.cand[ed->dst][i], ed->operand);
            if (pin >= 0 && dist[pin] < best)
                best = dist[pin];
        }
        S->edelay[e] = best == LONG_MAX ? -1 : (int)best;
    }
    free(h.key);
    free(h.val);
    free(dist);
    return rc;
}

/* The route domain of value slot s (op u) on every node; *lits grows by
 * its variables. */
static void domain(sat *S, int u, const long *ea, const long *la,
                   long *lits)
{
    rdom *rd = &S->rd[(size_t)S->slot[u] * (size_t)S->nn];
    for (int i = 0; i < S->nn; i++) {
        rd[i] = (rdom){0, 0, 0};
        if (ea[i] == LONG_MAX || la[i] == LONG_MAX || ea[i] > -la[i])
            continue;
        int ctx = cg_mrrg_get_node(S->m, i)->context;
        long lo = ea[i] + cg__modii(ctx - (long)ea[i], S->ii);
        long hi = -la[i];
        if (lo > hi)
            continue;
        rd[i].lo = (int)lo;
        rd[i].cnt = (int)((hi - lo) / S->ii + 1);
        *lits += rd[i].cnt;
    }
}

/* Variable of r[u,n,t], 0 when outside its domain. */
static int rvar(const sat *S, int u, int n, long t)
{
    if (S->slot[u] < 0)
        return 0;
    const rdom *d = &S->rd[(size_t)S->slot[u] * (size_t)S->nn + n];
    if (!d->cnt || t < d->lo || (t - d->lo) % S->ii)
        return 0;
    long s = (t - d->lo) / S->ii;
    return s < d->cnt ? d->base + (int)s : 0;
}

/* Domains of every value, then their variables (unless more than
 * max_literals: *too_big).  0, or -1 on no memory. */
static int make_r(sat *S, bool *too_big)
{
    cg__heap h = {0, malloc(sizeof(long) * ((size_t)cg_mrrg_nedges(S->m) +
                                        (size_t)S->nn * 4 + 1)),
              malloc(sizeof(int) * ((size_t)cg_mrrg_nedges(S->m) +
                                    (size_t)S->nn * 4 + 1))};
    long *ea = malloc(sizeof(long) * ((size_t)S->nn + 1));
    long *la = malloc(sizeof(long) * ((size_t)S->nn + 1));
    S->rd = calloc((size_t)S->nslots * (size_t)S->nn + 1, sizeof *S->rd);
    int rc = h.key && h.val && ea && la && S->rd ? 0 : -1;
    long lits = 0;
    for (int u = 0; rc == 0 && u < S->n; u++)
        if (S->slot[u] >= 0) {
            reach(S, u, &h, ea, la);
            domain(S, u, ea, la, &lits);
        }
    S->lits = lits;
    *too_big = S->o->max_literals > 0 && lits > S->o->max_literals;
    for (size_t i = 0; rc == 0 && !*too_big &&
                       i < (size_t)S->nslots * (size_t)S->nn; i++)
        if (S->rd[i].cnt) {
            S->rd[i].base = S->c ? cg__cnf_nvars(S->c) + 1 : 0;
            for (int k = 0; k < S->rd[i].cnt; k++)
                cg__cnf_var(S->c);
        }
    free(h.key);
    free(h.val);
    free(ea);
    free(la);
    return rc;
}

/* ---- clauses ------------------------------------------------------------ */

static void push(sat *S, int lit)
{
    if (S->nbuf == S->bufcap) {
        int cap = S->bufcap ? S->bufcap * 2 : 256;
        int *b = realloc(S->buf, sizeof(int) * (size_t)cap);
        if (!b) {
            S->oom = true;
            return;
        }
        S->buf = b;
        S->bufcap = cap;
    }
    S->buf[S->nbuf++] = lit;
}

static void emit(sat *S)
{
    if (!S->oom && cg__cnf_clause(S->c, S->buf, S->nbuf) < 0)
        S->oom = true;
    S->nbuf = 0;
}

static void amo(sat *S)
{
    if (!S->oom && cg__cnf_at_most_one(S->c, S->buf, S->nbuf) < 0)
        S->oom = true;
    S->nbuf = 0;
}

/* G[v,t]: 0 when t <= asap (always true) or t > alap (always false),
 * which callers treat apart. */
static int gvar(const sat *S, int v, int t)
{
    return S->gbase[v] + t - S->asap[v] - 1;
}

/* start(v) >= t as a literal: 0 = true, INT_MIN = false. */
static int ge(const sat *S, int v, long t)
{
    if (t <= S->asap[v])
        return 0;
    if (t > S->alap[v])
        return INT_MIN;
    return gvar(S, v, (int)t);
}

static void clauses_ops(sat *S)
{
    for (int v = 0; v < S->n; v++) {
        for (int i = 0; i < S->nx[v]; i++)
            push(S, S->x[v][i].var);
        emit(S); /* at least one (an empty clause when none fits) */
        for (int i = 0; i < S->nx[v]; i++)
            push(S, S->x[v][i].var);
        amo(S);
        for (int t = S->asap[v] + 2; t <= S->alap[v]; t++) {
            push(S, -gvar(S, v, t));
            push(S, gvar(S, v, t - 1));
            emit(S);
        }
        for (int i = 0; i < S->nx[v]; i++) {
            const xvar *x = &S->x[v][i];
            int lo = ge(S, v, x->t), hi = ge(S, v, x->t + 1);
            if (lo) {
                push(S, -x->var);
                push(S, lo);
                emit(S);
            }
            if (hi != INT_MIN) {
                push(S, -x->var);
                push(S, -hi);
                emit(S);
            }
        }
    }
}

/* At most one op per FUNC node and one (value, cycle) per ROUTE node. */
static int clauses_exclusive(sat *S)
{
    int *cnt = calloc((size_t)S->nn + 1, sizeof *cnt);
    int *off = calloc((size_t)S->nn + 2, sizeof *off);
    if (!cnt || !off) {
        free(cnt);
        free(off);
        return -1;
    }
    for (int v = 0; v < S->n; v++)
        for (int i = 0; i < S->nx[v]; i++)
            cnt[S->x[v][i].p]++;
    for (int s = 0; s < S->nslots; s++)
        for (int i = 0; i < S->nn; i++)
            cnt[i] += S->rd[(size_t)s * (size_t)S->nn + i].cnt;
    for (int i = 0; i < S->nn; i++)
        off[i + 1] = off[i] + cnt[i];
    int *lits = malloc(sizeof(int) * ((size_t)off[S->nn] + 1));
    if (!lits) {
        free(cnt);
        free(off);
        return -1;
    }
    memset(cnt, 0, sizeof(int) * (size_t)S->nn);
    for (int v = 0; v < S->n; v++)
        for (int i = 0; i < S->nx[v]; i++) {
            int p = S->x[v][i].p;
            lits[off[p] + cnt[p]++] = S->x[v][i].var;
        }
    for (int s = 0; s < S->nslots; s++)
        for (int i = 0; i < S->nn; i++) {
            const rdom *d = &S->rd[(size_t)s * (size_t)S->nn + i];
            for (int k = 0; k < d->cnt; k++)
                lits[off[i] + cnt[i]++] = d->base + k;
        }
    for (int i = 0; i < S->nn && !S->oom; i++)
        if (cg__cnf_at_most_one(S->c, lits + off[i], cnt[i]) < 0)
            S->oom = true;
    free(lits);
    free(cnt);
    free(off);
    return 0;
}

/* The x variable of op v on FUNC node p at cycle t, 0 when none: v's
 * candidates are in increasing order, each with its cycles in a row. */
static int xvar_of(const sat *S, int v, int p, long t)
{
    int lo = 0, hi = S->D.ncand[v] - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (S->D.cand[v][mid] < p) {
            lo = mid + 1;
        } else if (S->D.cand[v][mid] > p) {
            hi = mid - 1;
        } else {
            int i = S->xfirst[v][mid];
            if (i >= S->xfirst[v][mid + 1] || t < S->x[v][i].t ||
                (t - S->x[v][i].t) % S->ii)
                return 0;
            i += (int)((t - S->x[v][i].t) / S->ii);
            return i < S->xfirst[v][mid + 1] ? S->x[v][i].var : 0;
        }
    }
    return 0;
}

/* The supporters of r[u,n,t] pushed into the buffer. */
static void supporters(sat *S, int u, int n, long t)
{
    int ne;
    const int *es = cg_mrrg_in(S->m, n, &ne);
    for (int j = 0; j < ne; j++) {
        const cg_mrrg_edge *e = cg_mrrg_get_edge(S->m, es[j]);
        int lit = 0;
        if (cg_mrrg_get_node(S->m, e->from)->kind == CG_MRRG_FUNC)
            lit = xvar_of(S, u, e->from, t - e->delay);
        else if (cg__sat_passable(S->m, e->from))
            lit = rvar(S, u, e->from, t - e->delay);
        if (lit)
            push(S, lit);
    }
}

static void clauses_support(sat *S)
{
    for (int u = 0; u < S->n; u++) {
        if (S->slot[u] < 0)
            continue;
        const rdom *rd = &S->rd[(size_t)S->slot[u] * (size_t)S->nn];
        for (int i = 0; i < S->nn; i++)
            for (int k = 0; k < rd[i].cnt; k++) {
                push(S, -(rd[i].base + k));
                supporters(S, u, i, rd[i].lo + (long)k * S->ii);
                emit(S);
            }
    }
}

/* The nodes a value on r[u,n,t] may go on to, pushed into the buffer:
 * its successors holding u, or, on a pin, a consumer of u placed there
 * at the cycle it reads the pin.  A route tree needs no other node, so
 * requiring one loses no mapping and keeps values off nodes they do not
 * need (stray values prove nothing). */
static void successors(sat *S, int u, int n, long t)
{
    if (!cg__sat_passable(S->m, n)) {
        const cg_mrrg_node *pin = cg_mrrg_get_node(S->m, n);
        for (int j = S->D.out_off[u]; j < S->D.out_off[u + 1]; j++) {
            const cg_dfg_edge *ed = cg_dfg_get_edge(S->g, S->D.out_ids[j]);
            int x = ed->operand == pin->operand
                        ? xvar_of(S, ed->dst, pin->func,
                                  t - (long)ed->distance * S->ii)
                        : 0;
            if (x)
                push(S, x);
        }
        return;
    }
    int ne;
    const int *es = cg_mrrg_out(S->m, n, &ne);
    for (int j = 0; j < ne; j++) {
        const cg_mrrg_edge *e = cg_mrrg_get_edge(S->m, es[j]);
        int r = rvar(S, u, e->to, t + e->delay);
        if (r)
            push(S, r);
    }
}

/* Forward: a producer's value leaves its FUNC node, and a value on a
 * node goes on (successors()). */
static void clauses_forward(sat *S)
{
    for (int u = 0; u < S->n; u++) {
        if (S->slot[u] < 0)
            continue;
        for (int i = 0; i < S->nx[u]; i++) {
            const xvar *x = &S->x[u][i];
            int ne;
            const int *es = cg_mrrg_out(S->m, x->p, &ne);
            push(S, -x->var);
            for (int j = 0; j < ne; j++) {
                const cg_mrrg_edge *e = cg_mrrg_get_edge(S->m, es[j]);
                int r = rvar(S, u, e->to, x->t + e->delay);
                if (r)
                    push(S, r);
            }
            emit(S);
        }
        const rdom *rd = &S->rd[(size_t)S->slot[u] * (size_t)S->nn];
        for (int i = 0; i < S->nn; i++)
            for (int k = 0; k < rd[i].cnt; k++) {
                push(S, -(rd[i].base + k));
                successors(S, u, i, rd[i].lo + (long)k * S->ii);
                emit(S);
            }
    }
}

/* x[w,q,t] needs each operand's value on its pin at t + d*II. */
static void clauses_sinks(sat *S)
{
    for (int w = 0; w < S->n; w++)
        for (int i = 0; i < S->nx[w]; i++)
            for (int j = S->D.in_off[w]; j < S->D.in_off[w + 1]; j++) {
                const cg_dfg_edge *ed = cg_dfg_get_edge(S->g, S->D.in_ids[j]);
                const xvar *x = &S->x[w][i];
                int pin = cg_mrrg_pin(S->m, x->p, ed->operand);
                push(S, -x->var);
                int r = rvar(S, ed->src, pin,
                             x->t + (long)ed->distance * S->ii);
                if (r)
                    push(S, r);
                emit(S);
            }
}

/* start(b) >= start(a) + w for every precedence. */
static int clauses_order(sat *S)
{
    int *p = NULL;
    int np = precedences(S, &p);
    if (np < 0)
        return -1;
    for (int i = 0; i < np; i++) {
        int a = p[3 * i], b = p[3 * i + 1], w = p[3 * i + 2];
        for (int t = S->asap[a] + 1; t <= S->alap[a]; t++) {
            int need = ge(S, b, (long)t + w);
            if (need == 0)
                continue;
            push(S, -gvar(S, a, t));
            if (need != INT_MIN)
                push(S, need);
            emit(S);
        }
    }
    free(p);
    return 0;
}

/* ---- the register count ------------------------------------------------ */

/* m_u >= k for value u, k = 1..K: implied by any schedule whose edge from
 * u needs k delay nodes.  lits: where the literals go. */
static void lifetime_vars(sat *S, int u, int K, const int *lat, int kmax,
                          int *lits)
{
    for (int k = 0; k < K; k++)
        lits[k] = cg__cnf_var(S->c);
    for (int k = 1; k < K; k++) { /* m_u >= k + 1 -> m_u >= k */
        push(S, -lits[k]);
        push(S, lits[k - 1]);
        emit(S);
    }
    for (int j = S->D.out_off[u]; j < S->D.out_off[u + 1]; j++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(S->g, S->D.out_ids[j]);
        int w = ed->dst;
        for (int k = 1; k <= K; k++) {
            /* k delay nodes when start(w) - start(u) >= c */
            long c = (long)(k - 1) * kmax + 1 + lat[u] -
                     (long)ed->distance * S->ii;
            if (w == u) {
                if (c <= 0) {
                    push(S, lits[k - 1]);
                    emit(S);
                }
                continue;
            }
            for (int t = S->asap[u]; t <= S->alap[u]; t++) {
                int lw = ge(S, w, t + c), lu = ge(S, u, t + 1);
                if (lw == INT_MIN)
                    continue; /* w never starts that late */
                if (lu != INT_MIN)
                    push(S, lu); /* start(u) <= t ... */
                if (lw)
                    push(S, -lw); /* ... and start(w) >= t + c */
                push(S, lits[k - 1]);
                emit(S);
            }
        }
    }
}

/* bound.c's register bound inside the model: the route tree of value u
 * holds at least m_u = max over its edges of ceil((start(w) + d*II -
 * start(u) - lat(u)) / kmax) delay nodes, trees share none, so the m_u
 * sum to at most the MRRG's delay nodes.  The routing clauses imply it,
 * but as a pigeonhole: where the schedules that fit leave a register or
 * two to spare (sobel at II 2 on the 4x4 needs 31 of 32), the solver
 * would refute them one by one.  Unary m_u and a sequential counter;
 * left out when the counter would pass max_count_vars.  0, or -1 on no
 * memory. */
static int clauses_registers(sat *S, long max_count_vars)
{
    int kmax = S->kmax, have = S->have;
    const int *lat = S->lat;
    int *K = calloc((size_t)S->n + 1, sizeof(int));
    int rc = K ? 0 : -1;
    long total = 0;
    for (int u = 0; rc == 0 && u < S->n; u++) {
        for (int j = S->D.out_off[u]; j < S->D.out_off[u + 1]; j++) {
            const cg_dfg_edge *ed = cg_dfg_get_edge(S->g, S->D.out_ids[j]);
            long need = (ed->dst == u ? 0 : (long)S->alap[ed->dst] -
                                                S->asap[u]) +
                        (long)ed->distance * S->ii - lat[u];
            long k = need > 0 ? (need + kmax - 1) / kmax : 0;
            if (k > have + 1)
                k = have + 1;
            if (k > K[u])
                K[u] = (int)k;
        }
        total += K[u];
    }
    int *lits = rc == 0 && total > have &&
                        (total - 1) * (long)have <= max_count_vars
                    ? malloc(sizeof(int) * ((size_t)total + 1))
                    : NULL;
    int n = 0;
    for (int u = 0; lits && u < S->n; u++)
        if (K[u] > 0) {
            lifetime_vars(S, u, K[u], lat, kmax, lits + n);
            n += K[u];
        }
    if (lits && cg__cnf_at_most_k(S->c, lits, n, have) < 0)
        rc = -1;
    free(lits);
    free(K);
    return rc;
}

/* The register count per context.  With kmax 1 every delay edge of a
 * route advances its time by one cycle and enters a delay node of that
 * cycle's context, so the value of u is in some delay node at every cycle
 * t with start(u) + lat(u) < t <= start(w) + d*II, for each of its edges,
 * at context t mod II; and a node holds one (value, cycle).  So the
 * cycles of the values' waits at context c number at most the delay
 * nodes of context c: o[u,t] (u waits at cycle t) is implied by
 * start(u) < t - lat(u) and start(w) >= t - d*II, and a sequential
 * counter per context bounds the o of its cycles.  The total count above
 * sums these; per context it also refutes the schedules that crowd the
 * waits into a few contexts, which the solver would otherwise find by
 * routing (sobel at II 2 on the 4x4: docs/mapper.md, "The SAT mapper").
 * Left out at II 1 (it is the total count, and a second encoding of it
 * slowed the search: simple2 on the 8x8 went from a mapping in 3,248
 * conflicts to none in 58,253), when kmax > 1 (a wait may skip a
 * context) or when the counters would pass max_count_vars.  0, or -1 on
 * no memory. */
static int clauses_context_registers(sat *S, long max_count_vars)
{
    int n = S->n, ii = S->ii;
    if (ii == 1 || S->kmax != 1)
        return 0;
    size_t n1 = (size_t)n + 1;
    int *have = malloc(sizeof(int) * (size_t)ii);
    int *lo = malloc(sizeof(int) * n1), *hi = malloc(sizeof(int) * n1);
    long *at = calloc((size_t)ii, sizeof(long));
    int rc = have && lo && hi && at ? 0 : -1;
    long total = 0, counter = 0;
    if (rc == 0) {
        cg__bound_context_delay_nodes(S->m, have);
        for (int u = 0; u < n; u++) { /* u may wait at cycles lo..hi */
            lo[u] = S->asap[u] + S->lat[u] + 1;
            hi[u] = lo[u] - 1;
            for (int j = S->D.out_off[u]; j < S->D.out_off[u + 1]; j++) {
                const cg_dfg_edge *ed = cg_dfg_get_edge(S->g,
                                                        S->D.out_ids[j]);
                int end = S->alap[ed->dst] + ed->distance * ii;
                if (end > hi[u])
                    hi[u] = end;
            }
            for (int t = lo[u]; t <= hi[u]; t++)
                at[cg__modii(t, ii)]++;
            total += hi[u] >= lo[u] ? hi[u] - lo[u] + 1 : 0;
        }
        for (int c = 0; c < ii; c++)
            counter += at[c] > have[c] ? (at[c] - 1) * have[c] : 0;
    }
    bool count = rc == 0 && counter > 0 && counter <= max_count_vars;
    int *base = count ? malloc(sizeof(int) * n1) : NULL;
    int *lits = count ? malloc(sizeof(int) * ((size_t)total + 1)) : NULL;
    if (count && (!base || !lits)) {
        free(lits);
        lits = NULL;
        rc = -1;
    }
    for (int u = 0; lits && u < n; u++) { /* o[u,t] = base[u] + t - lo[u] */
        base[u] = cg__cnf_nvars(S->c) + 1;
        for (int t = lo[u]; t <= hi[u]; t++)
            cg__cnf_var(S->c);
        for (int j = S->D.out_off[u]; j < S->D.out_off[u + 1]; j++) {
            const cg_dfg_edge *ed = cg_dfg_get_edge(S->g, S->D.out_ids[j]);
            int w = ed->dst, dii = ed->distance * ii;
            for (int t = lo[u]; t <= S->alap[w] + dii; t++) {
                int lu = ge(S, u, t - S->lat[u]), lw = ge(S, w, t - dii);
                if (lu == 0 || lw == INT_MIN)
                    continue; /* u starts too late or w too early */
                if (lu != INT_MIN)
                    push(S, lu);
                if (lw)
                    push(S, -lw);
                push(S, base[u] + t - lo[u]);
                emit(S);
            }
        }
    }
    for (int c = 0; lits && c < ii; c++) {
        int k = 0;
        for (int u = 0; u < n; u++)
            for (int t = lo[u] + cg__modii(c - lo[u], ii); t <= hi[u];
                 t += ii)
                lits[k++] = base[u] + t - lo[u];
        if (k > have[c] && cg__cnf_at_most_k(S->c, lits, k, have[c]) < 0)
            rc = -1;
    }
    free(lits);
    free(base);
    free(have);
    free(lo);
    free(hi);
    free(at);
    return rc;
}

/* Is a (increasing, na) a subset of b (increasing, nb)? */
static bool subset(const int *a, int na, const int *b, int nb)
{
    int j = 0;
    for (int i = 0; i < na; i++) {
        while (j < nb && b[j] < a[i])
            j++;
        if (j == nb || b[j] != a[i])
            return false;
    }
    return true;
}

/* The unit count per context: the ops whose units all lie within some
 * op's units P start at most |P| of them at each context (a FUNC node is
 * one unit at one context and holds one op).  The exclusivity clauses
 * imply it, but as a pigeonhole, which the solver would refute one
 * placement at a time.  z[v,c] (v starts at context c) is implied by each
 * of v's placements there; one sequential counter per distinct set of
 * units and context counts them.  Left out at II 1, where it is what the
 * resource bound (ResMII) already checks, and where it slowed the search
 * (sobel on the 8x8: II 1 refuted in 21,689 conflicts without it, not in
 * 29,749 with it).  0, or -1 on no memory. */
static int clauses_units(sat *S, long max_count_vars)
{
    int n = S->n, ii = S->ii, **U = S->D.units, *nU = S->D.nunits;
    if (ii == 1)
        return 0;
    int *z = malloc(sizeof(int) * ((size_t)n * ii + 1));
    int *lits = malloc(sizeof(int) * ((size_t)n + 1));
    int *ops = malloc(sizeof(int) * ((size_t)n + 1));
    int rc = z && lits && ops ? 0 : -1;
    for (int v = 0; rc == 0 && v < n; v++) { /* z[v,c] = z[v * ii + c] */
        for (int c = 0; c < ii; c++)
            z[v * ii + c] = 0;
        for (int i = 0; i < S->nx[v]; i++) {
            int *zc = &z[v * ii + cg__modii(S->x[v][i].t, ii)];
            if (!*zc)
                *zc = cg__cnf_var(S->c);
            push(S, -S->x[v][i].var);
            push(S, *zc);
            emit(S);
        }
    }
    long vars = 0;
    for (int a = 0; rc == 0 && a < n; a++) {
        bool seen = false;
        for (int b = 0; b < a && !seen; b++)
            seen = nU[b] == nU[a] && subset(U[a], nU[a], U[b], nU[b]);
        if (seen || nU[a] == 0)
            continue;
        int m = 0; /* the ops within a's units, in ops[0..m-1] */
        for (int v = 0; v < n; v++)
            if (subset(U[v], nU[v], U[a], nU[a]))
                ops[m++] = v;
        for (int c = 0; rc == 0 && c < ii; c++) {
            int k = 0;
            for (int i = 0; i < m; i++)
                if (z[ops[i] * ii + c])
                    lits[k++] = z[ops[i] * ii + c];
            if (k <= nU[a])
                continue;
            vars += (long)(k - 1) * nU[a];
            if (vars <= max_count_vars &&
                cg__cnf_at_most_k(S->c, lits, k, nU[a]) < 0)
                rc = -1;
        }
    }
    free(z);
    free(lits);
    free(ops);
    return rc;
}

/* Some op without predecessors starts at cycle 0 (time-shift symmetry),
 * and the horizon assumptions: h_k -> start(v) <= s0 + k - tail(v). */
static void clauses_time(sat *S)
{
    bool anchored = false;
    for (int v = 0; v < S->n && !anchored; v++)
        anchored = S->asap[v] == 0 && S->alap[v] == 0;
    if (!anchored) {
        for (int v = 0; v < S->n; v++)
            if (S->asap[v] == 0)
                push(S, -gvar(S, v, 1));
        emit(S);
    }
    for (int k = 0; k < S->H; k++) {
        S->hvar[k] = cg__cnf_var(S->c);
        for (int v = 0; v < S->n; v++) {
            int t = S->s0 + k - S->tail[v] + 1;
            if (t <= S->alap[v]) {
                push(S, -S->hvar[k]);
                push(S, -gvar(S, v, t));
                emit(S);
            }
        }
    }
}

/* ---- the answer ----------------------------------------------------------- */

/* A solution's placements; its routes follow. */
static void read_places(sat *S, cg_mapping *map)
{
    for (int v = 0; v < S->n; v++)
        for (int i = 0; i < S->nx[v]; i++)
            if (cg__cnf_value(S->c, S->x[v][i].var)) {
                map->place[v] = S->x[v][i].p;
                map->start[v] = S->x[v][i].t;
                break;
            }
}

typedef struct tree {
    int *par;     /* per variable: the variable it was reached from, -1
                     from the producer, INT_MIN unreached */
    int *node;    /* per reached variable: its MRRG node */
    int *queue;   /* of variables */
} tree;

/* The cycle of route variable r of value u on node n. */
static long rtime(const sat *S, int u, int n, int r)
{
    const rdom *d = &S->rd[(size_t)S->slot[u] * (size_t)S->nn + n];
    return d->lo + (long)(r - d->base) * S->ii;
}

static void reached(sat *S, tree *T, int *qn, int r, int from, int node)
{
    if (r && T->par[r] == INT_MIN && cg__cnf_value(S->c, r)) {
        T->par[r] = from;
        T->node[r] = node;
        T->queue[(*qn)++] = r;
    }
}

/* Reach, forward from u's placement, the nodes holding u's value: each
 * reached one remembers the one it was reached from, so the routes of
 * all uses form one tree (one in-edge per node, as the checker wants). */
static void grow(sat *S, const cg_mapping *map, int u, tree *T)
{
    int head = 0, qn = 0, n;
    long t0 = map->start[u];
    const int *es = cg_mrrg_out(S->m, map->place[u], &n);
    for (int j = 0; j < n; j++) {
        const cg_mrrg_edge *e = cg_mrrg_get_edge(S->m, es[j]);
        reached(S, T, &qn, rvar(S, u, e->to, t0 + e->delay), -1, e->to);
    }
    while (head < qn) {
        int r = T->queue[head++], at = T->node[r];
        if (!cg__sat_passable(S->m, at))
            continue;
        long t = rtime(S, u, at, r);
        es = cg_mrrg_out(S->m, at, &n);
        for (int j = 0; j < n; j++) {
            const cg_mrrg_edge *e = cg_mrrg_get_edge(S->m, es[j]);
            reached(S, T, &qn, rvar(S, u, e->to, t + e->delay), r, e->to);
        }
    }
}

/* The route of edge e from the tree, whose pin variable is r: back from
 * the pin to the producer.  0, or -1 on no memory. */
static int route_of(const tree *T, cg_mapping *map, int e, int r)
{
    int len = 0;
    for (int q = r; q != -1; q = T->par[q])
        len++;
    int *path = malloc(sizeof(int) * (size_t)len);
    if (!path)
        return -1;
    int i = len;
    for (int q = r; q != -1; q = T->par[q])
        path[--i] = T->node[q];
    map->route[e] = path;
    map->route_len[e] = len;
    return 0;
}

/* Value u's true but unreached variables hold each other up around a
 * zero-delay cycle: add their loop clause (not all of them without a
 * support from outside the set). */
static void loop_clause(sat *S, int u, const tree *T)
{
    const rdom *rd = &S->rd[(size_t)S->slot[u] * (size_t)S->nn];
    int mark = S->nbuf;
    for (int i = 0; i < S->nn; i++)
        for (int k = 0; k < rd[i].cnt; k++) {
            int r = rd[i].base + k;
            if (T->par[r] == INT_MIN && cg__cnf_value(S->c, r))
                push(S, -r);
        }
    int nset = S->nbuf - mark;
    for (int j = mark; j < mark + nset; j++) {
        int r = -S->buf[j], at = -1;
        for (int i = 0; i < S->nn && at < 0; i++)
            if (rd[i].cnt && r >= rd[i].base && r < rd[i].base + rd[i].cnt)
                at = i;
        int from = S->nbuf;
        supporters(S, u, at, rd[at].lo + (long)(r - rd[at].base) * S->ii);
        for (int q = from; q < S->nbuf; q++) /* drop those in the set */
            for (int j2 = mark; j2 < mark + nset; j2++)
                if (S->buf[q] == -S->buf[j2]) {
                    S->buf[q--] = S->buf[--S->nbuf];
                    break;
                }
    }
    emit(S);
}

/* The mapping of the solution, or NULL with *cut set when some value's
 * sink was not reached (loop clauses added: solve again) or on no memory
 * (S->oom). */
static cg_mapping *extract(sat *S, bool *cut)
{
    *cut = false;
    cg_mapping *map = cg_mapping_create(S->ii, S->n, S->ne);
    int nv = cg__cnf_nvars(S->c);
    tree T = {malloc(sizeof(int) * ((size_t)nv + 1)),
              malloc(sizeof(int) * ((size_t)nv + 1)),
              malloc(sizeof(int) * ((size_t)nv + 1))};
    if (!map || !T.par || !T.node || !T.queue) {
        S->oom = true;
        goto done;
    }
    for (int i = 0; i <= nv; i++)
        T.par[i] = INT_MIN;
    read_places(S, map);
    for (int u = 0; u < S->n && !S->oom; u++) {
        if (S->slot[u] < 0)
            continue;
        grow(S, map, u, &T);
        bool lost = false;
        for (int j = S->D.out_off[u]; j < S->D.out_off[u + 1]; j++) {
            const cg_dfg_edge *ed = cg_dfg_get_edge(S->g, S->D.out_ids[j]);
            int pin = cg_mrrg_pin(S->m, map->place[ed->dst], ed->operand);
            int r = rvar(S, u, pin, map->start[ed->dst] +
                                        (long)ed->distance * S->ii);
            if (T.par[r] == INT_MIN)
                lost = true;
            else if (route_of(&T, map, S->D.out_ids[j], r) < 0)
                S->oom = true;
        }
        if (lost) {
            loop_clause(S, u, &T);
            *cut = true;
        }
    }
done:
    free(T.par);
    free(T.node);
    free(T.queue);
    if (*cut || S->oom) {
        cg_mapping_destroy(map);
        return NULL;
    }
    return map;
}

/* ---- one II --------------------------------------------------------------- */

static void sat_free(sat *S)
{
    for (int v = 0; S->x && v < S->n; v++)
        free(S->x[v]);
    free(S->x);
    free(S->nx);
    free(S->asap);
    free(S->tail);
    free(S->alap);
    free(S->gbase);
    free(S->slot);
    free(S->rd);
    free(S->hvar);
    free(S->buf);
    cg__sat_dfg_free(&S->D);
    for (int v = 0; S->xfirst && v < S->n; v++)
        free(S->xfirst[v]);
    free(S->xfirst);
    free(S->edelay);
    free(S->lat);
    cg__cnf_destroy(S->c);
}

static int sat_init(sat *S, const cg_mrrg *m, const cg_netlist *nl,
                    const cg_dfg *g, const cg__sat_opts *o)
{
    memset(S, 0, sizeof *S);
    S->m = m;
    S->nl = nl;
    S->g = g;
    S->o = o;
    S->ii = cg_mrrg_ii(m);
    S->n = cg_dfg_nnodes(g);
    S->ne = cg_dfg_nedges(g);
    S->nn = cg_mrrg_nnodes(m);
    S->H = o->horizon;
    S->k = -1;
    size_t n1 = (size_t)S->n + 1;
    S->x = calloc(n1, sizeof *S->x);
    S->nx = calloc(n1, sizeof *S->nx);
    S->asap = calloc(n1, sizeof *S->asap);
    S->tail = calloc(n1, sizeof *S->tail);
    S->alap = calloc(n1, sizeof *S->alap);
    S->gbase = calloc(n1, sizeof *S->gbase);
    S->slot = calloc(n1, sizeof *S->slot);
    S->hvar = calloc((size_t)S->H + 1, sizeof *S->hvar);
    S->c = cg__cnf_create();
    if (!S->x || !S->nx || !S->asap || !S->tail || !S->alap || !S->gbase ||
        !S->slot || !S->hvar || !S->c)
        return -1;
    if (cg__sat_dfg_init(&S->D, m, nl, g, true) < 0)
        return -1;
    for (int v = 0; v < S->n; v++)
        S->slot[v] = S->D.out_off[v + 1] > S->D.out_off[v] ? S->nslots++ : -1;
    return 0;
}

/* The parity bound's relations (parity.c): an op of a class starts at a
 * time whose parity, less phi of its FUNC node, is its class's z plus
 * the op's offset.  Every mapping keeps them (they follow from the
 * routes), but CDCL learns a parity slowly.  0, or -1 on no memory. */
static int clauses_parity(sat *S)
{
    if (S->o->no_parity)
        return 0;
    int rc;
    cg__parity *P = cg__parity_create(S->nl, S->m, S->g, &rc);
    if (!P)
        return rc;
    S->parity_odd = cg__parity_odd(P);
    int *z = calloc((size_t)S->n + 1, sizeof(int));
    rc = z ? 0 : -1;
    for (int v = 0; rc == 0 && v < S->n; v++) {
        int rel, c = cg__parity_class(P, v, &rel);
        if (c < 0)
            continue;
        if (!z[c] && !(z[c] = cg__cnf_var(S->c)))
            rc = -1; /* no memory */
        for (int k = 0; rc == 0 && k < S->nx[v]; k++) {
            const xvar *x = &S->x[v][k];
            int q = (x->t - cg__parity_phi(P, v, x->p) - rel) & 1;
            push(S, -x->var);
            push(S, q ? z[c] : -z[c]);
            emit(S);
        }
    }
    free(z);
    cg__parity_destroy(P);
    return rc;
}

/* Variables G, then every clause.  0, or -1 on no memory. */
static int encode(sat *S)
{
    for (int v = 0; v < S->n; v++) {
        S->gbase[v] = cg__cnf_nvars(S->c) + 1;
        for (int t = S->asap[v] + 1; t <= S->alap[v]; t++)
            cg__cnf_var(S->c);
    }
    clauses_ops(S);
    if (clauses_exclusive(S) < 0)
        return -1;
    clauses_support(S);
    clauses_forward(S);
    clauses_sinks(S);
    if (clauses_order(S) < 0)
        return -1;
    if (clauses_registers(S, CG__SAT_MAX_COUNT_VARS) < 0 ||
        clauses_context_registers(S, CG__SAT_MAX_COUNT_VARS) < 0 ||
        clauses_units(S, CG__SAT_MAX_COUNT_VARS) < 0)
        return -1;
    clauses_time(S);
    if (clauses_parity(S) < 0)
        return -1;
    return S->oom ? -1 : 0;
}

static int dump(const sat *S, cg_diags *d)
{
    FILE *f = fopen(S->o->dump_cnf, "w");
    if (!f || cg__cnf_write_dimacs(S->c, f) < 0 || fclose(f) != 0) {
        if (f)
            fclose(f);
        cg_diags_add(d, CG_SEV_ERROR, S->o->dump_cnf, 0, "cannot write the "
                     "SAT model of '%s' at II=%d", cg_dfg_name(S->g), S->ii);
        return -1;
    }
    return 0;
}

/* One solve at slack k (H: the whole window, no assumption) within lim
 * conflicts (0 = none), again while a solution needs loop clauses. */
static cg__sat_answer solve_at(sat *S, int k, long lim, double deadline,
                               cg__sat_out *out, bool *capped)
{
    int a = k < S->H ? S->hvar[k] : 0;
    for (;;) {
        long used;
        cg__sat_answer r = cg__cnf_solve(S->c, &a, a ? 1 : 0, lim, deadline,
                                         &used, capped);
        out->conflicts += used;
        if (r != CG__SAT_SAT)
            return r;
        bool cut;
        out->mapping = extract(S, &cut);
        if (!cut)
            return r;
        out->loop_rounds++; /* the same slack again, with the loop clauses */
        if (lim > 0 && (lim -= used) <= 0)
            return CG__SAT_UNKNOWN;
    }
}

/* First, with the probe's share, the whole window at once; then slack 0,
 * 1, ... H (an assumption each but the last) until a solution, a
 * refutation that needs no assumption, or the limits: the conflicts, or
 * big_conflicts for a model of more than big_literals routing literals.
 * A search its work limit stopped goes on from there when called again
 * (cg__sat_continue): the slack it was at, or the probe and then that
 * slack, with the solver's learnt clauses. */
static void search(sat *S, cg__sat_out *out, double deadline)
{
    const cg__sat_opts *o = S->o;
    bool big = o->big && S->lits > o->big_literals;
    long left = big ? o->big_conflicts : o->conflicts; /* 0 = no limit */
    bool limited = left > 0;
    bool probe = S->k < 0 ? o->probe > 0 && S->H > 0 : S->probing;
    int k = S->k < 0 ? (probe ? S->H : 0) : S->k;
    out->outcome = CG_II_TIMEOUT;
    out->refuted = (probe ? S->after : k) - 1;
    for (; k <= S->H && !S->oom; k++) {
        S->k = k;
        S->probing = probe;
        if (limited && left <= 0)
            return; /* the work limit: undecided */
        long lim = !limited ? 0
                   : probe ? (long)ceil(left * o->probe) : left;
        long before = out->conflicts;
        bool capped;
        cg__sat_answer r = solve_at(S, k, lim, deadline, out, &capped);
        left -= out->conflicts - before;
        if (r == CG__SAT_UNKNOWN && probe && !capped && o->probe < 1) {
            probe = false; /* the probe's share is spent: slack by slack */
            k = S->after - 1;
            continue;
        }
        if (r == CG__SAT_UNKNOWN) {
            out->capped = capped;
            return;
        }
        if (r == CG__SAT_SAT) {
            out->outcome = out->mapping ? CG_II_MAPPED : CG_II_TIMEOUT;
            return;
        }
        int a = k < S->H ? S->hvar[k] : 0;
        if (!a || !cg__cnf_failed(S->c, a)) {
            out->outcome = CG_II_INFEASIBLE;
            out->horizon = S->complete ? -1 : S->H;
            return;
        }
        out->refuted = k; /* none within slack k: the next one */
    }
}

/* S built at o's horizon (shrunk to the slack bound): 0; 1 when the II
 * is decided without a formula or the model is too large (out says
 * which); -1 on no memory or when GLPK stopped (slack_bound). */
static int build(sat *S, const cg_mrrg *m, const cg_netlist *nl,
                 const cg_dfg *g, const cg__sat_opts *o, cg__sat_out *out)
{
    int rc = sat_init(S, m, nl, g, o);
    if (rc == 0)
        rc = edge_delays(S);
    if (rc == 0)
        rc = count_init(S);
    bool unroutable = false;
    for (int e = 0; rc == 0 && e < S->ne; e++)
        unroutable |= S->edelay[e] < 0;
    int w = rc < 0 ? -1 : unroutable ? 1 : windows(S);
    if (w == 1) { /* an edge without a route, or a recurrence longer than
                     II: no slack helps */
        out->outcome = CG_II_INFEASIBLE;
        out->horizon = -1;
        return 1;
    }
    bool too_big = false;
    if (w < 0 || slack_bound(S) < 0 || make_x(S) < 0 ||
        make_r(S, &too_big) < 0)
        return -1;
    out->literals = S->lits;
    if (too_big) {
        out->too_big = true;
        return 1;
    }
    if (encode(S) < 0)
        return -1;
    out->vars = cg__cnf_nvars(S->c);
    out->clauses = cg__cnf_nclauses(S->c);
    if (S->parity_odd) { /* for every schedule, as the bound says (the
                            search runs it first; --mapper sat does not) */
        out->outcome = CG_II_INFEASIBLE;
        out->horizon = -1;
        return 1;
    }
    return 0;
}

static void out_init(cg__sat_out *out)
{
    memset(out, 0, sizeof *out);
    out->outcome = CG_II_TIMEOUT;
    out->refuted = -1;
}

/* The wider window's options: o->wide_horizon solved at once (the probe
 * alone) with o->wide of o's conflicts, to find a mapping: without the
 * parity clauses, which slowed such a search (simple2 on default_8x8 at
 * II 1). */
static cg__sat_opts wide_opts(const cg__sat_opts *o)
{
    cg__sat_opts w = *o;
    w.horizon = o->wide_horizon;
    w.wide = 0;
    w.probe = 1;
    w.no_parity = true;
    w.conflicts = o->conflicts > 0 ? (long)ceil(o->conflicts * o->wide) : 0;
    w.big_conflicts = o->big_conflicts > 0
                      ? (long)ceil(o->big_conflicts * o->wide) : 0;
    return w;
}

static void oom_error(const cg__sat *S, cg__sat_out *out, cg_diags *d)
{
    cg_mapping_destroy(out->mapping);
    out->mapping = NULL;
    if (S->glpk_said[0])
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(S->g), 0, "GLPK stopped "
                     "on the slack bound's LPs of '%s' at II=%d (the SAT "
                     "model's window): %s", cg_dfg_name(S->g), S->ii,
                     S->glpk_said);
    else
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(S->g), 0, "out of memory "
                     "in the SAT model of '%s' at II=%d", cg_dfg_name(S->g),
                     S->ii);
}

/* S (searched with rest) handed to the caller, who continues or destroys
 * it; false on no memory (S then still the caller's to free). */
static bool hand_over(sat *S, const cg__sat_opts *rest, cg__sat **keep)
{
    *keep = malloc(sizeof **keep);
    if (!*keep)
        return false;
    **keep = *S;
    (*keep)->kept = *rest;
    (*keep)->kept.dump_cnf = NULL; /* the caller's name, freed by now */
    (*keep)->o = &(*keep)->kept;
    return true;
}

int cg__sat_solve(const cg_mrrg *m, const cg_netlist *nl, const cg_dfg *g,
                  const cg__sat_opts *o, cg__sat_out *out, cg__sat **keep,
                  cg_diags *d)
{
    if (keep)
        *keep = NULL;
    double deadline = o->timeout_s > 0 ? cg_clock_now() + o->timeout_s : 0;
    out_init(out);
    /* The wider window's model first: where the slack bound leaves it no
     * wider than o->horizon, it is the model o->horizon makes and serves
     * for both; otherwise it is solved at once with o->wide of the
     * conflicts more, and o->horizon's model follows where that decided
     * nothing, without its own probe (a window inside the one just
     * solved at once). */
    bool wide = o->wide > 0 && o->wide_horizon > o->horizon && !o->dump_cnf;
    cg__sat_opts w = wide_opts(o), rest = *o;
    sat S;
    int rc = build(&S, m, nl, g, wide ? &w : o, out);
    if (rc == 1 && wide && out->too_big) { /* o->horizon's may fit */
        out->too_big = false;
        rc = 2;
    } else if (rc == 0 && wide && S.H > o->horizon) {
        S.o = &w;
        rest.probe = 0; /* the wider window was solved at once already */
        search(&S, out, deadline);
        rc = S.oom ? -1
             : out->outcome != CG_II_TIMEOUT || out->capped ? 1 : 2;
    }
    if (rc == 2) { /* o->horizon's model, with all of o->conflicts */
        sat_free(&S);
        rc = build(&S, m, nl, g, o, out);
    }
    if (rc == 0) {
        S.o = &rest;
        if (o->dump_cnf && dump(&S, d) < 0) {
            sat_free(&S);
            return -1;
        }
        search(&S, out, deadline);
        rc = S.oom ? -1 : 0;
    }
    /* the work limit stopped it: the caller may go on from there */
    if (rc == 0 && keep && out->outcome == CG_II_TIMEOUT && !out->capped &&
        hand_over(&S, &rest, keep))
        return 0;
    if (rc < 0)
        oom_error(&S, out, d);
    sat_free(&S);
    return rc < 0 ? -1 : 0;
}

int cg__sat_continue(cg__sat *S, const cg__sat_opts *o, cg__sat_out *out,
                     cg_diags *d)
{
    double deadline = o->timeout_s > 0 ? cg_clock_now() + o->timeout_s : 0;
    out_init(out);
    /* As cg__sat_solve would go on: the wider window's own model first,
     * only where the slack bound leaves it wider than S's (not
     * complete), and then S without a probe (a window inside the one
     * just solved at once); else S's whole window at once with o's
     * probe share, and then the slack S stopped at. */
    bool wide = o->wide > 0 && o->wide_horizon > S->H && !S->complete &&
                !o->dump_cnf;
    if (wide) {
        cg__sat_opts w = wide_opts(o);
        if (cg__sat_solve(S->m, S->nl, S->g, &w, out, NULL, d) < 0)
            return -1;
        if (out->outcome != CG_II_TIMEOUT || out->capped)
            return 0;
        out->too_big = false; /* S's model is built already */
    }
    S->kept = *o;
    S->o = &S->kept;
    bool probe = !wide && o->probe > 0 && S->H > 0;
    if (probe && !S->probing) { /* the whole window, then S->k */
        S->after = S->k;
        S->k = S->H;
        S->probing = true;
    } else if (!probe && S->probing) { /* no share left for a probe */
        S->k = S->after;
        S->probing = false;
    }
    search(S, out, deadline);
    out->literals = S->lits;
    out->vars = cg__cnf_nvars(S->c);
    out->clauses = cg__cnf_nclauses(S->c);
    if (!S->oom)
        return 0;
    oom_error(S, out, d);
    return -1;
}

/* S (NULL: nothing) and its solver. */
void cg__sat_destroy(cg__sat *S)
{
    if (!S)
        return;
    sat_free(S);
    free(S);
}
