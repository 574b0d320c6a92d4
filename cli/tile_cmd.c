/* tile_cmd.c: `cgramap tile FILE.c --loop TAG`: extract the loop's nest and
 * print its tiling plan for the architecture's tile memory (text, or JSON
 * with --json). */
#include "cli/commands.h"

#include "arch/arch.h"
#include "common/diag.h"
#include "dfg/extract.h"
#include "tiling/tile.h"
#include "xml/xml.h"

#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

typedef struct tile_opts {
    const char *file, *loop, *arch;
    int json;
    cg_tile_params p;
} tile_opts;

static int tile_parse(int argc, char **argv, tile_opts *o)
{
    static const struct option opts[] = {
        {"loop", required_argument, NULL, 'l'},
        {"arch", required_argument, NULL, 'a'},
        {"mem", required_argument, NULL, 'm'},
        {"json", no_argument, NULL, 'j'},
        {NULL, 0, NULL, 0},
    };
    int c;
    char *end;
    memset(o, 0, sizeof *o);
    cg_tile_params_init(&o->p);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        switch (c) {
        case 'l': o->loop = optarg; break;
        case 'a': o->arch = optarg; break;
        case 'j': o->json = 1; break;
        case 'm':
            o->p.mem_bytes = strtoll(optarg, &end, 10);
            if (end == optarg || *end || o->p.mem_bytes <= 0) {
                fprintf(stderr, "cgramap tile: Invalid value for --mem: %s\n",
                        optarg);
                return 2;
            }
            break;
        case ':':
            fprintf(stderr, "cgramap tile: option '%s' needs a value\n",
                    argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "cgramap tile: unknown option '%s'\n",
                    argv[optind - 1]);
            return 2;
        }
    }
    if (optind != argc - 1 || !o->loop) {
        fprintf(stderr, "cgramap tile: usage: cgramap tile FILE.c --loop TAG"
                " [--arch A.xml] [--mem BYTES] [--json]\n");
        return 2;
    }
    o->file = argv[optind];
    return 0;
}

static int tile_print(const tile_opts *o, cg_tile_plan *plan)
{
    if (!o->json) {
        cg_tile_plan_write(plan, stdout);
        return 0;
    }
    json_t *j = cg_tile_plan_json(plan);
    int rc = j && json_dumpf(j, stdout, JSON_INDENT(2) | JSON_SORT_KEYS) == 0;
    printf("\n");
    json_decref(j);
    return rc ? 0 : 1;
}

int cg_cli_tile(int argc, char **argv)
{
    tile_opts o;
    if (tile_parse(argc, argv, &o)) return 2;
    cg_diags *d = cg_diags_create();
    cg_arch *a = o.arch ? cg_xml_read(o.arch, NULL, d) : cg_arch_default(d);
    cg_netlist *nl = a ? cg_arch_flatten(a, d) : NULL;
    cg_extract_params ep;
    cg_extract_params_init(&ep);
    cg_dfg **gs = NULL;
    int n = 0, rc = 1;
    if (nl && cg_extract_file(o.file, o.loop, &ep, &gs, &n, d) == 0 && n == 1) {
        cg_tile_plan *plan = cg_tile_plan_nest(cg_dfg_nest(gs[0]), o.file,
                                               nl, &o.p, d);
        if (plan) rc = tile_print(&o, plan);
        cg_tile_plan_destroy(plan);
    }
    cg_diags_print(d, stderr);
    for (int i = 0; i < n; i++) cg_dfg_destroy(gs[i]);
    free(gs);
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
    return rc;
}
