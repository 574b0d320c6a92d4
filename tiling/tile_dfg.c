/* tile_dfg.c: the DFG of a tile.  The loop DFG is rewritten so that one
 * inner-loop run of any tile executes on the tile memory:
 *
 *   - accesses of one array with the same coefficients form a group; the
 *     group's address is an affine stream in the array's buffer, a
 *     recurrence addr = addr + stride (stride: the tagged loop's step in the
 *     buffer) whose first value is a live-in computed per run from the tile
 *     origin and the buffer layout (cg_tile_plan_layout); each access adds
 *     its constant offset from the group's first access;
 *   - induction variables (x = x + c) restart at the run's first iteration
 *     through a live-in start value, so other uses of counters stay right;
 *   - the old address arithmetic, the exit test and the live-outs die.
 *
 * Nothing in the result depends on a tile's shape or position: the stream
 * starts and the trip count are run parameters.  So one DFG, mapped once,
 * serves every tile of the plan, boundary tiles included.
 */
#include "../common/util.h"
#include "tile_internal.h"

#include <stdlib.h>
#include <string.h>

/* How the tile DFG's input nodes get their value in a run. */
typedef enum in_kind {
    IN_BASE,    /* first address of an access group */
    IN_START,   /* an induction variable's value at the run's first
                   iteration */
    IN_LIVEIN   /* a live-in of the loop DFG, unchanged */
} in_kind;

typedef struct tile_in {
    in_kind kind;
    int acc;          /* IN_BASE: the group's first access (model index) */
    int init;         /* IN_START: the loop DFG's init node; IN_LIVEIN: the
                         loop DFG's input node */
    int64_t step;     /* IN_START: increment per iteration */
} tile_in;

struct cg_tile_dfg {
    const cg_tile_plan *p;   /* borrowed */
    const cg_dfg *loop;      /* borrowed: the loop DFG */
    cg_dfg *g;               /* the tile DFG */
    tile_in *in;             /* by tile DFG node id (inputs only) */
};

/* ---- induction variables --------------------------------------------- */

/* Node id is an induction variable: add(id@1, const c) (or sub), every
 * loop-carried use of it at distance 1 with one init node.  *step = c per
 * iteration, *init = that init node (-1 when it has none). */
static bool is_iv(const cg_dfg *g, int id, int64_t *step, int *init)
{
    const cg_dfg_node *n = cg_dfg_get_node(g, id);
    if (n->op != CG_OP_ADD && n->op != CG_OP_SUB)
        return false;
    int self = -1, cst = -1;
    for (int k = 0; k < 2; k++) {
        int e = cg_dfg_operand_edge(g, id, k);
        if (e < 0)
            return false;
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        const cg_dfg_node *s = cg_dfg_get_node(g, x->src);
        if (x->src == id && x->distance == 1 && self < 0)
            self = k;
        else if (s->op == CG_OP_CONST && s->has_value && x->distance == 0)
            cst = k;
    }
    if (self < 0 || cst < 0 || (n->op == CG_OP_SUB && self != 0))
        return false;
    const cg_dfg_node *c =
        cg_dfg_get_node(g, cg_dfg_get_edge(g, cg_dfg_operand_edge(g, id, cst))->src);
    *step = n->op == CG_OP_SUB ? -c->value : c->value;
    *init = -2;
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        if (x->src != id || x->distance == 0)
            continue;
        if (x->distance != 1 || (*init != -2 && x->init != *init))
            return false;
        *init = x->init;
    }
    return *init != -2;
}

bool cg_tile_dfg_carries(const cg_dfg *g)
{
    for (int e = 0; e < cg_dfg_nedges(g); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(g, e);
        int64_t step;
        int init;
        if (x->distance > 0 && !is_iv(g, x->src, &step, &init))
            return true;
    }
    return false;
}

/* ---- building ---------------------------------------------------------- */

typedef struct builder {
    const cg_tile_plan *p;
    const cg_tile_model *m;
    const cg_dfg *loop;
    cg_dfg *g;
    tile_in *in;            /* by node id of g, grown with g */
    int cap;
    int *new_id;            /* after prune: loop DFG node id -> g's, or -1 */
    cg_diags *d;
} builder;

static int add_node(builder *b, cg_op op, int width, const char *name)
{
    int id = cg_dfg_add_node(b->g, op, width, name);
    if (id < 0)
        return -1;
    int old = b->cap;
    if (CG_GROW(b->in, b->cap, id + 1))
        return -1;
    memset(b->in + old, 0, (size_t)(b->cap - old) * sizeof *b->in);
    return id;
}

static int add_const(builder *b, int64_t v, int width, int line)
{
    int id = add_node(b, CG_OP_CONST, width, NULL);
    if (id >= 0) {
        cg_dfg_set_value(b->g, id, width < 64 ? cg_sext((uint64_t)v, width)
                                              : v);
        cg_dfg_node_mut(b->g, id)->line = line;
    }
    return id;
}

/* A copy of the loop DFG: same ids, names and edges. */
static int copy_loop(builder *b)
{
    const cg_dfg *s = b->loop;
    for (int i = 0; i < cg_dfg_nnodes(s); i++) {
        const cg_dfg_node *a = cg_dfg_get_node(s, i);
        int id = add_node(b, a->op, a->width, a->name);
        if (id < 0)
            return -1;
        cg_dfg_node *n = cg_dfg_node_mut(b->g, id);
        n->pred = a->pred;
        n->line = a->line;
        n->has_value = a->has_value;
        n->value = a->value;
        n->bank = a->bank;
        if (a->sym)
            cg_dfg_set_sym(b->g, id, a->sym);
        if (a->op == CG_OP_INPUT)
            b->in[id] = (tile_in){IN_LIVEIN, -1, i, 0};
    }
    for (int e = 0; e < cg_dfg_nedges(s); e++) {
        const cg_dfg_edge *x = cg_dfg_get_edge(s, e);
        if (cg_dfg_add_edge(b->g, x->src, x->dst, x->operand, x->distance,
                            x->init) < 0)
            return -1;
    }
    return 0;
}

static bool same_coefs(const cg_tile_model *m, const cg_tile_access_info *x,
                       const cg_tile_access_info *y)
{
    if (x->array != y->array)
        return false;
    int D = m->arrays[x->array].ndims;
    for (int d = 0; d < D; d++)
        for (int l = 0; l < m->nloops; l++)
            if (x->coef[d][l] != y->coef[d][l])
                return false;
    return true;
}

/* Byte pitches of array a's buffer (the same for every tile). */
static void pitches(const builder *b, int a, int64_t *pitch)
{
    cg_tile_box box;
    int64_t addr;
    cg_tile_plan_layout(b->p, a, 0, &box, &addr, pitch);
}

/* The group of access i starting at access `first`: its stream (made when
 * first == i) and the address edge of access i. */
static int rebase_access(builder *b, int i, int first, int *stream,
                         int *base)
{
    const cg_tile_model *m = b->m;
    const cg_tile_access_info *x = &m->acc[i], *r = &m->acc[first];
    int a = x->array, D = m->arrays[a].ndims, L = m->nloops;
    int line = cg_dfg_get_node(b->g, x->node)->line;
    int64_t pitch[CG_TILE_MAX_DIMS], stride = 0, off = 0;
    pitches(b, a, pitch);
    for (int d = 0; d < D; d++) {
        stride += x->coef[d][L - 1] * pitch[d];
        off += (x->cst[d] - r->cst[d]) * pitch[d];
    }
    /* the width of the group's first address in the loop (the extractor
     * narrows it to the address width): exact here too while the tile
     * memory's addresses, 0 .. its bytes, fit in it */
    int w = cg_dfg_get_node(b->loop, cg_dfg_get_edge(b->loop,
            cg_dfg_operand_edge(b->loop, r->node, 0))->src)->width;
    if (w < 63 && b->p->t.mem_bytes > (int64_t)1 << w)
        w = 64;
    char nm[160];
    if (first == i) {
        snprintf(nm, sizeof nm, "%s.base", m->arrays[a].name);
        *base = add_node(b, CG_OP_INPUT, w, nm);
        if (*base < 0)
            return -1;
        b->in[*base] = (tile_in){IN_BASE, first, -1, 0};
        *stream = -1;
        if (stride) {
            snprintf(nm, sizeof nm, "%s.addr", m->arrays[a].name);
            int c = add_const(b, stride, w, line);
            *stream = add_node(b, CG_OP_ADD, w, nm);
            if (c < 0 || *stream < 0 ||
                cg_dfg_add_edge(b->g, *stream, *stream, 0, 1, *base) < 0 ||
                cg_dfg_add_edge(b->g, c, *stream, 1, 0, -1) < 0)
                return -1;
            cg_dfg_node_mut(b->g, *stream)->line = line;
        }
    }
    /* the group's address in this iteration */
    int src = *stream >= 0 ? *stream : *base, dist = *stream >= 0 ? 1 : 0;
    int init = *stream >= 0 ? *base : -1;
    if (off) {
        int c = add_const(b, off, w, line);
        snprintf(nm, sizeof nm, "%s.off", m->arrays[a].name);
        int s = add_node(b, CG_OP_ADD, w, nm);
        if (c < 0 || s < 0 || cg_dfg_add_edge(b->g, src, s, 0, dist, init) < 0 ||
            cg_dfg_add_edge(b->g, c, s, 1, 0, -1) < 0)
            return -1;
        cg_dfg_node_mut(b->g, s)->line = line;
        src = s;
        dist = 0;
        init = -1;
    }
    cg_dfg_edge *e = cg_dfg_edge_mut(b->g, cg_dfg_operand_edge(b->g, x->node, 0));
    e->src = src;
    e->distance = dist;
    e->init = init;
    cg_dfg_node_mut(b->g, x->node)->bank = b->p->buf[a].bank;
    return 0;
}

static int rebase_accesses(builder *b)
{
    const cg_tile_model *m = b->m;
    int *first = malloc(((size_t)m->naccesses + 1) * sizeof *first);
    int *stream = malloc(((size_t)m->naccesses + 1) * sizeof *stream);
    int *base = malloc(((size_t)m->naccesses + 1) * sizeof *base);
    int rc = first && stream && base ? 0 : -1;
    for (int i = 0; i < m->naccesses && rc == 0; i++) {
        first[i] = i;
        for (int j = 0; j < i; j++)
            if (first[j] == j && same_coefs(m, &m->acc[i], &m->acc[j])) {
                first[i] = j;
                break;
            }
        int f = first[i];
        rc = rebase_access(b, i, f, &stream[f], &base[f]);
    }
    free(first);
    free(stream);
    free(base);
    return rc;
}

/* Induction variables restart at the run's first iteration: their
 * loop-carried uses read a live-in start value instead of the loop's. */
static int restart_ivs(builder *b)
{
    int n = cg_dfg_nnodes(b->loop);
    for (int id = 0; id < n; id++) {
        int64_t step;
        int init;
        if (!is_iv(b->loop, id, &step, &init))
            continue;
        char nm[160];
        snprintf(nm, sizeof nm, "%s.start", cg_dfg_get_node(b->loop, id)->name);
        int s = add_node(b, CG_OP_INPUT, cg_dfg_get_node(b->loop, id)->width,
                         nm);
        if (s < 0)
            return -1;
        b->in[s] = (tile_in){IN_START, -1, init, step};
        for (int e = 0; e < cg_dfg_nedges(b->g); e++) {
            cg_dfg_edge *x = cg_dfg_edge_mut(b->g, e);
            if (x->src == id && x->distance > 0)
                x->init = s;
        }
    }
    return 0;
}

/* The plan's accesses are this graph's loads and stores. */
static int check_accesses(builder *b)
{
    for (int i = 0; i < b->m->naccesses; i++) {
        const cg_tile_access_info *x = &b->m->acc[i];
        const cg_dfg_node *n = cg_dfg_get_node(b->loop, x->node);
        if (!n || n->op != (x->is_store ? CG_OP_STORE : CG_OP_LOAD) ||
            cg_dfg_operand_edge(b->loop, x->node, 0) < 0) {
            cg_diags_add(b->d, CG_SEV_ERROR, cg_dfg_file(b->loop), 0,
                         "loop '%s': the plan's access %d (node %d) is not a "
                         "%s of this DFG; build the tile DFG from the DFG "
                         "the plan was made from", cg_dfg_name(b->loop), i,
                         x->node, x->is_store ? "store" : "load");
            return -1;
        }
    }
    return 0;
}

/* A value leaving the loop (other than its exit test) would be lost: a
 * tiled run keeps only memory. */
static int check_outputs(builder *b)
{
    if (check_accesses(b) < 0)
        return -1;
    int rc = 0;
    for (int id = 0; id < cg_dfg_nnodes(b->loop); id++) {
        const cg_dfg_node *n = cg_dfg_get_node(b->loop, id);
        if (n->op == CG_OP_PHI) {
            cg_diags_add(b->d, CG_SEV_ERROR, cg_dfg_file(b->loop), n->line,
                         "loop '%s': node '%s' is a phi; tile DFGs need "
                         "phi removal (drop -no-phi-removal)",
                         cg_dfg_name(b->loop), n->name);
            return -1;
        }
        if (n->op != CG_OP_OUTPUT || strcmp(n->name, "loop_exit") == 0)
            continue;
        cg_diags_add(b->d, CG_SEV_ERROR, cg_dfg_file(b->loop), n->line,
                     "loop '%s': a value leaves the loop (output '%s'); a "
                     "tiled run keeps only memory (store the value inside "
                     "the loop)",
                     cg_dfg_name(b->loop), n->name);
        rc = -1;
    }
    return rc;
}

/* The nest's record of the loop DFG's input node id, NULL when none. */
static const cg_nest_livein *nest_livein(const cg_nest *n, int id)
{
    for (int i = 0; n && i < n->nliveins; i++)
        if (n->liveins[i].node == id)
            return &n->liveins[i];
    return NULL;
}

/* A live-in the tile DFG keeps that may change between executions of the
 * loop (not affine in the outer counters): a run of a tile gets one value,
 * so no tiled run computes what the loop does.  0, or -1 with an error
 * for each. */
static int check_liveins(builder *b)
{
    const cg_nest *n = cg_dfg_nest(b->loop);
    int rc = 0;
    for (int id = 0; id < cg_dfg_nnodes(b->g); id++) {
        /* a live-in kept, or one that starts an induction variable */
        if (cg_dfg_get_node(b->g, id)->op != CG_OP_INPUT ||
            (b->in[id].kind != IN_LIVEIN && b->in[id].kind != IN_START))
            continue;
        const cg_nest_livein *li = nest_livein(n, b->in[id].init);
        if (!li || !li->varies)
            continue;
        const cg_dfg_node *x = cg_dfg_get_node(b->loop, li->node);
        cg_diags_add(b->d, CG_SEV_ERROR, cg_dfg_file(b->loop), x->line,
                     "loop '%s': live-in '%s' is computed in a loop around "
                     "it and is not affine in its counters, so no run of a "
                     "tile can be given its value; when clang hoisted a load "
                     "out of the loop, build with -mllvm "
                     "-enable-load-pre=false (a Makefile's CFLAGS), else "
                     "compute it inside the tagged loop",
                     cg_dfg_name(b->loop), x->sym ? x->sym : x->name);
        rc = -1;
    }
    return rc;
}

/* Keep what some store needs (through operands and initial values). */
static int prune(builder *b)
{
    int n = cg_dfg_nnodes(b->g), ne = cg_dfg_nedges(b->g);
    bool *keep = calloc((size_t)n + 1, sizeof *keep);
    int *stack = malloc(((size_t)n + 1) * sizeof *stack);
    int *new_id = malloc(((size_t)n + 1) * sizeof *new_id);
    if (!keep || !stack || !new_id) {
        free(keep);
        free(stack);
        free(new_id);
        return -1;
    }
    int sp = 0;
    for (int id = 0; id < n; id++)
        if (cg_dfg_get_node(b->g, id)->op == CG_OP_STORE) {
            keep[id] = true;
            stack[sp++] = id;
        }
    while (sp > 0) {
        int v = stack[--sp];
        for (int e = 0; e < ne; e++) {
            const cg_dfg_edge *x = cg_dfg_get_edge(b->g, e);
            int u[2] = {x->dst == v ? x->src : -1,
                        x->dst == v ? x->init : -1};
            for (int k = 0; k < 2; k++)
                if (u[k] >= 0 && !keep[u[k]]) {
                    keep[u[k]] = true;
                    stack[sp++] = u[k];
                }
        }
    }
    cg_dfg_compact(b->g, keep, NULL, new_id);
    for (int id = 0; id < n; id++)
        if (new_id[id] >= 0)
            b->in[new_id[id]] = b->in[id];
    free(keep);
    free(stack);
    b->new_id = new_id;
    return 0;
}

/* The tile DFG's own nest: the loops counted from 0 by 1 (counters are
 * iteration numbers), one array per buffer, each access's byte offset in
 * its buffer as an affine map.  The mapper's memory order reads it: two
 * arrays' buffers never overlap, and accesses of one group are a constant
 * apart, so only real dependences order memory operations. */
static int attach_nest(builder *b)
{
    const cg_tile_model *m = b->m;
    cg_nest *n = calloc(1, sizeof *n);
    if (!n)
        return -1;
    n->nloops = m->nloops;
    for (int l = 0; l < m->nloops; l++)
        n->loops[l] = (cg_nest_loop){strdup(m->loop_name[l]),
                                     m->loop_line[l], 0, 1, m->trip[l], NULL,
                                     false};
    n->arrays = calloc((size_t)m->narrays + 1, sizeof *n->arrays);
    n->accesses = calloc((size_t)m->naccesses + 1, sizeof *n->accesses);
    if (!n->arrays || !n->accesses) {
        cg_nest_destroy(n);
        return -1;
    }
    n->narrays = m->narrays;
    for (int a = 0; a < m->narrays; a++) {
        const cg_tile_buffer *buf = &b->p->buf[a];
        int es = m->arrays[a].elem_size;
        n->arrays[a] = (cg_nest_array){strdup(m->arrays[a].name), buf->addr[0],
                                       buf->bytes, es, 1,
                                       {buf->bytes / (es ? es : 1)}};
    }
    for (int i = 0; i < m->naccesses; i++) {
        const cg_tile_access_info *x = &m->acc[i];
        int id = b->new_id[x->node];
        if (id < 0)
            continue; /* a load nothing needs */
        int64_t pitch[CG_TILE_MAX_DIMS];
        pitches(b, x->array, pitch);
        cg_nest_access *na = &n->accesses[n->naccesses++];
        *na = (cg_nest_access){id, x->is_store, x->array, {true, 0, {0}}};
        for (int d = 0; d < m->arrays[x->array].ndims; d++) {
            na->index.cst += x->cst[d] * pitch[d];
            for (int l = 0; l < m->nloops; l++)
                na->index.coef[l] += x->coef[d][l] * pitch[d];
        }
    }
    cg_dfg_set_nest(b->g, n);
    return 0;
}

cg_tile_dfg *cg_tile_dfg_build(const cg_tile_plan *p, const cg_dfg *loop,
                               cg_diags *d)
{
    char nm[200];
    snprintf(nm, sizeof nm, "%s.tile", cg_dfg_name(loop));
    builder b = {p, p->m, loop, cg_dfg_create(nm), NULL, 0, NULL, d};
    cg_tile_dfg *t = calloc(1, sizeof *t);
    if (!b.g || !t) {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(loop), 0, "out of memory");
        cg_dfg_destroy(b.g);
        free(t);
        return NULL;
    }
    cg_dfg_set_file(b.g, cg_dfg_file(loop));
    int rc = check_outputs(&b);
    if (rc == 0 && cg_dfg_nnodes(loop) != 0 &&
        (copy_loop(&b) < 0 || rebase_accesses(&b) < 0 ||
         restart_ivs(&b) < 0 || prune(&b) < 0 || attach_nest(&b) < 0)) {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(loop), 0, "out of memory");
        rc = -1;
    }
    if (rc == 0)
        rc = check_liveins(&b);
    free(b.new_id);
    if (rc < 0) {
        cg_dfg_destroy(b.g);
        free(b.in);
        free(t);
        return NULL;
    }
    *t = (cg_tile_dfg){p, loop, b.g, b.in};
    return t;
}

void cg_tile_dfg_destroy(cg_tile_dfg *t)
{
    if (!t)
        return;
    cg_dfg_destroy(t->g);
    free(t->in);
    free(t);
}

const cg_dfg *cg_tile_dfg_graph(const cg_tile_dfg *t) { return t->g; }

const cg_tile_plan *cg_tile_dfg_plan(const cg_tile_dfg *t) { return t->p; }

/* ---- run inputs -------------------------------------------------------- */

/* Value of the loop DFG's live-in node id at outer iterations k. */
static int livein_value(const cg_tile_dfg *t, int id, const int64_t *k,
                        const uint64_t *invariant, uint64_t *v, cg_diags *d)
{
    const cg_nest *n = cg_dfg_nest(t->loop);
    const cg_nest_livein *li = nest_livein(n, id);
    if (li && li->value.is_affine) {
        int64_t x = li->value.cst;
        for (int l = 0; l < n->nloops - 1; l++)
            x += li->value.coef[l] * (n->loops[l].start + n->loops[l].step * k[l]);
        *v = (uint64_t)x;
        return 0;
    }
    if (invariant) {
        *v = invariant[id];
        return 0;
    }
    const cg_dfg_node *nd = cg_dfg_get_node(t->loop, id);
    cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(t->loop), nd->line,
                 "loop '%s': live-in '%s' is not affine in the outer "
                 "counters; the tiled run needs its value (invariant "
                 "inputs)", cg_dfg_name(t->loop), nd->sym ? nd->sym : nd->name);
    return -1;
}

/* First address of access group `acc` in tile `tile` at iterations k. */
static uint64_t base_value(const cg_tile_dfg *t, int acc, int64_t tile,
                           const int64_t *k)
{
    const cg_tile_model *m = t->p->m;
    const cg_tile_access_info *x = &m->acc[acc];
    cg_tile_box box;
    int64_t addr, pitch[CG_TILE_MAX_DIMS];
    cg_tile_plan_layout(t->p, x->array, tile, &box, &addr, pitch);
    for (int d = 0; d < m->arrays[x->array].ndims; d++) {
        int64_t idx = x->cst[d];
        for (int l = 0; l < m->nloops; l++)
            idx += x->coef[d][l] * k[l];
        addr += (idx - box.lo[d]) * pitch[d];
    }
    return (uint64_t)addr;
}

int cg_tile_dfg_inputs(const cg_tile_dfg *t, int64_t tile, const int64_t *k,
                       const uint64_t *invariant, uint64_t *inputs,
                       cg_diags *d)
{
    int L = t->p->m->nloops;
    for (int id = 0; id < cg_dfg_nnodes(t->g); id++) {
        if (cg_dfg_get_node(t->g, id)->op != CG_OP_INPUT)
            continue;
        const tile_in *in = &t->in[id];
        uint64_t v = 0;
        switch (in->kind) {
        case IN_BASE:
            v = base_value(t, in->acc, tile, k);
            break;
        case IN_START:
            if (in->init >= 0) {
                const cg_dfg_node *c = cg_dfg_get_node(t->loop, in->init);
                if (c->op == CG_OP_CONST)
                    v = (uint64_t)c->value;
                else if (livein_value(t, in->init, k, invariant, &v, d) < 0)
                    return -1;
            }
            v += (uint64_t)(in->step * k[L - 1]);
            break;
        case IN_LIVEIN:
            if (livein_value(t, in->init, k, invariant, &v, d) < 0)
                return -1;
            break;
        }
        inputs[id] = v;
    }
    return 0;
}

/* ---- planning a loop DFG ---------------------------------------------- */

static const char *node_name(void *ctx, int node, int *line)
{
    const cg_dfg *g = ctx;
    const cg_dfg_node *n = cg_dfg_get_node(g, node);
    *line = n ? n->line : 0;
    return n ? n->name : NULL;
}

cg_tile_plan *cg_tile_plan_dfg(const cg_dfg *g, const cg_netlist *nl,
                               const cg_tile_params *p, cg_diags *d)
{
    const cg_nest *n = cg_dfg_nest(g);
    if (!n) {
        cg_diags_add(d, CG_SEV_ERROR, cg_dfg_file(g), 0,
                     "loop '%s' has no loop nest record (extract it from C "
                     "to tile it)", cg_dfg_name(g));
        return NULL;
    }
    cg_tile_params defp;
    cg_tile_target t;
    if (cg__tile_target_of(nl, &p, &defp, &t, d) < 0)
        return NULL;
    cg_tile_model *m = cg__tile_model_build(n, cg_dfg_file(g), node_name,
                                            (void *)g, d);
    if (m)
        cg_tile_model_keep_inner(m, cg_tile_dfg_carries(g));
    return cg__tile_plan_owning(m, &t, p, d);
}
