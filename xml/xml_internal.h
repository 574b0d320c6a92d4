/* xml_internal.h: what the files of xml/ share (not a public header). */
#ifndef CG_XML_INTERNAL_H
#define CG_XML_INTERNAL_H

#include <stdbool.h>

#include <libxml/tree.h>

#include "../arch/arch.h"
#include "../common/diag.h"
#include "../common/limits.h"
#include "../common/strmap.h"

/* A variable visible to expressions: a module parameter or a counter. */
typedef struct cg__xvar {
    const char *name;
    const char *value;
    char num[24]; /* storage for counters */
    const struct cg__xvar *next;
} cg__xvar;

/* Where an expression comes from, for messages. */
typedef struct cg__xsrc {
    cg_diags *d;
    const char *file;
    int line;
    const char *text; /* the whole attribute value */
    const xmlNode *use; /* the instance of the module being defined, NULL
                           at the top */
} cg__xsrc;

/* Replace every parenthesised expression of s (and the arithmetic written
 * right after it, as in "out(i)*2+1") by its value.  Malloc'd; NULL after
 * reporting an error. */
char *cg__xml_interp(const char *s, const cg__xvar *env, const cg__xsrc *src);
/* Evaluate an if= condition: false when the value is empty or "0". */
int cg__xml_eval_bool(const char *s, const cg__xvar *env, const cg__xsrc *src,
                      bool *out);
/* Parse one integer expression at *p (a number, -x, or "(...)" followed by
 * arithmetic), advancing *p.  -1 after reporting an error. */
int cg__xml_eval_int(const char **p, const cg__xvar *env, const cg__xsrc *src,
                     long *out);
/* Names used as "(name)" anywhere in s, appended to names[*n] (up to max,
 * not duplicated, pointers malloc'd).  false when out of memory. */
bool cg__xml_var_refs(const char *s, char **names, int *n, int max);

/* State of one read. */
typedef struct cg__xctx {
    cg_arch *a;
    cg_diags *d;
    int errors0;          /* errors in d before this read */
    xmlNode **tmpls;      /* <module> templates */
    int ntmpls, tcap;
    cg_strmap *tmpl_ix;   /* template name -> index in tmpls, NULL until
                             the first */
    const char *stack[32]; /* templates being instantiated (cycles) */
    int depth;
    int top, rows, cols;  /* the architecture module and its grid */
    bool default_templates; /* an <architecture> root read with cgramap's
                             default templates: say so on unknown modules */
    bool border;          /* size given as row=/col= (CGRA-ME): a mesh
                             keeps its PEs off the grid's border */
    int *cell_line;       /* line of the block at each cell, 0 = empty */
    int decl_rows, decl_cols; /* the grid the file gives (and its meshes'
                             ranges); a <pattern>'s ranges may reach past
                             it, as CGRA-ME places such blocks anyway */
    bool collect_outside; /* note blocks placed past decl_rows/decl_cols */
    int noutside;         /* how many, their first names in outside */
    char outside[256];
    cg_strmap *reported;  /* "file:line: msg" of each message from inside a
                             module with parameters, NULL until the first */
    bool collecting;      /* d is such a module's own list (xml.c) */
    const xmlNode *use;   /* the instance whose module is being defined
                             (for its first use), NULL at the top */
} cg__xctx;

/* File and line of a node, for messages and cg_arch_set_loc. */
const char *cg__xml_file(const xmlNode *n);
int cg__xml_line(const xmlNode *n);
void cg__xml_error(cg__xctx *c, const xmlNode *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The line of attribute attr of n: its own line when n's start tag spans
 * several (libxml2 gives an element the line where its start tag ends);
 * n's line when the document's text is not at hand. */
int cg__xml_attr_line(const xmlNode *n, const char *attr);
/* An error about attribute attr of n, at the attribute's line. */
void cg__xml_error_attr(cg__xctx *c, const xmlNode *n, const char *attr,
                        const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool cg__xml_failed(const cg__xctx *c);
/* Stamp node's location on everything arch creates next. */
void cg__xml_loc(cg__xctx *c, const xmlNode *n);
/* Report every attribute of n not in allowed (NULL-terminated).  When
 * params is non-NULL, the other attributes are collected there instead. */
int cg__xml_check_attrs(cg__xctx *c, const xmlNode *n,
                        const char *const *allowed, const char *what);
/* Attribute value with expressions substituted (malloc'd); NULL when absent
 * (*bad = false) or on error (*bad = true). */
char *cg__xml_attr(cg__xctx *c, const xmlNode *n, const char *name,
                   const cg__xvar *env, bool *bad);
/* Integer attribute in min..max; def when absent; -1 after an error. */
int cg__xml_attr_int(cg__xctx *c, const xmlNode *n, const char *name,
                     const cg__xvar *env, long def, long min, long max,
                     long *out);
/* Evaluate n's if= (true when absent); -1 after an error. */
int cg__xml_cond(cg__xctx *c, const xmlNode *n, const cg__xvar *env,
                 bool *out);
/* Report non-blank text inside n. */
int cg__xml_is_text(cg__xctx *c, const xmlNode *n);
/* Element children only; text, comments skipped (non-blank text is an
 * error reported by cg__xml_is_text). */

/* The text of xml/module_templates.xml (generated by xml/embed.cmake). */
extern const char cg__xml_default_templates_text[];

/* CGRA-ME's MemPort, which the XML reads as a primitive and builds from
 * multiplexers, a MEMUnit and a register (inst.c). */
#define CG__MEMPORT "MemPort"
/* Whether name is a primitive's (a cg_prim_kind, or MemPort). */
bool cg__xml_prim_name(const char *name);

/* Instantiate a block/inst/sub-module node whose module is the template or
 * primitive named by its module= attribute, as instance `inst` of module
 * mod.  Returns the instance id, -1 after an error. */
int cg__xml_instance(cg__xctx *c, int mod, const xmlNode *n,
                     const char *inst, const cg__xvar *env);
/* Split a list of references at blanks outside parentheses (malloc'd
 * strings, count in *n, free with cg__xml_free_list). */
char **cg__xml_split(const char *s, int *n);
void cg__xml_free_list(char **v, int n);
/* s split as cg__xml_split does, each element replaced by fn(arg, it)
 * (a new string); NULL when fn returns NULL (it said why) or out of
 * memory (said at n). */
char **cg__xml_map_list(cg__xctx *c, const xmlNode *n, const char *s,
                        char *(*fn)(void *arg, const char *item), void *arg,
                        int *cnt);
/* An <input>, <output>, <inout> or <wire> n (name=, size= in bits,
 * default 32) of module mod, its attributes and if= already checked.  0,
 * or -1 after an error. */
int cg__xml_port(cg__xctx *c, int mod, const xmlNode *n,
                 const cg__xvar *env);
/* A reference list of a <connection> (text s) as the names it stands
 * for, count in *cnt (cg__xml_map_list's result); arg is the caller's. */
typedef char **(*cg__xml_list_fn)(cg__xctx *c, const xmlNode *n,
                                  const char *s, const void *arg, int *cnt);
/* A <connection> n (from= with to=, select-from= with to=, or from= with
 * distribute-to=) in module mod: both its lists through list(..., arg),
 * every source connected to every target (or one mux per target).  0, or
 * -1 after an error. */
int cg__xml_connection(cg__xctx *c, int mod, const xmlNode *n,
                       cg__xml_list_fn list, const void *arg);
/* Find a <module> template by name. */
xmlNode *cg__xml_find_tmpl(const cg__xctx *c, const char *name);
/* Define (once) the concrete module for template t with parameters env;
 * its name (malloc'd), NULL after an error. */
char *cg__xml_concrete(cg__xctx *c, const xmlNode *t, const xmlNode *use,
                       const cg__xvar *env);
/* attr="first last" (a row or column range) into *lo, *hi, each in
 * 0..max-1; 0..max-1 when absent.  -1 after an error. */
int cg__xml_range(cg__xctx *c, const xmlNode *n, const char *attr, long max,
                  long *lo, long *hi);
/* A stamp's size *h x *w: row= or rows=, col= or cols= (one spelling per
 * axis), default 1; with one side given and more <block>s than it holds,
 * the other side is the blocks divided by it (CGRA-ME: row="1" and 8
 * blocks is a 1x8 stamp). */
int cg__xml_stamp(cg__xctx *c, const xmlNode *n, long *h, long *w);
/* Place the <block> n at (r, col) as block_<r>_<col>. */
int cg__xml_place_block(cg__xctx *c, const xmlNode *n, long r, long col,
                        const cg__xvar *env);
/* The <mesh> or <diagonal> sugar: pass 1 places blocks, pass 2 connects.
 * off is 1 when IO blocks ring the array. */
int cg__xml_mesh(cg__xctx *c, const xmlNode *n, int pass, int off);
/* Gather the <module>s of a <cgra>, <templates> or <definition>. */
int cg__xml_collect(cg__xctx *c, xmlNode *root, bool arch_ok);
/* The <architecture> element. */
int cg__xml_architecture(cg__xctx *c, const xmlNode *n);

#endif
