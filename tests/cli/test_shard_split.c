/* test_shard_split.c: which shard runs which unit (cli/shard_split.c,
 * linked in): the cost estimate, the deal by cost, not by count, the same
 * every time, ties broken by unit and shard order; the split of the
 * shipped benchmarks as their plan probes them; and --shard's I/N
 * values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/shard.h"

/* The cost each shard got. */
static void loads(const double *cost, const int *shard, int n, int nshards,
                  double *load)
{
    memset(load, 0, sizeof *load * (size_t)nshards);
    for (int k = 0; k < n; k++) {
        assert_true(shard[k] >= 1 && shard[k] <= nshards);
        load[shard[k] - 1] += cost[k];
    }
}

/* One large unit and many small ones: by count each shard would get the
 * same number of units; by cost the large one stands alone. */
static void test_by_cost(void **state)
{
    (void)state;
    double cost[9] = {1, 1, 1, 1, 1, 1, 1, 1, 8};
    int shard[9];
    assert_int_equal(cg_cli_shard_split(cost, 9, 2, shard), 0);
    assert_int_equal(shard[8], 1); /* the largest first, to shard 1 */
    for (int k = 0; k < 8; k++)
        assert_int_equal(shard[k], 2);
    double load[2];
    loads(cost, shard, 9, 2, load);
    assert_true(load[0] == 8 && load[1] == 8);
}

/* Largest first to the least loaded: 10 9 8 7 6 5 4 3 2 1 in 3 shards
 * gives 19, 18, 18 (the greedy deal, worked by hand). */
static void test_greedy(void **state)
{
    (void)state;
    double cost[10] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    int shard[10];
    const int want[10] = {1, 2, 3, 3, 2, 1, 1, 2, 3, 3};
    assert_int_equal(cg_cli_shard_split(cost, 10, 3, shard), 0);
    for (int k = 0; k < 10; k++)
        assert_int_equal(shard[k], want[k]);
    double load[3];
    loads(cost, shard, 10, 3, load);
    assert_true(load[0] == 19 && load[1] == 18 && load[2] == 18);
}

/* Equal costs go in unit order to shards in order; more shards than
 * units leaves the last shards empty. */
static void test_ties_and_empty(void **state)
{
    (void)state;
    double cost[4] = {5, 5, 5, 5};
    int shard[4];
    assert_int_equal(cg_cli_shard_split(cost, 4, 6, shard), 0);
    for (int k = 0; k < 4; k++)
        assert_int_equal(shard[k], k + 1);
    assert_int_equal(cg_cli_shard_split(cost, 4, 2, shard), 0);
    const int want[4] = {1, 2, 1, 2};
    for (int k = 0; k < 4; k++)
        assert_int_equal(shard[k], want[k]);
    assert_int_equal(cg_cli_shard_split(cost, 0, 3, shard), 0);
}

/* The same costs in another order: each unit keeps the shard its cost
 * and rank give it, whatever qsort does with equal elements. */
static void test_deterministic(void **state)
{
    (void)state;
    enum { N = 200 };
    double cost[N];
    int a[N], b[N];
    for (int k = 0; k < N; k++)
        cost[k] = (double)((k * 37) % 11 + 1); /* many ties */
    assert_int_equal(cg_cli_shard_split(cost, N, 4, a), 0);
    assert_int_equal(cg_cli_shard_split(cost, N, 4, b), 0);
    assert_memory_equal(a, b, sizeof a);
    double load[4], sum = 0, most = 0;
    loads(cost, a, N, 4, load);
    for (int s = 0; s < 4; s++) {
        sum += load[s];
        most = load[s] > most ? load[s] : most;
    }
    /* greedy: the busiest shard is within the largest unit of the mean */
    assert_true(most <= sum / 4 + 11);
}

/* The estimate: (nodes x MII)^2 x FuncUnits x the probe's weight, each
 * count at least 1, no probe weighing as "mapped". */
static void test_cost(void **state)
{
    (void)state;
    assert_true(cg_cli_shard_cost(10, 1, 16, CG_CLI_PROBE_MAPPED) ==
                100.0 * 16);
    assert_true(cg_cli_shard_cost(10, 2, 16, CG_CLI_PROBE_BOUND) ==
                400.0 * 16 * CG_CLI_COST_BOUND);
    assert_true(cg_cli_shard_cost(42, 2, 16, CG_CLI_PROBE_OPEN) ==
                84.0 * 84 * 16 * CG_CLI_COST_OPEN);
    assert_true(cg_cli_shard_cost(0, 0, 0, CG_CLI_PROBE_NONE) == 1.0);
    assert_true(cg_cli_shard_cost(5, 0, 4, CG_CLI_PROBE_NONE) ==
                cg_cli_shard_cost(5, 1, 4, CG_CLI_PROBE_MAPPED));
    assert_true(CG_CLI_COST_MAPPED < CG_CLI_COST_BOUND &&
                CG_CLI_COST_BOUND < CG_CLI_COST_OPEN);
}

static void test_probe_names(void **state)
{
    (void)state;
    for (int p = CG_CLI_PROBE_NONE; p <= CG_CLI_PROBE_OPEN; p++)
        assert_int_equal(cg_cli_probe_parse(cg_cli_probe_name(
                             (cg_cli_probe)p)), p);
    assert_string_equal(cg_cli_probe_name(CG_CLI_PROBE_OPEN), "open");
    assert_int_equal(cg_cli_probe_parse(NULL), CG_CLI_PROBE_NONE);
    assert_int_equal(cg_cli_probe_parse("Open"), CG_CLI_PROBE_NONE);
}

/* The shipped benchmarks (make run's main job: benchmarks/microbench,
 * benchmarks/tiled on the default 4x4, 16 FuncUnits) as their plan counts
 * and probes them, and the split into 4 shards they get: sobel, the one
 * loop whose MII (2) the probe leaves open at 42 nodes, alone on shard 1
 * (benchmarks/perf/results/...-2026-11-28-shard-balance.md). */
static const struct shipped {
    const char *loop;
    int nodes, mii;
    cg_cli_probe probe;
    int shard;
} shipped[] = {
    {"accumulate", 16, 1, CG_CLI_PROBE_MAPPED, 3},
    {"bicg", 25, 1, CG_CLI_PROBE_OPEN, 4},
    {"cap", 15, 1, CG_CLI_PROBE_OPEN, 2},
    {"conv2", 22, 1, CG_CLI_PROBE_OPEN, 3},
    {"conv3", 26, 1, CG_CLI_PROBE_BOUND, 3},
    {"dot", 18, 1, CG_CLI_PROBE_MAPPED, 3},
    {"fir", 34, 1, CG_CLI_PROBE_BOUND, 3},
    {"gemm", 24, 1, CG_CLI_PROBE_OPEN, 4},
    {"gemv", 18, 1, CG_CLI_PROBE_MAPPED, 4},
    {"histogram", 20, 2, CG_CLI_PROBE_MAPPED, 2},
    {"initrec", 16, 2, CG_CLI_PROBE_MAPPED, 3},
    {"jacobi2d", 32, 1, CG_CLI_PROBE_BOUND, 4},
    {"mac", 18, 1, CG_CLI_PROBE_MAPPED, 2},
    {"mac2", 25, 1, CG_CLI_PROBE_OPEN, 4},
    {"matrixmultiply", 24, 1, CG_CLI_PROBE_OPEN, 2},
    {"mults1", 20, 1, CG_CLI_PROBE_MAPPED, 2},
    {"mults2", 25, 1, CG_CLI_PROBE_OPEN, 3},
    {"narrow", 19, 1, CG_CLI_PROBE_MAPPED, 4},
    {"nomem1", 12, 3, CG_CLI_PROBE_MAPPED, 2},
    {"relu", 22, 1, CG_CLI_PROBE_BOUND, 4},
    {"saxpy", 18, 1, CG_CLI_PROBE_OPEN, 3},
    {"simple", 20, 1, CG_CLI_PROBE_OPEN, 2},
    {"simple2", 21, 1, CG_CLI_PROBE_BOUND, 3},
    {"sobel", 42, 2, CG_CLI_PROBE_OPEN, 1},
    {"stride", 21, 1, CG_CLI_PROBE_MAPPED, 4},
    {"sum", 14, 1, CG_CLI_PROBE_MAPPED, 2},
    {"conv2d", 50, 2, CG_CLI_PROBE_BOUND, 3},
    {"gemm", 25, 2, CG_CLI_PROBE_MAPPED, 2},
    {"gemm_uneven", 25, 2, CG_CLI_PROBE_MAPPED, 2},
    {"gemv", 19, 2, CG_CLI_PROBE_OPEN, 2},
    {"index2d", 22, 1, CG_CLI_PROBE_OPEN, 4},
    {"inplace", 16, 1, CG_CLI_PROBE_MAPPED, 4},
    {"jacobi2d", 32, 1, CG_CLI_PROBE_BOUND, 2},
    {"saxpy", 18, 1, CG_CLI_PROBE_OPEN, 4},
    {"strided", 35, 1, CG_CLI_PROBE_BOUND, 3},
};

static void test_shipped(void **state)
{
    (void)state;
    enum { N = sizeof shipped / sizeof shipped[0] };
    double cost[N];
    int a[N], b[N];
    for (int k = 0; k < N; k++)
        cost[k] = cg_cli_shard_cost(shipped[k].nodes, shipped[k].mii, 16,
                                    shipped[k].probe);
    assert_int_equal(cg_cli_shard_split(cost, N, 4, a), 0);
    for (int k = 0; k < N; k++) {
        if (a[k] != shipped[k].shard)
            fail_msg("%s: shard %d, want %d", shipped[k].loop, a[k],
                     shipped[k].shard);
        assert_true((a[k] == 1) == !strcmp(shipped[k].loop, "sobel"));
    }
    /* the same input, the same split */
    assert_int_equal(cg_cli_shard_split(cost, N, 4, b), 0);
    assert_memory_equal(a, b, sizeof a);
}

/* cg_cli_shard_parse with its stderr into buf. */
static int parse_captured(const char *v, int *i, int *n, char *buf,
                          size_t cap)
{
    fflush(stderr);
    int saved = dup(2);
    FILE *f = tmpfile();
    assert_non_null(f);
    dup2(fileno(f), 2);
    int rc = cg_cli_shard_parse("cgramap", v, i, n);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(f);
    size_t got = fread(buf, 1, cap - 1, f);
    buf[got] = '\0';
    fclose(f);
    return rc;
}

static void test_parse(void **state)
{
    (void)state;
    int i = 0, n = 0;
    char err[512];
    assert_int_equal(parse_captured("2/3", &i, &n, err, sizeof err), 0);
    assert_int_equal(i, 2);
    assert_int_equal(n, 3);
    assert_string_equal(err, "");
    assert_int_equal(parse_captured("4096/4096", &i, &n, err, sizeof err), 0);
    static const char *const bad[] = {"0/3", "4/3", "3", "1/", "/3", "1/3x",
                                      "-1/3", "1/4097", "a/b", "1/+3"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        assert_int_equal(parse_captured(bad[k], &i, &n, err, sizeof err), -1);
        char want[256];
        snprintf(want, sizeof want, "cgramap: Invalid value for --shard: %s "
                 "(I/N: shard I of N, 1 <= I <= N <= 4096)\n", bad[k]);
        assert_string_equal(err, want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_cost),
        cmocka_unit_test(test_greedy),
        cmocka_unit_test(test_ties_and_empty),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_cost),
        cmocka_unit_test(test_probe_names),
        cmocka_unit_test(test_shipped),
        cmocka_unit_test(test_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
