/* run.c: the reference interpreter of a DFG (cg_dfg_run).
 *
 * Every later stage (the simulator of a mapped array, the tiled run) is
 * checked against this file, so it favours being obviously right over being
 * fast: each iteration evaluates the nodes in one topological order over the
 * distance-0 edges in which memory operations keep their id order (program
 * order, dfg.h).  A value produced d iterations ago is kept in a ring of
 * depth max(d)+1 per node.
 */
#include <stdlib.h>
#include <string.h>

#include "dfg_internal.h"

typedef struct runner {
    const cg_dfg *g;
    cg_mem *mem;
    const uint64_t *inputs;
    uint64_t *outputs;
    cg_diags *d;
    int64_t iters;
    int n;
    int depth;          /* ring depth: largest distance + 1 */
    uint64_t *val;      /* n * depth values */
    int *order;         /* evaluation order */
    int *oedge;         /* n * 3: edge feeding each operand, -1 = none */
} runner;

static void run_error(runner *r, int id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void run_error(runner *r, int id, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cg_diags_vadd(r->d, CG_SEV_ERROR, cg_dfg_file(r->g),
                  id >= 0 ? cg_dfg_get_node(r->g, id)->line : 0, fmt, ap);
    va_end(ap);
}

static uint64_t *slot(runner *r, int id, int64_t it)
{
    return &r->val[(size_t)id * (size_t)r->depth + (size_t)(it % r->depth)];
}

/* The value an init node gives a loop-carried edge before its first
 * production; false when it has none (a const without a value). */
static bool init_value(runner *r, const cg_dfg_edge *x, uint64_t *v)
{
    int w = cg_dfg_get_node(r->g, x->src)->width;
    *v = 0;
    if (x->init < 0)
        return true;
    const cg_dfg_node *in = cg_dfg_get_node(r->g, x->init);
    if (in->op == CG_OP_INPUT) {
        *v = cg_trunc(r->inputs ? r->inputs[x->init] : 0, w);
        return true;
    }
    if (!in->has_value) {
        run_error(r, x->init, "const '%s' gives the initial value of '%s' "
                  "but has no value; give it one (value=N in the .dot file)",
                  in->name, cg_dfg_get_node(r->g, x->dst)->name);
        return false;
    }
    *v = cg_trunc((uint64_t)in->value, w);
    return true;
}

/* A const without a value (CGRA-ME files give none) is an error only
 * where its value is read. */
static bool has_value(runner *r, int id)
{
    const cg_dfg_node *n = cg_dfg_get_node(r->g, id);
    if (n->op != CG_OP_CONST || n->has_value)
        return true;
    run_error(r, id, "const '%s' has no value; the interpreter needs one "
              "(value=N in the .dot file)", n->name);
    return false;
}

static bool operands(runner *r, int id, int64_t it, uint64_t *o)
{
    for (int k = 0; k < 3; k++) {
        int e = r->oedge[id * 3 + k];
        o[k] = 0;
        if (e < 0)
            continue;
        const cg_dfg_edge *x = cg_dfg_get_edge(r->g, e);
        if (it < x->distance) {
            if (!init_value(r, x, &o[k]))
                return false;
        } else if (!has_value(r, x->src)) {
            return false;
        } else {
            o[k] = *slot(r, x->src, it - x->distance);
        }
    }
    return true;
}

/* A load or store of width/8 bytes at o[0]. */
static bool access(runner *r, int id, int64_t it, const uint64_t *o,
                   uint64_t *res)
{
    const cg_dfg_node *n = cg_dfg_get_node(r->g, id);
    uint64_t bytes = (uint64_t)n->width / 8, a = o[0];
    cg_mem *m = r->mem;
    if (!m || a < m->base || a - m->base > m->size ||
        m->size - (a - m->base) < bytes) {
        run_error(r, id, "%s '%s' at iteration %lld accesses %llu bytes at "
                  "0x%llx, outside the memory image [0x%llx, 0x%llx)",
                  cg_op_name(n->op), n->name, (long long)it,
                  (unsigned long long)bytes, (unsigned long long)a,
                  (unsigned long long)(m ? m->base : 0),
                  (unsigned long long)(m ? m->base + m->size : 0));
        return false;
    }
    uint8_t *p = m->data + (a - m->base);
    *res = 0;
    if (n->op == CG_OP_STORE) {
        for (uint64_t i = 0; i < bytes; i++)
            p[i] = (uint8_t)(o[1] >> (8 * i));
        return true;
    }
    for (uint64_t i = 0; i < bytes; i++)
        *res |= (uint64_t)p[i] << (8 * i);
    return true;
}

static bool step(runner *r, int id, int64_t it)
{
    const cg_dfg_node *n = cg_dfg_get_node(r->g, id);
    uint64_t o[3], v = 0;
    if (!operands(r, id, it, o))
        return false;
    switch (n->op) {
    case CG_OP_INPUT:
        v = r->inputs ? r->inputs[id] : 0;
        break;
    case CG_OP_CONST:
        v = n->has_value ? (uint64_t)n->value : 0; /* see has_value() */
        break;
    case CG_OP_OUTPUT:
        v = o[0];
        if (r->outputs && it == r->iters - 1)
            r->outputs[id] = cg_trunc(v, n->width);
        break;
    case CG_OP_LOAD:
    case CG_OP_STORE:
        if (!access(r, id, it, o, &v))
            return false;
        break;
    case CG_OP_PHI:
        v = it == 0 ? o[0] : o[1];
        break;
    case CG_OP_GEP:
        v = o[0] + o[1];
        break;
    case CG_OP_NOP:
        v = o[0];
        break;
    default: {
        int e0 = r->oedge[id * 3];
        int from = e0 >= 0 ? cg_dfg_get_node(
                                 r->g, cg_dfg_get_edge(r->g, e0)->src)->width
                           : n->width;
        if (!cg_op_eval(n->op, n->pred, n->width, from, o, &v)) {
            run_error(r, id, "%s '%s' divides by zero at iteration %lld",
                      cg_op_name(n->op), n->name, (long long)it);
            return false;
        }
    }
    }
    *slot(r, id, it) = cg_trunc(v, n->width);
    return true;
}

static int setup(runner *r)
{
    int depth = 1;
    for (int e = 0; e < cg_dfg_nedges(r->g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(r->g, e);
        if (x->distance + 1 > depth)
            depth = x->distance + 1;
        if (x->operand >= 0 && x->operand < 3)
            r->oedge[x->dst * 3 + x->operand] = e;
    }
    r->depth = depth;
    r->val = calloc((size_t)r->n * (size_t)depth, sizeof *r->val);
    if (!r->val)
        return -1;
    return cg__dfg_topo(r->g, true, r->order) == r->n ? 0 : -1;
}

int cg_dfg_run(const cg_dfg *g, int64_t iters, cg_mem *mem,
               const uint64_t *inputs, uint64_t *outputs, cg_diags *d)
{
    if (iters < 0) {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "cannot run '%s' for %lld iterations; give 0 or more",
                     cg_dfg_name(g), (long long)iters);
        return -1;
    }
    if (cg_dfg_check(g, d) != 0)
        return -1;
    runner r = {.g = g, .mem = mem, .inputs = inputs, .outputs = outputs,
                .d = d, .iters = iters, .n = cg_dfg_nnodes(g)};
    size_t n = (size_t)r.n + 1;
    r.order = malloc(n * sizeof *r.order);
    r.oedge = malloc(3 * n * sizeof *r.oedge);
    int rc = -1;
    if (r.order && r.oedge) {
        memset(r.oedge, -1, 3 * n * sizeof *r.oedge);
        rc = setup(&r);
        if (rc != 0)
            cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                         "out of memory running '%s'", cg_dfg_name(g));
    }
    for (int64_t it = 0; rc == 0 && it < iters; it++)
        for (int i = 0; rc == 0 && i < r.n; i++)
            if (!step(&r, r.order[i], it))
                rc = -1;
    free(r.val);
    free(r.order);
    free(r.oedge);
    return rc;
}
