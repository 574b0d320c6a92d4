/* test_bench_rtl.c: the main job with --rtl (Icarus Verilog, whose model
 * of the default 4x4 compiles in seconds; the compiled models are kept in
 * the build folder's rtl-cache, as tests/rtl's are).  The row's rtl word
 * goes to the rows, the JSON and the CSV's last column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run_cgramap.h"
#include "sweep_check.h"

#define SUM "benchmarks/microbench/sum"
#define DOT "benchmarks/microbench/dot"
#define LIMITS "--timeout", "10", "--max-ii", "4", "--steps", "2000"

static const char *rtl_cache(void)
{
    static char buf[1024];
    const char *b = getenv("CG_BINARY_DIR");
    snprintf(buf, sizeof buf, "%s/rtl-cache", b ? b : ".");
    return buf;
}

/* The CSV's header and the line of a loop (ends cut). */
static void csv_lines(const char *path, char *head, char *line,
                      const char *bench, size_t n)
{
    char text[8192];
    slurp(path, text, sizeof text);
    char *end = strstr(text, "\r\n");
    assert_non_null(end);
    snprintf(head, n, "%.*s", (int)(end - text), text);
    char key[64];
    snprintf(key, sizeof key, "\r\n\"%s\",", bench);
    char *at = strstr(text, key);
    assert_non_null(at);
    at += 2;
    snprintf(line, n, "%.*s", (int)(strstr(at, "\r\n") - at), at);
}

static bool ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

/* sum and dot map, verify and run equal on the RTL: "rtl: yes" under
 * each row, "rtl": "yes" in the JSON, a last CSV column rtl; a file that
 * fails whole (bad.dot: no loop record) leaves it empty.  Without --rtl
 * the CSV has no such column. */
static void test_csv_column(void **state)
{
    (void)state;
    static run r;
    run_cgramap(&r, (const char *const[]){
        "--rtl-sim", "iverilog", "--rtl-cache", rtl_cache(), LIMITS,
        "--json", in_tmp("r.json"), "--csv", in_tmp("r.csv"), SUM, DOT,
        "tests/cli/data/bench/loose/bad.dot", NULL});
    assert_int_equal(r.status, 1); /* bad.dot */
    mask_times(r.out);
    const char *sum = strstr(r.out, "\nsum ");
    assert_non_null(sum);
    assert_non_null(strstr(sum, " yes\n  rtl: yes\ndot "));
    assert_non_null(strstr(sum, " yes\n  rtl: yes\nbad "));
    char head[4096], line[4096];
    csv_lines(in_tmp("r.csv"), head, line, "sum", sizeof head);
    assert_true(ends_with(head, ",\"checked\",\"verified\",\"rtl\""));
    assert_true(ends_with(line, ",\"yes\",\"yes\",\"yes\""));
    csv_lines(in_tmp("r.csv"), head, line, "dot", sizeof head);
    assert_true(ends_with(line, ",\"yes\",\"yes\",\"yes\""));
    csv_lines(in_tmp("r.csv"), head, line, "bad", sizeof head);
    assert_true(ends_with(line, ",\"no\",\"-\",\"\""));
    json_t *all = json_load_file(in_tmp("r.json"), 0, NULL);
    assert_non_null(all);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(all, 0), "rtl")), "yes");
    json_decref(all);

    run_cgramap(&r, (const char *const[]){LIMITS, "--csv", in_tmp("n.csv"),
                                          SUM, NULL});
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "rtl:"));
    csv_lines(in_tmp("n.csv"), head, line, "sum", sizeof head);
    assert_true(ends_with(head, ",\"checked\",\"verified\""));
    assert_true(ends_with(line, ",\"yes\",\"yes\""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_column),
    };
    return cmocka_run_group_tests(tests, sweep_setup, sweep_teardown);
}
