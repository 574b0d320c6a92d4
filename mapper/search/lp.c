/* lp.c: a growable LP/MIP model in memory, handed to GLPK whole.
 *
 * The formulation (ilp.c) adds columns and rows as it discovers them and
 * may name a column twice in one row (a self-loop's producer and consumer
 * are the same op); GLPK's glp_load_matrix rejects duplicates, so entries
 * are merged here and zero entries dropped when the matrix is loaded.
 * The clustering's region ILP (cluster.c) adds columns bounded only
 * below (an infinite upper bound) and enters a new column in an earlier
 * row (its supply row) as well as in the row being built.
 */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/util.h"
#include "lp_internal.h"

void cg__lp_init(cg__lp *lp) { memset(lp, 0, sizeof *lp); }

void cg__lp_free(cg__lp *lp)
{
    free(lp->ckind);
    free(lp->clb);
    free(lp->cub);
    free(lp->cobj);
    free(lp->stamp);
    free(lp->pos);
    free(lp->rtype);
    free(lp->rlb);
    free(lp->rub);
    free(lp->ia);
    free(lp->ja);
    free(lp->ar);
    memset(lp, 0, sizeof *lp);
}

int cg__lp_col(cg__lp *lp, int kind, double lb, double ub, double obj)
{
    int j = ++lp->ncols; /* GLPK columns are 1-based */
    int c1 = lp->ccap, c2 = lp->ccap, c3 = lp->ccap, c4 = lp->ccap,
        c5 = lp->ccap, c6 = lp->ccap;
    if (CG_GROW(lp->ckind, c1, j + 1) ||
        CG_GROW(lp->clb, c2, j + 1) ||
        CG_GROW(lp->cub, c3, j + 1) ||
        CG_GROW(lp->cobj, c4, j + 1) ||
        CG_GROW(lp->stamp, c5, j + 1) ||
        CG_GROW(lp->pos, c6, j + 1)) {
        lp->oom = true;
        lp->ncols--;
        return 0;
    }
    lp->ccap = c1;
    lp->ckind[j] = kind;
    lp->clb[j] = lb;
    lp->cub[j] = ub;
    lp->cobj[j] = obj;
    lp->stamp[j] = 0;
    return j;
}

int cg__lp_row(cg__lp *lp, int type, double lb, double ub)
{
    int i = ++lp->nrows;
    int c1 = lp->rcap, c2 = lp->rcap, c3 = lp->rcap;
    if (CG_GROW(lp->rtype, c1, i + 1) ||
        CG_GROW(lp->rlb, c2, i + 1) ||
        CG_GROW(lp->rub, c3, i + 1)) {
        lp->oom = true;
        lp->nrows--;
        return 0;
    }
    lp->rcap = c1;
    lp->rtype[i] = type;
    lp->rlb[i] = lb;
    lp->rub[i] = ub;
    return i;
}

void cg__lp_coef(cg__lp *lp, int row, int col, double v)
{
    if (row <= 0 || col <= 0 || lp->oom)
        return;
    if (lp->stamp[col] == row) { /* already in this row: merge */
        lp->ar[lp->pos[col]] += v;
        return;
    }
    int k = ++lp->nt;
    int c1 = lp->tcap, c2 = lp->tcap, c3 = lp->tcap;
    if (CG_GROW(lp->ia, c1, k + 1) ||
        CG_GROW(lp->ja, c2, k + 1) ||
        CG_GROW(lp->ar, c3, k + 1)) {
        lp->oom = true;
        lp->nt--;
        return;
    }
    lp->tcap = c1;
    lp->ia[k] = row;
    lp->ja[k] = col;
    lp->ar[k] = v;
    lp->stamp[col] = row;
    lp->pos[col] = k;
}

/* A column's bound type: an infinite bound is none. */
static int col_type(double lb, double ub)
{
    if (lb == ub)
        return GLP_FX;
    if (isinf(lb))
        return isinf(ub) ? GLP_FR : GLP_UP;
    return isinf(ub) ? GLP_LO : GLP_DB;
}

static void set_col(glp_prob *P, const cg__lp *lp, int j)
{
    double lb = lp->clb[j], ub = lp->cub[j];
    glp_set_col_kind(P, j, lp->ckind[j]);
    glp_set_col_bnds(P, j, col_type(lb, ub), isinf(lb) ? 0 : lb,
                     isinf(ub) ? 0 : ub);
    glp_set_obj_coef(P, j, lp->cobj[j]);
}

glp_prob *cg__lp_to_glpk(cg__lp *lp, int *nonzeros)
{
    /* Rows are added in order, so a column seen again in a later row has
     * a stale stamp; compact zeros out first. */
    int nz = 0;
    for (int k = 1; k <= lp->nt; k++)
        if (lp->ar[k] != 0.0) {
            nz++;
            lp->ia[nz] = lp->ia[k];
            lp->ja[nz] = lp->ja[k];
            lp->ar[nz] = lp->ar[k];
        }
    lp->nt = nz;
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    if (lp->nrows)
        glp_add_rows(P, lp->nrows);
    if (lp->ncols)
        glp_add_cols(P, lp->ncols);
    for (int i = 1; i <= lp->nrows; i++)
        glp_set_row_bnds(P, i, lp->rtype[i], lp->rlb[i], lp->rub[i]);
    for (int j = 1; j <= lp->ncols; j++)
        set_col(P, lp, j);
    if (nz)
        glp_load_matrix(P, nz, lp->ia, lp->ja, lp->ar);
    *nonzeros = nz;
    return P;
}

/* ---- GLPK under a guard --------------------------------------------------- */

typedef struct guard {
    jmp_buf jb;
    char *said;
    size_t n;
} guard;

/* GLPK's error hook: back to cg__glpk_guard's setjmp (the hook may not
 * return). */
static void glpk_failed(void *info)
{
    longjmp(((guard *)info)->jb, 1);
}

/* GLPK's terminal hook: what it would print (its error message, which it
 * prints even with glp_term_out off) is kept up to the first line's end,
 * not printed: the library never prints. */
static int glpk_said(void *info, const char *s)
{
    guard *G = info;
    size_t k = strlen(G->said);
    if (k > 0 && G->said[k - 1] == '\n')
        return 1; /* the first line is whole */
    size_t len = strcspn(s, "\n");
    if (s[len] == '\n')
        len++;
    snprintf(G->said + k, G->n - k, "%.*s", (int)len, s);
    return 1;
}

int cg__glpk_guard(int (*fn)(void *arg), void *arg, char *said, size_t n)
{
    /* G is set before setjmp and not after, so the jump leaves it as it
       was (a local changed in between would be indeterminate there) */
    guard G = {.said = said, .n = n};
    said[0] = '\0';
    int old = glp_term_out(GLP_OFF);
    glp_term_hook(glpk_said, &G);
    if (setjmp(G.jb) == 0) {
        glp_error_hook(glpk_failed, &G);
        int rc = fn(arg);
        said[0] = '\0'; /* whatever GLPK printed: no error */
        glp_error_hook(NULL, NULL);
        glp_term_hook(NULL, NULL);
        glp_term_out(old);
        return rc;
    }
    /* GLPK starts afresh at its next call, with no hooks and its output
       on: no GLPK call here, which would make the new environment now,
       when memory may have run out */
    glp_free_env();
    size_t k = strlen(said);
    if (k > 0 && said[k - 1] == '\n')
        said[k - 1] = '\0';
    if (k == 0)
        snprintf(said, n, "no reason given");
    return CG__GLPK_FAILED;
}
