/* diag.c: the diagnostic list every stage reports into. */
#include "diag.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

struct cg_diags {
    cg_diag *v;
    int n, cap;
    int nerr, nwarn;
};

cg_diags *cg_diags_create(void) { return calloc(1, sizeof(cg_diags)); }

void cg_diags_clear(cg_diags *d)
{
    for (int i = 0; i < d->n; i++) {
        free(d->v[i].file);
        free(d->v[i].msg);
    }
    d->n = d->nerr = d->nwarn = 0;
}

void cg_diags_destroy(cg_diags *d)
{
    if (!d)
        return;
    cg_diags_clear(d);
    free(d->v);
    free(d);
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

void cg_diags_vadd(cg_diags *d, cg_severity sev, const char *file, int line,
                   const char *fmt, va_list ap)
{
    if (CG_GROW(d->v, d->cap, d->n + 1))
        return; /* out of memory: the entry is lost, the count is not */
    va_list ap2;
    va_copy(ap2, ap);
    int len = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *msg = malloc((size_t)len + 1);
    if (msg)
        vsnprintf(msg, (size_t)len + 1, fmt, ap);
    d->v[d->n++] = (cg_diag){sev, dup_or_null(file), line, msg};
    if (sev == CG_SEV_ERROR)
        d->nerr++;
    else if (sev == CG_SEV_WARNING)
        d->nwarn++;
}

void cg_diags_add(cg_diags *d, cg_severity sev, const char *file, int line,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cg_diags_vadd(d, sev, file, line, fmt, ap);
    va_end(ap);
}

void cg_error_at(cg_diags *d, cg_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cg_diags_vadd(d, CG_SEV_ERROR, loc.file, loc.line, fmt, ap);
    va_end(ap);
}

void cg_warning_at(cg_diags *d, cg_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cg_diags_vadd(d, CG_SEV_WARNING, loc.file, loc.line, fmt, ap);
    va_end(ap);
}

int cg_diags_size(const cg_diags *d) { return d->n; }
const cg_diag *cg_diags_get(const cg_diags *d, int i) { return &d->v[i]; }
int cg_diags_errors(const cg_diags *d) { return d->nerr; }
int cg_diags_warnings(const cg_diags *d) { return d->nwarn; }

static const char *sev_name(cg_severity s)
{
    return s == CG_SEV_ERROR ? "error" : s == CG_SEV_WARNING ? "warning" : "note";
}

char *cg_diag_format(const cg_diag *e)
{
    const char *msg = e->msg ? e->msg : "(out of memory)";
    char pos[64] = "";
    if (e->line > 0)
        snprintf(pos, sizeof pos, ":%d", e->line);
    const char *file = e->file ? e->file : "";
    size_t len = strlen(file) + strlen(pos) + strlen(msg) + 32;
    char *s = malloc(len);
    if (!s)
        return NULL;
    if (e->file)
        snprintf(s, len, "%s%s: %s: %s", file, pos, sev_name(e->sev), msg);
    else
        snprintf(s, len, "%s: %s", sev_name(e->sev), msg);
    return s;
}

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* Does entry i repeat one of the (at most 256) entries before it? */
static bool repeats(const cg_diags *d, int i)
{
    const cg_diag *e = &d->v[i];
    for (int j = i - 1; j >= 0 && j >= i - 256; j--) {
        const cg_diag *f = &d->v[j];
        if (f->sev == e->sev && f->line == e->line &&
            same_text(f->file, e->file) && same_text(f->msg, e->msg))
            return true;
    }
    return false;
}

void cg_diags_print(const cg_diags *d, FILE *out)
{
    for (int i = 0; i < d->n; i++) {
        if (repeats(d, i))
            continue; /* one mistake met twice (a module built twice) */
        char *s = cg_diag_format(&d->v[i]);
        fprintf(out, "%s\n", s ? s : "error: (out of memory)");
        free(s);
    }
}

void cg_diags_append(cg_diags *dst, const cg_diags *src)
{
    for (int i = 0; i < src->n; i++) {
        const cg_diag *e = &src->v[i];
        cg_diags_add(dst, e->sev, e->file, e->line, "%s", e->msg ? e->msg : "");
    }
}

const char *cg_diag_quote(cg_quote *q, const char *s)
{
    size_t n = strnlen(s, CG_QUOTE_MAX + 1);
    if (n <= CG_QUOTE_MAX) {
        memcpy(q->s, s, n + 1);
        return q->s;
    }
    n = CG_QUOTE_MAX;
    while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
        n--; /* s[n] continues a character: leave that character out */
    memcpy(q->s, s, n);
    memcpy(q->s + n, "...", 4);
    return q->s;
}
