/* sweep.h: `cgramap sweep`, a sharded sweep on a Slurm cluster
 * (docs/sweeps.md): the job-array script and the merge job
 * (sweep_cmd.c), their submission and what became of each shard
 * (sweep_status.c).  The folder DIR holds everything:
 *
 *   DIR/sweep.sbatch         one array task per shard
 *   DIR/merge.sbatch         cgramap merge of every part
 *   DIR/sweep.state          {"shards": N, "jobs": [{"kind", "id"}...]}
 *   DIR/parts/shard-I.json   shard I's part (its .failed: exit status)
 *   DIR/logs/shard-I.out     shard I's rows and messages
 *   DIR/merged.txt           the merged table (merge.sbatch's stdout)
 */
#ifndef CG_CLI_SWEEP_H
#define CG_CLI_SWEEP_H

#include <stdbool.h>

#include <jansson.h>

/* What the cluster and the folder say of shard 1..N. */
typedef enum cg_cli_shard_state {
    CG_CLI_SHARD_MISSING, CG_CLI_SHARD_DONE, CG_CLI_SHARD_RUNNING,
    CG_CLI_SHARD_FAILED
} cg_cli_shard_state;

/* The state of each shard 1..n of the sweep in dir (state[0] unused),
 * its queue state or the reason it failed in why[s] (malloc'd or NULL).
 * The jobs are those sweep.state records; squeue and sacct are asked
 * when they are there. */
void cg_cli_sweep_states(const char *dir, const json_t *jobs, int n,
                         cg_cli_shard_state *state, char **why);
/* sweep.state of dir, or NULL (said on stderr when say). */
json_t *cg_cli_sweep_state_read(const char *dir, bool say);
/* Whether job id is still queued or running (squeue). */
bool cg_cli_sweep_job_queued(const char *id);
/* `cgramap sweep --status DIR`: the exit status (0 when every shard is
 * done). */
int cg_cli_sweep_status(const char *dir);

#endif
