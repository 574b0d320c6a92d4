/* fuzz_dot.c: the .dot reader, the DFG check, the MII on the default array
 * and the writer's promise (dot_write.c): what was read is written, read
 * again and written again to the same bytes.  A graph the writer cannot
 * give back is a bug, reported by abort() with both texts. */
#include <stdio.h>

#include "../../arch/arch.h"
#include "../../dfg/dfg.h"
#include "../../mapper/map.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The default array's netlist, built once per process (reading it for
 * every input would take most of the time). */
static const cg_netlist *default_netlist(void)
{
    static cg_netlist *nl;
    if (!nl) {
        cg_diags *d = cg_diags_create();
        cg_arch *a = cg_arch_default(d);
        nl = a ? cg_arch_flatten(a, d) : NULL;
        cg_arch_destroy(a);
        if (!nl) {
            cg_diags_print(d, stderr);
            abort();
        }
        cg_diags_destroy(d);
    }
    return nl;
}

/* g in .dot form, malloc'd. */
static char *dot_text(const cg_dfg *g)
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    if (!f)
        abort();
    if (cg_dfg_write_dot(g, f) != 0)
        abort();
    fclose(f);
    return s;
}

static void round_trip(const cg_dfg *g)
{
    char *first = dot_text(g);
    cg_diags *d = cg_diags_create();
    cg_dfg *again = cg_dfg_read_dot_string(first, "written.dot", d);
    char *second = again ? dot_text(again) : NULL;
    if (!second || strcmp(first, second)) {
        fprintf(stderr, "round trip failed\n--- written:\n%s--- read back:\n",
                first);
        cg_diags_print(d, stderr);
        fprintf(stderr, "%s", second ? second : "(not read)\n");
        abort();
    }
    free(second);
    free(first);
    cg_dfg_destroy(again);
    cg_diags_destroy(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = cg_fuzz_text(data, size);
    cg_diags *d = cg_diags_create();
    cg_dfg *g = text && d ? cg_dfg_read_dot_string(text, "f.dot", d) : NULL;
    if (g) {
        round_trip(g);
        cg_mii mii;
        if (cg_dfg_check(g, d) == 0)
            cg_mii_compute(default_netlist(), g, &mii, d);
    }
    cg_dfg_destroy(g);
    cg_diags_destroy(d);
    free(text);
    return 0;
}
