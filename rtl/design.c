/* design.c: the configuration layout of a netlist and its distinct
 * modules.  Each primitive kind has a fixed list of fields per context
 * (docs/rtl.md, "Fields"); an instance's contexts follow each other in
 * the chain, the instances in netlist order after the control block. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_internal.h"

_Static_assert(CG_RTL_MAX_CONTEXTS == CG_MAP_MAX_II,
               "a design holds a context for every II the mapper tries");

void cg_rtl_params_init(cg_rtl_params *p)
{
    p->contexts = 16;
    p->stage_bits = 8;
    p->dist_bits = 3;
}

int cg__rtl_bits_for(int n)
{
    int b = 1;
    while (b < 30 && (1 << b) < n)
        b++;
    return b;
}

const cg_rtl_field *cg__rtl_field(const cg_rtl_inst *in, const char *name)
{
    for (int i = 0; i < in->nfields; i++)
        if (!strcmp(in->fields[i].name, name))
            return &in->fields[i];
    return NULL;
}

int cg__rtl_unit_ops(const cg_nl_prim *pr, cg_op *ops)
{
    int n = 0;
    for (int op = 0; op < CG_OP_COUNT; op++)
        if (pr->p.ops & CG_OPSET(op))
            ops[n++] = (cg_op)op;
    return n;
}

int cg__rtl_noperands(const cg_nl_prim *pr)
{
    if (pr->p.kind == CG_PRIM_MEM)
        return 2;
    if (pr->p.kind != CG_PRIM_FUNC)
        return 0;
    return pr->p.ops & CG_OPSET(CG_OP_SELECT) ? 3 : 2;
}

int cg__rtl_imm_bits(const cg_nl_prim *pr)
{
    return pr->p.imm_width ? pr->p.imm_width : pr->p.width;
}

static void add(cg_rtl_inst *in, const char *name, int width)
{
    cg_rtl_field *f = &in->fields[in->nfields++];
    f->name = name;
    f->offset = in->per_context;
    f->width = width;
    in->per_context += width;
}

static bool has_op(const cg_nl_prim *pr, cg_op op)
{
    return (pr->p.ops & CG_OPSET(op)) != 0;
}

/* Fields a FuncUnit or MEMUnit shares: when its op counts (stage), the
 * loop-carried operands (distance per pin, one init value) and the
 * immediates. */
static void unit_fields(cg_rtl_inst *in, const cg_nl_prim *pr,
                        const cg_rtl_params *p)
{
    static const char *const dist[] = {"dist0", "dist1", "dist2"};
    static const char *const ie[] = {"imm_en0", "imm_en1", "imm_en2"};
    static const char *const imm[] = {"imm0", "imm1", "imm2"};
    add(in, "stage", p->stage_bits);
    for (int k = 0; k < cg__rtl_noperands(pr); k++)
        add(in, dist[k], p->dist_bits);
    add(in, "init", pr->p.width);
    for (int k = 0; k < cg__rtl_noperands(pr); k++)
        if (pr->p.imm_operands & (1u << k)) {
            add(in, ie[k], 1);
            add(in, imm[k], cg__rtl_imm_bits(pr));
        }
}

static void fields_of(cg_rtl_inst *in, const cg_nl_prim *pr,
                      const cg_rtl_params *p)
{
    static const char *const wen[] = {"wen0", "wen1", "wen2", "wen3"};
    static const char *const wa[] = {"waddr0", "waddr1", "waddr2", "waddr3"};
    static const char *const ra[] = {"raddr0", "raddr1", "raddr2", "raddr3"};
    int wb = cg__rtl_bits_for(pr->p.width + 1);
    cg_op ops[CG_OP_COUNT];
    switch (pr->p.kind) {
    case CG_PRIM_FUNC:
        add(in, "op", cg__rtl_bits_for(cg__rtl_unit_ops(pr, ops) + 1));
        if (has_op(pr, CG_OP_ICMP))
            add(in, "pred", CG__RTL_PRED_BITS);
        add(in, "w", wb);
        if (has_op(pr, CG_OP_ICMP) || has_op(pr, CG_OP_TRUNC) ||
            has_op(pr, CG_OP_SEXT) || has_op(pr, CG_OP_ZEXT))
            add(in, "fw", wb);
        unit_fields(in, pr, p);
        return;
    case CG_PRIM_MEM:
        add(in, "op", 2);
        add(in, "size", 2);
        unit_fields(in, pr, p);
        return;
    case CG_PRIM_MUX: add(in, "sel", cg__rtl_bits_for(pr->p.ninput)); return;
    case CG_PRIM_TRISTATE: add(in, "en", 1); return;
    case CG_PRIM_IO: add(in, "mode", 2); return;
    case CG_PRIM_CONST: add(in, "value", pr->p.width); return;
    case CG_PRIM_REGFILE: {
        int ab = pr->p.log2_nregs ? pr->p.log2_nregs : 1;
        for (int w = 0; w < pr->p.ninput; w++) {
            add(in, wen[w], 1);
            add(in, wa[w], ab);
        }
        for (int k = 0; k < pr->p.noutput; k++)
            add(in, ra[k], ab);
        return;
    }
    default:
        return;
    }
}

/* Do primitives a and b make the same module? */
static bool same_module(const cg_nl_prim *a, const cg_nl_prim *b)
{
    const cg_prim_params *x = &a->p, *y = &b->p;
    if (x->kind != y->kind || x->width != y->width)
        return false;
    switch (x->kind) {
    case CG_PRIM_FUNC:
    case CG_PRIM_MEM:
        return x->ops == y->ops && x->latency == y->latency &&
               x->imm_operands == y->imm_operands &&
               cg__rtl_imm_bits(a) == cg__rtl_imm_bits(b);
    case CG_PRIM_MUX: return x->ninput == y->ninput;
    case CG_PRIM_REGFILE:
        return x->ninput == y->ninput && x->noutput == y->noutput &&
               x->log2_nregs == y->log2_nregs;
    default: return true;
    }
}

static int module_of(cg_rtl *r, int prim)
{
    const cg_nl_prim *pr = cg_netlist_prim(r->nl, prim);
    int same_kind = 0;
    for (int i = 0; i < r->nmods; i++) {
        const cg_nl_prim *q = cg_netlist_prim(r->nl, r->mods[i].prim);
        if (same_module(pr, q))
            return i;
        same_kind += q->p.kind == pr->p.kind;
    }
    cg__rtl_mod *m = &r->mods[r->nmods];
    m->prim = prim;
    snprintf(m->name, sizeof m->name, "cg_%s_%d",
             cg_prim_kind_name(pr->p.kind), same_kind);
    return r->nmods++;
}

/* "p<index>_<name with every other character _>": unique and legal. */
static char *inst_name(int prim, const char *name)
{
    size_t n = strlen(name) + 16;
    char *s = malloc(n);
    if (!s)
        return NULL;
    int k = snprintf(s, n, "p%d_", prim);
    for (const char *c = name; *c; c++)
        s[k++] = isalnum((unsigned char)*c) ? *c : '_';
    s[k] = 0;
    return s;
}

static int check(const cg_netlist *nl, const cg_rtl_params *p, cg_diags *d)
{
    int bad = 0;
    if (p->contexts < 1 || p->contexts > CG_RTL_MAX_CONTEXTS ||
        p->stage_bits < 1 || p->stage_bits > 16 || p->dist_bits < 1 ||
        p->dist_bits > 8) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                     "RTL parameters out of range: contexts %d (1..%d), "
                     "stage bits %d (1..16), distance bits %d (1..8)",
                     p->contexts, CG_RTL_MAX_CONTEXTS, p->stage_bits,
                     p->dist_bits);
        bad++;
    }
    for (int i = 0; i < cg_netlist_nprims(nl); i++) {
        const cg_nl_prim *pr = cg_netlist_prim(nl, i);
        if (pr->p.width > 64 ||
            (pr->p.kind == CG_PRIM_REGFILE &&
             (pr->p.ninput > 4 || pr->p.noutput > 4))) {
            cg_error_at(d, pr->loc, "%s '%s' cannot be built in RTL: the "
                        "templates take widths up to 64 and register files "
                        "of up to 4 write and 4 read ports",
                        cg_prim_kind_name(pr->p.kind), pr->name);
            bad++;
        }
    }
    return bad ? -1 : 0;
}

static int layout(cg_rtl *r)
{
    int n = cg_netlist_nprims(r->nl);
    r->length = 2 * r->cb; /* the control block: ii - 1, first context */
    for (int i = 0; i < n; i++) {
        cg_rtl_inst *in = &r->inst[i];
        const cg_nl_prim *pr = cg_netlist_prim(r->nl, i);
        in->prim = i;
        fields_of(in, pr, &r->p);
        in->base = in->per_context ? r->length : -1;
        r->length += in->per_context * r->p.contexts;
        in->module = module_of(r, i);
        if (!(r->names[i] = inst_name(i, pr->name)))
            return -1;
    }
    return 0;
}

cg_rtl *cg_rtl_create(const cg_netlist *nl, const cg_rtl_params *p,
                      cg_diags *d)
{
    if (check(nl, p, d) < 0)
        return NULL;
    int loops = cg_rtl_find_loops(nl, d);
    if (loops != 0) {
        if (loops < 0)
            cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                         "out of memory looking for combinational loops");
        return NULL;
    }
    int n = cg_netlist_nprims(nl);
    cg_rtl *r = calloc(1, sizeof *r);
    if (r) {
        r->nl = nl;
        r->p = *p;
        r->cb = cg__rtl_bits_for(p->contexts);
        r->inst = calloc((size_t)n + 1, sizeof *r->inst);
        r->names = calloc((size_t)n + 1, sizeof *r->names);
        r->mods = calloc((size_t)n + 1, sizeof *r->mods);
    }
    if (!r || !r->inst || !r->names || !r->mods || layout(r) < 0) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0,
                     "out of memory laying out the RTL configuration");
        cg_rtl_destroy(r);
        return NULL;
    }
    return r;
}

void cg_rtl_destroy(cg_rtl *r)
{
    if (!r)
        return;
    if (r->names)
        for (int i = 0; i < cg_netlist_nprims(r->nl); i++)
            free(r->names[i]);
    free(r->names);
    free(r->inst);
    free(r->mods);
    free(r);
}

const cg_netlist *cg_rtl_netlist(const cg_rtl *r) { return r->nl; }
const cg_rtl_params *cg_rtl_get_params(const cg_rtl *r) { return &r->p; }
int cg_rtl_chain_length(const cg_rtl *r) { return r->length; }
int cg_rtl_ctx_bits(const cg_rtl *r) { return r->cb; }
int cg_rtl_nmodules(const cg_rtl *r) { return r->nmods; }
const char *cg_rtl_module_name(const cg_rtl *r, int i)
{
    return r->mods[i].name;
}
const char *cg_rtl_inst_name(const cg_rtl *r, int prim)
{
    return r->names[prim];
}
const cg_rtl_inst *cg_rtl_inst_of(const cg_rtl *r, int prim)
{
    return &r->inst[prim];
}

int cg_rtl_op_code(const cg_rtl *r, int prim, cg_op op)
{
    cg_op ops[CG_OP_COUNT];
    int n = cg__rtl_unit_ops(cg_netlist_prim(r->nl, prim), ops);
    for (int i = 0; i < n; i++)
        if (ops[i] == op)
            return i + 1;
    return 0;
}
