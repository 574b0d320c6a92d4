/* extract_hoist.c: split loop-invariant address arithmetic out of loops.
 *
 * A GEP in a loop body such as &A[i][j], with i fixed in the loop, is one
 * instruction, so LLVM's LICM cannot hoist its invariant part: the DFG
 * builder would expand A + i*40 + j*4 in full every iteration, 3 ops and 3
 * consts of 6 that only recompute a live-in (jacobi2d's 5 accesses made 20
 * of its 58 nodes).  Before any DFG is built, each such GEP of a
 * single-block loop body with one preheader is split in two: the GEP with
 * its changing indices set to 0 (&A[i][0]: the base and the fixed indices,
 * which come first, one of them at least not a constant) goes to the
 * preheader, shared by every access with the same fixed part (A[i][j-1],
 * A[i][j] and A[i][j+1]), and the access steps from it by each changing
 * index (gep i32, A.base, j).
 * The address is the same value, so the native run, which runs this very
 * module, and the nest's affine analysis (it follows GEP bases) see the
 * same program; the DFG gets one live-in per prefix instead of its
 * arithmetic.
 */
#include <stdio.h>
#include <stdlib.h>

#include <llvm-c/DebugInfo.h>

#include "extract_internal.h"

/* Is v computed outside body (so fixed while the body loops)? */
static bool invariant(LLVMValueRef v, LLVMBasicBlockRef body)
{
    if (LLVMIsAInstruction(v))
        return LLVMGetInstructionParent(v) != body;
    return LLVMIsAConstant(v) || LLVMIsAArgument(v);
}

/* Does every varying index of gep come after the fixed ones (constant
 * zeros aside)?  Only then is it split: the prefix and the steps from it
 * walk the partial addresses gep walks, so both keep its inbounds (which
 * the narrowing to the address width relies on).  &B[k][j] with j fixed
 * would start at &B[0][j], which inbounds does not promise to exist. */
static bool fixed_first(LLVMValueRef gep, LLVMBasicBlockRef body)
{
    bool varied = false;
    for (int i = 1; i < LLVMGetNumOperands(gep); i++) {
        LLVMValueRef ix = LLVMGetOperand(gep, (unsigned)i);
        if (!invariant(ix, body))
            varied = true;
        else if (varied && !LLVMIsNull(ix))
            return false;
    }
    return true;
}

/* Should gep be split: its base is fixed in the loop, some index changes
 * and some index that does not is not a constant (constant indices fold
 * into the base anyway)?  Vectors and more than 63 indices stay whole. */
static bool worth_splitting(LLVMValueRef gep, LLVMBasicBlockRef body)
{
    int n = LLVMGetNumOperands(gep);
    bool varies = false, fixed = false;
    if (n > 64 || !invariant(LLVMGetOperand(gep, 0), body))
        return false;
    for (int i = 1; i < n; i++) {
        LLVMValueRef ix = LLVMGetOperand(gep, (unsigned)i);
        if (LLVMGetTypeKind(LLVMTypeOf(ix)) == LLVMVectorTypeKind)
            return false;
        if (!invariant(ix, body))
            varies = true;
        else if (!LLVMIsAConstant(ix))
            fixed = true;
    }
    return varies && fixed && fixed_first(gep, body);
}

/* The type gep's index i (a varying one) steps over, so its stride is
 * this type's size: the source element type for i = 1, else the element
 * of the array that indices 2 .. i-1 reached; NULL otherwise. */
static LLVMTypeRef step_type(LLVMValueRef gep, int i)
{
    LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
    if (i == 1)
        return t;
    for (int k = 2; k < i && t; k++) {
        LLVMValueRef ix = LLVMGetOperand(gep, (unsigned)k);
        if (LLVMGetTypeKind(t) == LLVMArrayTypeKind)
            t = LLVMGetElementType(t);
        else if (LLVMGetTypeKind(t) == LLVMStructTypeKind &&
                 LLVMIsAConstantInt(ix))
            t = LLVMStructGetTypeAtIndex(
                t, (unsigned)LLVMConstIntGetZExtValue(ix));
        else
            t = NULL;
    }
    return t && LLVMGetTypeKind(t) == LLVMArrayTypeKind
               ? LLVMGetElementType(t) : NULL;
}

/* Prefix GEPs made for one loop, for sharing. */
typedef struct prefixes {
    LLVMValueRef *made;
    int n, cap;
} prefixes;

static bool same_prefix(LLVMValueRef p, LLVMValueRef gep,
                        const LLVMValueRef *ops, int n)
{
    if (LLVMGetNumOperands(p) != n ||
        LLVMGetGEPSourceElementType(p) != LLVMGetGEPSourceElementType(gep) ||
        LLVMIsInBounds(p) != LLVMIsInBounds(gep))
        return false;
    for (int i = 0; i < n; i++)
        if (LLVMGetOperand(p, (unsigned)i) != ops[i])
            return false;
    return true;
}

/* The preheader GEP ops[0 .. n-1] (gep's base and indices, the varying
 * ones 0), made once per loop; NULL when out of memory. */
static LLVMValueRef prefix_of(LLVMBuilderRef bld, LLVMBasicBlockRef pre,
                              prefixes *ps, LLVMValueRef gep,
                              const LLVMValueRef *ops, int n)
{
    for (int i = 0; i < ps->n; i++)
        if (same_prefix(ps->made[i], gep, ops, n))
            return ps->made[i];
    if (ps->n == ps->cap) {
        int cap = ps->cap ? 2 * ps->cap : 8;
        LLVMValueRef *a = realloc(ps->made, (size_t)cap * sizeof *a);
        if (!a)
            return NULL;
        ps->made = a;
        ps->cap = cap;
    }
    LLVMPositionBuilderBefore(bld, LLVMGetBasicBlockTerminator(pre));
    /* named after its base: the DFG's live-in reads "A.base" */
    char name[96] = "";
    size_t len;
    const char *base = LLVMGetValueName2(ops[0], &len);
    if (base && len && len < 80)
        snprintf(name, sizeof name, "%.*s.base", (int)len, base);
    LLVMValueRef p = LLVMBuildGEP2(bld, LLVMGetGEPSourceElementType(gep),
                                   ops[0], (LLVMValueRef *)ops + 1,
                                   (unsigned)(n - 1), name);
    LLVMSetIsInBounds(p, LLVMIsInBounds(gep));
    LLVMInstructionSetDebugLoc(p, LLVMInstructionGetDebugLoc(gep));
    ps->made[ps->n++] = p;
    return p;
}

/* Split gep: the prefix (its varying indices 0) is computed in the
 * preheader and each varying index steps from it, one single-index GEP
 * over the type it strides.  False when out of memory. */
static bool split(LLVMBuilderRef bld, LLVMBasicBlockRef pre, prefixes *ps,
                  LLVMValueRef gep, LLVMBasicBlockRef body)
{
    int n = LLVMGetNumOperands(gep);
    LLVMValueRef ops[64];
    LLVMTypeRef steps[64];
    ops[0] = LLVMGetOperand(gep, 0);
    for (int i = 1; i < n; i++) {
        LLVMValueRef ix = LLVMGetOperand(gep, (unsigned)i);
        steps[i] = NULL;
        ops[i] = ix;
        if (!invariant(ix, body)) {
            if (!(steps[i] = step_type(gep, i)))
                return true; /* left whole: nothing lost but the saving */
            ops[i] = LLVMConstNull(LLVMTypeOf(ix));
        }
    }
    LLVMValueRef a = prefix_of(bld, pre, ps, gep, ops, n);
    if (!a)
        return false;
    LLVMPositionBuilderBefore(bld, gep);
    size_t len;
    const char *name = LLVMGetValueName2(gep, &len);
    for (int i = 1; i < n; i++) {
        if (!steps[i])
            continue;
        LLVMValueRef ix = LLVMGetOperand(gep, (unsigned)i);
        a = LLVMBuildGEP2(bld, steps[i], a, &ix, 1, name ? name : "");
        LLVMSetIsInBounds(a, LLVMIsInBounds(gep));
        LLVMInstructionSetDebugLoc(a, LLVMInstructionGetDebugLoc(gep));
    }
    LLVMReplaceAllUsesWith(gep, a);
    LLVMInstructionEraseFromParent(gep);
    return true;
}

static bool hoist_loop(LLVMBuilderRef bld,
                       const cg__ex_loop *l)
{
    int npre;
    LLVMBasicBlockRef pre = l->nblocks == 1 ? cg__ex_preheader(l, &npre)
                                            : NULL;
    if (!pre || npre != 1 || !LLVMGetBasicBlockTerminator(pre))
        return true;
    prefixes ps = {0};
    bool ok = true;
    LLVMValueRef i = LLVMGetFirstInstruction(l->header);
    while (i && ok) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        if (LLVMIsAGetElementPtrInst(i) && worth_splitting(i, l->header))
            ok = split(bld, pre, &ps, i, l->header);
        i = next;
    }
    free(ps.made);
    return ok;
}

int cg__ex_hoist(cg_extract_prog *x, cg_diags *d)
{
    LLVMBuilderRef bld = LLVMCreateBuilderInContext(x->ctx);
    bool ok = bld != NULL;
    for (int l = 0; l < x->nloops && ok; l++)
        ok = hoist_loop(bld, &x->loops[l]);
    if (bld)
        LLVMDisposeBuilder(bld);
    if (!ok)
        cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "out of memory");
    return ok ? 0 : -1;
}
