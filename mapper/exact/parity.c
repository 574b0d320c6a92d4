/* parity.c: the parity bound -- a quick proof that an II is impossible for
 * every schedule, from the parity of route delays.
 *
 * A route from producer u's FUNC node f to an operand pin of consumer w on
 * FUNC node h has delay start(w) + d*II - start(u) exactly (d: the edge's
 * distance).  On many arrays the parity of that delay is fixed by f and
 * the pin alone.  In a mesh whose PE has one register, fed by its own
 * function unit or a neighbour but never by itself, a value moves one PE
 * per cycle, so after k cycles it sits on a PE of the checkerboard colour
 * of its producer's plus k; and when w's own result fills its register (at
 * II 1, at every cycle), w can read another value only from a neighbour.
 * The delay is then odd or even as the colours of f and h differ or not.
 *
 * Nothing here knows of PEs or colours.  For each pin, a search back over the
 * MRRG's (node, delay parity) pairs finds the parities with which each FUNC
 * node reaches it.  The search avoids the nodes every route out of h must take
 * (the chain of single out-edges after h, up to a pin, where a route ends)
 * when w's value is routed: they hold w's value, and a node holds one
 * value.  It passes no other pin and no FUNC node.  It follows walks, not only
 * simple paths, so the parities it finds are a superset of the routes'.  Where
 * every candidate pair (f, pin) of an edge reaches with one parity only, and
 * those parities are the differences of a potential phi over FUNC nodes and
 * pins (found by union-find with parity: a pin reached from f with parity q
 * gives phi(pin) - phi(f) = q), the edge gives, for any mapping,
 *
 *   psi(w) - psi(u) = delta_j(w) - d*II  (mod 2),
 *
 * where psi(v) = start(v) - phi(ref of v's FUNC node) (ref: the FUNC node
 * itself when v's value is routed, else the pin of its first in-edge) and
 * delta_j(w) = phi(pin j) - phi(ref), which must be the same on every FUNC
 * node w may take.  Edges that do not qualify (and self-loops) are left
 * out, which only weakens the bound.  When the edges left form a cycle
 * whose right-hand sides add up to 1, no schedule and no placement
 * satisfies them all: the II is impossible.  On default_8x8 at II 1 this
 * refutes a 2-tap convolution, whose loaded value reaches one add through
 * a multiply of this iteration and through a multiply of the next (one
 * cycle apart, so one path is one cycle longer than the other, yet both
 * lead from the same load to the same add: their parities must agree).
 */
#include <stdlib.h>
#include <string.h>

#include "exact_internal.h"
#include "sat_internal.h"

/* Estimated work (pins searched x MRRG edges) past which the bound
 * proves nothing: a work limit, the same on every machine. */
#define CG__PARITY_MAX_WORK 60000000L

struct cg__parity {
    const cg_mrrg *m;
    const cg_dfg *g;
    cg__sat_dfg D;
    int nn, nfunc, nslots;
    int *fidx;            /* MRRG node -> FUNC index, else -1 */
    int *slot;            /* (pin node, avoid) -> slot, else -1 */
    unsigned char **mask; /* slot -> per FUNC index: bit q when it reaches
                             the pin with delay parity q */
    int *seen, *queue;    /* the search's (node, parity) stamps and queue */
    int *held;            /* node -> stamp of the forced set it is in */
    int stamp;
    int *up;              /* union-find over terminals: FUNC indices, then
                             nfunc + slot; then over ops */
    unsigned char *rel;   /* parity to up */
    bool *odd;            /* a root's part holds an odd cycle */
    bool *linked;         /* per op: an edge that counts joins it */
    bool odd_ops;         /* the ops' edges close an odd cycle */
};
typedef struct cg__parity par;

/* x's root, and in *q x's parity to it; the path is pointed at the root
 * on the way (so that the long chains the pins make stay short). */
static int find(par *P, int x, int *q)
{
    int r = x, p = 0;
    while (P->up[r] != r) {
        p ^= P->rel[r];
        r = P->up[r];
    }
    for (int px = p; x != r;) {
        int next = P->up[x], old = P->rel[x];
        P->up[x] = r;
        P->rel[x] = (unsigned char)px;
        px ^= old;
        x = next;
    }
    *q = p;
    return r;
}

/* phi(b) - phi(a) = q; false when that closes an odd cycle. */
static bool join(par *P, int a, int b, int q)
{
    int pa, pb, ra = find(P, a, &pa), rb = find(P, b, &pb);
    if (ra == rb) {
        if ((pa ^ pb) != q)
            P->odd[ra] = true;
        return (pa ^ pb) == q;
    }
    P->up[rb] = ra;
    P->rel[rb] = (unsigned char)(pa ^ pb ^ q);
    P->odd[ra] |= P->odd[rb];
    return true;
}

static void uf_reset(par *P, int from, int to)
{
    for (int i = from; i < to; i++) {
        P->up[i] = i;
        P->rel[i] = 0;
        P->odd[i] = false;
    }
}

/* Op v's element in the union-find, after the terminals. */
static int op_term(const par *P, int v)
{
    return P->nfunc + 2 * P->nn + v;
}

/* Is op v's value routed (has it an out-edge)? */
static bool routed(const par *P, int v)
{
    return P->D.out_off[v + 1] > P->D.out_off[v];
}

int cg__parity_forced(const cg_mrrg *m, int h, int *nodes)
{
    int cur = h, k = 0;
    while (k < cg_mrrg_nnodes(m)) {
        int n;
        const int *o = cg_mrrg_out(m, cur, &n);
        if (n != 1)
            break;
        cur = cg_mrrg_get_edge(m, o[0])->to;
        nodes[k++] = cur;
        if (!cg__sat_passable(m, cur))
            break; /* a pin (a route ends there) or a FUNC node */
    }
    return k;
}

/* Mark the nodes every route out of FUNC node h takes. */
static void mark_forced(par *P, int h)
{
    int k = cg__parity_forced(P->m, h, P->queue);
    for (int i = 0; i < k; i++)
        P->held[P->queue[i]] = P->stamp;
}

/* The search back from pin (avoiding h's forced set when avoid) into
 * mask, one byte per FUNC node. */
static void search(par *P, int pin, int h, bool avoid, unsigned char *mask)
{
    P->stamp++;
    if (avoid)
        mark_forced(P, h);
    int head = 0, tail = 0;
    P->queue[tail++] = pin * 2;
    P->seen[pin * 2] = P->stamp;
    while (head < tail) {
        int s = P->queue[head++], x = s / 2, q = s % 2, n;
        const int *in = cg_mrrg_in(P->m, x, &n);
        for (int i = 0; i < n; i++) {
            const cg_mrrg_edge *e = cg_mrrg_get_edge(P->m, in[i]);
            int a = e->from, qa = (q + e->delay) & 1;
            if (cg_mrrg_get_node(P->m, a)->kind == CG_MRRG_FUNC) {
                mask[P->fidx[a]] |= (unsigned char)(1 << qa);
                continue;
            }
            if (!cg__sat_passable(P->m, a) || P->held[a] == P->stamp ||
                P->seen[a * 2 + qa] == P->stamp)
                continue;
            P->seen[a * 2 + qa] = P->stamp;
            P->queue[tail++] = a * 2 + qa;
        }
    }
}

/* The slot of pin j of FUNC node h for consumer w (searched on first
 * use: search_pins does them all), -1 on no memory, -2 when h has no
 * such pin (never for a candidate: cg__sat_dfg's fits()). */
static int slot_of(par *P, int w, int h, int j)
{
    int pin = cg_mrrg_pin(P->m, h, j);
    if (pin < 0)
        return -2;
    bool avoid = routed(P, w);
    int k = pin * 2 + avoid;
    if (P->slot[k] >= 0)
        return P->slot[k];
    unsigned char *mk = calloc((size_t)P->nfunc + 1, 1);
    if (!mk)
        return -1;
    search(P, pin, h, avoid, mk);
    P->mask[P->nslots] = mk;
    return P->slot[k] = P->nslots++;
}

/* Search the pins of every edge's consumer (self-loops' too: another
 * value's edge may end there).  0, -1 on no memory, -2 on a missing
 * pin. */
static int search_pins(par *P)
{
    const cg__sat_dfg *D = &P->D;
    for (int e = 0; e < D->ne; e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(P->g, e);
        for (int b = 0; b < D->ncand[ed->dst]; b++) {
            int s = slot_of(P, ed->dst, D->cand[ed->dst][b], ed->operand);
            if (s < 0)
                return s;
        }
    }
    return 0;
}

/* Join the potential's terminals over every pair of e's candidates that
 * reaches with one parity (not for a self-loop, whose route is the
 * forced set the search avoided). */
static void join_edge(par *P, const cg_dfg_edge *e)
{
    const cg__sat_dfg *D = &P->D;
    for (int b = 0; e->src != e->dst && b < D->ncand[e->dst]; b++) {
        int s = slot_of(P, e->dst, D->cand[e->dst][b], e->operand);
        for (int a = 0; a < D->ncand[e->src]; a++) {
            int f = P->fidx[D->cand[e->src][a]], mk = P->mask[s][f];
            if (mk == 1 || mk == 2)
                join(P, f, P->nfunc + s, mk >> 1);
        }
    }
}

/* The terminal psi(v) is measured from at FUNC node h: h itself when v's
 * value is routed, else the pin of v's first in-edge (searched already:
 * search_pins). */
static int ref_of(par *P, int v, int h)
{
    if (routed(P, v))
        return P->fidx[h];
    int j0 = cg_dfg_get_edge(P->g, P->D.in_ids[P->D.in_off[v]])->operand;
    return P->nfunc + slot_of(P, v, h, j0);
}

/* delta_j(w) = phi(pin j) - phi(ref_of) on every FUNC node w may take (0
 * or 1), or -1 when it is not one value. */
static int delta(par *P, int w, int j)
{
    const cg__sat_dfg *D = &P->D;
    int dl = -2;
    for (int b = 0; b < D->ncand[w]; b++) {
        int h = D->cand[w][b], pr, pp;
        int rr = find(P, ref_of(P, w, h), &pr);
        int rp = find(P, P->nfunc + slot_of(P, w, h, j), &pp);
        if (rr != rp || P->odd[rr] || (dl >= 0 && dl != (pr ^ pp)))
            return -1;
        dl = pr ^ pp;
    }
    return dl < 0 ? -1 : dl;
}

/* Does e qualify: every candidate pair that reaches does so with one
 * parity, outside odd parts, and some pair reaches? */
static bool strict(par *P, const cg_dfg_edge *e)
{
    const cg__sat_dfg *D = &P->D;
    bool any = false;
    for (int b = 0; b < D->ncand[e->dst]; b++) {
        int s = slot_of(P, e->dst, D->cand[e->dst][b], e->operand), q;
        for (int a = 0; a < D->ncand[e->src]; a++) {
            int mk = P->mask[s][P->fidx[D->cand[e->src][a]]];
            if (mk == 3 || (mk && P->odd[find(P, P->nfunc + s, &q)]))
                return false;
            any |= mk != 0;
        }
    }
    return any;
}

/* The pin work the bound needs, and within the limit? */
static bool affordable(const par *P)
{
    const cg__sat_dfg *D = &P->D;
    int64_t pins = 0;
    for (int w = 0; w < D->n; w++)
        pins += (int64_t)D->ncand[w] * (D->in_off[w + 1] - D->in_off[w]);
    return pins * cg_mrrg_nedges(P->m) <= CG__PARITY_MAX_WORK;
}

static int setup(par *P)
{
    P->nn = cg_mrrg_nnodes(P->m);
    size_t nn = (size_t)P->nn + 1;
    P->fidx = malloc(sizeof(int) * nn);
    P->slot = malloc(sizeof(int) * 2 * nn);
    P->mask = calloc(2 * nn, sizeof *P->mask);
    P->seen = calloc(2 * nn, sizeof(int));
    P->queue = malloc(sizeof(int) * 2 * nn);
    P->held = calloc(nn, sizeof(int));
    size_t nt = 3 * nn + (size_t)P->D.n; /* terminals, then ops */
    P->up = malloc(sizeof(int) * nt);
    P->rel = malloc(nt);
    P->odd = malloc(sizeof(bool) * nt);
    if (!P->fidx || !P->slot || !P->mask || !P->seen || !P->queue ||
        !P->held || !P->up || !P->rel || !P->odd)
        return -1;
    for (int i = 0; i < P->nn; i++) {
        bool fn = cg_mrrg_get_node(P->m, i)->kind == CG_MRRG_FUNC;
        P->fidx[i] = fn ? P->nfunc++ : -1;
    }
    memset(P->slot, -1, sizeof(int) * 2 * nn);
    uf_reset(P, 0, op_term(P, 0));
    return 0;
}

static void teardown(par *P)
{
    for (int s = 0; P->mask && s < P->nslots; s++)
        free(P->mask[s]);
    free(P->mask);
    free(P->fidx);
    free(P->slot);
    free(P->seen);
    free(P->queue);
    free(P->held);
    free(P->up);
    free(P->rel);
    free(P->odd);
    cg__sat_dfg_free(&P->D);
}

/* The op-level system: 1 when its edges close an odd cycle (and the
 * edges after it are left out). */
static int ops_odd(par *P)
{
    const cg_dfg *g = P->g;
    int ii = cg_mrrg_ii(P->m);
    for (int e = 0; e < P->D.ne; e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        if (ed->src == ed->dst || !strict(P, ed))
            continue;
        int w = ed->dst;
        int dl = delta(P, w, ed->operand);
        if (dl < 0)
            continue;
        P->linked[ed->src] = P->linked[w] = true;
        if (!join(P, op_term(P, ed->src), op_term(P, w),
                  (dl - ed->distance * ii) & 1))
            return 1;
    }
    return 0;
}

static void parity_free(par *P)
{
    teardown(P);
    free(P->linked);
    free(P);
}

cg__parity *cg__parity_create(const cg_netlist *nl, const cg_mrrg *m,
                              const cg_dfg *g, int *rc)
{
    par *P = calloc(1, sizeof *P);
    *rc = -1;
    if (!P)
        return NULL;
    P->m = m;
    P->g = g;
    if (cg__sat_dfg_init(&P->D, m, nl, g, false) < 0) {
        parity_free(P);
        return NULL;
    }
    *rc = 0;
    bool none = !affordable(P);
    for (int v = 0; v < P->D.n; v++)
        none |= P->D.ncand[v] == 0; /* the MII's checks say why */
    if (none) {
        parity_free(P);
        return NULL;
    }
    P->linked = calloc((size_t)P->D.n + 1, sizeof(bool));
    *rc = P->linked ? setup(P) : -1;
    if (*rc == 0)
        *rc = search_pins(P);
    if (*rc == -2) { /* cannot happen (see slot_of): say nothing */
        parity_free(P);
        *rc = 0;
        return NULL;
    }
    for (int e = 0; *rc == 0 && e < P->D.ne; e++)
        join_edge(P, cg_dfg_get_edge(g, e));
    if (*rc == 0) {
        uf_reset(P, op_term(P, 0), op_term(P, P->D.n));
        P->odd_ops = ops_odd(P) == 1;
    }
    if (*rc < 0) {
        parity_free(P);
        return NULL;
    }
    return P;
}

bool cg__parity_odd(const cg__parity *P)
{
    return P->odd_ops;
}

int cg__parity_class(cg__parity *P, int v, int *rel)
{
    *rel = 0;
    if (!P->linked[v])
        return -1;
    return find(P, op_term(P, v), rel) - op_term(P, 0);
}

int cg__parity_phi(cg__parity *P, int v, int h)
{
    if (!P->linked[v])
        return 0; /* no relation holds v: nothing to tie */
    int q;
    find(P, ref_of(P, v, h), &q);
    return q;
}

void cg__parity_table(cg__parity *P, int np, int *cls,
                      unsigned char *off)
{
    int ii = cg_mrrg_ii(P->m);
    for (int v = 0; v < P->D.n; v++) {
        int rel;
        cls[v] = cg__parity_class(P, v, &rel);
        for (int b = 0; cls[v] >= 0 && b < P->D.ncand[v]; b++) {
            int h = P->D.cand[v][b];
            const cg_mrrg_node *nd = cg_mrrg_get_node(P->m, h);
            size_t i = ((size_t)v * (size_t)np + (size_t)nd->prim) *
                           (size_t)ii + (size_t)nd->context;
            off[i] = (unsigned char)((cg__parity_phi(P, v, h) + rel) & 1);
        }
    }
}

void cg__parity_destroy(cg__parity *P)
{
    if (P)
        parity_free(P);
}

int cg__bound_parity(const cg_netlist *nl, const cg_mrrg *m,
                     const cg_dfg *g)
{
    int rc;
    cg__parity *P = cg__parity_create(nl, m, g, &rc);
    if (P && cg__parity_odd(P))
        rc = 1;
    cg__parity_destroy(P);
    return rc;
}
