import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { RuntimeDriver } from './driver.js';
import { existsSync } from 'node:fs';
import { ProcessDriver } from './process.js';

/** The driver ORRERY_RUNTIME asks for; `auto` is docker when an engine answers, else process. */
export async function createDriver(
  config: Config,
  log: Pick<FastifyBaseLogger, 'info'>,
): Promise<RuntimeDriver> {
  const { kind, dockerHost, dockerNetwork, killGraceMs } = config.runtime;
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
        await import('./docker.js')
      ).DockerDriver.connect({
        dataDir: config.dataDir,
        dockerHost,
        network: dockerNetwork,
        killGraceMs,
      })
    : new ProcessDriver({ dataDir: config.dataDir, killGraceMs });
  log.info(`Jobs run on the ${driver.name} runtime: ${why}`);
  return driver;
}
