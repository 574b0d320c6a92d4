/* prim.c: the ports of each primitive kind (one definition, used by
 * flattening, messages and the netlist), the netlist's string arena and the
 * natural order of hierarchical names. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_internal.h"

/* Bits needed to choose among n things (at least 1). */
static int bits_for(int n)
{
    int b = 1;
    while (b < 30 && (1 << b) < n)
        b++;
    return b;
}

static bool has_in_c(const cg_prim_params *p)
{
    return p->kind == CG_PRIM_FUNC && (p->ops & CG_OPSET(CG_OP_SELECT));
}

int cg__prim_nports(const cg_prim_params *p)
{
    switch (p->kind) {
    case CG_PRIM_FUNC: return has_in_c(p) ? 4 : 3;
    case CG_PRIM_MEM: return 3;
    case CG_PRIM_REG: return 2;
    case CG_PRIM_MUX: return p->ninput + 2;
    case CG_PRIM_TRISTATE: return 3;
    case CG_PRIM_IO: return 3;
    case CG_PRIM_REGFILE: return 3 * p->ninput + 2 * p->noutput;
    case CG_PRIM_CONST: return 1;
    default: return 0;
    }
}

static void set(cg__pport *o, const char *name, int idx, cg_dir dir,
                int width, bool config)
{
    if (idx >= 0)
        snprintf(o->name, sizeof o->name, "%s%d", name, idx);
    else
        snprintf(o->name, sizeof o->name, "%s", name);
    o->dir = dir;
    o->width = width;
    o->config = config;
}

/* Ports of a RegisterFile: in*, address_in*, WEN*, out*, address_out*. */
static void regfile_port(const cg_prim_params *p, int k, cg__pport *o)
{
    int ni = p->ninput, no = p->noutput, aw = p->log2_nregs ? p->log2_nregs
                                                            : 1;
    if (k < ni)
        set(o, "in", k, CG_DIR_IN, p->width, false);
    else if (k < 2 * ni)
        set(o, "address_in", k - ni, CG_DIR_IN, aw, true);
    else if (k < 3 * ni)
        set(o, "WEN", k - 2 * ni, CG_DIR_IN, 1, true);
    else if (k < 3 * ni + no)
        set(o, "out", k - 3 * ni, CG_DIR_OUT, p->width, false);
    else
        set(o, "address_out", k - 3 * ni - no, CG_DIR_IN, aw, true);
}

void cg__prim_port(const cg_prim_params *p, int k, cg__pport *o)
{
    static const char *const fu[] = {"in_a", "in_b", "in_c"};
    static const char *const mem[] = {"addr", "data_in", "data_out"};
    static const char *const io[] = {"in", "out", "bidir"};
    int w = p->width;
    switch (p->kind) {
    case CG_PRIM_FUNC:
        if (k == cg__prim_nports(p) - 1)
            set(o, "out", -1, CG_DIR_OUT, w, false);
        else
            set(o, fu[k], -1, CG_DIR_IN, w, false);
        return;
    case CG_PRIM_MEM:
        set(o, mem[k], -1, k == 2 ? CG_DIR_OUT : CG_DIR_IN, w, false);
        return;
    case CG_PRIM_REG:
        set(o, k ? "out" : "in", -1, k ? CG_DIR_OUT : CG_DIR_IN, w, false);
        return;
    case CG_PRIM_MUX:
        if (k < p->ninput)
            set(o, "in", k, CG_DIR_IN, w, false);
        else if (k == p->ninput)
            set(o, "select", -1, CG_DIR_IN, bits_for(p->ninput), true);
        else
            set(o, "out", -1, CG_DIR_OUT, w, false);
        return;
    case CG_PRIM_TRISTATE:
        if (k == 1)
            set(o, "enable", -1, CG_DIR_IN, 1, true);
        else
            set(o, k ? "out" : "in", -1, k ? CG_DIR_OUT : CG_DIR_IN, w,
                false);
        return;
    case CG_PRIM_IO:
        set(o, io[k], -1,
            k == 0   ? CG_DIR_IN
            : k == 1 ? CG_DIR_OUT
                     : CG_DIR_INOUT,
            w, k == 2);
        return;
    case CG_PRIM_REGFILE:
        regfile_port(p, k, o);
        return;
    default:
        set(o, "out", -1, CG_DIR_OUT, w, false);
        return;
    }
}

int cg__prim_find_port(const cg_prim_params *p, const char *name)
{
    int n = cg__prim_nports(p);
    cg__pport pp;
    for (int k = 0; k < n; k++) {
        cg__prim_port(p, k, &pp);
        if (!strcmp(pp.name, name))
            return k;
    }
    return -1;
}

void cg__prim_port_list(const cg_prim_params *p, char *buf, size_t len)
{
    int n = cg__prim_nports(p);
    size_t k = 0;
    buf[0] = 0;
    cg__pport pp;
    for (int i = 0; i < n && k < len; i++) {
        cg__prim_port(p, i, &pp);
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "",
                              pp.name);
    }
}

/* ---- arena ------------------------------------------------------------- */

typedef struct block {
    struct block *next;
    size_t used, cap;
    _Alignas(max_align_t) unsigned char data[];
} block;

struct cg__arena {
    block *head;
};

cg__arena *cg__arena_create(void) { return calloc(1, sizeof(cg__arena)); }

void cg__arena_destroy(cg__arena *a)
{
    if (!a)
        return;
    for (block *b = a->head, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(a);
}

void *cg__arena_alloc(cg__arena *a, size_t n)
{
    size_t al = _Alignof(max_align_t);
    n = (n + al - 1) / al * al;
    if (!a->head || a->head->cap - a->head->used < n) {
        size_t cap = n > 16384 ? n : 16384;
        block *b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += n;
    memset(p, 0, n);
    return p;
}

char *cg__arena_strdup(cg__arena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = cg__arena_alloc(a, n);
    if (p)
        memcpy(p, s, n);
    return p;
}

int cg__name_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            const char *x = a, *y = b;
            while (*x == '0')
                x++;
            while (*y == '0')
                y++;
            size_t lx = 0, ly = 0;
            while (isdigit((unsigned char)x[lx]))
                lx++;
            while (isdigit((unsigned char)y[ly]))
                ly++;
            if (lx != ly)
                return lx < ly ? -1 : 1;
            int c = strncmp(x, y, lx);
            if (c)
                return c;
            a = x + lx;
            b = y + ly;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++, b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}
