/* inst.c: instances (<inst>, <sub-module>, <block>): primitive parameters
 * and module template parameters. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "xml.h"
#include "xml_internal.h"

/* Attributes a primitive of kind k accepts besides the element's own. */
static const char *const *prim_attrs(cg_prim_kind k)
{
    static const char *const fu[] = {"op", "ops", "size", "latency",
                                     "immediate", "immediate-size", NULL};
    static const char *const mem[] = {"size", "memory", "bank", "immediate",
                                      "immediate-size", NULL};
    static const char *const mux[] = {"size", "ninput", NULL};
    static const char *const rf[] = {"size", "ninput", "noutput",
                                     "log2-nregister", NULL};
    static const char *const plain[] = {"size", NULL};
    switch (k) {
    case CG_PRIM_FUNC: return fu;
    case CG_PRIM_MEM: return mem;
    case CG_PRIM_MUX: return mux;
    case CG_PRIM_REGFILE: return rf;
    default: return plain;
    }
}

static bool is_base(const xmlNode *n, const char *a)
{
    if (!strcmp(a, "module") || !strcmp(a, "if"))
        return true;
    if (!strcmp((const char *)n->name, "block"))
        return !strcmp(a, "row") || !strcmp(a, "col");
    return !strcmp(a, "name");
}

static int check_prim_attrs(cg__xctx *c, const xmlNode *n,
                            const char *const *ok, const char *kname,
                            const char *inst)
{
    int rc = 0;
    for (xmlAttr *at = n->properties; at; at = at->next) {
        const char *a = (const char *)at->name;
        bool known = is_base(n, a);
        for (int i = 0; ok[i] && !known; i++)
            known = !strcmp(a, ok[i]);
        if (known)
            continue;
        char list[256] = "";
        for (int i = 0; ok[i]; i++) {
            strcat(list, i ? ", " : "");
            strcat(list, ok[i]);
        }
        cg__xml_error(c, n, "unknown attribute '%s' on %s '%s' (attributes: "
                      "%s)", a, kname, inst, list);
        rc = -1;
    }
    return rc;
}

static int parse_ops(cg__xctx *c, const xmlNode *n, const char *s,
                     const char *inst, cg_opset *ops)
{
    *ops = 0;
    int rc = 0;
    char *copy = strdup(s), *save = NULL;
    if (!copy) {
        cg__xml_error(c, n, "out of memory");
        return -1;
    }
    for (char *w = strtok_r(copy, " \t\n\r,", &save); w;
         w = strtok_r(NULL, " \t\n\r,", &save)) {
        cg_op op;
        if (cg_op_parse(w, &op)) {
            *ops |= CG_OPSET(op);
            continue;
        }
        cg__xml_error(c, n, "unknown opcode '%s' on FuncUnit '%s' (opcodes: "
                      "%s)", CG_QUOTE(w), inst, cg_op_all_names());
        rc = -1;
    }
    free(copy);
    if (rc == 0 && !*ops) {
        cg__xml_error(c, n, "op=\"%s\" on FuncUnit '%s' lists no opcode; "
                      "give at least one (opcodes: %s)", CG_QUOTE(s), inst,
                      cg_op_all_names());
        rc = -1;
    }
    return rc;
}

/* immediate="in_b in_c" (FuncUnit) or "addr data_in" (MEMUnit): the
 * operands that may take an immediate, as bits of *mask (operand k = bit
 * k); an empty list is none.  Whether the unit has the operand (in_c needs
 * select) is cg_arch_add_prim's check. */
static int parse_imm(cg__xctx *c, const xmlNode *n, const char *s,
                     cg_prim_kind k, const char *inst, unsigned *mask)
{
    static const char *const fu[] = {"in_a", "in_b", "in_c", NULL};
    static const char *const mem[] = {"addr", "data_in", NULL};
    const char *const *names = k == CG_PRIM_MEM ? mem : fu;
    int rc = 0;
    char *copy = strdup(s), *save = NULL;
    *mask = 0;
    for (char *w = copy ? strtok_r(copy, " \t\n\r,", &save) : NULL; w;
         w = strtok_r(NULL, " \t\n\r,", &save)) {
        int i = 0;
        while (names[i] && strcmp(names[i], w))
            i++;
        if (names[i]) {
            *mask |= 1u << i;
            continue;
        }
        cg__xml_error(c, n, "unknown operand '%s' in immediate=\"%s\" on %s "
                      "'%s' (operands: %s)", CG_QUOTE(w), CG_QUOTE(s),
                      cg_prim_kind_name(k), inst,
                      k == CG_PRIM_MEM ? "addr, data_in" : "in_a, in_b, in_c");
        rc = -1;
    }
    free(copy);
    return rc;
}

static int prim_params(cg__xctx *c, const xmlNode *n, cg_prim_kind k,
                       const char *inst, const cg__xvar *env,
                       cg_prim_params *p, char **memory)
{
    cg_prim_params_init(p, k);
    long v;
    int rc = 0;
    rc |= cg__xml_attr_int(c, n, "size", env, p->width, 1, CG_MAX_WIDTH, &v);
    p->width = (int)v;
    rc |= cg__xml_attr_int(c, n, "latency", env, p->latency, 0, CG_MAX_LATENCY, &v);
    p->latency = (int)v;
    rc |= cg__xml_attr_int(c, n, "ninput", env, p->ninput, 1, CG_MAX_PORTS, &v);
    p->ninput = (int)v;
    rc |= cg__xml_attr_int(c, n, "noutput", env, p->noutput, 1, CG_MAX_PORTS, &v);
    p->noutput = (int)v;
    rc |= cg__xml_attr_int(c, n, "log2-nregister", env, p->log2_nregs, 0, CG_MAX_LOG2_REGS, &v);
    p->log2_nregs = (int)v;
    rc |= cg__xml_attr_int(c, n, "bank", env, p->bank, 0, CG_MAX_BANKS - 1, &v);
    p->bank = (int)v;
    rc |= cg__xml_attr_int(c, n, "immediate-size", env, 0, 1, CG_MAX_WIDTH, &v);
    p->imm_width = (int)v;
    bool bad;
    char *imm = cg__xml_attr(c, n, "immediate", env, &bad);
    if (imm)
        rc |= parse_imm(c, n, imm, k, inst, &p->imm_operands);
    rc |= bad ? -1 : 0;
    free(imm);
    *memory = cg__xml_attr(c, n, "memory", env, &bad);
    p->memory = *memory;
    rc |= bad ? -1 : 0;
    /* op= and ops= are two spellings: both would drop one silently */
    if (xmlHasProp(n, (const xmlChar *)"op") &&
        xmlHasProp(n, (const xmlChar *)"ops")) {
        cg__xml_error(c, n, "give the opcodes of '%s' as op= or ops=, not "
                      "both", inst);
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        char *ops = cg__xml_attr(c, n, i ? "ops" : "op", env, &bad);
        if (ops)
            rc |= parse_ops(c, n, ops, inst, &p->ops);
        rc |= bad ? -1 : 0;
        free(ops);
    }
    return rc < 0 ? -1 : 0;
}

static int add_prim(cg__xctx *c, int mod, const xmlNode *n, cg_prim_kind k,
                    const char *inst, const cg__xvar *env)
{
    if (check_prim_attrs(c, n, prim_attrs(k), cg_prim_kind_name(k), inst) < 0)
        return -1;
    cg_prim_params p;
    char *memory = NULL;
    int id = -1;
    if (prim_params(c, n, k, inst, env, &p, &memory) == 0) {
        cg__xml_loc(c, n);
        id = cg_arch_add_prim(c->a, mod, inst, &p, c->d);
    }
    free(memory);
    return id;
}

/* ---- CGRA-ME's MemPort ---------------------------------------------------
 * <inst module="MemPort" ninput="N"> is a memory port shared by N
 * neighbours, built as CGRA-ME builds it from primitives cgramap has: two
 * N-input multiplexers choose the address and the data among in0..in{N-1}
 * (mux_addr, mux_data), a MEMUnit (mem_unit) does the access and a Register
 * (reg) holds the loaded value on out.  So the MRRG, the checker and the
 * simulator see nothing new.  One module per parameter set, named
 * "MemPort(ninput=4,size=32)" (plus memory=, bank= when given). */

bool cg__xml_prim_name(const char *name)
{
    cg_prim_kind k;
    return cg_prim_kind_parse(name, &k) || !strcmp(name, CG__MEMPORT);
}

static char *memport_name(const cg_prim_params *p)
{
    char buf[256 + 64];
    int k = snprintf(buf, sizeof buf, CG__MEMPORT "(ninput=%d,size=%d",
                     p->ninput, p->width);
    if (p->memory)
        k += snprintf(buf + k, sizeof buf - (size_t)k, ",memory=%.200s",
                      p->memory);
    if (p->bank >= 0)
        k += snprintf(buf + k, sizeof buf - (size_t)k, ",bank=%d", p->bank);
    snprintf(buf + k, sizeof buf - (size_t)k, ")");
    return strdup(buf);
}

/* Connect "from" to "to" in module mod, the names built like printf. */
static int wire(cg__xctx *c, int mod, const char *from, const char *to)
{
    return cg_arch_connect(c->a, mod, from, to, c->d);
}

static int define_memport(cg__xctx *c, const char *name,
                          const cg_prim_params *p)
{
    int mod = cg_arch_module_define(c->a, name, c->d);
    if (mod < 0)
        return -1;
    cg_prim_params mux, reg;
    cg_prim_params_init(&mux, CG_PRIM_MUX);
    mux.ninput = p->ninput;
    mux.width = p->width;
    cg_prim_params_init(&reg, CG_PRIM_REG);
    reg.width = p->width;
    int rc = 0;
    char port[32], in[48];
    for (int i = 0; i < p->ninput && rc >= 0; i++) {
        snprintf(port, sizeof port, "in%d", i);
        rc = cg_arch_add_port(c->a, mod, port, CG_DIR_IN, p->width, c->d);
    }
    if (rc >= 0)
        rc = cg_arch_add_port(c->a, mod, "out", CG_DIR_OUT, p->width, c->d);
    if (rc >= 0 && (cg_arch_add_prim(c->a, mod, "mux_addr", &mux, c->d) < 0 ||
                    cg_arch_add_prim(c->a, mod, "mux_data", &mux, c->d) < 0 ||
                    cg_arch_add_prim(c->a, mod, "mem_unit", p, c->d) < 0 ||
                    cg_arch_add_prim(c->a, mod, "reg", &reg, c->d) < 0))
        rc = -1;
    for (int i = 0; i < p->ninput && rc >= 0; i++) {
        snprintf(port, sizeof port, "in%d", i);
        snprintf(in, sizeof in, "mux_addr.in%d", i);
        rc = wire(c, mod, port, in);
        snprintf(in, sizeof in, "mux_data.in%d", i);
        rc = rc < 0 ? rc : wire(c, mod, port, in);
    }
    if (rc >= 0 && (wire(c, mod, "mux_addr.out", "mem_unit.addr") < 0 ||
                    wire(c, mod, "mux_data.out", "mem_unit.data_in") < 0 ||
                    wire(c, mod, "mem_unit.data_out", "reg.in") < 0 ||
                    wire(c, mod, "reg.out", "out") < 0))
        rc = -1;
    return rc < 0 ? -1 : 0;
}

static int add_memport(cg__xctx *c, int mod, const xmlNode *n,
                       const char *inst, const cg__xvar *env)
{
    static const char *const ok[] = {"size", "ninput", "memory", "bank",
                                     NULL};
    if (check_prim_attrs(c, n, ok, CG__MEMPORT, inst) < 0)
        return -1;
    cg_prim_params p;
    char *memory = NULL;
    int id = -1;
    if (prim_params(c, n, CG_PRIM_MEM, inst, env, &p, &memory) == 0) {
        if (!xmlHasProp(n, (const xmlChar *)"ninput"))
            p.ninput = 2; /* as a Multiplexer */
        char *name = memport_name(&p);
        cg__xml_loc(c, n);
        if (name && (cg_arch_module_find(c->a, name) >= 0 ||
                     define_memport(c, name, &p) == 0)) {
            cg__xml_loc(c, n);
            id = cg_arch_add_submodule(c->a, mod, inst, name, c->d);
        }
        free(name);
    }
    free(memory);
    return id;
}

/* Parameter names a template uses, "(name)" in any attribute below t;
 * false when out of memory (a missed name, later "undefined"). */
static bool tmpl_params(const xmlNode *t, char **names, int *n, int max)
{
    bool ok = true;
    for (const xmlAttr *at = t->properties; at; at = at->next) {
        xmlChar *v = xmlNodeListGetString(t->doc, at->children, 1);
        if (v) /* NULL for an empty value */
            ok &= cg__xml_var_refs((const char *)v, names, n, max);
        xmlFree(v);
    }
    for (const xmlNode *k = t->children; k; k = k->next)
        if (k->type == XML_ELEMENT_NODE)
            ok &= tmpl_params(k, names, n, max);
    return ok;
}

static void free_vars(cg__xvar *v)
{
    while (v) {
        cg__xvar *next = (cg__xvar *)v->next;
        free((char *)v->value);
        free(v);
        v = next;
    }
}

/* A bare word of an expression ending before e (backwards) or starting at
 * b (forwards): its bounds, false when there is none. */
static bool word_at(const char *b, const char *lim, const char **wb,
                    const char **we)
{
    const char *q = b;
    while (q < lim && *q && !isspace((unsigned char)*q) && !strchr("()'", *q))
        q++;
    *wb = b, *we = q;
    return q > b;
}

static const char *skip_back(const char *p, const char *s)
{
    while (p > s && isspace((unsigned char)p[-1]))
        p--;
    return p;
}

static const char *skip_fwd(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

/* Add the word [b, e) to lits (no duplicates). */
static void add_lit(char lits[][32], int *nl, int max, const char *b,
                    const char *e)
{
    size_t n = (size_t)(e - b) < 31 ? (size_t)(e - b) : 31;
    for (int i = 0; i < *nl; i++)
        if (strlen(lits[i]) == n && !strncmp(lits[i], b, n))
            return;
    if (*nl < max) {
        memcpy(lits[*nl], b, n);
        lits[(*nl)++][n] = '\0';
    }
}

/* The use of "(name)" at [p, q) in s: as (= (name) WORD) or (= WORD
 * (name)), its WORD added to lits; false for any other use. */
static bool compared_use(const char *s, const char *p, const char *q,
                         char lits[][32], int *nl, int max)
{
    const char *b = skip_back(p, s), *wb, *we;
    if (b > s && b[-1] == '=') { /* (= (name) WORD) */
        const char *o = skip_back(b - 1, s);
        const char *w = skip_fwd(q);
        if (o > s && o[-1] == '(' && word_at(w, w + strlen(w), &wb, &we) &&
            *skip_fwd(we) == ')') {
            add_lit(lits, nl, max, wb, we);
            return true;
        }
        return false;
    }
    if (*skip_fwd(q) != ')') /* (= WORD (name)) */
        return false;
    we = b;
    wb = we;
    while (wb > s && !isspace((unsigned char)wb[-1]) &&
           !strchr("()'=", wb[-1]))
        wb--;
    const char *o = skip_back(wb, s);
    if (wb == we || o <= s || o[-1] != '=')
        return false;
    o = skip_back(o - 1, s);
    if (o <= s || o[-1] != '(')
        return false;
    add_lit(lits, nl, max, wb, we);
    return true;
}

/* Whether every "(name)" in s is compared with a word by =; the words go
 * to lits. */
static bool compared_only_in(const char *s, const char *name,
                             char lits[][32], int *nl, int max)
{
    size_t len = strlen(name);
    for (const char *p = strchr(s, '('); p; p = strchr(p + 1, '(')) {
        const char *b = skip_fwd(p + 1);
        if (strncmp(b, name, len))
            continue;
        const char *q = skip_fwd(b + len);
        if (*q != ')')
            continue;
        if (!compared_use(s, p, q + 1, lits, nl, max))
            return false;
    }
    return true;
}

/* Whether template t reads parameter name only as (= (name) WORD): then
 * the WORDs (up to max) are in lits and *nl > 0. */
static bool compared_only(const xmlNode *t, const char *name,
                          char lits[][32], int *nl, int max)
{
    bool only = true;
    for (const xmlAttr *at = t->properties; at && only; at = at->next) {
        xmlChar *v = xmlNodeListGetString(t->doc, at->children, 1);
        if (v)
            only = compared_only_in((const char *)v, name, lits, nl, max);
        xmlFree(v);
    }
    for (const xmlNode *k = t->children; k && only; k = k->next)
        if (k->type == XML_ELEMENT_NODE)
            only = compared_only(k, name, lits, nl, max);
    return only;
}

/* A value of a parameter the module only compares with words (mem="onn"
 * where it tests (= (mem) on)) selects nothing: an error.  The words
 * compared and the other halves of on/off, yes/no, true/false, 1/0 are
 * taken.  -1 after reporting. */
static int check_choice(cg__xctx *c, const xmlNode *n, const xmlNode *t,
                        const char *tname, const char *name,
                        const char *value)
{
    static const char *const pairs[][2] = {
        {"on", "off"}, {"yes", "no"}, {"true", "false"}, {"1", "0"}};
    char lits[16][32];
    int nl = 0;
    if (!value || !compared_only(t, name, lits, &nl, 12) || nl == 0)
        return 0;
    int ncmp = nl;
    for (int i = 0; i < ncmp; i++)
        for (int k = 0; k < 4; k++)
            for (int j = 0; j < 2; j++)
                if (!strcmp(lits[i], pairs[k][j]))
                    add_lit(lits, &nl, 16, pairs[k][!j],
                            pairs[k][!j] + strlen(pairs[k][!j]));
    char list[16 * 34] = "", cmp[512] = "";
    for (int i = 0; i < nl; i++) {
        if (!strcmp(value, lits[i]))
            return 0;
        strcat(strcat(list, i ? ", " : ""), lits[i]);
        const char *part[] = {i ? ", " : "", "(= (", name, ") ", lits[i],
                              ")"};
        for (int k = 0; i < ncmp && k < 6; k++)
            strncat(cmp, part[k], sizeof cmp - strlen(cmp) - 1);
    }
    cg__xml_error_attr(c, n, name, "%s=\"%s\" on <%s>: module '%s' reads "
                       "parameter '%s' only in %s, so this value selects "
                       "nothing; give one of: %s", name, CG_QUOTE(value),
                       (const char *)n->name, tname, name, cmp, list);
    return -1;
}

/* The parameters given on instance node n of template t, evaluated in env.
 * -1 after reporting an attribute that is not a parameter of t. */
static int instance_params(cg__xctx *c, const xmlNode *n, const xmlNode *t,
                           const char *tname, const cg__xvar *env,
                           cg__xvar **out)
{
    char *names[64];
    int nn = 0, rc = 0;
    *out = NULL;
    if (!tmpl_params(t, names, &nn, 64)) {
        cg__xml_error(c, n, "out of memory");
        rc = -1;
    }
    for (xmlAttr *at = n->properties; at; at = at->next) {
        const char *a = (const char *)at->name;
        if (is_base(n, a))
            continue;
        bool used = false;
        for (int i = 0; i < nn && !used; i++)
            used = !strcmp(names[i], a);
        if (!used) {
            char list[512] = "";
            for (int i = 0; i < nn; i++) {
                strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
                strncat(list, names[i], sizeof list - strlen(list) - 1);
            }
            cg__xml_error_attr(c, n, a, "unknown attribute '%s' on <%s>: "
                               "module '%s' has no parameter '%s' "
                               "(parameters: %s)", a,
                               (const char *)n->name, tname, a,
                               nn ? list : "none");
            rc = -1;
            continue;
        }
        bool bad;
        cg__xvar *v = calloc(1, sizeof *v);
        if (!v) {
            cg__xml_error(c, n, "out of memory");
            rc = -1;
            break;
        }
        v->name = a;
        v->value = cg__xml_attr(c, n, a, env, &bad);
        v->next = *out;
        *out = v;
        rc |= bad ? -1 : check_choice(c, n, t, tname, a, v->value);
    }
    for (int i = 0; i < nn; i++)
        free(names[i]);
    return rc;
}

static void unknown_module(cg__xctx *c, const xmlNode *n, const char *m)
{
    char list[1024] = "";
    for (int i = 0; i < c->ntmpls; i++) {
        xmlChar *t = xmlGetProp(c->tmpls[i], (const xmlChar *)"name");
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, (const char *)t, sizeof list - strlen(list) - 1);
        xmlFree(t);
    }
    char prims[256] = "";
    for (int k = 0; k < CG_PRIM_COUNT; k++) {
        strcat(prims, k ? ", " : "");
        strcat(prims, cg_prim_kind_name((cg_prim_kind)k));
    }
    strcat(prims, ", " CG__MEMPORT);
    cg__xml_error(c, n, "unknown module '%s' (modules: %s; primitives: %s)%s",
                  m, c->ntmpls ? list : "none", prims,
                  c->default_templates ? "; a file whose root is "
                  "<architecture> takes its modules from a templates file, "
                  "here cgramap's default one (" CG_XML_DEFAULT_TEMPLATES_NAME
                  "): give yours (cgramap --templates FILE)" : "");
}

/* Whether a template named like a primitive wins over the primitive: on a
 * <block> or <sub-module> it does (CGRA-ME looks a block's module up in
 * the templates first), on an <inst> the primitive does (the template IO
 * holds <inst module="IO">). */
static bool block_tmpl(const xmlNode *n)
{
    return strcmp((const char *)n->name, "inst") != 0;
}

int cg__xml_instance(cg__xctx *c, int mod, const xmlNode *n,
                     const char *inst, const cg__xvar *env)
{
    bool bad;
    char *m = cg__xml_attr(c, n, "module", env, &bad);
    int id = -1;
    cg_prim_kind k;
    const xmlNode *t = NULL;
    if (!m) {
        if (!bad)
            cg__xml_error(c, n, "<%s> '%s' needs a module=\"...\"",
                          (const char *)n->name, inst);
    } else if (cg__xml_prim_name(m) &&
               !(block_tmpl(n) && cg__xml_find_tmpl(c, m))) {
        if (!strcmp((const char *)n->name, "sub-module"))
            cg__xml_error(c, n, "<sub-module> '%s' names primitive '%s'; use "
                          "<inst> for primitives", inst, m);
        else if (cg_prim_kind_parse(m, &k))
            id = add_prim(c, mod, n, k, inst, env);
        else
            id = add_memport(c, mod, n, inst, env);
    } else if (!(t = cg__xml_find_tmpl(c, m))) {
        unknown_module(c, n, m);
    } else {
        cg__xvar *params;
        if (instance_params(c, n, t, m, env, &params) == 0) {
            char *cname = cg__xml_concrete(c, t, n, params);
            cg__xml_loc(c, n);
            if (cname)
                id = cg_arch_add_submodule(c->a, mod, inst, cname, c->d);
            free(cname);
        }
        free_vars(params);
    }
    free(m);
    return id;
}
