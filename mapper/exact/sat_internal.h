/* sat_internal.h: the exact SAT mapper (not a public header).  sat.c
 * encodes one II of a DFG on the MRRG as CNF (docs/mapper.md, "The SAT
 * mapper"); sat_cnf.c holds the clauses and hands them to CaDiCaL. */
#ifndef CG_SAT_INTERNAL_H
#define CG_SAT_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "../map.h"

/* ---- sat_cnf.c: clauses and the solver ----------------------------------- */

typedef struct cg__cnf cg__cnf;

cg__cnf *cg__cnf_create(void);
void cg__cnf_destroy(cg__cnf *c); /* accepts NULL */
/* A new variable (1, 2, ...), 0 on no memory. */
int cg__cnf_var(cg__cnf *c);
int cg__cnf_nvars(const cg__cnf *c);
long cg__cnf_nclauses(const cg__cnf *c);
/* Add the clause lits[0..n-1]. */
int cg__cnf_clause(cg__cnf *c, const int *lits, int n);
/* At most one of lits[0..n-1] (pairwise up to 4, else a sequential
 * counter: n - 1 new variables, 3n - 4 clauses). */
int cg__cnf_at_most_one(cg__cnf *c, const int *lits, int n);
/* At most k of lits[0..n-1] (Sinz's sequential counter: (n - 1) * k new
 * variables; nothing when n <= k). */
int cg__cnf_at_most_k(cg__cnf *c, const int *lits, int n, int k);
/* The clauses in DIMACS form. */
int cg__cnf_write_dimacs(const cg__cnf *c, FILE *out);

typedef enum cg__sat_answer { CG__SAT_UNKNOWN, CG__SAT_SAT,
                              CG__SAT_UNSAT } cg__sat_answer;

/* Solve the clauses added so far (those added since the last call are
 * passed on first) under the assumptions lits[0..nassume-1], with at most
 * `conflicts` conflicts (0 = no limit) and until the wall clock reaches
 * deadline (cg_clock_now() time; 0 = none).  *used: the conflicts this
 * call spent (counted by the learnt clauses, deterministic); *capped when
 * the deadline, not the conflict limit, ended it. */
cg__sat_answer cg__cnf_solve(cg__cnf *c, const int *assume, int nassume,
                             long conflicts, double deadline, long *used,
                             bool *capped);
/* After SAT: the value of var (true or false). */
bool cg__cnf_value(cg__cnf *c, int var);
/* After UNSAT: was assumption lit used in the refutation? */
bool cg__cnf_failed(cg__cnf *c, int lit);

/* ---- sat_dfg.c: what the model reads ------------------------------------- */

/* A ROUTE node a value may pass through (not an operand's pin). */
bool cg__sat_passable(const cg_mrrg *m, int i);

typedef struct cg__sat_dfg {
    int n, ne;                                /* the DFG's ops and edges */
    int *out_off, *out_ids, *in_off, *in_ids; /* edges per op, in order */
    int **cand, *ncand; /* per op: the FUNC nodes it may take, increasing;
                           with the cut, the op with the most keeps one per
                           orbit of the array's verified symmetries */
    int **units, *nunits; /* per op: the primitives of its FUNC nodes,
                           increasing, all of them (no symmetry cut) */
} cg__sat_dfg;

/* With cut, the symmetry cut above.  0, or -1 on no memory (D is then
 * freed by cg__sat_dfg_free). */
int cg__sat_dfg_init(cg__sat_dfg *D, const cg_mrrg *m, const cg_netlist *nl,
                     const cg_dfg *g, bool cut);
void cg__sat_dfg_free(cg__sat_dfg *D);

/* ---- sat.c: one II --------------------------------------------------------- */

typedef struct cg__sat_opts {
    int horizon;         /* schedule slack encoded: every op starts within
                            `horizon` cycles of its earliest start in the
                            shortest possible schedule (>= 0) */
    long conflicts;      /* work limit for the II, 0 = none */
    double timeout_s;    /* wall-clock cap (out->capped when it ends it) */
    long max_literals;   /* refuse to build a larger model (work bound on
                            memory), 0 = none */
    const char *dump_cnf; /* write the formula here (DIMACS), NULL = none */
    int wide_horizon;    /* a wider window tried first: its own model,
                            solved at once with wide of the conflicts
                            more (<= horizon: none; where the slack bound
                            leaves it no wider, one model serves both) */
    double wide;         /* that solve's share of conflicts (rounded up;
                            0 = no wider window) */
    double probe;        /* share of conflicts (rounded up) for a first
                            solve over the whole window, without the
                            horizon's assumptions: a mapping with room to
                            wait is found far sooner than every smaller
                            slack is refuted.  0 = none; 1 = that solve
                            alone (no slack-by-slack refutation after) */
    bool big;            /* a model of more than big_literals routing
                            literals gets big_conflicts, not conflicts
                            (false: every model gets conflicts) */
    long big_literals;   /* >= 0 */
    long big_conflicts;  /* 0 = none */
    bool no_parity;      /* without the parity bound (parity.c): neither
                            its clauses nor its refutation of the II, to
                            compare (every mapping keeps its relations,
                            so the II's answer is the same) */
} cg__sat_opts;

typedef struct cg__sat_out {
    cg_ii_outcome outcome;
    int horizon;         /* INFEASIBLE: the schedule slack the refutation
                            covers (-1: every slack, from the schedule's
                            recurrences alone or because the slack bound
                            says no mapping has more) */
    long literals;       /* routing literals of the last model counted
                            (the big rule's measure), 0 when none was */
    int vars;            /* of the formula */
    long clauses;
    long conflicts;      /* spent */
    int refuted;         /* TIMEOUT: the largest slack refuted before the
                            limits ended the search (-1: none) */
    bool capped;         /* TIMEOUT because of the wall clock */
    bool too_big;        /* TIMEOUT because the model passed max_literals */
    int loop_rounds;     /* solutions whose zero-delay cycles got loop
                            clauses before the answer */
    cg_mapping *mapping; /* MAPPED: owned by the caller */
} cg__sat_out;

/* One II's model and solver, kept to go on where a work limit stopped
 * it. */
typedef struct cg__sat cg__sat;

/* Encode g at m's II and solve it, widening the horizon step by step
 * (0, 1, ..., o->horizon) by assumptions.  0 with out filled, -1 on an
 * internal error (out of memory, CNF file not writable, GLPK stopped on
 * the slack bound's LPs) with an error in d.  With keep non-NULL, a search that its work limit (not the wall
 * clock) left undecided hands its model over in *keep (else NULL): m, nl
 * and g must then outlive it. */
int cg__sat_solve(const cg_mrrg *m, const cg_netlist *nl, const cg_dfg *g,
                  const cg__sat_opts *o, cg__sat_out *out, cg__sat **keep,
                  cg_diags *d);

/* Go on with S where its search stopped, with o's limits (o->conflicts
 * more, o->timeout_s from now; S keeps its own horizon), as
 * cg__sat_solve would have searched: where the slack bound leaves room
 * above S's window, the wider window's own model first (o->wide_horizon,
 * o->wide of the conflicts more) and then S from the slack it stopped
 * at; otherwise S's whole window at once with o->probe of the conflicts,
 * then that slack.  The solver keeps what it learnt.  The wider model is
 * built while S lives: two models at once.  out holds this call's
 * figures alone.  0, or -1 on no memory (in d). */
int cg__sat_continue(cg__sat *S, const cg__sat_opts *o, cg__sat_out *out,
                     cg_diags *d);

/* S (NULL: nothing) and its solver. */
void cg__sat_destroy(cg__sat *S);

#endif
