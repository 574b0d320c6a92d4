/* rtl_internal.h: what the files of rtl/ share (not a public header): the
 * design's structure, bit helpers and the widths of the fields. */
#ifndef CG_RTL_INTERNAL_H
#define CG_RTL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/util.h"
#include "rtl.h"

/* Bits of the control block's fields: ii - 1 and the first context. */
#define CG__RTL_PRED_BITS 4

/* A distinct (primitive, parameters): one Verilog module. */
typedef struct cg__rtl_mod {
    int prim;        /* the first primitive that has it */
    char name[48];   /* "cg_FuncUnit_0" */
} cg__rtl_mod;

struct cg_rtl {
    const cg_netlist *nl;
    cg_rtl_params p;
    int cb;              /* bits of a context number */
    int length;          /* chain bits in all */
    cg_rtl_inst *inst;   /* per primitive */
    char **names;        /* per primitive: Verilog instance name */
    cg__rtl_mod *mods;
    int nmods;
};

/* Bits needed to count 0..n-1 (at least 1). */
int cg__rtl_bits_for(int n);
/* The field of inst named name, NULL when none. */
const cg_rtl_field *cg__rtl_field(const cg_rtl_inst *in, const char *name);
/* The ops a unit's op field codes, in cg_op order; their number. */
int cg__rtl_unit_ops(const cg_nl_prim *pr, cg_op *ops);
/* Operand pins of a FuncUnit (2 or 3) or MEMUnit (2); 0 otherwise. */
int cg__rtl_noperands(const cg_nl_prim *pr);
/* Width of a unit's immediate fields. */
int cg__rtl_imm_bits(const cg_nl_prim *pr);

#endif
