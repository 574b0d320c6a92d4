/* compare_cost.c: a cost proxy of an array counted from its netlist, so
 * that arrays can be set against what they deliver.  It is not an area
 * model: the unit is a 32-bit adder, and the weights (docs/cli.md,
 * "Comparing arrays") only rank the parts in the order a designer would
 * (a divider above a multiplier above an adder; a register or a mux input
 * below an adder; memory by the KiB). */
#include "cli/compare.h"

#include "common/op.h"

#include <string.h>

/* A FuncUnit's op classes relative to a 32-bit adder: ops of one class
 * share its datapath, so a class counts once. */
static const double class_weight[CG_OPC_COUNT] = {
    [CG_OPC_ADD] = 1, [CG_OPC_LOGIC] = 0.5, [CG_OPC_SHIFT] = 1,
    [CG_OPC_MUL] = 4, [CG_OPC_DIV] = 8, [CG_OPC_SELECT] = 0.25,
    [CG_OPC_EXT] = 0.25,
};

static double fu_weight(const cg_prim_params *p)
{
    double w = 0;
    for (int c = 0; c < CG_OPC_COUNT; c++)
        if (p->ops & cg_op_class_ops((cg_op_class)c))
            w += class_weight[c];
    return w * p->width / 32.0;
}

#define MUX_INPUT 0.25   /* one mux input of 32 bits */
#define REGISTER 0.5     /* one 32-bit register */
#define MEMUNIT 2.0      /* a load/store port: address and data paths */
#define CONSTUNIT 0.5    /* a configuration word driven each context */
#define IO 0.5
#define TRISTATE 0.125
#define KIB 1.0          /* one KiB of tile memory */

/* Count primitive p into c. */
static void count_prim(const cg_prim_params *p, cg_cli_cost *c)
{
    double w32 = p->width / 32.0;
    switch (p->kind) {
    case CG_PRIM_FUNC:
        c->funcunits++;
        c->fu_weight += fu_weight(p);
        c->total += fu_weight(p);
        return;
    case CG_PRIM_MUX:
        c->muxes++;
        c->mux_inputs += p->ninput;
        c->total += MUX_INPUT * p->ninput * w32;
        return;
    case CG_PRIM_REG:
        c->registers++;
        c->total += REGISTER * w32;
        return;
    case CG_PRIM_REGFILE: {
        int n = 1 << p->log2_nregs;
        c->registers += n;
        /* entries, and a read or write port is a mux over them */
        c->total += (REGISTER * n + MUX_INPUT * n * (p->ninput + p->noutput))
                    * w32;
        return;
    }
    case CG_PRIM_MEM: c->memunits++; c->total += MEMUNIT * w32; return;
    case CG_PRIM_CONST: c->consts++; c->total += CONSTUNIT * w32; return;
    case CG_PRIM_IO: c->ios++; c->total += IO * w32; return;
    case CG_PRIM_TRISTATE: c->total += TRISTATE * w32; return;
    case CG_PRIM_COUNT: return;
    }
}

void cg_cli_cost_of(const cg_netlist *nl, cg_cli_cost *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < cg_netlist_nprims(nl); i++)
        count_prim(&cg_netlist_prim(nl, i)->p, out);
    for (int i = 0; i < cg_netlist_nmemories(nl); i++)
        out->mem_bytes += cg_netlist_memory(nl, i)->bytes;
    out->total += KIB * (double)out->mem_bytes / 1024.0;
}
