/* mii.c: the minimum initiation interval, a lower bound on the II of any
 * modulo schedule of a DFG on an array.
 *
 * ResMII.  Every unit (FuncUnit, MEMUnit, IO, ConstUnit) runs at most one op
 * per context, so at II it offers II slots.  Units are heterogeneous: an op
 * may run on several kinds of unit and a unit may serve several op kinds.
 * By Hall's theorem the ops fit in II slots per unit exactly when, for every
 * set S of op kinds, |ops of kind in S| <= II * |units supporting some kind
 * of S|; so ResMII is the maximum over S of the ceiling of that ratio.  The
 * sets range over the op kinds present in the DFG (a handful), and units
 * are grouped by which of those kinds they support.
 *
 * RecMII.  The largest ceil(delay / distance) over the DFG's cycles, where
 * an edge's delay is the least it can have on the array: the smallest
 * latency of a unit running the producer plus the shortest route from
 * such a unit to the operand's pin of a unit running the consumer (on the
 * default PE a result reaches any operand through a register, so a cycle
 * of k ops needs at least k cycles even at latency 0).  It is the least
 * II at which no cycle has positive weight delay - II * distance.  The
 * memory ordering edges (cg_map_mem_orders: a store before a later load of
 * the same location, ...) are part of the cycles, with their latency as
 * delay: in a histogram, load -> add -> store -> (next iteration) load.
 *
 * Loads and stores with a bank (set by the tiler) count only the MEMUnits
 * that reach their bank, and every node only the units at least as wide
 * as it, in ResMII and in the check that some unit can run every node.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../map.h"
#include "model_internal.h"

/* Latency of one op on primitive pr (which supports it). */
static int unit_latency(const cg_nl_prim *pr)
{
    return pr->p.kind == CG_PRIM_FUNC || pr->p.kind == CG_PRIM_MEM
               ? pr->p.latency
               : 0;
}

bool cg__map_prim_supports(const cg_nl_prim *pr, cg_op op)
{
    switch (pr->p.kind) {
    case CG_PRIM_FUNC:
    case CG_PRIM_MEM: return (pr->p.ops & CG_OPSET(op)) != 0;
    case CG_PRIM_IO: return op == CG_OP_INPUT || op == CG_OP_OUTPUT;
    case CG_PRIM_CONST: return op == CG_OP_CONST;
    default: return false;
    }
}

uint64_t cg__map_init_value(const cg_dfg *g, int init,
                            const uint64_t *inputs)
{
    if (init < 0)
        return 0;
    const cg_dfg_node *n = cg_dfg_get_node(g, init);
    if (n->op == CG_OP_INPUT)
        return inputs ? cg_trunc(inputs[init], n->width) : 0;
    return cg_trunc((uint64_t)n->value, n->width);
}

bool cg__map_node_fits(const cg_nl_prim *pr, const cg_dfg_node *n)
{
    /* the unit holds the value: it must be at least as wide (an operand
     * reaches its pin over nets of the unit's width, flatten's rule, so
     * its producer's unit is as narrow and the producer fits there only
     * when the operand does) */
    if (!cg__map_prim_supports(pr, n->op) || pr->p.width < n->width)
        return false;
    if (pr->p.kind != CG_PRIM_MEM || n->bank < 0 || pr->p.bank < 0)
        return true;
    return pr->p.bank == n->bank;
}

/* Smallest latency of op over the units supporting it, -1 when none. */
static int min_latency(const cg_netlist *nl, cg_op op)
{
    int best = -1;
    for (int i = 0; i < cg_netlist_nprims(nl); i++) {
        const cg_nl_prim *pr = cg_netlist_prim(nl, i);
        if (cg__map_prim_supports(pr, op) &&
            (best < 0 || unit_latency(pr) < best))
            best = unit_latency(pr);
    }
    return best;
}

/* The most banks check_bank's message names; more end the list with
 * ", ...".  Its buffer holds them all: a bank (below CG_MAX_BANKS) takes
 * at most 7 bytes with its ", ". */
enum { BANKS_LISTED = 40 };

/* A load/store with a bank needs a MEMUnit that reaches it; -1 (with an
 * error naming the node, its bank and the banks the units reach, every
 * bank up to the message's room, then "...") when none does. */
static int check_bank(const cg_netlist *nl, const cg_dfg *g,
                      const cg_dfg_node *n, cg_diags *d)
{
    if (n->bank < 0 || (n->op != CG_OP_LOAD && n->op != CG_OP_STORE))
        return 0;
    char have[8 * BANKS_LISTED + 8] = "";
    size_t len = 0;
    int listed[BANKS_LISTED], nlisted = 0;
    bool cut = false;
    for (int i = 0; i < cg_netlist_nprims(nl); i++) {
        const cg_nl_prim *pr = cg_netlist_prim(nl, i);
        if (cg__map_node_fits(pr, n))
            return 0;
        int b = pr->p.bank, seen = 0;
        if (!cg__map_prim_supports(pr, n->op) || b < 0 || cut)
            continue;
        for (int j = 0; j < nlisted && !seen; j++)
            seen = listed[j] == b;
        if (seen)
            continue;
        if (nlisted == BANKS_LISTED) {
            len += (size_t)snprintf(have + len, sizeof have - len, ", ...");
            cut = true;
            continue;
        }
        listed[nlisted++] = b;
        len += (size_t)snprintf(have + len, sizeof have - len, "%s%d",
                                len ? ", " : "", b);
    }
    cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), n->line,
                 "%s '%s' must access bank %d (where its array was placed) "
                 "but no MEMUnit of the architecture that runs %s reaches "
                 "bank %d (they reach bank%s %s): place the array in one of "
                 "those banks or give a MEMUnit bank=\"%d\"",
                 cg_op_name(n->op), n->name, n->bank, cg_op_name(n->op),
                 n->bank, strchr(have, ',') ? "s" : "", len ? have : "none",
                 n->bank);
    return -1;
}

/* A node wider than every unit that runs its op: -1, with an error naming
 * the node, both widths and the rule (once per op: wide[op]). */
static int check_width(const cg_netlist *nl, const cg_dfg *g,
                       const cg_dfg_node *n, bool *wide, cg_diags *d)
{
    int widest = 0;
    for (int i = 0; i < cg_netlist_nprims(nl); i++) {
        const cg_nl_prim *pr = cg_netlist_prim(nl, i);
        if (cg__map_prim_supports(pr, n->op) && pr->p.width > widest)
            widest = pr->p.width;
    }
    if (widest >= n->width)
        return 0;
    if (!wide[n->op])
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), n->line,
                     "node '%s' (%s) is %d bits wide, but the widest unit "
                     "of the architecture that runs %s is %d bits: an op "
                     "runs only on a unit at least as wide (narrow the "
                     "DFG: for address arithmetic, the address width; or "
                     "widen the units)", n->name, cg_op_name(n->op),
                     n->width, cg_op_name(n->op), widest);
    wide[n->op] = true;
    return -1;
}

/* Report every op kind of g that no unit supports, and every node no unit
 * can run (too wide, or no unit reaches its bank); -1 when any. */
/* How to give an array the unit an op needs: only ALU ops go into a
 * FuncUnit's op list. */
static const char *unsupported_fix(cg_op op, bool exit_test)
{
    switch (op) {
    case CG_OP_INPUT:
        return "live-ins need IO: give the mesh IO blocks "
               "(io=\"every-side-port\", docs/xml.md) or add IO primitives";
    case CG_OP_OUTPUT: /* the controller's choice helps the exit test only */
        return exit_test
                   ? "live-outs and the loop's exit test need IO: give the "
                     "mesh IO blocks (io=\"every-side-port\", docs/xml.md) "
                     "or add IO primitives; or let the array's controller "
                     "run the loop (cgramap --loop-control array), whose "
                     "exit test then needs none"
                   : "live-outs need IO: give the mesh IO blocks "
                     "(io=\"every-side-port\", docs/xml.md) or add IO "
                     "primitives";
    case CG_OP_CONST:
        return "constants need a ConstUnit, or immediates on the units "
               "that use them (immediate=, docs/xml.md)";
    case CG_OP_LOAD:
    case CG_OP_STORE:
        return "loads and stores need a MEMUnit (docs/xml.md)";
    default:
        return "add it to a FuncUnit's op list or use an architecture that "
               "has it";
    }
}

static int check_supported(const cg_netlist *nl, const cg_dfg *g,
                           cg_diags *d)
{
    bool seen[CG_OP_COUNT] = {false}, wide[CG_OP_COUNT] = {false};
    int bad = 0;
    int ex = cg_dfg_find(g, "loop_exit"); /* the extractor's exit test */
    bool exit_test = ex >= 0 && cg_dfg_get_node(g, ex)->op == CG_OP_OUTPUT;
    for (int v = 0; v < cg_dfg_nnodes(g); v++) {
        const cg_dfg_node *n = cg_dfg_get_node(g, v);
        if (!seen[n->op] && min_latency(nl, n->op) >= 0) {
            if (check_width(nl, g, n, wide, d) < 0 ||
                check_bank(nl, g, n, d) < 0)
                bad = -1;
            continue;
        }
        if (seen[n->op])
            continue;
        seen[n->op] = true;
        bad = -1;
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), n->line,
                     "no unit of the architecture supports op '%s' (node "
                     "'%s'): %s",
                     cg_op_name(n->op), n->name,
                     unsupported_fix(n->op, exit_test));
    }
    return bad;
}

static int ceil_div(int a, int b) { return (a + b - 1) / b; }

/* ResMII by Hall's condition over the subsets of the op kinds present.  A
 * kind is an op and, for loads and stores, the bank they must reach: a
 * unit serves a kind when it runs the op and reaches the bank. */
static int res_mii(const cg_netlist *nl, const cg_dfg *g, cg_op *bottleneck)
{
    int n = cg_dfg_nnodes(g), nk = 0;
    int *rep = malloc(sizeof(int) * ((size_t)n + 1)); /* a node per kind */
    int *count = calloc((size_t)n + 1, sizeof(int));
    int nprims = cg_netlist_nprims(nl);
    unsigned *umask = calloc((size_t)nprims + 1, sizeof *umask);
    if (!rep || !count || !umask) {
        free(rep);
        free(count);
        free(umask);
        return -1;
    }
    /* kinds in op order: of two bottlenecks as tight, the lower op is
     * named, whatever the node order */
    for (int op = 0; op < CG_OP_COUNT; op++) {
        int k0 = nk;
        for (int v = 0; v < n; v++) {
            const cg_dfg_node *x = cg_dfg_get_node(g, v);
            if ((int)x->op != op)
                continue;
            int k = k0;
            while (k < nk && (cg_dfg_get_node(g, rep[k])->bank != x->bank ||
                              cg_dfg_get_node(g, rep[k])->width != x->width))
                k++;
            if (k == nk)
                rep[nk++] = v;
            count[k]++;
        }
    }
    /* Unit groups: the mask (over the first 32 kinds) of what each unit
     * supports. */
    for (int i = 0; i < nprims; i++)
        for (int k = 0; k < nk && k < 32; k++)
            if (cg__map_node_fits(cg_netlist_prim(nl, i),
                                  cg_dfg_get_node(g, rep[k])))
                umask[i] |= 1u << k;
    int best = 0;
    *bottleneck = CG_OP_NOP;
    /* More than 20 kinds would make 2^nk too many sets; fall back to the
     * single kinds (still a valid lower bound). */
    int nsk = nk < 32 ? nk : 32;
    unsigned nsets = nk <= 20 ? 1u << nk : 0;
    for (unsigned s = 1; s < nsets || (nsets == 0 && s <= (unsigned)nsk);
         s++) {
        unsigned set = nsets ? s : 1u << (s - 1);
        int ops = 0, units = 0, top = -1;
        for (int k = 0; k < nsk; k++)
            if (set & (1u << k)) {
                ops += count[k];
                if (top < 0 || count[k] > count[top])
                    top = k;
            }
        for (int i = 0; i < nprims; i++)
            units += (umask[i] & set) != 0;
        int r = units ? ceil_div(ops, units) : 0;
        if (r > best) {
            best = r;
            *bottleneck = cg_dfg_get_node(g, rep[top])->op;
        }
    }
    free(rep);
    free(count);
    free(umask);
    return best;
}

/* The least delay of a DFG edge from op src to operand `operand` of op dst
 * on the array: the producer's latency plus the shortest route from the
 * result of a unit that can run src to that operand pin of a unit that can
 * run dst.  Found on the MRRG at II=1, whose delays are those of every II
 * (a route at any II folds onto it).  -1 when no route exists.  dist and
 * queue hold one int per MRRG node. */
static int edge_delay(const cg_mrrg *m1, const cg_netlist *nl, cg_op src,
                      cg_op dst, int operand, int *dist, int *queue)
{
    int n = cg_mrrg_nnodes(m1), head = 0, tail = 0, best = -1;
    bool *inq = calloc((size_t)n + 1, sizeof *inq);
    if (!inq)
        return -2;
    for (int i = 0; i < n; i++) {
        dist[i] = -1;
        if (cg_mrrg_supports(m1, nl, i, src)) {
            dist[i] = 0;
            queue[tail++ % n] = i;
            inq[i] = true;
        }
    }
    /* Label-correcting shortest paths (FIFO queue, each node at most once
     * in it): small graphs, small integer delays. */
    while (head != tail) {
        int i = queue[head++ % n];
        inq[i] = false;
        const cg_mrrg_node *nd = cg_mrrg_get_node(m1, i);
        if (nd->kind == CG_MRRG_ROUTE && nd->operand >= 0) {
            if (nd->operand == operand &&
                cg_mrrg_supports(m1, nl, nd->func, dst) &&
                (best < 0 || dist[i] < best))
                best = dist[i];
            continue; /* a pin leads only into its own unit */
        }
        int k;
        const int *out = cg_mrrg_out(m1, i, &k);
        for (int j = 0; j < k; j++) {
            const cg_mrrg_edge *ed = cg_mrrg_get_edge(m1, out[j]);
            int nd2 = dist[i] + ed->delay;
            if (cg_mrrg_get_node(m1, ed->to)->kind == CG_MRRG_FUNC ||
                (dist[ed->to] >= 0 && dist[ed->to] <= nd2))
                continue;
            dist[ed->to] = nd2;
            if (!inq[ed->to]) {
                inq[ed->to] = true;
                queue[tail++ % n] = ed->to;
            }
        }
    }
    free(inq);
    return best;
}

/* Least delay of every DFG edge into w[]; errors name the ops of an edge
 * no route can carry.  -1 on such an edge or no memory. */
static int edge_delays(const cg_netlist *nl, const cg_dfg *g, int *w,
                       cg_diags *d)
{
    cg_diags *quiet = cg_diags_create();
    cg_mrrg *m1 = quiet ? cg_mrrg_build(nl, 1, quiet) : NULL;
    cg_diags_destroy(quiet);
    int n = m1 ? cg_mrrg_nnodes(m1) : 0, rc = m1 ? 0 : -2;
    int *dist = malloc(sizeof(int) * ((size_t)n + 1));
    int *queue = malloc(sizeof(int) * ((size_t)n + 1));
    /* one search per (producer op, consumer op, operand) */
    int *memo = malloc(sizeof(int) * CG_OP_COUNT * CG_OP_COUNT * 4);
    if (!dist || !queue || !memo)
        rc = -2;
    for (int i = 0; rc == 0 && i < CG_OP_COUNT * CG_OP_COUNT * 4; i++)
        memo[i] = -3;
    for (int e = 0; rc == 0 && e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        const cg_dfg_node *s = cg_dfg_get_node(g, ed->src);
        const cg_dfg_node *t = cg_dfg_get_node(g, ed->dst);
        int k = ed->operand < 3 ? ed->operand : 3;
        int *slot = &memo[((int)s->op * CG_OP_COUNT + (int)t->op) * 4 + k];
        if (*slot == -3)
            *slot = k < 3 ? edge_delay(m1, nl, s->op, t->op, k, dist, queue)
                          : -1;
        w[e] = *slot;
        if (*slot == -2) {
            rc = -2;
        } else if (*slot < 0) {
            cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), t->line,
                         "no route of the architecture leads from a unit "
                         "running '%s' (node '%s') to operand %d of a unit "
                         "running '%s' (node '%s'): connect such units",
                         cg_op_name(s->op), s->name, ed->operand,
                         cg_op_name(t->op), t->name);
            rc = -1;
        }
    }
    free(memo);
    free(queue);
    free(dist);
    cg_mrrg_destroy(m1);
    return rc;
}

/* The DFG's edges and the memory ordering edges, as one list for the
 * recurrence search: weight w (least delay, or the ordering latency) and
 * distance. */
typedef struct recedge { int src, dst, w, distance; } recedge;

/* True when some cycle has positive weight w(e) - ii * distance(e)
 * (Bellman-Ford longest paths from a virtual source). */
static bool positive_cycle(int n, const recedge *r, int m, long ii,
                           long *dist)
{
    memset(dist, 0, sizeof *dist * ((size_t)n + 1));
    bool changed = true;
    for (int round = 0; round <= n && changed; round++) {
        changed = false;
        for (int e = 0; e < m; e++) {
            long x = dist[r[e].src] + r[e].w - ii * r[e].distance;
            if (x > dist[r[e].dst]) {
                dist[r[e].dst] = x;
                changed = true;
            }
        }
    }
    return changed;
}

/* The least II at which no cycle has positive weight; -2 when even an
 * II above every cycle's delay leaves one (a cycle of distance 0: the
 * memory order contradicts the data flow); -1 on no memory. */
static int rec_mii(int n, const recedge *r, int m)
{
    long *dist = malloc(sizeof *dist * ((size_t)n + 1));
    if (!dist)
        return -1;
    long total = 0;
    for (int e = 0; e < m; e++)
        total += r[e].w;
    int lo = 0, hi = (int)(total > 1 << 30 ? 1 << 30 : total) + 1;
    if (!positive_cycle(n, r, m, 0, dist))
        hi = 0; /* no cycle at all, or only zero-delay ones */
    else if (positive_cycle(n, r, m, hi, dist))
        hi = -2;
    while (hi > 0 && lo + 1 < hi) { /* lo has a positive cycle, hi not */
        int mid = lo + (hi - lo) / 2;
        if (positive_cycle(n, r, m, mid, dist))
            lo = mid;
        else
            hi = mid;
    }
    free(dist);
    return hi;
}

/* RecMII over the data edges (least delays w) and the memory order; -1 on
 * no memory, -2 on a contradictory memory order (error added). */
static int rec_mii_all(const cg_dfg *g, const int *w, cg_diags *d)
{
    cg_mem_order *o = NULL;
    int no = cg_map_mem_orders(g, &o), m = cg_dfg_nedges(g);
    recedge *r = no >= 0 ? malloc(sizeof *r * ((size_t)(m + no) + 1)) : NULL;
    if (!r) {
        free(o);
        return -1;
    }
    for (int e = 0; e < m; e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        r[e] = (recedge){ed->src, ed->dst, w[e], ed->distance};
    }
    for (int i = 0; i < no; i++)
        r[m + i] = (recedge){o[i].first, o[i].then, o[i].latency,
                             o[i].distance};
    int rec = rec_mii(cg_dfg_nnodes(g), r, m + no);
    if (rec == -2)
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "'%s' cannot be scheduled: a load or store depends "
                     "(through the data flow) on a memory operation with a "
                     "higher node id, which memory order puts after it; "
                     "number memory operations in program order",
                     cg_dfg_name(g));
    free(r);
    free(o);
    return rec;
}

int cg_mii_compute(const cg_netlist *nl, const cg_dfg *g, cg_mii *out,
                   cg_diags *d)
{
    memset(out, 0, sizeof *out);
    if (check_supported(nl, g, d) < 0)
        return -1;
    int *w = malloc(sizeof(int) * ((size_t)cg_dfg_nedges(g) + 1));
    int rc = w ? edge_delays(nl, g, w, d) : -2;
    if (rc == -1) {
        free(w);
        return -1;
    }
    out->res_mii = res_mii(nl, g, &out->bottleneck);
    out->rec_mii = rc == 0 ? rec_mii_all(g, w, d) : -1;
    free(w);
    if (out->rec_mii == -2)
        return -1;
    if (out->res_mii < 0 || out->rec_mii < 0) {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "out of memory computing the MII of '%s'",
                     cg_dfg_name(g));
        return -1;
    }
    out->mii = out->res_mii > out->rec_mii ? out->res_mii : out->rec_mii;
    if (out->mii < 1)
        out->mii = 1;
    return 0;
}
