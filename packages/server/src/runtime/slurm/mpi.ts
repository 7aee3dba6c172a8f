import { randomBytes } from 'node:crypto';
import { chown, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobSpec } from '../driver.js';
import { GUEST_DIR, mpiEnv } from '../process/worker-exec.js';
import { ENTER } from './exec.js';
import { workerDir } from './gang-script.js';
import { PATH } from './script.js';

/**
 * MPI across a Slurm gang's workers (docs/jobs.md "MPI"), as on the process runtime: worker 0 runs
 * plain `mpirun`, whose remote launch agent `orrery-worker-exec` asks the socket at
 * /run/orrery/exec.sock to start a command in another worker. On Slurm that socket is served on
 * each worker's node, outside its sandbox, by the bridge (node/worker-bridge.mjs,
 * started by the worker script), which starts the command as a step of the job's own allocation
 * on the target worker's node and enters that worker's sandbox with the job's `enter.sh` (exec.ts):
 * no SSH daemon, and nothing but the job's own workers within reach.
 */

/** The job's copy of exec.ts's ENTER, for the bridges on the nodes. */
export const ENTER_FILE = 'enter.sh';
/** Each worker's directory of what its sandbox sees at GUEST_DIR: the hostfile and the socket. */
export const RUN_DIR = 'run';

/**
 * Writes what the gang's MPI needs in the job's directory (the hostfile of each worker, enter.sh),
 * owned by the service user, and returns the workers' MPI environment (mpiEnv's, with a token of
 * the job's own) and the sandbox's bind of the worker's run directory (`perWorker`: the workers'
 * directory with the rank placeholder).
 */
export async function gangMpi(
  spec: JobSpec,
  dir: string,
  workers: number,
  perWorker: string,
  ids: { uid: number; gid: number },
): Promise<{ env: Record<string, string>; binds: string[] }> {
  const hosts = [...Array(workers).keys()].map((r) => `${spec.id}.w${r} slots=1\n`).join('');
  await writeFile(join(dir, ENTER_FILE), `${ENTER}\n`, { mode: 0o644 });
  for (let r = 0; r < workers; r++) {
    const run = join(dir, workerDir(r), RUN_DIR);
    await mkdir(run, { recursive: true });
    await writeFile(join(run, 'hostfile'), hosts, { mode: 0o644 });
    for (const f of [run, join(run, 'hostfile')]) await chown(f, ids.uid, ids.gid);
  }
  const token = randomBytes(24).toString('hex');
  const env = {
    ...mpiEnv({ dir: GUEST_DIR, sandboxed: true, token, path: spec.env.PATH ?? PATH }),
    // The workers' environment has Slurm's variables: Open MPI would launch with srun, which the
    // sandbox lacks, over the allocation's nodes instead of the workers. The agent and the
    // hostfile, then.
    OMPI_MCA_plm: 'rsh',
    OMPI_MCA_ras: '^slurm',
  };
  return { env, binds: ['--ro-bind', join(perWorker, RUN_DIR), GUEST_DIR] };
}
