/* merge_cmd.c: `cgramap merge PART.json... [--json F] [--csv F]
 * [--report DIR]`: the parts of a sharded sweep (cli/shard.h) into what
 * one run of the whole sweep prints and writes: the rows under each
 * array, the comparison table, --json, --csv and the report, from the same
 * records in the same order through the same code.  Only the seconds
 * differ, as between any two runs.
 *
 * Everything is checked before anything is printed or written: the
 * parts must be of one cgramap version, one set of flags and one plan,
 * each shard given once and none missing. */
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/compare.h"
#include "cli/shard.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct part {
    const char *path;
    json_t *j;
    int shard, nshards;
} part;

static const char *field_str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "none";
}

/* Read one part; 0, or -1 after "PATH: error: ...". */
static int part_read(part *p, const char *path)
{
    json_error_t e;
    p->path = path;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: error: is a directory, not a file; give the "
                "--json files the shards wrote\n", path);
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: error: cannot open the part: %s; check the "
                "path\n", path, strerror(errno));
        return -1;
    }
    p->j = json_loadf(f, 0, &e);
    fclose(f);
    if (!p->j) {
        char at[16] = ""; /* jansson's line, when it has one */
        if (e.line >= 1)
            snprintf(at, sizeof at, ":%d", e.line);
        fprintf(stderr, "%s%s: error: not a part of a sweep: %s; give the "
                "--json files the shards wrote\n", path, at, e.text);
        return -1;
    }
    json_t *sh = json_object_get(p->j, "shard");
    if (json_integer_value(json_object_get(p->j, "cgramap_part")) !=
            CG_CLI_PART_FORMAT || !json_is_object(json_object_get(p->j,
                                                                  "plan")) ||
        json_array_size(sh) != 2) {
        fprintf(stderr, "%s: error: not a part of a sweep (no \"cgramap_part"
                "\": %d, \"shard\" and \"plan\"); give the --json files that "
                "cgramap --shard I/N wrote\n", path, CG_CLI_PART_FORMAT);
        return -1;
    }
    p->shard = (int)json_integer_value(json_array_get(sh, 0));
    p->nshards = (int)json_integer_value(json_array_get(sh, 1));
    if (p->shard < 1 || p->shard > p->nshards ||
        p->nshards > CG_CLI_MAX_SHARDS) {
        fprintf(stderr, "%s: error: shard %d/%d is no shard of a split; "
                "give the --json files that cgramap --shard I/N wrote\n",
                path, p->shard, p->nshards);
        return -1;
    }
    return 0;
}

/* Does part b belong to the sweep of part a?  0, or -1 after a message
 * naming the difference. */
static int part_same(const part *a, const part *b)
{
    const char *va = field_str(a->j, "version"), *vb = field_str(b->j,
                                                                 "version");
    if (strcmp(va, vb)) {
        fprintf(stderr, "cgramap merge: %s was written by cgramap %s and %s "
                "by cgramap %s; run every shard of a sweep with one "
                "cgramap\n", b->path, vb, a->path, va);
        return -1;
    }
    char xa[2048], xb[2048];
    const char *k = cg_cli_flags_diff(json_object_get(a->j, "flags"),
                                      json_object_get(b->j, "flags"), xa, xb,
                                      sizeof xa);
    if (k) {
        fprintf(stderr, "cgramap merge: %s was run with %s %s and %s with "
                "%s %s; merge the parts of one sweep (the same options and "
                "PATHs)\n", b->path, k, xb, a->path, k, xa);
        return -1;
    }
    if (a->nshards != b->nshards) {
        fprintf(stderr, "cgramap merge: %s is shard %d/%d and %s shard "
                "%d/%d; merge the parts of one split\n", b->path, b->shard,
                b->nshards, a->path, a->shard, a->nshards);
        return -1;
    }
    if (!json_equal(json_object_get(a->j, "plan"),
                    json_object_get(b->j, "plan")) ||
        !json_equal(json_object_get(a->j, "arrays"),
                    json_object_get(b->j, "arrays"))) {
        fprintf(stderr, "cgramap merge: %s and %s found other loops or "
                "arrays under the same options (the input files changed "
                "between the shards); run the shards again on the same "
                "files\n", b->path, a->path);
        return -1;
    }
    return 0;
}

/* Every shard once: 0, or -1 after naming the duplicated or missing
 * shards. */
static int parts_cover(const part *ps, int n)
{
    int N = ps[0].nshards, bad = 0;
    const char **by = calloc((size_t)N + 1, sizeof *by);
    for (int i = 0; by && i < n; i++) {
        if (by[ps[i].shard]) {
            fprintf(stderr, "cgramap merge: shard %d/%d is given twice (%s "
                    "and %s); give each part once\n", ps[i].shard, N,
                    by[ps[i].shard], ps[i].path);
            bad = 1;
        }
        by[ps[i].shard] = ps[i].path;
    }
    char missing[4096] = "";
    int nmiss = 0;
    for (int s = 1; by && s <= N; s++)
        if (!by[s] && strlen(missing) < sizeof missing - 32)
            snprintf(missing + strlen(missing), sizeof missing -
                     strlen(missing), "%s%d/%d", nmiss++ ? ", " : "", s, N);
    if (nmiss)
        fprintf(stderr, "cgramap merge: shard%s %s %s missing; run %s and "
                "give %s part%s too\n", nmiss > 1 ? "s" : "", missing,
                nmiss > 1 ? "are" : "is", nmiss > 1 ? "them" : "it",
                nmiss > 1 ? "their" : "its", nmiss > 1 ? "s" : "");
    free(by);
    return by && !bad && !nmiss ? 0 : -1;
}

/* Each unit's records, in unit order, from the part that ran it;
 * NULL after naming a unit no part holds. */
static json_t *unit_records(const part *ps, int n)
{
    const json_t *units = json_object_get(json_object_get(ps[0].j, "plan"),
                                          "units");
    json_t *recs = json_array();
    for (size_t k = 0; k < json_array_size(units); k++)
        json_array_append_new(recs, json_null());
    for (int i = 0; i < n; i++) {
        size_t k;
        json_t *u;
        json_array_foreach(json_object_get(ps[i].j, "units"), k, u) {
            json_int_t at = json_integer_value(json_object_get(u, "unit"));
            const json_t *pu = json_array_get(units, (size_t)at);
            if (pu && json_integer_value(json_object_get(pu, "shard")) ==
                          ps[i].shard)
                json_array_set(recs, (size_t)at,
                               json_object_get(u, "records"));
        }
    }
    for (size_t k = 0; k < json_array_size(units); k++)
        if (!json_is_array(json_array_get(recs, k))) {
            const json_t *u = json_array_get(units, k);
            fprintf(stderr, "%s: error: the part of shard %lld has no rows "
                    "for loop '%s' (unit %zu); run that shard again\n",
                    ps[0].path,
                    (long long)json_integer_value(json_object_get(u,
                                                                  "shard")),
                    field_str(u, "loop"), k);
            json_decref(recs);
            return NULL;
        }
    return recs;
}

/* ---- printing what the whole run prints --------------------------------- */

typedef struct merged {
    cg_cli_array arr[CG_CLI_MAX_ARRAYS];
    int narr;
    const json_t *arr_json;   /* the part's "arrays" */
    const json_t *units;      /* the plan's */
    json_t *unit_recs;        /* each unit's records */
    int nfiles;
    bool scan_failed;
} merged;

static void arrays_of(merged *m)
{
    m->narr = (int)json_array_size(m->arr_json);
    if (m->narr > CG_CLI_MAX_ARRAYS)
        m->narr = CG_CLI_MAX_ARRAYS;
    memset(m->arr, 0, sizeof m->arr);
    for (int i = 0; i < m->narr; i++) {
        const json_t *a = json_array_get(m->arr_json, (size_t)i), *c =
            json_object_get(a, "cost");
        cg_cli_array *x = &m->arr[i];
        x->label = strdup(field_str(a, "label"));
        x->ok = json_is_true(json_object_get(a, "ok"));
        size_t k;
        json_t *msg;
        json_array_foreach(json_object_get(a, "messages"), k, msg)
            if (!x->ok && json_is_string(msg) &&
                strstr(json_string_value(msg), ": error: "))
                cg_cli_array_why(x, json_string_value(msg));
        x->cost.funcunits = (int)json_integer_value(json_object_get(c,
                                                                "funcunits"));
        x->cost.fu_weight = json_number_value(json_object_get(c,
                                                              "fu_weight"));
        x->cost.muxes = (int)json_integer_value(json_object_get(c, "muxes"));
        x->cost.mux_inputs = (int)json_integer_value(json_object_get(c,
                                                               "mux_inputs"));
        x->cost.registers = (int)json_integer_value(json_object_get(c,
                                                                "registers"));
        x->cost.memunits = (int)json_integer_value(json_object_get(c,
                                                                 "memunits"));
        x->cost.consts = (int)json_integer_value(json_object_get(c,
                                                                 "consts"));
        x->cost.ios = (int)json_integer_value(json_object_get(c, "ios"));
        x->cost.mem_bytes = json_integer_value(json_object_get(c,
                                                               "mem_bytes"));
        x->cost.total = json_number_value(json_object_get(c, "total"));
    }
}

/* Print array a's rows (label: each gets "arch"), collect them into all;
 * whether every one was ok. */
static bool rows_of(const merged *m, int a, const char *label, json_t *all)
{
    bool ok = true;
    size_t k, r;
    json_t *u, *rec;
    json_array_foreach(m->units, k, u) {
        if (json_integer_value(json_object_get(u, "array")) != a)
            continue;
        json_array_foreach(json_array_get(m->unit_recs, k), r, rec) {
            if (label)
                json_object_set_new(rec, "arch", json_string(label));
            cg_cli_row(rec, stdout, stderr);
            ok &= cg_cli_record_ok(rec);
            json_array_append(all, rec);
        }
    }
    return ok;
}

/* As the main job on one array (cli/bench_cmd.c). */
static int print_single(const merged *m, const cg_cli_opts *o)
{
    const json_t *a0 = json_array_get(m->arr_json, 0);
    cg_cli_print_msgs(json_object_get(a0, "messages"), stderr);
    if (!m->arr[0].ok)
        return 1;
    json_t *all = json_array();
    cg_cli_row_header(stdout);
    int failed = !rows_of(m, 0, NULL, all) || m->scan_failed;
    if (m->nfiles == 0 && !m->scan_failed) {
        fprintf(stderr, "cgramap: no tagged .c file, benchmark folder or "
                ".dot file found\n");
        failed = 1;
    }
    if (o->json && cg_cli_write_json(o->json, all) != 0)
        failed = 1;
    if (o->csv && cg_cli_write_csv(o->csv, all) != 0)
        failed = 1;
    json_decref(all);
    return failed;
}

/* As the comparison of arrays (cli/compare.c). */
static int print_compare(merged *m, const cg_cli_opts *o,
                         const cg_cli_cmp_opts *c)
{
    json_t *all = json_array();
    int failed = m->scan_failed;
    if (m->nfiles == 0 && !m->scan_failed) {
        fprintf(stderr, "cgramap: no tagged .c file, benchmark folder or "
                ".dot file found\n");
        failed = 1;
    }
    for (int a = 0; a < m->narr && m->nfiles; a++) {
        cg_cli_cmp_array_line(&m->arr[a], stdout);
        cg_cli_print_msgs(json_object_get(json_array_get(m->arr_json,
                                                         (size_t)a),
                                          "messages"), stderr);
        failed |= !m->arr[a].ok;
        if (!m->arr[a].ok)
            continue;
        cg_cli_row_header(stdout);
        failed |= !rows_of(m, a, m->arr[a].label, all);
    }
    if (m->nfiles) {
        printf("\n");
        cg_cli_cmp_table(m->arr, m->narr, all, stdout);
    }
    failed |= cg_cli_cmp_write_reports(m->arr, m->narr, all, c, o);
    json_decref(all);
    return failed;
}

/* The rows a wall-clock cap ended (their "capped"): another run may end
 * them elsewhere, so the merge may differ from one run in them alone.
 * Named on stderr, so the table stays that of one run. */
static void capped_note(const json_t *unit_recs)
{
    size_t k, r;
    json_t *recs, *rec;
    int n = 0;
    json_array_foreach(unit_recs, k, recs)
        json_array_foreach(recs, r, rec)
            if (json_is_true(json_object_get(rec, "capped"))) {
                json_t *arch = json_object_get(rec, "arch");
                fprintf(stderr, "%s%s/%s%s%s", n++ ? ", " : "cgramap merge: "
                        "note: a wall-clock cap (--timeout, --time-limit), "
                        "not a work limit, ended an II of ",
                        field_str(rec, "benchmark"), field_str(rec, "loop"),
                        arch ? " on " : "", arch ? json_string_value(arch)
                                                 : "");
            }
    if (n)
        fprintf(stderr, "; %s may differ from another run's (docs/sweeps.md, "
                "\"What breaks it\")\n", n == 1 ? "that row" : "those rows");
}

/* The sweep's options, parsed from the part's flags as the main job
 * parses its own, with the merge's report files; 0, or 2. */
static int sweep_opts(const json_t *flags, char ***argv, cg_cli_opts *o,
                      cg_cli_cmp_opts *c)
{
    int argc, at;
    *argv = cg_cli_flags_argv(flags, &argc);
    if (!*argv || cg_cli_bench_parse(argc, *argv, o, c, &at) != 0) {
        fprintf(stderr, "cgramap merge: the parts' flags do not parse as "
                "options of this cgramap\n");
        return 2;
    }
    return 0;
}

static int merge_run(part *ps, int n, const char *json, const char *csv,
                     const char *report)
{
    for (int i = 1; i < n; i++)
        if (part_same(&ps[0], &ps[i]) != 0)
            return 1;
    if (parts_cover(ps, n) != 0)
        return 1;
    merged m = {0};
    const json_t *plan = json_object_get(ps[0].j, "plan");
    m.arr_json = json_object_get(ps[0].j, "arrays");
    m.units = json_object_get(plan, "units");
    m.nfiles = (int)json_array_size(json_object_get(plan, "files"));
    m.scan_failed = json_is_true(json_object_get(plan, "scan_failed"));
    if (!(m.unit_recs = unit_records(ps, n)))
        return 1;
    char **argv = NULL;
    cg_cli_opts o;
    cg_cli_cmp_opts c;
    int rc = sweep_opts(json_object_get(ps[0].j, "flags"), &argv, &o, &c);
    if (rc == 0) {
        arrays_of(&m);
        o.json = json;
        o.csv = csv;
        c.report_dir = report;
        rc = cg_cli_cmp_wanted(&c) ? print_compare(&m, &o, &c)
                                   : print_single(&m, &o);
        capped_note(m.unit_recs);
        cg_cli_arrays_free(m.arr, m.narr);
    }
    cg_cli_flags_argv_free(argv);
    json_decref(m.unit_recs);
    return rc;
}

static void merge_help(void)
{
    printf("Usage: cgramap merge PART.json... [--json FILE] [--csv FILE]\n"
           "                     [--report DIR]\n"
           "The parts `cgramap --shard I/N --json PART.json` wrote, one per\n"
           "shard, into what one run of the whole sweep prints and writes\n"
           "(only the seconds differ).  Parts of other versions, flags or\n"
           "splits, and missing or repeated shards, are refused by name;\n"
           "nothing is then written.\n");
}

int cg_cli_merge(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", required_argument, NULL, 'J'},
        {"csv", required_argument, NULL, 'C'},
        {"report", required_argument, NULL, 'O'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *json = NULL, *csv = NULL, *report = NULL;
    int c;
    optind = 1;
    opterr = 0;
    bool abbrev = false;
    while ((c = cg_cli_getopt(argc, argv, ":h", opts, false,
                              "cgramap merge", &abbrev)) != -1) {
        switch (c) {
        case 'J':
            json = optarg;
            if (cg_cli_path("cgramap merge", "--json", optarg)) return 2;
            break;
        case 'C':
            csv = optarg;
            if (cg_cli_path("cgramap merge", "--csv", optarg)) return 2;
            break;
        case 'O':
            report = optarg;
            if (cg_cli_name("cgramap merge", "--report", optarg)) return 2;
            break;
        case 'h': merge_help(); return 0;
        case ':':
            fprintf(stderr, "cgramap merge: option '%s' needs a value\n",
                    argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "cgramap merge: unknown option '%s' (see cgramap "
                    "merge --help)\n", cg_cli_bad_opt(argv, (char[3]){0}));
            return 2;
        }
    }
    if (abbrev)
        return 2;
    int n = argc - optind;
    if (n < 1) {
        fprintf(stderr, "cgramap merge: give the parts, PART.json... (see "
                "cgramap merge --help)\n");
        return 2;
    }
    part *ps = calloc((size_t)n, sizeof *ps);
    int rc = ps ? 0 : 1;
    for (int i = 0; ps && i < n; i++)
        rc |= part_read(&ps[i], argv[optind + i]) != 0;
    if (rc == 0)
        rc = merge_run(ps, n, json, csv, report);
    for (int i = 0; ps && i < n; i++)
        json_decref(ps[i].j);
    free(ps);
    return rc;
}
