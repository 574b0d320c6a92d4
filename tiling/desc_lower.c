/* desc_lower.c: lowering a DMA descriptor to the limits of a DMA engine.
 *
 * The design idea: a descriptor is a box of (source, destination) element
 * pairs.  Because the destinations of a lowered descriptor must be distinct
 * (checked first), the final memory depends only on that set of pairs, not
 * on the order the engine visits them; so the lowering may reorder, merge,
 * split and peel dimensions freely as long as it emits the same set.  The
 * repeat is treated as one more (outermost) dimension and chosen again at
 * the end.
 *
 * One pass over a box: normalise (drop size-1 dimensions, merge contiguous
 * ones, unit stride innermost), then walk positions p = 0.. and at each
 * either peel the dimension (stride beyond the limit, or p >= max_dims) to
 * the outside, split it by a factor (size beyond the limit), or cut the box
 * in parts along it and lower each part on its own.  Peeled dimensions
 * become the repeat (the largest unpadded one) or separate descriptors.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "desc_internal.h"

/* Dimensions a box may hold during one pass: at most 9 at its start (8 and
 * the repeat; merging undoes earlier factor splits) plus one per position
 * split. */
#define LDIMS 24

typedef struct ldim {
    int64_t size, plo, phi; /* elements; padding as in cg_tile_desc */
    int64_t es, ts;         /* byte strides, external and tile side */
    int id;                 /* dimension of the source descriptor, -1 for
                               its repeat (messages only) */
} ldim;

typedef struct lbox {
    int n;
    ldim d[LDIMS];          /* innermost first */
    int64_t ea, ta;         /* byte addresses of element 0 */
    bool zero;              /* every element is padding (IN only) */
} lbox;

typedef struct lctx {
    const cg_tile_desc *src;
    const cg_dma_params *dma;
    cg_tile_descs *out;
    cg_diags *diag;
} lctx;

static int64_t iabs(int64_t v)
{
    return v < 0 ? -v : v;
}

static int fail(lctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail(lctx *c, const char *fmt, ...)
{
    char label[96], msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cg__tile_desc_label(c->src, label, sizeof label);
    cg_diags_add(c->diag, CG_SEV_ERROR, NULL, 0, "%s: %s", label, msg);
    return -1;
}

static int check_dma(lctx *c)
{
    const cg_dma_params *m = c->dma;
    if (m->max_dims < 1 || m->max_dims > CG_DMA_MAX_DIMS)
        return fail(c, "the DMA engine allows %d dimension(s); declare "
                    "between 1 and %d", m->max_dims, CG_DMA_MAX_DIMS);
    for (int k = 0; k < m->max_dims; k++)
        if (m->max_size[k] < 0 || m->max_stride[k] < 0)
            return fail(c, "the DMA engine's limits of dimension %d are "
                        "size %" PRId64 " and stride %" PRId64 "; use a "
                        "positive limit, or 0 for none", k, m->max_size[k],
                        m->max_stride[k]);
    return 0;
}

/* ---- boxes ------------------------------------------------------------------ */

static void box_from_desc(const cg_tile_desc *d, lbox *b)
{
    memset(b, 0, sizeof *b);
    for (int k = 0; k < d->ndims; k++)
        b->d[b->n++] = (ldim){d->size[k], d->pad_lo[k], d->pad_hi[k],
                              d->ext_stride[k], d->tile_stride[k], k};
    if (d->repeat > 1)
        b->d[b->n++] = (ldim){d->repeat, 0, 0, d->repeat_ext_stride,
                              d->repeat_tile_stride, -1};
    b->ea = d->ext_base + d->ext_offset;
    b->ta = d->tile_base + d->tile_offset;
}

/* An OUT skips its padding: shrink every dimension to its real part.
 * Returns false when nothing is left. */
static bool trim(lbox *b)
{
    for (int i = 0; i < b->n; i++) {
        ldim *x = &b->d[i];
        b->ea += x->plo * x->es;
        b->ta += x->plo * x->ts;
        x->size -= x->plo + x->phi;
        x->plo = x->phi = 0;
        if (x->size == 0)
            return false;
    }
    return true;
}

static int cmp_abs(const void *a, const void *b)
{
    int64_t u = iabs(((const ldim *)a)->ts), v = iabs(((const ldim *)b)->ts);
    return (u > v) - (u < v);
}

/* Destinations must be distinct: with the dimensions sorted by |stride| on
 * the destination side, each stride must clear the span of the smaller
 * ones.  (Sufficient, not necessary: interleaved patterns are refused.) */
static int check_disjoint(lctx *c, const lbox *b)
{
    bool ext = c->src->dir == CG_TILE_OUT;
    ldim v[LDIMS];
    int n = 0;
    for (int i = 0; i < b->n; i++)
        if (b->d[i].size > 1) {
            v[n] = b->d[i];
            v[n++].ts = ext ? b->d[i].es : b->d[i].ts; /* sort key */
        }
    qsort(v, (size_t)n, sizeof *v, cmp_abs);
    int64_t span = c->src->elem_size;
    for (int i = 0; i < n; i++) {
        if (iabs(v[i].ts) < span) {
            char what[32];
            if (v[i].id < 0)
                snprintf(what, sizeof what, "the repeat");
            else
                snprintf(what, sizeof what, "dimension %d", v[i].id);
            return fail(c, "on the %s side, %s (size %" PRId64 ", stride %"
                        PRId64 " bytes) lands inside the %" PRId64 " bytes "
                        "spanned by the smaller strides, so a destination "
                        "is written twice; give each element its own "
                        "destination (each |stride| at least the span of "
                        "the smaller ones)", ext ? "external" : "tile-memory",
                        what, v[i].size, v[i].ts, span);
        }
        span += (v[i].size - 1) * iabs(v[i].ts);
    }
    return 0;
}

static void remove_dim(lbox *b, int i)
{
    memmove(&b->d[i], &b->d[i + 1], (size_t)(b->n - i - 1) * sizeof b->d[0]);
    b->n--;
}

static void insert_dim(lbox *b, int i, ldim x)
{
    memmove(&b->d[i + 1], &b->d[i], (size_t)(b->n - i) * sizeof b->d[0]);
    b->d[i] = x;
    b->n++;
}

/* Merge some dimension j into an unpadded i whose block it continues on
 * both sides (j's strides are i's size times i's strides). */
static bool merge_once(lbox *b)
{
    for (int i = 0; i < b->n; i++) {
        ldim *x = &b->d[i];
        if (x->plo || x->phi)
            continue;
        for (int j = 0; j < b->n; j++) {
            ldim *y = &b->d[j];
            if (j == i || y->es != x->size * x->es ||
                y->ts != x->size * x->ts)
                continue;
            x->plo = y->plo * x->size;
            x->phi = y->phi * x->size;
            x->size *= y->size;
            remove_dim(b, j);
            return true;
        }
    }
    return false;
}

/* Reverse dimension i (the same pairs, visited backwards). */
static void flip(lbox *b, int i)
{
    ldim *x = &b->d[i];
    b->ea += (x->size - 1) * x->es;
    b->ta += (x->size - 1) * x->ts;
    x->es = -x->es;
    x->ts = -x->ts;
    int64_t t = x->plo;
    x->plo = x->phi;
    x->phi = t;
}

/* Make a dimension of unit stride (one element, external side preferred)
 * the innermost, ascending. */
static void unit_innermost(lbox *b, int elem)
{
    int u = -1;
    bool ext = false;
    for (int i = 0; i < b->n && u < 0 && !b->zero; i++)
        if (iabs(b->d[i].es) == elem)
            u = i, ext = true;
    for (int i = 0; i < b->n && u < 0; i++)
        if (iabs(b->d[i].ts) == elem)
            u = i;
    if (u < 0)
        return;
    if ((ext ? b->d[u].es : b->d[u].ts) < 0)
        flip(b, u);
    ldim x = b->d[u];
    remove_dim(b, u);
    insert_dim(b, 0, x);
}

static void normalise(lbox *b, int elem)
{
    int n = 0;
    for (int i = 0; i < b->n; i++) {
        ldim x = b->d[i];
        if (x.plo + x.phi >= x.size)
            b->zero = true;
        if (x.size > 1)
            b->d[n++] = x;
    }
    b->n = n;
    for (int i = 0; b->zero && i < b->n; i++) {
        /* only the tile side matters for zeros */
        b->d[i].plo = b->d[i].phi = 0;
        b->d[i].es = 0;
    }
    while (merge_once(b))
        ;
    unit_innermost(b, elem);
}

/* The part of b whose dimension p lies in [lo, hi). */
static lbox restrict_box(const lbox *b, int p, int64_t lo, int64_t hi)
{
    lbox s = *b;
    ldim *x = &s.d[p];
    s.ea += lo * x->es;
    s.ta += lo * x->ts;
    int64_t rlo = x->plo > lo ? x->plo : lo;
    int64_t rhi = x->size - x->phi < hi ? x->size - x->phi : hi;
    x->size = hi - lo;
    x->plo = rhi > rlo ? rlo - lo : x->size;
    x->phi = rhi > rlo ? hi - rhi : 0;
    return s;
}

/* ---- emitting ----------------------------------------------------------------- */

static int emit_one(lctx *c, const lbox *b, int64_t ea, int64_t ta, bool zero,
                    const ldim *rep)
{
    const cg_tile_desc *s = c->src;
    cg_tile_desc o;
    memset(&o, 0, sizeof o);
    o.dir = s->dir;
    o.array = s->array;
    o.tile = s->tile;
    o.elem_size = s->elem_size;
    o.ext_base = s->ext_base;
    o.tile_base = s->tile_base;
    o.ext_offset = ea - s->ext_base;
    o.tile_offset = ta - s->tile_base;
    o.ndims = b->n ? b->n : 1;
    o.size[0] = 1;
    for (int k = 0; k < b->n; k++) {
        o.size[k] = b->d[k].size;
        o.pad_lo[k] = zero ? 0 : b->d[k].plo;
        o.pad_hi[k] = zero ? 0 : b->d[k].phi;
        o.ext_stride[k] = zero ? 0 : b->d[k].es;
        o.tile_stride[k] = b->d[k].ts;
    }
    if (zero)
        o.pad_lo[o.ndims - 1] = o.size[o.ndims - 1];
    o.repeat = rep ? rep->size : 1;
    o.repeat_ext_stride = rep && !zero ? rep->es : 0;
    o.repeat_tile_stride = rep ? rep->ts : 0;
    if (cg_tile_descs_push(c->out, &o) < 0)
        return fail(c, "out of memory");
    return 0;
}

/* Emit b's inner dimensions once per index of the peeled ones: the largest
 * unpadded peeled dimension becomes the repeat, the rest are enumerated
 * (an index in a padded range makes that descriptor all zeros). */
static int emit(lctx *c, const lbox *b, ldim *outer, int no)
{
    int r = -1;
    for (int i = 0; i < no; i++)
        if (!outer[i].plo && !outer[i].phi &&
            (r < 0 || outer[i].size > outer[r].size))
            r = i;
    int64_t x[LDIMS] = {0};
    for (;;) {
        int64_t ea = b->ea, ta = b->ta;
        bool zero = b->zero;
        for (int i = 0; i < no; i++) {
            if (i == r)
                continue;
            ea += x[i] * outer[i].es;
            ta += x[i] * outer[i].ts;
            zero |= x[i] < outer[i].plo || x[i] >= outer[i].size - outer[i].phi;
        }
        if (emit_one(c, b, ea, ta, zero, r >= 0 ? &outer[r] : NULL) < 0)
            return -1;
        int k = 0;
        while (k < no && (k == r || ++x[k] == outer[k].size))
            x[k++] = 0;
        if (k == no)
            return 0;
    }
}

/* ---- one pass ----------------------------------------------------------------- */

static int lower_box(lctx *c, lbox *b);

/* Largest a <= lim dividing size, plo and phi with 2a > lim (a factor that
 * keeps the inner dimension nearly full); 0 when there is none. */
static int64_t factor(int64_t size, int64_t lim, int64_t plo, int64_t phi)
{
    for (int64_t a = lim; a >= 2 && 2 * a > lim; a--)
        if (size % a == 0 && plo % a == 0 && phi % a == 0)
            return a;
    return 0;
}

/* Dimension p of b is larger than lim (>= 2).  Split it in place into
 * (a, size/a) and return 1, or cut b (with its peeled dimensions put back)
 * into parts along p, lower each, and return 0; -1 on error. */
static int split(lctx *c, lbox *b, const ldim *outer, int no, int p,
                 int64_t lim)
{
    ldim x = b->d[p];
    int64_t a = factor(x.size, lim, x.plo, x.phi);
    if (a) {
        if (b->n == LDIMS)
            return fail(c, "internal limit of %d dimensions reached", LDIMS);
        b->d[p] = (ldim){a, 0, 0, x.es, x.ts, x.id};
        insert_dim(b, p + 1, (ldim){x.size / a, x.plo / a, x.phi / a,
                                    a * x.es, a * x.ts, x.id});
        return 1;
    }
    lbox whole = *b;
    for (int i = 0; i < no; i++)
        whole.d[whole.n++] = outer[i];
    /* padded: cut at the padding; else full chunks and the remainder */
    int64_t cut[4] = {0, x.plo, x.size - x.phi, x.size};
    if (!x.plo && !x.phi)
        cut[1] = cut[2] = x.size / lim * lim;
    for (int i = 0; i < 3; i++) {
        if (cut[i + 1] <= cut[i])
            continue;
        lbox part = restrict_box(&whole, p, cut[i], cut[i + 1]);
        if (lower_box(c, &part) < 0)
            return -1;
    }
    return 0;
}

static bool stride_ok(const ldim *x, int64_t lim)
{
    return lim == 0 || (iabs(x->es) <= lim && iabs(x->ts) <= lim);
}

static int lower_box(lctx *c, lbox *b)
{
    const cg_dma_params *m = c->dma;
    ldim outer[LDIMS];
    int no = 0;
    normalise(b, c->src->elem_size);
    for (int p = 0; p < b->n;) {
        ldim *x = &b->d[p];
        int64_t lim = p < m->max_dims ? m->max_size[p] : 0;
        if (p >= m->max_dims || !stride_ok(x, m->max_stride[p]) || lim == 1) {
            outer[no++] = *x; /* the engine cannot step it: peel it */
            remove_dim(b, p);
            continue;
        }
        if (lim > 0 && x->size > lim) {
            int r = split(c, b, outer, no, p, lim);
            if (r <= 0)
                return r;
        }
        p++;
    }
    return emit(c, b, outer, no);
}

int cg_tile_desc_lower(const cg_tile_desc *d, const cg_dma_params *dma,
                       cg_tile_descs *out, cg_diags *diag)
{
    lctx c = {d, dma, out, diag};
    if (cg__tile_desc_check(d, diag) < 0 || check_dma(&c) < 0)
        return -1;
    lbox b;
    box_from_desc(d, &b);
    if (d->dir == CG_TILE_OUT && !trim(&b))
        return 0; /* all padding: an OUT moves nothing */
    if (check_disjoint(&c, &b) < 0)
        return -1;
    return lower_box(&c, &b);
}
