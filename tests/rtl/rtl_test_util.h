/* rtl_test_util.h: what the tests of the hardware stage share: reading an
 * array, text of a writer, a whole file, the model cache, and whether a
 * tool is installed (a missing simulator fails a test with the way to
 * install it, never skips it). */
#ifndef RTL_TEST_UTIL_H
#define RTL_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/util.h"
#include "rtl/rtl.h"
#include "tests/common/flatten.h"
#include "xml/xml.h"

/* The netlist of an XML array (path from the source tree), flattened by
 * tests/common/flatten.h's flatten_ok. */
static inline cg_netlist *load(const char *path)
{
    cg_diags *d = cg_diags_create();
    return flatten_ok(cg_xml_read(path, NULL, d), d);
}

/* Every message of d, one per line (caller frees). */
static inline char *diag_lines(const cg_diags *d)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    for (int i = 0; i < cg_diags_size(d); i++)
        fprintf(f, "%s\n", cg_diags_get(d, i)->msg);
    fclose(f);
    return s;
}

/* Fail, naming the package, when tool does not run. */
static inline void need_tool(const char *tool)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "%s %s > /dev/null 2>&1", tool,
             strcmp(tool, "iverilog") ? "--version" : "-V");
    if (system(cmd) != 0)
        fail_msg("%s is not installed: run scripts/setup.sh (it installs "
                 "verilator, iverilog and yosys)", tool);
}

/* The folder of compiled models the tests share: the build's. */
static inline const char *cache_dir(void)
{
    static char buf[1024];
    const char *b = getenv("CG_BINARY_DIR");
    snprintf(buf, sizeof buf, "%s/rtl-cache", b ? b : ".");
    return buf;
}

/* A file of the tests' own in the build folder (never the sources). */
static inline const char *scratch(const char *name)
{
    static char buf[4][1024];
    static int k;
    const char *b = getenv("CG_BINARY_DIR");
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", b ? b : ".", name);
    return buf[k];
}

#endif
