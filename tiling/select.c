/* select.c: tile selection.  A candidate is a tile size per loop and an
 * order of the tile loops; from them follow, per array, whether its box
 * changes with every tile (streamed: two buffers) or only when an outer
 * tile loop moves (resident: one buffer), the bytes moved and the memory
 * used.  The search starts from a coarse geometric grid of sizes (the
 * continuous optimum, e.g. gemm tiles near sqrt(M)), then tries every
 * balanced size (ceil(trip/count)) in a window around it; the last size is
 * found by bisection since memory grows with it.
 */
#include "../common/util.h"
#include "tile_internal.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cg_tile_params_init(cg_tile_params *p)
{
    p->memory = NULL;
    p->mem_bytes = 0;
    p->ii = 1;
    p->depth = 8;
    p->search_orders = true;
    p->search = (cg_tile_search_params){
        .coarse_keep = 12, .coarse_step = 1.25, .window_radius = 32,
        .window_combos = 4096, .refine_within = 1.25, .all_orders_upto = 5,
        .bound_orders_upto = 4, .bound_bisect = 48,
        .bound_grid = {400, 60, 16, 6}};
}

/* A search field and its range. */
typedef struct range {
    const char *name;
    double v, lo, hi;
} range;

int cg_tile_params_check(const cg_tile_params *p, const char *file,
                         cg_diags *d)
{
    const cg_tile_search_params *w = &p->search;
    const range f[] = {
        {"coarse_keep", w->coarse_keep, 0, 1000},
        {"coarse_step", w->coarse_step, 1, 1000},
        {"window_radius", w->window_radius, 1, 1000},
        {"window_combos", w->window_combos, 1, 1e6},
        {"refine_within", w->refine_within, 1, 1000},
        {"all_orders_upto", w->all_orders_upto, 1, CG_TILE_MAX_ORDER_LOOPS},
        {"bound_orders_upto", w->bound_orders_upto, 1,
         CG_TILE_MAX_ORDER_LOOPS},
        {"bound_bisect", w->bound_bisect, 0, 200},
        {"bound_grid[0]", w->bound_grid[0], 1, 1000},
        {"bound_grid[1]", w->bound_grid[1], 1, 1000},
        {"bound_grid[2]", w->bound_grid[2], 1, 1000},
        {"bound_grid[3]", w->bound_grid[3], 1, 1000}};
    int bad = 0;
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        if (!(f[i].v >= f[i].lo && f[i].v <= f[i].hi)) { /* NaN fails */
            cg_diags_add(d, CG_SEV_ERROR, file, 0, "cg_tile_params.search.%s "
                         "is %.12g; it must be at least %.12g and at most "
                         "%.12g", f[i].name, f[i].v, f[i].lo, f[i].hi);
            bad = -1;
        }
    return bad;
}

int64_t cg_tile_compute_cycles(const int64_t *size, int nloops, int ii,
                               int depth)
{
    int64_t outer = 1;
    for (int l = 0; l + 1 < nloops; l++)
        outer *= size[l];
    return outer * (size[nloops - 1] * (int64_t)ii + depth);
}

static int64_t xfer_cycles(int64_t bytes, const cg_dma_params *dma)
{
    /* clamped to the range cg_arch_set_dma takes: the quotient must stay
       within int64_t whatever a caller put in its target */
    double bw = dma->bytes_per_cycle;
    bw = bw >= CG_DMA_MIN_BYTES_PER_CYCLE ? bw : CG_DMA_MIN_BYTES_PER_CYCLE;
    bw = bw <= CG_DMA_MAX_BYTES_PER_CYCLE ? bw : CG_DMA_MAX_BYTES_PER_CYCLE;
    return dma->setup_cycles + (int64_t)ceil((double)bytes / bw);
}

uint32_t cg__tile_key(const cg_tile_model *m, int a, const int64_t *count,
                      const int *order, bool *streamed, bool *any_changing)
{
    uint32_t loops = m->arrays[a].loops, key = 0;
    bool suffix = true;
    *streamed = *any_changing = false;
    for (int i = m->nloops - 1; i >= 0; i--) {
        int l = order[i];
        if (count[l] <= 1)
            continue;
        if (!*any_changing) {
            *any_changing = true;
            *streamed = (loops >> l) & 1;
        }
        if (suffix && !((loops >> l) & 1))
            continue;
        suffix = false;
        key |= 1u << l;
    }
    return key;
}

static int64_t align_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

/* Place buffers of the given sizes (bytes per buffer, nbuf) in the target's
 * memory; fills addr/bank.  Returns 0 when everything fits. */
static int place_buffers(const cg_tile_target *t, int narrays,
                         const cg_tile_array_info *arrays,
                         cg_tile_buffer *buf, int64_t *used)
{
    int idx[CG_TILE_MAX_ARRAYS], n = 0;
    int64_t bank_used[CG_TILE_MAX_BANKS] = {0};
    assert(narrays <= CG_TILE_MAX_ARRAYS); /* cg_tile_plan_model's check */
    for (int a = 0; a < narrays; a++)
        if (buf[a].bytes > 0)
            idx[n++] = a;
    /* biggest first, ties by index: deterministic first-fit decreasing */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            int x = idx[j - 1], y = idx[j];
            int64_t bx = buf[x].bytes * buf[x].nbuf;
            int64_t by = buf[y].bytes * buf[y].nbuf;
            if (bx > by || (bx == by && x < y))
                break;
            idx[j - 1] = y;
            idx[j] = x;
        }
    int64_t top = 0;
    assert(t->banks <= CG_TILE_MAX_BANKS); /* cg_tile_plan_model's check */
    int banks = t->banks > 0 ? t->banks : 1;
    int64_t bank_bytes = t->mem_bytes / banks;
    *used = 0;
    for (int i = 0; i < n; i++) {
        cg_tile_buffer *b = &buf[idx[i]];
        int64_t al = arrays[idx[i]].elem_size;
        if (t->any_bank) {
            for (int k = 0; k < b->nbuf; k++) {
                top = align_up(top, al);
                b->addr[k] = top;
                top += b->bytes;
            }
            b->bank = -1;
            if (top > t->mem_bytes)
                return -1;
            continue;
        }
        int bank = -1;
        for (int k = 0; k < banks && bank < 0; k++) {
            if (!((t->bank_mask >> k) & 1))
                continue;
            int64_t at = align_up(k * bank_bytes + bank_used[k], al);
            int64_t end = at + (b->nbuf - 1) * align_up(b->bytes, al) +
                          b->bytes;
            if (end <= (k + 1) * bank_bytes)
                bank = k;
        }
        if (bank < 0)
            return -1;
        for (int k = 0; k < b->nbuf; k++) {
            int64_t at = align_up(bank * bank_bytes + bank_used[bank], al);
            b->addr[k] = at;
            bank_used[bank] = at + b->bytes - bank * bank_bytes;
        }
        b->bank = bank;
    }
    if (t->any_bank)
        *used = top;
    else
        for (int k = 0; k < banks; k++)
            *used += bank_used[k];
    return 0;
}

/* Sum over the tiles of the array's loops of the box elements: full tiles
 * and the last (partial) tile of each loop, 2^k shapes. */
static int64_t box_sum(const cg_tile_model *m, int a, const int64_t *size,
                       const int64_t *count)
{
    uint32_t loops = m->arrays[a].loops;
    int vary[CG_TILE_MAX_LOOPS], nv = 0;
    int64_t s[CG_TILE_MAX_LOOPS];
    for (int l = 0; l < m->nloops; l++) {
        s[l] = size[l] < m->trip[l] ? size[l] : m->trip[l];
        if (((loops >> l) & 1) && count[l] > 1)
            vary[nv++] = l;
    }
    int64_t total = 0;
    for (uint32_t mask = 0; mask < (1u << nv); mask++) {
        int64_t n = 1;
        bool skip = false;
        for (int i = 0; i < nv; i++) {
            int l = vary[i];
            int64_t rem = m->trip[l] % size[l];
            if ((mask >> i) & 1) { /* the partial tile */
                if (!rem) {
                    skip = true;
                    break;
                }
                s[l] = rem;
            } else {
                s[l] = size[l];
                n *= m->trip[l] / size[l];
            }
        }
        if (!skip)
            total += n * cg_tile_capacity(m, a, s, NULL);
    }
    return total;
}

/* Evaluate sizes and order exactly into e; the buffers into out when it
 * is not NULL. */
static void evaluate(const cg_tile_model *m, const cg_tile_target *t,
                     const cg_tile_params *p, const int64_t *size,
                     const int *order, cg__tile_eval *e,
                     cg_tile_buffer *out)
{
    cg_tile_buffer local[CG_TILE_MAX_ARRAYS];
    cg_tile_buffer *buf = out ? out : local;
    int64_t count[CG_TILE_MAX_LOOPS], full[CG_TILE_MAX_LOOPS];
    memset(e, 0, sizeof *e);
    e->ntiles = 1;
    for (int l = 0; l < m->nloops; l++) {
        count[l] = cg__ceil_div(m->trip[l], size[l]);
        full[l] = size[l] < m->trip[l] ? size[l] : m->trip[l];
        e->ntiles *= count[l];
    }
    int64_t dma = 0;
    assert(m->narrays <= CG_TILE_MAX_ARRAYS);
    for (int a = 0; a < m->narrays; a++) {
        const cg_tile_array_info *ai = &m->arrays[a];
        cg_tile_buffer *b = &buf[a];
        memset(b, 0, sizeof *b);
        bool streamed, anych;
        uint32_t key = cg__tile_key(m, a, count, order, &streamed, &anych);
        int64_t cap = cg_tile_capacity(m, a, full, b->extent);
        b->streamed = anych && streamed;
        b->nbuf = b->streamed ? 2 : 1;
        b->bytes = cap * ai->elem_size;
        b->bank = -1;
        int64_t factor = 1;
        for (int l = 0; l < m->nloops; l++)
            if (((key >> l) & 1) && !((ai->loops >> l) & 1))
                factor *= count[l];
        int64_t moved = factor * box_sum(m, a, size, count) * ai->elem_size;
        b->in_bytes = ai->load ? moved : 0;
        b->out_bytes = ai->written ? moved : 0;
        b->loads = 1;
        for (int l = 0; l < m->nloops; l++)
            if ((key >> l) & 1)
                b->loads *= count[l];
        e->traffic += b->in_bytes + b->out_bytes;
        if (b->streamed) {
            int64_t one = cap * ai->elem_size;
            if (ai->load)
                dma += xfer_cycles(one, &t->dma);
            if (ai->written)
                dma += xfer_cycles(one, &t->dma);
        }
        int D = ai->ndims;
        if (cap > 1 && b->extent[D - 1] == 1 && ai->vdims[D - 1] > 1)
            e->nonunit++;
    }
    int ch = t->dma.channels > 0 ? t->dma.channels : 1;
    e->dma_ok = (dma + ch - 1) / ch <=
                cg_tile_compute_cycles(full, m->nloops, p->ii, p->depth);
    e->feasible = place_buffers(t, m->narrays, m->arrays, buf,
                                &e->mem_used) == 0;
}

/* ---- the search ------------------------------------------------------------ */

typedef struct cand {
    bool have;
    cg__tile_eval e;
    int64_t size[CG_TILE_MAX_LOOPS];
    int order[CG_TILE_MAX_LOOPS];
} cand;

/* true when x is better than y */
static bool better(const cg__tile_eval *x, const int64_t *xs,
                   const cg__tile_eval *y, const int64_t *ys, int L)
{
    if (x->traffic != y->traffic)
        return x->traffic < y->traffic;
    if (x->dma_ok != y->dma_ok)
        return x->dma_ok;
    if (x->nonunit != y->nonunit)
        return x->nonunit < y->nonunit;
    if (x->mem_used != y->mem_used)
        return x->mem_used > y->mem_used;
    if (x->ntiles != y->ntiles)
        return x->ntiles < y->ntiles;
    for (int l = L - 1; l >= 0; l--)
        if (xs[l] != ys[l])
            return xs[l] > ys[l];
    return false;
}

typedef struct search {
    const cg_tile_model *m;
    const cg_tile_target *t;
    const cg_tile_params *p;
    int64_t *list[CG_TILE_MAX_LOOPS]; /* balanced sizes, descending */
    int nlist[CG_TILE_MAX_LOOPS];
    int64_t evals;
    cand best;        /* overall */
    cand obest;       /* within the current order */
} search;

/* Balanced sizes ceil(trip/c), c = 1..trip, descending, without repeats. */
static int balanced(int64_t trip, int64_t **out)
{
    int cap = 16, n = 0;
    int64_t *v = malloc((size_t)cap * sizeof *v);
    int64_t c = 1;
    while (v && c <= trip) {
        int64_t T = cg__ceil_div(trip, c);
        if (CG_GROW(v, cap, n + 1)) {
            free(v);
            v = NULL;
            break;
        }
        v[n++] = T;
        if (T == 1)
            break;
        c = cg__ceil_div(trip, T - 1); /* first count with a smaller size */
    }
    *out = v;
    return v ? n : -1;
}

static void consider(search *s, const int64_t *size, const int *order,
                     const cg__tile_eval *e)
{
    int L = s->m->nloops;
    cand *c[2] = {&s->obest, &s->best};
    for (int i = 0; i < 2; i++)
        if (!c[i]->have || better(e, size, &c[i]->e, c[i]->size, L)) {
            c[i]->have = true;
            c[i]->e = *e;
            memcpy(c[i]->size, size, sizeof c[i]->size);
            memcpy(c[i]->order, order, sizeof c[i]->order);
        }
}

static bool fits(search *s, int64_t *size, const int *order, cg__tile_eval *e)
{
    s->evals++;
    evaluate(s->m, s->t, s->p, size, order, e, NULL);
    return e->feasible;
}

/* Whether the buffers of a candidate fit, without its traffic: what the
 * bisections need, at a quarter of a full evaluation's cost. */
static bool mem_fits(search *s, const int64_t *size, const int *order)
{
    const cg_tile_model *m = s->m;
    cg_tile_buffer buf[CG_TILE_MAX_ARRAYS];
    int64_t count[CG_TILE_MAX_LOOPS], full[CG_TILE_MAX_LOOPS], used;
    s->evals++;
    for (int l = 0; l < m->nloops; l++) {
        count[l] = cg__ceil_div(m->trip[l], size[l]);
        full[l] = size[l] < m->trip[l] ? size[l] : m->trip[l];
    }
    for (int a = 0; a < m->narrays && a < 64; a++) {
        bool streamed, anych;
        memset(&buf[a], 0, sizeof buf[a]);
        cg__tile_key(m, a, count, order, &streamed, &anych);
        buf[a].nbuf = anych && streamed ? 2 : 1;
        buf[a].bytes = cg_tile_capacity(m, a, full, buf[a].extent) *
                       m->arrays[a].elem_size;
    }
    return place_buffers(s->t, m->narrays, m->arrays, buf, &used) == 0;
}

/* With every other size fixed, find the largest feasible size of loop ls
 * among vals[0..n-1] (descending) and consider it and two smaller ones. */
static void last_loop(search *s, int64_t *size, const int *order, int ls,
                      const int64_t *vals, int n)
{
    cg__tile_eval e;
    size[ls] = vals[0];
    if (fits(s, size, order, &e))
        consider(s, size, order, &e);
    if (n < 2)
        return;
    /* below the first value the set of changing loops is fixed, so memory
       only grows with the size: bisection applies */
    int lo = 1, hi = n - 1, found = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        size[ls] = vals[mid];
        if (mem_fits(s, size, order)) {
            found = mid;
            hi = mid - 1;
        } else {
            lo = mid + 1;
        }
    }
    for (int k = 0; found >= 0 && k < 3 && found + k < n; k++) {
        size[ls] = vals[found + k];
        if (fits(s, size, order, &e))
            consider(s, size, order, &e);
    }
}

/* Every combination of vals over the loops in `loops` (all but ls). */
static void enumerate(search *s, int64_t *size, const int *order, int ls,
                      const int *loops, int nl, int64_t **vals,
                      const int *nvals, const int64_t *lsvals, int nls)
{
    if (nl == 0) {
        last_loop(s, size, order, ls, lsvals, nls);
        return;
    }
    for (int i = 0; i < nvals[0]; i++) {
        size[loops[0]] = vals[0][i];
        enumerate(s, size, order, ls, loops + 1, nl - 1, vals + 1, nvals + 1,
                  lsvals, nls);
    }
}

/* Geometric subset of a descending list (ratio >= w->coarse_step), ends
 * kept; the whole list when it is short.  Sizes stay below 2^50, so
 * v * 1.25 is exact and the comparison is v * 5 <= prev * 4's. */
static int coarse(const cg_tile_search_params *w, const int64_t *v, int n,
                  int64_t *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (n <= w->coarse_keep || i == 0 || i == n - 1 ||
            (double)v[i] * w->coarse_step <= (double)out[k - 1])
            out[k++] = v[i];
    return k;
}

/* Values of v within a window of radius r around the position of x. */
static int window(const int64_t *v, int n, int64_t x, int r, int64_t *out)
{
    int at = 0;
    while (at < n - 1 && v[at] > x)
        at++;
    int lo = at - r < 0 ? 0 : at - r, hi = at + r >= n ? n - 1 : at + r, k = 0;
    for (int i = lo; i <= hi; i++)
        out[k++] = v[i];
    return k;
}

/* Radius of the window around the coarse optimum: as wide as possible
 * (up to window_radius) while the window holds at most window_combos
 * combinations. */
static int window_radius(const search *s, const int *loops, int nl)
{
    const cg_tile_search_params *w = &s->p->search;
    int r = w->window_radius;
    for (;;) {
        int64_t prod = 1;
        for (int i = 0; i < nl; i++)
            prod *= 2 * r + 1 < s->nlist[loops[i]] ? 2 * r + 1
                                                  : s->nlist[loops[i]];
        if (prod <= w->window_combos || r == 1)
            return r;
        r /= 2;
    }
}

/* One order: the coarse grid (win false; its best goes to *ob), or every
 * balanced size in a window around *ob (win true).  The loop with the
 * most sizes is always found by bisection. */
static int search_order(search *s, const int *order, cand *ob, bool win)
{
    const cg_tile_model *m = s->m;
    int L = m->nloops, ls = -1, loops[CG_TILE_MAX_LOOPS], nl = 0;
    for (int l = 0; l < L; l++)
        if (ls < 0 || s->nlist[l] > s->nlist[ls])
            ls = l;
    for (int l = 0; l < L; l++)
        if (l != ls)
            loops[nl++] = l;
    if (win && (!ob->have || nl == 0))
        return 0;
    int64_t *vals[CG_TILE_MAX_LOOPS] = {0}, size[CG_TILE_MAX_LOOPS];
    int nvals[CG_TILE_MAX_LOOPS], rc = 0, r = window_radius(s, loops, nl);
    for (int i = 0; i < nl; i++) {
        vals[i] = malloc((size_t)s->nlist[loops[i]] * sizeof(int64_t));
        if (!vals[i])
            rc = -1;
    }
    for (int i = 0; rc == 0 && i < nl; i++) {
        const int64_t *v = s->list[loops[i]];
        int n = s->nlist[loops[i]];
        nvals[i] = win ? window(v, n, ob->size[loops[i]], r, vals[i])
                       : coarse(&s->p->search, v, n, vals[i]);
    }
    memset(&s->obest, 0, sizeof s->obest);
    if (rc == 0)
        enumerate(s, size, order, ls, loops, nl, vals, nvals, s->list[ls],
                  s->nlist[ls]);
    if (!win)
        *ob = s->obest;
    for (int i = 0; i < nl; i++)
        free(vals[i]);
    return rc;
}

/* Whether an order's coarse optimum is worth refining: its traffic within
 * refine_within (1.25) times the best found.  The coarse grid steps sizes
 * by about coarse_step (1.25) and traffic falls roughly as 1/size, so
 * refining an order further off cannot bring it below the best.  Traffic
 * stays below 2^50 bytes, so the product is exact (4x <= 5y's). */
static bool promising(const cg_tile_search_params *w, const cand *ob,
                      const cand *best)
{
    return ob->have && (double)ob->e.traffic <=
                           w->refine_within * (double)best->e.traffic;
}

/* Orders that differ in a way that matters: per array, the set of loops in
 * its reuse suffix when every loop has several tiles. */
static uint64_t order_sig(const cg_tile_model *m, const int *order)
{
    uint64_t sig = 0;
    int64_t count[CG_TILE_MAX_LOOPS];
    for (int l = 0; l < m->nloops; l++)
        count[l] = 2;
    for (int a = 0; a < m->narrays; a++) {
        bool st, any;
        uint32_t key = cg__tile_key(m, a, count, order, &st, &any);
        uint32_t all = (1u << m->nloops) - 1;
        sig = sig * 1000003u + ((all & ~key) | (st ? 1u << 9 : 0));
    }
    return sig;
}

bool cg__tile_next_perm(int *v, int n)
{
    int i = n - 2;
    while (i >= 0 && v[i] >= v[i + 1])
        i--;
    if (i < 0)
        return false;
    int j = n - 1;
    while (v[j] <= v[i])
        j--;
    int t = v[i];
    v[i] = v[j];
    v[j] = t;
    for (int a = i + 1, b = n - 1; a < b; a++, b--) {
        t = v[a];
        v[a] = v[b];
        v[b] = t;
    }
    return true;
}

/* The most orders tried: every permutation of CG_TILE_MAX_ORDER_LOOPS
 * loops (cg_tile_params_check keeps all_orders_upto there), or one per
 * loop. */
enum { MAX_ORDERS = 120 };
_Static_assert(CG_TILE_MAX_ORDER_LOOPS == 5 &&
               CG_TILE_MAX_LOOPS <= MAX_ORDERS, "MAX_ORDERS is 5!");

/* Every order to try: all permutations up to all_orders_upto loops
 * (deduplicated by signature), else each loop innermost with the rest in
 * nest order. */
static int orders(const cg_tile_model *m, const cg_tile_params *p,
                  int (*out)[CG_TILE_MAX_LOOPS])
{
    int L = m->nloops, n = 0;
    uint64_t sigs[MAX_ORDERS];
    int v[CG_TILE_MAX_LOOPS];
    for (int l = 0; l < L; l++)
        v[l] = l;
    if (!p->search_orders) {
        memcpy(out[0], v, sizeof(int) * (size_t)L);
        return 1;
    }
    if (L <= p->search.all_orders_upto) {
        do {
            uint64_t sg = order_sig(m, v);
            bool dup = false;
            for (int i = 0; i < n && !dup; i++)
                dup = sigs[i] == sg;
            if (!dup) {
                assert(n < MAX_ORDERS);
                sigs[n] = sg;
                memcpy(out[n++], v, sizeof(int) * (size_t)L);
            }
        } while (cg__tile_next_perm(v, L));
        return n;
    }
    for (int in = 0; in < L; in++) {
        int k = 0;
        for (int l = 0; l < L; l++)
            if (l != in)
                out[n][k++] = l;
        out[n++][k] = in;
    }
    return n;
}

/* The error when not even the smallest tile fits: its buffers listed. */
static void too_small(const cg_tile_model *m, const cg_tile_target *t,
                      const cg_tile_params *p, cg_diags *d)
{
    int64_t size[CG_TILE_MAX_LOOPS];
    int order[CG_TILE_MAX_LOOPS];
    char shape[128] = "", list[512] = "";
    size_t k = 0, j = 0;
    for (int l = 0; l < m->nloops; l++) {
        order[l] = l;
        size[l] = l == m->nloops - 1 && m->keep_inner ? m->trip[l] : 1;
        k += (size_t)snprintf(shape + k, sizeof shape - k, "%s%lld",
                              l ? "x" : "", (long long)size[l]);
        if (k >= sizeof shape)
            k = sizeof shape - 1;
    }
    cg_tile_buffer buf[CG_TILE_MAX_ARRAYS];
    cg__tile_eval e;
    evaluate(m, t, p, size, order, &e, buf);
    int64_t total = 0;
    for (int a = 0; a < m->narrays; a++) {
        if (!buf[a].bytes)
            continue;
        total += buf[a].nbuf * buf[a].bytes;
        j += (size_t)snprintf(list + j, sizeof list - j, "%s%s %d x %lld B",
                              j ? ", " : "", m->arrays[a].name, buf[a].nbuf,
                              (long long)buf[a].bytes);
        if (j >= sizeof list)
            j = sizeof list - 1;
    }
    char where[96] = "";
    if (!t->any_bank)
        snprintf(where, sizeof where, " (%d banks of %lld bytes; each "
                 "array's buffers must lie in one bank its MEMUnits reach)",
                 t->banks, (long long)(t->mem_bytes / (t->banks ? t->banks : 1)));
    cg_diags_add(d, CG_SEV_ERROR, m->file, m->loop_line[0],
                 "tile memory '%s' (%lld bytes)%s cannot hold the buffers of "
                 "even the smallest tile (%s iterations): %s = %lld bytes; "
                 "give a larger memory or use fewer arrays",
                 t->memory ? t->memory : "?", (long long)t->mem_bytes, where,
                 shape, list, (long long)total);
}

/* Largest size of loop l that keeps its tile count (memory only grows
 * with it, so the search's balanced sizes may leave memory unused). */
static int64_t same_count_max(int64_t trip, int64_t size)
{
    int64_t c = cg__ceil_div(trip, size);
    return c <= 1 ? trip : (trip - 1) / (c - 1);
}

/* Grow each loop of the best candidate to the largest size of the same
 * tile count that still fits (bisection: memory is monotone in it), and
 * keep the result when it ranks better: same traffic or less, more memory
 * used.  A final pass because the search walks balanced sizes only. */
static void fill(search *s)
{
    const cg_tile_model *m = s->m;
    for (int l = 0; l < m->nloops && s->best.have; l++) {
        cand c = s->best;
        int64_t lo = c.size[l], hi = same_count_max(m->trip[l], lo);
        while (lo < hi) {
            c.size[l] = lo + (hi - lo + 1) / 2;
            if (mem_fits(s, c.size, c.order))
                lo = c.size[l];
            else
                hi = c.size[l] - 1;
        }
        c.size[l] = lo;
        cg__tile_eval e;
        if (lo > s->best.size[l] && fits(s, c.size, c.order, &e) &&
            better(&e, c.size, &s->best.e, s->best.size, m->nloops)) {
            s->best.e = e;
            s->best.size[l] = lo;
        }
    }
}

static int run_search(search *s)
{
    const cg_tile_model *m = s->m;
    for (int l = 0; l < m->nloops; l++) {
        if (l == m->nloops - 1 && m->keep_inner) {
            s->list[l] = malloc(sizeof(int64_t));
            if (s->list[l])
                s->list[l][0] = m->trip[l];
            s->nlist[l] = 1;
        } else {
            s->nlist[l] = balanced(m->trip[l], &s->list[l]);
        }
        if (!s->list[l] || s->nlist[l] < 1)
            return -1;
    }
    int (*ord)[CG_TILE_MAX_LOOPS] = malloc(MAX_ORDERS * sizeof *ord);
    if (!ord)
        return -1;
    int no = orders(m, s->p, ord);
    cand *ob = calloc((size_t)no, sizeof *ob);
    int rc = ob ? 0 : -1;
    for (int i = 0; i < no && rc == 0; i++)
        rc = search_order(s, ord[i], &ob[i], false);
    for (int i = 0; i < no && rc == 0; i++)
        if (promising(&s->p->search, &ob[i], &s->best))
            rc = search_order(s, ord[i], &ob[i], true);
    free(ob);
    free(ord);
    if (rc == 0)
        fill(s);
    return rc;
}

static cg_tile_plan *make_plan(const cg_tile_model *m, const cg_tile_target *t,
                               const cg_tile_params *p, const cand *c,
                               cg_diags *d)
{
    cg_tile_plan *pl = calloc(1, sizeof *pl);
    if (pl) {
        pl->buf = calloc((size_t)m->narrays + 1, sizeof *pl->buf);
        pl->key = calloc((size_t)m->narrays + 1, sizeof *pl->key);
    }
    if (!pl || !pl->buf || !pl->key) {
        cg_tile_plan_destroy(pl);
        cg_diags_add(d, CG_SEV_ERROR, m->file, 0, "out of memory");
        return NULL;
    }
    pl->m = m;
    pl->t = *t;
    pl->mem_name = t->memory ? strdup(t->memory) : NULL;
    pl->t.memory = pl->mem_name;
    pl->params = *p;
    cg__tile_eval e;
    evaluate(m, t, p, c->size, c->order, &e, pl->buf);
    cg_tile_summary *s = &pl->s;
    s->nloops = m->nloops;
    for (int l = 0; l < m->nloops; l++) {
        s->trip[l] = m->trip[l];
        s->size[l] = c->size[l] < m->trip[l] ? c->size[l] : m->trip[l];
        s->count[l] = cg__ceil_div(m->trip[l], s->size[l]);
        s->order[l] = c->order[l];
    }
    for (int a = 0; a < m->narrays; a++) {
        bool st, any;
        pl->key[a] = cg__tile_key(m, a, s->count, s->order, &st, &any);
    }
    s->ntiles = e.ntiles;
    s->whole = e.ntiles == 1;
    s->traffic = e.traffic;
    s->mem_bytes = t->mem_bytes;
    s->mem_used = e.mem_used;
    s->mem_use = t->mem_bytes ? (double)e.mem_used / (double)t->mem_bytes : 0;
    s->dma_ok = e.dma_ok;
    cg__tile_bound(m, t, p, s);
    return pl;
}

/* The model and the target within what a plan handles; else true with an
 * error naming the first limit passed. */
static bool over_limits(const cg_tile_model *m, const cg_tile_target *t,
                        cg_diags *d)
{
    const cg_loc src = {m->file, 0};
    const struct {
        const char *who, *what;
        int n, max;
        cg_loc at; /* the line that declares it: the XML's, or the C's */
    } lim[] = {{"loop nest touches", "arrays", m->narrays, CG_TILE_MAX_ARRAYS,
                src},
               {"tile memory has", "banks", t->banks, CG_TILE_MAX_BANKS,
                t->mem_loc.file ? t->mem_loc : src},
               {"DMA engine has", "channels", t->dma.channels,
                CG_TILE_MAX_CHANNELS, t->dma_loc.file ? t->dma_loc : src}};
    for (size_t i = 0; i < sizeof lim / sizeof *lim; i++)
        if (lim[i].n > lim[i].max) {
            cg_diags_add(d, CG_SEV_ERROR, lim[i].at.file, lim[i].at.line,
                         "the %s %d %s; tiling handles up to %d", lim[i].who,
                         lim[i].n, lim[i].what, lim[i].max);
            return true;
        }
    return false;
}

cg_tile_plan *cg_tile_plan_model(const cg_tile_model *m,
                                 const cg_tile_target *t,
                                 const cg_tile_params *p, cg_diags *d)
{
    cg_tile_params defp;
    if (!p) {
        cg_tile_params_init(&defp);
        p = &defp;
    }
    if (cg_tile_params_check(p, m->file, d) < 0 || over_limits(m, t, d))
        return NULL;
    if (t->mem_bytes <= 0 || p->ii < 1 || p->depth < 0) {
        cg_diags_add(d, CG_SEV_ERROR, m->file, 0,
                     "bad tiling parameters (memory %lld bytes, ii %d, depth "
                     "%d)", (long long)t->mem_bytes, p->ii, p->depth);
        return NULL;
    }
    double t0 = cg_clock_now();
    search s = {.m = m, .t = t, .p = p};
    int rc = run_search(&s);
    double secs = cg_clock_now() - t0;
    for (int l = 0; l < m->nloops; l++)
        free(s.list[l]);
    if (rc < 0) {
        cg_diags_add(d, CG_SEV_ERROR, m->file, 0, "out of memory");
        return NULL;
    }
    if (!s.best.have) {
        too_small(m, t, p, d);
        return NULL;
    }
    cg_tile_plan *pl = make_plan(m, t, p, &s.best, d);
    if (pl) {
        pl->s.candidates = s.evals;
        pl->s.seconds = secs;
    }
    return pl;
}

void cg_tile_plan_destroy(cg_tile_plan *p)
{
    if (!p)
        return;
    cg_tile_model_destroy(p->own_model);
    free(p->mem_name);
    free(p->buf);
    free(p->key);
    free(p);
}

const cg_tile_model *cg_tile_plan_get_model(const cg_tile_plan *p)
{
    return p->m;
}
const cg_tile_target *cg_tile_plan_target(const cg_tile_plan *p)
{
    return &p->t;
}
const cg_tile_params *cg_tile_plan_params(const cg_tile_plan *p)
{
    return &p->params;
}
const cg_tile_summary *cg_tile_plan_summary(const cg_tile_plan *p)
{
    return &p->s;
}
const cg_tile_buffer *cg_tile_plan_buffer(const cg_tile_plan *p, int a)
{
    return &p->buf[a];
}

void cg_tile_plan_tile(const cg_tile_plan *p, int64_t t, int64_t *origin,
                       int64_t *size)
{
    const cg_tile_summary *s = &p->s;
    for (int i = s->nloops - 1; i >= 0; i--) {
        int l = s->order[i];
        int64_t idx = t % s->count[l];
        t /= s->count[l];
        origin[l] = idx * s->size[l];
        size[l] = s->trip[l] - origin[l] < s->size[l] ? s->trip[l] - origin[l]
                                                      : s->size[l];
    }
}
