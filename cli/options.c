/* options.c: getopt_long table of cgramap's global options.  Only options
 * whose stage exists are accepted, so the program never advertises a stub. */
#include "cli/options.h"

#include <getopt.h>
#include <stdio.h>

void cg_cli_help(void)
{
    printf("Usage: cgramap [OPTION]...\n"
           "       cgramap arch [--arch FILE.xml] [--dot OUT.dot] [--svg OUT.svg]\n"
           "Describe CGRAs, extract loop DFGs, tile, map and verify.\n"
           "\n"
           "Commands:\n"
           "  arch           flatten an architecture, print its summary\n"
           "                 (cgramap arch --help)\n"
           "\n"
           "Options:\n"
           "  -h, --help     print this help and exit\n"
           "  -V, --version  print the version and exit\n");
}

cg_cli_action cg_cli_parse(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+hV", opts, NULL)) != -1) {
        switch (c) {
        case 'h': return CG_CLI_HELP;
        case 'V': return CG_CLI_VERSION;
        default:
            fprintf(stderr, "cgramap: unknown option '%s' (see cgramap --help)\n",
                    argv[optind - 1]);
            return CG_CLI_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "cgramap: unexpected argument '%s' (see cgramap --help)\n",
                argv[optind]);
        return CG_CLI_USAGE;
    }
    return CG_CLI_RUN;
}
