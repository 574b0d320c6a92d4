/* mrrg.c: the modulo routing resource graph, the netlist unrolled over the
 * II contexts of a modulo schedule.  The ILP, the checker and the simulator
 * all read it, so it holds exactly the resources and delays of the array.
 *
 * Per context c: a ROUTE node for every data port of every primitive (the
 * configuration inputs -- mux select, tristate enable, register-file
 * addresses and write enables -- carry no values and get none), a FUNC node
 * for every FuncUnit, MEMUnit, IO and ConstUnit, and for every register of a
 * RegisterFile a ROUTE node (port -1) that holds a value from one context to
 * the next.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "model_internal.h"

struct cg_mrrg {
    int ii;
    int nnodes, cap_nodes;
    cg_mrrg_node *nodes;
    int nedges, cap_edges;
    cg_mrrg_edge *edges;
    int *out_off, *out_ids; /* CSR of out-edges */
    int *in_off, *in_ids;   /* CSR of in-edges */
    int nports;
    int *port_node;         /* port * ii + c -> ROUTE node, -1 when none */
    int nprims;
    int *prim_node;         /* prim * ii + c -> FUNC node, -1 when none */
    int *pin;               /* FUNC node * 3 + operand -> its pin, -1 */
    int *rank, *at;         /* node -> its rank among its context's
                               nodes; rank * ii + c -> the node */
};

static int add_node(cg_mrrg *m, cg_mrrg_kind kind, int c, int prim, int port)
{
    if (CG_GROW(m->nodes, m->cap_nodes, m->nnodes + 1))
        return -1;
    cg_mrrg_node *n = &m->nodes[m->nnodes];
    n->kind = kind;
    n->context = c;
    n->prim = prim;
    n->port = port;
    n->operand = -1;
    n->func = -1;
    return m->nnodes++;
}

static int add_edge(cg_mrrg *m, int from, int to, int delay, int mux_input)
{
    if (from < 0 || to < 0)
        return 0; /* an endpoint the graph leaves out: nothing to connect */
    if (CG_GROW(m->edges, m->cap_edges, m->nedges + 1))
        return -1;
    m->edges[m->nedges++] = (cg_mrrg_edge){from, to, delay, mux_input};
    return 0;
}

static bool is_func_kind(cg_prim_kind k)
{
    return k == CG_PRIM_FUNC || k == CG_PRIM_MEM || k == CG_PRIM_IO ||
           k == CG_PRIM_CONST;
}

/* Ports that carry configuration rather than values. */
static bool is_config_port(cg_prim_kind k, const char *name)
{
    switch (k) {
    case CG_PRIM_MUX: return strcmp(name, "select") == 0;
    case CG_PRIM_TRISTATE: return strcmp(name, "enable") == 0;
    case CG_PRIM_REGFILE:
        return strncmp(name, "address_", 8) == 0 ||
               strncmp(name, "WEN", 3) == 0;
    case CG_PRIM_IO: return strcmp(name, "bidir") == 0;
    default: return false;
    }
}

static int pnode(const cg_mrrg *m, const cg_netlist *nl, int prim,
                 const char *port, int c)
{
    int p = cg_netlist_prim_port(nl, prim, port);
    return p < 0 ? -1 : m->port_node[p * m->ii + c];
}

static int make_nodes(cg_mrrg *m, const cg_netlist *nl)
{
    for (int c = 0; c < m->ii; c++) {
        for (int i = 0; i < m->nprims; i++) {
            const cg_nl_prim *pr = cg_netlist_prim(nl, i);
            for (int k = 0; k < pr->nports; k++) {
                int p = pr->port0 + k;
                if (is_config_port(pr->p.kind, cg_netlist_port(nl, p)->name))
                    continue;
                int id = add_node(m, CG_MRRG_ROUTE, c, i, p);
                if (id < 0)
                    return -1;
                m->port_node[p * m->ii + c] = id;
            }
            if (is_func_kind(pr->p.kind)) {
                int id = add_node(m, CG_MRRG_FUNC, c, i, -1);
                if (id < 0)
                    return -1;
                m->prim_node[i * m->ii + c] = id;
            }
        }
    }
    return 0;
}

/* Operand pins and result ports of the unit kinds that execute ops.  A
 * FuncUnit has in_c only when it supports select; pnode() skips absent
 * pins. */
static const char *const func_pins[] = {"in_a", "in_b", "in_c", NULL};
static const char *const mem_pins[] = {"addr", "data_in", NULL};
static const char *const io_pins[] = {"in", NULL};
static const char *const none_pins[] = {NULL};

static int func_edges(cg_mrrg *m, const cg_netlist *nl, int prim)
{
    const cg_nl_prim *pr = cg_netlist_prim(nl, prim);
    const char *const *pins = none_pins;
    const char *res = "out";
    int lat = 0;
    switch (pr->p.kind) {
    case CG_PRIM_FUNC: pins = func_pins; lat = pr->p.latency; break;
    case CG_PRIM_MEM: pins = mem_pins; res = "data_out";
        lat = pr->p.latency; break;
    case CG_PRIM_IO: pins = io_pins; break;
    default: break;
    }
    for (int c = 0; c < m->ii; c++) {
        int f = m->prim_node[prim * m->ii + c];
        for (int k = 0; pins[k]; k++) {
            int pin = pnode(m, nl, prim, pins[k], c);
            if (pin < 0)
                continue;
            m->nodes[pin].operand = k;
            m->nodes[pin].func = f;
            if (add_edge(m, pin, f, 0, -1) < 0)
                return -1;
        }
        int o = pnode(m, nl, prim, res, (c + lat) % m->ii);
        if (o >= 0) {
            m->nodes[o].func = f;
            if (add_edge(m, f, o, lat, -1) < 0)
                return -1;
        }
    }
    return 0;
}

/* A register file: registers as ROUTE nodes that hold a value from context
 * c to c+1; a write port reaches every register one cycle later, every
 * register reaches every read port in the same cycle. */
static int regfile_edges(cg_mrrg *m, const cg_netlist *nl, int prim)
{
    const cg_nl_prim *pr = cg_netlist_prim(nl, prim);
    int nregs = 1 << pr->p.log2_nregs;
    int base = m->nnodes;
    for (int c = 0; c < m->ii; c++)
        for (int r = 0; r < nregs; r++)
            if (add_node(m, CG_MRRG_ROUTE, c, prim, -1) < 0)
                return -1;
    char name[32];
    for (int c = 0; c < m->ii; c++) {
        int c1 = (c + 1) % m->ii;
        for (int r = 0; r < nregs; r++) {
            int reg = base + c * nregs + r, next = base + c1 * nregs + r;
            if (add_edge(m, reg, next, 1, -1) < 0)
                return -1;
            for (int w = 0; w < pr->p.ninput; w++) {
                snprintf(name, sizeof name, "in%d", w);
                if (add_edge(m, pnode(m, nl, prim, name, c), next, 1, -1))
                    return -1;
            }
            for (int k = 0; k < pr->p.noutput; k++) {
                snprintf(name, sizeof name, "out%d", k);
                if (add_edge(m, reg, pnode(m, nl, prim, name, c), 0, -1))
                    return -1;
            }
        }
    }
    return 0;
}

static int prim_edges(cg_mrrg *m, const cg_netlist *nl, int prim)
{
    const cg_nl_prim *pr = cg_netlist_prim(nl, prim);
    char name[32];
    switch (pr->p.kind) {
    case CG_PRIM_REG:
        for (int c = 0; c < m->ii; c++)
            if (add_edge(m, pnode(m, nl, prim, "in", c),
                         pnode(m, nl, prim, "out", (c + 1) % m->ii), 1, -1))
                return -1;
        return 0;
    case CG_PRIM_MUX:
        for (int c = 0; c < m->ii; c++)
            for (int k = 0; k < pr->p.ninput; k++) {
                snprintf(name, sizeof name, "in%d", k);
                if (add_edge(m, pnode(m, nl, prim, name, c),
                             pnode(m, nl, prim, "out", c), 0, k))
                    return -1;
            }
        return 0;
    case CG_PRIM_TRISTATE:
        for (int c = 0; c < m->ii; c++)
            if (add_edge(m, pnode(m, nl, prim, "in", c),
                         pnode(m, nl, prim, "out", c), 0, -1))
                return -1;
        return 0;
    case CG_PRIM_REGFILE:
        return regfile_edges(m, nl, prim);
    default:
        return func_edges(m, nl, prim);
    }
}

static int net_edges(cg_mrrg *m, const cg_netlist *nl)
{
    for (int n = 0; n < cg_netlist_nnets(nl); n++) {
        const cg_nl_net *net = cg_netlist_net(nl, n);
        for (int c = 0; c < m->ii; c++)
            for (int s = 0; s < net->nsinks; s++)
                if (add_edge(m, m->port_node[net->driver * m->ii + c],
                             m->port_node[net->sinks[s] * m->ii + c], 0, -1))
                    return -1;
    }
    return 0;
}

int cg__map_csr(int nnodes, int nedges, const int *key, size_t stride,
                int **off, int **ids)
{
    *off = calloc((size_t)nnodes + 1, sizeof **off);
    *ids = malloc(sizeof **ids * ((size_t)nedges + 1));
    int *fill = calloc((size_t)nnodes + 1, sizeof *fill);
    if (!*off || !*ids || !fill) {
        free(fill);
        return -1;
    }
#define KEY(e) (*(const int *)((const char *)key + (size_t)(e) * stride))
    for (int e = 0; e < nedges; e++)
        (*off)[KEY(e) + 1]++;
    for (int i = 0; i < nnodes; i++)
        (*off)[i + 1] += (*off)[i];
    for (int e = 0; e < nedges; e++)
        (*ids)[(*off)[KEY(e)] + fill[KEY(e)]++] = e;
#undef KEY
    free(fill);
    return 0;
}

/* Out-edge (out) or in-edge CSR of the graph. */
static int make_csr(const cg_mrrg *m, bool out, int **off, int **ids)
{
    const int *key = !m->nedges ? NULL
                     : out        ? &m->edges[0].from
                                  : &m->edges[0].to;
    return cg__map_csr(m->nnodes, m->nedges, key,
                       sizeof *m->edges, off, ids);
}

/* The pin index (cg_mrrg_pin); -1 on no memory. */
static int make_pins(cg_mrrg *m)
{
    m->pin = malloc(sizeof(int) * (3 * (size_t)m->nnodes + 1));
    if (!m->pin)
        return -1;
    memset(m->pin, -1, sizeof(int) * (3 * (size_t)m->nnodes + 1));
    for (int i = 0; i < m->nnodes; i++) {
        const cg_mrrg_node *nd = &m->nodes[i];
        if (nd->kind == CG_MRRG_ROUTE && nd->operand >= 0 &&
            nd->operand < 3 && nd->func >= 0)
            m->pin[nd->func * 3 + nd->operand] = i;
    }
    return 0;
}

int cg_mrrg_pin(const cg_mrrg *m, int func, int operand)
{
    if (func < 0 || func >= m->nnodes || operand < 0 || operand > 2)
        return -1;
    return m->pin[func * 3 + operand];
}

/* Every context gets its nodes in the same order (make_nodes, then each
 * register file context by context), so a node's rank among the nodes of
 * its context names its twin in every other context (cg__mrrg_shift). */
static int make_twins(cg_mrrg *m)
{
    int *count = calloc((size_t)m->ii, sizeof *count);
    m->rank = malloc(sizeof(int) * ((size_t)m->nnodes + 1));
    m->at = malloc(sizeof(int) * ((size_t)m->nnodes + 1));
    if (!count || !m->rank || !m->at) {
        free(count);
        return -1;
    }
    for (int i = 0; i < m->nnodes; i++)
        m->rank[i] = count[m->nodes[i].context]++;
    for (int i = 0; i < m->nnodes; i++)
        m->at[m->rank[i] * m->ii + m->nodes[i].context] = i;
    free(count);
    return 0;
}

int cg__mrrg_shift(const cg_mrrg *m, int id, int k)
{
    int c = m->nodes[id].context + k;
    if (c < 0 || c >= m->ii) { /* no division in the routers' usual case */
        c %= m->ii;
        c += c < 0 ? m->ii : 0;
    }
    return m->at[m->rank[id] * m->ii + c];
}

int cg__mrrg_twin_slot(const cg_mrrg *m, int id)
{
    return m->rank[id] * m->ii + m->nodes[id].context;
}

cg_mrrg *cg_mrrg_build(const cg_netlist *nl, int ii, cg_diags *d)
{
    if (ii < 1) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                     "initiation interval %d is not positive: the MRRG "
                     "needs II >= 1", ii);
        return NULL;
    }
    cg_mrrg *m = calloc(1, sizeof *m);
    if (!m)
        goto nomem;
    m->ii = ii;
    m->nports = cg_netlist_nports(nl);
    m->nprims = cg_netlist_nprims(nl);
    m->port_node = malloc(sizeof(int) * ((size_t)m->nports * ii + 1));
    m->prim_node = malloc(sizeof(int) * ((size_t)m->nprims * ii + 1));
    if (!m->port_node || !m->prim_node)
        goto nomem;
    memset(m->port_node, -1, sizeof(int) * ((size_t)m->nports * ii + 1));
    memset(m->prim_node, -1, sizeof(int) * ((size_t)m->nprims * ii + 1));
    if (make_nodes(m, nl) < 0 || net_edges(m, nl) < 0)
        goto nomem;
    for (int i = 0; i < m->nprims; i++)
        if (prim_edges(m, nl, i) < 0)
            goto nomem;
    if (make_csr(m, true, &m->out_off, &m->out_ids) < 0 ||
        make_csr(m, false, &m->in_off, &m->in_ids) < 0 || make_pins(m) < 0 ||
        make_twins(m) < 0)
        goto nomem;
    return m;
nomem:
    cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                 "out of memory building the MRRG at II=%d", ii);
    cg_mrrg_destroy(m);
    return NULL;
}

void cg_mrrg_destroy(cg_mrrg *m)
{
    if (!m)
        return;
    free(m->nodes);
    free(m->edges);
    free(m->out_off);
    free(m->out_ids);
    free(m->in_off);
    free(m->in_ids);
    free(m->port_node);
    free(m->prim_node);
    free(m->pin);
    free(m->rank);
    free(m->at);
    free(m);
}

int cg_mrrg_ii(const cg_mrrg *m) { return m->ii; }
int cg_mrrg_nnodes(const cg_mrrg *m) { return m->nnodes; }
int cg_mrrg_nedges(const cg_mrrg *m) { return m->nedges; }

const cg_mrrg_node *cg_mrrg_get_node(const cg_mrrg *m, int id)
{
    return id >= 0 && id < m->nnodes ? &m->nodes[id] : NULL;
}

const cg_mrrg_edge *cg_mrrg_get_edge(const cg_mrrg *m, int id)
{
    return id >= 0 && id < m->nedges ? &m->edges[id] : NULL;
}

const int *cg_mrrg_out(const cg_mrrg *m, int id, int *n)
{
    assert(id >= 0 && id < m->nnodes); /* ids come from the MRRG itself */
    *n = m->out_off[id + 1] - m->out_off[id];
    return m->out_ids + m->out_off[id];
}

const int *cg_mrrg_in(const cg_mrrg *m, int id, int *n)
{
    assert(id >= 0 && id < m->nnodes);
    *n = m->in_off[id + 1] - m->in_off[id];
    return m->in_ids + m->in_off[id];
}

bool cg_mrrg_supports(const cg_mrrg *m, const cg_netlist *nl, int id,
                      cg_op op)
{
    const cg_mrrg_node *n = cg_mrrg_get_node(m, id);
    return n && n->kind == CG_MRRG_FUNC &&
           cg__map_prim_supports(cg_netlist_prim(nl, n->prim), op);
}

int cg__prim_dist(const cg_netlist *nl, int p, int q)
{
    const cg_nl_prim *a = cg_netlist_prim(nl, p), *b = cg_netlist_prim(nl, q);
    if (a->row < 0 || b->row < 0)
        return 0;
    return abs(a->row - b->row) + abs(a->col - b->col);
}

int cg__mrrg_node_width(const cg_mrrg *m, const cg_netlist *nl, int id)
{
    const cg_mrrg_node *n = cg_mrrg_get_node(m, id);
    return n->port >= 0 ? cg_netlist_port(nl, n->port)->width
                        : cg_netlist_prim(nl, n->prim)->p.width;
}
