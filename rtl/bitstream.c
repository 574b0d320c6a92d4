/* bitstream.c: the configuration of a mapping, bit by bit on the chain
 * the layout (design.c) defines, and its text form.
 *
 * It reads the mapping as the cycle simulator does (verify/sim.c): each
 * placed node sets its unit's fields in the context of its start, each
 * route step sets what drives the next node (a mux select, a register
 * file write or read address, a tristate enable), each immediate its
 * consumer's field, each loop-carried edge its consumer's distance and
 * init value.  Where two settings meet, the later overwrites (a checked
 * mapping never asks for two).  Every bit nothing sets stays 0. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../mapper/model/imm_internal.h"
#include "../mapper/model/model_internal.h"
#include "rtl_internal.h"

typedef struct bs {
    const cg_rtl *r;
    const cg_mrrg *mrrg;
    const cg_dfg *g;
    const cg_mapping *m;
    const uint64_t *inputs;
    cg_rtl_bits *b;
    cg_diags *d;
    int ii;
    int64_t tmin;
    int *reg0;      /* prim * II + c -> first register node of a
                       RegisterFile in context c, -1 */
    uint8_t *init_set; /* prim * II + c -> an init value was set */
    bool failed;
} bs;

static void fail(bs *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void fail(bs *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cg_diags_vadd(s->d, CG_SEV_ERROR, cg_dfg_file(s->g), 0, fmt, ap);
    va_end(ap);
    s->failed = true;
}

static void put(cg_rtl_bits *b, int pos, int width, uint64_t v)
{
    for (int i = 0; i < width; i++)
        b->bit[pos + i] = (uint8_t)((v >> i) & 1);
}

/* Set field name of prim in context c to v; an error when v does not fit
 * (what names the field in the message: "stage of 'x'"). */
static void set(bs *s, int prim, const char *name, int c, uint64_t v)
{
    const cg_rtl_inst *in = &s->r->inst[prim];
    const cg_rtl_field *f = cg__rtl_field(in, name);
    const cg_nl_prim *pr = cg_netlist_prim(s->r->nl, prim);
    if (!f) {
        fail(s, "rtl: %s '%s' has no configuration field '%s'",
             cg_prim_kind_name(pr->p.kind), pr->name, name);
        return;
    }
    if (f->width < 64 && v >> f->width) {
        fail(s, "rtl: %s '%s' needs %s = %llu in context %d, more than its "
             "%d-bit field holds", cg_prim_kind_name(pr->p.kind), pr->name,
             name, (unsigned long long)v, c, f->width);
        return;
    }
    put(s->b, in->base + c * in->per_context + f->offset, f->width, v);
}

static int64_t floordiv(int64_t a, int64_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* The iteration a unit's op counts from: its start's wave. */
static int64_t stage_of(const bs *s, int v)
{
    return floordiv(s->m->start[v], s->ii) - floordiv(s->tmin, s->ii);
}

static uint64_t init_value(const bs *s, int init)
{
    return cg__map_init_value(s->g, init, s->inputs);
}

/* The width of operand 0's value, as the simulator's `from`. */
static int from_width(const bs *s, int v)
{
    for (int e = 0; e < cg_dfg_nedges(s->g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(s->g, e);
        if (x->dst == v && x->operand == 0)
            return cg_dfg_get_node(s->g, x->src)->width;
    }
    return cg_dfg_get_node(s->g, v)->width;
}

static int min(int a, int b) { return a < b ? a : b; }

static void place_func(bs *s, int v, int prim, int c)
{
    const cg_dfg_node *n = cg_dfg_get_node(s->g, v);
    const cg_nl_prim *pr = cg_netlist_prim(s->r->nl, prim);
    int code = cg_rtl_op_code(s->r, prim, n->op);
    if (!code || n->op == CG_OP_INPUT || n->op == CG_OP_LOAD ||
        n->op == CG_OP_STORE) {
        fail(s, "rtl: '%s' (%s) runs on FuncUnit '%s', whose template has "
             "no %s: give it to an IO or MEMUnit", n->name,
             cg_op_name(n->op), pr->name, cg_op_name(n->op));
        return;
    }
    int W = pr->p.width;
    set(s, prim, "op", c, (uint64_t)code);
    if (n->op == CG_OP_ICMP)
        set(s, prim, "pred", c, (uint64_t)n->pred);
    set(s, prim, "w", c, (uint64_t)min(n->width, W));
    if (cg__rtl_field(&s->r->inst[prim], "fw"))
        set(s, prim, "fw", c, (uint64_t)min(from_width(s, v), W));
    if (n->op == CG_OP_CONST)
        set(s, prim, "init", c, cg_trunc((uint64_t)n->value,
                                         min(n->width, W)));
}

static void place_mem(bs *s, int v, int prim, int c)
{
    const cg_dfg_node *n = cg_dfg_get_node(s->g, v);
    int size = n->width == 8 ? 0 : n->width == 16 ? 1 : n->width == 32 ? 2
             : n->width == 64 ? 3 : -1;
    if (size < 0) {
        fail(s, "rtl: %s '%s' accesses %d bits: the MEMUnit template "
             "accesses 8, 16, 32 or 64", cg_op_name(n->op), n->name,
             n->width);
        return;
    }
    set(s, prim, "op", c, n->op == CG_OP_LOAD ? 1 : 2);
    set(s, prim, "size", c, (uint64_t)size);
}

/* Node v on its unit: op, widths, stage, or the IO's or ConstUnit's
 * setting. */
static void place(bs *s, int v)
{
    const cg_dfg_node *n = cg_dfg_get_node(s->g, v);
    const cg_mrrg_node *f = cg_mrrg_get_node(s->mrrg, s->m->place[v]);
    if (!f || f->kind != CG_MRRG_FUNC) {
        fail(s, "rtl: '%s' is not on a function node", n->name);
        return;
    }
    const cg_nl_prim *pr = cg_netlist_prim(s->r->nl, f->prim);
    switch (pr->p.kind) {
    case CG_PRIM_FUNC: place_func(s, v, f->prim, f->context); break;
    case CG_PRIM_MEM: place_mem(s, v, f->prim, f->context); break;
    case CG_PRIM_IO:
        set(s, f->prim, "mode", f->context, n->op == CG_OP_INPUT ? 1 : 2);
        return;
    case CG_PRIM_CONST:
        set(s, f->prim, "value", f->context,
            cg_trunc((uint64_t)n->value, min(n->width, pr->p.width)));
        return;
    default: return;
    }
    int64_t st = stage_of(s, v);
    if (st >= ((int64_t)1 << s->r->p.stage_bits))
        fail(s, "rtl: '%s' starts in wave %lld of the schedule, beyond the "
             "%d-bit stage field: generate the RTL with more stage bits",
             n->name, (long long)st, s->r->p.stage_bits);
    else
        set(s, f->prim, "stage", f->context, (uint64_t)st);
}

/* Index in a port name ("in2" -> 2, "out0" -> 0). */
static int port_index(const char *name)
{
    while (*name && (*name < '0' || *name > '9'))
        name++;
    return atoi(name);
}

/* What makes MRRG edge me (from -> to) carry the value. */
static void route_step(bs *s, int me)
{
    const cg_mrrg_edge *e = cg_mrrg_get_edge(s->mrrg, me);
    const cg_mrrg_node *to = cg_mrrg_get_node(s->mrrg, e->to);
    const cg_mrrg_node *from = cg_mrrg_get_node(s->mrrg, e->from);
    const cg_nl_prim *pr = cg_netlist_prim(s->r->nl, to->prim);
    char name[16];
    if (e->mux_input >= 0) {
        set(s, to->prim, "sel", to->context, (uint64_t)e->mux_input);
    } else if (pr->p.kind == CG_PRIM_TRISTATE && from->prim == to->prim) {
        set(s, to->prim, "en", to->context, 1);
    } else if (pr->p.kind == CG_PRIM_REGFILE && from->prim == to->prim) {
        if (to->port < 0 && from->port >= 0) { /* a write port */
            int w = port_index(cg_netlist_port(s->r->nl, from->port)->name);
            int reg = e->to - s->reg0[to->prim * s->ii + to->context];
            snprintf(name, sizeof name, "wen%d", w);
            set(s, to->prim, name, from->context, 1);
            snprintf(name, sizeof name, "waddr%d", w);
            set(s, to->prim, name, from->context, (uint64_t)reg);
        } else if (to->port >= 0 && from->port < 0) { /* a read port */
            int k = port_index(cg_netlist_port(s->r->nl, to->port)->name);
            int reg = e->from - s->reg0[to->prim * s->ii + from->context];
            snprintf(name, sizeof name, "raddr%d", k);
            set(s, to->prim, name, to->context, (uint64_t)reg);
        }
    }
}

static void route(bs *s, int e)
{
    const cg_dfg_edge *x = cg_dfg_get_edge(s->g, e);
    int at = s->m->place[x->src];
    for (int i = 0; i < s->m->route_len[e] && !s->failed; i++) {
        int to = s->m->route[e][i];
        int me = -1, n;
        const int *out = cg_mrrg_out(s->mrrg, at, &n);
        for (int j = 0; j < n && me < 0; j++)
            if (cg_mrrg_get_edge(s->mrrg, out[j])->to == to)
                me = out[j];
        if (me < 0) {
            fail(s, "rtl: the route of '%s'->'%s' takes a step the array "
                 "does not have", cg_dfg_get_node(s->g, x->src)->name,
                 cg_dfg_get_node(s->g, x->dst)->name);
            return;
        }
        route_step(s, me);
        at = to;
    }
}

/* Edge e's consumer unit and context; false when it is no FuncUnit or
 * MEMUnit operand (an IO's output, say). */
static bool consumer(const bs *s, int e, int *prim, int *c)
{
    const cg_dfg_edge *x = cg_dfg_get_edge(s->g, e);
    const cg_mrrg_node *f = cg_mrrg_get_node(s->mrrg, s->m->place[x->dst]);
    if (!f)
        return false;
    *prim = f->prim;
    *c = f->context;
    return cg__rtl_noperands(cg_netlist_prim(s->r->nl, f->prim)) > 0;
}

static void immediate(bs *s, int e)
{
    const cg_dfg_edge *x = cg_dfg_get_edge(s->g, e);
    const cg_dfg_node *k = cg_dfg_get_node(s->g, x->src);
    int prim, c;
    char name[16];
    if (!consumer(s, e, &prim, &c))
        return;
    int bits = cg__rtl_imm_bits(cg_netlist_prim(s->r->nl, prim));
    snprintf(name, sizeof name, "imm_en%d", x->operand);
    set(s, prim, name, c, 1);
    snprintf(name, sizeof name, "imm%d", x->operand);
    set(s, prim, name, c, cg_trunc((uint64_t)k->value, bits));
}

static void carried(bs *s, int e)
{
    const cg_dfg_edge *x = cg_dfg_get_edge(s->g, e);
    const cg_dfg_node *dst = cg_dfg_get_node(s->g, x->dst);
    int prim, c;
    char name[16];
    if (!consumer(s, e, &prim, &c)) {
        fail(s, "rtl: '%s' reads a loop-carried value (distance %d) on a "
             "unit without an init field", dst->name, x->distance);
        return;
    }
    const cg_nl_prim *pr = cg_netlist_prim(s->r->nl, prim);
    uint64_t v = cg_trunc(init_value(s, x->init), pr->p.width);
    const cg_rtl_inst *in = &s->r->inst[prim];
    const cg_rtl_field *f = cg__rtl_field(in, "init");
    int pos = in->base + c * in->per_context + f->offset;
    uint64_t old = 0;
    for (int i = 0; i < f->width; i++)
        old |= (uint64_t)s->b->bit[pos + i] << i;
    if (s->init_set[prim * s->ii + c] && old != v) {
        fail(s, "rtl: '%s' reads two loop-carried values with different "
             "init values (%llu, %llu) on %s '%s', which holds one per "
             "context", dst->name, (unsigned long long)old,
             (unsigned long long)v, cg_prim_kind_name(pr->p.kind), pr->name);
        return;
    }
    s->init_set[prim * s->ii + c] = 1;
    snprintf(name, sizeof name, "dist%d", x->operand);
    set(s, prim, name, c, (uint64_t)x->distance);
    set(s, prim, "init", c, v);
}

/* First register node of each RegisterFile per context (they are made
 * consecutively, context by context: mrrg.c). */
static int find_regs(bs *s)
{
    int np = cg_netlist_nprims(s->r->nl);
    s->reg0 = malloc(sizeof(int) * ((size_t)np * s->ii + 1));
    s->init_set = calloc((size_t)np * s->ii + 1, 1);
    if (!s->reg0 || !s->init_set)
        return -1;
    memset(s->reg0, -1, sizeof(int) * ((size_t)np * s->ii + 1));
    for (int i = cg_mrrg_nnodes(s->mrrg) - 1; i >= 0; i--) {
        const cg_mrrg_node *n = cg_mrrg_get_node(s->mrrg, i);
        if (n->kind == CG_MRRG_ROUTE && n->port < 0)
            s->reg0[n->prim * s->ii + n->context] = i;
    }
    return 0;
}

static void control(bs *s)
{
    int cb = s->r->cb;
    put(s->b, 0, cb, (uint64_t)(s->ii - 1));
    put(s->b, cb, cb, (uint64_t)cg__modii(s->tmin, s->ii));
}

static void configure(bs *s)
{
    s->tmin = INT64_MAX;
    for (int v = 0; v < s->m->nnodes; v++)
        if (s->m->place[v] >= 0 && s->m->start[v] < s->tmin)
            s->tmin = s->m->start[v];
    if (s->tmin == INT64_MAX)
        s->tmin = 0;
    control(s);
    for (int v = 0; v < s->m->nnodes && !s->failed; v++)
        if (!cg__imm_node(s->m, s->g, v))
            place(s, v);
    for (int e = 0; e < s->m->nedges && !s->failed; e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(s->g, e);
        if (cg__imm_edge(s->m, s->g, e))
            immediate(s, e);
        else
            route(s, e);
        if (!s->failed && x->distance > 0 && !cg__imm_edge(s->m, s->g, e))
            carried(s, e);
    }
}

int cg_rtl_bitstream(const cg_rtl *r, const cg_mrrg *mrrg, const cg_dfg *g,
                     const cg_mapping *m, const uint64_t *inputs,
                     cg_rtl_bits *out, cg_diags *d)
{
    bs s = {r, mrrg, g, m, inputs, out, d, m->ii, 0, NULL, NULL, false};
    out->n = r->length;
    out->bit = calloc((size_t)r->length + 1, 1);
    if (m->ii > r->p.contexts) {
        fail(&s, "rtl: the mapping of '%s' runs at II=%d, above the "
             "array's %d contexts: generate the RTL with --contexts %d or "
             "more", cg_dfg_name(g), m->ii, r->p.contexts, m->ii);
    } else if (!out->bit || find_regs(&s) < 0) {
        fail(&s, "out of memory writing the bitstream of '%s'",
             cg_dfg_name(g));
    } else {
        configure(&s);
    }
    free(s.reg0);
    free(s.init_set);
    if (s.failed) {
        cg_rtl_bits_free(out);
        return -1;
    }
    return 0;
}

void cg_rtl_bits_free(cg_rtl_bits *b)
{
    if (!b)
        return;
    free(b->bit);
    b->bit = NULL;
    b->n = 0;
}

/* ---- text form -------------------------------------------------------- */

int cg_rtl_write_bits(const cg_rtl_bits *b, FILE *out)
{
    fprintf(out, "// cgramap bitstream: %d bits, shift order (chain "
            "position %d first, 0 last)\n", b->n, b->n - 1);
    for (int i = b->n - 1; i >= 0; i--)
        fputs(b->bit[i] ? "1\n" : "0\n", out);
    return cg_write_end(out, true);
}

int cg_rtl_read_bits(FILE *in, const char *file, cg_rtl_bits *out,
                     cg_diags *d)
{
    char line[256];
    int n = 0, cap = 0, lineno = 0;
    uint8_t *v = NULL;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        if (line[0] == '/' || line[0] == '\n')
            continue;
        if ((line[0] != '0' && line[0] != '1') ||
            (line[1] != '\n' && line[1] != 0)) {
            cg_diags_add(d, CG_SEV_ERROR, file, lineno, "a bitstream line "
                         "holds one bit, 0 or 1; this one holds '%s'",
                         CG_QUOTE(strtok(line, "\n")));
            free(v);
            return -1;
        }
        if (CG_GROW(v, cap, n + 1)) {
            cg_diags_add(d, CG_SEV_ERROR, file, 0, "out of memory");
            free(v);
            return -1;
        }
        v[n++] = (uint8_t)(line[0] - '0');
    }
    out->n = n;
    out->bit = malloc((size_t)n + 1);
    if (!out->bit) {
        free(v);
        return -1;
    }
    for (int i = 0; i < n; i++) /* shift order back to positions */
        out->bit[i] = v[n - 1 - i];
    free(v);
    return 0;
}
