/* chart_check.h: what the comparison's tests read back from the report:
 * the bars and points of its SVG charts with their data-* figures and
 * geometry, the text of its tick labels, and the pixels of a Chromium
 * screenshot (libpng), so that a test sees what a reader sees. */
#ifndef CG_TEST_CHART_CHECK_H
#define CG_TEST_CHART_CHECK_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/* The nodes matching xpath (the SVG namespace as s:) in doc, at most max;
 * free with xmlXPathFreeObject and xmlXPathFreeContext(*x). */
static xmlXPathObject *svg_query(xmlDoc *doc, const char *xpath, int max,
                                 xmlXPathContext **x, int *n)
{
    *x = xmlXPathNewContext(doc);
    xmlXPathRegisterNs(*x, BAD_CAST "s",
                       BAD_CAST "http://www.w3.org/2000/svg");
    xmlXPathObject *o = xmlXPathEvalExpression(BAD_CAST xpath, *x);
    assert_non_null(o);
    *n = o->nodesetval ? o->nodesetval->nodeNr : 0;
    assert_true(*n <= max);
    return o;
}

typedef struct shape {
    char kernel[64], array[64], cls[32];
    double value, x, y, w, h;
    double bound;   /* data-bound of an open bar, 0 when none */
} shape;

static double attr_d(xmlNode *n, const char *a)
{
    xmlChar *v = xmlGetProp(n, BAD_CAST a);
    assert_non_null(v);
    double x = strtod((const char *)v, NULL);
    xmlFree(v);
    return x;
}

static void attr_s(xmlNode *n, const char *a, char *buf, size_t cap)
{
    xmlChar *v = xmlGetProp(n, BAD_CAST a);
    snprintf(buf, cap, "%s", v ? (const char *)v : "");
    xmlFree(v);
}

/* The elements matching xpath in the SVG at path (bars, or points with
 * cx, cy as x, y) and its viewBox width and height. */
static int svg_shapes(const char *path, const char *xpath, shape *out,
                      int max, double *vw, double *vh)
{
    xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlNode *root = xmlDocGetRootElement(doc);
    char vb[64];
    attr_s(root, "viewBox", vb, sizeof vb);
    double x0, y0;
    assert_int_equal(sscanf(vb, "%lf %lf %lf %lf", &x0, &y0, vw, vh), 4);
    assert_true(x0 == 0 && y0 == 0);
    xmlXPathContext *x;
    int n;
    xmlXPathObject *o = svg_query(doc, xpath, max, &x, &n);
    for (int i = 0; i < n; i++) {
        xmlNode *e = o->nodesetval->nodeTab[i];
        shape *s = &out[i];
        attr_s(e, "data-kernel", s->kernel, sizeof s->kernel);
        attr_s(e, "data-array", s->array, sizeof s->array);
        attr_s(e, "class", s->cls, sizeof s->cls);
        s->value = attr_d(e, "data-value");
        char b[32];
        attr_s(e, "data-bound", b, sizeof b);
        s->bound = atof(b);
        bool circle = strcmp((const char *)e->name, "circle") == 0;
        s->x = attr_d(e, circle ? "cx" : "x");
        s->y = attr_d(e, circle ? "cy" : "y");
        s->w = circle ? 0 : attr_d(e, "width");
        s->h = circle ? 0 : attr_d(e, "height");
    }
    xmlXPathFreeObject(o);
    xmlXPathFreeContext(x);
    xmlFreeDoc(doc);
    return n;
}

static void inside(const shape *s, double vw, double vh)
{
    assert_true(s->x >= 0 && s->x + s->w <= vw);
    assert_true(s->y >= 0 && s->y + s->h <= vh);
}

/* The text of the elements matching xpath in the SVG at path, in order;
 * their number. */
static int svg_texts(const char *path, const char *xpath, char out[][64],
                     int max)
{
    xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlXPathContext *x;
    int n;
    xmlXPathObject *o = svg_query(doc, xpath, max, &x, &n);
    for (int i = 0; i < n; i++) {
        xmlChar *t = xmlNodeGetContent(o->nodesetval->nodeTab[i]);
        snprintf(out[i], 64, "%s", (const char *)t);
        xmlFree(t);
    }
    xmlXPathFreeObject(o);
    xmlXPathFreeContext(x);
    xmlFreeDoc(doc);
    return n;
}

/* The tick labels matching xpath are 0, s, 2s, ... for a round step s (1,
 * 2 or 5 times a power of ten), at least 3 of them, the last at least
 * max: an axis a reader can read (not 114, 228, 342). */
static void check_round_ticks(const char *path, const char *xpath,
                              double max)
{
    char t[32][64];
    int n = svg_texts(path, xpath, t, 32);
    if (n < 2)
        fail_msg("%s: %d ticks for %s", path, n, xpath);
    double step = atof(t[1]), mag = pow(10, floor(log10(step)));
    double m = step / mag;
    if (!(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9))
        fail_msg("%s: tick step %s is not round", path, t[1]);
    for (int i = 0; i < n; i++)
        if (fabs(atof(t[i]) - i * step) > step * 1e-6)
            fail_msg("%s: tick %d is %s, not %g", path, i, t[i], i * step);
    assert_true(atof(t[n - 1]) >= max - 1e-9);
}

#ifdef CG_PNG
#include <png.h>

/* The PNG at path as RGBA rows (malloc'ed), its size in *w, *h. */
static uint8_t *png_rgba(const char *path, int *w, int *h)
{
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    assert_true(png_image_begin_read_from_file(&im, path));
    im.format = PNG_FORMAT_RGBA;
    uint8_t *px = malloc(PNG_IMAGE_SIZE(im));
    assert_non_null(px);
    assert_true(png_image_finish_read(&im, NULL, px, 0, NULL));
    *w = (int)im.width;
    *h = (int)im.height;
    return px;
}

/* What a bar looks like in the picture: the share of its inner pixels
 * (2 px in from its edge, where the outline is) that have its most
 * common colour, and the share that are near white. */
typedef struct bar_look {
    double main, white;
} bar_look;

static bar_look bar_pixels(const uint8_t *px, int w, int h, const shape *b)
{
    int x0 = (int)ceil(b->x) + 2, x1 = (int)floor(b->x + b->w) - 2;
    int y0 = (int)ceil(b->y) + 2, y1 = (int)floor(b->y + b->h) - 2;
    assert_true(x0 < x1 && y0 < y1 && x1 <= w && y1 <= h);
    static uint32_t seen[1 << 16];
    static int count[1 << 16];
    int ncol = 0, total = 0, white = 0, best = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            const uint8_t *p = px + 4 * ((size_t)y * (size_t)w + (size_t)x);
            uint32_t c = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
            white += p[0] > 235 && p[1] > 235 && p[2] > 235;
            total++;
            int k = 0;
            while (k < ncol && seen[k] != c)
                k++;
            if (k == ncol && ncol < (1 << 16)) {
                seen[ncol] = c;
                count[ncol++] = 0;
            }
            if (k < ncol && ++count[k] > best)
                best = count[k];
        }
    return (bar_look){(double)best / total, (double)white / total};
}
#endif

#endif
