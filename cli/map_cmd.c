/* map_cmd.c: `cgramap map`: map one DFG (dot) on an architecture, check the
 * mapping and print one row: the mapping columns of the main job's rows
 * (map_cols.c: MII parts, II, status, what the II is proven to be, how the
 * array is used) and whether the checker accepted it. */
#include "cli/bench.h"
#include "cli/commands.h"
#include "cli/options.h"

#include "arch/arch.h"
#include "common/diag.h"
#include "dfg/dfg.h"
#include "mapper/map.h"
#include "verify/verify.h"
#include "xml/xml.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct map_opts {
    const char *arch, *templates, *dot, *mapping;
    cg_map_params p;
} map_opts;

static void map_help(void)
{
    printf("Usage: cgramap map [--arch FILE.xml [--templates T.xml]]"
           " [--timeout S] [--max-ii N]\n"
           "                  [--solver glpk|cbc] [--dump-lp PREFIX]"
           " [--dump-cnf PREFIX] [--mapping OUT.txt]\n"
           "                  [--seed N] [--steps N] [--ilp-nodes N]"
           " [--time-limit S]\n"
           "                  [--ii N] [--mapper auto|heuristic|ilp|sat]"
           " [--repair-tries N]\n"
           "                  [--cluster-above N] [--moves N]"
           " [--conflicts N] [--horizon N]\n"
           "                  [--sat-literals N] LOOP.dot\n"
           "Map one DFG (per II: heuristic, SAT, annealer; the ILP where"
           " SAT's model is\ntoo large), check the mapping, print a row.  --dump-cnf"
           " writes the SAT model\nof each II it tries (DIMACS).\n"
           "LOOP may also be another mapper's DFG: .xml (NUS mappers), .txt"
           " (SAT-based mappers)\nor SAT-MapIt's NAME_nodes"
           " (with its NAME_edges ... beside it).\n"
           CG_CLI_EFFORT_HELP);
}

static int map_parse(int argc, char **argv, map_opts *o)
{
    static const struct option opts[] = {
        {"arch", required_argument, NULL, 'a'},
        {"templates", required_argument, NULL, 't'},
        {"timeout", required_argument, NULL, 'T'},
        {"max-ii", required_argument, NULL, 'I'},
        {"solver", required_argument, NULL, 'S'},
        {"dump-lp", required_argument, NULL, 'D'},
        {"dump-cnf", required_argument, NULL, 'C'},
        {"mapping", required_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},
        {"sym", required_argument, NULL, 's'},
        CG_CLI_EFFORT_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    int c;
    double x;
    memset(o, 0, sizeof *o);
    cg_map_params_init(&o->p);
    optind = 1;
    opterr = 0;
    bool abbrev = false;
    while ((c = cg_cli_getopt(argc, argv, ":h", opts, false,
                              "cgramap map", &abbrev)) != -1) {
        switch (c) {
        case 'a': o->arch = optarg; break;
        case 't': o->templates = optarg; break;
        case 'T':
            if (cg_cli_seconds("cgramap map", "--timeout", optarg, &x))
                return 2;
            o->p.timeout_s = o->p.large_timeout_s = x; /* every size */
            break;
        case 'I':
            if (cg_cli_whole("cgramap map", "--max-ii", optarg, 1,
                             CG_MAP_MAX_II, &x))
                return 2;
            o->p.max_ii = (int)x;
            break;
        case 'S':
            if (cg_map_solver_parse(optarg, &o->p.solver) < 0) {
                fprintf(stderr, "cgramap map: Invalid value for --solver: "
                        "%s (glpk or cbc)\n", optarg);
                return 2;
            }
            break;
        case 'D':
            o->p.dump_lp = optarg;
            if (cg_cli_name("cgramap map", "--dump-lp", optarg)) return 2;
            break;
        case 'C':
            o->p.dump_cnf = optarg;
            if (cg_cli_name("cgramap map", "--dump-cnf", optarg)) return 2;
            break;
        case 'm':
            o->mapping = optarg;
            if (cg_cli_path("cgramap map", "--mapping", optarg)) return 2;
            break;
        case 'h': map_help(); return 1;
        case 's': /* symbols reach only a reference run, which map has not */
            fprintf(stderr, "cgramap map: --sym changes nothing here: "
                    "symbol values reach only the reference run, and map "
                    "runs none; give them to cgramap sim (a saved mapping "
                    "run on data) or to the main job\n");
            return 2;
        case CG_CLI_OPT_SEED:
        case CG_CLI_OPT_STEPS:
        case CG_CLI_OPT_NODES:
        case CG_CLI_OPT_TIME_LIMIT:
        case CG_CLI_OPT_II:
        case CG_CLI_OPT_MAPPER:
        case CG_CLI_OPT_REPAIR_TRIES:
        case CG_CLI_OPT_CLUSTER_ABOVE:
        case CG_CLI_OPT_MOVES:
        case CG_CLI_OPT_CONFLICTS:
        case CG_CLI_OPT_HORIZON:
        case CG_CLI_OPT_SAT_LITERALS:
            if (cg_cli_effort_opt("cgramap map", c, optarg, &o->p))
                return 2;
            break;
        case ':':
            fprintf(stderr, "cgramap map: option '%s' needs a value\n",
                    argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "cgramap map: unknown option '%s'"
                    " (see cgramap map --help)\n",
                    cg_cli_bad_opt(argv, (char[3]){0}));
            return 2;
        }
    }
    if (abbrev)
        return 2;
    if (optind != argc - 1) {
        fprintf(stderr, "cgramap map: give exactly one LOOP.dot"
                " (see cgramap map --help)\n");
        return 2;
    }
    o->dot = argv[optind];
    return 0;
}

typedef struct map_job {
    const cg_map_result *res;
    const cg_netlist *nl;
    const cg_dfg *g;
} map_job;

static int mapping_writer(void *arg, FILE *f)
{
    const map_job *j = arg;
    return cg_mapping_write(j->res->mapping, j->res->mrrg, j->nl, j->g, f);
}

/* Map, check, print the row; the exit status. */
static int map_one(const map_opts *o, const cg_netlist *nl, const cg_dfg *g,
                   cg_diags *d)
{
    cg_map_result res;
    memset(&res, 0, sizeof res);
    bool failed = cg_map(nl, g, &o->p, &res, d) != 0;
    int ok = !failed && res.status == CG_MAP_MAPPED &&
             cg_map_check(nl, res.mrrg, g, res.mapping, d) == 0;
    /* an error still gets its row, as in the main job (the message says
       why) */
    json_t *rec = failed ? json_pack("{s:s}", "status", "error")
                         : cg_cli_map_cols(&res, nl, res.timeout_s);
    if (!rec || json_object_set_new(rec, "nodes",
                                    json_integer(cg_dfg_nnodes(g))) != 0) {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0, "loop '%s': out of "
                     "memory writing the row", cg_dfg_name(g));
        json_decref(rec);
        cg_map_result_free(&res);
        return 1;
    }
    printf("%-16s ", "loop");
    cg_cli_map_header(stdout);
    printf(" %s\n%-16s ", "checked", cg_dfg_name(g));
    cg_cli_map_cells(rec, stdout);
    printf(" %s\n", ok ? "yes" : "no");
    if (!failed)
        cg_cli_proof_note(rec, g, d);
    json_decref(rec);
    map_job j = {&res, nl, g};
    if (ok && o->mapping &&
        cg_cli_write_file(o->mapping, mapping_writer, &j) != 0)
        ok = 0;
    cg_map_result_free(&res);
    return ok ? 0 : 1;
}

int cg_cli_map(int argc, char **argv)
{
    map_opts o;
    int p = map_parse(argc, argv, &o);
    if (p) return p == 1 ? 0 : 2;
    cg_diags *d = cg_diags_create();
    if (!d) { fputs("cgramap: out of memory\n", stderr); return 1; }
    cg_netlist *nl = cg_cli_load_netlist(o.arch, o.templates, d);
    cg_dfg *g = nl ? cg_dfg_read_file(o.dot, d) : NULL;
    if (g && !cg_dfg_file(g)) /* no source named: errors name the file */
        cg_dfg_set_file(g, o.dot);
    int rc = g ? map_one(&o, nl, g, d) : 1;
    cg_diags_print(d, stderr);
    cg_dfg_destroy(g);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
    return rc;
}
