import type { AppContext } from '../../context.js';
import type { JobSpec } from '../../runtime/driver.js';
import { ownerToken, passedConfig } from './owner-token.js';
import { presetPools } from '../clusters/store.js';
import { limitsOf } from './resources.js';
import { type JobRow } from './store.js';
import { containerOf, workersOf } from './container.js';
import { resolveMounts, type VolumeDeps } from './volumes.js';

/**
 * What the runtime is told to run for an admitted job: its volumes as host paths, its secrets
 * decrypted, its limits, placement and registry credentials (docs/runtimes.md).
 */
export async function jobSpecOf(
  ctx: AppContext,
  volumes: Omit<VolumeDeps, 'ctx'>,
  j: JobRow,
): Promise<JobSpec> {
  const c = containerOf(j);
  const { mounts, env } = await resolveMounts({ ctx, ...volumes }, j.id, c);
  if (j.passConfig) Object.assign(env, await passedConfig(ctx, j));
  const registry = new URL(ctx.config.publicUrl).host;
  return {
    id: j.id,
    image: c.image,
    entrypoint: c.entrypoint,
    command: c.command,
    workingDir: c.working_dir,
    env,
    mounts,
    limits: limitsOf(c),
    ...(workersOf(j) > 1 ? { workers: workersOf(j) } : {}),
    httpPort: c.http?.port,
    secretEnv: Object.keys(c.secret_env),
    placement: {
      pools: await presetPools(ctx.db, j.clusterName, j.presetName),
      preemptible: j.preemptible,
      restartPolicy: j.restartPolicy,
      maxRunTimeMinutes: j.maxRunTimeMinutes ?? undefined,
    },
    project: `${j.clusterName}/${j.orgName}/${j.projectName}`,
    tty: c.tty,
    privileged: j.privileged,
    // An image of the project's registry is pulled with the owner's credentials.
    registryAuth: c.image.startsWith(`${registry}/`)
      ? { username: j.owner, password: await ownerToken(ctx, j), serveraddress: registry }
      : undefined,
  };
}
