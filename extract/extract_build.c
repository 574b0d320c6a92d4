/* extract_build.c: the DFG of a single-block loop body.
 *
 * Precondition: the tag matched a natural loop (extract_loops.c).  The body
 * must be one block with one entry from outside (the preheader) and one
 * exit.  Every instruction of the body becomes nodes in program order (so
 * memory operations keep their order, as the interpreter needs); values
 * from outside become input nodes (one per value) or const nodes (one per
 * use, like CGRA-ME); header phis become loop-carried edges of distance 1
 * whose init is the phi's value from the preheader (phi removal) or stay
 * phi nodes; values used after the loop and the exit condition feed output
 * nodes.  GEPs become 64-bit byte arithmetic through the data layout and
 * min/max/abs intrinsics become icmp + select.  A second pass drops what
 * neither a store nor an output needs (leaf removal) and emits the graph;
 * a third narrows index arithmetic to the address width where exact
 * (extract_narrow.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "../dfg/dfg_internal.h"
#include "extract_internal.h"

typedef struct xnode {
    cg_op op;
    cg_pred pred;
    int width, line;
    bool has_value;
    int64_t value;
    const char *sym;       /* borrowed from the prog or the LLVM module */
    char symbuf[24];       /* "livein<k>" for an unnamed live-in */
    const char *name;      /* NULL: the model's "<op><id>" */
    LLVMValueRef v;        /* load/store instruction or live-in value */
} xnode;

/* A value as seen by a user: node, distance and init of the edge, or a
 * header phi whose latch value may not exist yet (resolved after the body
 * is built). */
typedef struct vref {
    int node, dist, init;
    LLVMValueRef phi;
} vref;

typedef struct xedge {
    int src, dst, operand, distance, init;
    LLVMValueRef phi;      /* != NULL: src comes from this phi (resolved
                              after the body, when its latch value exists) */
} xedge;

typedef struct bx {
    cg_extract_prog *x;
    const cg__ex_tag *t;
    const cg__ex_loop *l;
    LLVMBasicBlockRef body, pre, exit;
    cg_diags *d;
    bool failed;
    xnode *nodes;
    int nn, cap;    /* cap > nn: a spare slot (add_node) */
    xedge *edges;
    int ne;
    LLVMValueRef *mkey;    /* value -> vref map (body values, live-ins) */
    vref *mval;
    int nm;
    cg__ex_probe *in, *out;
    int nin, nout;
    int exit_node;         /* loop_exit, -1 when not made */
    struct addr_memo *memo; /* address arithmetic made, for sharing */
    int nmemo;
    LLVMValueRef *stack;   /* phis phi_ref is resolving, outermost first */
    int nstack, capstack;
} bx;

/* Address arithmetic already made: a scaled index (v * k) or a sum
 * (a + c, or a + k when c.node < 0).  Accesses to one row share them. */
typedef struct addr_memo {
    LLVMValueRef v;
    vref a, c;
    int64_t k;
    vref r;
} addr_memo;

static void fail(bx *b, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The last -O flag of the extra clang flags when it is below -O2 (-O0,
 * -O1, -Og), which leaves a body in several blocks; NULL otherwise. */
static const char *low_opt(const char *cflags)
{
    const char *last = NULL;
    for (const char *p = cflags; p && (p = strstr(p, "-O")); p += 2)
        if (p == cflags || p[-1] == ' ' || p[-1] == '\t')
            last = p;
    if (!last)
        return NULL;
    char c = last[2];
    bool low = (c == '0' || c == '1' || c == 'g') &&
               (!last[3] || last[3] == ' ' || last[3] == '\t');
    return low ? last : NULL;
}

static void fail(bx *b, int line, const char *fmt, ...)
{
    if (b->failed)
        return;
    b->failed = true;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cg_diags_add(b->d, CG_SEV_ERROR, b->x->path, line, "loop '%s': %s",
                 b->t->name, msg);
}

static int line_of(LLVMValueRef v)
{
    return LLVMIsAInstruction(v) ? (int)LLVMGetDebugLocLine(v) : 0;
}

/* A new node's index.  Out of memory, the build fails and the index is
 * the spare slot past the last node, which callers fill and nothing reads
 * (once index 0, written past an empty array). */
static int add_node(bx *b, cg_op op, int width, int line)
{
    xnode *a = b->nodes;
    if (b->nn + 1 >= b->cap) {
        a = realloc(b->nodes, (size_t)b->cap * 2 * sizeof *a);
        if (a) {
            b->nodes = a;
            b->cap *= 2;
        } else {
            fail(b, line, "out of memory");
            a = b->nodes;
        }
    }
    memset(&a[b->nn], 0, sizeof *a);
    a[b->nn].op = op;
    a[b->nn].width = width;
    a[b->nn].line = line;
    return b->failed ? b->nn : b->nn++;
}

static void add_edge(bx *b, vref r, int dst, int operand)
{
    xedge *a = realloc(b->edges, (size_t)(b->ne + 1) * sizeof *a);
    if (!a) {
        fail(b, 0, "out of memory");
        return;
    }
    b->edges = a;
    a[b->ne++] = (xedge){r.node, dst, operand, r.dist, r.init, r.phi};
}

static bool map_get(const bx *b, LLVMValueRef v, vref *r)
{
    for (int i = 0; i < b->nm; i++)
        if (b->mkey[i] == v) {
            *r = b->mval[i];
            return true;
        }
    return false;
}

static void map_set(bx *b, LLVMValueRef v, vref r)
{
    LLVMValueRef *k = realloc(b->mkey, (size_t)(b->nm + 1) * sizeof *k);
    vref *m = k ? realloc(b->mval, (size_t)(b->nm + 1) * sizeof *m) : NULL;
    if (k)
        b->mkey = k;
    if (!m) {
        fail(b, 0, "out of memory");
        return;
    }
    b->mval = m;
    k[b->nm] = v;
    m[b->nm++] = r;
}

static vref plain(int node) { return (vref){node, 0, -1, NULL}; }

static int width_of(bx *b, LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
        return 64;
    return cg__ex_type_bits(b->x, t);
}

static bool is_ptr(LLVMValueRef v)
{
    return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind;
}

static int const_node(bx *b, int64_t value, int width, const char *sym,
                      int line)
{
    int n = add_node(b, CG_OP_CONST, width, line);
    b->nodes[n].has_value = true;
    b->nodes[n].value = width < 64 ? cg_sext((uint64_t)value, width) : value;
    b->nodes[n].sym = sym;
    return n;
}

/* Where the native run finds v (an argument or an instruction). */
static cg__ex_probe probe_of(bx *b, LLVMValueRef v, int node)
{
    cg__ex_probe p = {node, CG__EX_INST, 0, 0, is_ptr(v), width_of(b, v), 0,
                      0};
    if (LLVMIsAArgument(v)) {
        p.where = CG__EX_ARG;
        for (LLVMValueRef a = LLVMGetFirstParam(b->l->fn); a && a != v;
             a = LLVMGetNextParam(a))
            p.idx++;
    } else {
        p.bb = cg__ex_block_index(b->l->fn, LLVMGetInstructionParent(v));
        p.idx = cg__ex_inst_index(v);
        if (LLVMIsAAllocaInst(v)) /* a stack array in the layout */
            p.stack1 = cg__ex_global_index(b->x, v) + 1;
    }
    return p;
}

static void add_probe(bx *b, cg__ex_probe **a, int *n, cg__ex_probe p)
{
    cg__ex_probe *na = realloc(*a, (size_t)(*n + 1) * sizeof *na);
    if (!na) {
        fail(b, 0, "out of memory");
        return;
    }
    *a = na;
    na[(*n)++] = p;
}

static const char *value_name(LLVMValueRef v)
{
    size_t len;
    const char *s = LLVMGetValueName2(v, &len);
    return s && len ? s : NULL;
}

/* A live-in: one input node per value, sym = its source name. */
static vref live_in(bx *b, LLVMValueRef v, int line)
{
    if (is_ptr(v) && !LLVMIsAArgument(v) && !LLVMIsAInstruction(v)) {
        fail(b, line, "uses a pointer that is neither a global nor computed "
             "in the function");
        return plain(0);
    }
    if (LLVMIsAArgument(v) && is_ptr(v)) {
        fail(b, line, "uses the pointer parameter '%s'; kernels take arrays "
             "as globals, not parameters",
             value_name(v) ? value_name(v) : "?");
        return plain(0);
    }
    int n = add_node(b, CG_OP_INPUT, width_of(b, v), line);
    b->nodes[n].sym = value_name(v);
    if (!b->nodes[n].sym) {
        snprintf(b->nodes[n].symbuf, sizeof b->nodes[n].symbuf, "livein%d",
                 b->nin);
    }
    b->nodes[n].v = v;
    vref r = plain(n);
    map_set(b, v, r);
    add_probe(b, &b->in, &b->nin, probe_of(b, v, n));
    return r;
}

/* Value and global of a constant address or integer expression. */
static bool const_eval(bx *b, LLVMValueRef c, int64_t *val, int *glob);

static bool const_gep(bx *b, LLVMValueRef c, int64_t *val, int *glob)
{
    if (!const_eval(b, LLVMGetOperand(c, 0), val, glob))
        return false;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(c);
    int n = LLVMGetNumOperands(c);
    for (int i = 1; i < n; i++) {
        LLVMValueRef ix = LLVMGetOperand(c, i);
        int g2 = -1;
        int64_t k;
        if (!LLVMIsAConstantInt(ix) || !const_eval(b, ix, &k, &g2))
            return false;
        if (i == 1) {
            *val += k * (int64_t)LLVMABISizeOfType(b->x->td, t);
        } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
            *val += (int64_t)LLVMOffsetOfElement(b->x->td, t, (unsigned)k);
            t = LLVMStructGetTypeAtIndex(t, (unsigned)k);
        } else {
            t = LLVMGetElementType(t);
            *val += k * (int64_t)LLVMABISizeOfType(b->x->td, t);
        }
    }
    return true;
}

static bool const_eval(bx *b, LLVMValueRef c, int64_t *val, int *glob)
{
    if (LLVMIsAConstantInt(c)) {
        *val = LLVMConstIntGetSExtValue(c);
        return true;
    }
    if (LLVMIsAConstantPointerNull(c) || LLVMIsAUndefValue(c)) {
        *val = 0;
        return true;
    }
    if (LLVMIsAGlobalVariable(c)) {
        *glob = cg__ex_global_index(b->x, c);
        if (*glob < 0)
            return false;
        *val = (int64_t)b->x->globals[*glob].base;
        return true;
    }
    if (!LLVMIsAConstantExpr(c))
        return false;
    switch (LLVMGetConstOpcode(c)) {
    case LLVMGetElementPtr:
        return const_gep(b, c, val, glob);
    case LLVMBitCast:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
        return const_eval(b, LLVMGetOperand(c, 0), val, glob);
    default:
        return false;
    }
}

static vref phi_ref(bx *b, LLVMValueRef phi);

/* The value v as an operand inside the body. */
static vref value(bx *b, LLVMValueRef v, int line)
{
    vref r;
    if (map_get(b, v, &r))
        return r;
    if (LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == b->body) {
        if (LLVMIsAPHINode(v))
            return (vref){-1, 0, -1, v};
        fail(b, line, "uses a value before it is computed");
        return plain(0);
    }
    if (LLVMIsAConstant(v) && !LLVMIsAFunction(v)) {
        int64_t k = 0;
        int g = -1;
        if (!const_eval(b, v, &k, &g)) {
            fail(b, line, "uses a constant expression cgramap cannot "
                 "evaluate");
            return plain(0);
        }
        return plain(const_node(b, k, width_of(b, v), g >= 0 ?
                                b->x->globals[g].name : NULL, line));
    }
    if (LLVMIsAArgument(v) || LLVMIsAInstruction(v))
        return live_in(b, v, line);
    fail(b, line, "uses a value of an unsupported kind");
    return plain(0);
}

/* With phi removal, a header phi is its latch value one iteration earlier,
 * starting from its preheader value.  Called once the body is built.  A phi
 * fed by another phi (a value kept for two iterations, e.g. a reused load)
 * needs its own register: an add of 0 holding the inner phi's value, since
 * one edge has only one initial value.  Whether the latch value is such a
 * phi is asked of the IR, not of value(): once the inner phi is resolved,
 * value() returns its edge, and the outer phi would lose a distance (the
 * result then depended on which phi was resolved first).  Phis that feed
 * each other round a cycle (values rotated with no op between) would need
 * a cycle of such registers with an initial value each, which one edge
 * per register cannot carry: they are refused. */
static vref phi_ref(bx *b, LLVMValueRef phi)
{
    vref r;
    if (map_get(b, phi, &r))
        return r;
    int line = line_of(phi) ? line_of(phi) : b->l->line; /* phis have none */
    LLVMValueRef init = cg__ex_incoming(phi, b->pre);
    LLVMValueRef latch = cg__ex_incoming(phi, b->body);
    if (latch == phi)
        return value(b, init, line);
    vref l;
    if (LLVMIsAPHINode(latch) && LLVMGetInstructionParent(latch) == b->body) {
        for (int k = 0; k < b->nstack; k++)
            if (b->stack[k] == latch) {
                fail(b, line, "keeps values in a cycle of phis with no "
                     "operation between them (values rotated from one "
                     "iteration to the next); cgramap cannot give such a "
                     "cycle its registers: compute one of the rotated "
                     "values in the loop body");
                return plain(0);
            }
        if (CG_GROW(b->stack, b->capstack, b->nstack + 1) < 0) {
            fail(b, line, "out of memory");
            return plain(0);
        }
        b->stack[b->nstack++] = phi;
        vref inner = phi_ref(b, latch);
        b->nstack--;
        if (b->failed)
            return plain(0);
        int reg = add_node(b, CG_OP_ADD, width_of(b, phi), line);
        add_edge(b, inner, reg, 0);
        add_edge(b, plain(const_node(b, 0, width_of(b, phi), NULL, line)),
                 reg, 1);
        l = plain(reg);
    } else {
        l = value(b, latch, line);
    }
    vref i = value(b, init, line);
    r = (vref){l.node, 1, i.node, NULL};
    map_set(b, phi, r);
    return r;
}

/* Operand k of dst is v. */
static void operand(bx *b, LLVMValueRef v, int dst, int k)
{
    add_edge(b, value(b, v, b->nodes[dst].line), dst, k);
}

static int node_for(bx *b, LLVMValueRef inst, cg_op op, int width)
{
    int n = add_node(b, op, width, line_of(inst));
    map_set(b, inst, plain(n));
    return n;
}

static cg_pred pred_of(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntEQ: return CG_PRED_EQ;
    case LLVMIntNE: return CG_PRED_NE;
    case LLVMIntSLT: return CG_PRED_SLT;
    case LLVMIntSLE: return CG_PRED_SLE;
    case LLVMIntSGT: return CG_PRED_SGT;
    case LLVMIntSGE: return CG_PRED_SGE;
    case LLVMIntULT: return CG_PRED_ULT;
    case LLVMIntULE: return CG_PRED_ULE;
    case LLVMIntUGT: return CG_PRED_UGT;
    default: return CG_PRED_UGE;
    }
}

static bool binary_op(LLVMOpcode o, cg_op *op)
{
    static const struct { LLVMOpcode l; cg_op c; } tab[] = {
        {LLVMAdd, CG_OP_ADD}, {LLVMSub, CG_OP_SUB}, {LLVMMul, CG_OP_MUL},
        {LLVMSDiv, CG_OP_SDIV}, {LLVMUDiv, CG_OP_UDIV},
        {LLVMSRem, CG_OP_SREM}, {LLVMURem, CG_OP_UREM},
        {LLVMAnd, CG_OP_AND}, {LLVMOr, CG_OP_OR}, {LLVMXor, CG_OP_XOR},
        {LLVMShl, CG_OP_SHL}, {LLVMAShr, CG_OP_ASHR},
        {LLVMLShr, CG_OP_LSHR}};
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (tab[i].l == o) {
            *op = tab[i].c;
            return true;
        }
    return false;
}

static bool same_vref(vref a, vref c)
{
    return a.node == c.node && a.dist == c.dist && a.init == c.init &&
           a.phi == c.phi;
}

static bool memo_get(const bx *b, addr_memo key, vref *r)
{
    for (int i = 0; i < b->nmemo; i++) {
        const addr_memo *m = &b->memo[i];
        if (m->v == key.v && same_vref(m->a, key.a) &&
            same_vref(m->c, key.c) && m->k == key.k) {
            *r = m->r;
            return true;
        }
    }
    return false;
}

static void memo_set(bx *b, addr_memo m)
{
    addr_memo *a = realloc(b->memo, (size_t)(b->nmemo + 1) * sizeof *a);
    if (!a) {
        fail(b, 0, "out of memory");
        return;
    }
    b->memo = a;
    a[b->nmemo++] = m;
}

static const vref no_vref = {-1, 0, -1, NULL};

/* a + c (64-bit address arithmetic) as a node, made once per build. */
static vref add64(bx *b, vref a, vref c, int line)
{
    addr_memo key = {NULL, a, c, 0, no_vref};
    vref r;
    if (memo_get(b, key, &r))
        return r;
    int n = add_node(b, CG_OP_ADD, 64, line);
    add_edge(b, a, n, 0);
    add_edge(b, c, n, 1);
    key.r = plain(n);
    memo_set(b, key);
    return key.r;
}

/* a + k, made once per build (each use of it gets its own const). */
static vref add64_const(bx *b, vref a, int64_t k, int line)
{
    addr_memo key = {NULL, a, no_vref, k, no_vref};
    vref r;
    if (memo_get(b, key, &r))
        return r;
    key.r = add64(b, a, plain(const_node(b, k, 64, NULL, line)), line);
    memo_set(b, key);
    return key.r;
}

/* Does add a carry the nsw flag?  LLVM 16's C API has no getter (17 has
 * LLVMGetNSW), so the printed instruction is read. */
static bool has_nsw(LLVMValueRef a)
{
    char *text = LLVMPrintValueToString(a);
    bool nsw = text && (strstr(text, " add nsw ") ||
                        strstr(text, " add nuw nsw "));
    LLVMDisposeMessage(text);
    return nsw;
}

/* An index x + c of the body, c a constant, addresses x's element plus c
 * when the add is as wide as addresses (the sum wraps as the address
 * does) or cannot wrap (nsw) before its sign extension: *c gets c and x
 * is returned, so that A[j-1], A[j] and A[j+1] share j's scaled value. */
static LLVMValueRef peel_offset(bx *b, LLVMValueRef ix, int64_t *c)
{
    *c = 0;
    for (int depth = 0; depth < 16; depth++) {
        LLVMValueRef a = ix;
        bool ext = LLVMIsASExtInst(ix) != NULL;
        if (ext)
            a = LLVMGetOperand(ix, 0);
        if (!LLVMIsAInstruction(a) || LLVMGetInstructionParent(a) != b->body ||
            LLVMGetInstructionOpcode(a) != LLVMAdd ||
            !LLVMIsAConstantInt(LLVMGetOperand(a, 1)) ||
            ((ext || width_of(b, a) < 64) && !has_nsw(a)))
            break;
        int64_t k = LLVMConstIntGetSExtValue(LLVMGetOperand(a, 1)), sum;
        if (__builtin_add_overflow(*c, k, &sum))
            break; /* *c stays the offset of the ix returned */
        *c = sum;
        ix = LLVMGetOperand(a, 0);
    }
    return ix;
}

/* ix * stride as 64-bit address arithmetic, made once per build. */
static vref scaled_index(bx *b, LLVMValueRef ix, int64_t stride, int line)
{
    addr_memo key = {ix, no_vref, no_vref, stride, no_vref};
    vref iv;
    if (memo_get(b, key, &iv))
        return iv;
    iv = value(b, ix, line);
    if (width_of(b, ix) < 64) {
        int s = add_node(b, CG_OP_SEXT, 64, line);
        add_edge(b, iv, s, 0);
        iv = plain(s);
    }
    if (stride != 1) {
        int m = add_node(b, CG_OP_MUL, 64, line);
        add_edge(b, iv, m, 0);
        add_edge(b, plain(const_node(b, stride, 64, NULL, line)), m, 1);
        iv = plain(m);
    }
    key.r = iv;
    memo_set(b, key);
    return iv;
}

/* The byte address base + sum index * stride, constants folded. */
static void gep(bx *b, LLVMValueRef inst)
{
    int line = line_of(inst);
    vref acc = value(b, LLVMGetOperand(inst, 0), line);
    LLVMTypeRef t = LLVMGetGEPSourceElementType(inst);
    int64_t coff = 0;
    int n = LLVMGetNumOperands(inst);
    for (int i = 1; i < n && !b->failed; i++) {
        LLVMValueRef ix = LLVMGetOperand(inst, i);
        int64_t stride;
        if (i == 1) {
            stride = (int64_t)LLVMABISizeOfType(b->x->td, t);
        } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
            unsigned f = (unsigned)LLVMConstIntGetZExtValue(ix);
            coff += (int64_t)LLVMOffsetOfElement(b->x->td, t, f);
            t = LLVMStructGetTypeAtIndex(t, f);
            continue;
        } else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
            t = LLVMGetElementType(t);
            stride = (int64_t)LLVMABISizeOfType(b->x->td, t);
        } else {
            fail(b, line, "indexes a vector; vectors are not supported");
            return;
        }
        if (LLVMIsAConstantInt(ix)) {
            coff += LLVMConstIntGetSExtValue(ix) * stride;
            continue;
        }
        int64_t c;
        ix = peel_offset(b, ix, &c);
        coff += c * stride;
        acc = add64(b, acc, scaled_index(b, ix, stride, line), line);
    }
    if (coff)
        acc = add64_const(b, acc, coff, line);
    map_set(b, inst, acc);
}

/* A cast that costs nothing (pointer <-> 64-bit int, freeze, bitcast) maps
 * to its operand; others to trunc/zext nodes. */
static void cast(bx *b, LLVMValueRef inst, LLVMOpcode o)
{
    LLVMValueRef src = LLVMGetOperand(inst, 0);
    int from = width_of(b, src), to = width_of(b, inst);
    cg_op op = o == LLVMSExt ? CG_OP_SEXT
             : o == LLVMTrunc || to < from ? CG_OP_TRUNC : CG_OP_ZEXT;
    if (from == to && o != LLVMSExt && o != LLVMZExt && o != LLVMTrunc) {
        map_set(b, inst, value(b, src, line_of(inst)));
        return;
    }
    int n = node_for(b, inst, op, to);
    operand(b, src, n, 0);
}

static void memop(bx *b, LLVMValueRef inst, bool store)
{
    LLVMValueRef data = store ? LLVMGetOperand(inst, 0) : inst;
    LLVMTypeRef t = LLVMTypeOf(data);
    int line = line_of(inst);
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind) {
        fail(b, line, "%s a %s value; only integer loads and stores are "
             "supported", store ? "stores" : "loads",
             LLVMGetTypeKind(t) == LLVMPointerTypeKind ? "pointer"
                                                       : "non-integer");
        return;
    }
    int bits = (int)LLVMABISizeOfType(b->x->td, t) * 8;
    if (bits != cg__ex_type_bits(b->x, t) || bits > 64) {
        fail(b, line, "accesses an i%d in memory; only 8-, 16-, 32- and "
             "64-bit accesses are supported", cg__ex_type_bits(b->x, t));
        return;
    }
    if (LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic) {
        fail(b, line, "has an atomic access, which is not supported");
        return;
    }
    int n = store ? add_node(b, CG_OP_STORE, bits, line)
                  : node_for(b, inst, CG_OP_LOAD, bits);
    b->nodes[n].v = inst;
    operand(b, LLVMGetOperand(inst, store ? 1 : 0), n, 0);
    if (store)
        operand(b, data, n, 1);
}

/* llvm.smax & co. -> icmp + select; llvm.abs -> icmp, sub, select. */
static bool intrinsic(bx *b, LLVMValueRef inst, const char *name)
{
    static const struct { const char *p; cg_pred pr; } mm[] = {
        {"llvm.smax.", CG_PRED_SGT}, {"llvm.smin.", CG_PRED_SLT},
        {"llvm.umax.", CG_PRED_UGT}, {"llvm.umin.", CG_PRED_ULT}};
    int line = line_of(inst), w = width_of(b, inst);
    LLVMValueRef a = LLVMGetOperand(inst, 0);
    for (size_t i = 0; i < sizeof mm / sizeof *mm; i++) {
        if (strncmp(name, mm[i].p, strlen(mm[i].p)))
            continue;
        LLVMValueRef c = LLVMGetOperand(inst, 1);
        int cmp = add_node(b, CG_OP_ICMP, 1, line);
        b->nodes[cmp].pred = mm[i].pr;
        operand(b, a, cmp, 0);
        operand(b, c, cmp, 1);
        int s = node_for(b, inst, CG_OP_SELECT, w);
        add_edge(b, plain(cmp), s, 0);
        operand(b, a, s, 1);
        operand(b, c, s, 2);
        return true;
    }
    if (strncmp(name, "llvm.abs.", 9))
        return false;
    int cmp = add_node(b, CG_OP_ICMP, 1, line);
    b->nodes[cmp].pred = CG_PRED_SLT;
    operand(b, a, cmp, 0);
    add_edge(b, plain(const_node(b, 0, w, NULL, line)), cmp, 1);
    int neg = add_node(b, CG_OP_SUB, w, line);
    add_edge(b, plain(const_node(b, 0, w, NULL, line)), neg, 0);
    operand(b, a, neg, 1);
    int s = node_for(b, inst, CG_OP_SELECT, w);
    add_edge(b, plain(cmp), s, 0);
    add_edge(b, plain(neg), s, 1);
    operand(b, a, s, 2);
    return true;
}

static void call(bx *b, LLVMValueRef inst)
{
    LLVMValueRef f = LLVMGetCalledValue(inst);
    const char *name = LLVMIsAFunction(f) ? value_name(f) : NULL;
    int line = line_of(inst);
    if (!name) {
        fail(b, line, "calls through a function pointer; calls are not "
             "supported in loop bodies");
        return;
    }
    static const char *const ignored[] = {
        "llvm.dbg.", "llvm.lifetime.", "llvm.assume",
        "llvm.experimental.noalias.scope.decl", "llvm.pseudoprobe"};
    for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++)
        if (!strncmp(name, ignored[i], strlen(ignored[i])))
            return;
    if (intrinsic(b, inst, name))
        return;
    fail(b, line, "calls '%s'; calls are not supported in loop bodies "
         "(make the callee static inline or move the call out of the loop)",
         name);
}

static void instruction(bx *b, LLVMValueRef inst)
{
    LLVMOpcode o = LLVMGetInstructionOpcode(inst);
    int w = LLVMGetTypeKind(LLVMTypeOf(inst)) == LLVMVoidTypeKind
                ? 0 : width_of(b, inst);
    cg_op op;
    if (LLVMGetTypeKind(LLVMTypeOf(inst)) == LLVMVectorTypeKind) {
        fail(b, line_of(inst), "computes a vector; vectors are not "
             "supported");
        return;
    }
    if (binary_op(o, &op)) {
        int n = node_for(b, inst, op, w);
        operand(b, LLVMGetOperand(inst, 0), n, 0);
        operand(b, LLVMGetOperand(inst, 1), n, 1);
        return;
    }
    switch (o) {
    case LLVMICmp: {
        int n = node_for(b, inst, CG_OP_ICMP, 1);
        b->nodes[n].pred = pred_of(LLVMGetICmpPredicate(inst));
        operand(b, LLVMGetOperand(inst, 0), n, 0);
        operand(b, LLVMGetOperand(inst, 1), n, 1);
        return;
    }
    case LLVMSelect: {
        int n = node_for(b, inst, CG_OP_SELECT, w);
        for (int k = 0; k < 3; k++)
            operand(b, LLVMGetOperand(inst, (unsigned)k), n, k);
        return;
    }
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMPtrToInt:
    case LLVMIntToPtr: case LLVMBitCast: case LLVMFreeze:
    case LLVMAddrSpaceCast:
        cast(b, inst, o);
        return;
    case LLVMGetElementPtr:
        gep(b, inst);
        return;
    case LLVMLoad:
        memop(b, inst, false);
        return;
    case LLVMStore:
        memop(b, inst, true);
        return;
    case LLVMCall:
        call(b, inst);
        return;
    case LLVMBr:
        return;
    case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv:
    case LLVMFRem: case LLVMFCmp: case LLVMFNeg: case LLVMSIToFP:
    case LLVMUIToFP: case LLVMFPToSI: case LLVMFPToUI: case LLVMFPExt:
    case LLVMFPTrunc:
        fail(b, line_of(inst), "uses floating point; the CGRA operations "
             "are integer only");
        return;
    default:
        fail(b, line_of(inst), "has an instruction cgramap cannot map "
             "(LLVM opcode %d); keep loop bodies to integer arithmetic, "
             "compares, selects, loads and stores", (int)o);
        return;
    }
}

/* Without phi removal: phi nodes first, their operands after the body. */
static void phi_nodes(bx *b)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(b->body);
         i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
        int n = node_for(b, i, CG_OP_PHI, width_of(b, i));
        b->nodes[n].line = b->l->line; /* phis have no location */
    }
}

static void phi_operands(bx *b)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(b->body);
         i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
        vref p;
        if (!map_get(b, i, &p))
            continue; /* phi_nodes() made every header phi a node */
        int line = line_of(i) ? line_of(i) : b->l->line;
        vref init = value(b, cg__ex_incoming(i, b->pre), line);
        vref latch = value(b, cg__ex_incoming(i, b->body), line);
        latch.phi = NULL; /* a phi node here: it exists */
        latch.dist += 1;
        latch.init = init.node;
        add_edge(b, init, p.node, 0);
        add_edge(b, latch, p.node, 1);
    }
}

/* Edges whose source was a phi, now that every latch value exists. */
static void resolve_phis(bx *b)
{
    for (int e = 0; e < b->ne && !b->failed; e++) {
        if (!b->edges[e].phi)
            continue;
        vref r = phi_ref(b, b->edges[e].phi);
        if (b->failed)
            break;
        b->edges[e].src = r.node;
        b->edges[e].distance = r.dist;
        b->edges[e].init = r.init;
        b->edges[e].phi = NULL;
    }
}

static bool used_outside(bx *b, LLVMValueRef v)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAInstruction(user) &&
            LLVMGetInstructionParent(user) != b->body)
            return true;
    }
    return false;
}

/* Live-outs and the exit condition feed output nodes. */
static void outputs(bx *b, LLVMValueRef br)
{
    int body = cg__ex_block_index(b->l->fn, b->body);
    for (LLVMValueRef i = LLVMGetFirstInstruction(b->body); i;
         i = LLVMGetNextInstruction(i)) {
        if (!used_outside(b, i))
            continue;
        int n = add_node(b, CG_OP_OUTPUT, width_of(b, i), line_of(i));
        operand(b, i, n, 0);
        cg__ex_probe p = {n, CG__EX_INST, body, cg__ex_inst_index(i),
                          is_ptr(i), width_of(b, i), 0, 0};
        add_probe(b, &b->out, &b->nout, p);
    }
    int n = add_node(b, CG_OP_OUTPUT, 1, line_of(br));
    b->nodes[n].name = "loop_exit";
    operand(b, LLVMGetCondition(br), n, 0);
    b->exit_node = n;
    if (b->x->params.array_control)
        return; /* emit() drops it and what only it needs */
    cg__ex_probe p = {n, CG__EX_CONST, 0, 0, false, 1,
                      LLVMGetSuccessor(br, 0) == b->exit, 0};
    add_probe(b, &b->out, &b->nout, p);
}

/* One body block, one entry from outside, one exit. */
static bool shape(bx *b)
{
    const cg__ex_loop *l = b->l;
    int line = l->line;
    for (int i = 0; i < l->nblocks; i++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(l->blocks[i]); in;
             in = LLVMGetNextInstruction(in))
            if (LLVMIsACallInst(in) && !LLVMIsAIntrinsicInst(in)) {
                LLVMValueRef f = LLVMGetCalledValue(in);
                const char *nm = LLVMIsAFunction(f) ? value_name(f) : NULL;
                fail(b, line_of(in), "calls '%s'; calls are not supported "
                     "in loop bodies (make the callee static inline or move "
                     "the call out of the loop)", nm ? nm : "a pointer");
                return false;
            }
    int nexit = 0;
    for (int i = 0; i < l->nblocks; i++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(l->blocks[i]);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned s = 0; s < ns; s++)
            if (!cg__ex_in_loop(l, LLVMGetSuccessor(t, s))) {
                nexit++;
                b->exit = LLVMGetSuccessor(t, s);
            }
    }
    if (nexit != 1) {
        fail(b, line, nexit ? "has %d exits; only loops with one exit are "
             "supported (remove the break, return or goto)" : "has %d exits "
             "(it never ends)", nexit);
        return false;
    }
    if (l->nblocks > 1) {
        char low[128] = "";
        const char *o = low_opt(b->x->cflags);
        if (o)
            snprintf(low, sizeof low, "; the extra clang flag '%.3s' lowers "
                     "the -O2 that makes one block: leave it out", o);
        fail(b, line, "has %d blocks in its body; only single-block bodies "
             "are supported (write if/else as ?: without stores inside, or "
             "tag the inner loop)%s", l->nblocks, low);
        return false;
    }
    b->body = l->header;
    int npre;
    b->pre = cg__ex_preheader(l, &npre);
    if (npre != 1) {
        fail(b, line, "is entered from %d places; only loops with one "
             "entry are supported", npre);
        return false;
    }
    return true;
}

static void translate(bx *b)
{
    if (!b->x->params.phi_removal)
        phi_nodes(b);
    LLVMValueRef last = NULL;
    for (LLVMValueRef i = LLVMGetFirstInstruction(b->body); i && !b->failed;
         i = LLVMGetNextInstruction(i)) {
        last = i;
        if (!LLVMIsAPHINode(i))
            instruction(b, i);
    }
    if (b->failed)
        return;
    if (!last || LLVMGetInstructionOpcode(last) != LLVMBr ||
        !LLVMIsConditional(last)) {
        fail(b, b->l->line, "does not end with a conditional branch");
        return;
    }
    outputs(b, last);
    if (!b->x->params.phi_removal)
        phi_operands(b);
    resolve_phis(b);
}

/* Add to v what its nodes need: operands and initial values, on. */
static void needs(const bx *b, bool *v)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (int e = 0; e < b->ne; e++) {
            const xedge *x = &b->edges[e];
            if (!v[x->dst])
                continue;
            if (!v[x->src])
                changed = v[x->src] = true;
            if (x->init >= 0 && !v[x->init])
                changed = v[x->init] = true;
        }
    }
}

/* With the loop control left to the array's controller, the exit compare
 * goes: loop_exit and what only it needs (its cone, returned).  The
 * controller must know the trip count before the loop starts, which an
 * exit computed from memory does not allow: warned (verification still
 * uses the native run's count). */
static bool *exit_cone(bx *b)
{
    bool *cone = calloc((size_t)b->nn + 1, sizeof *cone);
    if (!cone)
        return NULL;
    cone[b->exit_node] = true;
    needs(b, cone);
    for (int i = 0; i < b->nn; i++)
        if (b->nodes[i].op == CG_OP_LOAD && cone[i]) {
            cg_diags_add(b->d, CG_SEV_WARNING, b->x->path, b->l->line,
                         "loop '%s': its exit depends on memory (the load "
                         "at line %d); with the loop control left to the "
                         "array's controller, the controller must know the "
                         "trip count before the loop starts (cgramap "
                         "verifies with the count of the native run)",
                         b->t->name, b->nodes[i].line);
            break;
        }
    return cone;
}

/* Nodes a store or an output needs; without leaf removal every node, but
 * the exit compare's cone when the array's controller runs the loop. */
static bool *live_nodes(bx *b)
{
    bool ctl = b->x->params.array_control && b->exit_node >= 0;
    bool *live = calloc((size_t)b->nn + 1, sizeof *live);
    bool *cone = ctl ? exit_cone(b) : NULL;
    if (!live || (ctl && !cone)) {
        free(live);
        free(cone);
        return NULL;
    }
    for (int i = 0; i < b->nn; i++)
        live[i] = (b->nodes[i].op == CG_OP_STORE ||
                   b->nodes[i].op == CG_OP_OUTPUT) &&
                  !(ctl && i == b->exit_node);
    needs(b, live);
    for (int i = 0; i < b->nn && !b->x->params.leaf_removal; i++)
        live[i] = live[i] || !(cone && cone[i]);
    free(cone);
    return live;
}

/* Probes of dropped nodes go (live-ins only the exit compare read). */
static void remap_probes(cg__ex_probe *p, int *n, const int *newid)
{
    int k = 0;
    for (int i = 0; i < *n; i++)
        if (newid[p[i].node] >= 0) {
            p[k] = p[i];
            p[k++].node = newid[p[i].node];
        }
    *n = k;
}

static bool is_mem(cg_op op) { return op == CG_OP_LOAD || op == CG_OP_STORE; }

/* Does live node v wait for u: a distance-0 operand, an initial value, or
 * the memory operation before it in program order? */
static bool waits(const bx *b, const bool *live, const bool *placed, int v)
{
    for (int e = 0; e < b->ne; e++) {
        const xedge *x = &b->edges[e];
        if (x->dst == v && ((x->distance == 0 && !placed[x->src]) ||
                            (x->init >= 0 && !placed[x->init])))
            return true;
    }
    if (is_mem(b->nodes[v].op))
        for (int u = 0; u < v; u++)
            if (live[u] && !placed[u] && is_mem(b->nodes[u].op))
                return true;
    return false;
}

/* Final order: operands and initial values before their users (constants
 * are made after their user), memory operations in program order, else
 * creation order.  *n = -1 when out of memory. */
static void order(const bx *b, const bool *live, int *ord, int *n)
{
    bool *placed = calloc((size_t)b->nn + 1, sizeof *placed);
    *n = placed ? 0 : -1;
    if (!placed)
        return;
    for (int i = 0; i < b->nn; i++)
        if (!live[i] && placed)
            placed[i] = true;
    for (bool progress = true; placed && progress;) {
        progress = false;
        for (int v = 0; v < b->nn; v++)
            if (!placed[v] && !waits(b, live, placed, v)) {
                placed[v] = true;
                ord[(*n)++] = v;
                progress = true;
                break;
            }
    }
    for (int v = 0; v < b->nn; v++) /* a distance-0 cycle: keep the rest */
        if (live[v] && (!placed || !placed[v]))
            ord[(*n)++] = v;
    free(placed);
}

/* The cg_dfg of the live nodes. */
static cg_dfg *emit(bx *b, LLVMValueRef **values)
{
    bool *live = live_nodes(b);
    int *newid = calloc((size_t)b->nn + 1, sizeof *newid);
    int *ord = calloc((size_t)b->nn + 1, sizeof *ord);
    cg_dfg *g = live && newid && ord ? cg_dfg_create(b->t->name) : NULL;
    *values = calloc((size_t)b->nn + 1, sizeof **values);
    if (!g || !*values) {
        free(live);
        free(newid);
        free(ord);
        cg_dfg_destroy(g);
        return NULL;
    }
    cg_dfg_set_file(g, b->x->path);
    int n;
    order(b, live, ord, &n);
    if (n < 0) {
        free(live);
        free(newid);
        free(ord);
        cg_dfg_destroy(g);
        return NULL;
    }
    for (int i = 0; i < b->nn; i++)
        newid[i] = -1;
    for (int k = 0; k < n; k++) {
        const xnode *x = &b->nodes[ord[k]];
        int id = cg_dfg_add_node(g, x->op, x->width, x->name);
        cg_dfg_node *m = cg_dfg_node_mut(g, id);
        if (!m) { /* out of memory: g says so (cg__dfg_oom) */
            free(live);
            free(newid);
            free(ord);
            return g;
        }
        m->pred = x->pred;
        m->line = x->line;
        m->has_value = x->has_value;
        m->value = x->value;
        if (x->sym || x->symbuf[0])
            cg_dfg_set_sym(g, id, x->sym ? x->sym : x->symbuf);
        (*values)[id] = x->v;
        newid[ord[k]] = id;
    }
    for (int e = 0; e < b->ne; e++) {
        const xedge *x = &b->edges[e];
        if (live[x->dst])
            cg_dfg_add_edge(g, newid[x->src], newid[x->dst], x->operand,
                            x->distance, x->init >= 0 ? newid[x->init] : -1);
    }
    remap_probes(b->in, &b->nin, newid);
    remap_probes(b->out, &b->nout, newid);
    free(live);
    free(newid);
    free(ord);
    return g;
}

/* Keep what the native run needs to find this loop again. */
static int record(bx *b, const cg_dfg *g)
{
    cg_extract_prog *x = b->x;
    int k = 0;
    while (k < x->ndone && strcmp(x->done[k].tag, b->t->name))
        k++;
    if (k == x->ndone) {
        cg__ex_done *a = realloc(x->done, (size_t)(k + 1) * sizeof *a);
        if (!a)
            return -1;
        x->done = a;
        memset(&a[k], 0, sizeof *a);
        a[k].tag = cg__ex_strdup(b->t->name);
        x->ndone++;
    }
    cg__ex_done *e = &x->done[k];
    free(e->fn);
    free(e->in);
    free(e->out);
    e->fn = cg__ex_strdup(value_name(b->l->fn));
    e->header = cg__ex_block_index(b->l->fn, b->body);
    e->preheader = cg__ex_block_index(b->l->fn, b->pre);
    e->exit = cg__ex_block_index(b->l->fn, b->exit);
    e->nnodes = cg_dfg_nnodes(g);
    e->nin = b->nin;
    e->in = b->in;
    e->nout = b->nout;
    e->out = b->out;
    b->in = b->out = NULL;
    return 0;
}

cg_dfg *cg__ex_build(cg_extract_prog *x, const cg__ex_tag *t, int loop,
                     cg_diags *d)
{
    bx b = {.x = x, .t = t, .l = &x->loops[loop], .d = d, .exit_node = -1,
            .cap = 64};
    cg_dfg *g = NULL;
    LLVMValueRef *values = NULL;
    if (!(b.nodes = malloc((size_t)b.cap * sizeof *b.nodes)))
        fail(&b, t->line, "out of memory");
    else if (shape(&b))
        translate(&b);
    if (!b.failed) {
        g = emit(&b, &values);
        cg_nest *n = g && !record(&b, g) && !cg__dfg_oom(g)
                         ? cg__ex_nest(x, loop, g, values) : NULL;
        if (n)
            cg_dfg_set_nest(g, n);
        int errors = cg_diags_errors(d);
        if (n)
            cg__ex_narrow(x, g, values, d);
        /* out of memory anywhere (a lost name, a dropped edge, no nest) */
        if (!n || cg__dfg_oom(g) || cg_diags_errors(d) > errors) {
            if (cg_diags_errors(d) == errors)
                cg_diags_add(d, CG_SEV_ERROR, x->path, t->line, "out of "
                             "memory");
            cg_dfg_destroy(g);
            g = NULL;
        }
    }
    free(values);
    free(b.nodes);
    free(b.edges);
    free(b.mkey);
    free(b.mval);
    free(b.memo);
    free(b.stack);
    free(b.in);
    free(b.out);
    return g;
}
