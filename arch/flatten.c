/* flatten.c: cg_arch_flatten, the model to the device netlist.
 *
 * Precondition: cg__flat_check (check.c) passed, so every reference is
 * resolved and legal.  expand() instantiates the hierarchy from the top
 * module: every module instance gets nodes for its ports and wires and for
 * the ports of its primitives; each connection becomes an edge; a net is
 * everything a primitive output reaches through ports and wires.
 * The netlist's primitives are sorted by hierarchical name (naturally:
 * block_2_0 before block_10_0), so it does not depend on declaration order.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_internal.h"

/* ---- expansion ---------------------------------------------------------- */

/* One module instance of the expanded hierarchy. */
typedef struct finst {
    int mod;
    int base;      /* its first global node */
    int *child;    /* per instance: the finst of a sub-module */
    char *path;    /* "block_1_2.alu", "" for the top */
    int row, col;
} finst;

/* A primitive of the expanded hierarchy before sorting. */
typedef struct fprim {
    char *name;
    const cg__inst *in;
    int width;     /* resolved (select-from multiplexers) */
    int node;      /* global node of its first port */
    int row, col;
} fprim;

typedef struct expand_ctx {
    cg__fctx *f;
    finst *fi;
    int nfi, cfi;
    fprim *fp;
    int nfp, cfp;
    int nnodes;
    cg__arena *arena;
} expand_ctx;

static char *join(cg__arena *ar, const char *path, const char *name)
{
    size_t n = strlen(path) + strlen(name) + 2;
    char *s = cg__arena_alloc(ar, n);
    if (s)
        snprintf(s, n, "%s%s%s", path, *path ? "." : "", name);
    return s;
}

static int expand(expand_ctx *x, int mi, const char *path, int row, int col)
{
    const cg__module *m = &x->f->a->mods[mi];
    const cg__mcheck *mc = &x->f->mc[mi];
    if (CG_GROW(x->fi, x->cfi, x->nfi + 1) < 0)
        return -1;
    int me = x->nfi++;
    finst *fi = &x->fi[me];
    fi->mod = mi;
    fi->base = x->nnodes;
    fi->path = cg__arena_strdup(x->arena, path);
    fi->child =
        cg__arena_alloc(x->arena, sizeof(int) * (size_t)(m->ninsts + 1));
    fi->row = row;
    fi->col = col;
    if (!fi->path || !fi->child)
        return -1;
    x->nnodes += mc->nlocal; /* sub-module port slots stay unused */
    for (int i = 0; i < m->ninsts; i++) {
        const cg__inst *in = &m->insts[i];
        int r = mi == x->f->a->top ? in->row : row;
        int c = mi == x->f->a->top ? in->col : col;
        char *name = join(x->arena, path, in->name);
        if (!name)
            return -1;
        x->fi[me].child[i] = -1;
        if (!in->prim) {
            x->fi[me].child[i] = x->nfi;
            if (expand(x, mc->sub[i], name, r, c) < 0)
                return -1;
            continue;
        }
        if (CG_GROW(x->fp, x->cfp, x->nfp + 1) < 0)
            return -1;
        fprim *p = &x->fp[x->nfp++];
        p->name = name;
        p->in = in;
        p->width = in->autow ? mc->autow[i] : in->p.width;
        p->node = x->fi[me].base + mc->base[i];
        p->row = r;
        p->col = c;
    }
    return 0;
}

static int gnode(const expand_ctx *x, int fidx, cg__ref r)
{
    const finst *fi = &x->fi[fidx];
    const cg__mcheck *mc = &x->f->mc[fi->mod];
    if (r.kind == CG__REF_SIG)
        return fi->base + r.idx;
    if (r.kind == CG__REF_PRIM)
        return fi->base + mc->base[r.inst] + r.idx;
    return x->fi[fi->child[r.inst]].base + r.idx;
}

/* The finst whose node range holds node (bases increase with the index). */
static int finst_of(const expand_ctx *x, int node)
{
    int lo = 0, hi = x->nfi - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (x->fi[mid].base <= node)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Hierarchical name of a port or wire node, for messages. */
static void node_name(const expand_ctx *x, int node, char *buf, size_t len)
{
    const finst *fi = &x->fi[finst_of(x, node)];
    const cg__module *m = &x->f->a->mods[fi->mod];
    int k = node - fi->base;
    snprintf(buf, len, "%s%s%s", fi->path, *fi->path ? "." : "",
             k < m->nsigs ? m->sigs[k].name : "?");
}

/* The graph of the expanded hierarchy: an edge per connection instance. */
typedef struct graph {
    int nedges;
    int *src, *dst;
    int *drv;          /* per node: the edge driving it, -1 */
    int *off, *adj;    /* CSR of out-edges (destination nodes) */
} graph;

static void free_graph(graph *g)
{
    free(g->src);
    free(g->dst);
    free(g->drv);
    free(g->off);
    free(g->adj);
}

static int count_edges(const expand_ctx *x)
{
    int n = 0;
    for (int i = 0; i < x->nfi; i++)
        n += x->f->a->mods[x->fi[i].mod].nconns;
    return n;
}

/* Whether reference r of finst fidx is an inout port (of its module, of a
 * primitive or of a sub-module); wires are not. */
static bool ref_inout(const expand_ctx *x, int fidx, cg__ref r)
{
    const finst *fi = &x->fi[fidx];
    const cg__module *m = &x->f->a->mods[fi->mod];
    if (r.kind == CG__REF_PRIM) {
        cg__pport pp;
        cg__prim_port(&m->insts[r.inst].p, r.idx, &pp);
        return pp.dir == CG_DIR_INOUT;
    }
    if (r.kind == CG__REF_SUB)
        m = &x->f->a->mods[x->fi[fi->child[r.inst]].mod];
    return !m->sigs[r.idx].wire && m->sigs[r.idx].dir == CG_DIR_INOUT;
}

/* A connection between two inout ports: a join of two pins, which CGRA-ME
 * (like Verilog) writes in either direction across module boundaries. */
typedef struct ujoin {
    int s, t, fi, conn;
} ujoin;

static void add_edge(graph *g, int s, int t)
{
    g->drv[t] = g->nedges;
    g->src[g->nedges] = s;
    g->dst[g->nedges++] = t;
    g->off[s + 1]++;
}

static void two_drivers(expand_ctx *x, const graph *g, const ujoin *j)
{
    const cg__module *m = &x->f->a->mods[x->fi[j->fi].mod];
    const cg__conn *cn = &m->conns[j->conn];
    char a[512], b[512];
    node_name(x, j->t, a, sizeof a);
    node_name(x, g->src[g->drv[j->t]], b, sizeof b);
    cg_error_at(x->f->d, cn->loc, "inout port '%s' is driven both inside "
                "and outside its module (by '%s' and by '%s'); drive it "
                "from one side", a, b, cg__flat_shown(cn->from));
}

/* Orient the joins of inout ports so that each port has one driver: away
 * from a side already driven, else as written.  Passes repeat while one
 * orients a join, since that drives another port. */
static void orient_joins(expand_ctx *x, graph *g, ujoin *j, int n)
{
    bool *done = calloc((size_t)n + 1, sizeof *done);
    if (!done)
        return;
    for (bool written = false, more = true; more;) {
        more = false;
        for (int i = 0; i < n; i++) {
            if (done[i])
                continue;
            bool ds = g->drv[j[i].s] >= 0, dt = g->drv[j[i].t] >= 0;
            if (ds && dt) {
                two_drivers(x, g, &j[i]);
                done[i] = more = true;
            } else if (dt || ds || written) {
                if (dt)
                    add_edge(g, j[i].t, j[i].s);
                else
                    add_edge(g, j[i].s, j[i].t);
                done[i] = more = true;
                written = false;
            }
        }
        if (!more)
            for (int i = 0; i < n && !more; i++)
                more = written = !done[i];
    }
    free(done);
}

static int build_graph(expand_ctx *x, graph *g)
{
    int ne = count_edges(x), nn = x->nnodes, nj = 0;
    memset(g, 0, sizeof *g);
    g->src = malloc(sizeof(int) * (size_t)(ne + 1));
    g->dst = malloc(sizeof(int) * (size_t)(ne + 1));
    g->drv = malloc(sizeof(int) * (size_t)(nn + 1));
    g->off = calloc((size_t)nn + 2, sizeof(int));
    g->adj = malloc(sizeof(int) * (size_t)(ne + 1));
    ujoin *j = malloc(sizeof *j * (size_t)(ne + 1));
    if (!g->src || !g->dst || !g->drv || !g->off || !g->adj || !j) {
        free(j);
        return -1;
    }
    for (int i = 0; i < nn; i++)
        g->drv[i] = -1;
    for (int fi = 0; fi < x->nfi; fi++) {
        const cg__module *m = &x->f->a->mods[x->fi[fi].mod];
        const cg__mcheck *mc = &x->f->mc[x->fi[fi].mod];
        for (int i = 0; i < m->nconns; i++) {
            int s = gnode(x, fi, mc->from[i]), t = gnode(x, fi, mc->to[i]);
            if (ref_inout(x, fi, mc->from[i]) && ref_inout(x, fi, mc->to[i]))
                j[nj++] = (ujoin){s, t, fi, i};
            else if (g->drv[t] >= 0) /* an inout port driven from both sides */
                two_drivers(x, g, &(ujoin){s, t, fi, i});
            else
                add_edge(g, s, t);
        }
    }
    orient_joins(x, g, j, nj);
    free(j);
    for (int i = 0; i < nn; i++)
        g->off[i + 1] += g->off[i];
    int *fill = calloc((size_t)nn + 1, sizeof(int));
    if (!fill)
        return -1;
    for (int e = 0; e < g->nedges; e++)
        g->adj[g->off[g->src[e]] + fill[g->src[e]]++] = g->dst[e];
    free(fill);
    return 0;
}

static int cmp_fprim(const void *pa, const void *pb)
{
    const fprim *a = pa, *b = pb;
    int c = cg__name_cmp(a->name, b->name);
    return c ? c : strcmp(a->name, b->name);
}

/* A string of the netlist's arena equal to s (file names repeat). */
static const char *intern(cg_netlist *nl, const char *s, const char **last,
                          const char **copy)
{
    if (!s)
        return NULL;
    if (*last != s) {
        *last = s;
        *copy = cg__arena_strdup(nl->arena, s);
    }
    return *copy;
}

/* Primitives and ports of the netlist from the sorted fprims; node_port
 * maps each primitive port node to its netlist port. */
static int fill_prims(expand_ctx *x, cg_netlist *nl, int *node_port)
{
    cg__fctx *f = x->f;
    nl->nprims = x->nfp;
    nl->prims = cg__arena_alloc(nl->arena, sizeof *nl->prims *
                                               (size_t)(x->nfp + 1));
    int np = 0;
    for (int i = 0; i < x->nfp; i++)
        np += cg__prim_nports(&x->fp[i].in->p);
    nl->ports = cg__arena_alloc(nl->arena, sizeof *nl->ports *
                                               (size_t)(np + 1));
    if (!nl->prims || !nl->ports)
        return -1;
    const char *last = NULL, *copy = NULL;
    for (int i = 0; i < x->nfp; i++) {
        const fprim *fp = &x->fp[i];
        cg_nl_prim *p = &nl->prims[i];
        p->name = fp->name;
        p->p = fp->in->p;
        p->p.width = fp->width;
        p->row = fp->row;
        p->col = fp->col;
        p->memory = fp->in->p.kind == CG_PRIM_MEM
                        ? cg__flat_mem_of(f, fp->in, false)
                        : -1;
        p->p.memory = p->memory >= 0 ? nl->mems[p->memory].name : NULL;
        p->loc.file = intern(nl, fp->in->loc.file, &last, &copy);
        p->loc.line = fp->in->loc.line;
        p->port0 = nl->nports;
        p->nports = cg__prim_nports(&p->p);
        for (int k = 0; k < p->nports; k++) {
            cg__pport pp;
            cg__prim_port(&p->p, k, &pp);
            cg_nl_port *o = &nl->ports[nl->nports];
            o->name = cg__arena_strdup(nl->arena, pp.name);
            if (!o->name)
                return -1;
            o->prim = i;
            o->dir = pp.dir;
            o->width = pp.width;
            o->net = -1;
            node_port[fp->node + k] = nl->nports++;
        }
    }
    return 0;
}

typedef struct netbuf {
    int *sinks;
    int nsinks, csinks;
    int *start;        /* per net: first sink */
    int *stack, *seen;
} netbuf;

/* The net driven by port id drv (its node is start): every primitive port
 * it reaches through ports and wires. */
static int trace(const graph *g, const int *node_port, cg_netlist *nl,
                 netbuf *b, int drv, int start)
{
    int n = nl->nnets, sp = 0, first = b->nsinks;
    b->stack[sp++] = start;
    b->seen[start] = n + 1;
    while (sp) {
        int v = b->stack[--sp];
        for (int e = g->off[v]; e < g->off[v + 1]; e++) {
            int w = g->adj[e];
            if (b->seen[w] == n + 1)
                continue;
            b->seen[w] = n + 1;
            if (node_port[w] < 0) {
                b->stack[sp++] = w;
                continue;
            }
            if (CG_GROW(b->sinks, b->csinks, b->nsinks + 1) < 0)
                return -1;
            b->sinks[b->nsinks++] = node_port[w];
        }
    }
    if (b->nsinks == first)
        return 0;
    b->start[n] = first;
    nl->nets[n].driver = drv;
    nl->nets[n].nsinks = b->nsinks - first;
    nl->ports[drv].net = n;
    for (int i = first; i < b->nsinks; i++)
        nl->ports[b->sinks[i]].net = n;
    nl->nnets++;
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int build_nets(expand_ctx *x, const graph *g, cg_netlist *nl,
                      const int *node_port, const int *port_node)
{
    netbuf b = {0};
    int rc = 0;
    nl->nets = cg__arena_alloc(nl->arena, sizeof *nl->nets *
                                              (size_t)(nl->nports + 1));
    b.start = calloc((size_t)nl->nports + 1, sizeof(int));
    b.stack = malloc(sizeof(int) * (size_t)(x->nnodes + 1));
    b.seen = calloc((size_t)x->nnodes + 1, sizeof(int));
    if (!nl->nets || !b.start || !b.stack || !b.seen)
        rc = -1;
    for (int p = 0; rc == 0 && p < nl->nports; p++) {
        const cg_nl_port *pt = &nl->ports[p];
        int node = port_node[p];
        bool drives = g->off[node + 1] > g->off[node];
        if (pt->dir == CG_DIR_IN || (pt->dir == CG_DIR_INOUT && !drives))
            continue;
        if (pt->dir == CG_DIR_INOUT && g->drv[node] >= 0) {
            cg_error_at(x->f->d, nl->prims[pt->prim].loc, "inout port '%s' "
                        "of '%s' both drives and is driven; connect it one "
                        "way", pt->name, nl->prims[pt->prim].name);
            continue;
        }
        rc = trace(g, node_port, nl, &b, p, node);
    }
    nl->sinks = cg__arena_alloc(nl->arena, sizeof(int) *
                                               (size_t)(b.nsinks + 1));
    if (!nl->sinks)
        rc = -1;
    for (int i = 0; rc == 0 && i < nl->nnets; i++) {
        int *s = nl->sinks + b.start[i];
        memcpy(s, b.sinks + b.start[i], sizeof(int) *
                                            (size_t)nl->nets[i].nsinks);
        qsort(s, (size_t)nl->nets[i].nsinks, sizeof(int), cmp_int);
        nl->nets[i].sinks = s;
    }
    free(b.sinks);
    free(b.start);
    free(b.stack);
    free(b.seen);
    return rc;
}

/* loc with its file copied into nl's arena; false when out of memory. */
static bool copy_loc(cg_netlist *nl, cg_loc from, cg_loc *to)
{
    to->line = from.line;
    to->file = from.file ? cg__arena_strdup(nl->arena, from.file) : NULL;
    return !from.file || to->file;
}

static int copy_memories(const cg_arch *a, cg_netlist *nl)
{
    nl->nmems = a->nmems;
    nl->mems = cg__arena_alloc(nl->arena, sizeof *nl->mems *
                                              (size_t)(a->nmems + 1));
    if (!nl->mems)
        return -1;
    for (int i = 0; i < a->nmems; i++) {
        nl->mems[i].name = cg__arena_strdup(nl->arena, a->mems[i].name);
        nl->mems[i].bytes = a->mems[i].bytes;
        nl->mems[i].banks = a->mems[i].banks;
        nl->mems[i].ports = a->mems[i].ports;
        if (!nl->mems[i].name ||
            !copy_loc(nl, a->mems[i].loc, &nl->mems[i].loc))
            return -1;
    }
    if (!copy_loc(nl, a->dma_loc, &nl->dma_loc) ||
        (a->top >= 0 && !copy_loc(nl, a->mods[a->top].loc, &nl->loc)))
        return -1;
    nl->has_dma = a->has_dma;
    nl->addr_width = a->addr_width;
    nl->dma = a->dma;
    return 0;
}

/* Instances, nodes and connections of module mi expanded, saturated just
 * above CG_MAX_NODES; memo[m] < 0 until computed. */
static long long expanded_size(const cg__fctx *f, int mi, long long *memo)
{
    if (memo[mi] >= 0)
        return memo[mi];
    const cg__module *m = &f->a->mods[mi];
    long long n = 1 + (long long)f->mc[mi].nlocal + m->nconns;
    for (int i = 0; i < m->ninsts && n <= CG_MAX_NODES; i++)
        if (!m->insts[i].prim)
            n += expanded_size(f, f->mc[mi].sub[i], memo);
    return memo[mi] = n > CG_MAX_NODES ? CG_MAX_NODES + 1LL : n;
}

static bool big_child(const cg__fctx *f, int mi, const long long *memo)
{
    const cg__module *m = &f->a->mods[mi];
    for (int i = 0; i < m->ninsts; i++)
        if (!m->insts[i].prim && memo[f->mc[mi].sub[i]] > CG_MAX_NODES)
            return true;
    return false;
}

/* A hierarchy multiplies: a few nested modules can ask for billions of
 * nodes.  Reject that before expanding, naming the smallest module too
 * big on its own. */
static int check_size(const cg__fctx *f)
{
    long long *memo = malloc(sizeof *memo * (size_t)f->a->nmods);
    if (!memo)
        return -1;
    for (int i = 0; i < f->a->nmods; i++)
        memo[i] = -1;
    int big = -1;
    if (expanded_size(f, f->a->top, memo) > CG_MAX_NODES)
        for (int i = 0; i < f->a->nmods && big < 0; i++)
            if (memo[i] > CG_MAX_NODES && !big_child(f, i, memo))
                big = i;
    free(memo);
    if (big >= 0)
        cg_error_at(f->d, f->a->mods[big].loc, "module '%s' flattens to more "
                    "than %d instances, ports, wires and connections; nest "
                    "fewer copies", f->a->mods[big].name, CG_MAX_NODES);
    return big >= 0 ? -1 : 0;
}

/* Expand the checked hierarchy into nl. */
static int build(cg__fctx *f, cg_netlist *nl)
{
    expand_ctx x = {.f = f, .arena = nl->arena};
    graph g = {0};
    int *node_port = NULL, *port_node = NULL, rc = -1;
    if (check_size(f) < 0 || copy_memories(f->a, nl) < 0 ||
        expand(&x, f->a->top, "", -1, -1) < 0)
        goto out;
    if (x.nfp)
        qsort(x.fp, (size_t)x.nfp, sizeof *x.fp, cmp_fprim);
    node_port = malloc(sizeof(int) * (size_t)(x.nnodes + 1));
    if (!node_port)
        goto out;
    for (int i = 0; i < x.nnodes; i++)
        node_port[i] = -1;
    if (fill_prims(&x, nl, node_port) < 0 || build_graph(&x, &g) < 0)
        goto out;
    port_node = malloc(sizeof(int) * (size_t)(nl->nports + 1));
    if (!port_node)
        goto out;
    for (int i = 0; i < x.nnodes; i++)
        if (node_port[i] >= 0)
            port_node[node_port[i]] = i;
    rc = build_nets(&x, &g, nl, node_port, port_node);
out:
    if (rc < 0 && !cg__flat_failed(f))
        cg_diags_add(f->d, CG_SEV_ERROR, NULL, 0, "out of memory while "
                     "flattening the architecture");
    free_graph(&g);
    free(node_port);
    free(port_node);
    free(x.fi);
    free(x.fp);
    return rc;
}

/* A warning for each tile memory no MEMUnit reaches: loads and stores
 * could never use it (an if= that left every MEMUnit out, say). */
static void check_memories_reached(const cg_arch *a, const cg_netlist *nl,
                                   cg_diags *d)
{
    for (int m = 0; m < a->nmems; m++) {
        bool reached = false;
        for (int p = 0; p < nl->nprims && !reached; p++)
            reached = nl->prims[p].p.kind == CG_PRIM_MEM &&
                      nl->prims[p].memory == m;
        if (!reached)
            cg_warning_at(d, a->mems[m].loc, "tile memory '%s' is reached by "
                          "no MEMUnit, so no load or store can use it; give "
                          "a MEMUnit memory=\"%s\", or remove the memory",
                          a->mems[m].name, a->mems[m].name);
    }
}

cg_netlist *cg_arch_flatten(const cg_arch *a, cg_diags *d)
{
    cg__fctx f = {a, d, cg_diags_errors(d), NULL, NULL};
    if (a->top < 0 || a->top >= a->nmods) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "the architecture has no top "
                     "module; define one and call cg_arch_set_top");
        return NULL;
    }
    cg_netlist *nl = NULL;
    if (cg__flat_check(&f)) {
        nl = calloc(1, sizeof *nl);
        if (nl && (nl->arena = cg__arena_create())) {
            nl->rows = a->rows;
            nl->cols = a->cols;
            build(&f, nl);
            nl->nblocks = cg__flat_failed(&f) ? 0
                                              : cg__netlist_count_blocks(nl);
            if (nl->nblocks < 0)
                cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "out of memory");
        } else {
            cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "out of memory");
        }
    }
    cg__flat_free(&f);
    if (cg__flat_failed(&f)) {
        cg_netlist_destroy(nl);
        return NULL;
    }
    if (nl)
        check_memories_reached(a, nl, d);
    return nl;
}

void cg_netlist_destroy(cg_netlist *nl)
{
    if (!nl)
        return;
    cg__arena_destroy(nl->arena);
    free(nl);
}
