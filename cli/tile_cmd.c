/* tile_cmd.c: `cgramap tile FILE.c --loop TAG`: extract the loop's nest,
 * tile it for the architecture's tile memory and print the plan, the DMA
 * descriptors of the program and its double-buffered schedule (text, or
 * one JSON object {plan, descriptors, schedule} with --json).  Like the
 * main job, it compiles and extracts with the DFG_FLAGS and CFLAGS of the
 * Makefile next to FILE.c (a CGRA-ME style benchmark folder), so both see
 * the same nest; --no-makefile ignores it.  --export-4d PREFIX also writes
 * the descriptors as 4D-data-mover buffers, one file per side. */
#include "cli/commands.h"
#include "cli/makefile.h"
#include "cli/options.h"
#include "cli/syms.h"

#include "arch/arch.h"
#include "common/diag.h"
#include "common/util.h"
#include "extract/extract.h"
#include "flow/flow.h"
#include "mapper/map.h"
#include "tiling/tile.h"
#include "xml/xml.h"

#include <getopt.h>
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct tile_opts {
    const char *file, *loop, *arch, *templates;
    const char *export_4d; /* PREFIX: PREFIX.ext.hex and PREFIX.tile.hex */
    int json;
    int no_makefile;
    cg_cli_syms syms;      /* --sym values, over the Makefile's */
    cg_tile_params p;
} tile_opts;

static void tile_help(void)
{
    printf("Usage: cgramap tile FILE.c --loop TAG [--arch A.xml"
           " [--templates T.xml]]\n"
           "                   [--mem BYTES] [--ii N] [--depth N] [--json]"
           " [--no-makefile]\n"
           "                   [--sym NAME=VALUE]... [--export-4d PREFIX]\n"
           "Tile the loop nest around the loop tagged TAG for the tile memory"
           " of the\n"
           "architecture (default: the embedded 4x4 mesh) and print the tile"
           " plan, the\n"
           "DMA descriptors of every tile (lowered to the DMA limits) and the"
           "\n"
           "double-buffered schedule.\n"
           "  --arch A.xml   architecture to tile for\n"
           "  --templates T.xml\n"
           "                 module templates for a two-file architecture\n"
           "  --mem BYTES    use this tile-memory capacity instead of the"
           " declared one\n"
           "  --ii N         initiation interval assumed for compute time"
           " (default 1)\n"
           "  --depth N      pipeline depth in cycles per run of the inner"
           " loop (default 8)\n"
           "  --json         one JSON object {plan, descriptors, schedule}"
           "\n"
           "  --no-makefile  ignore the Makefile next to FILE.c\n"
           "  --sym NAME=VALUE\n"
           "                 a kernel parameter's or a symbolic trip"
           " count's value, as\n"
           "                 in DFG_FLAGS (over the Makefile's value)\n"
           "  --export-4d PREFIX\n"
           "                 also write the descriptors as 4D-data-mover"
           " buffers:\n"
           "                 PREFIX.ext.hex (external side) and"
           " PREFIX.tile.hex (tile\n"
           "                 memory side), one 64-bit word per line in hex"
           " ($readmemh):\n"
           "                 the entry count, then per entry the bias and"
           " (stride, size)\n"
           "                 for 4 dimensions, in elements, innermost"
           " first\n"
           "When FILE.c's folder has a Makefile (a benchmark folder), its"
           " DFG_FLAGS\n"
           "(--sym, -no-phi-removal, ...) and CFLAGS are applied as the main"
           " job\n"
           "applies them; --no-makefile extracts with the defaults"
           " instead.\n");
}

/* A whole number in lo..hi, as every command reads one; 0, or 2 after
 * the message (with the range). */
static int int_opt(const char *name, const char *arg, double lo, double hi,
                   long long *v)
{
    char opt[16];
    double x;
    snprintf(opt, sizeof opt, "--%s", name);
    if (cg_cli_whole("cgramap tile", opt, arg, lo, hi, &x))
        return 2;
    *v = (long long)x;
    return 0;
}

/* 0 = run, 1 = help printed, 2 = usage error printed. */
static int tile_parse(int argc, char **argv, tile_opts *o)
{
    static const struct option opts[] = {
        {"loop", required_argument, NULL, 'l'},
        {"arch", required_argument, NULL, 'a'},
        {"templates", required_argument, NULL, 't'},
        {"mem", required_argument, NULL, 'm'},
        {"ii", required_argument, NULL, 'i'},
        {"depth", required_argument, NULL, 'd'},
        {"json", no_argument, NULL, 'j'},
        {"no-makefile", no_argument, NULL, 'n'},
        {"export-4d", required_argument, NULL, 'x'},
        {"sym", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    long long v;
    memset(o, 0, sizeof *o);
    cg_tile_params_init(&o->p);
    optind = 1;
    opterr = 0;
    bool abbrev = false;
    while ((c = cg_cli_getopt(argc, argv, ":h", opts, false,
                              "cgramap tile", &abbrev)) != -1) {
        switch (c) {
        case 'l': o->loop = optarg; break;
        case 'a': o->arch = optarg; break;
        case 't': o->templates = optarg; break;
        case 'j': o->json = 1; break;
        case 'n': o->no_makefile = 1; break;
        case 's':
            if (cg_cli_sym_add(&o->syms, optarg, "cgramap tile")) return 2;
            break;
        case 'x':
            if (!*optarg) {
                fprintf(stderr, "cgramap tile: --export-4d needs a file "
                        "prefix (PREFIX.ext.hex and PREFIX.tile.hex are "
                        "written)\n");
                return 2;
            }
            if (cg_cli_name("cgramap tile", "--export-4d", optarg))
                return 2;
            o->export_4d = optarg;
            break;
        case 'h': tile_help(); return 1;
        case 'm':
            if (int_opt("mem", optarg, 1, 9007199254740991.0, &v)) return 2;
            o->p.mem_bytes = v;
            break;
        case 'i':
            if (int_opt("ii", optarg, 1, CG_MAP_MAX_II, &v)) return 2;
            o->p.ii = (int)v;
            break;
        case 'd':
            if (int_opt("depth", optarg, 0, 1000000, &v)) return 2;
            o->p.depth = (int)v;
            break;
        case ':':
            fprintf(stderr, "cgramap tile: option '%s' needs a value\n",
                    argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "cgramap tile: unknown option '%s'"
                    " (see cgramap tile --help)\n",
                    cg_cli_bad_opt(argv, (char[3]){0}));
            return 2;
        }
    }
    if (abbrev)
        return 2;
    if (optind != argc - 1 || !o->loop) {
        fprintf(stderr, "cgramap tile: usage: cgramap tile FILE.c --loop TAG"
                " [--arch A.xml [--templates T.xml]] [--mem BYTES] [--ii N]"
                " [--depth N] [--json]"
                " [--no-makefile] [--export-4d PREFIX] [--sym NAME=VALUE]"
                " (see cgramap tile"
                " --help)\n");
        return 2;
    }
    o->file = argv[optind];
    return 0;
}

/* What `tile` prints: the plan, the program and its schedule. */
typedef struct tile_out {
    const cg_tile_plan *plan;
    const cg_tile_program *g;
    const cg_tile_sched *s;
} tile_out;

/* The plan, the program's descriptors and the schedule. */
static int tile_text(void *arg, FILE *f)
{
    const tile_out *t = arg;
    const cg_tile_descs *l = cg_tile_program_descs(t->g);
    if (cg_tile_plan_write(t->plan, f) != 0)
        return -1;
    fprintf(f, "\ndescriptors: %d, lowered to the DMA limits\n", l->n);
    if (cg_tile_desc_write_table(l->v, l->n,
                                 cg_tile_plan_get_model(t->plan), f) != 0)
        return -1;
    fprintf(f, "\n");
    return cg_tile_sched_write(t->s, t->plan, f);
}

static int tile_json(void *arg, FILE *f)
{
    const tile_out *t = arg;
    return cg_tile_write_json(t->plan, t->g, t->s, f);
}

/* One side's 4D buffer, one word per line. */
typedef struct words {
    const uint64_t *v;
    size_t n;
} words;

static int write_words(void *arg, FILE *f)
{
    const words *w = arg;
    for (size_t i = 0; i < w->n; i++)
        fprintf(f, "%016llx\n", (unsigned long long)w->v[i]);
    return cg_write_end(f, true);
}

/* Both sides exported before either file is written, so a descriptor the
 * format cannot hold leaves no file behind; 1 on failure. */
static int export_4d(const char *prefix, const cg_tile_program *g, bool text,
                     cg_diags *d)
{
    const cg_tile_descs *l = cg_tile_program_descs(g);
    uint64_t *side[2] = {NULL, NULL};
    size_t n[2] = {0, 0};
    int rc = 1;
    if (cg_tile_desc_export_4d(l->v, l->n, false, &side[0], &n[0], d) == 0 &&
        cg_tile_desc_export_4d(l->v, l->n, true, &side[1], &n[1], d) == 0) {
        rc = 0;
        static const char *const suffix[2] = {"ext", "tile"};
        for (int k = 0; k < 2 && rc == 0; k++) {
            size_t len = strlen(prefix) + 16;
            char *path = malloc(len);
            words w = {side[k], n[k]};
            if (path)
                snprintf(path, len, "%s.%s.hex", prefix, suffix[k]);
            rc = !path || cg_cli_write_file(path, write_words, &w) != 0;
            free(path);
        }
        if (rc == 0 && text)
            printf("\n4D descriptor buffers: %s.ext.hex, %s.tile.hex (%llu "
                   "entries each)\n", prefix, prefix,
                   (unsigned long long)side[0][0]);
    }
    free(side[0]);
    free(side[1]);
    return rc;
}

/* Program and schedule of the plan, then print; 1 on failure. */
static int tile_print(const tile_opts *o, const cg_tile_plan *plan,
                      cg_diags *d)
{
    cg_tile_program *g = cg_tile_program_build(plan, d);
    cg_tile_sched s;
    int rc = 1;
    if (g && cg_tile_schedule(plan, g, o->p.ii, o->p.depth, &s, d) == 0) {
        tile_out t = {plan, g, &s};
        rc = cg_cli_write_file("-", o->json ? tile_json : tile_text, &t) != 0;
        if (rc == 0 && o->export_4d)
            rc = export_4d(o->export_4d, g, !o->json, d);
    }
    cg_tile_program_destroy(g);
    return rc;
}

int cg_cli_tile(int argc, char **argv)
{
    tile_opts o;
    int prc = tile_parse(argc, argv, &o);
    if (prc) return prc == 1 ? 0 : 2;
    cg_diags *d = cg_diags_create();
    cg_netlist *nl = cg_cli_load_netlist(o.arch, o.templates, d);
    cg_extract_params ep;
    cg_extract_params_init(&ep);
    if (nl)
        ep.addr_width = cg_netlist_addr_width(nl);
    cg_extract_makefile mk = {0};
    bool flags_ok =
        (o.no_makefile ||
         cg_cli_makefile_apply_beside(o.file, &mk, &ep, d) == 0) &&
        cg_cli_syms_apply(&ep, &o.syms, d) == 0;
    cg_dfg **gs = NULL;
    int n = 0, rc = 1;
    if (nl && flags_ok &&
        cg_extract_file(o.file, o.loop, &ep, &gs, &n, d) == 0 && n == 1) {
        /* from the DFG: a tagged loop that carries a value stays whole */
        cg_tile_plan *plan = cg_tile_plan_dfg(gs[0], nl, &o.p, d);
        if (plan) rc = tile_print(&o, plan, d);
        /* a plan the main job cannot run tiled says so, as there */
        if (plan && rc == 0 && cg_tile_plan_summary(plan)->ntiles > 1)
            cg_tile_dfg_destroy(cg_flow_tile_dfg(plan, gs[0], d));
        cg_tile_plan_destroy(plan);
    }
    fflush(stdout);
    cg_diags_print(d, stderr);
    for (int i = 0; i < n; i++) cg_dfg_destroy(gs[i]);
    free(gs);
    cg_extract_makefile_free(&mk);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
    return rc;
}
