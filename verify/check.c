/* check.c: the independent checker of a mapping.  It reads only the
 * netlist, the MRRG, the DFG and the cg_mapping and re-derives every rule of
 * the ILP (map.h): placement on a supporting FUNC node in the right context,
 * one op per FUNC node, one value per ROUTE node entering by one in-edge
 * (a mux selects one input per context), each route a connected path from
 * the producer's FUNC node to the consumer's pin of that operand (the ILP
 * never swaps commutative operands, so neither does the checker), the
 * timing equation of every edge, the memory order (cg_map_mem_orders,
 * recomputed here from the DFG), the bank of each load and store, and the
 * widths: an op (a constant, an input or output) on a unit at least as
 * wide as its value, each value through ports at least as wide.  An
 * unplaced const is an immediate: each of its uses must have no route and
 * a consumer whose unit takes an immediate on that operand with a field its
 * value fits (imm.c).  One error per violation. */
#include <stdarg.h>
#include <stdlib.h>

#include "../mapper/model/imm_internal.h"
#include "../mapper/model/model_internal.h"
#include "../mapper/model/names_internal.h"
#include "verify.h"

typedef struct chk {
    const cg_netlist *nl;
    const cg_mrrg *mrrg;
    const cg_dfg *g;
    const cg_mapping *m;
    cg_diags *d;
    int *func_owner;  /* FUNC node -> DFG node, -1 */
    int *val;         /* ROUTE node -> DFG node whose value it carries */
    int *val_edge;    /* ... first DFG edge that put it there */
    int *in_edge;     /* ... MRRG edge it was entered by */
    int errors;
} chk;

#define NAME(id, b) cg__map_node_name(c->mrrg, c->nl, (id), (b), sizeof (b))

static const char *dname(const chk *c, int v)
{
    return cg_dfg_get_node(c->g, v)->name;
}

static void err(chk *c, int v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* An error located at DFG node v's source line. */
static void err(chk *c, int v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cg_diags_vadd(c->d, CG_SEV_ERROR, cg_dfg_file(c->g),
                  v >= 0 ? cg_dfg_get_node(c->g, v)->line : 0, fmt, ap);
    va_end(ap);
    c->errors++;
}

static bool check_shape(chk *c)
{
    const cg_mapping *m = c->m;
    bool ok = true;
    if (m->ii != cg_mrrg_ii(c->mrrg)) {
        err(c, -1, "mapping is for II=%d but the MRRG is built for II=%d",
            m->ii, cg_mrrg_ii(c->mrrg));
        ok = false;
    }
    if (m->nnodes != cg_dfg_nnodes(c->g) || m->nedges != cg_dfg_nedges(c->g)) {
        err(c, -1, "mapping has %d nodes and %d edges but DFG '%s' has %d "
            "and %d: it maps another graph", m->nnodes, m->nedges,
            cg_dfg_name(c->g), cg_dfg_nnodes(c->g), cg_dfg_nedges(c->g));
        ok = false;
    }
    return ok;
}

/* Placement of node v; true when it is on a FUNC node, so that its routes
 * can still be checked (an unsupported op or a wrong context is its own
 * error). */
static bool check_place(chk *c, int v)
{
    char b[160];
    int p = c->m->place[v], ii = c->m->ii;
    const cg_dfg_node *n = cg_dfg_get_node(c->g, v);
    const cg_mrrg_node *f = cg_mrrg_get_node(c->mrrg, p);
    if (!f) {
        err(c, v, "node '%s' (%s) is not placed on any function node (place "
            "%d)", n->name, cg_op_name(n->op), p);
        return false;
    }
    if (f->kind != CG_MRRG_FUNC) {
        err(c, v, "node '%s' (%s) is placed on %s, which is not a function "
            "node of the MRRG", n->name, cg_op_name(n->op), NAME(p, b));
        return false;
    }
    const cg_nl_prim *pr = cg_netlist_prim(c->nl, f->prim);
    if (!cg_mrrg_supports(c->mrrg, c->nl, p, n->op)) {
        err(c, v, "node '%s' (%s) is placed on %s, which does not support %s",
            n->name, cg_op_name(n->op), NAME(p, b), cg_op_name(n->op));
    } else if (pr->p.width < n->width) {
        err(c, v, "node '%s' (%s) is %d bits wide but is placed on %s "
            "(%s, %d bits): an op runs only on a unit at least as wide",
            n->name, cg_op_name(n->op), n->width, NAME(p, b),
            cg_prim_kind_name(pr->p.kind), pr->p.width);
    } else if (!cg__map_node_fits(pr, n)) {
        err(c, v, "node '%s' (%s) must access bank %d but is placed on %s, "
            "a MEMUnit that reaches bank %d only", n->name, cg_op_name(n->op),
            n->bank, NAME(p, b), pr->p.bank);
    }
    int64_t ctx = ((c->m->start[v] % ii) + ii) % ii;
    if (ctx != f->context) {
        err(c, v, "node '%s' starts at cycle %lld (context %lld at II=%d) "
            "but is placed on %s in context %d", n->name,
            (long long)c->m->start[v], (long long)ctx, ii, NAME(p, b),
            f->context);
    }
    if (c->func_owner[p] >= 0)
        err(c, v, "function node %s holds two ops: '%s' and '%s'", NAME(p, b),
            dname(c, c->func_owner[p]), n->name);
    else
        c->func_owner[p] = v;
    return true;
}

static void edge_desc(const chk *c, int e, char *buf, size_t n)
{
    const cg_dfg_edge *ed = cg_dfg_get_edge(c->g, e);
    snprintf(buf, n, "edge %d '%s'->'%s' (operand %d, distance %d)", e,
             dname(c, ed->src), dname(c, ed->dst), ed->operand, ed->distance);
}

/* Claim ROUTE node r for edge e's value, entered by MRRG edge me. */
static void claim(chk *c, int e, int r, int me, const char *ed)
{
    char b[160], b1[160], b2[160], o[200];
    int v = cg_dfg_get_edge(c->g, e)->src;
    if (c->val[r] < 0) {
        c->val[r] = v;
        c->val_edge[r] = e;
        c->in_edge[r] = me;
        return;
    }
    edge_desc(c, c->val_edge[r], o, sizeof o);
    if (c->val[r] != v) {
        err(c, cg_dfg_get_edge(c->g, e)->dst,
            "routing node %s carries two values: '%s' (%s) and '%s' (%s)",
            NAME(r, b), dname(c, c->val[r]), o, dname(c, v), ed);
    } else if (c->in_edge[r] != me) {
        int a = cg_mrrg_get_edge(c->mrrg, c->in_edge[r])->from;
        int a2 = cg_mrrg_get_edge(c->mrrg, me)->from;
        err(c, cg_dfg_get_edge(c->g, e)->dst,
            "routing node %s is entered from %s (%s) and from %s (%s): it "
            "selects one input per context", NAME(r, b), NAME(a, b1), o,
            NAME(a2, b2), ed);
    }
}

/* The first routing node of edge e's route narrower than its value, once
 * per edge; not when the producer is on a narrower unit, which is
 * reported at its placement. */
static void check_route_width(chk *c, int e, int i, int to, bool *said,
                              const char *ed)
{
    char b[160];
    const cg_dfg_edge *x = cg_dfg_get_edge(c->g, e);
    const cg_dfg_node *src = cg_dfg_get_node(c->g, x->src);
    const cg_mrrg_node *f = cg_mrrg_get_node(c->mrrg, c->m->place[x->src]);
    int w = cg__mrrg_node_width(c->mrrg, c->nl, to);
    if (*said || w >= src->width ||
        cg_netlist_prim(c->nl, f->prim)->p.width < src->width)
        return;
    *said = true;
    err(c, x->dst, "%s: the %d-bit value of '%s' passes %s, which is %d "
        "bits wide (route entry %d): a value needs ports at least as wide",
        ed, src->width, src->name, NAME(to, b), w, i);
}

/* Walk edge e's route; returns its latency, or -1 when it is broken. */
static int64_t walk_route(chk *c, int e, const char *ed)
{
    char b1[160], b2[160];
    const cg_dfg_edge *x = cg_dfg_get_edge(c->g, e);
    int at = c->m->place[x->src];
    int64_t lat = 0;
    bool said = false;
    if (c->m->route_len[e] < 1 || !c->m->route[e]) {
        err(c, x->dst, "%s has no route", ed);
        return -1;
    }
    for (int i = 0; i < c->m->route_len[e]; i++) {
        int to = c->m->route[e][i];
        const cg_mrrg_node *n = cg_mrrg_get_node(c->mrrg, to);
        if (!n || n->kind != CG_MRRG_ROUTE) {
            err(c, x->dst, "%s: route entry %d is %s, not a routing node", ed,
                i, n ? NAME(to, b1) : "out of the MRRG");
            return -1;
        }
        int me = cg__map_find_edge(c->mrrg, at, to);
        if (me < 0) {
            err(c, x->dst, "%s: route is not connected: no MRRG edge from %s "
                "to %s (entry %d)", ed, NAME(at, b1), NAME(to, b2), i);
            return -1;
        }
        lat += cg_mrrg_get_edge(c->mrrg, me)->delay;
        claim(c, e, to, me, ed);
        check_route_width(c, e, i, to, &said, ed);
        at = to;
    }
    const cg_mrrg_node *pin = cg_mrrg_get_node(c->mrrg, at);
    int want = c->m->place[x->dst];
    if (pin->func != want || pin->operand != x->operand) {
        err(c, x->dst, "%s: route ends at %s, not at the operand %d pin of "
            "%s where '%s' is placed", ed, NAME(at, b1), x->operand,
            NAME(want, b2), dname(c, x->dst));
        return -1;
    }
    return lat;
}

/* An unplaced const: an immediate, so it needs a value and a use. */
static void check_folded(chk *c, int v)
{
    const cg_dfg_node *n = cg_dfg_get_node(c->g, v);
    int uses = 0;
    for (int e = 0; e < c->m->nedges; e++)
        uses += cg_dfg_get_edge(c->g, e)->src == v;
    if (!n->has_value)
        err(c, v, "const '%s' is not placed, so it must be an immediate, "
            "but it has no value", n->name);
    if (uses == 0)
        err(c, v, "const '%s' is not placed but feeds no operand to be an "
            "immediate of; place it on a ConstUnit", n->name);
}

/* Edge e from an unplaced const: an immediate of its consumer's unit. */
static void check_imm_use(chk *c, int e, const char *ed, const bool *placed)
{
    char b[160];
    const cg_dfg_edge *x = cg_dfg_get_edge(c->g, e);
    const cg_dfg_node *k = cg_dfg_get_node(c->g, x->src);
    if (c->m->route_len[e] != 0)
        err(c, x->dst, "%s: '%s' is an immediate (not placed) but the edge "
            "has a route of %d nodes; an immediate needs none", ed, k->name,
            c->m->route_len[e]);
    if (!placed[x->dst] || !k->has_value)
        return; /* already reported */
    int f = c->m->place[x->dst];
    const cg_nl_prim *pr =
        cg_netlist_prim(c->nl, cg_mrrg_get_node(c->mrrg, f)->prim);
    int bits = cg__imm_bits(pr);
    if (!cg__imm_takes(pr, x->operand)) {
        err(c, x->dst, "%s: const '%s' is not placed, so it must be an "
            "immediate, but %s takes no immediate on operand %d", ed,
            k->name, NAME(f, b), x->operand);
    } else if (!cg__imm_fits(k, bits)) {
        int64_t lim = bits >= 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
        err(c, x->dst, "%s: const '%s' = %lld does not fit the %d-bit "
            "immediate of %s (%lld..%lld)", ed, k->name,
            (long long)cg_sext((uint64_t)k->value, k->width), bits,
            NAME(f, b), (long long)(-lim - 1), (long long)lim);
    }
}

static void check_edge(chk *c, int e, const bool *placed)
{
    char ed[300];
    const cg_dfg_edge *x = cg_dfg_get_edge(c->g, e);
    if (cg__imm_edge(c->m, c->g, e)) {
        edge_desc(c, e, ed, sizeof ed);
        check_imm_use(c, e, ed, placed);
        return;
    }
    if (!placed[x->src] || !placed[x->dst])
        return; /* already reported at the placement */
    edge_desc(c, e, ed, sizeof ed);
    int64_t lat = walk_route(c, e, ed);
    if (lat < 0)
        return;
    int64_t lhs = c->m->start[x->dst] + (int64_t)x->distance * c->m->ii;
    int64_t rhs = c->m->start[x->src] + lat;
    if (lhs != rhs)
        err(c, x->dst, "%s: timing does not hold: start('%s') + %d*II = "
            "%lld but start('%s') + route latency %lld = %lld",
            ed, dname(c, x->dst), x->distance, (long long)lhs,
            dname(c, x->src), (long long)lat, (long long)rhs);
}

/* The memory order of cg_map_mem_orders between placed nodes. */
static void check_order(chk *c, const bool *placed)
{
    cg_mem_order *o = NULL;
    int no = cg_map_mem_orders(c->g, &o);
    if (no < 0)
        err(c, -1, "out of memory checking the memory order of '%s'",
            cg_dfg_name(c->g));
    for (int i = 0; i < no; i++) {
        int a = o[i].first, b = o[i].then;
        if (!placed[a] || !placed[b])
            continue;
        int64_t lhs = c->m->start[b] + (int64_t)o[i].distance * c->m->ii;
        int64_t rhs = c->m->start[a] + o[i].latency;
        if (lhs >= rhs)
            continue;
        char when[64];
        if (o[i].distance == 0)
            snprintf(when, sizeof when, "of the same iteration");
        else
            snprintf(when, sizeof when, "%d iteration%s earlier",
                     o[i].distance, o[i].distance == 1 ? "" : "s");
        err(c, b, "memory order: '%s' (%s) must take effect after '%s' (%s) "
            "%s (they may access the same bytes): start('%s') + %d*II >= "
            "start('%s') + %d does not hold (%lld < %lld)", dname(c, b),
            cg_op_name(cg_dfg_get_node(c->g, b)->op), dname(c, a),
            cg_op_name(cg_dfg_get_node(c->g, a)->op), when, dname(c, b),
            o[i].distance, dname(c, a), o[i].latency, (long long)lhs,
            (long long)rhs);
    }
    free(o);
}

int cg_map_check(const cg_netlist *nl, const cg_mrrg *mrrg, const cg_dfg *g,
                 const cg_mapping *m, cg_diags *d)
{
    chk c = {nl, mrrg, g, m, d, NULL, NULL, NULL, NULL, 0};
    if (!check_shape(&c))
        return -1;
    size_t nn = (size_t)cg_mrrg_nnodes(mrrg) + 1;
    c.func_owner = malloc(nn * sizeof(int));
    c.val = malloc(nn * sizeof(int));
    c.val_edge = malloc(nn * sizeof(int));
    c.in_edge = malloc(nn * sizeof(int));
    bool *placed = calloc((size_t)m->nnodes + 1, sizeof *placed);
    if (!c.func_owner || !c.val || !c.val_edge || !c.in_edge || !placed) {
        err(&c, -1, "out of memory checking the mapping of '%s'",
            cg_dfg_name(g));
    } else {
        for (size_t i = 0; i < nn; i++)
            c.func_owner[i] = c.val[i] = c.val_edge[i] = c.in_edge[i] = -1;
        for (int v = 0; v < m->nnodes; v++) {
            if (cg__imm_node(m, g, v))
                check_folded(&c, v);
            else
                placed[v] = check_place(&c, v);
        }
        for (int e = 0; e < m->nedges; e++)
            check_edge(&c, e, placed);
        check_order(&c, placed);
    }
    free(placed);
    free(c.func_owner);
    free(c.val);
    free(c.val_edge);
    free(c.in_edge);
    return c.errors ? -1 : 0;
}
