import { connect } from 'node:net';

/**
 * The check that makes an instance healthy (AppPlan.health): a GET of `path` on the port of the
 * job of `role` (any status below 500 counts as answering), or, for a server that speaks no HTTP,
 * its own protocol's first answer.
 */
export type HealthCheck = { role: string; path: string } | { role: string; protocol: 'postgres' };

/** How long a check may take before it counts as not answering. */
export const HEALTH_TIMEOUT_MS = 2000;

/** Null when the app answers at `target`, else what went wrong, in words for the app's events. */
export async function runHealthCheck(
  target: { host: string; port: number },
  check: HealthCheck,
): Promise<string | null> {
  if ('protocol' in check) return postgresAnswers(target);
  try {
    const r = await fetch(`http://${target.host}:${target.port}${check.path}`, {
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
      redirect: 'manual',
    });
    await r.body?.cancel();
    return r.status < 500 ? null : `The app answered ${r.status} at ${check.path}`;
  } catch (e) {
    return `The app does not answer at ${check.path} (${(e as Error).message})`;
  }
}

/**
 * PostgreSQL's SSLRequest: a server that accepts connections answers one byte, S or N. The
 * forward in front of a job accepts (and closes) connections before anything listens in the
 * job, so a TCP connection alone proves nothing.
 */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

function postgresAnswers(target: { host: string; port: number }): Promise<string | null> {
  const notYet = 'PostgreSQL does not accept connections yet';
  return new Promise((resolve) => {
    const socket = connect(target.port, target.host);
    const done = (answer: string | null) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(HEALTH_TIMEOUT_MS, () => done(notYet));
    socket.once('connect', () => socket.write(SSL_REQUEST));
    socket.once('data', (d) => {
      const first = String.fromCharCode(d[0] ?? 0);
      done(first === 'S' || first === 'N' ? null : `PostgreSQL answered ${JSON.stringify(first)}`);
    });
    socket.once('error', (e) => done(`${notYet} (${e.message})`));
    socket.once('close', () => done(notYet));
  });
}
