/* test_compare.c: the main job on several arrays (`--arch a --arch b`), a
 * sweep of one array's <architecture> attributes (--param) and the HTML
 * report (--report): the table's shape and what must hold in it (the same
 * kernels on every array, II >= MII, each array's cost as counted by
 * hand), the JSON and CSV rows naming their array, the charts' geometry
 * read back from the SVG (one bar per kernel per array, inside the
 * viewBox, heights on the scale the chart says), an array that cannot be
 * read, bad --param values, each array's --mapping-dir folder, and a
 * screenshot of the page by Chromium (found at configure time; without it
 * the test fails); --area's figures, equal to `cgramap area`'s, in the
 * terminal, the page and the cost chart, and its n/a without yosys.  sum
 * and dot map at their MII (II 1) within a
 * few hundred steps, so every figure asserted is the same on any
 * machine. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <sys/stat.h>

#include "json_rows.h"
#include "chart_check.h"

#define A4 "benchmarks/archs/default_4x4.xml"
#define A6 "benchmarks/archs/default_6x6.xml"
#define SUM "benchmarks/microbench/sum"
#define DOT "benchmarks/microbench/dot"
#define HIST "benchmarks/microbench/histogram"

static char tmp[64];

static int setup(void **state)
{
    (void)state;
    strcpy(tmp, "/tmp/cg_compareXXXXXX");
    return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    return system(cmd);
}

static const char *in_tmp(const char *name)
{
    static char p[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", tmp, name);
    return p[k];
}

/* The lines of the comparison table (after its title, up to the blank
 * line) into rows; their number. */
static int table_rows(const char *out, char rows[][256], int max)
{
    const char *s = strstr(out, "\ncomparison of ");
    assert_non_null(s);
    s = strchr(s + 1, '\n') + 1; /* the title */
    s = strchr(s, '\n') + 1;     /* the header */
    int n = 0;
    while (*s && *s != '\n' && n < max) {
        size_t len = strcspn(s, "\n");
        snprintf(rows[n++], 256, "%.*s", (int)len, s);
        s += len + 1;
    }
    return n;
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static long long num(const json_t *o, const char *key)
{
    return json_integer_value(json_object_get(o, key));
}

/* ---- the SVG charts (chart_check.h reads them) ------------------------ */

/* The record of kernel/array in recs. */
static const json_t *rec_of(const json_t *recs, const char *kernel,
                            const char *array)
{
    size_t i;
    json_t *r;
    json_array_foreach(recs, i, r) {
        char k[128];
        snprintf(k, sizeof k, "%s/%s", str(r, "benchmark"), str(r, "loop"));
        if (!strcmp(k, kernel) && !strcmp(str(r, "arch"), array))
            return r;
    }
    fail_msg("no record of %s on %s", kernel, array);
    return NULL;
}

/* ii.svg: one bar per kernel per array, inside the viewBox, its value the
 * record's II, all on one scale (height / II the same). */
static void check_ii_chart(const char *dir, const json_t *recs)
{
    shape b[16];
    double vw, vh;
    char path[256];
    snprintf(path, sizeof path, "%s/ii.svg", dir);
    int n = svg_shapes(path, "//s:rect[contains(@class,'bar')]", b, 16, &vw,
                       &vh);
    assert_int_equal(n, 4);
    double max = 0;
    for (int i = 0; i < n; i++)
        max = fmax(max, b[i].value);
    check_round_ticks(path, "//s:text[@class='tick']", max);
    char ticks[32][64]; /* the bars' scale ends at the last tick */
    double top = atof(ticks[svg_texts(path, "//s:text[@class='tick']",
                                      ticks, 32) - 1]);
    for (int i = 0; i < n; i++) {
        assert_string_equal(b[i].cls, "bar"); /* all at their MII */
        inside(&b[i], vw, vh);
        assert_true(fabs(b[i].h - 200 * b[i].value / top) < 0.01);
        assert_true(b[i].value == num(rec_of(recs, b[i].kernel, b[i].array),
                                      "ii"));
        assert_true(fabs(b[i].h / b[i].value - b[0].h / b[0].value) < 0.01);
        for (int j = 0; j < i; j++) /* each pair once */
            assert_false(!strcmp(b[i].kernel, b[j].kernel) &&
                         !strcmp(b[i].array, b[j].array));
    }
    /* grouped by kernel: the two bars of a kernel side by side */
    assert_string_equal(b[0].kernel, b[1].kernel);
    assert_true(fabs(b[1].x - (b[0].x + b[0].w)) < 0.01);
    assert_string_not_equal(b[1].kernel, b[2].kernel);
}

/* cycles.svg: each kernel on its own scale, its slowest array full
 * height (200). */
static void check_cycles_chart(const char *dir, const json_t *recs)
{
    shape b[16];
    double vw, vh;
    char path[256];
    snprintf(path, sizeof path, "%s/cycles.svg", dir);
    int n = svg_shapes(path, "//s:rect[contains(@class,'bar')]", b, 16, &vw,
                       &vh);
    assert_int_equal(n, 4);
    for (int i = 0; i < n; i += 2) {
        inside(&b[i], vw, vh);
        inside(&b[i + 1], vw, vh);
        assert_string_equal(b[i].kernel, b[i + 1].kernel);
        int hi = b[i].value >= b[i + 1].value ? i : i + 1;
        assert_true(fabs(b[hi].h - 200) < 0.01);
        assert_true(fabs(b[2 * i + 1 - hi].h -
                         200 * b[2 * i + 1 - hi].value / b[hi].value) < 0.1);
        assert_true(b[i].value == num(rec_of(recs, b[i].kernel, b[i].array),
                                      "cycles"));
    }
}

/* cost.svg: a point per array, its cost as counted, the cheaper left,
 * each named beside it; round ticks on both axes. */
static void check_cost_chart(const char *dir)
{
    shape p[4];
    double vw, vh;
    char path[256], labels[4][64];
    snprintf(path, sizeof path, "%s/cost.svg", dir);
    int n = svg_shapes(path, "//s:circle[@class='point']", p, 4, &vw, &vh);
    assert_int_equal(n, 2);
    assert_string_equal(p[0].array, "default_4x4.xml");
    assert_string_equal(p[1].array, "default_6x6.xml");
    inside(&p[0], vw, vh);
    inside(&p[1], vw, vh);
    assert_true(p[0].x < p[1].x);
    assert_true(p[0].value == 1.0 && p[1].value == 1.0); /* both at II 1 */
    assert_true(fabs(p[0].y - p[1].y) < 0.01);
    assert_int_equal(svg_texts(path, "//s:text[@class='label']", labels, 4),
                     2);
    assert_string_equal(labels[0], "default_4x4.xml");
    assert_string_equal(labels[1], "default_6x6.xml");
    check_round_ticks(path, "//s:text[@class='tick x']", 874.0);
    check_round_ticks(path, "//s:text[@class='tick y']", 1.0);
}

#ifdef CG_CHROMIUM
/* Write page (HTML) as abs/name.html and have Chromium take its
 * screenshot, w x h CSS pixels at one pixel each, into abs/name.png;
 * that path in png. */
static void shot(const char *abs, const char *name, const char *page,
                 int w, int h, char *png, size_t cap)
{
    char html[PATH_MAX + 16], cmd[3 * PATH_MAX];
    snprintf(html, sizeof html, "%s/%s.html", abs, name);
    snprintf(png, cap, "%s/%s.png", abs, name);
    FILE *f = fopen(html, "w");
    assert_non_null(f);
    fputs(page, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' --headless --no-sandbox --disable-gpu "
             "--hide-scrollbars --force-device-scale-factor=1 "
             "--window-size=%d,%d --screenshot='%s' 'file://%s' "
             ">/dev/null 2>&1", CG_CHROMIUM, w, h, png, html);
    assert_int_equal(system(cmd), 0);
}
#endif

/* Chromium renders the page: its screenshot is no blank page's.  Without
 * Chromium the check fails and says why: a report nobody looked at is not
 * a report checked. */
static void check_screenshot(const char *dir)
{
#ifdef CG_CHROMIUM
    char abs[PATH_MAX], png[PATH_MAX + 16], *page;
    size_t n;
    assert_non_null(realpath(dir, abs));
    snprintf(png, sizeof png, "%s/index.html", abs);
    assert_non_null(page = cg_slurp(png, &n));
    const char *pages[2] = {page, "<!DOCTYPE html><html><body></body>"
                                  "</html>\n"};
    long size[2];
    for (int i = 0; i < 2; i++) {
        shot(abs, i ? "blank" : "page", pages[i], 1100, 1900, png,
             sizeof png);
        struct stat st;
        assert_int_equal(stat(png, &st), 0);
        size[i] = (long)st.st_size;
    }
    free(page);
    /* tables, charts and text compress far worse than white */
    if (size[0] <= 5 * size[1])
        fail_msg("screenshot of the report: %ld bytes, of a blank page: %ld",
                 size[0], size[1]);
#else
    (void)dir;
    fail_msg("no chromium at configure time, so the report page's "
             "screenshot cannot be taken: install it (scripts/setup.sh "
             "does) and configure again");
#endif
}

static void test_two_arrays(void **state)
{
    (void)state;
    const char *json = in_tmp("c.json"), *csv = in_tmp("c.csv");
    const char *dir = in_tmp("report");
    const char *args[] = {"--arch", A4, "--arch", A6, "--steps", "300",
                          "--max-ii", "2", "--json", json, "--csv", csv,
                          "--report", dir, SUM, DOT, NULL};
    run r;
    run_cgramap(&r, args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\narray default_4x4.xml: cost 414.0\n"));
    assert_non_null(strstr(r.out, "\narray default_6x6.xml: cost 874.0\n"));
    assert_non_null(strstr(r.out, "\ncomparison of 2 arrays on 2 loops "
                                  "(same seed and limits on each)\n"));
    char rows[8][256];
    assert_int_equal(table_rows(r.out, rows, 8), 4);
    for (int i = 0; i < 4; i++) {
        char k[64], a[64];
        int ii, mii;
        assert_int_equal(sscanf(rows[i], "%63s %63s %d %d", k, a, &ii, &mii),
                         4);
        assert_string_equal(k, i < 2 ? "sum/sum" : "dot/dot");
        assert_string_equal(a, i % 2 ? "default_6x6.xml" : "default_4x4.xml");
        assert_true(ii >= mii);
    }
    assert_non_null(strstr(r.out, "\ndefault_4x4.xml             414.0   16 "
                                  "   240.0    80    472    16     16384   "
                                  "2/2 "));
    assert_non_null(strstr(r.out, "\ndefault_6x6.xml             874.0   36 "
                                  "   540.0   168    984    36     16384   "
                                  "2/2 "));
    json_error_t e;
    json_t *recs = json_load_file(json, 0, &e);
    assert_non_null(recs);
    assert_int_equal(json_array_size(recs), 4);
    size_t i;
    json_t *x;
    json_array_foreach(recs, i, x) {
        assert_string_equal(str(x, "arch"), i < 2 ? "default_4x4.xml"
                                                  : "default_6x6.xml");
        assert_string_equal(str(x, "loop"), i % 2 ? "dot" : "sum");
        assert_true(num(x, "ii") >= num(x, "mii"));
        /* one DMA channel: busy at most the schedule's length, and the
         * table's DMA cycles column is this field */
        assert_true(num(x, "dma_cycles") > 0 &&
                    num(x, "dma_cycles") <= num(x, "cycles"));
        char cell[64];
        snprintf(cell, sizeof cell, " %10lld %10lld %10lld ",
                 num(x, "cycles"), num(x, "dma_cycles"), num(x, "stalls"));
        assert_non_null(strstr(r.out, cell));
    }
    char text[4096];
    slurp(csv, text, sizeof text);
    assert_int_equal(strncmp(text, "\"arch\",\"benchmark\",\"file\",", 26), 0);
    assert_non_null(strstr(text, "\r\n\"default_6x6.xml\",\"dot\","));
    static char page[1 << 16];
    char index[256];
    snprintf(index, sizeof index, "%s/index.html", dir);
    slurp(index, page, sizeof page);
    /* the search and the limits every row was mapped under, as the
       options set them */
    assert_non_null(strstr(
        page, "<p>Every kernel mapped on every array with --mapper auto, "
              "seed 1 and, per II, 300 heuristic steps, 100000 annealing "
              "moves, 60000 SAT conflicts (schedules up to 4 cycles longer "
              "than the shortest) and, where the SAT model would have more "
              "than 20000000 routing literals, 5000 branch-and-bound nodes "
              "per ILP model; for DFGs of more than 48 nodes, 300 steps, "
              "400000 moves, 2000 conflicts where the SAT model has more "
              "than 300000 routing literals, 30000 at the first II the "
              "bounds leave when the RecMII is above the ResMII; at an II "
              "that SAT leaves undecided (below the mapped one, or any when "
              "none maps), a DFG of at most 48 nodes gets 2 more runs of the "
              "heuristic and the annealer (800000 moves each) under a cap of "
              "their own, a larger one 1 more run with its own limits at "
              "each II below the mapped one; 60 s per II (300 s for DFGs of "
              "more than 48 nodes), II up to 2. "));
    int svgs = 0;
    for (const char *s = page; (s = strstr(s, "<svg ")); s++)
        svgs++;
    assert_int_equal(svgs, 3);
    check_ii_chart(dir, recs);
    check_cycles_chart(dir, recs);
    check_cost_chart(dir);
    check_screenshot(dir);
    json_decref(recs);
}

/* Chromium draws ii.svg alone, one pixel per SVG unit, and an open bar
 * must not look like an optimal one: the optimal bar is one colour (95%
 * of its inner pixels or more), the open bar hatched (its main colour on
 * less than 75%, white on a fifth or more).  Both bars are of one array,
 * in one colour, so only the hatching can tell them apart. */
static void check_bars_look_apart(const char *dir, const shape *open,
                                  const shape *opt, double vw, double vh)
{
#if defined(CG_CHROMIUM) && defined(CG_PNG)
    char abs[PATH_MAX], png[PATH_MAX + 16];
    assert_non_null(realpath(dir, abs));
    shot(abs, "bars", "<!DOCTYPE html><html><body style=\"margin:0\"><img "
         "src=\"ii.svg\" style=\"display:block\"></body></html>\n",
         (int)vw, (int)vh, png, sizeof png);
    int w, h;
    uint8_t *px = png_rgba(png, &w, &h);
    bar_look a = bar_pixels(px, w, h, open), b = bar_pixels(px, w, h, opt);
    free(px);
    if (!(b.main >= 0.95 && a.main < 0.75 && a.white >= 0.2))
        fail_msg("%s: the open bar and the optimal bar look alike: main "
                 "colour on %.0f%% and %.0f%% of their pixels, white on "
                 "%.0f%% and %.0f%%", png, 100 * a.main, 100 * b.main,
                 100 * a.white, 100 * b.white);
#else
    (void)dir, (void)open, (void)opt, (void)vw, (void)vh;
    fail_msg("no chromium or libpng at configure time, so the report's "
             "bars cannot be looked at: install them (scripts/setup.sh "
             "does) and configure again");
#endif
}

/* sum mapped at II 2 with II 1 not tried is open; histogram at its MII 2
 * is optimal.  The report sets the open row apart everywhere: a hatched,
 * outlined bar with its bound (>= 1) marked, that a screenshot tells from
 * the optimal one; a hollow point whose mean leaves it out and whose
 * label counts it; its row marked in the table, with the terminal's
 * columns, and linked to its reason. */
static void test_open_rows(void **state)
{
    (void)state;
    const char *dir = in_tmp("oreport"), *json = in_tmp("open.json");
    const char *args[] = {"--arch", A4, "--ii", "2", "--steps", "300",
                          "--json", json, "--report", dir, SUM, HIST, NULL};
    run r;
    run_cgramap(&r, args);
    assert_int_equal(r.status, 0);
    /* the terminal's summary as the page's: the mean over the settled
     * kernel (histogram, 1/2), sum counted open beside it */
    assert_non_null(strstr(r.out, "\narray                        cost  FUs"
                                  "    op wt muxes mux in  regs mem bytes "
                                  "mapped  optimal  open iter/cycle\n"
                                  "default_4x4.xml             414.0   16 "
                                  "   240.0    80    472    16     16384   "
                                  "2/2         1     1      0.500\n"));
    json_error_t e;
    json_t *recs = json_load_file(json, 0, &e);
    assert_non_null(recs);
    const json_t *sum = json_array_get(recs, 0);
    assert_string_equal(str(sum, "proof"), "open: II 1");
    assert_string_equal(str(json_array_get(recs, 1), "proof"), "optimal");
    char path[256], text[4][64];
    shape b[4];
    double vw, vh;
    snprintf(path, sizeof path, "%s/ii.svg", dir);
    assert_int_equal(svg_shapes(path, "//s:rect[contains(@class,'bar')]", b,
                                4, &vw, &vh), 2);
    assert_string_equal(b[0].kernel, "sum/sum");
    assert_string_equal(b[0].cls, "bar open");
    assert_true(b[0].bound == 1 && b[0].value == 2);
    assert_string_equal(b[1].cls, "bar");
    assert_true(b[1].bound == 0 && b[1].value == 2);
    assert_int_equal(svg_texts(path, "//s:text[@class='bound']", text, 4), 1);
    assert_string_equal(text[0], "\xe2\x89\xa5" "1");
    snprintf(path, sizeof path, "%s/cost.svg", dir);
    shape p[2];
    assert_int_equal(svg_shapes(path, "//s:circle[@class='point']", p, 2,
                                &vw, &vh), 1);
    assert_true(p[0].value == 0.5); /* histogram's 1/2; sum left out */
    assert_int_equal(svg_texts(path, "//s:text[@class='label']", text, 4), 1);
    assert_string_equal(text[0], "default_4x4.xml (1 open)");
    static char page[1 << 16];
    snprintf(path, sizeof path, "%s/index.html", dir);
    slurp(path, page, sizeof page);
    assert_non_null(strstr(page, "<td>2 of 2</td><td>1</td><td>1</td>"
                                 "<td>0.500 over 1</td></tr>"));
    char want[1024];
    snprintf(want, sizeof want, "<tr class=\"open\"><td>sum/sum</td><td "
             "class=\"l\">default_4x4.xml</td><td class=\"l\">mapped</td>"
             "<td>2</td><td>1</td><td class=\"l\"><a href=\"#open-1\">open: "
             "II 1</a></td><td>0.500</td><td>%lld/16</td><td>%.0f%%</td>"
             "<td>%lld</td><td>%lld</td><td>%lld</td><td>1</td><td>yes</td>"
             "</tr>", num(sum, "funcunits"),
             100 * json_number_value(json_object_get(sum, "fu_util")),
             num(sum, "cycles"), num(sum, "dma_cycles"), num(sum, "stalls"));
    assert_non_null(strstr(page, want));
    snprintf(want, sizeof want, "<li id=\"open-1\"><b>sum/sum on "
             "default_4x4.xml</b>: %s</li>", str(sum, "proof_hint"));
    assert_non_null(strstr(page, want));
    snprintf(path, sizeof path, "%s/ii.svg", dir);
    double w0, h0;
    svg_shapes(path, "//s:rect[contains(@class,'bar')]", b, 4, &w0, &h0);
    check_bars_look_apart(dir, &b[0], &b[1], w0, h0);
    json_decref(recs);
}

/* Two --param: their product, the first varying slowest, each named by
 * its values; the instances whose stamp does not tile are not read, the
 * others run, the exit status is 1. */
static void test_sweep(void **state)
{
    (void)state;
    const char *json = in_tmp("s.json");
    const char *args[] = {"--arch", A4, "--param", "cgra-rows=2,3",
                          "--param", "cgra-cols=4,3", "--steps", "300",
                          "--max-ii", "2", "--json", json, "--mapping-dir",
                          in_tmp("maps"), SUM, NULL};
    run r;
    run_cgramap(&r, args);
    assert_int_equal(r.status, 1);
    struct stat st; /* each array's mappings in a folder of its own */
    assert_int_equal(stat(in_tmp("maps/default_4x4.xml[cgra-rows=3,"
                                 "cgra-cols=4]/sum.sum.txt"), &st), 0);
    const char *want[] = {
        "\narray default_4x4.xml[cgra-rows=2,cgra-cols=4]: cost 217.0\n",
        ("\narray default_4x4.xml[cgra-rows=2,cgra-cols=3]: not read (the "
         "messages below say why); its loops are not run\n"),
        "\narray default_4x4.xml[cgra-rows=3,cgra-cols=4]: cost 315.5\n",
        "\narray default_4x4.xml[cgra-rows=3,cgra-cols=3]: not read",
    };
    const char *at = r.out;
    for (int i = 0; i < 4; i++) {
        const char *s = strstr(at, want[i]);
        if (!s)
            fail_msg("missing, or out of order: %s", want[i]);
        at = s + 1;
    }
    assert_string_equal(r.err,
        A4 ":41: error: the 1x4 <interior> stamp does not tile the 2x3 "
        "interior; pick a size that divides it\n"
        A4 ":41: error: the 1x4 <interior> stamp does not tile the 3x3 "
        "interior; pick a size that divides it\n");
    char rows[8][256];
    assert_int_equal(table_rows(r.out, rows, 8), 2);
    assert_non_null(strstr(rows[0], " default_4x4.xml[cgra-rows=2,cgra-cols"
                                    "=4]    1    1 optimal "));
    json_error_t e;
    json_t *recs = json_load_file(json, 0, &e);
    assert_non_null(recs);
    assert_int_equal(json_array_size(recs), 2);
    assert_string_equal(str(json_array_get(recs, 1), "arch"),
                        "default_4x4.xml[cgra-rows=3,cgra-cols=4]");
    json_decref(recs);
}

/* An array that cannot be read is reported; the others still run. */
static void test_unreadable_array(void **state)
{
    (void)state;
    const char *json = in_tmp("u.json");
    const char *args[] = {"--arch", "tests/cli/data/bad.xml", "--arch", A4,
                          "--steps", "300", "--max-ii", "2", "--json", json,
                          "--report", in_tmp("ureport"), SUM, NULL};
    run r;
    run_cgramap(&r, args);
    assert_int_equal(r.status, 1);
    const char *head = "\narray bad.xml: not read (the messages below say "
                       "why); its loops are not run\n\narray default_4x4."
                       "xml: cost 414.0\n";
    assert_int_equal(strncmp(r.out, head, strlen(head)), 0);
    assert_int_equal(strncmp(r.err, "tests/cli/data/bad.xml:", 23), 0);
    char rows[8][256];
    assert_int_equal(table_rows(r.out, rows, 8), 1);
    assert_non_null(strstr(r.out, "\nbad.xml                  not read\n"));
    /* the page says why, with the reader's first error */
    static char page[1 << 16];
    char want[512];
    slurp(in_tmp("ureport/index.html"), page, sizeof page);
    snprintf(want, sizeof want, "<td colspan=\"11\" class=\"why\">not "
             "read: %.*s</td>", (int)strcspn(r.err, "\n"), r.err);
    assert_non_null(strstr(page, want));
    json_error_t e;
    json_t *recs = json_load_file(json, 0, &e);
    assert_non_null(recs);
    assert_int_equal(json_array_size(recs), 1);
    assert_string_equal(str(json_array_get(recs, 0), "arch"),
                        "default_4x4.xml");
    json_decref(recs);
    /* the charts leave it out: no crosses for its kernels, no point */
    shape b[4];
    double vw, vh;
    assert_int_equal(svg_shapes(in_tmp("ureport/ii.svg"),
                                "//s:rect[@class='bar']", b, 4, &vw, &vh), 1);
    assert_int_equal(svg_shapes(in_tmp("ureport/ii.svg"),
                                "//s:text[@class='none']", b, 4, &vw, &vh), 0);
    assert_int_equal(svg_shapes(in_tmp("ureport/cost.svg"),
                                "//s:circle[@class='point']", b, 4, &vw, &vh),
                     1);
    assert_string_equal(b[0].array, "default_4x4.xml");
}

/* The XPath expression expr (a count or a string) over the SVG at path,
 * as text into buf. */
static void svg_eval(const char *path, const char *expr, char *buf,
                     size_t n)
{
    xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlXPathContext *x = xmlXPathNewContext(doc);
    xmlXPathRegisterNs(x, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
    xmlXPathObject *o = xmlXPathEvalExpression(BAD_CAST expr, x);
    assert_non_null(o);
    xmlChar *v = xmlXPathCastToString(o);
    snprintf(buf, n, "%s", (const char *)v);
    xmlFree(v);
    xmlXPathFreeObject(o);
    xmlXPathFreeContext(x);
    xmlFreeDoc(doc);
}

/* An array on which no kernel maps (hetero_4x4 has no memory): its rows
 * say so, its bars are crosses, its point is at 0 iterations per cycle. */
static void test_array_mapping_nothing(void **state)
{
    (void)state;
    const char *dir = in_tmp("hreport");
    const char *args[] = {"--arch", A4, "--arch",
                          "benchmarks/archs/hetero_4x4.xml", "--steps", "300",
                          "--max-ii", "2", "--report", dir, SUM, NULL};
    run r;
    run_cgramap(&r, args);
    assert_int_equal(r.status, 1);
    char rows[8][256];
    assert_int_equal(table_rows(r.out, rows, 8), 2);
    assert_non_null(strstr(rows[1], "hetero_4x4.xml              -    - "
                                    "error "));
    /* each message names its array: the same loop's come once per array */
    assert_non_null(strstr(r.err, "benchmarks/microbench/sum/sum.c:10: "
                                  "error: array 'hetero_4x4.xml': no unit of "
                                  "the architecture supports op 'load' (node "
                                  "'load6'): loads and stores need a MEMUnit "
                                  "(docs/xml.md)\n"));
    shape b[4];
    double vw, vh;
    char path[256];
    snprintf(path, sizeof path, "%s/ii.svg", dir);
    assert_int_equal(svg_shapes(path, "//s:rect[@class='bar']", b, 4, &vw,
                                &vh), 1);
    char count[16];
    svg_eval(path, "count(//s:text[@class='none'])", count, sizeof count);
    assert_string_equal(count, "1");
    snprintf(path, sizeof path, "%s/cost.svg", dir);
    assert_int_equal(svg_shapes(path, "//s:circle[@class='point']", b, 4,
                                &vw, &vh), 2);
    assert_true(b[1].value == 0 && b[0].value == 1);
    assert_true(b[1].y > b[0].y); /* lower on the chart */
}

static void test_param_errors(void **state)
{
    (void)state;
    static const char syntax[] =
        "cgramap: Invalid value for --param: %s (NAME=V1,V2,... with NAME "
        "an attribute of <architecture>, e.g. cgra-rows=4,6,8; no empty "
        "value, no quote, '<' or '&')\n";
    const char *bad[] = {"rows", "rows=", "rows=4,,6", "=4", "rows=4,",
                         "rows=\"4\"", "4rows=1", "ro ws=1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *args[] = {"--arch", A4, "--param", bad[i], SUM, NULL};
        run r;
        run_cgramap(&r, args);
        char want[512];
        snprintf(want, sizeof want, syntax, bad[i]);
        assert_int_equal(r.status, 2);
        assert_string_equal(r.err, want);
        assert_string_equal(r.out, "");
    }
    const char *two[] = {"--arch", A4, "--arch", A6, "--param",
                         "cgra-rows=2", SUM, NULL};
    const char *none[] = {"--param", "cgra-rows=2", SUM, NULL};
    const char *twice[] = {"--arch", A4, "--param", "cgra-rows=2", "--param",
                           "cgra-rows=3", SUM, NULL};
    run r;
    run_cgramap(&r, two);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: --param sweeps one architecture "
                        "file: give exactly one --arch FILE.xml with it "
                        "(got 2)\n");
    run_cgramap(&r, none);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: --param sweeps one architecture "
                        "file: give exactly one --arch FILE.xml with it "
                        "(got 0)\n");
    const char *many[] = {"--arch", A4, "--param",
                          "cgra-rows=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
                          SUM, NULL};
    run_cgramap(&r, many);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: --param cgra-rows has more than 16 "
                        "values; sweep fewer at once\n");
    const char *product[] = {"--arch", A4, "--param", "rows=1,2,3,4,5",
                             "--param", "cols=1,2,3,4,5,6,7,8,9,10,11,12,13",
                             SUM, NULL};
    run_cgramap(&r, product);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: the --param values make 65 arrays, "
                        "more than 64; sweep fewer values at once\n");
    const char *same[] = {"--arch", A4, "--arch", A4, SUM, NULL};
    run_cgramap(&r, same);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: --arch " A4 " is given twice; "
                        "compare each array once\n");
    run_cgramap(&r, twice);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: --param cgra-rows is given twice; "
                        "list all its values in one (--param "
                        "cgra-rows=V1,V2,...)\n");
    const char *shard[] = {"--arch", A4, "--area", "--shard", "1/2",
                           "--json", in_tmp("part.json"), SUM, NULL};
    run_cgramap(&r, shard);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap: --area belongs to a comparison run "
                        "on one machine, not to a shard: cgramap area --arch "
                        "A.xml gives an array's area\n");
}

/* --area's figures of tests/rtl's two small arrays, from the cache the
 * test shares (XDG_CACHE_HOME in the build folder): the one-PE 8-bit
 * tiny.xml, on which sum does not map (its loads are 32 bits), and
 * rf_2x2.xml. */
#define TINY "tests/rtl/data/tiny.xml"
#define RF22 "tests/rtl/data/rf_2x2.xml"

typedef struct area_fig {
    double nand2;
    long long ffs, bits;
} area_fig;

/* What `cgramap area --arch arch --json F` says of arch. */
static area_fig area_of(const char *arch)
{
    const char *json = in_tmp("area.json");
    const char *args[] = {"area", "--arch", arch, "--json", json, NULL};
    run r;
    run_cgramap(&r, args);
    if (r.status)
        fail_msg("cgramap area --arch %s: %s", arch, r.err);
    json_error_t e;
    json_t *a = json_load_file(json, 0, &e);
    assert_non_null(a);
    area_fig f = {json_number_value(json_object_get(a, "nand2")),
                  num(a, "flip_flops"), num(a, "config_bits")};
    json_decref(a);
    assert_true(f.nand2 > 0 && f.ffs > 0 && f.bits > 0);
    return f;
}

static void area_cache(void)
{
    char dir[1024];
    const char *b = getenv("CG_BINARY_DIR");
    snprintf(dir, sizeof dir, "%s/area-cache", b ? b : ".");
    mkdir(dir, 0777);
    setenv("XDG_CACHE_HOME", dir, 1);
}

/* Arrays a and b compared on sum with --area and --report dir. */
static void compare_area(run *r, const char *a, const char *b,
                         const char *dir)
{
    const char *args[] = {"--arch", a, "--arch", b, "--steps", "300",
                          "--max-ii", "4", "--area", "--report", dir, SUM,
                          NULL};
    run_cgramap(r, args);
}

/* With --area each array's line, the terminal's area table, the report's
 * arrays table and its cost chart carry the figures `cgramap area` gives
 * for the same array; the chart plots the area and says so. */
static void test_area(void **state)
{
    (void)state;
    area_cache();
    area_fig f[2] = {area_of(TINY), area_of(RF22)};
    const char *dir = in_tmp("areport");
    run r;
    compare_area(&r, TINY, RF22, dir);
    assert_int_equal(r.status, 1); /* sum does not map on tiny.xml */
    const char *label[2] = {"tiny.xml", "rf_2x2.xml"};
    const char *cost[2] = {"2.9", "140.5"};
    static char page[1 << 16];
    char path[256], want[512];
    snprintf(path, sizeof path, "%s/index.html", dir);
    slurp(path, page, sizeof page);
    for (int i = 0; i < 2; i++) {
        snprintf(want, sizeof want, "\narray %s: cost %s, area %.0f NAND2-eq"
                 ", %lld flip-flops, %lld configuration bits (16 contexts)\n",
                 label[i], cost[i], f[i].nand2, f[i].ffs, f[i].bits);
        if (!strstr(r.out, want))
            fail_msg("no '%s' in:\n%s", want + 1, r.out);
        snprintf(want, sizeof want, "\n%-24s %8s %10.0f %10lld %11lld ",
                 label[i], cost[i], f[i].nand2, f[i].ffs, f[i].bits);
        if (!strstr(r.out, want))
            fail_msg("no '%s' in:\n%s", want + 1, r.out);
        snprintf(want, sizeof want, "<td>%s</td><td class=\"area\">%.0f</td>"
                 "<td>%lld</td><td>%lld</td>", cost[i], f[i].nand2, f[i].ffs,
                 f[i].bits);
        assert_non_null(strstr(page, want));
    }
    assert_non_null(strstr(r.out, "\narray                        cost   "
                                  "NAND2-eq flip-flops config bits "
                                  "bits/PE/context\n"));
    assert_non_null(strstr(page, "<th>cost</th><th>area (NAND2-eq)</th>"
                                 "<th>flip-flops</th><th>configuration bits"
                                 "</th><th>bits/PE/context</th>"));
    /* the chart: x is the area, on round ticks up to the larger */
    shape p[2];
    double vw, vh;
    char t[4][64], ticks[32][64];
    snprintf(path, sizeof path, "%s/cost.svg", dir);
    assert_int_equal(svg_shapes(path, "//s:circle[@class='point']", p, 2,
                                &vw, &vh), 2);
    assert_int_equal(svg_texts(path, "//s:circle[@class='point']/@data-area",
                               t, 4), 2);
    check_round_ticks(path, "//s:text[@class='tick x']", f[1].nand2);
    double top = atof(ticks[svg_texts(path, "//s:text[@class='tick x']",
                                      ticks, 32) - 1]);
    for (int i = 0; i < 2; i++) {
        assert_string_equal(p[i].array, label[i]);
        assert_true(atof(t[i]) == round(f[i].nand2));
        assert_true(fabs(p[i].x - (56 + 420 * round(f[i].nand2) / top)) <
                    0.1);
        inside(&p[i], vw, vh);
    }
    assert_int_equal(svg_texts(path, "//s:text[@class='axis x']", t, 4), 1);
    assert_string_equal(t[0], "area (NAND2-equivalents, yosys generic "
                              "cells)");
    assert_int_equal(svg_texts(path, "//s:text[@class='note']", t, 4), 0);
    check_screenshot(dir);
}

/* No yosys on PATH and nothing cached: the area is n/a and says why, in
 * the terminal, the table and the chart, which plots the cost proxy. */
static void test_area_no_yosys(void **state)
{
    (void)state;
    char *path0 = strdup(getenv("PATH"));
    char cache[256], empty[256];
    snprintf(cache, sizeof cache, "%s", in_tmp("nocache"));
    snprintf(empty, sizeof empty, "%s", in_tmp("nobin"));
    assert_int_equal(mkdir(empty, 0777), 0);
    assert_int_equal(mkdir(cache, 0777), 0);
    setenv("XDG_CACHE_HOME", cache, 1);
    setenv("PATH", empty, 1);
    const char *dir = in_tmp("nreport");
    run r;
    compare_area(&r, A4, RF22, dir);
    setenv("PATH", path0, 1);
    free(path0);
    assert_int_equal(r.status, 0);
    const char *why = "n/a: yosys is not installed (scripts/setup.sh "
                      "installs it)";
    char want[512];
    snprintf(want, sizeof want, "\narray rf_2x2.xml: cost 140.5, area %s\n",
             why);
    assert_non_null(strstr(r.out, want));
    snprintf(want, sizeof want, "\nrf_2x2.xml                  140.5 %s\n",
             why);
    assert_non_null(strstr(r.out, want));
    static char page[1 << 16];
    char path[256];
    snprintf(path, sizeof path, "%s/index.html", dir);
    slurp(path, page, sizeof page);
    snprintf(want, sizeof want, "<td>414.0</td><td colspan=\"4\" class=\""
             "why\">%s</td>", why);
    assert_non_null(strstr(page, want));
    char t[4][64];
    snprintf(path, sizeof path, "%s/cost.svg", dir);
    assert_int_equal(svg_texts(path, "//s:text[@class='axis x']", t, 4), 1);
    assert_string_equal(t[0], "cost proxy (32-bit adders)");
    char note[2][1024];
    svg_eval(path, "string(//s:text[@class='note'])", note[0],
             sizeof note[0]);
    snprintf(note[1], sizeof note[1], "the cost proxy is plotted: area of "
             "default_4x4.xml %s", why);
    assert_string_equal(note[0], note[1]);
}

/* One --arch: no comparison, no "arch" in the reports (as before). */
static void test_one_array_unchanged(void **state)
{
    (void)state;
    const char *json = in_tmp("o.json"), *csv = in_tmp("o.csv");
    const char *args[] = {"--arch", A4, "--steps", "300", "--max-ii", "2",
                          "--json", json, "--csv", csv, SUM, NULL};
    run r;
    run_cgramap(&r, args);
    assert_int_equal(r.status, 0);
    assert_int_equal(strncmp(r.out, "benchmark ", 10), 0);
    assert_null(strstr(r.out, "comparison"));
    assert_null(strstr(r.out, "\narray "));
    json_error_t e;
    json_t *recs = json_load_file(json, 0, &e);
    assert_non_null(recs);
    assert_null(json_object_get(json_array_get(recs, 0), "arch"));
    json_decref(recs);
    char text[4096];
    slurp(csv, text, sizeof text);
    assert_int_equal(strncmp(text, "\"benchmark\",\"file\",", 19), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_arrays),
        cmocka_unit_test(test_open_rows),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_unreadable_array),
        cmocka_unit_test(test_array_mapping_nothing),
        cmocka_unit_test(test_param_errors),
        cmocka_unit_test(test_one_array_unchanged),
        cmocka_unit_test(test_area),
        cmocka_unit_test(test_area_no_yosys),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
