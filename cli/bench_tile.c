/* bench_tile.c: the tiling of a main-job loop.  A loop extracted from C
 * carries its nest (dfg.h); before mapping, the nest is planned on the
 * architecture's tile memory exactly as `cgramap tile` plans it (one whole
 * tile when its data fits; the tagged loop kept whole when it carries a
 * value) and its transfers are built and lowered to the DMA engine.
 *
 * When the plan needs more than one tile, what the array runs is the tile
 * DFG (cg_tile_dfg_build): the row maps that graph, and its verification
 * is the whole tiled run (DMA descriptors on the external image, the
 * simulator running the tile DFG's mapping for every inner-loop run,
 * cg_tile_run) compared byte for byte with the kernel run natively.  A
 * loop that fits whole maps its own DFG as before.  Either way the
 * double-buffered timeline is scheduled with the II and pipeline depth of
 * the mapping the row reports.
 */
#include "cli/bench.h"

#include <stdlib.h>
#include <string.h>

/* An architecture without a tile memory is not an error of the loop: its
 * row says why it was not tiled. */
static bool has_tile_memory(const cg_netlist *nl, const cg_dfg *g,
                            cg_diags *msgs)
{
    cg_diags *td = cg_diags_create();
    cg_tile_target t;
    bool ok = cg_tile_target_from_netlist(nl, NULL, 0, &t, td) == 0;
    if (!ok)
        cg_diags_add(msgs, CG_SEV_WARNING, cg_dfg_file(g), 0,
                     "loop '%s' is not tiled: %s", cg_dfg_name(g),
                     cg_diags_size(td) ? cg_diags_get(td, 0)->msg
                                       : "no tile memory");
    cg_diags_destroy(td);
    return ok;
}

/* Messages of a tiling that failed become warnings: the loop is mapped
 * and verified all the same (on its own DFG); its row only lacks the
 * tiling columns. */
static void demote(const cg_diags *td, const cg_dfg *g, cg_diags *msgs)
{
    for (int i = 0; i < cg_diags_size(td); i++) {
        const cg_diag *x = cg_diags_get(td, i);
        if (x->sev == CG_SEV_ERROR)
            cg_diags_add(msgs, CG_SEV_WARNING, x->file, x->line,
                         "loop '%s' is not tiled: %s", cg_dfg_name(g),
                         x->msg);
        else
            cg_diags_add(msgs, x->sev, x->file, x->line, "%s", x->msg);
    }
}

/* A plan of several tiles whose tile DFG cannot be made (a value leaves
 * the loop, phi nodes): the array cannot run it tiled, so the loop DFG is
 * mapped on a flat memory and the row says so. */
static void no_tile_dfg(const cg_diags *td, const cg_dfg *g, int64_t ntiles,
                        cg_diags *msgs)
{
    for (int i = 0; i < cg_diags_size(td); i++) {
        const cg_diag *x = cg_diags_get(td, i);
        cg_diags_add(msgs, CG_SEV_WARNING, x->file, x->line,
                     "loop '%s' needs %lld tiles but has no tile DFG, so its "
                     "own DFG is mapped and verified on a flat memory: %s",
                     cg_dfg_name(g), (long long)ntiles, x->msg);
    }
}

void cg_cli_tiling_plan(cg_cli_tiling *t, const cg_dfg *g,
                        const cg_netlist *nl)
{
    memset(t, 0, sizeof *t);
    t->msgs = cg_diags_create();
    const cg_nest *n = cg_dfg_nest(g);
    if (!n || n->nloops == 0 || !has_tile_memory(nl, g, t->msgs))
        return;
    cg_tile_params p;
    cg_tile_params_init(&p); /* cgramap tile's assumptions: II 1, depth 8 */
    cg_diags *td = cg_diags_create();
    t->plan = cg_tile_plan_dfg(g, nl, &p, td);
    t->prog = t->plan ? cg_tile_program_build(t->plan, td) : NULL;
    if (!t->prog) {
        demote(td, g, t->msgs);
        cg_tile_plan_destroy(t->plan);
        t->plan = NULL;
    } else if (cg_tile_plan_summary(t->plan)->ntiles > 1) {
        cg_diags *bd = cg_diags_create();
        t->td = cg_tile_dfg_build(t->plan, g, bd);
        if (!t->td)
            no_tile_dfg(bd, g, cg_tile_plan_summary(t->plan)->ntiles,
                        t->msgs);
        cg_diags_destroy(bd);
    }
    if (t->prog)
        demote(td, g, t->msgs); /* warnings of a good plan, if any */
    cg_diags_destroy(td);
}

void cg_cli_tiling_free(cg_cli_tiling *t)
{
    cg_tile_dfg_destroy(t->td);
    cg_tile_program_destroy(t->prog);
    cg_tile_plan_destroy(t->plan);
    cg_diags_destroy(t->msgs);
    memset(t, 0, sizeof *t);
}

/* Cycles from the first op's start to the last op's start, plus one: how
 * long one iteration occupies the pipeline.  Nodes without edges (unused
 * constants) have no timing constraint, so their start says nothing. */
static int mapping_depth(const cg_mapping *m, const cg_dfg *g)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        int ends[2] = {x->src, x->dst};
        for (int k = 0; k < 2; k++) {
            int64_t t = m->start[ends[k]];
            lo = t < lo ? t : lo;
            hi = t > hi ? t : hi;
        }
    }
    return lo <= hi ? (int)(hi - lo + 1) : 1;
}

static void put_plan(json_t *cols, const cg_tile_plan *p,
                     const cg_tile_sched *s)
{
    const cg_tile_summary *u = cg_tile_plan_summary(p);
    json_object_set_new(cols, "tiles", json_integer(u->ntiles));
    json_object_set_new(cols, "dma_bytes", json_integer(u->traffic));
    json_object_set_new(cols, "dma_bound", json_real(u->bound));
    json_object_set_new(cols, "dma_ratio", json_real(u->ratio));
    json_object_set_new(cols, "bound_kind",
                        json_string(cg_tile_bound_name(u->bound_kind)));
    json_object_set_new(cols, "mem_use", json_real(u->mem_use));
    json_object_set_new(cols, "cycles", json_integer(s->total_cycles));
    json_object_set_new(cols, "stalls", json_integer(s->stall_cycles));
}

void cg_cli_tiling_cols(json_t *cols, const cg_cli_tiling *t,
                        const cg_dfg *mapped, const cg_map_result *r,
                        cg_diags *d)
{
    if (!t->prog || !r->mapping)
        return;
    int depth = mapping_depth(r->mapping, mapped);
    cg_diags *td = cg_diags_create();
    cg_tile_sched s;
    if (cg_tile_schedule(t->plan, t->prog, r->ii, depth, &s, td) == 0)
        put_plan(cols, t->plan, &s);
    cg_diags_append(d, td);
    cg_diags_destroy(td);
}

/* ---- the tiled run against the native one -------------------------------- */

/* The native run's live-ins of the loop's first execution: the values of
 * the kernel parameters the tile DFG's runs take (cg_tile_run_params),
 * and which live-ins took other values in later executions. */
typedef struct first_inputs {
    size_t n;
    uint64_t *v;
    bool *varies;       /* by loop DFG node id */
    int64_t count;
} first_inputs;

static void on_instance(void *arg, const cg_extract_instance *in)
{
    first_inputs *f = arg;
    if (f->count++ == 0)
        memcpy(f->v, in->inputs, f->n * sizeof *f->v);
    for (size_t i = 0; i < f->n; i++)
        f->varies[i] |= in->inputs[i] != f->v[i];
}

static bool affine_livein(const cg_nest *n, int node)
{
    for (int i = 0; n && i < n->nliveins; i++)
        if (n->liveins[i].node == node)
            return n->liveins[i].value.is_affine;
    return false;
}

/* After a difference: name each live-in of the tile DFG whose value the
 * run could not know (not affine in the outer counters, and not the same
 * in every execution of the loop), the likely cause. */
static void note_varying(const first_inputs *f, const cg_dfg *g,
                         const cg_dfg *tg, cg_diags *d)
{
    for (int id = 0; id < cg_dfg_nnodes(tg); id++) {
        const cg_dfg_node *x = cg_dfg_get_node(tg, id);
        int v = x->op == CG_OP_INPUT ? cg_dfg_find(g, x->name) : -1;
        const cg_dfg_node *ln = v >= 0 ? cg_dfg_get_node(g, v) : NULL;
        if (ln && f->varies[v] && !affine_livein(cg_dfg_nest(g), v))
            cg_diags_add(d, CG_SEV_NOTE, cg_dfg_file(g), ln->line,
                         "loop '%s': live-in '%s' takes other values in "
                         "later executions of the loop, but is not affine "
                         "in the outer counters, so every inner-loop run of "
                         "the tiled run gets its first value; compute it "
                         "inside the tagged loop", cg_dfg_name(g),
                         ln->sym ? ln->sym : ln->name);
    }
}

/* The first byte where the tiled run differs from the native one. */
static bool same_memory(const cg_mem *got, const cg_mem *want,
                        const cg_dfg *g, cg_diags *d)
{
    for (uint64_t b = 0; b < want->size; b++)
        if (got->data[b] != want->data[b]) {
            cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                         "loop '%s': the tiled run (DMA descriptors and the "
                         "simulated mapping of the tile DFG) writes 0x%02x "
                         "at address 0x%llx where the C code leaves 0x%02x",
                         cg_dfg_name(g), got->data[b],
                         (unsigned long long)(want->base + b), want->data[b]);
            return false;
        }
    return true;
}

/* Run the kernel natively on seeded globals into *native (the seeded
 * image into *start), the live-ins of its first execution into f.  1 when
 * the loop ran, 0 when the kernel never entered it (a warning), -1 on a
 * failure (its message). */
static int native_run(cg_extract_prog *x, const cg_dfg *g, cg_mem *start,
                      cg_mem *native, first_inputs *f, cg_diags *d)
{
    if (cg_extract_image(x, native) != 0)
        return -1;
    cg_extract_fill_random(x, native, CG_CLI_SEED);
    *start = *native;
    start->data = malloc(native->size ? native->size : 1);
    if (!start->data)
        return -1;
    memcpy(start->data, native->data, native->size);
    if (cg_extract_run(x, cg_dfg_name(g), native, on_instance, f, NULL, d))
        return -1;
    if (f->count == 0)
        cg_diags_add(d, CG_SEV_WARNING, cg_dfg_file(g), 0,
                     "loop '%s': the kernel never ran the loop on its data, "
                     "so nothing was simulated", cg_dfg_name(g));
    return f->count > 0;
}

const char *cg_cli_verify_tiled(const cg_cli_tiling *t, const cg_dfg *g,
                                cg_extract_prog *x, const cg_netlist *nl,
                                const cg_map_result *r, json_t *cols,
                                cg_diags *d)
{
    first_inputs f = {(size_t)cg_dfg_nnodes(g) + 1, NULL, NULL, 0};
    f.v = calloc(f.n, sizeof *f.v);
    f.varies = calloc(f.n, sizeof *f.varies);
    cg_mem native = {0}, start = {0};
    int ran = f.v && f.varies ? native_run(x, g, &start, &native, &f, d) : -1;
    const char *res = ran == 0 ? "n/a" : ran < 0 ? NULL : "no";
    if (ran == 1) {
        cg_tile_run_params rp;
        cg_tile_run_params_init(&rp);
        rp.invariant = f.v;
        rp.nl = nl;
        rp.mrrg = r->mrrg;
        rp.mapping = r->mapping;
        cg_tile_run_stats st;
        memset(&st, 0, sizeof st);
        if (cg_tile_run(t->prog, t->td, &rp, &start, &st, d) == 0) {
            if (same_memory(&start, &native, g, d))
                res = "yes";
            else
                note_varying(&f, g, cg_tile_dfg_graph(t->td), d);
        }
        json_object_set_new(cols, "tile_runs", json_integer(st.runs));
    }
    free(f.v);
    free(f.varies);
    free(native.data);
    free(start.data);
    return res;
}
