/* tiled.c: the proof of a loop that runs tiled.  The kernel runs
 * natively on seeded globals; from the same seeded image the program's DMA
 * descriptors run on the external image and the simulator runs the
 * mapping of the tile DFG for every inner-loop run (cg_tile_run); the
 * final images must be byte-identical.  Without a mapping the interpreter
 * runs the tile DFG: the same comparison then proves the tiling alone.
 */
#include "flow_internal.h"

#include <stdlib.h>
#include <string.h>

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
                        const cg_dfg *g, bool simulated, cg_diags *d)
{
    const char *how = simulated ? "the simulated mapping"
                                : "the interpreted run";
    int64_t b = cg__flow_first_difference(got, want);
    if (b >= 0)
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "loop '%s': the tiled run (DMA descriptors and %s of "
                     "the tile DFG) writes 0x%02x at address 0x%llx where "
                     "the C code leaves 0x%02x", cg_dfg_name(g), how,
                     got->data[b], (unsigned long long)(want->base + b),
                     want->data[b]);
    return b < 0;
}

/* Run the kernel natively on seeded globals into *native (the seeded
 * image into *start), the live-ins of its first execution into f.  1 when
 * the loop ran, 0 when the kernel never entered it (a warning), -1 on a
 * failure (its message). */
static int native_run(cg_extract_prog *x, const cg_dfg *g, uint64_t seed,
                      cg_mem *start, cg_mem *native, first_inputs *f,
                      cg_diags *d)
{
    if (cg_extract_image(x, native) != 0)
        return -1;
    cg_extract_fill_random(x, native, seed);
    *start = *native;
    start->data = malloc(native->size ? native->size : 1);
    if (!start->data)
        return -1;
    memcpy(start->data, native->data, native->size);
    if (cg_extract_run(x, cg_dfg_name(g), native, on_instance, f, NULL, d))
        return -1;
    if (f->count == 0)
        cg__flow_never_ran(g, d);
    return f->count > 0;
}

/* ---- the first tile on the RTL -------------------------------------------- */

/* The co-simulation of the first tile's first inner-loop run, from the
 * tile memory and live-ins the cycle simulator started it from, against
 * the memory and live-outs the simulator left; the tile's other runs are
 * counted (one co-simulation per loop, as for a loop run whole: a tile
 * of many runs would take minutes under Icarus Verilog). */
typedef struct first_tile {
    const cg_flow_params *p;
    const cg_netlist *nl;
    const cg_map_result *r;
    const cg_dfg *tg;         /* the tile DFG */
    cg_diags *d;
    int64_t runs;             /* inner-loop runs of the first tile */
    char word[600];           /* the co-simulation's word */
} first_tile;

static void cosim_run(void *arg, const cg_tile_run_view *v)
{
    first_tile *ft = arg;
    if (ft->runs++ > 0)
        return;
    cg_extract_instance in = {0, v->iters, v->before, v->after, v->inputs,
                              v->outputs};
    cg_cosim_result res;
    cg__flow_cosim(ft->p, ft->nl, ft->r, ft->tg, &in, &res, ft->d);
    cg_cosim_text(&res, ft->word, sizeof ft->word);
}

/* The row's rtl word of a tiled run of `tiles` compute steps. */
static void first_tile_word(const first_tile *ft, cg_flow_verdict res,
                            int64_t tiles, cg_flow_verification *out)
{
    const char *w = ft->word;
    if (res != CG_FLOW_VERIFIED)
        snprintf(out->rtl, sizeof out->rtl, "n/a: the tiled run already "
                 "differs from the native run");
    else if (!w[0])
        snprintf(out->rtl, sizeof out->rtl, "n/a: the first tile ran no "
                 "inner loop");
    else if (!strcmp(w, "yes"))
        snprintf(out->rtl, sizeof out->rtl, "yes (first tile of %lld: "
                 "inner-loop run 1 of %lld equal to the cycle simulator's)",
                 (long long)tiles, (long long)ft->runs);
    else /* "no: ..." -> "no: inner-loop run 1 of the first tile: ..." */
        snprintf(out->rtl, sizeof out->rtl, "%.*s: inner-loop run 1 of the "
                 "first tile: %s", (int)strcspn(w, ":"), w,
                 strchr(w, ':') ? strchr(w, ':') + 2 : "");
}

/* The tiled run from start, compared with native: the verdict; the
 * first tile co-simulated when p asks for the RTL and out->rtl is still
 * empty (the model compiled). */
static cg_flow_verdict run_tiled(const cg_flow_params *p,
                                 const cg_netlist *nl,
                                 const cg_flow_tiling *t, const cg_dfg *g,
                                 const cg_map_result *r,
                                 const first_inputs *f, cg_mem *start,
                                 const cg_mem *native,
                                 cg_flow_verification *out, cg_diags *d)
{
    cg_tile_run_params rp;
    cg_tile_run_params_init(&rp);
    rp.invariant = f->v;
    first_tile ft = {p, nl, r, cg_tile_dfg_graph(t->td), d, 0, ""};
    bool rtl = p->rtl && r && !out->rtl[0];
    if (r) {
        rp.nl = nl;
        rp.mrrg = r->mrrg;
        rp.mapping = r->mapping;
    }
    if (rtl) {
        rp.on_run = cosim_run;
        rp.on_run_arg = &ft;
        rp.watch_steps = 1;
    }
    cg_tile_run_stats st;
    memset(&st, 0, sizeof st);
    cg_flow_verdict res = CG_FLOW_WRONG;
    if (cg_tile_run(t->prog, t->td, &rp, start, &st, d) == 0) {
        if (same_memory(start, native, g, r != NULL, d))
            res = CG_FLOW_VERIFIED;
        else
            note_varying(f, g, cg_tile_dfg_graph(t->td), d);
    }
    if (rtl)
        first_tile_word(&ft, res, st.tiles, out);
    out->tile_runs = st.runs;
    out->compared = f->count;
    return res;
}

void cg__flow_verify_tiled(const cg_flow_params *p, const cg_netlist *nl,
                           const cg_dfg *g, cg_extract_prog *x,
                           const cg_flow_tiling *t, const cg_map_result *r,
                           cg_flow_verification *out, cg_diags *d)
{
    first_inputs f = {(size_t)cg_dfg_nnodes(g) + 1, NULL, NULL, 0};
    f.v = calloc(f.n, sizeof *f.v);
    f.varies = calloc(f.n, sizeof *f.varies);
    cg_mem native = {0}, start = {0};
    int ran = f.v && f.varies
              ? native_run(x, g, p->seed, &start, &native, &f, d) : -1;
    out->verdict = ran == 0 ? CG_FLOW_NOTHING_RUN : CG_FLOW_NOT_VERIFIED;
    if (ran == 1)
        out->verdict = run_tiled(p, nl, t, g, r, &f, &start, &native, out,
                                 d);
    free(f.v);
    free(f.varies);
    free(native.data);
    free(start.data);
}
