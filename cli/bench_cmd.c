/* bench_cmd.c: the main job, `cgramap [OPTION]... DIR...`: every benchmark
 * folder (a CGRA-ME Makefile beside its .c files) and every .dot DFG found
 * under DIR is extracted, mapped and checked, one row per loop.  One loop
 * failing never stops the others.  Not yet: simulation against the
 * interpreter, -j, --json/--csv, --mapping-dir. */
#include "cli/commands.h"

#include "arch/arch.h"
#include "common/diag.h"
#include "dfg/dfg.h"
#include "dfg/extract.h"
#include "mapper/map.h"
#include "xml/xml.h"

#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct bench_ctx {
    const cg_netlist *nl;
    const cg_map_params *p;
    int failed;
} bench_ctx;

static void row(const char *bench, const cg_dfg *g, const cg_map_result *r,
                int checked)
{
    char st[48];
    const char *s = "error";
    if (r->status == CG_MAP_MAPPED) s = "mapped";
    else if (r->status == CG_MAP_TIMEOUT) s = "timeout";
    else if (r->status == CG_MAP_INFEASIBLE) {
        snprintf(st, sizeof st, "infeasible up to II=%d", r->ii);
        s = st;
    }
    printf("%-14s %-14s %5d %4d %4d %-24s %8.2fs %4d %6d %s\n", bench,
           cg_dfg_name(g), cg_dfg_nnodes(g), r->mii.mii, r->ii, s,
           r->seconds, r->fus_used, r->routes_used, checked ? "yes" : "no");
    fflush(stdout);
}

/* Map and check one loop, print its row and its messages. */
static void bench_loop(bench_ctx *c, const char *bench, const cg_dfg *g)
{
    cg_diags *d = cg_diags_create();
    cg_map_result r;
    memset(&r, 0, sizeof r);
    r.status = CG_MAP_ERROR;
    int ok = d && cg_map(c->nl, g, c->p, &r, d) == 0 &&
             r.status == CG_MAP_MAPPED &&
             cg_map_check(c->nl, r.mrrg, g, r.mapping, d) == 0;
    row(bench, g, &r, ok);
    if (d) cg_diags_print(d, stderr);
    if (!ok) c->failed = 1;
    cg_map_result_free(&r);
    cg_diags_destroy(d);
}

static void bench_graphs(bench_ctx *c, const char *bench, cg_dfg **gs, int n)
{
    for (int i = 0; i < n; i++) {
        bench_loop(c, bench, gs[i]);
        cg_dfg_destroy(gs[i]);
    }
    free(gs);
}

/* A folder with a Makefile: extract its LOOP_TAGS from each .c file. */
static void bench_c(bench_ctx *c, const char *dir, const char *file,
                    const char *name)
{
    char mk[4096];
    snprintf(mk, sizeof mk, "%s/Makefile", dir);
    cg_diags *d = cg_diags_create();
    cg_extract_makefile m = {0};
    cg_extract_params p;
    cg_extract_params_init(&p);
    cg_dfg **gs = NULL;
    int n = 0;
    if (cg_extract_makefile_read(mk, &m, d) == 0 &&
        (!m.dfg_flags || cg_extract_params_parse(&p, m.dfg_flags, mk, d) == 0)) {
        p.cflags = m.cflags;
        char *tags = m.loop_tags ? strdup(m.loop_tags) : NULL, *save = NULL;
        if (!tags || !strtok_r(tags, " \t", &save)) {
            if (cg_extract_file(file, NULL, &p, &gs, &n, d)) c->failed = 1;
            bench_graphs(c, name, gs, n);
        } else {
            for (char *t = tags; t; t = strtok_r(NULL, " \t", &save)) {
                gs = NULL;
                n = 0;
                if (cg_extract_file(file, t, &p, &gs, &n, d)) c->failed = 1;
                bench_graphs(c, name, gs, n);
            }
        }
        free(tags);
    } else {
        c->failed = 1;
    }
    cg_diags_print(d, stderr);
    cg_extract_makefile_free(&m);
    cg_diags_destroy(d);
}

static void bench_dot(bench_ctx *c, const char *file, const char *name)
{
    cg_diags *d = cg_diags_create();
    cg_dfg *g = cg_dfg_read_dot(file, d);
    if (g) bench_loop(c, name, g);
    else c->failed = 1;
    cg_diags_print(d, stderr);
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

/* Walk dir in name order (deterministic rows). */
static void bench_dir(bench_ctx *c, const char *dir)
{
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_name);
    if (n < 0) {
        fprintf(stderr, "%s: error: cannot read this folder\n", dir);
        c->failed = 1;
        return;
    }
    char mk[4096];
    struct stat st;
    snprintf(mk, sizeof mk, "%s/Makefile", dir);
    int has_mk = stat(mk, &st) == 0;
    const char *base = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
    for (int i = 0; i < n; i++) {
        const char *e = ents[i]->d_name;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e);
        if (e[0] != '.' && stat(path, &st) == 0) {
            if (S_ISDIR(st.st_mode)) bench_dir(c, path);
            else if (has_mk && ends_with(e, ".c")) bench_c(c, dir, path, base);
            else if (!has_mk && ends_with(e, ".dot")) bench_dot(c, path, base);
        }
        free(ents[i]);
    }
    free(ents);
}

int cg_cli_bench(const cg_netlist *nl, const cg_map_params *p,
                 char *const *dirs, int ndirs)
{
    bench_ctx c = {nl, p, 0};
    printf("%-14s %-14s %5s %4s %4s %-24s %9s %4s %6s %s\n", "benchmark",
           "loop", "nodes", "MII", "II", "status", "time", "FUs", "routes",
           "checked");
    for (int i = 0; i < ndirs; i++) bench_dir(&c, dirs[i]);
    return c.failed ? 1 : 0;
}

static int bench_num(const char *opt, const char *v, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x > 0)) {
        fprintf(stderr, "cgramap: Invalid value for %s: %s\n", opt, v);
        return -1;
    }
    *out = x;
    return 0;
}

/* `cgramap [--arch A.xml [--templates T]] [--timeout S] [--max-ii N] DIR...` */
int cg_cli_main_job(int argc, char **argv)
{
    static const struct option opts[] = {
        {"arch", required_argument, NULL, 'a'},
        {"templates", required_argument, NULL, 't'},
        {"timeout", required_argument, NULL, 'T'},
        {"max-ii", required_argument, NULL, 'I'},
        {NULL, 0, NULL, 0},
    };
    const char *arch = NULL, *templates = NULL;
    cg_map_params p;
    cg_map_params_init(&p);
    int c;
    double x;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (c) {
        case 'a': arch = optarg; break;
        case 't': templates = optarg; break;
        case 'T':
            if (bench_num("--timeout", optarg, &x)) return 2;
            p.timeout_s = x;
            break;
        case 'I':
            if (bench_num("--max-ii", optarg, &x)) return 2;
            if (x != (int)x || x > 64) {
                fprintf(stderr, "cgramap: Invalid value for --max-ii: %s"
                        " (a whole number up to 64)\n", optarg);
                return 2;
            }
            p.max_ii = (int)x;
            break;
        case ':':
            fprintf(stderr, "cgramap: option '%s' needs a value\n",
                    argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "cgramap: unknown option '%s' (see cgramap"
                    " --help)\n", argv[optind - 1]);
            return 2;
        }
    }
    if (optind == argc) {
        fprintf(stderr, "cgramap: give at least one DIR (see cgramap"
                " --help)\n");
        return 2;
    }
    cg_diags *d = cg_diags_create();
    cg_arch *a = arch ? cg_xml_read(arch, templates, d) : cg_arch_default(d);
    cg_netlist *nl = a ? cg_arch_flatten(a, d) : NULL;
    cg_diags_print(d, stderr);
    int rc = nl ? cg_cli_bench(nl, &p, argv + optind, argc - optind) : 1;
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
    return rc;
}
