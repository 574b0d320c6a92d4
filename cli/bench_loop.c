/* bench_loop.c: one loop through the pipeline, into a JSON record: map it,
 * check the mapping, then verify it by simulation.  For a loop extracted
 * from C the reference is the C code itself: the kernel runs natively on
 * seeded data and every execution of the loop (up to
 * CG_CLI_VERIFY_INSTANCES) is replayed by the simulator from the same
 * memory and live-ins, which must leave byte-identical memory and the same
 * live-outs.  A .dot DFG has no C code, so the DFG interpreter is the
 * reference there.
 *
 * A C loop whose nest needs more than one tile of the tile memory is run by
 * the array as its tile DFG: that graph is mapped instead, and verified by
 * the whole tiled run against the native one (bench_tile.c). */
#include "cli/bench.h"
#include "cli/commands.h"

#include <stdlib.h>
#include <string.h>

#define SEED CG_CLI_SEED

typedef struct verify {
    const cg_netlist *nl;
    const cg_map_result *r;
    const cg_dfg *g;
    cg_diags *d;
    int64_t done;       /* executions replayed */
    bool bad;
} verify;

/* Compare a simulated run with the reference; report the first difference
 * so the user can find it. */
static bool same_run(verify *v, const cg_mem *got, const cg_mem *want,
                     const uint64_t *gout, const uint64_t *wout,
                     const char *what)
{
    for (uint64_t b = 0; b < want->size; b++)
        if (got->data[b] != want->data[b]) {
            cg_diags_add(v->d, CG_SEV_ERROR, cg_dfg_file(v->g), 0,
                         "loop '%s': the simulated mapping writes 0x%02x at "
                         "address 0x%llx where %s leaves 0x%02x (this is a "
                         "cgramap bug; please report it)", cg_dfg_name(v->g),
                         got->data[b], (unsigned long long)(want->base + b),
                         what, want->data[b]);
            return false;
        }
    for (int i = 0; i < cg_dfg_nnodes(v->g); i++) {
        const cg_dfg_node *n = cg_dfg_get_node(v->g, i);
        if (n->op == CG_OP_OUTPUT && gout[i] != wout[i]) {
            cg_diags_add(v->d, CG_SEV_ERROR, cg_dfg_file(v->g), n->line,
                         "loop '%s': live-out '%s' is %llu in the simulated "
                         "mapping but %llu in %s (a cgramap bug; please "
                         "report it)", cg_dfg_name(v->g), n->name,
                         (unsigned long long)gout[i],
                         (unsigned long long)wout[i], what);
            return false;
        }
    }
    return true;
}

/* Simulate from before/inputs for iters and compare with after/outputs. */
static bool replay(verify *v, const cg_mem *before, const cg_mem *after,
                   const uint64_t *inputs, const uint64_t *outputs,
                   int64_t iters, const char *what)
{
    size_t nn = (size_t)cg_dfg_nnodes(v->g) + 1;
    cg_mem m = {malloc(before->size ? before->size : 1), before->base,
                before->size};
    uint64_t *out = calloc(nn, sizeof *out);
    bool ok = m.data && out;
    if (ok) {
        memcpy(m.data, before->data, before->size);
        ok = cg_sim_run(v->nl, v->r->mrrg, v->g, v->r->mapping, iters, &m,
                        inputs, out, v->d) == 0 &&
             same_run(v, &m, after, out, outputs, what);
    }
    free(m.data);
    free(out);
    return ok;
}

static void probe(void *arg, const cg_extract_instance *in)
{
    verify *v = arg;
    if (v->bad || v->done >= CG_CLI_VERIFY_INSTANCES)
        return;
    if (!replay(v, in->before, in->after, in->inputs, in->outputs, in->iters,
                "the C code"))
        v->bad = true;
    v->done++;
}

/* "yes", "no", "n/a", or NULL when the native run failed (why in d). */
static const char *verify_c(verify *v, cg_extract_prog *x)
{
    cg_mem mem;
    if (cg_extract_image(x, &mem) != 0)
        return NULL;
    cg_extract_fill_random(x, &mem, SEED);
    int rc = cg_extract_run(x, cg_dfg_name(v->g), &mem, probe, v, NULL,
                            v->d);
    free(mem.data);
    if (v->bad)
        return "no";
    if (rc != 0)
        return NULL;
    if (v->done == 0) {
        cg_diags_add(v->d, CG_SEV_WARNING, cg_dfg_file(v->g), 0,
                     "loop '%s': the kernel never ran the loop on its data, "
                     "so nothing was simulated", cg_dfg_name(v->g));
        return "n/a";
    }
    return "yes";
}

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

/* The value --sym gives the live-in (input node) n, if any. */
static bool sym_value(const cg_cli_syms *s, const cg_dfg_node *n,
                      uint64_t *v)
{
    for (int k = 0; n->op == CG_OP_INPUT && n->sym && k < s->n; k++)
        if (!strcmp(s->v[k].name, n->sym)) {
            *v = (uint64_t)s->v[k].value;
            return true;
        }
    return false;
}

/* The interpreter's run of a .dot DFG on seeded memory and small seeded
 * live-ins (small so that addresses built from them stay in the image),
 * or the values --sym gives them. */
static const char *verify_dot(verify *v, const cg_cli_syms *syms)
{
    size_t nn = (size_t)cg_dfg_nnodes(v->g) + 1;
    uint64_t s = SEED, *in = calloc(nn, 8), *out = calloc(nn, 8);
    cg_mem before = {malloc(CG_CLI_DOT_MEM), 0, CG_CLI_DOT_MEM};
    cg_mem after = {malloc(CG_CLI_DOT_MEM), 0, CG_CLI_DOT_MEM};
    const char *res = "no";
    if (in && out && before.data && after.data) {
        for (size_t i = 0; i < CG_CLI_DOT_MEM; i++)
            before.data[i] = (uint8_t)next_rand(&s);
        for (size_t i = 0; i + 1 < nn; i++) {
            in[i] = next_rand(&s) % 1024;
            sym_value(syms, cg_dfg_get_node(v->g, (int)i), &in[i]);
        }
        memcpy(after.data, before.data, CG_CLI_DOT_MEM);
        cg_diags *id = cg_diags_create();
        if (id && cg_dfg_run(v->g, CG_CLI_DOT_ITERS, &after, in, out, id) != 0) {
            cg_diags_add(v->d, CG_SEV_WARNING, cg_dfg_file(v->g), 0,
                         "loop '%s': not simulated: the DFG interpreter "
                         "cannot run it on seeded data (%s); map the C file "
                         "instead for a full proof", cg_dfg_name(v->g),
                         cg_diags_size(id) ? cg_diags_get(id, 0)->msg : "");
            res = "n/a";
        } else if (id) {
            res = replay(v, &before, &after, in, out, CG_CLI_DOT_ITERS,
                         "the DFG interpreter") ? "yes" : "no";
        }
        cg_diags_destroy(id);
    }
    free(in);
    free(out);
    free(before.data);
    free(after.data);
    return res;
}

/* ---- mapping files --------------------------------------------------- */

typedef struct map_files {
    const cg_map_result *r;
    const cg_netlist *nl;
    const cg_dfg *g;    /* the graph mapped (a tiled loop's tile DFG) */
    const char *loop;   /* the loop's name, for the file names */
} map_files;

static void write_txt(void *a, FILE *f)
{
    const map_files *m = a;
    cg_mapping_write(m->r->mapping, m->r->mrrg, m->nl, m->g, f);
}

static void write_json(void *a, FILE *f)
{
    const map_files *m = a;
    cg_mapping_write_json(m->r->mapping, m->r->mrrg, m->nl, m->g, f);
}

static void write_dot(void *a, FILE *f)
{
    const map_files *m = a;
    cg_mapping_write_dot(m->r->mapping, m->r->mrrg, m->nl, m->g, f);
}

/* DIR/<bench>.<loop>.{txt,json,dot} and the .dot rendered as .svg; false
 * when one could not be written. */
static bool write_mapping(const char *dir, const char *bench,
                          const map_files *m)
{
    static const char *const ext[] = {"txt", "json", "dot"};
    const cg_cli_writer fn[] = {write_txt, write_json, write_dot};
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.%s.%s", dir, bench,
                 m->loop, ext[i]);
        ok &= cg_cli_write_file(path, fn[i], (void *)m) == 0;
    }
    char svg[4096];
    snprintf(svg, sizeof svg, "%s/%s.%s.svg", dir, bench, m->loop);
    return cg_cli_write_svg(svg, write_dot, (void *)m) == 0 && ok;
}

/* ---- the record ---------------------------------------------------------- */

static json_t *messages(cg_diags *d)
{
    json_t *a = json_array();
    for (int i = 0; d && i < cg_diags_size(d); i++) {
        char *s = cg_diag_format(cg_diags_get(d, i));
        if (s)
            json_array_append_new(a, json_string(s));
        free(s);
    }
    return a;
}

json_t *cg_cli_error_record(const char *bench, const char *file,
                            const char *loop, cg_diags *d)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:b, s:s, s:o}", "benchmark",
                     bench, "file", file, "loop", loop ? loop : "-",
                     "status", "error", "checked", 0, "verified", "-",
                     "messages", messages(d));
}

/* The record of loop g; `mapped` is the graph r mapped (g itself, or its
 * tile DFG when the loop runs tiled). */
static json_t *record(const char *bench, const char *file, const cg_dfg *g,
                      const cg_dfg *mapped, const cg_map_result *r,
                      const cg_netlist *nl, const cg_cli_opts *o,
                      bool checked, const char *verified, cg_diags *d)
{
    json_t *cols = cg_cli_map_cols(r, nl, o->map.timeout_s);
    cg_cli_proof_note(cols, g, d);
    json_t *rec = json_pack(
        "{s:s, s:s, s:s, s:i, s:i, s:s, s:b, s:s, s:s, s:o}",
        "benchmark", bench, "file", file, "loop", cg_dfg_name(g), "nodes",
        cg_dfg_nnodes(mapped), "loop_nodes", cg_dfg_nnodes(g), "mapped_dfg",
        mapped == g ? "loop" : "tile", "checked", checked, "verified",
        verified, "solver", cg_map_solver_name(o->map.solver), "messages",
        messages(d));
    json_object_update_new(rec, cols);
    return rec;
}

/* "not verified: <why>" into buf: the first error from index `from` of
 * d, without its file and line. */
static const char *not_verified(const cg_diags *d, int from, char *buf,
                                size_t n)
{
    const char *why = "the native run of the C code failed";
    for (int i = from; i < cg_diags_size(d); i++)
        if (cg_diags_get(d, i)->sev == CG_SEV_ERROR) {
            why = cg_diags_get(d, i)->msg ? cg_diags_get(d, i)->msg
                                          : "out of memory";
            break;
        }
    snprintf(buf, n, "not verified: %s", why);
    return buf;
}

/* Verify a checked mapping of `mapped`: a tiled loop by its tiled run,
 * else by replaying the loop's executions (or the interpreter's run).
 * When the reference run fails nothing was compared: "not verified:
 * <why>" (in buf), never "no". */
typedef struct verify_job {
    verify v;
    const cg_cli_tiling *t;
    const cg_dfg *g;
    cg_extract_prog *x;
    const cg_cli_syms *syms;
} verify_job;

/* The reference run and the comparison (cg_cli_verify_fn). */
static const char *verify_any(void *arg, json_t *cols, cg_diags *d)
{
    verify_job *j = arg;
    j->v.d = d;
    return j->t->td ? cg_cli_verify_tiled(j->t, j->g, j->x, j->v.nl, j->v.r,
                                          cols, d)
         : j->x     ? verify_c(&j->v, j->x)
                    : verify_dot(&j->v, j->syms);
}

static const char *verify_loop(const cg_dfg *g, const cg_dfg *mapped,
                               const cg_cli_tiling *t, cg_extract_prog *x,
                               const cg_netlist *nl, const cg_map_result *r,
                               const cg_cli_opts *o, json_t *cols,
                               cg_diags *d, char *buf, size_t n)
{
    int from = cg_diags_size(d);
    verify_job j = {{nl, r, mapped, d, 0, false}, t, g, x, &o->syms};
    const char *res = cg_cli_verify_limited(o->run_limit_s, cg_dfg_file(g),
                                            cg_dfg_name(g), verify_any, &j,
                                            cols, d);
    return res ? res : not_verified(d, from, buf, n);
}

json_t *cg_cli_loop_run(const char *bench, const char *file, const cg_dfg *g,
                        cg_extract_prog *x, const cg_netlist *nl,
                        const cg_cli_opts *o, cg_diags *d)
{
    cg_cli_tiling t;
    if (x)
        cg_cli_tiling_plan(&t, g, nl);
    else
        memset(&t, 0, sizeof t);
    const cg_dfg *mapped = t.td ? cg_tile_dfg_graph(t.td) : g;
    cg_map_result r;
    memset(&r, 0, sizeof r);
    r.status = CG_MAP_ERROR;
    bool ok = cg_map(nl, mapped, &o->map, &r, d) == 0 &&
              r.status == CG_MAP_MAPPED;
    bool checked = ok && cg_map_check(nl, r.mrrg, mapped, r.mapping, d) == 0;
    json_t *cols = json_object();
    char why[1024];
    const char *verified = !ok ? "-" : !checked ? "no"
                         : verify_loop(g, mapped, &t, x, nl, &r, o, cols, d,
                                       why, sizeof why);
    map_files mf = {&r, nl, mapped, cg_dfg_name(g)};
    if (checked && o->mapping_dir && !write_mapping(o->mapping_dir, bench, &mf))
        cg_diags_add(d, CG_SEV_ERROR, o->mapping_dir, 0, "the mapping files "
                     "of loop '%s' are not all written there (the error "
                     "above says why)", cg_dfg_name(g));
    if (checked && t.msgs) /* why it is not tiled: once it mapped */
        cg_diags_append(d, t.msgs);
    if (checked)
        cg_cli_tiling_cols(cols, &t, mapped, &r, d);
    json_t *rec = record(bench, file, g, mapped, &r, nl, o, checked,
                         verified, d);
    json_object_update_new(rec, cols);
    cg_map_result_free(&r);
    if (x)
        cg_cli_tiling_free(&t);
    return rec;
}

/* ---- one file ------------------------------------------------------------ */

static void push_rec(json_t *recs, json_t *rec)
{
    if (rec)
        json_array_append_new(recs, rec);
}

/* A loop clang removed (typically folded to a formula, s += i): the file
 * compiled again (once, into *kept) keeping exit values computed in the
 * loop.  The DFG (from *from), or NULL with the first error kept in d. */
static cg_dfg *refold(const cg_cli_job *j, const cg_extract_prog *x,
                      const char *tag, cg_extract_prog **kept,
                      cg_extract_prog **from, cg_diags *d)
{
    cg_diags *d2 = cg_diags_create();
    if (!*kept) {
        cg_extract_params p = *cg_extract_prog_params(x);
        p.keep_exit_values = true;
        *kept = cg_extract_open(j->path, &p, d2);
    }
    cg_dfg *g = *kept ? cg_extract_loop(*kept, tag, d2) : NULL;
    if (g) {
        cg_diags_clear(d);
        cg_diags_add(d, CG_SEV_NOTE, j->path, 0, "loop '%s': clang folded "
                     "it away (a formula or nothing left); extracted from "
                     "the file compiled again keeping the loop's exit values "
                     "in it (-mllvm -replexitval=never)", tag);
        cg_diags_append(d, d2);
        *from = *kept;
    }
    cg_diags_destroy(d2);
    return g;
}

/* The loops of a compiled C file: the Makefile's LOOP_TAGS, else all. */
static void run_tags(const cg_cli_job *j, cg_extract_prog *x, char *tags,
                     const cg_netlist *nl, const cg_cli_opts *o,
                     cg_diags *fd, json_t *recs)
{
    cg_extract_prog *kept = NULL;
    char *save = NULL, *t = tags ? strtok_r(tags, " \t", &save) : NULL;
    for (int i = 0; tags ? t != NULL : i < cg_extract_ntags(x); i++) {
        const char *tag = tags ? t : cg_extract_tag(x, i);
        cg_diags *d = cg_diags_create();
        if (i == 0)
            cg_diags_append(d, fd); /* the file's warnings, once */
        cg_extract_prog *from = x;
        cg_diags *dt = cg_diags_create(); /* its "not found" may go */
        cg_dfg *g = cg_extract_loop(x, tag, dt);
        if (!g && cg_extract_loop_gone(x, tag))
            g = refold(j, x, tag, &kept, &from, dt);
        cg_diags_append(d, dt);
        cg_diags_destroy(dt);
        push_rec(recs, g ? cg_cli_loop_run(j->bench, j->path, g, from, nl, o,
                                           d)
                         : cg_cli_error_record(j->bench, j->path, tag, d));
        cg_dfg_destroy(g);
        cg_diags_destroy(d);
        if (tags)
            t = strtok_r(NULL, " \t", &save);
    }
    cg_extract_close(kept);
}

bool cg_cli_array_control(const cg_cli_opts *o, const cg_netlist *nl)
{
    if (o->loop_control != CG_CLI_LOOP_AUTO)
        return o->loop_control == CG_CLI_LOOP_ARRAY;
    for (int i = 0; i < cg_netlist_nprims(nl); i++) {
        const cg_nl_prim *p = cg_netlist_prim(nl, i);
        if (p->p.kind == CG_PRIM_FUNC &&
            (p->p.ops & CG_OPSET(CG_OP_ICMP)))
            return false;
    }
    return true;
}

static void run_c(const cg_cli_job *j, const cg_netlist *nl,
                  const cg_cli_opts *o, json_t *recs)
{
    cg_diags *d = cg_diags_create();
    cg_extract_makefile mk = {0};
    cg_extract_params p;
    cg_extract_params_init(&p);
    p.addr_width = cg_netlist_addr_width(nl); /* the arch's address width */
    p.array_control = cg_cli_array_control(o, nl);
    bool ok = (!j->makefile ||
               (cg_extract_makefile_read(j->makefile, &mk, d) == 0 &&
                (!mk.dfg_flags ||
                 cg_extract_params_parse(&p, mk.dfg_flags, j->makefile,
                                         d) == 0))) &&
              cg_cli_syms_apply(&p, &o->syms, d) == 0;
    p.cflags = mk.cflags;
    cg_extract_prog *x = ok ? cg_extract_open(j->path, &p, d) : NULL;
    char *tags = mk.loop_tags && strspn(mk.loop_tags, " \t") <
                 strlen(mk.loop_tags) ? mk.loop_tags : NULL;
    /* a file named on the command line may have no tag: say so, as
     * `cgramap dfg` does, rather than print no row at all */
    bool untagged = x && !tags && cg_extract_ntags(x) == 0;
    if (untagged)
        cg_diags_add(d, CG_SEV_ERROR, j->path, 0, "no //DFGLOOP: tag in the "
                     "file (put '//DFGLOOP: name' on the line of a loop)");
    if (x && !untagged)
        run_tags(j, x, tags, nl, o, d, recs);
    else
        push_rec(recs, cg_cli_error_record(j->bench, j->path, NULL, d));
    cg_extract_close(x);
    cg_extract_makefile_free(&mk);
    cg_diags_destroy(d);
}

static void run_dot(const cg_cli_job *j, const cg_netlist *nl,
                    const cg_cli_opts *o, json_t *recs)
{
    cg_diags *d = cg_diags_create();
    cg_dfg *g = cg_dfg_read_file(j->path, d); /* .dot, or another mapper's */
    push_rec(recs, g ? cg_cli_loop_run(j->bench, j->path, g, NULL, nl, o, d)
                     : cg_cli_error_record(j->bench, j->path, NULL, d));
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
}

json_t *cg_cli_job_run(const cg_cli_job *j, const cg_netlist *nl,
                       const cg_cli_opts *o)
{
    json_t *recs = json_array();
    if (j->kind == CG_CLI_JOB_C)
        run_c(j, nl, o, recs);
    else
        run_dot(j, nl, o, recs);
    return recs;
}
