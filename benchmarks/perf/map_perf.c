/* map_perf.c: measure the ILP mapper on the benchmark suite (not a test).
 *
 *   map_perf [--timeout S] [--max-ii N] [--max-nodes N] [--dump-lp DIR]
 *            [--solver glpk|cbc] FOLDER...
 *
 * Each FOLDER is a CGRA-ME style benchmark folder (a Makefile with
 * LOOP_TAGS, DFG_FLAGS and CFLAGS next to FOLDER/<name>.c).  Every tagged
 * loop is extracted with the LLVM extractor and mapped on the embedded
 * default 4x4 array; one Markdown table row per loop: benchmark, loop, DFG
 * nodes, MII (ResMII/RecMII), II reached, status (with "optimal" when the
 * II is the MII or every lower II was proven infeasible), seconds, the
 * size of the largest ILP solved (rows / columns / nonzeros; "-" when the
 * heuristic mapped at the MII and no ILP ran) and the outcome of every II
 * tried (M mapped, M(h) mapped by the heuristic, I proven infeasible, T
 * timed out); then a summary: loops mapped, proven optimal, and the median
 * and max seconds of all loops and of those of up to 30 nodes.
 * benchmarks/perf/run.sh runs it; docs/mapper.md holds the table of the
 * current build.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract/extract.h"
#include "mapper/map.h"

static const char *outcome_name(cg_ii_outcome o)
{
    return o == CG_II_MAPPED ? "M" : o == CG_II_INFEASIBLE ? "I" : "T";
}

/* What the summary needs of each loop. */
typedef struct stats {
    int n, cap;
    double *secs;     /* per loop mapped or not */
    int *nodes;
    int mapped, at_mii, proven, errors;
} stats;

static void add_stat(stats *st, double secs, int nodes)
{
    if (st->n == st->cap) {
        st->cap = st->cap ? 2 * st->cap : 64;
        st->secs = realloc(st->secs, sizeof *st->secs * (size_t)st->cap);
        st->nodes = realloc(st->nodes, sizeof *st->nodes * (size_t)st->cap);
        if (!st->secs || !st->nodes) {
            fprintf(stderr, "map_perf: out of memory\n");
            exit(1);
        }
    }
    st->secs[st->n] = secs;
    st->nodes[st->n++] = nodes;
}

/* Is every II below the mapped one proven infeasible? */
static bool optimal(const cg_map_result *r)
{
    for (int i = 0; i < r->ntried; i++)
        if (r->tried[i].ii < r->ii &&
            r->tried[i].outcome != CG_II_INFEASIBLE)
            return false;
    return true;
}

/* The largest ILP solved (0 rows: the heuristic did everything). */
static int biggest(const cg_map_result *r)
{
    int b = -1;
    for (int i = 0; i < r->ntried; i++)
        if (r->tried[i].rows > 0 &&
            (b < 0 || r->tried[i].rows > r->tried[b].rows))
            b = i;
    return b;
}

/* One table row: map g and print what happened. */
static void row(const char *bench, const cg_dfg *g, const cg_netlist *nl,
                const cg_map_params *p, const char *lp_dir, stats *st)
{
    cg_diags *d = cg_diags_create();
    cg_map_result r;
    cg_map_params q = *p;
    char lp[512];
    if (lp_dir) { /* one LP prefix per loop: DIR/<loop>-<ii> */
        snprintf(lp, sizeof lp, "%s/%s", lp_dir, cg_dfg_name(g));
        q.dump_lp = lp;
    }
    int rc = cg_map(nl, g, &q, &r, d);
    printf("| %s | %s | %d | ", bench, cg_dfg_name(g), cg_dfg_nnodes(g));
    add_stat(st, r.seconds, cg_dfg_nnodes(g));
    if (rc < 0) {
        printf("- | - | error | %.1f | - | - |\n", r.seconds);
        cg_diags_print(d, stderr);
        st->errors++;
    } else {
        char tries[256] = "";
        for (int i = 0; i < r.ntried; i++) {
            size_t k = strlen(tries);
            snprintf(tries + k, sizeof tries - k, "%s%d:%s%s", i ? " " : "",
                     r.tried[i].ii, outcome_name(r.tried[i].outcome),
                     r.tried[i].outcome == CG_II_MAPPED &&
                             r.tried[i].rows == 0
                         ? "(h)"
                         : "");
        }
        bool mapped = r.status == CG_MAP_MAPPED;
        st->mapped += mapped;
        st->at_mii += mapped && r.ii == r.mii.mii;
        st->proven += mapped && optimal(&r);
        int b = biggest(&r);
        printf("%d (%d/%d) | %d | %s%s | %.1f | ", r.mii.mii, r.mii.res_mii,
               r.mii.rec_mii, r.ii, cg_map_status_name(r.status),
               mapped ? optimal(&r) ? ", optimal" : ", lower II open" : "",
               r.seconds);
        if (b < 0)
            printf("- | %s |\n", tries);
        else
            printf("%d / %d / %d | %s |\n", r.tried[b].rows,
                   r.tried[b].cols, r.tried[b].nonzeros, tries);
    }
    fflush(stdout);
    cg_map_result_free(&r);
    cg_diags_destroy(d);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median and max seconds of the loops of at most max_nodes nodes. */
static void times(const stats *st, int max_nodes, const char *what)
{
    double *v = malloc(sizeof *v * ((size_t)st->n + 1));
    int n = 0;
    for (int i = 0; v && i < st->n; i++)
        if (st->nodes[i] <= max_nodes)
            v[n++] = st->secs[i];
    if (n > 0) {
        qsort(v, (size_t)n, sizeof *v, cmp_double);
        double med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
        printf("%s: %d loops, median %.1f s, max %.1f s\n", what, n, med,
               v[n - 1]);
    }
    free(v);
}

static void summary(const stats *st)
{
    printf("\n%d loops: %d mapped (%d at the MII, %d with every lower II "
           "proven infeasible, so %d proven optimal), %d errors\n",
           st->n, st->mapped, st->at_mii, st->proven - st->at_mii,
           st->proven, st->errors);
    times(st, 1 << 30, "all loops");
    times(st, 30, "loops of up to 30 nodes");
}

/* Extract the loops of one benchmark folder into *out (*n of them). */
static int extract(const char *dir, cg_dfg ***out, int *n, cg_diags *d)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/Makefile", dir);
    cg_extract_makefile mk;
    if (cg_extract_makefile_read(path, &mk, d) < 0)
        return -1;
    cg_extract_params xp;
    cg_extract_params_init(&xp);
    xp.cflags = mk.cflags;
    int rc = mk.dfg_flags
                 ? cg_extract_params_parse(&xp, mk.dfg_flags, path, d)
                 : 0;
    const char *base = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    snprintf(path, sizeof path, "%s/%s.c", dir, base);
    *out = NULL;
    *n = 0;
    if (rc == 0)
        rc = cg_extract_file(path, NULL, &xp, out, n, d);
    cg_extract_makefile_free(&mk);
    return rc;
}

/* Options; returns the index of the first folder, -1 on bad usage. */
static int options(int argc, char **argv, cg_map_params *p, int *max_nodes,
                   const char **lp_dir)
{
    int i = 1;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "--timeout") == 0)
            p->timeout_s = atof(argv[i + 1]);
        else if (strcmp(argv[i], "--max-ii") == 0)
            p->max_ii = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--max-nodes") == 0)
            *max_nodes = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--dump-lp") == 0)
            *lp_dir = argv[i + 1];
        else if (strcmp(argv[i], "--solver") == 0) {
            if (cg_map_solver_parse(argv[i + 1], &p->solver) < 0)
                return -1;
        }
        else
            return -1;
    }
    return i < argc ? i : -1;
}

int main(int argc, char **argv)
{
    cg_map_params p;
    cg_map_params_init(&p);
    p.timeout_s = 120;
    int max_nodes = 1 << 30;
    const char *lp_dir = NULL;
    int i = options(argc, argv, &p, &max_nodes, &lp_dir);
    if (i < 0) {
        fprintf(stderr, "usage: map_perf [--timeout S] [--max-ii N] "
                        "[--max-nodes N] [--dump-lp DIR] [--solver glpk|cbc] "
                        "FOLDER...\n");
        return 2;
    }
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_default(d);
    cg_netlist *nl = a ? cg_arch_flatten(a, d) : NULL;
    if (!nl) {
        cg_diags_print(d, stderr);
        return 1;
    }
    printf("| benchmark | loop | nodes | MII (Res/Rec) | II | status | "
           "seconds | largest ILP rows / cols / nonzeros | IIs tried |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    stats st = {0};
    for (; i < argc; i++) {
        cg_dfg **gs;
        int n;
        const char *dir = argv[i];
        size_t len = strlen(dir);
        char *trimmed = strdup(dir);
        while (len > 1 && trimmed[len - 1] == '/')
            trimmed[--len] = '\0';
        const char *bench = strrchr(trimmed, '/') ? strrchr(trimmed, '/') + 1
                                                  : trimmed;
        if (extract(trimmed, &gs, &n, d) < 0)
            cg_diags_print(d, stderr);
        cg_diags_clear(d);
        for (int j = 0; j < n; j++) {
            if (cg_dfg_nnodes(gs[j]) <= max_nodes)
                row(bench, gs[j], nl, &p, lp_dir, &st);
            cg_dfg_destroy(gs[j]);
        }
        free(gs);
        free(trimmed);
    }
    summary(&st);
    free(st.secs);
    free(st.nodes);
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
    return 0;
}
