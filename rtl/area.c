/* area.c: the area of an array from yosys's generic synthesis.
 *
 * Every distinct module is synthesized alone (`synth -top M; stat`): the
 * array's cells are each module's times its instances (the top adds only
 * wires and the control block's few flip-flops, left out).  The result is
 * counted in generic cells ($_AND_, $_DFF_P_, ...), flip-flops and
 * NAND2-equivalents from the weight table below: a technology-free
 * estimate for comparing arrays, not a process library's area
 * (docs/rtl.md, "Area").  Statistics are cached per module under the hash
 * of its text, so a sweep synthesizes each module once. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rtl_internal.h"

/* NAND2-equivalents of yosys's generic cells: the usual gate-equivalent
 * ratios of a standard-cell library (an inverter two thirds of a NAND2, a
 * 2:1 mux or an XOR about 2.33, a D flip-flop about 4.67, 5.67 with an
 * enable or a reset).  Types not listed count 1. */
static const struct {
    const char *prefix;
    double w;
} weights[] = {
    {"$_NOT_", 0.67},    {"$_BUF_", 0.67},    {"$_NAND_", 1.0},
    {"$_NOR_", 1.0},     {"$_AND_", 1.33},    {"$_OR_", 1.33},
    {"$_ANDNOT_", 1.33}, {"$_ORNOT_", 1.33},  {"$_XOR_", 2.33},
    {"$_XNOR_", 2.33},   {"$_MUX_", 2.33},    {"$_NMUX_", 2.0},
    {"$_AOI3_", 1.33},   {"$_OAI3_", 1.33},   {"$_AOI4_", 1.67},
    {"$_OAI4_", 1.67},   {"$_DFF_P_", 4.67},  {"$_DFF_N_", 4.67},
    {"$_DFF", 5.67},     {"$_SDFF", 5.67},    {"$_DFFE", 5.67},
    {"$_SDFFE", 5.67},   {"$_SDFFCE", 5.67},  {"$_ALDFF", 5.67},
};

double cg_rtl_nand2_weight(const char *cell)
{
    for (size_t i = 0; i < sizeof weights / sizeof weights[0]; i++)
        if (!strncmp(cell, weights[i].prefix, strlen(weights[i].prefix)))
            return weights[i].w;
    return 1.0;
}

static bool is_ff(const char *cell)
{
    return strstr(cell, "DFF") != NULL || strstr(cell, "DLATCH") != NULL;
}

/* The cell lines of yosys's stat ("     $_AND_      12") into m. */
static int parse_stat(const char *text, cg_rtl_module_area *m)
{
    const char *s = strstr(text, "Number of cells:");
    if (!s)
        return -1;
    m->cells = atoi(s + strlen("Number of cells:"));
    for (s = strchr(s, '\n'); s; s = strchr(s + 1, '\n')) {
        char type[64];
        int n;
        if (sscanf(s + 1, " %63s %d", type, &n) != 2 || type[0] != '$')
            continue;
        if (m->ntypes < 32) {
            snprintf(m->types[m->ntypes].type, sizeof m->types[0].type, "%s",
                     type);
            m->types[m->ntypes++].count = n;
        }
        m->ffs += is_ff(type) ? n : 0;
        m->nand2 += n * cg_rtl_nand2_weight(type);
    }
    return 0;
}

static uint64_t fnv1a(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static char *module_text(const cg_rtl *r, int i, size_t *n)
{
    char *s = NULL;
    FILE *f = open_memstream(&s, n);
    if (!f)
        return NULL;
    int rc = cg_rtl_write_module(r, i, f);
    if (fclose(f) || rc) {
        free(s);
        return NULL;
    }
    return s;
}

/* Synthesize module i in a fresh folder under cache, leaving its stat in
 * statpath; 0, or -1 with an error. */
static int synthesize(const cg_rtl *r, int i, const char *text, size_t n,
                      const char *cache, const char *statpath, cg_diags *d)
{
    char dir[1100], path[1200], script[256], line[256];
    snprintf(dir, sizeof dir, "%s/synth.XXXXXX", cache);
    if (!mkdtemp(dir)) {
        cg_diags_add(d, CG_SEV_ERROR, cache, 0, "cannot make a folder for "
                     "yosys here (%s)", strerror(errno));
        return -1;
    }
    snprintf(path, sizeof path, "%s/m.v", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fwrite(text, 1, n, f);
        fclose(f);
    }
    snprintf(script, sizeof script, "read_verilog m.v; synth -top %s; "
             "tee -q -o stat.txt stat", cg_rtl_module_name(r, i));
    char *argv[] = {"yosys", "-q", "-p", script, NULL};
    int st = cg_rtl_exec(dir, argv);
    snprintf(path, sizeof path, "%s/stat.txt", dir);
    if (st == 0 && rename(path, statpath) == 0) {
        char *rm[] = {"rm", "-rf", dir, NULL};
        cg_rtl_exec("/", rm);
        return 0;
    }
    cg_rtl_log_tail(dir, line, sizeof line);
    cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "yosys could not synthesize "
                 "module %s (%s): %s", cg_rtl_module_name(r, i),
                 st == 127 ? "yosys is not installed: scripts/setup.sh "
                             "installs it" : "status", line);
    char *rm[] = {"rm", "-rf", dir, NULL};
    cg_rtl_exec("/", rm);
    return -1;
}

static int module_area(const cg_rtl *r, int i, const char *cache,
                       cg_rtl_module_area *m, int *cached, cg_diags *d)
{
    size_t n = 0;
    char *text = module_text(r, i, &n), statpath[1100];
    if (!text) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "out of memory");
        return -1;
    }
    snprintf(statpath, sizeof statpath, "%s/%016" PRIx64 ".stat", cache,
             fnv1a(text, n));
    int rc = 0;
    if (access(statpath, R_OK) == 0)
        (*cached)++;
    else
        rc = synthesize(r, i, text, n, cache, statpath, d);
    free(text);
    char *stat = rc == 0 ? cg_slurp(statpath, NULL) : NULL;
    if (rc == 0 && (!stat || parse_stat(stat, m) < 0)) {
        cg_diags_add(d, CG_SEV_ERROR, statpath, 0, "no cell count in yosys's "
                     "statistics of module %s", cg_rtl_module_name(r, i));
        rc = -1;
    }
    free(stat);
    return rc;
}

int cg_rtl_area_of(const cg_rtl *r, const char *cache_dir, cg_rtl_area *out,
                   cg_diags *d)
{
    memset(out, 0, sizeof *out);
    if (mkdir(cache_dir, 0777) != 0 && errno != EEXIST) {
        cg_diags_add(d, CG_SEV_ERROR, cache_dir, 0, "cannot make the area "
                     "cache here (%s)", strerror(errno));
        return -1;
    }
    out->nmodules = r->nmods;
    out->mod = calloc((size_t)r->nmods + 1, sizeof *out->mod);
    if (!out->mod)
        return -1;
    for (int i = 0; i < cg_netlist_nprims(r->nl); i++)
        out->mod[r->inst[i].module].instances++;
    for (int i = 0; i < r->nmods; i++) {
        cg_rtl_module_area *m = &out->mod[i];
        if (module_area(r, i, cache_dir, m, &out->cached, d) < 0) {
            cg_rtl_area_free(out);
            return -1;
        }
        out->cells += (long)m->cells * m->instances;
        out->ffs += (long)m->ffs * m->instances;
        out->nand2 += m->nand2 * m->instances;
    }
    return 0;
}

void cg_rtl_area_free(cg_rtl_area *a)
{
    free(a->mod);
    a->mod = NULL;
    a->nmodules = 0;
}

void cg_rtl_bits_per_block(const cg_rtl *r, int *least, int *most,
                           double *mean)
{
    int rows = cg_netlist_rows(r->nl), cols = cg_netlist_cols(r->nl);
    int *sum = calloc((size_t)rows * cols + 1, sizeof *sum);
    bool *pe = calloc((size_t)rows * cols + 1, sizeof *pe);
    *least = *most = 0;
    *mean = 0;
    if (!sum || !pe) {
        free(sum);
        free(pe);
        return;
    }
    for (int i = 0; i < cg_netlist_nprims(r->nl); i++) {
        const cg_nl_prim *pr = cg_netlist_prim(r->nl, i);
        if (pr->row < 0 || pr->row >= rows || pr->col < 0 || pr->col >= cols)
            continue;
        sum[pr->row * cols + pr->col] += r->inst[i].per_context;
        pe[pr->row * cols + pr->col] |= pr->p.kind == CG_PRIM_FUNC;
    }
    int n = 0;
    for (int b = 0; b < rows * cols; b++) {
        if (!pe[b])
            continue;
        *least = n == 0 || sum[b] < *least ? sum[b] : *least;
        *most = sum[b] > *most ? sum[b] : *most;
        *mean += sum[b];
        n++;
    }
    *mean = n ? *mean / n : 0;
    free(sum);
    free(pe);
}
