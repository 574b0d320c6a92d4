/* rtl_cmd.c: `cgramap rtl`: the Verilog of an architecture and its
 * configuration bit map (rtl/rtl.h) into a folder; with a saved mapping
 * of a loop, also its bitstream, its disassembly, the memory image and a
 * testbench that runs it (docs/rtl.md). */
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/saved.h"

#include "common/util.h"
#include "flow/flow.h"
#include "mapper/mapping_io.h"
#include "rtl/rtl.h"
#include "verify/verify.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct rtl_opts {
    const char *arch, *templates, *dir, *dot, *mapping;
    cg_rtl_params rp;
    cg_flow_params data; /* seed, dot_iters, dot_mem: `cgramap sim`'s data */
    bool mem_size;       /* --mem-size given */
} rtl_opts;

static void rtl_help(void)
{
    printf("Usage: cgramap rtl [--arch FILE.xml [--templates T.xml]] -o DIR"
           " [--contexts N]\n"
           "                  [--iters N] [--seed N] [--mem-size BYTES]"
           " [LOOP.dot MAPPING.txt]\n"
           "Write the array's Verilog (DIR/cg_array.v), its"
           " configuration bit map\n(DIR/bitmap.json) and a testbench"
           " (DIR/tb.v).  With a saved mapping of LOOP.dot\nalso its"
           " bitstream (DIR/bitstream.txt), disassembly (DIR/disasm.txt)"
           " and\nmemory image (DIR/mem.hex) on `cgramap sim`'s data"
           " (docs/rtl.md).\n"
           "  -o, --out DIR         the folder (made when missing)\n"
           "      --contexts N      configuration contexts, the largest II"
           " (default %d)\n"
           "      --iters N, --seed N, --mem-size BYTES  as cgramap sim\n",
           16);
}

enum { OPT_CONTEXTS = 500, OPT_ITERS, OPT_SEED, OPT_MEM_SIZE };

static int rtl_number(rtl_opts *o, int c, const char *v)
{
    static const char *const name[] = {"--contexts", "--iters", "--seed",
                                       "--mem-size"};
    static const double hi[] = {CG_RTL_MAX_CONTEXTS, 1e7, 9007199254740991.0,
                                1 << 30};
    double x;
    if (cg_cli_whole("cgramap rtl", name[c - OPT_CONTEXTS], v, 1,
                     hi[c - OPT_CONTEXTS], &x))
        return 2;
    if (c == OPT_CONTEXTS)
        o->rp.contexts = (int)x;
    else if (c == OPT_ITERS)
        o->data.dot_iters = (int64_t)x;
    else if (c == OPT_SEED)
        o->data.seed = (uint64_t)x;
    else
        o->data.dot_mem = (uint64_t)x;
    o->mem_size |= c == OPT_MEM_SIZE;
    return 0;
}

static int rtl_opt(rtl_opts *o, int c, char **argv)
{
    switch (c) {
    case 'a': o->arch = optarg; return 0;
    case 't': o->templates = optarg; return 0;
    case 'o':
        o->dir = optarg;
        return cg_cli_name("cgramap rtl", "-o", optarg) ? 2 : 0;
    case OPT_CONTEXTS: case OPT_ITERS: case OPT_SEED: case OPT_MEM_SIZE:
        return rtl_number(o, c, optarg);
    case 'h': rtl_help(); return 1;
    case ':':
        fprintf(stderr, "cgramap rtl: option '%s' needs a value\n",
                argv[optind - 1]);
        return 2;
    default:
        fprintf(stderr, "cgramap rtl: unknown option '%s' (see cgramap rtl"
                " --help)\n", cg_cli_bad_opt(argv, (char[3]){0}));
        return 2;
    }
}

static int rtl_parse(int argc, char **argv, rtl_opts *o)
{
    static const struct option opts[] = {
        {"arch", required_argument, NULL, 'a'},
        {"templates", required_argument, NULL, 't'},
        {"out", required_argument, NULL, 'o'},
        {"contexts", required_argument, NULL, OPT_CONTEXTS},
        {"iters", required_argument, NULL, OPT_ITERS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"mem-size", required_argument, NULL, OPT_MEM_SIZE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    cg_rtl_params_init(&o->rp);
    cg_flow_params_init(&o->data);
    optind = 1;
    opterr = 0;
    int c, rc;
    bool abbrev = false;
    while ((c = cg_cli_getopt(argc, argv, ":ho:", opts, false,
                              "cgramap rtl", &abbrev)) != -1)
        if ((rc = rtl_opt(o, c, argv)) != 0)
            return rc;
    if (abbrev)
        return 2;
    if (!o->dir) {
        fprintf(stderr, "cgramap rtl: give the output folder with -o DIR "
                "(see cgramap rtl --help)\n");
        return 2;
    }
    if (optind != argc && optind != argc - 2) {
        fprintf(stderr, "cgramap rtl: give LOOP.dot and MAPPING.txt, or "
                "neither (see cgramap rtl --help)\n");
        return 2;
    }
    if (optind == argc - 2) {
        o->dot = argv[optind];
        o->mapping = argv[optind + 1];
    }
    return 0;
}

/* ---- files ----------------------------------------------------------- */

typedef struct rtl_file {
    const cg_rtl *r;
    const cg_rtl_bits *bits;
    const cg_rtl_run *run;
    const cg_mem *mem;
    char args[512]; /* the run's plusargs */
} rtl_file;

static int w_verilog(void *a, FILE *f)
{
    return cg_rtl_write_verilog(((rtl_file *)a)->r, f);
}
static int w_bitmap(void *a, FILE *f)
{
    return cg_rtl_write_bitmap(((rtl_file *)a)->r, f);
}
static int w_bits(void *a, FILE *f)
{
    return cg_rtl_write_bits(((rtl_file *)a)->bits, f);
}
static int w_disasm(void *a, FILE *f)
{
    return cg_rtl_disassemble(((rtl_file *)a)->r, ((rtl_file *)a)->bits, f);
}
static int w_tb(void *a, FILE *f)
{
    return cg_rtl_write_testbench(((rtl_file *)a)->r, f);
}
static int w_args(void *a, FILE *f)
{
    fprintf(f, "%s\n", ((rtl_file *)a)->args);
    return cg_write_end(f, true);
}
/* The three tables of the run, each file through its own writer. */
static int w_table(rtl_file *a, FILE *f, int which)
{
    FILE *sink = fopen("/dev/null", "w");
    if (!sink)
        return -1;
    FILE *o[3] = {sink, sink, sink};
    o[which] = f;
    int rc = cg_rtl_write_run_tables(a->r, a->run, o[0], o[1], o[2]);
    fclose(sink);
    return rc;
}
static int w_order(void *a, FILE *f) { return w_table(a, f, 0); }
static int w_livein(void *a, FILE *f) { return w_table(a, f, 1); }
static int w_outsel(void *a, FILE *f) { return w_table(a, f, 2); }
static int w_mem(void *a, FILE *f)
{
    return cg_rtl_write_mem(((rtl_file *)a)->mem, f);
}

/* DIR/name through fn; 0 or -1 (the reason printed). */
static int put(const char *dir, const char *name, cg_cli_writer fn,
               rtl_file *a)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (!path) {
        fprintf(stderr, "cgramap rtl: out of memory\n");
        return -1;
    }
    snprintf(path, n, "%s/%s", dir, name);
    int rc = cg_cli_write_file(path, fn, a);
    free(path);
    return rc;
}

/* ---- with a mapping ---------------------------------------------------- */

/* Bitstream, disassembly, memory image and testbench of the saved mapping
 * on `cgramap sim`'s data; the exit status. */
static int with_mapping(const rtl_opts *o, const cg_rtl *r, cg_cli_saved *s)
{
    size_t nn = (size_t)cg_dfg_nnodes(s->g) + 1;
    uint64_t *in = calloc(nn, sizeof *in);
    /* as `cgramap sim`: without --mem-size, the memory the DFG states */
    uint64_t size = o->mem_size ? o->data.dot_mem
                                : cg_flow_dot_mem(&o->data, s->g);
    cg_mem mem = {malloc(size), 0, size};
    cg_rtl_bits bits = {0};
    int rc = 1;
    if (!in || !mem.data) {
        fprintf(stderr, "cgramap rtl: out of memory\n");
        goto out;
    }
    cg_flow_dot_data(&o->data, s->g, &mem, in);
    uint64_t base, bytes = cg_dfg_memory(s->g, &base);
    if (bytes && base + bytes > size) /* as cgramap sim's note says */
        cg_diags_add(s->d, CG_SEV_WARNING, o->dot, 0, "the DFG's addresses "
                     "lie in [0x%llx, 0x%llx) (its memory=), beyond the %llu "
                     "bytes of --mem-size: the testbench will access outside "
                     "its memory; leave --mem-size out, or give --mem-size "
                     "%llu or more", (unsigned long long)base,
                     (unsigned long long)(base + bytes),
                     (unsigned long long)size,
                     (unsigned long long)(base + bytes));
    if (cg_rtl_bitstream(r, s->mrrg, s->g, s->m, in, &bits, s->d) < 0)
        goto out;
    cg_rtl_run run = {s->mrrg, s->g, s->m, o->data.dot_iters, mem.base,
                      mem.size, in};
    rtl_file a = {r, &bits, &run, &mem, ""};
    cg_rtl_plusargs(&run, a.args, sizeof a.args);
    if (put(o->dir, "bitstream.txt", w_bits, &a) == 0 &&
        put(o->dir, "disasm.txt", w_disasm, &a) == 0 &&
        put(o->dir, "mem.hex", w_mem, &a) == 0 &&
        put(o->dir, "order.hex", w_order, &a) == 0 &&
        put(o->dir, "livein.hex", w_livein, &a) == 0 &&
        put(o->dir, "outsel.hex", w_outsel, &a) == 0 &&
        put(o->dir, "plusargs.txt", w_args, &a) == 0)
        rc = 0;
out:
    cg_rtl_bits_free(&bits);
    free(in);
    free(mem.data);
    return rc;
}

const char *cg_cli_rtl_cache(char *buf, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg) {
        snprintf(buf, len, "%s/cgramap-rtl", xdg);
        return buf;
    }
    snprintf(buf, len, "%s/.cache", home && *home ? home : "/tmp");
    mkdir(buf, 0777); /* the cache below it reports what fails */
    snprintf(buf, len, "%s/.cache/cgramap-rtl", home && *home ? home
                                                               : "/tmp");
    return buf;
}

static int make_dir(const char *dir)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST)
        return 0;
    fprintf(stderr, "%s: error: cannot make this folder (%s)\n", dir,
            cg_cli_strerror(errno));
    return -1;
}

static int rtl_run(const rtl_opts *o, cg_cli_saved *s)
{
    cg_rtl *r = cg_rtl_create(s->nl, &o->rp, s->d);
    if (!r || make_dir(o->dir) < 0) {
        cg_rtl_destroy(r);
        return 1;
    }
    rtl_file a = {r, NULL, NULL, NULL, ""};
    int rc = put(o->dir, "cg_array.v", w_verilog, &a) == 0 &&
             put(o->dir, "bitmap.json", w_bitmap, &a) == 0 &&
             put(o->dir, "tb.v", w_tb, &a) == 0 ? 0 : 1;
    if (rc == 0 && o->mapping)
        rc = with_mapping(o, r, s);
    if (rc == 0)
        printf("%s: %d modules, %d configuration bits (%d contexts)\n",
               o->dir, cg_rtl_nmodules(r), cg_rtl_chain_length(r),
               o->rp.contexts);
    cg_rtl_destroy(r);
    return rc;
}

int cg_cli_rtl(int argc, char **argv)
{
    rtl_opts o;
    int p = rtl_parse(argc, argv, &o);
    if (p)
        return p == 1 ? 0 : 2;
    cg_cli_saved s;
    int rc;
    if (o.mapping) {
        rc = cg_cli_saved_init(&s, o.arch, o.templates, o.dot, o.mapping);
    } else {
        memset(&s, 0, sizeof s);
        s.d = cg_diags_create();
        s.nl = s.d ? cg_cli_load_netlist(o.arch, o.templates, s.d) : NULL;
        rc = s.nl ? 0 : -1;
    }
    rc = rc == 0 ? rtl_run(&o, &s) : 1;
    cg_cli_saved_free(&s);
    return rc;
}
