/* compare_chart.c: the report's charts, SVG written here rather than by a
 * plotting program: grouped bars and one scatter plot take a few dozen
 * lines, need no dependency, and their geometry is tested
 * (tests/cli/test_compare.c).  Every bar and point carries data-kernel,
 * data-array and data-value attributes, so a test (or a script) reads the
 * figures back from the picture.
 *
 * An open row's II is only an upper bound (a lower II may still map), so
 * its bar must not look like an optimal one: it is hatched in its array's
 * colour, outlined, and the II chart marks the lowest II not ruled out
 * ("≥ L").  The scatter's points average settled rows only; an array with
 * open rows gets a hollow point and says how many it left out. */
#include "cli/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[] = {
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
    "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};
#define NCOLORS (int)(sizeof palette / sizeof palette[0])
#define GREY "#777"

void cg_cli_html_esc(FILE *f, const char *s)
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
#define esc cg_cli_html_esc

void cg_cli_cmp_kernel_name(const json_t *k, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", cg_cli_cmp_str(k, "benchmark"),
             cg_cli_cmp_str(k, "loop"));
}

/* ---- what a row settles ------------------------------------------------- */

int cg_cli_cmp_open_bound(const json_t *rec)
{
    const char *p = cg_cli_cmp_str(rec, "proof");
    if (strncmp(p, "open: II ", 9) != 0)
        return strncmp(p, "open", 4) == 0 ? 1 : 0;
    long v = strtol(p + 9, NULL, 10);
    return v > 0 && v < 1000 ? (int)v : 1;
}

bool cg_cli_cmp_settled(const json_t *rec)
{
    return rec && !cg_cli_cmp_open_bound(rec) &&
           strcmp(cg_cli_cmp_str(rec, "status"), "interrupted") != 0;
}

void cg_cli_cmp_summarize(const json_t *recs, const json_t *ks,
                          const char *label, cg_cli_cmp_sum *s)
{
    memset(s, 0, sizeof *s);
    double sum = 0;
    size_t i;
    json_t *k;
    json_array_foreach(ks, i, k) {
        const json_t *rec = cg_cli_cmp_find(recs, k, label);
        int ii = cg_cli_cmp_ii(rec);
        s->kernels++;
        s->mean_all += ii ? 1.0 / ii : 0;
        s->mapped += ii > 0;
        s->optimal += ii > 0 &&
                      strncmp(cg_cli_cmp_str(rec, "proof"), "optimal", 7) == 0;
        if (!cg_cli_cmp_settled(rec))
            continue;
        s->settled++;
        sum += ii ? 1.0 / ii : 0;
    }
    s->mean = s->settled ? sum / s->settled : 0;
    s->mean_all = s->kernels ? s->mean_all / s->kernels : 0;
}

/* ---- round axes --------------------------------------------------------- */

/* A round step (1, 2 or 5 times a power of ten) cutting 0..max into at
 * most about 5 parts; at least 1 for an axis of whole numbers. */
static double nice_step(double max, bool whole)
{
    static const double m[] = {1, 2, 5, 10};
    double raw = (max > 0 ? max : 1) / 5;
    double mag = pow(10, floor(log10(raw)));
    double step = 10 * mag;
    for (int i = 0; i < 4; i++)
        if (m[i] * mag >= raw - 1e-12) {
            step = m[i] * mag;
            break;
        }
    return whole && step < 1 ? 1 : step;
}

/* Decimals that print every multiple of step exactly. */
static int step_decimals(double step)
{
    return step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
}

/* ---- grouped bars ------------------------------------------------------- */

#define BAR_W 16
#define GROUP_GAP 28
#define LEFT 56
#define TOP 40
#define PLOT_H 200
#define BOTTOM 110   /* kernel names, written at 45 degrees */
#define MIN_W 640
#define LEGEND_W 300

typedef struct bars {
    const char *id;               /* "ii" or "cycles": the patterns' ids */
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

/* The hatching of array a's open bars (white and its colour at 45
 * degrees), and a grey one for the legend; ids are prefixed by the chart
 * so that the three charts can share one page. */
static void patterns(FILE *f, const char *id, int narr)
{
    fputs("<defs>\n", f);
    for (int a = 0; a <= narr; a++) {
        fprintf(f, "<pattern id=\"%s-open-", id);
        if (a < narr)
            fprintf(f, "%d", a);
        else
            fputs("key", f);
        fprintf(f, "\" width=\"6\" height=\"6\" patternUnits=\"userSpace"
                "OnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" "
                "height=\"6\" fill=\"#fff\"/><rect width=\"3\" height=\"6\" "
                "fill=\"%s\"/></pattern>\n",
                a < narr ? palette[a % NCOLORS] : GREY);
    }
    fputs("</defs>\n", f);
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

/* Solid against hatched, under the arrays' colours. */
static void legend_proof(FILE *f, const bars *b, int narr, double x)
{
    double y = TOP + 14 * narr + 10;
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" "
            "fill=\"" GREY "\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">"
            "solid: optimal II</text>\n", x, y, x + 14, y + 9);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" "
            "fill=\"url(#%s-open-key)\" stroke=\"" GREY "\"/><text x=\"%.1f\""
            " y=\"%.1f\" font-size=\"11\">hatched: open, a lower II may map"
            "</text>\n", x, y + 14, b->id, x + 14, y + 23);
    if (!b->per_group)
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">&#8805; L:"
                " the least II is at least L</text>\n", x, y + 37);
}

/* The y axis of a common scale: round ticks up to top. */
static void y_axis(FILE *f, long long top, double step, const char *what)
{
    for (double v = 0; v <= top + 1e-9; v += step) {
        double y = TOP + PLOT_H - PLOT_H * v / (double)top;
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
                "stroke=\"#ccc\"/><text class=\"tick\" x=\"%d\" y=\"%.1f\" "
                "font-size=\"10\" text-anchor=\"end\">%.0f</text>\n",
                LEFT - 4, LEFT, y, y, LEFT - 6, y + 3, v);
    }
    fprintf(f, "<text x=\"12\" y=\"%d\" font-size=\"11\" transform=\"rotate"
            "(-90 12 %d)\" text-anchor=\"middle\">%s</text>\n",
            TOP + PLOT_H / 2, TOP + PLOT_H / 2, what);
}

/* Where a bar cannot be drawn: a red cross where the kernel did not map,
 * a grey dash where it mapped but has no such figure (no schedule). */
static void no_bar(FILE *f, const json_t *rec, double x)
{
    bool mapped = cg_cli_cmp_ii(rec) > 0;
    fprintf(f, "<text class=\"%s\" x=\"%.1f\" y=\"%d\" font-size=\"12\" "
            "text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
            mapped ? "nodata" : "none", x + BAR_W / 2.0, TOP + PLOT_H - 2,
            mapped ? GREY : "#c00", mapped ? "&#8211;" : "&#215;");
}

/* The "≥ L" mark of an open bar on the II scale: a dashed line at L and
 * the bound written above the bar. */
static void bound_mark(FILE *f, int bound, long long scale, double x,
                       double top_y)
{
    double y = TOP + PLOT_H - (double)PLOT_H * bound / scale;
    fprintf(f, "<line class=\"bound\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
            "y2=\"%.1f\" stroke=\"#000\" stroke-dasharray=\"3 2\"/>"
            "<text class=\"bound\" x=\"%.1f\" y=\"%.1f\" font-size=\"9\" "
            "text-anchor=\"middle\">&#8805;%d</text>\n", x - 2, x + BAR_W + 2,
            y, y, x + BAR_W / 2.0, top_y - 3, bound);
}

/* One bar of kernel kname on array a. */
static void bar(FILE *f, const bars *b, const json_t *rec, long long scale,
                double x, const char *kname, const cg_cli_array *arr, int a)
{
    long long v = bar_value(rec, b->key);
    if (!v) {
        no_bar(f, rec, x);
        return;
    }
    int bound = cg_cli_cmp_open_bound(rec);
    double h = (double)PLOT_H * v / scale, y = TOP + PLOT_H - h;
    fprintf(f, "<rect class=\"%s\" data-kernel=\"", bound ? "bar open"
                                                           : "bar");
    esc(f, kname);
    fputs("\" data-array=\"", f);
    esc(f, arr[a].label);
    fprintf(f, "\" data-value=\"%lld\"", v);
    if (bound)
        fprintf(f, " data-bound=\"%d\" fill=\"url(#%s-open-%d)\" stroke=\""
                "%s\" stroke-width=\"1.5\"", bound, b->id, a,
                palette[a % NCOLORS]);
    else
        fprintf(f, " fill=\"%s\"", palette[a % NCOLORS]);
    fprintf(f, " x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%.1f\"><title>",
            x, y, BAR_W, h);
    esc(f, kname);
    fputs(" on ", f);
    esc(f, arr[a].label);
    fprintf(f, ": %s %lld, ", b->key, v);
    esc(f, cg_cli_cmp_str(rec, "proof"));
    fputs("</title></rect>\n", f);
    if (bound && !b->per_group)
        bound_mark(f, bound, scale, x, y);
    if (b->per_group) /* bars on scales of their own: the figure is written */
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" "
                "transform=\"rotate(-90 %.1f %.1f)\">%lld</text>\n",
                x + BAR_W / 2.0 + 3, TOP + PLOT_H - 3.0, x + BAR_W / 2.0 + 3,
                TOP + PLOT_H - 3.0, v);
}

/* The kernels' bars, each group with its name below. */
static void bar_groups(FILE *f, const bars *b, const cg_cli_array *arr,
                       int narr, const json_t *recs, const json_t *ks,
                       long long top)
{
    double group = narr * BAR_W + GROUP_GAP;
    for (size_t i = 0; i < json_array_size(ks); i++) {
        const json_t *k = json_array_get(ks, i);
        char kname[256];
        cg_cli_cmp_kernel_name(k, kname, sizeof kname);
        double x0 = LEFT + GROUP_GAP + (double)i * group;
        long long scale = b->per_group ? group_max(arr, narr, recs, k,
                                                   b->key) : top;
        for (int a = 0; a < narr; a++)
            bar(f, b, cg_cli_cmp_find(recs, k, arr[a].label),
                scale ? scale : 1, x0 + a * BAR_W, kname, arr, a);
        double cx = x0 + narr * BAR_W / 2.0;
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" "
                "text-anchor=\"end\" transform=\"rotate(-45 %.1f %d)\">",
                cx, TOP + PLOT_H + 14, cx, TOP + PLOT_H + 14);
        esc(f, kname);
        fputs("</text>\n", f);
    }
}

static void bar_chart(const bars *b, const cg_cli_array *arr, int narr,
                      const json_t *recs, FILE *f)
{
    json_t *ks = cg_cli_cmp_kernels(recs);
    int nk = (int)json_array_size(ks);
    double plot_w = nk * (narr * BAR_W + GROUP_GAP) + GROUP_GAP;
    int w = LEFT + (int)ceil(plot_w) + LEGEND_W, h = TOP + PLOT_H + BOTTOM;
    w = w < MIN_W ? MIN_W : w; /* room for the title */
    long long max = 1;
    for (int i = 0; i < nk; i++) {
        long long m = group_max(arr, narr, recs, json_array_get(ks, i),
                                b->key);
        max = m > max ? m : max;
    }
    double step = nice_step((double)max, true);
    long long top = (long long)(ceil((double)max / step) * step);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
            "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\">\n<text x=\"%d\" y=\"20\" "
            "font-size=\"14\" font-weight=\"bold\">%s</text>\n", w, h, w, h,
            LEFT, b->title);
    patterns(f, b->id, narr);
    if (!b->per_group)
        y_axis(f, top, step, b->what);
    fprintf(f, "<line x1=\"%d\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
            "stroke=\"#000\"/>\n", LEFT, LEFT + plot_w, TOP + PLOT_H,
            TOP + PLOT_H);
    bar_groups(f, b, arr, narr, recs, ks, top);
    legend(f, arr, narr, LEFT + plot_w + 16);
    legend_proof(f, b, narr, LEFT + plot_w + 16);
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
    bars b = {"ii", "II per kernel (lower is better; × = not mapped)",
              "II (cycles per iteration)", "ii", false};
    cg_cli_array ok[CG_CLI_MAX_ARRAYS];
    bar_chart(&b, ok, read_arrays(arr, narr, ok), recs, out);
}

void cg_cli_chart_cycles(const cg_cli_array *arr, int narr,
                         const json_t *recs, FILE *out)
{
    bars b = {"cycles", "Cycles per kernel with DMA (each kernel on its own "
              "scale; – = no schedule)", "cycles", "cycles", true};
    cg_cli_array ok[CG_CLI_MAX_ARRAYS];
    bar_chart(&b, ok, read_arrays(arr, narr, ok), recs, out);
}

/* ---- cost against throughput -------------------------------------------- */

#define SC_W 420
#define SC_H 260

typedef struct axis {
    double step, top;
    int decimals;
} axis;

/* A round axis from 0 past max: the top one step above the last tick
 * that max reaches, so no point sits on the frame. */
static axis axis_of(double max)
{
    axis x;
    x.step = nice_step(max, false);
    x.top = (floor(max / x.step + 1e-9) + 1) * x.step;
    x.decimals = step_decimals(x.step);
    return x;
}

/* What the scatter's x axis is: the area when every array has one, else
 * the cost proxy. */
typedef struct xmetric {
    bool area;
    const char *name;     /* the axis's title */
} xmetric;

static double x_of(const xmetric *m, const cg_cli_array *x)
{
    return m->area ? x->area.nand2 : x->cost.total;
}

static void scatter_axes(FILE *f, const axis *ax, const axis *ay,
                         const xmetric *m)
{
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
            "fill=\"none\" stroke=\"#000\"/>\n", LEFT, TOP, SC_W, SC_H);
    for (double v = 0; v <= ax->top + ax->step / 2; v += ax->step)
        fprintf(f, "<text class=\"tick x\" x=\"%.1f\" y=\"%d\" font-size="
                "\"10\" text-anchor=\"middle\">%.*f</text>\n",
                LEFT + SC_W * v / ax->top, TOP + SC_H + 14, ax->decimals, v);
    for (double v = 0; v <= ay->top + ay->step / 2; v += ay->step)
        fprintf(f, "<text class=\"tick y\" x=\"%d\" y=\"%.1f\" font-size="
                "\"10\" text-anchor=\"end\">%.*f</text>\n", LEFT - 4,
                TOP + SC_H - SC_H * v / ay->top + 3, ay->decimals, v);
    fprintf(f, "<text class=\"axis x\" x=\"%d\" y=\"%d\" font-size=\"11\" "
            "text-anchor=\"middle\">%s</text><text x=\"12\" y=\"%d\" "
            "font-size=\"11\" text-anchor=\"middle\" transform=\"rotate(-90 "
            "12 %d)\">mean iterations per cycle, settled kernels</text>\n",
            LEFT + SC_W / 2, TOP + SC_H + 32, m->name, TOP + SC_H / 2,
            TOP + SC_H / 2);
}

/* Label boxes placed so far, so that no two overlap. */
typedef struct placed {
    double x0, x1, y;
} placed;

/* The point's label beside it (left of it near the right edge), moved
 * down a line while it would cover a label already placed. */
static void point_label(FILE *f, const char *text, double cx, double cy,
                        placed *done, int n)
{
    double w = 6.2 * (double)strlen(text);
    bool left = cx + 8 + w > LEFT + SC_W;
    double x0 = left ? cx - 8 - w : cx + 8, y = cy + 4;
    for (int again = 1; again;) {
        again = 0;
        for (int i = 0; i < n; i++)
            if (fabs(done[i].y - y) < 12 && x0 < done[i].x1 &&
                done[i].x0 < x0 + w) {
                y = done[i].y + 12;
                again = 1;
            }
    }
    done[n] = (placed){x0, x0 + w, y};
    fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\""
            ">", x0, y);
    esc(f, text);
    fputs("</text>\n", f);
}

/* Array a's point: filled when every kernel settled, hollow when some
 * are open (the mean leaves them out; the label says how many). */
static void point(FILE *f, const cg_cli_array *x, int a,
                  const cg_cli_cmp_sum *s, const axis *ax, const axis *ay,
                  const xmetric *m, placed *done)
{
    int open = s->kernels - s->settled;
    double y = s->settled ? s->mean : s->mean_all;
    double cx = LEFT + SC_W * x_of(m, x) / ax->top;
    double cy = TOP + SC_H - SC_H * y / ay->top;
    char what[128];
    if (x->area.ok)
        snprintf(what, sizeof what, "area %.0f NAND2-eq, cost %.1f",
                 x->area.nand2, x->cost.total);
    else
        snprintf(what, sizeof what, "cost %.1f", x->cost.total);
    fputs("<circle class=\"point\" data-array=\"", f);
    esc(f, x->label);
    fprintf(f, "\" data-cost=\"%.1f\" ", x->cost.total);
    if (x->area.ok)
        fprintf(f, "data-area=\"%.0f\" ", x->area.nand2);
    fprintf(f, "data-value=\"%.4f\" data-open=\"%d\" "
            "cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" stroke=\"%s\" "
            "stroke-width=\"2\"><title>", y, open, cx,
            cy, open ? "#fff" : palette[a % NCOLORS], palette[a % NCOLORS]);
    esc(f, x->label);
    if (s->settled)
        fprintf(f, ": %s, %.3f iterations per cycle over %d settled "
                "kernel%s, %d open", what, y, s->settled,
                s->settled == 1 ? "" : "s", open);
    else /* an open II may only go down: the mean can only go up */
        fprintf(f, ": %s, no kernel settled; at least %.3f "
                "iterations per cycle", what, y);
    fputs("</title></circle>\n", f);
    char text[300];
    if (!s->settled)
        snprintf(text, sizeof text, "%s (all open: at least)", x->label);
    else if (open)
        snprintf(text, sizeof text, "%s (%d open)", x->label, open);
    else
        snprintf(text, sizeof text, "%s", x->label);
    point_label(f, text, cx, cy, done, a);
}

/* Under the title, when --area was given and an array has none: which,
 * and that the proxy is plotted instead. */
static void no_area_note(FILE *f, const cg_cli_array *arr, int narr,
                         const xmetric *m)
{
    int missing = -1;
    for (int a = 0; a < narr && missing < 0; a++)
        if (arr[a].area.asked && !arr[a].area.ok)
            missing = a;
    if (m->area || missing < 0)
        return;
    char why[1200];
    cg_cli_area_text(&arr[missing].area, why, sizeof why);
    fprintf(f, "<text class=\"note\" x=\"%d\" y=\"34\" font-size=\"11\">"
            "the cost proxy is plotted: area of ", LEFT);
    esc(f, arr[missing].label);
    fputs(" ", f);
    esc(f, why);
    fputs("</text>\n", f);
}

void cg_cli_chart_cost(const cg_cli_array *all, int nall, const json_t *recs,
                       FILE *f)
{
    cg_cli_array arr[CG_CLI_MAX_ARRAYS];
    cg_cli_cmp_sum sum[CG_CLI_MAX_ARRAYS];
    placed done[CG_CLI_MAX_ARRAYS];
    int narr = read_arrays(all, nall, arr);
    json_t *ks = cg_cli_cmp_kernels(recs);
    xmetric m = {narr > 0, NULL};
    for (int a = 0; a < narr; a++)
        m.area &= arr[a].area.ok;
    m.name = m.area ? "area (NAND2-equivalents, yosys generic cells)"
                    : "cost proxy (32-bit adders)";
    double cmax = 1, tmax = 0;
    for (int a = 0; a < narr; a++) {
        cg_cli_cmp_summarize(recs, ks, arr[a].label, &sum[a]);
        cmax = fmax(cmax, x_of(&m, &arr[a]));
        tmax = fmax(tmax, fmax(sum[a].mean, sum[a].mean_all));
    }
    axis ax = axis_of(cmax), ay = axis_of(tmax > 0 ? tmax : 1);
    int w = LEFT + SC_W + LEGEND_W, h = TOP + SC_H + 50;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
            "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\">\n<text x=\"%d\" y=\"20\" "
            "font-size=\"14\" font-weight=\"bold\">%s against throughput"
            " (up and left is better)</text>\n", w, h, w, h, LEFT,
            m.area ? "Area" : "Cost");
    no_area_note(f, arr, narr, &m);
    scatter_axes(f, &ax, &ay, &m);
    for (int a = 0; a < narr; a++)
        point(f, &arr[a], a, &sum[a], &ax, &ay, &m, done);
    legend(f, arr, narr, LEFT + SC_W + 16);
    double y = TOP + 14 * narr + 10, x = LEFT + SC_W + 16;
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#fff\" "
            "stroke=\"" GREY "\" stroke-width=\"2\"/><text x=\"%.1f\" y=\""
            "%.1f\" font-size=\"11\">hollow: open kernels left out</text>\n",
            x + 5, y + 5, x + 14, y + 9);
    fputs("</svg>\n", f);
    json_decref(ks);
}
