import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { freePort } from '../../net/ports.js';

/** Debian's distribution 2.8 (`apt-get install docker-registry`). */
export const REGISTRY_BINARY = '/usr/bin/docker-registry';
const READY_TIMEOUT_MS = 15_000;
const MAX_BACKOFF_MS = 30_000;
/** A registry that stayed up this long is healthy again: the next crash restarts at once. */
const STABLE_MS = 60_000;

/** Where `/v2/` goes: a fixed external registry, or the supervised one (whose port may change). */
export interface Upstream {
  /** The registry's base URL once it answers; null while none is available. */
  url(): Promise<string | null>;
  stop(): Promise<void>;
}

export const externalUpstream = (url: string): Upstream => ({
  url: async () => url,
  stop: async () => {},
});

export const noUpstream = (): Upstream => ({ url: async () => null, stop: async () => {} });

/** Filesystem storage, loopback only, no auth: Orrery is its only client. */
const configYaml = (dataDir: string, port: number) => `version: 0.1
log:
  level: warn
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: ${JSON.stringify(join(dataDir, 'data'))}
  delete:
    enabled: true
  cache:
    blobdescriptor: inmemory
http:
  addr: 127.0.0.1:${port}
  secret: orrery-loopback-only
`;

async function answers(url: string) {
  try {
    const res = await fetch(`${url}/v2/`, { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * Runs the registry as a child process on a free loopback port, waits until `/v2/` answers,
 * restarts it with backoff when it dies, and stops it on close. It starts on first use, so a
 * server that never serves an image never runs one.
 */
export function superviseRegistry(opts: {
  dataDir: string;
  log: FastifyBaseLogger;
  binary?: string;
}): Upstream & { pid(): number | null } {
  const binary = opts.binary ?? REGISTRY_BINARY;
  const dir = join(opts.dataDir, 'registry');
  let child: ChildProcess | null = null;
  let stopping = false;
  let backoff = 500;
  let timer: NodeJS.Timeout | null = null;
  let ready: Promise<string | null> | null = null;

  async function start(): Promise<string | null> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    await mkdir(join(dir, 'data'), { recursive: true });
    const configFile = join(dir, 'config.yml');
    await writeFile(configFile, configYaml(dir, port));
    if (stopping) return null;
    const proc = spawn(binary, ['serve', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = proc;
    const startedAt = Date.now();
    let tail = '';
    proc.stderr?.on('data', (d: Buffer) => (tail = (tail + d.toString()).slice(-2000)));
    proc.on('error', (err) => opts.log.error({ err }, 'registry failed to start'));
    proc.on('exit', (code, signal) => {
      if (child === proc) child = null;
      if (stopping) return;
      if (Date.now() - startedAt > STABLE_MS) backoff = 500;
      opts.log.warn({ code, signal, stderr: tail }, `registry exited; restarting in ${backoff} ms`);
      const wait = backoff;
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      ready = new Promise((resolve) => {
        timer = setTimeout(() => {
          timer = null;
          resolve(start());
        }, wait);
      });
    });
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline && child === proc && !stopping) {
      if (await answers(url)) {
        opts.log.info({ url, pid: proc.pid }, 'registry ready');
        return url;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    if (child === proc && !stopping) opts.log.error({ stderr: tail }, 'registry did not answer');
    return null;
  }

  return {
    async url() {
      if (stopping) return null;
      ready ??= start();
      // A request that arrives during a restart waits for the new process.
      let seen: Promise<string | null>;
      do {
        seen = ready;
        const url = await seen;
        if (url && child) return url;
      } while (seen !== ready && !stopping);
      return null;
    },
    pid: () => child?.pid ?? null,
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      const proc = child;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const kill = setTimeout(() => proc.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(kill);
    },
  };
}

/** The upstream for a configuration: ORRERY_REGISTRY_URL, else the binary when installed. */
export function upstreamFor(
  cfg: { registryUrl?: string; dataDir: string },
  log: FastifyBaseLogger,
  binary = REGISTRY_BINARY,
): Upstream {
  if (cfg.registryUrl) return externalUpstream(cfg.registryUrl);
  if (!existsSync(binary)) {
    log.info(`${binary} is not installed and ORRERY_REGISTRY_URL is unset: images are unavailable`);
    return noUpstream();
  }
  return superviseRegistry({ dataDir: cfg.dataDir, log, binary });
}
