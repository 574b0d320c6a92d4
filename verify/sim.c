/* sim.c: a cycle-accurate simulator of the configured array.
 *
 * It never runs the DFG: from the mapping it derives what the hardware is
 * configured to do in each context -- which in-edge drives each used ROUTE
 * node (a mux select, a register latching, a register-file write) and which
 * op each FUNC node executes -- and then steps cycles tmin .. tmax, where
 * tmin is the earliest start and tmax the last start of the last iteration.
 * In cycle t (context t mod II) every configured node of that context gets
 * its value: a ROUTE node from its driver, through the MRRG edge's delay (a
 * delay-k edge reads the driver's value of cycle t-k, kept in a short
 * history), a FUNC node by executing its op on its operand pins.  So a
 * route whose latency does not match the schedule delivers the value of
 * another iteration, and the result differs from the interpreter's: the
 * simulator is a second check, not a copy of the checker.
 *
 * The loop controller is modelled by stage predicates: op v runs iteration
 * i = (t - start(v)) / II; stores, outputs and errors of iterations outside
 * 0..iters-1 (prologue and epilogue) are suppressed, and operands of
 * loop-carried edges read the edge's init value in iterations < distance.
 * Within a cycle the units of a context run in iteration order, then DFG
 * order, as the interpreter orders memory operations within an iteration.
 * A MEMUnit reads or writes memory in the cycle its op starts (its latency
 * delays only the loaded value), so a mapping keeps the memory order by
 * start times alone (cg_map_mem_orders).  A load or store the tiler gave a
 * bank addresses that bank of the tile memory: mem is the tile memory then,
 * and an address outside the bank is an error.  An unplaced const is an
 * immediate (imm.c): configured as the field of its consumers' operand,
 * which the unit sign-extends; the operand pin is then not read.
 *
 * Values live in hardware of given widths: a ROUTE node keeps as many bits
 * as its port (or register file) is wide, and a unit computes at the
 * smaller of its width and its op's, so a 32-bit add on a 16-bit unit
 * yields 16 bits.  The first time a unit cuts an op's result so, the
 * simulator warns, naming the node, the unit, both widths and the
 * iteration: the run then differs from the reference, and the warning says
 * why.  (The checker rejects such a placement; the simulator shows what it
 * would do.)
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../mapper/model/imm_internal.h"
#include "../mapper/model/model_internal.h"
#include "../mapper/model/names_internal.h"
#include "verify.h"

/* Longest schedule (last start - first start) the simulator accepts. */
#define CG_SIM_MAX_SPAN 1000000

typedef struct sim {
    const cg_netlist *nl;
    const cg_mrrg *mrrg;
    const cg_dfg *g;
    const cg_mapping *m;
    cg_diags *d;
    int ii, nn, R;       /* R: history slots per node */
    int64_t iters, tmin;
    cg_mem *mem;
    const uint64_t *inputs;
    uint64_t *outputs;
    int *cfg_in;         /* ROUTE node -> MRRG edge driving it, -1 */
    int *op_at;          /* FUNC node -> DFG node it executes, -1 */
    int *oedge;          /* DFG node * 3 + operand -> DFG edge, -1 */
    bool *has_imm;       /* FUNC node * 3 + operand: an immediate */
    uint64_t *imm;       /* ... the operand its field gives */
    uint64_t *hist;      /* node * R + slot -> value */
    int64_t *stamp;      /* node -> cycle of its last evaluation */
    bool *busy;          /* node being evaluated (combinational loop) */
    int *order;          /* per context, the nodes to evaluate */
    int *order_off;
    int *width;          /* MRRG node -> bits its hardware holds */
    bool *cut;           /* DFG node -> warned that its unit cut it */
    bool failed;
} sim;

static void fail(sim *s, int v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(sim *s, int v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!s->failed)
        cg_diags_vadd(s->d, CG_SEV_ERROR, cg_dfg_file(s->g),
                      v >= 0 ? cg_dfg_get_node(s->g, v)->line : 0, fmt, ap);
    va_end(ap);
    s->failed = true;
}

/* Edge e's const as the immediate field of its consumer's operand. */
static void configure_imm(sim *s, int e)
{
    char b[160];
    const cg_dfg_edge *x = cg_dfg_get_edge(s->g, e);
    const cg_dfg_node *k = cg_dfg_get_node(s->g, x->src);
    int f = s->m->place[x->dst];
    const cg_mrrg_node *fn = cg_mrrg_get_node(s->mrrg, f);
    if (!fn || fn->kind != CG_MRRG_FUNC)
        return; /* reported with the consumer */
    const cg_nl_prim *pr = cg_netlist_prim(s->nl, fn->prim);
    if (!cg__imm_takes(pr, x->operand) || x->operand >= 3) {
        fail(s, x->dst, "simulation: cannot configure const '%s' as an "
             "immediate of '%s' (operand %d): %s takes no immediate there",
             k->name, cg_dfg_get_node(s->g, x->dst)->name, x->operand,
             cg__map_node_name(s->mrrg, s->nl, f, b, sizeof b));
        return;
    }
    s->has_imm[f * 3 + x->operand] = true;
    s->imm[f * 3 + x->operand] = cg__imm_operand(k, cg__imm_bits(pr));
}

/* The configuration: drivers of used ROUTE nodes, ops of FUNC nodes and
 * immediates.  Where a mapping asks for two settings of one mux, the
 * first wins, as it would in a configuration memory. */
static void configure(sim *s)
{
    char b1[160], b2[160];
    for (int v = 0; v < s->m->nnodes; v++) {
        const cg_mrrg_node *f = cg_mrrg_get_node(s->mrrg, s->m->place[v]);
        if (cg__imm_node(s->m, s->g, v))
            continue; /* an immediate, configured with its uses */
        if (!f || f->kind != CG_MRRG_FUNC)
            fail(s, v, "cannot configure '%s': it is not on a function node",
                 cg_dfg_get_node(s->g, v)->name);
        else if (s->op_at[s->m->place[v]] < 0)
            s->op_at[s->m->place[v]] = v;
    }
    for (int e = 0; e < s->m->nedges && !s->failed; e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(s->g, e);
        if (x->operand >= 0 && x->operand < 3)
            s->oedge[x->dst * 3 + x->operand] = e;
        if (cg__imm_edge(s->m, s->g, e)) {
            configure_imm(s, e);
            continue;
        }
        int at = s->m->place[x->src];
        for (int i = 0; i < s->m->route_len[e]; i++) {
            int to = s->m->route[e][i];
            int me = cg__map_find_edge(s->mrrg, at, to);
            if (me < 0) {
                fail(s, x->dst, "simulation: cannot configure the route of '%s'->'%s' "
                     "(operand %d): no connection from %s to %s",
                     cg_dfg_get_node(s->g, x->src)->name,
                     cg_dfg_get_node(s->g, x->dst)->name, x->operand,
                     cg__map_node_name(s->mrrg, s->nl, at, b1, sizeof b1),
                     cg__map_node_name(s->mrrg, s->nl, to, b2, sizeof b2));
                return;
            }
            if (s->cfg_in[to] < 0)
                s->cfg_in[to] = me;
            at = to;
        }
    }
}

static int64_t iteration(const sim *s, int v, int64_t t)
{
    int64_t x = t - s->m->start[v];
    return x >= 0 ? x / s->ii : -((-x + s->ii - 1) / s->ii);
}

/* Comparator context: qsort has none, so the key is precomputed. */
typedef struct okey { int64_t k1; int k2, node; } okey;
static int okey_cmp(const void *a, const void *b)
{
    const okey *x = a, *y = b;
    if (x->k1 != y->k1)
        return x->k1 < y->k1 ? -1 : 1;
    return x->k2 - y->k2;
}

/* Per context: FUNC nodes with ops in iteration order (latest start first,
 * then DFG id), then the configured ROUTE nodes. */
static int make_order(sim *s)
{
    okey *k = malloc(sizeof *k * ((size_t)s->nn + 1));
    s->order = malloc(sizeof(int) * ((size_t)s->nn + 1));
    s->order_off = calloc((size_t)s->ii + 1, sizeof(int));
    if (!k || !s->order || !s->order_off) {
        free(k);
        return -1;
    }
    int n = 0;
    for (int c = 0; c < s->ii; c++) {
        int n0 = n;
        for (int i = 0; i < s->nn; i++) {
            const cg_mrrg_node *x = cg_mrrg_get_node(s->mrrg, i);
            if (x->context != c)
                continue;
            if (x->kind == CG_MRRG_FUNC && s->op_at[i] >= 0)
                k[n++] = (okey){-s->m->start[s->op_at[i]], s->op_at[i], i};
            else if (x->kind == CG_MRRG_ROUTE && s->cfg_in[i] >= 0)
                k[n++] = (okey){INT64_MAX, i, i};
        }
        qsort(k + n0, (size_t)(n - n0), sizeof *k, okey_cmp);
        s->order_off[c + 1] = n;
    }
    for (int i = 0; i < n; i++)
        s->order[i] = k[i].node;
    free(k);
    return 0;
}

static int slot(const sim *s, int64_t t)
{
    return (int)(((t - s->tmin) / s->ii) % s->R);
}

static uint64_t eval(sim *s, int n, int64_t t);

/* Value of node n in cycle t - k (0 before the first cycle: reset). */
static uint64_t past(sim *s, int n, int64_t t, int k)
{
    if (k == 0)
        return eval(s, n, t);
    if (t - k < s->tmin)
        return 0;
    return s->hist[(size_t)n * s->R + slot(s, t - k)];
}

static uint64_t init_value(const sim *s, int init)
{
    return cg__map_init_value(s->g, init, s->inputs);
}

static bool in_mem(const sim *s, uint64_t addr, int bytes)
{
    return addr >= s->mem->base && addr - s->mem->base <= s->mem->size &&
           s->mem->size - (addr - s->mem->base) >= (uint64_t)bytes;
}

/* The bytes [*lo, *hi) of the memory image that bank b of FUNC node f's
 * tile memory holds; false when the memory is not split into banks. */
static bool bank_range(const sim *s, int f, int b, uint64_t *lo,
                       uint64_t *hi)
{
    const cg_nl_prim *pr =
        cg_netlist_prim(s->nl, cg_mrrg_get_node(s->mrrg, f)->prim);
    int mi = pr->memory >= 0 ? pr->memory
             : cg_netlist_nmemories(s->nl) == 1 ? 0 : -1;
    const cg_nl_memory *tm = mi >= 0 ? cg_netlist_memory(s->nl, mi) : NULL;
    if (!tm || tm->banks <= 1 || b >= tm->banks)
        return false;
    uint64_t size = (uint64_t)tm->bytes / (uint64_t)tm->banks;
    *lo = s->mem->base + size * (uint64_t)b;
    *hi = *lo + size;
    return true;
}

/* A load/store with a bank must address that bank of the tile memory
 * (mem is the tile memory then); false with an error when it does not. */
static bool in_bank(sim *s, int f, int v, int64_t it, uint64_t addr)
{
    char b[160];
    const cg_dfg_node *n = cg_dfg_get_node(s->g, v);
    uint64_t lo, hi;
    if (n->bank < 0 || !bank_range(s, f, n->bank, &lo, &hi) ||
        (addr >= lo && addr - lo + (uint64_t)(n->width / 8) <= hi - lo))
        return true;
    fail(s, v, "simulation: %s '%s' at iteration %lld on %s accesses "
         "address 0x%llx, outside its bank %d [0x%llx, 0x%llx)",
         cg_op_name(n->op), n->name, (long long)it,
         cg__map_node_name(s->mrrg, s->nl, f, b, sizeof b),
         (unsigned long long)addr, n->bank, (unsigned long long)lo,
         (unsigned long long)hi);
    return false;
}

/* A load or store of op v, iteration it; the load's value, or 0. */
static uint64_t mem_op(sim *s, int f, int v, int64_t it, const uint64_t *o)
{
    char b[160];
    const cg_dfg_node *n = cg_dfg_get_node(s->g, v);
    int bytes = n->width / 8;
    if (!s->mem || !in_mem(s, o[0], bytes)) {
        fail(s, v, "simulation: %s '%s' at iteration %lld on %s accesses %d "
             "bytes at address 0x%llx, outside the memory [0x%llx, 0x%llx)",
             cg_op_name(n->op), n->name, (long long)it,
             cg__map_node_name(s->mrrg, s->nl, f, b, sizeof b), bytes,
             (unsigned long long)o[0],
             (unsigned long long)(s->mem ? s->mem->base : 0),
             (unsigned long long)(s->mem ? s->mem->base + s->mem->size : 0));
        return 0;
    }
    if (!in_bank(s, f, v, it, o[0]))
        return 0;
    uint8_t *p = s->mem->data + (o[0] - s->mem->base);
    uint64_t x = 0;
    if (n->op == CG_OP_STORE) {
        for (int i = 0; i < bytes; i++)
            p[i] = (uint8_t)(o[1] >> (8 * i));
        return 0;
    }
    for (int i = 0; i < bytes; i++)
        x |= (uint64_t)p[i] << (8 * i);
    return x;
}

/* Operands of op v on FUNC node f in cycle t, iteration it. */
static void operands(sim *s, int f, int v, int64_t t, int64_t it,
                     uint64_t *o)
{
    int ar = cg_op_arity(cg_dfg_get_node(s->g, v)->op);
    for (int k = 0; k < ar && k < 3; k++) {
        int e = s->oedge[v * 3 + k], p = cg_mrrg_pin(s->mrrg, f, k);
        const cg_dfg_edge *x = cg_dfg_get_edge(s->g, e);
        if (x && x->distance > 0 && it < x->distance)
            /* the loop controller drives the pin: as wide as the pin */
            o[k] = p >= 0 ? cg_trunc(init_value(s, x->init), s->width[p])
                          : init_value(s, x->init);
        else if (s->has_imm[f * 3 + k])
            o[k] = s->imm[f * 3 + k];
        else
            o[k] = p >= 0 ? eval(s, p, t) : 0;
    }
}

/* Op v's result at width w (its operands of width from); false on a
 * division by zero. */
static bool compute(const sim *s, int v, int64_t it, const uint64_t *o,
                    int w, int from, uint64_t *r)
{
    const cg_dfg_node *n = cg_dfg_get_node(s->g, v);
    switch (n->op) {
    case CG_OP_INPUT:
        *r = s->inputs ? cg_trunc(s->inputs[v], w) : 0;
        return true;
    case CG_OP_CONST: *r = cg_trunc((uint64_t)n->value, w); return true;
    case CG_OP_OUTPUT:
    case CG_OP_NOP: *r = cg_trunc(o[0], w); return true;
    case CG_OP_PHI: *r = cg_trunc(it == 0 ? o[0] : o[1], w); return true;
    case CG_OP_GEP: *r = cg_trunc(o[0] + o[1], w); return true;
    default: return cg_op_eval(n->op, n->pred, w, from, o, r);
    }
}

/* A unit narrower than op v yields r where the op yields full: warn the
 * first time they differ in an iteration that counts. */
static void warn_cut(sim *s, int f, int v, int64_t it, uint64_t full,
                     uint64_t r)
{
    char b[160];
    const cg_dfg_node *n = cg_dfg_get_node(s->g, v);
    if (full == r || s->cut[v] || it < 0 || it >= s->iters)
        return;
    s->cut[v] = true;
    cg_diags_add(s->d, CG_SEV_WARNING, cg_dfg_file(s->g), n->line,
                 "simulation: '%s' (%s) is %d bits wide but runs on %s, %d "
                 "bits wide: at iteration %lld it yields 0x%llx there, not "
                 "0x%llx", n->name, cg_op_name(n->op), n->width,
                 cg__map_node_name(s->mrrg, s->nl, f, b, sizeof b),
                 s->width[f], (long long)it, (unsigned long long)r,
                 (unsigned long long)full);
}

/* Execute op v on FUNC node f in cycle t, at the unit's width when that
 * is smaller than the op's. */
static uint64_t execute(sim *s, int f, int v, int64_t t)
{
    char b[160];
    const cg_dfg_node *n = cg_dfg_get_node(s->g, v);
    int64_t it = iteration(s, v, t);
    bool live = it >= 0 && it < s->iters;
    uint64_t o[3] = {0, 0, 0}, r = 0, full = 0;
    operands(s, f, v, t, it, o);
    int e0 = s->oedge[v * 3];
    int from = e0 >= 0 ? cg_dfg_get_node(s->g,
                                         cg_dfg_get_edge(s->g, e0)->src)->width
                       : n->width;
    int uw = s->width[f], w = n->width < uw ? n->width : uw;
    switch (n->op) {
    case CG_OP_CONST:
        if (!n->has_value && live)
            fail(s, v, "simulation: const '%s' has no value", n->name);
        break;
    case CG_OP_OUTPUT:
        if (live && it == s->iters - 1 && s->outputs)
            s->outputs[v] = cg_trunc(o[0], n->width);
        break;
    case CG_OP_LOAD:
    case CG_OP_STORE:
        full = live ? mem_op(s, f, v, it, o) : 0;
        warn_cut(s, f, v, it, full, cg_trunc(full, w));
        return cg_trunc(full, w);
    default:
        break;
    }
    if (!compute(s, v, it, o, w, from < uw ? from : uw, &r)) {
        if (live)
            fail(s, v, "simulation: division by zero in '%s' (%s) at "
                 "iteration %lld on %s", n->name, cg_op_name(n->op),
                 (long long)it,
                 cg__map_node_name(s->mrrg, s->nl, f, b, sizeof b));
        return 0;
    }
    if (w < n->width && compute(s, v, it, o, n->width, from, &full))
        warn_cut(s, f, v, it, full, r);
    return r;
}

/* Value of node n in cycle t (n's context is t mod II). */
static uint64_t eval(sim *s, int n, int64_t t)
{
    size_t h = (size_t)n * s->R + slot(s, t);
    if (s->stamp[n] == t)
        return s->hist[h];
    const cg_mrrg_node *x = cg_mrrg_get_node(s->mrrg, n);
    uint64_t val = 0;
    if (s->busy[n]) {
        char b[160];
        fail(s, -1, "simulation: combinational loop through %s",
             cg__map_node_name(s->mrrg, s->nl, n, b, sizeof b));
        return 0;
    }
    s->busy[n] = true;
    if (x->kind == CG_MRRG_FUNC && s->op_at[n] >= 0) {
        val = execute(s, n, s->op_at[n], t);
    } else if (x->kind == CG_MRRG_ROUTE && s->cfg_in[n] >= 0) {
        const cg_mrrg_edge *e = cg_mrrg_get_edge(s->mrrg, s->cfg_in[n]);
        val = cg_trunc(past(s, e->from, t, e->delay), s->width[n]);
    }
    s->busy[n] = false;
    s->hist[h] = val;
    s->stamp[n] = t;
    return val;
}

static int setup(sim *s)
{
    size_t nn = (size_t)s->nn + 1;
    int maxd = 0;
    for (int e = 0; e < cg_mrrg_nedges(s->mrrg); e++)
        if (cg_mrrg_get_edge(s->mrrg, e)->delay > maxd)
            maxd = cg_mrrg_get_edge(s->mrrg, e)->delay;
    s->R = maxd / s->ii + 2;
    s->cfg_in = malloc(nn * sizeof(int));
    s->op_at = malloc(nn * sizeof(int));
    s->oedge = malloc(3 * ((size_t)s->m->nnodes + 1) * sizeof(int));
    s->hist = calloc(nn * (size_t)s->R, sizeof(uint64_t));
    s->stamp = malloc(nn * sizeof(int64_t));
    s->busy = calloc(nn, sizeof(bool));
    s->has_imm = calloc(3 * nn, sizeof(bool));
    s->imm = calloc(3 * nn, sizeof(uint64_t));
    s->width = malloc(nn * sizeof(int));
    s->cut = calloc((size_t)s->m->nnodes + 1, sizeof(bool));
    if (!s->cfg_in || !s->op_at || !s->oedge || !s->hist ||
        !s->stamp || !s->busy || !s->has_imm || !s->imm || !s->width ||
        !s->cut)
        return -1;
    memset(s->cfg_in, -1, nn * sizeof(int));
    memset(s->op_at, -1, nn * sizeof(int));
    memset(s->oedge, -1, 3 * ((size_t)s->m->nnodes + 1) * sizeof(int));
    for (int i = 0; i < s->nn; i++) {
        s->stamp[i] = INT64_MIN;
        s->width[i] = cg__mrrg_node_width(s->mrrg, s->nl, i);
    }
    return 0;
}

static void run_cycles(sim *s)
{
    int64_t tmax = INT64_MIN;
    s->tmin = INT64_MAX;
    for (int v = 0; v < s->m->nnodes; v++) {
        if (s->m->place[v] == -1)
            continue; /* an immediate: runs nowhere */
        if (s->m->start[v] < s->tmin)
            s->tmin = s->m->start[v];
        if (s->m->start[v] > tmax)
            tmax = s->m->start[v];
    }
    if (tmax < s->tmin)
        return; /* nothing runs: every node is an immediate */
    /* a checked schedule spans at most the sum of its route latencies; a
     * wild start time must not make the loop below run for ages */
    if (tmax - s->tmin > CG_SIM_MAX_SPAN) {
        fail(s, -1, "simulation: the schedule spans %lld cycles (starts "
             "%lld .. %lld), more than %d: the start times are wrong",
             (long long)(tmax - s->tmin), (long long)s->tmin,
             (long long)tmax, CG_SIM_MAX_SPAN);
        return;
    }
    tmax += (s->iters - 1) * s->ii;
    for (int64_t t = s->tmin; t <= tmax && !s->failed; t++) {
        int c = (int)(((t % s->ii) + s->ii) % s->ii);
        for (int i = s->order_off[c]; i < s->order_off[c + 1]; i++)
            eval(s, s->order[i], t);
    }
}

static void teardown(sim *s)
{
    free(s->cfg_in);
    free(s->op_at);
    free(s->oedge);
    free(s->hist);
    free(s->stamp);
    free(s->busy);
    free(s->has_imm);
    free(s->imm);
    free(s->order);
    free(s->order_off);
    free(s->width);
    free(s->cut);
}

int cg_sim_run(const cg_netlist *nl, const cg_mrrg *mrrg, const cg_dfg *g,
               const cg_mapping *m, int64_t iters, cg_mem *mem,
               const uint64_t *inputs, uint64_t *outputs, cg_diags *d)
{
    sim s = {0};
    s.nl = nl;
    s.mrrg = mrrg;
    s.g = g;
    s.m = m;
    s.d = d;
    s.ii = cg_mrrg_ii(mrrg);
    s.nn = cg_mrrg_nnodes(mrrg);
    s.iters = iters;
    s.mem = mem;
    s.inputs = inputs;
    s.outputs = outputs;
    if (m->ii != s.ii || m->nnodes != cg_dfg_nnodes(g) ||
        m->nedges != cg_dfg_nedges(g)) {
        fail(&s, -1, "simulation: the mapping (II=%d, %d nodes, %d edges) "
             "does not fit the MRRG (II=%d) and DFG '%s' (%d nodes, %d edges)",
             m->ii, m->nnodes, m->nedges, s.ii, cg_dfg_name(g),
             cg_dfg_nnodes(g), cg_dfg_nedges(g));
        return -1;
    }
    if (iters <= 0 || m->nnodes == 0)
        return 0;
    if (setup(&s) < 0) {
        fail(&s, -1, "out of memory simulating '%s'", cg_dfg_name(g));
    } else {
        configure(&s);
        if (!s.failed && make_order(&s) < 0)
            fail(&s, -1, "out of memory simulating '%s'", cg_dfg_name(g));
        if (!s.failed)
            run_cycles(&s);
    }
    teardown(&s);
    return s.failed ? -1 : 0;
}
