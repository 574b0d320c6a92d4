/* top.c: the <architecture> element: grid, blocks, patterns with counters,
 * relative references, the mesh and diagonal sugar, memories and DMA.
 *
 * Blocks are named block_<row>_<col>.  Pass 1 places blocks and declares
 * ports, memories and the DMA; pass 2 makes the connections, so a (rel ..)
 * reference may name a block placed by a later pattern. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xml_internal.h"

typedef struct pattern {
    long r0, r1, c0, c1, h, w, rskip, cskip;
    bool wrap;
    char *counter[3]; /* counter, row-counter, col-counter */
} pattern;

/* Whether pattern n places a block (one of its <block>s names a module). */
static bool places_blocks(const xmlNode *n)
{
    for (xmlNode *k = n->children; k; k = k->next)
        if (k->type == XML_ELEMENT_NODE &&
            !strcmp((const char *)k->name, "block") &&
            xmlHasProp(k, (const xmlChar *)"module"))
            return true;
    return false;
}

static void cell_name(char *buf, size_t n, long r, long col)
{
    snprintf(buf, n, "block_%ld_%ld", r, col);
}

/* A block at (r, col) from <block> node n. */
int cg__xml_place_block(cg__xctx *c, const xmlNode *n, long r, long col,
                        const cg__xvar *env)
{
    if (strcmp((const char *)n->parent->name, "architecture") &&
        (xmlHasProp(n, (const xmlChar *)"row") ||
         xmlHasProp(n, (const xmlChar *)"col"))) {
        cg__xml_error(c, n, "row= and col= belong on a <block> directly in "
                      "<architecture>; inside <%s> the stamp places the "
                      "block", (const char *)n->parent->name);
        return -1;
    }
    if (r < 0 || r >= c->rows || col < 0 || col >= c->cols) {
        cg__xml_error(c, n, "block at (%ld, %ld) is outside the %dx%d grid; "
                      "use rows 0..%d and columns 0..%d", r, col, c->rows,
                      c->cols, c->rows - 1, c->cols - 1);
        return -1;
    }
    int *line = &c->cell_line[r * c->cols + col];
    if (*line) {
        cg__xml_error(c, n, "duplicate block at (%ld, %ld): line %d already "
                      "placed one there; move or remove one", r, col, *line);
        return -1;
    }
    *line = cg__xml_line(n);
    char name[48];
    cell_name(name, sizeof name, r, col);
    if (c->collect_outside && (r >= c->decl_rows || col >= c->decl_cols) &&
        c->noutside++ < 8)
        snprintf(c->outside + strlen(c->outside),
                 sizeof c->outside - strlen(c->outside), "%s%s",
                 c->noutside > 1 ? ", " : "", name);
    int id = cg__xml_instance(c, c->top, n, name, env);
    if (id < 0)
        return -1;
    cg_arch_set_position(c->a, c->top, id, (int)r, (int)col);
    return 0;
}

int cg__xml_range(cg__xctx *c, const xmlNode *n, const char *attr, long max,
                  long *lo, long *hi)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)attr);
    *lo = 0, *hi = max - 1;
    if (!v)
        return 0;
    /* strtol, not sscanf: an out-of-range number is no undefined value. */
    char *end, *e2;
    errno = 0;
    *lo = strtol((const char *)v, &end, 10);
    *hi = strtol(end, &e2, 10);
    while (isspace((unsigned char)*e2))
        e2++;
    int rc = 0;
    if (errno || e2 == end || end == (char *)v || *e2 || *lo < 0 ||
        *hi < *lo || *hi >= max) {
        cg__xml_error_attr(c, n, attr, "%s=\"%s\" must be two numbers "
                           "'first last' with 0 <= first <= last <= %ld",
                           attr, CG_QUOTE((const char *)v), max - 1);
        rc = -1;
    }
    xmlFree(v);
    return rc;
}

/* One axis of a stamp: a= or b= (not both); 0 when absent. */
static int stamp_axis(cg__xctx *c, const xmlNode *n, const char *a,
                      const char *b, long *out)
{
    long x, y;
    if (cg__xml_attr_int(c, n, a, NULL, 0, 1, CG_MAX_GRID_CELLS, &x) < 0 ||
        cg__xml_attr_int(c, n, b, NULL, 0, 1, CG_MAX_GRID_CELLS, &y) < 0)
        return -1;
    if (x && y) {
        cg__xml_error(c, n, "give the stamp size as %s= or %s=, not both", a,
                      b);
        return -1;
    }
    *out = x ? x : y;
    return 0;
}

int cg__xml_stamp(cg__xctx *c, const xmlNode *n, long *h, long *w)
{
    if (stamp_axis(c, n, "row", "rows", h) < 0 ||
        stamp_axis(c, n, "col", "cols", w) < 0)
        return -1;
    long nb = 0;
    for (const xmlNode *k = n->children; k; k = k->next)
        nb += k->type == XML_ELEMENT_NODE &&
              !strcmp((const char *)k->name, "block");
    /* CGRA-ME sizes the other side from the blocks: row="1" and 8 blocks
     * is a 1x8 stamp */
    if (*h && !*w && nb > *h && nb % *h == 0)
        *w = nb / *h;
    else if (*w && !*h && nb > *w && nb % *w == 0)
        *h = nb / *w;
    *h += !*h, *w += !*w;
    return 0;
}

/* Whether an attribute of n or of an element inside it holds text. */
static bool refers(const xmlNode *n, const char *text)
{
    for (const xmlAttr *a = n->properties; a; a = a->next) {
        xmlChar *v = xmlNodeGetContent((const xmlNode *)a);
        bool hit = v && strstr((const char *)v, text);
        xmlFree(v);
        if (hit)
            return true;
    }
    for (const xmlNode *k = n->children; k; k = k->next)
        if (k->type == XML_ELEMENT_NODE && refers(k, text))
            return true;
    return false;
}

/* A counter name cgramap's expressions can read as (name): letters,
 * digits and '_'.  CGRA-ME substitutes "(name)" as text, so its files may
 * name a counter anything (archfiles/archfile.xml: counter="stupid counter
 * name"); such a name is taken while nothing refers to it. */
static bool counter_name_ok(cg__xctx *c, const xmlNode *n,
                            const char *attr, const char *name)
{
    static const char *const reserved[] = {"rel", "empty", "not", "this"};
    bool word = *name && !isdigit((unsigned char)*name);
    for (const char *s = name; *s; s++)
        word = word && (isalnum((unsigned char)*s) || *s == '_');
    bool taken = false;
    for (int r = 0; r < 4; r++)
        taken = taken || !strcmp(name, reserved[r]);
    if (word && !taken)
        return true;
    bool used = false;
    if (!word && *name && !strpbrk(name, "()")) {
        char *ref = malloc(strlen(name) + 3);
        if (!ref) {
            cg__xml_error(c, n, "out of memory");
            return false;
        }
        sprintf(ref, "(%s)", name);
        used = refers(n, ref);
        free(ref);
        if (!used)
            return true;
    }
    cg__xml_error(c, n, "%s=\"%s\" is not a valid counter name%s; use "
                  "letters, digits and '_' (not rel, empty, not, this)", attr,
                  CG_QUOTE(name), used ? " to refer to as (name)" : "");
    return false;
}

static int check_counters(cg__xctx *c, const xmlNode *n, pattern *p)
{
    static const char *const attr[] = {"counter", "row-counter",
                                       "col-counter"};
    int rc = 0;
    for (int i = 0; i < 3; i++) {
        xmlChar *v = xmlGetProp(n, (const xmlChar *)attr[i]);
        p->counter[i] = v ? strdup((const char *)v) : NULL;
        xmlFree(v);
        if (!p->counter[i])
            continue;
        if (!counter_name_ok(c, n, attr[i], p->counter[i]))
            rc = -1;
        for (int j = 0; j < i; j++)
            if (p->counter[j] && !strcmp(p->counter[j], p->counter[i])) {
                cg__xml_error(c, n, "counter name '%s' is used by both %s= "
                              "and %s=; give each counter its own name",
                              CG_QUOTE(p->counter[i]), attr[j], attr[i]);
                rc = -1;
            }
    }
    return rc;
}

static int parse_pattern(cg__xctx *c, const xmlNode *n, pattern *p)
{
    static const char *const attrs[] = {
        "row-range", "col-range", "row", "col", "rows", "cols", "row-skip",
        "col-skip", "counter", "row-counter", "col-counter", "wrap-around",
        "if", NULL};
    memset(p, 0, sizeof *p);
    int rc = cg__xml_check_attrs(c, n, attrs, NULL);
    rc |= cg__xml_range(c, n, "row-range", c->rows, &p->r0, &p->r1);
    rc |= cg__xml_range(c, n, "col-range", c->cols, &p->c0, &p->c1);
    rc |= cg__xml_stamp(c, n, &p->h, &p->w);
    rc |= cg__xml_attr_int(c, n, "row-skip", NULL, 0, 0,
                           CG_MAX_GRID_CELLS, &p->rskip);
    rc |= cg__xml_attr_int(c, n, "col-skip", NULL, 0, 0,
                           CG_MAX_GRID_CELLS, &p->cskip);
    xmlChar *wrap = xmlGetProp(n, (const xmlChar *)"wrap-around");
    if (wrap && strcmp((const char *)wrap, "on") && strcmp((const char *)wrap,
                                                           "off")) {
        cg__xml_error_attr(c, n, "wrap-around", "wrap-around=\"%s\" must "
                           "be \"on\" or \"off\"",
                           CG_QUOTE((const char *)wrap));
        rc = -1;
    }
    p->wrap = wrap && !strcmp((const char *)wrap, "on");
    xmlFree(wrap);
    rc |= check_counters(c, n, p);
    if (rc == 0 && ((p->r1 - p->r0 + 1 + p->rskip) % (p->h + p->rskip) >
                        p->rskip ||
                    (p->c1 - p->c0 + 1 + p->cskip) % (p->w + p->cskip) >
                        p->cskip)) {
        cg__xml_error(c, n, "the %ldx%ld stamp (skips %ld, %ld) does not tile "
                      "row-range %ld %ld, col-range %ld %ld; adjust the ranges "
                      "or the stamp size", p->h, p->w, p->rskip, p->cskip,
                      p->r0, p->r1, p->c0, p->c1);
        rc = -1;
    }
    return rc < 0 ? -1 : 0;
}

static void free_pattern(pattern *p)
{
    for (int i = 0; i < 3; i++)
        free(p->counter[i]);
}

/* Resolve one reference at the architecture level: "(rel dr dc).port" from
 * the stamp at (r, col), or anything else with expressions substituted. */
static char *resolve_ref(cg__xctx *c, const xmlNode *n, const char *ref,
                         const cg__xvar *env, const pattern *p, long r,
                         long col)
{
    cg__xsrc src = {c->d, cg__xml_file(n), cg__xml_line(n), ref, c->use};
    if (strncmp(ref, "(rel", 4) || !isspace((unsigned char)ref[4]))
        return cg__xml_interp(ref, env, &src);
    if (!p) {
        cg__xml_error(c, n, "reference '%s' uses (rel ...) outside a "
                      "<pattern>; name the block as block_<row>_<col>",
                      CG_QUOTE(ref));
        return NULL;
    }
    const char *s = ref + 5;
    long dr, dc;
    while (isspace((unsigned char)*s))
        s++;
    if (cg__xml_eval_int(&s, env, &src, &dr) < 0)
        return NULL;
    while (isspace((unsigned char)*s))
        s++;
    if (cg__xml_eval_int(&s, env, &src, &dc) < 0)
        return NULL;
    while (isspace((unsigned char)*s))
        s++;
    if (s[0] != ')' || s[1] != '.' || !s[2]) {
        cg__xml_error(c, n, "reference '%s' must look like '(rel ROWS COLS)"
                      ".port'", CG_QUOTE(ref));
        return NULL;
    }
    char *port = cg__xml_interp(s + 2, env, &src);
    if (!port)
        return NULL;
    /* Reduce first: r + dr cannot overflow once |dr| < rows. */
    if (p->wrap)
        dr %= c->rows, dc %= c->cols;
    long tr = r + dr, tc = col + dc;
    if (p->wrap) {
        tr = ((tr % c->rows) + c->rows) % c->rows;
        tc = ((tc % c->cols) + c->cols) % c->cols;
    } else if (dr > CG_MAX_GRID_CELLS || dr < -CG_MAX_GRID_CELLS ||
               dc > CG_MAX_GRID_CELLS || dc < -CG_MAX_GRID_CELLS) {
        tr = dr, tc = dc; /* far outside any grid; named as given */
    }
    char *out = NULL;
    if (tr < 0 || tr >= c->rows || tc < 0 || tc >= c->cols) {
        cg__xml_error(c, n, "reference '%s' from block_%ld_%ld leaves the "
                      "%dx%d grid at (%ld, %ld); narrow the pattern's ranges "
                      "or set wrap-around=\"on\"", CG_QUOTE(ref), r, col,
                      c->rows, c->cols, tr, tc);
    } else if (!c->cell_line[tr * c->cols + tc]) {
        cg__xml_error(c, n, "reference '%s' from block_%ld_%ld names (%ld, "
                      "%ld), where no block is placed", CG_QUOTE(ref), r, col,
                      tr, tc);
    } else if ((out = malloc(strlen(port) + 48))) {
        sprintf(out, "block_%ld_%ld.%s", tr, tc, port);
    }
    free(port);
    return out;
}

typedef struct resolve_arg {
    cg__xctx *c;
    const xmlNode *n;
    const cg__xvar *env;
    const pattern *p;
    long r, col;
} resolve_arg;

static char *resolve_one(void *arg, const char *item)
{
    resolve_arg *a = arg;
    return resolve_ref(a->c, a->n, item, a->env, a->p, a->r, a->col);
}

/* Resolve every element of a reference list (arg: a resolve_arg). */
static char **resolve_list(cg__xctx *c, const xmlNode *n, const char *s,
                           const void *arg, int *cnt)
{
    resolve_arg a = *(const resolve_arg *)arg;
    return cg__xml_map_list(c, n, s, resolve_one, &a, cnt);
}

static int top_connection(cg__xctx *c, const xmlNode *n, const cg__xvar *env,
                          const pattern *p, long r, long col)
{
    bool on;
    if (cg__xml_cond(c, n, env, &on) < 0)
        return -1;
    if (!on)
        return 0;
    resolve_arg a = {c, n, env, p, r, col};
    return cg__xml_connection(c, c->top, n, resolve_list, &a);
}

static int top_port(cg__xctx *c, const xmlNode *n, const cg__xvar *env)
{
    static const char *const attrs[] = {"name", "size", "if", NULL};
    bool on;
    if (cg__xml_check_attrs(c, n, attrs, NULL) < 0 ||
        cg__xml_cond(c, n, env, &on) < 0)
        return -1;
    return on ? cg__xml_port(c, c->top, n, env) : 0;
}

static bool is_port_tag(const char *t)
{
    return !strcmp(t, "input") || !strcmp(t, "output") ||
           !strcmp(t, "inout") || !strcmp(t, "wire");
}

/* Counters of the stamp (si, sj), number k, in a list on the stack. */
static const cg__xvar *stamp_env(const pattern *p, cg__xvar v[3], long k,
                                 long si, long sj)
{
    const cg__xvar *env = NULL;
    long val[3] = {k, si, sj};
    for (int i = 0; i < 3; i++) {
        if (!p->counter[i])
            continue;
        v[i].name = p->counter[i];
        snprintf(v[i].num, sizeof v[i].num, "%ld", val[i]);
        v[i].value = v[i].num;
        v[i].next = env;
        env = &v[i];
    }
    return env;
}

/* One stamp of a pattern in the given pass. */
static int stamp(cg__xctx *c, const xmlNode *n, const pattern *p, long r,
                 long col, const cg__xvar *env, int pass)
{
    int rc = 0;
    long cell = 0;
    for (xmlNode *k = n->children; k; k = k->next) {
        if (cg__xml_is_text(c, k))
            continue;
        const char *t = (const char *)k->name;
        bool on = true;
        if (!strcmp(t, "block")) {
            long at = cell++;
            if (pass != 1)
                continue;
            if (at >= p->h * p->w) {
                cg__xml_error(c, k, "more <block>s than the %ldx%ld stamp "
                              "has cells; enlarge the stamp (row=, col=)",
                              p->h, p->w);
                rc = -1;
                continue;
            }
            if (cg__xml_cond(c, k, env, &on) < 0)
                rc = -1;
            else if (on && xmlHasProp(k, (const xmlChar *)"module"))
                rc |= cg__xml_place_block(c, k, r + at / p->w,
                                          col + at % p->w, env);
        } else if (!strcmp(t, "connection")) {
            if (pass == 2)
                rc |= top_connection(c, k, env, p, r, col);
        } else if (is_port_tag(t)) {
            if (pass == 1)
                rc |= top_port(c, k, env);
        } else {
            if (pass == 1)
                cg__xml_error(c, k, "unknown tag <%s> inside <pattern> "
                              "(expected: block, connection, input, output, "
                              "inout, wire)", t);
            rc = -1;
        }
    }
    return rc;
}

/* Pass 1 of a pattern placed blocks past the grid the file gives (its
 * ranges reach past it; CGRA-ME has no bound check and places them): a
 * warning naming them. */
static void warn_outside(cg__xctx *c, const xmlNode *n)
{
    long r0, r1, c0, c1;
    bool past = false;
    if (cg__xml_range(c, n, "row-range", c->rows, &r0, &r1) == 0 &&
        cg__xml_range(c, n, "col-range", c->cols, &c0, &c1) == 0)
        past = r1 >= c->decl_rows || c1 >= c->decl_cols;
    if (past && c->noutside == 0) {
        cg_diags_add(c->d, CG_SEV_WARNING, cg__xml_file(n), cg__xml_line(n),
                     "the <pattern>'s row-range=/col-range= reach past the "
                     "%dx%d grid given here, but none of its blocks is "
                     "placed there (an if= is false); the grid grows to "
                     "%dx%d all the same", c->decl_rows, c->decl_cols,
                     c->rows, c->cols);
        return;
    }
    if (c->noutside == 0)
        return;
    cg_diags_add(c->d, CG_SEV_WARNING, cg__xml_file(n), cg__xml_line(n),
                 "the <pattern>'s row-range=/col-range= reach past the "
                 "%dx%d grid given here; as CGRA-ME does, its blocks there "
                 "are placed anyway and the grid grows to %dx%d: %d block%s "
                 "outside the grid given (%s%s)", c->decl_rows, c->decl_cols,
                 c->rows, c->cols, c->noutside, c->noutside > 1 ? "s" : "",
                 c->outside, c->noutside > 8 ? ", ..." : "");
}

static int top_pattern(cg__xctx *c, const xmlNode *n, int pass)
{
    pattern p;
    bool on;
    if (parse_pattern(c, n, &p) < 0 || cg__xml_cond(c, n, NULL, &on) < 0) {
        free_pattern(&p);
        return -1;
    }
    int rc = 0;
    long k = 0, si = 0;
    c->collect_outside = pass == 1;
    c->noutside = 0;
    c->outside[0] = '\0';
    /* Stop at the first failing stamp: the others would repeat its errors. */
    for (long r = p.r0; on && rc == 0 && r + p.h - 1 <= p.r1;
         r += p.h + p.rskip, si++) {
        long sj = 0;
        for (long col = p.c0; rc == 0 && col + p.w - 1 <= p.c1;
             col += p.w + p.cskip, sj++, k++) {
            cg__xvar v[3];
            const cg__xvar *env = stamp_env(&p, v, k, si, sj);
            rc |= stamp(c, n, &p, r, col, env, pass);
        }
    }
    c->collect_outside = false;
    if (rc == 0 && pass == 1 && places_blocks(n))
        warn_outside(c, n);
    free_pattern(&p);
    return rc < 0 ? -1 : 0;
}

static int top_memory(cg__xctx *c, const xmlNode *n)
{
    static const char *const attrs[] = {"name", "bytes", "banks", "ports",
                                        NULL};
    long bytes, banks, ports;
    if (cg__xml_check_attrs(c, n, attrs, NULL) < 0 ||
        cg__xml_attr_int(c, n, "bytes", NULL, -1, 1, LONG_MAX, &bytes) < 0 ||
        cg__xml_attr_int(c, n, "banks", NULL, 1, 1, CG_MAX_BANKS, &banks) < 0 ||
        cg__xml_attr_int(c, n, "ports", NULL, 1, 1, CG_MAX_PORTS, &ports) < 0)
        return -1;
    xmlChar *name = xmlGetProp(n, (const xmlChar *)"name");
    int rc = -1;
    if (!name || bytes < 0)
        cg__xml_error(c, n, "<memory> needs name=\"...\" and bytes=\"...\"");
    else {
        cg__xml_loc(c, n);
        rc = cg_arch_add_memory(c->a, (const char *)name, bytes, (int)banks,
                                (int)ports, c->d);
    }
    xmlFree(name);
    return rc < 0 ? -1 : 0;
}

static int dma_dim(cg__xctx *c, const xmlNode *k, cg_dma_params *p)
{
    static const char *const attrs[] = {"index", "max-size", "max-stride",
                                        NULL};
    long i, size, stride;
    if (cg__xml_check_attrs(c, k, attrs, NULL) < 0 ||
        cg__xml_attr_int(c, k, "index", NULL, -1, 0, LONG_MAX, &i) < 0 ||
        cg__xml_attr_int(c, k, "max-size", NULL, 0, 0, LONG_MAX, &size) < 0 ||
        cg__xml_attr_int(c, k, "max-stride", NULL, 0, 0, LONG_MAX,
                         &stride) < 0)
        return -1;
    if (i < 0 || i >= p->max_dims) {
        cg__xml_error(c, k, "<dim> needs index=\"0\"..\"%d\" (below "
                      "max-dims=\"%d\")", p->max_dims - 1, p->max_dims);
        return -1;
    }
    p->max_size[i] = size;
    p->max_stride[i] = stride;
    return 0;
}

static int top_dma(cg__xctx *c, const xmlNode *n)
{
    static const char *const attrs[] = {"ext-bytes", "bytes-per-cycle",
                                        "setup-cycles", "channels",
                                        "max-dims", NULL};
    cg_dma_params p;
    cg_dma_params_init(&p);
    long ext, setup, ch, dims;
    if (cg__xml_check_attrs(c, n, attrs, NULL) < 0 ||
        cg__xml_attr_int(c, n, "ext-bytes", NULL, p.ext_bytes, 0,
                         LONG_MAX, &ext) < 0 ||
        cg__xml_attr_int(c, n, "setup-cycles", NULL, p.setup_cycles, 0,
                         INT_MAX, &setup) < 0 ||
        cg__xml_attr_int(c, n, "channels", NULL, p.channels, 1, INT_MAX,
                         &ch) < 0 ||
        cg__xml_attr_int(c, n, "max-dims", NULL, p.max_dims, 1,
                         CG_DMA_MAX_DIMS, &dims) < 0)
        return -1;
    p.ext_bytes = ext, p.setup_cycles = (int)setup, p.channels = (int)ch;
    p.max_dims = (int)dims;
    xmlChar *bpc = xmlGetProp(n, (const xmlChar *)"bytes-per-cycle");
    int rc = 0;
    if (bpc) {
        /* decimal only: strtod also takes hex, inf and nan */
        const char *v = (const char *)bpc;
        char *end;
        p.bytes_per_cycle = strtod(v, &end);
        if (end == v || *end || v[strspn(v, "0123456789.eE+-")] ||
            !cg_dma_bytes_per_cycle_ok(p.bytes_per_cycle)) {
            cg__xml_error(c, n, "bytes-per-cycle=\"%s\" must be a decimal "
                          "number from %g to %.0f", CG_QUOTE(v),
                          CG_DMA_MIN_BYTES_PER_CYCLE,
                          CG_DMA_MAX_BYTES_PER_CYCLE);
            rc = -1;
        }
        xmlFree(bpc);
    }
    for (xmlNode *k = n->children; k; k = k->next) {
        if (cg__xml_is_text(c, k))
            continue;
        if (strcmp((const char *)k->name, "dim")) {
            cg__xml_error(c, k, "unknown tag <%s> inside <dma> (expected: "
                          "dim)", (const char *)k->name);
            rc = -1;
        } else {
            rc |= dma_dim(c, k, &p);
        }
    }
    if (rc == 0) {
        cg__xml_loc(c, n);
        rc = cg_arch_set_dma(c->a, &p, c->d);
    }
    return rc < 0 ? -1 : 0;
}

/* A <block> directly in <architecture>, at row=, col=. */
static int top_block(cg__xctx *c, const xmlNode *n)
{
    long r, col;
    bool on;
    if (cg__xml_cond(c, n, NULL, &on) < 0 ||
        cg__xml_attr_int(c, n, "row", NULL, -1, 0, LONG_MAX, &r) < 0 ||
        cg__xml_attr_int(c, n, "col", NULL, -1, 0, LONG_MAX, &col) < 0)
        return -1;
    if (r < 0 || col < 0) {
        cg__xml_error(c, n, "a <block> outside a <pattern> needs row= and "
                      "col=");
        return -1;
    }
    return on ? cg__xml_place_block(c, n, r, col, NULL) : 0;
}

static int top_child(cg__xctx *c, const xmlNode *k, int pass, int off)
{
    const char *t = (const char *)k->name;
    if (!strcmp(t, "pattern"))
        return top_pattern(c, k, pass);
    if (!strcmp(t, "mesh") || !strcmp(t, "diagonal"))
        return cg__xml_mesh(c, k, pass, off);
    if (!strcmp(t, "connection"))
        return pass == 2 ? top_connection(c, k, NULL, NULL, 0, 0) : 0;
    if (pass == 2)
        return 0;
    if (!strcmp(t, "block"))
        return top_block(c, k);
    if (is_port_tag(t))
        return top_port(c, k, NULL);
    if (!strcmp(t, "memory"))
        return top_memory(c, k);
    if (!strcmp(t, "dma"))
        return top_dma(c, k);
    cg__xml_error(c, k, "unknown tag <%s> inside <architecture> (expected: "
                  "pattern, block, connection, mesh, diagonal, input, output, "
                  "inout, wire, memory, dma)", t);
    return -1;
}

/* One past the last row (column) of a mesh's row-range= (col-range=); 1
 * when absent or malformed (the mesh reports that against the grid). */
static long range_end(const xmlNode *k, const char *attr)
{
    xmlChar *v = xmlGetProp(k, (const xmlChar *)attr);
    long lo, hi, end = 1;
    int used = 0;
    if (v && sscanf((const char *)v, "%ld %ld %n", &lo, &hi, &used) == 2 &&
        !v[used] && lo >= 0 && hi >= lo && hi < 1L << 20)
        end = hi + 1;
    xmlFree(v);
    return end;
}

/* The grid a <mesh row-range= col-range=> needs into *h, *w; both 0 for a
 * mesh without ranges. */
static void mesh_extent(const xmlNode *k, long *h, long *w)
{
    bool ranged = xmlHasProp(k, (const xmlChar *)"row-range") ||
                  xmlHasProp(k, (const xmlChar *)"col-range");
    *h = ranged ? range_end(k, "row-range") : 0;
    *w = ranged ? range_end(k, "col-range") : 0;
}

/* The grid the row-range=/col-range= of the <pattern>s that place blocks
 * reach into *h, *w (0 where none is given). */
static void pattern_extent(const xmlNode *n, long *h, long *w)
{
    *h = *w = 0;
    for (xmlNode *k = n->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE ||
            strcmp((const char *)k->name, "pattern") || !places_blocks(k))
            continue;
        long eh = xmlHasProp(k, (const xmlChar *)"row-range")
                      ? range_end(k, "row-range") : 0;
        long ew = xmlHasProp(k, (const xmlChar *)"col-range")
                      ? range_end(k, "col-range") : 0;
        *h = eh > *h ? eh : *h, *w = ew > *w ? ew : *w;
    }
}

/* The <mesh>/<diagonal> children: io= checked, *ring set when one without
 * ranges has an IO ring, *h x *w the grid their ranges need. */
static int scan_meshes(cg__xctx *c, const xmlNode *n, bool *ring, long *h,
                       long *w)
{
    *ring = false, *h = *w = 0;
    for (xmlNode *k = n->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE ||
            (strcmp((const char *)k->name, "mesh") &&
             strcmp((const char *)k->name, "diagonal")))
            continue;
        long mh, mw;
        mesh_extent(k, &mh, &mw);
        *h = mh > *h ? mh : *h, *w = mw > *w ? mw : *w;
        xmlChar *io = xmlGetProp(k, (const xmlChar *)"io");
        bool every = io && !strcmp((const char *)io, "every-side-port");
        if (io && !every && strcmp((const char *)io, "none")) {
            cg__xml_error(c, k, "io=\"%s\" must be \"every-side-port\" or "
                          "\"none\"", CG_QUOTE((const char *)io));
            xmlFree(io);
            return -1;
        }
        *ring |= every && !mh;
        xmlFree(io);
    }
    return 0;
}

/* cgra-rows=/cgra-cols= beside row=/col= are CGRA-ME settings; a mesh's
 * PEs are the grid minus its border, which CGRA-ME's files also write
 * there: say so when they disagree. */
static void check_settings(cg__xctx *c, const xmlNode *n, const long v[6])
{
    bool mesh = false;
    for (xmlNode *k = n->children; k; k = k->next)
        mesh |= k->type == XML_ELEMENT_NODE &&
                (!strcmp((const char *)k->name, "mesh") ||
                 !strcmp((const char *)k->name, "diagonal"));
    if (mesh && ((v[4] && v[4] != v[2] - 2) || (v[5] && v[5] != v[3] - 2)))
        cg_diags_add(c->d, CG_SEV_WARNING, cg__xml_file(n), cg__xml_line(n),
                     "cgra-rows=\"%ld\" cgra-cols=\"%ld\" do not match the "
                     "%ldx%ld PEs that row=\"%ld\" col=\"%ld\" leave inside "
                     "the mesh's border; cgramap (as CGRA-ME) builds the "
                     "grid from row= and col=", v[4], v[5], v[2] - 2,
                     v[3] - 2, v[2], v[3]);
}

/* Grid size and the IO ring offset of the mesh sugar.  row=/col= (CGRA-ME's
 * spelling) are the whole grid, and a mesh keeps its PEs off the grid's
 * border (CGRA-ME's interior is rows 1..row-2); rows=/cols= or
 * cgra-rows=/cgra-cols= (cgramap's) give the PEs of a mesh, and its IO
 * ring grows the grid by one on every side.  A mesh's row-range=/col-range=
 * may reach past the size given (CGRA-ME does not check): the grid then
 * grows, with a warning. */
static int grid(cg__xctx *c, const xmlNode *n, int *off)
{
    static const char *const attrs[] = {"rows", "cols", "row", "col",
                                        "cgra-rows", "cgra-cols",
                                        "address-width", NULL};
    long v[6], h, w;
    bool ring;
    if (cg__xml_check_attrs(c, n, attrs, NULL) < 0)
        return -1;
    for (int i = 0; i < 6; i++)
        if (cg__xml_attr_int(c, n, attrs[i], NULL, 0, 1, CG_MAX_GRID_CELLS,
                             &v[i]) < 0)
            return -1;
    if (scan_meshes(c, n, &ring, &h, &w) < 0)
        return -1;
    bool plain = v[0] || v[1], cgme = v[2] || v[3], set = v[4] || v[5];
    c->border = cgme;
    long rows = cgme ? v[2] : v[0] | v[4], cols = cgme ? v[3] : v[1] | v[5];
    if ((plain && (cgme || set)) || ((plain || cgme || set) && (!rows ||
                                                                !cols)) ||
        (!plain && !cgme && !set && !h)) {
        cg__xml_error(c, n, "<architecture> needs its size once: row= and "
                      "col= (the whole grid, as in CGRA-ME), or rows= and "
                      "cols= (or cgra-rows= and cgra-cols=: the PEs of a mesh, "
                      "its IO ring around them)");
        return -1;
    }
    if (cgme)
        check_settings(c, n, v);
    *off = ring && !cgme;
    /* Each side is at most CG_MAX_GRID_CELLS (a range's end 2^20): no
     * overflow in long long. */
    long ph, pw;
    pattern_extent(n, &ph, &pw);
    long long gr = rows + 2 * *off, gc = cols + 2 * *off;
    gr = h > gr ? h : gr;
    gc = w > gc ? w : gc;
    gr = ph > gr ? ph : gr; /* placed past the grid, as CGRA-ME does */
    gc = pw > gc ? pw : gc;
    if (gr * gc > CG_MAX_GRID_CELLS) {
        cg__xml_error(c, n, "the %lldx%lld grid%s has %lld cells, above the "
                      "limit of %d; describe a smaller array", gr, gc,
                      *off ? " (with its IO ring)" : "", gr * gc,
                      CG_MAX_GRID_CELLS);
        return -1;
    }
    c->rows = (int)rows + 2 * *off;
    c->cols = (int)cols + 2 * *off;
    if ((plain || cgme || set) && (h > c->rows || w > c->cols))
        cg_diags_add(c->d, CG_SEV_WARNING, cg__xml_file(n), cg__xml_line(n),
                     "a <mesh>'s row-range=/col-range= reach past the %dx%d "
                     "grid given here; the grid grows to %ldx%ld to hold "
                     "them (CGRA-ME places mesh blocks where the ranges say)",
                     c->rows, c->cols, h > c->rows ? h : c->rows,
                     w > c->cols ? w : c->cols);
    c->rows = h > c->rows ? (int)h : c->rows;
    c->cols = w > c->cols ? (int)w : c->cols;
    c->decl_rows = c->rows, c->decl_cols = c->cols;
    c->rows = ph > c->rows ? (int)ph : c->rows;
    c->cols = pw > c->cols ? (int)pw : c->cols;
    return 0;
}

int cg__xml_architecture(cg__xctx *c, const xmlNode *n)
{
    int off;
    if (grid(c, n, &off) < 0)
        return -1;
    c->cell_line = calloc((size_t)c->rows * (size_t)c->cols, sizeof(int));
    if (!c->cell_line) {
        cg__xml_error(c, n, "out of memory for the %dx%d grid", c->rows,
                      c->cols);
        return -1;
    }
    cg__xml_loc(c, n);
    long aw;
    if (cg__xml_attr_int(c, n, "address-width", NULL, 32, 1, INT_MAX, &aw) < 0 ||
        cg_arch_set_addr_width(c->a, (int)aw, c->d) < 0)
        return -1;
    c->top = cg_arch_module_define(c->a, "architecture", c->d);
    if (c->top < 0)
        return -1;
    cg_arch_set_top(c->a, c->top);
    cg_arch_set_grid(c->a, c->rows, c->cols);
    for (int pass = 1; pass <= 2; pass++) {
        int rc = 0;
        for (xmlNode *k = n->children; k; k = k->next)
            if (!cg__xml_is_text(c, k))
                rc |= top_child(c, k, pass, off);
        if (rc < 0 || cg__xml_failed(c))
            return -1;
    }
    return 0;
}
