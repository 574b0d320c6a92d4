/* test_suite.c: the main job end to end on the whole microbenchmark suite
 * on the embedded default 4x4 (26 loops), with short limits (5 s per II,
 * IIs up to 8, two files at once).  What it asserts is what does not depend
 * on the machine's speed:
 *   - every loop of up to 36 nodes maps, passes the checker, and its
 *     simulation leaves the memory and live-outs the C code leaves
 *     (`verified` yes); no loop is an error;
 *   - a mapped loop is at its MII, or the outcome of every lower II is
 *     recorded (infeasible or timeout), never skipped, and its proof
 *     column says `optimal` exactly when every lower II is infeasible;
 *   - the loops the heuristic maps at the MII in milliseconds are at their
 *     MII (accumulate, dot, histogram, initrec, mac, narrow, nomem1,
 *     stride, sum).
 * Which loops reach their MII or prove the lower IIs impossible within
 * given limits is measured by benchmarks/perf (docs/mapper.md), not here.
 * Not run under the sanitizers: the limits are wall time, and a 3-10x
 * slower build maps different loops within them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <jansson.h>

#include "run_cgramap.h"

static const char *str(const json_t *rec, const char *key)
{
    const char *s = json_string_value(json_object_get(rec, key));
    assert_non_null(s);
    return s;
}

static json_int_t num(const json_t *rec, const char *key)
{
    json_t *v = json_object_get(rec, key);
    assert_true(json_is_integer(v));
    return json_integer_value(v);
}

static bool fast_at_mii(const char *loop)
{
    static const char *const fast[] = {"accumulate", "dot", "histogram",
                                       "initrec", "mac", "narrow", "nomem1",
                                       "stride", "sum"};
    for (size_t i = 0; i < sizeof fast / sizeof *fast; i++)
        if (strcmp(loop, fast[i]) == 0)
            return true;
    return false;
}

/* One record's rules; returns whether it is at its MII. */
static bool check_record(const json_t *rec)
{
    const char *loop = str(rec, "loop"), *status = str(rec, "status");
    json_int_t nodes = num(rec, "nodes"), mii = num(rec, "mii");
    json_int_t ii = num(rec, "ii");
    fprintf(stderr, "%-15s %3lld nodes  MII %lld  II %lld  %s  %s\n", loop,
            (long long)nodes, (long long)mii, (long long)ii, status,
            str(rec, "verified"));
    assert_string_not_equal(status, "error");
    if (nodes <= 36) {
        assert_string_equal(status, "mapped");
        assert_string_equal(str(rec, "verified"), "yes");
    }
    if (strcmp(status, "mapped") == 0) {
        assert_string_equal(str(rec, "verified"), "yes");
        /* tries: MII .. II, each once, the last one mapped */
        json_t *tries = json_object_get(rec, "tries");
        assert_int_equal(json_array_size(tries), ii - mii + 1);
        bool proven = true;
        json_int_t horizon = -1; /* least slack of the SAT refutations */
        for (json_int_t k = mii; k <= ii; k++) {
            json_t *t = json_array_get(tries, (size_t)(k - mii));
            assert_int_equal(num(t, "ii"), k);
            const char *o = str(t, "outcome");
            if (k == ii)
                assert_string_equal(o, "mapped");
            else
                assert_true(strcmp(o, "infeasible") == 0 ||
                            strcmp(o, "timeout") == 0);
            proven &= k == ii || strcmp(o, "infeasible") == 0;
            json_t *h = json_object_get(t, "horizon");
            if (k < ii && strcmp(str(t, "by"), "sat") == 0 &&
                json_is_integer(h) &&
                (horizon < 0 || json_integer_value(h) < horizon))
                horizon = json_integer_value(h);
            if (k < ii && strcmp(o, "infeasible") == 0)
                assert_string_not_equal(str(t, "by"), "-");
        }
        /* the row says optimal exactly when every lower II is proven
         * impossible, with the SAT refutations' horizon when one rests
         * on it; otherwise which ones are open */
        char want[64];
        if (horizon >= 0)
            snprintf(want, sizeof want, "optimal (schedule +%lld)",
                     (long long)horizon);
        else
            snprintf(want, sizeof want, "optimal");
        if (proven)
            assert_string_equal(str(rec, "proof"), want);
        else
            assert_memory_equal(str(rec, "proof"), "open: II ", 9);
    }
    if (fast_at_mii(loop))
        assert_int_equal(ii, mii);
    return ii == mii;
}

static void test_microbench_suite(void **state)
{
    (void)state;
    char dir[] = "/tmp/cg_suite_XXXXXX", js[64], cmd[96];
    assert_non_null(mkdtemp(dir));
    snprintf(js, sizeof js, "%s/r.json", dir);
    run r;
    run_cgramap(&r, (const char *const[]){"-j", "2", "--timeout", "5",
                                          "--max-ii", "8", "--json", js,
                                          "benchmarks/microbench", NULL});
    json_error_t e;
    json_t *all = json_load_file(js, 0, &e);
    assert_non_null(all);
    assert_int_equal(json_array_size(all), 26);
    size_t i;
    json_t *rec;
    int at_mii = 0, mapped = 0;
    json_array_foreach(all, i, rec) {
        at_mii += check_record(rec);
        mapped += strcmp(str(rec, "status"), "mapped") == 0;
    }
    fprintf(stderr, "%d of 26 mapped, %d at the MII\n", mapped, at_mii);
    /* exit 0 exactly when every loop mapped and verified */
    assert_int_equal(r.status, mapped == 26 ? 0 : 1);
    json_decref(all);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_microbench_suite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
