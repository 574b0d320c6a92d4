/* extract_narrow.c: index arithmetic, loop counters and address constants
 * narrowed to the architecture's address width A (cg_extract_params
 * .addr_width, default 32) wherever that is exact.
 *
 * clang computes addresses in 64 bits (pointers, GEPs, widened induction
 * variables); the CGRA's units are A bits wide.  The 64-bit nodes are
 * grouped by the widths LLVM's types tie together (an add and its operands,
 * an icmp's two operands, a loop-carried value and its initial value); a
 * group is narrowed as a whole, or not at all.  Narrowing is exact when
 * every op of the group gives the same low A bits at A bits as at 64 (add,
 * sub, mul, and, or, xor, shl by a constant below A, select, sext and zext
 * of at most A bits, consts and live-ins) and every use that leaves the
 * group needs only those bits:
 *   - the address of a load or store, when the address provably lies in
 *     [0, 2^A): by the range of its value (below), or because it is an
 *     inbounds GEP of a global that ends below 2^A (an access outside the
 *     object it points into is undefined behaviour in C), or of a pointer
 *     live-in when the layout ends below 2^A (the native run translates it
 *     into the layout, or fails saying it points elsewhere);
 *   - an icmp, when both operands' ranges fit in A bits the way the
 *     predicate reads them (signed, unsigned, either for eq/ne);
 *   - a trunc to at most A bits.
 * A live-out, a load or store of 64-bit data, a division, a right shift or
 * an unproven use keeps the group at 64 bits, with a warning naming the op
 * and the reason.
 *
 * Ranges are exact interval arithmetic on the 64-bit values (any overflow
 * makes a range unknown): consts, live-ins that are affine in outer loop
 * counters with known trip counts (the nest) or a zext/sext of a narrower
 * type, induction variables x = x + c over the tagged loop's known trip
 * count, and add, sub, mul, shl, and, or, select, sext, zext of known
 * ranges.  A symbolic trip count is never taken from --sym (the DFG must
 * stay right for every value of the symbol), but a counter x = x' +- 1
 * whose loop ends the first time it equals an invariant b runs from its
 * start to b.  LLVM 16's C API does not expose the nsw/nuw flags, so no
 * range rests on them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract_internal.h"

typedef struct rng {
    bool known;
    int64_t lo, hi;
} rng;

typedef struct nctx {
    cg_dfg *g;
    const cg_nest *nest;
    LLVMValueRef const *values;
    const cg_extract_prog *x;
    int A;
    int n;
    rng *r;          /* per node: range of its value (signed at its width) */
    int *uf;         /* union-find over nodes */
    char **why;      /* per group root: why it stays wide, NULL = narrow */
    int *blame;      /* per group root: the node the reason names */
    cg_diags *d;
} nctx;

static const rng unknown = {false, 0, 0};

static rng span(int64_t a, int64_t b)
{
    return (rng){true, a < b ? a : b, a < b ? b : a};
}

static rng hull(rng a, rng b)
{
    if (!a.known || !b.known)
        return unknown;
    return (rng){true, a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
}

/* The signed range of a w-bit value. */
static rng full(int w)
{
    if (w >= 64)
        return (rng){true, INT64_MIN, INT64_MAX};
    return (rng){true, -((int64_t)1 << (w - 1)), ((int64_t)1 << (w - 1)) - 1};
}

static bool fits_signed(rng a, int w)
{
    rng f = full(w);
    return a.known && a.lo >= f.lo && a.hi <= f.hi;
}

static bool fits_unsigned(rng a, int w)
{
    return a.known && a.lo >= 0 &&
           (w >= 64 || (uint64_t)a.hi < ((uint64_t)1 << w));
}

static rng add_r(rng a, rng b, int sign)
{
    int64_t lo, hi;
    if (!a.known || !b.known)
        return unknown;
    if (sign > 0 ? __builtin_add_overflow(a.lo, b.lo, &lo) ||
                       __builtin_add_overflow(a.hi, b.hi, &hi)
                 : __builtin_sub_overflow(a.lo, b.hi, &lo) ||
                       __builtin_sub_overflow(a.hi, b.lo, &hi))
        return unknown;
    return (rng){true, lo, hi};
}

static rng mul_r(rng a, rng b)
{
    if (!a.known || !b.known)
        return unknown;
    int64_t p[4];
    if (__builtin_mul_overflow(a.lo, b.lo, &p[0]) ||
        __builtin_mul_overflow(a.lo, b.hi, &p[1]) ||
        __builtin_mul_overflow(a.hi, b.lo, &p[2]) ||
        __builtin_mul_overflow(a.hi, b.hi, &p[3]))
        return unknown;
    rng r = span(p[0], p[1]);
    return hull(r, span(p[2], p[3]));
}

static int find(nctx *c, int v)
{
    while (c->uf[v] != v)
        v = c->uf[v] = c->uf[c->uf[v]];
    return v;
}

static void unite(nctx *c, int a, int b)
{
    a = find(c, a);
    b = find(c, b);
    if (a != b)
        c->uf[a < b ? b : a] = a < b ? a : b;
}

static const cg_dfg_node *node(const nctx *c, int v)
{
    return cg_dfg_get_node(c->g, v);
}

/* Only LLVM's index width (64, pointers and GEPs) is narrowed: narrower
 * data keeps its C type's width. */
static bool wide(const nctx *c, int v) { return node(c, v)->width == 64; }

/* ---- ranges ---------------------------------------------------------- */

/* The tagged loop's trip count when it is a number, else -1. */
static int64_t trip(const nctx *c, int l)
{
    const cg_nest_loop *x = &c->nest->loops[l];
    return x->trip_sym ? -1 : x->trip;
}

/* A live-in computed by a zext or sext (clang's widened trip counts and
 * indices): the range of its source's type. */
static rng cast_range(const nctx *c, int v)
{
    LLVMValueRef in = c->values ? c->values[v] : NULL;
    if (!in || (!LLVMIsAZExtInst(in) && !LLVMIsASExtInst(in)))
        return unknown;
    int w = cg__ex_type_bits(c->x, LLVMTypeOf(LLVMGetOperand(in, 0)));
    if (w < 1 || w >= 64)
        return unknown;
    return LLVMIsASExtInst(in) ? full(w)
                               : span(0, (int64_t)((1ULL << w) - 1));
}

/* A live-in affine in the outer counters with known trips, or a cast. */
static rng livein_range(const nctx *c, int v)
{
    const cg_nest *n = c->nest;
    for (int i = 0; n && i < n->nliveins; i++) {
        if (n->liveins[i].node != v)
            continue;
        const cg_affine *a = &n->liveins[i].value;
        if (!a->is_affine)
            return cast_range(c, v);
        rng r = {true, a->cst, a->cst};
        for (int l = 0; l < n->nloops && r.known; l++) {
            if (!a->coef[l])
                continue;
            int64_t t = trip(c, l), last;
            if (l == n->nloops - 1 || t < 1 ||
                __builtin_mul_overflow(n->loops[l].step, t - 1, &last) ||
                __builtin_add_overflow(last, n->loops[l].start, &last))
                return unknown;
            r = add_r(r, mul_r((rng){true, a->coef[l], a->coef[l]},
                               span(n->loops[l].start, last)), 1);
        }
        return r;
    }
    return cast_range(c, v);
}

/* A phi p = phi(init, q@1) with q = p + k (or - k): over the tagged loop's
 * trip count t, from init to init + (t-1)*k. */
static bool phi_iv_range(const nctx *c, int v, rng *out)
{
    int e0 = cg_dfg_operand_edge(c->g, v, 0);
    int e1 = cg_dfg_operand_edge(c->g, v, 1);
    if (node(c, v)->op != CG_OP_PHI || e0 < 0 || e1 < 0 || !c->nest ||
        c->nest->nloops < 1)
        return false;
    const cg_dfg_edge *a = cg_dfg_get_edge(c->g, e0);
    const cg_dfg_edge *b = cg_dfg_get_edge(c->g, e1);
    int q = b->src;
    const cg_dfg_node *qn = node(c, q);
    int q0 = cg_dfg_operand_edge(c->g, q, 0), q1 = cg_dfg_operand_edge(c->g, q, 1);
    if (a->distance != 0 || a->src >= v || b->distance != 1 || q0 < 0 ||
        q1 < 0 || (qn->op != CG_OP_ADD && qn->op != CG_OP_SUB))
        return false;
    const cg_dfg_edge *x = cg_dfg_get_edge(c->g, q0);
    const cg_dfg_node *k = node(c, cg_dfg_get_edge(c->g, q1)->src);
    if (x->src != v || x->distance != 0 || k->op != CG_OP_CONST ||
        !k->has_value)
        return false;
    int64_t t = trip(c, c->nest->nloops - 1), step = k->value, far;
    if (qn->op == CG_OP_SUB && __builtin_sub_overflow(0, step, &step))
        return false;
    *out = unknown;
    if (t >= 1 && !__builtin_mul_overflow(step, t - 1, &far))
        *out = add_r(c->r[a->src], span(0, far), 1);
    return true;
}

/* x = x@1 + k (or - k): *init the range of its initial value, *step k. */
static bool iv_parts(const nctx *c, int v, rng *init, int64_t *step)
{
    const cg_dfg_node *n = node(c, v);
    int e0 = cg_dfg_operand_edge(c->g, v, 0);
    int e1 = cg_dfg_operand_edge(c->g, v, 1);
    if ((n->op != CG_OP_ADD && n->op != CG_OP_SUB) || e0 < 0 || e1 < 0 ||
        !c->nest || c->nest->nloops < 1)
        return false;
    const cg_dfg_edge *a = cg_dfg_get_edge(c->g, e0);
    const cg_dfg_edge *b = cg_dfg_get_edge(c->g, e1);
    const cg_dfg_node *k = node(c, b->src);
    if (a->src != v || a->distance != 1 || b->distance != 0 ||
        k->op != CG_OP_CONST || !k->has_value || a->init < 0 ||
        a->init >= v)
        return false;
    *step = k->value;
    if (n->op == CG_OP_SUB && __builtin_sub_overflow(0, *step, step))
        return false;
    *init = c->r[a->init];
    return true;
}

/* Does the loop end the first time counter x equals a value b, b's node
 * in *bound: loop_exit fed by an icmp of x with b, eq exiting when true or
 * ne when false (the branch's sense, recorded for the native run)? */
static bool exits_at_equal(const nctx *c, int x, int *bound)
{
    int ex = cg_dfg_find(c->g, "loop_exit");
    int e = ex >= 0 ? cg_dfg_operand_edge(c->g, ex, 0) : -1;
    int cmp = e >= 0 ? cg_dfg_get_edge(c->g, e)->src : -1;
    const cg_dfg_node *n = cmp >= 0 ? node(c, cmp) : NULL;
    if (!n || n->op != CG_OP_ICMP ||
        (n->pred != CG_PRED_EQ && n->pred != CG_PRED_NE))
        return false;
    int on_true = -1;
    for (int k = 0; k < c->x->ndone; k++)
        for (int i = 0; !strcmp(c->x->done[k].tag, cg_dfg_name(c->g)) &&
                        i < c->x->done[k].nout; i++)
            if (c->x->done[k].out[i].node == ex &&
                c->x->done[k].out[i].where == CG__EX_CONST)
                on_true = c->x->done[k].out[i].value != 0;
    if (on_true != (n->pred == CG_PRED_EQ))
        return false;
    int a = cg_dfg_operand_edge(c->g, cmp, 0);
    int b = cg_dfg_operand_edge(c->g, cmp, 1);
    const cg_dfg_edge *ea = cg_dfg_get_edge(c->g, a);
    const cg_dfg_edge *eb = cg_dfg_get_edge(c->g, b);
    if (!ea || !eb || ea->distance || eb->distance)
        return false;
    *bound = ea->src == x ? eb->src : eb->src == x ? ea->src : -1;
    return *bound >= 0;
}

/* A counter x = x' + 1 (or - 1) whose trip count is not a number, when the
 * loop ends the first time x equals b: it runs from init + 1 up to b (or
 * down), never past it (passing b would take 2^64 iterations). */
static rng bound_range(const nctx *c, int x, rng init, int64_t step)
{
    int b;
    if ((step != 1 && step != -1) || !init.known ||
        !exits_at_equal(c, x, &b) || !c->r[b].known ||
        (node(c, b)->op != CG_OP_INPUT && node(c, b)->op != CG_OP_CONST))
        return unknown; /* b must not change while the loop runs */
    rng r = step > 0 ? (rng){true, init.lo + (init.lo < INT64_MAX), c->r[b].hi}
                     : (rng){true, c->r[b].lo, init.hi - (init.hi > INT64_MIN)};
    return r.lo <= r.hi ? r : unknown;
}

/* init + step * [lo, hi] */
static rng iv_values(rng init, int64_t step, int64_t lo, int64_t hi)
{
    int64_t a, b;
    if (lo > hi || __builtin_mul_overflow(step, lo, &a) ||
        __builtin_mul_overflow(step, hi, &b))
        return unknown;
    return add_r(init, span(a, b), 1);
}

/* An induction variable over the tagged loop's trip count t: from init + k
 * (first iteration) to init + t*k (last); a phi counter from init to
 * init + (t-1)*k. */
static bool iv_range(const nctx *c, int v, rng *out)
{
    rng init;
    int64_t step, t = c->nest ? trip(c, c->nest->nloops - 1) : -1;
    if (phi_iv_range(c, v, out))
        return true;
    if (!iv_parts(c, v, &init, &step))
        return false;
    *out = t >= 1 ? iv_values(init, step, 1, t) : bound_range(c, v, init,
                                                               step);
    return true;
}

/* The value operand k of v reads (a loop-carried one also its init). */
static rng operand_range(const nctx *c, int v, int k)
{
    int e = cg_dfg_operand_edge(c->g, v, k);
    if (e < 0)
        return unknown;
    const cg_dfg_edge *x = cg_dfg_get_edge(c->g, e);
    if (x->distance == 0)
        return x->src < v ? c->r[x->src] : unknown;
    /* an induction variable read d iterations later: its initial value,
     * then its values up to iteration t-1-d */
    rng init;
    int64_t step, t = c->nest ? trip(c, c->nest->nloops - 1) : -1;
    if (x->init >= 0 && iv_parts(c, x->src, &init, &step) && t >= 1)
        return hull(c->r[x->init],
                    iv_values(init, step, 0,
                              t - x->distance > 0 ? t - x->distance : 0));
    /* the range of the pass before, or of this one when src < v: sound
     * either way (each pass starts from sound ranges) */
    return hull(c->r[x->src], x->init >= 0 ? c->r[x->init]
                                           : (rng){true, 0, 0});
}

static rng node_range(const nctx *c, int v)
{
    const cg_dfg_node *n = node(c, v);
    rng a = operand_range(c, v, 0), b = operand_range(c, v, 1), r = unknown;
    int from = 0, e = cg_dfg_operand_edge(c->g, v, 0);
    if (e >= 0)
        from = node(c, cg_dfg_get_edge(c->g, e)->src)->width;
    if (iv_range(c, v, &r))
        return fits_signed(r, n->width) ? r : unknown;
    switch (n->op) {
    case CG_OP_CONST: return n->has_value ? span(n->value, n->value) : r;
    case CG_OP_INPUT: r = livein_range(c, v); break;
    case CG_OP_ADD: r = add_r(a, b, 1); break;
    case CG_OP_SUB: r = add_r(a, b, -1); break;
    case CG_OP_MUL: r = mul_r(a, b); break;
    case CG_OP_SHL:
        if (b.known && b.lo == b.hi && b.lo >= 0 && b.lo < 63)
            r = mul_r(a, span((int64_t)1 << b.lo, (int64_t)1 << b.lo));
        break;
    case CG_OP_AND:
        if (b.known && b.lo == b.hi && b.lo >= 0)
            r = span(0, b.lo);
        break;
    case CG_OP_OR:
        if (a.known && b.known && a.lo >= 0 && b.lo >= 0) {
            int64_t m = a.hi | b.hi;
            int bits = 64 - __builtin_clzll((uint64_t)m | 1);
            r = span(a.lo > b.lo ? a.lo : b.lo,
                     bits >= 63 ? INT64_MAX : ((int64_t)1 << bits) - 1);
        }
        break;
    case CG_OP_SELECT: r = hull(b, operand_range(c, v, 2)); break;
    case CG_OP_SEXT: r = fits_signed(a, from) ? a : full(from); break;
    case CG_OP_ZEXT:
        r = a.known && a.lo >= 0 ? a
            : from >= 64 ? unknown : span(0, (int64_t)((1ULL << from) - 1));
        break;
    default: break;
    }
    return fits_signed(r, n->width) ? r : unknown;
}

/* ---- groups ----------------------------------------------------------- */

/* Keep v's group wide for the reason fmt (the first reason found wins). */
static void keep(nctx *c, int v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void keep(nctx *c, int v, const char *fmt, ...)
{
    int root = find(c, v);
    if (c->why[root])
        return;
    char buf[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    c->why[root] = cg__ex_strdup(buf);
    c->blame[root] = v;
}

/* Tie the widths LLVM's types tie: a 64-bit node with its 64-bit
 * operands (an icmp's two operands through the icmp) and initial values. */
static void group(nctx *c)
{
    for (int e = 0; e < cg_dfg_nedges(c->g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(c->g, e);
        if (x->init >= 0 && wide(c, x->src))
            unite(c, x->src, x->init);
        cg_op op = node(c, x->dst)->op;
        bool addr = (op == CG_OP_LOAD || op == CG_OP_STORE) &&
                    x->operand == 0;
        if (wide(c, x->src) && !addr && op != CG_OP_TRUNC)
            unite(c, x->src, x->dst);
    }
}

static const char *nm(const nctx *c, int v) { return node(c, v)->name; }

/* Ops whose low A bits depend only on their operands' low A bits. */
static void check_member(nctx *c, int v)
{
    const cg_dfg_node *n = node(c, v);
    int e1 = cg_dfg_operand_edge(c->g, v, 1);
    const cg_dfg_node *amt = e1 >= 0 ? node(c, cg_dfg_get_edge(c->g, e1)->src)
                                     : NULL;
    switch (n->op) {
    case CG_OP_CONST: case CG_OP_INPUT: case CG_OP_ADD: case CG_OP_SUB:
    case CG_OP_MUL: case CG_OP_AND: case CG_OP_OR: case CG_OP_XOR:
    case CG_OP_SELECT: case CG_OP_NOP: case CG_OP_PHI:
        return;
    case CG_OP_SEXT: case CG_OP_ZEXT: {
        int e0 = cg_dfg_operand_edge(c->g, v, 0);
        int from = e0 >= 0 ? node(c, cg_dfg_get_edge(c->g, e0)->src)->width
                           : 64;
        if (from <= c->A)
            return;
        keep(c, v, "'%s' (%s) extends %d bits, more than %d", n->name,
             cg_op_name(n->op), from, c->A);
        return;
    }
    case CG_OP_SHL:
        if (amt && amt->op == CG_OP_CONST && amt->has_value &&
            amt->value >= 0 && amt->value < c->A)
            return;
        keep(c, v, "'%s' (shl) shifts by an amount not known to be below "
             "%d", n->name, c->A);
        return;
    case CG_OP_OUTPUT:
        keep(c, v, "'%s' is a live-out of the loop: its %d bits leave the "
             "loop", n->name, n->width);
        return;
    case CG_OP_LOAD: case CG_OP_STORE:
        keep(c, v, "'%s' (%s) accesses %d-bit data", n->name,
             cg_op_name(n->op), n->width);
        return;
    default:
        keep(c, v, "'%s' (%s) needs the high bits of its operands", n->name,
             cg_op_name(n->op));
        return;
    }
}

/* Whether LLVM value a is the live-in of an input node of the graph. */
static bool is_livein(const nctx *c, LLVMValueRef a)
{
    for (int i = 0; i < cg_dfg_nnodes(c->g); i++)
        if (node(c, i)->op == CG_OP_INPUT && c->values[i] == a)
            return true;
    return false;
}

/* The address of access v lies in an object that ends below 2^A: an
 * inbounds GEP (through casts) of a global, or of a pointer live-in (a
 * global pointer's value: the native run puts it in the layout, and says
 * so when it points elsewhere, so it lies below the layout's end). */
static bool inbounds_global(const nctx *c, int v)
{
    LLVMValueRef in = c->values ? c->values[v] : NULL;
    if (!in)
        return false;
    LLVMValueRef a = LLVMGetOperand(in, node(c, v)->op == CG_OP_STORE);
    for (int depth = 0; depth < 64; depth++) {
        if (LLVMIsAGlobalVariable(a)) {
            int g = cg__ex_global_index(c->x, a);
            return g >= 0 && c->A < 64 &&
                   c->x->globals[g].base + c->x->globals[g].bytes <=
                       (uint64_t)1 << c->A;
        }
        if (is_livein(c, a))
            return c->A < 64 && c->x->mem_base + c->x->mem_size <=
                                    (uint64_t)1 << c->A;
        if (LLVMIsAGetElementPtrInst(a) || (LLVMIsAConstantExpr(a) &&
            LLVMGetConstOpcode(a) == LLVMGetElementPtr)) {
            if (!LLVMIsInBounds(a))
                return false;
        } else if (!LLVMIsACastInst(a) && !(LLVMIsAConstantExpr(a) &&
                   LLVMGetConstOpcode(a) == LLVMBitCast)) {
            return false;
        }
        a = LLVMGetOperand(a, 0);
    }
    return false;
}

static void range_text(rng r, char *buf, size_t n)
{
    if (r.known)
        snprintf(buf, n, "[%lld, %lld]", (long long)r.lo, (long long)r.hi);
    else
        snprintf(buf, n, "unknown");
}

/* Uses that leave a group: addresses, icmps, truncs. */
static void check_exits(nctx *c)
{
    char rb[80], rb2[80];
    for (int e = 0; e < cg_dfg_nedges(c->g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(c->g, e);
        const cg_dfg_node *u = node(c, x->dst);
        if (!wide(c, x->src))
            continue;
        if ((u->op == CG_OP_LOAD || u->op == CG_OP_STORE) &&
            x->operand == 0) {
            rng r = operand_range(c, x->dst, 0);
            if (!fits_unsigned(r, c->A) && !inbounds_global(c, x->dst)) {
                range_text(r, rb, sizeof rb);
                keep(c, x->src, "the address of '%s' (%s), range %s, is not "
                     "proven to lie in [0, 2^%d) (no known range, and not "
                     "an inbounds access of a global below 2^%d)", u->name,
                     cg_op_name(u->op), rb, c->A, c->A);
            }
        } else if (u->op == CG_OP_TRUNC && u->width > c->A) {
            keep(c, x->src, "'%s' (trunc) keeps %d bits", u->name, u->width);
        } else if (u->op == CG_OP_ICMP && x->operand == 0) {
            rng a = operand_range(c, x->dst, 0), b = operand_range(c, x->dst, 1);
            bool s = fits_signed(a, c->A) && fits_signed(b, c->A);
            bool z = fits_unsigned(a, c->A) && fits_unsigned(b, c->A);
            bool ok = u->pred == CG_PRED_EQ || u->pred == CG_PRED_NE ? s || z
                      : u->pred >= CG_PRED_SLT && u->pred <= CG_PRED_SGE ? s
                      : z;
            if (!ok) {
                range_text(a, rb, sizeof rb);
                range_text(b, rb2, sizeof rb2);
                keep(c, x->dst, "'%s' (icmp) compares %s with %s, not "
                     "proven to fit in %d bits", u->name, rb, rb2, c->A);
            }
        }
    }
}

/* Narrow every group that passed; warn once per group that did not. */
static void apply(nctx *c)
{
    for (int v = 0; v < c->n; v++) {
        if (!wide(c, v))
            continue;
        int root = find(c, v);
        if (c->why[root]) {
            if (c->blame[root] >= 0) {
                const cg_dfg_node *b = node(c, c->blame[root]);
                int line = b->line ? b->line : node(c, v)->line;
                cg_diags_add(c->d, CG_SEV_WARNING, cg_dfg_file(c->g), line,
                             "loop '%s': '%s' (%s) and the ops tied to it "
                             "stay %d bits, wider than the address width "
                             "%d: %s", cg_dfg_name(c->g), nm(c, v),
                             cg_op_name(node(c, v)->op), node(c, v)->width,
                             c->A, c->why[root]);
                c->blame[root] = -1;
            }
            continue;
        }
        if (node(c, v)->op == CG_OP_ICMP)
            continue;
        cg_dfg_node *m = cg_dfg_node_mut(c->g, v);
        m->width = c->A;
        if (m->op == CG_OP_CONST)
            m->value = cg_sext((uint64_t)m->value, c->A);
    }
}

void cg__ex_narrow(const cg_extract_prog *x, cg_dfg *g,
                   LLVMValueRef const *values, cg_diags *d)
{
    int A = x->params.addr_width;
    nctx c = {g, cg_dfg_nest(g), values, x, A, cg_dfg_nnodes(g), NULL, NULL,
              NULL, NULL, d};
    if (A < 1 || A >= 64 || c.n == 0)
        return;
    c.r = calloc((size_t)c.n, sizeof *c.r);
    c.uf = calloc((size_t)c.n, sizeof *c.uf);
    c.why = calloc((size_t)c.n, sizeof *c.why);
    c.blame = calloc((size_t)c.n, sizeof *c.blame);
    if (c.r && c.uf && c.why && c.blame) {
        for (int v = 0; v < c.n; v++) {
            c.uf[v] = v;
            c.blame[v] = -1;
        }
        /* ids are in dependence order but for loop-carried edges, which
         * read the node's range of the pass before (unknown at first:
         * every pass is sound, the second one sees the counters) */
        for (int pass = 0; pass < 2; pass++)
            for (int v = 0; v < c.n; v++)
                c.r[v] = node_range(&c, v);
        group(&c);
        for (int v = 0; v < c.n; v++)
            if (wide(&c, v))
                check_member(&c, v);
        check_exits(&c);
        apply(&c);
    } else {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0, "out of memory "
                     "narrowing loop '%s'", cg_dfg_name(g));
    }
    for (int v = 0; c.why && v < c.n; v++)
        free(c.why[v]);
    free(c.r);
    free(c.uf);
    free(c.why);
    free(c.blame);
}
