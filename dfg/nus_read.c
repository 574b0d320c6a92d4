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
 * SELECT: 1 and 2), I3 both, P a SELECT's condition (operand 0), PS a
 * pseudo edge that orders without a value (dropped); nextiter="1" is a
 * loop-carried edge (distance 1).  CONST is an immediate: a const node
 * feeding the first operand no edge fills.  A RecParent between memory
 * ops is a memory order (distance 1).  docs/dfg.md has the opcodes and
 * what is dropped.
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
    {"MOVC", CG_OP_CONST, 32, 0}, {NULL, 0, 0, 0}};

typedef struct nus {
    cg__fdfg f;
    xmlNode **node;   /* by graph id: its <Node> */
    long *idx;        /* by graph id: its idx */
    int n;            /* <Node>s */
    int pseudo;       /* PS edges dropped */
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

static int find(const nus *u, long long idx)
{
    for (int i = 0; i < u->n; i++)
        if (u->idx[i] == idx)
            return i;
    return -1;
}

/* Morpher's <GEPOffset>: 0 is all its files write and adds nothing;
 * whether another value is in CONST already is not known here. */
static bool gep_offset(nus *u, const xmlNode *k)
{
    xmlChar *t = xmlNodeGetContent(k);
    const char *v = t ? (const char *)t : "";
    v += strspn(v, " \t\r\n");
    size_t len = strcspn(v, " \t\r\n");
    bool zero = len == 1 && *v == '0' && !v[len + strspn(v + len,
                                                         " \t\r\n")];
    if (!zero)
        cg__fdfg_error(&u->f, line_of(k), "<GEPOffset>%s</GEPOffset>: only "
                       "0 is read (whether CONST holds another offset "
                       "already is not known)", t ? (const char *)t : "");
    xmlFree(t);
    return zero;
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
            ok = gep_offset(u, k) && ok;
        }
    }
    if (!xmlHasProp(x, (const xmlChar *)"idx")) {
        cg__fdfg_error(&u->f, line_of(x), "<Node> needs idx=\"...\"");
        return false;
    }
    return int_attr(u, x, "idx", 0, 1 << 30, 0, idx) && ok;
}

static void add_nodes(nus *u, xmlNode *root)
{
    int cap = 0;
    for (xmlNode *x = root->children; x; x = x->next)
        cap += x->type == XML_ELEMENT_NODE;
    u->node = calloc((size_t)cap + 1, sizeof *u->node);
    u->idx = calloc((size_t)cap + 1, sizeof *u->idx);
    xmlNode **all = calloc((size_t)cap + 1, sizeof *all);
    long long *idx = calloc((size_t)cap + 1, sizeof *idx);
    if (!u->node || !u->idx || !all || !idx) {
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
        if (i && idx[i] == idx[i - 1]) {
            cg__fdfg_error(&u->f, line_of(all[i]), "node idx=\"%lld\" is "
                           "declared twice (first at line %d)", idx[i],
                           line_of(all[i - 1]));
            continue;
        }
        xmlNode *opn = child(all[i], "OP");
        xmlChar *text = opn ? xmlNodeGetContent(opn) : NULL;
        char *t = text ? (char *)text : NULL;
        while (t && strchr(" \t\r\n", *t) && *t)
            t++;
        size_t len = t ? strcspn(t, " \t\r\n") : 0;
        if (t)
            t[len] = 0;
        const cg__fop *op = t ? cg__fop_find(nus_ops, t) : NULL;
        if (!op) {
            char list[256];
            cg__fop_list(nus_ops, list, sizeof list);
            if (!opn)
                cg__fdfg_error(&u->f, line_of(all[i]), "node %lld has no "
                               "<OP> (opcodes: %s)", idx[i], list);
            else if (!strcmp(t, "CMERGE"))
                cg__fdfg_error(&u->f, line_of(opn), "node %lld: CMERGE "
                               "(Morpher's partial-predication merge, a "
                               "value passed on when its predicate holds) is "
                               "not read: cgramap has no predicated "
                               "execution", idx[i]);
            else
                cg__fdfg_error(&u->f, line_of(opn), "node %lld: unknown "
                               "opcode '%s' (opcodes: %s)", idx[i], t,
                               list);
            xmlFree(text);
            continue;
        }
        xmlFree(text);
        char name[32];
        snprintf(name, sizeof name, "n%lld", idx[i]);
        int id = cg__fdfg_node(&u->f, op->op, op->width, name,
                               line_of(all[i]));
        if (id < 0)
            break;
        cg_dfg_node_mut(u->f.g, id)->pred = op->pred;
        u->node[id] = all[i];
        u->idx[id] = idx[i];
        u->n = id + 1;
    }
    free(all);
    free(idx);
}

/* The operands an <Output type=...> feeds at dst: *k of them into ops[]. */
static bool operands_of(nus *u, const xmlNode *o, const char *type,
                        cg_op dst, int *ops, int *k)
{
    bool sel = dst == CG_OP_SELECT;
    *k = 0;
    if (!strcmp(type, "I1"))
        ops[(*k)++] = sel ? 1 : 0;
    else if (!strcmp(type, "I2"))
        ops[(*k)++] = sel ? 2 : 1;
    else if (!strcmp(type, "I3"))
        ops[(*k)++] = sel ? 1 : 0, ops[(*k)++] = sel ? 2 : 1;
    else if (!strcmp(type, "P") && sel)
        ops[(*k)++] = 0;
    else if (!strcmp(type, "PS"))
        u->pseudo++; /* orders only: the mapper orders by data and memory */
    else if (!strcmp(type, "P")) {
        cg__fdfg_error(&u->f, line_of(o), "a predicate edge (type=\"P\") "
                       "into a %s: cgramap has no predicated execution, only "
                       "SELECT takes a predicate", cg_op_name(dst));
        return false;
    } else {
        cg__fdfg_error(&u->f, line_of(o), "<Output> type=\"%s\" is not one "
                       "of I1, I2, I3, P, PS", type);
        return false;
    }
    return true;
}

static void output_edge(nus *u, int src, const xmlNode *o)
{
    static const char *const attrs[] = {"idx", "nextiter", "type", "NPB",
                                        NULL};
    long long to, next;
    if (!known_attrs(u, o, attrs, "idx nextiter type NPB") ||
        !int_attr(u, o, "idx", 0, 1 << 30, -1, &to) ||
        !int_attr(u, o, "nextiter", 0, 1 << 20, 0, &next))
        return;
    xmlChar *type = xmlGetProp(o, (const xmlChar *)"type");
    int dst = find(u, to), ops[2], k;
    if (to < 0 || dst < 0)
        cg__fdfg_error(&u->f, line_of(o), "<Output> of node %ld names no "
                       "node (idx=\"%lld\")", u->idx[src], to);
    else if (!type)
        cg__fdfg_error(&u->f, line_of(o), "<Output> needs type=\"I1|I2|I3|"
                       "P|PS\"");
    else if (operands_of(u, o, (const char *)type,
                         cg_dfg_get_node(u->f.g, dst)->op, ops, &k))
        for (int i = 0; i < k; i++)
            cg__fdfg_edge(&u->f, src, dst, ops[i], (int)next, line_of(o));
    xmlFree(type);
}

/* CONST="v": a MOVC's value, else a const node on the first operand no
 * edge fills. */
static void immediate(nus *u, int id)
{
    long long v;
    const xmlNode *x = u->node[id];
    if (!xmlHasProp(x, (const xmlChar *)"CONST") ||
        !int_attr(u, x, "CONST", INT64_MIN, INT64_MAX, 0, &v))
        return;
    cg_op op = cg_dfg_get_node(u->f.g, id)->op;
    if (op == CG_OP_CONST) {
        cg_dfg_set_value(u->f.g, id, v);
        return;
    }
    unsigned filled = 0;
    for (int e = 0; e < cg_dfg_nedges(u->f.g); e++) {
        const cg_dfg_edge *x2 = cg_dfg_get_edge(u->f.g, e);
        if (x2->dst == id && x2->operand >= 0 && x2->operand < 3)
            filled |= 1u << x2->operand;
    }
    int k = 0;
    while (k < cg_op_arity(op) && (filled >> k & 1))
        k++;
    if (k == cg_op_arity(op)) {
        cg__fdfg_error(&u->f, line_of(x), "node %ld: CONST=\"%lld\" but "
                       "every operand of its %s has an edge", u->idx[id], v,
                       cg_op_name(op));
        return;
    }
    char name[48];
    snprintf(name, sizeof name, "n%ld_const", u->idx[id]);
    int c = cg__fdfg_node(&u->f, CG_OP_CONST, 32, name, line_of(x));
    if (c >= 0) {
        cg_dfg_set_value(u->f.g, c, v);
        cg__fdfg_edge(&u->f, c, id, k, 0, line_of(x));
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

/* The memory order a NUS file states: within an iteration, every pair of
 * memory ops with a store among them in idx order (the file says nothing
 * there, so all are kept); across iterations, its RecParents between
 * memory ops: the parent's access of iteration i before this one's of
 * iteration i + 1.  Other RecParents are dropped (a data edge with
 * nextiter carries them). */
static void rec_parents(nus *u, cg_mem_order **v, int *nv)
{
    for (int a = 0; a < u->n; a++)
        for (int b = a + 1; b < u->n; b++) {
            cg_op x = cg_dfg_get_node(u->f.g, a)->op;
            cg_op y = cg_dfg_get_node(u->f.g, b)->op;
            if (cg__dfg_is_mem(x) && cg__dfg_is_mem(y) &&
                (x == CG_OP_STORE || y == CG_OP_STORE))
                add_order(v, nv, (cg_mem_order){a, b, 0, 0});
        }
    for (int id = 0; id < u->n; id++) {
        const xmlNode *r = child(u->node[id], "RecParents");
        for (const xmlNode *p = r ? r->children : NULL; p; p = p->next) {
            long long pidx;
            if (p->type != XML_ELEMENT_NODE ||
                !int_attr(u, p, "idx", 0, 1 << 30, -1, &pidx))
                continue;
            int par = find(u, pidx);
            if (par < 0) {
                cg__fdfg_error(&u->f, line_of(p), "<RecParent> of node %ld "
                               "names no node (idx=\"%lld\")", u->idx[id],
                               pidx);
                continue;
            }
            if (!cg__dfg_is_mem(cg_dfg_get_node(u->f.g, par)->op) ||
                !cg__dfg_is_mem(cg_dfg_get_node(u->f.g, id)->op))
                continue;
            add_order(v, nv, (cg_mem_order){par, id, 1, 0});
        }
    }
}

static void add_edges(nus *u)
{
    for (int id = 0; id < u->n; id++) {
        const xmlNode *o = child(u->node[id], "Outputs");
        for (const xmlNode *x = o ? o->children : NULL; x; x = x->next)
            if (x->type == XML_ELEMENT_NODE)
                output_edge(u, id, x);
    }
    for (int id = 0; id < u->n && !u->f.errors; id++)
        immediate(u, id);
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
        add_nodes(&u, root);
    if (!u.f.errors)
        add_edges(&u);
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
    free(u.node);
    free(u.idx);
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
