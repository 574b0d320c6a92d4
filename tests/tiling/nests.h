/* nests.h: hand-made loop-nest records (what the extractor fills) for the
 * tiling tests and benchmarks/perf/tile_perf.c.  Header-only.
 */
#ifndef CG_TEST_NESTS_H
#define CG_TEST_NESTS_H

#include <stdarg.h>
#include <string.h>

#include "dfg/dfg.h"

typedef struct nestb {
    cg_nest n;
    cg_nest_array arr[8];
    cg_nest_access acc[32];
    cg_nest_livein liv[8];
    int64_t next_base;
} nestb;

static inline void nb_init(nestb *b)
{
    memset(b, 0, sizeof *b);
    b->n.arrays = b->arr;
    b->n.accesses = b->acc;
    b->n.liveins = b->liv;
    b->next_base = 0x1000;
}

/* for (name = start; ...; name += step), trip iterations, line 10 + l */
static inline int nb_loop_ss(nestb *b, const char *name, int64_t trip,
                             int64_t start, int64_t step)
{
    int l = b->n.nloops++;
    b->n.loops[l] = (cg_nest_loop){name, 10 + l, start, step, trip, NULL,
                                   false};
    return l;
}

static inline int nb_loop(nestb *b, const char *name, int64_t trip)
{
    return nb_loop_ss(b, name, trip, 0, 1);
}

/* An array of ndims dimensions (then the sizes), elem bytes per element. */
static inline int nb_array(nestb *b, const char *name, int elem, int ndims,
                           ...)
{
    int a = b->n.narrays++;
    cg_nest_array *x = &b->arr[a];
    va_list ap;
    va_start(ap, ndims);
    int64_t prod = 1;
    x->name = name;
    x->elem_size = elem;
    x->ndims = ndims;
    for (int d = 0; d < ndims; d++) {
        x->dims[d] = va_arg(ap, int64_t);
        prod *= x->dims[d];
    }
    va_end(ap);
    x->bytes = prod * elem;
    x->base = b->next_base;
    b->next_base += (x->bytes + 63) / 64 * 64;
    return a;
}

/* An access to array a: element index per dimension d is
 * cst[d] + coef of loop loop[d] (loop -1: constant), in counter values. */
static inline int nb_access(nestb *b, int node, bool store, int a,
                            const int64_t *cst, const int *loop,
                            const int64_t *coef)
{
    int i = b->n.naccesses++;
    cg_nest_access *x = &b->acc[i];
    const cg_nest_array *ar = &b->arr[a];
    memset(x, 0, sizeof *x);
    x->node = node;
    x->is_store = store;
    x->array = a;
    x->index.is_affine = true;
    int64_t stride = ar->elem_size;
    for (int d = ar->ndims - 1; d >= 0; d--) {
        x->index.cst += cst[d] * stride;
        if (loop[d] >= 0)
            x->index.coef[loop[d]] += coef[d] * stride;
        stride *= ar->dims[d];
    }
    return i;
}

/* a[i + ci][j + cj] with loops li, lj (-1: constant) and unit coefficients */
static inline int nb_acc2(nestb *b, int node, bool store, int a, int li,
                          int64_t ci, int lj, int64_t cj)
{
    int64_t cst[2] = {ci, cj}, coef[2] = {1, 1};
    int loop[2] = {li, lj};
    return nb_access(b, node, store, a, cst, loop, coef);
}

static inline int nb_acc1(nestb *b, int node, bool store, int a, int l,
                          int64_t c)
{
    int64_t cst[1] = {c}, coef[1] = {1};
    int loop[1] = {l};
    return nb_access(b, node, store, a, cst, loop, coef);
}

/* ---- the kernels ------------------------------------------------------- */

/* C[i][j] += A[i][k] * B[k][j] */
static inline void nest_gemm(nestb *b, int64_t m, int64_t n, int64_t k)
{
    nb_init(b);
    int i = nb_loop(b, "i", m), j = nb_loop(b, "j", n), kk = nb_loop(b, "k", k);
    int A = nb_array(b, "A", 4, 2, m, k), B = nb_array(b, "B", 4, 2, k, n);
    int C = nb_array(b, "C", 4, 2, m, n);
    nb_acc2(b, 0, false, C, i, 0, j, 0);
    nb_acc2(b, 1, false, A, i, 0, kk, 0);
    nb_acc2(b, 2, false, B, kk, 0, j, 0);
    nb_acc2(b, 3, true, C, i, 0, j, 0);
}

/* y[i] += A[i][j] * x[j] */
static inline void nest_gemv(nestb *b, int64_t m, int64_t n)
{
    nb_init(b);
    int i = nb_loop(b, "i", m), j = nb_loop(b, "j", n);
    int A = nb_array(b, "A", 4, 2, m, n), x = nb_array(b, "x", 4, 1, n);
    int y = nb_array(b, "y", 4, 1, m);
    nb_acc1(b, 0, false, y, i, 0);
    nb_acc2(b, 1, false, A, i, 0, j, 0);
    nb_acc1(b, 2, false, x, j, 0);
    nb_acc1(b, 3, true, y, i, 0);
}

/* c[i] = a[i] + b[i] */
static inline void nest_vadd(nestb *b, int64_t n)
{
    nb_init(b);
    int i = nb_loop(b, "i", n);
    int A = nb_array(b, "a", 4, 1, n), B = nb_array(b, "b", 4, 1, n);
    int C = nb_array(b, "c", 4, 1, n);
    nb_acc1(b, 0, false, A, i, 0);
    nb_acc1(b, 1, false, B, i, 0);
    nb_acc1(b, 2, true, C, i, 0);
}

/* y[i] = alpha * x[i] + y[i] */
static inline void nest_saxpy(nestb *b, int64_t n)
{
    nb_init(b);
    int i = nb_loop(b, "i", n);
    int x = nb_array(b, "x", 4, 1, n), y = nb_array(b, "y", 4, 1, n);
    nb_acc1(b, 0, false, x, i, 0);
    nb_acc1(b, 1, false, y, i, 0);
    nb_acc1(b, 2, true, y, i, 0);
}

/* y[3i+1] += 3 * x[2i+1]; w[2i] = x[2i+1] - i (benchmarks/tiled/strided):
 * strided loads and stores, views of every 2nd or 3rd element */
static inline void nest_strided(nestb *b, int64_t n)
{
    nb_init(b);
    int i = nb_loop(b, "i", n);
    int x = nb_array(b, "x", 4, 1, 2 * n), y = nb_array(b, "y", 4, 1,
                                                        3 * n + 2);
    int w = nb_array(b, "w", 4, 1, 2 * n);
    int64_t c1[1] = {1}, c0[1] = {0}, k2[1] = {2}, k3[1] = {3};
    int loop[1] = {i};
    nb_access(b, 0, false, x, c1, loop, k2);
    nb_access(b, 1, false, y, c1, loop, k3);
    nb_access(b, 2, true, y, c1, loop, k3);
    nb_access(b, 3, true, w, c0, loop, k2);
}

/* a[i][j] = a[i][j] * 3 + 1, in place */
static inline void nest_inplace(nestb *b, int64_t m, int64_t n)
{
    nb_init(b);
    int i = nb_loop(b, "i", m), j = nb_loop(b, "j", n);
    int A = nb_array(b, "a", 4, 2, m, n);
    nb_acc2(b, 0, false, A, i, 0, j, 0);
    nb_acc2(b, 1, true, A, i, 0, j, 0);
}

/* for i, j in 1..n-2: B[i][j] = A[i][j] + A[i-1][j] + A[i+1][j]
 *                               + A[i][j-1] + A[i][j+1] */
static inline void nest_jacobi(nestb *b, int64_t n)
{
    nb_init(b);
    int i = nb_loop_ss(b, "i", n - 2, 1, 1), j = nb_loop_ss(b, "j", n - 2, 1, 1);
    int A = nb_array(b, "A", 4, 2, n, n), B = nb_array(b, "B", 4, 2, n, n);
    nb_acc2(b, 0, false, A, i, 0, j, 0);
    nb_acc2(b, 1, false, A, i, -1, j, 0);
    nb_acc2(b, 2, false, A, i, 1, j, 0);
    nb_acc2(b, 3, false, A, i, 0, j, -1);
    nb_acc2(b, 4, false, A, i, 0, j, 1);
    nb_acc2(b, 5, true, B, i, 0, j, 0);
}

/* out[i][j] = sum over di, dj < 3 of w[di][dj] * in[i+di][j+dj], the 3x3
 * window unrolled in the body; in is (n+2) x (n+2), out n x n */
static inline void nest_conv(nestb *b, int64_t n)
{
    nb_init(b);
    int i = nb_loop(b, "i", n), j = nb_loop(b, "j", n);
    int in = nb_array(b, "in", 4, 2, n + 2, n + 2);
    int w = nb_array(b, "w", 4, 2, (int64_t)3, (int64_t)3);
    int out = nb_array(b, "out", 4, 2, n, n);
    int node = 0;
    for (int di = 0; di < 3; di++)
        for (int dj = 0; dj < 3; dj++) {
            nb_acc2(b, node++, false, w, -1, di, -1, dj);
            nb_acc2(b, node++, false, in, i, di, j, dj);
        }
    nb_acc2(b, node, true, out, i, 0, j, 0);
}

#endif
