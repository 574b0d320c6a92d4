/* compare_area.c: with --area, each array compared gets the area of its
 * RTL from yosys's generic synthesis (rtl/area.c: each distinct module
 * synthesized once, cached by the hash of its text, so the same Verilog
 * always gives the same figure): NAND2-equivalents, flip-flops and
 * configuration bits, at the RTL's default contexts as `cgramap area`.
 * An array whose RTL cannot be made (a combinational loop) or
 * synthesized (no yosys) gets n/a and why, never a silent blank. */
#include "cli/compare.h"

#include "rtl/rtl.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* tool is an executable file in a folder of PATH. */
static bool on_path(const char *tool)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    for (const char *s = path; *s;) {
        size_t n = strcspn(s, ":");
        char f[4096];
        snprintf(f, sizeof f, "%.*s/%s", (int)n, n ? s : ".", tool);
        if (access(f, X_OK) == 0)
            return true;
        s += n + (s[n] == ':');
    }
    return false;
}

/* The first error of d as "why" (its message, without file and line: the
 * array's label says whose it is). */
static char *first_error(const cg_diags *d)
{
    for (int i = 0; i < cg_diags_size(d); i++)
        if (cg_diags_get(d, i)->sev == CG_SEV_ERROR)
            return strdup(cg_diags_get(d, i)->msg);
    return strdup("the RTL could not be made");
}

void cg_cli_array_area(cg_cli_array *x, const cg_netlist *nl,
                       const char *cache)
{
    cg_cli_arr_area *a = &x->area;
    memset(a, 0, sizeof *a);
    a->asked = true;
    cg_rtl_params p;
    cg_rtl_params_init(&p);
    cg_diags *d = cg_diags_create();
    cg_rtl *r = d ? cg_rtl_create(nl, &p, d) : NULL;
    cg_rtl_area ra = {0};
    if (r && cg_rtl_area_of(r, cache, 0, &ra, d) == 0) {
        a->ok = true;
        a->nand2 = ra.nand2;
        a->ffs = ra.ffs;
        a->cells = ra.cells;
        a->contexts = p.contexts;
        a->config_bits = cg_rtl_chain_length(r);
        cg_rtl_bits_per_block(r, &a->pe_least, &a->pe_most, &a->pe_mean);
    } else if (r && !on_path("yosys")) {
        a->why = strdup("yosys is not installed (scripts/setup.sh installs "
                        "it)");
    } else {
        a->why = d ? first_error(d) : NULL;
    }
    cg_rtl_area_free(&ra);
    cg_rtl_destroy(r);
    cg_diags_destroy(d);
}

void cg_cli_area_text(const cg_cli_arr_area *a, char *buf, size_t n)
{
    if (!a->asked)
        snprintf(buf, n, "not computed (--area)");
    else if (!a->ok)
        snprintf(buf, n, "n/a: %s", a->why ? a->why : "out of memory");
    else
        snprintf(buf, n, "%.0f NAND2-eq, %ld flip-flops, %d configuration "
                 "bits (%d contexts)", a->nand2, a->ffs, a->config_bits,
                 a->contexts);
}
