import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The `orrery` command of the production build (`npm run build`), as an operator runs it. */
const BIN = fileURLToPath(new URL('../../bin/orrery.js', import.meta.url));
const DIST_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
/** Start to ready under load (other engineers' tests share the machine's two cores). */
const READY_MS = 150_000;

/** A real `orrery serve` process: its address, everything it printed, and a stop. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** stdout and stderr so far (pino's JSON lines at LOG_LEVEL=info). */
  output(): string;
  /** SIGTERM, as an orchestrator stops a replica; resolves when it exited. */
  stop(): Promise<void>;
}

export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  if (!existsSync(DIST_MAIN)) throw new Error(`${DIST_MAIN} is missing: run npm run build first`);
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${env.PORT}`;
  const self: ServerProcess = {
    url,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  const deadline = Date.now() + READY_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${out}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return self;
    if (Date.now() > deadline) {
      await self.stop();
      throw new Error(`the server was not ready in ${READY_MS / 1000} s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The pino lines a process printed with message `msg`, parsed. */
export function logLines(p: ServerProcess, msg: string): Record<string, unknown>[] {
  return p
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes(msg))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === msg);
}
