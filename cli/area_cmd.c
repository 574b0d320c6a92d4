/* area_cmd.c: `cgramap area`: yosys's generic-cell area of an array's RTL
 * (rtl/area.c), module by module, with its flip-flops, NAND2-equivalents
 * and configuration bits; --json writes the same as a record. */
#include "cli/commands.h"
#include "cli/options.h"

#include "common/util.h"
#include "rtl/rtl.h"

#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct area_opts {
    const char *arch, *templates, *json, *cache;
    int jobs; /* yosys runs at once; 0: one per online processor */
    cg_rtl_params rp;
    char dflt[PATH_MAX];
} area_opts;

static void area_help(void)
{
    printf("Usage: cgramap area [--arch FILE.xml [--templates T.xml]]"
           " [--contexts N]\n"
           "                   [--json FILE] [--cache DIR] [-j N]\n"
           "Synthesize each distinct module of the array's RTL with yosys"
           " (synth; stat)\nand print its generic cells, flip-flops and"
           " NAND2-equivalents, the array's\ntotals and its configuration"
           " bits (docs/rtl.md, \"Area\").\n"
           "      --contexts N   configuration contexts (default 16)\n"
           "      --json FILE    the report as JSON\n"
           "      --cache DIR    synthesis results by module hash (default"
           " the RTL model\n"
           "                     cache, ~/.cache/cgramap-rtl)\n"
           "  -j, --jobs N       modules synthesized at once, 1..64"
           " (default one per\n"
           "                     online processor; the figures do not"
           " depend on it)\n");
}

static int area_parse(int argc, char **argv, area_opts *o)
{
    static const struct option opts[] = {
        {"arch", required_argument, NULL, 'a'},
        {"templates", required_argument, NULL, 't'},
        {"json", required_argument, NULL, 'J'},
        {"cache", required_argument, NULL, 'c'},
        {"contexts", required_argument, NULL, 'x'},
        {"jobs", required_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    cg_rtl_params_init(&o->rp);
    optind = 1;
    opterr = 0;
    int c;
    double x;
    bool abbrev = false;
    while ((c = cg_cli_getopt(argc, argv, ":hj:", opts, false,
                              "cgramap area", &abbrev)) != -1) {
        switch (c) {
        case 'a': o->arch = optarg; break;
        case 't': o->templates = optarg; break;
        case 'J':
            o->json = optarg;
            if (cg_cli_path("cgramap area", "--json", optarg)) return 2;
            break;
        case 'c':
            o->cache = optarg;
            if (cg_cli_name("cgramap area", "--cache", optarg)) return 2;
            break;
        case 'x':
            if (cg_cli_whole("cgramap area", "--contexts", optarg, 1,
                             CG_RTL_MAX_CONTEXTS, &x))
                return 2;
            o->rp.contexts = (int)x;
            break;
        case 'j':
            if (cg_cli_whole("cgramap area", "--jobs", optarg, 1, 64, &x))
                return 2;
            o->jobs = (int)x;
            break;
        case 'h': area_help(); return 1;
        default:
            fprintf(stderr, "cgramap area: %s '%s' (see cgramap area "
                    "--help)\n", c == ':' ? "this option needs a value"
                                          : "unknown option",
                    cg_cli_bad_opt(argv, (char[3]){0}));
            return 2;
        }
    }
    if (abbrev)
        return 2;
    if (optind != argc) {
        fprintf(stderr, "cgramap area: unexpected argument '%s'\n",
                argv[optind]);
        return 2;
    }
    if (!o->cache)
        o->cache = cg_cli_rtl_cache(o->dflt, sizeof o->dflt);
    return 0;
}

typedef struct report {
    const cg_rtl *r;
    const cg_rtl_area *a;
    int least, most;
    double mean;
} report;

static json_t *module_json(const report *p, int i)
{
    const cg_rtl_module_area *m = &p->a->mod[i];
    json_t *types = json_object();
    for (int k = 0; k < m->ntypes; k++)
        json_object_set_new(types, m->types[k].type,
                            json_integer(m->types[k].count));
    return json_pack("{s:s, s:i, s:i, s:i, s:f, s:o}", "module",
                     cg_rtl_module_name(p->r, i), "instances", m->instances,
                     "cells", m->cells, "flip_flops", m->ffs, "nand2",
                     m->nand2, "cells_by_type", types);
}

static int w_json(void *arg, FILE *f)
{
    const report *p = arg;
    json_t *mods = json_array();
    for (int i = 0; i < p->a->nmodules; i++)
        json_array_append_new(mods, module_json(p, i));
    json_t *rec = json_pack(
        "{s:o, s:I, s:I, s:f, s:i, s:i, s:{s:i, s:i, s:f}}", "modules", mods,
        "cells", (json_int_t)p->a->cells, "flip_flops",
        (json_int_t)p->a->ffs, "nand2", p->a->nand2, "contexts",
        cg_rtl_get_params(p->r)->contexts, "config_bits",
        cg_rtl_chain_length(p->r), "config_bits_per_pe_per_context",
        "least", p->least, "most", p->most, "mean", p->mean);
    bool ok = rec && json_dumpf(rec, f, JSON_INDENT(2)) == 0;
    if (ok)
        fputc('\n', f);
    json_decref(rec);
    return cg_write_end(f, ok);
}

static void print(const report *p)
{
    printf("%-22s %9s %9s %11s %14s\n", "module", "instances", "cells",
           "flip-flops", "NAND2-eq each");
    for (int i = 0; i < p->a->nmodules; i++) {
        const cg_rtl_module_area *m = &p->a->mod[i];
        printf("%-22s %9d %9d %11d %14.0f\n", cg_rtl_module_name(p->r, i),
               m->instances, m->cells, m->ffs, m->nand2);
    }
    printf("array: %ld cells, %ld flip-flops, %.0f NAND2-equivalents "
           "(%d of %d modules from the cache)\n", p->a->cells, p->a->ffs,
           p->a->nand2, p->a->cached, p->a->nmodules);
    printf("configuration: %d bits for %d contexts; per PE per context "
           "%d..%d (mean %.1f)\n", cg_rtl_chain_length(p->r),
           cg_rtl_get_params(p->r)->contexts, p->least, p->most, p->mean);
}

int cg_cli_area(int argc, char **argv)
{
    area_opts o;
    int rc = area_parse(argc, argv, &o);
    if (rc)
        return rc == 1 ? 0 : 2;
    cg_diags *d = cg_diags_create();
    cg_netlist *nl = d ? cg_cli_load_netlist(o.arch, o.templates, d) : NULL;
    cg_rtl *r = nl ? cg_rtl_create(nl, &o.rp, d) : NULL;
    cg_rtl_area a = {0};
    rc = 1;
    if (r && cg_rtl_area_of(r, o.cache, o.jobs, &a, d) == 0) {
        report p = {r, &a, 0, 0, 0};
        cg_rtl_bits_per_block(r, &p.least, &p.most, &p.mean);
        print(&p);
        rc = o.json && cg_cli_write_file(o.json, w_json, &p) != 0 ? 1 : 0;
    }
    cg_diags_print(d, stderr);
    cg_rtl_area_free(&a);
    cg_rtl_destroy(r);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
    return rc;
}
