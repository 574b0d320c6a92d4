/* sim_cmd.c: `cgramap sim`: run a saved mapping on the cycle-accurate
 * simulator (cg_sim_run) without mapping again, and print its live-ins,
 * live-outs and the memory it changed; with --compare, run the DFG
 * interpreter on the same data and require the same memory and live-outs.
 *
 * The data are the ones the flow stage verifies a DFG without C code on
 * (cg_flow_dot_data with cg_flow_params_init's seed, image size and
 * iterations, which the options change), so `cgramap sim --compare` on a
 * mapping that --mapping-dir saved repeats the main job's comparison. */
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/saved.h"
#include "cli/syms.h"

#include "common/util.h"
#include "flow/flow.h"
#include "verify/rtl.h"
#include "verify/verify.h"

#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest memory image, --mem-size's or --mem-in's (1 GiB). */
#define SIM_MAX_MEM (1 << 30)

typedef struct sim_opts {
    const char *arch, *templates, *dot, *mapping;
    const char *mem_in, *mem_out;
    bool mem_size;        /* --mem-size given */
    bool compare;
    bool rtl;             /* --rtl: co-simulate the RTL too */
    const char *rtl_cache;
    cg_cosim_tool rtl_tool;
    cg_cli_syms syms;
    cg_flow_params data;  /* seed, dot_iters, dot_mem, syms */
} sim_opts;

static void sim_help(void)
{
    printf("Usage: cgramap sim [--arch FILE.xml [--templates T.xml]]"
           " [--iters N] [--seed N]\n"
           "                  [--mem-size BYTES | --mem-in FILE]"
           " [--mem-out FILE]\n"
           "                  [--sym NAME=VALUE]... [--compare]"
           " LOOP.dot MAPPING.txt\n"
           "Simulate a saved mapping (cgramap map --mapping, --mapping-dir)"
           " of LOOP.dot and\n"
           "print its live-ins, live-outs and the memory it changed.\n"
           "      --iters N         iterations (default %d)\n"
           "      --seed N          seed of the memory and the live-ins,"
           " 1 to 2^53 - 1\n"
           "                        (default %llu, the main job's"
           " verification data)\n"
           "      --mem-size BYTES  memory at address 0, seeded"
           " (default %d)\n"
           "      --mem-in FILE     memory at address 0: FILE's bytes\n"
           "      --mem-out FILE    write the memory after the run, raw\n"
           "      --sym NAME=VALUE  the live-in of symbol NAME\n"
           "      --compare         run the DFG interpreter on the same"
           " data too: exit 1\n"
           "                        unless memory and live-outs are the"
           " same\n"
           "      --rtl             run the array's RTL with the mapping's"
           " bitstream too:\n"
           "                        exit 1 unless it leaves the simulator's"
           " memory and\n"
           "                        live-outs (prints rtl: yes, no: ..., "
           "n/a: ...)\n"
           "      --rtl-sim S       verilator (default) or iverilog\n"
           "      --rtl-cache DIR   compiled models (default "
           "~/.cache/cgramap-rtl)\n", CG_FLOW_DOT_ITERS, (unsigned long long)CG_FLOW_SEED,
           CG_FLOW_DOT_MEM);
}

enum { OPT_ITERS = 400, OPT_SEED, OPT_MEM_SIZE, OPT_MEM_IN, OPT_MEM_OUT,
       OPT_SYM, OPT_COMPARE, OPT_RTL, OPT_RTL_SIM, OPT_RTL_CACHE };

/* A numeric option into its field; 0 or 2. */
static int sim_number(sim_opts *o, int c, const char *v)
{
    double x;
    static const char *const name[] = {"--iters", "--seed", "--mem-size"};
    static const double hi[] = {1e7, 9007199254740991.0, SIM_MAX_MEM};
    if (cg_cli_whole("cgramap sim", name[c - OPT_ITERS], v, 1,
                     hi[c - OPT_ITERS], &x))
        return 2;
    if (c == OPT_ITERS)
        o->data.dot_iters = (int64_t)x;
    else if (c == OPT_SEED)
        o->data.seed = (uint64_t)x;
    else
        o->data.dot_mem = (uint64_t)x;
    o->mem_size |= c == OPT_MEM_SIZE;
    return 0;
}

/* One option; 0, 1 after --help, 2 on bad usage. */
static int sim_opt(sim_opts *o, int c, char **argv)
{
    switch (c) {
    case 'a': o->arch = optarg; return 0;
    case 't': o->templates = optarg; return 0;
    case OPT_ITERS: case OPT_SEED: case OPT_MEM_SIZE:
        return sim_number(o, c, optarg);
    case OPT_MEM_IN: o->mem_in = optarg; return 0;
    case OPT_MEM_OUT:
        o->mem_out = optarg;
        return cg_cli_path("cgramap sim", "--mem-out", optarg) ? 2 : 0;
    case OPT_SYM: return cg_cli_sym_add(&o->syms, optarg, "cgramap sim") ?
                         2 : 0;
    case OPT_COMPARE: o->compare = true; return 0;
    case OPT_RTL: o->rtl = true; return 0;
    case OPT_RTL_CACHE:
        o->rtl_cache = optarg;
        return cg_cli_name("cgramap sim", "--rtl-cache", optarg) ? 2 : 0;
    case OPT_RTL_SIM:
        o->rtl = true;
        if (!strcmp(optarg, "verilator") || !strcmp(optarg, "iverilog")) {
            o->rtl_tool = optarg[0] == 'i' ? CG_COSIM_IVERILOG
                                           : CG_COSIM_VERILATOR;
            return 0;
        }
        fprintf(stderr, "cgramap sim: --rtl-sim takes verilator or "
                "iverilog, not '%s'\n", optarg);
        return 2;
    case 'h': sim_help(); return 1;
    case ':':
        fprintf(stderr, "cgramap sim: option '%s' needs a value\n",
                argv[optind - 1]);
        return 2;
    default:
        fprintf(stderr, "cgramap sim: unknown option '%s' (see cgramap sim"
                " --help)\n", cg_cli_bad_opt(argv, (char[3]){0}));
        return 2;
    }
}

static int sim_parse(int argc, char **argv, sim_opts *o)
{
    static const struct option opts[] = {
        {"arch", required_argument, NULL, 'a'},
        {"templates", required_argument, NULL, 't'},
        {"iters", required_argument, NULL, OPT_ITERS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"mem-size", required_argument, NULL, OPT_MEM_SIZE},
        {"mem-in", required_argument, NULL, OPT_MEM_IN},
        {"mem-out", required_argument, NULL, OPT_MEM_OUT},
        {"sym", required_argument, NULL, OPT_SYM},
        {"compare", no_argument, NULL, OPT_COMPARE},
        {"rtl", no_argument, NULL, OPT_RTL},
        {"rtl-sim", required_argument, NULL, OPT_RTL_SIM},
        {"rtl-cache", required_argument, NULL, OPT_RTL_CACHE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    cg_flow_params_init(&o->data);
    optind = 1;
    opterr = 0;
    int c, rc;
    bool abbrev = false;
    while ((c = cg_cli_getopt(argc, argv, ":h", opts, false,
                              "cgramap sim", &abbrev)) != -1)
        if ((rc = sim_opt(o, c, argv)) != 0)
            return rc;
    if (abbrev)
        return 2;
    if (o->mem_in && o->mem_size) {
        fprintf(stderr, "cgramap sim: --mem-in sets the memory's size: "
                "give it or --mem-size, not both\n");
        return 2;
    }
    if (optind != argc - 2) {
        fprintf(stderr, "cgramap sim: give LOOP.dot and MAPPING.txt"
                " (see cgramap sim --help)\n");
        return 2;
    }
    o->dot = argv[optind];
    o->mapping = argv[optind + 1];
    o->data.nsyms = o->syms.n;
    memcpy(o->data.syms, o->syms.v, (size_t)o->syms.n * sizeof *o->syms.v);
    return 0;
}

/* ---- the data ------------------------------------------------------------ */

/* The memory before the run and the live-ins: the flow stage's data for
 * an image of --mem-in's size (or --mem-size), then --mem-in's bytes over
 * the image.  0, or -1 with an error in d. */
static int data_of(const sim_opts *o, const cg_dfg *g, cg_mem *mem,
                   uint64_t *in, cg_diags *d)
{
    size_t n = 0;
    /* at most --mem-size's limit: a device given as the image would
       otherwise be read until memory runs out */
    char *file = o->mem_in ? cg_slurp_max(o->mem_in, SIM_MAX_MEM, &n) : NULL;
    if (o->mem_in && !file && errno == EFBIG) {
        cg_diags_add(d, CG_SEV_ERROR, o->mem_in, 0, "the memory image holds "
                     "more than %d bytes, the most --mem-size allows: give "
                     "the bytes the loop reads", SIM_MAX_MEM);
        return -1;
    }
    if (o->mem_in && (!file || n == 0)) {
        cg_diags_add(d, CG_SEV_ERROR, o->mem_in, 0, "cannot read the "
                     "memory image (%s): give a file of at least one byte",
                     file ? "empty" : strerror(errno));
        free(file);
        return -1;
    }
    /* without --mem-size, the image holds the memory g states */
    uint64_t size = file ? n : o->mem_size ? o->data.dot_mem
                                           : cg_flow_dot_mem(&o->data, g);
    *mem = (cg_mem){malloc(size), 0, size};
    if (mem->data) {
        cg_flow_dot_data(&o->data, g, mem, in);
        if (file)
            memcpy(mem->data, file, n);
    }
    free(file);
    return mem->data ? 0 : -1;
}

/* ---- the run ------------------------------------------------------------- */

/* The values of the nodes of op `op` in v, one line each. */
static void print_values(const cg_dfg *g, cg_op op, const char *what,
                         const uint64_t *v)
{
    for (int i = 0; i < cg_dfg_nnodes(g); i++)
        if (cg_dfg_get_node(g, i)->op == op)
            printf("%s '%s' = %llu\n", what, cg_dfg_get_node(g, i)->name,
                   (unsigned long long)v[i]);
}

/* How many bytes the run changed, and where the first and last are. */
static void print_changes(const cg_mem *before, const cg_mem *after)
{
    uint64_t n = 0, first = 0, last = 0;
    for (uint64_t b = 0; b < after->size; b++)
        if (after->data[b] != before->data[b]) {
            first = n++ ? first : b;
            last = b;
        }
    if (n)
        printf("memory: %llu bytes changed, from 0x%llx to 0x%llx\n",
               (unsigned long long)n,
               (unsigned long long)(after->base + first),
               (unsigned long long)(after->base + last));
    else
        printf("memory: no byte changed\n");
}

/* The interpreter's run from before/in against the simulated one; 0 when
 * memory and live-outs agree, else -1 with the first difference in d. */
static int compare(const cg_cli_saved *s, const sim_opts *o,
                   const cg_mem *before, const cg_mem *got,
                   const uint64_t *in, const uint64_t *gout)
{
    size_t nn = (size_t)cg_dfg_nnodes(s->g) + 1;
    cg_mem want = {malloc(before->size), before->base, before->size};
    uint64_t *wout = calloc(nn, sizeof *wout);
    int rc = want.data && wout ? 0 : -1;
    if (rc == 0) {
        memcpy(want.data, before->data, before->size);
        rc = cg_dfg_run(s->g, o->data.dot_iters, &want, in, wout, s->d);
    }
    for (uint64_t b = 0; rc == 0 && b < got->size; b++)
        if (got->data[b] != want.data[b]) {
            cg_diags_add(s->d, CG_SEV_ERROR, o->mapping, 0, "the simulated "
                         "mapping leaves 0x%02x at address 0x%llx where the "
                         "DFG interpreter leaves 0x%02x", got->data[b],
                         (unsigned long long)(got->base + b), want.data[b]);
            rc = -1;
        }
    for (int i = 0; rc == 0 && i < cg_dfg_nnodes(s->g); i++)
        if (cg_dfg_get_node(s->g, i)->op == CG_OP_OUTPUT &&
            gout[i] != wout[i]) {
            cg_diags_add(s->d, CG_SEV_ERROR, o->mapping, 0, "live-out '%s' "
                         "is %llu in the simulated mapping but %llu in the "
                         "DFG interpreter", cg_dfg_get_node(s->g, i)->name,
                         (unsigned long long)gout[i],
                         (unsigned long long)wout[i]);
            rc = -1;
        }
    free(want.data);
    free(wout);
    return rc;
}

/* The RTL's run against the simulated one; 0 when the same. */
static int cosim(const cg_cli_saved *s, const sim_opts *o,
                 const cg_mem *before, const cg_mem *after,
                 const uint64_t *in, const uint64_t *out)
{
    cg_cosim_params cp;
    cg_cosim_result res;
    char text[600], dflt[PATH_MAX];
    cg_cosim_params_init(&cp);
    cp.tool = o->rtl_tool;
    cp.cache_dir = o->rtl_cache ? o->rtl_cache
                                : cg_cli_rtl_cache(dflt, sizeof dflt);
    if (cg_cosim_run(s->nl, s->mrrg, s->g, s->m, o->data.dot_iters, before,
                     in, after, out, &cp, &res, s->d) < 0)
        return -1;
    cg_cosim_text(&res, text, sizeof text);
    printf("rtl (%s): %s\n", cg_cosim_tool_name(cp.tool), text);
    return res.verdict == CG_COSIM_SAME ? 0 : -1;
}

static int write_mem(void *arg, FILE *f)
{
    const cg_mem *m = arg;
    fwrite(m->data, 1, m->size, f);
    return cg_write_end(f, true);
}

/* After a run that failed on an access outside the image: which flag
 * gives the memory the DFG needs. */
static void memory_hint(const sim_opts *o, const cg_cli_saved *s,
                        const cg_mem *mem, int from)
{
    bool outside = false;
    for (int i = from; i < cg_diags_size(s->d); i++)
        outside |= strstr(cg_diags_get(s->d, i)->msg, "outside the memory") !=
                   NULL;
    if (!outside)
        return;
    uint64_t base, bytes = cg_dfg_memory(s->g, &base);
    if (bytes && base + bytes > mem->size)
        cg_diags_add(s->d, CG_SEV_NOTE, o->dot, 0, "the DFG's addresses lie "
                     "in [0x%llx, 0x%llx) (its memory=), beyond the %llu "
                     "bytes given: leave --mem-size out, or give --mem-size "
                     "%llu or more", (unsigned long long)base,
                     (unsigned long long)(base + bytes),
                     (unsigned long long)mem->size,
                     (unsigned long long)(base + bytes));
    else
        cg_diags_add(s->d, CG_SEV_NOTE, o->dot, 0, "the memory is %llu bytes "
                     "from address 0%s: give a larger --mem-size, or the "
                     "data with --mem-in FILE", (unsigned long long)mem->size,
                     bytes ? "" : ", and the DFG does not say where its "
                     "addresses lie (no memory= attribute)");
}

/* Simulate, print, compare, write; the exit status. */
static int sim_one(const sim_opts *o, const cg_cli_saved *s)
{
    size_t nn = (size_t)cg_dfg_nnodes(s->g) + 1;
    uint64_t *in = calloc(nn, 8), *out = calloc(nn, 8);
    cg_mem before = {0}, after = {0};
    int rc = in && out && data_of(o, s->g, &before, in, s->d) == 0 ? 0 : 1;
    after = (cg_mem){malloc(before.size + 1), before.base, before.size};
    if (rc == 0 && after.data) {
        memcpy(after.data, before.data, before.size);
        int from = cg_diags_size(s->d);
        rc = cg_sim_run(s->nl, s->mrrg, s->g, s->m, o->data.dot_iters,
                        &after, in, out, s->d) == 0 ? 0 : 1;
        if (rc)
            memory_hint(o, s, &after, from);
    }
    if (rc == 0) {
        printf("loop '%s': %lld iterations at II=%d on %llu bytes of "
               "memory\n", cg_dfg_name(s->g), (long long)o->data.dot_iters, s->m->ii,
               (unsigned long long)after.size);
        print_values(s->g, CG_OP_INPUT, "live-in", in);
        print_values(s->g, CG_OP_OUTPUT, "live-out", out);
        print_changes(&before, &after);
        if (o->compare)
            rc = compare(s, o, &before, &after, in, out) == 0 ? 0 : 1;
        if (o->compare && rc == 0)
            printf("the DFG interpreter: the same memory and live-outs\n");
        if (o->rtl && rc == 0)
            rc = cosim(s, o, &before, &after, in, out) == 0 ? 0 : 1;
    }
    if (rc == 0 && o->mem_out &&
        cg_cli_write_file(o->mem_out, write_mem, &after) != 0)
        rc = 1;
    free(in);
    free(out);
    free(before.data);
    free(after.data);
    return rc;
}

/* A --sym that names no live-in of g sets nothing: a warning, as a typo
 * went unnoticed. */
static void unused_syms(const sim_opts *o, const cg_dfg *g, cg_diags *d)
{
    for (int i = 0; i < o->syms.n; i++) {
        bool used = false;
        for (int v = 0; v < cg_dfg_nnodes(g) && !used; v++) {
            const cg_dfg_node *n = cg_dfg_get_node(g, v);
            used = n->op == CG_OP_INPUT && n->sym &&
                   !strcmp(n->sym, o->syms.v[i].name);
        }
        if (!used)
            cg_diags_add(d, CG_SEV_WARNING, o->dot, 0, "--sym %s: no live-in "
                         "of '%s' has sym=\"%s\", so it sets nothing; check "
                         "the name", o->syms.v[i].name, cg_dfg_name(g),
                         o->syms.v[i].name);
    }
}

int cg_cli_sim(int argc, char **argv)
{
    sim_opts o;
    int p = sim_parse(argc, argv, &o);
    if (p)
        return p == 1 ? 0 : 2;
    cg_cli_saved s;
    int rc = cg_cli_saved_init(&s, o.arch, o.templates, o.dot, o.mapping) ==
             0 ? 0 : 1;
    if (rc == 0)
        unused_syms(&o, s.g, s.d);
    /* the checker first: a mapping it refuses is still simulated as
       written (to see what it does), but a run that matches the
       interpreter then proves nothing, and the exit status says so */
    bool refused = rc == 0 && cg_cli_saved_check(&s, o.mapping) != 0;
    if (refused)
        cg_diags_add(s.d, CG_SEV_NOTE, o.mapping, 0, "the checker refuses "
                     "this mapping (the errors above): it is simulated as "
                     "written, and the run proves nothing");
    if (rc == 0)
        rc = sim_one(&o, &s);
    if (refused)
        rc = 1;
    cg_cli_saved_free(&s);
    return rc;
}
