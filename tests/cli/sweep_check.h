/* sweep_check.h: what the sweep tests share: a merged sweep must print
 * and write what one run of it does, but for the seconds.  Each check
 * takes the seconds out of both sides (the rows' time column, "seconds"
 * at any depth of the JSON, the CSV's seconds column) and asserts the
 * rest equal, byte for byte. */
#ifndef CG_TEST_SWEEP_CHECK_H
#define CG_TEST_SWEEP_CHECK_H

#include <jansson.h>

#include "run_cgramap.h"

/* Each test's own folder, made by sweep_setup, removed by sweep_teardown. */
static char sweep_tmp[64];

static inline int sweep_setup(void **state)
{
    (void)state;
    strcpy(sweep_tmp, "/tmp/cg_sweepXXXXXX");
    return mkdtemp(sweep_tmp) ? 0 : -1;
}

static inline int sweep_teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", sweep_tmp);
    return system(cmd);
}

/* sweep_tmp/name (the last 8 names stay valid). */
static inline const char *in_tmp(const char *name)
{
    static char p[8][256];
    static int k;
    k = (k + 1) % 8;
    snprintf(p[k], sizeof p[k], "%s/%s", sweep_tmp, name);
    return p[k];
}

/* Every "seconds" key of v, at any depth, removed. */
static inline void strip_seconds(json_t *v)
{
    if (json_is_object(v)) {
        json_object_del(v, "seconds");
        const char *k;
        json_t *e;
        json_object_foreach(v, k, e)
            strip_seconds(e);
    } else if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e)
            strip_seconds(e);
    }
}

static inline void assert_same_json(const char *a, const char *b)
{
    json_t *x = json_load_file(a, 0, NULL), *y = json_load_file(b, 0, NULL);
    assert_non_null(x);
    assert_non_null(y);
    strip_seconds(x);
    strip_seconds(y);
    char *sx = json_dumps(x, JSON_INDENT(2) | JSON_SORT_KEYS);
    char *sy = json_dumps(y, JSON_INDENT(2) | JSON_SORT_KEYS);
    assert_string_equal(sx, sy);
    free(sx);
    free(sy);
    json_decref(x);
    json_decref(y);
}

/* Field k of an RFC 4180 line blanked: fields are split at commas outside
 * quotes.  In place. */
static inline void csv_blank(char *line, int k)
{
    int f = 0;
    bool q = false;
    char *start = line;
    for (char *p = line;; p++) {
        if (*p == '"')
            q = !q;
        if ((*p == ',' && !q) || *p == '\r' || *p == '\n' || !*p) {
            if (f == k) {
                memmove(start, p, strlen(p) + 1);
                return;
            }
            if (*p != ',')
                return;
            f++;
            start = p + 1;
        }
    }
}

/* The column of name in the header line (libcsv quotes every field). */
static inline int csv_column(const char *header, const char *name)
{
    int k = 0;
    for (const char *p = header; *p && *p != '\r'; k++) {
        size_t n = strcspn(p, ",\r");
        if (n == strlen(name) + 2 && !strncmp(p + 1, name, n - 2))
            return k;
        p += n + (p[n] == ',');
    }
    fail_msg("no column %s", name);
    return -1;
}

static inline void assert_same_csv(const char *a, const char *b)
{
    static char x[65536], y[65536];
    slurp(a, x, sizeof x);
    slurp(b, y, sizeof y);
    int col = csv_column(x, "seconds");
    char *px = x, *py = y;
    while (*px || *py) {
        char *ex = strchr(px, '\n'), *ey = strchr(py, '\n');
        assert_non_null(ex);
        assert_non_null(ey);
        *ex = *ey = '\0';
        csv_blank(px, col);
        csv_blank(py, col);
        assert_string_equal(px, py);
        px = ex + 1;
        py = ey + 1;
    }
}

static inline void assert_same_file(const char *a, const char *b)
{
    static char x[262144], y[262144];
    slurp(a, x, sizeof x);
    slurp(b, y, sizeof y);
    assert_string_equal(x, y);
}

/* Two runs' stdout, the rows' times masked. */
static inline void assert_same_rows(char *a, char *b)
{
    mask_times(a);
    mask_times(b);
    assert_string_equal(a, b);
}

#endif
