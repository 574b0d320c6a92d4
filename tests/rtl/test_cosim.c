/* test_cosim.c: RTL co-simulation (verify/rtl.c).  Loops mapped on
 * tests/rtl/data/rf_2x2.xml -- FuncUnits, ConstUnits, register files,
 * MEMUnits, registers, multiplexers, tristates and IOs all configured --
 * run in Verilator and leave the cycle simulator's memory and live-outs;
 * the saved mappings of accumulate and jacobi2d on the default array do
 * so in Icarus Verilog; a bitstream with one bit flipped (a store's size)
 * is caught: "no: memory at ...".  A cache folder named relative to the
 * working folder works.  A missing simulator fails the test with the way
 * to install it. */
#include <unistd.h>

#include "mapper/mapping_io.h"
#include "verify/rtl.h"
#include "verify/verify.h"
#include "rtl_test_util.h"

#define BASE 0x10000
#define SIZE 0x1000

typedef struct fx {
    cg_netlist *nl;
    cg_dfg *g;
    cg_mrrg *mrrg;
    cg_mapping *m;
    cg_map_result res;
} fx;

/* g mapped on nl: read from map, or mapped by the heuristic. */
static void fx_load(fx *f, const char *arch, const char *dot, const char *map)
{
    cg_diags *d = cg_diags_create();
    memset(f, 0, sizeof *f);
    cg_arch *a = arch ? cg_xml_read(arch, NULL, d) : cg_arch_default(d);
    f->nl = a ? cg_arch_flatten(a, d) : NULL;
    f->g = cg_dfg_read_dot(dot, d);
    if (map) {
        f->m = cg_mapping_read(map, f->nl, f->g, &f->mrrg, d);
    } else {
        cg_map_params p;
        cg_map_params_init(&p);
        p.search = CG_SEARCH_HEURISTIC;
        assert_int_equal(cg_map(f->nl, f->g, &p, &f->res, d), 0);
        f->m = f->res.mapping;
        f->mrrg = f->res.mrrg;
    }
    cg_diags_print(d, stderr);
    assert_non_null(f->m);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

static void fx_free(fx *f)
{
    if (f->res.mapping) {
        cg_map_result_free(&f->res);
    } else {
        cg_mapping_destroy(f->m);
        cg_mrrg_destroy(f->mrrg);
    }
    cg_dfg_destroy(f->g);
    cg_netlist_destroy(f->nl);
}

/* The chain position of bit 0 of the size field of the store's MEMUnit. */
static int store_size_bit(const fx *f)
{
    cg_rtl_params p;
    cg_rtl_params_init(&p);
    cg_diags *d = cg_diags_create();
    cg_rtl *r = cg_rtl_create(f->nl, &p, d);
    int pos = -1;
    for (int v = 0; v < f->m->nnodes && pos < 0; v++)
        if (cg_dfg_get_node(f->g, v)->op == CG_OP_STORE) {
            const cg_mrrg_node *n = cg_mrrg_get_node(f->mrrg, f->m->place[v]);
            const cg_rtl_inst *in = cg_rtl_inst_of(r, n->prim);
            for (int k = 0; k < in->nfields; k++)
                if (!strcmp(in->fields[k].name, "size"))
                    pos = in->base + n->context * in->per_context +
                          in->fields[k].offset;
        }
    cg_rtl_destroy(r);
    cg_diags_destroy(d);
    return pos;
}

/* Simulate f's mapping on a patterned image, then co-simulate it with
 * tool (flipping bit flip when >= 0), the models in cache; the row's rtl
 * word. */
static char *cosim(fx *f, cg_cosim_tool tool, int flip, int64_t iters,
                   const char *cache)
{
    size_t nn = (size_t)cg_dfg_nnodes(f->g) + 1;
    uint8_t *b = malloc(SIZE), *a = malloc(SIZE);
    uint64_t *in = calloc(nn, 8), *out = calloc(nn, 8);
    for (int i = 0; i < SIZE; i++)
        b[i] = (uint8_t)(i * 37 + 11);
    for (size_t v = 0; v + 1 < nn; v++)
        in[v] = BASE + 0x400; /* live-ins: addresses inside the image */
    memcpy(a, b, SIZE);
    cg_mem before = {b, BASE, SIZE}, after = {a, BASE, SIZE};
    cg_diags *d = cg_diags_create();
    int rc = cg_sim_run(f->nl, f->mrrg, f->g, f->m, iters, &after, in, out,
                        d);
    cg_diags_print(d, stderr);
    assert_int_equal(rc, 0);
    cg_cosim_params p;
    cg_cosim_params_init(&p);
    p.tool = tool;
    p.cache_dir = cache;
    p.flip_bit = flip;
    cg_cosim_result res;
    assert_int_equal(cg_cosim_run(f->nl, f->mrrg, f->g, f->m, iters, &before,
                                  in, &after, out, &p, &res, d), 0);
    char *text = malloc(1024);
    cg_cosim_text(&res, text, 1024);
    cg_diags_destroy(d);
    free(a);
    free(b);
    free(in);
    free(out);
    return text;
}

static void same(const char *arch, const char *dot, const char *map,
                 cg_cosim_tool tool)
{
    need_tool(cg_cosim_tool_name(tool));
    fx f;
    fx_load(&f, arch, dot, map);
    char *s = cosim(&f, tool, -1, 16, cache_dir());
    if (strcmp(s, "yes"))
        fail_msg("%s on %s: rtl %s", dot, arch ? arch : "the default", s);
    free(s);
    fx_free(&f);
}

static void test_rf_verilator(void **state)
{
    (void)state;
    static const char *const loops[] = {"sum", "narrow", "relu"};
    for (int i = 0; i < 3; i++) {
        char dot[128];
        snprintf(dot, sizeof dot, "tests/rtl/data/%s.dot", loops[i]);
        same("tests/rtl/data/rf_2x2.xml", dot, NULL, CG_COSIM_VERILATOR);
    }
}

static void test_default_iverilog(void **state)
{
    (void)state;
    same(NULL, "tests/mapper/data/accumulate.dot",
         "tests/mapper/data/accumulate.txt", CG_COSIM_IVERILOG);
    same(NULL, "tests/mapper/data/jacobi2d.dot",
         "tests/mapper/data/jacobi2d_ii2.txt", CG_COSIM_IVERILOG);
}

static void test_broken_bitstream(void **state)
{
    (void)state;
    need_tool("iverilog");
    fx f;
    fx_load(&f, NULL, "tests/mapper/data/accumulate.dot",
            "tests/mapper/data/accumulate.txt");
    int pos = store_size_bit(&f);
    assert_true(pos > 0);
    char *s = cosim(&f, CG_COSIM_IVERILOG, pos, 16, cache_dir());
    if (strncmp(s, "no: memory at 0x", 16))
        fail_msg("a store of 8 bytes instead of 4 went unseen: rtl %s", s);
    free(s);
    fx_free(&f);
}

/* A cache folder named relative to the working folder (--rtl-cache
 * rtl-cache) still finds its model from the run's own folder. */
static void test_relative_cache(void **state)
{
    (void)state;
    need_tool("iverilog");
    fx f;
    fx_load(&f, NULL, "tests/mapper/data/accumulate.dot",
            "tests/mapper/data/accumulate.txt");
    char here[4096];
    assert_non_null(getcwd(here, sizeof here));
    const char *b = getenv("CG_BINARY_DIR");
    assert_non_null(b);
    assert_int_equal(chdir(b), 0);
    char *s = cosim(&f, CG_COSIM_IVERILOG, -1, 16, "rtl-cache");
    assert_int_equal(chdir(here), 0);
    assert_string_equal(s, "yes");
    free(s);
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rf_verilator),
        cmocka_unit_test(test_default_iverilog),
        cmocka_unit_test(test_broken_bitstream),
        cmocka_unit_test(test_relative_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
