/* test_xml.c: module templates and bodies (xml/xml.c): ports, wires,
 * connections of every shape, <definition> groups, and their mistakes:
 * unknown tags and attributes, duplicate modules, bad connections, text. */
#include "xml_test_util.h"

#define ARCH1                                                                 \
    "<architecture rows=\"1\" cols=\"1\"><pattern><block module=\"m\"/>"     \
    "</pattern></architecture>"

static void test_connections(void **state)
{
    (void)state;
    /* from= one to several, select-from= (one mux per target),
     * distribute-to= (fan-out), a wire in between, inside a <definition>
     * group. */
    expect_golden("<cgra><definition><module name=\"m\">"
                  "<input name=\"a\" size=\"8\"/><input name=\"b\" size=\"8\"/>"
                  "<output name=\"o\" size=\"8\"/><output name=\"p\" size=\"8\"/>"
                  "<wire name=\"w\" size=\"8\"/>"
                  "<inst name=\"f\" module=\"FuncUnit\" size=\"8\"/>"
                  "<inst name=\"g\" module=\"FuncUnit\" size=\"8\"/>"
                  "<connection select-from=\"this.a this.b\" to=\"f.in_a g.in_a\"/>"
                  "<connection from=\"this.b\" to=\"f.in_b g.in_b\"/>"
                  "<connection from=\"f.out\" to=\"w\"/>"
                  "<connection from=\"w\" distribute-to=\"this.o\"/>"
                  "<connection from=\"g.out\" to=\"this.p\"/>"
                  "</module></definition>\n" ARCH1 "</cgra>\n",
                  "xml_connections.txt", 0);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("<cgra><module name=\"m\"><port name=\"a\"/></module>\n" ARCH1
                 "</cgra>",
                 "t.xml:1: error: unknown tag <port> inside <module> "
                 "(expected: input, output, inout, wire, inst, sub-module, "
                 "connection)");
    expect_error("<cgra><module name=\"m\"><input name=\"a\" width=\"8\"/>"
                 "</module>\n" ARCH1 "</cgra>",
                 "t.xml:1: error: unknown attribute 'width' on <input> "
                 "(attributes: name, size, if)");
    expect_error("<cgra><module name=\"m\"/>\n<module name=\"m\"/>\n" ARCH1
                 "</cgra>",
                 "t.xml:2: error: duplicate module 'm' (first defined at "
                 "t.xml:1); rename one");
    /* a name connections cannot refer to (empty, blanks, '.', "this"):
     * refused at its line (it surfaced later as an unknown reference) */
    expect_error("<cgra><module name=\"m\"><input name=\"o.x\"/></module>\n"
                 ARCH1 "</cgra>",
                 "t.xml:1: error: <input> name=\"o.x\" cannot name it: "
                 "connections refer to it as NAME or NAME.PORT; give a name "
                 "without blanks or '.' (and not 'this')");
    expect_error("<cgra><module name=\"m\">\n<inst name=\"this\" "
                 "module=\"Register\"/></module>\n" ARCH1 "</cgra>",
                 "t.xml:2: error: <inst> name=\"this\" cannot name it: "
                 "connections refer to it as NAME or NAME.PORT; give a name "
                 "without blanks or '.' (and not 'this')");
    /* an empty list connects nothing: an error (it was silent) */
    expect_error("<cgra><module name=\"m\"><input name=\"a\"/>"
                 "<inst name=\"f\" module=\"FuncUnit\" op=\"add\"/>\n"
                 "<connection from=\"a\" to=\" \"/></module>\n" ARCH1
                 "</cgra>",
                 "t.xml:2: error: a connection needs a source and a target "
                 "(got from='a', to=' ')");
    expect_error("<cgra><module name=\"m\"><input name=\"a\"/>\n"
                 "<connection from=\"a\" distribute-to=\"\"/></module>\n"
                 ARCH1 "</cgra>",
                 "t.xml:2: error: a connection needs a source and a target "
                 "(got from='a', distribute-to='')");
    expect_error("<cgra><module/>\n" ARCH1 "</cgra>",
                 "t.xml:1: error: <module> needs a name=\"...\"");
    expect_error("<cgra><module name=\"m\" size=\"3\"/>\n" ARCH1 "</cgra>",
                 "t.xml:1: error: unknown attribute 'size' on <module> "
                 "(attributes: name)");
    expect_error("<cgra><module name=\"m\"><connection from=\"a\"/></module>\n"
                 ARCH1 "</cgra>",
                 "t.xml:1: error: <connection> needs from= with to=, "
                 "select-from= with to=, or from= with distribute-to=");
    expect_error("<cgra><module name=\"m\"><connection from=\"a\" to=\"b\" "
                 "distribute-to=\"c\"/></module>\n" ARCH1 "</cgra>",
                 "t.xml:1: error: <connection> needs from= with to=, "
                 "select-from= with to=, or from= with distribute-to=");
    expect_error("<cgra><module name=\"m\">oops</module>\n" ARCH1 "</cgra>",
                 "t.xml:1: error: unexpected text 'oops' inside <module>; "
                 "only elements belong here");
    /* its first line from its first character (the newline and indent
       before it were quoted, and 20 bytes at most), at the line libxml2
       gives the text (where it ends) */
    expect_error("<cgra><module name=\"m\">\n  some junk text that runs on "
                 "and on  \n more</module>\n" ARCH1 "</cgra>",
                 "t.xml:3: error: unexpected text 'some junk text that runs "
                 "on and on' inside <module>; only elements belong here");
    expect_error("<cgra><modul name=\"m\"/>\n" ARCH1 "</cgra>",
                 "t.xml:1: error: unknown tag <modul> inside <cgra> "
                 "(expected: module, definition, architecture)");
    expect_error("<cgra><definition><architecture/></definition>\n" ARCH1
                 "</cgra>",
                 "t.xml:1: error: unknown tag <architecture> inside "
                 "<definition> (expected: module, definition)");
    expect_error("<cgra><module name=\"m\"><input size=\"8\"/></module>\n"
                 ARCH1 "</cgra>",
                 "t.xml:1: error: <input> needs a name=\"...\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_connections),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
