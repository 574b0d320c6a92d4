/* test_flatten.c: cg_arch_flatten (arch/flatten.c) through the C API:
 * hierarchy and names, positions, nets (one driver, sorted sinks),
 * select-from multiplexers and their widths, in_c on select FuncUnits,
 * RegisterFile ports, memories; every error with its exact message and
 * the location stamped by cg_arch_set_loc; NULL on error. */
#include "arch_test_util.h"

static cg_prim_params params(cg_prim_kind k)
{
    cg_prim_params p;
    cg_prim_params_init(&p, k);
    return p;
}

/* A module "pe" (in a, b; out o) with FuncUnit func and Register reg. */
static int make_pe(cg_arch *a, cg_diags *d)
{
    int pe = cg_arch_module_define(a, "pe", d);
    cg_prim_params fu = params(CG_PRIM_FUNC), reg = params(CG_PRIM_REG);
    cg_arch_add_port(a, pe, "a", CG_DIR_IN, 32, d);
    cg_arch_add_port(a, pe, "b", CG_DIR_IN, 32, d);
    cg_arch_add_port(a, pe, "o", CG_DIR_OUT, 32, d);
    cg_arch_add_prim(a, pe, "func", &fu, d);
    cg_arch_add_prim(a, pe, "reg", &reg, d);
    return pe;
}

/* Top "architecture" 1xn with pe blocks block_0_<c>. */
static int make_top(cg_arch *a, int n, cg_diags *d)
{
    int top = cg_arch_module_define(a, "architecture", d);
    cg_arch_set_top(a, top);
    cg_arch_set_grid(a, 1, n);
    for (int c = 0; c < n; c++) {
        char name[32];
        snprintf(name, sizeof name, "block_0_%d", c);
        int id = cg_arch_add_submodule(a, top, name, "pe", d);
        cg_arch_set_position(a, top, id, 0, c);
    }
    return top;
}

static void test_hierarchy_and_nets(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    cg_arch_set_loc(a, "c.api", 1);
    int top = make_top(a, 2, d); /* "pe" defined after its use */
    int pe = make_pe(a, d);
    const char *srcs[] = {"a", "this.b", "reg.out"};
    cg_arch_connect_select(a, pe, srcs, 3, "func.in_a", d);
    cg_arch_connect(a, pe, "b", "func.in_b", d);
    cg_arch_connect(a, pe, "func.out", "reg.in", d);
    cg_arch_connect(a, pe, "reg.out", "this.o", d);
    cg_arch_connect(a, top, "block_0_0.o", "block_0_1.a", d);
    cg_arch_connect(a, top, "block_0_1.o", "block_0_0.a", d);
    cg_arch_connect(a, top, "block_0_1.o", "block_0_0.b", d);
    cg_netlist *nl = cg_arch_flatten(a, d);
    assert_non_null(nl);
    assert_int_equal(cg_diags_size(d), 0);
    char *t = nl_text(nl, AS_WRITE);
    check_golden("flatten_hier.txt", t);
    free(t);
    int mux = cg_netlist_find_prim(nl, "block_0_1.func_in_a_mux");
    assert_true(mux >= 0);
    const cg_nl_prim *p = cg_netlist_prim(nl, mux);
    assert_int_equal(p->p.kind, CG_PRIM_MUX);
    assert_int_equal(p->p.ninput, 3);
    assert_int_equal(p->row, 0);
    assert_int_equal(p->col, 1);
    assert_string_equal(p->loc.file, "c.api");
    assert_int_equal(p->nports, 5);
    int sel = cg_netlist_prim_port(nl, mux, "select");
    assert_int_equal(cg_netlist_port(nl, sel)->width, 2);
    assert_int_equal(cg_netlist_port(nl, sel)->net, -1);
    /* block_0_1.reg.out drives block_0_0's a and b: one net, two mux
     * inputs plus func.in_b, plus its own feedback into its mux */
    int reg = cg_netlist_find_prim(nl, "block_0_1.reg");
    const cg_nl_port *ro = cg_netlist_port(nl, cg_netlist_prim_port(nl, reg,
                                                                    "out"));
    const cg_nl_net *n = cg_netlist_net(nl, ro->net);
    assert_int_equal(n->driver, cg_netlist_prim_port(nl, reg, "out"));
    assert_int_equal(n->nsinks, 4);
    for (int k = 1; k < n->nsinks; k++)
        assert_true(n->sinks[k - 1] < n->sinks[k]);
    assert_int_equal(cg_netlist_find_prim(nl, "block_0_2.func"), -1);
    assert_int_equal(cg_netlist_prim_port(nl, reg, "in_a"), -1);
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* Many names (instances, ports, modules: hashed lookups): a top with
 * 3000 Registers r<i>, each fed by the one before, all through ports of a
 * module "w<i>" among 3000; the nets go where the names say, and a name
 * taken long before is still a duplicate. */
static void test_many_names(void **state)
{
    (void)state;
    enum { N = 3000 };
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    cg_arch_set_loc(a, "m.api", 7);
    int top = cg_arch_module_define(a, "architecture", d);
    cg_arch_set_top(a, top);
    cg_arch_set_grid(a, 1, 1);
    cg_prim_params reg = params(CG_PRIM_REG);
    char x[32], y[32];
    for (int i = 0; i < N; i++) {
        snprintf(x, sizeof x, "r%d", i);
        assert_int_equal(cg_arch_add_prim(a, top, x, &reg, d), i);
        snprintf(x, sizeof x, "w%d", i);
        assert_int_equal(cg_arch_module_define(a, x, d), i + 1);
        assert_int_equal(cg_arch_add_wire(a, top, x, 32, d), i);
    }
    for (int i = 1; i < N; i++) {
        snprintf(x, sizeof x, "r%d.out", i - 1);
        snprintf(y, sizeof y, "w%d", i);
        assert_int_equal(cg_arch_connect(a, top, x, y, d), 0);
        snprintf(x, sizeof x, "r%d.in", i);
        assert_int_equal(cg_arch_connect(a, top, y, x, d), 0);
    }
    assert_int_equal(cg_arch_module_find(a, "w2999"), N);
    assert_int_equal(cg_arch_module_find(a, "w3000"), -1);
    assert_int_equal(cg_diags_size(d), 0);
    cg_netlist *nl = cg_arch_flatten(a, d);
    assert_non_null(nl);
    for (int i = 1; i < N; i += 333) {
        snprintf(x, sizeof x, "r%d", i - 1);
        snprintf(y, sizeof y, "r%d", i);
        int src = cg_netlist_find_prim(nl, x), dst = cg_netlist_find_prim(nl, y);
        int out = cg_netlist_prim_port(nl, src, "out");
        int in = cg_netlist_prim_port(nl, dst, "in");
        const cg_nl_net *n = cg_netlist_net(nl, cg_netlist_port(nl, in)->net);
        assert_int_equal(n->driver, out);
    }
    cg_netlist_destroy(nl);
    assert_int_equal(cg_diags_size(d), 1); /* r0 is the first: no driver */
    expect_diag(d, 0, "m.api:7: warning: input 'in' of Register 'r0' in "
                "module 'architecture' is not connected; connect it or "
                "remove the unit");
    assert_int_equal(cg_arch_add_prim(a, top, "r5", &reg, d), -1);
    assert_int_equal(cg_diags_size(d), 2);
    expect_diag(d, 1, "m.api:7: error: duplicate instance 'r5' in module "
                "'architecture' (first declared at m.api:7); rename one");
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

static void test_prim_ports(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    int top = cg_arch_module_define(a, "top", d);
    cg_arch_set_top(a, top);
    cg_prim_params fu = params(CG_PRIM_FUNC), rf = params(CG_PRIM_REGFILE);
    fu.ops = CG_OPSET(CG_OP_SELECT);
    rf.ninput = 2, rf.noutput = 1, rf.log2_nregs = 3;
    assert_int_equal(cg_arch_add_prim(a, top, "f", &fu, d), 0);
    assert_int_equal(cg_arch_add_prim(a, top, "rf", &rf, d), 1);
    cg_arch_connect(a, top, "rf.out0", "f.in_a", d);
    cg_arch_connect(a, top, "rf.out0", "f.in_b", d);
    cg_arch_connect(a, top, "rf.out0", "f.in_c", d);
    cg_arch_connect(a, top, "f.out", "rf.in0", d);
    cg_arch_connect(a, top, "f.out", "rf.in1", d);
    cg_netlist *nl = cg_arch_flatten(a, d);
    assert_non_null(nl);
    assert_int_equal(cg_diags_size(d), 0); /* addresses, WEN: configuration */
    static const char *const want[] = {"in0", "in1", "address_in0",
                                       "address_in1", "WEN0", "WEN1", "out0",
                                       "address_out0"};
    int r = cg_netlist_find_prim(nl, "rf");
    const cg_nl_prim *p = cg_netlist_prim(nl, r);
    assert_int_equal(p->nports, 8);
    for (int k = 0; k < 8; k++)
        assert_string_equal(cg_netlist_port(nl, p->port0 + k)->name, want[k]);
    assert_int_equal(cg_netlist_port(nl, p->port0 + 2)->width, 3);
    assert_int_equal(cg_netlist_port(nl, p->port0 + 4)->width, 1);
    int f = cg_netlist_find_prim(nl, "f");
    assert_int_equal(cg_netlist_prim(nl, f)->nports, 4);
    assert_int_equal(cg_netlist_prim(nl, f)->row, -1);
    assert_true(cg_netlist_port(nl, cg_netlist_prim_port(nl, f, "in_c"))->net
                >= 0);
    assert_null(cg_netlist_dma(nl));
    assert_int_equal(cg_netlist_nmemories(nl), 0);
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* Build with one mistake made at line 7, flatten, expect NULL and
 * exactly the one diagnostic want. */
typedef void (*mistake)(cg_arch *a, int top, int pe, cg_diags *d);

static void expect_flatten(mistake m, const char *want)
{
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    cg_arch_set_loc(a, "m.xml", 1);
    int top = make_top(a, 1, d);
    int pe = make_pe(a, d);
    cg_arch_connect(a, pe, "a", "func.in_a", d);
    cg_arch_connect(a, pe, "b", "func.in_b", d);
    cg_arch_connect(a, pe, "func.out", "reg.in", d);
    cg_arch_connect(a, pe, "reg.out", "o", d);
    cg_arch_set_loc(a, "m.xml", 7);
    m(a, top, pe, d);
    cg_netlist *nl = cg_arch_flatten(a, d);
    if (cg_diags_size(d) != 1)
        cg_diags_print(d, stderr);
    assert_null(nl);
    assert_int_equal(cg_diags_size(d), 1);
    expect_diag(d, 0, want);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

static void unknown_port(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)top;
    cg_arch_connect(a, pe, "a", "func.in_c", d);
}
static void unknown_sub_port(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)pe;
    cg_arch_connect(a, top, "block_0_0.out", "block_0_0.a", d);
}
static void unknown_sig(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)top;
    cg_arch_connect(a, pe, "this.x", "reg.in", d);
}
static void unknown_inst(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)top;
    cg_arch_connect(a, pe, "alu.out", "o", d);
}
static void unknown_module(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)pe;
    cg_arch_add_submodule(a, top, "block_0_9", "pee", d);
}
static void two_drivers(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)top;
    cg_arch_connect(a, pe, "this.b", "func.in_a", d);
}
static void width(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)top;
    cg_arch_add_wire(a, pe, "narrow", 8, d);
    cg_arch_connect(a, pe, "func.out", "narrow", d);
}
static void drive_prim_out(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)top;
    cg_arch_connect(a, pe, "a", "reg.out", d);
}
static void from_prim_in(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)top;
    cg_arch_add_port(a, pe, "o2", CG_DIR_OUT, 32, d);
    cg_arch_connect(a, pe, "func.in_a", "o2", d);
}
static void drive_own_input(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)top;
    cg_arch_connect(a, pe, "reg.out", "this.a", d);
}
static void drive_sub_output(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)pe;
    cg_arch_connect(a, top, "block_0_0.o", "block_0_0.o", d);
}
static void recursion(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)top;
    cg_arch_add_submodule(a, pe, "inner", "pe", d);
}
static void outside(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)pe;
    int id = cg_arch_add_submodule(a, top, "block_3_0", "pe", d);
    cg_arch_set_position(a, top, id, 3, 0);
}
static void bad_memory(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)top;
    cg_prim_params m = params(CG_PRIM_MEM);
    m.memory = "spn";
    cg_arch_add_memory(a, "spm", 1024, 2, 1, d);
    cg_arch_add_prim(a, pe, "mem", &m, d);
    cg_arch_connect(a, pe, "a", "mem.addr", d);
    cg_arch_connect(a, pe, "a", "mem.data_in", d);
}
static void bad_bank(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)top;
    cg_prim_params m = params(CG_PRIM_MEM);
    m.bank = 2;
    cg_arch_add_memory(a, "spm", 1024, 2, 1, d);
    cg_arch_add_prim(a, pe, "mem", &m, d);
    cg_arch_connect(a, pe, "a", "mem.addr", d);
    cg_arch_connect(a, pe, "a", "mem.data_in", d);
}
static void which_memory(cg_arch *a, int top, int pe, cg_diags *d)
{
    (void)top;
    cg_prim_params m = params(CG_PRIM_MEM);
    cg_arch_add_memory(a, "spm0", 1024, 1, 1, d);
    cg_arch_add_memory(a, "spm1", 1024, 1, 1, d);
    cg_arch_add_prim(a, pe, "mem", &m, d);
    cg_arch_connect(a, pe, "a", "mem.addr", d);
    cg_arch_connect(a, pe, "a", "mem.data_in", d);
}

static void test_flatten_errors(void **state)
{
    (void)state;
    expect_flatten(unknown_port, "m.xml:7: error: unknown port 'in_c' on "
                   "FuncUnit 'func' (ports: in_a, in_b, out)");
    expect_flatten(unknown_sub_port, "m.xml:7: error: unknown port 'out' on "
                   "instance 'block_0_0' of module 'pe' (ports: a, b, o)");
    expect_flatten(unknown_sig, "m.xml:7: error: unknown port or wire 'x' in "
                   "module 'pe' (ports and wires: a, b, o)");
    expect_flatten(unknown_inst, "m.xml:7: error: unknown instance 'alu' in "
                   "reference 'alu.out' in module 'pe' (instances: func, "
                   "reg)");
    expect_flatten(unknown_module, "m.xml:7: error: unknown module 'pee' "
                   "(modules: pe; primitives: FuncUnit, MEMUnit, Register, "
                   "Multiplexer, TriState, IO, RegisterFile, ConstUnit)");
    expect_flatten(two_drivers, "m.xml:7: error: 'func.in_a' in module 'pe' "
                   "is driven by both 'a' (at m.xml:1) and 'b'; list both in "
                   "one select-from= to put a multiplexer in front of it");
    expect_flatten(width, "m.xml:7: error: width mismatch: 'func.out' is 32 "
                   "bits but 'narrow' is 8 bits; give both the same size=");
    expect_flatten(drive_prim_out, "m.xml:7: error: 'reg.out' is an output "
                   "of Register 'reg'; it cannot be driven by 'a' (swap "
                   "from= and to=?)");
    expect_flatten(from_prim_in, "m.xml:7: error: 'func.in_a' is an input "
                   "of FuncUnit 'func'; it cannot drive 'o2' (swap from= and "
                   "to=?)");
    expect_flatten(drive_own_input, "m.xml:7: error: 'a' is an input of "
                   "module 'pe'; it is driven from outside the module, not "
                   "by 'reg.out'");
    expect_flatten(drive_sub_output, "m.xml:7: error: 'block_0_0.o' is an "
                   "output of module 'pe'; it is driven inside that module, "
                   "not by 'block_0_0.o'");
    expect_flatten(recursion, "m.xml:7: error: module 'pe' contains itself "
                   "(through instance 'inner' in module 'pe'); remove the "
                   "recursion");
    expect_flatten(outside, "m.xml:7: error: block 'block_3_0' is at (3, 0), "
                   "outside the 1x1 grid; use rows 0..0 and columns 0..0");
    expect_flatten(bad_memory, "m.xml:7: error: MEMUnit 'mem' reaches tile "
                   "memory 'spn', which is not declared (memories: spm)");
    expect_flatten(bad_bank, "m.xml:7: error: MEMUnit 'mem' reaches bank 2 "
                   "of tile memory 'spm', which has 2 bank(s) (0..1)");
    expect_flatten(which_memory, "m.xml:7: error: MEMUnit 'mem' does not say "
                   "which tile memory it reaches (memories: spm0, spm1); give "
                   "memory=\"...\"");
}

static void test_unconnected_warning(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    cg_arch_set_loc(a, "w.xml", 3);
    make_top(a, 1, d);
    int pe = make_pe(a, d);
    cg_arch_connect(a, pe, "a", "func.in_a", d);
    cg_arch_connect(a, pe, "func.out", "o", d);
    cg_netlist *nl = cg_arch_flatten(a, d);
    assert_non_null(nl);
    assert_int_equal(cg_diags_errors(d), 0);
    assert_int_equal(cg_diags_size(d), 2);
    expect_diag(d, 0, "w.xml:3: warning: input 'in_b' of FuncUnit 'func' in "
                      "module 'pe' is not connected; connect it or remove the "
                      "unit");
    expect_diag(d, 1, "w.xml:3: warning: input 'in' of Register 'reg' in "
                      "module 'pe' is not connected; connect it or remove the "
                      "unit");
    /* unconnected inputs have no net; a driver without sinks has none */
    int f = cg_netlist_find_prim(nl, "block_0_0.func");
    assert_int_equal(cg_netlist_port(nl, cg_netlist_prim_port(nl, f, "in_b"))
                     ->net, -1);
    int r = cg_netlist_find_prim(nl, "block_0_0.reg");
    assert_int_equal(cg_netlist_port(nl, cg_netlist_prim_port(nl, r, "out"))
                     ->net, -1);
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

static void test_build_errors(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    cg_arch_set_loc(a, "b.xml", 2);
    int m = cg_arch_module_define(a, "m", d);
    cg_arch_set_loc(a, "b.xml", 5);
    assert_int_equal(cg_arch_module_define(a, "m", d), -1);
    assert_int_equal(cg_arch_module_define(a, "IO", d), -1);
    cg_arch_add_port(a, m, "p", CG_DIR_IN, 32, d);
    assert_int_equal(cg_arch_add_wire(a, m, "p", 32, d), -1);
    assert_int_equal(cg_arch_add_port(a, m, "q", CG_DIR_IN, 0, d), -1);
    assert_int_equal(cg_arch_add_wire(a, m, "w", CG_MAX_WIDTH + 1, d), -1);
    cg_prim_params p = params(CG_PRIM_FUNC);
    cg_arch_add_prim(a, m, "f", &p, d);
    assert_int_equal(cg_arch_add_prim(a, m, "f", &p, d), -1);
    p.ops = 0;
    assert_int_equal(cg_arch_add_prim(a, m, "g", &p, d), -1);
    p = params(CG_PRIM_MUX);
    p.ninput = 0;
    assert_int_equal(cg_arch_add_prim(a, m, "x", &p, d), -1);
    p = params(CG_PRIM_REG);
    p.width = 0;
    assert_int_equal(cg_arch_add_prim(a, m, "r", &p, d), -1);
    const char *srcs[] = {"p"};
    cg_arch_connect_select(a, m, srcs, 1, "f.in_a", d);
    assert_int_equal(cg_arch_connect_select(a, m, srcs, 1, "f.in_a", d), -1);
    assert_int_equal(cg_arch_connect_select(a, m, srcs, 0, "f.in_b", d), -1);
    cg_arch_add_memory(a, "spm", 1024, 2, 1, d);
    assert_int_equal(cg_arch_add_memory(a, "spm", 1024, 2, 1, d), -1);
    assert_int_equal(cg_arch_add_memory(a, "odd", 1000, 3, 1, d), -1);
    assert_int_equal(cg_arch_add_memory(a, "busy", 1024, 1, 4097, d), -1);
    cg_dma_params dma;
    cg_dma_params_init(&dma);
    dma.channels = 0;
    assert_int_equal(cg_arch_set_dma(a, &dma, d), -1);
    dma.channels = 1;
    dma.bytes_per_cycle = 1e-15; /* a transfer's cycles past int64_t */
    assert_int_equal(cg_arch_set_dma(a, &dma, d), -1);
    dma.bytes_per_cycle = 4;
    assert_int_equal(cg_arch_set_dma(a, &dma, d), 0);
    assert_int_equal(cg_arch_set_dma(a, &dma, d), -1);
    static const char *const want[] = {
        "b.xml:5: error: duplicate module 'm' (first defined at b.xml:2); "
        "rename one",
        "b.xml:5: error: module name 'IO' is a primitive's; choose another "
        "name",
        "b.xml:5: error: duplicate wire 'p' in module 'm' (first declared at "
        "b.xml:5); rename one",
        "b.xml:5: error: port 'q' in module 'm' needs a width of 1..65536 "
        "(got 0)",
        "b.xml:5: error: wire 'w' in module 'm' needs a width of 1..65536 "
        "(got 65537)",
        "b.xml:5: error: duplicate instance 'f' in module 'm' (first "
        "declared at b.xml:5); rename one",
        "b.xml:5: error: FuncUnit 'g' has no opcodes; give at least one "
        "(opcodes: nop input output const trunc sext zext phi select add sub "
        "mul sdiv udiv srem urem and or xor shl ashr lshr icmp gep load "
        "store)",
        "b.xml:5: error: Multiplexer 'x' needs ninput >= 1 (got 0)",
        "b.xml:5: error: Register 'r' needs width >= 1 (got 0)",
        "b.xml:5: error: 'f.in_a' already has a select-from multiplexer "
        "'f_in_a_mux' (at b.xml:5); list all its sources in one "
        "select-from=",
        "b.xml:5: error: select-from for 'f.in_b' lists no source; give at "
        "least one",
        "b.xml:5: error: duplicate tile memory 'spm' (first declared at "
        "b.xml:5); rename one",
        "b.xml:5: error: tile memory 'odd' needs bytes >= 1, banks of "
        "1..65536 dividing bytes, and ports of 1..4096 (got bytes=1000, "
        "banks=3, ports=1)",
        "b.xml:5: error: tile memory 'busy' needs bytes >= 1, banks of "
        "1..65536 dividing bytes, and ports of 1..4096 (got bytes=1024, "
        "banks=1, ports=4097)",
        "b.xml:5: error: the DMA engine needs ext-bytes >= 0, "
        "bytes-per-cycle 0.001..1048576, setup-cycles >= 0, channels >= 1 "
        "and max-dims 1..8",
        "b.xml:5: error: the DMA engine needs ext-bytes >= 0, "
        "bytes-per-cycle 0.001..1048576, setup-cycles >= 0, channels >= 1 "
        "and max-dims 1..8",
        "b.xml:5: error: second DMA engine (the first is at b.xml:5); an "
        "architecture has one",
    };
    assert_int_equal(cg_diags_size(d), (int)(sizeof want / sizeof *want));
    for (int i = 0; i < cg_diags_size(d); i++)
        expect_diag(d, i, want[i]);
    cg_diags_clear(d);
    /* no top module */
    assert_null(cg_arch_flatten(a, d));
    expect_diag(d, 0, "error: the architecture has no top module; define one "
                      "and call cg_arch_set_top");
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* A select-from multiplexer takes its target's width: 16-bit sources into
 * a 16-bit FuncUnit pin need no size on the mux; a 32-bit source is then
 * a width mismatch at the select's line. */
static void test_select_width(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    int top = cg_arch_module_define(a, "top", d);
    cg_arch_set_top(a, top);
    cg_prim_params fu = params(CG_PRIM_FUNC), k = params(CG_PRIM_CONST);
    fu.width = k.width = 16;
    cg_arch_add_prim(a, top, "f", &fu, d);
    cg_arch_add_prim(a, top, "k", &k, d);
    const char *srcs[] = {"k.out", "f.out"};
    cg_arch_connect_select(a, top, srcs, 2, "f.in_a", d);
    cg_arch_connect(a, top, "k.out", "f.in_b", d);
    cg_netlist *nl = cg_arch_flatten(a, d);
    assert_non_null(nl);
    assert_int_equal(cg_diags_size(d), 0);
    int m = cg_netlist_find_prim(nl, "f_in_a_mux");
    assert_int_equal(cg_netlist_prim(nl, m)->p.width, 16);
    assert_int_equal(cg_netlist_prim(nl, m)->row, -1);
    cg_netlist_destroy(nl);
    k.width = 32;
    cg_arch_set_loc(a, "s.xml", 9);
    cg_arch_add_prim(a, top, "wide", &k, d);
    cg_arch_add_prim(a, top, "g", &fu, d);
    const char *mixed[] = {"k.out", "wide.out"};
    cg_arch_connect_select(a, top, mixed, 2, "g.in_a", d);
    cg_arch_connect(a, top, "k.out", "g.in_b", d);
    assert_null(cg_arch_flatten(a, d));
    assert_int_equal(cg_diags_size(d), 1);
    expect_diag(d, 0, "s.xml:9: error: width mismatch: 'wide.out' is 32 bits "
                      "but 'g_in_a_mux.in1' is 16 bits; give both the same "
                      "size=");
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* A top module without anything: an empty netlist, not an error. */
static void test_empty(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    cg_arch_set_top(a, cg_arch_module_define(a, "architecture", d));
    cg_arch_set_grid(a, 2, 3);
    cg_netlist *nl = cg_arch_flatten(a, d);
    assert_non_null(nl);
    assert_int_equal(cg_diags_size(d), 0);
    assert_int_equal(cg_netlist_nprims(nl), 0);
    assert_int_equal(cg_netlist_find_prim(nl, "x"), -1);
    char *t = nl_text(nl, AS_WRITE);
    assert_string_equal(t, "grid 2 3\n");
    free(t);
    t = nl_text(nl, AS_SUMMARY);
    assert_non_null(strstr(t, "blocks: 0\n"));
    free(t);
    cg_netlist_destroy(nl);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

/* Sixteen copies of sixteen copies ...: m6 would expand to 16^6 registers
 * (51 million instances, ports and connections).  flatten refuses before
 * allocating, naming the smallest module over CG_MAX_NODES; m5 alone fits. */
static void test_too_big(void **state)
{
    (void)state;
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_create();
    cg_prim_params reg = params(CG_PRIM_REG);
    for (int k = 0; k <= 6; k++) {
        char name[16], sub[16];
        snprintf(name, sizeof name, "m%d", k);
        snprintf(sub, sizeof sub, "m%d", k - 1);
        cg_arch_set_loc(a, "big.xml", 10 + k);
        int m = cg_arch_module_define(a, name, d);
        for (int i = 0; i < (k ? 16 : 1); i++) {
            char inst[16];
            snprintf(inst, sizeof inst, "i%d", i);
            if (k)
                cg_arch_add_submodule(a, m, inst, sub, d);
            else
                cg_arch_add_prim(a, m, inst, &reg, d);
        }
    }
    int top = cg_arch_module_define(a, "architecture", d);
    cg_arch_set_top(a, top);
    cg_arch_set_grid(a, 1, 1);
    cg_arch_set_position(a, top, cg_arch_add_submodule(a, top, "b", "m6", d),
                         0, 0);
    assert_int_equal(cg_diags_size(d), 0);
    assert_null(cg_arch_flatten(a, d));
    assert_int_equal(cg_diags_errors(d), 1);
    expect_diag(d, cg_diags_size(d) - 1, "big.xml:16: error: module 'm6' "
                "flattens to more than 16777216 instances, ports, wires and "
                "connections; nest fewer copies");
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hierarchy_and_nets),
        cmocka_unit_test(test_many_names),
        cmocka_unit_test(test_prim_ports),
        cmocka_unit_test(test_flatten_errors),
        cmocka_unit_test(test_unconnected_warning),
        cmocka_unit_test(test_build_errors),
        cmocka_unit_test(test_select_width),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_too_big),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
