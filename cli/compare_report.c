/* compare_report.c: the comparison as one self-contained HTML page
 * (--report DIR): the arrays and their cost, three charts
 * (compare_chart.c), and the table of every kernel on every array with
 * the terminal's columns.  A reader must be able to act on it alone: an
 * open row is set apart and its reason given, an array that was not read
 * says why, and the summary figures are over settled rows only, with the
 * open ones counted beside them. */
#include "cli/compare.h"
#include "cli/commands.h"
#include "common/util.h"

#include <string.h>
#include <sys/stat.h>

#define esc cg_cli_html_esc

/* ---- the page ----------------------------------------------------------- */

typedef struct page {
    const cg_cli_array *arr;
    int narr;
    const json_t *recs;
    const cg_cli_opts *o;
} page;

/* --area was given: the arrays table has the area's columns. */
static bool area_asked(const page *p)
{
    for (int a = 0; a < p->narr; a++)
        if (p->arr[a].area.asked)
            return true;
    return false;
}

/* An array not read: its reason, each error line on a line of its own. */
static void not_read(FILE *f, const cg_cli_array *x, int cols)
{
    fprintf(f, "</td><td colspan=\"%d\" class=\"why\">not read: ", cols);
    const char *s = x->why ? x->why : "see the run's messages";
    for (const char *nl; (nl = strchr(s, '\n')); s = nl + 1) {
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(nl - s), s);
        esc(f, line);
        fputs("<br>", f);
    }
    esc(f, s);
    fputs("</td></tr>\n", f);
}

/* Array x's area cells: NAND2-equivalents, flip-flops, configuration
 * bits and per PE per context, or one cell saying why there are none. */
static void area_cells(FILE *f, const cg_cli_arr_area *a)
{
    if (!a->ok) {
        char why[1200];
        cg_cli_area_text(a, why, sizeof why);
        fputs("<td colspan=\"4\" class=\"why\">", f);
        esc(f, why);
        fputs("</td>", f);
        return;
    }
    fprintf(f, "<td class=\"area\">%.0f</td><td>%ld</td><td>%d</td>"
            "<td>%d..%d (mean %.1f)</td>", a->nand2, a->ffs, a->config_bits,
            a->pe_least, a->pe_most, a->pe_mean);
}

static void arrays_table(FILE *f, const page *p, const json_t *ks)
{
    bool area = area_asked(p);
    fputs("<h2>Arrays</h2>\n<table>\n<tr><th>array</th><th>cost</th>", f);
    if (area)
        fputs("<th>area (NAND2-eq)</th><th>flip-flops</th>"
              "<th>configuration bits</th><th>bits/PE/context</th>", f);
    fputs("<th>FuncUnits</th><th>op weight</th><th>muxes</th>"
          "<th>mux inputs</th><th>registers</th><th>memory bytes</th>"
          "<th>mapped</th><th>optimal</th><th>open</th>"
          "<th>mean iterations/cycle, settled kernels</th></tr>\n", f);
    for (int a = 0; a < p->narr; a++) {
        const cg_cli_array *x = &p->arr[a];
        fputs("<tr><td>", f);
        esc(f, x->label);
        if (!x->ok) {
            not_read(f, x, area ? 15 : 11);
            continue;
        }
        cg_cli_cmp_sum s;
        cg_cli_cmp_summarize(p->recs, ks, x->label, &s);
        const cg_cli_cost *c = &x->cost;
        fprintf(f, "</td><td>%.1f</td>", c->total);
        if (area)
            area_cells(f, &x->area);
        fprintf(f, "<td>%d</td><td>%.1f</td><td>%d</td>"
                "<td>%d</td><td>%d</td><td>%lld</td><td>%d of %d</td>"
                "<td>%d</td><td>%d</td>", c->funcunits,
                c->fu_weight, c->muxes, c->mux_inputs, c->registers,
                (long long)c->mem_bytes, s.mapped, s.kernels, s.optimal,
                s.kernels - s.settled);
        if (s.settled)
            fprintf(f, "<td>%.3f over %d</td></tr>\n", s.mean, s.settled);
        else /* open IIs may only go down, the mean only up */
            fprintf(f, "<td>none settled (all: at least %.3f)</td></tr>\n",
                    s.mean_all);
    }
    fputs("</table>\n", f);
}

static void cell_int(FILE *f, const json_t *rec, const char *key)
{
    json_t *v = json_object_get(rec, key);
    if (json_is_integer(v))
        fprintf(f, "<td>%lld</td>", (long long)json_integer_value(v));
    else
        fputs("<td>-</td>", f);
}

/* The columns the terminal's comparison shows for a mapped row:
 * iterations per cycle, FuncUnits used of all, their utilisation. */
static void throughput_cells(FILE *f, const json_t *rec)
{
    int ii = cg_cli_cmp_ii(rec);
    json_t *fu = json_object_get(rec, "funcunits");
    json_t *util = json_object_get(rec, "fu_util");
    if (ii)
        fprintf(f, "<td>%.3f</td>", 1.0 / ii);
    else
        fputs("<td>-</td>", f);
    if (json_is_integer(fu))
        fprintf(f, "<td>%lld/%lld</td>", (long long)json_integer_value(fu),
                (long long)json_integer_value(json_object_get(
                    rec, "funcunits_total")));
    else
        fputs("<td>-</td>", f);
    if (json_is_number(util))
        fprintf(f, "<td>%.0f%%</td>", 100 * json_number_value(util));
    else
        fputs("<td>-</td>", f);
}

/* One kernel on one array; an open row is marked and its proof links to
 * its reason (number *nopen in the list below the table). */
static void kernel_row(FILE *f, const char *kname, const char *label,
                       const json_t *rec, int *nopen)
{
    bool open = cg_cli_cmp_open_bound(rec) > 0;
    fputs(open ? "<tr class=\"open\"><td>" : "<tr><td>", f);
    esc(f, kname);
    fputs("</td><td class=\"l\">", f);
    esc(f, label);
    fputs("</td><td class=\"l\">", f);
    esc(f, cg_cli_cmp_str(rec, "status"));
    fputs("</td>", f);
    if (cg_cli_cmp_ii(rec))
        cell_int(f, rec, "ii");
    else
        fputs("<td>-</td>", f);
    cell_int(f, rec, "mii");
    fputs("<td class=\"l\">", f);
    if (open)
        fprintf(f, "<a href=\"#open-%d\">", ++*nopen);
    esc(f, cg_cli_cmp_str(rec, "proof"));
    fputs(open ? "</a></td>" : "</td>", f);
    throughput_cells(f, rec);
    cell_int(f, rec, "cycles");
    cell_int(f, rec, "dma_cycles");
    cell_int(f, rec, "stalls");
    cell_int(f, rec, "tiles");
    fputs("<td>", f);
    esc(f, cg_cli_cmp_str(rec, "verified"));
    fputs("</td></tr>\n", f);
}

static void kernels_table(FILE *f, const page *p, const json_t *ks)
{
    fputs("<h2>Every kernel on every array</h2>\n<table>\n<tr><th>kernel"
          "</th><th class=\"l\">array</th><th class=\"l\">status</th>"
          "<th>II</th><th>MII</th><th class=\"l\">proof</th>"
          "<th>iterations/cycle</th><th>FuncUnits used</th>"
          "<th>utilisation</th><th>cycles</th><th>DMA cycles</th>"
          "<th>DMA stall cycles</th><th>tiles</th><th>verified</th></tr>\n",
          f);
    int nopen = 0;
    for (size_t i = 0; i < json_array_size(ks); i++) {
        const json_t *k = json_array_get(ks, i);
        char kname[256];
        cg_cli_cmp_kernel_name(k, kname, sizeof kname);
        for (int a = 0; a < p->narr; a++) {
            const json_t *rec = cg_cli_cmp_find(p->recs, k, p->arr[a].label);
            if (rec)
                kernel_row(f, kname, p->arr[a].label, rec, &nopen);
        }
    }
    fputs("</table>\n", f);
}

/* Why each open row is open: its proof hint, in the table's order. */
static void open_reasons(FILE *f, const page *p, const json_t *ks)
{
    int n = 0;
    for (size_t i = 0; i < json_array_size(ks); i++)
        for (int a = 0; a < p->narr; a++) {
            const json_t *rec = cg_cli_cmp_find(p->recs, json_array_get(ks, i),
                                                p->arr[a].label);
            if (!rec || !cg_cli_cmp_open_bound(rec))
                continue;
            if (!n++)
                fputs("<h2>Why rows are open</h2>\n<p>An open row's II is "
                      "what the limits reached, not the least: compare "
                      "arrays by II only where both rows are optimal.</p>\n"
                      "<ol>\n", f);
            char kname[256];
            cg_cli_cmp_kernel_name(rec, kname, sizeof kname);
            fprintf(f, "<li id=\"open-%d\"><b>", n);
            esc(f, kname);
            fputs(" on ", f);
            esc(f, p->arr[a].label);
            fputs("</b>: ", f);
            esc(f, cg_cli_cmp_str(rec, "proof_hint"));
            fputs("</li>\n", f);
        }
    if (n)
        fputs("</ol>\n", f);
}

/* The search and the work limits that decide the rows (docs/mapper.md,
 * "Effort and determinism"), as a sentence's start, naming only what the
 * search uses: the report's reader compares rows only under the same
 * ones. */
static void budget_sentence(FILE *f, const cg_map_params *m)
{
    bool autos = m->search == CG_SEARCH_AUTO;
    bool heur = autos || m->search == CG_SEARCH_HEURISTIC;
    bool sat = autos || m->search == CG_SEARCH_SAT;
    fprintf(f, "Every kernel mapped on every array with --mapper %s, seed %u "
            "and, per II, ", cg_map_search_name(m->search), m->seed);
    if (heur)
        fprintf(f, "%ld heuristic steps%s%ld annealing moves%s",
                m->heur_steps, sat ? ", " : " and ", m->nego_moves,
                sat ? ", " : "");
    if (sat)
        fprintf(f, "%ld SAT conflicts (schedules up to %d cycles longer "
                "than the shortest)", m->sat_conflicts, m->sat_horizon);
    if (autos)
        fprintf(f, " and, where the SAT model would have more than %ld "
                "routing literals, ", m->sat_max_literals);
    if (autos || m->search == CG_SEARCH_ILP)
        fprintf(f, "%d branch-and-bound nodes per ILP model", m->ilp_nodes);
    bool big = (heur && (m->large_steps != m->heur_steps ||
                         m->large_moves != m->nego_moves)) ||
               (sat && m->large_conflicts != m->sat_conflicts);
    if (big) {
        fprintf(f, "; for DFGs of more than %d nodes, ", m->large_above);
        if (heur)
            fprintf(f, "%ld steps%s%ld moves%s", m->large_steps,
                    sat ? ", " : " and ", m->large_moves, sat ? ", " : "");
        if (sat)
            fprintf(f, "%ld conflicts where the SAT model has more than %ld "
                    "routing literals", m->large_conflicts,
                    m->large_sat_literals);
        if (autos)
            fprintf(f, ", %ld at the first II the bounds leave when the "
                    "RecMII is above the ResMII", m->large_rec_conflicts);
    }
    bool retry = autos && m->retries > 0;
    bool large_retry = autos && m->large_retries > 0;
    if (retry)
        fprintf(f, "; at an II that SAT leaves undecided (below the mapped "
                "one, or any when none maps), a DFG of at most %d nodes gets "
                "%d more run%s of the heuristic and the annealer (%ld moves "
                "each) under a cap of their own",
                m->large_above, m->retries, m->retries == 1 ? "" : "s",
                m->retry_moves);
    if (large_retry) {
        if (retry)
            fputs(", a larger one", f);
        else
            fprintf(f, "; a DFG of more than %d nodes gets", m->large_above);
        fprintf(f, " %d more run%s with its own limits at each II below "
                "the mapped one",
                m->large_retries, m->large_retries == 1 ? "" : "s");
    }
    fprintf(f, "; %g s per II", m->timeout_s);
    if (m->large_timeout_s != m->timeout_s)
        fprintf(f, " (%g s for DFGs of more than %d nodes)",
                m->large_timeout_s, m->large_above);
}

static int page_writer(void *arg, FILE *f)
{
    const page *p = arg;
    json_t *ks = cg_cli_cmp_kernels(p->recs);
    const cg_map_params *m = &p->o->map;
    size_t nk = json_array_size(ks);
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset="
            "\"utf-8\">\n<title>cgramap: arrays compared</title>\n<style>"
            "body{font-family:sans-serif;margin:2em;max-width:1100px}"
            "table{border-collapse:collapse;margin-bottom:1.5em;"
            "font-size:12px}"
            "td,th{border:1px solid #bbb;padding:2px 5px;text-align:right}"
            "td{white-space:nowrap}"
            "td:first-child,th:first-child,td.l,th.l{text-align:left}"
            "svg{display:block;margin:1em 0}"
            "td.why{text-align:left;white-space:normal}"
            "tr.open td{background:repeating-linear-gradient(45deg,#fff,"
            "#fff 4px,#eee 4px,#eee 8px)}</style>\n</head>\n<body>\n"
            "<h1>%d array%s, %zu kernel%s</h1>\n<p>",
            p->narr, p->narr == 1 ? "" : "s", nk, nk == 1 ? "" : "s");
    budget_sentence(f, m);
    if (m->time_limit_s > 0)
        fprintf(f, " and %g s per loop", m->time_limit_s);
    if (m->max_ii > 0)
        fprintf(f, ", II up to %d", m->max_ii);
    else
        fputs(", II up to twice the MII (at least 16)", f);
    fputs(". Two arrays compare by II when both rows are <em>optimal</em>; "
          "an <em>open</em> row (hatched in the charts and the table) may "
          "map at a lower II with larger limits, and the mean iterations "
          "per cycle leave it out.</p>\n", f);
    arrays_table(f, p, ks);
    fputs("<h2>Charts</h2>\n", f);
    cg_cli_chart_ii(p->arr, p->narr, p->recs, f);
    cg_cli_chart_cycles(p->arr, p->narr, p->recs, f);
    cg_cli_chart_cost(p->arr, p->narr, p->recs, f);
    kernels_table(f, p, ks);
    open_reasons(f, p, ks);
    fputs("<p>Cost: a proxy counted from the netlist in units of a 32-bit "
          "adder (docs/cli.md, \"Comparing arrays\"). ", f);
    if (area_asked(p))
        fputs("Area: yosys's generic synthesis of the array's RTL, each "
              "distinct module once, in NAND2-equivalents by the weight "
              "table of docs/rtl.md (\"Area\"); a figure to compare arrays "
              "with, not silicon area. ", f);
    else
        fputs("Area: not computed; <code>--area</code> synthesizes each "
              "array's RTL with yosys and plots it. ", f);
    fputs("Iterations per cycle: 1/II, the steady state of the modulo "
          "schedule.</p>\n</body>\n</html>\n", f);
    json_decref(ks);
    return cg_write_end(f, ks != NULL);
}

typedef void (*chart_fn)(const cg_cli_array *, int, const json_t *, FILE *);

static int chart_writer(void *arg, FILE *f)
{
    const page *p = ((void **)arg)[0];
    chart_fn fn = *(chart_fn *)((void **)arg)[1];
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    fn(p->arr, p->narr, p->recs, f);
    return cg_write_end(f, true);
}

int cg_cli_report(const char *dir, const cg_cli_array *arr, int narr,
                  const json_t *recs, const cg_cli_opts *o)
{
    static const char *const names[] = {"ii.svg", "cycles.svg", "cost.svg"};
    chart_fn fns[] = {cg_cli_chart_ii, cg_cli_chart_cycles,
                      cg_cli_chart_cost};
    page p = {arr, narr, recs, o};
    struct stat st;
    if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0) {
        fprintf(stderr, "%s: error: cannot create this folder for --report;"
                " create it or check its parent\n", dir);
        return -1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/index.html", dir);
    int rc = cg_cli_write_file(path, page_writer, &p);
    for (int i = 0; i < 3; i++) {
        void *arg[2] = {&p, &fns[i]};
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        rc |= cg_cli_write_file(path, chart_writer, arg);
    }
    return rc ? -1 : 0;
}
