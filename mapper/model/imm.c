/* imm.c: immediates, and the reduction that lets the searches ignore them.
 *
 * A FuncUnit or MEMUnit may declare operands that take an immediate
 * (cg_prim_params.imm_operands): a field of imm_width bits in its
 * configuration, sign-extended to the operand.  A const whose consumers
 * can all read it from such a field needs no ConstUnit and no route.
 *
 * The searches (heur.c, ilp*.c, place.c) know nothing of this: cg_map
 * hands them a reduced DFG without the folded consts and expands their
 * mapping back to the original node ids, the folded consts unplaced
 * (place -1) and their edges without a route.  That is sound only if any
 * unit a consumer may land on takes the immediate, so the rule is: a const
 * folds when it has a value, feeds at least one edge, and every unit that
 * can run each consumer takes an immediate on that operand with a field
 * its value fits.  A const the rule leaves (some candidate unit lacks the
 * immediate, the value is too wide, or it only gives loop-carried edges
 * their initial value) stays a node on a ConstUnit.  The checker and the
 * simulator then accept and execute either form.
 */
#include <stdlib.h>
#include <string.h>

#include "imm_internal.h"
#include "model_internal.h"

bool cg__imm_takes(const cg_nl_prim *pr, int k)
{
    return k >= 0 && k < 32 && (pr->p.imm_operands & (1u << k));
}

int cg__imm_bits(const cg_nl_prim *pr)
{
    return pr->p.imm_width ? pr->p.imm_width : pr->p.width;
}

bool cg__imm_fits(const cg_dfg_node *c, int bits)
{
    if (bits >= 64)
        return true;
    int64_t v = cg_sext((uint64_t)c->value, c->width);
    int64_t lim = (int64_t)1 << (bits - 1);
    return v >= -lim && v < lim;
}

uint64_t cg__imm_operand(const cg_dfg_node *c, int bits)
{
    uint64_t field = cg_trunc((uint64_t)c->value, bits);
    return cg_trunc((uint64_t)cg_sext(field, bits), c->width);
}

bool cg__imm_node(const cg_mapping *m, const cg_dfg *g, int v)
{
    return m->place[v] == -1 && cg_dfg_get_node(g, v)->op == CG_OP_CONST;
}

bool cg__imm_edge(const cg_mapping *m, const cg_dfg *g, int e)
{
    return cg__imm_node(m, g, cg_dfg_get_edge(g, e)->src);
}

/* May operand k of node dst be c's immediate on every unit that can run
 * dst (and is there such a unit)? */
static bool every_unit_takes(const cg_netlist *nl, const cg_dfg_node *c,
                             const cg_dfg_node *dst, int k)
{
    int units = 0;
    for (int i = 0; i < cg_netlist_nprims(nl); i++) {
        const cg_nl_prim *pr = cg_netlist_prim(nl, i);
        if (!cg__map_node_fits(pr, dst))
            continue;
        if (!cg__imm_takes(pr, k) || !cg__imm_fits(c, cg__imm_bits(pr)))
            return false;
        units++;
    }
    return units > 0;
}

/* fold[v] for every node of g by the rule above; the number folded. */
static int foldable(const cg_netlist *nl, const cg_dfg *g, bool *fold)
{
    int n = cg_dfg_nnodes(g), count = 0;
    for (int v = 0; v < n; v++) {
        const cg_dfg_node *x = cg_dfg_get_node(g, v);
        fold[v] = x->op == CG_OP_CONST && x->has_value;
    }
    bool *fed = calloc((size_t)n + 1, sizeof *fed);
    if (!fed)
        return -1;
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        if (!fold[x->src])
            continue;
        fed[x->src] = true;
        fold[x->src] = every_unit_takes(nl, cg_dfg_get_node(g, x->src),
                                        cg_dfg_get_node(g, x->dst),
                                        x->operand);
    }
    for (int v = 0; v < n; v++) {
        fold[v] = fold[v] && fed[v];
        count += fold[v];
    }
    free(fed);
    return count;
}

static char *dup(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* g's nest with its node ids renumbered by node[]; NULL on no memory. */
static cg_nest *renumbered_nest(const cg_nest *s, const int *node)
{
    cg_nest *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    *n = *s;
    n->arrays = NULL;
    n->accesses = NULL;
    n->liveins = NULL;
    n->narrays = n->naccesses = n->nliveins = 0;
    for (int l = 0; l < s->nloops && l < CG_NEST_MAX_LOOPS; l++) {
        n->loops[l].counter = dup(s->loops[l].counter);
        n->loops[l].trip_sym = dup(s->loops[l].trip_sym);
    }
    n->arrays = calloc((size_t)s->narrays + 1, sizeof *n->arrays);
    n->accesses = calloc((size_t)s->naccesses + 1, sizeof *n->accesses);
    n->liveins = calloc((size_t)s->nliveins + 1, sizeof *n->liveins);
    if (!n->arrays || !n->accesses || !n->liveins) {
        cg_nest_destroy(n);
        return NULL;
    }
    for (; n->narrays < s->narrays; n->narrays++) {
        n->arrays[n->narrays] = s->arrays[n->narrays];
        n->arrays[n->narrays].name = dup(s->arrays[n->narrays].name);
    }
    for (; n->naccesses < s->naccesses; n->naccesses++) {
        n->accesses[n->naccesses] = s->accesses[n->naccesses];
        n->accesses[n->naccesses].node = node[s->accesses[n->naccesses].node];
    }
    for (; n->nliveins < s->nliveins; n->nliveins++) {
        n->liveins[n->nliveins] = s->liveins[n->nliveins];
        n->liveins[n->nliveins].node = node[s->liveins[n->nliveins].node];
    }
    return n;
}

/* g's memory order on r->g: its stated pairs renumbered, or its nest
 * (loads and stores never fold, so every pair survives).  0, or -1. */
static int keep_order(const cg_dfg *g, cg__imm_red *r, cg_diags *d)
{
    const cg_mem_order *v;
    int n = cg_dfg_mem_order(g, &v);
    if (n >= 0) {
        cg_mem_order *o = malloc(sizeof *o * ((size_t)n + 1));
        if (!o)
            return -1;
        for (int i = 0; i < n; i++)
            o[i] = (cg_mem_order){r->node[v[i].first], r->node[v[i].then],
                                  v[i].distance, v[i].latency};
        int rc = cg_dfg_set_mem_order(r->g, o, n, d);
        free(o);
        return rc;
    }
    if (cg_dfg_nest(g)) {
        cg_nest *nest = renumbered_nest(cg_dfg_nest(g), r->node);
        if (!nest)
            return -1;
        cg_dfg_set_nest(r->g, nest);
    }
    return 0;
}

/* Copy node v of g as the next node of r->g. */
static int copy_node(const cg_dfg *g, int v, cg_dfg *to)
{
    const cg_dfg_node *x = cg_dfg_get_node(g, v);
    int id = cg_dfg_add_node(to, x->op, x->width, x->name);
    if (id < 0)
        return -1;
    cg_dfg_node *y = cg_dfg_node_mut(to, id);
    y->pred = x->pred;
    y->line = x->line;
    y->bank = x->bank;
    if (x->has_value)
        cg_dfg_set_value(to, id, x->value);
    if (x->sym)
        cg_dfg_set_sym(to, id, x->sym);
    return id;
}

/* r->g: g without the folded nodes and their edges.  0, or -1. */
static int build(const cg_dfg *g, const bool *fold, cg__imm_red *r,
                 cg_diags *d)
{
    r->g = cg_dfg_create(cg_dfg_name(g));
    if (!r->g)
        return -1;
    cg_dfg_set_file(r->g, cg_dfg_file(g));
    for (int v = 0; v < cg_dfg_nnodes(g); v++) {
        r->node[v] = fold[v] ? -1 : copy_node(g, v, r->g);
        if (!fold[v] && r->node[v] < 0)
            return -1;
    }
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        r->edge[e] = -1;
        if (fold[x->src])
            continue;
        /* an init that folded: the searches never read init values */
        int init = x->init >= 0 ? r->node[x->init] : -1;
        r->edge[e] = cg_dfg_add_edge(r->g, r->node[x->src], r->node[x->dst],
                                     x->operand, x->distance, init);
        if (r->edge[e] < 0)
            return -1;
    }
    return keep_order(g, r, d);
}

int cg__imm_reduce(const cg_netlist *nl, const cg_dfg *g, cg__imm_red *r,
                   cg_diags *d)
{
    int n = cg_dfg_nnodes(g);
    memset(r, 0, sizeof *r);
    r->nnodes = n;
    bool *fold = malloc(((size_t)n + 1) * sizeof *fold);
    int count = fold ? foldable(nl, g, fold) : -1;
    int rc = 0;
    if (count > 0) {
        r->node = malloc(((size_t)n + 1) * sizeof *r->node);
        r->edge = malloc(((size_t)cg_dfg_nedges(g) + 1) * sizeof *r->edge);
        rc = r->node && r->edge ? build(g, fold, r, d) : -1;
    }
    free(fold);
    if (count < 0 || rc < 0) {
        cg__imm_red_free(r);
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "out of memory folding the consts of '%s' into "
                     "immediates", cg_dfg_name(g));
        return -1;
    }
    return 0;
}

cg_mapping *cg__imm_expand(const cg__imm_red *r, const cg_dfg *g,
                           const cg_mapping *rm)
{
    int ne = cg_dfg_nedges(g);
    cg_mapping *m = cg_mapping_create(rm->ii, r->nnodes, ne);
    if (!m)
        return NULL;
    bool *seen = calloc((size_t)r->nnodes + 1, sizeof *seen);
    for (int v = 0; v < r->nnodes; v++)
        if (r->node[v] >= 0) {
            m->place[v] = rm->place[r->node[v]];
            m->start[v] = rm->start[r->node[v]];
        }
    for (int e = 0; seen && e < ne; e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        int k = r->edge[e];
        if (k < 0) { /* the earliest consumer reads the immediate first */
            int64_t t = m->start[x->dst];
            if (!seen[x->src] || t < m->start[x->src])
                m->start[x->src] = t;
            seen[x->src] = true;
            continue;
        }
        size_t bytes = sizeof(int) * ((size_t)rm->route_len[k] + 1);
        m->route[e] = malloc(bytes);
        if (!m->route[e]) {
            free(seen);
            cg_mapping_destroy(m);
            return NULL;
        }
        m->route_len[e] = rm->route_len[k];
        if (rm->route_len[k])
            memcpy(m->route[e], rm->route[k], bytes - sizeof(int));
    }
    if (!seen) {
        cg_mapping_destroy(m);
        return NULL;
    }
    free(seen);
    return m;
}

void cg__imm_red_free(cg__imm_red *r)
{
    if (!r)
        return;
    cg_dfg_destroy(r->g);
    free(r->node);
    free(r->edge);
    memset(r, 0, sizeof *r);
}
