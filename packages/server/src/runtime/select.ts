import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { RuntimeDriver } from './driver.js';
import { existsSync } from 'node:fs';
import { ProcessDriver } from './process/driver.js';

/** The driver ORRERY_RUNTIME asks for; `auto` is docker when an engine answers, else process. */
export async function createDriver(
  config: Config,
  log: Pick<FastifyBaseLogger, 'info'>,
): Promise<RuntimeDriver> {
  const { kind, dockerHost, dockerNetwork, killGraceMs } = config.runtime;
  if (kind === 'kubernetes') {
    // Loaded only here: the Kubernetes client is a large import the local runtimes do without.
    const { KubernetesDriver } = await import('./kubernetes/driver.js');
    const driver = await KubernetesDriver.connect({
      dataDir: config.dataDir,
      killGraceMs,
      kube: config.runtime.kube,
    });
    log.info(`Jobs run on the kubernetes runtime: ORRERY_RUNTIME=kubernetes`);
    return driver;
  }
  if (kind === 'slurm') {
    // Loaded only here, like kubernetes: the local runtimes do without it.
    const { SlurmDriver } = await import('./slurm/driver.js');
    const { requireSlurmOptions } = await import('./slurm/options.js');
    const options = requireSlurmOptions(config.runtime.slurm);
    // Said before the wait: a cluster slow to answer then explains a start that times out.
    const via = options.api === 'rest' ? `slurmrestd at ${options.restUrl}` : '`sinfo --json`';
    log.info(`Waiting for Slurm to answer (${via})`);
    const driver = await SlurmDriver.connect(options, killGraceMs);
    log.info(
      `Jobs run on the slurm runtime (${options.api}) as ${options.user}: ORRERY_RUNTIME=slurm`,
    );
    return driver;
  }
  const where = dockerHost ?? 'unix:///var/run/docker.sock';
  let docker = kind === 'docker';
  let why = `ORRERY_RUNTIME=${kind}`;
  if (kind === 'auto') {
    // No socket file, no engine: the Docker client (about 100 ms of imports) is not loaded then.
    const socket = where.startsWith('unix://') ? new URL(where).pathname : null;
    docker =
      (socket === null || existsSync(socket)) &&
      (await (await import('./docker/engine.js')).dockerAnswers(dockerHost));
    why = docker ? `a Docker engine answers at ${where}` : `no Docker engine answers at ${where}`;
  }
  const driver: RuntimeDriver = docker
    ? await (
        await import('./docker/driver.js')
      ).DockerDriver.connect({
        dataDir: config.dataDir,
        dockerHost,
        network: dockerNetwork,
        killGraceMs,
        gpus: config.runtime.gpus,
      })
    : new ProcessDriver({
        dataDir: config.dataDir,
        killGraceMs,
        unsandboxedJobs: config.runtime.unsandboxedJobs,
        gpus: config.runtime.gpus,
      });
  log.info(`Jobs run on the ${driver.name} runtime: ${why}`);
  return driver;
}
