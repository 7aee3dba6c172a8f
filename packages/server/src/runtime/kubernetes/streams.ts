import { PassThrough, type Readable } from 'node:stream';
import { Attach, Exec, Log, type V1Status } from '@kubernetes/client-node';
import type { ExecOptions, ExecSession, LogOptions } from '../driver.js';
import type { KubeClient } from './client.js';
import { CONTAINER } from './names.js';

/** The exit code in an exec's closing status (`Success`, or a cause `ExitCode`). */
export function exitCodeOf(status: V1Status): number {
  if (status.status === 'Success') return 0;
  const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
  const code = Number(cause?.message);
  return Number.isInteger(code) ? code : 1;
}

/**
 * A PassThrough that client-node takes for a terminal (it reads `rows` and `columns` and listens
 * for `resize`), so that resizes travel on the resize channel.
 */
function terminalOutput() {
  const out = new PassThrough() as PassThrough & { rows: number; columns: number };
  out.rows = 24;
  out.columns = 80;
  const resize = (rows: number, cols: number) => {
    out.rows = rows;
    out.columns = cols;
    out.emit('resize');
  };
  return { out, resize };
}

interface Socket {
  on?(event: 'close', listener: () => void): void;
  onclose?: unknown;
  close(): void;
}

function closed(ws: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (ws.on) ws.on('close', () => resolve());
    else ws.onclose = () => resolve();
  });
}

/** A command in the job's container, through the API server's exec (a WebSocket). */
export async function execSession(
  k: KubeClient,
  pod: string,
  options: ExecOptions,
): Promise<ExecSession> {
  const { out, resize } = terminalOutput();
  const stdout = options.tty ? out : new PassThrough();
  const stderr = options.tty ? undefined : new PassThrough();
  const stdin = options.stdin ? new PassThrough() : null;
  let status: V1Status | undefined;
  const ws = await new Exec(k.config).exec(
    k.namespace,
    pod,
    CONTAINER,
    options.command,
    stdout,
    stderr ?? null,
    stdin,
    options.tty,
    (s) => (status = s),
  );
  const exitCode = closed(ws as unknown as Socket).then(() => {
    stdout.end();
    stderr?.end();
    return status ? exitCodeOf(status) : 1;
  });
  return {
    stdin: stdin ?? undefined,
    stdout,
    stderr,
    resize: options.tty ? resize : undefined,
    exitCode,
  };
}

/**
 * The job's own stdin and output, through the API server's attach; `ended` gives the job's exit
 * code once the session closes (the Pod's status has it).
 */
export async function attachSession(
  k: KubeClient,
  pod: string,
  options: ExecOptions,
  ended: () => Promise<number>,
): Promise<ExecSession> {
  const { out, resize } = terminalOutput();
  const stdout = options.tty ? out : new PassThrough();
  const stderr = options.tty ? undefined : new PassThrough();
  const stdin = options.stdin ? new PassThrough() : null;
  const ws = await new Attach(k.config).attach(
    k.namespace,
    pod,
    CONTAINER,
    stdout,
    stderr ?? null,
    stdin,
    options.tty,
  );
  const exitCode = closed(ws as unknown as Socket).then(() => {
    stdout.end();
    stderr?.end();
    return ended();
  });
  return {
    stdin: stdin ?? undefined,
    stdout,
    stderr,
    resize: options.tty ? resize : undefined,
    exitCode,
  };
}

/** The container's log from the API server (followed while it runs, if asked). */
export async function podLog(k: KubeClient, pod: string, options: LogOptions): Promise<Readable> {
  const out = new PassThrough();
  const abort = await new Log(k.config).log(k.namespace, pod, CONTAINER, out, {
    follow: options.follow,
    timestamps: options.timestamps,
    ...(options.since ? { sinceTime: options.since.toISOString() } : {}),
  });
  out.on('close', () => abort.abort());
  return out;
}
