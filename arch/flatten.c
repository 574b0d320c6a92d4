/* flatten.c: cg_arch_flatten, the model to the device netlist.
 *
 * Two passes.  check_module() resolves every reference of one module
 * definition and checks it once (unknown names, directions, widths, two
 * drivers, unconnected primitive inputs, memories), so an error in a module
 * used 64 times is reported once, at the line that made it, with the
 * module's own names.  expand() then instantiates the hierarchy from the top
 * module: every module instance gets nodes for its ports and wires and for
 * the ports of its primitives; each connection becomes an edge; a net is
 * everything a primitive output reaches through ports and wires.
 * The netlist's primitives are sorted by hierarchical name (naturally:
 * block_2_0 before block_10_0), so it does not depend on declaration order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_internal.h"

enum { R_NONE, R_SIG, R_PRIM, R_SUB };

/* A reference resolved inside its module. */
typedef struct ref {
    int kind;
    int inst; /* R_PRIM, R_SUB */
    int idx;  /* signal index (R_SIG, R_SUB: the child's) or prim port */
} ref;

/* What the check learnt about one module definition. */
typedef struct mcheck {
    ref *from, *to;  /* per connection */
    int *sub;        /* per instance: child module, -1 for prims/unknown */
    int *autow;      /* per instance: width of a select-from mux, else 0 */
    int *base;       /* per instance: first local node of its ports */
    int nlocal;      /* signals + primitive ports + sub-module ports */
} mcheck;

typedef struct fctx {
    const cg_arch *a;
    cg_diags *d;
    int errors0;
    mcheck *mc;      /* per module */
    char **said;     /* keys of messages given once (see once()) */
    int nsaid, csaid;
} fctx;

/* False when the message keyed by (loc, a, b) was given already: the
 * sugar makes one connection per block from a single XML line, and its
 * mistake is one mistake. */
static bool once(fctx *f, cg_loc loc, const char *a, const char *b)
{
    char key[512];
    snprintf(key, sizeof key, "%s:%d:%s:%s", loc.file ? loc.file : "",
             loc.line, a, b);
    for (int i = 0; i < f->nsaid; i++)
        if (!strcmp(f->said[i], key))
            return false;
    char *k = strdup(key);
    if (k && cg__arch_grow((void **)&f->said, &f->csaid, f->nsaid + 1,
                           sizeof *f->said) == 0)
        f->said[f->nsaid++] = k;
    else
        free(k);
    return true;
}

static bool failed(const fctx *f) { return cg_diags_errors(f->d) > f->errors0; }

/* ---- lists for messages -------------------------------------------------- */

static void list_add(char *buf, size_t len, const char *s)
{
    size_t k = strlen(buf);
    if (k + 8 >= len)
        return;
    if (k + strlen(s) + 8 >= len) {
        snprintf(buf + k, len - k, "%s...", k ? ", " : "");
        return;
    }
    snprintf(buf + k, len - k, "%s%s", k ? ", " : "", s);
}

static void sig_list(const cg__module *m, bool wires, char *buf, size_t len)
{
    buf[0] = 0;
    for (int i = 0; i < m->nsigs; i++)
        if (wires || !m->sigs[i].wire)
            list_add(buf, len, m->sigs[i].name);
    if (!buf[0])
        snprintf(buf, len, "none");
}

static void module_list(const cg_arch *a, char *buf, size_t len)
{
    buf[0] = 0;
    for (int i = 0; i < a->nmods; i++)
        if (i != a->top)
            list_add(buf, len, a->mods[i].name);
    if (!buf[0])
        snprintf(buf, len, "none");
}

/* ---- resolving references ------------------------------------------------ */

static int find_sig(const cg__module *m, const char *name, bool wires)
{
    for (int i = 0; i < m->nsigs; i++)
        if ((wires || !m->sigs[i].wire) && !strcmp(m->sigs[i].name, name))
            return i;
    return -1;
}

static int find_inst(const cg__module *m, const char *name, size_t len)
{
    for (int i = 0; i < m->ninsts; i++)
        if (strlen(m->insts[i].name) == len &&
            !strncmp(m->insts[i].name, name, len))
            return i;
    return -1;
}

static ref resolve_inst_port(fctx *f, int mi, int ii, const char *port,
                             cg_loc loc)
{
    const cg__module *m = &f->a->mods[mi];
    const cg__inst *in = &m->insts[ii];
    ref r = {R_NONE, ii, -1};
    char list[1024];
    if (in->prim) {
        r.idx = cg__prim_find_port(&in->p, port);
        if (r.idx >= 0) {
            r.kind = R_PRIM;
            return r;
        }
        cg__prim_port_list(&in->p, list, sizeof list);
        cg_error_at(f->d, loc, "unknown port '%s' on %s '%s' (ports: %s)",
                    port, cg_prim_kind_name(in->p.kind), in->name, list);
        return r;
    }
    int child = f->mc[mi].sub[ii];
    if (child < 0)
        return r; /* unknown module, reported already */
    const cg__module *c = &f->a->mods[child];
    r.idx = find_sig(c, port, false);
    if (r.idx >= 0) {
        r.kind = R_SUB;
        return r;
    }
    if (!once(f, loc, c->name, port))
        return r;
    sig_list(c, false, list, sizeof list);
    cg_error_at(f->d, loc, "unknown port '%s' on instance '%s' of module "
                "'%s' (ports: %s)", port, in->name, c->name, list);
    return r;
}

/* Resolve "port", "this.port" or "inst.port" inside module mi. */
static ref resolve(fctx *f, int mi, const char *s, cg_loc loc)
{
    const cg__module *m = &f->a->mods[mi];
    ref r = {R_NONE, -1, -1};
    const char *dot = strchr(s, '.');
    char list[1024];
    if (!dot || !strncmp(s, "this.", 5)) {
        const char *name = dot ? dot + 1 : s;
        r.idx = find_sig(m, name, true);
        if (r.idx >= 0) {
            r.kind = R_SIG;
            return r;
        }
        sig_list(m, true, list, sizeof list);
        cg_error_at(f->d, loc, "unknown port or wire '%s' in module '%s' "
                    "(ports and wires: %s)", name, m->name, list);
        return r;
    }
    int ii = find_inst(m, s, (size_t)(dot - s));
    if (ii >= 0)
        return resolve_inst_port(f, mi, ii, dot + 1, loc);
    list[0] = 0;
    for (int i = 0; i < m->ninsts; i++)
        list_add(list, sizeof list, m->insts[i].name);
    cg_error_at(f->d, loc, "unknown instance '%.*s' in reference '%s' in "
                "module '%s' (instances: %s)", (int)(dot - s), s, s, m->name,
                list[0] ? list : "none");
    return r;
}

/* ---- facts about resolved references ------------------------------------- */

/* Direction, width, and whether it is configuration, of a resolved ref. */
static void ref_info(const fctx *f, int mi, ref r, cg_dir *dir, int *width,
                     bool *config)
{
    const cg__module *m = &f->a->mods[mi];
    *config = false;
    if (r.kind == R_SIG) {
        *dir = m->sigs[r.idx].dir;
        *width = m->sigs[r.idx].width;
    } else if (r.kind == R_SUB) {
        const cg__sig *s = &f->a->mods[f->mc[mi].sub[r.inst]].sigs[r.idx];
        *dir = s->dir;
        *width = s->width;
    } else {
        cg_prim_params p = m->insts[r.inst].p;
        if (m->insts[r.inst].autow)
            p.width = f->mc[mi].autow[r.inst];
        cg__pport pp;
        cg__prim_port(&p, r.idx, &pp);
        *dir = pp.dir;
        *width = pp.width;
        *config = pp.config;
    }
}

/* Local node of a resolved ref (for the driver check). */
static int local_node(const fctx *f, int mi, ref r)
{
    return r.kind == R_SIG ? r.idx : f->mc[mi].base[r.inst] + r.idx;
}

static bool is_auto_data(const fctx *f, int mi, ref r)
{
    const cg__inst *in = &f->a->mods[mi].insts[r.inst];
    return r.kind == R_PRIM && in->autow && r.idx != in->p.ninput;
}

/* Widths of select-from multiplexers: their target's (or any neighbour's
 * once known), 32 when nothing says. */
static void auto_widths(fctx *f, int mi)
{
    const cg__module *m = &f->a->mods[mi];
    mcheck *mc = &f->mc[mi];
    bool changed = true;
    while (changed) {
        changed = false;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < m->nconns; i++) {
                ref a = pass ? mc->from[i] : mc->to[i];
                ref b = pass ? mc->to[i] : mc->from[i];
                if (a.kind == R_NONE || b.kind == R_NONE ||
                    !is_auto_data(f, mi, b) || mc->autow[b.inst] ||
                    (is_auto_data(f, mi, a) && !mc->autow[a.inst]))
                    continue;
                cg_dir dir;
                int w;
                bool cfg;
                ref_info(f, mi, a, &dir, &w, &cfg);
                mc->autow[b.inst] = w;
                changed = true;
            }
    }
    for (int i = 0; i < m->ninsts; i++)
        if (m->insts[i].autow && !mc->autow[i])
            mc->autow[i] = 32;
}

/* A reference as written, without "this.". */
static const char *shown(const char *s)
{
    return strncmp(s, "this.", 5) ? s : s + 5;
}

static const char *owner_kind(const fctx *f, int mi, ref r)
{
    const cg__module *m = &f->a->mods[mi];
    if (r.kind == R_PRIM)
        return cg_prim_kind_name(m->insts[r.inst].p.kind);
    return "module";
}

static const char *owner_name(const fctx *f, int mi, ref r)
{
    const cg__module *m = &f->a->mods[mi];
    if (r.kind == R_PRIM)
        return m->insts[r.inst].name;
    if (r.kind == R_SUB)
        return f->a->mods[f->mc[mi].sub[r.inst]].name;
    return m->name;
}

/* Directions and widths of connection i. */
static void check_conn(fctx *f, int mi, int i)
{
    const cg__conn *c = &f->a->mods[mi].conns[i];
    ref s = f->mc[mi].from[i], t = f->mc[mi].to[i];
    cg_dir sd, td;
    int sw, tw;
    bool cfg;
    ref_info(f, mi, s, &sd, &sw, &cfg);
    ref_info(f, mi, t, &td, &tw, &cfg);
    if (s.kind == R_PRIM && sd == CG_DIR_IN) {
        cg_error_at(f->d, c->loc, "'%s' is an input of %s '%s'; it cannot "
                    "drive '%s' (swap from= and to=?)", c->from,
                    owner_kind(f, mi, s), owner_name(f, mi, s), shown(c->to));
    } else if (t.kind == R_PRIM && td == CG_DIR_OUT) {
        cg_error_at(f->d, c->loc, "'%s' is an output of %s '%s'; it cannot "
                    "be driven by '%s' (swap from= and to=?)", c->to,
                    owner_kind(f, mi, t), owner_name(f, mi, t),
                    shown(c->from));
    } else if (t.kind == R_SIG && td == CG_DIR_IN &&
               !f->a->mods[mi].sigs[t.idx].wire) {
        cg_error_at(f->d, c->loc, "'%s' is an input of module '%s'; it is "
                    "driven from outside the module, not by '%s'",
                    shown(c->to), owner_name(f, mi, t), shown(c->from));
    } else if (t.kind == R_SUB && td == CG_DIR_OUT) {
        cg_error_at(f->d, c->loc, "'%s' is an output of module '%s'; it is "
                    "driven inside that module, not by '%s'", c->to,
                    owner_name(f, mi, t), shown(c->from));
    } else if (sw != tw) {
        char ws[32];
        snprintf(ws, sizeof ws, "%d/%d", sw, tw);
        if (once(f, c->loc, "width mismatch", ws))
            cg_error_at(f->d, c->loc, "width mismatch: '%s' is %d bits but "
                        "'%s' is %d bits; give both the same size=",
                        shown(c->from), sw, shown(c->to), tw);
    }
}

/* One driver per input; a warning for primitive inputs nothing drives. */
static void check_drivers(fctx *f, int mi)
{
    const cg__module *m = &f->a->mods[mi];
    mcheck *mc = &f->mc[mi];
    int *drv = malloc(sizeof *drv * (size_t)(mc->nlocal + 1));
    if (!drv)
        return;
    for (int i = 0; i < mc->nlocal; i++)
        drv[i] = -1;
    for (int i = 0; i < m->nconns; i++) {
        if (mc->to[i].kind == R_NONE) /* an unknown source still drives */
            continue;
        int n = local_node(f, mi, mc->to[i]);
        if (drv[n] < 0) {
            drv[n] = i;
            continue;
        }
        if (mc->from[i].kind == R_NONE || mc->from[drv[n]].kind == R_NONE)
            continue; /* fallout of an unknown name, reported already */
        const cg__conn *c0 = &m->conns[drv[n]], *c = &m->conns[i];
        cg_error_at(f->d, c->loc, "'%s' in module '%s' is driven by both "
                    "'%s' (at %s:%d) and '%s'; list both in one select-from= "
                    "to put a multiplexer in front of it", shown(c->to),
                    m->name, shown(c0->from), c0->loc.file ? c0->loc.file
                    : "?", c0->loc.line, shown(c->from));
    }
    for (int ii = 0; ii < m->ninsts; ii++) {
        const cg__inst *in = &m->insts[ii];
        if (!in->prim)
            continue;
        for (int k = 0; k < cg__prim_nports(&in->p); k++) {
            cg__pport pp;
            cg__prim_port(&in->p, k, &pp);
            if (pp.dir == CG_DIR_IN && !pp.config &&
                drv[mc->base[ii] + k] < 0)
                cg_warning_at(f->d, in->loc, "input '%s' of %s '%s' in "
                              "module '%s' is not connected; connect it or "
                              "remove the unit", pp.name,
                              cg_prim_kind_name(in->p.kind), in->name,
                              m->name);
        }
    }
    free(drv);
}

/* The tile memory a MEMUnit reaches: index, -1 when none is declared. */
static int mem_of(fctx *f, const cg__inst *in, bool report)
{
    const cg_arch *a = f->a;
    char list[1024] = "";
    for (int i = 0; i < a->nmems; i++)
        list_add(list, sizeof list, a->mems[i].name);
    int mi = -1;
    if (in->p.memory) {
        for (int i = 0; i < a->nmems; i++)
            if (!strcmp(a->mems[i].name, in->p.memory))
                mi = i;
        if (mi < 0 && report)
            cg_error_at(f->d, in->loc, "MEMUnit '%s' reaches tile memory "
                        "'%s', which is not declared (memories: %s)", in->name,
                        in->p.memory, list[0] ? list : "none");
    } else if (a->nmems == 1) {
        mi = 0;
    } else if (a->nmems > 1 && report) {
        cg_error_at(f->d, in->loc, "MEMUnit '%s' does not say which tile "
                    "memory it reaches (memories: %s); give memory=\"...\"",
                    in->name, list);
    }
    if (mi >= 0 && in->p.bank >= a->mems[mi].banks && report)
        cg_error_at(f->d, in->loc, "MEMUnit '%s' reaches bank %d of tile "
                    "memory '%s', which has %d bank(s) (0..%d)", in->name,
                    in->p.bank, a->mems[mi].name, a->mems[mi].banks,
                    a->mems[mi].banks - 1);
    return mi;
}

static int alloc_check(fctx *f, int mi)
{
    const cg__module *m = &f->a->mods[mi];
    mcheck *mc = &f->mc[mi];
    size_t nc = (size_t)m->nconns + 1, ni = (size_t)m->ninsts + 1;
    mc->from = calloc(nc, sizeof *mc->from);
    mc->to = calloc(nc, sizeof *mc->to);
    mc->sub = calloc(ni, sizeof *mc->sub);
    mc->autow = calloc(ni, sizeof *mc->autow);
    mc->base = calloc(ni, sizeof *mc->base);
    if (!mc->from || !mc->to || !mc->sub || !mc->autow || !mc->base) {
        cg_error_at(f->d, m->loc, "out of memory");
        return -1;
    }
    return 0;
}

/* Sub-module names of module mi; unknown modules are errors. */
static void resolve_modules(fctx *f, int mi)
{
    const cg__module *m = &f->a->mods[mi];
    mcheck *mc = &f->mc[mi];
    char list[1024], prims[256] = "";
    for (int k = 0; k < CG_PRIM_COUNT; k++)
        list_add(prims, sizeof prims, cg_prim_kind_name((cg_prim_kind)k));
    for (int i = 0; i < m->ninsts; i++) {
        const cg__inst *in = &m->insts[i];
        mc->sub[i] = -1;
        if (in->prim)
            continue;
        mc->sub[i] = cg_arch_module_find(f->a, in->module);
        if (mc->sub[i] >= 0 && mc->sub[i] != f->a->top)
            continue;
        mc->sub[i] = -1;
        module_list(f->a, list, sizeof list);
        cg_error_at(f->d, in->loc, "unknown module '%s' (modules: %s; "
                    "primitives: %s)", in->module, list, prims);
    }
}

static void check_module(fctx *f, int mi)
{
    const cg__module *m = &f->a->mods[mi];
    mcheck *mc = &f->mc[mi];
    if (alloc_check(f, mi) < 0)
        return;
    resolve_modules(f, mi);
    mc->nlocal = m->nsigs;
    for (int i = 0; i < m->ninsts; i++) {
        const cg__inst *in = &m->insts[i];
        mc->base[i] = mc->nlocal;
        mc->nlocal += in->prim ? cg__prim_nports(&in->p)
                      : mc->sub[i] >= 0 ? f->a->mods[mc->sub[i]].nsigs : 0;
        if (in->prim && in->p.kind == CG_PRIM_MEM)
            mem_of(f, in, true);
    }
    for (int i = 0; i < m->nconns; i++) {
        mc->from[i] = resolve(f, mi, m->conns[i].from, m->conns[i].loc);
        mc->to[i] = resolve(f, mi, m->conns[i].to, m->conns[i].loc);
    }
    auto_widths(f, mi);
    for (int i = 0; i < m->nconns; i++)
        if (mc->from[i].kind != R_NONE && mc->to[i].kind != R_NONE)
            check_conn(f, mi, i);
    check_drivers(f, mi);
}

/* A module that contains itself would expand forever.  state: 0 unseen,
 * 1 on the current path, 2 done. */
static bool recursive(fctx *f, int mi, char *state)
{
    if (state[mi])
        return state[mi] == 1;
    state[mi] = 1;
    const cg__module *m = &f->a->mods[mi];
    for (int i = 0; i < m->ninsts; i++) {
        int c = f->mc[mi].sub[i];
        if (c < 0)
            continue;
        if (state[c] == 1) {
            cg_error_at(f->d, m->insts[i].loc, "module '%s' contains itself "
                        "(through instance '%s' in module '%s'); remove the "
                        "recursion", f->a->mods[c].name, m->insts[i].name,
                        m->name);
            return true;
        }
        if (recursive(f, c, state))
            return true;
    }
    state[mi] = 2;
    return false;
}

/* ---- expansion ----------------------------------------------------------- */

/* One module instance of the expanded hierarchy. */
typedef struct finst {
    int mod;
    int base;      /* its first global node */
    int *child;    /* per instance: the finst of a sub-module */
    char *path;    /* "block_1_2.alu", "" for the top */
    int row, col;
} finst;

/* A primitive of the expanded hierarchy before sorting. */
typedef struct fprim {
    char *name;
    const cg__inst *in;
    int width;     /* resolved (select-from multiplexers) */
    int node;      /* global node of its first port */
    int row, col;
} fprim;

typedef struct expand_ctx {
    fctx *f;
    finst *fi;
    int nfi, cfi;
    fprim *fp;
    int nfp, cfp;
    int nnodes;
    cg__arena *arena;
} expand_ctx;

static char *join(cg__arena *ar, const char *path, const char *name)
{
    size_t n = strlen(path) + strlen(name) + 2;
    char *s = cg__arena_alloc(ar, n);
    if (s)
        snprintf(s, n, "%s%s%s", path, *path ? "." : "", name);
    return s;
}

static int expand(expand_ctx *x, int mi, const char *path, int row, int col)
{
    const cg__module *m = &x->f->a->mods[mi];
    const mcheck *mc = &x->f->mc[mi];
    if (cg__arch_grow((void **)&x->fi, &x->cfi, x->nfi + 1, sizeof *x->fi) <
        0)
        return -1;
    int me = x->nfi++;
    finst *fi = &x->fi[me];
    fi->mod = mi;
    fi->base = x->nnodes;
    fi->path = cg__arena_strdup(x->arena, path);
    fi->child = cg__arena_alloc(x->arena, sizeof(int) * (size_t)(m->ninsts + 1));
    fi->row = row;
    fi->col = col;
    if (!fi->path || !fi->child)
        return -1;
    x->nnodes += mc->nlocal; /* sub-module port slots stay unused */
    for (int i = 0; i < m->ninsts; i++) {
        const cg__inst *in = &m->insts[i];
        int r = mi == x->f->a->top ? in->row : row;
        int c = mi == x->f->a->top ? in->col : col;
        char *name = join(x->arena, path, in->name);
        if (!name)
            return -1;
        x->fi[me].child[i] = -1;
        if (!in->prim) {
            x->fi[me].child[i] = x->nfi;
            if (expand(x, mc->sub[i], name, r, c) < 0)
                return -1;
            continue;
        }
        if (cg__arch_grow((void **)&x->fp, &x->cfp, x->nfp + 1,
                          sizeof *x->fp) < 0)
            return -1;
        fprim *p = &x->fp[x->nfp++];
        p->name = name;
        p->in = in;
        p->width = in->autow ? mc->autow[i] : in->p.width;
        p->node = x->fi[me].base + mc->base[i];
        p->row = r;
        p->col = c;
    }
    return 0;
}

static int gnode(const expand_ctx *x, int fidx, ref r)
{
    const finst *fi = &x->fi[fidx];
    const mcheck *mc = &x->f->mc[fi->mod];
    if (r.kind == R_SIG)
        return fi->base + r.idx;
    if (r.kind == R_PRIM)
        return fi->base + mc->base[r.inst] + r.idx;
    return x->fi[fi->child[r.inst]].base + r.idx;
}

/* The finst whose node range holds node (bases increase with the index). */
static int finst_of(const expand_ctx *x, int node)
{
    int lo = 0, hi = x->nfi - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (x->fi[mid].base <= node)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Hierarchical name of a port or wire node, for messages. */
static void node_name(const expand_ctx *x, int node, char *buf, size_t len)
{
    const finst *fi = &x->fi[finst_of(x, node)];
    const cg__module *m = &x->f->a->mods[fi->mod];
    int k = node - fi->base;
    snprintf(buf, len, "%s%s%s", fi->path, *fi->path ? "." : "",
             k < m->nsigs ? m->sigs[k].name : "?");
}

/* The graph of the expanded hierarchy: an edge per connection instance. */
typedef struct graph {
    int nedges;
    int *src, *dst;
    int *drv;          /* per node: the edge driving it, -1 */
    int *off, *adj;    /* CSR of out-edges (destination nodes) */
} graph;

static void free_graph(graph *g)
{
    free(g->src);
    free(g->dst);
    free(g->drv);
    free(g->off);
    free(g->adj);
}

static int count_edges(const expand_ctx *x)
{
    int n = 0;
    for (int i = 0; i < x->nfi; i++)
        n += x->f->a->mods[x->fi[i].mod].nconns;
    return n;
}

static int build_graph(expand_ctx *x, graph *g)
{
    int ne = count_edges(x), nn = x->nnodes;
    memset(g, 0, sizeof *g);
    g->src = malloc(sizeof(int) * (size_t)(ne + 1));
    g->dst = malloc(sizeof(int) * (size_t)(ne + 1));
    g->drv = malloc(sizeof(int) * (size_t)(nn + 1));
    g->off = calloc((size_t)nn + 2, sizeof(int));
    g->adj = malloc(sizeof(int) * (size_t)(ne + 1));
    if (!g->src || !g->dst || !g->drv || !g->off || !g->adj)
        return -1;
    for (int i = 0; i < nn; i++)
        g->drv[i] = -1;
    for (int fi = 0; fi < x->nfi; fi++) {
        const cg__module *m = &x->f->a->mods[x->fi[fi].mod];
        const mcheck *mc = &x->f->mc[x->fi[fi].mod];
        for (int i = 0; i < m->nconns; i++) {
            int s = gnode(x, fi, mc->from[i]), t = gnode(x, fi, mc->to[i]);
            if (g->drv[t] >= 0) { /* only inout ports, driven from both sides */
                char a[512], b[512];
                node_name(x, t, a, sizeof a);
                node_name(x, g->src[g->drv[t]], b, sizeof b);
                cg_error_at(x->f->d, m->conns[i].loc, "inout port '%s' is "
                            "driven both inside and outside its module (by "
                            "'%s' and by '%s'); drive it from one side",
                            a, b, shown(m->conns[i].from));
                continue;
            }
            g->drv[t] = g->nedges;
            g->src[g->nedges] = s;
            g->dst[g->nedges++] = t;
            g->off[s + 1]++;
        }
    }
    for (int i = 0; i < nn; i++)
        g->off[i + 1] += g->off[i];
    int *fill = calloc((size_t)nn + 1, sizeof(int));
    if (!fill)
        return -1;
    for (int e = 0; e < g->nedges; e++)
        g->adj[g->off[g->src[e]] + fill[g->src[e]]++] = g->dst[e];
    free(fill);
    return 0;
}

static int cmp_fprim(const void *pa, const void *pb)
{
    const fprim *a = pa, *b = pb;
    int c = cg__name_cmp(a->name, b->name);
    return c ? c : strcmp(a->name, b->name);
}

/* A string of the netlist's arena equal to s (file names repeat). */
static const char *intern(cg_netlist *nl, const char *s, const char **last,
                          const char **copy)
{
    if (!s)
        return NULL;
    if (*last != s) {
        *last = s;
        *copy = cg__arena_strdup(nl->arena, s);
    }
    return *copy;
}

/* Primitives and ports of the netlist from the sorted fprims; node_port
 * maps each primitive port node to its netlist port. */
static int fill_prims(expand_ctx *x, cg_netlist *nl, int *node_port)
{
    fctx *f = x->f;
    nl->nprims = x->nfp;
    nl->prims = cg__arena_alloc(nl->arena, sizeof *nl->prims *
                                               (size_t)(x->nfp + 1));
    int np = 0;
    for (int i = 0; i < x->nfp; i++)
        np += cg__prim_nports(&x->fp[i].in->p);
    nl->ports = cg__arena_alloc(nl->arena, sizeof *nl->ports *
                                               (size_t)(np + 1));
    if (!nl->prims || !nl->ports)
        return -1;
    const char *last = NULL, *copy = NULL;
    for (int i = 0; i < x->nfp; i++) {
        const fprim *fp = &x->fp[i];
        cg_nl_prim *p = &nl->prims[i];
        p->name = fp->name;
        p->p = fp->in->p;
        p->p.width = fp->width;
        p->row = fp->row;
        p->col = fp->col;
        p->memory = fp->in->p.kind == CG_PRIM_MEM ? mem_of(f, fp->in, false)
                                                  : -1;
        p->p.memory = p->memory >= 0 ? nl->mems[p->memory].name : NULL;
        p->loc.file = intern(nl, fp->in->loc.file, &last, &copy);
        p->loc.line = fp->in->loc.line;
        p->port0 = nl->nports;
        p->nports = cg__prim_nports(&p->p);
        for (int k = 0; k < p->nports; k++) {
            cg__pport pp;
            cg__prim_port(&p->p, k, &pp);
            cg_nl_port *o = &nl->ports[nl->nports];
            o->name = cg__arena_strdup(nl->arena, pp.name);
            if (!o->name)
                return -1;
            o->prim = i;
            o->dir = pp.dir;
            o->width = pp.width;
            o->net = -1;
            node_port[fp->node + k] = nl->nports++;
        }
    }
    return 0;
}

typedef struct netbuf {
    int *sinks;
    int nsinks, csinks;
    int *start;        /* per net: first sink */
    int *stack, *seen;
} netbuf;

/* The net driven by port id drv (its node is start): every primitive port
 * it reaches through ports and wires. */
static int trace(const graph *g, const int *node_port, cg_netlist *nl,
                 netbuf *b, int drv, int start)
{
    int n = nl->nnets, sp = 0, first = b->nsinks;
    b->stack[sp++] = start;
    b->seen[start] = n + 1;
    while (sp) {
        int v = b->stack[--sp];
        for (int e = g->off[v]; e < g->off[v + 1]; e++) {
            int w = g->adj[e];
            if (b->seen[w] == n + 1)
                continue;
            b->seen[w] = n + 1;
            if (node_port[w] < 0) {
                b->stack[sp++] = w;
                continue;
            }
            if (cg__arch_grow((void **)&b->sinks, &b->csinks, b->nsinks + 1,
                              sizeof *b->sinks) < 0)
                return -1;
            b->sinks[b->nsinks++] = node_port[w];
        }
    }
    if (b->nsinks == first)
        return 0;
    b->start[n] = first;
    nl->nets[n].driver = drv;
    nl->nets[n].nsinks = b->nsinks - first;
    nl->ports[drv].net = n;
    for (int i = first; i < b->nsinks; i++)
        nl->ports[b->sinks[i]].net = n;
    nl->nnets++;
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int build_nets(expand_ctx *x, const graph *g, cg_netlist *nl,
                      const int *node_port, const int *port_node)
{
    netbuf b = {0};
    int rc = 0;
    nl->nets = cg__arena_alloc(nl->arena, sizeof *nl->nets *
                                              (size_t)(nl->nports + 1));
    b.start = calloc((size_t)nl->nports + 1, sizeof(int));
    b.stack = malloc(sizeof(int) * (size_t)(x->nnodes + 1));
    b.seen = calloc((size_t)x->nnodes + 1, sizeof(int));
    if (!nl->nets || !b.start || !b.stack || !b.seen)
        rc = -1;
    for (int p = 0; rc == 0 && p < nl->nports; p++) {
        const cg_nl_port *pt = &nl->ports[p];
        int node = port_node[p];
        bool drives = g->off[node + 1] > g->off[node];
        if (pt->dir == CG_DIR_IN || (pt->dir == CG_DIR_INOUT && !drives))
            continue;
        if (pt->dir == CG_DIR_INOUT && g->drv[node] >= 0) {
            cg_error_at(x->f->d, nl->prims[pt->prim].loc, "inout port '%s' "
                        "of '%s' both drives and is driven; connect it one "
                        "way", pt->name, nl->prims[pt->prim].name);
            continue;
        }
        rc = trace(g, node_port, nl, &b, p, node);
    }
    nl->sinks = cg__arena_alloc(nl->arena, sizeof(int) *
                                               (size_t)(b.nsinks + 1));
    if (!nl->sinks)
        rc = -1;
    for (int i = 0; rc == 0 && i < nl->nnets; i++) {
        int *s = nl->sinks + b.start[i];
        memcpy(s, b.sinks + b.start[i], sizeof(int) *
                                            (size_t)nl->nets[i].nsinks);
        qsort(s, (size_t)nl->nets[i].nsinks, sizeof(int), cmp_int);
        nl->nets[i].sinks = s;
    }
    free(b.sinks);
    free(b.start);
    free(b.stack);
    free(b.seen);
    return rc;
}

static int copy_memories(const cg_arch *a, cg_netlist *nl)
{
    nl->nmems = a->nmems;
    nl->mems = cg__arena_alloc(nl->arena, sizeof *nl->mems *
                                              (size_t)(a->nmems + 1));
    if (!nl->mems)
        return -1;
    for (int i = 0; i < a->nmems; i++) {
        nl->mems[i].name = cg__arena_strdup(nl->arena, a->mems[i].name);
        nl->mems[i].bytes = a->mems[i].bytes;
        nl->mems[i].banks = a->mems[i].banks;
        nl->mems[i].ports = a->mems[i].ports;
        if (!nl->mems[i].name)
            return -1;
    }
    nl->has_dma = a->has_dma;
    nl->dma = a->dma;
    return 0;
}

/* Expand the checked hierarchy into nl. */
static int build(fctx *f, cg_netlist *nl)
{
    expand_ctx x = {.f = f, .arena = nl->arena};
    graph g = {0};
    int *node_port = NULL, *port_node = NULL, rc = -1;
    if (copy_memories(f->a, nl) < 0 || expand(&x, f->a->top, "", -1, -1) < 0)
        goto out;
    if (x.nfp)
        qsort(x.fp, (size_t)x.nfp, sizeof *x.fp, cmp_fprim);
    node_port = malloc(sizeof(int) * (size_t)(x.nnodes + 1));
    if (!node_port)
        goto out;
    for (int i = 0; i < x.nnodes; i++)
        node_port[i] = -1;
    if (fill_prims(&x, nl, node_port) < 0 || build_graph(&x, &g) < 0)
        goto out;
    port_node = malloc(sizeof(int) * (size_t)(nl->nports + 1));
    if (!port_node)
        goto out;
    for (int i = 0; i < x.nnodes; i++)
        if (node_port[i] >= 0)
            port_node[node_port[i]] = i;
    rc = build_nets(&x, &g, nl, node_port, port_node);
out:
    if (rc < 0 && !failed(f))
        cg_diags_add(f->d, CG_SEV_ERROR, NULL, 0, "out of memory while "
                     "flattening the architecture");
    free_graph(&g);
    free(node_port);
    free(port_node);
    free(x.fi);
    free(x.fp);
    return rc;
}

/* Blocks placed outside the grid (the C API does not check positions). */
static void check_positions(fctx *f)
{
    const cg_arch *a = f->a;
    const cg__module *m = &a->mods[a->top];
    for (int i = 0; i < m->ninsts; i++) {
        const cg__inst *in = &m->insts[i];
        if (in->row < 0 && in->col < 0)
            continue;
        if (in->row < 0 || in->col < 0 || in->row >= a->rows ||
            in->col >= a->cols)
            cg_error_at(f->d, in->loc, "block '%s' is at (%d, %d), outside "
                        "the %dx%d grid; use rows 0..%d and columns 0..%d",
                        in->name, in->row, in->col, a->rows, a->cols,
                        a->rows - 1, a->cols - 1);
    }
}

static void free_checks(fctx *f)
{
    for (int i = 0; f->mc && i < f->a->nmods; i++) {
        free(f->mc[i].from);
        free(f->mc[i].to);
        free(f->mc[i].sub);
        free(f->mc[i].autow);
        free(f->mc[i].base);
    }
    free(f->mc);
    for (int i = 0; i < f->nsaid; i++)
        free(f->said[i]);
    free(f->said);
}

cg_netlist *cg_arch_flatten(const cg_arch *a, cg_diags *d)
{
    fctx f = {a, d, cg_diags_errors(d), NULL, NULL, 0, 0};
    if (a->top < 0 || a->top >= a->nmods) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "the architecture has no top "
                     "module; define one and call cg_arch_set_top");
        return NULL;
    }
    f.mc = calloc((size_t)a->nmods + 1, sizeof *f.mc);
    char *state = calloc((size_t)a->nmods + 1, 1);
    cg_netlist *nl = calloc(1, sizeof *nl);
    if (nl)
        nl->arena = cg__arena_create();
    if (!f.mc || !state || !nl || !nl->arena) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "out of memory");
    } else {
        for (int i = 0; i < a->nmods; i++)
            check_module(&f, i);
        check_positions(&f);
        for (int i = 0; i < a->nmods && !failed(&f); i++)
            if (recursive(&f, i, state))
                break;
    }
    if (!failed(&f)) {
        nl->rows = a->rows;
        nl->cols = a->cols;
        build(&f, nl);
    }
    free_checks(&f);
    free(state);
    if (failed(&f)) {
        cg_netlist_destroy(nl);
        return NULL;
    }
    return nl;
}

void cg_netlist_destroy(cg_netlist *nl)
{
    if (!nl)
        return;
    cg__arena_destroy(nl->arena);
    free(nl);
}
