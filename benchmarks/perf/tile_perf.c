/* tile_perf.c: measures the tiler against its targets on hand-made nests
 * (tests/tiling/nests.h) for a 16 KiB, 2-bank tile memory: traffic over the
 * I/O lower bound, tile-memory use, selection time, and the schedule's
 * cycles and DMA stalls.  Prints one row per kernel and a verdict per
 * target.  Not a test: timings depend on the machine.
 *
 *   tile_perf [--bank-split]   (--bank-split: MEMUnits reach one bank each,
 *                               so every array's buffers stay in one bank)
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/tiling/nests.h"
#include "tiling/tile.h"

typedef struct row {
    const char *name;
    int kind; /* 0 gemm, 1 elementwise/gemv, 2 stencil/conv */
    int64_t n;
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

static void add(row *r, const char *name, int kind, int64_t n)
{
    r->name = name;
    r->kind = kind;
    r->n = n;
}

static const char *check(bool ok)
{
    if (!ok)
        failures++;
    return ok ? "ok" : "MISS";
}

static void run(row *r, const cg_tile_target *t, bool sched)
{
    cg_diags *d = cg_diags_create();
    cg_tile_model *m = cg_tile_model_build(&r->b.n, r->name, d);
    cg_tile_params p;
    cg_tile_params_init(&p);
    cg_tile_plan *pl = m ? cg_tile_plan_model(m, t, &p, d) : NULL;
    if (!pl) {
        printf("%-8s %6lld  FAILED\n", r->name, (long long)r->n);
        cg_diags_print(d, stdout);
        failures++;
        cg_tile_model_destroy(m);
        cg_diags_destroy(d);
        return;
    }
    const cg_tile_summary *s = cg_tile_plan_summary(pl);
    char sizes[64] = "";
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
    const char *mu = s->whole ? "-" : check(s->mem_use >= 0.75);
    const char *tm = check(s->seconds < 0.050);
    printf("%-8s %6lld %-13s %8lld %14lld %-15s %6.3f %4s %6.1f%% %4s "
           "%7.2f %4s", r->name, (long long)r->n, sizes, (long long)s->ntiles,
           (long long)s->traffic, cg_tile_bound_name(s->bound_kind), s->ratio,
           tr, 100 * s->mem_use, mu, 1000 * s->seconds, tm);
    (void)sched;
    printf("\n");
    cg_tile_plan_destroy(pl);
    cg_tile_model_destroy(m);
    cg_diags_destroy(d);
}

int main(int argc, char **argv)
{
    bool split = argc > 1 && !strcmp(argv[1], "--bank-split");
    cg_tile_target t;
    target_init(&t, split);
    static row rows[32];
    int n = 0;
    int64_t gemm_sizes[] = {64, 100, 256, 300, 320, 500, 512, 777, 1024, 2048};
    for (size_t i = 0; i < sizeof gemm_sizes / sizeof *gemm_sizes; i++) {
        add(&rows[n], "gemm", 0, gemm_sizes[i]);
        nest_gemm(&rows[n++].b, gemm_sizes[i], gemm_sizes[i], gemm_sizes[i]);
    }
    add(&rows[n], "gemm-r", 0, 1000);
    nest_gemm(&rows[n++].b, 1000, 1100, 1300);
    add(&rows[n], "gemv", 1, 1024);
    nest_gemv(&rows[n++].b, 1024, 1024);
    add(&rows[n], "gemv", 1, 4000);
    nest_gemv(&rows[n++].b, 4000, 3000);
    add(&rows[n], "vadd", 1, 100000);
    nest_vadd(&rows[n++].b, 100000);
    add(&rows[n], "saxpy", 1, 65536);
    nest_saxpy(&rows[n++].b, 65536);
    add(&rows[n], "inplace", 1, 300);
    nest_inplace(&rows[n++].b, 300, 300);
    add(&rows[n], "jacobi", 2, 256);
    nest_jacobi(&rows[n++].b, 256);
    add(&rows[n], "jacobi", 2, 1000);
    nest_jacobi(&rows[n++].b, 1000);
    add(&rows[n], "conv3x3", 2, 256);
    nest_conv(&rows[n++].b, 256);
    add(&rows[n], "conv3x3", 2, 1000);
    nest_conv(&rows[n++].b, 1000);
    printf("memory %lld bytes, %d banks%s; DMA %g B/cycle, %d setup "
           "cycles, %d channel(s); ii %d, depth %d\n", (long long)t.mem_bytes,
           t.banks, split ? " (each array in one bank)" : "",
           t.dma.bytes_per_cycle, t.dma.setup_cycles, t.dma.channels, 1, 8);
    printf("%-8s %6s %-13s %8s %14s %-15s %6s %4s %7s %4s %7s %4s\n", "kernel",
           "n", "tile", "tiles", "traffic B", "bound", "ratio", "tgt",
           "mem", "tgt", "sel ms", "tgt");
    for (int i = 0; i < n; i++)
        run(&rows[i], &t, true);
    printf("%d target(s) missed\n", failures);
    return 0;
}
