/* tile_perf.c: measures the tiler against its targets on hand-made nests
 * (tests/tiling/nests.h) for a 16 KiB, 2-bank tile memory: traffic over the
 * I/O lower bound, tile-memory use, selection time (median of 5
 * selections), and the schedule's cycles and DMA stalls.  Prints one row
 * per kernel and a verdict per target.  Not a test: timings depend on the
 * machine.
 *
 * For a matrix multiply it also prints the floor: the least traffic of any
 * C-stationary tiling whose buffers fit (C one buffer, A and B two each,
 * rank-1 k steps), found by trying every tile height; a target below the
 * floor cannot be met by any tiling of the tiler's buffer scheme.
 *
 *   tile_perf [--bank-split]   (--bank-split: MEMUnits reach one bank each,
 *                               so every array's buffers stay in one bank)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tiling/nests.h"
#include "tiling/tile.h"

#define RUNS 5

typedef struct row {
    const char *name;
    int kind; /* 0 gemm, 1 elementwise/gemv, 2 stencil/conv */
    int64_t n;
    int64_t dims[3]; /* gemm: m, n, k */
    nestb b;
} row;

static void target_init(cg_tile_target *t, bool split)
{
    memset(t, 0, sizeof *t);
    t->memory = "spm";
    t->mem_bytes = 16384;
    t->banks = 2;
    t->any_bank = !split;
    t->bank_mask = 3;
    t->dma.ext_bytes = (int64_t)1 << 40;
    t->dma.bytes_per_cycle = 4;
    t->dma.setup_cycles = 10;
    t->dma.channels = 1;
    t->dma.max_dims = 4;
}

static int failures;

static const char *check(bool ok)
{
    if (!ok)
        failures++;
    return ok ? "ok" : "MISS";
}

/* ---- the gemm floor -------------------------------------------------------- */

/* Whether buffers of c, a, b bytes fit: anywhere, or each in one of two
 * banks. */
static bool gemm_fits(const cg_tile_target *t, int64_t c, int64_t a,
                      int64_t b)
{
    if (t->any_bank)
        return c + a + b <= t->mem_bytes;
    int64_t bank = t->mem_bytes / 2, v[3] = {c, a, b};
    for (int mask = 0; mask < 8; mask++) {
        int64_t used[2] = {0, 0};
        for (int i = 0; i < 3; i++)
            used[(mask >> i) & 1] += v[i];
        if (used[0] <= bank && used[1] <= bank)
            return true;
    }
    return false;
}

/* Least bytes moved by a C-stationary tiling of C[m][n] += A[m][k] B[k][n]
 * (4-byte elements): A is read once per column of C tiles, B once per row,
 * C in and out once.  For each tile height ti the widest tj that fits. */
static double gemm_floor(const row *r, const cg_tile_target *t)
{
    int64_t m = r->dims[0], n = r->dims[1], k = r->dims[2];
    double best = INFINITY;
    for (int64_t ti = 1; ti <= m; ti++) {
        int64_t tj = n;
        while (tj > 0 && !gemm_fits(t, 4 * ti * tj, 8 * ti, 8 * tj))
            tj--;
        if (tj == 0)
            break;
        int64_t ci = (m + ti - 1) / ti, cj = (n + tj - 1) / tj;
        double bytes = 4.0 * ((double)m * k * cj + (double)k * n * ci +
                              2.0 * m * n);
        if (bytes < best)
            best = bytes;
    }
    return best;
}

/* ---- one row ----------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Plan RUNS times; returns the last plan, *ms the median selection time. */
static cg_tile_plan *plan_median(const cg_tile_model *m,
                                 const cg_tile_target *t, double *ms,
                                 cg_diags *d)
{
    cg_tile_params p;
    cg_tile_params_init(&p);
    double secs[RUNS];
    cg_tile_plan *pl = NULL;
    for (int i = 0; i < RUNS; i++) {
        cg_tile_plan_destroy(pl);
        pl = cg_tile_plan_model(m, t, &p, d);
        if (!pl)
            return NULL;
        secs[i] = cg_tile_plan_summary(pl)->seconds;
    }
    qsort(secs, RUNS, sizeof *secs, cmp_double);
    *ms = 1000 * secs[RUNS / 2];
    return pl;
}

/* Cycles and DMA stalls of the double-buffered schedule into buf, made
 * tile by tile (cg_tile_schedule_plan: a gemm of millions of tiles has a
 * program of gigabytes). */
static void sched_text(const cg_tile_plan *pl, char *buf, size_t len,
                       cg_diags *d)
{
    snprintf(buf, len, "%14s %12s", "-", "-");
    cg_tile_sched s;
    if (cg_tile_schedule_plan(pl, 1, 8, &s, d) == 0)
        snprintf(buf, len, "%14lld %12lld", (long long)s.total_cycles,
                 (long long)s.stall_cycles);
}

static void print_row(const row *r, const cg_tile_target *t,
                      const cg_tile_plan *pl, double ms, const char *sched)
{
    const cg_tile_summary *s = cg_tile_plan_summary(pl);
    char sizes[64] = "", floor_text[16] = "-";
    size_t k = 0;
    for (int l = 0; l < s->nloops; l++)
        k += (size_t)snprintf(sizes + k, sizeof sizes - k, "%s%lld",
                              l ? "x" : "", (long long)s->size[l]);
    double sq = sqrt((double)(t->mem_bytes / 4));
    const char *tr = "-";
    if (r->kind == 0 && r->n >= 16 * sq)
        tr = check(s->ratio <= 1.10);
    else if (r->kind == 0 && r->n >= 4 * sq)
        tr = check(s->ratio <= 1.30);
    else if (r->kind == 1)
        tr = check(s->ratio <= 1.01);
    if (r->kind == 0)
        snprintf(floor_text, sizeof floor_text, "%.3f",
                 gemm_floor(r, t) / s->bound);
    const char *mu = s->whole ? "-" : check(s->mem_use >= 0.75);
    const char *tm = check(ms < 50.0);
    printf("%-8s %6lld %-13s %8lld %14lld %-15s %6.3f %4s %6s %6.1f%% %4s "
           "%7.2f %4s %s\n", r->name, (long long)r->n, sizes,
           (long long)s->ntiles, (long long)s->traffic,
           cg_tile_bound_name(s->bound_kind), s->ratio, tr, floor_text,
           100 * s->mem_use, mu, ms, tm, sched);
}

static void run(row *r, const cg_tile_target *t)
{
    cg_diags *d = cg_diags_create();
    cg_tile_model *m = cg_tile_model_build(&r->b.n, r->name, d);
    double ms = 0;
    cg_tile_plan *pl = m ? plan_median(m, t, &ms, d) : NULL;
    char sched[64];
    if (pl)
        sched_text(pl, sched, sizeof sched, d);
    if (!pl || cg_diags_errors(d)) {
        printf("%-8s %6lld  FAILED\n", r->name, (long long)r->n);
        cg_diags_print(d, stdout);
        failures++;
    } else {
        print_row(r, t, pl, ms, sched);
    }
    cg_tile_plan_destroy(pl);
    cg_tile_model_destroy(m);
    cg_diags_destroy(d);
}

/* ---- the kernels ----------------------------------------------------------- */

static row *add(row *rows, int *n, const char *name, int kind, int64_t size)
{
    row *r = &rows[(*n)++];
    r->name = name;
    r->kind = kind;
    r->n = size;
    return r;
}

static void add_gemm(row *rows, int *n, const char *name, int64_t m,
                     int64_t nn, int64_t k)
{
    row *r = add(rows, n, name, 0, m);
    r->dims[0] = m;
    r->dims[1] = nn;
    r->dims[2] = k;
    nest_gemm(&r->b, m, nn, k);
}

static int kernels(row *rows)
{
    int n = 0;
    int64_t gemm_sizes[] = {64, 100, 256, 300, 320, 500, 512, 777, 1024, 2048};
    for (size_t i = 0; i < sizeof gemm_sizes / sizeof *gemm_sizes; i++)
        add_gemm(rows, &n, "gemm", gemm_sizes[i], gemm_sizes[i],
                 gemm_sizes[i]);
    add_gemm(rows, &n, "gemm-r", 1000, 1100, 1300);
    nest_gemv(&add(rows, &n, "gemv", 1, 1024)->b, 1024, 1024);
    nest_gemv(&add(rows, &n, "gemv", 1, 4000)->b, 4000, 3000);
    nest_vadd(&add(rows, &n, "vadd", 1, 100000)->b, 100000);
    nest_saxpy(&add(rows, &n, "saxpy", 1, 65536)->b, 65536);
    nest_inplace(&add(rows, &n, "inplace", 1, 300)->b, 300, 300);
    nest_strided(&add(rows, &n, "strided", 1, 100000)->b, 100000);
    nest_jacobi(&add(rows, &n, "jacobi", 2, 256)->b, 256);
    nest_jacobi(&add(rows, &n, "jacobi", 2, 1000)->b, 1000);
    nest_conv(&add(rows, &n, "conv3x3", 2, 256)->b, 256);
    nest_conv(&add(rows, &n, "conv3x3", 2, 1000)->b, 1000);
    return n;
}

int main(int argc, char **argv)
{
    bool split = argc > 1 && !strcmp(argv[1], "--bank-split");
    cg_tile_target t;
    target_init(&t, split);
    static row rows[32];
    int n = kernels(rows);
    printf("memory %lld bytes, %d banks%s; DMA %g B/cycle, %d setup "
           "cycles, %d channel(s); ii %d, depth %d; selection: median of "
           "%d\n", (long long)t.mem_bytes, t.banks,
           split ? " (each array in one bank)" : "", t.dma.bytes_per_cycle,
           t.dma.setup_cycles, t.dma.channels, 1, 8, RUNS);
    printf("%-8s %6s %-13s %8s %14s %-15s %6s %4s %6s %7s %4s %7s %4s "
           "%14s %12s\n", "kernel", "n", "tile", "tiles", "traffic B",
           "bound", "ratio", "tgt", "floor", "mem", "tgt", "sel ms", "tgt",
           "cycles", "DMA stalls");
    for (int i = 0; i < n; i++)
        run(&rows[i], &t);
    printf("%d target(s) missed\n", failures);
    return 0;
}
