/* tile_internal.h: structures shared by the files of tiling/ (not installed).
 */
#ifndef CG_TILE_INTERNAL_H
#define CG_TILE_INTERNAL_H

#include <jansson.h>

#include "../dfg/dfg.h"
#include "tile.h"

_Static_assert(CG_TILE_MAX_LOOPS == CG_NEST_MAX_LOOPS, "loop limits differ");
_Static_assert(CG_TILE_MAX_BANKS <= 64, "bank_mask has 64 bits");

/* Names DFG nodes in messages: returns the node's name (or NULL) and sets
 * *line to its source line (0 when unknown). */
typedef const char *(*cg__tile_namefn)(void *ctx, int node, int *line);

struct cg_tile_model {
    char *file;
    int nloops;
    int64_t trip[CG_TILE_MAX_LOOPS];
    char *loop_name[CG_TILE_MAX_LOOPS];
    int loop_line[CG_TILE_MAX_LOOPS];
    bool keep_inner;
    int narrays;
    cg_tile_array_info *arrays;
    char **array_names;
    int naccesses;
    cg_tile_access_info *acc;
    /* exact dimensions: the spread of the constant parts over accesses */
    int64_t (*spread)[CG_TILE_MAX_DIMS];
    /* the whole nest's box per array */
    cg_tile_box *full;
};

cg_tile_model *cg__tile_model_build(const cg_nest *n, const char *file,
                                    cg__tile_namefn names, void *ctx,
                                    cg_diags *d);

struct cg_tile_plan {
    const cg_tile_model *m;   /* borrowed or owned (own_model) */
    cg_tile_model *own_model;
    cg_tile_target t;
    char *mem_name;
    cg_tile_params params;
    cg_tile_summary s;
    cg_tile_buffer *buf;      /* per array */
    /* per array: bit l set when loop l's tile index is part of the key of
       the array's box (a new key value brings a new box) */
    uint32_t *key;
};

/* The evaluation of one candidate: traffic, buffers, criteria. */
typedef struct cg__tile_eval {
    bool feasible;
    int64_t traffic;
    int64_t mem_used;
    bool dma_ok;
    int nonunit;
    int64_t ntiles;
} cg__tile_eval;

/* Count of tiles along a loop and size of its last tile. */
static inline int64_t cg__ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Access x drives each of its D dimensions by at most one of the L loops
 * and each loop drives at most one dimension: two tiles then touch the
 * same or disjoint boxes.  *unit: every coefficient is +-1, so the image
 * of the nest is a box. */
bool cg__tile_separable(const cg_tile_access_info *x, int D, int L,
                        bool *unit);

/* The target of nl for p's memory, *p set to defp (initialised) when
 * NULL: 0, or -1 with an error (target.c). */
int cg__tile_target_of(const cg_netlist *nl, const cg_tile_params **p,
                       cg_tile_params *defp, cg_tile_target *t, cg_diags *d);
/* Plan m on t; the plan owns m, destroyed when planning fails; NULL for
 * a NULL m (its builder said why) (target.c). */
cg_tile_plan *cg__tile_plan_owning(cg_tile_model *m, const cg_tile_target *t,
                                   const cg_tile_params *p, cg_diags *d);

/* The next permutation of v[0..n) in lexicographic order; false after
 * the last (select.c; the tile-order searches of select.c and bound.c). */
bool cg__tile_next_perm(int *v, int n);

/* Key loops of array a for sizes/order: loops whose tile index selects the
 * array's box (its loops, and every changing loop outside its reuse
 * suffix).  *streamed: the innermost changing loop is one of its loops. */
uint32_t cg__tile_key(const cg_tile_model *m, int a, const int64_t *count,
                      const int *order, bool *streamed, bool *any_changing);

/* Bound of the plan (fills s->bound, bound_kind, ratio, compulsory). */
void cg__tile_bound(const cg_tile_model *m, const cg_tile_target *t,
                    const cg_tile_params *p, cg_tile_summary *s);

/* The program of plan p made tile by tile and handed to flush in parts
 * (each a program of its own: the first INs, then each tile's steps),
 * never kept whole; for the schedule of programs too large to keep.  0,
 * or -1 with an error (flush's too). */
typedef int (*cg__tile_chunk_fn)(void *ctx, const cg_tile_program *part,
                                 cg_diags *d);
int cg__tile_program_stream(const cg_tile_plan *p, cg__tile_chunk_fn flush,
                            void *ctx, cg_diags *d);

/* ---- JSON (cg_tile_write_json; the tests compare each part) ----------- */

/* Each builder returns the whole object or NULL (no memory): never one
 * with an entry left out.  These setters steal v, as jansson's do, and
 * turn *ok false when v is NULL or it could not be added. */
static inline void cg__json_put(json_t *o, const char *key, json_t *v,
                                bool *ok)
{
    if (json_object_set_new(o, key, v) != 0)
        *ok = false;
}
static inline void cg__json_push(json_t *a, json_t *v, bool *ok)
{
    if (json_array_append_new(a, v) != 0)
        *ok = false;
}
/* j when ok, else NULL with j released. */
static inline json_t *cg__json_done(json_t *j, bool ok)
{
    if (ok && j)
        return j;
    json_decref(j);
    return NULL;
}

json_t *cg__tile_plan_json(const cg_tile_plan *p);
json_t *cg__tile_sched_json(const cg_tile_sched *s);
/* v[0..n-1] as a JSON array of integers. */
json_t *cg__tile_json_ints(const int64_t *v, int n);
/* The program's descriptors as a JSON array. */
json_t *cg__tile_program_json(const cg_tile_program *g,
                              const cg_tile_plan *p);
/* One descriptor; array names from m (may be NULL). */
json_t *cg__tile_desc_json(const cg_tile_desc *d, const cg_tile_model *m);

#endif
