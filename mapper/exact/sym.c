/* sym.c: the spatial symmetries of an MRRG, so that the ILP can break them.
 *
 * A regular array looks the same mirrored or rotated, and then so does its
 * MRRG: for every mapping there are symmetric copies, which an ILP that
 * proves an II impossible must all refute.  Each of the eight maps of the
 * grid's bounding box onto itself is a candidate.  Its map on primitives
 * sends a primitive to the one with the same local name (after the block's
 * "block_2_3.") at the mapped position; primitives outside the grid stay.
 * Ports keep their names, except a multiplexer's data inputs, whose order a
 * reflection does not keep: an input goes to the image mux's input driven
 * by the image of its driver (unconnected inputs, at the array's edges,
 * to the image's unconnected ones in order).  Nodes follow (same primitive
 * role, same context; a register file's registers by index).
 *
 * Nothing is assumed: a candidate is kept only when the node map is a
 * bijection that keeps every node's kind, context, operand index and FUNC
 * node link, every unit's kind, width, latency, ops, memory, bank and
 * cg__map_node_fits answer for every op and bank, and maps the multiset of
 * out-edges (head, delay) of every node onto that of its image.  Anything
 * ambiguous or missing drops the candidate.  The ILP's model (ilp.c, on the
 * kgraph that ilp_graph.c derives from the MRRG's structure alone) is then
 * invariant under every kept map.
 */
#include <stdlib.h>
#include <string.h>

#include "../model/model_internal.h"
#include "sym_internal.h"

typedef struct key {
    int row, col;
    const char *local; /* name after the block instance */
    int prim;
} key;

typedef struct reg {
    int prim, context, k; /* the k-th register of prim in context */
    int node;
} reg;

static int reg_cmp(const void *a, const void *b)
{
    const reg *x = a, *y = b;
    if (x->prim != y->prim)
        return x->prim < y->prim ? -1 : 1;
    if (x->context != y->context)
        return x->context < y->context ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

typedef struct ctx {
    const cg_mrrg *m;
    const cg_netlist *nl;
    int ii, nn, nprims, nports;
    int r0, r1, c0, c1; /* bounding box of the positioned primitives */
    int *port_node;     /* port * ii + c -> ROUTE node, -1 when none */
    int *prim_node;     /* prim * ii + c -> FUNC node, -1 when none */
    int *regk;          /* register node -> its index among the registers
                           of its primitive and context, else -1 */
    struct reg *regs;   /* RegisterFile register nodes, sorted */
    int nregs;
    key *keys;          /* positioned primitives, sorted */
    int nkeys;
    int maxbank;        /* highest bank any memory or unit names */
} ctx;

static const char *local_name(const char *name)
{
    const char *dot = strchr(name, '.');
    return dot ? dot + 1 : name;
}

static int key_cmp(const void *a, const void *b)
{
    const key *x = a, *y = b;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return strcmp(x->local, y->local);
}

/* ---- indexes ------------------------------------------------------------ */

static int index_nodes(ctx *C)
{
    size_t np = (size_t)C->nports * C->ii + 1;
    size_t nq = (size_t)C->nprims * C->ii + 1;
    C->port_node = malloc(sizeof(int) * np);
    C->prim_node = malloc(sizeof(int) * nq);
    C->regk = malloc(sizeof(int) * ((size_t)C->nn + 1));
    C->regs = malloc(sizeof *C->regs * ((size_t)C->nn + 1));
    int *cnt = calloc(nq, sizeof *cnt);
    if (!C->port_node || !C->prim_node || !C->regk || !C->regs || !cnt) {
        free(cnt);
        return -1;
    }
    memset(C->port_node, -1, sizeof(int) * np);
    memset(C->prim_node, -1, sizeof(int) * nq);
    for (int i = 0; i < C->nn; i++) {
        const cg_mrrg_node *n = cg_mrrg_get_node(C->m, i);
        size_t at = (size_t)n->prim * C->ii + n->context;
        C->regk[i] = -1;
        if (n->kind == CG_MRRG_FUNC)
            C->prim_node[at] = i;
        else if (n->port >= 0)
            C->port_node[(size_t)n->port * C->ii + n->context] = i;
        else {
            C->regk[i] = cnt[at]++; /* in id order: registers in order */
            C->regs[C->nregs++] =
                (struct reg){n->prim, n->context, C->regk[i], i};
        }
    }
    free(cnt);
    qsort(C->regs, (size_t)C->nregs, sizeof *C->regs, reg_cmp);
    return 0;
}

static int index_prims(ctx *C)
{
    C->keys = malloc(sizeof *C->keys * ((size_t)C->nprims + 1));
    if (!C->keys)
        return -1;
    C->r0 = C->c0 = 1 << 30;
    C->r1 = C->c1 = -1;
    C->maxbank = 0;
    for (int i = 0; i < cg_netlist_nmemories(C->nl); i++)
        if (cg_netlist_memory(C->nl, i)->banks > C->maxbank)
            C->maxbank = cg_netlist_memory(C->nl, i)->banks;
    for (int p = 0; p < C->nprims; p++) {
        const cg_nl_prim *pr = cg_netlist_prim(C->nl, p);
        if (pr->p.bank > C->maxbank)
            C->maxbank = pr->p.bank;
        if (pr->row < 0 || pr->col < 0)
            continue;
        C->keys[C->nkeys++] = (key){pr->row, pr->col, local_name(pr->name),
                                    p};
        if (pr->row < C->r0) C->r0 = pr->row;
        if (pr->row > C->r1) C->r1 = pr->row;
        if (pr->col < C->c0) C->c0 = pr->col;
        if (pr->col > C->c1) C->c1 = pr->col;
    }
    qsort(C->keys, (size_t)C->nkeys, sizeof *C->keys, key_cmp);
    return 0;
}

/* ---- the candidate maps -------------------------------------------------- */

/* Image of grid position (r, c) under kind; false when the kind needs a
 * square box and this one is not. */
static bool transform(const ctx *C, cg__sym_kind kind, int r, int c,
                      int *r2, int *c2)
{
    int H = C->r1 - C->r0, W = C->c1 - C->c0;
    r -= C->r0;
    c -= C->c0;
    if (kind >= CG__SYM_TRANSPOSE && H != W)
        return false;
    switch (kind) {
    case CG__SYM_ID: *r2 = r; *c2 = c; break;
    case CG__SYM_LR: *r2 = r; *c2 = W - c; break;
    case CG__SYM_UD: *r2 = H - r; *c2 = c; break;
    case CG__SYM_ROT180: *r2 = H - r; *c2 = W - c; break;
    case CG__SYM_TRANSPOSE: *r2 = c; *c2 = r; break;
    case CG__SYM_ANTI: *r2 = W - c; *c2 = H - r; break;
    case CG__SYM_ROT90: *r2 = c; *c2 = H - r; break;
    default: *r2 = W - c; *c2 = r; break;
    }
    *r2 += C->r0;
    *c2 += C->c0;
    return true;
}

/* The primitive with local name `local` at (r, c); -1 when none or when
 * several match. */
static int find_prim(const ctx *C, int r, int c, const char *local)
{
    key want = {r, c, local, -1};
    const key *k = bsearch(&want, C->keys, (size_t)C->nkeys, sizeof *k,
                           key_cmp);
    if (!k)
        return -1;
    if ((k > C->keys && key_cmp(k - 1, k) == 0) ||
        (k + 1 < C->keys + C->nkeys && key_cmp(k + 1, k) == 0))
        return -1;
    return k->prim;
}

/* Primitive map of kind into pm; -1 when some primitive has no image. */
static int map_prims(const ctx *C, cg__sym_kind kind, int *pm)
{
    for (int p = 0; p < C->nprims; p++) {
        const cg_nl_prim *pr = cg_netlist_prim(C->nl, p);
        int r, c;
        if (pr->row < 0 || pr->col < 0)
            pm[p] = p;
        else if (!transform(C, kind, pr->row, pr->col, &r, &c) ||
                 (pm[p] = find_prim(C, r, c, local_name(pr->name))) < 0)
            return -1;
    }
    return 0;
}

static bool is_mux_input(const ctx *C, int port)
{
    const cg_nl_port *q = cg_netlist_port(C->nl, port);
    return cg_netlist_prim(C->nl, q->prim)->p.kind == CG_PRIM_MUX &&
           q->dir == CG_DIR_IN && strcmp(q->name, "select") != 0;
}

/* The input of mux prim driven by port drv; -1 when none or several. */
static int mux_input_from(const ctx *C, int prim, int drv)
{
    const cg_nl_prim *pr = cg_netlist_prim(C->nl, prim);
    int found = -1;
    for (int q = pr->port0; q < pr->port0 + pr->nports; q++) {
        const cg_nl_port *pq = cg_netlist_port(C->nl, q);
        if (!is_mux_input(C, q) || pq->net < 0 ||
            cg_netlist_net(C->nl, pq->net)->driver != drv)
            continue;
        if (found >= 0)
            return -1;
        found = q;
    }
    return found;
}

/* How many unconnected data inputs of its mux come before port q. */
static int unconnected_rank(const ctx *C, int q)
{
    const cg_nl_prim *pr =
        cg_netlist_prim(C->nl, cg_netlist_port(C->nl, q)->prim);
    int k = 0;
    for (int i = pr->port0; i < q; i++)
        k += is_mux_input(C, i) && cg_netlist_port(C->nl, i)->net < 0;
    return k;
}

/* The k-th unconnected data input of mux prim; -1 when none. */
static int unconnected_input(const ctx *C, int prim, int k)
{
    const cg_nl_prim *pr = cg_netlist_prim(C->nl, prim);
    for (int q = pr->port0; q < pr->port0 + pr->nports; q++)
        if (is_mux_input(C, q) && cg_netlist_port(C->nl, q)->net < 0 &&
            k-- == 0)
            return q;
    return -1;
}

/* Port map from the primitive map: same names, mux data inputs through
 * their drivers.  -1 when a port has no unambiguous image. */
static int map_ports(const ctx *C, const int *pm, int *qm)
{
    for (int q = 0; q < C->nports; q++) {
        const cg_nl_port *pq = cg_netlist_port(C->nl, q);
        qm[q] = is_mux_input(C, q) ? -1
                : cg_netlist_prim_port(C->nl, pm[pq->prim], pq->name);
        if (!is_mux_input(C, q) && qm[q] < 0)
            return -1;
    }
    for (int q = 0; q < C->nports; q++) {
        const cg_nl_port *pq = cg_netlist_port(C->nl, q);
        if (!is_mux_input(C, q))
            continue;
        if (pq->net < 0) {
            /* unconnected (an input at the array's edge): carries
             * nothing; the k-th such input goes to the image's k-th */
            if ((qm[q] = unconnected_input(C, pm[pq->prim],
                                           unconnected_rank(C, q))) < 0)
                return -1;
            continue;
        }
        int drv = cg_netlist_net(C->nl, pq->net)->driver;
        if (qm[drv] < 0 ||
            (qm[q] = mux_input_from(C, pm[pq->prim], qm[drv])) < 0)
            return -1;
    }
    return 0;
}

/* The register of prim in context c with index k; -1 when none. */
static int find_reg(const ctx *C, int prim, int c, int k)
{
    reg want = {prim, c, k, -1};
    const reg *r = bsearch(&want, C->regs, (size_t)C->nregs, sizeof *r,
                           reg_cmp);
    return r ? r->node : -1;
}

/* Node map from the primitive and port maps; -1 when a node has none. */
static int map_nodes(const ctx *C, const int *pm, const int *qm, int *nm)
{
    for (int i = 0; i < C->nn; i++) {
        const cg_mrrg_node *n = cg_mrrg_get_node(C->m, i);
        int c = n->context;
        if (n->kind == CG_MRRG_FUNC)
            nm[i] = C->prim_node[(size_t)pm[n->prim] * C->ii + c];
        else if (n->port >= 0)
            nm[i] = C->port_node[(size_t)qm[n->port] * C->ii + c];
        else
            nm[i] = find_reg(C, pm[n->prim], c, C->regk[i]);
        if (nm[i] < 0)
            return -1;
    }
    return 0;
}

/* ---- verification ----------------------------------------------------- */

/* Same unit for the mapper: parameters and every fit answer. */
static bool same_unit(const ctx *C, int p, int q)
{
    const cg_nl_prim *a = cg_netlist_prim(C->nl, p);
    const cg_nl_prim *b = cg_netlist_prim(C->nl, q);
    if (a->p.kind != b->p.kind || a->p.width != b->p.width ||
        a->p.latency != b->p.latency || a->p.ops != b->p.ops ||
        a->p.bank != b->p.bank || a->memory != b->memory)
        return false;
    for (int op = 0; op < CG_OP_COUNT; op++)
        for (int bank = -1; bank <= C->maxbank; bank++) {
            cg_dfg_node nd;
            memset(&nd, 0, sizeof nd);
            nd.op = (cg_op)op;
            nd.bank = bank;
            if (cg__map_node_fits(a, &nd) != cg__map_node_fits(b, &nd))
                return false;
        }
    return true;
}

static bool same_node(const ctx *C, const int *nm, int i)
{
    const cg_mrrg_node *a = cg_mrrg_get_node(C->m, i);
    const cg_mrrg_node *b = cg_mrrg_get_node(C->m, nm[i]);
    if (a->kind != b->kind || a->context != b->context ||
        a->operand != b->operand || (a->func < 0) != (b->func < 0) ||
        (a->func >= 0 && nm[a->func] != b->func))
        return false;
    const cg_nl_prim *pa = cg_netlist_prim(C->nl, a->prim);
    const cg_nl_prim *pb = cg_netlist_prim(C->nl, b->prim);
    if (pa->p.kind != pb->p.kind || pa->p.width != pb->p.width)
        return false;
    return a->kind != CG_MRRG_FUNC || same_unit(C, a->prim, b->prim);
}

typedef struct arc {
    int to, delay;
} arc;

static int arc_cmp(const void *a, const void *b)
{
    const arc *x = a, *y = b;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return (x->delay > y->delay) - (x->delay < y->delay);
}

/* Do the out-edges of i, mapped, equal those of nm[i]?  s, t: scratch. */
static bool same_edges(const ctx *C, const int *nm, int i, arc *s, arc *t)
{
    int n, n2;
    const int *out = cg_mrrg_out(C->m, i, &n);
    const int *out2 = cg_mrrg_out(C->m, nm[i], &n2);
    if (n != n2)
        return false;
    for (int j = 0; j < n; j++) {
        const cg_mrrg_edge *e = cg_mrrg_get_edge(C->m, out[j]);
        const cg_mrrg_edge *f = cg_mrrg_get_edge(C->m, out2[j]);
        s[j] = (arc){nm[e->to], e->delay};
        t[j] = (arc){f->to, f->delay};
    }
    qsort(s, (size_t)n, sizeof *s, arc_cmp);
    qsort(t, (size_t)n, sizeof *t, arc_cmp);
    return n == 0 || memcmp(s, t, sizeof *s * (size_t)n) == 0;
}

/* Is nm an automorphism of the MRRG as the ILP sees it?  -1 on no memory. */
static int verify(const ctx *C, const int *nm)
{
    int maxdeg = 0;
    for (int i = 0; i < C->nn; i++) {
        int n;
        cg_mrrg_out(C->m, i, &n);
        if (n > maxdeg)
            maxdeg = n;
    }
    bool *hit = calloc((size_t)C->nn + 1, sizeof *hit);
    arc *s = malloc(sizeof *s * ((size_t)maxdeg + 1));
    arc *t = malloc(sizeof *t * ((size_t)maxdeg + 1));
    int ok = hit && s && t ? 1 : -1;
    for (int i = 0; i < C->nn && ok == 1; i++) {
        if (nm[i] < 0 || nm[i] >= C->nn || hit[nm[i]])
            ok = 0;
        else
            hit[nm[i]] = true;
    }
    for (int i = 0; i < C->nn && ok == 1; i++)
        if (!same_node(C, nm, i) || !same_edges(C, nm, i, s, t))
            ok = 0;
    free(hit);
    free(s);
    free(t);
    return ok;
}

/* Build and verify kind's node map into *out (NULL when not verified).
 * -1 on no memory. */
static int try_kind(const ctx *C, cg__sym_kind kind, int **out)
{
    int *pm = malloc(sizeof(int) * ((size_t)C->nprims + 1));
    int *qm = malloc(sizeof(int) * ((size_t)C->nports + 1));
    int *nm = malloc(sizeof(int) * ((size_t)C->nn + 1));
    int rc = pm && qm && nm ? 0 : -1;
    if (rc == 0 && map_prims(C, kind, pm) == 0 && map_ports(C, pm, qm) == 0 &&
        map_nodes(C, pm, qm, nm) == 0) {
        int v = verify(C, nm);
        if (v == 1) {
            *out = nm;
            nm = NULL;
        }
        rc = v < 0 ? -1 : 0;
    }
    free(pm);
    free(qm);
    free(nm);
    return rc;
}

/* ---- orbits and the public side ------------------------------------------ */

static int root(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

/* Orbits of the group the verified maps generate: the classes of the
 * relation i ~ map(i), each named by its smallest node. */
static void orbits(cg__sym *s)
{
    int *parent = s->rep;
    for (int i = 0; i < s->nnodes; i++)
        parent[i] = i;
    for (int k = 1; k < CG__SYM_COUNT; k++)
        for (int i = 0; s->ok[k] && i < s->nnodes; i++) {
            int a = root(parent, i), b = root(parent, s->map[k][i]);
            if (a < b)
                parent[b] = a;
            else if (b < a)
                parent[a] = b;
        }
    for (int i = 0; i < s->nnodes; i++)
        parent[i] = root(parent, i);
}

static void ctx_free(ctx *C)
{
    free(C->port_node);
    free(C->prim_node);
    free(C->regk);
    free(C->regs);
    free(C->keys);
}

cg__sym *cg__sym_find(const cg_mrrg *m, const cg_netlist *nl)
{
    ctx C = {.m = m, .nl = nl, .ii = cg_mrrg_ii(m), .nn = cg_mrrg_nnodes(m),
             .nprims = cg_netlist_nprims(nl),
             .nports = cg_netlist_nports(nl)};
    cg__sym *s = calloc(1, sizeof *s);
    if (!s || index_nodes(&C) < 0 || index_prims(&C) < 0)
        goto fail;
    s->nnodes = C.nn;
    s->rep = malloc(sizeof(int) * ((size_t)C.nn + 1));
    if (!s->rep)
        goto fail;
    s->ok[CG__SYM_ID] = true;
    for (int k = 1; k < CG__SYM_COUNT && C.nkeys > 0; k++) {
        if (try_kind(&C, (cg__sym_kind)k, &s->map[k]) < 0)
            goto fail;
        s->ok[k] = s->map[k] != NULL;
    }
    orbits(s);
    ctx_free(&C);
    return s;
fail:
    ctx_free(&C);
    cg__sym_destroy(s);
    return NULL;
}

void cg__sym_destroy(cg__sym *s)
{
    if (!s)
        return;
    for (int k = 0; k < CG__SYM_COUNT; k++)
        free(s->map[k]);
    free(s->rep);
    free(s);
}

int cg__sym_count(const cg__sym *s)
{
    int n = 0;
    for (int k = 1; k < CG__SYM_COUNT; k++)
        n += s->ok[k];
    return n;
}

int cg__sym_restrict(const cg__sym *s, int *cand, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int r = s->rep[cand[i]];
        bool rep_in = false;
        for (int j = 0; j < n && !rep_in; j++)
            rep_in = cand[j] == r;
        if (r == cand[i] || !rep_in)
            cand[kept++] = cand[i];
    }
    return kept;
}
