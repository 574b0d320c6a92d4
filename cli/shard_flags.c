/* shard_flags.c: the options that decide a row, written into every part
 * so that `cgramap merge` refuses parts of different sweeps by name and
 * parses the very same options again for its report.  Each value is kept
 * as the text the command line takes (numbers with 17 digits, which read
 * back to the same double), every option given even at its default: a
 * part says what ran, whatever the defaults of the cgramap reading it. */
#include "cli/shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The keys in the order the command line gets them back ("--ii" before
 * "--max-ii": --ii sets the top too, --max-ii then says the top). */
static const char *const keys[] = {
    "--arch", "--templates", "--param", "--timeout", "--time-limit", "--ii",
    "--max-ii", "--mapper", "--solver", "--seed", "--steps", "--moves",
    "--ilp-nodes", "--repair-tries", "--cluster-above", "--conflicts",
    "--horizon", "--sat-literals", "--run-timeout", "--loop-control",
    "--rtl-sim", "--sym", "paths", NULL,
};

static void put_real(json_t *f, const char *key, double v)
{
    char b[40];
    snprintf(b, sizeof b, "%.17g", v);
    json_object_set_new(f, key, json_string(b));
}

static void put_int(json_t *f, const char *key, long long v)
{
    char b[40];
    snprintf(b, sizeof b, "%lld", v);
    json_object_set_new(f, key, json_string(b));
}

/* --param NAME=V1,V2,... as given. */
static json_t *param_specs(const cg_cli_cmp_opts *c)
{
    json_t *a = json_array();
    for (int i = 0; i < c->nparam; i++) {
        const cg_cli_param *p = &c->param[i];
        char spec[4096];
        int at = snprintf(spec, sizeof spec, "%s=", p->name);
        for (int v = 0; v < p->nvalue && at < (int)sizeof spec; v++)
            at += snprintf(spec + at, sizeof spec - (size_t)at, "%s%.*s",
                           v ? "," : "", p->len[v], p->value[v]);
        json_array_append_new(a, json_string(spec));
    }
    return a;
}

static json_t *sym_specs(const cg_cli_syms *s)
{
    json_t *a = json_array();
    for (int i = 0; i < s->n; i++) {
        char b[512];
        snprintf(b, sizeof b, "%s=%lld", s->v[i].name,
                 (long long)s->v[i].value);
        json_array_append_new(a, json_string(b));
    }
    return a;
}

static void effort_flags(json_t *f, const cg_map_params *m)
{
    if (m->timeout_s == m->large_timeout_s)
        put_real(f, "--timeout", m->timeout_s);
    if (m->time_limit_s > 0)
        put_real(f, "--time-limit", m->time_limit_s);
    if (m->min_ii > 0)
        put_int(f, "--ii", m->min_ii);
    if (m->max_ii > 0) /* 0: the top follows the MII (cg_map_top_ii) */
        put_int(f, "--max-ii", m->max_ii);
    json_object_set_new(f, "--mapper",
                        json_string(cg_map_search_name(m->search)));
    json_object_set_new(f, "--solver",
                        json_string(cg_map_solver_name(m->solver)));
    put_int(f, "--seed", m->seed);
    /* given, a flag sets both budgets; left out, the shard keeps the
       defaults, which differ by the DFG's size */
    if (m->heur_steps == m->large_steps)
        put_int(f, "--steps", m->heur_steps);
    if (m->nego_moves == m->large_moves && m->nego_moves == m->retry_moves)
        put_int(f, "--moves", m->nego_moves);
    put_int(f, "--ilp-nodes", m->ilp_nodes);
    put_int(f, "--repair-tries", m->partial_tries);
    put_int(f, "--cluster-above", m->cluster_threshold);
    if (m->sat_conflicts == m->large_conflicts &&
        m->sat_conflicts == m->large_rec_conflicts)
        put_int(f, "--conflicts", m->sat_conflicts);
    put_int(f, "--horizon", m->sat_horizon);
    put_int(f, "--sat-literals", m->sat_max_literals);
}

json_t *cg_cli_flags(const cg_cli_opts *o, const cg_cli_cmp_opts *c,
                     char *const *paths, int npaths)
{
    static const char *const control[] = {"auto", "dfg", "array"};
    json_t *f = json_object();
    json_t *arch = json_array();
    for (int i = 0; i < c->narch; i++)
        json_array_append_new(arch, json_string(c->arch[i]));
    json_object_set_new(f, "--arch", arch);
    if (o->templates)
        json_object_set_new(f, "--templates", json_string(o->templates));
    json_object_set_new(f, "--param", param_specs(c));
    effort_flags(f, &o->map);
    put_real(f, "--run-timeout", o->run_limit_s);
    json_object_set_new(f, "--loop-control",
                        json_string(control[o->loop_control]));
    /* --rtl as the simulator it implies: the rows' rtl words depend on
       it, where the models are cached (--rtl-cache) does not */
    if (o->rtl)
        json_object_set_new(f, "--rtl-sim", json_string(cg_cosim_tool_name(
                                                (cg_cosim_tool)o->rtl_tool)));
    json_object_set_new(f, "--sym", sym_specs(&o->syms));
    json_t *p = json_array();
    for (int i = 0; i < npaths; i++)
        json_array_append_new(p, json_string(paths[i]));
    json_object_set_new(f, "paths", p);
    return f;
}

/* Append s (copied) to argv. */
static void push_arg(char **argv, int *argc, const char *s)
{
    argv[(*argc)++] = strdup(s);
}

char **cg_cli_flags_argv(const json_t *flags, int *argc)
{
    size_t n = 2;
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)flags, key, v)
        n += 2 * (json_is_array(v) ? json_array_size(v) : 1);
    char **argv = calloc(n, sizeof *argv);
    if (!argv)
        return NULL;
    *argc = 0;
    push_arg(argv, argc, "cgramap");
    for (int k = 0; keys[k]; k++) {
        json_t *val = json_object_get(flags, keys[k]);
        bool path = !strcmp(keys[k], "paths");
        size_t i;
        json_t *e;
        if (json_is_string(val)) {
            push_arg(argv, argc, keys[k]);
            push_arg(argv, argc, json_string_value(val));
        }
        json_array_foreach(val, i, e) {
            if (!path)
                push_arg(argv, argc, keys[k]);
            push_arg(argv, argc, json_string_value(e));
        }
    }
    return argv;
}

void cg_cli_flags_argv_free(char **argv)
{
    for (int i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

/* v, key's value, as text: a string, or an array's strings joined by
 * blanks. */
static void flag_text(const char *key, const json_t *v, char *buf, size_t n)
{
    if (!v) { /* not given: "none" read as a value the option refuses */
        snprintf(buf, n, "%s", strcmp(key, "--rtl-sim")
                                   ? "(left out: its default)"
                                   : "none (no --rtl)");
        return;
    }
    if (json_is_string(v)) {
        snprintf(buf, n, "%s", json_string_value(v));
        return;
    }
    size_t at = 0, i;
    json_t *e;
    buf[0] = '\0';
    json_array_foreach(v, i, e)
        if (at < n)
            at += (size_t)snprintf(buf + at, n - at, "%s%s", i ? " " : "",
                                   json_string_value(e));
    if (json_array_size(v) == 0)
        snprintf(buf, n, "none");
}

const char *cg_cli_flags_diff(const json_t *a, const json_t *b, char *va,
                              char *vb, size_t n)
{
    for (int k = 0; keys[k]; k++) {
        json_t *x = json_object_get(a, keys[k]), *y = json_object_get(b,
                                                                       keys[k]);
        if ((x || y) && !(x && y && json_equal(x, y))) {
            flag_text(keys[k], x, va, n);
            flag_text(keys[k], y, vb, n);
            return keys[k];
        }
    }
    return NULL;
}
