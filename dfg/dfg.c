/* dfg.c: the DFG model.  Nodes and edges live in two growable arrays indexed
 * by dense ids; every string the graph points at (names, syms, the file) is
 * a private copy recorded in one list and freed with the graph. */
#include "dfg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/strmap.h"
#include "../common/util.h"
#include "dfg_internal.h"

struct cg_dfg {
    char *name;          /* the loop tag */
    const char *file;    /* interned source file, NULL when unknown */
    cg_dfg_node *nodes;  /* nodes[id] */
    int nnodes, cap_nodes;
    cg_strmap *index;    /* node name -> id; may hold names of nodes that
                            cg_dfg_compact dropped (cg_dfg_find checks) */
    cg_dfg_edge *edges;  /* edges[id] */
    int nedges, cap_edges;
    char **strs;         /* every string the graph owns */
    int nstrs, cap_strs;
    cg_nest *nest;       /* loop nest, NULL when none */
    cg_mem_order *order; /* stated memory order (cg_dfg_set_mem_order) */
    int norder;          /* its pairs, -1 when none is stated */
    bool oom;            /* an allocation failed (cg__dfg_oom) */
    uint64_t mem_base, mem_bytes; /* cg_dfg_set_memory; bytes 0: none */
};

/* A private copy of s owned by g (NULL for NULL or no memory). */
static const char *intern(cg_dfg *g, const char *s)
{
    if (!s)
        return NULL;
    char *c = CG_GROW(g->strs, g->cap_strs, g->nstrs + 1) ? NULL : strdup(s);
    if (c)
        g->strs[g->nstrs++] = c;
    g->oom |= !c;
    return c;
}

bool cg__dfg_oom(const cg_dfg *g) { return g->oom; }

cg_dfg *cg_dfg_create(const char *name)
{
    cg_dfg *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->norder = -1;
    g->name = strdup(name ? name : "");
    g->index = cg_strmap_create();
    if (!g->name || !g->index) {
        free(g->name);
        cg_strmap_destroy(g->index);
        free(g);
        return NULL;
    }
    return g;
}

void cg_dfg_destroy(cg_dfg *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->nstrs; i++)
        free(g->strs[i]);
    free(g->strs);
    free(g->nodes);
    free(g->edges);
    free(g->name);
    cg_strmap_destroy(g->index);
    cg_nest_destroy(g->nest);
    free(g->order);
    free(g);
}

const char *cg_dfg_name(const cg_dfg *g) { return g->name; }
const char *cg_dfg_file(const cg_dfg *g) { return g->file; }

void cg_dfg_set_file(cg_dfg *g, const char *file)
{
    g->file = intern(g, file);
}

/* A name not yet used by any node: want itself, else want.1, want.2, ... */
static const char *unique_name(cg_dfg *g, const char *want)
{
    if (cg_dfg_find(g, want) < 0)
        return intern(g, want);
    size_t len = strlen(want) + 24;
    char *buf = malloc(len);
    if (!buf)
        return NULL;
    for (int k = 1;; k++) {
        snprintf(buf, len, "%s.%d", want, k);
        if (cg_dfg_find(g, buf) < 0)
            break;
    }
    const char *s = intern(g, buf);
    free(buf);
    return s;
}

int cg_dfg_add_node(cg_dfg *g, cg_op op, int width, const char *name)
{
    if (CG_GROW(g->nodes, g->cap_nodes, g->nnodes + 1)) {
        g->oom = true;
        return -1;
    }
    int id = g->nnodes;
    char gen[48];
    if (!name) {
        snprintf(gen, sizeof gen, "%s%d", cg_op_name(op), id);
        name = gen;
    }
    const char *n = unique_name(g, name);
    if (!n || cg_strmap_put(g->index, n, id)) {
        g->oom = true;
        return -1;
    }
    g->nodes[id] = (cg_dfg_node){.op = op, .pred = CG_PRED_NONE,
                                 .width = width, .name = n, .bank = -1};
    g->nnodes++;
    return id;
}

cg_dfg_node *cg_dfg_node_mut(cg_dfg *g, int id)
{
    return id >= 0 && id < g->nnodes ? &g->nodes[id] : NULL;
}

void cg_dfg_set_sym(cg_dfg *g, int id, const char *sym)
{
    if (id >= 0 && id < g->nnodes)
        g->nodes[id].sym = intern(g, sym);
}

void cg_dfg_set_value(cg_dfg *g, int id, int64_t value)
{
    if (id >= 0 && id < g->nnodes) {
        g->nodes[id].has_value = true;
        g->nodes[id].value = value;
    }
}

int cg_dfg_add_edge(cg_dfg *g, int src, int dst, int operand, int distance,
                    int init)
{
    if (CG_GROW(g->edges, g->cap_edges, g->nedges + 1)) {
        g->oom = true;
        return -1;
    }
    g->edges[g->nedges] = (cg_dfg_edge){src, dst, operand, distance, init};
    return g->nedges++;
}

cg_dfg_edge *cg_dfg_edge_mut(cg_dfg *g, int id)
{
    return id >= 0 && id < g->nedges ? &g->edges[id] : NULL;
}

int cg_dfg_nnodes(const cg_dfg *g) { return g->nnodes; }
int cg_dfg_nedges(const cg_dfg *g) { return g->nedges; }

const cg_dfg_node *cg_dfg_get_node(const cg_dfg *g, int id)
{
    return id >= 0 && id < g->nnodes ? &g->nodes[id] : NULL;
}

const cg_dfg_edge *cg_dfg_get_edge(const cg_dfg *g, int id)
{
    return id >= 0 && id < g->nedges ? &g->edges[id] : NULL;
}

/* Hashed (a .dot may have 100k nodes).  An entry of a node that
 * cg_dfg_compact dropped may point at another node now: the name says. */
int cg_dfg_find(const cg_dfg *g, const char *name)
{
    int i;
    if (!cg_strmap_get(g->index, name, &i) || i >= g->nnodes ||
        strcmp(g->nodes[i].name, name) != 0)
        return -1;
    return i;
}

int cg_dfg_operand_edge(const cg_dfg *g, int id, int k)
{
    for (int e = 0; e < g->nedges; e++)
        if (g->edges[e].dst == id && g->edges[e].operand == k)
            return e;
    return -1;
}

/* Drop the nodes with keep_node[id] false (and every edge touching them) and
 * the edges with keep_edge[id] false; either array may be NULL = keep all.
 * Survivors keep their relative order.  new_id (may be NULL) receives each
 * old node id's new id or -1.  Strings are not reclaimed until destroy. */
void cg_dfg_compact(cg_dfg *g, const bool *keep_node, const bool *keep_edge,
                    int *new_id)
{
    int *map = malloc(((size_t)g->nnodes + 1) * sizeof(int));
    if (!map)
        return;
    int n = 0, old = g->nnodes;
    for (int i = 0; i < old; i++) {
        bool keep = !keep_node || keep_node[i];
        map[i] = keep ? n : -1;
        if (keep) { /* the name is in the index: put allocates nothing */
            (void)cg_strmap_put(g->index, g->nodes[i].name, n);
            g->nodes[n++] = g->nodes[i];
        }
    }
    g->nnodes = n;
    int m = 0;
    for (int e = 0; e < g->nedges; e++) {
        cg_dfg_edge x = g->edges[e];
        if ((keep_edge && !keep_edge[e]) || map[x.src] < 0 || map[x.dst] < 0)
            continue;
        x.src = map[x.src];
        x.dst = map[x.dst];
        x.init = x.init >= 0 ? map[x.init] : -1;
        g->edges[m++] = x;
    }
    g->nedges = m;
    if (new_id)
        memcpy(new_id, map, (size_t)old * sizeof(int));
    free(map);
}

const cg_nest *cg_dfg_nest(const cg_dfg *g) { return g->nest; }

void cg_dfg_set_nest(cg_dfg *g, cg_nest *nest)
{
    if (g->nest != nest)
        cg_nest_destroy(g->nest);
    g->nest = nest;
}

void cg_nest_destroy(cg_nest *n)
{
    if (!n)
        return;
    for (int l = 0; l < n->nloops && l < CG_NEST_MAX_LOOPS; l++) {
        free((char *)n->loops[l].counter);
        free((char *)n->loops[l].trip_sym);
    }
    for (int a = 0; a < n->narrays; a++)
        free((char *)n->arrays[a].name);
    free(n->arrays);
    free(n->accesses);
    free(n->liveins);
    free(n);
}

/* ---- stated memory order ------------------------------------------------ */

int cg_dfg_mem_order(const cg_dfg *g, const cg_mem_order **v)
{
    *v = g->order;
    return g->norder;
}

void cg_dfg_set_memory(cg_dfg *g, uint64_t base, uint64_t bytes)
{
    g->mem_base = base;
    g->mem_bytes = bytes;
}

uint64_t cg_dfg_memory(const cg_dfg *g, uint64_t *base)
{
    if (base)
        *base = g->mem_base;
    return g->mem_bytes;
}

void cg_dfg_clear_mem_order(cg_dfg *g)
{
    free(g->order);
    g->order = NULL;
    g->norder = -1;
}

/* A name the memory_order attribute can hold: "FIRST->THEN:DISTANCE"
 * entries separated by blanks. */
static bool order_name(const char *s)
{
    return *s && !strpbrk(s, " \t\n\r\f\v:") && !strstr(s, "->");
}

/* The error of pair o, NULL when it is a valid pair of g. */
static const char *bad_pair(const cg_dfg *g, const cg_mem_order *o)
{
    if (o->first < 0 || o->first >= g->nnodes || o->then < 0 ||
        o->then >= g->nnodes)
        return "names no node of the graph";
    const cg_dfg_node *a = &g->nodes[o->first], *b = &g->nodes[o->then];
    if (!cg__dfg_is_mem(a->op) || !cg__dfg_is_mem(b->op))
        return "names a node that is not a load or store";
    if (a->op == CG_OP_LOAD && b->op == CG_OP_LOAD)
        return "orders two loads (only pairs with a store need an order)";
    if (o->distance < 0)
        return "has a negative distance";
    if (o->distance == 0 && o->first >= o->then)
        return "has distance 0 but its first op does not come first in "
               "program order (node order)";
    if (!order_name(a->name) || !order_name(b->name))
        return "names a node whose name has blanks, ':' or \"->\", which "
               "the .dot attribute memory_order cannot hold (rename it)";
    return NULL;
}

/* 'name' of node id, or #id when there is no such node. */
static void node_label(const cg_dfg *g, int id, char *buf, size_t len)
{
    if (id >= 0 && id < g->nnodes)
        snprintf(buf, len, "'%s'", g->nodes[id].name);
    else
        snprintf(buf, len, "#%d", id);
}

int cg_dfg_set_mem_order(cg_dfg *g, const cg_mem_order *v, int n,
                         cg_diags *d)
{
    for (int i = 0; i < n; i++) {
        const char *why = bad_pair(g, &v[i]);
        if (why) {
            char a[64], b[64];
            node_label(g, v[i].first, a, sizeof a);
            node_label(g, v[i].then, b, sizeof b);
            bool known = v[i].first >= 0 && v[i].first < g->nnodes;
            cg_diags_add(d, CG_SEV_ERROR, g->file,
                         known ? g->nodes[v[i].first].line : 0,
                         "loop '%s': memory order pair %d (%s -> %s, "
                         "distance %d) %s", g->name, i, a, b, v[i].distance,
                         why);
            return -1;
        }
    }
    cg_mem_order *c = malloc(sizeof *c * (size_t)(n ? n : 1));
    if (!c) {
        cg_diags_add(d, CG_SEV_ERROR, g->file, 0, "out of memory");
        return -1;
    }
    if (n)
        memcpy(c, v, sizeof *c * (size_t)n);
    free(g->order);
    g->order = c;
    g->norder = n;
    return 0;
}
