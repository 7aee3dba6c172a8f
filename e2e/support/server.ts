import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { stopJobsUnder } from '../../scripts/leftovers.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningServer {
  url: string;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

/**
 * A new data directory holding a copy of the pass's migrated database (global-setup.ts): the
 * server starts as on a fresh directory, without the seconds of initdb.
 */
export function freshDataDir() {
  const dir = mkdtempSync(join(tmpdir(), 'orrery-e2e-'));
  cpSync(join(inject('migratedDataDir'), 'pgdata'), join(dir, 'pgdata'), { recursive: true });
  return dir;
}

/**
 * The real server process on the production build, with a fresh (or given) data directory. The
 * port is found free and then bound by the server: should another process take it in between
 * (the pass runs files side by side), the server exits and starts again on another.
 */
export async function startServer(
  env: Record<string, string> = {},
  dataDir = freshDataDir(),
): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), env, dataDir);
    } catch (e) {
      if (!(e instanceof PortTaken) || attempt >= 5) throw e;
    }
  }
}

class PortTaken extends Error {}

async function startOn(
  port: number,
  env: Record<string, string>,
  dataDir: string,
): Promise<RunningServer> {
  const url = `http://127.0.0.1:${port}`;
  let out = '';
  const child: ChildProcess = spawn(process.execPath, ['packages/server/bin/orrery.js', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      ORRERY_DATA_DIR: dataDir,
      ORRERY_ADMIN_PASSWORD: 'admin-password-1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) {
      if (out.includes('EADDRINUSE')) throw new PortTaken(out);
      throw new Error(`server exited early:\n${out}`);
    }
    // Ready, and the answer is this server's: its own log says it holds the port.
    try {
      if (out.includes(`listening at ${url}`) && (await fetch(`${url}/readyz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      await exited;
      throw new Error(`server not ready in 150 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dataDir,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** The data directory goes, and the jobs its server left running with it (scripts/leftovers.mjs). */
export function removeDataDir(dir: string) {
  stopJobsUnder(`${dir}/`);
  rmSync(dir, { recursive: true, force: true });
}

/** Decodes quoted-printable soft breaks and escapes, as mail bodies are written. */
const decodeQp = (s: string) =>
  s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

/** The newest link in the outbox mail sent to `to` whose URL contains `marker`. */
export function linkFromOutbox(dataDir: string, to: string, marker: string): string {
  const dir = join(dataDir, 'outbox');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .reverse();
  for (const f of files) {
    const mail = decodeQp(readFileSync(join(dir, f), 'utf8'));
    if (!mail.toLowerCase().includes(`to: ${to.toLowerCase()}`)) continue;
    const link = mail.match(/https?:\/\/\S+/g)?.find((l) => l.includes(marker));
    if (link) return link;
  }
  throw new Error(`no mail to ${to} with a link containing ${marker} in ${dir}`);
}
