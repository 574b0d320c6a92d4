/* main.c: entry point of the cgramap program. */
#include "cli/commands.h"
#include "cli/options.h"
#include "common/version.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* --help or --version anywhere: those win over the main job (the first
 * of them given).  CG_CLI_RUN when neither is there. */
static cg_cli_action wants_info(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            return CG_CLI_HELP;
        else if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version"))
            return CG_CLI_VERSION;
    return CG_CLI_RUN;
}

/* A first argument that looks like a command (a plain word) but is none
 * and names no file: a mistyped command, not a PATH of the main job. */
static bool unknown_command(const char *arg)
{
    struct stat st;
    return arg[0] != '-' && !strpbrk(arg, "./") && stat(arg, &st) != 0;
}

static int run(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "arch") == 0)
        return cg_cli_arch(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "dfg") == 0)
        return cg_cli_dfg(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "map") == 0)
        return cg_cli_map(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "tile") == 0)
        return cg_cli_tile(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "check") == 0)
        return cg_cli_check(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "sim") == 0)
        return cg_cli_sim(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "area") == 0)
        return cg_cli_area(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "rtl") == 0)
        return cg_cli_rtl(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "merge") == 0)
        return cg_cli_merge(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "sweep") == 0)
        return cg_cli_sweep(argc - 1, argv + 1);
    cg_cli_action info = wants_info(argc, argv);
    if (argc > 1 && info == CG_CLI_RUN && unknown_command(argv[1])) {
        fprintf(stderr, "cgramap: '%s' is neither a command (arch, dfg, "
                "map, tile, check, sim, rtl, area, merge, sweep) nor a file or folder "
                "(see cgramap --help)\n",
                argv[1]);
        return 2;
    }
    if (argc > 1 && info == CG_CLI_RUN)
        return cg_cli_main_job(argc, argv);
    switch (info) {
    case CG_CLI_HELP: cg_cli_help(); return 0;
    case CG_CLI_VERSION: printf("cgramap %s\n", cg_version()); return 0;
    case CG_CLI_RUN: break; /* no argument at all */
    }
    cg_cli_help();
    return 2;
}

/* A command that printed its rows and then could not write them (a full
 * disk) must not exit 0; the commands that write through
 * cg_cli_write_file have said so already and exit 1. */
int main(int argc, char **argv)
{
    int rc = run(argc, argv);
    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == 0) {
        /* errno is the flush's, or gone with the write that failed */
        fprintf(stderr, "cgramap: error: cannot write standard output "
                "(%s)\n", errno ? strerror(errno) : "a write failed");
        rc = 1;
    }
    return rc;
}
