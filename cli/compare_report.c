/* compare_report.c: the comparison as one self-contained HTML page
 * (--report DIR): the arrays and their cost, three charts, and the table
 * of every kernel on every array.  The charts are SVG written here, not
 * by a plotting program: grouped bars and one scatter plot take a few
 * dozen lines, need no dependency, and their geometry is tested
 * (tests/cli/test_compare.c).  Every bar and point carries data-kernel,
 * data-array and data-value attributes, so a test (or a script) reads
 * the figures back from the picture. */
#include "cli/compare.h"
#include "cli/commands.h"
#include "common/util.h"

#include <math.h>
#include <string.h>
#include <sys/stat.h>

static const char *const palette[] = {
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
    "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};
#define NCOLORS (int)(sizeof palette / sizeof palette[0])

/* s with &, <, > and " escaped, for text and attribute values. */
static void esc(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

static void kernel_name(const json_t *k, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", cg_cli_cmp_str(k, "benchmark"),
             cg_cli_cmp_str(k, "loop"));
}

/* ---- grouped bars ------------------------------------------------------- */

#define BAR_W 16
#define GROUP_GAP 28
#define LEFT 56
#define TOP 40
#define PLOT_H 200
#define BOTTOM 110   /* kernel names, written at 45 degrees */
#define MIN_W 640

typedef struct bars {
    const char *title, *what;     /* chart title, the value's name */
    const char *key;              /* record field: "ii" or "cycles" */
    bool per_group;               /* scale each kernel to its own highest */
} bars;

/* The value of key in rec when the kernel mapped there, else 0. */
static long long bar_value(const json_t *rec, const char *key)
{
    if (!cg_cli_cmp_ii(rec))
        return 0;
    return json_integer_value(json_object_get(rec, key));
}

static long long group_max(const cg_cli_array *arr, int narr,
                           const json_t *recs, const json_t *k,
                           const char *key)
{
    long long m = 0;
    for (int a = 0; a < narr; a++) {
        long long v = bar_value(cg_cli_cmp_find(recs, k, arr[a].label), key);
        m = v > m ? v : m;
    }
    return m;
}

/* The arrays' colours, one line per array, right of the plot. */
static void legend(FILE *f, const cg_cli_array *arr, int narr, double x)
{
    for (int a = 0; a < narr; a++) {
        fprintf(f, "<rect class=\"key\" x=\"%.1f\" y=\"%d\" width=\"10\" "
                "height=\"10\" fill=\"%s\"/><text x=\"%.1f\" y=\"%d\" "
                "font-size=\"11\">", x, TOP + 14 * a, palette[a % NCOLORS],
                x + 14, TOP + 14 * a + 9);
        esc(f, arr[a].label);
        fputs("</text>\n", f);
    }
}

/* The y axis of a common scale: ticks at round steps up to top. */
static void y_axis(FILE *f, long long top, const char *what)
{
    long long step = top <= 10 ? 1 : (top + 7) / 8;
    for (long long v = 0; v <= top; v += step) {
        double y = TOP + PLOT_H - (double)PLOT_H * v / top;
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"#ccc\"/><text x=\"%d\" y=\"%.1f\" font-size=\"10\" "
                "text-anchor=\"end\">%lld</text>\n", LEFT - 4, LEFT, y, y,
                LEFT - 6, y + 3, v);
    }
    fprintf(f, "<text x=\"12\" y=\"%d\" font-size=\"11\" transform=\"rotate"
            "(-90 12 %d)\" text-anchor=\"middle\">%s</text>\n",
            TOP + PLOT_H / 2, TOP + PLOT_H / 2, what);
}

/* One bar (or, where the kernel did not map, a cross at the base). */
static void bar(FILE *f, const json_t *rec, const char *key, long long scale,
                double x, const char *kname, const cg_cli_array *x_arr,
                int color, bool label)
{
    long long v = bar_value(rec, key);
    if (!v) {
        fprintf(f, "<text class=\"none\" x=\"%.1f\" y=\"%d\" font-size=\"12\""
                " text-anchor=\"middle\" fill=\"#c00\">&#215;</text>\n",
                x + BAR_W / 2.0, TOP + PLOT_H - 2);
        return;
    }
    double h = (double)PLOT_H * v / scale;
    fprintf(f, "<rect class=\"bar\" data-kernel=\"");
    esc(f, kname);
    fprintf(f, "\" data-array=\"");
    esc(f, x_arr->label);
    fprintf(f, "\" data-value=\"%lld\" x=\"%.1f\" y=\"%.1f\" width=\"%d\" "
            "height=\"%.1f\" fill=\"%s\"><title>", v, x, TOP + PLOT_H - h,
            BAR_W, h, palette[color % NCOLORS]);
    esc(f, kname);
    fputs(" on ", f);
    esc(f, x_arr->label);
    fprintf(f, ": %s %lld</title></rect>\n", key, v);
    if (label) /* bars on scales of their own: the figure is the value */
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" "
                "transform=\"rotate(-90 %.1f %.1f)\">%lld</text>\n",
                x + BAR_W / 2.0 + 3, TOP + PLOT_H - 3.0, x + BAR_W / 2.0 + 3,
                TOP + PLOT_H - 3.0, v);
}

static void bar_chart(const bars *b, const cg_cli_array *arr, int narr,
                      const json_t *recs, FILE *f)
{
    json_t *ks = cg_cli_cmp_kernels(recs);
    int nk = (int)json_array_size(ks);
    double group = narr * BAR_W + GROUP_GAP;
    double plot_w = nk * group + GROUP_GAP;
    int w = LEFT + (int)ceil(plot_w) + 200, h = TOP + PLOT_H + BOTTOM;
    w = w < MIN_W ? MIN_W : w; /* room for the title */
    long long top = 1;
    for (int i = 0; i < nk; i++) {
        long long m = group_max(arr, narr, recs, json_array_get(ks, i),
                                b->key);
        top = m > top ? m : top;
    }
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
            "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\">\n<text x=\"%d\" y=\"20\" "
            "font-size=\"14\" font-weight=\"bold\">%s</text>\n", w, h, w, h,
            LEFT, b->title);
    if (!b->per_group)
        y_axis(f, top, b->what);
    fprintf(f, "<line x1=\"%d\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
            "stroke=\"#000\"/>\n", LEFT, LEFT + plot_w, TOP + PLOT_H,
            TOP + PLOT_H);
    for (int i = 0; i < nk; i++) {
        const json_t *k = json_array_get(ks, i);
        char kname[256];
        kernel_name(k, kname, sizeof kname);
        double x0 = LEFT + GROUP_GAP + i * group;
        long long scale = b->per_group ? group_max(arr, narr, recs, k,
                                                   b->key) : top;
        for (int a = 0; a < narr; a++)
            bar(f, cg_cli_cmp_find(recs, k, arr[a].label), b->key,
                scale ? scale : 1, x0 + a * BAR_W, kname, &arr[a], a,
                b->per_group);
        double cx = x0 + narr * BAR_W / 2.0;
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" "
                "text-anchor=\"end\" transform=\"rotate(-45 %.1f %d)\">",
                cx, TOP + PLOT_H + 14, cx, TOP + PLOT_H + 14);
        esc(f, kname);
        fputs("</text>\n", f);
    }
    legend(f, arr, narr, LEFT + plot_w + 16);
    fputs("</svg>\n", f);
    json_decref(ks);
}

/* The arrays that were read, in order (shallow copies): one that was not
 * has no rows, and the tables, not the charts, say so. */
static int read_arrays(const cg_cli_array *arr, int narr, cg_cli_array *out)
{
    int n = 0;
    for (int a = 0; a < narr && n < CG_CLI_MAX_ARRAYS; a++)
        if (arr[a].ok)
            out[n++] = arr[a];
    return n;
}

void cg_cli_chart_ii(const cg_cli_array *arr, int narr, const json_t *recs,
                     FILE *out)
{
    bars b = {"II per kernel (lower is better; × = not mapped)",
              "II (cycles per iteration)", "ii", false};
    cg_cli_array ok[CG_CLI_MAX_ARRAYS];
    bar_chart(&b, ok, read_arrays(arr, narr, ok), recs, out);
}

void cg_cli_chart_cycles(const cg_cli_array *arr, int narr,
                         const json_t *recs, FILE *out)
{
    bars b = {"Cycles per kernel with DMA (each kernel on its own scale)",
              "cycles", "cycles", true};
    cg_cli_array ok[CG_CLI_MAX_ARRAYS];
    bar_chart(&b, ok, read_arrays(arr, narr, ok), recs, out);
}

/* ---- cost against throughput -------------------------------------------- */

#define SC_W 420
#define SC_H 260

void cg_cli_chart_cost(const cg_cli_array *all, int nall, const json_t *recs,
                       FILE *f)
{
    cg_cli_array arr[CG_CLI_MAX_ARRAYS];
    int narr = read_arrays(all, nall, arr);
    json_t *ks = cg_cli_cmp_kernels(recs);
    double cmax = 1, tmax = 0;
    for (int a = 0; a < narr; a++) {
        cmax = arr[a].cost.total > cmax ? arr[a].cost.total : cmax;
        double t = cg_cli_cmp_throughput(recs, ks, arr[a].label);
        tmax = t > tmax ? t : tmax;
    }
    tmax = tmax > 0 ? tmax : 1;
    int w = LEFT + SC_W + 200, h = TOP + SC_H + 50;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
            "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\">\n<text x=\"%d\" y=\"20\" "
            "font-size=\"14\" font-weight=\"bold\">Cost against throughput"
            " (up and left is better)</text>\n", w, h, w, h, LEFT);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
            "fill=\"none\" stroke=\"#000\"/>\n", LEFT, TOP, SC_W, SC_H);
    for (int i = 0; i <= 4; i++) {
        double x = LEFT + SC_W * i / 4.0, y = TOP + SC_H - SC_H * i / 4.0;
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" "
                "text-anchor=\"middle\">%.0f</text><text x=\"%d\" y=\"%.1f\""
                " font-size=\"10\" text-anchor=\"end\">%.3f</text>\n", x,
                TOP + SC_H + 14, cmax * 1.1 * i / 4, LEFT - 4, y + 3,
                tmax * 1.1 * i / 4);
    }
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\""
            "middle\">cost (32-bit adders)</text><text x=\"12\" y=\"%d\" "
            "font-size=\"11\" text-anchor=\"middle\" transform=\"rotate(-90 "
            "12 %d)\">mean iterations per cycle</text>\n", LEFT + SC_W / 2,
            TOP + SC_H + 32, TOP + SC_H / 2, TOP + SC_H / 2);
    for (int a = 0; a < narr; a++) {
        double t = cg_cli_cmp_throughput(recs, ks, arr[a].label);
        double x = LEFT + SC_W * arr[a].cost.total / (cmax * 1.1);
        double y = TOP + SC_H - SC_H * t / (tmax * 1.1);
        fprintf(f, "<circle class=\"point\" data-array=\"");
        esc(f, arr[a].label);
        fprintf(f, "\" data-cost=\"%.1f\" data-value=\"%.4f\" cx=\"%.1f\" "
                "cy=\"%.1f\" r=\"5\" fill=\"%s\"><title>", arr[a].cost.total,
                t, x, y, palette[a % NCOLORS]);
        esc(f, arr[a].label);
        /* the legend names the colours: labels here would collide */
        fprintf(f, ": cost %.1f, %.3f iterations per cycle</title></circle>"
                "\n", arr[a].cost.total, t);
    }
    legend(f, arr, narr, LEFT + SC_W + 16);
    fputs("</svg>\n", f);
    json_decref(ks);
}

/* ---- the page ----------------------------------------------------------- */

typedef struct page {
    const cg_cli_array *arr;
    int narr;
    const json_t *recs;
    const cg_cli_opts *o;
} page;

static void arrays_table(FILE *f, const page *p, const json_t *ks)
{
    fputs("<h2>Arrays</h2>\n<table>\n<tr><th>array</th><th>cost</th>"
          "<th>FuncUnits</th><th>op weight</th><th>muxes</th>"
          "<th>mux inputs</th><th>registers</th><th>memory bytes</th>"
          "<th>mapped</th><th>mean iterations/cycle</th></tr>\n", f);
    for (int a = 0; a < p->narr; a++) {
        const cg_cli_array *x = &p->arr[a];
        fputs("<tr><td>", f);
        esc(f, x->label);
        if (!x->ok) {
            fputs("</td><td colspan=\"9\">not read (see the run's "
                  "messages)</td></tr>\n", f);
            continue;
        }
        int mapped = 0;
        for (size_t i = 0; i < json_array_size(ks); i++)
            mapped += cg_cli_cmp_ii(cg_cli_cmp_find(
                          p->recs, json_array_get(ks, i), x->label)) > 0;
        const cg_cli_cost *c = &x->cost;
        fprintf(f, "</td><td>%.1f</td><td>%d</td><td>%.1f</td><td>%d</td>"
                "<td>%d</td><td>%d</td><td>%lld</td><td>%d of %zu</td>"
                "<td>%.3f</td></tr>\n", c->total, c->funcunits, c->fu_weight,
                c->muxes, c->mux_inputs, c->registers,
                (long long)c->mem_bytes, mapped, json_array_size(ks),
                cg_cli_cmp_throughput(p->recs, ks, x->label));
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

static void kernels_table(FILE *f, const page *p, const json_t *ks)
{
    fputs("<h2>Every kernel on every array</h2>\n<table>\n<tr><th>kernel"
          "</th><th class=\"l\">array</th><th class=\"l\">status</th>"
          "<th>II</th><th>MII</th>"
          "<th>proof</th><th>FuncUnits used</th><th>cycles</th>"
          "<th>DMA stall cycles</th><th>tiles</th><th>verified</th></tr>\n",
          f);
    for (size_t i = 0; i < json_array_size(ks); i++) {
        const json_t *k = json_array_get(ks, i);
        char kname[256];
        kernel_name(k, kname, sizeof kname);
        for (int a = 0; a < p->narr; a++) {
            const json_t *rec = cg_cli_cmp_find(p->recs, k, p->arr[a].label);
            if (!rec)
                continue;
            fputs("<tr><td>", f);
            esc(f, kname);
            fputs("</td><td class=\"l\">", f);
            esc(f, p->arr[a].label);
            fputs("</td><td class=\"l\">", f);
            esc(f, cg_cli_cmp_str(rec, "status"));
            fputs("</td>", f);
            cell_int(f, rec, "ii");
            cell_int(f, rec, "mii");
            fputs("<td>", f);
            esc(f, cg_cli_cmp_str(rec, "proof"));
            fputs("</td>", f);
            cell_int(f, rec, "funcunits");
            cell_int(f, rec, "cycles");
            cell_int(f, rec, "stalls");
            cell_int(f, rec, "tiles");
            fputs("<td>", f);
            esc(f, cg_cli_cmp_str(rec, "verified"));
            fputs("</td></tr>\n", f);
        }
    }
    fputs("</table>\n", f);
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
            "table{border-collapse:collapse;margin-bottom:1.5em}"
            "td,th{border:1px solid #bbb;padding:2px 8px;text-align:right}"
            "td{white-space:nowrap}"
            "td:first-child,th:first-child,td.l,th.l{text-align:left}"
            "svg{display:block;margin:1em 0}</style>\n</head>\n<body>\n"
            "<h1>%d array%s, %zu kernel%s</h1>\n<p>Every kernel mapped on "
            "every array with seed %u, %ld heuristic steps and %ld "
            "annealing moves per II and %d branch-and-bound nodes per ILP "
            "model, at most %g s per II",
            p->narr, p->narr == 1 ? "" : "s", nk, nk == 1 ? "" : "s",
            m->seed, m->heur_steps, m->nego_moves, m->ilp_nodes,
            m->timeout_s);
    if (m->time_limit_s > 0)
        fprintf(f, " and %g s per loop", m->time_limit_s);
    if (m->max_ii > 0)
        fprintf(f, ", II up to %d", m->max_ii);
    else
        fputs(", II up to twice the MII (at least 16)", f);
    fputs(". Two arrays compare by II when both rows are <em>optimal</em>."
          "</p>\n", f);
    arrays_table(f, p, ks);
    fputs("<h2>Charts</h2>\n", f);
    cg_cli_chart_ii(p->arr, p->narr, p->recs, f);
    cg_cli_chart_cycles(p->arr, p->narr, p->recs, f);
    cg_cli_chart_cost(p->arr, p->narr, p->recs, f);
    kernels_table(f, p, ks);
    fputs("<p>Cost: a proxy counted from the netlist in units of a 32-bit "
          "adder (docs/cli.md, \"Comparing arrays\"). Iterations per cycle: "
          "1/II, the steady state of the modulo schedule.</p>\n</body>\n"
          "</html>\n", f);
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
