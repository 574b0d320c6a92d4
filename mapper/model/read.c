/* read.c: the text form of a mapping (write.c, cg_mapping_write) read
 * back against the netlist and the DFG it was made for.
 *
 *   mapping 'NAME' II=N nodes=N edges=N
 *   place V 'NODE' OP on UNIT@cK start CYCLE
 *   place V 'NODE' const as immediate start CYCLE
 *   route E 'SRC'->'DST' operand K distance D latency L: NODE...
 *   route E 'SRC'->'DST' operand K distance D immediate
 *
 * Nodes and edges are named by their DFG ids and checked against the
 * DFG's names, ops, operands and distances, so that a mapping of another
 * graph is refused line by line rather than checked as nonsense.  MRRG
 * nodes are found by the names the writers give them (names_internal.h).
 * The latency is the writer's sum for a reader's eye: the checker derives
 * it again from the route, so it is read and not trusted. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/input.h"
#include "../../common/strmap.h"
#include "../mapping_io.h"
#include "names_internal.h"

/* An MRRG node name two nodes share: found, but not usable. */
enum { AMBIGUOUS = -2 };

typedef struct rd {
    const char *file;
    int line;
    const cg_netlist *nl;
    const cg_dfg *g;
    cg_diags *d;
    cg_mrrg *mrrg;
    cg_strmap *names;   /* MRRG node name -> id, AMBIGUOUS */
    cg_mapping *m;
    int *place_line;    /* per DFG node: line of its place, 0 = none */
    int *route_line;    /* per DFG edge: line of its route, 0 = none */
    int errors;
} rd;

static void bad(rd *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* An error at the current line. */
static void bad(rd *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cg_diags_vadd(r->d, CG_SEV_ERROR, r->file, r->line, fmt, ap);
    va_end(ap);
    r->errors++;
}

/* ---- the cursor ---------------------------------------------------------- */

/* Skip the literal w at *p. */
static bool lit(const char **p, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(*p, w, n) != 0)
        return false;
    *p += n;
    return true;
}

/* A decimal integer at *p (no leading space). */
static bool num(const char **p, long long *v)
{
    if (!(**p >= '0' && **p <= '9') && **p != '-')
        return false;
    char *end;
    errno = 0;
    *v = strtoll(*p, &end, 10);
    if (end == *p || errno)
        return false;
    *p = end;
    return true;
}

/* The quoted name at *p, up to the quote that `stop` follows; its length,
 * -1 when there is none. */
static int quoted(const char **p, const char *stop, const char **name)
{
    if (**p != '\'')
        return -1;
    const char *end = strstr(*p + 1, stop);
    if (!end)
        return -1;
    *name = *p + 1;
    *p = end + strlen(stop);
    return (int)(end - *name);
}

/* ---- names --------------------------------------------------------------- */

/* Every MRRG node under the name the writers give it. */
static bool index_names(rd *r)
{
    char b[200];
    r->names = cg_strmap_create();
    for (int id = 0; r->names && id < cg_mrrg_nnodes(r->mrrg); id++) {
        const char *s = cg__map_node_name(r->mrrg, r->nl, id, b, sizeof b);
        int old;
        if (cg_strmap_put(r->names, s, cg_strmap_get(r->names, s, &old) ?
                          AMBIGUOUS : id) != 0)
            return false;
    }
    return r->names != NULL;
}

/* The MRRG node the n bytes at s name, -1 with an error when none. */
static int node_id(rd *r, const char *s, int n)
{
    int id;
    if (!cg_strmap_getn(r->names, s, (size_t)n, &id)) {
        bad(r, "no MRRG node is named '%.*s' on this array at II=%d (names "
            "are UNIT@cK, UNIT.PORT@cK and REGFILE.regR@cK with K < II): "
            "give the architecture the mapping was made on", n, s,
            r->m->ii);
        return -1;
    }
    if (id == AMBIGUOUS) {
        bad(r, "two MRRG nodes are named '%.*s': rename one of the "
            "primitives in the architecture so that the names differ", n, s);
        return -1;
    }
    return id;
}

/* ---- the lines ----------------------------------------------------------- */

/* "mapping 'NAME' II=N nodes=N edges=N": the mapping and its MRRG. */
static bool header(rd *r, const char *p)
{
    const char *name;
    long long ii, nn, ne;
    int len = lit(&p, "mapping ") ? quoted(&p, "' II=", &name) : -1;
    if (len < 0 || !num(&p, &ii) || !lit(&p, " nodes=") || !num(&p, &nn) ||
        !lit(&p, " edges=") || !num(&p, &ne) || *p) {
        bad(r, "not the first line of a mapping: expected \"mapping 'NAME' "
            "II=N nodes=N edges=N\" as `cgramap map --mapping` writes it");
        return false;
    }
    const cg_dfg *g = r->g;
    if ((size_t)len != strlen(cg_dfg_name(g)) ||
        strncmp(name, cg_dfg_name(g), (size_t)len) != 0 ||
        nn != cg_dfg_nnodes(g) || ne != cg_dfg_nedges(g)) {
        bad(r, "the mapping is of DFG '%.*s' (%lld nodes, %lld edges) but "
            "the DFG given is '%s' (%d nodes, %d edges): give the DFG the "
            "mapping was made from", len, name, nn, ne, cg_dfg_name(g),
            cg_dfg_nnodes(g), cg_dfg_nedges(g));
        return false;
    }
    if (ii < 1 || ii > CG_MAP_MAX_II) {
        bad(r, "II=%lld is out of range: an II is 1 to %d", ii,
            CG_MAP_MAX_II);
        return false;
    }
    r->mrrg = cg_mrrg_build(r->nl, (int)ii, r->d);
    if (!r->mrrg)
        return false; /* its error is in d */
    r->m = cg_mapping_create((int)ii, (int)nn, (int)ne);
    r->place_line = calloc((size_t)nn + 1, sizeof *r->place_line);
    r->route_line = calloc((size_t)ne + 1, sizeof *r->route_line);
    if (!r->m || !r->place_line || !r->route_line || !index_names(r)) {
        bad(r, "out of memory");
        return false;
    }
    return true;
}

/* The id after "place " or "route " in range 0..n-1, and seen first
 * here (lines[] records where). */
static int entry_id(rd *r, const char **p, int n, int *lines,
                    const char *what)
{
    long long v;
    if (!num(p, &v) || **p != ' ') {
        bad(r, "a %s line starts with \"%s N \": N, the DFG %s id, is "
            "missing", what, what, what[0] == 'p' ? "node" : "edge");
        return -1;
    }
    if (v < 0 || v >= n) {
        bad(r, "%s %lld: the DFG has %s 0 to %d", what, v,
            what[0] == 'p' ? "nodes" : "edges", n - 1);
        return -1;
    }
    if (lines[v]) {
        bad(r, "%s %lld is given twice (first on line %d): keep one", what,
            v, lines[v]);
        return -1;
    }
    lines[v] = r->line;
    (*p)++;
    return (int)v;
}

/* The quoted name at *p is DFG node v's; what: the line's word. */
static bool same_node(rd *r, const char **p, const char *stop, int v,
                      const char *what, int id)
{
    const char *name;
    const char *want = cg_dfg_get_node(r->g, v)->name;
    int len = quoted(p, stop, &name);
    if (len < 0) {
        bad(r, "%s %d: expected the name of node '%s' in quotes", what, id,
            want);
        return false;
    }
    if ((size_t)len != strlen(want) || strncmp(name, want, (size_t)len)) {
        bad(r, "%s %d names node '%.*s' where the DFG has '%s': the "
            "mapping is of another version of the graph; map it again",
            what, id, len, name, want);
        return false;
    }
    return true;
}

/* "place V 'NODE' OP on UNIT@cK start CYCLE" (or "as immediate"). */
static void place(rd *r, const char *p)
{
    int v = entry_id(r, &p, r->m->nnodes, r->place_line, "place");
    if (v < 0 || !same_node(r, &p, "' ", v, "place", v))
        return;
    const cg_dfg_node *n = cg_dfg_get_node(r->g, v);
    if (!lit(&p, cg_op_name(n->op)) || *p != ' ') {
        bad(r, "place %d: node '%s' is %s %s in the DFG: the mapping is of "
            "another version of the graph; map it again", v, n->name,
            strchr("aeiou", cg_op_name(n->op)[0]) ? "an" : "a",
            cg_op_name(n->op));
        return;
    }
    const char *unit = p + 4, *end = NULL;
    long long start;
    bool imm = lit(&p, " as immediate start ");
    if (!imm && (!lit(&p, " on ") || !(end = strstr(unit, " start ")) ||
                 end == unit)) {
        bad(r, "place %d: expected \"on UNIT@cK start CYCLE\" or \"as "
            "immediate start CYCLE\" after the op", v);
        return;
    }
    if (!imm)
        p = end + 7;
    if (!num(&p, &start) || *p) {
        bad(r, "place %d: the start cycle is not an integer", v);
        return;
    }
    r->m->start[v] = start;
    r->m->place[v] = imm ? -1 : node_id(r, unit, (int)(end - unit));
}

/* The MRRG nodes of a route, space-separated, into edge e. */
static void route_nodes(rd *r, int e, const char *p)
{
    int n = 0, k = 0;
    for (const char *s = p; *s; s++)
        n += *s == ' ';
    int *v = malloc(((size_t)n + 1) * sizeof *v);
    if (!v) {
        bad(r, "out of memory");
        return;
    }
    while (*p == ' ') {
        const char *s = ++p;
        while (*p && *p != ' ')
            p++;
        int id = s == p ? -1 : node_id(r, s, (int)(p - s));
        if (id < 0) {
            if (s == p)
                bad(r, "route %d: an empty node name (two spaces in a row, "
                    "or one at the end): separate the names by one space",
                    e);
            free(v);
            return;
        }
        v[k++] = id;
    }
    r->m->route[e] = v;
    r->m->route_len[e] = k;
}

/* "route E 'SRC'->'DST' operand K distance D latency L: NODE..." (or
 * "immediate" after the distance). */
static void route(rd *r, const char *p)
{
    int e = entry_id(r, &p, r->m->nedges, r->route_line, "route");
    if (e < 0)
        return;
    const cg_dfg_edge *x = cg_dfg_get_edge(r->g, e);
    long long opd, dist, lat;
    if (!same_node(r, &p, "'->", x->src, "route", e) ||
        !same_node(r, &p, "' ", x->dst, "route", e))
        return;
    if (!lit(&p, "operand ") || !num(&p, &opd) || !lit(&p, " distance ") ||
        !num(&p, &dist) || *p != ' ') {
        bad(r, "route %d: expected \"operand K distance D\" after the "
            "names", e);
        return;
    }
    if (opd != x->operand || dist != x->distance) {
        bad(r, "route %d is operand %lld at distance %lld but DFG edge %d "
            "is operand %d at distance %d: the mapping is of another "
            "version of the graph; map it again", e, opd, dist, e,
            x->operand, x->distance);
        return;
    }
    if (lit(&p, " immediate") && !*p)
        return;
    if (!lit(&p, " latency ") || !num(&p, &lat) || !lit(&p, ":")) {
        bad(r, "route %d: expected \"latency L:\" and the route's MRRG "
            "nodes, or \"immediate\", after the distance", e);
        return;
    }
    route_nodes(r, e, p);
}

/* A line after the header. */
static void body_line(rd *r, const char *p)
{
    if (lit(&p, "place "))
        place(r, p);
    else if (lit(&p, "route "))
        route(r, p);
    else if (*p)
        bad(r, "'%.*s' starts no line of a mapping: after the header "
            "each line is \"place ...\" or \"route ...\"",
            (int)strcspn(p, " "), p);
}

/* Every node placed and every edge routed once. */
static void complete(rd *r)
{
    r->line = 1;
    for (int v = 0; v < r->m->nnodes; v++)
        if (!r->place_line[v])
            bad(r, "node %d '%s' has no place line: add \"place %d '%s' "
                "...\"", v, cg_dfg_get_node(r->g, v)->name, v,
                cg_dfg_get_node(r->g, v)->name);
    for (int e = 0; e < r->m->nedges; e++)
        if (!r->route_line[e])
            bad(r, "edge %d has no route line: add \"route %d ...\"", e, e);
}

/* The lines of text (changed in place); false when it gave no mapping. */
static bool read_lines(rd *r, char *text)
{
    bool ok = false;
    for (char *buf = text, *next; *buf; buf = next) {
        char *nl = strchr(buf, '\n');
        next = nl ? nl + 1 : buf + strlen(buf);
        size_t n = (size_t)(nl ? nl - buf : next - buf);
        r->line++;
        while (n > 0 && buf[n - 1] == '\r')
            n--;
        buf[n] = 0;
        if (r->line > 1) {
            body_line(r, buf);
            continue;
        }
        if (!(ok = header(r, buf)))
            break;
    }
    if (r->line == 0)
        bad(r, "the file is empty: a mapping starts with \"mapping 'NAME' "
            "II=N nodes=N edges=N\"");
    if (ok && r->errors == 0) /* else a missing line may be a bad one */
        complete(r);
    return ok && r->errors == 0;
}

cg_mapping *cg_mapping_read(const char *path, const cg_netlist *nl,
                            const cg_dfg *g, cg_mrrg **mrrg, cg_diags *d)
{
    *mrrg = NULL;
    /* read whole and capped: a device given as the mapping (/dev/zero, one
       endless line) would otherwise be read until memory runs out */
    char *text = cg_input_read_text(path, "a mapping file (.txt)",
                                    "a mapping file", d);
    if (!text)
        return NULL;
    rd r = {.file = path, .nl = nl, .g = g, .d = d};
    bool ok = read_lines(&r, text);
    free(text);
    free(r.place_line);
    free(r.route_line);
    cg_strmap_destroy(r.names);
    if (!ok) {
        cg_mapping_destroy(r.m);
        cg_mrrg_destroy(r.mrrg);
        return NULL;
    }
    *mrrg = r.mrrg;
    return r.m;
}
