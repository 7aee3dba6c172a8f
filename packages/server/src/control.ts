import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { chmodSync, existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A local control socket in the data directory, so that `orrery token create` works while the
 * server holds the embedded database (PGlite admits one process). Whoever can open the socket
 * can already read the data directory, as with docker.sock; it is created mode 0600.
 */
export type ControlHandler = (command: string, args: Record<string, unknown>) => Promise<unknown>;

export const controlSocketPath = (dataDir: string) => join(dataDir, 'control.sock');
const pidPath = (dataDir: string) => join(dataDir, 'server.pid');

/**
 * The serving process claims the data directory before it opens the embedded database, so that
 * the CLI never opens it a second time (PGlite admits one process).
 */
export function claimDataDir(dataDir: string) {
  writeFileSync(pidPath(dataDir), String(process.pid));
  return () => {
    if (
      existsSync(pidPath(dataDir)) &&
      readFileSync(pidPath(dataDir), 'utf8') === String(process.pid)
    ) {
      unlinkSync(pidPath(dataDir));
    }
  };
}

/** Whether a live server process holds the data directory. */
export function serverHolds(dataDir: string): boolean {
  if (!existsSync(pidPath(dataDir))) return false;
  const pid = Number(readFileSync(pidPath(dataDir), 'utf8'));
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function listenControl(dataDir: string, handle: ControlHandler): Promise<Server> {
  const path = controlSocketPath(dataDir);
  if (existsSync(path)) unlinkSync(path);
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const command = (req.url ?? '/').slice(1);
      handle(command, body ? (JSON.parse(body) as Record<string, unknown>) : {})
        .then((out) => {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
        })
        .catch((e: Error) => {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ message: e.message }));
        });
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      chmodSync(path, 0o600);
      resolve(server);
    });
  });
}

/** Sends a command to a running server; null when none is listening. */
export function callControl(
  dataDir: string,
  command: string,
  args: Record<string, unknown>,
): Promise<unknown | null> {
  const path = controlSocketPath(dataDir);
  if (!existsSync(path)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ socketPath: path, path: `/${command}`, method: 'POST' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => {
        const parsed = JSON.parse(body) as { message?: string };
        if (res.statusCode === 200) resolve(parsed);
        else reject(new Error(parsed.message ?? `control socket answered ${res.statusCode}`));
      });
    });
    req.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'ECONNREFUSED' || e.code === 'ENOENT' ? resolve(null) : reject(e),
    );
    req.end(JSON.stringify(args));
  });
}
