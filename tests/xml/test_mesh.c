/* test_mesh.c: the <mesh> and <diagonal> sugar of xml/mesh.c: neighbour
 * links, the IO ring on every side port (none in the corners), <interior>
 * stamps, wrap-around, and their mistakes. */
#include "xml_test_util.h"

/* Line 1: a PE with one input per direction. */
#define MODS                                                                  \
    "<cgra><module name=\"pe\"><input name=\"n\"/><input name=\"e\"/>"       \
    "<input name=\"s\"/><input name=\"w\"/><input name=\"ne\"/>"             \
    "<input name=\"nw\"/><input name=\"se\"/><input name=\"sw\"/>"           \
    "<output name=\"out\"/><inst name=\"f\" module=\"FuncUnit\"/>"           \
    "<connection select-from=\"this.n this.e this.s this.w this.ne this.nw " \
    "this.se this.sw\" to=\"f.in_a f.in_b\"/>"                               \
    "<connection from=\"f.out\" to=\"this.out\"/></module>"                  \
    "<module name=\"alt\"><input name=\"n\"/><input name=\"e\"/>"            \
    "<input name=\"s\"/><input name=\"w\"/><output name=\"out\"/>"           \
    "<inst name=\"r\" module=\"Register\"/>"                                 \
    "<connection select-from=\"this.n this.e this.s this.w\" to=\"r.in\"/>"  \
    "<connection from=\"r.out\" to=\"this.out\"/></module>\n"

#define NSWE                                                                  \
    "out-north=\"out\" out-east=\"out\" out-south=\"out\" out-west=\"out\" " \
    "in-north=\"n\" in-east=\"e\" in-south=\"s\" in-west=\"w\""

static void test_mesh_io(void **state)
{
    (void)state;
    /* 2x3 PEs ringed by IO: a 4x5 grid, IO blocks on the ten side
     * ports, the corners empty. */
    expect_golden(MODS "<architecture cgra-rows=\"2\" cgra-cols=\"3\">\n"
                  "<mesh io=\"every-side-port\" " NSWE ">\n"
                  "<interior row=\"1\" col=\"1\"><block module=\"pe\"/>"
                  "</interior></mesh></architecture></cgra>\n",
                  "mesh_io.txt", 0);
}

static void test_mesh_interior_stamp(void **state)
{
    (void)state;
    /* A 1x2 interior stamp alternates two modules along each row. */
    expect_golden(MODS "<architecture cgra-rows=\"2\" cgra-cols=\"4\">\n"
                  "<mesh " NSWE ">\n"
                  "<interior row=\"1\" col=\"2\"><block module=\"pe\"/>"
                  "<block module=\"alt\"/></interior></mesh>"
                  "</architecture></cgra>\n",
                  "mesh_stamp.txt", 0);
}

static void test_mesh_torus(void **state)
{
    (void)state;
    expect_golden(MODS "<architecture cgra-rows=\"3\" cgra-cols=\"3\">\n"
                  "<mesh wrap-around=\"on\" " NSWE ">\n"
                  "<interior><block module=\"pe\"/></interior></mesh>"
                  "</architecture></cgra>\n",
                  "mesh_torus.txt", 0);
}

static void test_diagonal(void **state)
{
    (void)state;
    expect_golden(MODS "<architecture cgra-rows=\"3\" cgra-cols=\"3\">\n"
                  "<diagonal io=\"every-side-port\" " NSWE " "
                  "out-northeast=\"out\" out-northwest=\"out\" "
                  "out-southeast=\"out\" out-southwest=\"out\" "
                  "in-northeast=\"ne\" in-northwest=\"nw\" in-southeast=\"se\" "
                  "in-southwest=\"sw\">\n"
                  "<interior><block module=\"pe\"/></interior></diagonal>"
                  "</architecture></cgra>\n",
                  "mesh_diagonal.txt", 1);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error(MODS "<architecture cgra-rows=\"2\" cgra-cols=\"2\">\n"
                 "<mesh in-north=\"n\"><interior><block module=\"pe\"/>"
                 "</interior></mesh></architecture></cgra>\n",
                 "t.xml:3: error: in-north=\"n\" needs out-south= (the port "
                 "the neighbour drives it from)");
    expect_error(MODS "<architecture cgra-rows=\"2\" cgra-cols=\"2\">\n"
                 "<mesh in-northeast=\"ne\"/></architecture></cgra>\n",
                 "t.xml:3: error: unknown attribute 'in-northeast' on <mesh> "
                 "(attributes: out-north, out-east, out-south, out-west, "
                 "in-north, in-east, in-south, in-west, io, wrap-around, "
                 "row-range, col-range)");
    expect_error(MODS "<architecture cgra-rows=\"2\" cgra-cols=\"2\">\n"
                 "<mesh io=\"all\"/></architecture></cgra>\n",
                 "t.xml:3: error: io=\"all\" must be \"every-side-port\" or "
                 "\"none\"");
    expect_error(MODS "<architecture cgra-rows=\"2\" cgra-cols=\"2\">\n"
                 "<mesh " NSWE "/></architecture></cgra>\n",
                 "t.xml:3: error: <mesh> needs an <interior> with its blocks");
    expect_error(MODS "<architecture cgra-rows=\"2\" cgra-cols=\"3\">\n"
                 "<mesh " NSWE ">\n<interior col=\"2\"><block module=\"pe\"/>"
                 "</interior></mesh></architecture></cgra>\n",
                 "t.xml:4: error: the 1x2 <interior> stamp does not tile the "
                 "2x3 interior; pick a size that divides it");
    expect_error(MODS "<architecture cgra-rows=\"2\" cgra-cols=\"2\">\n"
                 "<mesh io=\"every-side-port\" wrap-around=\"on\" " NSWE ">"
                 "<interior><block module=\"pe\"/></interior></mesh>"
                 "</architecture></cgra>\n",
                 "t.xml:3: error: io=\"every-side-port\" and "
                 "wrap-around=\"on\" exclude each other: a torus has no "
                 "sides");
    expect_error(MODS "<architecture cgra-rows=\"2\" cgra-cols=\"2\">\n"
                 "<mesh " NSWE ">\n<interior><pattern/></interior></mesh>"
                 "</architecture></cgra>\n",
                 "t.xml:4: error: unknown tag <pattern> inside <interior> "
                 "(expected: block)");
}

/* The sugar makes one connection per block from one line; its mistake is
 * reported once. */
static void test_errors_once(void **state)
{
    (void)state;
    expect_error(MODS "<architecture cgra-rows=\"2\" cgra-cols=\"2\">\n"
                 "<mesh out-north=\"out\" out-south=\"out\" in-north=\"north\" "
                 "in-south=\"s\">\n<interior><block module=\"pe\"/></interior>"
                 "</mesh></architecture></cgra>\n",
                 "t.xml:3: error: unknown port 'north' on instance 'block_1_0' "
                 "of module 'pe' (ports: n, e, s, w, ne, nw, se, sw, out)");
    expect_error("<cgra><module name=\"p\"><input name=\"n\" size=\"16\"/>"
                 "<input name=\"s\"/><output name=\"out\"/>"
                 "<inst name=\"r\" module=\"Register\"/>"
                 "<connection from=\"this.s\" to=\"r.in\"/>"
                 "<connection from=\"r.out\" to=\"this.out\"/></module>\n"
                 "<architecture cgra-rows=\"2\" cgra-cols=\"2\">\n"
                 "<mesh out-north=\"out\" out-south=\"out\" in-north=\"n\" "
                 "in-south=\"s\">\n<interior><block module=\"p\"/></interior>"
                 "</mesh></architecture></cgra>\n",
                 "t.xml:3: error: width mismatch: 'block_0_0.out' is 32 bits "
                 "but 'block_1_0.n' is 16 bits; give both the same size=");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mesh_io),
        cmocka_unit_test(test_mesh_interior_stamp),
        cmocka_unit_test(test_mesh_torus),
        cmocka_unit_test(test_diagonal),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_errors_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
