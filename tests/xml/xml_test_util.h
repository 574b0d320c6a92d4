/* xml_test_util.h: helpers shared by the tests of xml/: read XML from
 * memory, render the netlist, compare with golden files, assert exact
 * diagnostics.  Set CG_UPDATE_GOLDEN=1 to rewrite the golden files (then
 * review them with git diff). */
#ifndef XML_TEST_UTIL_H
#define XML_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/util.h"
#include "tests/common/golden.h"
#include "xml/xml.h"

static inline cg_arch *read_mem(const char *text, cg_diags *d)
{
    return cg_xml_read_memory(text, "t.xml", NULL, NULL, d);
}

/* The netlist of a as text: cg_netlist_write, or the summary. */
static inline char *netlist_text(const cg_arch *a, int summary)
{
    cg_diags *d = cg_diags_create();
    cg_netlist *nl = cg_arch_flatten(a, d);
    assert_non_null(nl);
    assert_int_equal(cg_netlist_check(nl, d), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (summary)
        assert_int_equal(cg_netlist_summary(nl, f), 0);
    else
        assert_int_equal(cg_netlist_write(nl, f), 0);
    fclose(f);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
    /* A copy: gcc -O3 takes pointers into the memstream's buffer for
     * pointers to the local buf (-Wdangling-pointer). */
    char *text = strdup(buf);
    assert_non_null(text);
    free(buf);
    return text;
}

static inline const char *src_dir(void)
{
    const char *s = getenv("CG_SOURCE_DIR");
    return s ? s : ".";
}

/* Compare text with tests/xml/golden/name (tests/common/golden.h). */
static inline void check_golden(const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "tests/xml/golden/%s", name);
    cg_golden_check(path, text);
}

/* Read xml, expect success and a netlist (or summary) equal to golden. */
static inline void expect_golden(const char *xml, const char *golden, int summary)
{
    cg_diags *d = cg_diags_create();
    cg_arch *a = read_mem(xml, d);
    if (!a)
        cg_diags_print(d, stderr);
    assert_non_null(a);
    assert_int_equal(cg_diags_errors(d), 0);
    char *text = netlist_text(a, summary);
    check_golden(golden, text);
    free(text);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* The formatted diagnostic i of d. */
static inline void expect_diag(const cg_diags *d, int i, const char *want)
{
    assert_true(i < cg_diags_size(d));
    char *got = cg_diag_format(cg_diags_get(d, i));
    if (strcmp(got, want) != 0)
        fprintf(stderr, "got:  %s\nwant: %s\n", got, want);
    assert_string_equal(got, want);
    free(got);
}

/* Read xml, expect NULL and exactly one diagnostic equal to want. */
static inline void expect_error(const char *xml, const char *want)
{
    cg_diags *d = cg_diags_create();
    cg_arch *a = read_mem(xml, d);
    if (cg_diags_size(d) != 1 || a) {
        fprintf(stderr, "for:\n%s", xml);
        cg_diags_print(d, stderr);
    }
    assert_null(a);
    assert_int_equal(cg_diags_size(d), 1);
    expect_diag(d, 0, want);
    cg_diags_destroy(d);
}

#endif
