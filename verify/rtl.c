/* rtl.c: RTL co-simulation (verify/rtl.h).
 *
 * One run: lay out the array (rtl/), write its bitstream, find or compile
 * the model of the array and its testbench in the cache, write the run's
 * files into a fresh folder, run the model there, read back the memory
 * and the live-outs it wrote and compare.  The simulators are separate
 * programs, run with fork and exec; their output goes to a log in the run
 * folder, whose last line a failure quotes. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/util.h"
#include "rtl.h"

const char *cg_cosim_tool_name(cg_cosim_tool t)
{
    return t == CG_COSIM_IVERILOG ? "iverilog" : "verilator";
}

void cg_cosim_params_init(cg_cosim_params *p)
{
    cg_rtl_params_init(&p->rtl);
    p->tool = CG_COSIM_VERILATOR;
    p->cache_dir = NULL;
    p->flip_bit = -1;
}

void cg_cosim_text(const cg_cosim_result *r, char *buf, size_t len)
{
    if (r->verdict == CG_COSIM_SAME)
        snprintf(buf, len, "yes");
    else
        snprintf(buf, len, "%s: %s", r->verdict == CG_COSIM_DIFF ? "no"
                                                                  : "n/a",
                 r->why);
}

static void na(cg_cosim_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void na(cg_cosim_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
    r->verdict = CG_COSIM_NA;
}

/* ---- files and programs ----------------------------------------------- */

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s", dir, name);
    return s;
}

typedef int (*writer)(void *arg, FILE *f);

/* dir/name through fn; 0 or -1. */
static int put(const char *dir, const char *name, writer fn, void *arg)
{
    char *path = join(dir, name);
    FILE *f = path ? fopen(path, "w") : NULL;
    int rc = f ? fn(arg, f) : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    free(path);
    return rc;
}

static int run_prog(const char *dir, char *const *argv)
{
    return cg_rtl_exec(dir, argv);
}

static void last_line(const char *dir, char *buf, size_t len)
{
    cg_rtl_log_tail(dir, buf, len);
}

/* ---- the model cache --------------------------------------------------- */

typedef struct text {
    char *s;
    size_t n;
} text;

/* The array's and the testbench's Verilog in memory (hashed, then
 * written). */
static int design_text(const cg_rtl *r, text *t)
{
    FILE *f = open_memstream(&t->s, &t->n);
    if (!f)
        return -1;
    int rc = cg_rtl_write_verilog(r, f) | cg_rtl_write_testbench(r, f);
    return fclose(f) || rc ? -1 : 0;
}

static uint64_t fnv1a(const char *s, size_t n, const char *salt)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    for (; *salt; salt++)
        h = (h ^ (unsigned char)*salt) * 1099511628211ULL;
    return h;
}

static int w_text(void *arg, FILE *f)
{
    const text *t = arg;
    fwrite(t->s, 1, t->n, f);
    return cg_write_end(f, true);
}

/* Compile the design in dir; 0, or -1 with why in res. */
static int compile(const char *dir, cg_cosim_tool tool, cg_cosim_result *res)
{
    char *vl[] = {"verilator", "--binary", "--timing", "-Wno-fatal",
                  "-Wno-lint", "-Wno-style", "--top-module", "cg_tb",
                  "-Mdir", "obj", "-o", "../model", "-MAKEFLAGS",
                  "OPT_FAST=-O1", "design.v", NULL};
    char *iv[] = {"iverilog", "-g2005", "-o", "model", "design.v", NULL};
    int st = run_prog(dir, tool == CG_COSIM_IVERILOG ? iv : vl);
    if (st == 0)
        return 0;
    char line[256];
    last_line(dir, line, sizeof line);
    if (st == 127)
        na(res, "%s is not installed (scripts/setup.sh installs it)",
           cg_cosim_tool_name(tool));
    else
        na(res, "%s could not compile the array: %s",
           cg_cosim_tool_name(tool), line);
    return -1;
}

/* The compiled model of r's design in the cache: its path (malloc'd) in
 * *model, compiling it when missing.  0, or -1 with why in res. */
static int model_of(const cg_rtl *r, const cg_cosim_params *p,
                    cg_cosim_result *res, char **model)
{
    text t = {0};
    char name[64], *dir = NULL, *tmp = NULL;
    int rc = -1;
    if (design_text(r, &t) < 0) {
        na(res, "out of memory writing the Verilog");
        goto out;
    }
    snprintf(name, sizeof name, "%016" PRIx64 "-%s",
             fnv1a(t.s, t.n, ""), cg_cosim_tool_name(p->tool));
    dir = join(p->cache_dir, name);
    *model = dir ? join(dir, "model") : NULL;
    if (!*model)
        goto out;
    if (access(*model, X_OK) == 0) {
        rc = 0;
        goto out;
    }
    tmp = join(p->cache_dir, "build.XXXXXX");
    if (!tmp || !mkdtemp(tmp)) {
        na(res, "cannot make a folder in the cache %s (%s)", p->cache_dir,
           strerror(errno));
        goto out;
    }
    if (put(tmp, "design.v", w_text, &t) < 0)
        na(res, "cannot write the Verilog into %s", tmp);
    else if (compile(tmp, p->tool, res) == 0) {
        /* another process may have won the race: its model is as good */
        if (rename(tmp, dir) == 0 || access(*model, X_OK) == 0) {
            res->compiled = true;
            rc = 0;
        } else {
            na(res, "cannot move the model into %s (%s)", dir,
               strerror(errno));
        }
    }
    if (rc < 0 || access(tmp, F_OK) == 0)
        cg_rtl_remove_tree(tmp);
out:
    if (rc == 0) {
        /* the model runs in a run folder: a relative cache would miss */
        char *abs = realpath(*model, NULL);
        if (!abs) {
            na(res, "cannot find the model %s (%s)", *model,
               strerror(errno));
            rc = -1;
        } else {
            free(*model);
            *model = abs;
        }
    }
    if (rc < 0) {
        free(*model);
        *model = NULL;
    }
    free(t.s);
    free(dir);
    free(tmp);
    return rc;
}

/* ---- one run ------------------------------------------------------------ */

typedef struct runio {
    const cg_rtl *r;
    const cg_rtl_bits *bits;
    const cg_rtl_run *run;
    const cg_mem *mem;
} runio;

static int w_bits(void *a, FILE *f)
{
    return cg_rtl_write_bits(((runio *)a)->bits, f);
}

static int w_mem(void *a, FILE *f)
{
    return cg_rtl_write_mem(((runio *)a)->mem, f);
}

static int write_tables(const char *dir, runio *io)
{
    char *p[3] = {join(dir, "order.hex"), join(dir, "livein.hex"),
                  join(dir, "outsel.hex")};
    FILE *f[3] = {NULL, NULL, NULL};
    int rc = -1;
    for (int i = 0; i < 3; i++)
        f[i] = p[i] ? fopen(p[i], "w") : NULL;
    if (f[0] && f[1] && f[2])
        rc = cg_rtl_write_run_tables(io->r, io->run, f[0], f[1], f[2]);
    for (int i = 0; i < 3; i++) {
        if (f[i] && fclose(f[i]) != 0)
            rc = -1;
        free(p[i]);
    }
    return rc;
}

/* Bytes of a $writememh file (comments and address lines skipped) into
 * out (n of them); the number read. */
static uint64_t read_hex(const char *path, uint8_t *out, uint64_t n)
{
    FILE *f = fopen(path, "r");
    char line[128];
    uint64_t k = 0;
    while (f && k < n && fgets(line, sizeof line, f))
        if (line[0] != '/' && line[0] != '@' && line[0] != '\n')
            out[k++] = (uint8_t)strtoul(line, NULL, 16);
    if (f)
        fclose(f);
    return k;
}

/* Run the model in dir with the run's plusargs; 0 or -1 with why. */
static int simulate(const char *dir, const char *model,
                    const cg_rtl_run *run, cg_cosim_tool tool,
                    cg_cosim_result *res)
{
    char args[512], *argv[16];
    int n = 0;
    if (cg_rtl_plusargs(run, args, sizeof args) < 0)
        return -1;
    if (tool == CG_COSIM_IVERILOG) {
        argv[n++] = "vvp";
        argv[n++] = "-n";
    }
    argv[n++] = (char *)model;
    for (char *s = strtok(args, " "); s && n < 15; s = strtok(NULL, " "))
        argv[n++] = s;
    argv[n] = NULL;
    int st = run_prog(dir, argv);
    char line[256];
    last_line(dir, line, sizeof line);
    if (st != 0 || !strstr(line, "Verilog $finish")) {
        /* Verilator ends with "- tb.v:N: Verilog $finish", vvp does not */
        char *log = join(dir, "log"), *t = log ? cg_slurp(log, NULL) : NULL;
        bool done = t && strstr(t, "cg_tb: done");
        free(t);
        free(log);
        if (st != 0 || !done) {
            na(res, "the %s model did not finish (status %d): %s",
               cg_cosim_tool_name(tool), st, line);
            return -1;
        }
    }
    return 0;
}

/* The run's memory and live-outs against the wanted ones: the verdict. */
static void compare(const char *dir, const cg_rtl_run *run,
                    const cg_mem *want, const uint64_t *want_out,
                    cg_cosim_result *res)
{
    char *mpath = join(dir, "mem_out.hex"), *opath = join(dir, "outs.txt");
    uint8_t *got = malloc(want->size + 1);
    int nodes[CG_RTL_TB_OUTS_MAX];
    int nout = cg_rtl_run_outputs(run, nodes);
    uint64_t outs[CG_RTL_TB_OUTS_MAX] = {0};
    res->verdict = CG_COSIM_SAME;
    if (!got || !mpath || !opath ||
        read_hex(mpath, got, want->size) != want->size) {
        na(res, "the model wrote no whole memory image");
        goto out;
    }
    FILE *f = fopen(opath, "r");
    for (int k = 0; f && k < nout; k++)
        if (fscanf(f, "%" SCNx64, &outs[k]) != 1)
            break;
    if (f)
        fclose(f);
    for (uint64_t b = 0; b < want->size; b++)
        if (got[b] != want->data[b]) {
            snprintf(res->why, sizeof res->why, "memory at 0x%" PRIx64
                     " is 0x%02x after the RTL run, 0x%02x after the cycle "
                     "simulator", want->base + b, got[b], want->data[b]);
            res->verdict = CG_COSIM_DIFF;
            goto out;
        }
    for (int k = 0; k < nout; k++) {
        const cg_dfg_node *n = cg_dfg_get_node(run->g, nodes[k]);
        uint64_t w = cg_trunc(want_out[nodes[k]], n->width);
        if (outs[k] != w) {
            snprintf(res->why, sizeof res->why, "live-out '%s' is %" PRIu64
                     " after the RTL run, %" PRIu64 " after the cycle "
                     "simulator", n->name, outs[k], w);
            res->verdict = CG_COSIM_DIFF;
            goto out;
        }
    }
out:
    free(got);
    free(mpath);
    free(opath);
}

/* What one run compares against. */
typedef struct want {
    const cg_mem *before, *mem;
    const uint64_t *out;
} want;

/* Write the run's files into a fresh folder, run, compare. */
static void run_once(runio *io, const char *model, const cg_cosim_params *p,
                     const want *w, cg_cosim_result *res)
{
    char *dir = join(p->cache_dir, "run.XXXXXX");
    if (!dir || !mkdtemp(dir)) {
        na(res, "cannot make a run folder in %s", p->cache_dir);
        free(dir);
        return;
    }
    io->mem = w->before;
    if (put(dir, "bitstream.txt", w_bits, io) < 0 ||
        put(dir, "mem.hex", w_mem, io) < 0 || write_tables(dir, io) < 0)
        na(res, "cannot write the run's files into %s", dir);
    else if (simulate(dir, model, io->run, p->tool, res) == 0)
        compare(dir, io->run, w->mem, w->out, res);
    cg_rtl_remove_tree(dir);
    free(dir);
}

/* The bitstream, or n/a with the writer's first error. */
static int bits_of(const cg_rtl *r, const cg_rtl_run *run,
                   const cg_cosim_params *p, cg_rtl_bits *bits,
                   cg_cosim_result *res)
{
    cg_diags *d = cg_diags_create();
    int rc = d ? cg_rtl_bitstream(r, run->mrrg, run->g, run->m, run->inputs,
                                  bits, d) : -1;
    if (rc < 0)
        na(res, "%s", d && cg_diags_size(d) ? cg_diags_get(d, 0)->msg
                                            : "out of memory");
    else if (p->flip_bit >= 0 && p->flip_bit < bits->n)
        bits->bit[p->flip_bit] ^= 1;
    cg_diags_destroy(d);
    return rc;
}

/* The array's layout, or n/a with its first error (a combinational
 * loop, say). */
static cg_rtl *design_of(const cg_netlist *nl, const cg_cosim_params *p,
                         cg_cosim_result *res)
{
    cg_diags *d = cg_diags_create();
    cg_rtl *r = d ? cg_rtl_create(nl, &p->rtl, d) : NULL;
    if (!r)
        na(res, "%s", d && cg_diags_size(d) ? cg_diags_get(d, 0)->msg
                                            : "out of memory");
    cg_diags_destroy(d);
    return r;
}

static int check_args(const cg_mem *before, const cg_mem *want_mem,
                      const cg_cosim_params *p, cg_diags *d)
{
    if (!p || !p->cache_dir || !before || !want_mem ||
        before->size != want_mem->size) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "co-simulation: give a cache "
                     "folder and two memory images of the same size");
        return -1;
    }
    if (mkdir(p->cache_dir, 0777) != 0 && errno != EEXIST) {
        cg_diags_add(d, CG_SEV_ERROR, p->cache_dir, 0, "cannot make the RTL "
                     "model cache here (%s)", strerror(errno));
        return -1;
    }
    return 0;
}

int cg_cosim_prepare(const cg_netlist *nl, const cg_cosim_params *p,
                     cg_cosim_result *res)
{
    memset(res, 0, sizeof *res);
    if (!p->cache_dir || (mkdir(p->cache_dir, 0777) != 0 && errno != EEXIST)) {
        na(res, "no folder for the compiled models");
        return -1;
    }
    char *model = NULL;
    cg_rtl *r = design_of(nl, p, res);
    int rc = r ? model_of(r, p, res, &model) : -1;
    free(model);
    cg_rtl_destroy(r);
    return rc;
}

int cg_cosim_run(const cg_netlist *nl, const cg_mrrg *mrrg, const cg_dfg *g,
                 const cg_mapping *m, int64_t iters, const cg_mem *before,
                 const uint64_t *in, const cg_mem *want_mem,
                 const uint64_t *want_out, const cg_cosim_params *p,
                 cg_cosim_result *res, cg_diags *d)
{
    memset(res, 0, sizeof *res);
    if (check_args(before, want_mem, p, d) < 0)
        return -1;
    if (before->size > CG_RTL_TB_MEM_MAX) {
        na(res, "the memory image holds %" PRIu64 " bytes, more than the "
           "testbench's %d", before->size, CG_RTL_TB_MEM_MAX);
        return 0;
    }
    cg_rtl_run run = {mrrg, g, m, iters, before->base, before->size, in};
    cg_rtl_bits bits = {0};
    char *model = NULL;
    cg_rtl *r = design_of(nl, p, res);
    if (r && bits_of(r, &run, p, &bits, res) == 0 &&
        model_of(r, p, res, &model) == 0) {
        runio io = {r, &bits, &run, before};
        want w = {before, want_mem, want_out};
        run_once(&io, model, p, &w, res);
    }
    free(model);
    cg_rtl_bits_free(&bits);
    cg_rtl_destroy(r);
    return 0;
}
