/* test_rtl_cmd.c: `cgramap rtl` (cli/rtl_cmd.c).  Without a mapping it
 * writes the array, its bit map and the testbench; with a saved mapping
 * also the bitstream, its disassembly and the run's files, on `cgramap
 * sim`'s data: the memory image holds the memory the DFG states (a loop
 * extracted from C lives at 0x10000 and up), and the hand run the docs
 * show (Icarus Verilog) then accesses nothing outside it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "run_cgramap.h"
#include "sweep_check.h"

#define SAXPY "benchmarks/microbench/saxpy/saxpy.c"

static bool exists(const char *dir, const char *name)
{
    char p[512];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0;
}

/* Lines of the file dir/name. */
static long lines_of(const char *dir, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    size_t n;
    char *s = cg_slurp(p, &n);
    assert_non_null(s);
    long k = 0;
    for (size_t i = 0; i < n; i++)
        k += s[i] == '\n';
    free(s);
    return k;
}

/* saxpy's DFG and a mapping of it, saved into the test's folder. */
static void map_saxpy(void)
{
    run r;
    run_cgramap(&r, (const char *const[]){"dfg", SAXPY, "-o",
                                         in_tmp("saxpy.dot"), NULL});
    assert_int_equal(r.status, 0);
    run_cgramap(&r, (const char *const[]){"map", "--mapping",
                                         in_tmp("saxpy.txt"),
                                         in_tmp("saxpy.dot"), NULL});
    assert_int_equal(r.status, 0);
}

static void test_without_mapping(void **state)
{
    (void)state;
    run r;
    const char *dir = in_tmp("bare");
    run_cgramap(&r, (const char *const[]){"rtl", "-o", dir, NULL});
    assert_int_equal(r.status, 0);
    assert_true(exists(dir, "cg_array.v"));
    assert_true(exists(dir, "bitmap.json"));
    assert_true(exists(dir, "tb.v"));
    assert_false(exists(dir, "bitstream.txt"));
    assert_false(exists(dir, "mem.hex"));
    /* the help says so too */
    run_cgramap(&r, (const char *const[]){"rtl", "--help", NULL});
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "bit map\n(DIR/bitmap.json) and a "
                                  "testbench (DIR/tb.v).  With a saved "
                                  "mapping"));
}

static void test_with_mapping(void **state)
{
    (void)state;
    map_saxpy();
    run r;
    const char *dir = in_tmp("run");
    run_cgramap(&r, (const char *const[]){"rtl", "-o", dir,
                                         in_tmp("saxpy.dot"),
                                         in_tmp("saxpy.txt"), NULL});
    assert_int_equal(r.status, 0);
    const char *files[] = {"cg_array.v", "bitmap.json", "tb.v",
                           "bitstream.txt", "disasm.txt", "mem.hex",
                           "order.hex", "livein.hex", "outsel.hex",
                           "plusargs.txt"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        assert_true(exists(dir, files[i]));
    /* saxpy's arrays: 512 bytes at 0x10000 (its memory=), so 66048
       bytes from address 0, one per line of mem.hex */
    char p[512], args[256];
    snprintf(p, sizeof p, "%s/plusargs.txt", dir);
    slurp(p, args, sizeof args);
    assert_non_null(strstr(args, " +base=0 +size=66048 "));
    assert_int_equal(lines_of(dir, "mem.hex"), 66048);
    /* the documented hand run: nothing outside the memory */
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd %s && iverilog -g2005 -o ivtb tb.v "
             "cg_array.v && vvp -n ivtb %.*s > vvp.out 2>&1", dir,
             (int)strcspn(args, "\n"), args);
    assert_int_equal(system(cmd), 0);
    char out[4096];
    snprintf(p, sizeof p, "%s/vvp.out", dir);
    slurp(p, out, sizeof out);
    assert_non_null(strstr(out, "cg_tb: done, 0 accesses outside the "
                                "memory"));
    /* --mem-size, as for `cgramap sim`, gives the size; one below the
       DFG's memory is written, with a warning */
    run_cgramap(&r, (const char *const[]){"rtl", "-o", in_tmp("small"),
                                         "--mem-size", "1000",
                                         in_tmp("saxpy.dot"),
                                         in_tmp("saxpy.txt"), NULL});
    assert_int_equal(r.status, 0);
    assert_int_equal(lines_of(in_tmp("small"), "mem.hex"), 1000);
    char warn[512];
    snprintf(warn, sizeof warn, "%s: warning: the DFG's addresses lie in "
             "[0x10000, 0x10200) (its memory=), beyond the 1000 bytes of "
             "--mem-size: the testbench will access outside its memory; "
             "leave --mem-size out, or give --mem-size 66048 or more\n",
             in_tmp("saxpy.dot"));
    assert_non_null(strstr(r.err, warn));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_without_mapping),
        cmocka_unit_test(test_with_mapping),
    };
    return cmocka_run_group_tests(tests, sweep_setup, sweep_teardown);
}
