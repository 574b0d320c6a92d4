/* nus_read.c: the DFG XML of the NUS mapper family (cg_dfg_read_nus_xml).
 *
 *   <DFG count="N">
 *     <Node idx="3" ASAP="1" ALAP="2" BB="body" CONST="4">
 *       <OP>ADD</OP>
 *       <BasePointerName>a</BasePointerName>
 *       <Inputs><Input idx="1"/></Inputs>
 *       <Outputs><Output idx="5" nextiter="0" type="I1"/></Outputs>
 *       <RecParents><RecParent idx="7"/></RecParents>
 *     </Node>
 *   </DFG>
 *
 * Edges come from <Outputs>: type I1 and I2 are operands 0 and 1 (of a
 * SELECT: 1 and 2; of a store I1 the data and I2 the address, of a load
 * either the address, as Morpher's generator writes them), I3 both, P a
 * SELECT's condition (operand 0), PS a pseudo edge that orders without a
 * value (dropped); nextiter="1" is a loop-carried edge (distance 1).
 * CONST is an immediate: a const node feeding the first operand no edge
 * fills.  A RecParent between memory ops is a memory order (distance 1).
 *
 * Morpher's partial predication is lowered where its meaning is exactly
 * a DFG's (docs/dfg.md has the rules): the loop's start and end flags
 * (LOADB/STOREB of loopstart, loopend) are left to the array's controller;
 * a SELECT of two CMERGEs is a loop phi (a loop-carried edge with an
 * init) or an if-conversion (a select); OLOAD and OSTORE are scalar
 * live-ins and live-outs (input, output nodes).  What only the loop
 * control used goes with it; any other predication is refused, naming the
 * node and the construct.
 *
 * Morpher's DFG generator writes a <MutexBB> beside the <DFG> (two roots)
 * and no blank between a Node's attributes (ALAP="1"BB="x"), which a strict
 * XML parser refuses: the text is tidied first (tidy) without moving a
 * line. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "../common/util.h"
#include "dfg_internal.h"

static const cg__fop nus_ops[] = {
    {"ADD", CG_OP_ADD, 32, 0},    {"SUB", CG_OP_SUB, 32, 0},
    {"MUL", CG_OP_MUL, 32, 0},    {"DIV", CG_OP_SDIV, 32, 0},
    {"REM", CG_OP_SREM, 32, 0},   {"AND", CG_OP_AND, 32, 0},
    {"OR", CG_OP_OR, 32, 0},      {"XOR", CG_OP_XOR, 32, 0},
    {"LS", CG_OP_SHL, 32, 0},     {"RS", CG_OP_LSHR, 32, 0},
    {"ARS", CG_OP_ASHR, 32, 0},   {"CMP", CG_OP_ICMP, 1, CG_PRED_EQ},
    {"CLT", CG_OP_ICMP, 1, CG_PRED_SLT},
    {"CGT", CG_OP_ICMP, 1, CG_PRED_SGT},
    {"SELECT", CG_OP_SELECT, 32, 0},
    {"LOAD", CG_OP_LOAD, 32, 0},  {"LOADH", CG_OP_LOAD, 16, 0},
    {"LOADB", CG_OP_LOAD, 8, 0},  {"STORE", CG_OP_STORE, 32, 0},
    {"STOREH", CG_OP_STORE, 16, 0}, {"STOREB", CG_OP_STORE, 8, 0},
    {"MOVC", CG_OP_CONST, 32, 0},
    /* CONST: the widths in bytes, (from << 16) | 4 (sext_from) */
    {"SEXT", CG_OP_SEXT, 32, 0},
    /* Morpher's partial predication and scalars (kind below) */
    {"CMERGE", CG_OP_NOP, 32, 0}, {"OLOAD", CG_OP_INPUT, 32, 0},
    {"OLOADH", CG_OP_INPUT, 16, 0}, {"OLOADB", CG_OP_INPUT, 8, 0},
    {"OSTORE", CG_OP_OUTPUT, 32, 0}, {NULL, 0, 0, 0}};

/* What a <Node> is read as. */
enum {
    K_OP,       /* an op of the table (SELECT: see role) */
    K_CMERGE,   /* a value passed on when its predicate holds */
    K_OLOAD,    /* a scalar live-in: an input node */
    K_OSTORE,   /* a scalar live-out: an output node */
    K_START,    /* LOADB of loopstart: 1 in the first iteration */
    K_START_ST, /* STOREB to loopstart: its reset */
    K_END_ST,   /* STOREB to loopend: the exit flag */
    K_IMM,      /* made here: a const (an immediate, a CMERGE's CONST) */
    K_SUM,      /* made here: an add of a sum of more than two terms */
    K_CONV      /* made here: a value in the width its user takes (zext,
                   trunc): a compare's bit or a LOADH as a word, a word
                   stored by a STOREH */
};
/* A SELECT fed by CMERGEs: a loop phi or an if-conversion. */
enum { R_PLAIN, R_PHI, R_IF };
enum { T_I1, T_I2, T_I3, T_P, T_PS };
static const char *const type_name[] = {"I1", "I2", "I3", "P", "PS"};

typedef struct rnode {
    long long idx;      /* the file's idx (made here: its owner's) */
    int line, kind, role;
    const xmlNode *x;   /* NULL for the nodes made here */
    const cg__fop *op;
    bool has_const;
    long long cst;
    char *base;         /* <BasePointerName>, NULL when none */
    int uses;           /* outgoing edges with a value (not PS) */
    bool drop;
    bool sum;           /* an add of more inputs than one (lower) */
    /* R_PHI: consumers read latch at +dist with init; R_IF: the select's
     * operands 0, 1, 2 (value source rnodes) */
    int latch, dist, init, opnd[3];
    int id;             /* in the graph, -1 when none */
    int width;          /* K_CONV: its width; SEXT: the width it extends */
    int twin;           /* the other <Node> of its idx, -1 none (twins) */
    bool init_livein;   /* R_PHI: init is a live-in made here (livein_phi),
                           and the loop-start flag predicates it */
} rnode;

typedef struct redge {
    int src, dst, type, next, npb, line;
} redge;

typedef struct ledge {  /* an edge of the graph, between rnodes */
    int src, dst, operand, dist, init, line;
} ledge;

typedef struct nus {
    cg__fdfg f;
    rnode *v;
    int n, cap;         /* rnodes: <Node>s in idx order, then made here */
    int nfile;          /* <Node>s */
    redge *e;
    int ne, ecap;
    ledge *l;
    int nl, lcap;
    int start, end_st;  /* the K_START and K_END_ST rnodes, -1 none */
    int exit_pred, exit_npb; /* K_END_ST's predicate */
    int pseudo;         /* PS edges dropped */
} nus;

static int line_of(const xmlNode *x) { return (int)xmlGetLineNo(x); }

/* Integer attribute a of x in lo..hi; def when absent; false (reported)
 * when malformed. */
static bool int_attr(nus *u, const xmlNode *x, const char *a, long long lo,
                     long long hi, long long def, long long *v)
{
    xmlChar *s = xmlGetProp(x, (const xmlChar *)a);
    *v = def;
    if (!s)
        return true;
    char *end;
    long long r = strtoll((const char *)s, &end, 10);
    bool ok = *s && !*end && r >= lo && r <= hi;
    if (ok)
        *v = r;
    else
        cg__fdfg_error(&u->f, line_of(x), "<%s> %s=\"%s\" must be a whole "
                       "number from %lld to %lld", (const char *)x->name, a,
                       (const char *)s, lo, hi);
    xmlFree(s);
    return ok;
}

/* Every attribute of x is among ok (NULL-ended). */
static bool known_attrs(nus *u, const xmlNode *x, const char *const *ok,
                        const char *list)
{
    bool good = true;
    for (const xmlAttr *a = x->properties; a; a = a->next) {
        int i = 0;
        while (ok[i] && strcmp(ok[i], (const char *)a->name))
            i++;
        if (!ok[i]) {
            cg__fdfg_error(&u->f, line_of(x), "unknown attribute '%s' on "
                           "<%s> (attributes: %s)", (const char *)a->name,
                           (const char *)x->name, list);
            good = false;
        }
    }
    return good;
}

static xmlNode *child(const xmlNode *x, const char *name)
{
    for (xmlNode *k = x->children; k; k = k->next)
        if (k->type == XML_ELEMENT_NODE && !strcmp((const char *)k->name,
                                                   name))
            return k;
    return NULL;
}

/* The rnode of the file's idx, -1 when none. */
static int find(const nus *u, long long idx)
{
    for (int i = 0; i < u->nfile; i++)
        if (u->v[i].idx == idx)
            return i;
    return -1;
}

/* The text of x without leading and trailing blanks (xmlFree it). */
static char *trimmed(const xmlNode *x)
{
    xmlChar *text = xmlNodeGetContent(x);
    if (!text)
        return NULL;
    char *t = (char *)text;
    size_t k = strspn(t, " \t\r\n"), len = strlen(t + k);
    while (len && strchr(" \t\r\n", t[k + len - 1]))
        len--;
    memmove(t, t + k, len);
    t[len] = 0;
    return t;
}

/* Morpher's <GEPOffset> of node x: the byte offset of a GEP's constant
 * indices.  0 adds nothing.  Older files write it beside CONST, which is
 * the array's base address plus the offset; their base addresses are all
 * 0 (every GEP of them has CONST equal to its GEPOffset), so CONST holds
 * the offset and it is read when it equals CONST.  Otherwise whether
 * CONST holds it already is not known: refused. */
static bool gep_offset(nus *u, const xmlNode *x, const xmlNode *k)
{
    xmlChar *t = xmlNodeGetContent(k), *c = xmlGetProp(x, (const xmlChar *)
                                                        "CONST");
    const char *v = t ? (const char *)t : "";
    char *end;
    long long off = strtoll(v, &end, 10), cst = c ? strtoll((const char *)c,
                                                            NULL, 10) : 0;
    end += strspn(end, " \t\r\n");
    bool num = end != v && !*end && strspn(v, " \t\r\n-0123456789") ==
                                    strlen(v);
    bool ok = num && (!off || (c && cst == off));
    if (!ok && num)
        cg__fdfg_error(&u->f, line_of(k), "<GEPOffset>%s</GEPOffset> %s%s%s: "
                       "read only when it is 0 or equals the node's CONST (a "
                       "base address of 0 plus the offset, as older files "
                       "write it); otherwise whether CONST holds the offset "
                       "already is not known", v, c ? "with CONST=\"" :
                       "on a node without CONST", c ? (const char *)c : "",
                       c ? "\"" : "");
    else if (!ok)
        cg__fdfg_error(&u->f, line_of(k), "<GEPOffset>%s</GEPOffset>: not a "
                       "whole number", v);
    xmlFree(t);
    xmlFree(c);
    return ok;
}

/* Check a <Node>'s children and attributes; its idx. */
static bool node_shape(nus *u, xmlNode *x, long long *idx)
{
    static const char *const attrs[] = {"idx", "ASAP", "ALAP", "BB",
                                        "CONST", NULL};
    static const char *const kids[] = {"OP", "Inputs", "Outputs",
                                       "BasePointerName", "RecParents",
                                       "GEPOffset", NULL};
    bool ok = known_attrs(u, x, attrs, "idx ASAP ALAP BB CONST");
    for (xmlNode *k = x->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        int i = 0;
        while (kids[i] && strcmp(kids[i], (const char *)k->name))
            i++;
        if (!kids[i]) {
            cg__fdfg_error(&u->f, line_of(k), "unknown tag <%s> inside "
                           "<Node> (expected: OP, Inputs, Outputs, "
                           "BasePointerName, RecParents, GEPOffset)",
                           (const char *)k->name);
            ok = false;
        } else if (!strcmp(kids[i], "GEPOffset")) {
            ok = gep_offset(u, x, k) && ok;
        }
    }
    if (!xmlHasProp(x, (const xmlChar *)"idx")) {
        cg__fdfg_error(&u->f, line_of(x), "<Node> needs idx=\"...\"");
        return false;
    }
    return int_attr(u, x, "idx", 0, 1 << 30, 0, idx) && ok;
}

/* A new rnode (K_IMM or a file's); -1 when out of memory (reported). */
static int new_rnode(nus *u, long long idx, int line, int kind)
{
    if (CG_GROW(u->v, u->cap, u->n + 1) < 0) {
        cg__fdfg_error(&u->f, line, "out of memory");
        return -1;
    }
    u->v[u->n] = (rnode){.idx = idx, .line = line, .kind = kind,
                         .latch = -1, .init = -1, .opnd = {-1, -1, -1},
                         .id = -1, .twin = -1};
    return u->n++;
}

/* The <Node>s into u->v in idx order, each with its op and CONST. */
static void read_nodes(nus *u, xmlNode *root)
{
    int cap = 0;
    for (xmlNode *x = root->children; x; x = x->next)
        cap += x->type == XML_ELEMENT_NODE;
    xmlNode **all = calloc((size_t)cap + 1, sizeof *all);
    long long *idx = calloc((size_t)cap + 1, sizeof *idx);
    if (!all || !idx) {
        cg__fdfg_error(&u->f, 0, "out of memory");
        free(all);
        free(idx);
        return;
    }
    int n = 0;
    for (xmlNode *x = root->children; x; x = x->next) {
        if (x->type != XML_ELEMENT_NODE)
            continue;
        if (strcmp((const char *)x->name, "Node"))
            cg__fdfg_error(&u->f, line_of(x), "unknown tag <%s> inside <DFG> "
                           "(expected: Node)", (const char *)x->name);
        else
            all[n++] = x;
    }
    for (int i = 0; i < n; i++)
        if (!node_shape(u, all[i], &idx[i]))
            idx[i] = -1;
    /* sort by idx: program order for the interpreter's memory ops */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && idx[j - 1] > idx[j]; j--) {
            long long t = idx[j];
            idx[j] = idx[j - 1], idx[j - 1] = t;
            xmlNode *y = all[j];
            all[j] = all[j - 1], all[j - 1] = y;
        }
    for (int i = 0; i < n; i++) {
        if (idx[i] < 0)
            continue;
        if (i > 1 && idx[i] == idx[i - 2]) {
            cg__fdfg_error(&u->f, line_of(all[i]), "node idx=\"%lld\" is "
                           "declared a third time (first at line %d)",
                           idx[i], line_of(all[i - 2]));
            continue;
        }
        xmlNode *opn = child(all[i], "OP");
        char *t = opn ? trimmed(opn) : NULL;
        const cg__fop *op = t ? cg__fop_find(nus_ops, t) : NULL;
        if (!op) {
            char list[320];
            cg__fop_list(nus_ops, list, sizeof list);
            if (!opn)
                cg__fdfg_error(&u->f, line_of(all[i]), "node %lld has no "
                               "<OP> (opcodes: %s)", idx[i], list);
            else
                cg__fdfg_error(&u->f, line_of(opn), "node %lld: unknown "
                               "opcode '%s' (opcodes: %s)", idx[i],
                               t ? t : "", list);
            xmlFree(t);
            continue;
        }
        xmlFree(t);
        int r = new_rnode(u, idx[i], line_of(all[i]), K_OP);
        if (r < 0)
            break;
        rnode *x = &u->v[r];
        x->x = all[i];
        x->op = op;
        x->kind = op->op == CG_OP_NOP ? K_CMERGE
                  : op->op == CG_OP_INPUT ? K_OLOAD
                  : op->op == CG_OP_OUTPUT ? K_OSTORE : K_OP;
        xmlNode *b = child(all[i], "BasePointerName");
        x->base = b ? trimmed(b) : NULL;
        x->has_const = xmlHasProp(all[i], (const xmlChar *)"CONST");
        if (x->has_const &&
            !int_attr(u, all[i], "CONST", INT64_MIN, INT64_MAX, 0, &x->cst))
            x->has_const = false;
    }
    u->nfile = u->n;
    for (int r = 1; r < u->n; r++) /* an idx declared twice: twins */
        if (u->v[r].idx == u->v[r - 1].idx) {
            u->v[r].twin = r - 1;
            u->v[r - 1].twin = r;
        }
    free(all);
    free(idx);
}

static int parse_type(const char *t)
{
    for (int k = 0; k < 5; k++)
        if (!strcmp(t, type_name[k]))
            return k;
    return -1;
}

/* Each <Output> of node r as a redge. */
static void read_outputs(nus *u, int r)
{
    static const char *const attrs[] = {"idx", "nextiter", "type", "NPB",
                                        NULL};
    const xmlNode *os = child(u->v[r].x, "Outputs");
    for (const xmlNode *o = os ? os->children : NULL; o; o = o->next) {
        long long to, next, npb;
        if (o->type != XML_ELEMENT_NODE)
            continue;
        if (!known_attrs(u, o, attrs, "idx nextiter type NPB") ||
            !int_attr(u, o, "idx", 0, 1 << 30, -1, &to) ||
            !int_attr(u, o, "nextiter", 0, 1 << 20, 0, &next) ||
            !int_attr(u, o, "NPB", 0, 1, 0, &npb))
            continue;
        xmlChar *type = xmlGetProp(o, (const xmlChar *)"type");
        int dst = find(u, to), t = type ? parse_type((char *)type) : -1;
        if (to < 0 || dst < 0)
            cg__fdfg_error(&u->f, line_of(o), "<Output> of node %lld names "
                           "no node (idx=\"%lld\")", u->v[r].idx, to);
        else if (!type)
            cg__fdfg_error(&u->f, line_of(o), "<Output> needs type=\"I1|I2|"
                           "I3|P|PS\"");
        else if (t < 0)
            cg__fdfg_error(&u->f, line_of(o), "<Output> type=\"%s\" is not "
                           "one of I1, I2, I3, P, PS", (const char *)type);
        else if (CG_GROW(u->e, u->ecap, u->ne + 1) < 0)
            cg__fdfg_error(&u->f, line_of(o), "out of memory");
        else
            u->e[u->ne++] = (redge){r, dst, t, (int)next, (int)npb,
                                    line_of(o)};
        xmlFree(type);
    }
}

/* ---- Morpher's loop control and partial predication ------------------- */

static bool base_is(const rnode *x, const char *name)
{
    return x->base && !strcmp(x->base, name);
}

static bool is_op(const rnode *x, const char *name)
{
    return x->op && !strcmp(x->op->name, name);
}

/* The predicate edge (type P) into r, -1 when none; *count of them. */
static int pred_in(const nus *u, int r, int *count)
{
    int p = -1;
    *count = 0;
    for (int i = 0; i < u->ne; i++)
        if (u->e[i].dst == r && u->e[i].type == T_P) {
            p = i;
            (*count)++;
        }
    return p;
}

/* The edges with a value (I1, I2, I3) into r: *count, the first. */
static int data_in(const nus *u, int r, int *count)
{
    int p = -1;
    *count = 0;
    for (int i = 0; i < u->ne; i++)
        if (u->e[i].dst == r && u->e[i].type <= T_I3) {
            if (p < 0)
                p = i;
            (*count)++;
        }
    return p;
}

/* Node r as messages name it: "node 12 (CMERGE)". */
static const char *desc(const nus *u, int r, char *buf, size_t len)
{
    snprintf(buf, len, "node %lld (%s)", u->v[r].idx,
             u->v[r].op ? u->v[r].op->name : "const");
    return buf;
}

/* A STOREB without a base pointer that writes a MOVC (its I1) at its
 * CONST under one predicate: the loop-end flag of files that name no
 * base pointers. */
static bool end_flag(const nus *u, int r)
{
    int np, nd, d = data_in(u, r, &nd);
    pred_in(u, r, &np);
    return u->v[r].has_const && np == 1 && nd == 1 &&
           u->e[d].type == T_I1 && is_op(&u->v[u->e[d].src], "MOVC");
}

/* LOADB/STOREB on the loop's start and end flags.  Morpher's generator
 * names their base pointers loopstart and loopend; a LOADB without a base
 * pointer that has no input and is read only as a predicate is the start
 * flag too, and a STOREB to its address its reset (whatever its base
 * pointer's name: some files write startstore); end_flag finds the
 * loop-end flag's STOREB there (loop_flags).  First the start flag. */
static void loop_start(nus *u)
{
    u->start = u->end_st = u->exit_pred = -1;
    for (int r = 0; r < u->nfile; r++) {
        rnode *x = &u->v[r];
        if (!is_op(x, "LOADB") || (x->base && !base_is(x, "loopstart")))
            continue;
        bool flag = base_is(x, "loopstart");
        if (!flag && x->has_const) {
            int k, uses = 0, preds = 0;
            data_in(u, r, &k);
            for (int i = 0; i < u->ne; i++)
                if (u->e[i].src == r && u->e[i].type != T_PS) {
                    uses++;
                    preds += u->e[i].type == T_P;
                }
            flag = !k && uses && uses == preds;
        }
        if (!flag)
            continue;
        if (u->start >= 0) {
            char a[64];
            cg__fdfg_error(&u->f, x->line, "%s: a second loop-start flag "
                           "(the first is node %lld): a file holds one loop",
                           desc(u, r, a, sizeof a), u->v[u->start].idx);
            continue;
        }
        u->start = r;
        x->kind = K_START;
    }
}

/* The STOREBs of the loop control: the start flag's reset, the end
 * flag (loop_start has found the start flag). */
static void loop_flags(nus *u)
{
    for (int r = 0; r < u->nfile; r++) {
        rnode *x = &u->v[r];
        if (!is_op(x, "STOREB"))
            continue;
        if (base_is(x, "loopstart") ||
            (u->start >= 0 && x->has_const && u->v[u->start].has_const &&
             x->cst == u->v[u->start].cst && !base_is(x, "loopend")))
            x->kind = K_START_ST;
        else if (base_is(x, "loopend") || (!x->base && end_flag(u, r)))
            x->kind = K_END_ST;
        else
            continue;
        char a[64];
        int np, nd, p = pred_in(u, r, &np), d = data_in(u, r, &nd);
        const rnode *src = d >= 0 ? &u->v[u->e[d].src] : NULL;
        bool start = x->kind == K_START_ST;
        if (np != 1 || nd != 1 || !is_op(src, "MOVC") ||
            (start && u->e[p].src != u->start)) {
            cg__fdfg_error(&u->f, x->line, "%s: a STOREB to the loop's %s "
                           "flag (loop control) is read only with one "
                           "predicate input%s and a MOVC as its data",
                           desc(u, r, a, sizeof a), start ? "start" : "end",
                           start ? " (the loop-start LOADB)" : "");
            continue;
        }
        if (start)
            continue;
        if (u->end_st >= 0) {
            cg__fdfg_error(&u->f, x->line, "%s: a second STOREB to loopend "
                           "(the first is node %lld): read only with one "
                           "exit", desc(u, r, a, sizeof a),
                           u->v[u->end_st].idx);
            continue;
        }
        u->end_st = r;
        u->exit_pred = u->e[p].src;
        u->exit_npb = u->e[p].npb;
    }
}

/* ---- an idx declared twice ------------------------------------------ */

/* A node that takes no inputs: MOVC, OLOAD, the loop-start LOADB. */
static bool no_inputs(const rnode *x)
{
    return is_op(x, "MOVC") || x->kind == K_OLOAD ||
           (is_op(x, "LOADB") && base_is(x, "loopstart"));
}

/* The edges into twins a, b (all name a: find) that pass(u, e, arg) to
 * b, the others to a; the twins are told apart from then on. */
static void split_twins(nus *u, int a, int b,
                        bool (*pass)(const nus *, const redge *, int), int arg)
{
    for (int i = 0; i < u->ne; i++)
        if (u->e[i].dst == a && pass(u, &u->e[i], arg))
            u->e[i].dst = b;
    u->v[a].twin = u->v[b].twin = -1;
}

static bool any_edge(const nus *u, const redge *e, int arg)
{
    (void)u, (void)e, (void)arg;
    return true;
}

/* Older files of Morpher's generator declare one idx for two nodes (the
 * loop-start LOADB and a LOAD, a MOVC and a CMERGE); the edges into it
 * name the idx only.  When one of the two takes no inputs, they all go to
 * the other. */
static void twins_by_inputs(nus *u)
{
    for (int a = 0; a < u->nfile; a++) {
        int b = u->v[a].twin;
        if (b < a)
            continue;
        bool na = no_inputs(&u->v[a]), nb = no_inputs(&u->v[b]);
        if (na != nb)
            split_twins(u, a, b, any_edge, 0);
    }
}

/* Is e one of the loop-start flag's reset (a STOREB of MOVC 0 under the
 * flag)? */
static bool reset_edge(const nus *u, const redge *e, int start)
{
    const rnode *s = &u->v[e->src];
    return (e->type == T_P && e->src == start && !e->npb) ||
           (e->type == T_I1 && is_op(s, "MOVC") && s->has_const && !s->cst);
}

/* Twins that twins_by_inputs left: a CMERGE and the STOREB resetting the
 * loop-start flag (loop_start has found it) share an idx when the edges
 * of the reset (one predicate from the flag, one MOVC 0) are told apart
 * from the CMERGE's; any other pair is refused. */
static void twins_by_role(nus *u)
{
    for (int a = 0; a < u->nfile; a++) {
        int b = u->v[a].twin;
        if (b < a)
            continue;
        const rnode *x = &u->v[a], *y = &u->v[b];
        const rnode *st = is_op(x, "STOREB") ? x : y;
        const rnode *fl = u->start >= 0 ? &u->v[u->start] : NULL;
        int m = is_op(x, "CMERGE") ? a : b, flag = 0, movc = 0;
        bool reset = fl && is_op(st, "STOREB") && is_op(&u->v[m], "CMERGE") &&
                     (base_is(st, "loopstart") ||
                      (st->has_const && fl->has_const && st->cst == fl->cst));
        if (!reset) {
            cg__fdfg_error(&u->f, y->line, "node idx=\"%lld\" is declared "
                           "twice (first at line %d): a %s and a %s; the "
                           "edges into it name only the idx, so they are read "
                           "only when they tell the two apart: one takes no "
                           "inputs (MOVC, OLOAD, the loop-start LOADB), or a "
                           "CMERGE and the STOREB that resets the loop-start "
                           "flag", y->idx, x->line, x->op->name, y->op->name);
            continue;
        }
        for (int i = 0; i < u->ne; i++)
            if (u->e[i].dst == a && reset_edge(u, &u->e[i], u->start)) {
                flag += u->e[i].type == T_P;
                movc += u->e[i].type == T_I1;
            }
        if (flag != 1 || movc != 1) {
            cg__fdfg_error(&u->f, y->line, "node idx=\"%lld\" is declared "
                           "twice (first at line %d): a CMERGE and the STOREB "
                           "resetting the loop-start flag, but %d predicate "
                           "edges from the flag (node %lld) and %d MOVC 0 go "
                           "into it, where the STOREB takes one of each: "
                           "which node each feeds is not known", y->idx,
                           x->line, flag, fl->idx, movc);
            continue;
        }
        split_twins(u, a, b, reset_edge, u->start);
        if (m == b) /* the CMERGE is b: the others go to it */
            for (int i = 0; i < u->ne; i++)
                if (u->e[i].dst == a || u->e[i].dst == b)
                    u->e[i].dst = u->e[i].dst == a ? b : a;
    }
}

/* CMERGE c's predicate edge (-1: none) and its value: the source rnode
 * of its data edge, or a K_IMM of its CONST; false, reported, when it
 * has neither or more. */
static bool cmerge_parts(nus *u, int c, int *pred, int *val, int *vdist)
{
    char a[64];
    int np, nd, d = data_in(u, c, &nd);
    *pred = pred_in(u, c, &np);
    *vdist = d >= 0 ? u->e[d].next : 0;
    if (np > 1 || nd > 1 || (!nd && !u->v[c].has_const)) {
        cg__fdfg_error(&u->f, u->v[c].line, "%s: read only with at most one "
                       "predicate input and one value (a data input, or its "
                       "CONST); it has %d and %d%s", desc(u, c, a, sizeof a),
                       np, nd, nd ? "" : " and no CONST");
        return false;
    }
    if (d >= 0) {
        *val = u->e[d].src;
        return true;
    }
    if (u->v[c].latch >= 0) { /* its CONST's node, made before */
        *val = u->v[c].latch;
        return true;
    }
    int k = new_rnode(u, u->v[c].idx, u->v[c].line, K_IMM);
    if (k < 0)
        return false;
    u->v[k].has_const = true;
    u->v[k].cst = u->v[c].cst;
    u->v[c].latch = *val = k;
    return true;
}

/* Does CMERGE cm (its predicate edge pr, -1 none) pass phi s's next value
 * in every iteration that goes on: unconditionally or under the loop's
 * continue condition?  Refused (false) otherwise. */
static bool next_every_iteration(nus *u, int s, int cm, int pr)
{
    const redge *p = pr >= 0 ? &u->e[pr] : NULL;
    if (!p || (p->src == u->exit_pred && p->npb != u->exit_npb))
        return true;
    char a[64], c[64];
    cg__fdfg_error(&u->f, u->v[s].line, "%s: its CMERGE %lld passes the "
                   "next value only when %s is %s, which is not the "
                   "loop's continue condition (the opposite of the "
                   "STOREB to loopend's predicate%s); the value would "
                   "be missing in some iterations, which cgramap "
                   "cannot express", desc(u, s, a, sizeof a), u->v[cm].idx,
                   desc(u, p->src, c, sizeof c), p->npb ? "false" : "true",
                   u->end_st < 0 ? ", and the file has none" : "");
    return false;
}

/* SELECT s under the loop-start flag with one CMERGE, which passes the
 * value of the iteration before (edge m): a loop phi of an older
 * generator whose value before the first iteration the file does not
 * state.  Read with a live-in, n<idx>_init, as that value: a mapping that
 * works for any value works for the one the loop starts with, and the
 * verification gives it a seeded value.  Warned, since the file may mean
 * a particular one (Morpher's machine may start from 0). */
static void livein_phi(nus *u, int s, redge m)
{
    int pr, val, vd;
    if (!cmerge_parts(u, m.src, &pr, &val, &vd) ||
        !next_every_iteration(u, s, m.src, pr))
        return;
    char name[48], a[64], b[64];
    snprintf(name, sizeof name, "n%lld_init", u->v[s].idx);
    int k = new_rnode(u, u->v[s].idx, u->v[s].line, K_OLOAD);
    if (k < 0)
        return;
    u->v[k].op = cg__fop_find(nus_ops, "OLOAD");
    u->v[k].base = (char *)xmlStrdup((const xmlChar *)name);
    if (!u->v[k].base) {
        cg__fdfg_error(&u->f, u->v[s].line, "out of memory");
        return;
    }
    rnode *x = &u->v[s]; /* after new_rnode: u->v may have moved */
    x->role = R_PHI;
    x->init_livein = true;
    x->latch = val, x->dist = m.next + vd, x->init = k;
    cg_diags_add(u->f.d, CG_SEV_WARNING, u->f.file, x->line,
                 "%s: its predicate is the loop-start flag and its one "
                 "CMERGE, %s, passes the value of the iteration before: a "
                 "loop phi (of an older generator) whose value before the "
                 "first iteration the file does not state; read as a "
                 "live-in, '%s' (a mapping for any value maps it for the "
                 "one the loop starts with)", desc(u, s, a, sizeof a),
                 desc(u, m.src, b, sizeof b), name);
}

/* A SELECT fed by CMERGEs: a loop phi (one CMERGE passes the initial value
 * when the loop-start flag holds, the other the next value from the
 * iteration before) or an if-conversion (both of this iteration, under one
 * comparison with opposite polarity).  Anything else is refused. */
static void select_role(nus *u, int s)
{
    int in[2], k = 0, other = 0;
    bool merge = false;
    for (int i = 0; i < u->ne; i++) {
        const redge *e = &u->e[i];
        if (e->dst != s || e->type == T_PS)
            continue;
        if (u->v[e->src].kind == K_CMERGE) {
            merge = true;
            if (k < 2)
                in[k] = i;
            k++;
        } else {
            other++;
        }
    }
    if (!merge)
        return;
    char a[64], b[64], c[64];
    desc(u, s, a, sizeof a);
    int fp = -1; /* a predicate from the loop-start flag */
    for (int i = 0; i < u->ne; i++)
        if (u->e[i].dst == s && u->e[i].type == T_P && u->start >= 0 &&
            u->e[i].src == u->start)
            fp = i;
    int nd1, d1 = k == 1 ? data_in(u, u->e[in[0]].src, &nd1) : -1;
    if (k == 1 && other == 1 && fp >= 0 &&
        u->e[in[0]].next + (d1 >= 0 ? u->e[d1].next : 0) > 0) {
        livein_phi(u, s, u->e[in[0]]);
        return;
    }
    if (k != 2 || other) {
        cg__fdfg_error(&u->f, u->v[s].line, "%s merges %d CMERGEs and %d "
                       "other inputs: read only with two CMERGEs (a loop "
                       "phi, or an if-conversion under one comparison); "
                       "which input is valid cannot be proven otherwise", a,
                       k, other);
        return;
    }
    int cm[2], pr[2], val[2], vd[2];
    for (int j = 0; j < 2; j++) {
        cm[j] = u->e[in[j]].src;
        if (!cmerge_parts(u, cm[j], &pr[j], &val[j], &vd[j]))
            return;
    }
    rnode *x = &u->v[s];
    /* the phi: j = the initial value's CMERGE */
    for (int j = 0; j < 2; j++) {
        int o = 1 - j;
        if (pr[j] < 0 || u->e[pr[j]].src != u->start || u->start < 0 ||
            u->e[pr[j]].npb != 0 || u->e[in[j]].next + vd[j] != 0)
            continue;
        int dist = u->e[in[o]].next + vd[o];
        if (dist < 1) {
            cg__fdfg_error(&u->f, x->line, "%s: its CMERGE %lld passes the "
                           "initial value when the loop starts, but its "
                           "other input, %s, is not from the iteration "
                           "before (no nextiter=\"1\" on its way); not a "
                           "loop phi", a, u->v[cm[j]].idx,
                           desc(u, cm[o], b, sizeof b));
            return;
        }
        if (!next_every_iteration(u, s, cm[o], pr[o]))
            return;
        const rnode *iv = &u->v[val[j]];
        if (iv->kind != K_IMM && iv->kind != K_OLOAD && !is_op(iv, "MOVC")) {
            cg__fdfg_error(&u->f, x->line, "%s: the loop phi's initial value "
                           "is %s, computed, not a constant (MOVC, CONST) or "
                           "a live-in (OLOAD); cgramap's loop-carried edges "
                           "start from a constant or a live-in", a,
                           desc(u, val[j], b, sizeof b));
            return;
        }
        x->role = R_PHI;
        x->latch = val[o], x->dist = dist, x->init = val[j];
        return;
    }
    /* the if-conversion */
    if (pr[0] >= 0 && pr[1] >= 0 &&
        u->e[pr[0]].src == u->e[pr[1]].src &&
        u->e[pr[0]].npb != u->e[pr[1]].npb &&
        !(u->e[in[0]].next + vd[0]) && !(u->e[in[1]].next + vd[1])) {
        int p = u->e[pr[0]].src;
        if (u->v[p].kind != K_OP || !u->v[p].op ||
            u->v[p].op->op != CG_OP_ICMP) {
            cg__fdfg_error(&u->f, x->line, "%s: its CMERGEs are selected by "
                           "%s, not a comparison (CMP, CLT, CGT); read only "
                           "with a comparison as the select's condition", a,
                           desc(u, p, b, sizeof b));
            return;
        }
        int t = u->e[pr[0]].npb ? 1 : 0; /* NPB="0": when p is true */
        x->role = R_IF;
        x->opnd[0] = p, x->opnd[1] = val[t], x->opnd[2] = val[1 - t];
        return;
    }
    cg__fdfg_error(&u->f, x->line, "%s merges %s and %s, which are neither "
                   "a loop phi (one passes the initial value under the "
                   "loop-start LOADB, the other the value of the iteration "
                   "before) nor an if-conversion (one comparison, opposite "
                   "NPB, same iteration): which is valid cannot be proven",
                   a, desc(u, cm[0], b, sizeof b), desc(u, cm[1], c,
                                                        sizeof c));
}

/* Every edge's place is one that is read; refused otherwise. */
static void check_edges(nus *u)
{
    char a[64], b[64];
    for (int i = 0; i < u->ne; i++) {
        const redge *e = &u->e[i];
        const rnode *s = &u->v[e->src], *d = &u->v[e->dst];
        if (e->type == T_PS)
            continue;
        desc(u, e->src, a, sizeof a);
        desc(u, e->dst, b, sizeof b);
        if (s->kind == K_START && !(e->type == T_P && !e->npb &&
                                    (d->kind == K_START_ST ||
                                     d->kind == K_CMERGE || d->init_livein)))
            cg__fdfg_error(&u->f, e->line, "%s, the loop-start flag, feeds "
                           "%s%s: read only as the predicate (NPB=\"0\") of "
                           "a CMERGE passing a loop phi's initial value, of "
                           "the STOREB that resets it and of an older "
                           "generator's loop phi (a SELECT with one CMERGE)",
                           a, b,
                           e->type == T_P ? " as a predicate" : " as a value");
        else if (s->kind == K_CMERGE && !(d->kind == K_OP &&
                                          d->role != R_PLAIN))
            cg__fdfg_error(&u->f, e->line, "%s feeds %s: a CMERGE is read "
                           "only as an input of a SELECT (a loop phi or an "
                           "if-conversion); elsewhere it predicates its user, "
                           "and cgramap has no predicated execution", a, b);
        else if (s->kind == K_START_ST || s->kind == K_END_ST ||
                 s->kind == K_OSTORE || (s->op && s->op->op == CG_OP_STORE))
            cg__fdfg_error(&u->f, e->line, "%s has no value, but feeds %s",
                           a, b);
        else if (d->kind == K_START || d->kind == K_OLOAD)
            cg__fdfg_error(&u->f, e->line, "%s feeds node %lld, %s, which is "
                           "read only without inputs", a, d->idx,
                           d->kind == K_START ? "the loop-start flag (a "
                           "LOADB of loopstart)" : "a scalar live-in "
                           "(OLOAD)");
        else if (e->type == T_P && d->kind == K_OSTORE &&
                 (e->src != u->exit_pred || e->npb != u->exit_npb))
            cg__fdfg_error(&u->f, e->line, "a predicate edge (type=\"P\") "
                           "from %s into %s, a scalar live-out: read only "
                           "under the loop's exit condition (the STOREB to "
                           "loopend's predicate), where it is the value of "
                           "the last iteration", a, b);
        else if (e->type == T_P && d->kind == K_OP &&
                 d->op->op == CG_OP_STORE)
            cg__fdfg_error(&u->f, e->line, "a predicated store: %s writes "
                           "only when %s is %s (a predicate edge, "
                           "type=\"P\"); cgramap has no predicated "
                           "execution, and storing select(predicate, value, "
                           "the old value loaded) is not the same loop: it "
                           "reads and writes the address in iterations where "
                           "the loop does not touch it (an address that may "
                           "lie outside the arrays then, a store that can "
                           "overwrite another's value); not read (where "
                           "the old value is safe to read, store the "
                           "selected value unconditionally in the source)",
                           b, a,
                           e->npb ? "false" : "true");
        else if (e->type == T_P && d->kind == K_OP &&
                 !(d->op->op == CG_OP_SELECT && d->role == R_PLAIN) &&
                 !(s->kind == K_START && d->init_livein))
            cg__fdfg_error(&u->f, e->line, "a predicate edge (type=\"P\") "
                           "from %s into %s: Morpher's partial predication "
                           "runs the op only when the predicate holds; "
                           "cgramap has no predicated execution (read: a "
                           "SELECT's condition, CMERGEs merged by a SELECT, "
                           "the loop control)", a, b);
    }
}

static bool has_type(const nus *u, int dst, int type)
{
    for (int i = 0; i < u->ne; i++)
        if (u->e[i].dst == dst && u->e[i].type == type)
            return true;
    return false;
}

/* The operands an edge of type t feeds at an op: *k of them.  I3 is both
 * operands of an op it alone feeds (Morpher's x * x); beside another
 * input it is the operand that input leaves (lower). */
static void operands_of(int t, cg_op dst, int *ops, int *k)
{
    bool sel = dst == CG_OP_SELECT;
    *k = 0;
    if (t == T_P) {
        ops[(*k)++] = 0;
    } else if (dst == CG_OP_LOAD || dst == CG_OP_OUTPUT) {
        ops[(*k)++] = 0;        /* the address, the value */
    } else if (dst == CG_OP_STORE) {
        ops[(*k)++] = t == T_I2 ? 0 : 1; /* I2 the address, I1 the data */
        if (t == T_I3)
            ops[(*k)++] = 0;
    } else {
        if (t == T_I1 || t == T_I3)
            ops[(*k)++] = sel ? 1 : 0;
        if (t == T_I2 || t == T_I3)
            ops[(*k)++] = sel ? 2 : 1;
    }
}

/* The width of r's value: Morpher's ops yield words (32 bits), its LOADH
 * and LOADB (and OLOADH, OLOADB) the bits loaded, its compares 1 bit
 * here (a SELECT's condition). */
static int width_of(const nus *u, int r)
{
    const rnode *x = &u->v[r];
    return x->kind == K_CONV ? x->width : x->kind == K_IMM || !x->op ? 32
           : x->op->width;
}

/* The width operand k of dst takes: a word, except a store's data (the
 * bits stored), a SELECT's condition (1 bit) and a SEXT's operand (the
 * bits it extends); 0 for a conversion (it takes what it converts). */
static int width_wanted(const nus *u, int dst, int k)
{
    const rnode *d = &u->v[dst];
    if (d->kind == K_CONV)
        return 0;
    if (d->kind != K_OP || !d->op)
        return 32;
    if (d->op->op == CG_OP_STORE && k == 1)
        return d->op->width;
    if (d->op->op == CG_OP_SELECT && k == 0)
        return 1;
    return d->op->op == CG_OP_SEXT ? d->width : 32;
}

/* src's value in width w (zext or trunc of it, made once), or src when
 * it has that width; -1 when out of memory.  Morpher's machine holds
 * words: a LOADH zero-extends what it loads (ecolab-nus/hycube_simulator,
 * CGRATile::load), a compare yields 0 or 1, a STOREH stores the low 16
 * bits. */
static int in_width(nus *u, int src, int w, int line)
{
    int have = width_of(u, src);
    if (!w || w == have || w == 1) /* a wider condition: cg_dfg_check */
        return src;
    for (int r = u->nfile; r < u->n; r++)
        if (u->v[r].kind == K_CONV && u->v[r].latch == src &&
            u->v[r].width == w)
            return r;
    static const cg__fop zext = {"zext", CG_OP_ZEXT, 32, 0};
    static const cg__fop trunc = {"trunc", CG_OP_TRUNC, 32, 0};
    int z = new_rnode(u, u->v[src].idx, u->v[src].line, K_CONV);
    if (z < 0)
        return -1;
    u->v[z].op = have < w ? &zext : &trunc;
    u->v[z].width = w;
    u->v[z].latch = src; /* what it converts */
    if (CG_GROW(u->l, u->lcap, u->nl + 1) < 0) {
        cg__fdfg_error(&u->f, line, "out of memory");
        return -1;
    }
    u->l[u->nl++] = (ledge){src, z, 0, 0, -1, line};
    return z;
}

static void add_ledge(nus *u, int src, int dst, int operand, int dist,
                      int line)
{
    int init = -1;
    const rnode *s = &u->v[src];
    if (s->kind == K_OP && s->role == R_PHI) { /* read its next value */
        init = s->init;
        dist += s->dist;
        src = s->latch;
    }
    src = in_width(u, src, width_wanted(u, dst, operand), line);
    if (src < 0)
        return;
    if (CG_GROW(u->l, u->lcap, u->nl + 1) < 0) {
        cg__fdfg_error(&u->f, line, "out of memory");
        return;
    }
    u->l[u->nl++] = (ledge){src, dst, operand, dist, init, line};
}

/* Does r stand in the graph as a node of its own? */
static bool is_node(const rnode *r)
{
    return (r->kind == K_OP && r->role != R_PHI) || r->kind == K_OLOAD ||
           r->kind == K_OSTORE || r->kind == K_IMM || r->kind == K_SUM ||
           r->kind == K_CONV;
}

/* The edges of the graph, between rnodes. */
static void lower(nus *u)
{
    int *nd = calloc((size_t)u->nfile + 1, sizeof *nd);
    int *next = calloc((size_t)u->nfile + 1, sizeof *next);
    if (!nd || !next) {
        cg__fdfg_error(&u->f, 0, "out of memory");
        goto out;
    }
    for (int i = 0; i < u->ne; i++) { /* the data edges into each node */
        int t = u->e[i].type, *n = &nd[u->e[i].dst];
        if (t > T_I3)
            continue;
        if (*n & 1 << (t + 8)) /* a type twice: Morpher's GEP */
            *n |= 1 << 16;
        *n = (*n | 1 << (t + 8)) + 1;
    }
    for (int i = 0; i < u->ne; i++) {
        const redge *e = &u->e[i];
        const rnode *d = &u->v[e->dst];
        if (e->type == T_PS) {
            u->pseudo++; /* orders only: the mapper orders by data, memory */
            continue;
        }
        const rnode *s = &u->v[e->src];
        if (!(is_node(s) || (s->kind == K_OP && s->role == R_PHI)) ||
            !is_node(d) || d->role == R_IF ||
            (e->type == T_P && d->kind == K_OSTORE))
            continue; /* loop control, CMERGEs: read above */
        int ops[2], k, t = e->type;
        int n = nd[e->dst] & 255; /* data edges; bit 16: a type twice */
        if (d->op->op == CG_OP_ADD && n > 1 && t != T_P)
            u->v[e->dst].sum = true; /* CONST is one more term */
        if (d->op->op == CG_OP_ADD && t != T_P &&
            (n > 2 || nd[e->dst] >> 16)) {
            /* a sum (Morpher's GEP of its indices, two may both be I2):
             * the terms in file order, more than two made a chain in
             * immediates */
            add_ledge(u, e->src, e->dst, next[e->dst]++, e->next, e->line);
            continue;
        }
        if (t == T_I3 && n > 1) /* Morpher's mapper reads it as I1 */
            t = has_type(u, e->dst, T_I1) ? T_I2 : T_I1;
        operands_of(t, d->op->op, ops, &k);
        for (int j = 0; j < k; j++)
            add_ledge(u, e->src, e->dst, ops[j], e->next, e->line);
    }
    for (int s = 0; s < u->nfile; s++)
        if (u->v[s].role == R_IF)
            for (int j = 0; j < 3; j++)
                add_ledge(u, u->v[s].opnd[j], s, j, 0, u->v[s].line);
out:
    free(nd);
    free(next);
}

/* Keep what a store or a live-out needs, through the edges (and their
 * initial values): what fed only the loop control and the predicates read
 * above goes (a comparison, the flags' MOVCs, a counter used by nothing
 * else).  An op the file gives no use at all stays, as the file has it. */
static void drop_unused(nus *u)
{
    int *first = malloc(sizeof *first * (size_t)(u->n + 1));
    int *next = malloc(sizeof *next * (size_t)(u->nl + 1));
    int *stack = malloc(sizeof *stack * (size_t)(u->n + 1));
    if (!first || !next || !stack) {
        cg__fdfg_error(&u->f, 0, "out of memory");
        goto out;
    }
    for (int i = 0; i < u->n; i++) {
        u->v[i].drop = true;
        first[i] = -1;
    }
    for (int i = 0; i < u->nl; i++) { /* the edges into each node */
        next[i] = first[u->l[i].dst];
        first[u->l[i].dst] = i;
    }
    for (int i = 0; i < u->ne; i++)
        if (u->e[i].type != T_PS)
            u->v[u->e[i].src].uses++;
    int top = 0;
    for (int i = 0; i < u->n; i++) {
        rnode *x = &u->v[i];
        if (x->kind == K_OSTORE ||
            (x->kind == K_OP && x->role != R_PHI &&
             (x->op->op == CG_OP_STORE || !x->uses))) {
            x->drop = false;
            stack[top++] = i;
        }
    }
    while (top) {
        int r = stack[--top];
        for (int i = first[r]; i >= 0; i = next[i]) {
            int from[2] = {u->l[i].src, u->l[i].init};
            for (int k = 0; k < 2; k++)
                if (from[k] >= 0 && u->v[from[k]].drop) {
                    u->v[from[k]].drop = false;
                    stack[top++] = from[k];
                }
        }
    }
out:
    free(first);
    free(next);
    free(stack);
}

/* CONST="v" of an op: a const node on the first operand no edge fills. */
/* An add r of terms (ledges) at operands 0 .. t-1, t > 2: r adds term 0
 * to a chain of K_SUMs, each adding one term to the next, the last two
 * terms. */
static void sum_chain(nus *u, int r, int t)
{
    int *term = malloc(sizeof *term * (size_t)t), prev = r;
    if (!term) {
        cg__fdfg_error(&u->f, u->v[r].line, "out of memory");
        return;
    }
    for (int i = 0; i < u->nl; i++)
        if (u->l[i].dst == r)
            term[u->l[i].operand] = i;
    for (int j = 1; j < t - 1; j++) {
        int y = new_rnode(u, u->v[r].idx, u->v[r].line, K_SUM);
        if (y < 0)
            break;
        u->v[y].op = u->v[r].op;
        add_ledge(u, y, prev, 1, 0, u->v[r].line);
        u->l[term[j]].dst = y, u->l[term[j]].operand = 0;
        if (j == t - 2)
            u->l[term[t - 1]].dst = y, u->l[term[t - 1]].operand = 1;
        prev = y;
    }
    free(term);
}

/* CONST="v" of an op: a const node on the first operand no edge fills;
 * an add whose operands all have edges (Morpher's GEP of its indices and
 * its base address) adds it as one more term (0 adds nothing). */
static void immediates(nus *u)
{
    int nfile = u->nfile;
    for (int r = 0; r < nfile; r++) {
        rnode *x = &u->v[r];
        if (x->drop || x->kind != K_OP || x->op->op == CG_OP_CONST ||
            x->op->op == CG_OP_SEXT) /* its CONST: the widths */
            continue;
        cg_op op = x->op->op;
        unsigned filled = 0;
        int terms = 0;
        for (int i = 0; i < u->nl; i++)
            if (u->l[i].dst == r) {
                filled |= 1u << (u->l[i].operand & 31);
                terms++;
            }
        int k = 0;
        while (k < cg_op_arity(op) && (filled >> k & 1))
            k++;
        bool sum = x->sum;
        if (x->has_const && (!sum || x->cst)) {
            if (k == cg_op_arity(op) && !sum) {
                cg__fdfg_error(&u->f, x->line, "node %lld: CONST=\"%lld\" "
                               "but every operand of its %s has an edge",
                               x->idx, x->cst, cg_op_name(op));
                continue;
            }
            int c = new_rnode(u, x->idx, x->line, K_IMM);
            if (c < 0)
                return;
            u->v[c].has_const = true;
            u->v[c].cst = u->v[r].cst;
            add_ledge(u, c, r, sum ? terms++ : k, 0, u->v[c].line);
        }
        if (sum && terms > 2)
            sum_chain(u, r, terms);
    }
}

static void heap_push(int *h, int *n, int v)
{
    int k = (*n)++;
    for (; k && h[(k - 1) / 2] > v; k = (k - 1) / 2)
        h[k] = h[(k - 1) / 2];
    h[k] = v;
}

static int heap_pop(int *h, int *n)
{
    int top = h[0], v = h[--*n], k = 0;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1] < h[c])
            c++;
        if (h[c] >= v)
            break;
        h[k] = h[c];
        k = c;
    }
    if (*n)
        h[k] = v;
    return top;
}

/* The order of the graph's nodes: the file's kept nodes in an order of
 * their distance-0 edges (through the nodes made here), the live-ins
 * (OLOAD) first, then the lowest idx first among those ready (Morpher
 * numbers a GEP's or a load's node after a store that uses it, and the
 * interpreter and mapper take memory ops in node order), then the nodes
 * made here (consts, sums, conversions: no memory ops) in the order they
 * were made.  Into ord; the count. */
static int node_order(nus *u, int *ord)
{
    int *deg = calloc((size_t)u->n + 1, sizeof *deg);
    int *heap = malloc(sizeof *heap * ((size_t)u->n + 1));
    int k = 0, nh = 0, n = u->n;
    if (!deg || !heap) {
        cg__fdfg_error(&u->f, 0, "out of memory");
        free(deg);
        free(heap);
        return 0;
    }
    for (int i = 0; i < u->nl; i++)
        if (!u->l[i].dist && u->v[u->l[i].src].kind != K_IMM)
            deg[u->l[i].dst]++;
    /* key r: first (a live-in, made here), n + r: by idx */
#define KEY(r) ((r) + (u->v[r].kind == K_OLOAD || (r) >= u->nfile ? 0 : n))
    for (int r = 0; r < u->n; r++)
        if (!u->v[r].drop && !deg[r] && u->v[r].kind != K_IMM)
            heap_push(heap, &nh, KEY(r));
    while (nh) {
        int r = heap_pop(heap, &nh) % n;
        if (r < u->nfile)
            ord[k++] = r;
        deg[r] = -1;
        for (int i = 0; i < u->nl; i++) /* small graphs: a scan */
            if (u->l[i].src == r && !u->l[i].dist && !--deg[u->l[i].dst] &&
                !u->v[u->l[i].dst].drop)
                heap_push(heap, &nh, KEY(u->l[i].dst));
    }
#undef KEY
    for (int r = 0; r < u->n; r++) /* a cycle (cg_dfg_check says), the */
        if (!u->v[r].drop && (deg[r] >= 0 || r >= u->nfile)) /* made */
            ord[k++] = r;
    free(deg);
    free(heap);
    return k;
}

/* The graph: the rnodes kept (node_order), then the edges. */
static void emit(nus *u)
{
    int *ord = malloc(sizeof *ord * ((size_t)u->n + 1));
    int n = ord ? node_order(u, ord) : 0;
    if (!ord)
        cg__fdfg_error(&u->f, 0, "out of memory");
    for (int j = 0; j < n && !u->f.errors; j++) {
        rnode *x = &u->v[ord[j]];
        char name[48];
        if (x->kind == K_CONV && x->width == 32) /* n6_zext */
            snprintf(name, sizeof name, "n%lld_%s", x->idx, x->op->name);
        else if (x->kind == K_CONV) /* n30_trunc16 */
            snprintf(name, sizeof name, "n%lld_%s%d", x->idx, x->op->name,
                     x->width);
        else if (x->kind == K_OLOAD && ord[j] >= u->nfile) /* n0_init */
            snprintf(name, sizeof name, "%s", x->base);
        else if (x->kind >= K_IMM)
            snprintf(name, sizeof name, "n%lld_%s", x->idx,
                     x->kind == K_IMM ? "const" : "sum");
        else
            snprintf(name, sizeof name, "n%lld", x->idx);
        cg_op op = x->kind == K_IMM ? CG_OP_CONST : x->op->op;
        x->id = cg__fdfg_node(&u->f, op, width_of(u, ord[j]), name,
                              x->line);
        if (x->id < 0)
            break;
        cg_dfg_node_mut(u->f.g, x->id)->pred = x->op ? x->op->pred
                                                    : CG_PRED_NONE;
        if (op == CG_OP_CONST && x->has_const)
            cg_dfg_set_value(u->f.g, x->id, x->cst);
        if (x->kind == K_OLOAD && x->base)
            cg_dfg_set_sym(u->f.g, x->id, x->base);
    }
    free(ord);
    for (int i = 0; i < u->nl && !u->f.errors; i++) {
        const ledge *l = &u->l[i];
        if (u->v[l->dst].drop)
            continue;
        int e = cg__fdfg_edge(&u->f, u->v[l->src].id, u->v[l->dst].id,
                              l->operand, l->dist, l->line);
        if (e >= 0 && l->init >= 0)
            cg_dfg_edge_mut(u->f.g, e)->init = u->v[l->init].id;
        if (e >= 0 && u->v[l->dst].kind == K_OSTORE) /* the value's width */
            cg_dfg_node_mut(u->f.g, u->v[l->dst].id)->width =
                cg_dfg_get_node(u->f.g, u->v[l->src].id)->width;
    }
}

static void add_order(cg_mem_order **v, int *nv, cg_mem_order o)
{
    cg_mem_order *w = realloc(*v, sizeof *w * (size_t)(*nv + 1));
    if (w) {
        *v = w;
        w[(*nv)++] = o;
    }
}

static bool mem_node(const nus *u, int r)
{
    const rnode *x = &u->v[r];
    return x->id >= 0 && x->kind == K_OP && cg__dfg_is_mem(x->op->op);
}

/* The memory order a NUS file states: within an iteration, every pair of
 * memory ops with a store among them in node order (node_order; the file
 * says nothing there, so all are kept); across iterations, its RecParents
 * between memory ops, in both directions: each access of iteration i
 * before the other's of iteration i + 1 (Morpher names a store's load as
 * its RecParent where the next iteration's load reads what the store
 * wrote).  Other RecParents are dropped (a data edge with
 * nextiter carries them), and so are those of the loop control. */
static void rec_parents(nus *u, cg_mem_order **v, int *nv)
{
    for (int a = 0; a < u->nfile; a++)
        for (int b = a + 1; b < u->nfile; b++) {
            if (!mem_node(u, a) || !mem_node(u, b))
                continue;
            int x = u->v[a].id, y = u->v[b].id; /* in node order */
            if (u->v[a].op->op == CG_OP_STORE ||
                u->v[b].op->op == CG_OP_STORE)
                add_order(v, nv, (cg_mem_order){x < y ? x : y, x < y ? y : x,
                                                0, 0});
        }
    for (int r = 0; r < u->nfile; r++) {
        const xmlNode *rp = child(u->v[r].x, "RecParents");
        for (const xmlNode *p = rp ? rp->children : NULL; p; p = p->next) {
            long long pidx;
            if (p->type != XML_ELEMENT_NODE ||
                !int_attr(u, p, "idx", 0, 1 << 30, -1, &pidx))
                continue;
            int par = find(u, pidx);
            if (par >= 0 && par + 1 < u->nfile && !mem_node(u, par) &&
                u->v[par + 1].idx == pidx) /* the twin accessing memory */
                par++;
            if (par < 0) {
                cg__fdfg_error(&u->f, line_of(p), "<RecParent> of node %lld "
                               "names no node (idx=\"%lld\")", u->v[r].idx,
                               pidx);
                continue;
            }
            if (mem_node(u, par) && mem_node(u, r)) {
                add_order(v, nv, (cg_mem_order){u->v[par].id, u->v[r].id, 1,
                                                0});
                add_order(v, nv, (cg_mem_order){u->v[r].id, u->v[par].id, 1,
                                                0});
            }
        }
    }
}

/* Morpher's SEXT: CONST holds the widths in bytes, (from << 16) | to
 * (ecolab-nus/hycube_simulator, CGRATile::sext); read from a byte or a
 * half-word to a word. */
static void sext_from(nus *u)
{
    for (int r = 0; r < u->nfile; r++) {
        rnode *x = &u->v[r];
        long long from = x->cst >> 16;
        if (!is_op(x, "SEXT"))
            continue;
        if (x->has_const && (x->cst & 0xffff) == 4 && (from == 1 || from == 2))
            x->width = 8 * (int)from;
        else if (x->has_const)
            cg__fdfg_error(&u->f, x->line, "node %lld: SEXT CONST=\"%lld\" "
                           "is read only as (bytes from << 16) | bytes to, "
                           "from 1 or 2 bytes to 4 (65540, 131076: a byte or "
                           "a half-word extended to a word)", x->idx,
                           x->cst);
        else
            cg__fdfg_error(&u->f, x->line, "node %lld: a SEXT without CONST "
                           "(Morpher's generator writes the widths there, "
                           "(bytes from << 16) | bytes to)", x->idx);
    }
}

/* Morpher's generator without partial predication folds a loop phi into
 * its user: one operand fed by a value of this iteration (the initial
 * value) and by one of the iteration before (nextiter).  Which it takes
 * in which iteration is not stated: refused (read as a sum, it would add
 * both). */
static void folded_phis(nus *u)
{
    char a[64], b[64], c[64];
    for (int i = 0; i < u->ne; i++)
        for (int j = 0; j < u->ne; j++) {
            const redge *x = &u->e[i], *y = &u->e[j];
            if (x->dst != y->dst || x->type != y->type || x->type > T_I3 ||
                x->next || !y->next || u->v[x->src].kind == K_CMERGE ||
                u->v[y->src].kind == K_CMERGE) /* CMERGEs: select_role */
                continue;
            cg__fdfg_error(&u->f, y->line, "%s: its %s is fed by %s of this "
                           "iteration and by %s of the iteration before "
                           "(nextiter=\"%d\"), with no SELECT between them "
                           "(a loop phi folded into its user, as Morpher's "
                           "generator writes without partial predication): "
                           "which value it takes in which iteration is not "
                           "stated; not read", desc(u, x->dst, a, sizeof a),
                           type_name[x->type], desc(u, x->src, b, sizeof b),
                           desc(u, y->src, c, sizeof c), y->next);
            i = u->ne; /* one message a file: every such op is alike */
            break;
        }
}

static void build(nus *u)
{
    for (int r = 0; r < u->nfile; r++)
        read_outputs(u, r);
    if (u->f.errors)
        return;
    sext_from(u);
    twins_by_inputs(u);
    loop_start(u);
    twins_by_role(u);
    if (u->f.errors)
        return;
    loop_flags(u);
    for (int r = 0; r < u->nfile && !u->f.errors; r++)
        if (is_op(&u->v[r], "SELECT"))
            select_role(u, r);
    for (int r = 0; r < u->nfile && !u->f.errors; r++) {
        const rnode *x = &u->v[r];
        char a[64], b[64];
        if (x->role == R_PHI && u->v[x->latch].role == R_PHI)
            cg__fdfg_error(&u->f, x->line, "%s: the loop phi's next value "
                           "is the loop phi %s (a value kept two "
                           "iterations); not read", desc(u, r, a, sizeof a),
                           desc(u, x->latch, b, sizeof b));
    }
    if (!u->f.errors)
        folded_phis(u);
    if (!u->f.errors)
        check_edges(u);
    if (u->f.errors)
        return;
    lower(u);
    drop_unused(u);
    immediates(u);
    if (!u->f.errors)
        emit(u);
}

static void nus_free(nus *u)
{
    for (int i = 0; i < u->n; i++)
        xmlFree(u->v[i].base);
    free(u->v);
    free(u->e);
    free(u->l);
}

/* libxml2's first error (its last is often a consequence), kept in the
 * parser context's _private: no global handler. */
#if LIBXML_VERSION >= 21200
typedef const xmlError *xerr;
#else
typedef xmlError *xerr;
#endif
static void keep_first(void *ctx, xerr e)
{
    xmlError *first = ((xmlParserCtxt *)ctx)->_private;
    if (!first->message && e && e->message) {
        first->message = strndup(e->message, strcspn(e->message, "\n"));
        first->line = e->line;
    }
}

/* The text as a strict XML parser takes it, every line where it was: one
 * <file> element around everything after a byte order mark and an XML
 * declaration (Morpher puts
 * <MutexBB> and <DFG> side by side), and a blank after an attribute's
 * closing quote that a name follows.  NULL when out of memory. */
static char *tidy(const char *text)
{
    static const char open[] = "<file>", close[] = "</file>";
    size_t n = strlen(text), k = 0, at = 0;
    char *out = malloc(2 * n + sizeof open + sizeof close);
    if (!out)
        return NULL;
    if (!strncmp(text, "\xEF\xBB\xBF", 3)) /* a byte order mark */
        at = 3;
    const char *decl = strncmp(text + at, "<?xml", 5) ? NULL
                       : strstr(text + at, "?>");
    if (decl)
        at = (size_t)(decl + 2 - text);
    memcpy(out, text, at);
    k = at;
    memcpy(out + k, open, sizeof open - 1);
    k += sizeof open - 1;
    bool tag = false;
    char quote = 0;
    for (size_t i = at; i < n; i++) {
        char c = text[i];
        if (!tag && c == '<' && !strncmp(text + i, "<!--", 4)) {
            const char *end = strstr(text + i, "-->");
            size_t len = end ? (size_t)(end + 3 - (text + i)) : n - i;
            memcpy(out + k, text + i, len);
            k += len, i += len - 1;
            continue;
        }
        out[k++] = c;
        if (quote) {
            if (c == quote) {
                quote = 0;
                char next = text[i + 1];
                if (next == '_' || (next >= 'A' && next <= 'Z') ||
                    (next >= 'a' && next <= 'z'))
                    out[k++] = ' ';
            }
        } else if (tag && (c == '"' || c == '\'')) {
            quote = c;
        } else if (c == '<') {
            tag = true;
        } else if (c == '>') {
            tag = false;
        }
    }
    memcpy(out + k, close, sizeof close);
    return out;
}

static xmlDoc *parse(const char *path, const char *text, cg_diags *d)
{
    xmlParserCtxt *ctxt = xmlNewParserCtxt();
    xmlError first = {0};
    xmlDoc *doc = NULL;
    if (ctxt) {
        ctxt->_private = &first;
        ctxt->sax->serror = keep_first;
        doc = xmlCtxtReadMemory(ctxt, text, (int)strlen(text), path, NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR |
                                XML_PARSE_NOWARNING);
        if (doc && (!ctxt->wellFormed || first.message)) {
            xmlFreeDoc(doc);
            doc = NULL;
        }
        xmlFreeParserCtxt(ctxt);
    }
    if (!doc)
        cg_diags_add(d, CG_SEV_ERROR, path, first.line, "malformed XML: %s; "
                     "fix the XML syntax there", first.message ? first.message
                     : "the parser gave up");
    free(first.message);
    return doc;
}

/* The one <DFG> among the file's top elements (Morpher's <MutexBB>, the
 * basic blocks that never run together, is left out: cgramap has no
 * predicated execution to share registers between them); NULL, reported,
 * when there is none or something else. */
static xmlNode *the_dfg(nus *u, const xmlNode *file)
{
    xmlNode *dfg = NULL;
    bool bad = false;
    for (xmlNode *x = file ? file->children : NULL; x; x = x->next) {
        if (x->type != XML_ELEMENT_NODE)
            continue;
        const char *name = (const char *)x->name;
        if (!strcmp(name, "DFG") && dfg) {
            cg__fdfg_error(&u->f, line_of(x), "a second <DFG> (the first at "
                           "line %d): a file holds one loop's DFG",
                           line_of(dfg));
            bad = true;
        } else if (!strcmp(name, "DFG")) {
            dfg = x;
        } else if (strcmp(name, "MutexBB")) {
            cg__fdfg_error(&u->f, line_of(x), "the root must be <DFG> (the "
                           "NUS mappers' DFG XML, beside it Morpher's "
                           "<MutexBB>), not <%s>", name);
            bad = true;
        }
    }
    if (!dfg && !bad)
        cg__fdfg_error(&u->f, 0, "no <DFG> in the file (the NUS mappers' "
                       "DFG XML)");
    return bad ? NULL : dfg;
}

cg_dfg *cg_dfg_read_nus_xml(const char *path, cg_diags *d)
{
    nus u = {0};
    char *text = cg__fdfg_slurp(path, d);
    char *tidied = text ? tidy(text) : NULL;
    if (text && !tidied)
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "out of memory");
    xmlDoc *doc = tidied ? parse(path, tidied, d) : NULL;
    free(text);
    free(tidied);
    if (!doc)
        return NULL;
    if (cg__fdfg_init(&u.f, path, d) < 0) {
        xmlFreeDoc(doc);
        return NULL;
    }
    xmlNode *root = the_dfg(&u, xmlDocGetRootElement(doc));
    if (root)
        read_nodes(&u, root);
    if (!u.f.errors)
        build(&u);
    cg_mem_order *mo = NULL;
    int nmo = 0;
    if (!u.f.errors)
        rec_parents(&u, &mo, &nmo);
    cg_dfg *g = cg__fdfg_finish(&u.f);
    if (g && cg_dfg_set_mem_order(g, mo, nmo, d) != 0) {
        cg_dfg_destroy(g);
        g = NULL;
    }
    free(mo);
    nus_free(&u);
    xmlFreeDoc(doc);
    return g;
}

cg_dfg *cg_dfg_read_file(const char *path, cg_diags *d)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        cg_diags_add(d, CG_SEV_ERROR, path, 0, "is a directory, not a file; "
                     "name a .dot, .xml, .txt or NAME_nodes DFG file");
        return NULL;
    }
    const char *ext = strrchr(path, '.');
    size_t len = strlen(path);
    if (len > 6 && !strcmp(path + len - 6, "_nodes"))
        return cg__dfg_read_satmapit(path, d);
    if (ext && !strcmp(ext, ".dot"))
        return cg_dfg_read_dot(path, d);
    if (ext && !strcmp(ext, ".xml"))
        return cg_dfg_read_nus_xml(path, d);
    if (ext && !strcmp(ext, ".txt"))
        return cg_dfg_read_text(path, d);
    cg_diags_add(d, CG_SEV_ERROR, path, 0, "not a DFG file: a DFG is read "
                 "from .dot (CGRA-ME, cgramap), .xml (the NUS mappers), "
                 ".txt (the SAT-based mappers' text form) or NAME_nodes "
                 "(SAT-MapIt's files)");
    return NULL;
}
