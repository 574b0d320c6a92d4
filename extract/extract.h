/* extract.h: the LLVM 16 C-API loop extractor (//DFGLOOP tags -> DFGs) and
 * the native run used to prove extracted DFGs right.
 *
 * A C file is compiled once by clang-16 into a cg_extract_prog; each tagged
 * loop of it is then extracted into a DFG (cg_extract_loop) and can be run
 * natively (cg_extract_run) to check the DFG, the tiler or the simulator
 * against the real code.  docs/dfg.md (## Extractor) states the rules.
 *
 * Memory layout: every global variable defined in the file gets a fixed
 * byte address (cg_extract_global).  Extracted DFGs compute addresses in
 * that layout: a const node with sym = G holds an address inside global G.
 *
 * Kernel convention: the function holding a tagged loop is the kernel.  Its
 * parameters must be integers; the native run passes each the value of the
 * symbol of the same name (cg_extract_params.syms).  A parameter with no
 * symbol gets 0 (with a note) when neither the loop nor a loop around it
 * uses it; otherwise the run fails naming the parameter.  Arrays are
 * globals, never parameters.
 */
#ifndef CG_EXTRACT_H
#define CG_EXTRACT_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/diag.h"
#include "../dfg/dfg.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CG_EXTRACT_MAX_SYMS 16

typedef struct cg_extract_sym {
    const char *name;   /* symbolic trip count or live-in name */
    int64_t value;
} cg_extract_sym;

typedef struct cg_extract_params {
    const char *cflags;      /* extra clang flags, space separated, or NULL */
    bool phi_removal;        /* recurrences become back edges (default) */
    bool leaf_removal;       /* drop dead leaves (default) */
    bool hoist;              /* the loop-invariant part of an address
                                (&A[i] of A[i][j] in a loop on j) is
                                computed before the loop and enters as a
                                live-in (default) */
    bool keep_exit_values;   /* clang keeps values used after the loop
                                computed in it (-mllvm -replexitval=never),
                                so a loop like s += i is not folded to a
                                formula and removed; default off */
    bool array_control;      /* CGRA-ME's shape: loop control is left to
                                the array's controller, so the DFG has no
                                exit compare (no loop_exit output, nor what
                                only it needs); default off */
    int addr_width;          /* bits of the array's addresses (default 32):
                                index arithmetic, loop counters and address
                                constants are narrowed to it where exact,
                                with a warning where not (docs/dfg.md);
                                64 keeps LLVM's widths */
    int nsyms;
    cg_extract_sym syms[CG_EXTRACT_MAX_SYMS];
} cg_extract_params;

/* Defaults: no cflags, phi_removal, leaf_removal and hoist on, array_control
 * off, address width 32, no symbols. */
void cg_extract_params_init(cg_extract_params *p);

/* Extract every //DFGLOOP-tagged loop of c_path (loop_tag NULL) or only the
 * one named loop_tag.  *out receives *n graphs (caller destroys each and
 * frees the array).  A loop that cannot be extracted adds an error naming
 * file:line and the reason and does not stop the others.  Returns 0 when
 * every requested loop extracted, -1 otherwise (the good ones still in *out).
 */
int cg_extract_file(const char *c_path, const char *loop_tag,
                    const cg_extract_params *p, cg_dfg ***out, int *n,
                    cg_diags *d);

/* ---- benchmark folders (CGRA-ME style) -------------------------------- */

/* The variables of a benchmark folder's Makefile (NULL when not set). */
typedef struct cg_extract_makefile {
    char *loop_tags;    /* LOOP_TAGS: tags to extract, space separated */
    char *dfg_flags;    /* DFG_FLAGS: see cg_extract_params_parse */
    char *cflags;       /* CFLAGS: extra clang flags */
} cg_extract_makefile;

/* Read LOOP_TAGS, DFG_FLAGS and CFLAGS from the Makefile at path as make
 * would: includes followed (relative to its folder), =, :=, ::=, ?=, +=,
 * "\" continuations, # comments, $(VAR) expanded; DFG_FLAGS's -loop-tags
 * 'TAGS' (CGRA-ME's rules.mk) moves to loop_tags, and every other flag is
 * checked at the file:line that wrote it.  docs/dfg.md has the rules. */
int cg_extract_makefile_read(const char *path, cg_extract_makefile *m,
                             cg_diags *d);
void cg_extract_makefile_free(cg_extract_makefile *m);
/* Apply DFG flags to p: -no-phi-removal, -no-leaf-removal (CGRA-ME's
 * spellings, -- also accepted), --sym NAME=VALUE or --sym=NAME=VALUE.
 * flags is cut in place and must outlive p (symbol names point into it).
 * Errors name file. */
int cg_extract_params_parse(cg_extract_params *p, char *flags,
                            const char *file, cg_diags *d);

/* ---- step by step: the compiled file, its loops, its native run ------- */

typedef struct cg_extract_prog cg_extract_prog;

/* Compile c_path with clang-16 (the flags of docs/dfg.md + p->cflags),
 * load the module, read the //DFGLOOP tags and find the loops.  NULL with
 * errors (clang's messages as notes) on failure.  p is copied. */
cg_extract_prog *cg_extract_open(const char *c_path,
                                 const cg_extract_params *p, cg_diags *d);
void cg_extract_close(cg_extract_prog *x);          /* accepts NULL */
/* The parameters x was opened with (its copy). */
const cg_extract_params *cg_extract_prog_params(const cg_extract_prog *x);
int cg_extract_ntags(const cg_extract_prog *x);
const char *cg_extract_tag(const cg_extract_prog *x, int i);
int cg_extract_tag_line(const cg_extract_prog *x, int i);
/* The DFG of the loop tagged tag (its nest attached), NULL with an error
 * naming file:line and the reason. */
cg_dfg *cg_extract_loop(cg_extract_prog *x, const char *tag, cg_diags *d);
/* Whether tag names a loop the optimized code no longer has (removed,
 * fully unrolled or folded to a formula): cg_extract_loop's "not found". */
bool cg_extract_loop_gone(const cg_extract_prog *x, const char *tag);

/* One global of the memory layout. */
typedef struct cg_extract_global {
    const char *name;
    uint64_t base;      /* byte address */
    uint64_t bytes;
    bool is_const;      /* read-only: keeps its initializer in native runs */
    bool is_ptr;        /* a pointer or an array of pointers: each 8-byte
                           slot holds an address of the layout (translated
                           to and from the host's in native runs) */
    bool is_stack;      /* not a global: an array on a function's stack
                           (name "function.array"), placed after the
                           globals so that a loop reading it can be
                           verified; the native run copies the frame's
                           bytes in at each entry of the loop */
    bool is_buffer;     /* not a global: the seeded buffer a null pointer
                           global P points at in native runs (name "*P",
                           placed last), as CGRA-ME's kernels read through
                           pointers that nothing in the file sets */
    bool is_value;      /* is_buffer whose pointer the code only reads
                           through as a scalar (int n = *N): it holds
                           value, not random bytes */
    int64_t value;      /* is_value: the symbol P's value (--sym P=V), or
                           CG_EXTRACT_PTR_VALUE */
    bool assumed;       /* is_value without a symbol: the default */
} cg_extract_global;

/* The value read through a null pointer global the code reads only as a
 * scalar (int n = *N in CGRA-ME's kernels) when no --sym N=V gives one:
 * small, so that a trip count taken from it stays small. */
#define CG_EXTRACT_PTR_VALUE 16
/* The value the native run passes for a kernel parameter the loop (or a
 * loop around it) uses when no --sym gives one (CGRA-ME's matrixmultiply
 * takes its row and column as parameters): the same small default, named
 * in the run's note. */
#define CG_EXTRACT_PARAM_VALUE CG_EXTRACT_PTR_VALUE
/* The bytes of the buffer of a null pointer global read as an array:
 * 4096, or 8 x (V + 64) when the largest value V read through a scalar
 * pointer needs more (--sym N=100000 gives 800,512 bytes). */
uint64_t cg_extract_buffer_bytes(int64_t largest_value);

int cg_extract_nglobals(const cg_extract_prog *x);
const cg_extract_global *cg_extract_global_get(const cg_extract_prog *x,
                                               int i);
/* Index of the global called name, -1 when none. */
int cg_extract_global_find(const cg_extract_prog *x, const char *name);
/* A zeroed image covering every global (mem->data malloc'd, caller frees).
 * Returns -1 when out of memory. */
int cg_extract_image(const cg_extract_prog *x, cg_mem *mem);

/* Fill every writable global of mem (an image from cg_extract_image) with
 * pseudo-random bytes from seed, the same on every machine; read-only
 * globals are left alone (the native run gives them their initializers).
 * A pointer global (is_ptr) gets a valid target instead of random bytes:
 * a null one (no initializer) its own buffer (is_buffer: random bytes, or
 * its value when is_value); any other each slot the address of the
 * largest writable global that is not a pointer (0 when there is none),
 * so that a kernel reading through it runs. */
void cg_extract_fill_random(const cg_extract_prog *x, cg_mem *mem,
                            uint64_t seed);

/* One execution of the tagged loop seen by the native run: memory and
 * live-ins when it was entered, memory and live-outs when it exited. */
typedef struct cg_extract_instance {
    int64_t index;            /* 0 for the first execution of the loop */
    int64_t iters;            /* iterations it ran */
    const cg_mem *before;     /* image at entry (layout addresses) */
    const cg_mem *after;      /* image at exit */
    const uint64_t *inputs;   /* by DFG node id: value of each input node */
    const uint64_t *outputs;  /* by DFG node id: value of each output node
                                 after the last iteration */
} cg_extract_instance;

/* Called at each exit of the loop; everything it gets lives until it
 * returns. */
typedef void (*cg_extract_probe_fn)(void *arg,
                                    const cg_extract_instance *in);

/* Run the kernel holding the loop tagged tag natively (LLVM MCJIT) on mem:
 * the writable globals start with mem's bytes, read-only globals keep
 * their initializers (and mem receives them); afterwards mem holds the
 * final bytes of every global.  probe (may be NULL) sees every execution
 * of the loop, with inputs/outputs indexed by the node ids of the DFG that
 * cg_extract_loop returned for tag (extract it first).  Kernel parameters
 * take the values of p->syms of the same name (0 for one the loop does not
 * use: see the kernel convention above).  *ninstances (may be NULL)
 * receives the number of executions.  Returns 0, or -1 with an error. */
int cg_extract_run(cg_extract_prog *x, const char *tag, cg_mem *mem,
                   cg_extract_probe_fn probe, void *arg, int64_t *ninstances,
                   cg_diags *d);

/* The trip count of the tagged loop as recorded in its nest, with the
 * symbol values of p substituted; -1 when unknown. */
int64_t cg_extract_trip(const cg_dfg *g);

#ifdef __cplusplus
}
#endif

#endif
