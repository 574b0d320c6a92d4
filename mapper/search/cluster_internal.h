/* cluster_internal.h: clustering of large DFGs before detailed placement
 * (not a public header).
 *
 * cg__cluster_place() splits a DFG into clusters of densely connected ops
 * (METIS k-way, minimum edge cut) and gives each cluster a region of the
 * array, a rectangle of grid cells (1 or 2 x 1 or 2 tiles of a tiling of
 * the grid), chosen by a small ILP (GLPK) that keeps clusters exchanging
 * many values close together while every region holds, per op class,
 * enough units x II slots for its clusters.
 * A detailed placer then keeps each op inside (or near) its cluster's
 * region: cg__cluster_allowed() lists the primitives each op may use.
 * docs/mapper.md, "Clustering large DFGs", states every rule.
 */
#ifndef CG_CLUSTER_INTERNAL_H
#define CG_CLUSTER_INTERNAL_H

#include <stdbool.h>

#include "../map.h"

/* Parameters; fill with cg__cluster_params_init(), then change fields. */
typedef struct cg__cluster_params {
    int threshold;       /* DFGs of at most this many nodes form one
                            cluster on the whole array
                            (cg_map_params.cluster_threshold) */
    int nclusters;       /* clusters wanted, 0 = ceil(nodes / target_ops)
                            (default 0); at least 2 above the threshold */
    unsigned seed;       /* METIS's random seed (cg_map_params.seed) */
    cg_map_cluster_params w; /* target_ops, METIS's options, the ILP's
                            limits (map.h; halo is cg__cluster_allowed's) */
} cg__cluster_params;

/* The mapper's defaults (cg_map_params_init) and nclusters 0. */
void cg__cluster_params_init(cg__cluster_params *p);
/* p's threshold, seed and numbers, nclusters 0. */
void cg__cluster_params_from(const cg_map_params *p, cg__cluster_params *out);

/* A rectangle of grid cells, bounds included. */
typedef struct cg__region {
    int row0, col0, row1, col1;
} cg__region;

typedef enum cg__cluster_status {
    CG__CLUSTER_PLACED, /* every cluster has a region that holds its ops */
    CG__CLUSTER_NO_FIT, /* the whole array lacks units x II slots for the
                           DFG's ops (II below the resource MII): nothing
                           to place at this II */
    CG__CLUSTER_LIMIT   /* the node limit or time cap stopped every ILP,
                           down to the whole array, before a placement */
} cg__cluster_status;

/* The result; caller-owned, free with cg__cluster_out_free(). */
typedef struct cg__cluster_out {
    cg__cluster_status status;
    int nnodes;           /* DFG nodes */
    int nclusters;        /* clusters, numbered in the order of their
                             lowest node id */
    int *cluster;         /* per DFG node: its cluster */
    cg__region *region;   /* per cluster: its region (PLACED only); regions
                             of clusters sharing tiles may overlap */
    int tile_rows, tile_cols; /* the tiling of the grid the regions come
                             from (1 x 1: every region is the whole array) */
    int cut;              /* DFG edges between different clusters */
    double cost;          /* sum over those edges of the Manhattan
                             distance between the centres of the two
                             clusters' regions, in grid cells (the ILP
                             also weighs each region's size) */
    int ilp_nodes;        /* branch-and-bound nodes of every ILP solved */
    bool node_limit_hit;  /* an ILP stopped at w.ilp_nodes: its best
                             placement was used (or, with none, a coarser
                             tiling); deterministic */
    bool time_cap_hit;    /* the wall-clock cap stopped an ILP: the result
                             may differ on another machine (also warned) */
} cg__cluster_out;

/* Cluster g and place the clusters for II ii on nl.  0 with out filled
 * (any status); -1 with an error in d on bad input (ii < 1,
 * bad params, a node no unit can run, a unit without a grid position or
 * outside the grid when the DFG needs several regions), no memory, or
 * GLPK stopped on the region ILP (cg__glpk_guard).
 * The same nl, g, ii and params give the same out unless time_cap_hit. */
int cg__cluster_place(const cg_netlist *nl, const cg_dfg *g, int ii,
                      const cg__cluster_params *p, cg__cluster_out *out,
                      cg_diags *d);
void cg__cluster_out_free(cg__cluster_out *out); /* accepts zeroed out */

/* Primitives per DFG node, in compressed rows: node v may use
 * ids[off[v]] .. ids[off[v+1]-1], ascending primitive ids. */
typedef struct cg__prim_sets {
    int n;      /* DFG nodes */
    int *off;   /* n + 1 offsets */
    int *ids;
} cg__prim_sets;

/* The primitives each node may use after clustering: those that run it
 * (cg__map_node_fits) inside its cluster's region grown by halo cells on
 * every side (so neighbouring regions overlap when halo > 0).  A
 * primitive without a grid position is inside only a region that covers
 * the whole grid.  c must be PLACED and come from g.  0, or -1 with an
 * error (halo < 0, c not PLACED or not of g, no memory). */
int cg__cluster_allowed(const cg_netlist *nl, const cg_dfg *g,
                        const cg__cluster_out *c, int halo,
                        cg__prim_sets *out, cg_diags *d);
void cg__prim_sets_free(cg__prim_sets *s); /* accepts zeroed s */

#endif
