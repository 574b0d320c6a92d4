/* desc.c: DMA transfer descriptors: the list, their cost, whether they fit
 * a DMA engine, their well-formedness, and an executor that copies between
 * an external-memory image and a tile-memory image exactly as the engine
 * would.  The executor is the reference every other transfer routine (the
 * lowering, the program) is proven against.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../dfg/dfg.h"
#include "../common/util.h"
#include "desc_internal.h"

void cg_tile_descs_free(cg_tile_descs *l)
{
    free(l->v);
    memset(l, 0, sizeof *l);
}

int cg_tile_descs_push(cg_tile_descs *l, const cg_tile_desc *d)
{
    if (CG_GROW(l->v, l->cap, l->n + 1))
        return -1;
    l->v[l->n++] = *d;
    return 0;
}

int64_t cg_tile_desc_elems(const cg_tile_desc *d)
{
    int64_t e = 1;
    for (int k = 0; k < d->ndims; k++)
        e *= d->size[k];
    return e;
}

/* Elements of d outside the array (padding) in one issue. */
static int64_t desc_real(const cg_tile_desc *d)
{
    int64_t e = 1;
    for (int k = 0; k < d->ndims; k++)
        e *= d->size[k] - d->pad_lo[k] - d->pad_hi[k];
    return e;
}

int64_t cg_tile_desc_ext_bytes(const cg_tile_desc *d)
{
    return desc_real(d) * d->elem_size * d->repeat;
}

int64_t cg_tile_desc_cycles(const cg_tile_desc *d, const cg_dma_params *dma)
{
    if (!cg_dma_bytes_per_cycle_ok(dma->bytes_per_cycle))
        return -1; /* the quotient could leave int64_t's range */
    double bytes = (double)cg_tile_desc_elems(d) * d->elem_size;
    int64_t move = (int64_t)ceil(bytes / dma->bytes_per_cycle);
    return d->repeat * (dma->setup_cycles + move);
}

static int64_t iabs(int64_t v)
{
    return v < 0 ? -v : v;
}

bool cg_tile_desc_fits(const cg_tile_desc *d, const cg_dma_params *dma)
{
    if (d->ndims < 1 || d->ndims > dma->max_dims ||
        d->ndims > CG_TILE_DESC_DIMS)
        return false;
    for (int k = 0; k < d->ndims; k++) {
        int64_t lim = dma->max_stride[k];
        if (dma->max_size[k] > 0 && d->size[k] > dma->max_size[k])
            return false;
        if (lim > 0 &&
            (iabs(d->ext_stride[k]) > lim || iabs(d->tile_stride[k]) > lim))
            return false;
    }
    return true;
}

/* ---- well-formedness ------------------------------------------------------ */

void cg__tile_desc_label(const cg_tile_desc *d, char *buf, size_t len)
{
    const char *dir = d->dir == CG_TILE_IN ? "IN" : d->dir == CG_TILE_OUT
                                                        ? "OUT" : "?";
    if (d->array >= 0 && d->tile >= 0)
        snprintf(buf, len, "DMA %s descriptor (array %d, tile %" PRId64 ")",
                 dir, d->array, d->tile);
    else if (d->array >= 0)
        snprintf(buf, len, "DMA %s descriptor (array %d)", dir, d->array);
    else
        snprintf(buf, len, "DMA %s descriptor", dir);
}

int cg__tile_desc_fail(cg_diags *diag, const cg_tile_desc *d, int entry,
                       const char *fmt, ...)
{
    char label[96], msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cg__tile_desc_label(d, label, sizeof label);
    if (entry >= 0)
        cg_diags_add(diag, CG_SEV_ERROR, NULL, 0, "%s, entry %d of the "
                     "list: %s", label, entry, msg);
    else
        cg_diags_add(diag, CG_SEV_ERROR, NULL, 0, "%s: %s", label, msg);
    return -1;
}

/* Addresses stay far from int64 overflow: every span below 2^62 bytes. */
#define SPAN_LIMIT ((int64_t)1 << 62)

/* Adds |a*b| to *acc; false when it would pass SPAN_LIMIT. */
static bool span_add(int64_t *acc, int64_t a, int64_t b)
{
    int64_t p;
    if (__builtin_mul_overflow(iabs(a), iabs(b), &p) || p > SPAN_LIMIT ||
        *acc + p > SPAN_LIMIT)
        return false;
    *acc += p;
    return true;
}

static int check_dim(const cg_tile_desc *d, int k, cg_diags *diag)
{
    if (d->size[k] < 1)
        return cg__tile_desc_fail(diag, d, -1, "dimension %d has size %" PRId64 "; every size "
                    "must be at least 1 (drop an empty transfer instead of "
                    "describing it)", k, d->size[k]);
    if (d->pad_lo[k] < 0 || d->pad_hi[k] < 0)
        return cg__tile_desc_fail(diag, d, -1, "dimension %d has padding %" PRId64 "/%" PRId64
                    " (lo/hi); padding counts elements and cannot be "
                    "negative", k, d->pad_lo[k], d->pad_hi[k]);
    if (d->pad_lo[k] + d->pad_hi[k] > d->size[k])
        return cg__tile_desc_fail(diag, d, -1, "dimension %d pads %" PRId64 " + %" PRId64
                    " elements of its %" PRId64 "; pad_lo + pad_hi may be "
                    "at most the size", k, d->pad_lo[k], d->pad_hi[k],
                    d->size[k]);
    return 0;
}

/* Both sides' address spans and the element count stay below 2^62. */
static int check_spans(const cg_tile_desc *d, cg_diags *diag)
{
    int64_t es = 0, ts = 0, n = 1;
    bool ok = span_add(&es, 1, d->ext_base) &&
              span_add(&es, 1, d->ext_offset) &&
              span_add(&ts, 1, d->tile_base) &&
              span_add(&ts, 1, d->tile_offset) &&
              span_add(&es, d->repeat - 1, d->repeat_ext_stride) &&
              span_add(&ts, d->repeat - 1, d->repeat_tile_stride);
    for (int k = 0; ok && k < d->ndims; k++)
        ok = span_add(&es, d->size[k] - 1, d->ext_stride[k]) &&
             span_add(&ts, d->size[k] - 1, d->tile_stride[k]) &&
             !__builtin_mul_overflow(n, d->size[k], &n) && n <= SPAN_LIMIT;
    if (ok && !__builtin_mul_overflow(n, d->repeat, &n) && n <= SPAN_LIMIT)
        return 0;
    return cg__tile_desc_fail(diag, d, -1, "addresses or element count reach 2^62; check the "
                "sizes, strides, repeat and offsets");
}

int cg__tile_desc_check(const cg_tile_desc *d, cg_diags *diag)
{
    if (d->dir != CG_TILE_IN && d->dir != CG_TILE_OUT)
        return cg__tile_desc_fail(diag, d, -1, "direction %d; use CG_TILE_IN or CG_TILE_OUT",
                    (int)d->dir);
    if (d->ndims < 1 || d->ndims > CG_TILE_DESC_DIMS)
        return cg__tile_desc_fail(diag, d, -1, "%d dimension(s); use 1 to %d (a single "
                    "element is one dimension of size 1; fold further "
                    "dimensions into the repeat or separate descriptors)",
                    d->ndims, CG_TILE_DESC_DIMS);
    if (d->elem_size != 1 && d->elem_size != 2 && d->elem_size != 4 &&
        d->elem_size != 8)
        return cg__tile_desc_fail(diag, d, -1, "element size %d bytes; use 1, 2, 4 or 8",
                    d->elem_size);
    if (d->repeat < 1)
        return cg__tile_desc_fail(diag, d, -1, "repeat %" PRId64 "; use 1 for a single issue",
                    d->repeat);
    for (int k = 0; k < d->ndims; k++)
        if (check_dim(d, k, diag) < 0)
            return -1;
    return check_spans(d, diag);
}

/* ---- execution ------------------------------------------------------------ */

/* [lo, hi] inclusive range of x*stride over x in [a, b]. */
static void term_range(int64_t a, int64_t b, int64_t stride, int64_t *lo,
                       int64_t *hi)
{
    int64_t u = a * stride, v = b * stride;
    *lo += u < v ? u : v;
    *hi += u < v ? v : u;
}

static bool in_image(const cg_mem *m, int64_t lo, int64_t hi)
{
    return lo >= 0 && (uint64_t)lo >= m->base &&
           (uint64_t)hi - m->base < m->size;
}

/* Whether every access of one side lies in image m: the ext side touches
 * real elements only, the tile side every element of an IN. */
static bool side_fits(const cg_tile_desc *d, const cg_mem *m, bool ext)
{
    bool all = !ext && d->dir == CG_TILE_IN;
    int64_t lo = ext ? d->ext_base + d->ext_offset
                     : d->tile_base + d->tile_offset;
    int64_t hi = lo + d->elem_size - 1;
    for (int k = 0; k < d->ndims; k++) {
        int64_t a = all ? 0 : d->pad_lo[k];
        int64_t b = d->size[k] - 1 - (all ? 0 : d->pad_hi[k]);
        if (b < a)
            return true; /* no real element: the side is not touched */
        term_range(a, b, ext ? d->ext_stride[k] : d->tile_stride[k], &lo,
                   &hi);
    }
    term_range(0, d->repeat - 1,
               ext ? d->repeat_ext_stride : d->repeat_tile_stride, &lo, &hi);
    return in_image(m, lo, hi);
}

static void addr_text(int64_t a, char *buf, size_t len)
{
    if (a < 0)
        snprintf(buf, len, "-0x%" PRIx64, (uint64_t)-a);
    else
        snprintf(buf, len, "0x%" PRIx64, (uint64_t)a);
}

/* The error for the first access of element x (issue r) outside image m. */
static int report(const cg_tile_desc *d, const int64_t *x, int64_t r,
                  bool ext, int64_t addr, const cg_mem *m, cg_diags *diag)
{
    char idx[160], a0[24], a1[24], img[80];
    size_t k = 0;
    for (int i = 0; i < d->ndims && k < sizeof idx; i++)
        k += (size_t)snprintf(idx + k, sizeof idx - k, "%s%" PRId64,
                              i ? ", " : "", x[i]);
    addr_text(addr, a0, sizeof a0);
    addr_text(addr + d->elem_size - 1, a1, sizeof a1);
    if (m->size == 0)
        snprintf(img, sizeof img, "the empty %s image",
                 ext ? "external" : "tile-memory");
    else
        snprintf(img, sizeof img, "the %s image 0x%" PRIx64 "..0x%" PRIx64,
                 ext ? "external" : "tile-memory", m->base,
                 m->base + m->size - 1);
    bool reads = ext == (d->dir == CG_TILE_IN);
    return cg__tile_desc_fail(diag, d, -1, "element (%s) of issue %" PRId64 " %s %s bytes "
                "%s..%s, outside %s; fix the descriptor's base, offset or "
                "strides, or give an image that covers them", idx, r,
                reads ? "reads" : "writes", ext ? "external" : "tile-memory",
                a0, a1, img);
}

static bool is_pad(const cg_tile_desc *d, const int64_t *x)
{
    for (int k = 0; k < d->ndims; k++)
        if (x[k] < d->pad_lo[k] || x[k] >= d->size[k] - d->pad_hi[k])
            return true;
    return false;
}

/* One element: with check, only verify its accesses (report the first
 * failure); else copy it (or zero-fill / skip it when it is padding). */
static int element(const cg_tile_desc *d, const int64_t *x, int64_t r,
                   cg_mem *ext, cg_mem *tile, bool check, cg_diags *diag)
{
    int64_t ea = d->ext_base + d->ext_offset + r * d->repeat_ext_stride;
    int64_t ta = d->tile_base + d->tile_offset + r * d->repeat_tile_stride;
    for (int k = 0; k < d->ndims; k++) {
        ea += x[k] * d->ext_stride[k];
        ta += x[k] * d->tile_stride[k];
    }
    int64_t n = d->elem_size;
    bool pad = is_pad(d, x);
    if (check) {
        bool in = d->dir == CG_TILE_IN;
        /* report in the engine's order: the read comes first */
        if (!pad && in && !in_image(ext, ea, ea + n - 1))
            return report(d, x, r, true, ea, ext, diag);
        if ((!pad || in) && !in_image(tile, ta, ta + n - 1))
            return report(d, x, r, false, ta, tile, diag);
        if (!pad && !in && !in_image(ext, ea, ea + n - 1))
            return report(d, x, r, true, ea, ext, diag);
        return 0;
    }
    uint8_t *e = pad ? NULL : ext->data + ((uint64_t)ea - ext->base);
    uint8_t *t = tile->data + ((uint64_t)ta - tile->base);
    if (d->dir == CG_TILE_IN)
        pad ? memset(t, 0, (size_t)n) : memcpy(t, e, (size_t)n);
    else if (!pad)
        memcpy(e, t, (size_t)n);
    return 0;
}

/* Every element in issue order: repeat outermost, then dimension
 * ndims-1 .. 0. */
static int walk(const cg_tile_desc *d, cg_mem *ext, cg_mem *tile, bool check,
                cg_diags *diag)
{
    for (int64_t r = 0; r < d->repeat; r++) {
        int64_t x[CG_TILE_DESC_DIMS] = {0};
        for (;;) {
            if (element(d, x, r, ext, tile, check, diag) < 0)
                return -1;
            int k = 0;
            while (k < d->ndims && ++x[k] == d->size[k])
                x[k++] = 0;
            if (k == d->ndims)
                break;
        }
    }
    return 0;
}

int cg_tile_desc_exec(const cg_tile_desc *d, cg_mem *ext, cg_mem *tile,
                      cg_diags *diag)
{
    if (cg__tile_desc_check(d, diag) < 0)
        return -1;
    /* nothing is written unless every access is inside its image */
    if (!side_fits(d, ext, true) || !side_fits(d, tile, false))
        if (walk(d, ext, tile, true, diag) < 0)
            return -1;
    return walk(d, ext, tile, false, diag);
}
