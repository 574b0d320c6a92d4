/* arch_cmd.c: `cgramap arch`: read (or take the embedded default) an
 * architecture, flatten it and print the netlist summary; optionally write
 * the netlist as Graphviz dot or render it to SVG. */
#include "cli/commands.h"
#include "cli/options.h"

#include "arch/arch.h"
#include "common/diag.h"
#include "xml/xml.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct arch_opts {
    const char *arch, *templates, *dot, *svg;
    bool pe;      /* --level pe: one box per block */
} arch_opts;

static void arch_help(void)
{
    printf("Usage: cgramap arch [--arch FILE.xml [--templates T.xml]]"
           " [--dot OUT.dot] [--svg OUT.svg]\n"
           "                    [--level prim|pe]\n"
           "Flatten an architecture (the embedded default without --arch)"
           " and print its summary.\n"
           "--level pe draws one box per block and one arrow per pair of "
           "connected blocks\n(default prim: every primitive and "
           "connection).\n");
}

/* 0 = run, 1 = help printed, 2 = usage error printed. */
static int arch_parse(int argc, char **argv, arch_opts *o)
{
    static const struct option opts[] = {
        {"arch", required_argument, NULL, 'a'},
        {"templates", required_argument, NULL, 't'},
        {"dot", required_argument, NULL, 'd'},
        {"svg", required_argument, NULL, 's'},
        {"level", required_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    memset(o, 0, sizeof *o);
    optind = 1;
    opterr = 0;
    bool abbrev = false;
    while ((c = cg_cli_getopt(argc, argv, "+:h", opts, false,
                              "cgramap arch", &abbrev)) != -1) {
        switch (c) {
        case 'a': o->arch = optarg; break;
        case 't': o->templates = optarg; break;
        case 'd': o->dot = optarg; break;
        case 's': o->svg = optarg; break;
        case 'l':
            if (strcmp(optarg, "pe") != 0 && strcmp(optarg, "prim") != 0) {
                fprintf(stderr, "cgramap arch: Invalid value for --level: "
                        "%s (prim or pe)\n", optarg);
                return 2;
            }
            o->pe = strcmp(optarg, "pe") == 0;
            break;
        case 'h': arch_help(); return 1;
        case ':':
            fprintf(stderr, "cgramap arch: option '%s' needs a value\n",
                    argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "cgramap arch: unknown option '%s'"
                    " (see cgramap arch --help)\n",
                    cg_cli_bad_opt(argv, (char[3]){0}));
            return 2;
        }
    }
    if (abbrev)
        return 2;
    if (optind < argc) {
        fprintf(stderr, "cgramap arch: unexpected argument '%s'"
                " (see cgramap arch --help)\n", argv[optind]);
        return 2;
    }
    if (o->templates && !o->arch) {
        fprintf(stderr, "cgramap arch: --templates needs --arch\n");
        return 2;
    }
    return 0;
}

static int dot_writer(void *nl, FILE *f)
{
    return cg_netlist_write_dot(nl, f);
}

static int pe_dot_writer(void *nl, FILE *f)
{
    return cg_netlist_write_pe_dot(nl, f);
}

static int summary_writer(void *nl, FILE *f)
{
    return cg_netlist_summary(nl, f);
}

static int write_dot(const cg_netlist *nl, const char *path, bool pe)
{
    return cg_cli_write_file(path, pe ? pe_dot_writer : dot_writer,
                             (void *)nl);
}

static int write_svg(const cg_netlist *nl, const char *path, bool pe)
{
    return cg_cli_write_svg(path, pe ? pe_dot_writer : dot_writer,
                            (void *)nl);
}

cg_netlist *cg_cli_load_netlist(const char *arch, const char *templates,
                                cg_diags *d)
{
    /* an empty name once gave ": error: cannot open the file" */
    if (arch && !*arch) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "--arch needs a file name, "
                     "not an empty one; name an architecture XML file");
        return NULL;
    }
    if (templates && !*templates) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "--templates needs a file "
                     "name, not an empty one; name the module templates' "
                     "XML file");
        return NULL;
    }
    if (templates && !arch) { /* else silently unused */
        cg_diags_add(d, CG_SEV_ERROR, templates, 0, "--templates needs "
                     "--arch: give the two-file architecture whose module "
                     "templates these are with --arch FILE.xml");
        return NULL;
    }
    cg_arch *a = arch ? cg_xml_read(arch, templates, d) : cg_arch_default(d);
    cg_netlist *nl = a ? cg_arch_flatten(a, d) : NULL;
    cg_arch_destroy(a);
    return nl;
}

int cg_cli_arch(int argc, char **argv)
{
    arch_opts o;
    int p = arch_parse(argc, argv, &o);
    if (p) return p == 1 ? 0 : 2;
    cg_diags *d = cg_diags_create();
    if (!d) { fputs("cgramap: out of memory\n", stderr); return 1; }
    cg_netlist *nl = cg_cli_load_netlist(o.arch, o.templates, d);
    cg_diags_print(d, stderr);
    int rc = nl ? 0 : 1;
    if (nl) {
        if (cg_cli_write_file("-", summary_writer, nl) != 0) rc = 1;
        if (o.dot && write_dot(nl, o.dot, o.pe) != 0) rc = 1;
        if (o.svg && write_svg(nl, o.svg, o.pe) != 0) rc = 1;
    }
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
    return rc;
}
