/* arch.c: the architecture model and its building C API.  Building only
 * records what the caller says (with the current location); names are
 * resolved and checked by cg_arch_flatten (flatten.c), so modules may be
 * used before they are defined. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "arch_internal.h"

static const char *const kind_names[CG_PRIM_COUNT] = {
    "FuncUnit", "MEMUnit", "Register", "Multiplexer",
    "TriState", "IO", "RegisterFile", "ConstUnit",
};

const char *cg_prim_kind_name(cg_prim_kind k)
{
    return (unsigned)k < CG_PRIM_COUNT ? kind_names[k] : "?";
}

bool cg_prim_kind_parse(const char *name, cg_prim_kind *k)
{
    for (int i = 0; i < CG_PRIM_COUNT; i++)
        if (!strcmp(name, kind_names[i])) {
            *k = (cg_prim_kind)i;
            return true;
        }
    return false;
}

void cg_prim_params_init(cg_prim_params *p, cg_prim_kind kind)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->width = 32;
    p->ops = kind == CG_PRIM_FUNC  ? CG_OPSET(CG_OP_ADD) | CG_OPSET(CG_OP_SUB)
             : kind == CG_PRIM_MEM ? CG_OPSET(CG_OP_LOAD) |
                                         CG_OPSET(CG_OP_STORE)
                                   : 0;
    p->latency = 0;
    p->ninput = kind == CG_PRIM_MUX ? 2 : 1;
    p->noutput = 1;
    p->log2_nregs = 2;
    p->memory = NULL;
    p->bank = -1;
}

void cg_dma_params_init(cg_dma_params *p)
{
    memset(p, 0, sizeof *p);
    p->ext_bytes = (int64_t)1 << 30;
    p->bytes_per_cycle = 4;
    p->setup_cycles = 10;
    p->channels = 1;
    p->max_dims = 4;
}

cg_arch *cg_arch_create(void)
{
    cg_arch *a = calloc(1, sizeof *a);
    if (a) {
        a->top = -1;
        a->addr_width = 32;
    }
    return a;
}

static void free_module(cg__module *m)
{
    free(m->name);
    for (int i = 0; i < m->nsigs; i++)
        free(m->sigs[i].name);
    for (int i = 0; i < m->ninsts; i++) {
        free(m->insts[i].name);
        free(m->insts[i].memory);
        free(m->insts[i].module);
    }
    for (int i = 0; i < m->nconns; i++) {
        free(m->conns[i].from);
        free(m->conns[i].to);
    }
    free(m->sigs);
    free(m->insts);
    free(m->conns);
    cg_strmap_destroy(m->sig_ix);
    cg_strmap_destroy(m->inst_ix);
}

void cg_arch_destroy(cg_arch *a)
{
    if (!a)
        return;
    for (int i = 0; i < a->nmods; i++)
        free_module(&a->mods[i]);
    for (int i = 0; i < a->nfiles; i++)
        free(a->files[i]);
    for (int i = 0; i < a->nmems; i++)
        free(a->mems[i].name);
    free(a->mods);
    cg_strmap_destroy(a->mod_ix);
    free(a->files);
    free(a->mems);
    free(a);
}

void cg_arch_set_loc(cg_arch *a, const char *file, int line)
{
    a->loc.line = line;
    a->loc.file = NULL;
    if (!file)
        return;
    for (int i = 0; i < a->nfiles; i++)
        if (!strcmp(a->files[i], file)) {
            a->loc.file = a->files[i];
            return;
        }
    char *f = strdup(file);
    if (!f || CG_GROW(a->files, a->cfiles, a->nfiles + 1) < 0) {
        free(f);
        return; /* the location is lost, nothing else */
    }
    a->files[a->nfiles++] = f;
    a->loc.file = f;
}

static int oom(cg_arch *a, cg_diags *d)
{
    cg_error_at(d, a->loc, "out of memory");
    return -1;
}

/* Record name -> i in *ix (made on first use); -1 on no memory. */
static int index_put(cg_strmap **ix, const char *name, int i)
{
    if (!*ix && !(*ix = cg_strmap_create()))
        return -1;
    return cg_strmap_put(*ix, name, i);
}

/* Hashed: a CGRA-ME file may define 100k modules, a top as many
 * instances. */
int cg_arch_module_find(const cg_arch *a, const char *name)
{
    int i;
    return cg_strmap_get(a->mod_ix, name, &i) ? i : -1;
}

int cg_arch_module_define(cg_arch *a, const char *name, cg_diags *d)
{
    cg_prim_kind k;
    int old = cg_arch_module_find(a, name);
    if (cg_prim_kind_parse(name, &k)) {
        cg_error_at(d, a->loc, "module name '%s' is a primitive's; choose "
                    "another name", name);
        return -1;
    }
    if (old >= 0) {
        cg_loc l = a->mods[old].loc;
        cg_error_at(d, a->loc, "duplicate module '%s' (first defined at "
                    "%s:%d); rename one", name, l.file ? l.file : "?", l.line);
        return -1;
    }
    if (CG_GROW(a->mods, a->cmods, a->nmods + 1) < 0)
        return oom(a, d);
    cg__module *m = &a->mods[a->nmods];
    memset(m, 0, sizeof *m);
    m->name = strdup(name);
    m->loc = a->loc;
    if (!m->name || index_put(&a->mod_ix, name, a->nmods)) {
        free(m->name);
        m->name = NULL;
        return oom(a, d);
    }
    return a->nmods++;
}

void cg_arch_set_top(cg_arch *a, int mod) { a->top = mod; }

void cg_arch_set_grid(cg_arch *a, int rows, int cols)
{
    a->rows = rows;
    a->cols = cols;
}

/* A module id the caller passes must be one cg_arch_module_define gave. */
static bool bad_mod(cg_arch *a, int mod, cg_diags *d)
{
    if (mod >= 0 && mod < a->nmods)
        return false;
    cg_error_at(d, a->loc, "module id %d does not exist (cg_arch_module_"
                "define returned it?)", mod);
    return true;
}

static const cg__sig *find_sig(const cg__module *m, const char *name)
{
    int i;
    return cg_strmap_get(m->sig_ix, name, &i) ? &m->sigs[i] : NULL;
}

static const cg__inst *find_inst(const cg__module *m, const char *name)
{
    int i;
    return cg_strmap_get(m->inst_ix, name, &i) ? &m->insts[i] : NULL;
}

static int add_sig(cg_arch *a, int mod, const char *name, cg_dir dir,
                   bool wire, int width, cg_diags *d)
{
    if (bad_mod(a, mod, d))
        return -1;
    cg__module *m = &a->mods[mod];
    const cg__sig *old = find_sig(m, name);
    if (old) {
        cg_error_at(d, a->loc, "duplicate %s '%s' in module '%s' (first "
                    "declared at %s:%d); rename one", wire ? "wire" : "port",
                    name, m->name, old->loc.file ? old->loc.file : "?",
                    old->loc.line);
        return -1;
    }
    if (width < 1 || width > CG_MAX_WIDTH) {
        cg_error_at(d, a->loc, "%s '%s' in module '%s' needs a width of "
                    "1..%d (got %d)", wire ? "wire" : "port", name, m->name,
                    CG_MAX_WIDTH, width);
        return -1;
    }
    if (CG_GROW(m->sigs, m->csigs, m->nsigs + 1) < 0)
        return oom(a, d);
    cg__sig *s = &m->sigs[m->nsigs];
    s->name = strdup(name);
    s->dir = dir;
    s->wire = wire;
    s->width = width;
    s->loc = a->loc;
    if (!s->name || index_put(&m->sig_ix, name, m->nsigs)) {
        free(s->name);
        return oom(a, d);
    }
    return m->nsigs++;
}

int cg_arch_add_port(cg_arch *a, int mod, const char *name, cg_dir dir,
                     int width, cg_diags *d)
{
    return add_sig(a, mod, name, dir, false, width, d);
}

int cg_arch_add_wire(cg_arch *a, int mod, const char *name, int width,
                     cg_diags *d)
{
    return add_sig(a, mod, name, CG_DIR_INOUT, true, width, d);
}

/* A new instance slot named name, -1 after an error on a duplicate. */
static int new_inst(cg_arch *a, int mod, const char *name, cg_diags *d)
{
    if (bad_mod(a, mod, d))
        return -1;
    cg__module *m = &a->mods[mod];
    const cg__inst *old = find_inst(m, name);
    if (old) {
        cg_error_at(d, a->loc, "duplicate instance '%s' in module '%s' "
                    "(first declared at %s:%d); rename one", name, m->name,
                    old->loc.file ? old->loc.file : "?", old->loc.line);
        return -1;
    }
    if (CG_GROW(m->insts, m->cinsts, m->ninsts + 1) < 0)
        return oom(a, d);
    cg__inst *in = &m->insts[m->ninsts];
    memset(in, 0, sizeof *in);
    in->name = strdup(name);
    in->row = in->col = -1;
    in->loc = a->loc;
    if (!in->name || index_put(&m->inst_ix, name, m->ninsts)) {
        free(in->name);
        in->name = NULL;
        return oom(a, d);
    }
    return m->ninsts++;
}

/* Operands of a unit that may take an immediate: in_a, in_b (and in_c
 * with select) of a FuncUnit, addr and data_in of a MEMUnit, 0 else. */
static int imm_slots(const cg_prim_params *p)
{
    if (p->kind == CG_PRIM_MEM)
        return 2;
    if (p->kind != CG_PRIM_FUNC)
        return 0;
    return (p->ops & CG_OPSET(CG_OP_SELECT)) ? 3 : 2;
}

/* The immediates of p: on operands the unit has, a field of 1..width
 * bits.  -1 after reporting the first problem. */
static int check_imm(cg_arch *a, const char *inst, const cg_prim_params *p,
                     cg_diags *d)
{
    const char *kn = cg_prim_kind_name(p->kind);
    int n = imm_slots(p);
    char ops[64] = "";
    for (int k = 0; k < n; k++) {
        cg__pport pp;
        cg__prim_port(p, k, &pp);
        snprintf(ops + strlen(ops), sizeof ops - strlen(ops), "%s%s",
                 k ? ", " : "", pp.name);
    }
    if (!p->imm_operands && p->imm_width) {
        cg_error_at(d, a->loc, "%s '%s' gives an immediate width (%d) but "
                    "no operand takes an immediate; name the operands or "
                    "drop the width", kn, inst, p->imm_width);
        return -1;
    }
    if (p->imm_operands && n == 0) {
        cg_error_at(d, a->loc, "%s '%s' cannot take immediates: only "
                    "FuncUnits and MEMUnits can", kn, inst);
        return -1;
    }
    for (int k = n; k < 32; k++)
        if (p->imm_operands & (1u << k)) {
            cg_error_at(d, a->loc, "%s '%s' has no operand %d to take an "
                        "immediate (operands: %s)", kn, inst, k, ops);
            return -1;
        }
    if (p->imm_width < 0 || p->imm_width > p->width) {
        cg_error_at(d, a->loc, "%s '%s' needs an immediate width of 1..%d "
                    "bits, its width (got %d)", kn, inst, p->width,
                    p->imm_width);
        return -1;
    }
    return 0;
}

/* Report the first parameter of p out of its range; -1 when there is one. */
static int check_params(cg_arch *a, const char *inst, const cg_prim_params *p,
                        cg_diags *d)
{
    if ((unsigned)p->kind >= CG_PRIM_COUNT) {
        cg_error_at(d, a->loc, "instance '%s' has an unknown primitive kind "
                    "%d", inst, (int)p->kind);
        return -1;
    }
    const struct {
        const char *name;
        int value, min, max;
    } range[] = {
        {"width", p->width, 1, CG_MAX_WIDTH},
        {"latency", p->latency, 0, CG_MAX_LATENCY},
        {"ninput", p->ninput, 1, CG_MAX_PORTS},
        {"noutput", p->noutput, 1, CG_MAX_PORTS},
        {"log2-nregister", p->log2_nregs, 0, CG_MAX_LOG2_REGS},
        {"bank", p->bank, -1, CG_MAX_BANKS - 1},
    };
    const char *kn = cg_prim_kind_name(p->kind);
    for (size_t i = 0; i < sizeof range / sizeof *range; i++) {
        if (range[i].value < range[i].min) {
            cg_error_at(d, a->loc, "%s '%s' needs %s >= %d (got %d)", kn,
                        inst, range[i].name, range[i].min, range[i].value);
            return -1;
        }
        if (range[i].value > range[i].max) {
            cg_error_at(d, a->loc, "%s '%s' needs %s <= %d (got %d)", kn,
                        inst, range[i].name, range[i].max, range[i].value);
            return -1;
        }
    }
    if (p->kind == CG_PRIM_FUNC && !p->ops) {
        cg_error_at(d, a->loc, "FuncUnit '%s' has no opcodes; give at least "
                    "one (opcodes: %s)", inst, cg_op_all_names());
        return -1;
    }
    return check_imm(a, inst, p, d);
}

/* A FuncUnit that lists load or store reaches no memory: the mapper and
 * the simulator give it an abstract one (as CGRA-ME's abstract fabrics
 * do), which no tile memory, DMA or RTL backs. */
static void warn_func_memory(const cg_arch *a, const char *inst,
                             const cg_prim_params *p, cg_diags *d)
{
    cg_opset mem = CG_OPSET(CG_OP_LOAD) | CG_OPSET(CG_OP_STORE);
    if (p->kind != CG_PRIM_FUNC || !(p->ops & mem))
        return;
    const char *what = (p->ops & mem) == mem ? "load and store"
                       : p->ops & CG_OPSET(CG_OP_LOAD) ? "load" : "store";
    cg_warning_at(d, a->loc, "FuncUnit '%s' lists %s: a FuncUnit reaches no "
                  "memory, so those run on an abstract one that no tile "
                  "memory, DMA or RTL has (the RTL refuses them); give "
                  "loads and stores a MEMUnit", inst, what);
}

int cg_arch_add_prim(cg_arch *a, int mod, const char *inst,
                     const cg_prim_params *p, cg_diags *d)
{
    if (check_params(a, inst, p, d) < 0)
        return -1;
    warn_func_memory(a, inst, p, d);
    int id = new_inst(a, mod, inst, d);
    if (id < 0)
        return -1;
    cg__inst *in = &a->mods[mod].insts[id];
    in->prim = true;
    in->p = *p;
    in->p.memory = NULL;
    if (p->memory) {
        in->memory = strdup(p->memory);
        if (!in->memory)
            return oom(a, d);
        in->p.memory = in->memory;
    }
    return id;
}

int cg_arch_add_submodule(cg_arch *a, int mod, const char *inst,
                          const char *module, cg_diags *d)
{
    int id = new_inst(a, mod, inst, d);
    if (id < 0)
        return -1;
    cg__inst *in = &a->mods[mod].insts[id];
    in->module = strdup(module);
    if (!in->module)
        return oom(a, d);
    return id;
}

void cg_arch_set_position(cg_arch *a, int mod, int inst, int row, int col)
{
    if (mod < 0 || mod >= a->nmods || inst < 0 ||
        inst >= a->mods[mod].ninsts)
        return; /* ids the API never gave; nothing to place */
    cg__inst *in = &a->mods[mod].insts[inst];
    in->row = row;
    in->col = col;
}

static int connect_one(cg_arch *a, int mod, const char *from, size_t flen,
                       const char *to, size_t tlen, cg_diags *d)
{
    cg__module *m = &a->mods[mod];
    if (CG_GROW(m->conns, m->cconns, m->nconns + 1) < 0)
        return oom(a, d);
    cg__conn *c = &m->conns[m->nconns];
    c->from = strndup(from, flen);
    c->to = strndup(to, tlen);
    c->loc = a->loc;
    if (!c->from || !c->to) {
        free(c->from);
        free(c->to);
        return oom(a, d);
    }
    m->nconns++;
    return 0;
}

/* The next blank-separated word of *s (its length in *len), NULL at the
 * end. */
static const char *word(const char **s, size_t *len)
{
    while (isspace((unsigned char)**s))
        (*s)++;
    if (!**s)
        return NULL;
    const char *w = *s;
    while (**s && !isspace((unsigned char)**s))
        (*s)++;
    *len = (size_t)(*s - w);
    return w;
}

/* from and to may each list several references separated by blanks:
 * every source is connected to every target. */
int cg_arch_connect(cg_arch *a, int mod, const char *from, const char *to,
                    cg_diags *d)
{
    if (bad_mod(a, mod, d))
        return -1;
    const char *ts = to, *fs = from, *t, *f;
    size_t tl, fl;
    if (!word(&fs, &fl) || !word(&ts, &tl)) {
        cg_error_at(d, a->loc, "a connection needs a source and a target "
                    "(got from='%s', to='%s')", from, to);
        return -1;
    }
    for (ts = to; (t = word(&ts, &tl));)
        for (fs = from; (f = word(&fs, &fl));)
            if (connect_one(a, mod, f, fl, t, tl, d) < 0)
                return -1;
    return 0;
}

/* "inst_port_mux" for "inst.port", "port_mux" for "port" or "this.port". */
static void mux_name(const char *to, char *buf, size_t len)
{
    if (!strncmp(to, "this.", 5))
        to += 5;
    snprintf(buf, len, "%s_mux", to);
    for (char *s = buf; *s; s++)
        if (*s == '.')
            *s = '_';
}

int cg_arch_connect_select(cg_arch *a, int mod, const char *const *froms,
                           int n, const char *to, cg_diags *d)
{
    if (n < 1) {
        cg_error_at(d, a->loc, "select-from for '%s' lists no source; give "
                    "at least one", to);
        return -1;
    }
    if (bad_mod(a, mod, d))
        return -1;
    char name[256];
    mux_name(to, name, sizeof name);
    const cg__inst *old = find_inst(&a->mods[mod], name);
    if (old) {
        cg_error_at(d, a->loc, "'%s' already has a select-from multiplexer "
                    "'%s' (at %s:%d); list all its sources in one "
                    "select-from=", to, name,
                    old->loc.file ? old->loc.file : "?", old->loc.line);
        return -1;
    }
    cg_prim_params p;
    cg_prim_params_init(&p, CG_PRIM_MUX);
    p.ninput = n;
    int id = cg_arch_add_prim(a, mod, name, &p, d);
    if (id < 0)
        return -1;
    a->mods[mod].insts[id].autow = true;
    char ref[300];
    for (int i = 0; i < n; i++) {
        snprintf(ref, sizeof ref, "%s.in%d", name, i);
        if (cg_arch_connect(a, mod, froms[i], ref, d) < 0)
            return -1;
    }
    snprintf(ref, sizeof ref, "%s.out", name);
    return cg_arch_connect(a, mod, ref, to, d);
}

int cg_arch_add_memory(cg_arch *a, const char *name, int64_t bytes,
                       int banks, int ports, cg_diags *d)
{
    for (int i = 0; i < a->nmems; i++)
        if (!strcmp(a->mems[i].name, name)) {
            cg_loc l = a->mems[i].loc;
            cg_error_at(d, a->loc, "duplicate tile memory '%s' (first "
                        "declared at %s:%d); rename one", name,
                        l.file ? l.file : "?", l.line);
            return -1;
        }
    if (bytes < 1 || banks < 1 || banks > CG_MAX_BANKS || ports < 1 ||
        ports > CG_MAX_PORTS || bytes % banks) {
        cg_error_at(d, a->loc, "tile memory '%s' needs bytes >= 1, banks of "
                    "1..%d dividing bytes, and ports of 1..%d (got "
                    "bytes=%lld, banks=%d, ports=%d)", name, CG_MAX_BANKS,
                    CG_MAX_PORTS, (long long)bytes, banks, ports);
        return -1;
    }
    if (CG_GROW(a->mems, a->cmems, a->nmems + 1) < 0)
        return oom(a, d);
    cg__memory *m = &a->mems[a->nmems];
    m->name = strdup(name);
    if (!m->name)
        return oom(a, d);
    m->bytes = bytes;
    m->banks = banks;
    m->ports = ports;
    m->loc = a->loc;
    return a->nmems++;
}

bool cg_dma_bytes_per_cycle_ok(double b)
{
    return b >= CG_DMA_MIN_BYTES_PER_CYCLE && b <= CG_DMA_MAX_BYTES_PER_CYCLE;
}

int cg_arch_set_dma(cg_arch *a, const cg_dma_params *p, cg_diags *d)
{
    if (a->has_dma) {
        cg_error_at(d, a->loc, "second DMA engine (the first is at %s:%d); "
                    "an architecture has one", a->dma_loc.file ?
                    a->dma_loc.file : "?", a->dma_loc.line);
        return -1;
    }
    if (p->ext_bytes < 0 ||
        !cg_dma_bytes_per_cycle_ok(p->bytes_per_cycle) ||
        p->setup_cycles < 0 || p->channels < 1 || p->max_dims < 1 ||
        p->max_dims > CG_DMA_MAX_DIMS) {
        cg_error_at(d, a->loc, "the DMA engine needs ext-bytes >= 0, "
                    "bytes-per-cycle %g..%.0f, setup-cycles >= 0, channels "
                    ">= 1 and max-dims 1..%d", CG_DMA_MIN_BYTES_PER_CYCLE,
                    CG_DMA_MAX_BYTES_PER_CYCLE, CG_DMA_MAX_DIMS);
        return -1;
    }
    for (int i = 0; i < CG_DMA_MAX_DIMS; i++)
        if (p->max_size[i] < 0 || p->max_stride[i] < 0) {
            cg_error_at(d, a->loc, "DMA dimension %d needs max-size >= 0 and "
                        "max-stride >= 0 (0 = any)", i);
            return -1;
        }
    a->dma = *p;
    a->has_dma = true;
    a->dma_loc = a->loc;
    return 0;
}

int cg_arch_set_addr_width(cg_arch *a, int bits, cg_diags *d)
{
    if (bits < 1 || bits > 64) {
        cg_error_at(d, a->loc, "address width %d is not 1..64 (the bits of "
                    "a memory address, 32 by default)", bits);
        return -1;
    }
    a->addr_width = bits;
    return 0;
}
