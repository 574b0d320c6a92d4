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
#include <time.h>
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

/* One distinct module on its way through yosys. */
typedef struct synth_job {
    char *text;           /* its Verilog */
    size_t n;
    char stat[1100];      /* the cached statistics' path */
    char dir[1100];       /* yosys's folder while it runs */
    int pid;              /* yosys, or -1 */
    int status;           /* yosys's exit status; 0 once the stat exists */
    char why[2600];       /* what failed, when status != 0 */
} synth_job;

/* Start yosys on module i of r in a fresh folder under cache; 0, or -1
 * with j->why set. */
static int synth_start(const cg_rtl *r, int i, const char *cache,
                       synth_job *j)
{
    char path[1200], script[256];
    snprintf(j->dir, sizeof j->dir, "%s/synth.XXXXXX", cache);
    if (!mkdtemp(j->dir)) {
        snprintf(j->why, sizeof j->why, "cannot make a folder for yosys in "
                 "%s (%s)", cache, strerror(errno));
        j->dir[0] = 0;
        return -1;
    }
    snprintf(path, sizeof path, "%s/m.v", j->dir);
    FILE *f = fopen(path, "w");
    bool ok = f && fwrite(j->text, 1, j->n, f) == j->n;
    if ((f && fclose(f) != 0) || !ok) {
        snprintf(j->why, sizeof j->why, "cannot write %s (%s)", path,
                 strerror(errno));
        return -1;
    }
    snprintf(script, sizeof script, "read_verilog m.v; synth -top %s; "
             "tee -q -o stat.txt stat", cg_rtl_module_name(r, i));
    char *argv[] = {"yosys", "-q", "-p", script, NULL};
    j->pid = cg_rtl_spawn(j->dir, argv);
    if (j->pid < 0) {
        snprintf(j->why, sizeof j->why, "cannot start yosys (%s)",
                 strerror(errno));
        return -1;
    }
    return 0;
}

/* j's yosys has ended with status: keep its statistics and remove its
 * folder (after a failed start, just the folder). */
static void synth_finish(const cg_rtl *r, int i, synth_job *j, int status)
{
    char path[1200], line[200];
    if (j->pid >= 0) {
        j->status = status;
        j->pid = -1;
        snprintf(path, sizeof path, "%s/stat.txt", j->dir);
        if (j->status == 0 && rename(path, j->stat) != 0) {
            snprintf(j->why, sizeof j->why, "cannot keep yosys's statistics "
                     "of module %s as %s (%s)", cg_rtl_module_name(r, i),
                     j->stat, strerror(errno));
            j->status = -1;
        } else if (j->status == 127) { /* the shell's "not found" */
            snprintf(j->why, sizeof j->why, "yosys is not installed "
                     "(scripts/setup.sh installs it): the area comes from "
                     "its synthesis of the array's modules");
        } else if (j->status != 0) {
            cg_rtl_log_tail(j->dir, line, sizeof line);
            snprintf(j->why, sizeof j->why, "yosys could not synthesize "
                     "module %s (exit status %d)%s%s",
                     cg_rtl_module_name(r, i), j->status,
                     line[0] ? ": " : "", line);
        }
    }
    if (j->dir[0]) {
        cg_rtl_remove_tree(j->dir);
        j->dir[0] = 0;
    }
}

/* Synthesize the modules of js not in the cache, up to jobs (at most 64)
 * at a time, the largest first; each finished run frees its place. */
static void synth_all(const cg_rtl *r, const char *cache, int jobs,
                      synth_job *js, int n)
{
    int *order = malloc(((size_t)n + 1) * sizeof *order), count = 0;
    int running[64], nrun = 0, status;
    for (int i = 0; i < n; i++) {
        if (js[i].status == 0)
            continue;
        if (!order) {
            snprintf(js[i].why, sizeof js[i].why, "out of memory");
            continue;
        }
        /* larger modules first (they take longest), else module order */
        int k = count++;
        for (; k > 0 && js[order[k - 1]].n < js[i].n; k--)
            order[k] = order[k - 1];
        order[k] = i;
    }
    for (int next = 0; next < count || nrun > 0;) {
        if (next < count && nrun < jobs) {
            int i = order[next++];
            if (synth_start(r, i, cache, &js[i]) < 0)
                synth_finish(r, i, &js[i], -1);
            else
                running[nrun++] = i;
            continue;
        }
        bool freed = false;
        for (int k = 0; k < nrun; k++)
            if (cg_rtl_try_wait(js[running[k]].pid, &status)) {
                synth_finish(r, running[k], &js[running[k]], status);
                running[k--] = running[--nrun];
                freed = true;
            }
        if (!freed)
            nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    }
    free(order);
}

int cg_rtl_area_of(const cg_rtl *r, const char *cache_dir, int jobs,
                   cg_rtl_area *out, cg_diags *d)
{
    memset(out, 0, sizeof *out);
    if (mkdir(cache_dir, 0777) != 0 && errno != EEXIST) {
        cg_diags_add(d, CG_SEV_ERROR, cache_dir, 0, "cannot make the area "
                     "cache here (%s)", strerror(errno));
        return -1;
    }
    if (jobs <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = cpus < 1 ? 1 : cpus > 64 ? 64 : (int)cpus;
    }
    out->nmodules = r->nmods;
    out->mod = calloc((size_t)r->nmods + 1, sizeof *out->mod);
    synth_job *js = calloc((size_t)r->nmods + 1, sizeof *js);
    int rc = out->mod && js ? 0 : -1;
    for (int i = 0; i < r->nmods && rc == 0; i++) {
        js[i].pid = -1;
        js[i].status = -1;
        js[i].text = module_text(r, i, &js[i].n);
        if (!js[i].text)
            rc = -1;
        else
            snprintf(js[i].stat, sizeof js[i].stat, "%s/%016" PRIx64 ".stat",
                     cache_dir, fnv1a(js[i].text, js[i].n));
        if (rc == 0 && access(js[i].stat, R_OK) == 0) {
            js[i].status = 0;
            out->cached++;
        }
    }
    if (rc < 0)
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "out of memory");
    else
        synth_all(r, cache_dir, jobs, js, r->nmods);
    for (int i = 0; i < cg_netlist_nprims(r->nl) && rc == 0; i++)
        out->mod[r->inst[i].module].instances++;
    for (int i = 0; i < r->nmods && rc == 0; i++) {
        cg_rtl_module_area *m = &out->mod[i];
        if (js[i].status != 0) {
            cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "%s", js[i].why);
            rc = -1;
            break;
        }
        char *stat = cg_slurp(js[i].stat, NULL);
        if (!stat || parse_stat(stat, m) < 0) {
            cg_diags_add(d, CG_SEV_ERROR, js[i].stat, 0, "no cell count in "
                         "yosys's statistics of module %s",
                         cg_rtl_module_name(r, i));
            rc = -1;
        }
        free(stat);
        out->cells += (long)m->cells * m->instances;
        out->ffs += (long)m->ffs * m->instances;
        out->nand2 += m->nand2 * m->instances;
    }
    for (int i = 0; js && i < r->nmods; i++)
        free(js[i].text);
    free(js);
    if (rc < 0)
        cg_rtl_area_free(out);
    return rc;
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
