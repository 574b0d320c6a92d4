/* bench_report.c: records printed as rows, and written as JSON (jansson)
 * and CSV (libcsv quotes the fields) report files, each whole or not at
 * all. */
#include "cli/bench.h"
#include "cli/commands.h"

#include <csv.h>
#include <string.h>

#define ROW_FMT \
    "%-14s %-14s %5s %4s %4s %-24s %9s %4s %6s %6s %10s %6s %10s %9s %s\n"

void cg_cli_row_header(FILE *out)
{
    fprintf(out, ROW_FMT, "benchmark", "loop", "nodes", "MII", "II",
            "status", "time", "FUs", "routes", "tiles", "DMA bytes",
            "ratio", "cycles", "stalls", "verified");
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

/* A real field with a format, "-" when absent. */
static const char *real(const json_t *rec, const char *key, const char *fmt,
                        char *buf, size_t n)
{
    json_t *v = json_object_get(rec, key);
    if (!json_is_number(v))
        return "-";
    snprintf(buf, n, fmt, json_number_value(v));
    return buf;
}

void cg_cli_row(const json_t *rec, FILE *out, FILE *err)
{
    char b[11][32], st[48];
    fprintf(out, ROW_FMT, str(rec, "benchmark"), str(rec, "loop"),
            num(rec, "nodes", b[0], 32), num(rec, "mii", b[1], 32),
            num(rec, "ii", b[2], 32), status_text(rec, st, sizeof st),
            real(rec, "seconds", "%.2fs", b[3], 32),
            num(rec, "fus", b[4], 32), num(rec, "routes", b[5], 32),
            num(rec, "tiles", b[6], 32), num(rec, "dma_bytes", b[7], 32),
            real(rec, "dma_ratio", "%.2f", b[8], 32),
            num(rec, "cycles", b[9], 32), num(rec, "stalls", b[10], 32),
            str(rec, "verified"));
    fflush(out);
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(rec, "messages"), i, m)
        fprintf(err, "%s\n", json_string_value(m));
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
    return strcmp(str(rec, "status"), "mapped") == 0 &&
           json_is_true(json_object_get(rec, "checked")) &&
           strcmp(str(rec, "verified"), "no") != 0;
}

static void json_writer(void *arg, FILE *f)
{
    json_dumpf(arg, f, JSON_INDENT(2) | JSON_SORT_KEYS);
    fputc('\n', f);
}

int cg_cli_write_json(const char *path, json_t *recs)
{
    return cg_cli_write_file(path, json_writer, recs);
}

static const char *const csv_cols[] = {
    "benchmark", "file", "loop", "nodes", "loop_nodes", "mapped_dfg",
    "res_mii", "rec_mii", "mii", "ii",
    "status", "seconds", "fus", "routes", "tiles", "dma_bytes", "dma_bound",
    "dma_ratio", "cycles", "stalls", "checked", "verified", NULL,
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

/* RFC 4180: a header line, then one line per record. */
static void csv_writer(void *arg, FILE *f)
{
    const json_t *recs = arg;
    for (int c = 0; csv_cols[c]; c++)
        csv_text(f, csv_cols[c], !csv_cols[c + 1]);
    size_t i;
    json_t *rec;
    json_array_foreach(recs, i, rec)
        for (int c = 0; csv_cols[c]; c++)
            csv_field(f, json_object_get(rec, csv_cols[c]), !csv_cols[c + 1]);
}

int cg_cli_write_csv(const char *path, const json_t *recs)
{
    return cg_cli_write_file(path, csv_writer, (void *)recs);
}
