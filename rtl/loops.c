/* loops.c: combinational loops of a netlist.
 *
 * The graph has a node per netlist port and an edge wherever a value
 * passes within the same cycle: along a net (driver to each sink), and
 * through a primitive without a register: a Multiplexer (every input to
 * out), a TriState, a FuncUnit of latency 0 (every operand to out) and a
 * MEMUnit of latency 0 (addr to data_out: the memory is read in the cycle
 * of the access).  Registers, register files (written at the clock edge),
 * units of latency >= 1, IOs and ConstUnits cut it.  A strongly connected
 * set of two or more ports (or a port feeding itself) is a loop the
 * hardware would have for some configuration; the mapper never closes one
 * (the simulator reports it), but synthesis and lint would, so the stage
 * refuses such an array and names one cycle of each set.
 */
#include <stdlib.h>
#include <string.h>

#include "rtl_internal.h"

typedef struct graph {
    int n;
    int *off, *adj; /* CSR of same-cycle edges */
} graph;

static bool comb_from(const cg_nl_prim *pr, const char *from, const char *to)
{
    switch (pr->p.kind) {
    case CG_PRIM_MUX:
        return !strcmp(to, "out") && strncmp(from, "in", 2) == 0;
    case CG_PRIM_TRISTATE:
        return !strcmp(from, "in") && !strcmp(to, "out");
    case CG_PRIM_FUNC:
        return pr->p.latency == 0 && !strcmp(to, "out") &&
               strncmp(from, "in_", 3) == 0;
    case CG_PRIM_MEM:
        return pr->p.latency == 0 && !strcmp(from, "addr") &&
               !strcmp(to, "data_out");
    default:
        return false;
    }
}

/* Count (adj NULL) or fill the edges of port p. */
static int port_edges(const cg_netlist *nl, int p, int *adj)
{
    const cg_nl_port *pt = cg_netlist_port(nl, p);
    int k = 0;
    if (pt->dir == CG_DIR_OUT && pt->net >= 0) {
        const cg_nl_net *net = cg_netlist_net(nl, pt->net);
        if (net->driver == p)
            for (int s = 0; s < net->nsinks; s++, k++)
                if (adj)
                    adj[k] = net->sinks[s];
    }
    if (pt->dir != CG_DIR_IN)
        return k;
    const cg_nl_prim *pr = cg_netlist_prim(nl, pt->prim);
    for (int q = pr->port0; q < pr->port0 + pr->nports; q++)
        if (comb_from(pr, pt->name, cg_netlist_port(nl, q)->name)) {
            if (adj)
                adj[k] = q;
            k++;
        }
    return k;
}

static int build(const cg_netlist *nl, graph *g)
{
    g->n = cg_netlist_nports(nl);
    g->off = calloc((size_t)g->n + 1, sizeof *g->off);
    if (!g->off)
        return -1;
    for (int p = 0; p < g->n; p++)
        g->off[p + 1] = g->off[p] + port_edges(nl, p, NULL);
    g->adj = malloc(sizeof *g->adj * ((size_t)g->off[g->n] + 1));
    if (!g->adj)
        return -1;
    for (int p = 0; p < g->n; p++)
        port_edges(nl, p, g->adj + g->off[p]);
    return 0;
}

/* Tarjan's strongly connected components, iteratively (a long chain of
 * wires must not overflow the stack).  comp[v] gets its component. */
typedef struct tarjan {
    const graph *g;
    int *index, *low, *comp, *stack, *call, *edge;
    bool *on;
    int next, sp, ncomp;
} tarjan;

static void tj_push(tarjan *t, int v, int *depth)
{
    t->index[v] = t->low[v] = t->next++;
    t->stack[t->sp++] = v;
    t->on[v] = true;
    t->call[*depth] = v;
    t->edge[(*depth)++] = t->g->off[v];
}

static void tj_pop(tarjan *t, int v)
{
    if (t->low[v] != t->index[v])
        return;
    int w;
    do {
        w = t->stack[--t->sp];
        t->on[w] = false;
        t->comp[w] = t->ncomp;
    } while (w != v);
    t->ncomp++;
}

static void tj_visit(tarjan *t, int root)
{
    int depth = 0;
    tj_push(t, root, &depth);
    while (depth > 0) {
        int v = t->call[depth - 1];
        if (t->edge[depth - 1] < t->g->off[v + 1]) {
            int w = t->g->adj[t->edge[depth - 1]++];
            if (t->index[w] < 0)
                tj_push(t, w, &depth);
            else if (t->on[w] && t->index[w] < t->low[v])
                t->low[v] = t->index[w];
            continue;
        }
        tj_pop(t, v);
        if (--depth > 0) {
            int u = t->call[depth - 1];
            if (t->low[v] < t->low[u])
                t->low[u] = t->low[v];
        }
    }
}

/* A shortest cycle from s back to s inside s's component, by BFS; the
 * ports into path (s first), their number returned. */
static int cycle_of(const graph *g, const int *comp, int s, int *prev,
                    int *queue, int *path)
{
    for (int i = 0; i < g->n; i++)
        prev[i] = -2;
    int qh = 0, qt = 0, end = -1;
    queue[qt++] = s;
    while (qh < qt && end < 0) {
        int v = queue[qh++];
        for (int e = g->off[v]; e < g->off[v + 1]; e++) {
            int w = g->adj[e];
            if (comp[w] != comp[s])
                continue;
            if (w == s) {
                end = v;
                break;
            }
            if (prev[w] == -2) {
                prev[w] = v;
                queue[qt++] = w;
            }
        }
    }
    int n = 0;
    for (int v = end; v >= 0 && v != s; v = prev[v])
        path[n++] = v;
    path[n++] = s;
    for (int i = 0; i < n / 2; i++) { /* s first, in signal order */
        int x = path[i];
        path[i] = path[n - 1 - i];
        path[n - 1 - i] = x;
    }
    return n;
}

/* The loop's text ("f0.in_a -> f0.out -> ... -> f0.in_a"), each port with
 * its primitive's hierarchical name when full, else with that name less
 * its block ("block_0_0.") and the primitive's declaration, so that the
 * loops one module's declarations make in every block have one key;
 * malloc'd, NULL on no memory. */
static char *loop_text(const cg_netlist *nl, const int *path, int n,
                       bool full)
{
    size_t cap = 256, len = 0;
    char *s = malloc(cap);
    for (int i = 0; s && i <= n; i++) {
        const cg_nl_port *p = cg_netlist_port(nl, path[i % n]);
        const cg_nl_prim *pr = cg_netlist_prim(nl, p->prim);
        const char *dot = strchr(pr->name, '.');
        char at[256];
        snprintf(at, sizeof at, "%p:%d:%s", (const void *)pr->loc.file,
                 pr->loc.line, dot ? dot + 1 : pr->name);
        /* without a declaration (the C API), nothing says two are alike */
        const char *pn = full || !pr->loc.file ? pr->name : at;
        size_t need = strlen(pn) + strlen(p->name) + 8;
        if (len + need >= cap) {
            char *t = realloc(s, cap = 2 * (len + need));
            if (!t) {
                free(s);
                return NULL;
            }
            s = t;
        }
        len += (size_t)snprintf(s + len, cap - len, "%s%s.%s",
                                i ? " -> " : "", pn, p->name);
    }
    return s;
}

/* One loop found: its key (loop_text without names), its path's text and
 * where its first primitive was declared; how many more have that key. */
typedef struct found {
    char *key, *text;
    cg_loc loc;
    int more;
} found;

static void report(const found *f, cg_diags *d)
{
    char more[96] = "";
    if (f->more)
        snprintf(more, sizeof more, " (and %d more like it, through the "
                 "same declarations in other blocks)", f->more);
    cg_diags_add(d, CG_SEV_ERROR, f->loc.file, f->loc.line,
                 "combinational loop: %s: no register on it (the hardware "
                 "would have a cycle of logic); put a Register on it or "
                 "give a unit on it latency 1%s",
                 f->text ? f->text : "(out of memory)", more);
}

/* Keep the loop of path: a new entry of fs, or one more of an equal key. */
static int keep(const cg_netlist *nl, const int *path, int n, found *fs,
                int *nf)
{
    char *key = loop_text(nl, path, n, false);
    if (!key)
        return -1;
    for (int i = 0; i < *nf; i++)
        if (!strcmp(fs[i].key, key)) {
            fs[i].more++;
            free(key);
            return 0;
        }
    found *f = &fs[(*nf)++];
    const cg_nl_port *p = cg_netlist_port(nl, path[0]);
    *f = (found){key, loop_text(nl, path, n, true),
                 cg_netlist_prim(nl, p->prim)->loc, 0};
    return 0;
}

static int find(const cg_netlist *nl, const graph *g, tarjan *t,
                cg_diags *d)
{
    for (int v = 0; v < g->n; v++)
        if (t->index[v] < 0)
            tj_visit(t, v);
    int *size = calloc((size_t)t->ncomp + 1, sizeof *size);
    bool *said = calloc((size_t)t->ncomp + 1, sizeof *said);
    int *path = malloc(sizeof *path * ((size_t)g->n + 1));
    found *fs = calloc((size_t)t->ncomp + 1, sizeof *fs);
    if (!size || !said || !path || !fs) {
        free(size);
        free(said);
        free(path);
        free(fs);
        return -1;
    }
    int loops = 0, nf = 0;
    for (int v = 0; v < g->n; v++)
        size[t->comp[v]]++;
    /* the lowest port of each loop */
    for (int v = 0; loops >= 0 && v < g->n; v++) {
        int c = t->comp[v];
        bool self = false;
        for (int e = g->off[v]; e < g->off[v + 1]; e++)
            self |= g->adj[e] == v;
        if (said[c] || (size[c] < 2 && !self))
            continue;
        said[c] = true;
        loops++;
        int n = cycle_of(g, t->comp, v, t->low, t->call, path);
        if (keep(nl, path, n, fs, &nf) < 0)
            loops = -1;
    }
    for (int i = 0; i < nf; i++) {
        if (loops > 0)
            report(&fs[i], d);
        free(fs[i].key);
        free(fs[i].text);
    }
    free(fs);
    free(size);
    free(said);
    free(path);
    return loops;
}

int cg_rtl_find_loops(const cg_netlist *nl, cg_diags *d)
{
    graph g = {0};
    tarjan t = {0};
    int rc = -1;
    if (build(nl, &g) < 0)
        goto out;
    size_t n = (size_t)g.n + 1;
    t.g = &g;
    t.index = malloc(n * sizeof(int));
    t.low = malloc(n * sizeof(int));
    t.comp = malloc(n * sizeof(int));
    t.stack = malloc(n * sizeof(int));
    t.call = malloc(n * sizeof(int));
    t.edge = malloc(n * sizeof(int));
    t.on = calloc(n, sizeof(bool));
    if (!t.index || !t.low || !t.comp || !t.stack || !t.call || !t.edge ||
        !t.on)
        goto out;
    memset(t.index, -1, n * sizeof(int));
    rc = find(nl, &g, &t, d);
out:
    free(g.off);
    free(g.adj);
    free(t.index);
    free(t.low);
    free(t.comp);
    free(t.stack);
    free(t.call);
    free(t.edge);
    free(t.on);
    return rc;
}
