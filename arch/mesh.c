/* mesh.c: ready-made arrays in C (no file needed): cg_arch_mesh and the
 * default architecture the CLI embeds.  They build exactly what the XML
 * <mesh>/<diagonal> sugar builds from benchmarks/archs/default_4x4.xml, so
 * both flatten to the same netlist (a test compares them byte for byte).
 *
 * The PE (module "pe", "pe_mem" with a MEMUnit, "_mul" with mul_ops):
 *   inputs in_n in_e in_s in_w (diagonal: also in_ne in_nw in_se in_sw),
 *   output out;
 *   func   FuncUnit; each operand pin (in_a, in_b, and in_c when the ops
 *          include select) has a multiplexer func_in_X_mux choosing among
 *          the neighbour inputs, reg.out and const.out;
 *   const  ConstUnit (the PE's immediates);
 *   mem    MEMUnit (memory columns), addr and data_in through
 *          mem_addr_mux / mem_data_in_mux from the same sources;
 *   reg    Register, fed by reg_in_mux from func.out (mem.data_out), and
 *          the neighbour inputs, so a value can also pass through a PE;
 *   out    driven by reg.out only: every hop between PEs takes one cycle
 *          and the array has no combinational loop between PEs.
 * IO blocks (module io_block: ports in, out around IO primitive io) sit on
 * every side cell of the ring around the PEs, none in the corners.
 */
#include <stdio.h>
#include <string.h>

#include "arch_internal.h"

enum { NDIRS = 8 };
static const struct dir {
    const char *in; /* input port of the PE hearing from this direction */
    int dr, dc;
} dirs[NDIRS] = {
    {"in_n", -1, 0},  {"in_e", 0, 1},    {"in_s", 1, 0},   {"in_w", 0, -1},
    {"in_ne", -1, 1}, {"in_nw", -1, -1}, {"in_se", 1, 1}, {"in_sw", 1, -1},
};

void cg_mesh_params_init(cg_mesh_params *p)
{
    static const cg_op alu[] = {
        CG_OP_ADD,  CG_OP_SUB,  CG_OP_MUL,  CG_OP_SDIV,   CG_OP_UDIV,
        CG_OP_SREM, CG_OP_UREM, CG_OP_AND,  CG_OP_OR,     CG_OP_XOR,
        CG_OP_SHL,  CG_OP_ASHR, CG_OP_LSHR, CG_OP_ICMP,   CG_OP_SELECT,
        CG_OP_TRUNC, CG_OP_SEXT, CG_OP_ZEXT,
    };
    memset(p, 0, sizeof *p);
    p->rows = p->cols = 4;
    p->mem_columns = true;
    p->io = true;
    for (size_t i = 0; i < sizeof alu / sizeof *alu; i++)
        p->ops |= CG_OPSET(alu[i]);
    p->width = 32;
    p->mem_bytes = 16384;
    p->mem_banks = 2;
}

typedef struct gen {
    cg_arch *a;
    const cg_mesh_params *p;
    cg_diags *d;
    int ndirs;
} gen;

static int port(gen *g, int mod, const char *name, cg_dir dir)
{
    return cg_arch_add_port(g->a, mod, name, dir, g->p->width, g->d);
}

static int prim(gen *g, int mod, const char *name, cg_prim_kind k,
                cg_opset ops)
{
    cg_prim_params pp;
    cg_prim_params_init(&pp, k);
    pp.width = g->p->width;
    if (ops)
        pp.ops = ops;
    return cg_arch_add_prim(g->a, mod, name, &pp, g->d);
}

/* select-from srcs (n of them) to every target of tos. */
static int select_to(gen *g, int mod, const char **srcs, int n,
                     const char *const *tos, int ntos)
{
    for (int i = 0; i < ntos; i++)
        if (cg_arch_connect_select(g->a, mod, srcs, n, tos[i], g->d) < 0)
            return -1;
    return 0;
}

/* The PE module, with or without a MEMUnit, with ops. */
static int define_pe(gen *g, const char *name, bool mem, cg_opset ops)
{
    cg_arch *a = g->a;
    int m = cg_arch_module_define(a, name, g->d);
    if (m < 0)
        return -1;
    const char *srcs[NDIRS + 3];
    char in_names[NDIRS][16];
    int rc = 0;
    for (int i = 0; i < g->ndirs; i++) {
        rc |= port(g, m, dirs[i].in, CG_DIR_IN);
        snprintf(in_names[i], sizeof in_names[i], "this.%s", dirs[i].in);
    }
    rc |= port(g, m, "out", CG_DIR_OUT);
    rc |= prim(g, m, "func", CG_PRIM_FUNC, ops);
    rc |= prim(g, m, "const", CG_PRIM_CONST, 0);
    rc |= prim(g, m, "reg", CG_PRIM_REG, 0);
    if (mem)
        rc |= prim(g, m, "mem", CG_PRIM_MEM, 0);
    if (rc < 0)
        return -1;
    /* operands: the neighbours, the PE's own register and its constant */
    for (int i = 0; i < g->ndirs; i++)
        srcs[i] = in_names[i];
    srcs[g->ndirs] = "reg.out";
    srcs[g->ndirs + 1] = "const.out";
    static const char *const fu_pins[] = {"func.in_a", "func.in_b",
                                          "func.in_c"};
    static const char *const mem_pins[] = {"mem.addr", "mem.data_in"};
    int npins = (ops & CG_OPSET(CG_OP_SELECT)) ? 3 : 2;
    if (select_to(g, m, srcs, g->ndirs + 2, fu_pins, npins) < 0 ||
        (mem && select_to(g, m, srcs, g->ndirs + 2, mem_pins, 2) < 0))
        return -1;
    /* the register: a result, a load, or a value passing through */
    int n = 0;
    srcs[n++] = "func.out";
    if (mem)
        srcs[n++] = "mem.data_out";
    for (int i = 0; i < g->ndirs; i++)
        srcs[n++] = in_names[i];
    static const char *const reg_in[] = {"reg.in"};
    if (select_to(g, m, srcs, n, reg_in, 1) < 0 ||
        cg_arch_connect(a, m, "reg.out", "this.out", g->d) < 0)
        return -1;
    return m;
}

/* The IO block of the XML mesh sugar. */
static int define_io(gen *g)
{
    int m = cg_arch_module_define(g->a, "io_block", g->d);
    if (m < 0 || port(g, m, "in", CG_DIR_IN) < 0 ||
        port(g, m, "out", CG_DIR_OUT) < 0 ||
        prim(g, m, "io", CG_PRIM_IO, 0) < 0 ||
        cg_arch_connect(g->a, m, "this.in", "io.in", g->d) < 0 ||
        cg_arch_connect(g->a, m, "io.out", "this.out", g->d) < 0)
        return -1;
    return m;
}

/* Name of the PE module for interior cell (r, c), defined on first use. */
static const char *pe_module(gen *g, int r, int c)
{
    const cg_mesh_params *p = g->p;
    bool mem = p->mem_columns && (c == 0 || c == p->cols - 1);
    bool mul = p->mul_ops && (r + c) % 2 == 0;
    static const char *const names[] = {"pe", "pe_mem", "pe_mul",
                                        "pe_mem_mul"};
    const char *name = names[(mem ? 1 : 0) + (mul ? 2 : 0)];
    if (cg_arch_module_find(g->a, name) >= 0)
        return name;
    return define_pe(g, name, mem, p->ops | (mul ? p->mul_ops : 0)) < 0
               ? NULL : name;
}

static int place(gen *g, int top, const char *mod, int r, int c)
{
    char name[48];
    snprintf(name, sizeof name, "block_%d_%d", r, c);
    int id = cg_arch_add_submodule(g->a, top, name, mod, g->d);
    if (id < 0)
        return -1;
    cg_arch_set_position(g->a, top, id, r, c);
    return 0;
}

static int link(gen *g, int top, int fr, int fc, const char *fp, int tr,
                int tc, const char *tp)
{
    char from[64], to[64];
    snprintf(from, sizeof from, "block_%d_%d.%s", fr, fc, fp);
    snprintf(to, sizeof to, "block_%d_%d.%s", tr, tc, tp);
    return cg_arch_connect(g->a, top, from, to, g->d);
}

/* Links of the PE at interior (r, c); off = 1 with the IO ring. */
static int connect_pe(gen *g, int top, int r, int c, int off)
{
    const cg_mesh_params *p = g->p;
    int rc = 0;
    for (int i = 0; i < g->ndirs; i++) {
        int nr = r + dirs[i].dr, nc = c + dirs[i].dc;
        bool inside = nr >= 0 && nr < p->rows && nc >= 0 && nc < p->cols;
        if (!inside && p->torus) {
            nr = (nr + p->rows) % p->rows, nc = (nc + p->cols) % p->cols;
            inside = true;
        }
        if (inside)
            rc |= link(g, top, nr + off, nc + off, "out", r + off, c + off,
                       dirs[i].in);
        else if (p->io && i < 4) {
            rc |= link(g, top, nr + off, nc + off, "out", r + off, c + off,
                       dirs[i].in);
            rc |= link(g, top, r + off, c + off, "out", nr + off, nc + off,
                       "in");
        }
    }
    return rc;
}

static int place_io(gen *g, int top)
{
    int rows = g->p->rows + 2, cols = g->p->cols + 2;
    if (define_io(g) < 0)
        return -1;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            bool redge = r == 0 || r == rows - 1, cedge = c == 0 ||
                                                           c == cols - 1;
            if ((redge || cedge) && !(redge && cedge) &&
                place(g, top, "io_block", r, c) < 0)
                return -1;
        }
    return 0;
}

static int check_params(const cg_mesh_params *p, cg_diags *d)
{
    const char *bad = NULL;
    int off = p->io ? 2 : 0;
    if (p->rows < 1 || p->cols < 1)
        bad = "rows and cols must be >= 1";
    else if (p->width < 1)
        bad = "width must be >= 1";
    else if (!p->ops)
        bad = "ops must list at least one opcode";
    else if (p->io && p->torus)
        bad = "io and torus exclude each other: a torus has no sides";
    else if (p->mem_columns && (p->mem_bytes < 1 || p->mem_banks < 1 ||
                                p->mem_bytes % p->mem_banks))
        bad = "mem_columns needs mem_bytes >= 1 and mem_banks >= 1 "
              "dividing it";
    if (!bad && (p->rows + (long long)off) * (p->cols + off) >
                    CG_MAX_GRID_CELLS) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "bad mesh parameters: the "
                     "%dx%d grid%s is above the limit of %d cells", p->rows,
                     p->cols, off ? " and its IO ring" : "",
                     CG_MAX_GRID_CELLS);
        return -1;
    }
    if (bad)
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "bad mesh parameters: %s",
                     bad);
    return bad ? -1 : 0;
}

/* The tile memory and a DMA engine with cg_dma_params_init's values. */
static int add_memory(gen *g)
{
    cg_dma_params dma;
    cg_dma_params_init(&dma);
    return cg_arch_add_memory(g->a, "spm", g->p->mem_bytes, g->p->mem_banks,
                              4, g->d) < 0 ||
                   cg_arch_set_dma(g->a, &dma, g->d) < 0
               ? -1 : 0;
}

static int build(gen *g)
{
    const cg_mesh_params *p = g->p;
    int off = p->io ? 1 : 0;
    int top = cg_arch_module_define(g->a, "architecture", g->d);
    if (top < 0)
        return -1;
    cg_arch_set_top(g->a, top);
    cg_arch_set_grid(g->a, p->rows + 2 * off, p->cols + 2 * off);
    for (int r = 0; r < p->rows; r++)
        for (int c = 0; c < p->cols; c++) {
            const char *m = pe_module(g, r, c);
            if (!m || place(g, top, m, r + off, c + off) < 0)
                return -1;
        }
    if (p->io && place_io(g, top) < 0)
        return -1;
    for (int r = 0; r < p->rows; r++)
        for (int c = 0; c < p->cols; c++)
            if (connect_pe(g, top, r, c, off) < 0)
                return -1;
    return p->mem_columns ? add_memory(g) : 0;
}

cg_arch *cg_arch_mesh(const cg_mesh_params *p, cg_diags *d)
{
    if (check_params(p, d) < 0)
        return NULL;
    gen g = {cg_arch_create(), p, d, p->diagonal ? 8 : 4};
    if (!g.a) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "out of memory");
        return NULL;
    }
    cg_arch_set_loc(g.a, "<cg_arch_mesh>", 0);
    if (build(&g) < 0) {
        cg_arch_destroy(g.a);
        return NULL;
    }
    return g.a;
}

cg_arch *cg_arch_default(cg_diags *d)
{
    cg_mesh_params p;
    cg_mesh_params_init(&p);
    return cg_arch_mesh(&p, d);
}
