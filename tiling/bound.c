/* bound.c: the I/O lower bound a plan's traffic is measured against.
 *
 *   gemm (3 loops, 3 arrays each indexed by a different pair of loops, one
 *   of them written): max(2mnk/sqrt(M) - 2M, compulsory) elements for a
 *   memory of M elements (Smith et al., "The I/O complexity of matrix
 *   multiplication").
 *   stencils and convolutions (an array read at several constant offsets):
 *   compulsory traffic plus the halo of the best tiling in the continuous
 *   relaxation of the tiler's own buffer scheme (tile sizes real numbers,
 *   tile counts trip/size without rounding, no alignment or bank limits).
 *   everything else (elementwise, matrix-vector): compulsory traffic, each
 *   element the nest touches read in once (when the kernel reads the
 *   array) and written out once (when it writes it); the holes between
 *   strided accesses are not touched, so they do not count.
 */
#include "tile_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *cg_tile_bound_name(cg_tile_bound_kind k)
{
    switch (k) {
    case CG_TILE_BOUND_GEMM:
        return "gemm";
    case CG_TILE_BOUND_HALO:
        return "compulsory+halo";
    default:
        return "compulsory";
    }
}

static int popcount(uint32_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* Is access x's image a box (cg__tile_separable with unit
 * coefficients)? */
static bool dense(const cg_tile_model *m, const cg_tile_access_info *x,
                  int ndims)
{
    bool unit;
    return cg__tile_separable(x, ndims, m->nloops, &unit) && unit;
}

/* Enumerate the elements of box b that array a's accesses touch, over
 * every value of the loops in `loops` (bit l); the count, -1 on no
 * memory. */
static int64_t enumerate(const cg_tile_model *m, int a, uint32_t loops,
                         const cg_tile_box *b, int64_t cells)
{
    unsigned char *bit = calloc((size_t)(cells + 7) / 8, 1);
    if (!bit)
        return -1;
    int64_t count = 0, k[CG_TILE_MAX_LOOPS] = {0};
    for (int i = 0; i < m->naccesses; i++) {
        const cg_tile_access_info *x = &m->acc[i];
        if (x->array != a)
            continue;
        memset(k, 0, sizeof k);
        for (;;) {
            int64_t off = 0;
            for (int d = 0; d < b->ndims; d++) {
                int64_t v = x->cst[d];
                for (int l = 0; l < m->nloops; l++)
                    v += x->coef[d][l] * k[l];
                off = off * b->size[d] + (v - b->lo[d]);
            }
            if (!(bit[off / 8] & (1u << (off % 8)))) {
                bit[off / 8] |= (unsigned char)(1u << (off % 8));
                count++;
            }
            int l = m->nloops - 1; /* the next point: an odometer */
            for (; l >= 0; l--) {
                if (!(loops & (1u << l)))
                    continue;
                if (++k[l] < m->trip[l])
                    break;
                k[l] = 0;
            }
            if (l < 0)
                break;
        }
    }
    free(bit);
    return count;
}

/* Largest index points and box cells enumerated (16 M points, 128 M
 * cells = 16 MB of bits); past them the box stands in. */
#define ENUM_POINTS (1LL << 24)
#define ENUM_CELLS (1LL << 27)

/* Elements of array a the whole nest touches.  When every access's image
 * is a box in the array's view (the common case, strided accesses such as
 * b[3 + 2i] included: the view keeps every other element), the nest's
 * box; otherwise (a loop driving two dimensions, or a coefficient other
 * than +-1 left in the view, e.g. x[2i] beside x[i]) the touched elements
 * counted one by one, so that compulsory traffic never counts holes. */
static int64_t touched(const cg_tile_model *m, int a)
{
    const cg_tile_array_info *ai = &m->arrays[a];
    int64_t box = cg_tile_capacity(m, a, m->trip, NULL);
    bool all_dense = true;
    for (int i = 0; i < m->naccesses && all_dense; i++)
        if (m->acc[i].array == a)
            all_dense = dense(m, &m->acc[i], ai->ndims);
    int64_t points = 1, cells = 1;
    for (int l = 0; l < m->nloops; l++)
        if (ai->loops & (1u << l))
            points = points > ENUM_POINTS ? points : points * m->trip[l];
    const cg_tile_box *b = &m->full[a];
    for (int d = 0; d < b->ndims; d++)
        cells = cells > ENUM_CELLS ? cells : cells * b->size[d];
    if (all_dense || points > ENUM_POINTS || cells > ENUM_CELLS)
        return box;
    int64_t n = enumerate(m, a, ai->loops, b, cells);
    return n < 0 ? box : n; /* no memory for the bits: the box */
}

/* Every touched element read in once if the kernel reads the array, and
 * written out once if it writes it. */
static int64_t compulsory(const cg_tile_model *m)
{
    int64_t total = 0;
    for (int a = 0; a < m->narrays; a++) {
        const cg_tile_array_info *ai = &m->arrays[a];
        int64_t e = touched(m, a) * ai->elem_size;
        total += (ai->read ? e : 0) + (ai->written ? e : 0);
    }
    return total;
}

/* gemm: which loop is m, n, k; -1 when the nest is not a matrix product. */
static int gemm_shape(const cg_tile_model *m, int64_t *mm, int64_t *nn,
                      int64_t *kk, int *celem)
{
    if (m->nloops != 3 || m->narrays != 3)
        return -1;
    int w = -1;
    uint32_t seen = 0;
    for (int a = 0; a < 3; a++) {
        uint32_t l = m->arrays[a].loops;
        if (popcount(l) != 2 || (seen & (1u << l)))
            return -1;
        seen |= 1u << l;
        if (m->arrays[a].written) {
            if (w >= 0)
                return -1;
            w = a;
        }
    }
    if (w < 0)
        return -1;
    uint32_t c = m->arrays[w].loops;
    int lk = 0;
    while ((c >> lk) & 1)
        lk++;
    /* the other two arrays: one shares loop i with C, the other j */
    int64_t t[2];
    int k = 0;
    for (int l = 0; l < 3; l++)
        if ((c >> l) & 1)
            t[k++] = m->trip[l];
    *mm = t[0];
    *nn = t[1];
    *kk = m->trip[lk];
    *celem = m->arrays[w].elem_size;
    return 0;
}

static bool has_halo(const cg_tile_model *m)
{
    for (int a = 0; a < m->narrays; a++)
        for (int d = 0; d < m->arrays[a].ndims; d++)
            if (m->spread[a][d] > 0)
                return true;
    return false;
}

/* ---- the continuous relaxation ------------------------------------------- */

typedef struct relax {
    const cg_tile_model *m;
    const cg_tile_target *t;
    const int *order;
    const cg_tile_search_params *w; /* grid points, bisection steps */
} relax;

static double extent(const cg_tile_model *m, int a, int d, const double *x)
{
    if (!m->arrays[a].exact[d])
        return (double)m->full[a].size[d];
    const cg_tile_access_info *acc = NULL;
    for (int i = 0; i < m->naccesses && !acc; i++)
        if (m->acc[i].array == a)
            acc = &m->acc[i];
    double e = (double)m->spread[a][d] + 1;
    for (int l = 0; acc && l < m->nloops; l++)
        e += fabs((double)acc->coef[d][l]) * (x[l] - 1);
    return e < (double)m->full[a].size[d] ? e : (double)m->full[a].size[d];
}

/* Traffic in bytes for real sizes x; *fits when the buffers fit. */
static double relaxed(const relax *r, const double *x, bool *fits)
{
    const cg_tile_model *m = r->m;
    int64_t cnt[CG_TILE_MAX_LOOPS];
    for (int l = 0; l < m->nloops; l++)
        cnt[l] = x[l] < (double)m->trip[l] ? 2 : 1;
    double traffic = 0, mem = 0;
    for (int a = 0; a < m->narrays; a++) {
        const cg_tile_array_info *ai = &m->arrays[a];
        bool st, any;
        uint32_t key = cg__tile_key(m, a, cnt, r->order, &st, &any);
        double box = 1, factor = 1;
        for (int d = 0; d < ai->ndims; d++)
            box *= extent(m, a, d, x);
        for (int l = 0; l < m->nloops; l++)
            if ((key >> l) & 1)
                factor *= (double)m->trip[l] / x[l];
        double moved = factor * box * ai->elem_size;
        traffic += (ai->load ? moved : 0) + (ai->written ? moved : 0);
        mem += (any && st ? 2 : 1) * box * ai->elem_size;
    }
    *fits = mem <= (double)r->t->mem_bytes;
    return traffic;
}

/* Minimum over a geometric grid of the other loops, bisection on loop ls
 * (traffic falls as a tile grows, memory rises). */
static double relax_order(const relax *r, int ls, int grid)
{
    const cg_tile_model *m = r->m;
    int L = m->nloops, idx[CG_TILE_MAX_LOOPS] = {0};
    double best = INFINITY, x[CG_TILE_MAX_LOOPS];
    for (;;) {
        for (int l = 0, k = 0; l < L; l++) {
            if (l == ls)
                continue;
            bool fixed = l == L - 1 && m->keep_inner;
            x[l] = fixed ? (double)m->trip[l]
                         : pow((double)m->trip[l], (double)idx[k] / grid);
            k++;
        }
        bool ok;
        x[ls] = (double)m->trip[ls];
        double v = relaxed(r, x, &ok);
        if (ok && v < best)
            best = v;
        if (!(ls == L - 1 && m->keep_inner)) {
            double lo = 1, hi = (double)m->trip[ls];
            x[ls] = lo;
            relaxed(r, x, &ok);
            if (ok) {
                for (int it = 0; it < r->w->bound_bisect; it++) {
                    x[ls] = sqrt(lo * hi);
                    relaxed(r, x, &ok);
                    if (ok)
                        lo = x[ls];
                    else
                        hi = x[ls];
                }
                x[ls] = lo;
                v = relaxed(r, x, &ok);
                if (v < best)
                    best = v;
            }
        }
        int k = 0;
        while (k < L - 1 && ++idx[k] > grid)
            idx[k++] = 0;
        if (k == L - 1)
            break;
    }
    return best;
}

/* The grid has fewer points per loop as loops add dimensions to it:
 * w->bound_grid[L - 2] for L = 2, 3, 4 and more. */
static double relax_min(const cg_tile_model *m, const cg_tile_target *t,
                        const cg_tile_search_params *w, const int *order)
{
    int L = m->nloops, ls = 0;
    for (int l = 1; l < L; l++)
        if (m->trip[l] > m->trip[ls])
            ls = l;
    int grid = L <= 1 ? 1 : w->bound_grid[(L < 5 ? L : 5) - 2];
    relax r = {m, t, order, w};
    return relax_order(&r, ls, grid);
}

/* The relaxation over every order (every permutation up to
 * bound_orders_upto loops, else the plan's order), and at the plan's own
 * sizes so the bound never exceeds what the plan achieves through
 * rounding of the grid. */
static double halo_bound(const cg_tile_model *m, const cg_tile_target *t,
                         const cg_tile_search_params *w,
                         const cg_tile_summary *s)
{
    int v[CG_TILE_MAX_LOOPS];
    double best = INFINITY, x[CG_TILE_MAX_LOOPS];
    for (int l = 0; l < m->nloops; l++) {
        v[l] = l;
        x[l] = (double)s->size[l];
    }
    bool ok;
    relax r = {m, t, s->order, w};
    double own = relaxed(&r, x, &ok);
    if (ok)
        best = own;
    if (m->nloops > w->bound_orders_upto) {
        double b = relax_min(m, t, w, s->order);
        return b < best ? b : best;
    }
    do {
        double b = relax_min(m, t, w, v);
        if (b < best)
            best = b;
    } while (cg__tile_next_perm(v, m->nloops));
    return best;
}

void cg__tile_bound(const cg_tile_model *m, const cg_tile_target *t,
                    const cg_tile_params *p, cg_tile_summary *s)
{
    s->compulsory = compulsory(m);
    int64_t mm, nn, kk;
    int elem;
    if (gemm_shape(m, &mm, &nn, &kk, &elem) == 0) {
        double M = (double)(t->mem_bytes / elem);
        double b = 2.0 * (double)mm * (double)nn * (double)kk / sqrt(M) -
                   2.0 * M;
        double comp = (double)s->compulsory / elem;
        s->bound_kind = CG_TILE_BOUND_GEMM;
        s->bound = (b > comp ? b : comp) * elem;
    } else if (has_halo(m)) {
        s->bound_kind = CG_TILE_BOUND_HALO;
        double b = halo_bound(m, t, &p->search, s);
        s->bound = isfinite(b) && b > (double)s->compulsory
                       ? b : (double)s->compulsory;
    } else {
        s->bound_kind = CG_TILE_BOUND_COMPULSORY;
        s->bound = (double)s->compulsory;
    }
    s->ratio = s->bound > 0 ? (double)s->traffic / s->bound : 1.0;
}
