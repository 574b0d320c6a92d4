/* tile.h: the tiling stage of cgramap.
 *
 * A loop nest (cg_nest, filled by the extractor) whose arrays do not fit the
 * tile memory is split into tiles.  The stage works in four layers, each
 * usable on its own:
 *
 *   model      the nest normalised: trip counts, every access as an affine
 *              map from iteration numbers to array element indices per
 *              array dimension; footprints (boxes) of a tile follow.
 *   plan       tile sizes, tile-loop order, which arrays are resident and
 *              which are streamed (double-buffered), buffer placement in the
 *              tile memory, traffic and its lower bound.
 *   program    the DMA descriptors of every tile in issue order, lowered to
 *              the DMA limits, interleaved with the compute steps.
 *   schedule   the double-buffered timeline of the program: total cycles,
 *              DMA stalls, bytes per array.
 *
 * Iteration numbers: loop l runs k_l = 0 .. trip_l-1 with counter
 * start_l + step_l * k_l.  Everything below (tile origins, tile sizes) is in
 * iteration numbers, loops indexed from the outermost (0).
 *
 * Errors never abort: failing calls return NULL or -1 with an entry in
 * cg_diags that names the array, node, loop and values involved.
 */
#ifndef CG_TILE_H
#define CG_TILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../arch/arch.h"
#include "../common/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* From dfg/dfg.h (the loop nest record and memory images). */
typedef struct cg_nest cg_nest;
typedef struct cg_mem cg_mem;

#define CG_TILE_MAX_LOOPS 8 /* CG_NEST_MAX_LOOPS */
#define CG_TILE_MAX_DIMS 8
/* What a plan handles; past each, planning is an error naming the limit. */
#define CG_TILE_MAX_ARRAYS 64   /* arrays of one nest */
#define CG_TILE_MAX_BANKS 64    /* banks of the tile memory (a bit each in
                                   cg_tile_target.bank_mask) */
#define CG_TILE_MAX_CHANNELS 64 /* DMA channels the schedule models */

/* ---- the target: tile memory and DMA ----------------------------------- */

/* What the tiler needs to know about an architecture.  Filled from a netlist
 * by cg_tile_target_from_netlist(), or by hand (tests, perf). */
typedef struct cg_tile_target {
    const char *memory;  /* tile memory name (messages), borrowed */
    int64_t mem_bytes;   /* capacity used for buffers */
    int banks;           /* banks, each mem_bytes / banks bytes, contiguous:
                            bank b holds addresses [b*B, (b+1)*B) */
    bool any_bank;       /* some MEMUnit reaches every bank: a buffer may
                            lie anywhere, across bank borders */
    uint64_t bank_mask;  /* bit b: some MEMUnit reaches bank b */
    cg_dma_params dma;
    cg_loc mem_loc, dma_loc; /* where the memory and the DMA engine are
                                declared (file NULL: unknown), for the
                                plan's messages about them */
} cg_tile_target;

/* The memory named `memory` (NULL: the only one, or the first one reached by
 * a MEMUnit).  mem_bytes > 0 overrides the declared capacity.  Fails when the
 * architecture declares no tile memory, the name is unknown, or no MEMUnit
 * reaches it; a missing DMA engine is a warning (defaults of
 * cg_dma_params_init are used). */
int cg_tile_target_from_netlist(const cg_netlist *nl, const char *memory,
                                int64_t mem_bytes, cg_tile_target *t,
                                cg_diags *d);

/* ---- the model ------------------------------------------------------------ */

typedef struct cg_tile_model cg_tile_model;

typedef struct cg_tile_array_info {
    const char *name;
    int64_t base;        /* byte address in external memory */
    int64_t bytes;
    int elem_size;
    int ndims;           /* dimensions of the view used (below) */
    int64_t dims[CG_TILE_MAX_DIMS];   /* outermost first */
    bool flat;           /* the declared dimensions could not describe some
                            access: the array is seen as 1-D */
    bool read, written;
    bool load;           /* tiles read it in: it is read, or written in a
                            pattern that does not cover the whole box */
    uint32_t loops;      /* bit l: some index depends on loop l */
    bool exact[CG_TILE_MAX_DIMS]; /* every access has the same coefficients
                            in dimension d, so box extents do not depend on
                            the tile's position */
    /* The view the tiler works in (accesses, boxes, buffers): view index c
     * of dimension d is array index first[d] + step[d] * c, 0 <= c <
     * vdims[d].  step[d] > 1 when every access of the array touches only
     * every step-th element of dimension d (a strided access): buffers and
     * transfers then hold and move only those elements. */
    int64_t step[CG_TILE_MAX_DIMS];
    int64_t first[CG_TILE_MAX_DIMS];
    int64_t vdims[CG_TILE_MAX_DIMS];
} cg_tile_array_info;

typedef struct cg_tile_access_info {
    int node;            /* DFG load/store node */
    bool is_store;
    int array;
    /* view index (see cg_tile_array_info) in dimension d =
     * cst[d] + sum_l coef[d][l] * k_l */
    int64_t cst[CG_TILE_MAX_DIMS];
    int64_t coef[CG_TILE_MAX_DIMS][CG_TILE_MAX_LOOPS];
} cg_tile_access_info;

/* An axis-aligned box of an array's view: dimension d covers view indices
 * lo[d] .. lo[d]+size[d]-1. */
typedef struct cg_tile_box {
    int ndims;
    int64_t lo[CG_TILE_MAX_DIMS];
    int64_t size[CG_TILE_MAX_DIMS];
} cg_tile_box;

/* Normalise a nest.  `file` names the source in messages (may be NULL).
 * Errors: a symbolic or empty trip count, an access that is not affine or
 * names no array, an index not a multiple of the element size, an access
 * outside its array, and a written array that is also accessed through a
 * different index (tiling would reorder those accesses). */
cg_tile_model *cg_tile_model_build(const cg_nest *n, const char *file,
                                   cg_diags *d);
void cg_tile_model_destroy(cg_tile_model *m); /* accepts NULL */

/* The index in n->accesses of an access that leaves its array within the
 * loop bounds (the first the model finds), or -1 when there is none or the
 * nest cannot be modelled up to that check.  In C such an access is
 * undefined behaviour: the native run is then no reference for the loop. */
int cg_tile_access_outside(const cg_nest *n);

int cg_tile_model_nloops(const cg_tile_model *m);
int64_t cg_tile_model_trip(const cg_tile_model *m, int loop);
int cg_tile_model_narrays(const cg_tile_model *m);
const cg_tile_array_info *cg_tile_model_array(const cg_tile_model *m, int a);
int cg_tile_model_naccesses(const cg_tile_model *m);
const cg_tile_access_info *cg_tile_model_access(const cg_tile_model *m,
                                                int i);
/* Keep the tagged (last) loop whole: set when its body carries values
 * between iterations that a split would cut. */
void cg_tile_model_keep_inner(cg_tile_model *m, bool keep);
bool cg_tile_model_inner_kept(const cg_tile_model *m);

/* Box of elements of array a touched by the tile whose loop l covers
 * iterations origin[l] .. origin[l]+size[l]-1. */
void cg_tile_footprint(const cg_tile_model *m, int a, const int64_t *origin,
                       const int64_t *size, cg_tile_box *box);
/* Extents of the buffer that holds array a for any tile of these sizes
 * (the exact extent in exact dimensions, the whole nest's extent in the
 * others); returns the element count. */
int64_t cg_tile_capacity(const cg_tile_model *m, int a, const int64_t *size,
                         int64_t *extent);

/* ---- the plan ------------------------------------------------------------- */

/* The tile search's effort (select.c, bound.c; docs/tiling.md "Tile
 * selection").  Per loop the search first takes a coarse grid of its
 * balanced sizes: all of them when there are at most coarse_keep, else
 * consecutive ones at least coarse_step apart (a ratio).  Every order
 * whose coarse optimum moves at most refine_within times the best
 * traffic is then refined on a window of sizes around it, window_radius
 * sizes either side, halved until the window holds at most window_combos
 * combinations.  Every tile-loop order is tried up to all_orders_upto
 * loops (else each loop innermost once).  The halo bound relaxes every
 * order up to bound_orders_upto loops on a geometric grid of
 * bound_grid[L - 2] points per loop for L = 2, 3, 4 and more loops, with
 * bound_bisect bisection steps on the longest loop. */
typedef struct cg_tile_search_params {
    int coarse_keep;       /* 0 to 1000 */
    double coarse_step;    /* 1 to 1000 */
    int window_radius;     /* 1 to 1000 */
    int window_combos;     /* 1 to 1000000 */
    double refine_within;  /* 1 to 1000 */
    int all_orders_upto;   /* 1 to CG_TILE_MAX_ORDER_LOOPS */
    int bound_orders_upto; /* 1 to CG_TILE_MAX_ORDER_LOOPS */
    int bound_bisect;      /* 0 to 200 */
    int bound_grid[4];     /* 1 to 1000 each */
} cg_tile_search_params;

/* Every order of up to this many tile loops may be tried: 5! = 120. */
#define CG_TILE_MAX_ORDER_LOOPS 5

typedef struct cg_tile_params {
    const char *memory;  /* tile memory to tile for, NULL: see
                            cg_tile_target_from_netlist */
    int64_t mem_bytes;   /* > 0: use this capacity instead (--mem) */
    int ii;              /* II assumed for compute time (>= 1) */
    int depth;           /* pipeline depth in cycles assumed per inner-loop
                            run (>= 0) */
    bool search_orders;  /* try every tile-loop order (else keep the nest's
                            order and only choose sizes) */
    cg_tile_search_params search; /* the search's effort */
} cg_tile_params;
/* memory NULL, mem_bytes 0, ii 1, depth 8, orders on; the search: coarse
 * grids keep up to 12 sizes, else steps of 1.25x; windows of radius 32
 * and at most 4096 combinations; orders refined within 1.25x of the best;
 * every order up to 5 loops; the halo bound over every order up to 4
 * loops, grids of 400, 60, 16 and 6 points, 48 bisection steps. */
void cg_tile_params_init(cg_tile_params *p);
/* The search fields above in their ranges: 0, or -1 with one error per
 * field out of range, at file (NULL = none), naming it.
 * cg_tile_plan_model checks first. */
int cg_tile_params_check(const cg_tile_params *p, const char *file,
                         cg_diags *d);

typedef enum cg_tile_bound_kind {
    CG_TILE_BOUND_COMPULSORY, /* every element in once, out once */
    CG_TILE_BOUND_GEMM,       /* max(2mnk/sqrt(M) - 2M, compulsory) */
    CG_TILE_BOUND_HALO        /* compulsory + halo of the continuous optimum */
} cg_tile_bound_kind;
const char *cg_tile_bound_name(cg_tile_bound_kind k);

typedef struct cg_tile_buffer {
    int nbuf;            /* 2 streamed, 1 resident or whole */
    bool streamed;       /* its box changes with every tile */
    int64_t bytes;       /* one buffer */
    int64_t addr[2];     /* tile-memory byte address of each buffer */
    int bank;            /* bank holding both buffers, -1: may span banks */
    int64_t extent[CG_TILE_MAX_DIMS]; /* buffer extents, outermost first */
    int64_t in_bytes, out_bytes;      /* moved over the whole run */
    int64_t loads;       /* times its box is brought in (or written out) */
} cg_tile_buffer;

typedef struct cg_tile_summary {
    int nloops;
    int64_t trip[CG_TILE_MAX_LOOPS];
    int64_t size[CG_TILE_MAX_LOOPS];   /* tile size per loop */
    int64_t count[CG_TILE_MAX_LOOPS];  /* tiles along each loop */
    int order[CG_TILE_MAX_LOOPS];      /* tile loops, outermost first */
    int64_t ntiles;
    bool whole;            /* everything fits: one tile, one buffer each */
    int64_t traffic;       /* bytes moved in + out */
    int64_t compulsory;    /* bytes: each element touched in once/out once */
    cg_tile_bound_kind bound_kind;
    double bound;          /* bytes */
    double ratio;          /* traffic / bound */
    int64_t mem_bytes, mem_used;
    double mem_use;        /* mem_used / mem_bytes */
    bool dma_ok;           /* DMA time of a full tile <= its compute time */
    int64_t candidates;    /* tile shapes evaluated */
    double seconds;        /* selection time */
} cg_tile_summary;

typedef struct cg_tile_plan cg_tile_plan;

/* Plan the tiling of a normalised nest on a target.  Fails with a message
 * giving the buffer sizes when not even 1-iteration tiles fit. */
cg_tile_plan *cg_tile_plan_model(const cg_tile_model *m,
                                 const cg_tile_target *t,
                                 const cg_tile_params *p, cg_diags *d);
/* Build the model of nest n (file names the source in messages) and plan
 * it on the tile memory p->memory of nl.  The plan owns the model. */
cg_tile_plan *cg_tile_plan_nest(const cg_nest *n, const char *file,
                                const cg_netlist *nl, const cg_tile_params *p,
                                cg_diags *d);
void cg_tile_plan_destroy(cg_tile_plan *p); /* accepts NULL */

const cg_tile_model *cg_tile_plan_get_model(const cg_tile_plan *p);
const cg_tile_target *cg_tile_plan_target(const cg_tile_plan *p);
const cg_tile_params *cg_tile_plan_params(const cg_tile_plan *p);
const cg_tile_summary *cg_tile_plan_summary(const cg_tile_plan *p);
const cg_tile_buffer *cg_tile_plan_buffer(const cg_tile_plan *p, int array);
/* Tile t (0 .. ntiles-1, in execution order): its origin and sizes. */
void cg_tile_plan_tile(const cg_tile_plan *p, int64_t t, int64_t *origin,
                       int64_t *size);

/* ---- transfers ------------------------------------------------------------- */

#define CG_TILE_DESC_DIMS CG_DMA_MAX_DIMS

typedef enum cg_tile_dir {
    CG_TILE_IN,  /* external memory -> tile memory */
    CG_TILE_OUT  /* tile memory -> external memory */
} cg_tile_dir;

/* One DMA transfer.  Dimension 0 is the innermost.  Element x (one index
 * per dimension) is at ext_base + ext_offset + sum x[d]*ext_stride[d] on the
 * external side and tile_base + tile_offset + sum x[d]*tile_stride[d] in the
 * tile memory.  x[d] < pad_lo[d] or x[d] >= size[d] - pad_hi[d] lies
 * outside the array: an IN writes zeros there, an OUT skips it.  The whole
 * pattern is issued `repeat` times, the r-th time with r*repeat_ext_stride
 * and r*repeat_tile_stride added to the two addresses. */
typedef struct cg_tile_desc {
    cg_tile_dir dir;
    int array;            /* array index in the model, -1 when none */
    int64_t tile;         /* tile it serves, -1 when none */
    int elem_size;        /* bytes per element */
    int ndims;
    int64_t size[CG_TILE_DESC_DIMS];
    int64_t pad_lo[CG_TILE_DESC_DIMS], pad_hi[CG_TILE_DESC_DIMS];
    int64_t ext_base, ext_offset;
    int64_t ext_stride[CG_TILE_DESC_DIMS];   /* bytes, signed */
    int64_t tile_base, tile_offset;
    int64_t tile_stride[CG_TILE_DESC_DIMS];  /* bytes, signed */
    int64_t repeat;
    int64_t repeat_ext_stride, repeat_tile_stride;
} cg_tile_desc;

/* A growable list of descriptors. */
typedef struct cg_tile_descs {
    cg_tile_desc *v;
    int n, cap;
} cg_tile_descs;
void cg_tile_descs_free(cg_tile_descs *l); /* frees v, zeroes l */
int cg_tile_descs_push(cg_tile_descs *l, const cg_tile_desc *d);

/* Elements moved per issue (padding included) and external bytes moved in
 * all (padding and repeats accounted). */
int64_t cg_tile_desc_elems(const cg_tile_desc *d);
int64_t cg_tile_desc_ext_bytes(const cg_tile_desc *d);
/* Cycles on one channel: repeat * (setup + ceil(elems*elem/bandwidth));
 * -1 for a bandwidth outside CG_DMA_MIN/MAX_BYTES_PER_CYCLE. */
int64_t cg_tile_desc_cycles(const cg_tile_desc *d, const cg_dma_params *dma);
/* true when d respects dma's dimension count, sizes and strides. */
bool cg_tile_desc_fits(const cg_tile_desc *d, const cg_dma_params *dma);

/* Lower d for dma and append the result to out: dimensions of one element
 * dropped, contiguous dimensions merged, a unit-stride dimension made the
 * innermost, sizes beyond max_size split (by a factor into two dimensions
 * when one divides, else into chunks), strides beyond max_stride and
 * dimensions beyond max_dims peeled into repeats or separate descriptors.
 * Every appended descriptor fits dma, and executing them in any order
 * has the effect of executing d.  -1 with an error when d is malformed,
 * the limits are out of range, or two elements of d share a destination
 * (checked by sorting strides: interleaved patterns are refused too). */
int cg_tile_desc_lower(const cg_tile_desc *d, const cg_dma_params *dma,
                       cg_tile_descs *out, cg_diags *diag);

/* Execute d: copy between the external image and the tile-memory image.
 * -1 with an error naming the address when an access leaves an image. */
int cg_tile_desc_exec(const cg_tile_desc *d, cg_mem *ext, cg_mem *tile,
                      cg_diags *diag);

/* 4D-data-mover-style buffer of one side of v[0..n-1]: word 0 is the entry
 * count, then 9 words per entry: bias (address in elements), then
 * (stride, size) for 4 dimensions, innermost first, strides in elements,
 * negatives in two's complement; unused dimensions and those of size 1
 * are (0, 1).  Repeats and dimensions beyond 4 become separate entries.
 * *buf is malloc'ed.  -1 with an error for padded descriptors or
 * addresses/strides that are not whole elements. */
int cg_tile_desc_export_4d(const cg_tile_desc *v, int n, bool tile_side,
                           uint64_t **buf, size_t *nwords, cg_diags *diag);
/* Readable table, one line per descriptor; array names from m (may be
 * NULL).  0, or -1 on a write error (errno set; as the writers below). */
int cg_tile_desc_write_table(const cg_tile_desc *v, int n,
                             const cg_tile_model *m, FILE *out);

/* ---- the program: transfers and compute steps in order ------------------ */

/* The box of array a that tile t uses and where it lies in the tile memory:
 * element idx of the box is at tile-memory byte address
 * *addr + sum_d (idx[d] - box->lo[d]) * pitch[d] (row-major with the
 * buffer's extents as pitches).  The box is the tile's footprint in the
 * array's exact dimensions and the whole nest's extent in the others (what
 * the plan's traffic counts).  Returns the buffer index (t % 2 for a
 * streamed array, else 0), -1 when no access touches a. */
int cg_tile_plan_layout(const cg_tile_plan *p, int a, int64_t t,
                        cg_tile_box *box, int64_t *addr, int64_t *pitch);

/* The unlowered descriptor moving `box` of array a (any box: the parts
 * outside the array's bounds become padding) between external memory and
 * buffer `buffer` of a, laid out from box->lo with the buffer's pitches. */
void cg_tile_box_desc(const cg_tile_plan *p, int a, const cg_tile_box *box,
                      int buffer, cg_tile_dir dir, int64_t tile,
                      cg_tile_desc *out);


typedef enum cg_tile_step_kind {
    CG_TILE_STEP_DMA,     /* descriptors first .. first+count-1 */
    CG_TILE_STEP_COMPUTE  /* run tile `tile` */
} cg_tile_step_kind;

typedef struct cg_tile_step {
    cg_tile_step_kind kind;
    int64_t tile;
    int array;            /* DMA: the array moved */
    cg_tile_dir dir;      /* DMA */
    int buffer;           /* DMA: buffer index (0/1) */
    int first, count;     /* DMA: descriptor range */
} cg_tile_step;

typedef struct cg_tile_program cg_tile_program;

/* Every transfer of the plan, lowered to the target's DMA limits, and the
 * compute steps, in the order a sequential machine may run them with the
 * same result as the overlapped timeline: in(0); then per tile k:
 * in of streamed arrays for k+1, compute k, out of k, resident swaps. */
cg_tile_program *cg_tile_program_build(const cg_tile_plan *p, cg_diags *d);
void cg_tile_program_destroy(cg_tile_program *g); /* accepts NULL */
int64_t cg_tile_program_nsteps(const cg_tile_program *g);
const cg_tile_step *cg_tile_program_step(const cg_tile_program *g, int64_t i);
const cg_tile_descs *cg_tile_program_descs(const cg_tile_program *g);

/* Run the program's transfers on images (ext covering every array, tile
 * covering the tile memory), calling compute(ctx, tile, tile_mem) at each
 * compute step.  Stops at the first failure. */
typedef int (*cg_tile_compute_fn)(void *ctx, int64_t tile, cg_mem *tile_mem,
                                  cg_diags *d);
int cg_tile_program_run(const cg_tile_program *g, cg_mem *ext, cg_mem *tile,
                        cg_tile_compute_fn compute, void *ctx, cg_diags *d);

/* ---- the schedule ---------------------------------------------------------- */

/* Compute cycles of tile t given its sizes: outer * (inner * ii + depth),
 * where inner is the tagged loop's tile size and outer the product of the
 * others'. */
int64_t cg_tile_compute_cycles(const int64_t *size, int nloops, int ii,
                               int depth);

typedef struct cg_tile_sched {
    int64_t total_cycles;
    int64_t compute_cycles;   /* sum over tiles */
    int64_t stall_cycles;     /* total - compute: the array waits for DMA */
    int64_t dma_busy_cycles;  /* sum of transfer cycles over channels */
    int64_t ntransfers;       /* descriptors issued (repeats counted) */
    int64_t in_bytes, out_bytes;
    int ii, depth;
} cg_tile_sched;

/* Simulate the double-buffered timeline: in-order DMA issue on the target's
 * channels, a transfer waits for its buffer (the compute that last used it
 * and, for a buffer also written out, its out transfer), compute of tile k
 * waits for compute k-1, its in transfers and the out transfer that last
 * drained each buffer of a written array it uses.  A transfer takes the
 * channel that frees first and never starts before the previous one.
 * ii/depth: see cg_tile_compute_cycles. */
int cg_tile_schedule(const cg_tile_plan *p, const cg_tile_program *g, int ii,
                     int depth, cg_tile_sched *s, cg_diags *d);
/* (cg_tile_schedule with g NULL is this.)
 * The same schedule as cg_tile_schedule of cg_tile_program_build(p), made
 * without keeping the program: its steps are generated and scheduled tile
 * by tile, so memory grows with the tile count only by one time per tile
 * (a gemm of 2 million tiles, whose program would take gigabytes). */
int cg_tile_schedule_plan(const cg_tile_plan *p, int ii, int depth,
                          cg_tile_sched *s, cg_diags *d);

/* ---- printing ---------------------------------------------------------------- */

/* Each writer flushes out and returns 0 when every byte reached it, or -1
 * with errno ENOMEM (out of memory: nothing written) or the write's error
 * (ENOSPC for a full disk, ...). */
int cg_tile_plan_write(const cg_tile_plan *p, FILE *out);
int cg_tile_sched_write(const cg_tile_sched *s, const cg_tile_plan *p,
                        FILE *out);
/* The plan, the program's descriptors and the schedule as one JSON
 * object {"descriptors", "plan", "schedule"}, keys sorted, indented by 2,
 * and a newline (what `cgramap tile --json` prints).  0, or -1 on no
 * memory or a write error, as above. */
int cg_tile_write_json(const cg_tile_plan *p, const cg_tile_program *g,
                       const cg_tile_sched *s, FILE *out);

/* ---- tile DFGs and the tiled run ------------------------------------------ */

/* From dfg/dfg.h and mapper/map.h. */
typedef struct cg_dfg cg_dfg;
typedef struct cg_mrrg cg_mrrg;
typedef struct cg_mapping cg_mapping;

/* true when loop DFG g carries a value from one iteration to the next
 * other than an induction variable (x = x + c): its tagged loop cannot be
 * split into tiles (cg_tile_model_keep_inner). */
bool cg_tile_dfg_carries(const cg_dfg *g);

/* Plan the nest recorded with loop DFG g (cg_dfg_nest) on nl's tile memory
 * as cg_tile_plan_nest does, messages naming g's nodes, the tagged loop
 * kept whole when g carries values (cg_tile_dfg_carries).  The plan owns
 * its model. */
cg_tile_plan *cg_tile_plan_dfg(const cg_dfg *g, const cg_netlist *nl,
                               const cg_tile_params *p, cg_diags *d);

/* The DFG of one inner-loop run of any tile of plan p, made from the loop
 * DFG whose nest p was planned from.  Each group of accesses to one array
 * with equal coefficients reads its address from a stream in the array's
 * buffer (input "<array>.base", recurrence "<array>.addr" stepping by the
 * tagged loop's stride in the buffer, "<array>.off" for the others of the
 * group); induction variables restart from input "<name>.start"; the old
 * address arithmetic, the exit test and live-outs are dropped; every
 * load/store gets the bank of its array's buffer.  The result does not
 * depend on a tile's shape: one mapping serves every tile.  Fails (with an
 * error naming the node) when a value other than the exit test leaves the
 * loop, the graph has phi nodes, or the plan's accesses are not its loads
 * and stores.  p and loop must outlive the result. */
typedef struct cg_tile_dfg cg_tile_dfg;
cg_tile_dfg *cg_tile_dfg_build(const cg_tile_plan *p, const cg_dfg *loop,
                               cg_diags *d);
void cg_tile_dfg_destroy(cg_tile_dfg *t); /* accepts NULL */
const cg_dfg *cg_tile_dfg_graph(const cg_tile_dfg *t);
const cg_tile_plan *cg_tile_dfg_plan(const cg_tile_dfg *t);
/* Input values (by tile DFG node id) of the run of tile `tile` at
 * iteration numbers k[0..L-2] of the outer loops, starting at iteration
 * number k[L-1] of the tagged loop.  Live-ins of the loop DFG take their
 * nest value (affine in the outer counters), else invariant[node id of the
 * loop DFG] (may be NULL: then such a live-in is an error naming it). */
int cg_tile_dfg_inputs(const cg_tile_dfg *t, int64_t tile, const int64_t *k,
                       const uint64_t *invariant, uint64_t *inputs,
                       cg_diags *d);

/* One inner-loop run of a tiled run, as an observer sees it: the tile
 * memory before and after the run, and the run's live-ins and live-outs
 * (by tile DFG node id).  Valid during the call only. */
typedef struct cg_tile_run_view {
    int64_t step;             /* compute step, 0 .. (tile order) */
    int64_t tile;             /* the tile it computes */
    int64_t run;              /* inner-loop run within the step, 0 .. */
    int64_t iters;
    const cg_mem *before, *after;
    const uint64_t *inputs, *outputs;
} cg_tile_run_view;
typedef void (*cg_tile_run_fn)(void *arg, const cg_tile_run_view *v);

typedef struct cg_tile_run_params {
    const uint64_t *invariant; /* see cg_tile_dfg_inputs, may be NULL */
    /* all three set: each run is simulated on the mapped array
       (cg_sim_run); otherwise the interpreter runs the tile DFG */
    const cg_netlist *nl;
    const cg_mrrg *mrrg;
    const cg_mapping *mapping;
    /* set: called after each inner-loop run of the first watch_steps
       compute steps that succeeded (the RTL co-simulation of the first
       tile, flow/tiled.c); NULL: none */
    cg_tile_run_fn on_run;
    void *on_run_arg;
    int64_t watch_steps;
} cg_tile_run_params;
void cg_tile_run_params_init(cg_tile_run_params *rp); /* all NULL, 0 */

typedef struct cg_tile_run_stats {
    int64_t tiles;      /* compute steps run */
    int64_t runs;       /* inner-loop runs */
    int64_t iters;      /* iterations of the tagged loop */
    int64_t dma_steps;  /* DMA steps of the program */
    int64_t descs;      /* descriptors they issue */
} cg_tile_run_stats;

/* The whole tiled run: program g's transfers executed on ext (an image
 * covering every array at its layout address) and a zeroed tile-memory
 * image (address 0, the target's capacity), each compute step running the
 * tile DFG for every inner-loop run of its tile.  st may be NULL.  Stops at
 * the first failure (an access outside an image, a failed run). */
int cg_tile_run(const cg_tile_program *g, const cg_tile_dfg *t,
                const cg_tile_run_params *rp, cg_mem *ext,
                cg_tile_run_stats *st, cg_diags *d);

#ifdef __cplusplus
}
#endif

#endif
