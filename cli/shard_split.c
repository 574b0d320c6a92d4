/* shard_split.c: which shard runs which unit (cli/shard.h).  Kept apart
 * from the plan so that its test links it alone. */
#include "cli/shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cg_cli_shard_parse(const char *prog, const char *v, int *i, int *n)
{
    char *end;
    long a = strtol(v, &end, 10), b = 0;
    bool ok = end != v && *end == '/' && end[1] >= '0' && end[1] <= '9';
    if (ok) {
        const char *s = end + 1;
        b = strtol(s, &end, 10);
        ok = !*end && a >= 1 && a <= b && b <= CG_CLI_MAX_SHARDS &&
             v[0] >= '0' && v[0] <= '9';
    }
    if (!ok) {
        fprintf(stderr, "%s: Invalid value for --shard: %s (I/N: shard I of "
                "N, 1 <= I <= N <= %d)\n", prog, v, CG_CLI_MAX_SHARDS);
        return -1;
    }
    *i = (int)a;
    *n = (int)b;
    return 0;
}

const char *cg_cli_probe_name(cg_cli_probe p)
{
    switch (p) {
    case CG_CLI_PROBE_MAPPED: return "mapped";
    case CG_CLI_PROBE_BOUND: return "bound";
    case CG_CLI_PROBE_OPEN: return "open";
    case CG_CLI_PROBE_NONE: break;
    }
    return "none";
}

cg_cli_probe cg_cli_probe_parse(const char *s)
{
    for (int p = CG_CLI_PROBE_MAPPED; s && p <= CG_CLI_PROBE_OPEN; p++)
        if (!strcmp(s, cg_cli_probe_name((cg_cli_probe)p)))
            return (cg_cli_probe)p;
    return CG_CLI_PROBE_NONE;
}

double cg_cli_shard_cost(int nodes, int mii, int funcunits,
                         cg_cli_probe probe)
{
    double size = (double)(nodes > 0 ? nodes : 1) * (mii > 0 ? mii : 1);
    double w = probe == CG_CLI_PROBE_OPEN    ? CG_CLI_COST_OPEN
               : probe == CG_CLI_PROBE_BOUND ? CG_CLI_COST_BOUND
                                             : CG_CLI_COST_MAPPED;
    return size * size * (funcunits > 0 ? funcunits : 1) * w;
}

typedef struct unit_cost {
    double cost;
    int unit;
} unit_cost;

/* Largest cost first; equal costs in unit order, so the deal does not
 * depend on qsort's order of equal elements. */
static int by_cost(const void *pa, const void *pb)
{
    const unit_cost *a = pa, *b = pb;
    if (a->cost != b->cost)
        return a->cost > b->cost ? -1 : 1;
    return (a->unit > b->unit) - (a->unit < b->unit);
}

int cg_cli_shard_split(const double *cost, int n, int nshards, int *shard)
{
    unit_cost *order = malloc(sizeof *order * (size_t)(n > 0 ? n : 1));
    double *load = calloc((size_t)nshards, sizeof *load);
    if (!order || !load) {
        free(order);
        free(load);
        return -1;
    }
    for (int k = 0; k < n; k++)
        order[k] = (unit_cost){cost[k], k};
    qsort(order, (size_t)n, sizeof *order, by_cost);
    for (int k = 0; k < n; k++) { /* to the least loaded, the lowest first */
        int best = 0;
        for (int s = 1; s < nshards; s++)
            if (load[s] < load[best])
                best = s;
        load[best] += order[k].cost;
        shard[order[k].unit] = best + 1;
    }
    free(order);
    free(load);
    return 0;
}
