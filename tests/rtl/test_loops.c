/* test_loops.c: combinational loops (rtl/loops.c).  Two FuncUnits of
 * latency 0 feeding each other are one loop, named port by port; a
 * second, separate ring is a second error; latency 1 on one unit, or a
 * Register between them, breaks it; the same loop in several blocks is
 * one error that counts the others; cg_rtl_create refuses an array with a
 * loop with the same message, at the loop's first primitive's line, and
 * makes no design. */
#include "rtl_test_util.h"

/* A 1x1 array of one block: f0 and f1 in a ring (f1 of latency lat, or
 * through a register when reg), and, when two, a second ring g0, g1. */
static cg_netlist *ring(int lat, bool reg, bool two)
{
    char xml[2048];
    snprintf(xml, sizeof xml,
             "<cgra><module name=\"ring\">"
             "<inst name=\"f0\" module=\"FuncUnit\"/>"
             "<inst name=\"f1\" module=\"FuncUnit\" latency=\"%d\"/>"
             "<inst name=\"k\" module=\"ConstUnit\"/>%s%s"
             "<connection from=\"f1.out\" to=\"f0.in_a\"/>"
             "<connection from=\"k.out\" to=\"f0.in_b f1.in_b\"/>%s"
             "</module><architecture rows=\"1\" cols=\"1\"><pattern>"
             "<block module=\"ring\"/></pattern></architecture></cgra>",
             lat,
             reg ? "<inst name=\"r\" module=\"Register\"/>"
                   "<connection from=\"f0.out\" to=\"r.in\"/>"
                   "<connection from=\"r.out\" to=\"f1.in_a\"/>"
                 : "<connection from=\"f0.out\" to=\"f1.in_a\"/>",
             two ? "<inst name=\"g0\" module=\"FuncUnit\"/>"
                   "<inst name=\"g1\" module=\"FuncUnit\"/>"
                   "<connection from=\"g0.out\" to=\"g1.in_a g1.in_b\"/>"
                 : "",
             two ? "<connection from=\"g1.out\" to=\"g0.in_a g0.in_b\"/>"
                 : "");
    cg_diags *d = cg_diags_create();
    return flatten_ok(cg_xml_read_memory(xml, "ring.xml", NULL, NULL, d), d);
}

static const char f_loop[] =
    "combinational loop: block_0_0.f0.in_a -> block_0_0.f0.out -> "
    "block_0_0.f1.in_a -> block_0_0.f1.out -> block_0_0.f0.in_a: no "
    "register on it (the hardware would have a cycle of logic); put a "
    "Register on it or give a unit on it latency 1\n";

static char *loops(cg_netlist *nl, int want)
{
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_rtl_find_loops(nl, d), want);
    char *s = diag_lines(d);
    cg_diags_destroy(d);
    return s;
}

static void test_one_loop(void **state)
{
    (void)state;
    cg_netlist *nl = ring(0, false, false);
    char *s = loops(nl, 1);
    assert_string_equal(s, f_loop);
    free(s);
    cg_netlist_destroy(nl);
}

static void test_two_loops(void **state)
{
    (void)state;
    cg_netlist *nl = ring(0, false, true);
    char *s = loops(nl, 2);
    char want[1024];
    snprintf(want, sizeof want, "%scombinational loop: block_0_0.g0.in_a "
             "-> block_0_0.g0.out -> block_0_0.g1.in_a -> block_0_0.g1.out "
             "-> block_0_0.g0.in_a: no register on it (the hardware would "
             "have a cycle of logic); put a Register on it or give a unit "
             "on it latency 1\n", f_loop);
    assert_string_equal(s, want);
    free(s);
    cg_netlist_destroy(nl);
}

/* The same ring in each of three blocks: one error, for block_0_0's, that
 * counts the others (it was one error per block, alike but for it). */
static void test_one_per_declaration(void **state)
{
    (void)state;
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<cgra><module name=\"ring\">"
             "<inst name=\"f0\" module=\"FuncUnit\"/>"
             "<inst name=\"k\" module=\"ConstUnit\"/>"
             "<connection from=\"f0.out\" to=\"f0.in_a\"/>"
             "<connection from=\"k.out\" to=\"f0.in_b\"/>"
             "</module><architecture rows=\"1\" cols=\"3\"><pattern>"
             "<block module=\"ring\"/></pattern></architecture></cgra>");
    cg_diags *d = cg_diags_create();
    cg_netlist *nl =
        flatten_ok(cg_xml_read_memory(xml, "ring.xml", NULL, NULL, d), d);
    char *s = loops(nl, 3);
    assert_string_equal(s, "combinational loop: block_0_0.f0.in_a -> "
                        "block_0_0.f0.out -> block_0_0.f0.in_a: no register "
                        "on it (the hardware would have a cycle of logic); "
                        "put a Register on it or give a unit on it latency 1 "
                        "(and 2 more like it, through the same declarations "
                        "in other blocks)\n");
    free(s);
    cg_netlist_destroy(nl);
}

static void test_broken(void **state)
{
    (void)state;
    cg_netlist *a = ring(1, false, false), *b = ring(0, true, false);
    char *s = loops(a, 0), *t = loops(b, 0);
    assert_string_equal(s, "");
    assert_string_equal(t, "");
    free(s);
    free(t);
    cg_netlist_destroy(a);
    cg_netlist_destroy(b);
}

static void test_create_refuses(void **state)
{
    (void)state;
    cg_netlist *nl = ring(0, false, false);
    cg_rtl_params p;
    cg_rtl_params_init(&p);
    cg_diags *d = cg_diags_create();
    assert_null(cg_rtl_create(nl, &p, d));
    char *s = diag_lines(d);
    assert_string_equal(s, f_loop);
    /* at the declaration of the loop's first primitive */
    assert_string_equal(cg_diags_get(d, 0)->file, "ring.xml");
    assert_int_equal(cg_diags_get(d, 0)->line, 1);
    free(s);
    cg_diags_destroy(d);
    cg_netlist_destroy(nl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_loop),
        cmocka_unit_test(test_two_loops),
        cmocka_unit_test(test_one_per_declaration),
        cmocka_unit_test(test_broken),
        cmocka_unit_test(test_create_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
