/* disasm.c: a bitstream read back through the layout: per context, each
 * configured instance and its nonzero fields by name.  What a round trip
 * (mapping -> bitstream -> text -> disassembly) is compared on. */
#include <string.h>

#include "rtl_internal.h"

static uint64_t get(const cg_rtl_bits *b, int pos, int width)
{
    uint64_t v = 0;
    for (int i = 0; i < width; i++)
        if (pos + i < b->n)
            v |= (uint64_t)b->bit[pos + i] << i;
    return v;
}

uint64_t cg_rtl_field_value(const cg_rtl *r, const cg_rtl_bits *b, int prim,
                            const char *name, int c)
{
    const cg_rtl_inst *in = &r->inst[prim];
    const cg_rtl_field *f = cg__rtl_field(in, name);
    if (!f || c < 0 || c >= r->p.contexts)
        return 0;
    return get(b, in->base + c * in->per_context + f->offset, f->width);
}

/* A field's value as a word where it codes one (op, pred, mode). */
static void value(const cg_rtl *r, const cg_nl_prim *pr,
                  const cg_rtl_field *f, uint64_t v, FILE *out)
{
    static const char *const mem[] = {"-", "load", "store", "?"};
    static const char *const io[] = {"-", "input", "output", "?"};
    cg_op ops[CG_OP_COUNT];
    (void)r;
    if (pr->p.kind == CG_PRIM_FUNC && !strcmp(f->name, "op")) {
        int n = cg__rtl_unit_ops(pr, ops);
        fprintf(out, "%s", v >= 1 && (int)v <= n ? cg_op_name(ops[v - 1])
                                                 : "?");
    } else if (pr->p.kind == CG_PRIM_FUNC && !strcmp(f->name, "pred")) {
        fprintf(out, "%s", cg_pred_name((cg_pred)v));
    } else if (pr->p.kind == CG_PRIM_MEM && !strcmp(f->name, "op")) {
        fprintf(out, "%s", mem[v & 3]);
    } else if (pr->p.kind == CG_PRIM_IO && !strcmp(f->name, "mode")) {
        fprintf(out, "%s", io[v & 3]);
    } else {
        fprintf(out, "%llu", (unsigned long long)v);
    }
}

static void line(const cg_rtl *r, const cg_rtl_bits *b, int prim, int c,
                 FILE *out)
{
    const cg_rtl_inst *in = &r->inst[prim];
    const cg_nl_prim *pr = cg_netlist_prim(r->nl, prim);
    bool any = false;
    for (int i = 0; i < in->nfields; i++)
        any |= cg_rtl_field_value(r, b, prim, in->fields[i].name, c) != 0;
    if (!any)
        return;
    fprintf(out, "ctx %d %s", c, pr->name);
    for (int i = 0; i < in->nfields; i++) {
        uint64_t v = cg_rtl_field_value(r, b, prim, in->fields[i].name, c);
        if (!v)
            continue;
        fprintf(out, " %s=", in->fields[i].name);
        value(r, pr, &in->fields[i], v, out);
    }
    fprintf(out, "\n");
}

int cg_rtl_disassemble(const cg_rtl *r, const cg_rtl_bits *b, FILE *out)
{
    fprintf(out, "ii %llu first-context %llu\n",
            (unsigned long long)get(b, 0, r->cb) + 1,
            (unsigned long long)get(b, r->cb, r->cb));
    for (int c = 0; c < r->p.contexts; c++)
        for (int i = 0; i < cg_netlist_nprims(r->nl); i++)
            if (r->inst[i].per_context)
                line(r, b, i, c, out);
    return cg_write_end(out, true);
}
