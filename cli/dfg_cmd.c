/* dfg_cmd.c: `cgramap dfg`: extract the DFGs of a C file's tagged loops
 * and print them as dot (stdout, or -o FILE written whole or not at all),
 * each with the memory order of its nest stated (graph attribute
 * memory_order). */
#include "cli/commands.h"
#include "cli/makefile.h"
#include "cli/options.h"
#include "cli/syms.h"

#include "common/diag.h"
#include "dfg/dfg.h"
#include "extract/extract.h"
#include "mapper/map.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct dfg_opts {
    const char *file, *loop, *out;
    cg_extract_params p; /* the options' values, over the Makefile's */
    int no_makefile;
    cg_cli_syms syms;   /* --sym values */
} dfg_opts;

static void dfg_help(void)
{
    printf("Usage: cgramap dfg FILE.c [--loop TAG] [-o OUT.dot]"
           " [--cflags FLAGS]\n"
           "                  [--no-phi-removal] [--no-leaf-removal]"
           " [--no-hoist]\n"
           "                  [--sym NAME=VALUE]... [--addr-width BITS]\n"
           "                  [--loop-control dfg|array] [--no-makefile]\n"
           "Extract the DFG of every //DFGLOOP-tagged loop of FILE.c"
           " (or of TAG only) as dot.\n"
           "--sym gives a kernel parameter or a symbolic trip count a value,"
           " as in a\n"
           "benchmark Makefile's DFG_FLAGS.\n"
           "When FILE.c's folder has a Makefile (a benchmark folder), its"
           " DFG_FLAGS and\nCFLAGS apply as in the main job, under the"
           " options given here (--cflags\nreplaces CFLAGS);"
           " --no-makefile ignores it.\n"
           "Index arithmetic is narrowed to BITS (default 32, the address"
           " width of the\narchitecture: address-width= in its XML) where"
           " exact; 64 keeps LLVM's widths.\n"
           "--loop-control array leaves the loop control to the array's"
           " controller, as\nCGRA-ME's DFGs do: no exit compare (loop_exit)"
           " nor what only it needs.\n"
           "--no-hoist keeps the loop-invariant part of each address (&A[i]"
           " of A[i][j]\nin a loop on j) computed in the loop instead of"
           " entering as a live-in.\n");
}

/* 0 = run, 1 = help printed, 2 = usage error printed.  getopt_long_only
 * also takes CGRA-ME's one-dash spellings (-no-phi-removal). */
static int dfg_parse(int argc, char **argv, dfg_opts *o)
{
    static const struct option opts[] = {
        {"loop", required_argument, NULL, 'l'},
        {"cflags", required_argument, NULL, 'c'},
        {"no-phi-removal", no_argument, NULL, 'P'},
        {"no-leaf-removal", no_argument, NULL, 'L'},
        {"no-hoist", no_argument, NULL, 'H'},
        {"sym", required_argument, NULL, 's'},
        {"addr-width", required_argument, NULL, 'A'},
        {"loop-control", required_argument, NULL, 'C'},
        {"no-makefile", no_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    memset(o, 0, sizeof *o);
    cg_extract_params_init(&o->p);
    optind = 1;
    opterr = 0;
    bool abbrev = false;
    while ((c = cg_cli_getopt(argc, argv, ":ho:", opts, true,
                              "cgramap dfg", &abbrev)) != -1) {
        switch (c) {
        case 'l': o->loop = optarg; break;
        case 'o':
            o->out = optarg;
            if (cg_cli_path("cgramap dfg", "-o", optarg)) return 2;
            break;
        case 'c': o->p.cflags = optarg; break;
        case 'P': o->p.phi_removal = false; break;
        case 'L': o->p.leaf_removal = false; break;
        case 'H': o->p.hoist = false; break;
        case 'n': o->no_makefile = 1; break;
        case 's':
            if (cg_cli_sym_add(&o->syms, optarg, "cgramap dfg")) return 2;
            break;
        case 'A': {
            char *end;
            long w = strtol(optarg, &end, 10);
            if (!*optarg || *end || w < 1 || w > 64) {
                fprintf(stderr, "cgramap dfg: --addr-width takes 1..64 bits,"
                        " not '%s'\n", optarg);
                return 2;
            }
            o->p.addr_width = (int)w;
            break;
        }
        case 'C':
            if (!strcmp(optarg, "dfg") || !strcmp(optarg, "array")) {
                o->p.array_control = !strcmp(optarg, "array");
                break;
            }
            fprintf(stderr, "cgramap dfg: --loop-control takes dfg or array,"
                    " not '%s'\n", optarg);
            return 2;
        case 'h': dfg_help(); return 1;
        case ':':
            fprintf(stderr, "cgramap dfg: option '%s' needs a value\n",
                    argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "cgramap dfg: unknown option '%s'"
                    " (see cgramap dfg --help)\n",
                    cg_cli_bad_opt(argv, (char[3]){0}));
            return 2;
        }
    }
    if (abbrev)
        return 2;
    if (optind != argc - 1) {
        fprintf(stderr, optind == argc
                ? "cgramap dfg: missing FILE.c (see cgramap dfg --help)\n"
                : "cgramap dfg: give exactly one FILE.c"
                  " (see cgramap dfg --help)\n");
        return 2;
    }
    o->file = argv[optind];
    return 0;
}

/* The extraction's parameters: the Makefile beside FILE.c (unless
 * --no-makefile), then the options, which can only turn passes off, give
 * the clang flags, the width and the loop control, and add symbols.  -1
 * with errors in d. */
static int params(const dfg_opts *o, cg_extract_makefile *mk,
                  cg_extract_params *p, cg_diags *d)
{
    cg_extract_params_init(p);
    if (!o->no_makefile &&
        cg_cli_makefile_apply_beside(o->file, mk, p, d) != 0)
        return -1;
    p->phi_removal &= o->p.phi_removal;
    p->leaf_removal &= o->p.leaf_removal;
    p->hoist &= o->p.hoist;
    if (o->p.cflags)
        p->cflags = o->p.cflags;
    p->addr_width = o->p.addr_width;
    p->array_control = o->p.array_control;
    return cg_cli_syms_apply(p, &o->syms, d);
}

/* Each graph states the memory order its nest gives (cg_map_mem_orders),
 * so the .dot, which has no nest, keeps it: read back, the mapper orders
 * exactly these pairs instead of every pair.  -1 on failure. */
static int state_orders(cg_dfg **gs, int n, cg_diags *d)
{
    for (int i = 0; i < n; i++) {
        cg_mem_order *o;
        int k = cg_map_mem_orders(gs[i], &o);
        int rc = k < 0 ? -1 : cg_dfg_set_mem_order(gs[i], o, k, d);
        free(o);
        if (k < 0)
            cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "out of memory");
        if (rc)
            return -1;
    }
    return 0;
}

static int write_graphs(void *arg, FILE *f)
{
    cg_dfg **gs = ((void **)arg)[0];
    int n = *(int *)((void **)arg)[1];
    for (int i = 0; i < n; i++)
        if (cg_dfg_write_dot(gs[i], f) != 0) return -1;
    return 0;
}

int cg_cli_dfg(int argc, char **argv)
{
    dfg_opts o;
    int pr = dfg_parse(argc, argv, &o);
    if (pr) return pr == 1 ? 0 : 2;
    cg_diags *d = cg_diags_create();
    if (!d) { fputs("cgramap: out of memory\n", stderr); return 1; }
    cg_dfg **gs = NULL;
    int n = 0;
    cg_extract_makefile mk = {0};
    cg_extract_params p;
    int rc = params(&o, &mk, &p, d) ||
             cg_extract_file(o.file, o.loop, &p, &gs, &n, d) ? 1 : 0;
    if (rc == 0 && state_orders(gs, n, d) != 0)
        rc = 1;
    cg_diags_print(d, stderr);
    void *arg[2] = {gs, &n};
    /* on standard output, the graphs made before an error still show */
    if ((!o.out || rc == 0) &&
        cg_cli_write_file(o.out ? o.out : "-", write_graphs, arg) != 0)
        rc = 1;
    for (int i = 0; i < n; i++) cg_dfg_destroy(gs[i]);
    free(gs);
    cg_extract_makefile_free(&mk);
    cg_diags_destroy(d);
    return rc;
}
