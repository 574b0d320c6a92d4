/* arch_internal.h: what the files of arch/ share (not a public header):
 * the model's structures, a string arena, and the port lists of the
 * primitives. */
#ifndef CG_ARCH_INTERNAL_H
#define CG_ARCH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/strmap.h"
#include "../common/util.h"
#include "arch.h"

/* A port or wire of a module (both are "signals" named "port"/"this.port"). */
typedef struct cg__sig {
    char *name;
    cg_dir dir;   /* direction of a port; CG_DIR_INOUT for a wire */
    bool wire;
    int width;
    cg_loc loc;
} cg__sig;

/* A primitive or sub-module instance. */
typedef struct cg__inst {
    char *name;
    bool prim;
    cg_prim_params p;  /* primitives; p.memory points at memory below */
    char *memory;      /* owned copy of p.memory */
    bool autow;        /* a select-from multiplexer: width of its target */
    char *module;      /* sub-modules: the module's name */
    int row, col;      /* grid position (instances of the top), -1 none */
    cg_loc loc;
} cg__inst;

/* One directed connection between two references. */
typedef struct cg__conn {
    char *from, *to;
    cg_loc loc;
} cg__conn;

typedef struct cg__module {
    char *name;
    cg_loc loc;
    cg__sig *sigs;
    int nsigs, csigs;
    cg__inst *insts;
    int ninsts, cinsts;
    cg_strmap *sig_ix, *inst_ix; /* name -> index in sigs, insts; NULL
                                    until the first is added */
    cg__conn *conns;
    int nconns, cconns;
} cg__module;

typedef struct cg__memory {
    char *name;
    int64_t bytes;
    int banks, ports;
    cg_loc loc;
} cg__memory;

struct cg_arch {
    cg__module *mods;
    int nmods, cmods;
    cg_strmap *mod_ix;  /* name -> index in mods, NULL until the first */
    int top;            /* -1 until cg_arch_set_top */
    int rows, cols;
    char **files;       /* interned file names of locations */
    int nfiles, cfiles;
    cg_loc loc;         /* stamped on new objects */
    cg__memory *mems;
    int nmems, cmems;
    bool has_dma;
    cg_dma_params dma;
    cg_loc dma_loc;
    int addr_width;     /* bits of a memory address, default 32 */
};


/* ---- string arena (the netlist's names) -------------------------------- */
typedef struct cg__arena cg__arena;
cg__arena *cg__arena_create(void);
void cg__arena_destroy(cg__arena *a);
void *cg__arena_alloc(cg__arena *a, size_t n);  /* zeroed, NULL on no mem */
char *cg__arena_strdup(cg__arena *a, const char *s);

/* ---- primitive ports ---------------------------------------------------- */
typedef struct cg__pport {
    char name[32];
    cg_dir dir;
    int width;
    bool config; /* configuration, not data: needs no connection */
} cg__pport;

/* Number of ports of a primitive with parameters p (width resolved). */
int cg__prim_nports(const cg_prim_params *p);
/* Port k (0 <= k < cg__prim_nports) of such a primitive. */
void cg__prim_port(const cg_prim_params *p, int k, cg__pport *out);
/* Index of port name, -1 when it has none. */
int cg__prim_find_port(const cg_prim_params *p, const char *name);
/* "in_a, in_b, out" into buf. */
void cg__prim_port_list(const cg_prim_params *p, char *buf, size_t len);

/* Natural order of hierarchical names: digit runs compare as numbers, so
 * block_2_0 < block_10_0. */
int cg__name_cmp(const char *a, const char *b);



/* ---- the netlist (built by flatten.c, read by netlist.c) ---------------- */
struct cg_netlist {
    cg__arena *arena;      /* every name and file string */
    int rows, cols;
    cg_nl_prim *prims;     /* sorted by cg__name_cmp of their names */
    int nprims;
    cg_nl_port *ports;
    int nports;
    cg_nl_net *nets;       /* ordered by driver port */
    int nnets;
    int *sinks;            /* storage of every net's sinks */
    cg_nl_memory *mems;
    int nmems;
    bool has_dma;
    cg_dma_params dma;
    int addr_width;
    int nblocks;           /* grid cells holding a primitive (summary) */
    cg_loc loc, dma_loc;   /* the top module's and the DMA's (messages) */
};

/* The distinct grid cells holding a primitive; -1 when out of memory. */
int cg__netlist_count_blocks(const cg_netlist *nl);

/* ---- flattening: check.c checks, flatten.c expands ---------------------- */
/* What a resolved reference names. */
enum { CG__REF_NONE, CG__REF_SIG, CG__REF_PRIM, CG__REF_SUB };

/* A reference resolved inside its module. */
typedef struct cg__ref {
    int kind;
    int inst; /* CG__REF_PRIM, CG__REF_SUB */
    int idx;  /* signal (SIG; SUB: the child's) or primitive port */
} cg__ref;

/* What the check learnt about one module definition. */
typedef struct cg__mcheck {
    cg__ref *from, *to; /* per connection */
    int *sub;        /* per instance: child module, -1 for prims/unknown */
    int *autow;      /* per instance: width of a select-from mux, else 0 */
    int *base;       /* per instance: first local node of its ports */
    int nlocal;      /* signals + primitive ports + sub-module ports */
} cg__mcheck;

typedef struct cg__fctx {
    const cg_arch *a;
    cg_diags *d;
    int errors0;
    cg__mcheck *mc;  /* per module */
    cg_strmap *said; /* keys of messages given once (see once()), NULL
                        until the first */
} cg__fctx;

/* Check every module definition of f->a (names, directions, widths,
 * drivers, memories, positions, recursion), filling f->mc; false when an
 * error was reported. */
bool cg__flat_check(cg__fctx *f);
/* Free what cg__flat_check allocated. */
void cg__flat_free(cg__fctx *f);
/* True when errors were added since the flatten began. */
bool cg__flat_failed(const cg__fctx *f);
/* A reference as written, without "this.". */
const char *cg__flat_shown(const char *s);
/* The tile memory a MEMUnit reaches (index, -1 none); report problems. */
int cg__flat_mem_of(cg__fctx *f, const cg__inst *in, bool report);

#endif
