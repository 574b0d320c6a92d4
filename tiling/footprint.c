/* footprint.c: the tiler's view of a loop nest.  Each access of the
 * extractor's record (a byte offset affine in the loop counters) becomes one
 * affine map per array dimension from iteration numbers to element indices,
 * so the box a tile touches (halos included) follows from the maps alone.
 */
#include "tile_internal.h"

#include <stdlib.h>
#include <string.h>

static char *dupstr(const char *s) { return s ? strdup(s) : NULL; }

static int64_t floor_mod(int64_t a, int64_t m)
{
    int64_t r = a % m;
    return r < 0 ? r + m : r;
}

/* Message helpers: where an access is and how to call it. */
typedef struct ctx {
    cg_tile_model *m;
    const cg_nest *n;
    cg__tile_namefn names;
    void *nctx;
    cg_diags *d;
    int outside; /* the access that leaves its array, -1 none */
} ctx;

static int access_line(const ctx *c, int node)
{
    int line = 0;
    if (c->names)
        c->names(c->nctx, node, &line);
    return line ? line : c->m->loop_line[c->m->nloops - 1];
}

static void access_name(const ctx *c, int node, char *buf, size_t len)
{
    int line;
    const char *nm = c->names ? c->names(c->nctx, node, &line) : NULL;
    if (nm)
        snprintf(buf, len, "node '%s'", nm);
    else
        snprintf(buf, len, "node %d", node);
}

static int loops_from_nest(ctx *c)
{
    cg_tile_model *m = c->m;
    const cg_nest *n = c->n;
    if (n->nloops < 1 || n->nloops > CG_TILE_MAX_LOOPS) {
        cg_diags_add(c->d, CG_SEV_ERROR, m->file, 0,
                     "loop nest has %d loops; tiling handles 1 to %d",
                     n->nloops, CG_TILE_MAX_LOOPS);
        return -1;
    }
    m->nloops = n->nloops;
    int rc = 0;
    for (int l = 0; l < n->nloops; l++) {
        const cg_nest_loop *lp = &n->loops[l];
        char def[32];
        snprintf(def, sizeof def, "#%d", l);
        m->loop_name[l] = dupstr(lp->counter ? lp->counter : def);
        m->loop_line[l] = lp->line;
        m->trip[l] = lp->trip;
        if (lp->trip < 0 && lp->trip_in_memory) {
            cg_diags_add(c->d, CG_SEV_ERROR, m->file, lp->line,
                         "loop '%s' reads its trip count from global '%s' "
                         "in memory; tiling needs a known count: pass it to "
                         "the kernel as a parameter (--sym then gives its "
                         "value) or make it a constant", m->loop_name[l],
                         lp->trip_sym);
            rc = -1;
        } else if (lp->trip < 0 && lp->trip_sym) {
            cg_diags_add(c->d, CG_SEV_ERROR, m->file, lp->line,
                         "loop '%s' has a symbolic trip count '%s'; tiling "
                         "needs a known count (give the symbol a value)",
                         m->loop_name[l], lp->trip_sym);
            rc = -1;
        } else if (lp->trip < 0) {
            cg_diags_add(c->d, CG_SEV_ERROR, m->file, lp->line,
                         "loop '%s' has a trip count that is neither a "
                         "number nor a symbol (its bound is computed in a "
                         "loop, or it has no counter tiling can follow); "
                         "tiling needs a known count", m->loop_name[l]);
            rc = -1;
        } else if (lp->trip == 0) {
            cg_diags_add(c->d, CG_SEV_ERROR, m->file, lp->line,
                         "loop '%s' never runs (trip count 0): nothing to "
                         "tile", m->loop_name[l]);
            rc = -1;
        } else if (lp->step == 0) {
            cg_diags_add(c->d, CG_SEV_ERROR, m->file, lp->line,
                         "loop '%s' has step 0", m->loop_name[l]);
            rc = -1;
        }
    }
    return rc;
}

static int arrays_from_nest(ctx *c)
{
    cg_tile_model *m = c->m;
    const cg_nest *n = c->n;
    m->narrays = n->narrays;
    m->arrays = calloc((size_t)n->narrays + 1, sizeof(*m->arrays));
    m->array_names = calloc((size_t)n->narrays + 1, sizeof(char *));
    m->spread = calloc((size_t)n->narrays + 1, sizeof(*m->spread));
    m->full = calloc((size_t)n->narrays + 1, sizeof(*m->full));
    if (!m->arrays || !m->array_names || !m->spread || !m->full) {
        cg_diags_add(c->d, CG_SEV_ERROR, m->file, 0, "out of memory");
        return -1;
    }
    for (int a = 0; a < n->narrays; a++) {
        const cg_nest_array *na = &n->arrays[a];
        cg_tile_array_info *ai = &m->arrays[a];
        m->array_names[a] = dupstr(na->name ? na->name : "?");
        ai->name = m->array_names[a];
        ai->base = na->base;
        ai->bytes = na->bytes;
        ai->elem_size = na->elem_size;
        if (na->elem_size < 1 || na->bytes < na->elem_size ||
            na->ndims < 0 || na->ndims > CG_TILE_MAX_DIMS) {
            cg_diags_add(c->d, CG_SEV_ERROR, m->file, 0,
                         "array '%s' has a bad shape (%lld bytes, %d-byte "
                         "elements, %d dimensions)", ai->name,
                         (long long)na->bytes, na->elem_size, na->ndims);
            return -1;
        }
        int64_t prod = 1;
        for (int d = 0; d < na->ndims; d++) {
            ai->dims[d] = na->dims[d];
            prod *= na->dims[d] > 0 ? na->dims[d] : 1;
        }
        ai->ndims = na->ndims;
        if (na->ndims == 0 || prod * na->elem_size != na->bytes) {
            /* no usable declaration: one dimension over the whole global */
            ai->ndims = 1;
            ai->dims[0] = na->bytes / na->elem_size;
        }
    }
    return 0;
}

/* The access's element offset: e0 + sum g[l] * k_l.  -1 when the byte
 * offsets are not whole elements. */
static int element_map(const cg_tile_model *m, const cg_nest *n,
                       const cg_nest_access *na, int elem, int64_t *e0,
                       int64_t *g)
{
    int64_t cst = na->index.cst;
    for (int l = 0; l < m->nloops; l++) {
        cst += na->index.coef[l] * n->loops[l].start;
        g[l] = na->index.coef[l] * n->loops[l].step;
    }
    if (cst % elem)
        return -1;
    *e0 = cst / elem;
    for (int l = 0; l < m->nloops; l++) {
        if (g[l] % elem)
            return -1;
        g[l] /= elem;
    }
    return 0;
}

/* Split the element map over the array's dimensions: each loop goes to the
 * outermost dimension whose stride divides its coefficient, the constant is
 * spread so every dimension stays in bounds over the whole nest.  Returns
 * -1 when no such split exists (the access is then seen flat). */
static int split_dims(const cg_tile_model *m, const cg_tile_array_info *ai,
                      int64_t e0, const int64_t *g, cg_tile_access_info *x)
{
    int D = ai->ndims;
    int64_t stride[CG_TILE_MAX_DIMS];
    stride[D - 1] = 1;
    for (int d = D - 2; d >= 0; d--)
        stride[d] = stride[d + 1] * ai->dims[d + 1];
    memset(x->coef, 0, sizeof x->coef);
    for (int l = 0; l < m->nloops; l++) {
        if (!g[l])
            continue;
        for (int d = 0; d < D; d++)
            if (g[l] % stride[d] == 0) {
                x->coef[d][l] = g[l] / stride[d];
                break;
            }
    }
    int64_t lo[CG_TILE_MAX_DIMS], hi[CG_TILE_MAX_DIMS];
    for (int d = 0; d < D; d++) {
        lo[d] = hi[d] = 0;
        for (int l = 0; l < m->nloops; l++) {
            int64_t v = x->coef[d][l] * (m->trip[l] - 1);
            lo[d] += v < 0 ? v : 0;
            hi[d] += v > 0 ? v : 0;
        }
    }
    int64_t r = e0;
    for (int d = D - 1; d >= 1; d--) {
        int64_t cd = floor_mod(r + lo[d], ai->dims[d]) - lo[d];
        x->cst[d] = cd;
        r = (r - cd) / ai->dims[d];
    }
    x->cst[0] = r;
    for (int d = 0; d < D; d++)
        if (x->cst[d] + lo[d] < 0 || x->cst[d] + hi[d] >= ai->dims[d])
            return -1;
    return 0;
}

/* "LEAD access to 'ARR' (NODE) WHY", the array left out when arr is NULL
 * (the access is to none the nest knows). */
static int fail_access(ctx *c, const cg_nest_access *na, const char *lead,
                       const char *arr, const char *why)
{
    char nm[96];
    access_name(c, na->node, nm, sizeof nm);
    cg_diags_add(c->d, CG_SEV_ERROR, c->m->file, access_line(c, na->node),
                 "%saccess %s%s%s(%s) %s", lead, arr ? "to '" : "",
                 arr ? arr : "", arr ? "' " : "", nm, why);
    return -1;
}

/* Maps of every access; arrays that some access cannot be split for are
 * switched to the flat view. */
static int accesses_from_nest(ctx *c)
{
    cg_tile_model *m = c->m;
    const cg_nest *n = c->n;
    m->naccesses = n->naccesses;
    m->acc = calloc((size_t)n->naccesses + 1, sizeof(*m->acc));
    if (!m->acc)
        return -1;
    int rc = 0;
    for (int i = 0; i < n->naccesses; i++) {
        const cg_nest_access *na = &n->accesses[i];
        cg_tile_access_info *x = &m->acc[i];
        x->node = na->node;
        x->is_store = na->is_store;
        x->array = na->array;
        if (na->array < 0 || na->array >= n->narrays) {
            rc = fail_access(c, na, "", NULL, "is not to a known global "
                             "array; tiling needs every load and store to "
                             "index a global array");
            continue;
        }
        const char *arr = m->arrays[na->array].name;
        if (!na->index.is_affine) {
            rc = fail_access(c, na, "", arr, "is not affine in the loop "
                             "counters; tiling needs indices of the form "
                             "c + a0*i0 + a1*i1 + ...");
            continue;
        }
        for (int l = m->nloops; l < CG_NEST_MAX_LOOPS; l++)
            if (na->index.coef[l])
                rc = fail_access(c, na, "", arr, "uses a counter beyond "
                                 "the nest's loops");
    }
    return rc;
}

/* Split every access of array a; on failure fall back to the flat view and
 * check bounds there. */
static int shape_array(ctx *c, int a)
{
    cg_tile_model *m = c->m;
    const cg_nest *n = c->n;
    cg_tile_array_info *ai = &m->arrays[a];
    for (int pass = 0; pass < 2; pass++) {
        bool ok = true;
        for (int i = 0; i < m->naccesses && ok; i++) {
            if (m->acc[i].array != a)
                continue;
            const cg_nest_access *na = &n->accesses[i];
            int64_t e0, g[CG_TILE_MAX_LOOPS];
            if (element_map(m, n, na, ai->elem_size, &e0, g) < 0) {
                char why[160];
                snprintf(why, sizeof why, "is not a whole number of "
                         "%d-byte elements; tiling needs element-aligned "
                         "accesses", ai->elem_size);
                return fail_access(c, na, "index of ", ai->name, why);
            }
            if (split_dims(m, ai, e0, g, &m->acc[i]) == 0)
                continue;
            if (pass == 0) {
                ok = false;
                continue;
            }
            char nm[96];
            access_name(c, na->node, nm, sizeof nm);
            c->outside = i;
            cg_diags_add(c->d, CG_SEV_ERROR, m->file,
                         access_line(c, na->node),
                         "access to '%s' (%s) leaves the array (%lld "
                         "elements) within the loop bounds",
                         ai->name, nm, (long long)ai->dims[0]);
            return -1;
        }
        if (ok)
            return 0;
        ai->flat = true;
        ai->ndims = 1;
        ai->dims[0] = ai->bytes / ai->elem_size;
    }
    return 0;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The view of array a: in each dimension, when every access lands on one
 * residue class modulo some g > 1 (b[2*i+3]), keep only that class, so a
 * strided access buffers and moves only the elements it touches and a
 * strided store covers its box (no read-modify-write of the holes). */
static void view_array(cg_tile_model *m, int a)
{
    cg_tile_array_info *ai = &m->arrays[a];
    for (int d = 0; d < ai->ndims; d++) {
        int64_t g = 0, c0 = 0;
        bool any = false;
        for (int i = 0; i < m->naccesses; i++) {
            const cg_tile_access_info *x = &m->acc[i];
            if (x->array != a)
                continue;
            if (!any)
                c0 = x->cst[d];
            any = true;
            g = gcd64(g, x->cst[d] - c0);
            for (int l = 0; l < m->nloops; l++)
                g = gcd64(g, x->coef[d][l]);
        }
        ai->step[d] = 1;
        ai->first[d] = 0;
        ai->vdims[d] = ai->dims[d];
        if (g <= 1) /* 0: one constant index, a box of one already */
            continue;
        int64_t r = floor_mod(c0, g);
        ai->step[d] = g;
        ai->first[d] = r;
        ai->vdims[d] = (ai->dims[d] - r + g - 1) / g;
        for (int i = 0; i < m->naccesses; i++) {
            cg_tile_access_info *x = &m->acc[i];
            if (x->array != a)
                continue;
            x->cst[d] = (x->cst[d] - r) / g;
            for (int l = 0; l < m->nloops; l++)
                x->coef[d][l] /= g;
        }
    }
}

static bool same_map(const cg_tile_access_info *x, const cg_tile_access_info *y,
                     int D, int L)
{
    for (int d = 0; d < D; d++) {
        if (x->cst[d] != y->cst[d])
            return false;
        for (int l = 0; l < L; l++)
            if (x->coef[d][l] != y->coef[d][l])
                return false;
    }
    return true;
}

bool cg__tile_separable(const cg_tile_access_info *x, int D, int L,
                        bool *unit)
{
    uint32_t used = 0;
    *unit = true;
    for (int d = 0; d < D; d++) {
        int nz = 0;
        for (int l = 0; l < L; l++)
            if (x->coef[d][l]) {
                if (++nz > 1 || (used & (1u << l)))
                    return false;
                used |= 1u << l;
                if (x->coef[d][l] != 1 && x->coef[d][l] != -1)
                    *unit = false;
            }
    }
    return true;
}

/* A written array must be accessed through one separable index: then each
 * element is touched only by iterations that agree on the array's loops,
 * which tiling keeps in their original order. */
static int check_written(ctx *c, int a)
{
    cg_tile_model *m = c->m;
    cg_tile_array_info *ai = &m->arrays[a];
    const cg_tile_access_info *w = NULL;
    for (int i = 0; i < m->naccesses; i++)
        if (m->acc[i].array == a && m->acc[i].is_store) {
            w = &m->acc[i];
            break;
        }
    if (!w)
        return 0;
    char wn[96], on[96];
    access_name(c, w->node, wn, sizeof wn);
    for (int i = 0; i < m->naccesses; i++) {
        const cg_tile_access_info *x = &m->acc[i];
        if (x->array != a || same_map(x, w, ai->ndims, m->nloops))
            continue;
        access_name(c, x->node, on, sizeof on);
        cg_diags_add(c->d, CG_SEV_ERROR, m->file, access_line(c, x->node),
                     "array '%s' is written (%s) and also %s through a "
                     "different index (%s); tiling would reorder these "
                     "accesses (write and read it at one index, or use "
                     "another array)", ai->name, wn,
                     x->is_store ? "written" : "read", on);
        return -1;
    }
    bool unit;
    if (!cg__tile_separable(w, ai->ndims, m->nloops, &unit)) {
        cg_diags_add(c->d, CG_SEV_ERROR, m->file, access_line(c, w->node),
                     "array '%s' is written (%s) through an index where one "
                     "loop drives two dimensions or two loops drive one; "
                     "tiles would overlap on it", ai->name, wn);
        return -1;
    }
    ai->load = ai->read || !unit;
    return 0;
}

static void summarise_array(cg_tile_model *m, int a)
{
    cg_tile_array_info *ai = &m->arrays[a];
    int D = ai->ndims;
    const cg_tile_access_info *first = NULL;
    for (int d = 0; d < D; d++)
        ai->exact[d] = true;
    int64_t cmin[CG_TILE_MAX_DIMS], cmax[CG_TILE_MAX_DIMS];
    for (int i = 0; i < m->naccesses; i++) {
        const cg_tile_access_info *x = &m->acc[i];
        if (x->array != a)
            continue;
        if (x->is_store)
            ai->written = true;
        else
            ai->read = true;
        for (int d = 0; d < D; d++) {
            for (int l = 0; l < m->nloops; l++) {
                if (x->coef[d][l])
                    ai->loops |= 1u << l;
                if (first && first->coef[d][l] != x->coef[d][l])
                    ai->exact[d] = false;
            }
            if (!first || x->cst[d] < cmin[d])
                cmin[d] = x->cst[d];
            if (!first || x->cst[d] > cmax[d])
                cmax[d] = x->cst[d];
        }
        first = x;
    }
    for (int d = 0; d < D; d++)
        m->spread[a][d] = first ? cmax[d] - cmin[d] : 0;
    ai->load = ai->read;
}

/* The model of c's nest into c->m, or -1 with the error in c->d. */
static int build(ctx *c)
{
    cg_tile_model *m = c->m;
    int rc = loops_from_nest(c);
    if (rc == 0)
        rc = arrays_from_nest(c);
    if (rc == 0)
        rc = accesses_from_nest(c);
    for (int a = 0; rc == 0 && a < m->narrays; a++)
        rc = shape_array(c, a);
    for (int a = 0; rc == 0 && a < m->narrays; a++) {
        view_array(m, a);
        summarise_array(m, a);
        rc = check_written(c, a);
    }
    return rc;
}

cg_tile_model *cg__tile_model_build(const cg_nest *n, const char *file,
                                    cg__tile_namefn names, void *nctx,
                                    cg_diags *d)
{
    cg_tile_model *m = calloc(1, sizeof *m);
    if (!m) {
        cg_diags_add(d, CG_SEV_ERROR, file, 0, "out of memory");
        return NULL;
    }
    m->file = dupstr(file);
    ctx c = {m, n, names, nctx, d, -1};
    if (build(&c) < 0) {
        cg_tile_model_destroy(m);
        return NULL;
    }
    int64_t zero[CG_TILE_MAX_LOOPS] = {0};
    for (int a = 0; a < m->narrays; a++)
        cg_tile_footprint(m, a, zero, m->trip, &m->full[a]);
    return m;
}

cg_tile_model *cg_tile_model_build(const cg_nest *n, const char *file,
                                   cg_diags *d)
{
    return cg__tile_model_build(n, file, NULL, NULL, d);
}

int cg_tile_access_outside(const cg_nest *n)
{
    cg_tile_model *m = n ? calloc(1, sizeof *m) : NULL;
    cg_diags *d = cg_diags_create();
    ctx c = {m, n, NULL, NULL, d, -1};
    if (m && d)
        build(&c);
    cg_tile_model_destroy(m);
    cg_diags_destroy(d);
    return c.outside;
}

void cg_tile_model_destroy(cg_tile_model *m)
{
    if (!m)
        return;
    for (int l = 0; l < CG_TILE_MAX_LOOPS; l++)
        free(m->loop_name[l]);
    for (int a = 0; a < m->narrays && m->array_names; a++)
        free(m->array_names[a]);
    free(m->array_names);
    free(m->arrays);
    free(m->acc);
    free(m->spread);
    free(m->full);
    free(m->file);
    free(m);
}

int cg_tile_model_nloops(const cg_tile_model *m) { return m->nloops; }
int64_t cg_tile_model_trip(const cg_tile_model *m, int l) { return m->trip[l]; }
int cg_tile_model_narrays(const cg_tile_model *m) { return m->narrays; }
const cg_tile_array_info *cg_tile_model_array(const cg_tile_model *m, int a)
{
    return &m->arrays[a];
}
int cg_tile_model_naccesses(const cg_tile_model *m) { return m->naccesses; }
const cg_tile_access_info *cg_tile_model_access(const cg_tile_model *m, int i)
{
    return &m->acc[i];
}
void cg_tile_model_keep_inner(cg_tile_model *m, bool keep)
{
    m->keep_inner = keep;
}
bool cg_tile_model_inner_kept(const cg_tile_model *m) { return m->keep_inner; }

void cg_tile_footprint(const cg_tile_model *m, int a, const int64_t *origin,
                       const int64_t *size, cg_tile_box *box)
{
    const cg_tile_array_info *ai = &m->arrays[a];
    int64_t lo[CG_TILE_MAX_DIMS], hi[CG_TILE_MAX_DIMS];
    bool any = false;
    box->ndims = ai->ndims;
    for (int i = 0; i < m->naccesses; i++) {
        const cg_tile_access_info *x = &m->acc[i];
        if (x->array != a)
            continue;
        for (int d = 0; d < ai->ndims; d++) {
            int64_t l0 = x->cst[d], h0 = x->cst[d];
            for (int l = 0; l < m->nloops; l++) {
                int64_t c = x->coef[d][l];
                int64_t v0 = c * origin[l], v1 = c * (origin[l] + size[l] - 1);
                l0 += v0 < v1 ? v0 : v1;
                h0 += v0 < v1 ? v1 : v0;
            }
            if (!any || l0 < lo[d])
                lo[d] = l0;
            if (!any || h0 > hi[d])
                hi[d] = h0;
        }
        any = true;
    }
    for (int d = 0; d < ai->ndims; d++) {
        box->lo[d] = any ? lo[d] : 0;
        box->size[d] = any ? hi[d] - lo[d] + 1 : 0;
    }
}

int64_t cg_tile_capacity(const cg_tile_model *m, int a, const int64_t *size,
                         int64_t *extent)
{
    const cg_tile_array_info *ai = &m->arrays[a];
    const cg_tile_access_info *x = NULL;
    for (int i = 0; i < m->naccesses && !x; i++)
        if (m->acc[i].array == a)
            x = &m->acc[i];
    int64_t total = 1;
    for (int d = 0; d < ai->ndims; d++) {
        int64_t e;
        if (!x) {
            e = 0;
        } else if (ai->exact[d]) {
            e = m->spread[a][d] + 1;
            for (int l = 0; l < m->nloops; l++) {
                int64_t c = x->coef[d][l];
                e += (c < 0 ? -c : c) * (size[l] - 1);
            }
            if (e > m->full[a].size[d])
                e = m->full[a].size[d];
        } else {
            e = m->full[a].size[d];
        }
        if (extent)
            extent[d] = e;
        total *= e;
    }
    return total;
}
