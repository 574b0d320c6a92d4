/* bound.c: a quick proof that an II is impossible -- the register bound.
 *
 * On an MRRG, a route's delay beyond its producer's latency is made of
 * edges between ROUTE nodes that carry a delay (through a Register or a
 * RegisterFile), and each such edge enters a distinct node (a route is a
 * simple path).  The routes of one value form a tree, so that tree holds at
 * least as many such "delay nodes" as the longest of its routes needs, and
 * trees of different values share no node.  Hence, for any schedule,
 *
 *   sum over values v of  max over v's edges e of
 *       ceil((start(dst) + d*II - start(src) - latency(v)) / kmax)
 *     <= the number of delay nodes of the MRRG,
 *
 * where kmax is the largest delay of such an edge (1 here).  The schedule
 * is free, so the least left side over every schedule that gives each edge
 * at least its least possible route delay (cg__heur_min_delays) is an LP:
 *
 *   minimise sum_v m_v   s.t.  s_w - s_u >= mindelay(e) - d*II,
 *                              kmax*m_u - s_w + s_u >= d*II - latmax(u)
 *
 * (a difference-constraint LP, solved by GLPK's simplex in milliseconds).
 * When its optimum exceeds the MRRG's delay nodes, or the delays cannot
 * close the recurrences, no mapping exists at this II.  On the default 4x4
 * at II=1 this proves loops whose reconvergent paths need more waiting
 * than the 16 registers allow, where the full ILP times out.
 *
 * The same rows also bound the schedule: cg__bound_slack (below) finds
 * how much longer than the shortest any mapping's schedule can be, which
 * lets a SAT refutation within that slack cover every mapping.
 */
#include <glpk.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "../model/model_internal.h"
#include "../search/heur_internal.h"
#include "../search/lp_internal.h"

/* Is node i a delay node (a ROUTE node entered from a ROUTE node by an
 * edge of delay > 0)?  *kmax rises to the largest such delay. */
static bool delay_node(const cg_mrrg *m, int i, int *kmax)
{
    if (cg_mrrg_get_node(m, i)->kind != CG_MRRG_ROUTE)
        return false;
    int n;
    bool any = false;
    const int *in = cg_mrrg_in(m, i, &n);
    for (int j = 0; j < n; j++) {
        const cg_mrrg_edge *e = cg_mrrg_get_edge(m, in[j]);
        if (e->delay > 0 &&
            cg_mrrg_get_node(m, e->from)->kind == CG_MRRG_ROUTE) {
            any = true;
            if (e->delay > *kmax)
                *kmax = e->delay;
        }
    }
    return any;
}

int cg__bound_delay_nodes(const cg_mrrg *m, int *kmax)
{
    int nn = cg_mrrg_nnodes(m), count = 0;
    *kmax = 1;
    for (int i = 0; i < nn; i++)
        count += delay_node(m, i, kmax);
    return count;
}

void cg__bound_context_delay_nodes(const cg_mrrg *m, int *per_context)
{
    int nn = cg_mrrg_nnodes(m), kmax = 1;
    for (int c = 0; c < cg_mrrg_ii(m); c++)
        per_context[c] = 0;
    for (int i = 0; i < nn; i++)
        if (delay_node(m, i, &kmax))
            per_context[cg_mrrg_get_node(m, i)->context]++;
}

/* The LP above and its answer: least_delay_nodes's arguments, for
 * cg__glpk_guard. */
typedef struct need_lp {
    const cg_dfg *g;
    int ii, kmax;
    const int *emin, *lat;
    double res; /* the optimum, or -1 when it is infeasible (the least
                   delays cannot close a recurrence at this II), -2 when
                   undecided */
} need_lp;

static int least_delay_nodes(void *arg)
{
    need_lp *L = arg;
    const cg_dfg *g = L->g;
    int n = cg_dfg_nnodes(g), ne = cg_dfg_nedges(g);
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_cols(P, 2 * n);
    for (int v = 0; v < n; v++) {
        glp_set_col_bnds(P, 1 + v, v == 0 ? GLP_FX : GLP_FR, 0, 0);
        glp_set_col_bnds(P, 1 + n + v, GLP_LO, 0, 0);
        glp_set_obj_coef(P, 1 + n + v, 1);
    }
    if (ne > 0)
        glp_add_rows(P, 2 * ne);
    for (int e = 0; e < ne; e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        double dii = (double)ed->distance * L->ii;
        int ind[4];
        double val[4];
        int k = 0;
        /* s_dst - s_src >= emin - d*II (self-loops: 0 >= emin - d*II) */
        if (ed->src != ed->dst) {
            ind[++k] = 1 + ed->dst, val[k] = 1;
            ind[++k] = 1 + ed->src, val[k] = -1;
        }
        glp_set_mat_row(P, 1 + 2 * e, k, ind, val);
        glp_set_row_bnds(P, 1 + 2 * e, GLP_LO, L->emin[e] - dii, 0);
        k = 0;
        ind[++k] = 1 + n + ed->src, val[k] = L->kmax;
        if (ed->src != ed->dst) {
            ind[++k] = 1 + ed->dst, val[k] = -1;
            ind[++k] = 1 + ed->src, val[k] = 1;
        }
        glp_set_mat_row(P, 2 + 2 * e, k, ind, val);
        glp_set_row_bnds(P, 2 + 2 * e, GLP_LO, dii - L->lat[ed->src], 0);
    }
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    sp.presolve = GLP_ON;
    int ret = glp_simplex(P, &sp);
    L->res = -2;
    if (ret == GLP_ENOPFS || (ret == 0 && glp_get_status(P) == GLP_NOFEAS))
        L->res = -1;
    else if (ret == 0 && glp_get_status(P) == GLP_OPT)
        L->res = glp_get_obj_val(P);
    glp_delete_prob(P);
    return 0;
}

int cg__bound_need(const cg_netlist *nl, const cg_mrrg *m, const cg_dfg *g,
                   double *need, int *have, cg_diags *d)
{
    int n = cg_dfg_nnodes(g), ne = cg_dfg_nedges(g), kmax;
    *have = cg__bound_delay_nodes(m, &kmax);
    *need = 0;
    if (n == 0)
        return 0;
    int *emin = malloc(sizeof(int) * ((size_t)ne + 1));
    int *lat = malloc(sizeof(int) * ((size_t)n + 1));
    int rc = 0;
    if (!emin || !lat || cg__heur_min_delays(nl, m, g, emin, lat) != 0) {
        cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "out of memory bounding '%s' "
                     "at II=%d", cg_dfg_name(g), cg_mrrg_ii(m));
        rc = -1;
    }
    for (int e = 0; rc == 0 && e < ne; e++)
        if (emin[e] >= CG__DIST_INF)
            *need = -1; /* an edge no route can carry */
    need_lp L = {g, cg_mrrg_ii(m), kmax, emin, lat, 0};
    char said[160];
    if (rc == 0 && *need == 0) {
        if (cg__glpk_guard(least_delay_nodes, &L, said, sizeof said) ==
            CG__GLPK_FAILED) {
            cg_diags_add(d, CG_SEV_ERROR, NULL, 0, "GLPK stopped on the "
                         "register bound's LP of '%s' at II=%d: %s",
                         cg_dfg_name(g), cg_mrrg_ii(m), said);
            rc = -1;
        } else {
            *need = L.res;
        }
    }
    free(emin);
    free(lat);
    return rc;
}

int cg__bound_registers(const cg_netlist *nl, const cg_mrrg *m,
                        const cg_dfg *g, cg_diags *d)
{
    double need;
    int have;
    if (cg__bound_need(nl, m, g, &need, &have, d) < 0)
        return -1;
    return need == -1 || need > have + 1e-6 ? 1 : 0;
}

/* ---- the slack bound ------------------------------------------------------ */

/* LPs of the slack bound (one per op of asap 0 and op of its part) past
 * which it bounds nothing. */
#define CG__SLACK_MAX_LPS 5000L

/* The root of v's part (union-find with path halving). */
static int part_of(int *up, int v)
{
    while (up[v] != v)
        v = up[v] = up[up[v]];
    return v;
}

/* The parts of the DFG that no precedence or edge links: comp[v] the
 * index of v's part, idx scratch (n ints); their number. */
static int parts(const cg_dfg *g, const int *prec, int np, int *comp,
                 int *idx)
{
    int n = cg_dfg_nnodes(g), ne = cg_dfg_nedges(g), k = 0;
    for (int v = 0; v < n; v++)
        idx[v] = v;
    for (int i = 0; i < np; i++)
        idx[part_of(idx, prec[3 * i])] = part_of(idx, prec[3 * i + 1]);
    for (int e = 0; e < ne; e++) {
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        idx[part_of(idx, ed->src)] = part_of(idx, ed->dst);
    }
    for (int v = 0; v < n; v++)
        comp[v] = -1;
    for (int v = 0; v < n; v++) {
        int r = part_of(idx, v);
        if (comp[r] < 0)
            comp[r] = k++;
        comp[v] = comp[r];
    }
    return k;
}

/* The slack bound's LPs: cg__bound_slack's arguments, scratch and
 * answer, for cg__glpk_guard. */
typedef struct slack_lps {
    const cg_dfg *g;
    int ii, np, kmax, have;
    const int *prec, *asap, *tail, *lat, *comp;
    int *ind;     /* scratch, n + 4 */
    double *val;  /* scratch, n + 4 */
    double most;  /* the largest start(v) + tail(v) */
    int rc;       /* 0, or 1 when some LP is unbounded or undecided */
} slack_lps;

/* The LP of the slack bound: columns s_0..s_{n-1} (start >= asap),
 * m_0..m_{n-1} (delay nodes of each value); rows the precedences, each
 * DFG edge's delay nodes, and their sum at most have. */
static glp_prob *slack_lp(const slack_lps *L)
{
    const cg_dfg *g = L->g;
    int n = cg_dfg_nnodes(g), ne = cg_dfg_nedges(g);
    int *ind = L->ind;
    double *val = L->val;
    glp_prob *P = glp_create_prob();
    glp_add_cols(P, 2 * n);
    for (int v = 0; v < n; v++) {
        glp_set_col_bnds(P, 1 + v, GLP_LO, L->asap[v], 0);
        glp_set_col_bnds(P, 1 + n + v, GLP_LO, 0, 0);
    }
    for (int i = 0; i < L->np; i++) { /* s_b - s_a >= w */
        int a = L->prec[3 * i], b = L->prec[3 * i + 1];
        if (a == b)
            continue; /* a recurrence of one op: the caller checked it */
        int r = glp_add_rows(P, 1);
        ind[1] = 1 + b, val[1] = 1;
        ind[2] = 1 + a, val[2] = -1;
        glp_set_mat_row(P, r, 2, ind, val);
        glp_set_row_bnds(P, r, GLP_LO, L->prec[3 * i + 2], 0);
    }
    for (int e = 0; e < ne; e++) { /* kmax m_u - s_w + s_u >= d II - lat */
        const cg_dfg_edge *ed = cg_dfg_get_edge(g, e);
        int r = glp_add_rows(P, 1), j = 0;
        ind[++j] = 1 + n + ed->src, val[j] = L->kmax;
        if (ed->src != ed->dst) {
            ind[++j] = 1 + ed->dst, val[j] = -1;
            ind[++j] = 1 + ed->src, val[j] = 1;
        }
        glp_set_mat_row(P, r, j, ind, val);
        glp_set_row_bnds(P, r, GLP_LO,
                         (double)ed->distance * L->ii - L->lat[ed->src], 0);
    }
    int r = glp_add_rows(P, 1); /* sum m_u <= have */
    for (int v = 0; v < n; v++)
        ind[v + 1] = 1 + n + v, val[v + 1] = 1;
    glp_set_mat_row(P, r, n, ind, val);
    glp_set_row_bnds(P, r, GLP_UP, 0, L->have);
    return P;
}

/* Every LP of the slack bound: L->most and L->rc. */
static int slack_solve(void *arg)
{
    slack_lps *L = arg;
    int n = cg_dfg_nnodes(L->g);
    glp_prob *P = slack_lp(L);
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    glp_set_obj_dir(P, GLP_MAX);
    L->most = -1e300;
    L->rc = 0;
    /* the least of start(u) - asap(u) over a part is taken at an op of
       asap 0 (follow the precedence that set an asap back); put it at 0 */
    for (int a = 0; a < n && L->rc == 0; a++) {
        if (L->asap[a] != 0)
            continue;
        glp_set_col_bnds(P, 1 + a, GLP_FX, 0, 0);
        for (int v = 0; v < n && L->rc == 0; v++) {
            if (L->comp[v] != L->comp[a])
                continue;
            glp_set_obj_coef(P, 1 + v, 1);
            int ret = glp_simplex(P, &sp);
            int st = ret == 0 ? glp_get_status(P) : GLP_UNDEF;
            if (st == GLP_OPT && glp_get_obj_val(P) + L->tail[v] > L->most)
                L->most = glp_get_obj_val(P) + L->tail[v];
            else if (st != GLP_OPT && st != GLP_NOFEAS)
                L->rc = 1; /* unbounded or undecided */
            glp_set_obj_coef(P, 1 + v, 0);
        }
        glp_set_col_bnds(P, 1 + a, GLP_LO, 0, 0);
    }
    glp_delete_prob(P);
    return 0;
}

int cg__bound_slack(const cg_dfg *g, int ii, const int *prec, int np,
                    const int *asap, const int *tail, int s0,
                    const int *lat, int kmax, int have, int *slack,
                    char *said, size_t nsaid)
{
    int n = cg_dfg_nnodes(g);
    int *comp = malloc(sizeof(int) * (2 * (size_t)n + 1));
    if (!comp)
        return -1;
    int k = parts(g, prec, np, comp, comp + n);
    long lps = 0;
    for (int a = 0; a < n; a++)
        for (int v = 0; asap[a] == 0 && v < n; v++)
            lps += comp[v] == comp[a];
    if (lps > CG__SLACK_MAX_LPS) {
        free(comp);
        return 1;
    }
    slack_lps L = {.g = g, .ii = ii, .np = np, .kmax = kmax, .have = have,
                   .prec = prec, .asap = asap, .tail = tail, .lat = lat,
                   .comp = comp,
                   .ind = malloc(sizeof(int) * ((size_t)n + 4)),
                   .val = malloc(sizeof(double) * ((size_t)n + 4))};
    int rc = -1; /* no memory */
    if (L.ind && L.val)
        rc = cg__glpk_guard(slack_solve, &L, said, nsaid) == CG__GLPK_FAILED
                 ? -2
                 : L.rc;
    free(L.ind);
    free(L.val);
    free(comp);
    if (rc == 0) {
        /* one part starts at its asap; another may start up to II - 1
           later (shifting a part by II is the same mapping) */
        double b = L.most < -1e299 ? 0
                                   : floor(L.most - s0 +
                                           (k > 1 ? ii - 1 : 0) + 1e-6);
        *slack = b < 0 ? 0 : b > INT_MAX ? INT_MAX : (int)b;
    }
    return rc;
}
