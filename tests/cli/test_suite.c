/* test_suite.c: the main job end to end on the whole microbenchmark suite
 * on the embedded default 4x4 (26 loops), with short limits (5 s per II,
 * IIs up to 8, two files at once).  What it asserts is what does not depend
 * on the machine's speed:
 *   - every loop of up to 36 nodes maps, passes the checker, and its
 *     simulation leaves the memory and live-outs the C code leaves
 *     (`verified` yes); no loop is an error;
 *   - every loop has its known size, ResMII and RecMII (a table here,
 *     not the row's own figures), so `optimal` at the MII rests on them;
 *   - a mapped loop is at its MII, or the outcome of every lower II is
 *     recorded (infeasible or timeout), never skipped, and its proof
 *     column says `optimal` exactly when every lower II is infeasible,
 *     each refuted II naming its prover (bound, parity, lp, ilp or sat)
 *     and, for SAT, the horizon the proof cites;
 *   - an `optimal` above the MII is proven again by separate runs that
 *     search only the lower IIs with the annealer off (every loop whose
 *     refutation was a bound (registers or parity), and the SAT-refuted
 *     loop that took the fewest conflicts, by SAT alone): each says
 *     infeasible;
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

/* What each loop of the suite is on the default 4x4: its DFG's nodes, its
 * ResMII (16 FuncUnits; sobel's 17 adds need 2 cycles) and its RecMII
 * (histogram's and initrec's load-add-store through memory, nomem1's
 * three-op recurrence). */
static const struct known {
    const char *loop;
    int nodes, res_mii, rec_mii;
} known[] = {
    {"accumulate", 16, 1, 1}, {"bicg", 25, 1, 1},     {"cap", 15, 1, 1},
    {"conv2", 22, 1, 1},      {"conv3", 26, 1, 1},    {"dot", 18, 1, 1},
    {"fir", 34, 1, 1},        {"gemm", 24, 1, 1},     {"gemv", 18, 1, 1},
    {"histogram", 20, 1, 2},  {"initrec", 16, 1, 2},  {"jacobi2d", 32, 1, 1},
    {"mac", 18, 1, 1},        {"mac2", 25, 1, 1},
    {"matrixmultiply", 24, 1, 1},                     {"mults1", 20, 1, 1},
    {"mults2", 25, 1, 1},     {"narrow", 19, 1, 1},   {"nomem1", 12, 1, 3},
    {"relu", 22, 1, 1},       {"saxpy", 18, 1, 1},    {"simple", 20, 1, 1},
    {"simple2", 21, 1, 1},    {"sobel", 42, 2, 1},    {"stride", 21, 1, 1},
    {"sum", 14, 1, 1},
};

static const struct known *known_loop(const char *loop)
{
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcmp(loop, known[i].loop) == 0)
            return &known[i];
    fail_msg("loop %s is not in the table of known loops", loop);
    return NULL;
}

/* A refuted II of try t: what refuted it is named; SAT also says for
 * which schedule slack (a number, or null for any), no other prover
 * does.  Returns the horizon, -1 when none or any. */
static json_int_t refuted(const json_t *t)
{
    const char *by = str(t, "by");
    assert_string_equal(str(t, "outcome"), "infeasible");
    assert_true(!strcmp(by, "bound") || !strcmp(by, "parity") ||
                !strcmp(by, "lp") || !strcmp(by, "ilp") ||
                !strcmp(by, "sat"));
    json_t *h = json_object_get(t, "horizon");
    if (strcmp(by, "sat") != 0) {
        assert_null(h);
        return -1;
    }
    assert_true(json_is_integer(h) || json_is_null(h));
    return json_is_integer(h) ? json_integer_value(h) : -1;
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
    const struct known *kn = known_loop(loop);
    assert_int_equal(nodes, kn->nodes);
    assert_int_equal(num(rec, "res_mii"), kn->res_mii);
    assert_int_equal(num(rec, "rec_mii"), kn->rec_mii);
    assert_int_equal(mii, kn->res_mii > kn->rec_mii ? kn->res_mii
                                                    : kn->rec_mii);
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
            json_int_t h = k < ii && strcmp(o, "infeasible") == 0
                           ? refuted(t) : -1;
            if (h >= 0 && (horizon < 0 || h < horizon))
                horizon = h;
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

/* rec says `optimal` above its MII: how it was refuted.  0: not so;
 * 1: every lower II by a bound (registers or parity); 2: SAT refuted one
 * (*conflicts spent below the II). */
static int optimal_above_mii(const json_t *rec, json_int_t *conflicts)
{
    if (strcmp(str(rec, "status"), "mapped") != 0 ||
        strncmp(str(rec, "proof"), "optimal", 7) != 0 ||
        num(rec, "ii") == num(rec, "mii"))
        return 0;
    json_t *tries = json_object_get(rec, "tries");
    int how = 1;
    *conflicts = 0;
    for (size_t i = 0; i + 1 < json_array_size(tries); i++) {
        const json_t *t = json_array_get(tries, i);
        *conflicts += num(t, "conflicts");
        if (strcmp(str(t, "by"), "bound") != 0 &&
            strcmp(str(t, "by"), "parity") != 0)
            how = 2;
    }
    return how;
}

/* A separate run on rec's file that searches only the IIs below rec's,
 * without the annealer (and by SAT alone when sat_only): the loop's MII is
 * the same, and every lower II is refuted, none capped. */
static void proven_again(const json_t *rec, bool sat_only, const char *dir)
{
    char js[96], max_ii[24];
    snprintf(js, sizeof js, "%s/again.json", dir);
    snprintf(max_ii, sizeof max_ii, "%lld", (long long)num(rec, "ii") - 1);
    run r;
    run_cgramap(&r, (const char *const[]){
        "--max-ii", max_ii, "--moves", "0", "--timeout", "120", "--mapper",
        sat_only ? "sat" : "auto", "--json", js, str(rec, "file"), NULL});
    json_error_t e;
    json_t *all = json_load_file(js, 0, &e), *again = NULL;
    assert_non_null(all);
    size_t i;
    json_t *x;
    json_array_foreach(all, i, x)
        if (!strcmp(str(x, "loop"), str(rec, "loop")))
            again = x;
    assert_non_null(again);
    fprintf(stderr, "%-15s again (%s): %s\n", str(rec, "loop"),
            sat_only ? "sat" : "auto", str(again, "status"));
    assert_string_equal(str(again, "status"), "infeasible");
    assert_int_equal(num(again, "mii"), num(rec, "mii"));
    json_t *tries = json_object_get(again, "tries");
    assert_int_equal(json_array_size(tries), num(rec, "ii") - num(rec, "mii"));
    json_array_foreach(tries, i, x) {
        assert_false(json_is_true(json_object_get(x, "capped")));
        refuted(x);
        if (sat_only)
            assert_string_equal(str(x, "by"), "sat");
    }
    json_decref(all);
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
    /* optimal above the MII, proven again apart: every bound proof, and
     * the cheapest SAT proof */
    const json_t *sat_rec = NULL;
    json_int_t least = 0, c;
    json_array_foreach(all, i, rec) {
        int how = optimal_above_mii(rec, &c);
        if (how == 1)
            proven_again(rec, false, dir);
        if (how == 2 && (!sat_rec || c < least)) {
            sat_rec = rec;
            least = c;
        }
    }
    if (sat_rec)
        proven_again(sat_rec, true, dir);
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
