/* print.c: the plan and the schedule as readable text and as JSON
 * (jansson), for the CLI's `tile` command and the benchmark rows.
 */
#include "../common/util.h"
#include "tile_internal.h"

static void dims_text(const int64_t *v, int n, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    for (int d = 0; d < n && k < len; d++)
        k += (size_t)snprintf(buf + k, len - k, "%s%lld", d ? "x" : "",
                              (long long)v[d]);
}

/* English ordinal suffix of n: 2nd, 3rd, 11th, 21st. */
static const char *ordinal(int64_t n)
{
    int64_t t = n % 100, u = n % 10;
    return t >= 11 && t <= 13 ? "th" : u == 1 ? "st" : u == 2 ? "nd"
                                     : u == 3 ? "rd" : "th";
}

/* A strided array's view: which elements its buffers hold. */
static void write_view(const cg_tile_array_info *ai, FILE *out)
{
    for (int d = 0; d < ai->ndims; d++)
        if (ai->step[d] > 1)
            fprintf(out, "  %s dimension %d: every %lld%s element from index "
                    "%lld only (%lld of %lld)\n", ai->name, d,
                    (long long)ai->step[d], ordinal(ai->step[d]),
                    (long long)ai->first[d], (long long)ai->vdims[d],
                    (long long)ai->dims[d]);
}

int cg_tile_plan_write(const cg_tile_plan *p, FILE *out)
{
    const cg_tile_model *m = p->m;
    const cg_tile_summary *s = &p->s;
    fprintf(out, "tile plan: %d loop(s), memory '%s' (%lld bytes, %d "
            "bank(s)%s)\n", m->nloops, p->t.memory ? p->t.memory : "?",
            (long long)p->t.mem_bytes, p->t.banks,
            p->t.any_bank ? "" : ", buffers kept in one bank");
    for (int l = 0; l < m->nloops; l++)
        fprintf(out, "  loop %-8s trip %lld, tile %lld, %lld tile(s)\n",
                m->loop_name[l], (long long)s->trip[l], (long long)s->size[l],
                (long long)s->count[l]);
    fprintf(out, "  tile order:");
    for (int l = 0; l < m->nloops; l++)
        fprintf(out, " %s", m->loop_name[s->order[l]]);
    fprintf(out, " (outermost first); %lld tile(s)%s\n", (long long)s->ntiles,
            s->whole ? ", everything fits" : "");
    fprintf(out, "  %-10s %4s %-12s %-9s %3s %9s %-13s %4s %11s %11s\n",
            "array", "elem", "dims", "kind", "buf", "bytes", "address",
            "bank", "in bytes", "out bytes");
    for (int a = 0; a < m->narrays; a++) {
        const cg_tile_array_info *ai = &m->arrays[a];
        const cg_tile_buffer *b = &p->buf[a];
        char dims[64], addr[32];
        dims_text(ai->dims, ai->ndims, dims, sizeof dims);
        if (b->nbuf == 2)
            snprintf(addr, sizeof addr, "%lld,%lld", (long long)b->addr[0],
                     (long long)b->addr[1]);
        else
            snprintf(addr, sizeof addr, "%lld", (long long)b->addr[0]);
        fprintf(out, "  %-10s %4d %-12s %-9s %3d %9lld %-13s %4d %11lld "
                "%11lld\n", ai->name, ai->elem_size, dims,
                s->whole ? "whole" : b->streamed ? "streamed" : "resident",
                b->nbuf, (long long)b->bytes, addr, b->bank,
                (long long)b->in_bytes, (long long)b->out_bytes);
    }
    for (int a = 0; a < m->narrays; a++)
        write_view(&m->arrays[a], out);
    fprintf(out, "  traffic %lld bytes; compulsory %lld; bound (%s) %.0f; "
            "ratio %.3f\n", (long long)s->traffic, (long long)s->compulsory,
            cg_tile_bound_name(s->bound_kind), s->bound, s->ratio);
    fprintf(out, "  memory used %lld of %lld bytes (%.1f%%); DMA within "
            "compute per tile: %s\n", (long long)s->mem_used,
            (long long)s->mem_bytes, 100.0 * s->mem_use,
            s->dma_ok ? "yes" : "no");
    return cg_write_end(out, true);
}

int cg_tile_write_json(const cg_tile_plan *p, const cg_tile_program *g,
                       const cg_tile_sched *s, FILE *out)
{
    json_t *j = json_pack("{s:o, s:o, s:o}", "plan", cg__tile_plan_json(p),
                          "descriptors", cg__tile_program_json(g, p),
                          "schedule", cg__tile_sched_json(s));
    bool built = j && json_dumpf(j, out, JSON_INDENT(2) | JSON_SORT_KEYS) == 0;
    if (built)
        fputc('\n', out);
    json_decref(j);
    return cg_write_end(out, built);
}

json_t *cg__tile_plan_json(const cg_tile_plan *p)
{
    const cg_tile_model *m = p->m;
    const cg_tile_summary *s = &p->s;
    json_t *loops = json_array(), *order = json_array(), *arr = json_array();
    bool ok = true;
    for (int l = 0; l < m->nloops && ok; l++) {
        cg__json_push(loops, json_pack(
            "{s:s, s:I, s:I, s:I}", "name", m->loop_name[l], "trip",
            (json_int_t)s->trip[l], "size", (json_int_t)s->size[l], "count",
            (json_int_t)s->count[l]), &ok);
        cg__json_push(order, json_string(m->loop_name[s->order[l]]), &ok);
    }
    for (int a = 0; a < m->narrays && ok; a++) {
        const cg_tile_array_info *ai = &m->arrays[a];
        const cg_tile_buffer *b = &p->buf[a];
        cg__json_push(arr, json_pack(
            "{s:s, s:i, s:o, s:o, s:o, s:b, s:s, s:i, s:I, s:o, s:i, s:o, "
            "s:I, s:I, s:I}", "name", ai->name, "elem_size", ai->elem_size,
            "dims", cg__tile_json_ints(ai->dims, ai->ndims), "step",
            cg__tile_json_ints(ai->step, ai->ndims), "first",
            cg__tile_json_ints(ai->first, ai->ndims),
            "flat", ai->flat, "kind",
            s->whole ? "whole" : b->streamed ? "streamed" : "resident",
            "buffers", b->nbuf, "bytes", (json_int_t)b->bytes, "addr",
            cg__tile_json_ints(b->addr, b->nbuf), "bank", b->bank, "extent",
            cg__tile_json_ints(b->extent, ai->ndims), "in_bytes", (json_int_t)b->in_bytes,
            "out_bytes", (json_int_t)b->out_bytes, "loads",
            (json_int_t)b->loads), &ok);
    }
    if (!ok) {
        json_decref(loops);
        json_decref(order);
        json_decref(arr);
        return NULL;
    }
    return json_pack(
        "{s:o, s:o, s:I, s:b, s:o, s:I, s:I, s:{s:s, s:f}, s:f, "
        "s:{s:s?, s:I, s:I, s:f, s:i, s:b}, s:b, s:I, s:f}",
        "loops", loops, "order", order, "ntiles", (json_int_t)s->ntiles,
        "whole", s->whole, "arrays", arr, "traffic", (json_int_t)s->traffic,
        "compulsory", (json_int_t)s->compulsory, "bound", "kind",
        cg_tile_bound_name(s->bound_kind), "bytes", s->bound, "ratio",
        s->ratio, "memory", "name", p->t.memory, "bytes",
        (json_int_t)s->mem_bytes, "used", (json_int_t)s->mem_used, "use",
        s->mem_use, "banks", p->t.banks, "any_bank", p->t.any_bank, "dma_ok",
        s->dma_ok, "candidates", (json_int_t)s->candidates, "seconds",
        s->seconds);
}
