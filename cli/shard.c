/* shard.c: `cgramap --shard I/N --json PART.json [OPTION]... PATH...`.
 * The shard plans the whole sweep (shard_plan.c), runs its own units
 * array by array through the main job's workers (each unit a file limited
 * to one loop), prints their rows under each array's line, and writes the
 * part: its version, the flags that decide a row, the whole plan, the
 * arrays and its units' records.  The part is written whole or not at all
 * (a temporary file renamed), and not at all when a signal stopped the
 * shard: a part is always complete, so the merge never takes an
 * interrupted row for a result. */
#include "cli/shard.h"
#include "cli/commands.h"
#include "common/version.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

typedef struct shard_run {
    const cg_cli_plan *p;
    const int *unit;    /* the unit of each job run, by job index */
    json_t *recs;       /* each of the plan's units: its records, or null */
    int failed;
} shard_run;

static void on_done(void *arg, int i, json_t *recs)
{
    shard_run *r = arg;
    size_t k;
    json_t *rec;
    json_array_foreach(recs, k, rec) {
        cg_cli_row(rec, stdout, stderr);
        r->failed |= !cg_cli_record_ok(rec);
    }
    json_array_set_new(r->recs, (size_t)r->unit[i], recs);
}

/* Shard s's units on array a as jobs (each limited to its loop), their
 * unit numbers in unit[]. */
static int units_of(const cg_cli_plan *p, int a, int s, cg_cli_jobs *jobs,
                    int *unit)
{
    jobs->n = 0;
    for (int k = 0; k < p->nu; k++)
        if (p->u[k].array == a && p->u[k].shard == s) {
            jobs->v[jobs->n] = p->jobs.v[p->u[k].job];
            jobs->v[jobs->n].loop = p->u[k].loop;
            unit[jobs->n++] = k;
        }
    return jobs->n;
}

/* Run shard o->shard's units on array a; the signal that stopped them,
 * or 0. */
static int run_array(shard_run *r, int a, const cg_cli_opts *o,
                     const cg_cli_cmp_opts *c, cg_cli_jobs *jobs, int *unit)
{
    const cg_cli_plan *p = r->p;
    if (units_of(p, a, o->shard, jobs, unit) == 0)
        return 0;
    cg_cli_cmp_array_line(&p->arr[a], stdout);
    cg_cli_row_header(stdout);
    cg_cli_opts oa = *o;
    char *mdir = o->mapping_dir && cg_cli_cmp_wanted(c)
                     ? cg_cli_cmp_mapping_dir(o->mapping_dir, p->arr[a].label)
                     : NULL;
    if (mdir)
        oa.mapping_dir = mdir;
    r->unit = unit;
    int sig = cg_cli_run_jobs(jobs, p->nl[a], &oa, on_done, r);
    free(mdir);
    if (sig < 0) { /* out of memory, said */
        r->failed = 1;
        return 0;
    }
    return sig;
}

static json_t *cost_json(const cg_cli_cost *c)
{
    return json_pack("{s:i, s:f, s:i, s:i, s:i, s:i, s:i, s:i, s:I, s:f}",
                     "funcunits", c->funcunits, "fu_weight", c->fu_weight,
                     "muxes", c->muxes, "mux_inputs", c->mux_inputs,
                     "registers", c->registers, "memunits", c->memunits,
                     "consts", c->consts, "ios", c->ios, "mem_bytes",
                     (json_int_t)c->mem_bytes, "total", c->total);
}

static json_t *arrays_json(const cg_cli_plan *p)
{
    json_t *a = json_array();
    for (int i = 0; i < p->narr; i++)
        json_array_append_new(a, json_pack(
            "{s:s, s:b, s:o, s:O}", "label", p->arr[i].label, "ok",
            p->arr[i].ok, "cost", cost_json(&p->arr[i].cost), "messages",
            p->arr_msgs[i]));
    return a;
}

/* The whole plan: every unit with its shard, so that the merge sees
 * that every part dealt the same units, and which are missing. */
static json_t *plan_json(const cg_cli_plan *p)
{
    json_t *files = json_array(), *units = json_array();
    for (int k = 0; k < p->jobs.n; k++)
        json_array_append_new(files, json_string(p->jobs.v[k].path));
    for (int k = 0; k < p->nu; k++) {
        const cg_cli_unit *u = &p->u[k];
        json_array_append_new(units, json_pack(
            "{s:i, s:i, s:s, s:i, s:i, s:s, s:f, s:i}", "array", u->array,
            "file", u->job, "loop", u->name, "nodes", u->nodes, "mii", u->mii,
            "probe", cg_cli_probe_name(u->probe), "cost", u->cost, "shard",
            u->shard));
    }
    return json_pack("{s:o, s:o, s:b}", "files", files, "units", units,
                     "scan_failed", p->scan_failed);
}

/* This shard's units with their records. */
static json_t *units_json(const shard_run *r, int s)
{
    json_t *a = json_array();
    for (int k = 0; k < r->p->nu; k++)
        if (r->p->u[k].shard == s)
            json_array_append_new(a, json_pack(
                "{s:i, s:O}", "unit", k, "records",
                json_array_get(r->recs, (size_t)k)));
    return a;
}

static int write_part(const shard_run *r, const cg_cli_opts *o,
                      const cg_cli_cmp_opts *c, char *const *paths,
                      int npaths)
{
    json_t *part = json_pack(
        "{s:i, s:s, s:o, s:[i, i], s:o, s:o, s:o}", "cgramap_part",
        CG_CLI_PART_FORMAT, "version", cg_version(), "flags",
        cg_cli_flags(o, c, paths, npaths), "shard", o->shard, o->nshards,
        "arrays", arrays_json(r->p), "plan", plan_json(r->p), "units",
        units_json(r, o->shard));
    int rc = part ? cg_cli_write_json(o->json, part) : -1;
    if (!part)
        fprintf(stderr, "cgramap: out of memory: the part %s is not "
                "written\n", o->json);
    json_decref(part);
    return rc;
}

/* Run the shard's units array by array; the signal that stopped them. */
static int run_units(shard_run *r, const cg_cli_opts *o,
                     const cg_cli_cmp_opts *c)
{
    const cg_cli_plan *p = r->p;
    cg_cli_jobs jobs = {calloc((size_t)p->nu + 1, sizeof *jobs.v), 0, 0};
    int *unit = calloc((size_t)p->nu + 1, sizeof *unit);
    int sig = 0;
    if (!jobs.v || !unit) {
        fprintf(stderr, "cgramap: out of memory: no loop was run\n");
        r->failed = 1;
    }
    for (int a = 0; jobs.v && unit && a < p->narr && !sig; a++) {
        cg_cli_print_msgs(p->arr_msgs[a], stderr);
        r->failed |= !p->arr[a].ok;
        if (p->nl[a])
            sig = run_array(r, a, o, c, &jobs, unit);
    }
    free(jobs.v); /* the jobs' strings are the plan's */
    free(unit);
    return sig;
}

int cg_cli_shard_run(const cg_cli_cmp_opts *c, const cg_cli_opts *o,
                     char *const *paths, int npaths)
{
    cg_cli_plan p;
    if (cg_cli_plan_make(&p, c, o, paths, npaths) != 0) {
        cg_cli_plan_free(&p);
        return 1;
    }
    shard_run r = {&p, NULL, json_array(), p.scan_failed};
    for (int k = 0; k < p.nu; k++)
        json_array_append_new(r.recs, json_null());
    int sig = run_units(&r, o, c);
    if (sig)
        fprintf(stderr, "cgramap: stopped by %s: shard %d/%d wrote no part "
                "(%s); run it again\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
                o->shard, o->nshards, o->json);
    else if (write_part(&r, o, c, paths, npaths) != 0)
        r.failed = 1;
    json_decref(r.recs);
    cg_cli_plan_free(&p);
    return sig ? 128 + sig : r.failed ? 1 : 0;
}
