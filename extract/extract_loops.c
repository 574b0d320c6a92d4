/* extract_loops.c: natural loops, because the LLVM C API has no LoopInfo.
 * Dominators come from the iterative algorithm of Cooper, Harvey and
 * Kennedy over a reverse post-order; an edge t->h whose target dominates
 * its source is a back edge, and the natural loop of h is h plus every
 * block that reaches a latch without passing h.  Each loop is then located
 * in the source by the !llvm.loop metadata clang puts on its latch branch
 * (first DILocation = the loop keyword, second = the loop's end).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "extract_internal.h"

/* The blocks of one function with predecessor lists and dominators. */
typedef struct fgraph {
    int n;
    LLVMBasicBlockRef *bb;
    int *npred, **pred;
    int *rpo;      /* rpo[k] = block; order[b] = k, -1 unreachable */
    int *order;
    int *idom;
} fgraph;

int cg__ex_block_index(LLVMValueRef fn, LLVMBasicBlockRef b)
{
    int i = 0;
    for (LLVMBasicBlockRef c = LLVMGetFirstBasicBlock(fn); c;
         c = LLVMGetNextBasicBlock(c), i++)
        if (c == b)
            return i;
    return -1;
}

LLVMBasicBlockRef cg__ex_block_at(LLVMValueRef fn, int idx)
{
    LLVMBasicBlockRef c = LLVMGetFirstBasicBlock(fn);
    while (c && idx-- > 0)
        c = LLVMGetNextBasicBlock(c);
    return c;
}

int cg__ex_inst_index(LLVMValueRef inst)
{
    int i = 0;
    for (LLVMValueRef c = LLVMGetFirstInstruction(LLVMGetInstructionParent(inst));
         c; c = LLVMGetNextInstruction(c), i++)
        if (c == inst)
            return i;
    return -1;
}

static int index_of(const fgraph *g, LLVMBasicBlockRef b)
{
    for (int i = 0; i < g->n; i++)
        if (g->bb[i] == b)
            return i;
    return -1;
}

static void fgraph_free(fgraph *g)
{
    for (int i = 0; g->pred && i < g->n; i++) /* NULL: building failed */
        free(g->pred[i]);
    free(g->pred);
    free(g->npred);
    free(g->bb);
    free(g->rpo);
    free(g->order);
    free(g->idom);
}

/* false when out of memory (a lost edge would hide a loop) */
static bool add_pred(fgraph *g, int b, int p)
{
    int *a = realloc(g->pred[b], (size_t)(g->npred[b] + 1) * sizeof *a);
    if (a) {
        g->pred[b] = a;
        a[g->npred[b]++] = p;
    }
    return a != NULL;
}

static void dfs(fgraph *g, int b, bool *seen, int *post, int *np)
{
    seen[b] = true;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[b]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned s = 0; s < ns; s++) {
        int c = index_of(g, LLVMGetSuccessor(t, s));
        if (c >= 0 && !seen[c])
            dfs(g, c, seen, post, np);
    }
    post[(*np)++] = b;
}

static int intersect(const fgraph *g, int a, int b)
{
    while (a != b) {
        while (g->order[a] > g->order[b])
            a = g->idom[a];
        while (g->order[b] > g->order[a])
            b = g->idom[b];
    }
    return a;
}

static void dominators(fgraph *g)
{
    for (int i = 0; i < g->n; i++)
        g->idom[i] = -1;
    g->idom[g->rpo[0]] = g->rpo[0];
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 1; k < g->n && g->rpo[k] >= 0; k++) {
            int b = g->rpo[k], nd = -1;
            for (int i = 0; i < g->npred[b]; i++) {
                int p = g->pred[b][i];
                if (g->order[p] < 0 || g->idom[p] < 0)
                    continue;
                nd = nd < 0 ? p : intersect(g, p, nd);
            }
            if (nd != g->idom[b]) {
                g->idom[b] = nd;
                changed = true;
            }
        }
    }
}

static int fgraph_build(fgraph *g, LLVMValueRef fn)
{
    memset(g, 0, sizeof *g);
    g->n = (int)LLVMCountBasicBlocks(fn);
    size_t n = (size_t)g->n + 1;
    g->bb = calloc(n, sizeof *g->bb);
    g->npred = calloc(n, sizeof *g->npred);
    g->pred = calloc(n, sizeof *g->pred);
    g->rpo = calloc(n, sizeof *g->rpo);
    g->order = calloc(n, sizeof *g->order);
    g->idom = calloc(n, sizeof *g->idom);
    bool *seen = calloc(n, sizeof *seen);
    int *post = calloc(n, sizeof *post);
    if (!g->bb || !g->npred || !g->pred || !g->rpo || !g->order || !g->idom ||
        !seen || !post) {
        free(seen);
        free(post);
        return -1;
    }
    LLVMGetBasicBlocks(fn, g->bb);
    bool ok = true;
    for (int b = 0; b < g->n; b++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[b]);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned s = 0; s < ns; s++) {
            int c = index_of(g, LLVMGetSuccessor(t, s));
            if (c >= 0)
                ok &= add_pred(g, c, b);
        }
    }
    if (!ok) {
        free(seen);
        free(post);
        return -1;
    }
    int np = 0;
    dfs(g, 0, seen, post, &np);
    for (int i = 0; i < g->n; i++) {
        g->order[i] = -1;
        g->rpo[i] = -1;
    }
    for (int k = 0; k < np; k++) {
        g->rpo[k] = post[np - 1 - k];
        g->order[g->rpo[k]] = k;
    }
    free(seen);
    free(post);
    dominators(g);
    return 0;
}

static bool dominates(const fgraph *g, int a, int b)
{
    if (g->order[b] < 0)
        return false;
    for (;;) {
        if (a == b)
            return true;
        if (g->idom[b] == b || g->idom[b] < 0)
            return false;
        b = g->idom[b];
    }
}

LLVMValueRef cg__ex_incoming(LLVMValueRef phi, LLVMBasicBlockRef from)
{
    unsigned n = LLVMCountIncoming(phi);
    for (unsigned i = 0; i < n; i++)
        if (LLVMGetIncomingBlock(phi, i) == from)
            return LLVMGetIncomingValue(phi, i);
    return NULL;
}

LLVMBasicBlockRef cg__ex_preheader(const cg__ex_loop *l, int *n)
{
    LLVMBasicBlockRef pre = NULL;
    *n = 0;
    for (LLVMBasicBlockRef c = LLVMGetFirstBasicBlock(l->fn); c;
         c = LLVMGetNextBasicBlock(c)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(c);
        unsigned ns = t && c != l->header ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned s = 0; s < ns; s++)
            if (LLVMGetSuccessor(t, s) == l->header) {
                (*n)++;
                pre = c;
            }
    }
    return pre;
}

bool cg__ex_in_loop(const cg__ex_loop *l, LLVMBasicBlockRef b)
{
    for (int i = 0; i < l->nblocks; i++)
        if (l->blocks[i] == b)
            return true;
    return false;
}

/* Line, column and end line of the !llvm.loop of branch t, if any; -1
 * when out of memory. */
static int loop_location(cg_extract_prog *x, LLVMValueRef t, cg__ex_loop *l)
{
    unsigned kind = LLVMGetMDKindIDInContext(x->ctx, "llvm.loop", 9);
    LLVMValueRef md = LLVMGetMetadata(t, kind);
    if (!md)
        return 0;
    unsigned n = LLVMGetMDNodeNumOperands(md);
    LLVMValueRef *ops = calloc(n + 1, sizeof *ops);
    if (!ops)
        return -1;
    LLVMGetMDNodeOperands(md, ops);
    int seen = 0;
    for (unsigned i = 1; i < n && seen < 2; i++) {
        if (!ops[i])
            continue;
        LLVMMetadataRef m = LLVMValueAsMetadata(ops[i]);
        if (!m || LLVMGetMetadataKind(m) != LLVMDILocationMetadataKind)
            continue;
        if (seen++ == 0) {
            l->line = (int)LLVMDILocationGetLine(m);
            l->col = (int)LLVMDILocationGetColumn(m);
        } else {
            l->end_line = (int)LLVMDILocationGetLine(m);
        }
    }
    free(ops);
    return 0;
}

/* The natural loop with header h (all its back edges together). */
static int natural_loop(cg_extract_prog *x, const fgraph *g, int h,
                        cg__ex_loop *l)
{
    bool *in = calloc((size_t)g->n, sizeof *in);
    int *stack = calloc((size_t)g->n + 1, sizeof *stack);
    if (!in || !stack) {
        free(in);
        free(stack);
        return -1;
    }
    int sp = 0;
    in[h] = true;
    for (int i = 0; i < g->npred[h]; i++) {
        int t = g->pred[h][i];
        if (!dominates(g, h, t))
            continue;
        if (loop_location(x, LLVMGetBasicBlockTerminator(g->bb[t]), l)) {
            free(in);
            free(stack);
            return -1;
        }
        if (!in[t]) {
            in[t] = true;
            stack[sp++] = t;
        }
    }
    while (sp > 0) {
        int b = stack[--sp];
        for (int i = 0; i < g->npred[b]; i++) {
            int p = g->pred[b][i];
            if (!in[p] && g->order[p] >= 0) {
                in[p] = true;
                stack[sp++] = p;
            }
        }
    }
    l->header = g->bb[h];
    l->blocks = calloc((size_t)g->n, sizeof *l->blocks);
    if (l->blocks) {
        l->blocks[l->nblocks++] = g->bb[h];
        for (int b = 0; b < g->n; b++)
            if (in[b] && b != h)
                l->blocks[l->nblocks++] = g->bb[b];
    }
    free(in);
    free(stack);
    return l->blocks ? 0 : -1;
}

static bool is_header(const fgraph *g, int h)
{
    for (int i = 0; i < g->npred[h]; i++)
        if (dominates(g, h, g->pred[h][i]))
            return true;
    return false;
}

static int function_loops(cg_extract_prog *x, LLVMValueRef fn)
{
    fgraph g;
    int rc = fgraph_build(&g, fn);
    for (int h = 0; rc == 0 && h < g.n; h++) {
        if (g.order[h] < 0 || !is_header(&g, h))
            continue;
        cg__ex_loop *a = realloc(x->loops, (size_t)(x->nloops + 1) * sizeof *a);
        if (!a) {
            rc = -1;
            break;
        }
        x->loops = a;
        cg__ex_loop *l = &a[x->nloops];
        memset(l, 0, sizeof *l);
        l->fn = fn;
        l->parent = -1;
        rc = natural_loop(x, &g, h, l);
        x->nloops++;
    }
    fgraph_free(&g);
    return rc;
}

/* Innermost enclosing loop: the smallest other loop holding the header. */
static void parents(cg_extract_prog *x)
{
    for (int i = 0; i < x->nloops; i++) {
        cg__ex_loop *l = &x->loops[i];
        for (int j = 0; j < x->nloops; j++) {
            cg__ex_loop *o = &x->loops[j];
            if (j == i || o->fn != l->fn || o->nblocks <= l->nblocks ||
                !cg__ex_in_loop(o, l->header))
                continue;
            if (l->parent < 0 || o->nblocks < x->loops[l->parent].nblocks)
                l->parent = j;
        }
    }
}

int cg__ex_find_loops(cg_extract_prog *x, cg_diags *d)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(x->mod); fn;
         fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        if (function_loops(x, fn)) {
            cg_diags_add(d, CG_SEV_ERROR, x->path, 0, "out of memory");
            return -1;
        }
    }
    parents(x);
    return 0;
}

/* Does source line `line` (comments after // ignored) hold a loop keyword? */
static bool loop_keyword(const char *src, int line)
{
    const char *p = src;
    for (int l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    if (!p)
        return false;
    const char *end = strchr(p, '\n'), *cmt = strstr(p, "//");
    if (!end)
        end = p + strlen(p);
    if (cmt && cmt < end)
        end = cmt;
    static const char *const kw[] = {"for", "while", "do"};
    for (const char *q = p; q < end; q++) {
        if (q > p && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
            continue;
        for (size_t k = 0; k < sizeof kw / sizeof *kw; k++) {
            size_t n = strlen(kw[k]);
            if (q + n <= end && !strncmp(q, kw[k], n) &&
                (q + n == end || (!isalnum((unsigned char)q[n]) && q[n] != '_')))
                return true;
        }
    }
    return false;
}

/* Other loops start on the line of loop best, the one tag t names (the
 * later column wins): say so, naming the columns, rather than take the
 * last one silently. */
static void shared_line(const cg_extract_prog *x, const cg__ex_tag *t,
                        int best, cg_diags *d)
{
    const cg__ex_loop *b = &x->loops[best];
    char cols[256] = "";
    int n = 0;
    size_t k = 0;
    for (int i = 0; i < x->nloops; i++) {
        const cg__ex_loop *l = &x->loops[i];
        bool seen = false; /* copies of a loop share line and column */
        for (int j = 0; j < i && !seen; j++)
            seen = x->loops[j].line == l->line && x->loops[j].col == l->col;
        if (seen || l->line != b->line || l->col == b->col ||
            (l->end_line > 0 && l->end_line < t->line))
            continue;
        n++;
        if (k < sizeof cols - 16)
            k += (size_t)snprintf(cols + k, sizeof cols - k, "%d, ", l->col);
    }
    if (n)
        cg_diags_add(d, CG_SEV_WARNING, x->path, t->line, "loop tag '%s': "
                     "%d loops start on line %d (columns %s%d); the tag "
                     "names the last one, at column %d; put each loop on a "
                     "line of its own to tag another", t->name, n + 1,
                     b->line, cols, b->col, b->col);
}

/* The loop whose keyword is the nearest at or above the tag line and whose
 * span holds the tag; the later column wins on a shared line (a warning
 * names the others). */
int cg__ex_match_tag(const cg_extract_prog *x, const cg__ex_tag *t,
                     cg_diags *d)
{
    int best = -1, ties = 0;
    for (int i = 0; i < x->nloops; i++) {
        const cg__ex_loop *l = &x->loops[i];
        if (l->line <= 0 || l->line > t->line ||
            (l->end_line > 0 && l->end_line < t->line))
            continue;
        const cg__ex_loop *b = best >= 0 ? &x->loops[best] : NULL;
        if (b && b->line == l->line && b->col == l->col) {
            ties++;
        } else if (!b || l->line > b->line ||
                   (l->line == b->line && l->col > b->col)) {
            best = i;
            ties = 0;
        }
    }
    if (best < 0) {
        cg_diags_add(d, CG_SEV_ERROR, x->path, t->line, "loop '%s' not "
                     "found: no loop of the optimized code spans this line "
                     "(the optimizer removed or fully unrolled it, or the "
                     "tag is not inside a loop)", t->name);
        return -2;
    }
    for (int ln = x->loops[best].line + 1; x->src && ln <= t->line; ln++)
        if (loop_keyword(x->src, ln)) {
            cg_diags_add(d, CG_SEV_ERROR, x->path, t->line, "loop '%s' not "
                         "found: the loop at line %d is gone from the "
                         "optimized code (fully unrolled, replaced by a "
                         "formula or removed); the nearest remaining loop "
                         "starts at line %d", t->name, ln,
                         x->loops[best].line);
            return -2;
        }
    if (ties) {
        cg_diags_add(d, CG_SEV_ERROR, x->path, t->line, "loop '%s' exists %d "
                     "times in the optimized code (its function was "
                     "inlined); mark the function noinline", t->name,
                     ties + 1);
        return -1;
    }
    shared_line(x, t, best, d);
    return best;
}
