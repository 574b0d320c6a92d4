/* options.h: command-line parsing for cgramap, kept apart from the pipeline
 * so that every usage error is reported the same way (exit status 2). */
#ifndef CG_CLI_OPTIONS_H
#define CG_CLI_OPTIONS_H

#include <stdbool.h>

typedef enum cg_cli_action {
    CG_CLI_RUN,     /* the main job: map and verify the PATHs' loops */
    CG_CLI_HELP,    /* --help */
    CG_CLI_VERSION  /* --version */
} cg_cli_action;

/* Print the help text to stdout. */
void cg_cli_help(void);

/* The mapper's effort options, shared by the main job and `map`:
 * --seed N, --steps N, --ilp-nodes N, --time-limit S, --ii N, --mapper M,
 * --repair-tries N, --cluster-above N, --moves N, --conflicts N,
 * --horizon N, --sat-literals N.
 * Their getopt codes (above any character) and long-option entries: */
enum { CG_CLI_OPT_SEED = 300, CG_CLI_OPT_STEPS, CG_CLI_OPT_NODES,
       CG_CLI_OPT_TIME_LIMIT, CG_CLI_OPT_II, CG_CLI_OPT_MAPPER,
       CG_CLI_OPT_REPAIR_TRIES, CG_CLI_OPT_CLUSTER_ABOVE, CG_CLI_OPT_MOVES,
       CG_CLI_OPT_CONFLICTS, CG_CLI_OPT_HORIZON, CG_CLI_OPT_SAT_LITERALS };
#define CG_CLI_EFFORT_OPTIONS                                                \
    {"seed", required_argument, NULL, CG_CLI_OPT_SEED},                      \
    {"steps", required_argument, NULL, CG_CLI_OPT_STEPS},                    \
    {"ilp-nodes", required_argument, NULL, CG_CLI_OPT_NODES},                \
    {"time-limit", required_argument, NULL, CG_CLI_OPT_TIME_LIMIT},          \
    {"ii", required_argument, NULL, CG_CLI_OPT_II},                          \
    {"mapper", required_argument, NULL, CG_CLI_OPT_MAPPER},                  \
    {"repair-tries", required_argument, NULL, CG_CLI_OPT_REPAIR_TRIES},      \
    {"cluster-above", required_argument, NULL, CG_CLI_OPT_CLUSTER_ABOVE},    \
    {"moves", required_argument, NULL, CG_CLI_OPT_MOVES},                    \
    {"conflicts", required_argument, NULL, CG_CLI_OPT_CONFLICTS},            \
    {"horizon", required_argument, NULL, CG_CLI_OPT_HORIZON},                \
    {"sat-literals", required_argument, NULL, CG_CLI_OPT_SAT_LITERALS}
#define CG_CLI_EFFORT_HELP                                                   \
    "      --seed N            seed of the heuristic (default 1)\n"           \
    "      --steps N           work limit per II: ops the heuristic places\n" \
    "                          over its restarts (default 5000; 300 for\n" \
    "                          DFGs of more than 48 nodes)\n"              \
    "      --moves N           work limit per II: moves of the negotiated\n" \
    "                          annealer when the heuristic fails there,\n"   \
    "                          0 = none (default 100000; 400000 for DFGs\n" \
    "                          of more than 48 nodes; 800000 in each of\n"   \
    "                          2 retries at an II SAT leaves undecided)\n"   \
    "      --conflicts N       work limit per II: conflicts of the SAT\n"    \
    "                          mapper, 0 = none (default 60000; 2000 for\n"  \
    "                          DFGs of more than 48 nodes whose model\n"   \
    "                          has more than 300000 routing literals,\n"   \
    "                          30000 in auto at the first II of such a\n" \
    "                          DFG whose RecMII is above its ResMII)\n"    \
    "      --horizon N         schedule slack the SAT mapper encodes; an II\n" \
    "                          it refutes is proven for it (default 4)\n"   \
    "      --sat-literals N    SAT models of more routing literals are not\n" \
    "                          built; the ILP takes their II (default\n"    \
    "                          20000000, 0 = no limit)\n"                   \
    "      --ilp-nodes N       work limit per ILP model: branch-and-bound\n"  \
    "                          nodes (default 5000)\n"                        \
    "      --time-limit S      wall-clock cap for a whole loop (default none)\n" \
    "      --ii N              try II N only (sets --max-ii N; lower IIs\n"   \
    "                          are reported open, not tried)\n"               \
    "      --mapper M          auto (per II: heuristic, SAT, annealer;\n"   \
    "                          the ILP where SAT's model is too large;\n"   \
    "                          default), heuristic (with the annealer),\n"  \
    "                          ilp or sat (alone)\n"                         \
    "      --repair-tries N    heuristic attempts at a partial mapping for\n" \
    "                          the ILP to repair, 0 = no repair (default 8)\n" \
    "      --cluster-above N   DFGs of more nodes are clustered first, the\n" \
    "                          heuristic kept in regions (default 48)\n"

/* A whole number in lo..hi for option opt; 0, or -1 after "PROG: Invalid
 * value for OPT: V (a whole number from LO to HI)" on stderr. */
int cg_cli_whole(const char *prog, const char *opt, const char *v, double lo,
                 double hi, double *out);
/* Seconds above 0, at most 1e9 (about 32 years: finite, and any deadline
 * computed from it stays exact); 0, or -1 after "PROG: Invalid value for
 * OPT: V (seconds, more than 0 and at most 1e9)". */
int cg_cli_seconds(const char *prog, const char *opt, const char *v,
                   double *out);

/* The option getopt_long just refused, as it was written: "-s" for a
 * short option inside a group ("-sym": getopt stays on the group, so
 * argv[optind - 1] is the argument before it), else the argument
 * itself.  argv ends with NULL, as main's does; buf: room for "-c". */
const char *cg_cli_bad_opt(char *const *argv, char buf[3]);

/* getopt_long (getopt_long_only when only_one_dash) that takes long
 * options spelled in full only: a prefix of one ("--mapping" for
 * --mapping-dir) ends the parse (-1) with *bad set, after "PROG: unknown
 * option '--mapping' (options are spelled in full: --mapping-dir?)" on
 * stderr (getopt's abbreviations once made `cgramap --mapping F` a
 * folder). */
struct option;
int cg_cli_getopt(int argc, char **argv, const char *optstring,
                  const struct option *opts, bool only_one_dash,
                  const char *prog, bool *bad);

/* A file or folder name given to option opt: 0, or -1 after "PROG: OPT
 * needs a file name, not an empty one" on stderr (an empty prefix made a
 * file named "-2"; an empty path, errors naming no file), or "..., not the
 * option 'V'" when V starts with '-' and is not "-" (`--json
 * --no-progress` wrote a file named --no-progress). */
int cg_cli_path(const char *prog, const char *opt, const char *v);
/* The same for a folder or a file prefix, where "-" is no standard output:
 * refused too ("PROG: OPT needs a name, not '-' ..."). */
int cg_cli_name(const char *prog, const char *opt, const char *v);

struct cg_map_params;
/* Apply effort option `code` with value v to p.  0, or -1 after printing
 * "PROG: Invalid value for --OPT: V (...)" to stderr. */
int cg_cli_effort_opt(const char *prog, int code, const char *v,
                      struct cg_map_params *p);

#endif
