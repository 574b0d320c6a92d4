/* extract_internal.h: what the extractor's files share.  A cg_extract_prog
 * is one compiled C file: its LLVM module, the //DFGLOOP tags of its source,
 * the natural loops of its functions, the memory layout of its globals, and
 * a record of each extracted loop that the native run (extract_run.c) needs
 * to find the loop's live-ins and live-outs again in a clone of the module.
 */
#ifndef CG_EXTRACT_INTERNAL_H
#define CG_EXTRACT_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "extract.h"

/* A //DFGLOOP tag of the source. */
typedef struct cg__ex_tag {
    char *name;
    int line;
} cg__ex_tag;

/* A natural loop of some function. */
typedef struct cg__ex_loop {
    LLVMValueRef fn;
    LLVMBasicBlockRef header;
    int nblocks;
    LLVMBasicBlockRef *blocks;  /* header first */
    int line, col, end_line;    /* !llvm.loop locations, 0 when unknown */
    int parent;                 /* innermost enclosing loop, -1 none */
} cg__ex_loop;

/* Where a live-in or live-out of an extracted loop lives in the module, by
 * position, so that the same value can be found in a clone. */
typedef enum cg__ex_where {
    CG__EX_ARG,      /* argument idx of the function */
    CG__EX_INST,     /* instruction idx of block bb */
    CG__EX_CONST     /* a known constant (the exit condition) */
} cg__ex_where;

typedef struct cg__ex_probe {
    int node;           /* input/output node of the DFG */
    cg__ex_where where;
    int bb, idx;
    bool is_ptr;        /* pointer: translated to the layout's addresses */
    int width;
    uint64_t value;     /* CG__EX_CONST */
    int stack1;         /* 1 + the layout entry of the stack array whose
                           alloca this live-in is, 0 when none */
} cg__ex_probe;

/* An extracted loop as the native run needs it. */
typedef struct cg__ex_done {
    char *tag;
    char *fn;           /* function holding the loop */
    int header;         /* block index of the (single-block) loop body */
    int preheader;      /* block index of the preheader */
    int exit;           /* block index of the exit block */
    int nnodes;
    int nin, nout;
    cg__ex_probe *in, *out;
} cg__ex_done;

struct cg_extract_prog {
    char *path;
    char *src;                  /* the C source text */
    char *cflags;
    cg_extract_params params;   /* cflags points at the copy above */
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMTargetDataRef td;       /* owned by mod */
    int ntags;
    cg__ex_tag *tags;
    bool bad_tags;   /* a tag was refused (said in d): the others stand,
                        and cg_extract_file fails in the end */
    int nglobals;
    cg_extract_global *globals;
    LLVMValueRef *gvs;          /* the LLVM global of each layout entry */
    uint64_t mem_base, mem_size;
    int nloops;
    cg__ex_loop *loops;
    int ndone;
    cg__ex_done *done;
};

/* extract_prog.c */
char *cg__ex_strdup(const char *s);
int cg__ex_global_index(const cg_extract_prog *x, LLVMValueRef gv);
int cg__ex_type_bits(const cg_extract_prog *x, LLVMTypeRef t);

/* extract_loops.c: natural loops of every function, with their tags' lines */
int cg__ex_find_loops(cg_extract_prog *x, cg_diags *d);
bool cg__ex_in_loop(const cg__ex_loop *l, LLVMBasicBlockRef b);
/* The block outside l that enters its header (the last one found), and
 * in *n how many do (one for a loop with a preheader). */
LLVMBasicBlockRef cg__ex_preheader(const cg__ex_loop *l, int *n);
/* The value phi takes when entered from block from, NULL when from is
 * not one of its predecessors (extract_loops.c). */
LLVMValueRef cg__ex_incoming(LLVMValueRef phi, LLVMBasicBlockRef from);
/* The loop a tag names; with an error, -2 when the optimized code has no
 * loop there (removed, unrolled, folded) and -1 otherwise. */
int cg__ex_match_tag(const cg_extract_prog *x, const cg__ex_tag *t,
                     cg_diags *d);
int cg__ex_block_index(LLVMValueRef fn, LLVMBasicBlockRef b);
LLVMBasicBlockRef cg__ex_block_at(LLVMValueRef fn, int idx);
int cg__ex_inst_index(LLVMValueRef inst);

/* extract_hoist.c: with params.hoist, split each GEP of a single-block
 * loop body whose base and leading indices are loop-invariant into a
 * preheader GEP (a live-in) and the access from it.  0, or -1 when out of
 * memory (error in d). */
int cg__ex_hoist(cg_extract_prog *x, cg_diags *d);

/* extract_build.c */
cg_dfg *cg__ex_build(cg_extract_prog *x, const cg__ex_tag *t, int loop,
                     cg_diags *d);

/* extract_nest.c: induction variables, trip counts and the nest record */
typedef struct cg__ex_iv {
    bool ok;
    LLVMValueRef phi;           /* the counter */
    int64_t start, step;
    bool start_known;
    int64_t trip;               /* -1 unknown or symbolic */
    char *trip_sym;             /* malloc'd, NULL when none */
    bool trip_in_memory;        /* trip_sym: a global read for the count */
} cg__ex_iv;
cg_nest *cg__ex_nest(const cg_extract_prog *x, int loop, const cg_dfg *g,
                     LLVMValueRef const *node_values);

/* extract_narrow.c: narrow g's nodes wider than x->params.addr_width to it
 * where exact (g's nest attached; node_values: each load/store's LLVM
 * instruction); a warning per group kept wide, naming an op and why. */
void cg__ex_narrow(const cg_extract_prog *x, cg_dfg *g,
                   LLVMValueRef const *node_values, cg_diags *d);

#endif
