/* target.c: what the tiler reads from an architecture's netlist (the tile
 * memory, which banks its MEMUnits reach, the DMA engine), and the planning
 * entry point that starts from a netlist.
 */
#include "tile_internal.h"

#include <stdlib.h>
#include <string.h>

static void list_memories(const cg_netlist *nl, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < cg_netlist_nmemories(nl) && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "",
                              cg_netlist_memory(nl, i)->name);
}

/* Index of the memory to tile for, -1 with an error (at the
 * architecture's file:line when known). */
static int pick_memory(const cg_netlist *nl, const char *memory, cg_diags *d)
{
    int nm = cg_netlist_nmemories(nl);
    cg_loc at = cg_netlist_loc(nl);
    if (nm == 0) {
        cg_diags_add(d, CG_SEV_ERROR, at.file, at.line,
                     "the architecture declares no tile memory; tiling needs "
                     "a <memory> (and a <dma>)");
        return -1;
    }
    if (memory) {
        for (int i = 0; i < nm; i++)
            if (!strcmp(cg_netlist_memory(nl, i)->name, memory))
                return i;
        char names[256];
        list_memories(nl, names, sizeof names);
        cg_diags_add(d, CG_SEV_ERROR, at.file, at.line,
                     "no tile memory '%s' in the architecture (memories: %s)",
                     memory, names);
        return -1;
    }
    for (int i = 0; i < cg_netlist_nprims(nl); i++) {
        const cg_nl_prim *pr = cg_netlist_prim(nl, i);
        if (pr->p.kind == CG_PRIM_MEM && pr->memory >= 0)
            return pr->memory;
    }
    return 0;
}

int cg_tile_target_from_netlist(const cg_netlist *nl, const char *memory,
                                int64_t mem_bytes, cg_tile_target *t,
                                cg_diags *d)
{
    memset(t, 0, sizeof *t);
    int mi = pick_memory(nl, memory, d);
    if (mi < 0)
        return -1;
    const cg_nl_memory *mem = cg_netlist_memory(nl, mi);
    t->memory = mem->name;
    t->mem_loc = mem->loc;
    t->dma_loc = cg_netlist_dma_loc(nl);
    t->mem_bytes = mem_bytes > 0 ? mem_bytes : mem->bytes;
    t->banks = mem->banks > 0 ? mem->banks : 1;
    int units = 0;
    for (int i = 0; i < cg_netlist_nprims(nl); i++) {
        const cg_nl_prim *pr = cg_netlist_prim(nl, i);
        if (pr->p.kind != CG_PRIM_MEM || pr->memory != mi)
            continue;
        units++;
        if (pr->p.bank < 0 || t->banks == 1)
            t->any_bank = true;
        else if (pr->p.bank < CG_TILE_MAX_BANKS)
            t->bank_mask |= (uint64_t)1 << pr->p.bank;
    }
    /* more banks than the mask holds: the plan refuses the target */
    if (t->any_bank)
        t->bank_mask = t->banks >= CG_TILE_MAX_BANKS
                           ? ~(uint64_t)0 : ((uint64_t)1 << t->banks) - 1;
    if (!units) {
        cg_diags_add(d, CG_SEV_ERROR, mem->loc.file, mem->loc.line,
                     "no MEMUnit reaches tile memory '%s'; tiles in it could "
                     "not be loaded or stored (give a MEMUnit memory=\"%s\")",
                     mem->name, mem->name);
        return -1;
    }
    const cg_dma_params *dma = cg_netlist_dma(nl);
    if (dma) {
        t->dma = *dma;
    } else {
        cg_dma_params_init(&t->dma);
        cg_loc at = cg_netlist_loc(nl);
        cg_diags_add(d, CG_SEV_WARNING, at.file, at.line,
                     "the architecture declares no DMA engine; the schedule "
                     "assumes %d channel(s) of %g bytes/cycle and %d setup "
                     "cycles", t->dma.channels, t->dma.bytes_per_cycle,
                     t->dma.setup_cycles);
    }
    return 0;
}

int cg__tile_target_of(const cg_netlist *nl, const cg_tile_params **p,
                       cg_tile_params *defp, cg_tile_target *t, cg_diags *d)
{
    if (!*p) {
        cg_tile_params_init(defp);
        *p = defp;
    }
    return cg_tile_target_from_netlist(nl, (*p)->memory, (*p)->mem_bytes, t,
                                       d);
}

cg_tile_plan *cg__tile_plan_owning(cg_tile_model *m, const cg_tile_target *t,
                                   const cg_tile_params *p, cg_diags *d)
{
    if (!m)
        return NULL;
    cg_tile_plan *pl = cg_tile_plan_model(m, t, p, d);
    if (!pl) {
        cg_tile_model_destroy(m);
        return NULL;
    }
    pl->own_model = m;
    return pl;
}

cg_tile_plan *cg_tile_plan_nest(const cg_nest *n, const char *file,
                                const cg_netlist *nl, const cg_tile_params *p,
                                cg_diags *d)
{
    cg_tile_params defp;
    cg_tile_target t;
    if (cg__tile_target_of(nl, &p, &defp, &t, d) < 0)
        return NULL;
    return cg__tile_plan_owning(cg_tile_model_build(n, file, d), &t, p, d);
}
