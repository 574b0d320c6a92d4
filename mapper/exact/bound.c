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
 */
#include <glpk.h>
#include <stdlib.h>

#include "../model/model_internal.h"
#include "../search/heur_internal.h"

/* Delay nodes of the MRRG and the largest delay entering one. */
static int delay_nodes(const cg_mrrg *m, int *kmax)
{
    int nn = cg_mrrg_nnodes(m), count = 0;
    *kmax = 1;
    for (int i = 0; i < nn; i++) {
        if (cg_mrrg_get_node(m, i)->kind != CG_MRRG_ROUTE)
            continue;
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
        count += any;
    }
    return count;
}

/* The LP above; its optimum, or -1 when it is infeasible (the least
 * delays cannot close a recurrence at this II), -2 when undecided. */
static double least_delay_nodes(const cg_dfg *g, int ii, const int *emin,
                                const int *lat, int kmax)
{
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
        double dii = (double)ed->distance * ii;
        int ind[4];
        double val[4];
        int k = 0;
        /* s_dst - s_src >= emin - d*II (self-loops: 0 >= emin - d*II) */
        if (ed->src != ed->dst) {
            ind[++k] = 1 + ed->dst, val[k] = 1;
            ind[++k] = 1 + ed->src, val[k] = -1;
        }
        glp_set_mat_row(P, 1 + 2 * e, k, ind, val);
        glp_set_row_bnds(P, 1 + 2 * e, GLP_LO, emin[e] - dii, 0);
        k = 0;
        ind[++k] = 1 + n + ed->src, val[k] = kmax;
        if (ed->src != ed->dst) {
            ind[++k] = 1 + ed->dst, val[k] = -1;
            ind[++k] = 1 + ed->src, val[k] = 1;
        }
        glp_set_mat_row(P, 2 + 2 * e, k, ind, val);
        glp_set_row_bnds(P, 2 + 2 * e, GLP_LO, dii - lat[ed->src], 0);
    }
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    sp.presolve = GLP_ON;
    int ret = glp_simplex(P, &sp);
    double res = -2;
    if (ret == GLP_ENOPFS || (ret == 0 && glp_get_status(P) == GLP_NOFEAS))
        res = -1;
    else if (ret == 0 && glp_get_status(P) == GLP_OPT)
        res = glp_get_obj_val(P);
    glp_delete_prob(P);
    return res;
}

int cg__bound_registers(const cg_netlist *nl, const cg_mrrg *m,
                        const cg_dfg *g)
{
    int n = cg_dfg_nnodes(g), ne = cg_dfg_nedges(g);
    if (n == 0)
        return 0;
    int *emin = malloc(sizeof(int) * ((size_t)ne + 1));
    int *lat = malloc(sizeof(int) * ((size_t)n + 1));
    int rc = -1;
    if (emin && lat && cg__heur_min_delays(nl, m, g, emin, lat) == 0) {
        rc = 0;
        for (int e = 0; e < ne; e++)
            if (emin[e] >= CG__DIST_INF)
                rc = 1; /* an edge no route can carry */
        int kmax;
        int have = delay_nodes(m, &kmax);
        int old = glp_term_out(GLP_OFF);
        double need = rc ? 0 : least_delay_nodes(g, cg_mrrg_ii(m), emin,
                                                 lat, kmax);
        glp_term_out(old);
        if (rc == 0 && (need == -1 || need > have + 1e-6))
            rc = 1;
    }
    free(emin);
    free(lat);
    return rc;
}
