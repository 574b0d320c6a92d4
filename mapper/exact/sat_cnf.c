/* sat_cnf.c: a CNF formula and CaDiCaL (Debian's libcadical-dev, through
 * its C header ccadical.h).  The clauses are kept here as well as in the
 * solver so that --dump-cnf writes exactly what was solved; they reach
 * the solver at the next solve.
 *
 * Effort is counted in conflicts, which CaDiCaL spends the same way on
 * every machine: each solve gets a conflict limit ("conflicts"), and the
 * conflicts spent are counted through the learnt-clause callback, since
 * the C API reports no conflict count.  That count is not CaDiCaL's
 * own: the callback sees fewer clauses than the conflicts the limit
 * counts (a limit of 1,000 ended one solve at 740 learnt clauses), but
 * like them it is the same on every machine.  The wall clock only caps
 * a run, through the terminate callback. */
#include <ccadical.h>
#include <limits.h>
#include <stdlib.h>

#include "../../common/util.h"
#include "sat_internal.h"

struct cg__cnf {
    int nvars;
    long nclauses;
    int *lits;          /* clauses, each ended by 0 */
    long nlits, cap;
    long passed;        /* lits already given to the solver */
    bool oom;
    CCaDiCaL *s;
    long learnt;        /* learnt clauses seen by the callback */
    double deadline;
    bool stopped;       /* the terminate callback said stop */
};

cg__cnf *cg__cnf_create(void)
{
    cg__cnf *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->s = ccadical_init();
    if (!c->s) {
        free(c);
        return NULL;
    }
    /* a library prints nothing: CaDiCaL would write "c found falsified
       original clause" to stdout for a formula refuted as it is added */
    ccadical_set_option(c->s, "quiet", 1);
    return c;
}

void cg__cnf_destroy(cg__cnf *c)
{
    if (!c)
        return;
    ccadical_release(c->s);
    free(c->lits);
    free(c);
}

int cg__cnf_var(cg__cnf *c)
{
    if (c->nvars == INT_MAX) {
        c->oom = true;
        return 0;
    }
    return ++c->nvars;
}

int cg__cnf_nvars(const cg__cnf *c)
{
    return c->nvars;
}

long cg__cnf_nclauses(const cg__cnf *c)
{
    return c->nclauses;
}

/* Add a literal of the clause being built; 0 ends it (IPASIR style).
 * -1 on no memory (the formula is then void). */
static int cnf_add(cg__cnf *c, int lit)
{
    if (c->oom)
        return -1;
    if (c->nlits == c->cap) {
        long cap = c->cap ? c->cap * 2 : 4096;
        int *p = realloc(c->lits, (size_t)cap * sizeof *p);
        if (!p) {
            c->oom = true;
            return -1;
        }
        c->lits = p;
        c->cap = cap;
    }
    c->lits[c->nlits++] = lit;
    if (lit == 0)
        c->nclauses++;
    return 0;
}

int cg__cnf_clause(cg__cnf *c, const int *lits, int n)
{
    for (int i = 0; i < n; i++)
        cnf_add(c, lits[i]);
    return cnf_add(c, 0);
}

int cg__cnf_at_most_one(cg__cnf *c, const int *lits, int n)
{
    if (n <= 4) {
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                cg__cnf_clause(c, (int[]){-lits[i], -lits[j]}, 2);
        return c->oom ? -1 : 0;
    }
    /* Sinz's sequential counter: s_i = "one of lits[0..i] is true". */
    int prev = 0;
    for (int i = 0; i < n; i++) {
        int s = i < n - 1 ? cg__cnf_var(c) : 0;
        if (s)
            cg__cnf_clause(c, (int[]){-lits[i], s}, 2);
        if (prev) {
            cg__cnf_clause(c, (int[]){-lits[i], -prev}, 2);
            if (s)
                cg__cnf_clause(c, (int[]){-prev, s}, 2);
        }
        prev = s;
    }
    return c->oom ? -1 : 0;
}

int cg__cnf_at_most_k(cg__cnf *c, const int *lits, int n, int k)
{
    if (n <= k)
        return 0;
    if (k == 0) {
        for (int i = 0; i < n; i++)
            cg__cnf_clause(c, (int[]){-lits[i]}, 1);
        return c->oom ? -1 : 0;
    }
    /* s[i][j] (j < k): at least j + 1 of lits[0..i] are true; row i - 1
       is prev, row i cur */
    int *prev = malloc(sizeof(int) * (size_t)k * 2);
    if (!prev)
        return -1;
    int *cur = prev + k;
    for (int i = 0; i < n - 1; i++) {
        for (int j = 0; j < k; j++) {
            cur[j] = cg__cnf_var(c);
            if (j == 0)
                cg__cnf_clause(c, (int[]){-lits[i], cur[0]}, 2);
            if (i > 0) {
                cg__cnf_clause(c, (int[]){-prev[j], cur[j]}, 2);
                if (j > 0)
                    cg__cnf_clause(c, (int[]){-lits[i], -prev[j - 1],
                                              cur[j]}, 3);
            } else if (j > 0) {
                cg__cnf_clause(c, (int[]){-cur[j]}, 1);
            }
        }
        if (i > 0)
            cg__cnf_clause(c, (int[]){-lits[i], -prev[k - 1]}, 2);
        int *t = prev;
        prev = cur;
        cur = t;
    }
    cg__cnf_clause(c, (int[]){-lits[n - 1], -prev[k - 1]}, 2);
    free(prev < cur ? prev : cur);
    return c->oom ? -1 : 0;
}

int cg__cnf_write_dimacs(const cg__cnf *c, FILE *out)
{
    fprintf(out, "p cnf %d %ld\n", c->nvars, c->nclauses);
    for (long i = 0; i < c->nlits; i++)
        fprintf(out, c->lits[i] ? "%d " : "0\n", c->lits[i]);
    return ferror(out) ? -1 : 0;
}

static void on_learn(void *state, int *clause)
{
    (void)clause;
    ((cg__cnf *)state)->learnt++;
}

static int on_terminate(void *state)
{
    cg__cnf *c = state;
    if (c->deadline > 0 && cg_clock_now() >= c->deadline)
        c->stopped = true;
    return c->stopped;
}

cg__sat_answer cg__cnf_solve(cg__cnf *c, const int *assume, int nassume,
                             long conflicts, double deadline, long *used,
                             bool *capped)
{
    *used = 0;
    *capped = false;
    if (c->oom)
        return CG__SAT_UNKNOWN;
    for (; c->passed < c->nlits; c->passed++)
        ccadical_add(c->s, c->lits[c->passed]);
    for (int i = 0; i < nassume; i++)
        ccadical_assume(c->s, assume[i]);
    c->deadline = deadline;
    c->stopped = false;
    ccadical_set_terminate(c->s, c, on_terminate);
    ccadical_set_learn(c->s, c, INT_MAX, on_learn);
    if (conflicts > 0)
        ccadical_limit(c->s, "conflicts",
                       conflicts > INT_MAX ? INT_MAX : (int)conflicts);
    long before = c->learnt;
    int r = ccadical_solve(c->s);
    *used = c->learnt - before;
    *capped = r == 0 && c->stopped;
    return r == 10 ? CG__SAT_SAT : r == 20 ? CG__SAT_UNSAT : CG__SAT_UNKNOWN;
}

bool cg__cnf_value(cg__cnf *c, int var)
{
    return ccadical_val(c->s, var) > 0;
}

bool cg__cnf_failed(cg__cnf *c, int lit)
{
    return ccadical_failed(c->s, lit) != 0;
}
