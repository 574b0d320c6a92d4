/* fuzz_expr.c: the expression language of architecture XML files
 * (xml/expr.c) as attribute values see it: interpolation, if= conditions
 * and integer attributes, with a few parameters in scope, one of them the
 * largest integer so that overflows are within reach. */
#include "../../xml/xml_internal.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = cg_fuzz_text(data, size);
    cg_diags *d = cg_diags_create();
    if (!text || !d)
        abort();
    cg__xvar w = {.name = "w", .value = "abc"};
    cg__xvar big = {.name = "big", .value = "9223372036854775807", .next = &w};
    cg__xvar n = {.name = "n", .value = "-7", .next = &big};
    cg__xvar i = {.name = "i", .value = "3", .next = &n};
    cg__xsrc src = {.d = d, .file = "f.xml", .line = 1, .text = text};
    free(cg__xml_interp(text, &i, &src));
    bool b;
    cg__xml_eval_bool(text, &i, &src, &b);
    long v;
    const char *p = text;
    cg__xml_eval_int(&p, &i, &src, &v);
    char *names[8];
    int k = 0;
    cg__xml_var_refs(text, names, &k, 8);
    while (k)
        free(names[--k]);
    cg_diags_destroy(d);
    free(text);
    return 0;
}
