/* bench_loop.c: one loop of the main job into its JSON record.  The loop
 * runs through the flow stage (cg_flow_loop: tiling plan, map, check,
 * schedule, reference run and simulation compared); this file turns the
 * flow's result into the record the rows, --json and --csv print, and
 * writes the --mapping-dir files.  It also reads a job's file: the loops of
 * a C file (extracted with its Makefile's flags), or a .dot DFG.
 */
#include "cli/bench.h"
#include "cli/commands.h"
#include "cli/makefile.h"
#include "cli/shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cg_cli_flow_params(const cg_cli_opts *o, cg_flow_params *p)
{
    cg_flow_params_init(p);
    p->map = o->map;
    if (o->slot) {
        p->map.progress = cg_cli_progress_stage;
        p->map.progress_arg = o->slot;
    }
    p->run_limit_s = o->run_limit_s;
    p->rtl = o->rtl;
    p->cosim.tool = (cg_cosim_tool)o->rtl_tool;
    p->cosim.cache_dir = o->rtl_cache ? o->rtl_cache : o->rtl_cache_dflt;
    p->nsyms = o->syms.n;
    memcpy(p->syms, o->syms.v, (size_t)o->syms.n * sizeof *o->syms.v);
}

/* ---- mapping files --------------------------------------------------- */

typedef struct map_files {
    const cg_map_result *r;
    const cg_netlist *nl;
    const cg_dfg *g;    /* the graph mapped (a tiled loop's tile DFG) */
    const char *loop;   /* the loop's name, for the file names */
    cg_mem_order *orders; /* g's memory order as the mapper derived it */
    int norders;
} map_files;

static int write_txt(void *a, FILE *f)
{
    const map_files *m = a;
    return cg_mapping_write(m->r->mapping, m->r->mrrg, m->nl, m->g, f);
}

static int write_json(void *a, FILE *f)
{
    const map_files *m = a;
    return cg_mapping_write_json(m->r->mapping, m->r->mrrg, m->nl, m->g, f);
}

static int write_dot(void *a, FILE *f)
{
    const map_files *m = a;
    return cg_mapping_write_dot(m->r->mapping, m->r->mrrg, m->nl, m->g, f);
}

static int write_pe_dot(void *a, FILE *f)
{
    const map_files *m = a;
    return cg_mapping_write_pe_dot(m->r->mapping, m->r->mrrg, m->nl, m->g,
                                   f);
}

/* The graph mapped, so that `cgramap check` and `sim` can read the
 * mapping back (a tiled loop's tile DFG exists nowhere else). */
static int write_dfg(void *a, FILE *f)
{
    const map_files *m = a;
    return cg_dfg_write_dot_ordered(m->g, m->orders, m->norders, f);
}

/* DIR/<bench>.<loop>.{txt,json,dot,dfg.dot}, the .dot rendered as .svg
 * and the PE-level picture as .pe.svg; false when one could not be
 * written. */
static bool write_mapping(const char *dir, const char *bench,
                          const map_files *m)
{
    static const char *const ext[] = {"txt", "json", "dot", "dfg.dot"};
    const cg_cli_writer fn[] = {write_txt, write_json, write_dot, write_dfg};
    if (m->norders < 0) { /* no memory for the order: nothing written */
        fprintf(stderr, "cgramap: out of memory saving loop '%s'\n",
                m->loop);
        return false;
    }
    if (strchr(m->loop, '/')) { /* a DFG's own name: the files would land
                                   in another folder */
        fprintf(stderr, "%s: error: loop '%s' has a '/' in its name, which "
                "names its mapping files; rename its graph (the digraph's "
                "name)\n", dir, m->loop);
        return false;
    }
    bool ok = true;
    for (int i = 0; i < 4; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.%s.%s", dir, bench,
                 m->loop, ext[i]);
        ok &= cg_cli_write_file(path, fn[i], (void *)m) == 0;
    }
    char svg[4096];
    snprintf(svg, sizeof svg, "%s/%s.%s.svg", dir, bench, m->loop);
    ok &= cg_cli_write_svg(svg, write_dot, (void *)m) == 0;
    snprintf(svg, sizeof svg, "%s/%s.%s.pe.svg", dir, bench, m->loop);
    return cg_cli_write_svg(svg, write_pe_dot, (void *)m) == 0 && ok;
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
    json_t *cols = cg_cli_map_cols(r, nl, r->timeout_s);
    if (!cols) /* the row's messages say why its columns are missing */
        cg_diags_add(d, CG_SEV_ERROR, file, 0, "loop '%s': out of memory "
                     "writing the mapping columns", cg_dfg_name(g));
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

/* The record's "verified": "-", "no", "yes", "n/a" or "not verified:
 * <why>" (in buf). */
static const char *verified_text(const cg_flow_verification *v, char *buf,
                                 size_t n)
{
    if (v->verdict != CG_FLOW_NOT_VERIFIED)
        return cg_flow_verdict_name(v->verdict);
    snprintf(buf, n, "not verified: %s", v->why);
    return buf;
}

/* The columns of the tiled run and of the tiling's plan and schedule. */
static json_t *tiling_cols(const cg_flow_result *fr)
{
    json_t *cols = json_object();
    if (fr->verification.tile_runs >= 0)
        json_object_set_new(cols, "tile_runs",
                            json_integer(fr->verification.tile_runs));
    if (!fr->scheduled)
        return cols;
    const cg_tile_summary *u = cg_tile_plan_summary(fr->tiling.plan);
    json_object_set_new(cols, "tiles", json_integer(u->ntiles));
    json_object_set_new(cols, "dma_bytes", json_integer(u->traffic));
    json_object_set_new(cols, "dma_bound", json_real(u->bound));
    json_object_set_new(cols, "dma_ratio", json_real(u->ratio));
    json_object_set_new(cols, "bound_kind",
                        json_string(cg_tile_bound_name(u->bound_kind)));
    json_object_set_new(cols, "mem_use", json_real(u->mem_use));
    json_object_set_new(cols, "cycles",
                        json_integer(fr->sched.total_cycles));
    json_object_set_new(cols, "stalls",
                        json_integer(fr->sched.stall_cycles));
    json_object_set_new(cols, "dma_cycles",
                        json_integer(fr->sched.dma_busy_cycles));
    return cols;
}

json_t *cg_cli_loop_run(const char *bench, const char *file, const cg_dfg *g,
                        cg_extract_prog *x, const cg_netlist *nl,
                        const cg_cli_opts *o, cg_diags *d)
{
    cg_flow_params fp;
    cg_cli_flow_params(o, &fp);
    cg_cli_progress_loop(o->slot, cg_dfg_name(g));
    cg_flow_result fr;
    cg_flow_loop(nl, g, x, &fp, &fr, d);
    map_files mf = {&fr.map, nl, fr.mapped, cg_dfg_name(g), NULL, 0};
    if (fr.checked && o->mapping_dir)
        mf.norders = cg_map_mem_orders(fr.mapped, &mf.orders);
    if (fr.checked && o->mapping_dir &&
        !write_mapping(o->mapping_dir, bench, &mf))
        cg_diags_add(d, CG_SEV_ERROR, o->mapping_dir, 0, "the mapping files "
                     "of loop '%s' are not all written there (the error "
                     "above says why)", cg_dfg_name(g));
    free(mf.orders);
    char why[1100];
    json_t *rec = record(bench, file, g, fr.mapped, &fr.map, nl, o,
                         fr.checked, verified_text(&fr.verification, why,
                                                   sizeof why), d);
    json_object_update_new(rec, tiling_cols(&fr));
    if (o->rtl)
        json_object_set_new(rec, "rtl", json_string(fr.verification.rtl[0]
                                                    ? fr.verification.rtl
                                                    : "n/a: not verified"));
    cg_flow_result_free(&fr);
    return rec;
}

/* ---- one file ------------------------------------------------------------ */

/* Append a loop's record; one that could not be built or kept (no
 * memory) is said on stderr, never lost silently. */
static void push_rec(json_t *recs, json_t *rec, const char *path)
{
    if (!rec || json_array_append_new(recs, rec) != 0)
        fprintf(stderr, "cgramap: %s: out of memory: a loop's row is lost\n",
                path);
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

/* Loop tag of file j through the flow into its record; fd, the file's
 * warnings, go into it (the first loop's). */
static void run_tag(const cg_cli_job *j, cg_extract_prog *x, const char *tag,
                    cg_diags *fd, cg_extract_prog **kept,
                    const cg_netlist *nl, const cg_cli_opts *o, json_t *recs)
{
    cg_diags *d = cg_diags_create();
    if (fd)
        cg_diags_append(d, fd); /* the file's warnings, once */
    cg_extract_prog *from = x;
    cg_diags *dt = cg_diags_create(); /* its "not found" may go */
    cg_dfg *g = cg_extract_loop(x, tag, dt);
    if (!g && cg_extract_loop_gone(x, tag))
        g = refold(j, x, tag, kept, &from, dt);
    cg_diags_append(d, dt);
    cg_diags_destroy(dt);
    push_rec(recs, g ? cg_cli_loop_run(j->bench, j->path, g, from, nl, o, d)
                     : cg_cli_error_record(j->bench, j->path, tag, d),
             j->path);
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
}

/* A shard's plan: the loop's name, node count, MII and probe on nl (the
 * cost estimate, cli/shard.h); only the name when it does not extract as
 * it is. */
static void count_tag(const cg_cli_job *j, cg_extract_prog *x,
                      const char *tag, const cg_netlist *nl, json_t *recs)
{
    cg_diags *d = cg_diags_create();
    cg_dfg *g = d ? cg_extract_loop(x, tag, d) : NULL;
    push_rec(recs, cg_cli_count_record(tag, g, nl), j->path);
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
}

/* How many of the words before tag t (a word of tags, cut in place by
 * strtok_r) are t? */
static int times_before(const char *tags, const char *t)
{
    int k = 0;
    for (const char *w = tags; w < t; w += strlen(w) + 1) {
        w += strspn(w, " \t");
        k += w < t && !strcmp(w, t);
    }
    return k;
}

/* A warning in d, for the file's first row, per tag that LOOP_TAGS
 * (tags) names again. */
static void warn_repeats(const char *makefile, const char *tags, cg_diags *d)
{
    char *copy = strdup(tags), *save = NULL;
    for (char *t = copy ? strtok_r(copy, " \t", &save) : NULL; t;
         t = strtok_r(NULL, " \t", &save))
        if (times_before(copy, t) == 1)
            cg_diags_add(d, CG_SEV_WARNING, makefile, 0, "LOOP_TAGS names "
                         "'%s' more than once; its loop runs once", t);
    free(copy);
}

/* The loops of a compiled C file: the Makefile's LOOP_TAGS, else all;
 * only the j->loop-th when j is a shard's unit. */
static void run_tags(const cg_cli_job *j, cg_extract_prog *x, char *tags,
                     const cg_netlist *nl, const cg_cli_opts *o,
                     cg_diags *fd, json_t *recs)
{
    cg_extract_prog *kept = NULL;
    if (tags && fd)
        warn_repeats(j->makefile, tags, fd);
    char *save = NULL, *t = tags ? strtok_r(tags, " \t", &save) : NULL;
    for (int i = 0; tags ? t != NULL : i < cg_extract_ntags(x);
         i++, t = tags ? strtok_r(NULL, " \t", &save) : NULL) {
        const char *tag = tags ? t : cg_extract_tag(x, i);
        if (j->loop >= 0 && i != j->loop)
            continue;
        if (tags && times_before(tags, t) > 0)
            continue; /* it ran twice, two rows (warn_repeats) */
        if (o->count_loops)
            count_tag(j, x, tag, nl, recs);
        else
            run_tag(j, x, tag, i == 0 ? fd : NULL, &kept, nl, o, recs);
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

void cg_cli_control_note(const cg_cli_opts *o, const cg_netlist *nl,
                         cg_diags *d)
{
    if (o->loop_control == CG_CLI_LOOP_AUTO && cg_cli_array_control(o, nl))
        cg_diags_add(d, CG_SEV_NOTE, o->arch, 0, "no unit of the "
                     "architecture computes icmp: loops extracted from C "
                     "leave their loop control to the array's controller, as "
                     "CGRA-ME's do (no exit compare); --loop-control dfg "
                     "keeps it");
}

/* A job whose diagnostics cannot even be created says so and gives no
 * row (nothing could be reported in it). */
static bool diags_ok(const cg_diags *d, const cg_cli_job *j)
{
    if (!d)
        fprintf(stderr, "cgramap: %s: out of memory: its rows are lost\n",
                j->path);
    return d != NULL;
}

static void run_c(const cg_cli_job *j, const cg_netlist *nl,
                  const cg_cli_opts *o, json_t *recs)
{
    cg_diags *d = cg_diags_create();
    if (!diags_ok(d, j))
        return;
    cg_extract_makefile mk = {0};
    cg_extract_params p;
    cg_extract_params_init(&p);
    p.addr_width = cg_netlist_addr_width(nl); /* the arch's address width */
    p.array_control = cg_cli_array_control(o, nl);
    bool ok = (!j->makefile ||
               cg_cli_makefile_apply(j->makefile, &mk, &p, d) == 0) &&
              cg_cli_syms_apply(&p, &o->syms, d) == 0;
    cg_extract_prog *x = ok ? cg_extract_open(j->path, &p, d) : NULL;
    char *tags = mk.loop_tags && strspn(mk.loop_tags, " \t") <
                 strlen(mk.loop_tags) ? mk.loop_tags : NULL;
    /* a file named on the command line may have no tag: say so, as
     * `cgramap dfg` does, rather than print no row at all */
    bool untagged = x && !tags && cg_extract_ntags(x) == 0;
    /* (a file whose every tag was refused has its errors in d already) */
    if (untagged && cg_diags_errors(d) == 0)
        cg_diags_add(d, CG_SEV_ERROR, j->path, 0, "no //DFGLOOP: tag in the "
                     "file (put '//DFGLOOP: name' on the line of a loop)");
    if (x && !untagged)
        run_tags(j, x, tags, nl, o, d, recs);
    else if (j->loop <= 0) /* the file's one record: its first unit's */
        push_rec(recs, cg_cli_error_record(j->bench, j->path, NULL, d), j->path);
    cg_extract_close(x);
    cg_extract_makefile_free(&mk);
    cg_diags_destroy(d);
}

static void run_dot(const cg_cli_job *j, const cg_netlist *nl,
                    const cg_cli_opts *o, json_t *recs)
{
    cg_diags *d = cg_diags_create();
    if (!diags_ok(d, j))
        return;
    cg_dfg *g = cg_dfg_read_file(j->path, d); /* .dot, or another mapper's */
    if (g && o->count_loops)
        push_rec(recs, cg_cli_count_record(cg_dfg_name(g), g, nl),
                 j->path);
    else
        push_rec(recs, g ? cg_cli_loop_run(j->bench, j->path, g, NULL, nl, o,
                                           d)
                         : cg_cli_error_record(j->bench, j->path, NULL, d),
                 j->path);
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
