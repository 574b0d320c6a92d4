/* check.c: the first pass of cg_arch_flatten: resolve and check every
 * module definition once (unknown names with the lists of what exists,
 * directions, widths, two drivers, unconnected primitive inputs, tile
 * memories), block positions and recursion.  A mistake in a module used 64
 * times is reported once, with the module's own names, at the line that
 * made the object.  flatten.c expands only what passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_internal.h"

/* False when the message keyed by (loc, a, b) was given already: the
 * sugar makes one connection per block from a single XML line, and its
 * mistake is one mistake. */
static bool once(cg__fctx *f, cg_loc loc, const char *a, const char *b)
{
    char key[512];
    snprintf(key, sizeof key, "%s:%d:%s:%s", loc.file ? loc.file : "",
             loc.line, a, b);
    int seen;
    if (cg_strmap_get(f->said, key, &seen))
        return false;
    /* out of memory: the message may come again, nothing else */
    if (f->said || (f->said = cg_strmap_create()))
        (void)cg_strmap_put(f->said, key, 1);
    return true;
}

bool cg__flat_failed(const cg__fctx *f)
{
    return cg_diags_errors(f->d) > f->errors0;
}

/* ---- lists for messages ------------------------------------------------- */

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

/* ---- resolving references ----------------------------------------------- */

/* Signal names are unique in a module (cg_arch_add_port and _wire refuse
 * a second): the one of that name, if a wire is wanted. */
static int find_sig(const cg__module *m, const char *name, bool wires)
{
    int i;
    if (!cg_strmap_get(m->sig_ix, name, &i) || (!wires && m->sigs[i].wire))
        return -1;
    return i;
}

/* The instance named by the len bytes at name. */
static int find_inst(const cg__module *m, const char *name, size_t len)
{
    int i;
    return cg_strmap_getn(m->inst_ix, name, len, &i) ? i : -1;
}

static cg__ref resolve_inst_port(cg__fctx *f, int mi, int ii, const char *port,
                             cg_loc loc)
{
    const cg__module *m = &f->a->mods[mi];
    const cg__inst *in = &m->insts[ii];
    cg__ref r = {CG__REF_NONE, ii, -1};
    char list[1024];
    if (in->prim) {
        r.idx = cg__prim_find_port(&in->p, port);
        if (r.idx >= 0) {
            r.kind = CG__REF_PRIM;
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
        r.kind = CG__REF_SUB;
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
static cg__ref resolve(cg__fctx *f, int mi, const char *s, cg_loc loc)
{
    const cg__module *m = &f->a->mods[mi];
    cg__ref r = {CG__REF_NONE, -1, -1};
    const char *dot = strchr(s, '.');
    char list[1024];
    if (!dot || !strncmp(s, "this.", 5)) {
        const char *name = dot ? dot + 1 : s;
        r.idx = find_sig(m, name, true);
        if (r.idx >= 0) {
            r.kind = CG__REF_SIG;
            return r;
        }
        /* once per reference: a pattern's stamps repeat its connections */
        if (!once(f, loc, "unknown reference", s))
            return r;
        sig_list(m, true, list, sizeof list);
        cg_error_at(f->d, loc, "unknown port or wire '%s' in module '%s' "
                    "(ports and wires: %s)", name, m->name, list);
        return r;
    }
    int ii = find_inst(m, s, (size_t)(dot - s));
    if (ii >= 0)
        return resolve_inst_port(f, mi, ii, dot + 1, loc);
    if (!once(f, loc, "unknown reference", s))
        return r;
    list[0] = 0;
    for (int i = 0; i < m->ninsts; i++)
        list_add(list, sizeof list, m->insts[i].name);
    cg_error_at(f->d, loc, "unknown instance '%.*s' in reference '%s' in "
                "module '%s' (instances: %s)", (int)(dot - s), s, s, m->name,
                list[0] ? list : "none");
    return r;
}

/* ---- facts about resolved references ------------------------------------ */

/* Direction, width, and whether it is configuration, of a resolved ref. */
static void ref_info(const cg__fctx *f, int mi, cg__ref r, cg_dir *dir,
                     int *width, bool *config)
{
    const cg__module *m = &f->a->mods[mi];
    *config = false;
    if (r.kind == CG__REF_SIG) {
        *dir = m->sigs[r.idx].dir;
        *width = m->sigs[r.idx].width;
    } else if (r.kind == CG__REF_SUB) {
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
static int local_node(const cg__fctx *f, int mi, cg__ref r)
{
    return r.kind == CG__REF_SIG ? r.idx : f->mc[mi].base[r.inst] + r.idx;
}

static bool is_auto_data(const cg__fctx *f, int mi, cg__ref r)
{
    if (r.kind != CG__REF_PRIM)
        return false;
    const cg__inst *in = &f->a->mods[mi].insts[r.inst];
    return in->autow && r.idx != in->p.ninput; /* not its select */
}

/* Widths of select-from multiplexers: their target's (or any neighbour's
 * once known), 32 when nothing says. */
static void auto_widths(cg__fctx *f, int mi)
{
    const cg__module *m = &f->a->mods[mi];
    cg__mcheck *mc = &f->mc[mi];
    bool changed = true;
    while (changed) {
        changed = false;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < m->nconns; i++) {
                cg__ref a = pass ? mc->from[i] : mc->to[i];
                cg__ref b = pass ? mc->to[i] : mc->from[i];
                if (a.kind == CG__REF_NONE || b.kind == CG__REF_NONE ||
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

const char *cg__flat_shown(const char *s)
{
    return strncmp(s, "this.", 5) ? s : s + 5;
}

static const char *owner_kind(const cg__fctx *f, int mi, cg__ref r)
{
    const cg__module *m = &f->a->mods[mi];
    if (r.kind == CG__REF_PRIM)
        return cg_prim_kind_name(m->insts[r.inst].p.kind);
    return "module";
}

static const char *owner_name(const cg__fctx *f, int mi, cg__ref r)
{
    const cg__module *m = &f->a->mods[mi];
    if (r.kind == CG__REF_PRIM)
        return m->insts[r.inst].name;
    if (r.kind == CG__REF_SUB)
        return f->a->mods[f->mc[mi].sub[r.inst]].name;
    return m->name;
}

/* Directions and widths of connection i. */
static void check_conn(cg__fctx *f, int mi, int i)
{
    const cg__conn *c = &f->a->mods[mi].conns[i];
    cg__ref s = f->mc[mi].from[i], t = f->mc[mi].to[i];
    cg_dir sd, td;
    int sw, tw;
    bool cfg;
    ref_info(f, mi, s, &sd, &sw, &cfg);
    ref_info(f, mi, t, &td, &tw, &cfg);
    if (s.kind == CG__REF_PRIM && sd == CG_DIR_IN) {
        cg_error_at(f->d, c->loc,
                    "'%s' is an input of %s '%s'; it cannot "
                    "drive '%s' (swap from= and to=?)",
                    c->from, owner_kind(f, mi, s), owner_name(f, mi, s),
                    cg__flat_shown(c->to));
    } else if (t.kind == CG__REF_PRIM && td == CG_DIR_OUT) {
        cg_error_at(f->d, c->loc, "'%s' is an output of %s '%s'; it cannot "
                    "be driven by '%s' (swap from= and to=?)", c->to,
                    owner_kind(f, mi, t), owner_name(f, mi, t),
                    cg__flat_shown(c->from));
    } else if (t.kind == CG__REF_SIG && td == CG_DIR_IN &&
               !f->a->mods[mi].sigs[t.idx].wire) {
        cg_error_at(f->d, c->loc,
                    "'%s' is an input of module '%s'; it is "
                    "driven from outside the module, not by '%s'",
                    cg__flat_shown(c->to), owner_name(f, mi, t),
                    cg__flat_shown(c->from));
    } else if (t.kind == CG__REF_SUB && td == CG_DIR_OUT) {
        cg_error_at(f->d, c->loc, "'%s' is an output of module '%s'; it is "
                    "driven inside that module, not by '%s'", c->to,
                    owner_name(f, mi, t), cg__flat_shown(c->from));
    } else if (sw != tw) {
        char ws[32];
        snprintf(ws, sizeof ws, "%d/%d", sw, tw);
        if (once(f, c->loc, "width mismatch", ws))
            cg_error_at(f->d, c->loc, "width mismatch: '%s' is %d bits but "
                        "'%s' is %d bits; give both the same size=",
                        cg__flat_shown(c->from), sw, cg__flat_shown(c->to), tw);
    }
}

/* One driver per input; a warning for primitive inputs nothing drives. */
static void check_drivers(cg__fctx *f, int mi)
{
    const cg__module *m = &f->a->mods[mi];
    cg__mcheck *mc = &f->mc[mi];
    int *drv = malloc(sizeof *drv * (size_t)(mc->nlocal + 1));
    if (!drv)
        return;
    for (int i = 0; i < mc->nlocal; i++)
        drv[i] = -1;
    for (int i = 0; i < m->nconns; i++) {
        if (mc->to[i].kind == CG__REF_NONE) /* an unknown source still drives */
            continue;
        int n = local_node(f, mi, mc->to[i]);
        if (drv[n] < 0) {
            drv[n] = i;
            continue;
        }
        if (mc->from[i].kind == CG__REF_NONE ||
            mc->from[drv[n]].kind == CG__REF_NONE)
            continue; /* fallout of an unknown name, reported already */
        const cg__conn *c0 = &m->conns[drv[n]], *c = &m->conns[i];
        if (local_node(f, mi, mc->from[i]) ==
            local_node(f, mi, mc->from[drv[n]])) { /* the same one again */
            cg_error_at(f->d, c->loc,
                        "'%s' in module '%s' is connected from '%s' twice "
                        "(also at %s:%d); remove one of the connections",
                        cg__flat_shown(c->to), m->name,
                        cg__flat_shown(c->from),
                        c0->loc.file ? c0->loc.file : "?", c0->loc.line);
            continue;
        }
        cg_error_at(f->d, c->loc,
                    "'%s' in module '%s' is driven by both "
                    "'%s' (at %s:%d) and '%s'; list both in one select-from= "
                    "to put a multiplexer in front of it",
                    cg__flat_shown(c->to), m->name, cg__flat_shown(c0->from),
                    c0->loc.file ? c0->loc.file : "?", c0->loc.line,
                    cg__flat_shown(c->from));
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
int cg__flat_mem_of(cg__fctx *f, const cg__inst *in, bool report)
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

static int alloc_check(cg__fctx *f, int mi)
{
    const cg__module *m = &f->a->mods[mi];
    cg__mcheck *mc = &f->mc[mi];
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
static void resolve_modules(cg__fctx *f, int mi)
{
    const cg__module *m = &f->a->mods[mi];
    cg__mcheck *mc = &f->mc[mi];
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

static void check_module(cg__fctx *f, int mi)
{
    const cg__module *m = &f->a->mods[mi];
    cg__mcheck *mc = &f->mc[mi];
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
            cg__flat_mem_of(f, in, true);
    }
    for (int i = 0; i < m->nconns; i++) {
        mc->from[i] = resolve(f, mi, m->conns[i].from, m->conns[i].loc);
        mc->to[i] = resolve(f, mi, m->conns[i].to, m->conns[i].loc);
    }
    auto_widths(f, mi);
    for (int i = 0; i < m->nconns; i++)
        if (mc->from[i].kind != CG__REF_NONE && mc->to[i].kind != CG__REF_NONE)
            check_conn(f, mi, i);
    check_drivers(f, mi);
}

/* A module that contains itself would expand forever.  state: 0 unseen,
 * 1 on the current path, 2 done. */
static bool recursive(cg__fctx *f, int mi, char *state)
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

/* Blocks placed outside the grid (the C API does not check positions). */
static void check_positions(cg__fctx *f)
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

void cg__flat_free(cg__fctx *f)
{
    for (int i = 0; f->mc && i < f->a->nmods; i++) {
        free(f->mc[i].from);
        free(f->mc[i].to);
        free(f->mc[i].sub);
        free(f->mc[i].autow);
        free(f->mc[i].base);
    }
    free(f->mc);
    cg_strmap_destroy(f->said);
}

bool cg__flat_check(cg__fctx *f)
{
    const cg_arch *a = f->a;
    f->mc = calloc((size_t)a->nmods + 1, sizeof *f->mc);
    char *state = calloc((size_t)a->nmods + 1, 1);
    if (!f->mc || !state) {
        cg_diags_add(f->d, CG_SEV_ERROR, NULL, 0, "out of memory");
        free(state);
        return false;
    }
    for (int i = 0; i < a->nmods; i++)
        check_module(f, i);
    check_positions(f);
    for (int i = 0; i < a->nmods && !cg__flat_failed(f); i++)
        if (recursive(f, i, state))
            break;
    free(state);
    return !cg__flat_failed(f);
}
