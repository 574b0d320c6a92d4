/* ilp_cbc.c: solve a GLPK problem's MIP with CBC (COIN-OR Branch and Cut).
 *
 * ilp.c builds one model, as a glp_prob, for both solvers; this file only
 * copies it into CBC (columns in compressed sparse form, bounds, integer
 * marks, objective) and runs CBC's branch and cut.  What the solution means
 * (routes, ghost cycles) stays in ilp.c.  CBC proved impossible IIs that
 * GLPK timed out on (docs/mapper.md, "Solvers"), which is why it is here.
 */
#include <Cbc_C_Interface.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "ilp_internal.h"

/* GLPK bounds of one row or column as CBC's [lo, hi]. */
static void bounds(int type, double lb, double ub, double *lo, double *hi)
{
    *lo = type == GLP_FR || type == GLP_UP ? -DBL_MAX : lb;
    *hi = type == GLP_FR || type == GLP_LO ? DBL_MAX : ub;
}

typedef struct csc {
    int *start, *index;
    double *value, *clo, *chi, *obj, *rlo, *rhi;
} csc;

static void csc_free(csc *c)
{
    free(c->start);
    free(c->index);
    free(c->value);
    free(c->clo);
    free(c->chi);
    free(c->obj);
    free(c->rlo);
    free(c->rhi);
}

/* P's matrix by columns, 0-based, and its bounds; -1 on no memory. */
static int csc_fill(glp_prob *P, csc *c)
{
    int n = glp_get_num_cols(P), m = glp_get_num_rows(P);
    int nz = glp_get_num_nz(P);
    int *ind = malloc(sizeof(int) * ((size_t)m + 1));
    double *val = malloc(sizeof(double) * ((size_t)m + 1));
    c->start = malloc(sizeof(int) * ((size_t)n + 1));
    c->index = malloc(sizeof(int) * ((size_t)nz + 1));
    c->value = malloc(sizeof(double) * ((size_t)nz + 1));
    c->clo = malloc(sizeof(double) * ((size_t)n + 1));
    c->chi = malloc(sizeof(double) * ((size_t)n + 1));
    c->obj = malloc(sizeof(double) * ((size_t)n + 1));
    c->rlo = malloc(sizeof(double) * ((size_t)m + 1));
    c->rhi = malloc(sizeof(double) * ((size_t)m + 1));
    int rc = -1;
    if (!ind || !val || !c->start || !c->index || !c->value || !c->clo ||
        !c->chi || !c->obj || !c->rlo || !c->rhi)
        goto out;
    int k = 0;
    for (int j = 1; j <= n; j++) {
        c->start[j - 1] = k;
        int len = glp_get_mat_col(P, j, ind, val);
        for (int t = 1; t <= len; t++, k++) {
            c->index[k] = ind[t] - 1;
            c->value[k] = val[t];
        }
        bounds(glp_get_col_type(P, j), glp_get_col_lb(P, j),
               glp_get_col_ub(P, j), &c->clo[j - 1], &c->chi[j - 1]);
        c->obj[j - 1] = glp_get_obj_coef(P, j);
    }
    c->start[n] = k;
    for (int i = 1; i <= m; i++)
        bounds(glp_get_row_type(P, i), glp_get_row_lb(P, i),
               glp_get_row_ub(P, i), &c->rlo[i - 1], &c->rhi[i - 1]);
    rc = 0;
out:
    free(ind);
    free(val);
    return rc;
}

/* A CBC model of P; NULL on no memory. */
static Cbc_Model *load(glp_prob *P)
{
    csc c = {0};
    Cbc_Model *cm = NULL;
    if (csc_fill(P, &c) == 0 && (cm = Cbc_newModel()) != NULL) {
        int n = glp_get_num_cols(P);
        Cbc_loadProblem(cm, n, glp_get_num_rows(P), c.start, c.index,
                        c.value, c.clo, c.chi, c.obj, c.rlo, c.rhi);
        for (int j = 1; j <= n; j++)
            if (glp_get_col_kind(P, j) != GLP_CV)
                Cbc_setInteger(cm, j - 1);
    }
    csc_free(&c);
    return cm;
}

int cg__cbc_solve(glp_prob *P, double seconds, int nodes,
                  cg_ii_outcome *outcome, bool *capped, double **x)
{
    *x = NULL;
    *outcome = CG_II_TIMEOUT;
    *capped = false;
    Cbc_Model *cm = load(P);
    if (!cm)
        return -1;
    char sec[32];
    snprintf(sec, sizeof sec, "%.3f", seconds > 0.01 ? seconds : 0.01);
    Cbc_setLogLevel(cm, 0);
    /* the limit is wall time, like GLPK's, not CBC's default CPU time */
    Cbc_setParameter(cm, "timeMode", "elapsed");
    Cbc_setParameter(cm, "sec", sec);
    Cbc_setParameter(cm, "threads", "1"); /* reproducible runs */
    /* any feasible mapping will do: stop at the first */
    Cbc_setMaximumSolutions(cm, 1);
    if (nodes > 0)
        Cbc_setMaximumNodes(cm, nodes);
    Cbc_solve(cm);
    *capped = Cbc_isSecondsLimitReached(cm) != 0;
    int rc = 0;
    const double *best = Cbc_bestSolution(cm);
    int n = glp_get_num_cols(P);
    if (best) {
        *x = malloc(sizeof(double) * ((size_t)n + 1));
        if (*x) {
            (*x)[0] = 0;
            for (int j = 0; j < n; j++)
                (*x)[j + 1] = best[j];
            *outcome = CG_II_MAPPED;
        } else {
            rc = -1;
        }
    } else if (Cbc_isProvenInfeasible(cm) && !Cbc_isSecondsLimitReached(cm)) {
        *outcome = CG_II_INFEASIBLE;
    }
    Cbc_deleteModel(cm);
    return rc;
}
