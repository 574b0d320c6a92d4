/* verilog.c: Verilog-2005 for a laid-out netlist: one module per distinct
 * (primitive, parameters) from the templates below, then the top module
 * cg_array wiring the netlist's nets, the control block and the chain.
 *
 * Every module with configuration holds C contexts of F bits in one shift
 * register (cfg) and reads the current context's slice k.  The templates
 * compute what the cycle simulator computes (verify/sim.c, cg_op_eval):
 * a FuncUnit masks operands and result to the configured width w (the
 * smaller of the op's and its own), signed ops sign-extend at w, division
 * by zero yields 0 and the signed overflow wraps; a MEMUnit asks for an
 * access only in iterations 0..iters-1.  The output of any idle unit is 0.
 */
#include <string.h>

#include "rtl_internal.h"

/* Ports of a primitive that carry configuration, not values: the
 * templates hold them in the chain and the top does not wire them. */
static bool config_port(cg_prim_kind k, const char *name)
{
    switch (k) {
    case CG_PRIM_MUX: return !strcmp(name, "select");
    case CG_PRIM_TRISTATE: return !strcmp(name, "enable");
    case CG_PRIM_REGFILE:
        return !strncmp(name, "address_", 8) || !strncmp(name, "WEN", 3);
    case CG_PRIM_IO: return !strcmp(name, "bidir");
    default: return false;
    }
}

typedef struct emit {
    const cg_rtl *r;
    FILE *out;
    const cg_nl_prim *pr;
    const cg_rtl_inst *in;
    int W, C, F, cb;
} emit;

#define P(...) fprintf(e->out, __VA_ARGS__)

/* "{N'd0, s}": s zero-extended by n bits (just s when n is 0). */
static void zext(emit *e, int n, const char *s)
{
    if (n > 0)
        P("{%d'd0, %s}", n, s);
    else
        P("%s", s);
}

/* The module's port list: control signals it needs, its data ports as
 * the netlist names them, and the extra ports out of the array. */
static void head(emit *e, bool seq, bool iter, bool iters)
{
    const cg_netlist *nl = e->r->nl;
    P("module %s (\n    input clk", e->r->mods[e->in->module].name);
    if (seq)
        P(",\n    input rst");
    if (e->F)
        P(",\n    input cfg_en,\n    input cfg_in,\n    output cfg_out,\n"
          "    input [%d:0] ctx", e->cb - 1);
    if (iter)
        P(",\n    input [31:0] wave");
    if (iters)
        P(",\n    input [31:0] iters");
    for (int k = 0; k < e->pr->nports; k++) {
        const cg_nl_port *pt = cg_netlist_port(nl, e->pr->port0 + k);
        if (config_port(e->pr->p.kind, pt->name))
            continue;
        P(",\n    %s [%d:0] %s", pt->dir == CG_DIR_OUT ? "output" : "input",
          pt->width - 1, pt->name);
    }
}

/* The configuration shift register and the current context's fields. */
static void config(emit *e)
{
    if (!e->F)
        return;
    int n = e->C * e->F;
    P("    reg [%d:0] cfg;\n    always @(posedge clk)\n"
      "        if (cfg_en) cfg <= ", n - 1);
    if (n > 1)
        P("{cfg[%d:0], cfg_in};\n", n - 2);
    else
        P("cfg_in;\n");
    P("    assign cfg_out = cfg[%d];\n", n - 1);
    P("    wire [%d:0] k = cfg[", e->F - 1);
    zext(e, 32 - e->cb, "ctx");
    P(" * %d +: %d];\n", e->F, e->F);
    for (int i = 0; i < e->in->nfields; i++) {
        const cg_rtl_field *f = &e->in->fields[i];
        P("    wire [%d:0] %s = k[%d:%d];\n", f->width - 1, f->name,
          f->offset + f->width - 1, f->offset);
    }
}

/* out = v delayed by lat cycles (0 at reset), through one shift register
 * of lat words. */
static void delay(emit *e, const char *v, const char *out, int lat)
{
    if (lat == 0) {
        P("    assign %s = %s;\n", out, v);
        return;
    }
    int n = lat * e->W;
    P("    reg [%d:0] pipe;\n    always @(posedge clk)\n"
      "        if (rst) pipe <= %d'd0;\n", n - 1, n);
    if (lat > 1)
        P("        else pipe <= {pipe[%d:0], %s};\n", n - e->W - 1, v);
    else
        P("        else pipe <= %s;\n", v);
    P("    assign %s = pipe[%d:%d];\n", out, n - 1, n - e->W);
}

static void mux(emit *e)
{
    head(e, false, false, false);
    P(");\n");
    config(e);
    P("    reg [%d:0] o;\n    always @*\n        case (sel)\n", e->W - 1);
    for (int k = 0; k < e->pr->p.ninput; k++)
        P("        %d'd%d: o = in%d;\n", cg__rtl_bits_for(e->pr->p.ninput),
          k, k);
    if ((1 << cg__rtl_bits_for(e->pr->p.ninput)) > e->pr->p.ninput)
        P("        default: o = %d'd0;\n", e->W);
    P("        endcase\n    assign out = o;\n");
}

static void regfile(emit *e)
{
    const cg_prim_params *p = &e->pr->p;
    head(e, true, false, false);
    P(");\n");
    config(e);
    P("    reg [%d:0] r [0:%d];\n    integer i;\n", e->W - 1,
      (1 << p->log2_nregs) - 1);
    P("    always @(posedge clk)\n        if (rst)\n"
      "            for (i = 0; i < %d; i = i + 1) r[i] <= %d'd0;\n"
      "        else begin\n", 1 << p->log2_nregs, e->W);
    for (int w = 0; w < p->ninput; w++)
        P("            if (wen%d) r[waddr%d] <= in%d;\n", w, w, w);
    P("        end\n");
    for (int k = 0; k < p->noutput; k++)
        P("    assign out%d = r[raddr%d];\n", k, k);
}

static void simple(emit *e)
{
    switch (e->pr->p.kind) {
    case CG_PRIM_REG:
        head(e, true, false, false);
        P(");\n    reg [%d:0] q;\n    always @(posedge clk)\n"
          "        if (rst) q <= %d'd0;\n        else q <= in;\n"
          "    assign out = q;\n", e->W - 1, e->W);
        return;
    case CG_PRIM_TRISTATE:
        head(e, false, false, false);
        P(");\n");
        config(e);
        P("    assign out = en ? in : %d'd0;\n", e->W);
        return;
    case CG_PRIM_CONST:
        head(e, false, false, false);
        P(");\n");
        config(e);
        P("    assign out = value;\n");
        return;
    case CG_PRIM_IO:
        head(e, false, false, false);
        P(",\n    input [%d:0] ext_in,\n    output [%d:0] ext_out);\n",
          e->W - 1, e->W - 1);
        config(e);
        P("    /* mode 1 runs an input (a live-in enters), 2 an output */\n"
          "    assign out = mode[0] ? ext_in : %d'd0;\n"
          "    assign ext_out = mode[1] ? in : %d'd0;\n", e->W, e->W);
        return;
    default:
        return;
    }
}

/* The width helpers of the units: mask(n) keeps the low n bits, sx(v, n)
 * sign-extends them. */
static void helpers(emit *e, int wb)
{
    P("    function [%d:0] mask;\n        input [%d:0] n;\n"
      "        mask = ~({%d{1'b1}} << n);\n    endfunction\n",
      e->W - 1, wb - 1, e->W);
    P("    function [%d:0] sx;\n        input [%d:0] v;\n"
      "        input [%d:0] n;\n        reg [%d:0] m;\n        begin\n"
      "            m = mask(n);\n"
      "            sx = (v & m) | (|(v & m & ~(m >> 1)) ? ~m : %d'd0);\n"
      "        end\n    endfunction\n",
      e->W - 1, e->W - 1, wb - 1, e->W - 1, e->W);
}

/* Operand k of a unit: the init value in the first dist iterations of a
 * loop-carried edge, else the immediate when enabled, else the pin. */
static void operand(emit *e, int k, const char *pin)
{
    const cg_rtl_params *p = &e->r->p;
    P("    wire [32:0] lim%d = ", k);
    zext(e, 33 - p->stage_bits, "stage");
    P(" + ");
    char d[16];
    snprintf(d, sizeof d, "dist%d", k);
    zext(e, 33 - p->dist_bits, d);
    P(";\n    wire car%d = dist%d != %d'd0 && {1'b0, wave} < lim%d;\n", k, k,
      p->dist_bits, k);
    P("    wire [%d:0] x%d = car%d ? init : ", e->W - 1, k, k);
    if (e->pr->p.imm_operands & (1u << k)) {
        int iw = cg__rtl_imm_bits(e->pr);
        P("imm_en%d ? ", k);
        if (iw < e->W)
            P("{{%d{imm%d[%d]}}, imm%d}", e->W - iw, k, iw - 1, k);
        else
            P("imm%d", k);
        P(" : ");
    }
    P("%s;\n", pin);
}

/* The Verilog expression of op on the masked operands a, b. */
static const char *op_expr(cg_op op)
{
    switch (op) {
    case CG_OP_ADD: case CG_OP_GEP: return "a + b";
    case CG_OP_SUB: return "a - b";
    case CG_OP_MUL: return "a * b";
    case CG_OP_AND: return "a & b";
    case CG_OP_OR: return "a | b";
    case CG_OP_XOR: return "a ^ b";
    case CG_OP_SHL: return "(b >= wx) ? zero : a << b";
    case CG_OP_LSHR: return "(b >= wx) ? zero : a >> b";
    case CG_OP_ASHR: return "(b >= wx) ? (sa[WM] ? ~zero : zero) : ashr_r";
    case CG_OP_SDIV: return "(b == zero) ? zero : (sb == ~zero) ? zero - a "
                            ": sdiv_r";
    case CG_OP_SREM: return "(b == zero || sb == ~zero) ? zero : srem_r";
    case CG_OP_UDIV: return "(b == zero) ? zero : udiv_r";
    case CG_OP_UREM: return "(b == zero) ? zero : urem_r";
    case CG_OP_ICMP: return "{WZ, cmp}";
    case CG_OP_SELECT: return "x0[0] ? x1 : x2";
    case CG_OP_TRUNC: case CG_OP_ZEXT: return "a";
    case CG_OP_SEXT: return "sx(a, fw)";
    case CG_OP_PHI: return "first ? x0 : x1";
    case CG_OP_NOP: case CG_OP_OUTPUT: return "x0";
    case CG_OP_CONST: return "init";
    default: return "zero"; /* input, load, store: not on a FuncUnit */
    }
}

/* Print op_expr with the width placeholders (WM: top bit, WZ: zeros of
 * the compare's result) filled in. */
static void put_expr(emit *e, const char *x)
{
    for (; *x; x++) {
        if (x[0] == 'W' && x[1] == 'M') {
            P("%d", e->W - 1);
            x++;
        } else if (x[0] == 'W' && x[1] == 'Z') {
            if (e->W > 1)
                P("%d'd0", e->W - 1);
            else
                P("1'b0"); /* {1'b0, cmp} cut below */
            x++;
        } else {
            fputc(*x, e->out);
        }
    }
}

static void icmp(emit *e)
{
    static const char *const cmp[] = {
        NULL, "ia == ib", "ia != ib", "cia < cib", "cia <= cib",
        "cia > cib", "cia >= cib", "ia < ib", "ia <= ib", "ia > ib",
        "ia >= ib"};
    P("    wire [%d:0] ia = x0 & mf, ib = x1 & mf;\n", e->W - 1);
    P("    wire signed [%d:0] cia = sx(ia, fw), cib = sx(ib, fw);\n",
      e->W - 1);
    P("    reg cmp;\n    always @*\n        case (pred)\n");
    for (int i = CG_PRED_EQ; i <= CG_PRED_UGE; i++)
        P("        4'd%d: cmp = %s;\n", i, cmp[i]);
    P("        default: cmp = 1'b0;\n        endcase\n");
}

/* Signed and unsigned quotients with the divisor made safe (no division
 * by zero or overflow ever reaches the operator; op_expr picks those
 * cases' results). */
static bool has(const emit *e, cg_op op)
{
    return (e->pr->p.ops & CG_OPSET(op)) != 0;
}

static void arith(emit *e)
{
    int M = e->W - 1;
    bool sdiv = has(e, CG_OP_SDIV) || has(e, CG_OP_SREM);
    bool udiv = has(e, CG_OP_UDIV) || has(e, CG_OP_UREM);
    if (has(e, CG_OP_ASHR) || sdiv)
        P("    wire signed [%d:0] ssa = sa;\n", M);
    if (sdiv)
        P("    wire signed [%d:0] ssb = sb;\n    wire signed [%d:0] dvs = "
          "(sb == zero || sb == ~zero) ? %d'd1 : ssb;\n", M, M, e->W);
    if (udiv)
        P("    wire [%d:0] dvu = (b == zero) ? %d'd1 : b;\n", M, e->W);
    if (has(e, CG_OP_ASHR))
        P("    wire [%d:0] ashr_r = ssa >>> b;\n", M);
    if (has(e, CG_OP_SDIV))
        P("    wire [%d:0] sdiv_r = ssa / dvs;\n", M);
    if (has(e, CG_OP_SREM))
        P("    wire [%d:0] srem_r = ssa %% dvs;\n", M);
    if (has(e, CG_OP_UDIV))
        P("    wire [%d:0] udiv_r = a / dvu;\n", M);
    if (has(e, CG_OP_UREM))
        P("    wire [%d:0] urem_r = a %% dvu;\n", M);
}

static bool needs_arith(cg_opset s)
{
    return s & (CG_OPSET(CG_OP_ASHR) | CG_OPSET(CG_OP_SDIV) |
                CG_OPSET(CG_OP_SREM) | CG_OPSET(CG_OP_UDIV) |
                CG_OPSET(CG_OP_UREM));
}

/* a and b: the operands masked as cg_op_eval masks them (to fw for the
 * extensions' and the compare's, else to w). */
static void operands_ab(emit *e, const cg_op *ops, int n, int ob)
{
    bool fw = cg__rtl_field(e->in, "fw") != NULL;
    P("    wire [%d:0] zero = %d'd0;\n", e->W - 1, e->W);
    P("    wire [%d:0] mw = mask(w)%s;\n", e->W - 1, fw ? ", mf = mask(fw)"
                                                     : "");
    if (e->pr->p.ops & (CG_OPSET(CG_OP_SHL) | CG_OPSET(CG_OP_LSHR) |
                        CG_OPSET(CG_OP_ASHR))) {
        P("    wire [%d:0] wx = ", e->W - 1);
        zext(e, e->W - cg__rtl_field(e->in, "w")->width, "w");
        P(";\n");
    }
    P("    wire ext_op = 1'b0");
    for (int i = 0; i < n; i++)
        if (ops[i] == CG_OP_TRUNC || ops[i] == CG_OP_SEXT ||
            ops[i] == CG_OP_ZEXT)
            P(" || op == %d'd%d", ob, i + 1);
    P(";\n    wire [%d:0] a = x0 & (ext_op ? %s : mw);\n", e->W - 1,
      fw ? "mf" : "mw");
    int ic = 0;
    for (int i = 0; i < n; i++)
        if (ops[i] == CG_OP_ICMP)
            ic = i + 1;
    if (ic)
        P("    wire [%d:0] b = x1 & ((op == %d'd%d) ? mf : mw);\n", e->W - 1,
          ob, ic);
    else
        P("    wire [%d:0] b = x1 & mw;\n", e->W - 1);
    if (e->pr->p.ops & (CG_OPSET(CG_OP_ASHR) | CG_OPSET(CG_OP_SDIV) |
                        CG_OPSET(CG_OP_SREM)))
        P("    wire [%d:0] sa = sx(a, w);\n", e->W - 1);
    if (e->pr->p.ops & (CG_OPSET(CG_OP_SDIV) | CG_OPSET(CG_OP_SREM)))
        P("    wire [%d:0] sb = sx(b, w);\n", e->W - 1);
}

static void funcunit(emit *e)
{
    cg_op ops[CG_OP_COUNT];
    int n = cg__rtl_unit_ops(e->pr, ops);
    int ob = cg__rtl_field(e->in, "op")->width;
    int np = cg__rtl_noperands(e->pr);
    head(e, e->pr->p.latency > 0, true, false);
    P(");\n");
    config(e);
    helpers(e, cg__rtl_field(e->in, "w")->width);
    static const char *const pins[] = {"in_a", "in_b", "in_c"};
    for (int k = 0; k < np; k++)
        operand(e, k, pins[k]);
    if (e->pr->p.ops & CG_OPSET(CG_OP_PHI)) {
        P("    wire first = wave == ");
        zext(e, 32 - e->r->p.stage_bits, "stage");
        P(";\n");
    }
    operands_ab(e, ops, n, ob);
    if (e->pr->p.ops & CG_OPSET(CG_OP_ICMP))
        icmp(e);
    if (needs_arith(e->pr->p.ops))
        arith(e);
    P("    reg [%d:0] r;\n    always @*\n        case (op)\n", e->W - 1);
    for (int i = 0; i < n; i++) {
        P("        %d'd%d: r = ", ob, i + 1);
        if (ops[i] == CG_OP_ICMP && e->W == 1)
            P("cmp");
        else
            put_expr(e, op_expr(ops[i]));
        P("; /* %s */\n", cg_op_name(ops[i]));
    }
    P("        default: r = zero;\n        endcase\n");
    P("    wire [%d:0] res = r & mw;\n", e->W - 1);
    delay(e, "res", "out", e->pr->p.latency);
}

static void memunit(emit *e)
{
    head(e, e->pr->p.latency > 0, true, true);
    P(",\n    output [1:0] mreq,\n    output [%d:0] maddr,\n"
      "    output [%d:0] mwdata,\n    output [1:0] msize,\n"
      "    input [%d:0] mrdata);\n", e->W - 1, e->W - 1, e->W - 1);
    config(e);
    operand(e, 0, "addr");
    operand(e, 1, "data_in");
    P("    wire [31:0] st = ");
    zext(e, 32 - e->r->p.stage_bits, "stage");
    P(";\n    /* op 1 loads, 2 stores; only iterations 0 .. iters-1 reach "
      "memory */\n    wire live = wave >= st && wave - st < iters;\n"
      "    assign mreq = live ? op : 2'd0;\n    assign maddr = x0;\n"
      "    assign mwdata = x1;\n    assign msize = size;\n");
    delay(e, "mrdata", "data_out", e->pr->p.latency);
}

static void module(emit *e)
{
    P("/* %s: %s", e->r->mods[e->in->module].name,
      cg_prim_kind_name(e->pr->p.kind));
    P(", width %d", e->W);
    if (e->pr->p.kind == CG_PRIM_FUNC || e->pr->p.kind == CG_PRIM_MEM) {
        cg_op ops[CG_OP_COUNT];
        int n = cg__rtl_unit_ops(e->pr, ops);
        P(", latency %d, ops", e->pr->p.latency);
        for (int i = 0; i < n; i++)
            P(" %s", cg_op_name(ops[i]));
    }
    P(", %d configuration bits per context */\n", e->F);
    switch (e->pr->p.kind) {
    case CG_PRIM_FUNC: funcunit(e); break;
    case CG_PRIM_MEM: memunit(e); break;
    case CG_PRIM_MUX: mux(e); break;
    case CG_PRIM_REGFILE: regfile(e); break;
    default: simple(e); break;
    }
    P("endmodule\n\n");
}

static void emit_init(emit *e, const cg_rtl *r, int prim, FILE *out)
{
    e->r = r;
    e->out = out;
    e->pr = cg_netlist_prim(r->nl, prim);
    e->in = &r->inst[prim];
    e->W = e->pr->p.width;
    e->C = r->p.contexts;
    e->F = e->in->per_context;
    e->cb = r->cb;
}

int cg_rtl_write_module(const cg_rtl *r, int i, FILE *out)
{
    emit e;
    emit_init(&e, r, r->mods[i].prim, out);
    module(&e);
    return cg_write_end(out, true);
}

/* ---- the top ------------------------------------------------------------ */

static bool is_unit(cg_prim_kind k)
{
    return k == CG_PRIM_FUNC || k == CG_PRIM_MEM;
}

static void top_ports(const cg_rtl *r, FILE *out)
{
    fprintf(out, "module cg_array (\n    input clk,\n    input rst,\n"
            "    input cfg_en,\n    input cfg_in,\n    output cfg_out,\n"
            "    /* verilator lint_off UNUSEDSIGNAL */\n"
            "    input [31:0] iters, /* read by the MEMUnits, if any */\n"
            "    /* verilator lint_on UNUSEDSIGNAL */\n"
            "    output [%d:0] ctx_o,\n"
            "    output [31:0] wave_o", r->cb - 1);
    for (int i = 0; i < cg_netlist_nprims(r->nl); i++) {
        const cg_nl_prim *pr = cg_netlist_prim(r->nl, i);
        const char *n = r->names[i];
        int w = pr->p.width - 1;
        if (pr->p.kind == CG_PRIM_IO)
            fprintf(out, ",\n    input [%d:0] %s_ext_in,\n"
                    "    output [%d:0] %s_ext_out", w, n, w, n);
        else if (pr->p.kind == CG_PRIM_MEM)
            fprintf(out, ",\n    output [1:0] %s_mreq,\n"
                    "    output [%d:0] %s_maddr,\n"
                    "    output [%d:0] %s_mwdata,\n"
                    "    output [1:0] %s_msize,\n"
                    "    input [%d:0] %s_mrdata", n, w, n, w, n, n, w, n);
    }
    fprintf(out, ");\n");
}

/* The control block: the chain's first 2 * cb bits hold II - 1 and the
 * first context; the context counter and the wave counter (iterations
 * started) restart on reset and while configuring. */
static void control(const cg_rtl *r, FILE *out)
{
    int cb = r->cb;
    fprintf(out, "    reg [%d:0] ctl;\n    always @(posedge clk)\n"
            "        if (cfg_en) ctl <= {ctl[%d:0], cfg_in};\n",
            2 * cb - 1, 2 * cb - 2);
    fprintf(out, "    wire [%d:0] ii_m1 = ctl[%d:0], ctx0 = ctl[%d:%d];\n",
            cb - 1, cb - 1, 2 * cb - 1, cb);
    fprintf(out, "    reg [%d:0] ctx;\n    reg [31:0] wave;\n"
            "    always @(posedge clk)\n"
            "        if (rst || cfg_en) begin\n"
            "            ctx <= ctx0;\n            wave <= 32'd0;\n"
            "        end else if (ctx == ii_m1) begin\n"
            "            ctx <= %d'd0;\n            wave <= wave + 32'd1;\n"
            "        end else\n            ctx <= ctx + %d'd1;\n"
            "    assign ctx_o = ctx;\n    assign wave_o = wave;\n",
            cb - 1, cb, cb);
}

/* Nets: one wire per net that some data port reads; a net only
 * configuration ports read is left to a dangling wire. */
static bool net_read(const cg_netlist *nl, int n)
{
    const cg_nl_net *net = cg_netlist_net(nl, n);
    for (int s = 0; s < net->nsinks; s++) {
        const cg_nl_port *pt = cg_netlist_port(nl, net->sinks[s]);
        if (!config_port(cg_netlist_prim(nl, pt->prim)->p.kind, pt->name))
            return true;
    }
    return false;
}

static void nets(const cg_rtl *r, FILE *out)
{
    const cg_netlist *nl = r->nl;
    for (int n = 0; n < cg_netlist_nnets(nl); n++)
        if (net_read(nl, n))
            fprintf(out, "    wire [%d:0] n%d;\n",
                    cg_netlist_port(nl, cg_netlist_net(nl, n)->driver)
                            ->width - 1, n);
    /* outputs no data port reads: named so that every pin is connected */
    bool any = false;
    for (int p = 0; p < cg_netlist_nports(nl); p++) {
        const cg_nl_port *pt = cg_netlist_port(nl, p);
        if (pt->dir != CG_DIR_OUT || (pt->net >= 0 && net_read(nl, pt->net)))
            continue;
        if (!any)
            fprintf(out, "    /* verilator lint_off UNUSEDSIGNAL */\n");
        any = true;
        fprintf(out, "    wire [%d:0] u%d;\n", pt->width - 1, p);
    }
    if (any)
        fprintf(out, "    /* verilator lint_on UNUSEDSIGNAL */\n");
}

static void pin(const cg_rtl *r, int p, FILE *out)
{
    const cg_nl_port *pt = cg_netlist_port(r->nl, p);
    fprintf(out, ",\n        .%s(", pt->name);
    if (pt->dir == CG_DIR_OUT)
        fprintf(out, pt->net >= 0 && net_read(r->nl, pt->net) ? "n%d" : "u%d",
                pt->net >= 0 && net_read(r->nl, pt->net) ? pt->net : p);
    else if (pt->net >= 0)
        fprintf(out, "n%d", pt->net);
    else
        fprintf(out, "%d'd0", pt->width); /* unconnected input: 0 */
    fprintf(out, ")");
}

static void instance(const cg_rtl *r, int i, const char *chain_in,
                     FILE *out)
{
    const cg_nl_prim *pr = cg_netlist_prim(r->nl, i);
    const cg_rtl_inst *in = &r->inst[i];
    const char *n = r->names[i];
    cg_prim_kind k = pr->p.kind;
    fprintf(out, "    %s %s (\n        .clk(clk)", r->mods[in->module].name,
            n);
    if (k == CG_PRIM_REG || k == CG_PRIM_REGFILE ||
        (is_unit(k) && pr->p.latency > 0))
        fprintf(out, ",\n        .rst(rst)");
    if (in->per_context)
        fprintf(out, ",\n        .cfg_en(cfg_en),\n        .cfg_in(%s),\n"
                "        .cfg_out(c%d),\n        .ctx(ctx)", chain_in, i);
    if (is_unit(k))
        fprintf(out, ",\n        .wave(wave)");
    if (k == CG_PRIM_MEM)
        fprintf(out, ",\n        .iters(iters)");
    for (int p = pr->port0; p < pr->port0 + pr->nports; p++)
        if (!config_port(k, cg_netlist_port(r->nl, p)->name))
            pin(r, p, out);
    if (k == CG_PRIM_IO)
        fprintf(out, ",\n        .ext_in(%s_ext_in),\n"
                "        .ext_out(%s_ext_out)", n, n);
    if (k == CG_PRIM_MEM)
        fprintf(out, ",\n        .mreq(%s_mreq),\n        .maddr(%s_maddr),\n"
                "        .mwdata(%s_mwdata),\n        .msize(%s_msize),\n"
                "        .mrdata(%s_mrdata)", n, n, n, n, n);
    fprintf(out, ");\n");
}

static void top(const cg_rtl *r, FILE *out)
{
    fprintf(out, "/* cg_array: the array, %d primitives, a configuration "
            "chain of %d bits (%d contexts) */\n",
            cg_netlist_nprims(r->nl), r->length, r->p.contexts);
    top_ports(r, out);
    control(r, out);
    nets(r, out);
    char chain[32] = "ctl_out";
    fprintf(out, "    wire ctl_out = ctl[%d];\n", 2 * r->cb - 1);
    for (int i = 0; i < cg_netlist_nprims(r->nl); i++) {
        if (r->inst[i].per_context)
            fprintf(out, "    wire c%d;\n", i);
    }
    for (int i = 0; i < cg_netlist_nprims(r->nl); i++) {
        instance(r, i, chain, out);
        if (r->inst[i].per_context)
            snprintf(chain, sizeof chain, "c%d", i);
    }
    fprintf(out, "    assign cfg_out = %s;\nendmodule\n", chain);
}

int cg_rtl_write_verilog(const cg_rtl *r, FILE *out)
{
    fprintf(out, "/* Generated by cgramap (rtl/): Verilog-2005.  The "
            "configuration chain and its\n * bit map: docs/rtl.md and the "
            "bit map JSON written beside this file. */\n"
            "/* verilator lint_off DECLFILENAME */\n\n");
    for (int i = 0; i < r->nmods; i++) {
        emit e;
        emit_init(&e, r, r->mods[i].prim, out);
        module(&e);
    }
    top(r, out);
    return cg_write_end(out, true);
}
