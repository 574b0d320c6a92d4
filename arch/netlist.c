/* netlist.c: reading the device netlist: accessors, its deterministic text
 * form (golden tests compare it byte for byte) and the human summary; its
 * pictures are netlist_dot.c's. */
#include <stdlib.h>
#include <string.h>

#include "arch_internal.h"

int cg_netlist_rows(const cg_netlist *nl) { return nl->rows; }
int cg_netlist_cols(const cg_netlist *nl) { return nl->cols; }
int cg_netlist_nprims(const cg_netlist *nl) { return nl->nprims; }
int cg_netlist_nports(const cg_netlist *nl) { return nl->nports; }
int cg_netlist_nnets(const cg_netlist *nl) { return nl->nnets; }
int cg_netlist_nmemories(const cg_netlist *nl) { return nl->nmems; }

const cg_nl_prim *cg_netlist_prim(const cg_netlist *nl, int i)
{
    return i >= 0 && i < nl->nprims ? &nl->prims[i] : NULL;
}

const cg_nl_port *cg_netlist_port(const cg_netlist *nl, int i)
{
    return i >= 0 && i < nl->nports ? &nl->ports[i] : NULL;
}

const cg_nl_net *cg_netlist_net(const cg_netlist *nl, int i)
{
    return i >= 0 && i < nl->nnets ? &nl->nets[i] : NULL;
}

const cg_nl_memory *cg_netlist_memory(const cg_netlist *nl, int i)
{
    return i >= 0 && i < nl->nmems ? &nl->mems[i] : NULL;
}

cg_loc cg_netlist_dma_loc(const cg_netlist *nl) { return nl->dma_loc; }

cg_loc cg_netlist_loc(const cg_netlist *nl) { return nl->loc; }

const cg_dma_params *cg_netlist_dma(const cg_netlist *nl)
{
    return nl->has_dma ? &nl->dma : NULL;
}

int cg_netlist_addr_width(const cg_netlist *nl) { return nl->addr_width; }

/* Primitives are sorted by cg__name_cmp (then strcmp): binary search. */
int cg_netlist_find_prim(const cg_netlist *nl, const char *name)
{
    int lo = 0, hi = nl->nprims - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        const char *s = nl->prims[mid].name;
        int c = cg__name_cmp(name, s);
        if (!c)
            c = strcmp(name, s);
        if (!c)
            return mid;
        if (c < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return -1;
}

int cg_netlist_prim_port(const cg_netlist *nl, int prim, const char *name)
{
    if (prim < 0 || prim >= nl->nprims)
        return -1;
    const cg_nl_prim *p = &nl->prims[prim];
    for (int k = 0; k < p->nports; k++)
        if (!strcmp(nl->ports[p->port0 + k].name, name))
            return p->port0 + k;
    return -1;
}

/* ---- checker ------------------------------------------------------------ */

static int broken(cg_diags *d, const char *what, int id)
{
    cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "netlist invariant broken: %s "
                 "(id %d)", what, id);
    return -1;
}

static int check_prims(const cg_netlist *nl, cg_diags *d)
{
    int rc = 0, next = 0;
    for (int i = 0; i < nl->nprims; i++) {
        const cg_nl_prim *p = &nl->prims[i];
        if (p->port0 != next || p->nports != cg__prim_nports(&p->p))
            rc = broken(d, "primitive ports are not contiguous", i);
        next = p->port0 + p->nports;
        for (int k = 0; k < p->nports && p->port0 + k < nl->nports; k++)
            if (nl->ports[p->port0 + k].prim != i)
                rc = broken(d, "port does not point back at its primitive",
                            p->port0 + k);
        if (i && cg__name_cmp(nl->prims[i - 1].name, p->name) >= 0 &&
            strcmp(nl->prims[i - 1].name, p->name) >= 0)
            rc = broken(d, "primitive names are not sorted and unique", i);
        if (p->memory < -1 || p->memory >= nl->nmems ||
            (p->memory >= 0 && p->p.kind != CG_PRIM_MEM))
            rc = broken(d, "bad memory index", i);
    }
    if (next != nl->nports)
        rc = broken(d, "ports belong to no primitive", next);
    return rc;
}

static int check_nets(const cg_netlist *nl, cg_diags *d)
{
    int rc = 0, on = 0;
    for (int n = 0; n < nl->nnets; n++) {
        const cg_nl_net *net = &nl->nets[n];
        if (net->driver < 0 || net->driver >= nl->nports) {
            rc = broken(d, "net driver out of range", n);
            continue;
        }
        const cg_nl_port *drv = &nl->ports[net->driver];
        if (drv->dir == CG_DIR_IN || drv->net != n)
            rc = broken(d, "net driver is an input or not on the net", n);
        on += 1 + net->nsinks;
        for (int k = 0; k < net->nsinks; k++) {
            int s = net->sinks[k];
            if (s < 0 || s >= nl->nports || (k && s <= net->sinks[k - 1])) {
                rc = broken(d, "net sinks out of range or not sorted", n);
                break;
            }
            const cg_nl_port *sp = &nl->ports[s];
            if (sp->dir == CG_DIR_OUT || sp->net != n ||
                sp->width != drv->width)
                rc = broken(d, "net sink is an output, off the net, or of "
                            "another width", s);
        }
    }
    int claimed = 0;
    for (int p = 0; p < nl->nports; p++)
        claimed += nl->ports[p].net >= 0;
    if (claimed != on)
        rc = broken(d, "ports claim nets that do not list them", claimed);
    return rc;
}

int cg_netlist_check(const cg_netlist *nl, cg_diags *d)
{
    int rc = check_prims(nl, d);
    return check_nets(nl, d) < 0 ? -1 : rc;
}

/* ---- text form ---------------------------------------------------------- */

static void write_ops(cg_opset ops, FILE *out)
{
    const char *sep = "";
    for (int op = 0; op < CG_OP_COUNT; op++)
        if (ops & CG_OPSET(op)) {
            fprintf(out, "%s%s", sep, cg_op_name((cg_op)op));
            sep = ",";
        }
}

/* " immediate=in_b,in_c immediate-size=16", only on units that have
 * immediates (so netlists without them read as before). */
static void write_imm(const cg_prim_params *p, FILE *out)
{
    if (!p->imm_operands)
        return;
    const char *sep = " immediate=";
    for (int k = 0; k < 3; k++)
        if (p->imm_operands & (1u << k)) {
            cg__pport pp;
            cg__prim_port(p, k, &pp);
            fprintf(out, "%s%s", sep, pp.name);
            sep = ",";
        }
    fprintf(out, " immediate-size=%d", p->imm_width ? p->imm_width
                                                    : p->width);
}

static void write_prim(const cg_netlist *nl, const cg_nl_prim *p, FILE *out)
{
    fprintf(out, "prim %s %s at=%d,%d width=%d", p->name,
            cg_prim_kind_name(p->p.kind), p->row, p->col, p->p.width);
    switch (p->p.kind) {
    case CG_PRIM_FUNC:
        fprintf(out, " latency=%d ops=", p->p.latency);
        write_ops(p->p.ops, out);
        break;
    case CG_PRIM_MEM:
        fprintf(out, " latency=%d memory=%s bank=%d", p->p.latency,
                p->memory >= 0 ? nl->mems[p->memory].name : "-", p->p.bank);
        break;
    case CG_PRIM_MUX:
        fprintf(out, " ninput=%d", p->p.ninput);
        break;
    case CG_PRIM_REGFILE:
        fprintf(out, " ninput=%d noutput=%d log2-nregister=%d", p->p.ninput,
                p->p.noutput, p->p.log2_nregs);
        break;
    default:
        break;
    }
    write_imm(&p->p, out);
    fputc('\n', out);
}

static void write_port_ref(const cg_netlist *nl, int port, FILE *out)
{
    const cg_nl_port *pt = &nl->ports[port];
    fprintf(out, "%s.%s", nl->prims[pt->prim].name, pt->name);
}

static void write_dma(const cg_dma_params *d, FILE *out)
{
    fprintf(out, "dma ext-bytes=%lld bytes-per-cycle=%g setup-cycles=%d "
            "channels=%d max-dims=%d", (long long)d->ext_bytes,
            d->bytes_per_cycle, d->setup_cycles, d->channels, d->max_dims);
    for (int i = 0; i < d->max_dims; i++)
        if (d->max_size[i] || d->max_stride[i])
            fprintf(out, " dim%d=%lld/%lld", i, (long long)d->max_size[i],
                    (long long)d->max_stride[i]);
    fputc('\n', out);
}

int cg_netlist_write(const cg_netlist *nl, FILE *out)
{
    fprintf(out, "grid %d %d\n", nl->rows, nl->cols);
    for (int i = 0; i < nl->nmems; i++)
        fprintf(out, "memory %s bytes=%lld banks=%d ports=%d\n",
                nl->mems[i].name, (long long)nl->mems[i].bytes,
                nl->mems[i].banks, nl->mems[i].ports);
    if (nl->has_dma)
        write_dma(&nl->dma, out);
    for (int i = 0; i < nl->nprims; i++)
        write_prim(nl, &nl->prims[i], out);
    for (int i = 0; i < nl->nnets; i++) {
        const cg_nl_net *n = &nl->nets[i];
        fprintf(out, "net ");
        write_port_ref(nl, n->driver, out);
        fprintf(out, " ->");
        for (int k = 0; k < n->nsinks; k++) {
            fputc(' ', out);
            write_port_ref(nl, n->sinks[k], out);
        }
        fputc('\n', out);
    }
    return cg_write_end(out, true);
}

/* ---- summary ------------------------------------------------------------ */

static int count_kind(const cg_netlist *nl, cg_prim_kind k)
{
    int n = 0;
    for (int i = 0; i < nl->nprims; i++)
        n += nl->prims[i].p.kind == k;
    return n;
}

/* Counted when flattening, where running out of memory is an error: the
 * summary once printed a silent "blocks: 0". */
int cg__netlist_count_blocks(const cg_netlist *nl)
{
    int n = 0;
    char *seen = calloc((size_t)nl->rows * (size_t)nl->cols + 1, 1);
    if (!seen)
        return -1;
    for (int i = 0; i < nl->nprims; i++) {
        const cg_nl_prim *p = &nl->prims[i];
        if (p->row < 0 || p->col < 0 || p->row >= nl->rows ||
            p->col >= nl->cols || seen[p->row * nl->cols + p->col])
            continue;
        seen[p->row * nl->cols + p->col] = 1;
        n++;
    }
    free(seen);
    return n;
}

static void summary_funcs(const cg_netlist *nl, FILE *out)
{
    fprintf(out, "FuncUnits: %d\n", count_kind(nl, CG_PRIM_FUNC));
    for (int op = 0; op < CG_OP_COUNT; op++) {
        int n = 0;
        for (int i = 0; i < nl->nprims; i++)
            n += nl->prims[i].p.kind == CG_PRIM_FUNC &&
                 (nl->prims[i].p.ops & CG_OPSET(op));
        if (n)
            fprintf(out, "  %-7s %d\n", cg_op_name((cg_op)op), n);
    }
}

static void summary_mems(const cg_netlist *nl, FILE *out)
{
    fprintf(out, "MEMUnits: %d\n", count_kind(nl, CG_PRIM_MEM));
    for (int m = -1; m < nl->nmems; m++) {
        int n = 0;
        for (int i = 0; i < nl->nprims; i++)
            n += nl->prims[i].p.kind == CG_PRIM_MEM &&
                 nl->prims[i].memory == m;
        if (n)
            fprintf(out, "  %-7s %d\n", m < 0 ? "(none)" : nl->mems[m].name,
                    n);
    }
}

static void summary_muxes(const cg_netlist *nl, FILE *out)
{
    int n = 0, lo = 0, hi = 0;
    for (int i = 0; i < nl->nprims; i++) {
        const cg_nl_prim *p = &nl->prims[i];
        if (p->p.kind != CG_PRIM_MUX)
            continue;
        lo = n && lo < p->p.ninput ? lo : p->p.ninput;
        hi = n && hi > p->p.ninput ? hi : p->p.ninput;
        n++;
    }
    fprintf(out, "muxes: %d", n);
    if (n)
        fprintf(out, " (%d..%d inputs)", lo, hi);
    fputc('\n', out);
}

/* Units with immediates, only when there are some (summaries of arrays
 * without them read as before). */
static void summary_imm(const cg_netlist *nl, FILE *out)
{
    int n = 0, lo = 0, hi = 0;
    for (int i = 0; i < nl->nprims; i++) {
        const cg_prim_params *p = &nl->prims[i].p;
        int w = p->imm_width ? p->imm_width : p->width;
        if (!p->imm_operands)
            continue;
        lo = n && lo < w ? lo : w;
        hi = n && hi > w ? hi : w;
        n++;
    }
    if (n && lo == hi)
        fprintf(out, "units with immediates: %d (%d bits)\n", n, lo);
    else if (n)
        fprintf(out, "units with immediates: %d (%d..%d bits)\n", n, lo, hi);
}

int cg_netlist_summary(const cg_netlist *nl, FILE *out)
{
    fprintf(out, "grid: %dx%d\n", nl->rows, nl->cols);
    fprintf(out, "blocks: %d\n", nl->nblocks);
    fprintf(out, "primitives: %d (ports %d, nets %d)\n", nl->nprims,
            nl->nports, nl->nnets);
    summary_funcs(nl, out);
    summary_mems(nl, out);
    fprintf(out, "registers: %d\n", count_kind(nl, CG_PRIM_REG));
    summary_muxes(nl, out);
    fprintf(out, "register files: %d\n", count_kind(nl, CG_PRIM_REGFILE));
    fprintf(out, "IOs: %d\n", count_kind(nl, CG_PRIM_IO));
    fprintf(out, "const units: %d\n", count_kind(nl, CG_PRIM_CONST));
    summary_imm(nl, out);
    fprintf(out, "tri-states: %d\n", count_kind(nl, CG_PRIM_TRISTATE));
    fprintf(out, "memories: %d\n", nl->nmems);
    for (int i = 0; i < nl->nmems; i++)
        fprintf(out, "  %s: %lld bytes, %d bank(s), %d port(s) per bank\n",
                nl->mems[i].name, (long long)nl->mems[i].bytes,
                nl->mems[i].banks, nl->mems[i].ports);
    if (!nl->has_dma) {
        fprintf(out, "DMA: none\n");
        return cg_write_end(out, true);
    }
    const cg_dma_params *d = &nl->dma;
    fprintf(out, "DMA: %d channel(s), %g bytes/cycle, %d setup cycles, %d "
            "dims, external memory %lld bytes\n", d->channels,
            d->bytes_per_cycle, d->setup_cycles, d->max_dims,
            (long long)d->ext_bytes);
    return cg_write_end(out, true);
}
