/* lp_internal.h: a growable LP/MIP model in memory, handed to GLPK whole,
 * and the guard every GLPK solve of the mapper runs under (lp.c; not a
 * public header).  The mapper's one GLPK model builder: the exact ILP
 * (exact/ilp.c) and the clustering's region ILP (cluster.c) fill it.  It
 * lives in search/, the lower of the two rooms that use it. */
#ifndef CG_LP_INTERNAL_H
#define CG_LP_INTERNAL_H

#include <glpk.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct cg__lp {
    int ncols, ccap;
    int *ckind;            /* GLP_CV or GLP_IV, 1-based */
    double *clb, *cub, *cobj;
    int *stamp, *pos;      /* last row a column appeared in, its entry */
    int nrows, rcap;
    int *rtype;            /* GLP_FX, GLP_UP, ... */
    double *rlb, *rub;
    int nt, tcap;          /* matrix entries, 1-based triplets */
    int *ia, *ja;
    double *ar;
    bool oom;              /* an allocation failed; the model is void */
} cg__lp;

void cg__lp_init(cg__lp *lp);
void cg__lp_free(cg__lp *lp);
/* New column (1-based id), 0 on no memory (lp->oom set).  Bounds lb <=
 * x <= ub; -INFINITY or INFINITY (math.h) for none on that side: lb 0
 * and ub INFINITY is a column bounded only below. */
int cg__lp_col(cg__lp *lp, int kind, double lb, double ub, double obj);
/* New row of GLPK type `type` (GLP_FX, GLP_UP, GLP_LO, ...): GLPK reads
 * only the bounds the type names. */
int cg__lp_row(cg__lp *lp, int type, double lb, double ub);
/* Add v to entry (row, col).  Naming (row, col) again merges the two
 * only when col has no entry in another row between them, as in the row
 * being built; an earlier row may get an entry of a column that has none
 * in it yet (GLPK refuses a pair named twice). */
void cg__lp_coef(cg__lp *lp, int row, int col, double v);
/* The model as a GLPK problem (minimise); *nonzeros set. */
glp_prob *cg__lp_to_glpk(cg__lp *lp, int *nonzeros);

/* GLPK under a guard.  GLPK ends the process on an error (no memory
 * above all: sha256's ILP reached 1.7 GB) unless its error hook jumps out
 * of it.  cg__glpk_guard runs fn(arg) with GLPK's terminal output off and
 * what it prints kept, not printed, and with its error hook set.  On a
 * GLPK error, GLPK's environment is freed (every GLPK object of the
 * thread with it: the caller holds none across the call), said (n > 0
 * bytes) gets the first line GLPK printed ("no reason given" when none)
 * and the result is CG__GLPK_FAILED; else said is "" and the result is
 * fn's.  The jump skips fn's own frees: fn keeps what it allocates where
 * its caller frees it.  Not caught: a failure to make GLPK's environment
 * itself (the thread's first GLPK call, or the first after an error),
 * which GLPK ends the process on before any hook is set. */
#define CG__GLPK_FAILED (-1000)
int cg__glpk_guard(int (*fn)(void *arg), void *arg, char *said, size_t n);

#endif
