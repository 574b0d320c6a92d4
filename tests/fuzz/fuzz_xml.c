/* fuzz_xml.c: the XML architecture reader, then flatten and the netlist
 * check on whatever it accepts.  Any input must end in an architecture or
 * in errors, never in a crash, a leak or undefined behaviour. */
#include "../../arch/arch.h"
#include "../../xml/xml.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = cg_fuzz_text(data, size);
    cg_diags *d = cg_diags_create();
    cg_arch *a = text && d ? cg_xml_read_memory(text, "f.xml", NULL, NULL, d)
                           : NULL;
    cg_netlist *nl = a ? cg_arch_flatten(a, d) : NULL;
    if (nl)
        cg_netlist_check(nl, d);
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
    free(text);
    return 0;
}
