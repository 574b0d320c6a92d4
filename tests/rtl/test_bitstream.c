/* test_bitstream.c: bitstreams of the saved mappings of jacobi2d (II 2)
 * and accumulate (II 1) on the default array: written as text and read
 * back bit for bit; disassembled, every placed node's unit holds its op
 * (FuncUnit op code, MEMUnit load or store, IO input or output,
 * ConstUnit value) in its context, every multiplexer on a route selects
 * the route's input, and the contexts from II up are all 0; an II above
 * the contexts and a bad bitstream line are refused with their exact
 * messages. */
#include "mapper/mapping_io.h"
#include "rtl_test_util.h"

typedef struct fx {
    cg_netlist *nl;
    cg_dfg *g;
    cg_mrrg *mrrg;
    cg_mapping *m;
    cg_rtl *r;
    cg_rtl_bits bits;
} fx;

static void fx_load(fx *f, const char *dot, const char *map, int contexts)
{
    cg_diags *d = cg_diags_create();
    cg_arch *a = cg_arch_default(d);
    memset(f, 0, sizeof *f);
    f->nl = cg_arch_flatten(a, d);
    f->g = cg_dfg_read_dot(dot, d);
    f->m = cg_mapping_read(map, f->nl, f->g, &f->mrrg, d);
    cg_rtl_params p;
    cg_rtl_params_init(&p);
    p.contexts = contexts;
    f->r = cg_rtl_create(f->nl, &p, d);
    cg_diags_print(d, stderr);
    assert_non_null(f->m);
    assert_non_null(f->r);
    cg_arch_destroy(a);
    cg_diags_destroy(d);
}

static void fx_free(fx *f)
{
    cg_rtl_bits_free(&f->bits);
    cg_rtl_destroy(f->r);
    cg_mapping_destroy(f->m);
    cg_mrrg_destroy(f->mrrg);
    cg_dfg_destroy(f->g);
    cg_netlist_destroy(f->nl);
}

static uint64_t field(const fx *f, const cg_rtl_bits *b, int mrrg_node,
                      const char *name)
{
    const cg_mrrg_node *n = cg_mrrg_get_node(f->mrrg, mrrg_node);
    return cg_rtl_field_value(f->r, b, n->prim, name, n->context);
}

/* What each placed node asks of its unit is in b. */
static void check_units(const fx *f, const cg_rtl_bits *b)
{
    for (int v = 0; v < f->m->nnodes; v++) {
        const cg_dfg_node *n = cg_dfg_get_node(f->g, v);
        int u = f->m->place[v];
        if (u < 0)
            continue;
        const cg_nl_prim *pr =
            cg_netlist_prim(f->nl, cg_mrrg_get_node(f->mrrg, u)->prim);
        switch (pr->p.kind) {
        case CG_PRIM_FUNC:
            assert_int_equal(field(f, b, u, "op"),
                             cg_rtl_op_code(f->r, cg_mrrg_get_node(f->mrrg,
                                                                   u)->prim,
                                            n->op));
            break;
        case CG_PRIM_MEM:
            assert_int_equal(field(f, b, u, "op"),
                             n->op == CG_OP_LOAD ? 1 : 2);
            break;
        case CG_PRIM_IO:
            assert_int_equal(field(f, b, u, "mode"),
                             n->op == CG_OP_INPUT ? 1 : 2);
            break;
        case CG_PRIM_CONST:
            assert_int_equal(field(f, b, u, "value"),
                             cg_trunc((uint64_t)n->value, n->width));
            break;
        default:
            fail_msg("'%s' on a %s", n->name, cg_prim_kind_name(pr->p.kind));
        }
    }
}

/* Every multiplexer step of every route selects its input; returns how
 * many steps were checked. */
static int check_routes(const fx *f, const cg_rtl_bits *b)
{
    int checked = 0;
    for (int e = 0; e < f->m->nedges; e++) {
        int at = f->m->place[cg_dfg_get_edge(f->g, e)->src];
        for (int i = 0; i < f->m->route_len[e]; i++) {
            int to = f->m->route[e][i], n;
            const int *out = cg_mrrg_out(f->mrrg, at, &n);
            for (int j = 0; j < n; j++) {
                const cg_mrrg_edge *x = cg_mrrg_get_edge(f->mrrg, out[j]);
                if (x->to == to && x->mux_input >= 0) {
                    assert_int_equal(field(f, b, to, "sel"), x->mux_input);
                    checked++;
                }
            }
            at = to;
        }
    }
    return checked;
}

/* Contexts ii .. contexts-1 hold no bit. */
static void check_unused(const fx *f, const cg_rtl_bits *b)
{
    for (int i = 0; i < cg_netlist_nprims(f->nl); i++) {
        const cg_rtl_inst *in = cg_rtl_inst_of(f->r, i);
        for (int c = f->m->ii; c < cg_rtl_get_params(f->r)->contexts; c++)
            for (int k = 0; k < in->per_context; k++)
                assert_int_equal(b->bit[in->base + c * in->per_context + k],
                                 0);
    }
}

static void round_trip(const char *dot, const char *map, int want_ii)
{
    fx f;
    fx_load(&f, dot, map, 4);
    cg_diags *d = cg_diags_create();
    uint64_t in[64] = {0};
    assert_int_equal(cg_rtl_bitstream(f.r, f.mrrg, f.g, f.m, in, &f.bits,
                                      d), 0);
    char *text = NULL, *dis = NULL;
    size_t n = 0, dn = 0;
    FILE *o = open_memstream(&text, &n);
    assert_int_equal(cg_rtl_write_bits(&f.bits, o), 0);
    fclose(o);
    FILE *i = fmemopen(text, n, "r");
    cg_rtl_bits back = {0};
    assert_int_equal(cg_rtl_read_bits(i, "bits.txt", &back, d), 0);
    fclose(i);
    assert_int_equal(back.n, cg_rtl_chain_length(f.r));
    assert_memory_equal(back.bit, f.bits.bit, (size_t)back.n);
    check_units(&f, &back);
    assert_true(check_routes(&f, &back) > 0);
    check_unused(&f, &back);
    o = open_memstream(&dis, &dn);
    assert_int_equal(cg_rtl_disassemble(f.r, &back, o), 0);
    fclose(o);
    char first[64];
    snprintf(first, sizeof first, "ii %d first-context ", want_ii);
    assert_memory_equal(dis, first, strlen(first));
    free(text);
    free(dis);
    cg_rtl_bits_free(&back);
    cg_diags_destroy(d);
    fx_free(&f);
}

static void test_jacobi2d(void **state)
{
    (void)state;
    round_trip("tests/mapper/data/jacobi2d.dot",
               "tests/mapper/data/jacobi2d_ii2.txt", 2);
}

static void test_accumulate(void **state)
{
    (void)state;
    round_trip("tests/mapper/data/accumulate.dot",
               "tests/mapper/data/accumulate.txt", 1);
}

static void test_too_few_contexts(void **state)
{
    (void)state;
    fx f;
    fx_load(&f, "tests/mapper/data/jacobi2d.dot",
            "tests/mapper/data/jacobi2d_ii2.txt", 1);
    cg_diags *d = cg_diags_create();
    assert_int_equal(cg_rtl_bitstream(f.r, f.mrrg, f.g, f.m, NULL, &f.bits,
                                      d), -1);
    char *s = diag_lines(d);
    assert_string_equal(s, "rtl: the mapping of 'jacobi2d' runs at II=2, "
                        "above the array's 1 contexts: generate the RTL "
                        "with --contexts 2 or more\n");
    free(s);
    cg_diags_destroy(d);
    fx_free(&f);
}

static void test_bad_line(void **state)
{
    (void)state;
    char text[] = "// bits\n1\n0\n2\n";
    FILE *i = fmemopen(text, strlen(text), "r");
    cg_diags *d = cg_diags_create();
    cg_rtl_bits b = {0};
    assert_int_equal(cg_rtl_read_bits(i, "b.txt", &b, d), -1);
    fclose(i);
    char *s = cg_diag_format(cg_diags_get(d, 0));
    assert_string_equal(s, "b.txt:4: error: a bitstream line holds one bit, "
                        "0 or 1; this one holds '2'");
    free(s);
    cg_diags_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jacobi2d),
        cmocka_unit_test(test_accumulate),
        cmocka_unit_test(test_too_few_contexts),
        cmocka_unit_test(test_bad_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
