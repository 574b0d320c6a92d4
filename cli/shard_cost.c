/* shard_cost.c: what a shard's plan learns of a loop to estimate its cost
 * (cli/shard.h): its node count, its MII on the array, and the probe, the
 * heuristic alone at the MII with a small fixed work limit.  The probe
 * tells the loops whose MII the heuristic maps at once (cheap), those the
 * register bound refutes at once (the next II maps), and the rest, where
 * the full search must map or refute the MII with SAT: the loops that
 * take the time.  Its parameters are fixed here, not the run's, so the
 * plan depends on the DFGs and the arrays alone; its work limit, never
 * the clock, ends it, so every shard gets the same answer on any
 * machine. */
#include "cli/shard.h"

#include "mapper/map.h"

/* The probe of g on nl: its class, *mii its MII (0 when it could not be
 * computed: CG_CLI_PROBE_NONE). */
static cg_cli_probe probe(const cg_dfg *g, const cg_netlist *nl, int *mii)
{
    *mii = 0;
    cg_diags *d = cg_diags_create();
    cg_mii m;
    if (!d || cg_mii_compute(nl, g, &m, d) < 0 || m.mii < 1 ||
        m.mii > CG_MAP_MAX_II) {
        cg_diags_destroy(d);
        return CG_CLI_PROBE_NONE;
    }
    cg_map_params p;
    cg_map_params_init(&p);
    p.search = CG_SEARCH_HEURISTIC;
    p.heur_steps = p.large_steps = CG_CLI_PROBE_STEPS; /* every size */
    p.nego_moves = p.large_moves = 0; /* no annealer */
    p.partial_tries = 0; /* no partial mapping kept for a repair */
    p.timeout_s = p.large_timeout_s = 1e9; /* no wall-clock cap: the
                            steps end the probe on every machine, however
                            loaded (a cap could turn "mapped" into "open"
                            on a slow one, and the shards' plans would
                            differ) */
    p.max_ii = m.mii;    /* the MII alone (from a lower one when the
                            immediates lower it: the first II decides) */
    cg_map_result r;
    cg_cli_probe c = CG_CLI_PROBE_NONE;
    if (cg_map(nl, g, &p, &r, d) == 0) {
        *mii = r.mii.mii;
        c = r.ntried > 0 && r.tried[0].outcome == CG_II_MAPPED
                ? CG_CLI_PROBE_MAPPED
            /* the register bound's class only: with the parity bound's
               refutations in it too (conv2's MII), the split of make
               run's loops over 4 shards had its busiest shard at 1.33x
               to 1.47x the mean, against 1.18x to 1.35x without
               (benchmarks/perf/results/e4651b1-...-parity-bound.md) */
            : r.ntried > 0 && r.tried[0].outcome == CG_II_INFEASIBLE &&
                    r.tried[0].by == CG_BY_BOUND
                ? CG_CLI_PROBE_BOUND
                : CG_CLI_PROBE_OPEN;
        cg_map_result_free(&r);
    }
    cg_diags_destroy(d);
    return c;
}

json_t *cg_cli_count_record(const char *loop, const cg_dfg *g,
                            const cg_netlist *nl)
{
    json_t *rec = json_pack("{s:s}", "loop", loop);
    if (g && rec) {
        json_object_set_new(rec, "nodes", json_integer(cg_dfg_nnodes(g)));
        int mii;
        cg_cli_probe c = nl ? probe(g, nl, &mii) : CG_CLI_PROBE_NONE;
        if (c != CG_CLI_PROBE_NONE) {
            json_object_set_new(rec, "mii", json_integer(mii));
            json_object_set_new(rec, "probe",
                                json_string(cg_cli_probe_name(c)));
        }
    }
    return rec;
}
