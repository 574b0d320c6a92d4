/* extract_run.c: run a kernel natively and watch one tagged loop.
 *
 * The run works on a clone of the module.  The loop's entry edge and exit
 * edge get a block each that stores the loop's live-ins (resp. its trip
 * count and live-outs) into an array of this program's (by its address:
 * not a global of the module, which the kernel could overwrite) and calls
 * back into this file through an absolute address, with this run's
 * context as an integer argument (no global state).  The callback
 * snapshots every global at layout addresses, so each execution of the
 * loop can be compared with the DFG interpreter started from exactly the
 * same state.  A wrapper function calls the kernel with its parameters
 * taken from the symbols; MCJIT compiles the clone and runs the wrapper.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/ExecutionEngine.h>

#include "../common/util.h"
#include "extract_internal.h"

typedef struct rctx {
    cg_extract_prog *x;
    const cg__ex_done *e;
    uint64_t *host;         /* host address of each global */
    void **buf;             /* the host memory of each buffer (is_buffer) */
    cg_mem before, after;
    uint64_t *inputs, *outputs;
    int64_t count;
    cg_extract_probe_fn probe;
    void *arg;
    int bad_node;           /* a pointer live value outside every global */
    uint64_t *rec;          /* the instrumented code's record: live-ins,
                               then live-outs and the trip count */
    uint64_t trips;         /* iterations of the running execution */
} rctx;

/* Move address *v from the host's to the layout (to_host: the other way);
 * false, *v kept, when it lies in no global.  An address inside a global
 * wins over one just past the end of another (globals may be adjacent,
 * in the layout and on the host). */
static bool move_addr(const rctx *r, uint64_t *v, bool to_host)
{
    const cg_extract_prog *x = r->x;
    for (int past = 0; past < 2; past++)
        for (int g = 0; g < x->nglobals; g++) {
            uint64_t from = to_host ? x->globals[g].base : r->host[g];
            uint64_t to = to_host ? r->host[g] : x->globals[g].base;
            uint64_t end = from + x->globals[g].bytes;
            if (r->host[g] && *v >= from &&
                (past ? *v == end : *v < end)) {
                *v = to + (*v - from);
                return true;
            }
        }
    return false;
}

/* Copy global g between the image and the host, its pointer slots
 * translated. */
static void copy_global(const rctx *r, int g, uint8_t *img, bool to_host)
{
    const cg_extract_global *gl = &r->x->globals[g];
    uint8_t *h = (uint8_t *)(uintptr_t)r->host[g];
    memcpy(to_host ? h : img, to_host ? img : h, (size_t)gl->bytes);
    for (uint64_t k = 0; gl->is_ptr && k + 8 <= gl->bytes; k += 8) {
        uint8_t *slot = (to_host ? h : img) + k;
        uint64_t v;
        memcpy(&v, slot, 8);
        move_addr(r, &v, to_host);
        memcpy(slot, &v, 8);
    }
}

static void snapshot(const rctx *r, cg_mem *m)
{
    const cg_extract_prog *x = r->x;
    for (int g = 0; g < x->nglobals; g++)
        if (r->host[g])
            copy_global(r, g, m->data + (x->globals[g].base - x->mem_base),
                        false);
}

/* A live value as the DFG sees it: narrowed, pointers in the layout. */
static uint64_t to_layout(rctx *r, const cg__ex_probe *p, uint64_t v)
{
    if (!p->is_ptr)
        return cg_trunc(v, p->width);
    if (!move_addr(r, &v, false) && r->bad_node < 0)
        r->bad_node = p->node;
    return v;
}

/* Called by the instrumented code: event 0 = entry, 1 = exit. */
static void hook(uint64_t ctx, int32_t event, const uint64_t *vals)
{
    rctx *r = (rctx *)(uintptr_t)ctx;
    const cg__ex_done *e = r->e;
    if (event == 0) {
        /* the frame's stack arrays first: snapshots and addresses use them */
        for (int k = 0; k < e->nin; k++)
            if (e->in[k].stack1)
                r->host[e->in[k].stack1 - 1] = vals[k];
        snapshot(r, &r->before);
        for (int k = 0; k < e->nin; k++)
            r->inputs[e->in[k].node] = to_layout(r, &e->in[k], vals[k]);
        return;
    }
    snapshot(r, &r->after);
    for (int k = 0; k < e->nout; k++)
        r->outputs[e->out[k].node] =
            e->out[k].where == CG__EX_CONST
                ? e->out[k].value : to_layout(r, &e->out[k], vals[1 + k]);
    cg_extract_instance in = {r->count++, (int64_t)vals[e->nout + 1],
                              &r->before, &r->after, r->inputs, r->outputs};
    for (int k = 0; k < e->nin; k++) /* the frame ends with the call */
        if (e->in[k].stack1)
            r->host[e->in[k].stack1 - 1] = 0;
    if (r->probe && r->bad_node < 0) /* else nothing to compare: the
                                         run fails, saying why */
        r->probe(r->arg, &in);
}

/* ---- instrumentation ----------------------------------------------------- */

typedef struct inst {
    LLVMContextRef c;
    LLVMModuleRef m;
    LLVMBuilderRef b;
    LLVMTypeRef i64, i32, ptr, hookty;
    LLVMValueRef vals, cnt, hookfn;
} inst;

static LLVMValueRef nth_inst(LLVMBasicBlockRef bb, int idx)
{
    LLVMValueRef i = LLVMGetFirstInstruction(bb);
    while (i && idx-- > 0)
        i = LLVMGetNextInstruction(i);
    return i;
}

static LLVMValueRef locate(LLVMValueRef fn, const cg__ex_probe *p)
{
    if (p->where == CG__EX_ARG)
        return LLVMGetParam(fn, (unsigned)p->idx);
    if (p->where == CG__EX_INST)
        return nth_inst(cg__ex_block_at(fn, p->bb), p->idx);
    return NULL;
}

/* A new block on the edge from -> to (appended, so block indices hold;
 * phis of `to` are rebuilt in place, so instruction indices hold). */
static LLVMBasicBlockRef split_edge(inst *s, LLVMValueRef fn,
                                    LLVMBasicBlockRef from,
                                    LLVMBasicBlockRef to)
{
    LLVMBasicBlockRef nb = LLVMAppendBasicBlockInContext(s->c, fn, "cg.edge");
    LLVMValueRef t = LLVMGetBasicBlockTerminator(from);
    for (unsigned i = 0; i < LLVMGetNumSuccessors(t); i++)
        if (LLVMGetSuccessor(t, i) == to)
            LLVMSetSuccessor(t, i, nb);
    LLVMValueRef next;
    for (LLVMValueRef phi = LLVMGetFirstInstruction(to);
         phi && LLVMIsAPHINode(phi); phi = next) {
        next = LLVMGetNextInstruction(phi);
        LLVMPositionBuilderBefore(s->b, phi);
        LLVMValueRef np = LLVMBuildPhi(s->b, LLVMTypeOf(phi), "");
        for (unsigned i = 0; i < LLVMCountIncoming(phi); i++) {
            LLVMValueRef v = LLVMGetIncomingValue(phi, i);
            LLVMBasicBlockRef bb = LLVMGetIncomingBlock(phi, i);
            if (bb == from)
                bb = nb;
            LLVMAddIncoming(np, &v, &bb, 1);
        }
        LLVMReplaceAllUsesWith(phi, np);
        LLVMInstructionEraseFromParent(phi);
    }
    return nb;
}

static void store_val(inst *s, LLVMValueRef v, int k)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
        v = LLVMBuildPtrToInt(s->b, v, s->i64, "");
    else if (LLVMGetIntTypeWidth(t) < 64)
        v = LLVMBuildZExt(s->b, v, s->i64, "");
    LLVMValueRef ix = LLVMConstInt(s->i64, (unsigned long long)k, 0);
    LLVMValueRef at = LLVMBuildGEP2(s->b, s->i64, s->vals, &ix, 1, "");
    LLVMBuildStore(s->b, v, at);
}

static void call_hook(inst *s, rctx *r, int event)
{
    LLVMValueRef args[3] = {
        LLVMConstInt(s->i64, (unsigned long long)(uintptr_t)r, 0),
        LLVMConstInt(s->i32, (unsigned long long)event, 0), s->vals};
    LLVMBuildCall2(s->b, s->hookty, s->hookfn, args, 3, "");
}

/* The kernel now writes memory and calls out: drop what says otherwise. */
static void drop_attributes(inst *s, LLVMValueRef fn)
{
    static const char *const kinds[] = {"memory", "readonly", "readnone",
                                        "writeonly", "nosync", "nocallback"};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        unsigned k = LLVMGetEnumAttributeKindForName(kinds[i],
                                                     strlen(kinds[i]));
        if (k)
            LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, k);
    }
    (void)s;
}

static void instrument(inst *s, rctx *r, LLVMValueRef fn)
{
    const cg__ex_done *e = r->e;
    drop_attributes(s, fn);
    LLVMBasicBlockRef body = cg__ex_block_at(fn, e->header);
    LLVMBasicBlockRef enter =
        split_edge(s, fn, cg__ex_block_at(fn, e->preheader), body);
    LLVMBasicBlockRef leave =
        split_edge(s, fn, body, cg__ex_block_at(fn, e->exit));
    LLVMValueRef *in = calloc((size_t)e->nin + 1, sizeof *in);
    LLVMValueRef *out = calloc((size_t)e->nout + 1, sizeof *out);
    for (int k = 0; in && k < e->nin; k++)
        in[k] = locate(fn, &e->in[k]);
    for (int k = 0; out && k < e->nout; k++)
        out[k] = locate(fn, &e->out[k]);
    LLVMPositionBuilderAtEnd(s->b, enter);
    for (int k = 0; in && k < e->nin; k++)
        store_val(s, in[k], k);
    LLVMBuildStore(s->b, LLVMConstInt(s->i64, 0, 0), s->cnt);
    call_hook(s, r, 0);
    LLVMBuildBr(s->b, body);
    LLVMPositionBuilderAtEnd(s->b, leave);
    for (int k = 0; out && k < e->nout; k++)
        if (out[k])
            store_val(s, out[k], 1 + k);
    store_val(s, LLVMBuildLoad2(s->b, s->i64, s->cnt, ""), e->nout + 1);
    call_hook(s, r, 1);
    LLVMBuildBr(s->b, cg__ex_block_at(fn, e->exit));
    LLVMValueRef first = LLVMGetFirstInstruction(body);
    while (LLVMIsAPHINode(first))
        first = LLVMGetNextInstruction(first);
    LLVMPositionBuilderBefore(s->b, first);
    LLVMValueRef c = LLVMBuildLoad2(s->b, s->i64, s->cnt, "");
    LLVMBuildStore(s->b, LLVMBuildAdd(s->b, c, LLVMConstInt(s->i64, 1, 0), ""),
                   s->cnt);
    free(in);
    free(out);
}

/* ---- which parameters the loop uses ------------------------------------ */

/* The tagged loop of e and the loops around it, in the original module:
 * a parameter that reaches none of their blocks cannot change what the
 * loop computes nor how often its nest runs it. */
static bool in_nest(const cg_extract_prog *x, const cg__ex_done *e,
                    LLVMValueRef fn, LLVMBasicBlockRef b)
{
    LLVMBasicBlockRef header = cg__ex_block_at(fn, e->header);
    int l = 0;
    while (l < x->nloops && (x->loops[l].fn != fn ||
                             x->loops[l].header != header))
        l++;
    if (l == x->nloops)
        return true; /* not found: assume the worst */
    for (; l >= 0; l = x->loops[l].parent)
        if (cg__ex_in_loop(&x->loops[l], b))
            return true;
    return false;
}

/* Does parameter i of e's kernel flow (through SSA values, not memory)
 * into the loop or a loop around it?  True when unsure (out of memory). */
static bool param_used(const cg_extract_prog *x, const cg__ex_done *e,
                       unsigned i)
{
    LLVMValueRef fn = LLVMGetNamedFunction(x->mod, e->fn);
    if (!fn)
        return true;
    size_t n = 1, cap = 64;
    LLVMValueRef *seen = malloc(cap * sizeof *seen);
    if (!seen)
        return true;
    seen[0] = LLVMGetParam(fn, i);
    bool used = false;
    for (size_t k = 0; k < n && !used; k++)
        for (LLVMUseRef u = LLVMGetFirstUse(seen[k]); u && !used;
             u = LLVMGetNextUse(u)) {
            LLVMValueRef v = LLVMGetUser(u);
            if (!LLVMIsAInstruction(v))
                continue;
            used = in_nest(x, e, fn, LLVMGetInstructionParent(v));
            size_t j = 0;
            while (j < n && seen[j] != v)
                j++;
            if (j < n)
                continue;
            if (n == cap) {
                LLVMValueRef *m = realloc(seen, 2 * cap * sizeof *m);
                if (!m) {
                    used = true;
                    break;
                }
                seen = m;
                cap *= 2;
            }
            seen[n++] = v;
        }
    free(seen);
    return used;
}

/* The value of kernel parameter i (named nm) into *v: its symbol's; 0
 * with a note when the loop does not use it; else the default
 * CG_EXTRACT_PARAM_VALUE, added to the text *assumed (len bytes used of
 * cap) that the run's note gives.  -1 with an error when the parameter
 * is not an integer. */
static int param_value(const rctx *r, unsigned i, LLVMValueRef p,
                       const char *nm, uint64_t *v, char *assumed,
                       size_t cap, size_t *len, cg_diags *d)
{
    const cg_extract_prog *x = r->x;
    int k = 0;
    while (k < x->params.nsyms && strcmp(x->params.syms[k].name, nm))
        k++;
    if (LLVMGetTypeKind(LLVMTypeOf(p)) != LLVMIntegerTypeKind) {
        cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "kernel '%s' of loop '%s': "
                     "parameter '%s' is not an integer, and the native run "
                     "passes integers only (--sym values); make it an "
                     "integer, or a global the kernel reads", r->e->fn,
                     r->e->tag, nm);
        return -1;
    }
    if (k < x->params.nsyms) {
        *v = (uint64_t)x->params.syms[k].value;
        return 0;
    }
    if (!param_used(x, r->e, i)) {
        cg_diags_add(d, CG_SEV_NOTE, x->path, 0, "kernel '%s': parameter "
                     "'%s' has no value, and neither loop '%s' nor a loop "
                     "around it uses it, so the native run passes 0",
                     r->e->fn, nm, r->e->tag);
        *v = 0;
        return 0;
    }
    *v = CG_EXTRACT_PARAM_VALUE;
    if (*len < cap)
        *len += (size_t)snprintf(assumed + *len, cap - *len, "%s%s = %d "
                                 "(the default; --sym %s=VALUE sets it)",
                                 *len ? ", " : "", nm,
                                 CG_EXTRACT_PARAM_VALUE, nm);
    return 0;
}

/* void __cg_entry(void) { kernel(sym1, sym2, ...); }; the parameters
 * given the default into assumed (cap bytes, "" when none). */
static int entry(inst *s, rctx *r, LLVMValueRef fn, char *assumed,
                 size_t cap, cg_diags *d)
{
    unsigned n = LLVMCountParams(fn);
    LLVMValueRef *args = calloc(n + 1, sizeof *args);
    int rc = args ? 0 : -1;
    size_t len = 0;
    assumed[0] = '\0';
    for (unsigned i = 0; rc == 0 && i < n; i++) {
        LLVMValueRef p = LLVMGetParam(fn, i);
        size_t nlen;
        uint64_t v;
        rc = param_value(r, i, p, LLVMGetValueName2(p, &nlen), &v, assumed,
                         cap, &len, d);
        if (rc == 0)
            args[i] = LLVMConstInt(LLVMTypeOf(p), (unsigned long long)v, 1);
    }
    if (rc == 0) {
        LLVMTypeRef vt = LLVMFunctionType(LLVMVoidTypeInContext(s->c), NULL,
                                          0, 0);
        LLVMValueRef w = LLVMAddFunction(s->m, "__cg_entry", vt);
        LLVMPositionBuilderAtEnd(s->b, LLVMAppendBasicBlockInContext(s->c, w,
                                                                     "entry"));
        LLVMBuildCall2(s->b, LLVMGlobalGetValueType(fn), fn, args, n, "");
        LLVMBuildRetVoid(s->b);
    }
    free(args);
    return rc;
}

/* The record and the trip counter live in this program's memory, not in
 * globals of the module: the JIT places those next to the kernel's, where
 * an access outside an array (undefined behaviour in the C code) would
 * overwrite them. */
static void setup(inst *s, const rctx *r)
{
    s->i64 = LLVMInt64TypeInContext(s->c);
    s->i32 = LLVMInt32TypeInContext(s->c);
    s->ptr = LLVMPointerTypeInContext(s->c, 0);
    LLVMTypeRef a[3] = {s->i64, s->i32, s->ptr};
    s->hookty = LLVMFunctionType(LLVMVoidTypeInContext(s->c), a, 3, 0);
    s->hookfn = LLVMConstIntToPtr(
        LLVMConstInt(s->i64, (unsigned long long)(uintptr_t)hook, 0), s->ptr);
    s->vals = LLVMConstIntToPtr(
        LLVMConstInt(s->i64, (unsigned long long)(uintptr_t)r->rec, 0),
        s->ptr);
    s->cnt = LLVMConstIntToPtr(
        LLVMConstInt(s->i64, (unsigned long long)(uintptr_t)&r->trips, 0),
        s->ptr);
    /* MCJIT only finds global symbols */
    for (int g = 0; g < r->x->nglobals; g++) {
        LLVMValueRef gv = LLVMGetNamedGlobal(s->m, r->x->globals[g].name);
        if (gv) {
            LLVMSetLinkage(gv, LLVMExternalLinkage);
            LLVMSetVisibility(gv, LLVMDefaultVisibility);
        }
    }
}

/* ---- the run ------------------------------------------------------------- */

static const cg__ex_done *done_of(const cg_extract_prog *x, const char *tag)
{
    for (int i = 0; i < x->ndone; i++)
        if (!strcmp(x->done[i].tag, tag))
            return &x->done[i];
    return NULL;
}

static LLVMExecutionEngineRef jit(LLVMModuleRef m, const char *path,
                                  cg_diags *d)
{
    LLVMLinkInMCJIT();
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    struct LLVMMCJITCompilerOptions o;
    LLVMInitializeMCJITCompilerOptions(&o, sizeof o);
    o.OptLevel = 0;
    LLVMExecutionEngineRef ee = NULL;
    char *err = NULL;
    if (LLVMCreateMCJITCompilerForModule(&ee, m, &o, sizeof o, &err)) {
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "cannot start the native "
                     "run (LLVM MCJIT): %s", err ? err : "?");
        LLVMDisposeMessage(err);
        LLVMDisposeModule(m);
        return NULL;
    }
    return ee;
}

/* Globals' host addresses; writable ones take mem's bytes, read-only ones
 * give theirs to mem. */
static void load_globals(rctx *r, LLVMExecutionEngineRef ee, cg_mem *mem)
{
    const cg_extract_prog *x = r->x;
    for (int g = 0; g < x->nglobals; g++) {
        const cg_extract_global *gl = &x->globals[g];
        r->host[g] = gl->is_stack ? 0 /* known at each loop entry */
                     : gl->is_buffer ? (uint64_t)(uintptr_t)r->buf[g]
                                     : LLVMGetGlobalValueAddress(ee, gl->name);
    }
    /* after every host address is known: pointers may point forward;
     * read-only globals keep their initializers, the image gets them */
    for (int g = 0; g < x->nglobals; g++)
        if (r->host[g])
            copy_global(r, g, mem->data + (x->globals[g].base - x->mem_base),
                        !x->globals[g].is_const);
}

static int alloc_ctx(rctx *r, const cg_mem *mem)
{
    size_t nn = (size_t)r->e->nnodes + 1;
    r->host = calloc((size_t)r->x->nglobals + 1, sizeof *r->host);
    r->buf = calloc((size_t)r->x->nglobals + 1, sizeof *r->buf);
    bool bufs = r->buf != NULL;
    for (int g = 0; bufs && g < r->x->nglobals; g++)
        if (r->x->globals[g].is_buffer)
            bufs = (r->buf[g] = calloc(1, (size_t)r->x->globals[g].bytes)) !=
                   NULL;
    r->rec = calloc((size_t)(r->e->nin + r->e->nout + 2), sizeof *r->rec);
    r->inputs = calloc(nn, sizeof *r->inputs);
    r->outputs = calloc(nn, sizeof *r->outputs);
    r->before = r->after = *mem;
    r->before.data = malloc((size_t)mem->size);
    r->after.data = malloc((size_t)mem->size);
    r->bad_node = -1;
    return r->host && bufs && r->rec && r->inputs && r->outputs &&
                   r->before.data && r->after.data ? 0 : -1;
}

static void free_ctx(rctx *r)
{
    for (int g = 0; r->buf && g < r->x->nglobals; g++)
        free(r->buf[g]);
    free(r->buf);
    free(r->host);
    free(r->rec);
    free(r->inputs);
    free(r->outputs);
    free(r->before.data);
    free(r->after.data);
}

/* The line of the first call of f that has one, else 0. */
static int call_line(LLVMValueRef f)
{
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef i = LLVMGetUser(u);
        if (LLVMIsAInstruction(i) && LLVMGetDebugLocLine(i))
            return (int)LLVMGetDebugLocLine(i);
    }
    return 0;
}

/* Functions the run may call (those reachable from __cg_entry) that the
 * file does not define and the process cannot find (dlsym: the C library
 * and what cgramap links).  The run would jump to nothing and crash, and
 * the crash would be blamed on the loop; each is an error instead.  -1
 * when there is one (or no memory), else 0. */
static int missing_functions(LLVMModuleRef m, const char *path, cg_diags *d)
{
    LLVMValueRef *todo = NULL, entry = LLVMGetNamedFunction(m, "__cg_entry");
    int n = 0, cap = 0, rc = 0;
    if (!entry)
        return 0;
    if (CG_GROW(todo, cap, 1)) {
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "out of memory");
        return -1;
    }
    todo[n++] = entry;
    /* todo is the walk's queue and the set of functions seen */
    for (int k = 0; k < n && rc == 0; k++) {
        LLVMValueRef f = todo[k];
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b && rc == 0;
             b = LLVMGetNextBasicBlock(b))
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i && rc == 0;
                 i = LLVMGetNextInstruction(i)) {
                LLVMValueRef g = LLVMIsACallInst(i)
                                     ? LLVMGetCalledValue(i) : NULL;
                if (!g || !LLVMIsAFunction(g) || LLVMGetIntrinsicID(g))
                    continue;
                bool seen = false;
                for (int j = 0; j < n && !seen; j++)
                    seen = todo[j] == g;
                if (seen)
                    continue;
                if (CG_GROW(todo, cap, n + 1)) {
                    cg_diags_add(d, CG_SEV_ERROR, path, 0, "out of memory");
                    rc = -1;
                    continue;
                }
                todo[n++] = g;
            }
    }
    for (int k = 1; k < n; k++) {
        size_t len;
        const char *name = LLVMGetValueName2(todo[k], &len);
        if (!LLVMIsDeclaration(todo[k]) || dlsym(RTLD_DEFAULT, name))
            continue;
        cg_diags_add(d, CG_SEV_ERROR, path, call_line(todo[k]), "the native "
                     "run would call '%s', which neither this file nor the C "
                     "library defines; define it in the file (a stub will "
                     "do) so that the loop can be run natively", name);
        rc = -1;
    }
    free(todo);
    return rc;
}

static int execute(rctx *r, LLVMModuleRef m, cg_mem *mem, cg_diags *d)
{
    if (missing_functions(m, r->x->path, d) != 0) {
        LLVMDisposeModule(m);
        return -1;
    }
    LLVMExecutionEngineRef ee = jit(m, r->x->path, d);
    if (!ee)
        return -1;
    uint64_t f = LLVMGetFunctionAddress(ee, "__cg_entry");
    int rc = 0;
    if (!f) {
        cg_diags_add(d, CG_SEV_ERROR, r->x->path, 0, "the native run found "
                     "no code for the kernel");
        rc = -1;
    } else {
        load_globals(r, ee, mem);
        memcpy(r->before.data, mem->data, (size_t)mem->size);
        memcpy(r->after.data, mem->data, (size_t)mem->size);
        ((void (*)(void))(uintptr_t)f)();
        snapshot(r, mem);
    }
    LLVMDisposeExecutionEngine(ee);
    return rc;
}

/* Whether function fn uses global gv (an instruction of it names it). */
static bool fn_uses(LLVMValueRef gv, const char *fn)
{
    for (LLVMUseRef u = gv ? LLVMGetFirstUse(gv) : NULL; u;
         u = LLVMGetNextUse(u)) {
        LLVMValueRef i = LLVMGetUser(u);
        if (!LLVMIsAInstruction(i))
            continue;
        size_t len;
        const char *name = LLVMGetValueName2(
            LLVMGetBasicBlockParent(LLVMGetInstructionParent(i)), &len);
        if (!strcmp(name, fn))
            return true;
    }
    return false;
}

/* Whether buffer g's pointer is one the kernel fn reads. */
static bool kernel_reaches(const cg_extract_prog *x, int g, const char *fn)
{
    int p = cg_extract_global_find(x, x->globals[g].name + 1);
    return p >= 0 && fn_uses(x->gvs[p], fn);
}

/* What the run of the kernel fn assumes, as a note: the parameters given
 * the default (params, from entry), the value read through each null
 * pointer global read as a scalar (*N = 16), the buffers of the others. */
static void note_assumed(const cg_extract_prog *x, const char *tag,
                         const char *fn, const char *params, cg_diags *d)
{
    char text[1024] = "";
    size_t len = 0;
    if (params[0])
        len = (size_t)snprintf(text, sizeof text, "kernel '%s' parameter%s "
                               "%s", fn, strchr(params, ',') ? "s" : "",
                               params);
    uint64_t bytes = 0;
    int narr = 0;
    for (int g = 0; g < x->nglobals && len < sizeof text; g++) {
        const cg_extract_global *gl = &x->globals[g];
        if (!gl->is_buffer || !gl->is_value || !kernel_reaches(x, g, fn))
            continue;
        if (gl->assumed)
            len += (size_t)snprintf(text + len, sizeof text - len,
                                    "%s%s = %lld (the default; --sym "
                                    "%s=VALUE sets it)", len ? "; " : "",
                                    gl->name, (long long)gl->value,
                                    gl->name + 1);
        else
            len += (size_t)snprintf(text + len, sizeof text - len,
                                    "%s%s = %lld (--sym %s=%lld)",
                                    len ? "; " : "", gl->name,
                                    (long long)gl->value, gl->name + 1,
                                    (long long)gl->value);
    }
    for (int g = 0; g < x->nglobals && len < sizeof text; g++) {
        const cg_extract_global *gl = &x->globals[g];
        if (!gl->is_buffer || gl->is_value || !kernel_reaches(x, g, fn))
            continue;
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s",
                                narr ? ", " : len ? "; " : "",
                                gl->name + 1);
        narr++;
        bytes = gl->bytes;
    }
    if (narr && len < sizeof text)
        snprintf(text + len, sizeof text - len, " %s of %llu bytes",
                 narr > 1 ? "point at seeded buffers"
                          : "points at a seeded buffer",
                 (unsigned long long)bytes);
    if (text[0])
        cg_diags_add(d, CG_SEV_NOTE, x->path, 0, "loop '%s': the native run "
                     "assumes what nothing in the file sets: %s", tag, text);
}

int cg_extract_run(cg_extract_prog *x, const char *tag, cg_mem *mem,
                   cg_extract_probe_fn probe, void *arg, int64_t *ninstances,
                   cg_diags *d)
{
    rctx r = {.x = x, .e = done_of(x, tag), .probe = probe, .arg = arg};
    if (!r.e) {
        cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "loop '%s' was not "
                     "extracted; extract it before running it", tag);
        return -1;
    }
    if (mem->base != x->mem_base || mem->size != x->mem_size) {
        cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "the memory image does not "
                     "match the layout (use cg_extract_image)");
        return -1;
    }
    if (alloc_ctx(&r, mem)) {
        free_ctx(&r);
        cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "out of memory");
        return -1;
    }
    inst s = {.c = x->ctx, .m = LLVMCloneModule(x->mod)};
    s.b = LLVMCreateBuilderInContext(s.c);
    LLVMValueRef fn = LLVMGetNamedFunction(s.m, r.e->fn);
    setup(&s, &r);
    instrument(&s, &r, fn);
    char params[512];
    int rc = entry(&s, &r, fn, params, sizeof params, d);
    LLVMDisposeBuilder(s.b);
    if (rc == 0)
        note_assumed(x, tag, r.e->fn, params, d);
    if (rc == 0)
        rc = execute(&r, s.m, mem, d);
    else
        LLVMDisposeModule(s.m);
    if (rc == 0 && r.bad_node >= 0) {
        cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "loop '%s': a pointer it "
                     "reads (DFG node %d) points outside the layout's globals "
                     "and fixed-size stack arrays (a stack array of variable "
                     "size, or memory not from a global); the array's memory "
                     "holds only those, so its run cannot be compared", tag,
                     r.bad_node);
        rc = -1;
    }
    if (ninstances)
        *ninstances = r.count;
    free_ctx(&r);
    return rc;
}
