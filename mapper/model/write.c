/* write.c: a mapping in text (placements, start times, routes by MRRG node
 * names), as the JSON configuration of the array (per context: which unit
 * runs which op, which input each mux selects) and as a Graphviz picture
 * of the array's grid with one panel per context.  All three are
 * deterministic: golden tests compare them byte for byte.  A const carried as an immediate (unplaced)
 * shows as such, and the JSON lists each op's immediates. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../../common/util.h"
#include "imm_internal.h"
#include "names_internal.h"

const char *cg__map_node_name(const cg_mrrg *m, const cg_netlist *nl, int id,
                              char *buf, size_t n)
{
    const cg_mrrg_node *x = cg_mrrg_get_node(m, id);
    if (!x) {
        snprintf(buf, n, "#%d", id);
        return buf;
    }
    const char *prim = cg_netlist_prim(nl, x->prim)->name;
    if (x->kind == CG_MRRG_FUNC) {
        snprintf(buf, n, "%s@c%d", prim, x->context);
    } else if (x->port >= 0) {
        snprintf(buf, n, "%s.%s@c%d", prim, cg_netlist_port(nl, x->port)->name,
                 x->context);
    } else {
        /* registers of a register file are consecutive per context */
        int r = 0;
        for (const cg_mrrg_node *p = cg_mrrg_get_node(m, id - 1 - r);
             p && p->kind == CG_MRRG_ROUTE && p->port < 0 &&
             p->prim == x->prim && p->context == x->context;
             p = cg_mrrg_get_node(m, id - 1 - r))
            r++;
        snprintf(buf, n, "%s.reg%d@c%d", prim, r, x->context);
    }
    return buf;
}

int cg__map_find_edge(const cg_mrrg *m, int a, int b)
{
    if (!cg_mrrg_get_node(m, a) || !cg_mrrg_get_node(m, b))
        return -1;
    int n;
    const int *out = cg_mrrg_out(m, a, &n);
    for (int j = 0; j < n; j++)
        if (cg_mrrg_get_edge(m, out[j])->to == b)
            return out[j];
    return -1;
}

/* Latency of edge e's route (unconnected steps count 0). */
static int64_t route_latency(const cg_mapping *m, const cg_mrrg *mrrg,
                             const cg_dfg *g, int e)
{
    int at = m->place[cg_dfg_get_edge(g, e)->src];
    int64_t lat = 0;
    for (int i = 0; i < m->route_len[e]; i++) {
        int me = cg__map_find_edge(mrrg, at, m->route[e][i]);
        if (me >= 0)
            lat += cg_mrrg_get_edge(mrrg, me)->delay;
        at = m->route[e][i];
    }
    return lat;
}

int cg_mapping_write(const cg_mapping *m, const cg_mrrg *mrrg,
                     const cg_netlist *nl, const cg_dfg *g, FILE *out)
{
    char b[200];
    fprintf(out, "mapping '%s' II=%d nodes=%d edges=%d\n", cg_dfg_name(g),
            m->ii, m->nnodes, m->nedges);
    for (int v = 0; v < m->nnodes; v++) {
        const cg_dfg_node *n = cg_dfg_get_node(g, v);
        bool imm = cg__imm_node(m, g, v);
        fprintf(out, "place %d '%s' %s %s %s start %lld\n", v, n->name,
                cg_op_name(n->op), imm ? "as" : "on",
                imm ? "immediate"
                    : cg__map_node_name(mrrg, nl, m->place[v], b, sizeof b),
                (long long)m->start[v]);
    }
    for (int e = 0; e < m->nedges; e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        fprintf(out, "route %d '%s'->'%s' operand %d distance %d ", e,
                cg_dfg_get_node(g, x->src)->name,
                cg_dfg_get_node(g, x->dst)->name, x->operand, x->distance);
        if (cg__imm_edge(m, g, e)) {
            fprintf(out, "immediate\n");
            continue;
        }
        fprintf(out, "latency %lld:", (long long)route_latency(m, mrrg, g, e));
        for (int i = 0; i < m->route_len[e]; i++)
            fprintf(out, " %s",
                    cg__map_node_name(mrrg, nl, m->route[e][i], b, sizeof b));
        fputc('\n', out);
    }
    return cg_write_end(out, true);
}

/* a, or NULL (a freed) when ok is false: a jansson call failed for want
 * of memory, and a part of a would be missing without a word. */
static json_t *whole(json_t *a, bool ok)
{
    if (ok)
        return a;
    json_decref(a);
    return NULL;
}

/* v appended to a (v stolen); false when either is NULL or the append
 * failed. */
static bool append(json_t *a, json_t *v)
{
    return v && json_array_append_new(a, v) == 0;
}

static json_t *placements_json(const cg_mapping *m, const cg_mrrg *mrrg,
                               const cg_netlist *nl, const cg_dfg *g)
{
    char b[200];
    json_t *a = json_array();
    bool ok = a != NULL;
    for (int v = 0; v < m->nnodes && ok; v++) {
        const cg_dfg_node *n = cg_dfg_get_node(g, v);
        const cg_mrrg_node *f = cg_mrrg_get_node(mrrg, m->place[v]);
        ok = append(a, json_pack(
            "{s:i, s:s, s:s, s:s, s:s, s:i, s:I}", "node", v, "name", n->name,
            "op", cg_op_name(n->op),
            "unit", f ? cg_netlist_prim(nl, f->prim)->name : "",
            "mrrg", cg__imm_node(m, g, v) ? ""
                    : cg__map_node_name(mrrg, nl, m->place[v], b, sizeof b),
            "context", f ? f->context : -1, "start", (json_int_t)m->start[v]));
        if (ok && cg__imm_node(m, g, v))
            ok = json_object_set_new(json_array_get(a, json_array_size(a) - 1),
                                     "immediate", json_true()) == 0;
    }
    return whole(a, ok);
}

static json_t *routes_json(const cg_mapping *m, const cg_mrrg *mrrg,
                           const cg_netlist *nl, const cg_dfg *g)
{
    char b[200];
    json_t *a = json_array();
    bool ok = a != NULL;
    for (int e = 0; e < m->nedges && ok; e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        json_t *nodes = json_array();
        bool nok = nodes != NULL;
        for (int i = 0; i < m->route_len[e] && nok; i++)
            nok = append(nodes, json_string(cg__map_node_name(
                                    mrrg, nl, m->route[e][i], b, sizeof b)));
        ok = append(a, json_pack(
            "{s:i, s:s, s:s, s:i, s:i, s:I, s:o}", "edge", e,
            "src", cg_dfg_get_node(g, x->src)->name,
            "dst", cg_dfg_get_node(g, x->dst)->name, "operand", x->operand,
            "distance", x->distance,
            "latency", (json_int_t)route_latency(m, mrrg, g, e),
            "nodes", whole(nodes, nok)));
        if (ok && cg__imm_edge(m, g, e))
            ok = json_object_set_new(json_array_get(a, json_array_size(a) - 1),
                                     "immediate", json_true()) == 0;
    }
    return whole(a, ok);
}

/* The immediates op v reads on unit pr: per operand, its pin, the field's
 * bits and the value the unit feeds (signed).  NULL when none, or with
 * *ok false when out of memory. */
static json_t *imm_json(const cg_mapping *m, const cg_netlist *nl,
                        const cg_dfg *g, const cg_nl_prim *pr, int v,
                        bool *ok)
{
    json_t *a = NULL;
    for (int e = 0; e < m->nedges && *ok; e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        if (x->dst != v || !cg__imm_edge(m, g, e))
            continue;
        const cg_dfg_node *k = cg_dfg_get_node(g, x->src);
        int bits = cg__imm_bits(pr);
        bool pin = cg__imm_takes(pr, x->operand) &&
                   x->operand < pr->nports;
        if (!a)
            a = json_array();
        *ok = append(a, json_pack(
            "{s:i, s:s, s:s, s:i, s:I}", "operand", x->operand, "port",
            pin ? cg_netlist_port(nl, pr->port0 + x->operand)->name : "",
            "const", k->name, "bits", bits, "value",
            (json_int_t)cg_sext(cg__imm_operand(k, bits), k->width)));
    }
    return whole(a, *ok);
}

/* What unit f runs: op v, with a const's value, an icmp's predicate and
 * the immediates it reads; NULL when out of memory. */
static json_t *op_json(const cg_mapping *m, const cg_netlist *nl,
                       const cg_dfg *g, const cg_mrrg_node *f, int v)
{
    bool ok = true;
    json_t *imm = imm_json(m, nl, g, cg_netlist_prim(nl, f->prim), v, &ok);
    const cg_dfg_node *n = cg_dfg_get_node(g, v);
    json_t *o = json_pack("{s:s, s:s, s:s, s:i}", "unit",
                          cg_netlist_prim(nl, f->prim)->name, "op",
                          cg_op_name(n->op), "node", n->name, "width",
                          n->width);
    ok = ok && o;
    if (ok && n->op == CG_OP_CONST && n->has_value)
        ok = json_object_set_new(o, "value",
                                 json_integer((json_int_t)n->value)) == 0;
    if (ok && n->op == CG_OP_ICMP)
        ok = json_object_set_new(o, "pred",
                                 json_string(cg_pred_name(n->pred))) == 0;
    if (ok && imm) {
        ok = json_object_set_new(o, "immediates", imm) == 0;
        imm = NULL;
    }
    json_decref(imm);
    return whole(o, ok);
}

/* Context c's configuration: the ops its units run and, for every mux
 * output a route enters through a mux input, the input selected.  seen
 * (one per MRRG node) keeps a mux shared by two uses listed once. */
static json_t *context_json(const cg_mapping *m, const cg_mrrg *mrrg,
                            const cg_netlist *nl, const cg_dfg *g, int c,
                            bool *seen)
{
    json_t *ops = json_array(), *mux = json_array();
    bool ok = ops && mux;
    for (int v = 0; v < m->nnodes && ok; v++) {
        const cg_mrrg_node *f = cg_mrrg_get_node(mrrg, m->place[v]);
        if (f && f->context == c)
            ok = append(ops, op_json(m, nl, g, f, v));
    }
    for (int e = 0; e < m->nedges && ok; e++) {
        int at = m->place[cg_dfg_get_edge(g, e)->src];
        for (int i = 0; i < m->route_len[e]; i++) {
            int to = m->route[e][i];
            int me = cg__map_find_edge(mrrg, at, to);
            const cg_mrrg_node *n = cg_mrrg_get_node(mrrg, to);
            at = to;
            if (me < 0 || !n || n->context != c || seen[to] ||
                cg_mrrg_get_edge(mrrg, me)->mux_input < 0)
                continue;
            seen[to] = true;
            ok = ok && append(mux, json_pack(
                "{s:s, s:i, s:s}", "mux", cg_netlist_prim(nl, n->prim)->name,
                "select", cg_mrrg_get_edge(mrrg, me)->mux_input, "value",
                cg_dfg_get_node(g, cg_dfg_get_edge(g, e)->src)->name));
        }
    }
    if (!ok) {
        json_decref(ops);
        json_decref(mux);
        return NULL;
    }
    return json_pack("{s:i, s:o, s:o}", "context", c, "ops", ops,
                     "muxes", mux);
}

/* The whole document built before a byte is written, so that no memory
 * writes nothing rather than a part. */
int cg_mapping_write_json(const cg_mapping *m, const cg_mrrg *mrrg,
                          const cg_netlist *nl, const cg_dfg *g, FILE *out)
{
    bool *seen = calloc((size_t)cg_mrrg_nnodes(mrrg) + 1, sizeof *seen);
    json_t *ctx = seen ? json_array() : NULL;
    bool ok = ctx != NULL;
    for (int c = 0; c < m->ii && ok; c++)
        ok = append(ctx, context_json(m, mrrg, nl, g, c, seen));
    free(seen);
    json_t *root = json_pack("{s:s, s:i, s:o, s:o, s:o}", "dfg",
                             cg_dfg_name(g), "ii", m->ii, "placements",
                             placements_json(m, mrrg, nl, g), "routes",
                             routes_json(m, mrrg, nl, g), "contexts",
                             whole(ctx, ok));
    bool built = root && json_dumpf(root, out, JSON_INDENT(2) |
                                               JSON_PRESERVE_ORDER) == 0;
    if (built)
        fputc('\n', out);
    json_decref(root);
    return cg_write_end(out, built);
}

void cg__map_dot_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '\n') {
            fputs("\\n", out);
            continue;
        }
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* ---- the picture --------------------------------------------------------- */

/* Panels per row, and the points between panels. */
enum { PANELS_PER_ROW = 4, PANEL_GAP = 120 };

/* What one primitive does in one context: the op it runs (its DFG node)
 * or the values its routes carry (the first one and how many). */
typedef struct pic_use {
    int op;      /* DFG node run here, -1 */
    int value;   /* DFG node whose value passes here first, -1 */
    int nvalues; /* distinct values passing here */
} pic_use;

/* The picture's state: the netlist's geometry and per-cell use. */
typedef struct pic {
    const cg_mapping *m;
    const cg_mrrg *mrrg;
    const cg_netlist *nl;
    const cg_dfg *g;
    double *xy, size[2];
    pic_use *use;  /* [context * nprims + prim] */
    bool *drawn;   /* per MRRG node: already a route step drawn */
} pic;

static pic_use *pic_cell(pic *p, const cg_mrrg_node *n)
{
    return &p->use[(size_t)n->context * cg_netlist_nprims(p->nl) + n->prim];
}

static int cmp_pair(const void *a, const void *b)
{
    const size_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1)
                        : (x[1] != y[1] ? (x[1] < y[1] ? -1 : 1) : 0);
}

/* Fill use: each placed op on its unit, and on each primitive a route
 * passes, the first of the distinct values (by DFG node) and their count:
 * (cell, value) pairs sorted, duplicates skipped.  false: no memory. */
static bool pic_fill(pic *p)
{
    int nn = cg_mrrg_nnodes(p->mrrg);
    size_t n = 0, k = 0;
    for (int v = 0; v < p->m->nnodes; v++) {
        const cg_mrrg_node *f = cg_mrrg_get_node(p->mrrg, p->m->place[v]);
        if (f && !cg__imm_node(p->m, p->g, v))
            pic_cell(p, f)->op = v;
    }
    for (int e = 0; e < p->m->nedges; e++)
        n += (size_t)p->m->route_len[e];
    size_t *pair = malloc((n + 1) * 2 * sizeof *pair);
    if (!pair)
        return false;
    for (int e = 0; e < p->m->nedges; e++)
        for (int i = 0; i < p->m->route_len[e]; i++) {
            const cg_mrrg_node *x = p->m->route[e][i] < nn ?
                cg_mrrg_get_node(p->mrrg, p->m->route[e][i]) : NULL;
            if (!x)
                continue;
            pair[2 * k] = (size_t)(pic_cell(p, x) - p->use);
            pair[2 * k++ + 1] = (size_t)cg_dfg_get_edge(p->g, e)->src;
        }
    qsort(pair, k, 2 * sizeof *pair, cmp_pair);
    for (size_t i = 0; i < k; i++) {
        if (i && !cmp_pair(&pair[2 * i], &pair[2 * i - 2]))
            continue;
        pic_use *u = &p->use[pair[2 * i]];
        if (u->nvalues++ == 0)
            u->value = (int)pair[2 * i + 1];
    }
    free(pair);
    return true;
}

/* Top left corner of context c's panel. */
static void pic_origin(const pic *p, int c, double *ox, double *oy)
{
    *ox = (c % PANELS_PER_ROW) * (p->size[0] + PANEL_GAP);
    *oy = -(c / PANELS_PER_ROW) * (p->size[1] + PANEL_GAP * 2);
}

/* Primitive i in context c: faint when unused, else its op or value. */
static void pic_prim(const pic *p, int c, int i, FILE *out)
{
    const char *name = cg_netlist_prim(p->nl, i)->name, *dot;
    const pic_use *u = &p->use[(size_t)c * cg_netlist_nprims(p->nl) + i];
    char b[300];
    double ox, oy;
    pic_origin(p, c, &ox, &oy);
    dot = strchr(name, '.');
    fprintf(out, "  c%d_p%d [pos=\"%g,%g!\", tooltip=", c, i,
            ox + p->xy[2 * i], oy + p->xy[2 * i + 1]);
    snprintf(b, sizeof b, "%s@c%d", name, c);
    cg__map_dot_str(out, b);
    const cg_dfg_node *v = u->op >= 0 ? cg_dfg_get_node(p->g, u->op)
                           : u->nvalues ? cg_dfg_get_node(p->g, u->value)
                                        : NULL;
    if (!v)
        snprintf(b, sizeof b, "%s", dot ? dot + 1 : name);
    else if (u->op >= 0)
        snprintf(b, sizeof b, "%s\n%s %s", dot ? dot + 1 : name,
                 cg_op_name(v->op), v->name);
    else if (u->nvalues > 1)
        snprintf(b, sizeof b, "%s\n%s +%d", dot ? dot + 1 : name, v->name,
                 u->nvalues - 1);
    else
        snprintf(b, sizeof b, "%s\n%s", dot ? dot + 1 : name, v->name);
    fprintf(out, ", label=");
    cg__map_dot_str(out, b);
    fprintf(out, "%s];\n", u->op >= 0 ? ", fillcolor=lightblue, color=black, "
                                        "fontcolor=black, penwidth=2"
                          : v ? ", fillcolor=lightyellow, color=black, "
                                "fontcolor=black" : "");
}

/* Context c's panel: its title, then every block as an outline. */
static void pic_panel(const pic *p, int c, FILE *out)
{
    double ox, oy;
    pic_origin(p, c, &ox, &oy);
    fprintf(out, "  title%d [shape=plaintext, style=\"\", fixedsize=false, "
            "fontsize=16, fontcolor=black, label=\"context %d\", "
            "pos=\"%g,%g!\"];\n", c, c, ox, oy + 80);
    int np = cg_netlist_nprims(p->nl);
    for (int i = 0; i < np;) {
        const cg_nl_prim *a = cg_netlist_prim(p->nl, i);
        int j = i;
        while (j < np && cg_netlist_prim(p->nl, j)->row == a->row &&
               cg_netlist_prim(p->nl, j)->col == a->col)
            j++;
        bool block = a->row >= 0 && a->col >= 0;
        if (block)
            fprintf(out, "  subgraph cluster_c%d_%d_%d {\n    color=gray60;\n",
                    c, a->row, a->col);
        for (int k = i; k < j; k++)
            pic_prim(p, c, k, out);
        if (block)
            fprintf(out, "  }\n");
        i = j;
    }
}

const char *cg__map_value_color(int v)
{
    static const char *const c[] = {"red", "blue", "darkgreen", "purple",
                                    "darkorange", "brown", "deeppink",
                                    "teal"};
    return c[v % 8];
}

void cg__map_dot_head(FILE *out, const cg_dfg *g, const char *comment,
                      const char *attrs)
{
    fprintf(out, "/* %s (inputscale=72): neato -Tsvg */\ndigraph ", comment);
    cg__map_dot_str(out, cg_dfg_name(g));
    fprintf(out, " {\n  layout=neato;\n  inputscale=72;\n  splines=false;"
            "\n  overlap=true;\n  outputorder=edgesfirst;\n%s", attrs);
}

/* Route steps of edge e from one primitive to another, each an arrow in
 * the panel of the context it arrives in; a step with a delay is
 * labelled with it.  A step shared with an earlier edge is drawn once. */
static void pic_route(pic *p, int e, FILE *out)
{
    int nn = cg_mrrg_nnodes(p->mrrg), src = cg_dfg_get_edge(p->g, e)->src;
    int at = p->m->place[src];
    for (int i = 0; i < p->m->route_len[e]; i++) {
        int to = p->m->route[e][i];
        const cg_mrrg_node *a = cg_mrrg_get_node(p->mrrg, at);
        const cg_mrrg_node *b = cg_mrrg_get_node(p->mrrg, to);
        int me = cg__map_find_edge(p->mrrg, at, to);
        int delay = me >= 0 ? cg_mrrg_get_edge(p->mrrg, me)->delay : 0;
        bool skip = !a || !b || to >= nn || p->drawn[to] ||
                    a->prim == b->prim;
        if (b && to < nn)
            p->drawn[to] = true;
        at = to;
        if (skip)
            continue;
        fprintf(out, "  c%d_p%d -> c%d_p%d [color=%s, tooltip=\"edge %d: ",
                b->context, a->prim, b->context, b->prim, cg__map_value_color(src), e);
        fprintf(out, "%s -> %s\"", cg_dfg_get_node(p->g, src)->name,
                cg_dfg_get_node(p->g, cg_dfg_get_edge(p->g, e)->dst)->name);
        if (delay)
            fprintf(out, ", label=\"%d\"", delay);
        fprintf(out, "];\n");
    }
}

/* What the picture's marks mean, right of the first row of panels (the
 * PE-level picture has its own, write_pe.c). */
static void pic_legend(const pic *p, FILE *out)
{
    int cols = p->m->ii < PANELS_PER_ROW ? p->m->ii : PANELS_PER_ROW;
    fprintf(out, "  legend [shape=plaintext, style=\"\", fixedsize=false, "
            "fontcolor=black, fontsize=14, pos=\"%g,%g!\", label=<<table "
            "border=\"1\" cellborder=\"0\" cellspacing=\"6\" color=\"gray60\">"
            "<tr><td colspan=\"2\"><b>legend</b></td></tr>"
            "<tr><td bgcolor=\"lightblue\" border=\"2\" color=\"black\">"
            "func<br/>mul x</td><td align=\"left\">a unit running op mul of "
            "DFG node x</td></tr>"
            "<tr><td bgcolor=\"lightyellow\" border=\"1\" color=\"black\">"
            "reg<br/>x +2</td><td align=\"left\">a primitive a route passes: "
            "it carries the value of<br align=\"left\"/>node x and, in this "
            "context, 2 more values (+N: N more)<br align=\"left\"/></td>"
            "</tr><tr><td border=\"1\" color=\"gray75\"><font color=\"gray60"
            "\">mux</font></td><td align=\"left\">unused in this context</td>"
            "</tr><tr><td border=\"1\" color=\"gray60\"> </td><td align=\""
            "left\">grey outline: the primitives of one block (PE)</td></tr>"
            "<tr><td><font color=\"red\">&#8594; 1</font></td><td align=\""
            "left\">a route step to another primitive, arriving in this "
            "context;<br align=\"left\"/>one colour per value, the number its "
            "delay in cycles<br align=\"left\"/></td></tr>"
            "<tr><td colspan=\"2\" align=\"left\">one panel per context (the "
            "cycle mod II, %d), %d per row; tooltips<br align=\"left\"/>name "
            "each primitive (block_1_2.func@c1) and each arrow's DFG "
            "edge;<br align=\"left\"/>the .pe.svg beside this picture shows "
            "the mapping block by block<br align=\"left\"/></td></tr>"
            "</table>>];\n", cols * (p->size[0] + PANEL_GAP) + 150, -70.0,
            p->m->ii, PANELS_PER_ROW);
}

int cg_mapping_write_dot(const cg_mapping *m, const cg_mrrg *mrrg,
                         const cg_netlist *nl, const cg_dfg *g, FILE *out)
{
    size_t np = (size_t)cg_netlist_nprims(nl) + 1;
    pic p = {m, mrrg, nl, g, malloc(np * 2 * sizeof(double)), {0, 0},
             malloc((size_t)m->ii * np * sizeof(pic_use)),
             calloc((size_t)cg_mrrg_nnodes(mrrg) + 1, sizeof(bool))};
    if (p.xy && p.use && p.drawn) {
        cg_netlist_layout(nl, p.xy, p.size);
        for (size_t i = 0; i < (size_t)m->ii * np; i++)
            p.use[i] = (pic_use){-1, -1, 0};
    }
    bool built = p.xy && p.use && p.drawn && pic_fill(&p);
    if (built) {
        cg__map_dot_head(out, g, "positions in points", "  node [shape="
                "box, style=filled, fixedsize=true, fontsize=8, width=1.25, "
                "height=0.4, fillcolor=white, color=gray75, fontcolor=gray60];"
                "\n  edge [arrowsize=0.5, penwidth=1.5, fontsize=9];\n");
        pic_legend(&p, out);
        for (int c = 0; c < m->ii; c++)
            pic_panel(&p, c, out);
        for (int e = 0; e < m->nedges; e++)
            if (!cg__imm_edge(m, g, e))
                pic_route(&p, e, out);
        fprintf(out, "}\n");
    }
    free(p.xy);
    free(p.use);
    free(p.drawn);
    return cg_write_end(out, built);
}
