/* desc_export.c: descriptors leave cgramap in three forms: buffers in the
 * style of a 4D data mover (count, then bias and four (stride, size) pairs
 * per entry), a readable table, and JSON (jansson).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "desc_internal.h"
#include "tile_internal.h"

#define WORDS_PER_ENTRY 9
#define MOVER_DIMS 4
/* keeps a buffer below 1 GiB: a bigger one is a runaway repeat */
#define MAX_ENTRIES (1 << 24)


static int whole(cg_diags *diag, const cg_tile_desc *d, int i, bool tile,
                 const char *what, int64_t bytes)
{
    if (bytes % d->elem_size == 0)
        return 0;
    return cg__tile_desc_fail(diag, d, i, "the %s-side %s is %" PRId64 " bytes, not a "
                "whole number of %d-byte elements; the 4D data mover counts "
                "in elements, so align it", tile ? "tile" : "external", what,
                bytes, d->elem_size);
}

/* d can become 4D entries: well formed, unpadded, in whole elements. */
static int exportable(const cg_tile_desc *d, int i, bool tile,
                      cg_diags *diag)
{
    if (cg__tile_desc_check(d, diag) < 0)
        return -1;
    for (int k = 0; k < d->ndims; k++)
        if (d->pad_lo[k] || d->pad_hi[k])
            return cg__tile_desc_fail(diag, d, i, "dimension %d has padding %" PRId64
                        "/%" PRId64 " (lo/hi), which the 4D data mover cannot "
                        "express; lower an OUT first (lowering drops its "
                        "padding) and zero-fill an IN's padding another way",
                        k, d->pad_lo[k], d->pad_hi[k]);
    char what[40];
    int bad = whole(diag, d, i, tile, "base",
                    tile ? d->tile_base : d->ext_base) ||
              whole(diag, d, i, tile, "offset",
                    tile ? d->tile_offset : d->ext_offset) ||
              (d->repeat > 1 &&
               whole(diag, d, i, tile, "repeat stride",
                     tile ? d->repeat_tile_stride : d->repeat_ext_stride));
    /* a stride never stepped (size 1) does not matter */
    for (int k = 0; !bad && k < d->ndims; k++) {
        if (d->size[k] == 1)
            continue;
        snprintf(what, sizeof what, "stride of dimension %d", k);
        bad = whole(diag, d, i, tile, what,
                    tile ? d->tile_stride[k] : d->ext_stride[k]);
    }
    return bad ? -1 : 0;
}

/* Entries of d: one per issue and per index of dimensions 4 and up. */
static int64_t entries(const cg_tile_desc *d)
{
    int64_t e = d->repeat;
    for (int k = MOVER_DIMS; k < d->ndims; k++)
        e *= d->size[k];
    return e;
}

static uint64_t *put_entries(const cg_tile_desc *d, bool tile, uint64_t *w)
{
    int64_t el = d->elem_size;
    const int64_t *st = tile ? d->tile_stride : d->ext_stride;
    int64_t base = tile ? d->tile_base + d->tile_offset
                        : d->ext_base + d->ext_offset;
    int64_t rs = tile ? d->repeat_tile_stride : d->repeat_ext_stride;
    for (int64_t r = 0; r < d->repeat; r++) {
        int64_t x[CG_TILE_DESC_DIMS] = {0};
        for (;;) {
            int64_t a = base + r * rs;
            for (int k = MOVER_DIMS; k < d->ndims; k++)
                a += x[k] * st[k];
            *w++ = (uint64_t)(a / el);
            for (int k = 0; k < MOVER_DIMS; k++) {
                bool used = k < d->ndims && d->size[k] > 1;
                *w++ = used ? (uint64_t)(st[k] / el) : 0;
                *w++ = used ? (uint64_t)d->size[k] : 1;
            }
            int k = MOVER_DIMS;
            while (k < d->ndims && ++x[k] == d->size[k])
                x[k++] = 0;
            if (k >= d->ndims)
                break;
        }
    }
    return w;
}

int cg_tile_desc_export_4d(const cg_tile_desc *v, int n, bool tile_side,
                           uint64_t **buf, size_t *nwords, cg_diags *diag)
{
    *buf = NULL;
    *nwords = 0;
    int64_t count = 0;
    for (int i = 0; i < n; i++) {
        if (exportable(&v[i], i, tile_side, diag) < 0)
            return -1;
        count += entries(&v[i]);
        if (count > MAX_ENTRIES)
            return cg__tile_desc_fail(
                diag, &v[i], i, "the list needs more than %d 4D entries "
                "(each repeat and each index of dimensions 4 and up is one); "
                "lower it for a 4-dimension engine first, or export it in "
                "parts", MAX_ENTRIES);
    }
    size_t words = 1 + (size_t)count * WORDS_PER_ENTRY;
    uint64_t *w = malloc(words * sizeof *w);
    if (!w) {
        cg_diags_add(diag, CG_SEV_ERROR, NULL, 0, "out of memory for %zu "
                     "words of 4D descriptors", words);
        return -1;
    }
    *buf = w;
    *nwords = words;
    *w++ = (uint64_t)count;
    for (int i = 0; i < n; i++)
        w = put_entries(&v[i], tile_side, w);
    return 0;
}

/* ---- readable table ----------------------------------------------------------- */

static const char *array_name(const cg_tile_model *m, int a, char *buf,
                              size_t len)
{
    if (m && a >= 0 && a < cg_tile_model_narrays(m))
        return cg_tile_model_array(m, a)->name;
    if (a < 0)
        return "-";
    snprintf(buf, len, "#%d", a);
    return buf;
}

/* "v0,v1,.." of n values into buf. */
static void list_text(const int64_t *v, int n, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%" PRId64, i ? "," : "",
                              v[i]);
}

static void pad_text(const cg_tile_desc *d, char *buf, size_t len)
{
    bool any = false;
    for (int k = 0; k < d->ndims; k++)
        any |= d->pad_lo[k] || d->pad_hi[k];
    size_t p = 0;
    snprintf(buf, len, "-");
    for (int k = 0; any && k < d->ndims && p < len; k++)
        p += (size_t)snprintf(buf + p, len - p, "%s%" PRId64 ":%" PRId64,
                              k ? "," : "", d->pad_lo[k], d->pad_hi[k]);
}

/* "base+offset" (offset signed). */
static void addr_text(int64_t base, int64_t off, char *buf, size_t len)
{
    snprintf(buf, len, "%" PRId64 "%+" PRId64, base, off);
}

static void write_row(const cg_tile_desc *d, int i, const cg_tile_model *m,
                      FILE *out)
{
    char name[32], size[96], pad[128], ea[48], es[128], ta[48], ts[128];
    char rep[80], tile[24];
    list_text(d->size, d->ndims, size, sizeof size);
    pad_text(d, pad, sizeof pad);
    addr_text(d->ext_base, d->ext_offset, ea, sizeof ea);
    list_text(d->ext_stride, d->ndims, es, sizeof es);
    addr_text(d->tile_base, d->tile_offset, ta, sizeof ta);
    list_text(d->tile_stride, d->ndims, ts, sizeof ts);
    if (d->repeat > 1)
        snprintf(rep, sizeof rep, "%" PRId64 " (%+" PRId64 "/%+" PRId64 ")",
                 d->repeat, d->repeat_ext_stride, d->repeat_tile_stride);
    else
        snprintf(rep, sizeof rep, "%" PRId64, d->repeat);
    if (d->tile >= 0)
        snprintf(tile, sizeof tile, "%" PRId64, d->tile);
    else
        snprintf(tile, sizeof tile, "-");
    fprintf(out, "%4d %-3s %-8s %5s %4d %-14s %-10s %-12s %-14s %-10s "
            "%-14s %-18s %8" PRId64 "\n", i,
            d->dir == CG_TILE_IN ? "in" : "out",
            array_name(m, d->array, name, sizeof name), tile, d->elem_size,
            size, pad, ea, es, ta, ts, rep, cg_tile_desc_ext_bytes(d));
}

int cg_tile_desc_write_table(const cg_tile_desc *v, int n,
                             const cg_tile_model *m, FILE *out)
{
    fprintf(out, "%4s %-3s %-8s %5s %4s %-14s %-10s %-12s %-14s %-10s %-14s "
            "%-18s %8s\n", "#", "dir", "array", "tile", "elem", "sizes",
            "pad lo:hi", "ext addr", "ext strides", "tile addr",
            "tile strides", "repeat (ext/tile)", "bytes");
    for (int i = 0; i < n; i++)
        write_row(&v[i], i, m, out);
    return cg_write_end(out, true);
}

/* ---- JSON --------------------------------------------------------------------- */

json_t *cg__tile_json_ints(const int64_t *v, int n)
{
    json_t *a = json_array();
    bool ok = true;
    for (int i = 0; i < n && ok; i++)
        cg__json_push(a, json_integer(v[i]), &ok);
    return cg__json_done(a, ok);
}

static json_t *side_json(int64_t base, int64_t off, const int64_t *stride,
                         int n, int64_t rstride)
{
    return json_pack("{s:I, s:I, s:o, s:I}", "base", (json_int_t)base,
                     "offset", (json_int_t)off, "stride",
                     cg__tile_json_ints(stride, n), "repeat_stride",
                     (json_int_t)rstride);
}

json_t *cg__tile_desc_json(const cg_tile_desc *d, const cg_tile_model *m)
{
    char buf[32];
    json_t *o = json_object();
    bool ok = true;
    cg__json_put(o, "dir", json_string(d->dir == CG_TILE_IN ? "in" : "out"),
                 &ok);
    cg__json_put(o, "array", d->array < 0 ? json_null()
                 : json_string(array_name(m, d->array, buf, sizeof buf)),
                 &ok);
    cg__json_put(o, "array_index", json_integer(d->array), &ok);
    cg__json_put(o, "tile", json_integer(d->tile), &ok);
    cg__json_put(o, "elem_size", json_integer(d->elem_size), &ok);
    cg__json_put(o, "size", cg__tile_json_ints(d->size, d->ndims), &ok);
    cg__json_put(o, "pad_lo", cg__tile_json_ints(d->pad_lo, d->ndims), &ok);
    cg__json_put(o, "pad_hi", cg__tile_json_ints(d->pad_hi, d->ndims), &ok);
    cg__json_put(o, "ext", side_json(d->ext_base, d->ext_offset,
                                     d->ext_stride, d->ndims,
                                     d->repeat_ext_stride), &ok);
    cg__json_put(o, "tile_mem", side_json(d->tile_base, d->tile_offset,
                                          d->tile_stride, d->ndims,
                                          d->repeat_tile_stride), &ok);
    cg__json_put(o, "repeat", json_integer(d->repeat), &ok);
    cg__json_put(o, "elems", json_integer(cg_tile_desc_elems(d)), &ok);
    cg__json_put(o, "ext_bytes", json_integer(cg_tile_desc_ext_bytes(d)),
                 &ok);
    return cg__json_done(o, ok);
}
