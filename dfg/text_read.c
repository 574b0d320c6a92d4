/* text_read.c: the text DFG form of the SAT-based mapper family
 * (cg_dfg_read_text), as docs/dfg.md states it:
 *
 *   # a comment, to the end of the line
 *   node ID OPCODE [VALUE]          a node; VALUE only for const
 *   edge SRC DST DISTANCE [OPERAND] SRC feeds DST, DISTANCE iterations later
 *
 * IDs are whole numbers (node n<ID> in the graph); a missing OPERAND is the
 * next one of DST in the order of its edges.  Every node line comes before
 * the edges that name it is not required: nodes are read first. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/util.h"
#include "dfg_internal.h"

/* Compares by their predicate; other opcodes are cgramap's names. */
static const cg__fop compares[] = {
    {"eq", CG_OP_ICMP, 1, CG_PRED_EQ},   {"ne", CG_OP_ICMP, 1, CG_PRED_NE},
    {"lt", CG_OP_ICMP, 1, CG_PRED_SLT},  {"le", CG_OP_ICMP, 1, CG_PRED_SLE},
    {"gt", CG_OP_ICMP, 1, CG_PRED_SGT},  {"ge", CG_OP_ICMP, 1, CG_PRED_SGE},
    {"ult", CG_OP_ICMP, 1, CG_PRED_ULT}, {"ule", CG_OP_ICMP, 1, CG_PRED_ULE},
    {"ugt", CG_OP_ICMP, 1, CG_PRED_UGT}, {"uge", CG_OP_ICMP, 1, CG_PRED_UGE},
    {NULL, 0, 0, 0}};

typedef struct tline {
    int line, n;      /* line number, words */
    char *w[6];
} tline;

static bool whole(const char *s, long long lo, long long hi, long long *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (!*s || *end || errno || x < lo || x > hi)
        return false;
    *v = x;
    return true;
}

/* The words of each non-blank line (comments cut), in place; NULL on no
 * memory. */
static tline *split(char *text, int *n)
{
    int cap = 0, k = 0, line = 0;
    tline *v = NULL;
    for (char *save = NULL, *l = text; l; l = save) {
        save = strchr(l, '\n');
        if (save)
            *save++ = 0;
        line++;
        char *hash = strchr(l, '#');
        if (hash)
            *hash = 0;
        tline t = {.line = line};
        for (char *s2 = NULL, *w = strtok_r(l, " \t\r", &s2); w;
             w = strtok_r(NULL, " \t\r", &s2))
            if (t.n < 6)
                t.w[t.n++] = w;
            else
                t.n = 7; /* too many: reported */
        if (!t.n)
            continue;
        if (CG_GROW(v, cap, k + 1) < 0) {
            free(v);
            return NULL;
        }
        v[k++] = t;
    }
    *n = k;
    return v ? v : calloc(1, sizeof *v);
}

/* The op of a node line's OPCODE: a compare's predicate, or a name of
 * cg_op_parse in any case. */
static bool text_op(const char *w, cg__fop *out)
{
    const cg__fop *c = cg__fop_find(compares, w);
    if (c) {
        *out = *c;
        return true;
    }
    char low[32];
    size_t i = 0;
    for (; w[i] && i < sizeof low - 1; i++)
        low[i] = (char)tolower((unsigned char)w[i]);
    low[i] = 0;
    *out = (cg__fop){w, CG_OP_NOP, 32, CG_PRED_NONE};
    return !w[i] && cg_op_parse(low, &out->op) && out->op != CG_OP_ICMP;
}

static void node_line(cg__fdfg *f, const tline *t, long long *ids, int k)
{
    long long id, value = 0;
    cg__fop op;
    char name[32];
    if (t->n < 3 || t->n > 4 || !whole(t->w[1], 0, INT_MAX, &id)) {
        cg__fdfg_error(f, t->line, "expected 'node ID OPCODE [VALUE]' with "
                       "ID a whole number");
        return;
    }
    for (int i = 0; i < k; i++)
        if (ids[i] == id) {
            cg__fdfg_error(f, t->line, "node %lld is declared twice; give "
                           "each node its own ID", id);
            return;
        }
    if (!text_op(t->w[2], &op)) {
        char list[256];
        cg__fop_list(compares, list, sizeof list);
        cg__fdfg_error(f, t->line, "node %lld: unknown opcode '%s' "
                       "(compares: %s; other opcodes: %s)", id, t->w[2],
                       list, cg_op_all_names());
        return;
    }
    if ((t->n == 4) != (op.op == CG_OP_CONST) ||
        (t->n == 4 && !whole(t->w[3], INT64_MIN, INT64_MAX, &value))) {
        cg__fdfg_error(f, t->line, "node %lld: %s", id, op.op == CG_OP_CONST
                       ? "a const needs its VALUE, a whole number"
                       : "only a const takes a VALUE");
        return;
    }
    snprintf(name, sizeof name, "n%lld", id);
    int n = cg__fdfg_node(f, op.op, op.width, name, t->line);
    if (n < 0)
        return;
    cg_dfg_node_mut(f->g, n)->pred = op.pred;
    if (op.op == CG_OP_CONST)
        cg_dfg_set_value(f->g, n, value);
    ids[n] = id;
}

static int node_of(const long long *ids, int n, const char *w)
{
    long long id;
    if (!whole(w, 0, INT_MAX, &id))
        return -2;
    for (int i = 0; i < n; i++)
        if (ids[i] == id)
            return i;
    return -1;
}

static void edge_line(cg__fdfg *f, const tline *t, const long long *ids,
                      int *next_operand)
{
    int n = cg_dfg_nnodes(f->g), src = -1, dst = -1;
    long long dist, operand = -1;
    if (t->n < 4 || t->n > 5 || !whole(t->w[3], 0, INT_MAX, &dist) ||
        (t->n == 5 && !whole(t->w[4], 0, 2, &operand))) {
        cg__fdfg_error(f, t->line, "expected 'edge SRC DST DISTANCE "
                       "[OPERAND]' with DISTANCE a whole number >= 0 and "
                       "OPERAND 0, 1 or 2");
        return;
    }
    for (int k = 1; k <= 2; k++) {
        int id = node_of(ids, n, t->w[k]);
        if (id < 0) {
            cg__fdfg_error(f, t->line, "edge: no node %s (declare it with "
                           "'node %s OPCODE')", t->w[k], t->w[k]);
            return;
        }
        *(k == 1 ? &src : &dst) = id;
    }
    if (operand < 0)
        operand = next_operand[dst];
    next_operand[dst] = (int)operand + 1;
    cg__fdfg_edge(f, src, dst, (int)operand, (int)dist, t->line);
}

cg_dfg *cg_dfg_read_text(const char *path, cg_diags *d)
{
    cg__fdfg f;
    char *text = cg__fdfg_slurp(path, d);
    int n = 0;
    tline *t = text ? split(text, &n) : NULL;
    long long *ids = t ? calloc((size_t)n + 1, sizeof *ids) : NULL;
    int *next = t ? calloc((size_t)n + 1, sizeof *next) : NULL;
    if (!text || !t || !ids || !next || cg__fdfg_init(&f, path, d) < 0) {
        if (text && (!t || !ids || !next))
            cg_diags_add(d, CG_SEV_ERROR, path, 0, "out of memory");
        free(text), free(t), free(ids), free(next);
        return NULL;
    }
    if (n > 0 && !strcmp(t[0].w[0], "mapping")) { /* not one error a line */
        cg__fdfg_error(&f, t[0].line, "this is a mapping as cgramap writes "
                       "it (cgramap map --mapping, --mapping-dir), not a DFG: "
                       "give it with its DFG to cgramap check or cgramap sim");
        n = 0;
    }
    for (int i = 0; i < n; i++) /* nodes first: edges may come before */
        if (!strcmp(t[i].w[0], "node"))
            node_line(&f, &t[i], ids, cg_dfg_nnodes(f.g));
        else if (strcmp(t[i].w[0], "edge"))
            cg__fdfg_error(&f, t[i].line, "unknown line '%s ...' (lines: "
                           "'node ID OPCODE [VALUE]', 'edge SRC DST "
                           "DISTANCE [OPERAND]', '# comment')", t[i].w[0]);
    for (int i = 0; i < n && !f.errors; i++)
        if (!strcmp(t[i].w[0], "edge"))
            edge_line(&f, &t[i], ids, next);
    if (!f.errors && !cg_dfg_nnodes(f.g))
        cg__fdfg_error(&f, 0, "no node; declare them with 'node ID OPCODE'");
    free(text), free(t), free(ids), free(next);
    return cg__fdfg_finish(&f);
}
