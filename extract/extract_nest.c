/* extract_nest.c: the loop nest around a tagged loop, for the tiler.
 *
 * Each loop of the nest needs a counter: a header phi that starts at a
 * value from outside and adds a constant each trip.  The loop's only exit
 * compares the counter (before or after the increment, through casts) with
 * a bound; a constant bound gives the trip count, an invariant one gives a
 * symbolic count named after the bound, resolved when the caller gave the
 * symbol a value.  Addresses and live-ins are then written as affine
 * functions of the counters (assuming no wrap-around, as nsw/inbounds let
 * the optimizer assume too).
 */
#include <stdlib.h>
#include <string.h>

#include "extract_internal.h"

static LLVMOpcode opcode_of(LLVMValueRef v)
{
    if (LLVMIsAInstruction(v))
        return LLVMGetInstructionOpcode(v);
    if (LLVMIsAConstantExpr(v))
        return LLVMGetConstOpcode(v);
    return (LLVMOpcode)0;
}

static bool is_cast(LLVMOpcode o)
{
    return o == LLVMZExt || o == LLVMSExt || o == LLVMTrunc ||
           o == LLVMPtrToInt || o == LLVMIntToPtr || o == LLVMBitCast ||
           o == LLVMFreeze;
}

static LLVMValueRef strip(LLVMValueRef v)
{
    while (is_cast(opcode_of(v)))
        v = LLVMGetOperand(v, 0);
    return v;
}

static const char *name_of(LLVMValueRef v)
{
    size_t len;
    const char *s = LLVMGetValueName2(v, &len);
    return s && len ? s : NULL;
}

/* The single latch, outside predecessor and exiting block of l. */
static bool edges(const cg__ex_loop *l, LLVMBasicBlockRef *latch,
                  LLVMBasicBlockRef *outside, LLVMBasicBlockRef *exiting)
{
    int nl = 0, no = 0, ne = 0;
    for (LLVMBasicBlockRef c = LLVMGetFirstBasicBlock(l->fn); c;
         c = LLVMGetNextBasicBlock(c)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(c);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        bool in = cg__ex_in_loop(l, c), exits = false;
        for (unsigned s = 0; s < ns; s++) {
            LLVMBasicBlockRef d = LLVMGetSuccessor(t, s);
            if (d == l->header && in && !nl++)
                *latch = c;
            else if (d == l->header && !in && !no++)
                *outside = c;
            if (in && !cg__ex_in_loop(l, d))
                exits = true;
        }
        if (exits && !ne++)
            *exiting = c;
    }
    return nl == 1 && no == 1 && ne == 1;
}

static int64_t sym_value(const cg_extract_prog *x, const char *name,
                         bool *found)
{
    *found = false;
    for (int i = 0; name && i < x->params.nsyms; i++)
        if (x->params.syms[i].name && !strcmp(x->params.syms[i].name, name)) {
            *found = true;
            return x->params.syms[i].value;
        }
    return 0;
}

typedef struct exitcond {
    LLVMIntPredicate pred;  /* counter-side on the left */
    bool post;              /* compares the incremented counter */
    bool exit_when;         /* the value of the compare that leaves */
    int width;
    int64_t bound;
} exitcond;

static bool holds(const exitcond *c, int64_t v)
{
    int64_t b = c->bound;
    uint64_t uv = cg_trunc((uint64_t)v, c->width);
    uint64_t ub = cg_trunc((uint64_t)b, c->width);
    bool r;
    switch (c->pred) {
    case LLVMIntEQ: r = uv == ub; break;
    case LLVMIntNE: r = uv != ub; break;
    case LLVMIntSLT: r = v < b; break;
    case LLVMIntSLE: r = v <= b; break;
    case LLVMIntSGT: r = v > b; break;
    case LLVMIntSGE: r = v >= b; break;
    case LLVMIntULT: r = uv < ub; break;
    case LLVMIntULE: r = uv <= ub; break;
    case LLVMIntUGT: r = uv > ub; break;
    default: r = uv >= ub; break;
    }
    return r == c->exit_when;
}

/* First evaluation j >= 0 at which the loop leaves, -1 when not found. */
static int64_t first_exit(const exitcond *c, int64_t s, int64_t step)
{
    const int64_t lim = (int64_t)1 << 40;
#define V(j) (s + step * ((j) + (c->post ? 1 : 0)))
    if (step == 0 || step > ((int64_t)1 << 20) || step < -((int64_t)1 << 20) ||
        s > lim || s < -lim)
        return holds(c, V(0)) ? 0 : -1; /* keeps V() free of overflow */
    if (holds(c, V(0)))
        return 0;
    if (c->pred == LLVMIntEQ || c->pred == LLVMIntNE) {
        int64_t diff;
        if (__builtin_sub_overflow(c->bound, V(0), &diff) || diff % step ||
            diff / step < 0)
            return -1;
        return holds(c, V(diff / step)) ? diff / step : -1;
    }
    if (!holds(c, V(lim)))
        return -1;
    int64_t lo = 0, hi = lim; /* exit(lo) false, exit(hi) true */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (holds(c, V(mid)))
            hi = mid;
        else
            lo = mid;
    }
    return hi;
#undef V
}

static bool parse_exit(const cg_extract_prog *x, const cg__ex_loop *l,
                       LLVMBasicBlockRef exiting, LLVMValueRef phi,
                       LLVMValueRef next, exitcond *c, cg__ex_iv *iv)
{
    LLVMValueRef br = LLVMGetBasicBlockTerminator(exiting);
    if (LLVMGetInstructionOpcode(br) != LLVMBr || !LLVMIsConditional(br))
        return false;
    LLVMValueRef cmp = LLVMGetCondition(br);
    if (!LLVMIsAICmpInst(cmp))
        return false;
    LLVMValueRef a = strip(LLVMGetOperand(cmp, 0));
    LLVMValueRef b = strip(LLVMGetOperand(cmp, 1));
    LLVMValueRef bound = LLVMGetOperand(cmp, 1);
    c->pred = LLVMGetICmpPredicate(cmp);
    if (b == phi || b == next) {
        static const LLVMIntPredicate sw[] = {
            [LLVMIntEQ] = LLVMIntEQ, [LLVMIntNE] = LLVMIntNE,
            [LLVMIntUGT] = LLVMIntULT, [LLVMIntUGE] = LLVMIntULE,
            [LLVMIntULT] = LLVMIntUGT, [LLVMIntULE] = LLVMIntUGE,
            [LLVMIntSGT] = LLVMIntSLT, [LLVMIntSGE] = LLVMIntSLE,
            [LLVMIntSLT] = LLVMIntSGT, [LLVMIntSLE] = LLVMIntSGE};
        c->pred = sw[c->pred];
        LLVMValueRef t = a;
        a = b;
        b = t;
        bound = LLVMGetOperand(cmp, 0);
    }
    if (a != phi && a != next)
        return false;
    c->post = a == next;
    c->width = cg__ex_type_bits(x, LLVMTypeOf(bound));
    c->exit_when = !cg__ex_in_loop(l, LLVMGetSuccessor(br, 0));
    if (LLVMIsAConstantInt(bound)) {
        c->bound = LLVMConstIntGetSExtValue(bound);
        return true;
    }
    /* a count read from a global's memory (before the loop, or in every
       iteration when a store may change it) has the global's name, but no
       --sym gives it: the native run reads the memory */
    LLVMValueRef sb = strip(bound), gv = NULL;
    if (LLVMIsALoadInst(sb) && LLVMIsAGlobalVariable(LLVMGetOperand(sb, 0)))
        gv = LLVMGetOperand(sb, 0);
    if (!gv && LLVMIsAInstruction(bound) &&
        cg__ex_in_loop(l, LLVMGetInstructionParent(bound)))
        return false;
    const char *nm = name_of(gv ? gv : sb);
    iv->trip_sym = cg__ex_strdup(nm ? nm : "?");
    iv->trip_in_memory = gv != NULL;
    if (gv)
        return false;
    bool found;
    int64_t v = sym_value(x, nm, &found);
    bool is_signed = c->pred >= LLVMIntSGT;
    c->bound = is_signed ? cg_sext((uint64_t)v, c->width)
                         : (int64_t)cg_trunc((uint64_t)v, c->width);
    return found;
}

/* phi = [start, outside], [phi +/- const, latch] */
static bool counter(LLVMValueRef phi, LLVMBasicBlockRef outside,
                    LLVMBasicBlockRef latch, cg__ex_iv *iv,
                    LLVMValueRef *next)
{
    LLVMValueRef st = cg__ex_incoming(phi, outside);
    LLVMValueRef nx = cg__ex_incoming(phi, latch);
    if (!st || !nx || !LLVMIsAInstruction(nx))
        return false;
    LLVMOpcode o = LLVMGetInstructionOpcode(nx);
    LLVMValueRef a = LLVMGetOperand(nx, 0), b = LLVMGetOperand(nx, 1);
    if (o == LLVMAdd && a != phi) {
        LLVMValueRef t = a;
        a = b;
        b = t;
    }
    if ((o != LLVMAdd && o != LLVMSub) || a != phi || !LLVMIsAConstantInt(b))
        return false;
    iv->step = LLVMConstIntGetSExtValue(b) * (o == LLVMSub ? -1 : 1);
    iv->start_known = LLVMIsAConstantInt(st);
    iv->start = iv->start_known ? LLVMConstIntGetSExtValue(st) : 0;
    *next = nx;
    return true;
}

/* l's induction variable into iv (cg__ex_iv, extract_internal.h). */
static void find_iv(const cg_extract_prog *x, const cg__ex_loop *l,
                    cg__ex_iv *iv)
{
    memset(iv, 0, sizeof *iv);
    iv->trip = -1;
    LLVMBasicBlockRef latch = NULL, outside = NULL, exiting = NULL;
    if (!edges(l, &latch, &outside, &exiting))
        return;
    bool top = exiting == l->header && exiting != latch;
    if (!top && exiting != latch)
        return;
    for (LLVMValueRef p = LLVMGetFirstInstruction(l->header);
         p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p)) {
        LLVMValueRef next;
        exitcond c;
        if (LLVMGetTypeKind(LLVMTypeOf(p)) != LLVMIntegerTypeKind ||
            !counter(p, outside, latch, iv, &next))
            continue;
        iv->ok = true;
        iv->phi = p;
        bool known = parse_exit(x, l, exiting, p, next, &c, iv);
        if (known && iv->start_known) {
            int64_t j = first_exit(&c, iv->start, iv->step);
            iv->trip = j < 0 ? -1 : j + (top ? 0 : 1);
        }
        if (iv->trip_sym || known)
            return;
    }
}

/* ---- affine values ------------------------------------------------------ */

typedef struct actx {
    const cg_extract_prog *x;
    int nloops;
    LLVMValueRef phis[CG_NEST_MAX_LOOPS];       /* the counters */
    const cg__ex_loop *loops[CG_NEST_MAX_LOOPS];
    cg__ex_iv ivs[CG_NEST_MAX_LOOPS];
} actx;

static cg_affine aff(const actx *a, LLVMValueRef v, int depth);

static cg_affine not_affine(void)
{
    cg_affine r;
    memset(&r, 0, sizeof r);
    return r;
}

static cg_affine scaled(cg_affine r, int64_t k)
{
    r.cst *= k;
    for (int l = 0; l < CG_NEST_MAX_LOOPS; l++)
        r.coef[l] *= k;
    return r;
}

static cg_affine sum(cg_affine p, cg_affine q, int64_t sign)
{
    if (!p.is_affine || !q.is_affine)
        return not_affine();
    p.cst += sign * q.cst;
    for (int l = 0; l < CG_NEST_MAX_LOOPS; l++)
        p.coef[l] += sign * q.coef[l];
    return p;
}

static bool is_const(cg_affine r)
{
    for (int l = 0; l < CG_NEST_MAX_LOOPS; l++)
        if (r.coef[l])
            return false;
    return r.is_affine;
}

/* p | c equals p + c for every counter value when c (>= 0) lies below
 * the lowest set bit of p's constant and coefficients: no bit is in both.
 * (LLVM 16 has no `or disjoint` flag, so the proof is made here.) */
static bool disjoint_or(cg_affine p, int64_t c)
{
    uint64_t bits = (uint64_t)p.cst;
    for (int l = 0; l < CG_NEST_MAX_LOOPS; l++)
        bits |= (uint64_t)p.coef[l];
    uint64_t low = bits & (~bits + 1); /* lowest set bit, 0 when none */
    return c >= 0 && (low == 0 ? c == 0 : (uint64_t)c < low);
}

static cg_affine aff_gep(const actx *a, LLVMValueRef v, int depth)
{
    cg_affine r = aff(a, LLVMGetOperand(v, 0), depth);
    LLVMTypeRef t = LLVMGetGEPSourceElementType(v);
    LLVMTargetDataRef td = a->x->td;
    int n = LLVMGetNumOperands(v);
    for (int i = 1; i < n && r.is_affine; i++) {
        LLVMValueRef ix = LLVMGetOperand(v, i);
        int64_t stride;
        if (i == 1) {
            stride = (int64_t)LLVMABISizeOfType(td, t);
        } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
            unsigned f = (unsigned)LLVMConstIntGetZExtValue(ix);
            r.cst += (int64_t)LLVMOffsetOfElement(td, t, f);
            t = LLVMStructGetTypeAtIndex(t, f);
            continue;
        } else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
            t = LLVMGetElementType(t);
            stride = (int64_t)LLVMABISizeOfType(td, t);
        } else {
            return not_affine();
        }
        r = sum(r, scaled(aff(a, ix, depth), stride), 1);
    }
    return r;
}

static cg_affine aff_binary(const actx *a, LLVMValueRef v, LLVMOpcode o,
                            int depth)
{
    cg_affine p = aff(a, LLVMGetOperand(v, 0), depth);
    cg_affine q = aff(a, LLVMGetOperand(v, 1), depth);
    if (!p.is_affine || !q.is_affine)
        return not_affine();
    switch (o) {
    case LLVMAdd: return sum(p, q, 1);
    case LLVMSub: return sum(p, q, -1);
    case LLVMMul:
        return is_const(q) ? scaled(p, q.cst)
             : is_const(p) ? scaled(q, p.cst) : not_affine();
    case LLVMShl:
        return is_const(q) && q.cst >= 0 && q.cst < 62
                   ? scaled(p, (int64_t)1 << q.cst) : not_affine();
    case LLVMOr: /* x[2*i+1] becomes (i << 1) | 1 */
        return is_const(q) && disjoint_or(p, q.cst) ? sum(p, q, 1)
             : is_const(p) && disjoint_or(q, p.cst) ? sum(q, p, 1)
             : not_affine();
    default: return not_affine();
    }
}

/* A counter, or another phi of the same header that steps by a multiple of
 * the counter's step: start2 + (step2 / step) * (counter - start). */
static cg_affine aff_phi(const actx *a, LLVMValueRef v)
{
    cg_affine r = not_affine();
    for (int l = 0; l < a->nloops; l++) {
        if (a->phis[l] == v) {
            r.is_affine = true;
            r.coef[l] = 1;
            return r;
        }
        const cg__ex_iv *c = &a->ivs[l];
        if (!c->ok || !c->start_known ||
            LLVMGetInstructionParent(v) != a->loops[l]->header)
            continue;
        LLVMBasicBlockRef latch = NULL, outside = NULL, exiting = NULL;
        cg__ex_iv o;
        LLVMValueRef next;
        memset(&o, 0, sizeof o);
        if (!edges(a->loops[l], &latch, &outside, &exiting) ||
            LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind ||
            !counter(v, outside, latch, &o, &next) || !o.start_known ||
            o.step % c->step)
            return r;
        r.is_affine = true;
        r.coef[l] = o.step / c->step;
        r.cst = o.start - r.coef[l] * c->start;
        return r;
    }
    return r;
}

/* Whether v is computed in one of the loops around the tagged loop. */
static bool in_outer_loop(const actx *a, LLVMValueRef v)
{
    if (!LLVMIsAInstruction(v))
        return false;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
    for (int l = 0; l + 1 < a->nloops; l++)
        if (a->loops[l] && cg__ex_in_loop(a->loops[l], bb))
            return true;
    return false;
}

static cg_affine aff(const actx *a, LLVMValueRef v, int depth)
{
    cg_affine r = not_affine();
    if (depth > 64)
        return r;
    if (LLVMIsAConstantInt(v)) {
        r.is_affine = true;
        r.cst = LLVMConstIntGetSExtValue(v);
        return r;
    }
    if (LLVMIsAGlobalVariable(v)) {
        int g = cg__ex_global_index(a->x, v);
        r.is_affine = g >= 0;
        r.cst = g >= 0 ? (int64_t)a->x->globals[g].base : 0;
        return r;
    }
    if (LLVMIsAPHINode(v))
        return aff_phi(a, v);
    LLVMOpcode o = opcode_of(v);
    if (is_cast(o))
        return aff(a, LLVMGetOperand(v, 0), depth + 1);
    if (o == LLVMGetElementPtr)
        return aff_gep(a, v, depth + 1);
    if (o == LLVMAdd || o == LLVMSub || o == LLVMMul || o == LLVMShl ||
        o == LLVMOr)
        return aff_binary(a, v, o, depth + 1);
    return r;
}

/* The global an address is based on, -1 when none is found. */
static int base_global(const cg_extract_prog *x, LLVMValueRef v)
{
    for (int depth = 0; depth < 64; depth++) {
        if (LLVMIsAGlobalVariable(v))
            return cg__ex_global_index(x, v);
        LLVMOpcode o = opcode_of(v);
        if (o != LLVMGetElementPtr && !is_cast(o))
            return -1;
        v = LLVMGetOperand(v, 0);
    }
    return -1;
}

/* ---- the record --------------------------------------------------------- */

static int nest_loops(const cg_extract_prog *x, int loop, cg_nest *n, actx *a)
{
    int chain[CG_NEST_MAX_LOOPS], k = 0;
    for (int l = loop; l >= 0 && k < CG_NEST_MAX_LOOPS; l = x->loops[l].parent)
        chain[k++] = l;
    n->nloops = k;
    a->nloops = k;
    for (int i = 0; i < k; i++) {
        const cg__ex_loop *l = &x->loops[chain[k - 1 - i]];
        cg_nest_loop *nl = &n->loops[i];
        cg__ex_iv iv;
        find_iv(x, l, &iv);
        nl->line = l->line;
        nl->start = iv.start;
        nl->step = iv.ok ? iv.step : 0;
        nl->trip = iv.trip;
        nl->trip_sym = iv.trip_sym;
        nl->trip_in_memory = iv.trip_in_memory;
        nl->counter = iv.ok ? cg__ex_strdup(name_of(iv.phi)) : NULL;
        a->phis[i] = iv.ok ? iv.phi : NULL;
        a->loops[i] = l;
        a->ivs[i] = iv;
        a->ivs[i].trip_sym = NULL; /* owned by the nest */
    }
    return 0;
}

static int array_of(const cg_extract_prog *x, cg_nest *n, int g)
{
    for (int i = 0; i < n->narrays; i++)
        if (!strcmp(n->arrays[i].name, x->globals[g].name))
            return i;
    cg_nest_array *ar = &n->arrays[n->narrays];
    memset(ar, 0, sizeof *ar);
    ar->name = cg__ex_strdup(x->globals[g].name);
    ar->base = (int64_t)x->globals[g].base;
    ar->bytes = (int64_t)x->globals[g].bytes;
    LLVMTypeRef t = LLVMGlobalGetValueType(x->gvs[g]);
    while (LLVMGetTypeKind(t) == LLVMArrayTypeKind &&
           ar->ndims < CG_NEST_MAX_LOOPS) {
        ar->dims[ar->ndims++] = (int64_t)LLVMGetArrayLength(t);
        t = LLVMGetElementType(t);
    }
    ar->elem_size = (int)LLVMABISizeOfType(x->td, t);
    return n->narrays++;
}

cg_nest *cg__ex_nest(const cg_extract_prog *x, int loop, const cg_dfg *g,
                     LLVMValueRef const *values)
{
    cg_nest *n = calloc(1, sizeof *n);
    int nn = cg_dfg_nnodes(g);
    actx a = {.x = x};
    if (!n)
        return NULL;
    n->arrays = calloc((size_t)nn + 1, sizeof *n->arrays);
    n->accesses = calloc((size_t)nn + 1, sizeof *n->accesses);
    n->liveins = calloc((size_t)nn + 1, sizeof *n->liveins);
    if (!n->arrays || !n->accesses || !n->liveins) {
        cg_nest_destroy(n);
        return NULL;
    }
    nest_loops(x, loop, n, &a);
    for (int id = 0; id < nn; id++) {
        const cg_dfg_node *nd = cg_dfg_get_node(g, id);
        LLVMValueRef v = values[id];
        if (!v)
            continue;
        if (nd->op == CG_OP_INPUT) {
            cg_nest_livein *li = &n->liveins[n->nliveins++];
            li->node = id;
            li->value = aff(&a, v, 0);
            li->varies = !li->value.is_affine && in_outer_loop(&a, v);
            continue;
        }
        bool st = nd->op == CG_OP_STORE;
        LLVMValueRef addr = LLVMGetOperand(v, st ? 1 : 0);
        cg_nest_access *ac = &n->accesses[n->naccesses++];
        ac->node = id;
        ac->is_store = st;
        int gi = base_global(x, addr);
        ac->array = gi >= 0 ? array_of(x, n, gi) : -1;
        ac->index = aff(&a, addr, 0);
        if (gi >= 0)
            ac->index.cst -= (int64_t)x->globals[gi].base;
        else
            ac->index.is_affine = false;
    }
    return n;
}
