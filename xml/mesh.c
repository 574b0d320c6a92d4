/* mesh.c: the <mesh> and <diagonal> sugar: an interior of stamped blocks,
 * each connected to its four (eight) neighbours, optionally ringed by IO
 * blocks on every side port and wrapped around as a torus.
 *
 * The mesh's area is its row-range= x col-range= or the whole grid.  With
 * ranges, or a grid given as row=/col=, it follows CGRA-ME: the PEs fill
 * the area minus its border row and column, where the IO ring goes.
 * Otherwise (rows=/cols=, cgra-rows=/cgra-cols=) the PEs fill the grid
 * that the ring was added around. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xml_internal.h"

enum { NDIRS = 8 };
static const struct dir {
    const char *name;
    int dr, dc, opp;
} dirs[NDIRS] = {
    {"north", -1, 0, 2},      {"east", 0, 1, 3},       {"south", 1, 0, 0},
    {"west", 0, -1, 1},       {"northeast", -1, 1, 7}, {"northwest", -1, -1, 6},
    {"southeast", 1, 1, 5},   {"southwest", 1, -1, 4},
};

typedef struct mesh {
    char *in[NDIRS], *out[NDIRS];
    bool io, wrap;
    int ndirs;
    int r0, c0, rows, cols; /* interior: first cell (grid) and size */
} mesh;

static void free_mesh(mesh *m)
{
    for (int i = 0; i < NDIRS; i++)
        xmlFree(m->in[i]), xmlFree(m->out[i]);
}

/* in-D / out-D port names; CGRA-ME writes them ".out", ".in0" (appended
 * to the block's name), so one leading dot is dropped. */
static int mesh_ports(cg__xctx *c, const xmlNode *n, mesh *m)
{
    int rc = 0;
    for (int i = 0; i < m->ndirs; i++) {
        char a[32];
        snprintf(a, sizeof a, "in-%s", dirs[i].name);
        m->in[i] = (char *)xmlGetProp(n, (const xmlChar *)a);
        snprintf(a, sizeof a, "out-%s", dirs[i].name);
        m->out[i] = (char *)xmlGetProp(n, (const xmlChar *)a);
    }
    for (int i = 0; i < m->ndirs; i++) {
        char *v[2] = {m->in[i], m->out[i]};
        for (int k = 0; k < 2; k++)
            if (v[k] && v[k][0] == '.')
                memmove(v[k], v[k] + 1, strlen(v[k]));
        if (m->in[i] && !m->out[dirs[i].opp]) {
            cg__xml_error(c, n, "in-%s=\"%s\" needs out-%s= (the port the "
                          "neighbour drives it from)", dirs[i].name,
                          CG_QUOTE(m->in[i]),
                          dirs[dirs[i].opp].name);
            rc = -1;
        }
    }
    return rc;
}

/* The interior: the area minus its border (CGRA-ME's meaning, with ranges
 * or a row=/col= grid), else the grid minus the ring cgramap added. */
static int mesh_area(cg__xctx *c, const xmlNode *n, mesh *m, int off)
{
    long r0, r1, c0, c1;
    bool ranged = xmlHasProp(n, (const xmlChar *)"row-range") ||
                  xmlHasProp(n, (const xmlChar *)"col-range");
    if (cg__xml_range(c, n, "row-range", c->rows, &r0, &r1) < 0 ||
        cg__xml_range(c, n, "col-range", c->cols, &c0, &c1) < 0)
        return -1;
    int b = ranged || c->border ? 1 : off;
    m->r0 = (int)r0 + b, m->rows = (int)(r1 - r0 + 1) - 2 * b;
    m->c0 = (int)c0 + b, m->cols = (int)(c1 - c0 + 1) - 2 * b;
    if (m->rows < 1 || m->cols < 1) {
        cg__xml_error(c, n, "the <%s> covers rows %ld..%ld, columns %ld..%ld: "
                      "no PE fits inside its border row and column (they "
                      "hold the IO ring); give it at least 3 rows and 3 "
                      "columns", (const char *)n->name, r0, r1, c0, c1);
        return -1;
    }
    return 0;
}

static int parse_mesh(cg__xctx *c, const xmlNode *n, mesh *m, int off)
{
    static const char *const attrs[] = {
        "out-north", "out-east", "out-south", "out-west", "in-north",
        "in-east", "in-south", "in-west", "io", "wrap-around", "row-range",
        "col-range", "out-northeast", "out-northwest", "out-southeast",
        "out-southwest", "in-northeast", "in-northwest", "in-southeast",
        "in-southwest", NULL};
    static const char *const mesh_attrs[] = {
        "out-north", "out-east", "out-south", "out-west", "in-north",
        "in-east", "in-south", "in-west", "io", "wrap-around", "row-range",
        "col-range", NULL};
    memset(m, 0, sizeof *m);
    bool diag = !strcmp((const char *)n->name, "diagonal");
    m->ndirs = diag ? 8 : 4;
    int rc = cg__xml_check_attrs(c, n, diag ? attrs : mesh_attrs, NULL);
    rc |= mesh_ports(c, n, m);
    xmlChar *wrap = xmlGetProp(n, (const xmlChar *)"wrap-around");
    m->wrap = wrap && !strcmp((const char *)wrap, "on");
    if (wrap && !m->wrap && strcmp((const char *)wrap, "off")) {
        cg__xml_error(c, n, "wrap-around=\"%s\" must be \"on\" or \"off\"",
                      CG_QUOTE((const char *)wrap));
        rc = -1;
    }
    xmlFree(wrap);
    xmlChar *io = xmlGetProp(n, (const xmlChar *)"io");
    m->io = io && !strcmp((const char *)io, "every-side-port");
    xmlFree(io);
    if (m->io && m->wrap) {
        cg__xml_error(c, n, "io=\"every-side-port\" and wrap-around=\"on\" "
                      "exclude each other: a torus has no sides");
        rc = -1;
    }
    return rc | mesh_area(c, n, m, off);
}

/* The IO block module: ports in and out around an IO primitive io. */
static const char *io_module(cg__xctx *c, const xmlNode *n)
{
    static const char *const name = "io_block";
    if (cg_arch_module_find(c->a, name) >= 0)
        return name;
    cg__xml_loc(c, n);
    int mod = cg_arch_module_define(c->a, name, c->d);
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_IO);
    if (mod < 0 || cg_arch_add_port(c->a, mod, "in", CG_DIR_IN, 32, c->d) < 0 ||
        cg_arch_add_port(c->a, mod, "out", CG_DIR_OUT, 32, c->d) < 0 ||
        cg_arch_add_prim(c->a, mod, "io", &p, c->d) < 0 ||
        cg_arch_connect(c->a, mod, "this.in", "io.in", c->d) < 0 ||
        cg_arch_connect(c->a, mod, "io.out", "this.out", c->d) < 0)
        return NULL;
    return name;
}

/* An IO block on every side cell of the ring around the interior. */
static int place_io(cg__xctx *c, const xmlNode *n, const mesh *ms)
{
    const char *m = io_module(c, n);
    if (!m)
        return -1;
    int top = ms->r0 - 1, bottom = ms->r0 + ms->rows;
    int left = ms->c0 - 1, right = ms->c0 + ms->cols;
    for (int r = top; r <= bottom; r++)
        for (int col = left; col <= right; col++) {
            bool rim = r == top || r == bottom, side = col == left ||
                                                       col == right;
            if (rim == side) /* inside, or a corner */
                continue;
            char name[48];
            snprintf(name, sizeof name, "block_%d_%d", r, col);
            cg__xml_loc(c, n);
            int id = cg_arch_add_submodule(c->a, c->top, name, m, c->d);
            if (id < 0)
                return -1;
            cg_arch_set_position(c->a, c->top, id, r, col);
            c->cell_line[r * c->cols + col] = cg__xml_line(n);
        }
    return 0;
}

/* The <block>s of an <interior> into b[0..*nb) (at most h*w).  -1 after
 * an error. */
static int stamp_blocks(cg__xctx *c, const xmlNode *k, long h, long w,
                        const xmlNode **b, long *nb)
{
    *nb = 0;
    for (const xmlNode *x = k->children; x; x = x->next) {
        if (cg__xml_is_text(c, x))
            continue;
        if (strcmp((const char *)x->name, "block")) {
            cg__xml_error(c, x, "unknown tag <%s> inside <interior> "
                          "(expected: block)", (const char *)x->name);
            return -1;
        }
        if (*nb >= h * w) {
            cg__xml_error(c, x, "more <block>s than the %ldx%ld stamp has "
                          "cells", h, w);
            return -1;
        }
        b[(*nb)++] = x;
    }
    return 0;
}

/* In a CGRA-ME file (size given as row=/col=), a stamp that does not tile
 * the interior is placed as CGRA-ME places it:
 * interior cell (r, c) takes the stamp's cell (r mod h, c mod w), so a
 * stamp larger than the interior loses what lies beyond it (CGRA-ME's
 * arch-hetero-orth.xml gives a 2x2 interior a 1x8 stamp) and a smaller
 * one is cut at the edge.  Said once, as a warning. */
static void warn_untiled(cg__xctx *c, const xmlNode *k, const mesh *m,
                         long h, long w)
{
    long reach = (h < m->rows ? h : m->rows) * (w < m->cols ? w : m->cols);
    char what[128];
    if (reach < h * w)
        snprintf(what, sizeof what, "%ld of its %ld cells lie beyond the "
                 "interior and are not placed", h * w - reach, h * w);
    else
        snprintf(what, sizeof what, "its last repeats are cut at the "
                 "interior's edge");
    cg_diags_add(c->d, CG_SEV_WARNING, cg__xml_file(k), cg__xml_line(k),
                 "the %ldx%ld <interior> stamp does not tile the %dx%d "
                 "interior; as in CGRA-ME, interior cell (r, c) takes the "
                 "stamp's cell (r mod %ld, c mod %ld): %s", h, w, m->rows,
                 m->cols, h, w, what);
}

static int interior(cg__xctx *c, const mesh *m, const xmlNode *k)
{
    static const char *const attrs[] = {"row", "col", "rows", "cols", NULL};
    long h, w, nb;
    if (cg__xml_check_attrs(c, k, attrs, NULL) < 0 ||
        cg__xml_stamp(c, k, &h, &w) < 0)
        return -1;
    size_t nkids = 1;
    for (const xmlNode *x = k->children; x; x = x->next)
        nkids++;
    const xmlNode **b = malloc(sizeof *b * nkids);
    int rc = b ? stamp_blocks(c, k, h, w, b, &nb) : -1;
    if (rc == 0 && (m->rows % h || m->cols % w)) {
        if (c->border) { /* a CGRA-ME file (row=/col=) */
            warn_untiled(c, k, m, h, w);
        } else {
            cg__xml_error(c, k, "the %ldx%ld <interior> stamp does not tile "
                          "the %dx%d interior; pick a size that divides it",
                          h, w, m->rows, m->cols);
            rc = -1;
        }
    }
    /* stop at the first failing block: the others would repeat its error */
    for (long r = 0; rc == 0 && r < m->rows; r++)
        for (long col = 0; rc == 0 && col < m->cols; col++) {
            long x = (r % h) * w + col % w;
            bool on;
            if (x >= nb)
                continue; /* a stamp given fewer blocks: empty cells */
            if (cg__xml_cond(c, b[x], NULL, &on) < 0)
                rc = -1;
            else if (on && xmlHasProp(b[x], (const xmlChar *)"module") &&
                     cg__xml_place_block(c, b[x], m->r0 + r, m->c0 + col,
                                         NULL) < 0)
                rc = -1;
        }
    free(b);
    return rc;
}

static int place(cg__xctx *c, const xmlNode *n, const mesh *m)
{
    int rc = 0, ninterior = 0;
    for (xmlNode *k = n->children; k; k = k->next) {
        if (cg__xml_is_text(c, k))
            continue;
        if (strcmp((const char *)k->name, "interior")) {
            cg__xml_error(c, k, "unknown tag <%s> inside <%s> (expected: "
                          "interior)", (const char *)k->name,
                          (const char *)n->name);
            rc = -1;
        } else if (ninterior++) {
            cg__xml_error(c, k, "a <%s> has one <interior>; put every block "
                          "of the stamp in it", (const char *)n->name);
            rc = -1;
        } else {
            rc |= interior(c, m, k);
        }
    }
    if (!ninterior) {
        cg__xml_error(c, n, "<%s> needs an <interior> with its blocks",
                      (const char *)n->name);
        rc = -1;
    }
    return rc < 0 || (m->io && place_io(c, n, m) < 0) ? -1 : 0;
}

static int link(cg__xctx *c, const xmlNode *n, int fr, int fc,
                const char *fport, int tr, int tc, const char *tport)
{
    char from[256], to[256];
    snprintf(from, sizeof from, "block_%d_%d.%s", fr, fc, fport);
    snprintf(to, sizeof to, "block_%d_%d.%s", tr, tc, tport);
    cg__xml_loc(c, n);
    return cg_arch_connect(c->a, c->top, from, to, c->d);
}

/* Connect the block at (r, col) (grid coordinates) to its neighbours. */
static int connect_cell(cg__xctx *c, const xmlNode *n, const mesh *m, int r,
                        int col)
{
    int rc = 0;
    for (int i = 0; i < m->ndirs; i++) {
        const struct dir *d = &dirs[i];
        int ir = r - m->r0 + d->dr, ic = col - m->c0 + d->dc;
        bool inside = ir >= 0 && ir < m->rows && ic >= 0 && ic < m->cols;
        if (!inside && m->wrap) {
            ir = (ir + m->rows) % m->rows, ic = (ic + m->cols) % m->cols;
            inside = true;
        }
        int nr = ir + m->r0, nc = ic + m->c0;
        if (inside) {
            if (m->in[i] && c->cell_line[nr * c->cols + nc])
                rc |= link(c, n, nr, nc, m->out[d->opp], r, col, m->in[i]);
        } else if (m->io && i < 4) {
            if (m->in[i])
                rc |= link(c, n, nr, nc, "out", r, col, m->in[i]);
            if (m->out[i])
                rc |= link(c, n, r, col, m->out[i], nr, nc, "in");
        }
    }
    return rc;
}

int cg__xml_mesh(cg__xctx *c, const xmlNode *n, int pass, int off)
{
    mesh m;
    int rc = parse_mesh(c, n, &m, off);
    if (rc == 0 && pass == 1)
        rc = place(c, n, &m);
    for (int r = m.r0; rc == 0 && pass == 2 && r < m.r0 + m.rows; r++)
        for (int col = m.c0; col < m.c0 + m.cols; col++)
            if (c->cell_line[r * c->cols + col])
                rc |= connect_cell(c, n, &m, r, col);
    free_mesh(&m);
    return rc < 0 ? -1 : 0;
}
