/* write.c: a mapping in text (placements, start times, routes by MRRG node
 * names), as the JSON configuration of the array (per context: which unit
 * runs which op, which input each mux selects) and as a Graphviz picture
 * with one cluster per context.  All three are deterministic: golden tests
 * compare them byte for byte.  A const carried as an immediate (unplaced)
 * shows as such, and the JSON lists each op's immediates. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

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

void cg_mapping_write(const cg_mapping *m, const cg_mrrg *mrrg,
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
}

static json_t *placements_json(const cg_mapping *m, const cg_mrrg *mrrg,
                               const cg_netlist *nl, const cg_dfg *g)
{
    char b[200];
    json_t *a = json_array();
    for (int v = 0; v < m->nnodes; v++) {
        const cg_dfg_node *n = cg_dfg_get_node(g, v);
        const cg_mrrg_node *f = cg_mrrg_get_node(mrrg, m->place[v]);
        json_array_append_new(a, json_pack(
            "{s:i, s:s, s:s, s:s, s:s, s:i, s:I}", "node", v, "name", n->name,
            "op", cg_op_name(n->op),
            "unit", f ? cg_netlist_prim(nl, f->prim)->name : "",
            "mrrg", cg__imm_node(m, g, v) ? ""
                    : cg__map_node_name(mrrg, nl, m->place[v], b, sizeof b),
            "context", f ? f->context : -1, "start", (json_int_t)m->start[v]));
        if (cg__imm_node(m, g, v))
            json_object_set_new(json_array_get(a, json_array_size(a) - 1),
                                "immediate", json_true());
    }
    return a;
}

static json_t *routes_json(const cg_mapping *m, const cg_mrrg *mrrg,
                           const cg_netlist *nl, const cg_dfg *g)
{
    char b[200];
    json_t *a = json_array();
    for (int e = 0; e < m->nedges; e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        json_t *nodes = json_array();
        for (int i = 0; i < m->route_len[e]; i++)
            json_array_append_new(nodes, json_string(cg__map_node_name(
                                             mrrg, nl, m->route[e][i], b,
                                             sizeof b)));
        json_array_append_new(a, json_pack(
            "{s:i, s:s, s:s, s:i, s:i, s:I, s:o}", "edge", e,
            "src", cg_dfg_get_node(g, x->src)->name,
            "dst", cg_dfg_get_node(g, x->dst)->name, "operand", x->operand,
            "distance", x->distance,
            "latency", (json_int_t)route_latency(m, mrrg, g, e),
            "nodes", nodes));
        if (cg__imm_edge(m, g, e))
            json_object_set_new(json_array_get(a, json_array_size(a) - 1),
                                "immediate", json_true());
    }
    return a;
}

/* The immediates op v reads on unit pr: per operand, its pin, the field's
 * bits and the value the unit feeds (signed).  NULL when none. */
static json_t *imm_json(const cg_mapping *m, const cg_netlist *nl,
                        const cg_dfg *g, const cg_nl_prim *pr, int v)
{
    json_t *a = NULL;
    for (int e = 0; e < m->nedges; e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        if (x->dst != v || !cg__imm_edge(m, g, e))
            continue;
        const cg_dfg_node *k = cg_dfg_get_node(g, x->src);
        int bits = cg__imm_bits(pr);
        bool pin = cg__imm_takes(pr, x->operand) &&
                   x->operand < pr->nports;
        if (!a)
            a = json_array();
        json_array_append_new(a, json_pack(
            "{s:i, s:s, s:s, s:i, s:I}", "operand", x->operand, "port",
            pin ? cg_netlist_port(nl, pr->port0 + x->operand)->name : "",
            "const", k->name, "bits", bits, "value",
            (json_int_t)cg_sext(cg__imm_operand(k, bits), k->width)));
    }
    return a;
}

/* What unit f runs: op v, with a const's value, an icmp's predicate and
 * the immediates it reads. */
static json_t *op_json(const cg_mapping *m, const cg_netlist *nl,
                       const cg_dfg *g, const cg_mrrg_node *f, int v)
{
    json_t *imm = imm_json(m, nl, g, cg_netlist_prim(nl, f->prim), v);
    const cg_dfg_node *n = cg_dfg_get_node(g, v);
    json_t *o = json_pack("{s:s, s:s, s:s, s:i}", "unit",
                          cg_netlist_prim(nl, f->prim)->name, "op",
                          cg_op_name(n->op), "node", n->name, "width",
                          n->width);
    if (n->op == CG_OP_CONST && n->has_value)
        json_object_set_new(o, "value", json_integer((json_int_t)n->value));
    if (n->op == CG_OP_ICMP)
        json_object_set_new(o, "pred", json_string(cg_pred_name(n->pred)));
    if (imm)
        json_object_set_new(o, "immediates", imm);
    return o;
}

/* Context c's configuration: the ops its units run and, for every mux
 * output a route enters through a mux input, the input selected.  seen
 * (one per MRRG node) keeps a mux shared by two uses listed once. */
static json_t *context_json(const cg_mapping *m, const cg_mrrg *mrrg,
                            const cg_netlist *nl, const cg_dfg *g, int c,
                            bool *seen)
{
    json_t *ops = json_array(), *mux = json_array();
    for (int v = 0; v < m->nnodes; v++) {
        const cg_mrrg_node *f = cg_mrrg_get_node(mrrg, m->place[v]);
        if (f && f->context == c)
            json_array_append_new(ops, op_json(m, nl, g, f, v));
    }
    for (int e = 0; e < m->nedges; e++) {
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
            json_array_append_new(mux, json_pack(
                "{s:s, s:i, s:s}", "mux", cg_netlist_prim(nl, n->prim)->name,
                "select", cg_mrrg_get_edge(mrrg, me)->mux_input, "value",
                cg_dfg_get_node(g, cg_dfg_get_edge(g, e)->src)->name));
        }
    }
    return json_pack("{s:i, s:o, s:o}", "context", c, "ops", ops,
                     "muxes", mux);
}

void cg_mapping_write_json(const cg_mapping *m, const cg_mrrg *mrrg,
                           const cg_netlist *nl, const cg_dfg *g, FILE *out)
{
    bool *seen = calloc((size_t)cg_mrrg_nnodes(mrrg) + 1, sizeof *seen);
    if (!seen)
        return;
    json_t *ctx = json_array();
    for (int c = 0; c < m->ii; c++)
        json_array_append_new(ctx, context_json(m, mrrg, nl, g, c, seen));
    free(seen);
    json_t *root = json_pack("{s:s, s:i, s:o, s:o, s:o}", "dfg",
                             cg_dfg_name(g), "ii", m->ii, "placements",
                             placements_json(m, mrrg, nl, g), "routes",
                             routes_json(m, mrrg, nl, g), "contexts", ctx);
    if (root) {
        json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        fputc('\n', out);
    }
    json_decref(root);
}

/* A Graphviz label: quoted, '"' and '\' escaped, newlines as \n. */
static void dot_str(FILE *out, const char *s)
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

/* Every MRRG node the mapping uses, labelled with the op or value on it,
 * in the cluster of its context; edges follow the routes (delay > 0
 * labelled). */
void cg_mapping_write_dot(const cg_mapping *m, const cg_mrrg *mrrg,
                          const cg_netlist *nl, const cg_dfg *g, FILE *out)
{
    int nn = cg_mrrg_nnodes(mrrg);
    int *label = malloc(((size_t)nn + 1) * sizeof *label);
    char b[200], b2[200];
    if (!label)
        return;
    for (int i = 0; i < nn; i++)
        label[i] = -1;
    for (int v = 0; v < m->nnodes; v++)
        if (m->place[v] >= 0 && m->place[v] < nn)
            label[m->place[v]] = v;
    for (int e = 0; e < m->nedges; e++)
        for (int i = 0; i < m->route_len[e]; i++)
            if (m->route[e][i] >= 0 && m->route[e][i] < nn)
                label[m->route[e][i]] = cg_dfg_get_edge(g, e)->src;
    fprintf(out, "digraph ");
    dot_str(out, cg_dfg_name(g));
    fprintf(out, " {\n  rankdir=LR;\n  node [shape=box, fontsize=10];\n");
    for (int c = 0; c < m->ii; c++) {
        fprintf(out, "  subgraph cluster_c%d {\n    label=\"context %d\";\n",
                c, c);
        for (int i = 0; i < nn; i++) {
            const cg_mrrg_node *n = cg_mrrg_get_node(mrrg, i);
            if (label[i] < 0 || n->context != c)
                continue;
            const cg_dfg_node *v = cg_dfg_get_node(g, label[i]);
            snprintf(b2, sizeof b2, "%s\n%s %s",
                     cg__map_node_name(mrrg, nl, i, b, sizeof b),
                     n->kind == CG_MRRG_FUNC ? cg_op_name(v->op) : "value",
                     v->name);
            fprintf(out, "    n%d [label=", i);
            dot_str(out, b2);
            fprintf(out, "%s];\n",
                    n->kind == CG_MRRG_FUNC ? ", style=bold" : "");
        }
        fprintf(out, "  }\n");
    }
    for (int i = 0; i < nn; i++)
        label[i] = 0; /* now: MRRG node already drawn as a route step */
    for (int e = 0; e < m->nedges; e++) {
        int at = m->place[cg_dfg_get_edge(g, e)->src];
        for (int i = 0; i < m->route_len[e]; i++) {
            int to = m->route[e][i];
            int me = cg__map_find_edge(mrrg, at, to);
            int delay = me >= 0 ? cg_mrrg_get_edge(mrrg, me)->delay : 0;
            bool drawn = to >= 0 && to < nn && label[to];
            if (to >= 0 && to < nn)
                label[to] = 1;
            if (drawn) {
                at = to;
                continue;
            }
            fprintf(out, "  n%d -> n%d", at, to);
            if (delay)
                fprintf(out, " [label=\"%d\"]", delay);
            fprintf(out, "; /* edge %d */\n", e);
            at = to;
        }
    }
    fprintf(out, "}\n");
    free(label);
}
