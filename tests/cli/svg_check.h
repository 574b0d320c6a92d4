/* svg_check.h: checks of the pictures cgramap renders with neato: the SVG
 * is well-formed XML (libxml2), and every box of the dot source (a node
 * pinned with pos="X,Y!", in points) is drawn at its position: the centre
 * of its polygon is (X + tx, -Y + ty) for one translation (tx, ty) shared
 * by all nodes (SVG's y grows downward).  A picture drawn with the wrong
 * unit (inches read as points) or laid out anew fails.  Also: running
 * cgramap where neato is missing. */
#ifndef CG_TEST_SVG_CHECK_H
#define CG_TEST_SVG_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/* A box of the SVG: its title (the dot node's name), centre, extent and
 * tooltip (xlink:title, "" when none). */
typedef struct svg_box {
    char name[64], tip[128];
    double cx, cy, x0, y0, x1, y1;
} svg_box;

/* Parse the polygon's points into the box's extent and centre. */
static void svg_extent(const char *pts, svg_box *b)
{
    double x, y;
    int n;
    b->x0 = b->y0 = 1e300;
    b->x1 = b->y1 = -1e300;
    while (sscanf(pts, "%lf,%lf%n", &x, &y, &n) == 2) {
        b->x0 = fmin(b->x0, x);
        b->x1 = fmax(b->x1, x);
        b->y0 = fmin(b->y0, y);
        b->y1 = fmax(b->y1, y);
        pts += n;
    }
    b->cx = (b->x0 + b->x1) / 2;
    b->cy = (b->y0 + b->y1) / 2;
}

/* The string value of expr evaluated at x's node (xmlFree it). */
static xmlChar *svg_str(xmlXPathContext *x, const char *expr)
{
    xmlXPathObject *o = xmlXPathEvalExpression(BAD_CAST expr, x);
    assert_non_null(o);
    xmlChar *s = xmlXPathCastToString(o);
    xmlXPathFreeObject(o);
    return s;
}

/* The boxes of class cls ("node" or "cluster") in the SVG at path, in
 * *out (malloc'ed); their number.  Fails the test on malformed XML. */
static int svg_boxes(const char *path, const char *cls, svg_box **out)
{
    xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlXPathContext *x = xmlXPathNewContext(doc);
    xmlXPathRegisterNs(x, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
    xmlXPathRegisterNs(x, BAD_CAST "xl", BAD_CAST "http://www.w3.org/1999/xlink");
    char q[80];
    snprintf(q, sizeof q, "//s:g[@class='%s'][.//s:polygon]", cls);
    xmlXPathObject *r = xmlXPathEvalExpression(BAD_CAST q, x);
    assert_non_null(r);
    int n = r->nodesetval ? r->nodesetval->nodeNr : 0;
    *out = calloc((size_t)n + 1, sizeof **out);
    for (int i = 0; i < n; i++) {
        x->node = r->nodesetval->nodeTab[i];
        xmlChar *t = svg_str(x, "string(s:title)");
        xmlChar *p = svg_str(x, "string(.//s:polygon/@points)");
        xmlChar *tip = svg_str(x, "string(.//s:a/@xl:title)");
        snprintf((*out)[i].name, sizeof (*out)[i].name, "%s", (char *)t);
        snprintf((*out)[i].tip, sizeof (*out)[i].tip, "%s", (char *)tip);
        svg_extent((const char *)p, &(*out)[i]);
        xmlFree(t);
        xmlFree(p);
        xmlFree(tip);
    }
    xmlXPathFreeObject(r);
    xmlXPathFreeContext(x);
    xmlFreeDoc(doc);
    return n;
}

static const svg_box *svg_find(const svg_box *b, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(b[i].name, name))
            return &b[i];
    return NULL;
}

/* Every box node of the dot at dot_path (its lines "  NAME [pos=..." or
 * "  NAME [label=..., pos=...") drawn at its pinned position in the SVG
 * at svg_path, within half a point; the number of nodes checked.  A
 * plaintext node (a title, a legend's table) is not a box: not checked,
 * and its table's outlines are no box of the SVG. */
static int svg_check_positions(const char *dot_path, const char *svg_path)
{
    svg_box *b;
    int n = svg_boxes(svg_path, "node", &b), checked = 0, plain = 0;
    FILE *f = fopen(dot_path, "r");
    assert_non_null(f);
    char line[1024];
    double tx = 0, ty = 0;
    while (fgets(line, sizeof line, f)) {
        char name[64];
        const char *pos = strstr(line, "pos=\"");
        double px, py;
        if (!pos || sscanf(line, " %63[^ []", name) != 1 ||
            sscanf(pos, "pos=\"%lf,%lf!\"", &px, &py) != 2)
            continue;
        if (strstr(line, "plaintext")) {
            plain += svg_find(b, n, name) != NULL;
            continue;
        }
        const svg_box *s = svg_find(b, n, name);
        if (!s)
            fail_msg("node %s of %s is not in %s", name, dot_path, svg_path);
        if (!checked++) {
            tx = s->cx - px;
            ty = s->cy + py;
        }
        if (fabs(s->cx - (px + tx)) > 0.5 || fabs(s->cy - (ty - py)) > 0.5)
            fail_msg("%s drawn at (%g,%g), pinned at (%g,%g): expected "
                     "(%g,%g)", name, s->cx, s->cy, px, py, px + tx, ty - py);
    }
    fclose(f);
    free(b);
    assert_int_equal(checked, n - plain);
    return checked;
}

/* Run cgramap (run_cgramap.h, included first) with PATH set to dir, where
 * no neato is. */
static void run_without_neato(run *r, const char *dir,
                              const char *const *args)
{
    char *path = strdup(getenv("PATH"));
    assert_non_null(path);
    setenv("PATH", dir, 1);
    run_cgramap(r, args);
    setenv("PATH", path, 1);
    free(path);
}

#endif
