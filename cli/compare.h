/* compare.h: the main job on several arrays, `cgramap --arch a.xml --arch
 * b.xml PATH...` or one array swept over its <architecture> attributes
 * (`--param NAME=V1,V2`): every loop is mapped on every array with the
 * same seed and limits, each record names its array ("arch"), and a
 * comparison table (and with --report DIR an HTML page with SVG charts)
 * sets the arrays side by side with a cost proxy counted from each and,
 * with --area, their area from yosys.
 *
 * A single --arch without --param, --report or --area never comes here:
 * the main job's output stays as it was.
 */
#ifndef CG_CLI_COMPARE_H
#define CG_CLI_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "arch/arch.h"
#include "cli/bench.h"

#define CG_CLI_MAX_ARCHS 32   /* --arch options */
#define CG_CLI_MAX_PARAMS 4   /* --param options */
#define CG_CLI_MAX_VALUES 16  /* values of one --param */
#define CG_CLI_MAX_ARRAYS 64  /* arrays compared, a sweep's product too */

/* One --param NAME=V1,V2,...: the strings point into argv. */
typedef struct cg_cli_param {
    char name[64];
    const char *value[CG_CLI_MAX_VALUES];
    int len[CG_CLI_MAX_VALUES];
    int nvalue;
} cg_cli_param;

/* The options only the comparison has. */
typedef struct cg_cli_cmp_opts {
    const char *arch[CG_CLI_MAX_ARCHS];
    int narch;
    cg_cli_param param[CG_CLI_MAX_PARAMS];
    int nparam;
    const char *report_dir;   /* --report, NULL = none */
    bool area;                /* --area: each array's area from yosys */
} cg_cli_cmp_opts;

/* Record --arch / --param; 0, or -1 after "cgramap: ..." on stderr. */
int cg_cli_cmp_add_arch(cg_cli_cmp_opts *c, const char *path);
int cg_cli_cmp_add_param(cg_cli_cmp_opts *c, const char *spec);
/* Options that only make sense together checked after parsing (--param
 * with exactly one --arch); 0, or -1 after the message. */
int cg_cli_cmp_check(const cg_cli_cmp_opts *c);
/* More than one array, a sweep, a report or --area: the comparison
 * runs. */
bool cg_cli_cmp_wanted(const cg_cli_cmp_opts *c);

/* ---- the cost proxy (compare_cost.c) ------------------------------------ */

/* What an array is made of, and its cost in units of a 32-bit adder
 * (docs/cli.md, "Comparing arrays", has the weights). */
typedef struct cg_cli_cost {
    int funcunits;
    double fu_weight;     /* the FuncUnits' op sets, weighted, by width */
    int muxes;
    int mux_inputs;
    int registers;        /* Registers and RegisterFile entries */
    int memunits, consts, ios;
    int64_t mem_bytes;    /* tile memories */
    double total;
} cg_cli_cost;
void cg_cli_cost_of(const cg_netlist *nl, cg_cli_cost *out);

/* ---- the area (compare_area.c) ------------------------------------------ */

/* An array's area from yosys's generic synthesis of its RTL (--area). */
typedef struct cg_cli_arr_area {
    bool asked;           /* --area was given */
    bool ok;              /* synthesized; else why says why not */
    double nand2;         /* NAND2-equivalents (docs/rtl.md, "Area") */
    long ffs, cells;
    int contexts;         /* configuration contexts of the RTL */
    int config_bits;      /* the configuration chain, every context */
    int pe_least, pe_most;
    double pe_mean;       /* configuration bits per PE per context */
    char *why;            /* not ok: malloc'd */
} cg_cli_arr_area;

/* What the area column says: the figures, "n/a: WHY" or "not computed
 * (--area)". */
void cg_cli_area_text(const cg_cli_arr_area *a, char *buf, size_t n);

/* ---- an array to compare (compare_sweep.c) ------------------------------ */

typedef struct cg_cli_array {
    char *label;          /* "mesh.xml", "mesh.xml[rows=6]" */
    const char *path;     /* the --arch file; NULL: the embedded 4x4 */
    char *params;         /* "rows=6" for a sweep's instance, else NULL */
    bool ok;              /* read and flattened */
    char *why;            /* not read: its error lines, malloc'd; else NULL */
    cg_cli_cost cost;
    cg_cli_arr_area area;     /* with --area */
} cg_cli_array;

/* Array x's area (x->area), its RTL synthesized with statistics cached in
 * the folder cache; n/a with why when the RTL cannot be made or yosys
 * fails or is missing.  Takes seconds per module not in the cache. */
void cg_cli_array_area(cg_cli_array *x, const cg_netlist *nl,
                       const char *cache);

/* The arrays c describes, in order (each --arch; or the product of the
 * --param values on the one --arch, the first --param varying slowest).
 * Labels are file names, the path given when two names are equal.
 * 0, or -1 after a message (too many arrays). */
int cg_cli_arrays(const cg_cli_cmp_opts *c, cg_cli_array *out, int *n);
void cg_cli_arrays_free(cg_cli_array *v, int n);
/* Add an error line to why array x was not read (the report shows it). */
void cg_cli_array_why(cg_cli_array *x, const char *line);
/* Read and flatten array x (its parameters set on its <architecture>
 * element); NULL with the messages in d. */
cg_netlist *cg_cli_array_load(const cg_cli_array *x, const char *templates,
                              cg_arch **arch, cg_diags *d);
/* The <architecture> element of the XML text with attribute name set to
 * value (replaced, or added at the end of the start tag); malloc'd, NULL
 * when the text has no <architecture> start tag.  Line numbers are kept. */
char *cg_cli_set_arch_attr(const char *text, const char *name,
                           const char *value, int vlen);

/* ---- running and the table (compare.c) ---------------------------------- */

/* Run every loop under paths on every array; print each array's rows, then
 * the comparison; write --json, --csv (each record with "arch") and the
 * report.  The exit status (0, 1, 128 + signal). */
int cg_cli_compare(const cg_cli_cmp_opts *c, const cg_cli_opts *o,
                   char *const *paths, int npaths);

/* The line an array's rows come under: "array LABEL: cost C" (with
 * --area ", area ..."), or that it was not read. */
void cg_cli_cmp_array_line(const cg_cli_array *x, FILE *out);
/* --mapping-dir DIR: array label's mappings go to DIR/LABEL (made when
 * missing); malloc'd, or NULL after "DIR/LABEL: error: ...". */
char *cg_cli_cmp_mapping_dir(const char *dir, const char *label);
/* --json, --csv and --report of every record (each with its "arch");
 * 1 when one could not be written (said), else 0. */
int cg_cli_cmp_write_reports(const cg_cli_array *arr, int n, json_t *recs,
                             const cg_cli_cmp_opts *c, const cg_cli_opts *o);

/* The (benchmark, loop) pairs of recs in their first order: an array of
 * records (the first of each pair), borrowed. */
json_t *cg_cli_cmp_kernels(const json_t *recs);
/* The record of kernel k (a record of that benchmark and loop) on array
 * label, NULL when none. */
const json_t *cg_cli_cmp_find(const json_t *recs, const json_t *k,
                              const char *label);
/* A record's string field, "-" when absent. */
const char *cg_cli_cmp_str(const json_t *rec, const char *key);
/* A record's mapped II, 0 when it did not map. */
int cg_cli_cmp_ii(const json_t *rec);
void cg_cli_cmp_table(const cg_cli_array *arr, int narr, const json_t *recs,
                      FILE *out);

/* ---- what the report sets apart (compare_chart.c) ----------------------- */

/* The lowest II an open row leaves possible ("open: II 2, 4..5" gives 2):
 * its II is only an upper bound, the least II is at least this.  0 when
 * the row's proof is not open. */
int cg_cli_cmp_open_bound(const json_t *rec);
/* A row that says what the kernel's II is: there, not open, not
 * interrupted. */
bool cg_cli_cmp_settled(const json_t *rec);

/* An array's kernels summed up for the report: the mean of 1/II is over
 * the settled kernels only (0 for one settled as not mapped), the others
 * are counted (kernels - settled), never averaged in. */
typedef struct cg_cli_cmp_sum {
    int kernels, mapped, optimal, settled;
    double mean;          /* iterations per cycle over the settled ones */
    double mean_all;      /* over all kernels: with open ones, a floor */
} cg_cli_cmp_sum;
void cg_cli_cmp_summarize(const json_t *recs, const json_t *ks,
                          const char *label, cg_cli_cmp_sum *s);
/* "benchmark/loop" of a kernel's record. */
void cg_cli_cmp_kernel_name(const json_t *k, char *buf, size_t n);
/* s with &, <, > and " escaped, for HTML text and attribute values. */
void cg_cli_html_esc(FILE *f, const char *s);

/* ---- the HTML report (compare_report.c) --------------------------------- */

/* DIR/index.html (tables and the three charts inline) and the charts as
 * DIR/ii.svg, DIR/cycles.svg, DIR/cost.svg; the folder is made when
 * missing.  0, or -1 with "DIR: error: ..." on stderr. */
int cg_cli_report(const char *dir, const cg_cli_array *arr, int narr,
                  const json_t *recs, const cg_cli_opts *o);
/* The charts alone, for the report and its tests; the arrays not read
 * are left out of them. */
void cg_cli_chart_ii(const cg_cli_array *arr, int narr, const json_t *recs,
                     FILE *out);
void cg_cli_chart_cycles(const cg_cli_array *arr, int narr,
                         const json_t *recs, FILE *out);
void cg_cli_chart_cost(const cg_cli_array *arr, int narr, const json_t *recs,
                       FILE *out);

#endif
