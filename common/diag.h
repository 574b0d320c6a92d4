/* diag.h: diagnostics shared by every stage of cgramap.
 *
 * Library code never prints, exits or aborts on user input.  It records what
 * went wrong in a cg_diags list, with the file and line of the offending
 * input, and returns a failure status.  Only cli/ prints the list, one line
 * per entry, as "file:line: error: message".
 */
#ifndef CG_DIAG_H
#define CG_DIAG_H

#include <stdarg.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cg_severity {
    CG_SEV_ERROR,   /* the input is wrong; the result is not produced */
    CG_SEV_WARNING, /* suspicious but usable input */
    CG_SEV_NOTE     /* extra context for the entry before it */
} cg_severity;

typedef struct cg_diag {
    cg_severity sev;
    char *file; /* input file, or NULL when there is none */
    int line;   /* 1-based line, 0 when unknown */
    char *msg;  /* what is wrong and how to fix it, no trailing newline */
} cg_diag;

typedef struct cg_diags cg_diags;

/* A source position carried by model objects so later passes can point back
 * at the input.  file is borrowed: it must outlive the object (the model
 * objects intern their file names). */
typedef struct cg_loc {
    const char *file;
    int line;
} cg_loc;

cg_diags *cg_diags_create(void);              /* empty list, NULL on no memory */
void cg_diags_destroy(cg_diags *d);           /* accepts NULL */
void cg_diags_clear(cg_diags *d);             /* drop every entry */

/* Append an entry; file may be NULL.  Formats like printf. */
void cg_diags_add(cg_diags *d, cg_severity sev, const char *file, int line,
                  const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void cg_diags_vadd(cg_diags *d, cg_severity sev, const char *file, int line,
                   const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));
/* Shorthands for cg_diags_add with a cg_loc. */
void cg_error_at(cg_diags *d, cg_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cg_warning_at(cg_diags *d, cg_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

int cg_diags_size(const cg_diags *d);                 /* number of entries */
const cg_diag *cg_diags_get(const cg_diags *d, int i); /* entry i, in order */
int cg_diags_errors(const cg_diags *d);               /* number of errors */
int cg_diags_warnings(const cg_diags *d);             /* number of warnings */

/* Render entry i as "file:line: error: msg" (no newline).  "file: error:"
 * when the line is unknown, "error:" alone without a file.  Caller frees. */
char *cg_diag_format(const cg_diag *e);
/* Print every entry, one per line; an entry that repeats one of the 256
 * before it exactly (one mistake met twice, in a module built twice) is
 * printed once. */
void cg_diags_print(const cg_diags *d, FILE *out);
/* Append every entry of src to dst. */
void cg_diags_append(cg_diags *dst, const cg_diags *src);

/* Input quoted in a message: at most CG_QUOTE_MAX bytes of it, cut before
 * a UTF-8 character that would not fit, then "..." when there is more (a
 * megabyte attribute must not make a megabyte message).  The text lives
 * in q; CG_QUOTE(s) gives it a buffer that lasts to the end of the
 * enclosing block, for use as a printf argument. */
enum { CG_QUOTE_MAX = 64 };
typedef struct cg_quote {
    char s[CG_QUOTE_MAX + 4];
} cg_quote;
const char *cg_diag_quote(cg_quote *q, const char *s);
#define CG_QUOTE(s) cg_diag_quote(&(cg_quote){{0}}, (s))

#ifdef __cplusplus
}
#endif

#endif
