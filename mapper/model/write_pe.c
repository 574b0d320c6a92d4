/* write_pe.c: the mapping as a picture read at screen size: the array at
 * the PE level (one box per block on its grid cell, as `cgramap arch
 * --level pe` draws it), one panel per context stacked top to bottom,
 * each box naming the ops that run in the block and the values its
 * routes carry, an arrow for each value moving from block to block, and a
 * legend, so that the picture explains itself.  The primitive-level
 * picture (cg_mapping_write_dot, write.c) shows every mux and register
 * but is thousands of points wide. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/op.h"
#include "../../common/util.h"
#include "imm_internal.h"
#include "names_internal.h"

/* Points between neighbouring blocks, and above each panel for its
 * title. */
enum { PE_X = 170, PE_Y = 100, TITLE_H = 90 };

typedef struct pe_pic {
    const cg_mapping *m;
    const cg_mrrg *mrrg;
    const cg_netlist *nl;
    const cg_dfg *g;
    int *blk;          /* per primitive: its block */
    int *first;        /* per block: its first primitive; [nb] = nprims */
    int nb;
    double *xy;        /* per block: its centre in context 0's panel */
    double panel_h;    /* points from one panel to the next */
    int *nval;         /* per (context, block): distinct values carried */
    int *val;          /* per (context, block): the first two of them */
} pe_pic;

/* Group the primitives into blocks (a grid cell's primitives are
 * consecutive, their names sorting by block; one outside the grid is a
 * block of its own) and place the blocks on the grid, those outside it in
 * a row below. */
static void pe_layout(pe_pic *p)
{
    int np = cg_netlist_nprims(p->nl), loose = 0;
    int rows = cg_netlist_rows(p->nl), cols = cg_netlist_cols(p->nl);
    int per_row = 1, nloose = 0; /* the loose ones: as wide as the grid,
                                    at least a square */
    for (int i = 0; i < np; i++)
        nloose += cg_netlist_prim(p->nl, i)->row < 0 ||
                  cg_netlist_prim(p->nl, i)->col < 0;
    while (per_row * per_row < nloose)
        per_row++;
    per_row = cols > per_row ? cols : per_row;
    double low = 0;
    p->nb = 0;
    for (int i = 0; i < np; i++) {
        const cg_nl_prim *a = cg_netlist_prim(p->nl, i);
        const cg_nl_prim *q = i ? cg_netlist_prim(p->nl, i - 1) : NULL;
        if (!q || a->row < 0 || a->col < 0 || q->row != a->row ||
            q->col != a->col) {
            double *xy = &p->xy[2 * p->nb];
            xy[0] = a->col * PE_X;
            xy[1] = -a->row * PE_Y;
            if (a->row < 0 || a->col < 0) {
                xy[0] = (loose % per_row) * PE_X;
                xy[1] = -(rows + 1 + loose / per_row) * PE_Y;
                loose++;
            }
            low = xy[1] < low ? xy[1] : low;
            p->first[p->nb++] = i;
        }
        p->blk[i] = p->nb - 1;
    }
    p->first[p->nb] = np;
    p->panel_h = -low + PE_Y + TITLE_H;
}

/* The block of MRRG node id, -1 when there is none. */
static int pe_block(const pe_pic *p, int id)
{
    const cg_mrrg_node *n = cg_mrrg_get_node(p->mrrg, id);
    return n ? p->blk[n->prim] : -1;
}

/* Block b's name: the part of its primitives' names before the block's
 * dot ("block_1_2"), the whole name for a primitive outside the grid. */
static void pe_name(const pe_pic *p, int b, char *buf, size_t n)
{
    const cg_nl_prim *a = cg_netlist_prim(p->nl, p->first[b]);
    const char *dot = strchr(a->name, '.');
    bool cell = a->row >= 0 && a->col >= 0;
    snprintf(buf, n, "%.*s", dot && cell ? (int)(dot - a->name)
             : (int)strlen(a->name), a->name);
}

/* What block b does in context c, appended to buf: a line per op that
 * runs there ("mul mul10"); the number of ops. */
static int pe_ops(const pe_pic *p, int c, int b, char *buf, size_t n)
{
    int ops = 0;
    for (int v = 0; v < p->m->nnodes; v++) {
        const cg_mrrg_node *f = cg_mrrg_get_node(p->mrrg, p->m->place[v]);
        if (!f || f->context != c || p->blk[f->prim] != b ||
            cg__imm_node(p->m, p->g, v))
            continue;
        const cg_dfg_node *d = cg_dfg_get_node(p->g, v);
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "\n%s %s", cg_op_name(d->op), d->name);
        ops++;
    }
    return ops;
}

static int cmp_ints(const void *a, const void *b, size_t n)
{
    const int *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

static int cmp_pair(const void *a, const void *b)
{
    return cmp_ints(a, b, 2);
}

static int cmp_step(const void *a, const void *b)
{
    return cmp_ints(a, b, 5);
}

/* The routes' steps, k ints each: (cell, value) pairs when k is 2, every
 * route node's (context * nb + block) and the value it carries; when k is
 * 5, each step between two blocks as (context it arrives in, from block,
 * to block, value, delay).  Sorted, duplicates dropped; *n of them, NULL
 * when out of memory. */
static int *pe_steps(const pe_pic *p, int k, size_t *n)
{
    size_t cap = 1;
    for (int e = 0; e < p->m->nedges; e++)
        cap += (size_t)p->m->route_len[e];
    int *t = malloc(cap * (size_t)k * sizeof *t);
    *n = 0;
    for (int e = 0; t && e < p->m->nedges; e++) {
        int src = cg_dfg_get_edge(p->g, e)->src, at = p->m->place[src];
        for (int i = 0; i < p->m->route_len[e]; i++) {
            int to = p->m->route[e][i], a = pe_block(p, at), b = pe_block(p, to);
            const cg_mrrg_node *r = cg_mrrg_get_node(p->mrrg, to);
            int me = cg__map_find_edge(p->mrrg, at, to);
            int row[5] = {r ? r->context * p->nb + b : -1, src};
            if (k == 5)
                memcpy(row, (int[5]){r ? r->context : -1, a, b, src,
                       me >= 0 ? cg_mrrg_get_edge(p->mrrg, me)->delay : 0},
                       sizeof row);
            at = to;
            if (r && b >= 0 && (k == 2 || (a >= 0 && a != b)))
                memcpy(&t[(*n)++ * (size_t)k], row, (size_t)k * sizeof *t);
        }
    }
    if (!t)
        return NULL;
    qsort(t, *n, (size_t)k * sizeof *t, k == 2 ? cmp_pair : cmp_step);
    size_t w = 0;
    for (size_t i = 0; i < *n; i++)
        if (!w || cmp_ints(&t[i * k], &t[(w - 1) * k], (size_t)k))
            memmove(&t[w++ * k], &t[i * k], (size_t)k * sizeof *t);
    *n = w;
    return t;
}

/* Each (context, block)'s values: how many, and the first two. */
static bool pe_fill(pe_pic *p)
{
    size_t n;
    int *t = pe_steps(p, 2, &n);
    if (!t)
        return false;
    for (size_t i = 0; i < n; i++) {
        int cell = t[2 * i];
        if (p->nval[cell] < 2)
            p->val[2 * cell + p->nval[cell]] = t[2 * i + 1];
        p->nval[cell]++;
    }
    free(t);
    return true;
}

/* Block b's box in context c's panel. */
static void pe_box(const pe_pic *p, int c, int b, FILE *out)
{
    char label[1024];
    pe_name(p, b, label, sizeof label);
    int ops = pe_ops(p, c, b, label, sizeof label);
    int cell = c * p->nb + b, nv = p->nval[cell];
    size_t len = strlen(label);
    for (int i = 0; i < nv && i < 2; i++)
        len += (size_t)snprintf(label + len, sizeof label - len, "%s%s",
                                i ? ", " : "\ncarries ",
                                cg_dfg_get_node(p->g, p->val[2 * cell + i])
                                    ->name);
    if (nv > 2)
        snprintf(label + len, sizeof label - len, " +%d", nv - 2);
    fprintf(out, "  c%d_b%d [pos=\"%g,%g!\", label=", c, b, p->xy[2 * b],
            p->xy[2 * b + 1] - c * p->panel_h);
    cg__map_dot_str(out, label);
    fprintf(out, "%s];\n", ops ? ", fillcolor=lightblue, color=black, "
                                 "fontcolor=black, penwidth=2"
                           : nv ? ", fillcolor=lightyellow, color=black, "
                                  "fontcolor=black" : "");
}


/* The arrows: a value moving from one block to another, in the panel of
 * the context it arrives in, labelled with its delay when it has one. */
static bool pe_arrows(const pe_pic *p, FILE *out)
{
    size_t n;
    int *t = pe_steps(p, 5, &n);
    if (!t)
        return false;
    for (size_t i = 0; i < n; i++) {
        const int *s = &t[5 * i];
        fprintf(out, "  c%d_b%d -> c%d_b%d [color=%s, tooltip=", s[0], s[1],
                s[0], s[2], cg__map_value_color(s[3]));
        cg__map_dot_str(out, cg_dfg_get_node(p->g, s[3])->name);
        if (s[4])
            fprintf(out, ", label=\"%d\"", s[4]);
        fprintf(out, "];\n");
    }
    free(t);
    return true;
}

/* What the picture's marks mean, right of context 0's panel. */
static void pe_legend(const pe_pic *p, FILE *out)
{
    double x = 0;
    for (int b = 0; b < p->nb; b++)
        x = p->xy[2 * b] > x ? p->xy[2 * b] : x;
    fprintf(out, "  legend [shape=plaintext, style=\"\", fixedsize=false, "
            "fontcolor=black, fontsize=11, pos=\"%g,%g!\", label=<<table "
            "border=\"1\" cellborder=\"0\" cellspacing=\"4\" color=\"gray60\">"
            "<tr><td colspan=\"2\"><b>legend</b></td></tr>"
            "<tr><td bgcolor=\"lightblue\" border=\"1\">add x</td><td "
            "align=\"left\">a unit of the block runs op add of DFG node x"
            "</td></tr><tr><td bgcolor=\"lightyellow\" border=\"1\">carries "
            "a, b +2</td><td align=\"left\">its routes carry the values of "
            "nodes a, b and 2 more</td></tr><tr><td border=\"1\"><font color"
            "=\"gray60\">block</font></td><td align=\"left\">unused in this "
            "context</td></tr><tr><td><font color=\"red\">&#8594; 1</font>"
            "</td><td align=\"left\">a value moving to another block, "
            "arriving in this context;<br align=\"left\"/>one colour per "
            "value, the number its delay in cycles</td></tr><tr><td colspan="
            "\"2\" align=\"left\">one panel per context (the cycle mod II, "
            "%d); the value's name<br align=\"left\"/>is the arrow's tooltip;"
            " the .svg beside this one shows every primitive</td></tr>"
            "</table>>];\n", x + PE_X * 2.2, 0.0, p->m->ii);
}

int cg_mapping_write_pe_dot(const cg_mapping *m, const cg_mrrg *mrrg,
                            const cg_netlist *nl, const cg_dfg *g, FILE *out)
{
    size_t np = (size_t)cg_netlist_nprims(nl) + 1;
    pe_pic p = {m, mrrg, nl, g, malloc(np * sizeof(int)),
                malloc(np * sizeof(int)), 0, malloc(np * 2 * sizeof(double)),
                0, NULL, NULL};
    bool built = p.blk && p.first && p.xy;
    if (built) {
        pe_layout(&p);
        p.nval = calloc((size_t)m->ii * p.nb + 1, sizeof(int));
        p.val = calloc(((size_t)m->ii * p.nb + 1) * 2, sizeof(int));
        built = p.nval && p.val && pe_fill(&p);
    }
    if (built) {
        cg__map_dot_head(out, g, "one box per block, one panel per "
                         "context; points", "  node [shape=box, style="
                         "filled, fixedsize=true, fontsize=9, width=1.8, "
                         "height=0.95, fillcolor=white, color=gray75, "
                         "fontcolor=gray60];\n  edge [arrowsize=0.7, "
                         "penwidth=1.5, fontsize=10];\n");
        pe_legend(&p, out);
        for (int c = 0; c < m->ii; c++) {
            fprintf(out, "  title%d [shape=plaintext, style=\"\", fixedsize="
                    "false, fontsize=16, fontcolor=black, label=\"context %d"
                    "\", pos=\"%g,%g!\"];\n", c, c, 0.0,
                    -c * p.panel_h + PE_Y * 0.8);
            for (int b = 0; b < p.nb; b++)
                pe_box(&p, c, b, out);
        }
        built = pe_arrows(&p, out);
        fprintf(out, "}\n");
    }
    free(p.blk);
    free(p.first);
    free(p.xy);
    free(p.nval);
    free(p.val);
    return cg_write_end(out, built);
}
