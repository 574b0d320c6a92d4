/* dot_write.c: a DFG in cgramap's .dot form (cg_dfg_write_dot).
 *
 * The form is CGRA-ME's (node statements "name[opcode=add ...];" and edge
 * statements "a->b[operand=K ...];", attributes separated by blanks, which
 * both Graphviz and CGRA-ME's parser accept) plus every field of the model
 * written out, so that dot_read.c rebuilds the graph exactly: write, read,
 * write gives the same bytes. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "../common/util.h"
#include "dfg.h"

/* A bare Graphviz id that is not a keyword; anything else is quoted. */
static bool bare(const char *s)
{
    static const char *const kws[] = {"strict", "graph", "digraph", "node",
                                      "edge", "subgraph"};
    if (!isalpha((unsigned char)*s) && *s != '_')
        return false;
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return false;
    for (size_t i = 0; i < sizeof kws / sizeof *kws; i++)
        if (strcasecmp(s, kws[i]) == 0)
            return false;
    return true;
}

/* s inside "...": " and \ escaped. */
static void put_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
}

/* s as an id: bare when it can be, else "..." with " and \ escaped. */
static void put_id(FILE *out, const char *s, bool force_quotes)
{
    if (!force_quotes && bare(s)) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    put_escaped(out, s);
    fputc('"', out);
}

static void put_node(FILE *out, const cg_dfg_node *n)
{
    fputs("    ", out);
    put_id(out, n->name, false);
    fprintf(out, "[opcode=%s", cg_op_name(n->op));
    if (n->pred != CG_PRED_NONE)
        fprintf(out, " pred=%s", cg_pred_name(n->pred));
    fprintf(out, " width=%d", n->width);
    if (n->has_value)
        fprintf(out, " value=%lld", (long long)n->value);
    if (n->sym) {
        fputs(" sym=", out);
        put_id(out, n->sym, false);
    }
    if (n->line > 0)
        fprintf(out, " line=%d", n->line);
    if (n->bank >= 0)
        fprintf(out, " bank=%d", n->bank);
    fputs("];\n", out);
}

static void put_edge(FILE *out, const cg_dfg *g, const cg_dfg_edge *x)
{
    fputs("    ", out);
    put_id(out, cg_dfg_get_node(g, x->src)->name, false);
    fputs("->", out);
    put_id(out, cg_dfg_get_node(g, x->dst)->name, false);
    fprintf(out, "[operand=%d", x->operand);
    if (x->distance)
        fprintf(out, " distance=%d", x->distance);
    if (x->init >= 0) {
        fputs(" init=", out);
        put_id(out, cg_dfg_get_node(g, x->init)->name, false);
    }
    fputs("];\n", out);
}

/* The stated memory order (cg_dfg_mem_order) as one graph attribute,
 * "FIRST->THEN:DISTANCE" entries separated by blanks; an empty value
 * states that no two memory ops touch a common byte.  Not written when the
 * graph states none.  cg_dfg_set_mem_order keeps names free of blanks,
 * ':' and "->"; put_id escapes what the quotes need. */
static void put_mem_order(FILE *out, const cg_dfg *g, const cg_mem_order *v,
                          int n)
{
    if (n < 0)
        return;
    fputs("    graph [memory_order=\"", out);
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(' ', out);
        put_escaped(out, cg_dfg_get_node(g, v[i].first)->name);
        fputs("->", out);
        put_escaped(out, cg_dfg_get_node(g, v[i].then)->name);
        fprintf(out, ":%d", v[i].distance);
    }
    fputs("\"];\n", out);
}

/* The memory the graph's addresses lie in (cg_dfg_set_memory), when
 * stated. */
static void put_memory(FILE *out, const cg_dfg *g)
{
    uint64_t base, bytes = cg_dfg_memory(g, &base);
    if (bytes)
        fprintf(out, "    graph [memory=\"%llu %llu\"];\n",
                (unsigned long long)base, (unsigned long long)bytes);
}

/* The name is quoted when it is G: the reader takes an unquoted G for
 * CGRA-ME's placeholder and names the graph after its file instead. */
int cg_dfg_write_dot(const cg_dfg *g, FILE *out)
{
    const cg_mem_order *v;
    int n = cg_dfg_mem_order(g, &v);
    return cg_dfg_write_dot_ordered(g, v, n, out);
}

int cg_dfg_write_dot_ordered(const cg_dfg *g, const cg_mem_order *v, int n,
                             FILE *out)
{
    const char *name = cg_dfg_name(g);
    fputs("digraph ", out);
    put_id(out, name, strcmp(name, "G") == 0);
    fputs(" {\n", out);
    if (cg_dfg_file(g)) {
        fputs("    graph [file=", out);
        put_id(out, cg_dfg_file(g), true);
        fputs("];\n", out);
    }
    put_mem_order(out, g, v, n);
    put_memory(out, g);
    for (int i = 0; i < cg_dfg_nnodes(g); i++)
        put_node(out, cg_dfg_get_node(g, i));
    for (int e = 0; e < cg_dfg_nedges(g); e++)
        put_edge(out, g, cg_dfg_get_edge(g, e));
    fputs("}\n", out);
    return cg_write_end(out, true);
}
