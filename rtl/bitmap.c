/* bitmap.c: the configuration bit map as JSON, the one description of the
 * chain that the bitstream writer, the testbench and the disassembler
 * agree on (they are built from the same layout, design.c).  A field of
 * instance i in context c occupies chain positions
 *   base + c * per_context + offset .. + width - 1,
 * least significant bit first. */
#include "rtl_internal.h"

static void fields(const cg_rtl_inst *in, FILE *out)
{
    fprintf(out, "\"fields\": [");
    for (int f = 0; f < in->nfields; f++)
        fprintf(out, "%s{\"name\": \"%s\", \"offset\": %d, \"width\": %d}",
                f ? ", " : "", in->fields[f].name, in->fields[f].offset,
                in->fields[f].width);
    fprintf(out, "]");
}

static void ops(const cg_nl_prim *pr, FILE *out)
{
    cg_op o[CG_OP_COUNT];
    int n = cg__rtl_unit_ops(pr, o);
    fprintf(out, ", \"ops\": [");
    for (int i = 0; i < n; i++)
        fprintf(out, "%s\"%s\"", i ? ", " : "", cg_op_name(o[i]));
    fprintf(out, "]");
}

int cg_rtl_write_bitmap(const cg_rtl *r, FILE *out)
{
    fprintf(out, "{\n  \"format\": \"cgramap-rtl-bitmap-1\",\n"
            "  \"length\": %d,\n  \"contexts\": %d,\n"
            "  \"shift_order\": \"position length-1 first, 0 last\",\n"
            "  \"control\": {\"base\": 0, \"fields\": [{\"name\": \"ii_m1\", "
            "\"offset\": 0, \"width\": %d}, {\"name\": \"ctx0\", \"offset\": "
            "%d, \"width\": %d}]},\n  \"instances\": [",
            r->length, r->p.contexts, r->cb, r->cb, r->cb);
    int first = 1;
    for (int i = 0; i < cg_netlist_nprims(r->nl); i++) {
        const cg_rtl_inst *in = &r->inst[i];
        const cg_nl_prim *pr = cg_netlist_prim(r->nl, i);
        if (!in->per_context)
            continue;
        fprintf(out, "%s\n    {\"name\": \"%s\", \"verilog\": \"%s\", "
                "\"kind\": \"%s\", \"module\": \"%s\", \"base\": %d, "
                "\"per_context\": %d, ", first ? "" : ",", pr->name,
                r->names[i], cg_prim_kind_name(pr->p.kind),
                r->mods[in->module].name, in->base, in->per_context);
        fields(in, out);
        if (pr->p.kind == CG_PRIM_FUNC)
            ops(pr, out);
        fprintf(out, "}");
        first = 0;
    }
    fprintf(out, "\n  ]\n}\n");
    return cg_write_end(out, true);
}
