/* sat_read.c: the DFG files SAT-MapIt's LLVM pass writes for one loop
 * (cg__dfg_read_satmapit), named after the loop, PREFIX_*:
 *
 *   PREFIX_nodes          ID NAME LOP ROP PRED OPCODE   (an instruction)
 *   PREFIX_edges          SRC DST DISTANCE LATENCY      (between them)
 *   PREFIX_constants      ID DST VALUE POSITION         (optional)
 *   PREFIX_livein_edges   SRC DST DISTANCE LATENCY      (optional)
 *   PREFIX_liveout_edges  SRC DST DISTANCE LATENCY      (optional)
 *
 * LOP, ROP and PRED name an operand by id (an instruction, a constant or a
 * live-in; -1 none); POSITION 0 is LOP, 1 ROP.  NAME is LLVM's opcode or
 * one of the pass's instruction selection (beq ... for the loop's exit
 * branch); OPCODE (its ISA's number) and LATENCY are left out.  A phi is
 * read as cgramap's extractor reads one: each use becomes an edge from
 * the latch value, one iteration further, with the initial value as its
 * init.  The exit branch is left to the array's controller (as cgramap dfg
 * --loop-control array does), and with it what only it used. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/util.h"
#include "dfg_internal.h"

enum { K_INST, K_CONST, K_LIVEIN, K_LIVEOUT };

/* An id of the files: an instruction, constant, live-in or live-out. */
typedef struct sitem {
    long id;
    int kind, line;     /* line of its record (of its user for a live-in) */
    cg_op op;           /* K_INST */
    bool branch;        /* K_INST: the loop's exit branch */
    long opnd[3];       /* K_INST: LOP, ROP, PRED ids (-1 none) */
    int dist[3];        /* their distances (_edges) */
    bool seen[3];       /* _edges gave them */
    long long value;    /* K_CONST */
    long src;           /* K_LIVEOUT: the instruction it takes */
    int uses;           /* kept users */
    bool keep;
    int out;            /* node in the graph */
} sitem;

typedef struct sat {
    cg__fdfg f;
    sitem *v;
    int n, cap;
    char *path;         /* PREFIX_ plus a suffix, for messages */
    size_t plen;
} sat;

/* The ops read by their LLVM name (cgramap's name too). */
static bool llvm_op(const char *name, cg_op *op)
{
    static const cg_op read[] = {
        CG_OP_ADD, CG_OP_SUB, CG_OP_MUL, CG_OP_SDIV, CG_OP_UDIV, CG_OP_SREM,
        CG_OP_UREM, CG_OP_AND, CG_OP_OR, CG_OP_XOR, CG_OP_SHL, CG_OP_LSHR,
        CG_OP_ASHR, CG_OP_LOAD, CG_OP_STORE, CG_OP_SELECT, CG_OP_PHI};
    if (!cg_op_parse(name, op) || strcmp(name, cg_op_name(*op)))
        return false;
    for (size_t i = 0; i < sizeof read / sizeof *read; i++)
        if (read[i] == *op)
            return true;
    return false;
}
static const char *const branches[] = {"beq", "bne", "blt", "ble", "bgt",
                                       "bge"};

static const char *file_of(sat *s, const char *suffix)
{
    snprintf(s->path + s->plen, 24, "%s", suffix);
    s->f.file = s->path;
    return s->path;
}

static sitem *find(sat *s, long id)
{
    for (int i = 0; i < s->n; i++)
        if (s->v[i].id == id)
            return &s->v[i];
    return NULL;
}

static sitem *add_item(sat *s, long id, int kind, int line)
{
    if (find(s, id)) {
        cg__fdfg_error(&s->f, line, "id %ld is used twice; each node, "
                       "constant and live-in has its own", id);
        return NULL;
    }
    if (CG_GROW(s->v, s->cap, s->n + 1) < 0) {
        cg__fdfg_error(&s->f, line, "out of memory");
        return NULL;
    }
    sitem *x = &s->v[s->n++];
    *x = (sitem){.id = id, .kind = kind, .line = line, .src = -1,
                 .opnd = {-1, -1, -1}, .out = -1};
    return x;
}

/* The records of a file: lines of `want` whole numbers (field 1 may be a
 * name when name1), each handed to fn; a missing optional file is empty. */
typedef void (*record_fn)(sat *s, char **w, const long *x, int line);
static void read_records(sat *s, const char *suffix, bool required,
                         int want, bool name1, record_fn fn)
{
    const char *path = file_of(s, suffix);
    if (!required && access(path, F_OK) != 0)
        return;
    char *text = cg__fdfg_slurp(path, s->f.d);
    if (!text) {
        s->f.errors++;
        return;
    }
    int line = 0;
    for (char *save = NULL, *l = text; l; l = save) {
        save = strchr(l, '\n');
        if (save)
            *save++ = 0;
        line++;
        char *w[8], *sp = NULL;
        long x[8] = {0};
        int k = 0;
        bool ok = true;
        for (char *t = strtok_r(l, " \t\r", &sp); t;
             t = strtok_r(NULL, " \t\r", &sp)) {
            if (k == 8)
                break;
            char *end;
            w[k] = t;
            x[k] = strtol(t, &end, 10);
            ok = ok && ((name1 && k == 1) || (*end == 0 && end != t));
            k++;
        }
        if (!k)
            continue;
        if (k != want || !ok)
            cg__fdfg_error(&s->f, line, "expected %d whole numbers%s, "
                           "blank-separated", want, name1 ? " (the second "
                           "a name)" : "");
        else
            fn(s, w, x, line);
    }
    free(text);
}

static void node_rec(sat *s, char **w, const long *x, int line)
{
    cg_op op = CG_OP_NOP;
    bool branch = false, known = llvm_op(w[1], &op);
    for (size_t i = 0; i < sizeof branches / sizeof *branches; i++)
        if (!strcmp(w[1], branches[i]))
            branch = known = true;
    if (!known) {
        cg__fdfg_error(&s->f, line, "node %ld: '%s' is not read (read: add "
                       "sub mul sdiv udiv srem urem and or xor shl lshr "
                       "ashr load store select phi, and the exit branch beq "
                       "bne blt ble bgt bge)", x[0], w[1]);
        return;
    }
    sitem *it = add_item(s, x[0], K_INST, line);
    if (it) {
        it->op = op, it->branch = branch;
        it->opnd[0] = x[2], it->opnd[1] = x[3], it->opnd[2] = x[4];
    }
}

static void const_rec(sat *s, char **w, const long *x, int line)
{
    (void)w;
    sitem *it = add_item(s, x[0], K_CONST, line);
    sitem *dst = find(s, x[1]); /* after add_item, which may move s->v */
    if (!it)
        return;
    it->value = x[2];
    if (dst) /* cg_dfg_check's messages point into _nodes */
        it->line = dst->line;
    if (!dst || dst->kind != K_INST || x[3] < 0 || x[3] > 1) {
        cg__fdfg_error(&s->f, line, "constant %ld: its node %ld is no "
                       "instruction of the _nodes file, or its position %ld "
                       "is not 0 (LOP) or 1 (ROP)", x[0], x[1], x[3]);
        return;
    }
    if (dst->opnd[x[3]] == -1)
        dst->opnd[x[3]] = x[0];
    else if (dst->opnd[x[3]] != x[0])
        cg__fdfg_error(&s->f, line, "constant %ld: operand %s of node %ld "
                       "is %ld already", x[0], x[3] ? "ROP" : "LOP", x[1],
                       dst->opnd[x[3]]);
}

/* An edge of _edges: the distance of DST's operand SRC. */
static void edge_rec(sat *s, char **w, const long *x, int line)
{
    (void)w;
    sitem *a = find(s, x[0]), *b = find(s, x[1]);
    int hit = 0;
    for (int k = 0; b && k < 3; k++)
        if (b->opnd[k] == x[0]) {
            b->dist[k] = (int)x[2];
            b->seen[k] = true;
            hit++;
        }
    if (!a || !b || a->kind != K_INST || b->kind != K_INST || !hit ||
        x[2] < 0 || x[2] > 1000)
        cg__fdfg_error(&s->f, line, "edge %ld -> %ld: %s", x[0], x[1],
                       !a || !b || a->kind != K_INST || b->kind != K_INST
                       ? "both ends must be nodes of the _nodes file"
                       : !hit ? "the _nodes file has no such operand"
                       : "the distance must be 0 to 1000");
}

/* A live-in edge: the live-in SRC fills DST's operand naming it, else its
 * first empty LOP/ROP. */
static void livein_rec(sat *s, char **w, const long *x, int line)
{
    (void)w;
    sitem *in = find(s, x[0]), *b = find(s, x[1]);
    if (!in) {
        in = add_item(s, x[0], K_LIVEIN, b ? b->line : line);
        b = find(s, x[1]); /* add_item may move s->v */
    }
    if (!in || in->kind != K_LIVEIN || !b || b->kind != K_INST) {
        cg__fdfg_error(&s->f, line, "live-in edge %ld -> %ld: %ld must be a "
                       "live-in and %ld a node of the _nodes file", x[0], x[1],
                       x[0], x[1]);
        return;
    }
    for (int k = 0; k < 3; k++)
        if (b->opnd[k] == x[0])
            return;
    for (int k = 0; k < 2; k++)
        if (b->opnd[k] == -1) {
            b->opnd[k] = x[0];
            return;
        }
    cg__fdfg_error(&s->f, line, "live-in edge %ld -> %ld: node %ld has no "
                   "operand left for it", x[0], x[1], x[1]);
}

static void liveout_rec(sat *s, char **w, const long *x, int line)
{
    (void)w;
    sitem *a = find(s, x[0]);
    sitem *o = add_item(s, x[1], K_LIVEOUT, a ? a->line : line);
    if (!o)
        return;
    a = find(s, x[0]); /* add_item may move s->v */
    if (!a || a->kind != K_INST || a->branch)
        cg__fdfg_error(&s->f, line, "live-out edge %ld -> %ld: %ld must be "
                       "a node of the _nodes file", x[0], x[1], x[0]);
    o->src = x[0];
}

/* ---- from the records to the graph ------------------------------------- */

/* The operand slots (0 LOP, 1 ROP, 2 PRED) op takes, and the cgramap
 * operand each becomes (-1: not taken).  A store takes LLVM's (value,
 * address); cgramap's operand 0 is the address. */
static void slots(cg_op op, int to[3])
{
    to[0] = 0, to[1] = 1, to[2] = -1;
    if (op == CG_OP_LOAD)
        to[1] = -1;
    else if (op == CG_OP_STORE)
        to[0] = 1, to[1] = 0;
    else if (op == CG_OP_SELECT)
        to[0] = 1, to[1] = 2, to[2] = 0;
}

static const char *const slot_name[] = {"LOP", "ROP", "PRED"};

/* Every operand an op takes is given, names an id, and one from a node
 * has its edge; the others are -1. */
static void check_operands(sat *s, sitem *it)
{
    int to[3];
    slots(it->op, to);
    for (int k = 0; k < 3; k++) {
        sitem *o = it->opnd[k] == -1 ? NULL : find(s, it->opnd[k]);
        if (it->branch)
            continue;
        if (to[k] < 0 && it->opnd[k] != -1)
            cg__fdfg_error(&s->f, it->line, "node %ld: %s takes no %s (it "
                           "is %ld)", it->id, cg_op_name(it->op),
                           slot_name[k], it->opnd[k]);
        else if (to[k] >= 0 && !o)
            cg__fdfg_error(&s->f, it->line, "node %ld: its %s %s", it->id,
                           slot_name[k], it->opnd[k] == -1 ? "is missing "
                           "(-1), and no constant or live-in fills it"
                           : "names no node, constant or live-in");
        else if (to[k] >= 0 && (o->kind == K_LIVEOUT ||
                                (o->kind == K_INST && o->branch)))
            cg__fdfg_error(&s->f, it->line, "node %ld: its %s is %ld, which "
                           "has no value", it->id, slot_name[k], o->id);
        else if (to[k] >= 0 && o->kind == K_INST && !it->seen[k])
            cg__fdfg_error(&s->f, it->line, "node %ld: its %s is node %ld, "
                           "but the _edges file has no edge %ld %ld",
                           it->id, slot_name[k], o->id, o->id, it->id);
    }
}

/* A phi's latch (the operand from the loop, distance >= 1) and initial
 * value (a constant or live-in): *latch, *init slots; false, reported,
 * when it has another shape. */
static bool phi_shape(sat *s, const sitem *p, int *latch, int *init)
{
    for (int k = 0; k < 2; k++) {
        const sitem *a = find(s, p->opnd[k]), *b = find(s, p->opnd[1 - k]);
        if (a && b && a->kind == K_INST && a->op != CG_OP_PHI &&
            p->dist[k] >= 1 && (b->kind == K_CONST || b->kind == K_LIVEIN)) {
            *latch = k, *init = 1 - k;
            return true;
        }
    }
    cg__fdfg_error(&s->f, p->line, "phi %ld: read only with one operand "
                   "from the loop (an edge of distance 1, not from a phi) "
                   "and one constant or live-in", p->id);
    return false;
}

/* What each kept item feeds: from stores and live-outs through operands
 * (a phi's uses reach its latch and initial value). */
static void mark(sat *s, sitem *it)
{
    if (!it || it->keep)
        return;
    it->keep = true;
    if (it->kind == K_LIVEOUT)
        mark(s, find(s, it->src));
    if (it->kind != K_INST)
        return;
    for (int k = 0; k < 3; k++)
        if (it->opnd[k] != -1)
            mark(s, find(s, it->opnd[k]));
}

static void emit_node(sat *s, sitem *it)
{
    static const cg_op kind_op[] = {CG_OP_NOP, CG_OP_CONST, CG_OP_INPUT,
                                    CG_OP_OUTPUT};
    char name[32];
    snprintf(name, sizeof name, "n%ld", it->id);
    cg_op op = it->kind == K_INST ? it->op : kind_op[it->kind];
    it->out = cg__fdfg_node(&s->f, op, 32, name, it->line);
    if (it->out >= 0 && it->kind == K_CONST)
        cg_dfg_set_value(s->f.g, it->out, it->value);
}

/* The edge into it's slot k: from a phi, from its latch one iteration
 * further with its initial value as init. */
static void emit_operand(sat *s, sitem *it, int k, int operand)
{
    sitem *o = find(s, it->opnd[k]);
    int dist = o->kind == K_INST ? it->dist[k] : 0, init = -1;
    if (o->kind == K_INST && o->op == CG_OP_PHI) {
        int latch, start;
        if (!phi_shape(s, o, &latch, &start))
            return;
        init = find(s, o->opnd[start])->out;
        dist += o->dist[latch];
        o = find(s, o->opnd[latch]);
    }
    int e = cg__fdfg_edge(&s->f, o->out, it->out, operand, dist, it->line);
    if (e >= 0)
        cg_dfg_edge_mut(s->f.g, e)->init = init;
}

static void build(sat *s)
{
    for (int i = 0; i < s->n; i++)
        if (s->v[i].kind == K_INST)
            check_operands(s, &s->v[i]);
    for (int i = 0; i < s->n && !s->f.errors; i++) {
        sitem *it = &s->v[i];
        int latch, init;
        if (it->kind == K_INST && it->op == CG_OP_PHI)
            phi_shape(s, it, &latch, &init);
        if ((it->kind == K_INST && it->op == CG_OP_STORE) ||
            it->kind == K_LIVEOUT)
            mark(s, it);
    }
    for (int i = 0; i < s->n && !s->f.errors; i++)
        if (s->v[i].kind == K_LIVEOUT &&
            find(s, s->v[i].src)->op == CG_OP_PHI)
            cg__fdfg_error(&s->f, s->v[i].line, "live-out %ld takes phi "
                           "%ld: not read (a phi's value after the loop)",
                           s->v[i].id, s->v[i].src);
    if (s->f.errors)
        return;
    /* live-ins and constants, then the nodes in file order, then the
     * live-outs; a phi is no node */
    static const int order[] = {K_LIVEIN, K_CONST, K_INST, K_LIVEOUT};
    for (int o = 0; o < 4; o++)
        for (int i = 0; i < s->n; i++)
            if (s->v[i].keep && s->v[i].kind == order[o] &&
                !(s->v[i].kind == K_INST && s->v[i].op == CG_OP_PHI))
                emit_node(s, &s->v[i]);
    for (int i = 0; i < s->n && !s->f.errors; i++) {
        sitem *it = &s->v[i];
        int to[3];
        if (!it->keep || it->out < 0)
            continue;
        if (it->kind == K_LIVEOUT) {
            sitem *src = find(s, it->src);
            cg__fdfg_edge(&s->f, src->out, it->out, 0, 0, it->line);
            continue;
        }
        if (it->kind != K_INST)
            continue;
        slots(it->op, to);
        for (int k = 0; k < 3; k++)
            if (to[k] >= 0)
                emit_operand(s, it, k, to[k]);
    }
}

cg_dfg *cg__dfg_read_satmapit(const char *nodes_path, cg_diags *d)
{
    sat s = {0};
    size_t len = strlen(nodes_path);
    s.plen = len - strlen("_nodes");
    s.path = malloc(s.plen + 32);
    if (!s.path) {
        cg_diags_add(d, CG_SEV_ERROR, nodes_path, 0, "out of memory");
        return NULL;
    }
    memcpy(s.path, nodes_path, s.plen);
    s.path[s.plen] = 0;
    if (cg__fdfg_init(&s.f, s.path, d) < 0) {
        free(s.path);
        return NULL;
    }
    read_records(&s, "_nodes", true, 6, true, node_rec);
    if (!s.f.errors)
        read_records(&s, "_constants", false, 4, false, const_rec);
    if (!s.f.errors)
        read_records(&s, "_livein_edges", false, 4, false, livein_rec);
    if (!s.f.errors)
        read_records(&s, "_edges", true, 4, false, edge_rec);
    if (!s.f.errors)
        read_records(&s, "_liveout_edges", false, 4, false, liveout_rec);
    file_of(&s, "_nodes");
    if (!s.f.errors)
        build(&s);
    if (!s.f.errors && !cg_dfg_nnodes(s.f.g))
        cg__fdfg_error(&s.f, 0, "no store and no live-out: the loop "
                       "computes nothing that stays");
    cg_dfg *g = cg__fdfg_finish(&s.f);
    free(s.v);
    free(s.path);
    return g;
}
