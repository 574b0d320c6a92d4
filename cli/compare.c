/* compare.c: the main job on several arrays.  The loops are found once;
 * then each array is read and runs every job exactly as the main job does
 * (cg_cli_run_jobs, same seed and limits), its rows printed under its
 * label as they finish.  An array that cannot be read is reported and
 * left out; the others still run (the exit status is then 1).  At the end
 * the comparison table sets each kernel's row on every array side by side,
 * and the report files get every record with its "arch". */
#include "cli/compare.h"
#include "cli/commands.h"

#include "common/diag.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct cmp_run {
    const char *label;
    json_t *all;     /* every record of every array, in order */
    int failed;
} cmp_run;

static void on_done(void *arg, int i, json_t *recs)
{
    (void)i;
    cmp_run *r = arg;
    size_t k;
    json_t *rec;
    json_array_foreach(recs, k, rec) {
        json_object_set_new(rec, "arch", json_string(r->label));
        cg_cli_row(rec, stdout, stderr);
        r->failed |= !cg_cli_record_ok(rec);
    }
    json_array_extend(r->all, recs);
    json_decref(recs);
}

char *cg_cli_cmp_mapping_dir(const char *dir, const char *label)
{
    size_t n = strlen(dir) + strlen(label) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", dir, label);
    for (char *s = p + strlen(dir) + 1; *s; s++)
        if (*s == '/')
            *s = '_'; /* a label that is a path */
    struct stat st;
    if (stat(p, &st) != 0 && mkdir(p, 0777) != 0) {
        fprintf(stderr, "%s: error: cannot create this folder for "
                "--mapping-dir\n", p);
        free(p);
        return NULL;
    }
    return p;
}

void cg_cli_cmp_array_line(const cg_cli_array *x, FILE *out)
{
    char area[1200];
    cg_cli_area_text(&x->area, area, sizeof area);
    if (x->ok && x->area.asked)
        fprintf(out, "\narray %s: cost %.1f, area %s\n", x->label,
                x->cost.total, area);
    else if (x->ok)
        fprintf(out, "\narray %s: cost %.1f\n", x->label, x->cost.total);
    else
        fprintf(out, "\narray %s: not read (the messages below say why); "
                "its loops are not run\n", x->label);
    fflush(out);
}

/* Read array x and run every job on it; the signal that stopped the run,
 * or 0. */
static int run_array(cg_cli_array *x, const cg_cli_jobs *jobs,
                     const cg_cli_cmp_opts *c, const cg_cli_opts *o,
                     cmp_run *r)
{
    cg_diags *d = cg_diags_create();
    cg_arch *a;
    cg_netlist *nl = cg_cli_array_load(x, o->templates, &a, d);
    int sig = 0;
    x->ok = nl != NULL;
    if (nl)
        cg_cli_cost_of(nl, &x->cost);
    if (nl && c->area)
        cg_cli_array_area(x, nl, o->rtl_cache ? o->rtl_cache
                                              : o->rtl_cache_dflt);
    cg_cli_cmp_array_line(x, stdout);
    cg_diags_print(d, stderr);
    for (int i = 0; !nl && i < cg_diags_size(d); i++) {
        char *line = cg_diags_get(d, i)->sev == CG_SEV_ERROR
                         ? cg_diag_format(cg_diags_get(d, i)) : NULL;
        if (line)
            cg_cli_array_why(x, line);
        free(line);
    }
    cg_diags_destroy(d);
    if (!nl) {
        r->failed = 1;
        cg_arch_destroy(a);
        return 0;
    }
    cg_cli_row_header(stdout);
    cg_cli_opts oa = *o;
    char *mdir = o->mapping_dir ? cg_cli_cmp_mapping_dir(o->mapping_dir,
                                                         x->label) : NULL;
    oa.mapping_dir = mdir;
    r->label = x->label;
    if (o->mapping_dir && !mdir)
        r->failed = 1;
    else
        sig = cg_cli_run_jobs(jobs, nl, &oa, on_done, r);
    if (sig < 0) { /* out of memory, said */
        r->failed = 1;
        sig = 0;
    }
    free(mdir);
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    return sig;
}

int cg_cli_cmp_write_reports(const cg_cli_array *arr, int n,
                             json_t *recs, const cg_cli_cmp_opts *c,
                             const cg_cli_opts *o)
{
    int bad = 0;
    if (o->json && cg_cli_write_json(o->json, recs) != 0)
        bad = 1;
    if (o->csv && cg_cli_write_csv(o->csv, recs) != 0)
        bad = 1;
    if (c->report_dir && cg_cli_report(c->report_dir, arr, n, recs, o) != 0)
        bad = 1;
    return bad;
}

int cg_cli_compare(const cg_cli_cmp_opts *c, const cg_cli_opts *o,
                   char *const *paths, int npaths)
{
    cg_cli_array arr[CG_CLI_MAX_ARRAYS];
    int n, sig = 0;
    if (cg_cli_arrays(c, arr, &n) != 0)
        return 2;
    cg_cli_jobs jobs = {0};
    cmp_run r = {NULL, json_array(), 0};
    for (int i = 0; i < npaths; i++)
        r.failed |= cg_cli_scan(paths[i], &jobs) != 0;
    if (jobs.n == 0 && !r.failed) {
        fprintf(stderr, "cgramap: no tagged .c file, benchmark folder or "
                ".dot file found\n");
        r.failed = 1;
    }
    for (int i = 0; i < n && jobs.n && !sig; i++)
        sig = run_array(&arr[i], &jobs, c, o, &r);
    if (sig)
        fprintf(stderr, "cgramap: stopped by %s; the comparison has the "
                "rows finished so far\n", sig == SIGINT ? "SIGINT"
                                                         : "SIGTERM");
    if (jobs.n) {
        printf("\n");
        cg_cli_cmp_table(arr, n, r.all, stdout);
    }
    r.failed |= cg_cli_cmp_write_reports(arr, n, r.all, c, o);
    json_decref(r.all);
    cg_cli_jobs_free(&jobs);
    cg_cli_arrays_free(arr, n);
    return sig ? 128 + sig : r.failed ? 1 : 0;
}

/* ---- the table ---------------------------------------------------------- */

const char *cg_cli_cmp_str(const json_t *rec, const char *key)
{
    const char *s = json_string_value(json_object_get(rec, key));
    return s ? s : "-";
}

static bool same_kernel(const json_t *a, const json_t *b)
{
    static const char *const keys[] = {"benchmark", "loop", "file"};
    for (int i = 0; i < 3; i++)
        if (strcmp(cg_cli_cmp_str(a, keys[i]), cg_cli_cmp_str(b, keys[i])))
            return false;
    return true;
}

json_t *cg_cli_cmp_kernels(const json_t *recs)
{
    json_t *ks = json_array();
    size_t i, j;
    json_t *rec, *k;
    json_array_foreach(recs, i, rec) {
        bool seen = false;
        json_array_foreach(ks, j, k)
            seen |= same_kernel(k, rec);
        if (!seen)
            json_array_append(ks, rec);
    }
    return ks;
}

const json_t *cg_cli_cmp_find(const json_t *recs, const json_t *k,
                              const char *label)
{
    size_t i;
    json_t *rec;
    json_array_foreach(recs, i, rec)
        if (same_kernel(k, rec) &&
            strcmp(cg_cli_cmp_str(rec, "arch"), label) == 0)
            return rec;
    return NULL;
}

int cg_cli_cmp_ii(const json_t *rec)
{
    if (!rec || strcmp(cg_cli_cmp_str(rec, "status"), "mapped") != 0)
        return 0;
    return (int)json_integer_value(json_object_get(rec, "ii"));
}

/* An integer field as text, "-" when absent. */
static const char *num(const json_t *rec, const char *key, char *buf)
{
    json_t *v = json_object_get(rec, key);
    if (!json_is_integer(v))
        return "-";
    snprintf(buf, 24, "%lld", (long long)json_integer_value(v));
    return buf;
}

#define CMP_FMT "%-24s %-*s %4s %4s %-8s %10s %7s %5s %10s %10s %10s %6s %s\n"

/* The array column: as wide as the longest label, at least 24. */
static int label_width(const cg_cli_array *arr, int narr)
{
    int w = 24;
    for (int a = 0; a < narr; a++)
        w = (int)strlen(arr[a].label) > w ? (int)strlen(arr[a].label) : w;
    return w;
}

/* One kernel on one array. */
static void cmp_row(const char *kname, const cg_cli_array *x, int lw,
                    const json_t *rec, FILE *out)
{
    char b[9][24], fus_b[56];
    int ii = cg_cli_cmp_ii(rec);
    const char *proof = cg_cli_cmp_str(rec, "proof");
    if (ii)
        snprintf(b[0], 24, "%.3f", 1.0 / ii);
    json_t *util = json_object_get(rec, "fu_util");
    if (json_is_number(util))
        snprintf(b[1], 24, "%.0f%%", 100 * json_number_value(util));
    const char *fus = "-";
    if (json_is_integer(json_object_get(rec, "funcunits"))) {
        snprintf(fus_b, sizeof fus_b, "%s/%s", num(rec, "funcunits", b[3]),
                 num(rec, "funcunits_total", b[4]));
        fus = fus_b;
    }
    const char *status = cg_cli_cmp_str(rec, "status");
    fprintf(out, CMP_FMT, kname, lw, x->label, ii ? num(rec, "ii", b[5]) : "-",
            num(rec, "mii", b[6]),
            !rec ? "-" : strcmp(proof, "optimal") == 0 ? "optimal"
                       : strncmp(proof, "open", 4) == 0 ? "open" : status,
            ii ? b[0] : "-", fus, json_is_number(util) ? b[1] : "-",
            num(rec, "cycles", b[7]), num(rec, "dma_cycles", b[8]),
            num(rec, "stalls", b[3]),
            num(rec, "tiles", b[4]),
            rec ? cg_cli_cmp_str(rec, "verified") : "-");
}

/* A line per array: its cost and parts, and its kernels summed up as the
 * report does (cg_cli_cmp_summarize): the mean of 1/II over the settled
 * kernels, with the open ones counted beside, never averaged in. */
static void array_summary(const cg_cli_array *arr, int narr, int lw,
                          const json_t *recs, const json_t *ks, FILE *out)
{
    fprintf(out, "\n%-*s %8s %4s %8s %5s %6s %5s %9s %6s %8s %5s %10s\n",
            lw, "array", "cost", "FUs", "op wt", "muxes", "mux in", "regs",
            "mem bytes", "mapped", "optimal", "open", "iter/cycle");
    for (int a = 0; a < narr; a++) {
        const cg_cli_array *x = &arr[a];
        if (!x->ok) {
            fprintf(out, "%-*s not read\n", lw, x->label);
            continue;
        }
        cg_cli_cmp_sum s;
        cg_cli_cmp_summarize(recs, ks, x->label, &s);
        const cg_cli_cost *c = &x->cost;
        fprintf(out, "%-*s %8.1f %4d %8.1f %5d %6d %5d %9lld %3d/%-2d "
                "%8d %5d ", lw, x->label, c->total, c->funcunits,
                c->fu_weight, c->muxes, c->mux_inputs, c->registers,
                (long long)c->mem_bytes, s.mapped, s.kernels, s.optimal,
                s.kernels - s.settled);
        if (s.settled)
            fprintf(out, "%10.3f\n", s.mean);
        else /* open IIs may only go down, the mean only up */
            fprintf(out, "none settled (all: at least %.3f)\n", s.mean_all);
    }
}

/* With --area: each array's area beside its cost, or why it has none. */
static void area_summary(const cg_cli_array *arr, int narr, int lw,
                         FILE *out)
{
    bool asked = false;
    for (int a = 0; a < narr; a++)
        asked |= arr[a].area.asked;
    if (!asked)
        return;
    fprintf(out, "\n%-*s %8s %10s %10s %11s %s\n", lw, "array", "cost",
            "NAND2-eq", "flip-flops", "config bits", "bits/PE/context");
    for (int a = 0; a < narr; a++) {
        const cg_cli_array *x = &arr[a];
        const cg_cli_arr_area *ar = &x->area;
        if (!x->ok)
            continue; /* "not read" above */
        if (!ar->ok) {
            char why[1200];
            cg_cli_area_text(ar, why, sizeof why);
            fprintf(out, "%-*s %8.1f %s\n", lw, x->label, x->cost.total,
                    why);
            continue;
        }
        fprintf(out, "%-*s %8.1f %10.0f %10ld %11d %d..%d (mean %.1f)\n", lw,
                x->label, x->cost.total, ar->nand2, ar->ffs, ar->config_bits,
                ar->pe_least, ar->pe_most, ar->pe_mean);
    }
}

void cg_cli_cmp_table(const cg_cli_array *arr, int narr, const json_t *recs,
                      FILE *out)
{
    json_t *ks = cg_cli_cmp_kernels(recs);
    int lw = label_width(arr, narr);
    fprintf(out, "comparison of %d array%s on %zu loop%s (same seed and "
            "limits on each)\n", narr, narr == 1 ? "" : "s",
            json_array_size(ks), json_array_size(ks) == 1 ? "" : "s");
    fprintf(out, CMP_FMT, "kernel", lw, "array", "II", "MII", "proof",
            "iter/cycle", "FUs", "util", "cycles", "DMA cycles", "DMA stall",
            "tiles",
            "verified");
    size_t i;
    json_t *k;
    json_array_foreach(ks, i, k) {
        char kname[256];
        snprintf(kname, sizeof kname, "%s/%s", cg_cli_cmp_str(k, "benchmark"),
                 cg_cli_cmp_str(k, "loop"));
        for (int a = 0; a < narr; a++)
            if (arr[a].ok)
                cmp_row(kname, &arr[a], lw,
                        cg_cli_cmp_find(recs, k, arr[a].label), out);
    }
    array_summary(arr, narr, lw, recs, ks, out);
    area_summary(arr, narr, lw, out);
    json_decref(ks);
    fflush(out);
}
