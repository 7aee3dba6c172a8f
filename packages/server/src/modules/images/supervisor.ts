import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { guardStreams } from '../../runtime/child.js';
import {
  externalUpstream,
  noUpstream,
  socketRegistry,
  type Registry,
  type Upstream,
} from './upstream.js';

/** Debian's distribution 2.8 (`apt-get install docker-registry`). */
export const REGISTRY_BINARY = '/usr/bin/docker-registry';
const READY_TIMEOUT_MS = 15_000;
const MAX_BACKOFF_MS = 30_000;
/** A registry that stayed up this long is healthy again: the next crash restarts at once. */
const STABLE_MS = 60_000;
/** sun_path holds 108 bytes with its NUL; a longer data directory path gets a temporary one. */
const MAX_SOCKET_PATH = 100;
const RM_TREE = { recursive: true, force: true };

/**
 * Filesystem storage, served on a unix socket in a 0700 directory and no TCP port: only the
 * server's uid can connect, so a job that runs on this machine reaches no image of anyone.
 */
const configYaml = (dataDir: string, socket: string, secret: string) => `version: 0.1
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
  net: unix
  addr: ${JSON.stringify(socket)}
  secret: ${JSON.stringify(secret)}
`;

/** The key that signs upload state, made once per data directory and kept from jobs (0600). */
async function httpSecret(dir: string) {
  const file = join(dir, 'http-secret');
  const known = await readFile(file, 'utf8').catch(() => '');
  if (known) return known.trim();
  const secret = randomBytes(32).toString('hex');
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}

/** A private directory for the socket: the registry's own, or one of /tmp when that is too long. */
async function socketPathIn(dir: string) {
  const inDir = join(dir, 'registry.sock');
  if (Buffer.byteLength(inDir) <= MAX_SOCKET_PATH) return inDir;
  return join(await mkdtemp(join(tmpdir(), 'orrery-registry-')), 'registry.sock');
}

async function answers(registry: Registry) {
  try {
    const res = await registry.fetch('/v2/', { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * Runs the registry as a child process on a unix socket, waits until `/v2/` answers, restarts it
 * with backoff when it dies, and stops it on close. It starts on first use, so a server that
 * never serves an image never runs one.
 */
export function superviseRegistry(opts: {
  dataDir: string;
  log: FastifyBaseLogger;
  binary?: string;
}): Upstream & { pid(): number | null; socketPath(): string | null } {
  const binary = opts.binary ?? REGISTRY_BINARY;
  const dir = join(opts.dataDir, 'registry');
  let child: ChildProcess | null = null;
  let stopping = false;
  let backoff = 500;
  let timer: NodeJS.Timeout | null = null;
  let ready: Promise<Registry | null> | null = null;
  let setup: Promise<{ socket: string; configFile: string; client: Registry }> | null = null;
  let socket: string | null = null;
  let client: ReturnType<typeof socketRegistry> | null = null;

  async function prepare() {
    await mkdir(join(dir, 'data'), { recursive: true, mode: 0o700 });
    // A data directory of an older version has it 0755, with the registry on a TCP port.
    await chmod(dir, 0o700);
    socket = await socketPathIn(dir);
    client = socketRegistry(socket);
    const configFile = join(dir, 'config.yml');
    await writeFile(configFile, configYaml(dir, socket, await httpSecret(dir)), { mode: 0o600 });
    return { socket, configFile, client };
  }

  async function start(): Promise<Registry | null> {
    setup ??= prepare();
    const { socket, configFile, client } = await setup;
    // A killed registry leaves its socket behind, and a new one cannot listen on it.
    await rm(socket, { force: true });
    if (stopping) return null;
    const proc = guardStreams(
      spawn(binary, ['serve', configFile], { stdio: ['ignore', 'ignore', 'pipe'] }),
    );
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
      if (await answers(client)) {
        opts.log.info({ socket, pid: proc.pid }, 'registry ready');
        return client;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    if (child === proc && !stopping) opts.log.error({ stderr: tail }, 'registry did not answer');
    return null;
  }

  return {
    async registry() {
      if (stopping) return null;
      ready ??= start();
      // A request that arrives during a restart waits for the new process.
      let seen: Promise<Registry | null>;
      do {
        seen = ready;
        const registry = await seen;
        if (registry && child) return registry;
      } while (seen !== ready && !stopping);
      return null;
    },
    pid: () => child?.pid ?? null,
    socketPath: () => socket,
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      const proc = child;
      if (proc && proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        const kill = setTimeout(() => proc.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(kill);
      }
      await client?.close();
      if (socket) await rm(dirname(socket) === dir ? socket : dirname(socket), RM_TREE);
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
