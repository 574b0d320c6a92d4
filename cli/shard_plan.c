/* shard_plan.c: the units of a sweep and their shards (cli/shard.h).
 * Every shard reads every array and counts every loop, so that all of
 * them deal the same units the same way without talking to each other.
 * The loops are counted in worker processes, as the main job runs them
 * (a file that crashes the extractor costs its worker, not the shard),
 * once per array: the count probes each loop on its array
 * (shard_cost.c). */
#include "cli/shard.h"

#include "common/diag.h"

#include <stdlib.h>
#include <string.h>

/* Each job's count records, in job order. */
static void on_count(void *arg, int i, json_t *recs)
{
    json_array_set_new(arg, (size_t)i, recs);
}

/* Read and flatten array i; its messages kept for the part. */
static void load_array(cg_cli_plan *p, int i, const cg_cli_cmp_opts *c,
                       const cg_cli_opts *o)
{
    cg_cli_array *x = &p->arr[i];
    cg_diags *d = cg_diags_create();
    p->nl[i] = d ? cg_cli_array_load(x, o->templates, &p->arch[i], d) : NULL;
    x->ok = p->nl[i] != NULL;
    if (x->ok)
        cg_cli_cost_of(p->nl[i], &x->cost);
    if (x->ok && !cg_cli_cmp_wanted(c))
        cg_cli_control_note(o, p->nl[i], d);
    p->arr_msgs[i] = json_array();
    for (int k = 0; d && k < cg_diags_size(d); k++) {
        char *s = cg_diag_format(cg_diags_get(d, k));
        if (s)
            json_array_append_new(p->arr_msgs[i], json_string(s));
        free(s);
    }
    cg_diags_destroy(d);
}

/* Every job's count records on array i (an array per job); NULL when a
 * signal stopped the count. */
static json_t *count_loops(const cg_cli_plan *p, int i, const cg_cli_opts *o)
{
    cg_cli_opts oc = *o;
    oc.count_loops = true;
    oc.mapping_dir = NULL;
    json_t *per_job = json_array();
    for (int k = 0; k < p->jobs.n; k++)
        json_array_append_new(per_job, json_array());
    if (cg_cli_run_jobs(&p->jobs, p->nl[i], &oc, on_count, per_job) != 0) {
        json_decref(per_job);
        return NULL;
    }
    return per_job;
}

/* Append array i's units, from its jobs' count records. */
static int add_units(cg_cli_plan *p, int i, const json_t *per_job)
{
    int fus = p->arr[i].cost.funcunits > 0 ? p->arr[i].cost.funcunits : 1;
    for (int k = 0; k < p->jobs.n; k++) {
        const json_t *recs = json_array_get(per_job, (size_t)k);
        int n = json_array_size(recs) ? (int)json_array_size(recs) : 1;
        cg_cli_unit *u = realloc(p->u, sizeof *u * (size_t)(p->nu + n));
        if (!u)
            return -1;
        p->u = u;
        for (int l = 0; l < n; l++) {
            const json_t *rec = json_array_get(recs, (size_t)l);
            const char *name = json_string_value(json_object_get(rec,
                                                                 "loop"));
            u = &p->u[p->nu++];
            memset(u, 0, sizeof *u);
            u->array = i;
            u->job = k;
            u->loop = l;
            u->name = strdup(name ? name : "-");
            u->nodes = (int)json_integer_value(json_object_get(rec, "nodes"));
            u->mii = (int)json_integer_value(json_object_get(rec, "mii"));
            u->probe = cg_cli_probe_parse(
                json_string_value(json_object_get(rec, "probe")));
            u->cost = cg_cli_shard_cost(u->nodes, u->mii, fus, u->probe);
        }
    }
    return 0;
}

/* Count the loops on every array read and list the units, array by
 * array; 0, or -1 after a message. */
static int list_units(cg_cli_plan *p, const cg_cli_opts *o)
{
    json_t *counts[CG_CLI_MAX_ARRAYS] = {NULL};
    int rc = 0;
    for (int i = 0; i < p->narr && rc == 0; i++) {
        if (!p->nl[i])
            continue;
        counts[i] = count_loops(p, i, o);
        if (!counts[i]) {
            fprintf(stderr, "cgramap: stopped while counting the loops; no "
                    "loop was run and no part written\n");
            rc = -1;
        } else if (add_units(p, i, counts[i]) != 0) {
            fprintf(stderr, "cgramap: out of memory planning the shards\n");
            rc = -1;
        }
    }
    for (int i = 0; i < p->narr; i++)
        json_decref(counts[i]);
    return rc;
}

static int split(cg_cli_plan *p, int nshards)
{
    double *cost = malloc(sizeof *cost * (size_t)(p->nu ? p->nu : 1));
    int *shard = malloc(sizeof *shard * (size_t)(p->nu ? p->nu : 1));
    int rc = cost && shard ? 0 : -1;
    for (int k = 0; rc == 0 && k < p->nu; k++)
        cost[k] = p->u[k].cost;
    if (rc == 0)
        rc = cg_cli_shard_split(cost, p->nu, nshards, shard);
    for (int k = 0; rc == 0 && k < p->nu; k++)
        p->u[k].shard = shard[k];
    free(cost);
    free(shard);
    if (rc)
        fprintf(stderr, "cgramap: out of memory planning the shards\n");
    return rc;
}

int cg_cli_plan_make(cg_cli_plan *p, const cg_cli_cmp_opts *c,
                     const cg_cli_opts *o, char *const *paths, int npaths)
{
    memset(p, 0, sizeof *p);
    if (cg_cli_arrays(c, p->arr, &p->narr) != 0)
        return -1;
    for (int i = 0; i < p->narr; i++)
        load_array(p, i, c, o);
    for (int i = 0; i < npaths; i++)
        p->scan_failed |= cg_cli_scan(paths[i], &p->jobs) != 0;
    if (list_units(p, o) != 0)
        return -1;
    return split(p, o->nshards);
}

void cg_cli_print_msgs(const json_t *msgs, FILE *f)
{
    size_t i;
    json_t *m;
    json_array_foreach(msgs, i, m)
        fprintf(f, "%s\n", json_string_value(m));
    fflush(f);
}

void cg_cli_plan_free(cg_cli_plan *p)
{
    for (int i = 0; i < p->narr; i++) {
        cg_netlist_destroy(p->nl[i]);
        cg_arch_destroy(p->arch[i]);
        json_decref(p->arr_msgs[i]);
    }
    cg_cli_arrays_free(p->arr, p->narr);
    cg_cli_jobs_free(&p->jobs);
    for (int k = 0; k < p->nu; k++)
        free(p->u[k].name);
    free(p->u);
    memset(p, 0, sizeof *p);
}
