/* testbench.c: a testbench per array and the tables of one run.
 *
 * The testbench is the same for every mapping on the array: what changes
 * from run to run (the bitstream, the memory, which MEMUnit goes first in
 * each context, the live-ins per IO and context, where to sample the
 * live-outs) it reads from files and plusargs.  So a simulator compiles
 * the array once and runs many loops on it (verify/rtl.c caches it).
 *
 * A cycle: after the clock edge the IOs get the live-ins of the context;
 * at the falling edge the memory serves the requests of the MEMUnits in
 * the context's order (a load's data stays on its port for the rest of
 * the cycle, 0 on a port without a load); just before the next edge the
 * live-outs due in this cycle are sampled.  That is the simulator's
 * cycle: memory accessed in the cycle an op starts, in iteration order
 * then node order.  A load's address that depends on another load of the
 * same cycle is not served in order (docs/rtl.md, "Limits"). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../mapper/model/imm_internal.h"
#include "../mapper/model/model_internal.h"
#include "rtl_internal.h"

/* Primitives of kind k in netlist order into ids (may be NULL); count. */
static int units(const cg_rtl *r, cg_prim_kind k, int *ids)
{
    int n = 0;
    for (int i = 0; i < cg_netlist_nprims(r->nl); i++)
        if (cg_netlist_prim(r->nl, i)->p.kind == k) {
            if (ids)
                ids[n] = i;
            n++;
        }
    return n;
}

static void tb_ports(const cg_rtl *r, FILE *out)
{
    int mk = 0, ik = 0;
    fprintf(out, "    cg_array dut (.clk(clk), .rst(rst), .cfg_en(cfg_en), "
            ".cfg_in(cfg_in), .cfg_out(cfg_out),\n        .iters(iters), "
            ".ctx_o(ctx), .wave_o(wave)");
    for (int i = 0; i < cg_netlist_nprims(r->nl); i++) {
        const cg_nl_prim *pr = cg_netlist_prim(r->nl, i);
        const char *n = r->names[i];
        int w = pr->p.width - 1;
        if (pr->p.kind == CG_PRIM_IO) {
            fprintf(out, ",\n        .%s_ext_in(ext_in[%d][%d:0]), "
                    ".%s_ext_out(ext_out[%d][%d:0])", n, ik, w, n, ik, w);
            ik++;
        } else if (pr->p.kind == CG_PRIM_MEM) {
            fprintf(out, ",\n        .%s_mreq(mreq[%d]), .%s_maddr(maddr[%d]"
                    "[%d:0]), .%s_mwdata(mwdata[%d][%d:0]),\n        "
                    ".%s_msize(msize[%d]), .%s_mrdata(mrdata[%d][%d:0])",
                    n, mk, n, mk, w, n, mk, w, n, mk, n, mk, w);
            mk++;
        }
    }
    fprintf(out, ");\n");
}

/* Upper bits of the 64-bit port arrays the array's ports leave free. */
static void tb_pad(const cg_rtl *r, FILE *out)
{
    int mk = 0, ik = 0;
    for (int i = 0; i < cg_netlist_nprims(r->nl); i++) {
        const cg_nl_prim *pr = cg_netlist_prim(r->nl, i);
        int w = pr->p.width;
        if (w >= 64)
            ;
        else if (pr->p.kind == CG_PRIM_IO)
            fprintf(out, "    assign ext_out[%d][63:%d] = %d'd0;\n", ik, w,
                    64 - w);
        else if (pr->p.kind == CG_PRIM_MEM)
            fprintf(out, "    assign maddr[%d][63:%d] = %d'd0;\n"
                    "    assign mwdata[%d][63:%d] = %d'd0;\n", mk, w, 64 - w,
                    mk, w, 64 - w);
        ik += pr->p.kind == CG_PRIM_IO;
        mk += pr->p.kind == CG_PRIM_MEM;
    }
}

static const char tb_tasks[] =
    "    /* a memory access of 2^sz bytes at address a */\n"
    "    task access;\n"
    "        input integer u;\n"
    "        reg [63:0] off, v;\n"
    "        integer j;\n"
    "        begin\n"
    "            off = maddr[u] - base;\n"
    "            v = 64'd0;\n"
    "            for (j = 0; j < (1 << msize[u]); j = j + 1)\n"
    "                if (off + j >= size) begin\n"
    "                    if (oob == 0)\n"
    "                        $display(\"cg_tb: cycle %0d: %s at 0x%0h outside "
    "the memory\", cyc,\n"
    "                                 mreq[u] == 2'd1 ? \"load\" : \"store\", "
    "maddr[u]);\n"
    "                    oob = oob + 1;\n"
    "                end else if (mreq[u] == 2'd1)\n"
    "                    v = v | ({56'd0, mem[off + j]} << (8 * j));\n"
    "                else\n"
    "                    mem[off + j] = mwdata[u][8 * j +: 8];\n"
    "            mrdata[u] = v;\n"
    "        end\n"
    "    endtask\n"
    "    task serve;\n"
    "        integer u, s;\n"
    "        begin\n"
    "            for (u = 0; u < NM; u = u + 1) mrdata[u] = 64'd0;\n"
    "            for (s = 0; s < NM; s = s + 1) begin\n"
    "                u = order[ctx * NM + s];\n"
    "                if (u != 0 && mreq[u - 1] != 2'd0) access(u - 1);\n"
    "            end\n"
    "        end\n"
    "    endtask\n"
    "    task sample;\n"
    "        integer k;\n"
    "        begin\n"
    "            for (k = 0; k < nouts; k = k + 1)\n"
    "                if (outsel[3 * k] == cyc)\n"
    "                    outs[k] = ext_out[outsel[3 * k + 1]] &\n"
    "                              ~(~64'd0 << outsel[3 * k + 2]);\n"
    "        end\n"
    "    endtask\n";

static const char tb_run[] =
    "    integer i, f;\n"
    "    initial begin\n"
    "        if (!$value$plusargs(\"iters=%d\", iters) ||\n"
    "            !$value$plusargs(\"cycles=%d\", cycles) ||\n"
    "            !$value$plusargs(\"base=%h\", base) ||\n"
    "            !$value$plusargs(\"size=%d\", size) ||\n"
    "            !$value$plusargs(\"nouts=%d\", nouts)) begin\n"
    "            $display(\"cg_tb: give +iters +cycles +base +size +nouts\");\n"
    "            $finish;\n"
    "        end\n"
    "        for (i = 0; i < NOUT; i = i + 1) outs[i] = 64'd0;\n"
    "        $readmemb(\"bitstream.txt\", bits);\n"
    "        $readmemh(\"mem.hex\", mem, 0, size - 1);\n"
    "        $readmemh(\"order.hex\", order);\n"
    "        $readmemh(\"livein.hex\", livein);\n"
    "        $readmemh(\"outsel.hex\", outsel);\n"
    "        cfg_en = 1'b1;\n"
    "        for (i = 0; i < N; i = i + 1) begin\n"
    "            cfg_in = bits[i];\n"
    "            @(negedge clk);\n"
    "        end\n"
    "        cfg_en = 1'b0;\n"
    "        rst = 1'b1;\n"
    "        @(negedge clk);\n"
    "        rst = 1'b0;\n"
    "        for (cyc = 0; cyc < cycles; cyc = cyc + 1) begin\n"
    "            serve;\n"
    "            #1;\n"
    "            sample;\n"
    "            @(negedge clk);\n"
    "        end\n"
    "        $writememh(\"mem_out.hex\", mem, 0, size - 1);\n"
    "        f = $fopen(\"outs.txt\", \"w\");\n"
    "        for (i = 0; i < nouts; i = i + 1) $fdisplay(f, \"%0h\", "
    "outs[i]);\n"
    "        $fclose(f);\n"
    "        $display(\"cg_tb: done, %0d accesses outside the memory\", "
    "oob);\n"
    "        $finish;\n"
    "    end\n";

/* Live-ins per IO and context, driven while the context runs. */
static void tb_liveins(FILE *out)
{
    fprintf(out, "    always @* begin : drive\n        integer j;\n"
            "        for (j = 0; j < NIO; j = j + 1)\n"
            "            ext_in[j] = livein[j * C + ctx];\n    end\n");
}

int cg_rtl_write_testbench(const cg_rtl *r, FILE *out)
{
    int nm = units(r, CG_PRIM_MEM, NULL), nio = units(r, CG_PRIM_IO, NULL);
    fprintf(out, "/* Generated by cgramap: the testbench of cg_array "
            "(docs/rtl.md) */\n/* verilator lint_off DECLFILENAME */\n"
            "module cg_tb;\n");
    fprintf(out, "    localparam N = %d, C = %d, NM = %d, NIO = %d, "
            "NOUT = %d, MEMMAX = %d;\n", r->length, r->p.contexts,
            nm ? nm : 1, nio ? nio : 1, CG_RTL_TB_OUTS_MAX,
            CG_RTL_TB_MEM_MAX);
    fprintf(out, "    reg clk = 1'b0, rst = 1'b1, cfg_en = 1'b0, "
            "cfg_in = 1'b0;\n    wire cfg_out;\n    reg [31:0] iters;\n"
            "    wire [%d:0] ctx;\n    wire [31:0] wave;\n", r->cb - 1);
    fprintf(out, "    reg [63:0] ext_in [0:NIO-1];\n"
            "    wire [63:0] ext_out [0:NIO-1];\n"
            "    wire [1:0] mreq [0:NM-1], msize [0:NM-1];\n"
            "    wire [63:0] maddr [0:NM-1], mwdata [0:NM-1];\n"
            "    reg [63:0] mrdata [0:NM-1];\n"
            "    reg [7:0] mem [0:MEMMAX-1];\n    reg bits [0:N-1];\n"
            "    reg [31:0] order [0:C*NM-1];\n"
            "    reg [63:0] livein [0:NIO*C-1];\n"
            "    reg [31:0] outsel [0:3*NOUT-1];\n"
            "    reg [63:0] outs [0:NOUT-1];\n"
            "    integer cyc = 0, cycles, nouts, size, oob = 0;\n"
            "    reg [63:0] base;\n    always #5 clk = ~clk;\n");
    tb_ports(r, out);
    tb_pad(r, out);
    tb_liveins(out);
    fputs(tb_tasks, out);
    fputs(tb_run, out);
    fprintf(out, "endmodule\n");
    return cg_write_end(out, true);
}

/* ---- one run's tables ---------------------------------------------------- */

static int64_t tmin_of(const cg_mapping *m, int64_t *tmax)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int v = 0; v < m->nnodes; v++)
        if (m->place[v] >= 0) {
            lo = m->start[v] < lo ? m->start[v] : lo;
            hi = m->start[v] > hi ? m->start[v] : hi;
        }
    if (lo > hi)
        lo = hi = 0;
    if (tmax)
        *tmax = hi;
    return lo;
}

int cg_rtl_run_outputs(const cg_rtl_run *run, int *nodes)
{
    int n = 0;
    for (int v = 0; v < cg_dfg_nnodes(run->g); v++)
        if (cg_dfg_get_node(run->g, v)->op == CG_OP_OUTPUT) {
            if (nodes)
                nodes[n] = v;
            n++;
        }
    return n;
}

int cg_rtl_plusargs(const cg_rtl_run *run, char *buf, size_t len)
{
    int64_t tmax, tmin = tmin_of(run->m, &tmax);
    int64_t cycles = tmax - tmin + (run->iters - 1) * run->m->ii + 1;
    int n = snprintf(buf, len, "+iters=%" PRId64 " +cycles=%" PRId64
                     " +base=%" PRIx64 " +size=%" PRIu64 " +nouts=%d",
                     run->iters, cycles, run->mem_base, run->mem_size,
                     cg_rtl_run_outputs(run, NULL));
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Memory units in the order the simulator runs them in context c: the
 * latest start (oldest iteration) first, then DFG node order. */
typedef struct okey { int64_t start; int node, unit; } okey;
static int okey_cmp(const void *a, const void *b)
{
    const okey *x = a, *y = b;
    if (x->start != y->start)
        return x->start > y->start ? -1 : 1;
    return x->node - y->node;
}

static int order_table(const cg_rtl *r, const cg_rtl_run *run,
                       const int *mems, int nm, FILE *out)
{
    okey *k = malloc(sizeof *k * ((size_t)nm + 1));
    if (!k)
        return -1;
    for (int c = 0; c < r->p.contexts; c++) {
        int n = 0;
        for (int v = 0; v < run->m->nnodes; v++) {
            const cg_mrrg_node *f =
                cg_mrrg_get_node(run->mrrg, run->m->place[v]);
            for (int u = 0; f && f->context == c && u < nm; u++)
                if (mems[u] == f->prim && n < nm)
                    k[n++] = (okey){run->m->start[v], v, u};
        }
        qsort(k, (size_t)n, sizeof *k, okey_cmp);
        for (int s = 0; s < (nm ? nm : 1); s++)
            fprintf(out, "%x\n", s < n ? k[s].unit + 1 : 0);
    }
    free(k);
    return 0;
}

/* The live-in each IO drives in each context (0 where it runs none). */
static void livein_table(const cg_rtl *r, const cg_rtl_run *run,
                         const int *ios, int nio, FILE *out)
{
    for (int j = 0; j < (nio ? nio : 1); j++)
        for (int c = 0; c < r->p.contexts; c++) {
            uint64_t v = 0;
            for (int n = 0; nio && n < run->m->nnodes; n++) {
                const cg_dfg_node *x = cg_dfg_get_node(run->g, n);
                const cg_mrrg_node *f =
                    cg_mrrg_get_node(run->mrrg, run->m->place[n]);
                if (f && f->prim == ios[j] && f->context == c &&
                    x->op == CG_OP_INPUT && run->inputs)
                    v = cg_trunc(run->inputs[n], x->width);
            }
            fprintf(out, "%" PRIx64 "\n", v);
        }
}

/* Per live-out: the cycle after reset of its last iteration, its IO's
 * index and its width.  -1 (EINVAL) on an output off an IO. */
static int outsel_table(const cg_rtl_run *run, const int *ios, int nio,
                        FILE *out)
{
    int outs[CG_RTL_TB_OUTS_MAX];
    int n = cg_rtl_run_outputs(run, NULL);
    if (n > CG_RTL_TB_OUTS_MAX)
        return -1;
    cg_rtl_run_outputs(run, outs);
    int64_t tmin = tmin_of(run->m, NULL);
    for (int k = 0; k < CG_RTL_TB_OUTS_MAX; k++) {
        int64_t cyc = 0;
        int io = 0, w = 0;
        if (k < n) {
            int v = outs[k];
            const cg_mrrg_node *f =
                cg_mrrg_get_node(run->mrrg, run->m->place[v]);
            io = -1;
            for (int j = 0; f && j < nio; j++)
                if (ios[j] == f->prim)
                    io = j;
            if (io < 0)
                return -1;
            cyc = run->m->start[v] - tmin + (run->iters - 1) * run->m->ii;
            w = cg_dfg_get_node(run->g, v)->width;
        }
        fprintf(out, "%" PRIx64 "\n%x\n%x\n", (uint64_t)cyc, io, w);
    }
    return 0;
}

int cg_rtl_write_run_tables(const cg_rtl *r, const cg_rtl_run *run,
                            FILE *order, FILE *livein, FILE *outsel)
{
    int np = cg_netlist_nprims(r->nl);
    int *mems = malloc(sizeof(int) * ((size_t)np + 1));
    int *ios = malloc(sizeof(int) * ((size_t)np + 1));
    int rc = -1;
    errno = ENOMEM;
    if (mems && ios) {
        int nm = units(r, CG_PRIM_MEM, mems), nio = units(r, CG_PRIM_IO, ios);
        rc = order_table(r, run, mems, nm, order);
        livein_table(r, run, ios, nio, livein);
        if (rc == 0 && outsel_table(run, ios, nio, outsel) < 0) {
            errno = EINVAL;
            rc = -1;
        }
    }
    free(mems);
    free(ios);
    if (rc < 0)
        return -1;
    int a = cg_write_end(order, true), b = cg_write_end(livein, true);
    int c = cg_write_end(outsel, true);
    return a || b || c ? -1 : 0;
}

int cg_rtl_write_mem(const cg_mem *mem, FILE *out)
{
    for (uint64_t i = 0; i < mem->size; i++)
        fprintf(out, "%02x\n", mem->data[i]);
    return cg_write_end(out, true);
}
