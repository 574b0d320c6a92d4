/* bench_report.c: records printed as rows, and written as JSON (jansson)
 * and CSV (libcsv quotes the fields) report files, each whole or not at
 * all. */
#include "cli/bench.h"
#include "cli/commands.h"

#include "common/util.h"

#include <csv.h>
#include <string.h>

/* nodes ResMII RecMII bottleneck II status proof time FUs util const IO
 * mem routes, then the tiling columns */
#define MAP_FMT \
    "%5s %6s %6s %-10s %4s %-24s %-21s %9s %7s %5s %5s %3s %3s %6s"
#define TILE_FMT "%6s %10s %6s %10s %9s"

void cg_cli_map_header(FILE *out)
{
    fprintf(out, MAP_FMT, "nodes", "ResMII", "RecMII", "bottleneck", "II",
            "status", "proof", "time", "FUs", "util", "const", "IO", "mem",
            "routes");
}

void cg_cli_row_header(FILE *out)
{
    fprintf(out, "%-14s %-14s ", "benchmark", "loop");
    cg_cli_map_header(out);
    fprintf(out, " " TILE_FMT " %s\n", "tiles", "DMA bytes", "ratio",
            "cycles", "stalls", "verified");
}

static const char *str(const json_t *rec, const char *key)
{
    const char *s = json_string_value(json_object_get(rec, key));
    return s ? s : "-";
}

/* An integer field as text, "-" when absent. */
static const char *num(const json_t *rec, const char *key, char *buf,
                       size_t n)
{
    json_t *v = json_object_get(rec, key);
    if (!json_is_integer(v))
        return "-";
    snprintf(buf, n, "%lld", (long long)json_integer_value(v));
    return buf;
}

/* The II as text: "-" when no II was tried (an error row, whose record
 * says 0). */
static const char *ii_text(const json_t *rec, char *buf, size_t n)
{
    json_t *v = json_object_get(rec, "ii");
    if (!json_is_integer(v) || json_integer_value(v) <= 0)
        return "-";
    return num(rec, "ii", buf, n);
}

static const char *status_text(const json_t *rec, char *buf, size_t n)
{
    const char *s = str(rec, "status");
    if (strcmp(s, "infeasible") == 0) {
        snprintf(buf, n, "infeasible up to II=%lld",
                 (long long)json_integer_value(json_object_get(rec, "ii")));
        return buf;
    }
    return s;
}

/* A real field with two decimals and a unit, "-" when absent. */
static const char *real(const json_t *rec, const char *key, const char *unit,
                        char *buf, size_t n)
{
    json_t *v = json_object_get(rec, key);
    if (!json_is_number(v))
        return "-";
    snprintf(buf, n, "%.2f%s", json_number_value(v), unit);
    return buf;
}

/* "used/total" FuncUnits, "-" when absent. */
static const char *fus(const json_t *rec, char *buf, size_t n)
{
    json_t *u = json_object_get(rec, "funcunits");
    if (!json_is_integer(u))
        return "-";
    snprintf(buf, n, "%lld/%lld", (long long)json_integer_value(u),
             (long long)json_integer_value(json_object_get(rec,
                                                           "funcunits_total")));
    return buf;
}

void cg_cli_map_cells(const json_t *rec, FILE *out)
{
    char b[12][32], st[48];
    json_t *util = json_object_get(rec, "fu_util");
    if (json_is_number(util))
        snprintf(b[7], 32, "%.0f%%", 100 * json_number_value(util));
    fprintf(out, MAP_FMT, num(rec, "nodes", b[0], 32),
            num(rec, "res_mii", b[1], 32), num(rec, "rec_mii", b[2], 32),
            str(rec, "bottleneck"), ii_text(rec, b[3], 32),
            status_text(rec, st, sizeof st), str(rec, "proof"),
            real(rec, "seconds", "s", b[4], 32), fus(rec, b[5], 32),
            json_is_number(util) ? b[7] : "-",
            num(rec, "const_ops", b[8], 32), num(rec, "io_ops", b[9], 32),
            num(rec, "mem_ops", b[10], 32), num(rec, "routes", b[11], 32));
}

/* One message of a record; a record of a comparison (it has "arch") names
 * its array after the severity, since the same note comes once per array:
 * "k.c: note: array 'a.xml': loop 'cmul': ...". */
static void print_msg(const char *m, const json_t *arch, FILE *err)
{
    static const char *const sev[] = {": error: ", ": warning: ", ": note: "};
    const char *at = NULL;
    for (int i = 0; i < 3; i++) {
        const char *p = strstr(m, sev[i]);
        if (p && (!at || p < at))
            at = p + strlen(sev[i]);
    }
    if (!json_is_string(arch))
        fprintf(err, "%s\n", m);
    else if (at)
        fprintf(err, "%.*sarray '%s': %s\n", (int)(at - m), m,
                json_string_value(arch), at);
    else
        fprintf(err, "array '%s': %s\n", json_string_value(arch), m);
}

void cg_cli_row(const json_t *rec, FILE *out, FILE *err)
{
    char b[5][32];
    fprintf(out, "%-14s %-14s ", str(rec, "benchmark"), str(rec, "loop"));
    cg_cli_map_cells(rec, out);
    fprintf(out, " " TILE_FMT " %s\n", num(rec, "tiles", b[0], 32),
            num(rec, "dma_bytes", b[1], 32),
            real(rec, "dma_ratio", "", b[2], 32),
            num(rec, "cycles", b[3], 32), num(rec, "stalls", b[4], 32),
            str(rec, "verified"));
    if (json_object_get(rec, "rtl")) /* --rtl: the co-simulation's word */
        fprintf(out, "  rtl: %s\n", str(rec, "rtl"));
    fflush(out);
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(rec, "messages"), i, m)
        print_msg(json_string_value(m), json_object_get(rec, "arch"), err);
    fflush(err);
}

bool cg_cli_record_ok(const json_t *rec)
{
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(rec, "messages"), i, m)
        if (strstr(json_string_value(m), " error: ") ||
            strncmp(json_string_value(m), "error: ", 7) == 0)
            return false;
    const char *v = str(rec, "verified");
    return strcmp(str(rec, "status"), "mapped") == 0 &&
           json_is_true(json_object_get(rec, "checked")) &&
           strcmp(v, "no") != 0 && strncmp(v, "not verified", 12) != 0 &&
           strncmp(str(rec, "rtl"), "no", 2) != 0;
}

static int json_writer(void *arg, FILE *f)
{
    bool built = json_dumpf(arg, f, JSON_INDENT(2) | JSON_SORT_KEYS) == 0;
    if (built)
        fputc('\n', f);
    return cg_write_end(f, built);
}

int cg_cli_write_json(const char *path, json_t *recs)
{
    return cg_cli_write_file(path, json_writer, recs);
}

static const char *const csv_cols[] = {
    "benchmark", "file", "loop", "nodes", "loop_nodes", "mapped_dfg",
    "res_mii", "rec_mii", "mii", "bottleneck", "ii", "status", "proof",
    "proof_hint", "seconds", "funcunits", "funcunits_total", "fu_ops",
    "fu_util", "const_ops", "io_ops", "mem_ops", "routes", "tiles",
    "dma_bytes", "dma_bound", "dma_ratio", "cycles", "stalls", "checked",
    "verified", NULL,
};

static void csv_text(FILE *f, const char *s, bool last)
{
    csv_fwrite(f, s, strlen(s));
    fputs(last ? "\r\n" : ",", f);
}

static void csv_field(FILE *f, const json_t *v, bool last)
{
    char buf[64] = "";
    if (json_is_integer(v))
        snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(buf, sizeof buf, "%.3f", json_real_value(v));
    else if (json_is_boolean(v))
        snprintf(buf, sizeof buf, "%s", json_is_true(v) ? "yes" : "no");
    csv_text(f, json_is_string(v) ? json_string_value(v) : buf, last);
}

/* true when a record of recs has key: a run with --rtl gives its loops'
 * records "rtl" (a file that fails whole gets none). */
static bool any_has(const json_t *recs, const char *key)
{
    size_t i;
    json_t *rec;
    json_array_foreach(recs, i, rec)
        if (json_object_get(rec, key))
            return true;
    return false;
}

/* RFC 4180: a header line, then one line per record.  Records of a
 * comparison (cli/compare.c) name their array: "arch" comes first; a run
 * with --rtl ends each line with the co-simulation's word, "rtl". */
static int csv_writer(void *arg, FILE *f)
{
    const json_t *recs = arg;
    bool arch = json_object_get(json_array_get(recs, 0), "arch") != NULL;
    bool rtl = any_has(recs, "rtl");
    if (arch)
        csv_text(f, "arch", false);
    for (int c = 0; csv_cols[c]; c++)
        csv_text(f, csv_cols[c], !csv_cols[c + 1] && !rtl);
    if (rtl)
        csv_text(f, "rtl", true);
    size_t i;
    json_t *rec;
    json_array_foreach(recs, i, rec) {
        if (arch)
            csv_field(f, json_object_get(rec, "arch"), false);
        for (int c = 0; csv_cols[c]; c++)
            csv_field(f, json_object_get(rec, csv_cols[c]),
                      !csv_cols[c + 1] && !rtl);
        if (rtl)
            csv_field(f, json_object_get(rec, "rtl"), true);
    }
    return cg_write_end(f, true);
}

int cg_cli_write_csv(const char *path, const json_t *recs)
{
    return cg_cli_write_file(path, csv_writer, (void *)recs);
}
