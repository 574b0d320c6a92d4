/* test_saved.c: `cgramap check` and `cgramap sim` on saved mappings
 * (cli/check_cmd.c, cli/sim_cmd.c).  A microbenchmark extracted, mapped
 * and saved, then checked again: ok.  The saved mapping of accumulate
 * (tests/mapper/data/) corrupted (a route node removed, an op moved to a
 * unit that cannot run it, a route through a register that carries
 * another value): refused with the checker's exact messages; a
 * reader error with its file:line.  The mapping the main job saves with
 * --mapping-dir simulated again on the main job's data, and on a memory
 * image whose result is written out here by hand; a late store found by
 * --compare. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdbool.h>

#include "run_cgramap.h"

#define ARCH "benchmarks/archs/default_4x4.xml"
#define ACC_DOT "tests/mapper/data/accumulate.dot"
#define ACC_TXT "tests/mapper/data/accumulate.txt"
#define SCALE "tests/cli/data/saved/scale.dot"
#define SCALE_TXT "tests/cli/data/saved/scale.txt" /* on the default array */

/* A fresh folder for a test's files, its name into dir. */
static void temp_dir(char *dir)
{
    strcpy(dir, "/tmp/cg_savedXXXXXX");
    assert_non_null(mkdtemp(dir));
}

static void remove_dir(const char *dir)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Extract accumulate, map it with --mapping, check the saved file. */
static void test_map_then_check(void **state)
{
    (void)state;
    char dir[32], dot[64], txt[64];
    temp_dir(dir);
    snprintf(dot, sizeof dot, "%s/acc.dot", dir);
    snprintf(txt, sizeof txt, "%s/acc.txt", dir);
    run r;
    run_cgramap(&r, (const char *const[]){"dfg", "benchmarks/microbench/"
                "accumulate/accumulate.c", "-o", dot, NULL});
    assert_int_equal(r.status, 0);
    run_cgramap(&r, (const char *const[]){"map", "--arch", ARCH,
                "--timeout", "10", "--mapping", txt, dot, NULL});
    assert_int_equal(r.status, 0);
    run_cgramap(&r, (const char *const[]){"check", "--arch", ARCH, dot, txt,
                NULL});
    assert_string_equal(r.err, "");
    assert_string_equal(r.out, "ok\n");
    assert_int_equal(r.status, 0);
    remove_dir(dir);
}

/* A .dot cgramap dfg writes states the memory its globals lie in
 * (memory="65536 BYTES"): sim --compare sizes its image from it (its
 * first access is 0x10000, past the 64 KiB default); a --mem-size too
 * small says which flag to give; check without --arch, whose mapping was
 * made on another array, says so once after the reader's error. */
static void test_dot_memory(void **state)
{
    (void)state;
    char dir[32], dot[64], txt[64], txt6[64], want[1024];
    temp_dir(dir);
    snprintf(dot, sizeof dot, "%s/sum.dot", dir);
    snprintf(txt, sizeof txt, "%s/sum.txt", dir);
    snprintf(txt6, sizeof txt6, "%s/sum6.txt", dir);
    run r;
    run_cgramap(&r, (const char *const[]){"dfg", "benchmarks/microbench/"
                "sum/sum.c", "-o", dot, NULL});
    assert_int_equal(r.status, 0);
    char text[4096];
    slurp(dot, text, sizeof text);
    assert_non_null(strstr(text, "    graph [memory=\"65536 272\"];\n"));
    run_cgramap(&r, (const char *const[]){"map", "--mapping", txt, dot,
                NULL});
    assert_int_equal(r.status, 0);
    run_cgramap(&r, (const char *const[]){"sim", "--compare", dot, txt,
                NULL});
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "on 65808 bytes of memory\n"));
    assert_non_null(strstr(r.out, "the DFG interpreter: the same memory and "
                                  "live-outs\n"));
    run_cgramap(&r, (const char *const[]){"sim", "--mem-size", "65536",
                "--compare", dot, txt, NULL});
    assert_int_equal(r.status, 1);
    snprintf(want, sizeof want, "%s: note: the DFG's addresses lie in "
             "[0x10000, 0x10110) (its memory=), beyond the 65536 bytes "
             "given: leave --mem-size out, or give --mem-size 65808 or "
             "more\n", dot);
    assert_non_null(strstr(r.err, want));
    run_cgramap(&r, (const char *const[]){"map", "--arch",
                "benchmarks/archs/default_6x6.xml", "--mapping", txt6, dot,
                NULL});
    assert_int_equal(r.status, 0);
    run_cgramap(&r, (const char *const[]){"check", dot, txt6, NULL});
    assert_int_equal(r.status, 1);
    snprintf(want, sizeof want, "%s:6: error: no MRRG node is named "
             "'block_5_6.const@c0' on this array at II=1 (names are UNIT@cK, "
             "UNIT.PORT@cK and REGFILE.regR@cK with K < II): give the "
             "architecture the mapping was made on\n%s: note: no --arch was "
             "given, so the mapping was read against the embedded default "
             "array; give the array it was made on with --arch FILE.xml\n",
             txt6, txt6);
    assert_string_equal(r.err, want);
    remove_dir(dir);
}

/* The saved mapping src with `from` replaced by `to` into dir/bad.txt
 * (path). */
static void corrupt(const char *src, const char *from, const char *to,
                    const char *dir, char *path, size_t n)
{
    snprintf(path, n, "%s/bad.txt", dir);
    char text[8192];
    slurp(src, text, sizeof text);
    char *at = strstr(text, from);
    assert_non_null(at);
    FILE *f = fopen(path, "w");
    fprintf(f, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    fclose(f);
}

/* err with each "$P" replaced by path, into out. */
static void subst_path(const char *err, const char *path, char *out,
                       size_t n)
{
    size_t k = 0;
    for (const char *p = err; *p && k + 1 < n; p++)
        if (p[0] == '$' && p[1] == 'P') {
            k += (size_t)snprintf(out + k, n - k, "%s", path);
            p++;
        } else {
            out[k++] = *p;
        }
    out[k < n ? k : n - 1] = 0;
}

/* ACC_TXT with `from` replaced by `to`, checked: status 1, nothing on
 * stdout, exactly `err` on stderr, after the corrupted file's path when
 * at_path (the reader's errors name the file, the checker's the loop's
 * source); "$P" in err stands for that path (the checker's notes name
 * the line to look at). */
static void check_corrupted_as(const char *from, const char *to,
                               bool at_path, const char *err)
{
    char dir[32], path[64], want[4200], errs[4096];
    temp_dir(dir);
    corrupt(ACC_TXT, from, to, dir, path, sizeof path);
    run r;
    run_cgramap(&r, (const char *const[]){"check", "--arch", ARCH, ACC_DOT,
                path, NULL});
    subst_path(err, path, errs, sizeof errs);
    snprintf(want, sizeof want, "%s%s", at_path ? path : "", errs);
    assert_string_equal(r.err, want);
    assert_string_equal(r.out, "");
    assert_int_equal(r.status, 1);
    /* sim gives the same errors first and fails whatever its run shows
       (it once ran such a mapping silently, and --compare could find the
       interpreter's memory) */
    run_cgramap(&r, (const char *const[]){"sim", "--arch", ARCH, ACC_DOT,
                path, NULL});
    if (!at_path) {
        size_t n = strlen(want);
        snprintf(want + n, sizeof want - n, "%s: note: the checker refuses "
                 "this mapping (the errors above): it is simulated as "
                 "written, and the run proves nothing\n", path);
    }
    assert_true(strncmp(r.err, want, strlen(want)) == 0);
    assert_int_equal(r.status, 1);
    remove_dir(dir);
}

static void check_corrupted(const char *from, const char *to,
                            const char *err)
{
    check_corrupted_as(from, to, false, err);
}

static void test_route_node_removed(void **state)
{
    (void)state;
    check_corrupted(" block_1_2.reg.in@c0 ", " ",
                    "benchmarks/microbench/accumulate/accumulate.c:9: error: "
                    "edge 4 'add8'->'load9' (operand 0, distance 0): route "
                    "is not connected: no MRRG edge from "
                    "block_1_2.reg_in_mux.out@c0 to block_1_2.reg.out@c0 "
                    "(entry 7)\n"
                    "$P:24: note: the line that routes edge 4\n");
}

static void test_op_moved(void **state)
{
    (void)state;
    check_corrupted("'mul7' mul on block_1_4.func@c0",
                    "'mul7' mul on block_4_1.mem@c0",
                    "benchmarks/microbench/accumulate/accumulate.c:9: error: "
                    "node 'mul7' (mul) is placed on block_4_1.mem@c0, which "
                    "does not support mul\n"
                    "$P:9: note: the line that places 'mul7'\n"
                    "benchmarks/microbench/accumulate/accumulate.c:9: error: "
                    "edge 0 'add12'->'mul7' (operand 0, distance 1): route "
                    "ends at block_1_4.func.in_a@c0, not at the operand 0 "
                    "pin of block_4_1.mem@c0 where 'mul7' is placed\n"
                    "$P:20: note: the line that routes edge 0\n"
                    "benchmarks/microbench/accumulate/accumulate.c:9: error: "
                    "edge 1 'const1'->'mul7' (operand 1, distance 0): route "
                    "ends at block_1_4.func.in_b@c0, not at the operand 1 "
                    "pin of block_4_1.mem@c0 where 'mul7' is placed\n"
                    "$P:21: note: the line that routes edge 1\n"
                    "benchmarks/microbench/accumulate/accumulate.c:9: error: "
                    "edge 3 'mul7'->'add8' (operand 1, distance 0): route is "
                    "not connected: no MRRG edge from block_4_1.mem@c0 to "
                    "block_1_4.func.out@c0 (entry 0)\n"
                    "$P:23: note: the line that routes edge 3\n");
}

#define ACC_C "benchmarks/microbench/accumulate/accumulate.c"
#define TWO "'add12' (edge 0 'add12'->'mul7' (operand 0, distance 1)) and " \
            "'mul7' (edge 3 'mul7'->'add8' (operand 1, distance 0))"

/* add12's route to mul7 through mul7's own register (one cycle more):
 * that register and its mux carry two values, mul7's and add12's, and the
 * timing no longer holds. */
static void test_two_values(void **state)
{
    (void)state;
    check_corrupted(" block_2_4.reg.out@c0 block_1_4.func_in_a_mux.in2@c0 ",
                    " block_2_4.reg.out@c0 block_1_4.reg_in_mux.in4@c0 "
                    "block_1_4.reg_in_mux.out@c0 block_1_4.reg.in@c0 "
                    "block_1_4.reg.out@c0 block_1_4.func_in_a_mux.in4@c0 ",
                    ACC_C ":9: error: edge 0 'add12'->'mul7' (operand 0, "
                    "distance 1): timing does not hold: start('mul7') + 1*II "
                    "= 1 but start('add12') + route latency 2 = 2\n"
                    "$P:20: note: the line that routes edge 0\n"
                    ACC_C ":9: error: routing node block_1_4.reg_in_mux.out@c0 "
                    "carries two values: " TWO "\n"
                    ACC_C ":9: error: routing node block_1_4.reg.in@c0 "
                    "carries two values: " TWO "\n"
                    ACC_C ":9: error: routing node block_1_4.reg.out@c0 "
                    "carries two values: " TWO "\n");
}

/* Without --arch, a mapping naming a node the default array lacks gets a
 * note to give the array it was made on; one whose line is wrong in
 * itself (it names another DFG node) does not: another array would not
 * fix it (the note once followed any error past the header). */
static void test_no_arch_note(void **state)
{
    (void)state;
    char dir[32], path[64], want[1024];
    temp_dir(dir);
    corrupt(SCALE_TXT, "block_2_4.func@c0 start 0", "block_9_9.func@c0 start 0",
            dir, path, sizeof path);
    run r;
    run_cgramap(&r, (const char *const[]){"check", SCALE, path, NULL});
    assert_int_equal(r.status, 1);
    snprintf(want, sizeof want, "%s: note: no --arch was given, so the "
             "mapping was read against the embedded default array; give the "
             "array it was made on with --arch FILE.xml\n", path);
    assert_non_null(strstr(r.err, want));
    corrupt(SCALE_TXT, "place 7 'a' add", "place 7 'x' add", dir, path,
            sizeof path);
    run_cgramap(&r, (const char *const[]){"check", SCALE, path, NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "place 7 names node 'x' where the DFG has "
                           "'a'"));
    assert_null(strstr(r.err, "no --arch was given"));
    remove_dir(dir);
}

/* The reader's errors come before any check, at their line. */
static void test_reader_error(void **state)
{
    (void)state;
    check_corrupted_as("block_2_2.func@c0", "block_2_2.func@c1", true,
                       ":13: error: no MRRG node is named "
                       "'block_2_2.func@c1' on this array at II=1 (names "
                       "are UNIT@cK, UNIT.PORT@cK and REGFILE.regR@cK with "
                       "K < II): give the architecture the mapping was "
                       "made on\n");
}

static void test_usage(void **state)
{
    (void)state;
    run r;
    run_cgramap(&r, (const char *const[]){"check", ACC_DOT, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap check: give LOOP.dot and "
                        "MAPPING.txt (see cgramap check --help)\n");
    run_cgramap(&r, (const char *const[]){"sim", "--mem-in", "x",
                "--mem-size", "64", ACC_DOT, ACC_TXT, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap sim: --mem-in sets the memory's "
                        "size: give it or --mem-size, not both\n");
    run_cgramap(&r, (const char *const[]){"sim", "--iters", "0", ACC_DOT,
                ACC_TXT, NULL});
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "cgramap sim: Invalid value for --iters: 0 "
                        "(a whole number from 1 to 10000000)\n");
}

/* The main job maps scale.dot and verifies it on its seeded data; `sim
 * --compare` on the mapping it saved runs the same data again and finds
 * the same memory and live-outs as the interpreter. */
static void test_sim_main_job_mapping(void **state)
{
    (void)state;
    char dir[32], txt[64];
    temp_dir(dir);
    snprintf(txt, sizeof txt, "%s/scale.scale.txt", dir);
    run r;
    run_cgramap(&r, (const char *const[]){"--mapping-dir", dir, "--json",
                "-", SCALE, NULL});
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"verified\": \"yes\""));
    run_cgramap(&r, (const char *const[]){"sim", "--compare", SCALE, txt,
                NULL});
    assert_string_equal(r.err, "");
    assert_string_equal(r.out,
                        "loop 'scale': 16 iterations at II=2 on 65536 bytes "
                        "of memory\n"
                        "live-in 'base' = 615\n"
                        "live-out 'res' = 1098769186\n"
                        "memory: 64 bytes changed, from 0x46b to 0x4aa\n"
                        "the DFG interpreter: the same memory and "
                        "live-outs\n");
    assert_int_equal(r.status, 0);
    remove_dir(dir);
}

/* The store two cycles late: the checker refuses it (sim says so first
 * and fails), and the simulated run, made as written, stores each value
 * of b one iteration late, which --compare finds at the first byte of
 * b[1] (the interpreter's 0xac; the image's 0xf4). */
static void test_sim_compare_differs(void **state)
{
    (void)state;
    char dir[32], path[64], want[512];
    temp_dir(dir);
    corrupt(SCALE_TXT, "'st' store on block_4_1.mem@c0 start 6",
            "'st' store on block_4_1.mem@c0 start 8", dir, path,
            sizeof path);
    run r;
    run_cgramap(&r, (const char *const[]){"sim", SCALE, SCALE_TXT,
                "--compare", NULL});
    assert_int_equal(r.status, 0);
    run_cgramap(&r, (const char *const[]){"sim", "--compare", SCALE, path,
                NULL});
    snprintf(want, sizeof want, "%s: note: the checker refuses this "
             "mapping (the errors above): it is simulated as written, and "
             "the run proves nothing\n"
             "%s: error: the simulated mapping leaves 0xf4 at address "
             "0x46b where the DFG interpreter leaves 0xac\n", path, path);
    /* the checker's errors first (the check below gives them too) */
    const char *head = "error: edge 11 'b'->'st' (operand 0, distance 0): "
                       "timing does not hold";
    assert_true(strncmp(r.err, head, strlen(head)) == 0);
    size_t ne = strlen(r.err), nw = strlen(want);
    assert_true(ne >= nw);
    assert_string_equal(r.err + ne - nw, want);
    /* each of the checker's errors about an edge is followed by the line
       of the mapping file that routes it */
    char note[128];
    snprintf(note, sizeof note, "\n%s:26: note: the line that routes edge "
             "11\n", path);
    assert_non_null(strstr(r.err, note));
    assert_null(strstr(r.out, "the DFG interpreter"));
    assert_int_equal(r.status, 1);
    run_cgramap(&r, (const char *const[]){"check", SCALE, path, NULL});
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "error: edge 11 'b'->'st' (operand 0, "
                           "distance 0): timing does not hold: start('st') "
                           "+ 0*II = 8 but start('b') + route latency 3 = "
                           "6\n"));
    remove_dir(dir);
}

static uint32_t word(const uint8_t *m, size_t at)
{
    return (uint32_t)m[at] | (uint32_t)m[at + 1] << 8 |
           (uint32_t)m[at + 2] << 16 | (uint32_t)m[at + 3] << 24;
}

/* scale on a given image (--mem-in) with base=1000 for 5 iterations:
 * the image written out (--mem-out) is the input with b[i] = 3 * a[i]
 * for i = 1..5 (i counts from 1: it is incremented first), a at 1000 and
 * b 512 bytes above, little-endian, and no other byte changed. */
static void test_sim_memory_image(void **state)
{
    (void)state;
    char dir[32], txt[64], in[64], out[64];
    temp_dir(dir);
    snprintf(txt, sizeof txt, "%s/scale.txt", dir);
    snprintf(in, sizeof in, "%s/in.bin", dir);
    snprintf(out, sizeof out, "%s/out.bin", dir);
    static uint8_t before[4096], after[4097];
    for (size_t i = 0; i < sizeof before; i++)
        before[i] = (uint8_t)(i * 7 + 3);
    FILE *f = fopen(in, "wb");
    fwrite(before, 1, sizeof before, f);
    fclose(f);
    run r;
    run_cgramap(&r, (const char *const[]){"map", "--mapping", txt, SCALE,
                NULL});
    assert_int_equal(r.status, 0);
    /* a name no live-in has sets nothing: a warning (a typo once went
       unnoticed), and the run goes on */
    run_cgramap(&r, (const char *const[]){"sim", "--sym", "bse=1000", SCALE,
                txt, NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, SCALE ": warning: --sym bse: no live-in of "
                        "'scale' has sym=\"bse\", so it sets nothing; check "
                        "the name\n");
    run_cgramap(&r, (const char *const[]){"sim", "--sym", "base=1000",
                "--iters", "5", "--mem-in", in, "--mem-out", out, SCALE,
                txt, NULL});
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
    f = fopen(out, "rb");
    assert_int_equal(fread(after, 1, sizeof after, f), sizeof before);
    fclose(f);
    uint8_t want[4096];
    memcpy(want, before, sizeof want);
    for (size_t i = 1; i <= 5; i++) {
        uint32_t v = 3 * word(before, 1000 + 4 * i);
        for (int k = 0; k < 4; k++)
            want[1512 + 4 * i + k] = (uint8_t)(v >> 8 * k);
    }
    assert_memory_equal(after, want, sizeof want);
    char line[128];
    snprintf(line, sizeof line, "live-out 'res' = %u\n",
             3 * word(before, 1020));
    assert_non_null(strstr(r.out, line));
    /* an image larger than --mem-size allows (a device: read up to the
       limit, not until memory runs out) */
    run_cgramap(&r, (const char *const[]){"sim", "--mem-in", "/dev/zero",
                SCALE, txt, NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "/dev/zero: error: the memory image holds "
                        "more than 1073741824 bytes, the most --mem-size "
                        "allows: give the bytes the loop reads\n");
    remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_then_check),
        cmocka_unit_test(test_dot_memory),
        cmocka_unit_test(test_route_node_removed),
        cmocka_unit_test(test_op_moved),
        cmocka_unit_test(test_two_values),
        cmocka_unit_test(test_reader_error),
        cmocka_unit_test(test_no_arch_note),
        cmocka_unit_test(test_usage),
        cmocka_unit_test(test_sim_main_job_mapping),
        cmocka_unit_test(test_sim_memory_image),
        cmocka_unit_test(test_sim_compare_differs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
