/* netlist_dot.c: the device netlist as Graphviz pictures for neato, with
 * every position pinned in points so the picture is the grid an architect
 * drew: the primitives inside their blocks (cg_netlist_write_dot), edges
 * routed orthogonally around the boxes rather than through them, each
 * FuncUnit labelled with its op classes so that which PEs multiply can
 * be seen; or one box per block and one arrow per pair of connected
 * blocks (cg_netlist_write_pe_dot), where diagonal links are diagonal. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "arch_internal.h"
#include "common/op.h"

/* Points between the centres of primitives inside a block, and the margin
 * around a block's primitives (room for its label and outline). */
enum { PRIM_X = 120, PRIM_Y = 60, BLOCK_MARGIN = 60 };

/* Index of primitive i among the primitives of its block (its block's
 * primitives are consecutive: names sort by block). */
static int index_in_block(const cg_netlist *nl, int i)
{
    int k = 0;
    while (i - k > 0 && nl->prims[i - k - 1].row == nl->prims[i].row &&
           nl->prims[i - k - 1].col == nl->prims[i].col)
        k++;
    return k;
}

/* Columns of the small grid inside every block: the smallest square that
 * holds the largest block. */
static int block_side(const cg_netlist *nl)
{
    int side = 1;
    for (int i = 0; i < nl->nprims; i++) {
        int k = index_in_block(nl, i);
        while (side * side <= k)
            side++;
    }
    return side;
}

/* Side of the square that holds n primitives. */
static int square_side(int n)
{
    int side = 1;
    while (side * side < n)
        side++;
    return side;
}

void cg_netlist_layout(const cg_netlist *nl, double *xy, double size[2])
{
    int side = block_side(nl), inner = 1, nloose = 0, loose = 0;
    for (int i = 0; i < nl->nprims; i++) {
        if (nl->prims[i].row < 0 || nl->prims[i].col < 0)
            nloose++;
        else if (index_in_block(nl, i) / side + 1 > inner)
            inner = index_in_block(nl, i) / side + 1;
    }
    double px = side * PRIM_X + BLOCK_MARGIN, py = inner * PRIM_Y +
                BLOCK_MARGIN;
    int lside = square_side(nloose);
    bool cells = nloose < nl->nprims; /* else the grid takes no room */
    size[0] = cells ? nl->cols * px : 0;
    size[1] = cells ? nl->rows * py : 0;
    for (int i = 0; i < nl->nprims; i++) {
        const cg_nl_prim *p = &nl->prims[i];
        int k = index_in_block(nl, i);
        if (p->row >= 0 && p->col >= 0) {
            xy[2 * i] = p->col * px + (k % side) * PRIM_X;
            xy[2 * i + 1] = -(p->row * py + (k / side) * PRIM_Y);
            continue;
        }
        xy[2 * i] = (loose % lside) * PRIM_X;
        xy[2 * i + 1] = -(size[1] + (loose / lside) * PRIM_Y);
        loose++;
    }
    if (nloose && size[0] < lside * PRIM_X)
        size[0] = lside * PRIM_X;
    if (nloose)
        size[1] += ((nloose + lside - 1) / lside) * PRIM_Y;
}

/* The part of a hierarchical name after its block ("func" of
 * "block_0_0.func"); the whole name for a block that is a primitive. */
static const char *short_name(const char *s)
{
    const char *dot = strchr(s, '.');
    return dot ? dot + 1 : s;
}

static void dot_string(const char *s, FILE *out)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* Fill colour per kind, so units, muxes and registers read apart. */
static const char *kind_color(cg_prim_kind k)
{
    switch (k) {
    case CG_PRIM_FUNC: return "lightblue";
    case CG_PRIM_MEM: return "khaki";
    case CG_PRIM_REG:
    case CG_PRIM_REGFILE: return "mistyrose";
    case CG_PRIM_IO: return "palegreen";
    case CG_PRIM_CONST: return "lavender";
    default: return "white";
    }
}

/* What a FuncUnit computes, for its box: its op classes ("add logic mul"),
 * on lines of at most 20 characters joined by dot's "\n". */
static void op_classes(cg_opset ops, char *buf, size_t n)
{
    size_t len = 0, line = 0;
    buf[0] = '\0';
    for (int c = 0; c < CG_OPC_COUNT && len < n; c++) {
        const char *name = cg_op_class_name((cg_op_class)c);
        if (!(ops & cg_op_class_ops((cg_op_class)c)))
            continue;
        bool wrap = line && line + 1 + strlen(name) > 20;
        len += (size_t)snprintf(buf + len, n - len, "%s%s",
                                !len ? "" : wrap ? "\\n" : " ", name);
        line = (wrap || !line ? 0 : line + 1) + strlen(name);
    }
}

/* The second line of a primitive's box: a FuncUnit's op classes (so that
 * which PEs multiply can be seen), else its kind. */
static void kind_line(const cg_nl_prim *p, char *buf, size_t n)
{
    if (p->p.kind == CG_PRIM_FUNC)
        op_classes(p->p.ops, buf, n);
    if (p->p.kind != CG_PRIM_FUNC || !buf[0])
        snprintf(buf, n, "%s", cg_prim_kind_name(p->p.kind));
}

static void dot_prims(const cg_netlist *nl, const double *xy, FILE *out)
{
    for (int i = 0; i < nl->nprims; i++) {
        const cg_nl_prim *p = &nl->prims[i];
        char kind[96];
        kind_line(p, kind, sizeof kind);
        fprintf(out, "  p%d [label=", i);
        dot_string(short_name(p->name), out);
        fprintf(out, " + \"\\n%s\", tooltip=", kind);
        dot_string(p->name, out);
        fprintf(out, ", fillcolor=%s, pos=\"%g,%g!\"];\n",
                kind_color(p->p.kind), xy[2 * i], xy[2 * i + 1]);
    }
}

/* A cluster (an outline) per block holding its primitives and its label,
 * a plain text node above its first primitive. */
static void dot_blocks(const cg_netlist *nl, const double *xy, FILE *out)
{
    for (int i = 0; i < nl->nprims;) {
        const cg_nl_prim *p = &nl->prims[i];
        int j = i;
        while (j < nl->nprims && nl->prims[j].row == p->row &&
               nl->prims[j].col == p->col)
            j++;
        if (p->row >= 0 && p->col >= 0) {
            fprintf(out, "  subgraph cluster_%d_%d {\n    b%d_%d [shape=plain"
                    "text, style=\"\", fontsize=10, label=\"block_%d_%d\", "
                    "pos=\"%g,%g!\"];\n   ", p->row, p->col, p->row, p->col,
                    p->row, p->col, xy[2 * i], xy[2 * i + 1] + PRIM_Y * 0.75);
            for (int k = i; k < j; k++)
                fprintf(out, " p%d;", k);
            fprintf(out, "\n  }\n");
        }
        i = j;
    }
}

int cg_netlist_write_dot(const cg_netlist *nl, FILE *out)
{
    double *xy = malloc(((size_t)nl->nprims + 1) * 2 * sizeof *xy), size[2];
    if (!xy)
        return cg_write_end(out, false);
    cg_netlist_layout(nl, xy, size);
    fprintf(out, "/* positions in points (inputscale=72): neato -Tsvg */\n"
            "digraph cgra {\n  layout=neato;\n  inputscale=72;\n"
            "  splines=ortho;\n  overlap=true;\n  outputorder=edgesfirst;\n"
            "  node [shape=box, style=filled, fixedsize=true, fontsize=8, "
            "width=1.25, height=0.4];\n  edge [arrowsize=0.4, penwidth=0.6, "
            "color=gray50];\n");
    dot_prims(nl, xy, out);
    dot_blocks(nl, xy, out);
    free(xy);
    for (int i = 0; i < nl->nnets; i++) {
        const cg_nl_net *n = &nl->nets[i];
        int a = nl->ports[n->driver].prim;
        for (int k = 0; k < n->nsinks; k++) {
            const cg_nl_port *s = &nl->ports[n->sinks[k]];
            fprintf(out, "  p%d -> p%d [tooltip=\"%s -> %s\"];\n", a, s->prim,
                    nl->ports[n->driver].name, s->name);
        }
    }
    fprintf(out, "}\n");
    return cg_write_end(out, true);
}

/* ---- one box per block (the PE level) ----------------------------------- */

/* Points between the centres of neighbouring blocks. */
enum { PE_X = 170, PE_Y = 100 };

/* The blocks of nl: each grid cell's primitives (consecutive, as their
 * names sort by block) are one block, each primitive outside the grid a
 * block of its own.  blk[i] gets primitive i's block, first[b] block b's
 * first primitive (first[n] = nprims); their number n. */
static int pe_blocks(const cg_netlist *nl, int *blk, int *first)
{
    int n = 0;
    for (int i = 0; i < nl->nprims; i++) {
        const cg_nl_prim *p = &nl->prims[i], *q = i ? p - 1 : NULL;
        if (!q || p->row < 0 || p->col < 0 || q->row != p->row ||
            q->col != p->col)
            first[n++] = i;
        blk[i] = n - 1;
    }
    first[n] = nl->nprims;
    return n;
}

/* A block's other content, after its FuncUnits: "mem reg const" (muxes and
 * tri-states are its wiring, not named). */
static void pe_others(const int *count, char *buf, size_t n)
{
    static const struct { cg_prim_kind k; const char *name; } kinds[] = {
        {CG_PRIM_MEM, "mem"}, {CG_PRIM_REGFILE, "regfile"},
        {CG_PRIM_REG, "reg"}, {CG_PRIM_CONST, "const"}, {CG_PRIM_IO, "io"},
    };
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && len < n; i++) {
        int c = count[kinds[i].k];
        if (c > 1)
            len += (size_t)snprintf(buf + len, n - len, "%s%d %s",
                                    len ? " " : "", c, kinds[i].name);
        else if (c)
            len += (size_t)snprintf(buf + len, n - len, "%s%s",
                                    len ? " " : "", kinds[i].name);
    }
}

/* Block [from, to)'s box: its name, its FuncUnits' op classes, the rest
 * of its content; filled as its main primitive's kind. */
static void pe_box(const cg_netlist *nl, int b, int from, int to,
                   const double *xy, FILE *out)
{
    int count[CG_PRIM_COUNT] = {0};
    cg_opset ops = 0;
    for (int i = from; i < to; i++) {
        count[nl->prims[i].p.kind]++;
        if (nl->prims[i].p.kind == CG_PRIM_FUNC)
            ops |= nl->prims[i].p.ops;
    }
    const char *name = nl->prims[from].name, *dot = strchr(name, '.');
    char block[256], fus[96] = "", rest[96];
    bool cell = nl->prims[from].row >= 0 && nl->prims[from].col >= 0;
    snprintf(block, sizeof block, "%.*s", dot && cell ? (int)(dot - name)
             : (int)strlen(name), name);
    if (count[CG_PRIM_FUNC])
        op_classes(ops, fus, sizeof fus);
    pe_others(count, rest, sizeof rest);
    cg_prim_kind main = count[CG_PRIM_FUNC] ? CG_PRIM_FUNC
                        : count[CG_PRIM_MEM] ? CG_PRIM_MEM
                        : count[CG_PRIM_IO] ? CG_PRIM_IO : CG_PRIM_MUX;
    fprintf(out, "  b%d [label=", b);
    dot_string(block, out);
    if (count[CG_PRIM_FUNC] > 1)
        fprintf(out, " + \"\\n%d FUs: %s\"", count[CG_PRIM_FUNC], fus);
    else if (fus[0])
        fprintf(out, " + \"\\n%s\"", fus);
    if (rest[0])
        fprintf(out, " + \"\\n%s\"", rest);
    fprintf(out, ", tooltip=");
    dot_string(block, out);
    fprintf(out, ", fillcolor=%s, pos=\"%g,%g!\"];\n", kind_color(main),
            xy[0], xy[1]);
}

/* The arrows between blocks: one per connected pair, both heads when
 * values flow both ways. */
static void pe_links(const cg_netlist *nl, const int *blk, int nb,
                     unsigned char *link, FILE *out)
{
    for (int i = 0; i < nl->nnets; i++) {
        const cg_nl_net *n = &nl->nets[i];
        int a = blk[nl->ports[n->driver].prim];
        for (int k = 0; k < n->nsinks; k++) {
            int b = blk[nl->ports[n->sinks[k]].prim];
            if (a != b)
                link[(size_t)a * nb + b] = 1;
        }
    }
    for (int a = 0; a < nb; a++)
        for (int b = a + 1; b < nb; b++) {
            bool ab = link[(size_t)a * nb + b], ba = link[(size_t)b * nb + a];
            if (ab || ba)
                fprintf(out, "  b%d -> b%d%s;\n", ab ? a : b, ab ? b : a,
                        ab && ba ? " [dir=both]" : "");
        }
}

int cg_netlist_write_pe_dot(const cg_netlist *nl, FILE *out)
{
    size_t np = (size_t)nl->nprims + 1;
    int *blk = malloc(np * sizeof *blk), *first = malloc(np * sizeof *first);
    int nb = blk && first ? pe_blocks(nl, blk, first) : 0;
    unsigned char *link = nb ? calloc((size_t)nb * nb, 1) : NULL;
    bool built = link != NULL || (blk && first && nb == 0);
    if (built) {
        fprintf(out, "/* one box per block, positions in points "
                "(inputscale=72): neato -Tsvg */\ndigraph cgra_pe {\n"
                "  layout=neato;\n  inputscale=72;\n  splines=false;\n"
                "  overlap=true;\n  outputorder=edgesfirst;\n  node [shape="
                "box, style=filled, fixedsize=true, fontsize=9, width=1.8, "
                "height=0.95];\n  edge [arrowsize=0.6, penwidth=1, color="
                "gray30];\n");
        int loose = 0, cols = nl->cols > 0 ? nl->cols : 1;
        for (int b = 0; b < nb; b++) {
            const cg_nl_prim *p = &nl->prims[first[b]];
            double xy[2] = {p->col * PE_X, -p->row * PE_Y};
            if (p->row < 0 || p->col < 0) { /* a row of them below */
                xy[0] = (loose % cols) * PE_X;
                xy[1] = -(nl->rows + 1 + loose / cols) * PE_Y;
                loose++;
            }
            pe_box(nl, b, first[b], first[b + 1], xy, out);
        }
        pe_links(nl, blk, nb, link, out);
        fprintf(out, "}\n");
    }
    free(blk);
    free(first);
    free(link);
    return cg_write_end(out, built);
}
