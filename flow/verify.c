/* verify.c: the proof of a mapping.  For a loop extracted from C the
 * reference is the C code itself: the kernel runs natively on seeded data
 * and each of its first executions of the loop is replayed by the
 * simulator from the same memory and live-ins, which must leave
 * byte-identical memory and the same live-outs.  A loop that runs tiled is
 * proven by the whole tiled run (DMA descriptors on the external image,
 * the simulated tile DFG for every inner-loop run) against the whole
 * native run.  A DFG without C code is compared with the DFG interpreter.
 * Without a mapping the interpreter runs where the simulator would: the
 * same comparison then proves the extraction or the tiling alone.
 */
#include "flow_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../common/op.h"
#include "../common/util.h"

/* One verification: its inputs, then what the replays found. */
typedef struct verify {
    const cg_flow_params *p;
    const cg_netlist *nl;
    const cg_map_result *r;   /* NULL: the interpreter */
    const cg_dfg *g;          /* the loop */
    cg_extract_prog *x;       /* NULL: a DFG without C code */
    const cg_flow_tiling *t;
    cg_diags *d;
    int64_t done;             /* executions replayed */
    bool bad;
    char rtl[600];            /* the RTL co-simulation's word, "" none */
} verify;

void cg__flow_never_ran(const cg_dfg *g, cg_diags *d)
{
    cg_diags_add(d, CG_SEV_WARNING, cg_dfg_file(g), 0,
                 "loop '%s': the kernel never ran the loop on its data, "
                 "so nothing was simulated", cg_dfg_name(g));
}

int64_t cg__flow_first_difference(const cg_mem *got, const cg_mem *want)
{
    for (uint64_t b = 0; b < want->size; b++)
        if (got->data[b] != want->data[b])
            return (int64_t)b;
    return -1;
}

/* ---- one execution replayed -------------------------------------------------- */

/* Where a run first differs from its reference: a byte of memory (at >= 0)
 * or else a live-out (node >= 0); neither when the same. */
typedef struct difference {
    int64_t at;
    int node;
} difference;

static difference first_diff(const cg_dfg *g, const cg_mem *got,
                             const cg_mem *want, const uint64_t *gout,
                             const uint64_t *wout)
{
    difference x = {cg__flow_first_difference(got, want), -1};
    for (int i = 0; x.at < 0 && x.node < 0 && i < cg_dfg_nnodes(g); i++) {
        const cg_dfg_node *n = cg_dfg_get_node(g, i);
        if (n->op == CG_OP_OUTPUT &&
            cg_trunc(gout[i], n->width) != cg_trunc(wout[i], n->width))
            x.node = i;
    }
    return x;
}

/* One replay of in: the mapping m simulated (the interpreter when m is
 * NULL) from in's memory into *mem and its live-outs into *out (both
 * malloc'd, the caller frees them).  0, 1 when the run failed (its error
 * in d), -1 on no memory. */
static int run_replay(const cg_netlist *nl, const cg_mrrg *mrrg,
                      const cg_mapping *m, const cg_dfg *g,
                      const cg_extract_instance *in, cg_mem *mem,
                      uint64_t **out, cg_diags *d)
{
    const cg_mem *before = in->before;
    *mem = (cg_mem){malloc(before->size ? before->size : 1), before->base,
                    before->size};
    *out = calloc((size_t)cg_dfg_nnodes(g) + 1, sizeof **out);
    if (!mem->data || !*out)
        return -1;
    memcpy(mem->data, before->data, before->size);
    return (m ? cg_sim_run(nl, mrrg, g, m, in->iters, mem, in->inputs, *out,
                           d)
              : cg_dfg_run(g, in->iters, mem, in->inputs, *out, d)) == 0
               ? 0
               : 1;
}

/* Does the DFG interpreter, run on in, differ from the reference too?  When
 * it does, the DFG computes something else than the reference and its
 * mapping is not to blame.  False when it cannot tell. */
static bool interpreter_differs(const cg_dfg *g,
                                const cg_extract_instance *in)
{
    cg_mem mem = {NULL, 0, 0};
    uint64_t *out = NULL;
    cg_diags *quiet = cg_diags_create();
    bool differs = false;
    if (quiet && run_replay(NULL, NULL, NULL, g, in, &mem, &out, quiet) == 0) {
        difference x = first_diff(g, &mem, in->after, out, in->outputs);
        differs = x.at >= 0 || x.node >= 0;
    }
    cg_diags_destroy(quiet);
    free(mem.data);
    free(out);
    return differs;
}

/* "its access to 'A' (node 'N') leaves the array within the loop bounds"
 * into buf when the tiler's model finds such an access of loop g: in C,
 * undefined behaviour, which makes the native run no reference. */
static bool outside_access(const cg_dfg *g, char *buf, size_t len)
{
    const cg_nest *nest = cg_dfg_nest(g);
    int oa = nest ? cg_tile_access_outside(nest) : -1;
    if (oa < 0)
        return false;
    const cg_nest_access *na = &nest->accesses[oa];
    snprintf(buf, len, "its access to '%s' (node '%s') leaves the array "
             "within the loop bounds",
             na->array >= 0 ? nest->arrays[na->array].name : "?",
             cg_dfg_get_node(g, na->node)->name);
    return true;
}

/* After a replay that failed (an access outside the memory, say): the
 * access that explains it, if any. */
static void outside_note(const cg_dfg *g, cg_diags *d)
{
    char acc[200];
    if (outside_access(g, acc, sizeof acc))
        cg_diags_add(d, CG_SEV_NOTE, cg_dfg_file(g), 0, "loop '%s': %s: the "
                     "C code's behaviour is undefined there, and its native "
                     "run is no reference", cg_dfg_name(g), acc);
}

/* Whom a difference blames (see report) into buf. */
static void blame_of(const cg_dfg *g, bool simulated, bool dfg_differs,
                     const char *what, char *buf, size_t len)
{
    const cg_nest *nest = cg_dfg_nest(g);
    char acc[200];
    if (outside_access(g, acc, sizeof acc))
        snprintf(buf, len, "the C code's behaviour is undefined: %s, so its "
                 "native run is no reference", acc);
    else if (!dfg_differs)
        snprintf(buf, len, "this is a cgramap bug; please report it");
    else
        snprintf(buf, len, "%sthe DFG itself differs from %s: "
                 "%sthis is a cgramap bug%s; please report it",
                 simulated ? "the DFG interpreter differs too, so not the "
                             "mapping but "
                           : "",
                 what,
                 nest ? "the C code's behaviour may be undefined there, or "
                        "else "
                      : "",
                 nest ? " in the extraction" : "");
}

/* The first difference x of a replay from the reference, so the user can
 * find it, and whom it blames: the C code when an access leaves its array
 * (undefined behaviour: the native run may then do anything, even to the
 * harness that records it), else the mapping when it is mapped and the
 * interpreter agrees with the reference, else the DFG itself. */
static void report(const cg_dfg *g, bool simulated, bool dfg_differs,
                   difference x, const cg_mem *got, const cg_mem *want,
                   const uint64_t *gout, const uint64_t *wout,
                   const char *what, cg_diags *d)
{
    const char *who = simulated ? "the simulated mapping"
                                : "the DFG interpreter";
    char blame[320];
    blame_of(g, simulated, dfg_differs, what, blame, sizeof blame);
    if (x.at >= 0) {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "loop '%s': %s writes 0x%02x at address 0x%llx where "
                     "%s leaves 0x%02x (%s)", cg_dfg_name(g), who,
                     got->data[x.at],
                     (unsigned long long)(want->base + (uint64_t)x.at), what,
                     want->data[x.at], blame);
        return;
    }
    const cg_dfg_node *n = cg_dfg_get_node(g, x.node);
    cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), n->line,
                 "loop '%s': live-out '%s' is %llu in %s but %llu in %s (%s)",
                 cg_dfg_name(g), n->name,
                 (unsigned long long)cg_trunc(gout[x.node], n->width), who,
                 (unsigned long long)cg_trunc(wout[x.node], n->width), what,
                 blame);
}

int cg_flow_replay(const cg_netlist *nl, const cg_mrrg *mrrg,
                   const cg_mapping *m, const cg_dfg *g,
                   const cg_extract_instance *in, const char *what,
                   cg_diags *d)
{
    cg_mem mem;
    uint64_t *out;
    int rc = run_replay(nl, mrrg, m, g, in, &mem, &out, d);
    if (rc < 0)
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0, "loop '%s': out of "
                     "memory for a replay", cg_dfg_name(g));
    else if (rc > 0)
        outside_note(g, d);
    if (rc == 0) {
        difference x = first_diff(g, &mem, in->after, out, in->outputs);
        if (x.at >= 0 || x.node >= 0) {
            bool dfg_differs = !m || interpreter_differs(g, in);
            report(g, m != NULL, dfg_differs, x, &mem, in->after, out,
                   in->outputs, what, d);
            rc = 1;
        }
    }
    free(mem.data);
    free(out);
    return rc == 0 ? 0 : -1;
}

/* ---- the RTL --------------------------------------------------------------- */

void cg__flow_cosim(const cg_flow_params *p, const cg_netlist *nl,
                    const cg_map_result *r, const cg_dfg *g,
                    const cg_extract_instance *in, cg_cosim_result *res,
                    cg_diags *d)
{
    if (cg_cosim_run(nl, r->mrrg, g, r->mapping, in->iters, in->before,
                     in->inputs, in->after, in->outputs, &p->cosim, res,
                     d) < 0)
        snprintf(res->why, sizeof res->why, "the co-simulation could not "
                 "run (the error above says why)");
}

/* Co-simulate the replayed execution in (which the simulator ran equal to
 * the reference) on the RTL: its word into v->rtl. */
static void cosim(verify *v, const cg_extract_instance *in)
{
    cg_cosim_result res;
    cg__flow_cosim(v->p, v->nl, v->r, v->g, in, &res, v->d);
    cg_cosim_text(&res, v->rtl, sizeof v->rtl);
}

/* After a replay: co-simulate the first execution when asked to. */
static void maybe_cosim(verify *v, const cg_extract_instance *in, bool same)
{
    if (!v->p->rtl || !v->r || v->rtl[0])
        return;
    if (same)
        cosim(v, in);
    else
        snprintf(v->rtl, sizeof v->rtl, "n/a: the cycle simulator already "
                 "differs from the reference");
}

/* ---- a C loop run whole ---------------------------------------------------- */

static void probe(void *arg, const cg_extract_instance *in)
{
    verify *v = arg;
    if (v->bad || v->done >= v->p->executions)
        return;
    const cg_mapping *m = v->r ? v->r->mapping : NULL;
    if (cg_flow_replay(v->nl, v->r ? v->r->mrrg : NULL, m, v->g, in,
                       "the C code", v->d) != 0)
        v->bad = true;
    maybe_cosim(v, in, !v->bad);
    v->done++;
}

static void verify_c(verify *v, cg_flow_verification *out)
{
    cg_mem mem;
    if (cg_extract_image(v->x, &mem) != 0)
        return; /* not verified */
    cg_extract_fill_random(v->x, &mem, v->p->seed);
    int rc = cg_extract_run(v->x, cg_dfg_name(v->g), &mem, probe, v, NULL,
                            v->d);
    free(mem.data);
    out->compared = v->done;
    if (v->bad)
        out->verdict = CG_FLOW_WRONG;
    else if (rc != 0)
        out->verdict = CG_FLOW_NOT_VERIFIED;
    else if (v->done == 0) {
        cg__flow_never_ran(v->g, v->d);
        out->verdict = CG_FLOW_NOTHING_RUN;
    } else
        out->verdict = CG_FLOW_VERIFIED;
}

/* ---- a DFG without C code ---------------------------------------------------- */

/* The value p gives the live-in (input node) n, if any. */
static bool sym_value(const cg_flow_params *p, const cg_dfg_node *n,
                      uint64_t *v)
{
    for (int k = 0; n->op == CG_OP_INPUT && n->sym && k < p->nsyms; k++)
        if (!strcmp(p->syms[k].name, n->sym)) {
            *v = (uint64_t)p->syms[k].value;
            return true;
        }
    return false;
}

void cg_flow_dot_data(const cg_flow_params *p, const cg_dfg *g,
                      cg_mem *mem, uint64_t *in)
{
    uint64_t s = p->seed ? p->seed : 1; /* xorshift never leaves 0 */
    for (uint64_t i = 0; i < mem->size; i++)
        mem->data[i] = (uint8_t)cg_rng_data_next(&s);
    for (int i = 0; i < cg_dfg_nnodes(g); i++) {
        in[i] = cg_rng_data_next(&s) % p->dot_input_range;
        sym_value(p, cg_dfg_get_node(g, i), &in[i]);
    }
}

uint64_t cg_flow_dot_mem(const cg_flow_params *p, const cg_dfg *g)
{
    uint64_t base, bytes = cg_dfg_memory(g, &base);
    return bytes && base + bytes > p->dot_mem ? base + bytes : p->dot_mem;
}

/* The interpreter's run from before into *after is the reference; one
 * that cannot run on seeded data says why, and nothing is compared. */
static cg_flow_verdict verify_dot_run(verify *v, const cg_mem *before,
                                      cg_mem *after, const uint64_t *in,
                                      uint64_t *outs)
{
    memcpy(after->data, before->data, before->size);
    cg_diags *id = cg_diags_create();
    int rc = cg_dfg_run(v->g, v->p->dot_iters, after, in, outs, id);
    if (rc != 0)
        cg_diags_add(v->d, CG_SEV_WARNING, cg_dfg_file(v->g), 0,
                     "loop '%s': not simulated: the DFG interpreter "
                     "cannot run it on seeded data (%s); map the C file "
                     "instead for a full proof", cg_dfg_name(v->g),
                     cg_diags_size(id) ? cg_diags_get(id, 0)->msg : "");
    cg_diags_destroy(id);
    if (rc != 0)
        return CG_FLOW_NOTHING_RUN;
    cg_extract_instance ins = {0, v->p->dot_iters, before, after, in, outs};
    bool same = cg_flow_replay(v->nl, v->r->mrrg, v->r->mapping, v->g, &ins,
                               "the DFG interpreter", v->d) == 0;
    maybe_cosim(v, &ins, same);
    return same ? CG_FLOW_VERIFIED : CG_FLOW_WRONG;
}

static void verify_dot(verify *v, cg_flow_verification *out)
{
    size_t nn = (size_t)cg_dfg_nnodes(v->g) + 1;
    uint64_t *in = calloc(nn, 8), *outs = calloc(nn, 8);
    uint64_t size = cg_flow_dot_mem(v->p, v->g);
    cg_mem before = {malloc(size), 0, size};
    cg_mem after = {malloc(size), 0, size};
    out->verdict = CG_FLOW_WRONG;
    if (in && outs && before.data && after.data) {
        cg_flow_dot_data(v->p, v->g, &before, in);
        out->verdict = verify_dot_run(v, &before, &after, in, outs);
        out->compared = out->verdict != CG_FLOW_NOTHING_RUN;
    }
    free(in);
    free(outs);
    free(before.data);
    free(after.data);
}

/* ---- any loop ------------------------------------------------------------ */

/* The reference run and the comparison (cg__flow_verify_fn). */
static void verify_any(void *arg, cg_flow_verification *out, cg_diags *d)
{
    verify *v = arg;
    v->d = d;
    if (v->t && v->t->td) {
        /* the first tile co-simulated unless out->rtl already says why
           not (the model did not compile) */
        memcpy(out->rtl, v->rtl, sizeof out->rtl);
        cg__flow_verify_tiled(v->p, v->nl, v->g, v->x, v->t, v->r, out, d);
        memcpy(v->rtl, out->rtl, sizeof v->rtl);
    } else if (v->x) {
        verify_c(v, out);
    } else {
        verify_dot(v, out);
    }
    if (v->p->rtl && !v->rtl[0])
        snprintf(v->rtl, sizeof v->rtl, "n/a: nothing was replayed");
    memcpy(out->rtl, v->rtl, sizeof out->rtl);
}

/* Why the reference run failed, into v->why: the first error from index
 * `from` of d, without its file and line. */
static void why_not(cg_flow_verification *v, const cg_diags *d, int from)
{
    const char *why = "the native run of the C code failed";
    for (int i = from; i < cg_diags_size(d); i++)
        if (cg_diags_get(d, i)->sev == CG_SEV_ERROR) {
            why = cg_diags_get(d, i)->msg ? cg_diags_get(d, i)->msg
                                          : "out of memory";
            break;
        }
    snprintf(v->why, sizeof v->why, "%s", why);
}

/* After a reference run that failed: a trip count read from a global is
 * the likely cause, since the run seeds every writable global with random
 * bytes (a count of 32 in the C file becomes any number). */
static void seeded_trip_note(const cg_dfg *g, cg_diags *d)
{
    const cg_nest *n = cg_dfg_nest(g);
    for (int l = 0; n && l < n->nloops; l++)
        if (n->loops[l].trip_in_memory && n->loops[l].trip_sym) {
            cg_diags_add(d, CG_SEV_NOTE, cg_dfg_file(g), n->loops[l].line,
                         "loop '%s': a loop of its nest reads its trip count "
                         "from global '%s', which the reference run fills "
                         "with seeded random bytes as it does every writable "
                         "global, so it may run past its arrays: make the "
                         "count a kernel parameter (--sym then gives its "
                         "value) or a constant", cg_dfg_name(g),
                         n->loops[l].trip_sym);
            return;
        }
}

static bool bad_input(const cg_dfg *g, cg_extract_prog *x,
                      const cg_map_result *r, cg_diags *d)
{
    if (r && (r->status != CG_MAP_MAPPED || !r->mapping || !r->mrrg))
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0, "loop '%s': the "
                     "map result to verify holds no mapping (status is not "
                     "mapped)", cg_dfg_name(g));
    else if (!r && !x)
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0, "loop '%s': "
                     "without a mapping only the C code can be the "
                     "reference (give the compiled program)",
                     cg_dfg_name(g));
    else
        return false;
    return true;
}

int cg_flow_verify(const cg_flow_params *p, const cg_netlist *nl,
                   const cg_dfg *g, cg_extract_prog *x,
                   const cg_flow_tiling *t, const cg_map_result *r,
                   cg_flow_verification *v, cg_diags *d)
{
    if (!p || !g || !v) {
        cg_diags_add(d, CG_SEV_ERROR, g ? cg_dfg_file(g) : NULL, 0,
                     "cg_flow_verify needs parameters, a loop and a place "
                     "for the verdict (one of them is NULL)");
        return -1;
    }
    *v = (cg_flow_verification){CG_FLOW_UNVERIFIED, "", 0, -1, ""};
    if (cg__flow_params_check(p, g, d) != 0 || bad_input(g, x, r, d))
        return -1;
    if (t && t->td && !x) {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0, "loop '%s': a "
                     "tiled run needs the compiled program as its reference",
                     cg_dfg_name(g));
        return -1;
    }
    int from = cg_diags_size(d);
    verify job = {p, nl, r, g, x, t, d, 0, false, ""};
    cg_cosim_result pre;
    /* compile the model before the time-limited run, not inside it */
    if (p->rtl && r && cg_cosim_prepare(nl, &p->cosim, &pre) < 0)
        cg_cosim_text(&pre, job.rtl, sizeof job.rtl);
    cg__flow_limited(p->run_limit_s, cg_dfg_file(g), cg_dfg_name(g),
                     verify_any, &job, v, d);
    if (v->verdict == CG_FLOW_NOT_VERIFIED) {
        why_not(v, d, from);
        seeded_trip_note(g, d);
    }
    return 0;
}
