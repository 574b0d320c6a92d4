/* options.c: the help text of the main job, and what every command's
 * option parsing shares: whole numbers, seconds, file names, the mapper's
 * effort options and the name of an option refused.  Only options whose
 * stage exists are listed, so the program never advertises a stub. */
#include "cli/options.h"
#include "common/util.h"

#include "mapper/map.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void cg_cli_help(void)
{
    printf(
"Usage: cgramap [OPTION]... PATH...\n"
"       cgramap COMMAND [OPTION]... (cgramap COMMAND --help for details)\n"
"Describe CGRAs, extract loop DFGs, tile, map and verify.\n"
"\n"
"The main job maps every loop found under each PATH (benchmark folders with\n"
"a CGRA-ME Makefile, //DFGLOOP-tagged .c files, .dot DFGs), checks and\n"
"simulates each mapping, and prints one row per loop.\n"
"\n"
"Commands:\n"
"  arch           flatten an architecture, print its summary or picture\n"
"  dfg            extract the DFGs of a C file's tagged loops as dot\n"
"  map            map one DFG (.dot), check it, print its row\n"
"  tile           print the tiling plan of a tagged loop's nest\n"
"  check          check a saved mapping of a DFG again\n"
"  sim            simulate a saved mapping of a DFG\n"
"  merge          the parts of a sharded sweep (--shard) into one report\n"
"  sweep          a sharded sweep as a Slurm job array, and its progress\n"
"  rtl            write the array's Verilog and a mapping's bitstream\n"
"  area           the array's area from yosys, module by module\n"
"\n"
"Options of the main job:\n"
"      --arch FILE.xml     architecture (default: the embedded 4x4); give it\n"
"                          again to compare arrays (a table at the end)\n"
"      --param NAME=V,...  sweep one --arch over values of an attribute of\n"
"                          its <architecture> (e.g. cgra-rows=4,6) and compare\n"
"      --report DIR        the comparison as DIR/index.html with SVG charts\n"
"      --area              each array's area from yosys (NAND2-equivalents,\n"
"                          flip-flops, configuration bits) beside its cost\n"
"      --no-progress       no progress line on a terminal (it names each\n"
"                          running loop's II and mapper stage)\n"
"      --templates T.xml   module templates for a two-file architecture\n"
"      --timeout S         seconds per II tried (default 60; 300 for DFGs\n"
"                          of more than 48 nodes)\n"
"      --max-ii N          highest II tried, up to " CG_STR(CG_MAP_MAX_II) " (default\n"
"                          max(16, 2 x MII))\n"
"      --solver NAME       the ILP's MIP solver: glpk (default) or cbc\n"
"      --loop-control M    dfg: the DFG keeps the exit compare; array: the\n"
"                          array's controller runs the loop (CGRA-ME);\n"
"                          auto (default): array when no unit has icmp\n"
CG_CLI_EFFORT_HELP
"  -j, --jobs N            files mapped at once (default 1)\n"
"      --json FILE         every row, with each II tried, as JSON\n"
"      --csv FILE          every row as CSV\n"
"      --mapping-dir DIR   each mapping as text, JSON, Graphviz and SVG\n"
"      --run-timeout S     seconds for a loop's reference run (default 120)\n"
"      --rtl               run each loop's first execution on the array's\n"
"                          RTL too (rows end with rtl: yes, no: ..., n/a: ...)\n"
"      --rtl-sim S         verilator (default) or iverilog\n"
"      --rtl-cache DIR     compiled RTL models (default ~/.cache/cgramap-rtl)\n"
"      --shard I/N         run only shard I of N of the loops and arrays and\n"
"                          write its part with --json (docs/sweeps.md)\n"
"      --sym NAME=VALUE    a kernel parameter's value, as in DFG_FLAGS\n"
"  -h, --help              print this help and exit\n"
"  -V, --version           print the version and exit\n"
"\n"
"Exit status: 0 when every loop mapped and was verified (yes or n/a) and no\n"
"error was printed, 1 otherwise, 2 on bad usage, 130/143 when stopped by\n"
"SIGINT/SIGTERM.\n");
}

int cg_cli_getopt(int argc, char **argv, const char *optstring,
                  const struct option *opts, bool only_one_dash,
                  const char *prog, bool *bad)
{
    int li = -1;
    int c = only_one_dash ? getopt_long_only(argc, argv, optstring, opts, &li)
                          : getopt_long(argc, argv, optstring, opts, &li);
    if (c == -1 || li < 0)
        return c;
    const struct option *o = &opts[li];
    const char *a = argv[optind - 1];
    if (o->has_arg == required_argument && a == optarg && optind >= 2)
        a = argv[optind - 2]; /* "--opt VALUE": the option is before it */
    size_t dashes = strspn(a, "-") > 1 ? 2 : 1;
    size_t n = strcspn(a + dashes, "=");
    if (a[0] != '-' || n == strlen(o->name))
        return c;
    fprintf(stderr, "%s: unknown option '%.*s' (options are spelled in "
            "full: --%s?)\n", prog, (int)(n + dashes), a, o->name);
    *bad = true;
    return -1;
}

int cg_cli_path(const char *prog, const char *opt, const char *v)
{
    if (!*v) {
        fprintf(stderr, "%s: %s needs a file name, not an empty one\n",
                prog, opt);
        return -1;
    }
    if (v[0] == '-' && v[1]) { /* "-" alone: standard output */
        fprintf(stderr, "%s: %s needs a file name, not the option '%s' (a "
                "file whose name starts with '-': ./%s)\n", prog, opt, v, v);
        return -1;
    }
    return 0;
}

int cg_cli_name(const char *prog, const char *opt, const char *v)
{
    if (strcmp(v, "-") != 0)
        return cg_cli_path(prog, opt, v);
    fprintf(stderr, "%s: %s needs a name, not '-' (standard output takes "
            "files only; one named '-': ./-)\n", prog, opt);
    return -1;
}

int cg_cli_whole(const char *prog, const char *opt, const char *v, double lo,
                 double hi, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    /* The range first: converting a double beyond long long is undefined. */
    if (errno || end == v || *end || !(x >= lo && x <= hi) ||
        x != (double)(long long)x) {
        fprintf(stderr, "%s: Invalid value for %s: %s (a whole number from "
                "%.0f to %.0f)\n", prog, opt, v, lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

int cg_cli_seconds(const char *prog, const char *opt, const char *v,
                   double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end || !(x > 0 && x <= 1e9)) {
        fprintf(stderr, "%s: Invalid value for %s: %s (seconds, more than 0 "
                "and at most 1e9)\n", prog, opt, v);
        return -1;
    }
    *out = x;
    return 0;
}

/* A whole number from lo to INT_MAX into *out: cg_cli_whole's rule. */
static int whole_int(const char *prog, const char *opt, const char *v,
                     int lo, int *out)
{
    double x;
    if (cg_cli_whole(prog, opt, v, lo, INT_MAX, &x))
        return -1;
    *out = (int)x;
    return 0;
}

/* A whole number from lo to hi into *out. */
static int whole_int_max(const char *prog, const char *opt, const char *v,
                         int lo, int hi, int *out)
{
    double x;
    if (cg_cli_whole(prog, opt, v, lo, hi, &x))
        return -1;
    *out = (int)x;
    return 0;
}

int cg_cli_effort_opt(const char *prog, int code, const char *v,
                      struct cg_map_params *p)
{
    double x;
    switch (code) {
    case CG_CLI_OPT_SEED:
        if (cg_cli_whole(prog, "--seed", v, 0, UINT_MAX, &x))
            return -1;
        p->seed = (unsigned)x;
        return 0;
    case CG_CLI_OPT_STEPS:
        if (cg_cli_whole(prog, "--steps", v, 1, 1e12, &x))
            return -1;
        p->heur_steps = p->large_steps = (long)x; /* every size */
        return 0;
    case CG_CLI_OPT_NODES:
        return whole_int(prog, "--ilp-nodes", v, 1, &p->ilp_nodes);
    case CG_CLI_OPT_MOVES:
        if (cg_cli_whole(prog, "--moves", v, 0, 1e12, &x))
            return -1;
        p->nego_moves = p->large_moves = p->retry_moves = (long)x;
        return 0;
    case CG_CLI_OPT_II:
        if (cg_cli_whole(prog, "--ii", v, 1, CG_MAP_MAX_II, &x))
            return -1;
        p->min_ii = p->max_ii = (int)x;
        return 0;
    case CG_CLI_OPT_REPAIR_TRIES:
        return whole_int(prog, "--repair-tries", v, 0, &p->partial_tries);
    case CG_CLI_OPT_CLUSTER_ABOVE:
        return whole_int(prog, "--cluster-above", v, 0,
                         &p->cluster_threshold);
    case CG_CLI_OPT_MAPPER:
        if (cg_map_search_parse(v, &p->search) == 0)
            return 0;
        fprintf(stderr, "%s: Invalid value for --mapper: %s (auto, "
                "heuristic, ilp or sat)\n", prog, v);
        return -1;
    case CG_CLI_OPT_CONFLICTS:
        if (cg_cli_whole(prog, "--conflicts", v, 0, 1e12, &x))
            return -1;
        p->sat_conflicts = p->large_conflicts = p->large_rec_conflicts =
            (long)x; /* every size */
        return 0;
    case CG_CLI_OPT_SAT_LITERALS:
        if (cg_cli_whole(prog, "--sat-literals", v, 0, 1e12, &x))
            return -1;
        p->sat_max_literals = (long)x;
        return 0;
    case CG_CLI_OPT_HORIZON:
        return whole_int_max(prog, "--horizon", v, 0, CG_MAP_MAX_SAT_HORIZON,
                             &p->sat_horizon);
    default: /* CG_CLI_OPT_TIME_LIMIT */
        if (cg_cli_seconds(prog, "--time-limit", v, &x))
            return -1;
        p->time_limit_s = x;
        return 0;
    }
}

const char *cg_cli_bad_opt(char *const *argv, char buf[3])
{
    const char *prev = optind > 0 ? argv[optind - 1] : "";
    const char *cur = argv[optind]; /* argv ends with NULL */
    bool sh = optopt > ' ' && optopt < 127;
    bool group = sh && cur && cur[0] == '-' && cur[1] && cur[1] != '-' &&
                 strchr(cur + 1, optopt);
    bool last = sh && prev[0] == '-' && prev[1] && prev[1] != '-';
    if (!group && !last)
        return prev;
    buf[0] = '-';
    buf[1] = (char)optopt;
    buf[2] = '\0';
    return buf;
}
