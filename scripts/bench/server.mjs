// Starting and talking to an Orrery server the way an operator would: the built `orrery serve`
// in its own process (so its memory can be read from /proc), a token from `orrery token create`,
// and plain HTTP. Every bench section uses these, so they stay free of section logic.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../lib.mjs';
import { startPostgres } from '../postgres.mjs';
import { notMeasured } from './report.mjs';

export const ADMIN_PASSWORD = 'bench-password-1';
export const sleep = (t) => new Promise((r) => setTimeout(r, t));

/** A free-ish port per server; random so two benches on this shared machine rarely collide. */
export const randomPort = () => 18000 + Math.floor(Math.random() * 1000);

/** The environment of a bench server: quiet logs, fixed admin password, short kill grace. */
function serverEnv(dataDir, port, extra) {
  return {
    ...process.env,
    PORT: String(port),
    ORRERY_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ORRERY_ADMIN_PASSWORD: ADMIN_PASSWORD,
    // Jobs are killed as soon as they run; a container's `sleep` as PID 1 ignores SIGTERM, and a
    // 10 s grace would hold its capacity and turn the next job's latency into a wait.
    ORRERY_KILL_GRACE_SECONDS: '1',
    ...extra,
  };
}

export function spawnServer(dataDir, port, env = {}) {
  const child = spawn(process.execPath, ['packages/server/bin/orrery.js', 'serve'], {
    cwd: ROOT,
    env: serverEnv(dataDir, port, env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // The tail of stderr is kept, not printed: warnings would tear the table, but a server that
  // dies should say why (waitOk puts it in its error).
  child.stderrTail = '';
  child.stderr.on('data', (d) => (child.stderrTail = (child.stderrTail + d).slice(-2000)));
  return child;
}

export async function waitOk(url, timeoutMs = 60000, child) {
  const t0 = Date.now();
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    if (child && child.exitCode !== null)
      throw new Error(`server exited (${child.exitCode}): ${child.stderrTail.trim()}`);
    if (Date.now() - t0 > timeoutMs) throw new Error(`${url} not ready`);
    await sleep(10);
  }
}

export const stop = (child) =>
  new Promise((r) =>
    child.exitCode !== null || child.signalCode !== null
      ? r()
      : (child.once('exit', r), child.kill('SIGTERM')),
  );

/** A bearer token (the system administrator's by default), made by the CLI next to the server. */
export function createToken(dataDir, env = {}, email = 'admin@orrery.local') {
  return execFileSync(
    process.execPath,
    ['packages/server/bin/orrery.js', 'token', 'create', '--email', email],
    { cwd: ROOT, env: { ...process.env, ORRERY_DATA_DIR: dataDir, ...env } },
  )
    .toString()
    .trim();
}

/** JSON over HTTP with the token; throws with the body on a non-2xx answer. */
export function client(base, token) {
  const headers = { authorization: `Bearer ${token}` };
  const call = async (method, path, body) => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
  return {
    base,
    token,
    headers,
    get: (p) => call('GET', p),
    post: (p, b) => call('POST', p, b ?? {}),
    del: (p) => call('DELETE', p),
  };
}

/**
 * A started server with a token and the organization and project `bench`: what every section
 * needs. `env` adds server variables (runtime, database); `port` is random unless given.
 */
export async function startServer(dataDir, env = {}, port = randomPort()) {
  const base = `http://127.0.0.1:${port}`;
  const child = spawnServer(dataDir, port, env);
  await waitOk(`${base}/readyz`, 120000, child);
  return attachServer(child, base, dataDir, env);
}

/** The same for a server already started and ready (the startup section's last one). */
export async function attachServer(child, base, dataDir, env = {}) {
  // PORT too: with DATABASE_URL the CLI signs the token itself, for the issuer at this port.
  const token = createToken(dataDir, { ...env, PORT: new URL(base).port });
  const api = client(base, token);
  await api.post('/api/v1/orgs', { name: 'bench' }).catch(ignoreExists);
  await api
    .post('/api/v1/projects', { name: 'bench', org_name: 'bench', cluster_name: 'default' })
    .catch(ignoreExists);
  return {
    child,
    pid: child.pid,
    base,
    token,
    api,
    dataDir,
    /** A token for another user of this server (same database and issuer as the admin's). */
    tokenFor: (email) => createToken(dataDir, { ...env, PORT: new URL(base).port }, email),
    stop: () => stop(child),
  };
}
const ignoreExists = (e) => {
  if (!/\b409\b/.test(e.message)) throw e;
};

/** The resident memory of a process in bytes (VmRSS of /proc/<pid>/status). */
export function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Samples a process's RSS every `everyMs` until stopped; returns the peak and the first sample. */
export function sampleRss(pid, everyMs = 50) {
  const first = rssOf(pid);
  let peak = first;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      /* exited */
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      try {
        peak = Math.max(peak, rssOf(pid));
      } catch {
        /* exited */
      }
      return { first, peak };
    },
  };
}

const run = promisify(execFile);
/**
 * One HTTP transfer by curl, run asynchronously (an RSS sampler keeps ticking in this process).
 * Transfers of a gigabyte use curl rather than Node so that the client is not what is measured.
 */
export async function curl(args) {
  const { stdout } = await run('curl', ['-sS', '-w', '\n%{http_code} %{size_download}', ...args], {
    maxBuffer: 2 ** 20,
  });
  const [status, bytes] = stdout.trim().split('\n').at(-1).split(' ').map(Number);
  return { status, bytes };
}

/**
 * A section on a fresh PostgreSQL: `measure(pg, db, held)` gets the database, a client of it (not
 * yet connected) and `held`, where it leaves the server it starts. Without PostgreSQL, or when
 * `measure` throws, the section says why it was not measured; the server, the client and the
 * database go afterwards either way.
 */
export async function onPostgres(what, aim, measure) {
  const pg = startPostgres();
  if (!pg)
    return notMeasured(what, 'PostgreSQL is not installed (apt-get install postgresql)', aim);
  const { Client } = createRequire(join(ROOT, 'packages/server/package.json'))('pg');
  const db = new Client({ connectionString: pg.url });
  const held = { server: undefined };
  try {
    await measure(pg, db, held);
  } catch (e) {
    notMeasured(what, e.message, aim);
  } finally {
    // The figures are taken; a connection that cannot end cleanly goes with the process.
    await db.end().catch(() => undefined);
    await held.server?.stop();
    pg.stop();
  }
}
