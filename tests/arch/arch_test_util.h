/* arch_test_util.h: helpers shared by the tests of arch/: render netlists
 * as text, compare with golden files under tests/arch/golden (set
 * CG_UPDATE_GOLDEN=1 to rewrite them, then review with git diff), and
 * assert exact diagnostics. */
#ifndef ARCH_TEST_UTIL_H
#define ARCH_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "common/util.h"
#include "tests/common/golden.h"

enum { AS_WRITE, AS_SUMMARY, AS_DOT, AS_PE_DOT };

/* The netlist written to f in one of the four forms; the writer's
 * result. */
static inline int nl_write(const cg_netlist *nl, int form, FILE *f)
{
    return form == AS_WRITE     ? cg_netlist_write(nl, f)
           : form == AS_SUMMARY ? cg_netlist_summary(nl, f)
           : form == AS_DOT     ? cg_netlist_write_dot(nl, f)
                                : cg_netlist_write_pe_dot(nl, f);
}

/* The netlist as text in one of the four forms. */
static inline char *nl_text(const cg_netlist *nl, int form)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(nl_write(nl, form, f), 0);
    fclose(f);
    return buf;
}

/* Flatten a (which must succeed without errors) and render it. */
static inline char *arch_text(const cg_arch *a, int form)
{
    cg_diags *d = cg_diags_create();
    cg_netlist *nl = cg_arch_flatten(a, d);
    if (!nl)
        cg_diags_print(d, stderr);
    assert_non_null(nl);
    assert_int_equal(cg_netlist_check(nl, d), 0);
    char *t = nl_text(nl, form);
    cg_netlist_destroy(nl);
    cg_diags_destroy(d);
    return t;
}

static inline const char *src_dir(void)
{
    const char *s = getenv("CG_SOURCE_DIR");
    return s ? s : ".";
}

/* Compare text with tests/arch/golden/name (tests/common/golden.h). */
static inline void check_golden(const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "tests/arch/golden/%s", name);
    cg_golden_check(path, text);
}

/* Diagnostic i of d, formatted, equals want. */
static inline void expect_diag(const cg_diags *d, int i, const char *want)
{
    assert_true(i < cg_diags_size(d));
    char *got = cg_diag_format(cg_diags_get(d, i));
    if (strcmp(got, want) != 0)
        fprintf(stderr, "got:  %s\nwant: %s\n", got, want);
    assert_string_equal(got, want);
    free(got);
}

#endif
