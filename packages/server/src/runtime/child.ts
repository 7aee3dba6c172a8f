import { execFile, type ChildProcess, type ExecFileOptions } from 'node:child_process';
import { constants } from 'node:os';
import type { ExecSession } from './driver.js';

/**
 * Every stream of a child process gets an error listener: a stream without one that fails (EPIPE
 * on the stdin of a command that exited before reading it, a reset pipe) throws from Node's event
 * loop and ends the server. What the command did is its exit status, which its caller reads.
 */
export function guardStreams<T extends ChildProcess>(child: T): T {
  for (const s of child.stdio) s?.on('error', () => undefined);
  return child;
}

/**
 * A command started with its stdout and stderr piped (stdin piped or not) as an exec session:
 * its exit code, or 128 + the signal that ended it, or 127 when it could not start.
 */
export function childSession(child: ChildProcess): ExecSession {
  guardStreams(child);
  const exitCode = new Promise<number>((resolve) => {
    child.once('error', () => resolve(127));
    child.once('exit', (code, sig) => resolve(code ?? 128 + (sig ? constants.signals[sig] : 0)));
  });
  return {
    stdin: child.stdin ?? undefined,
    // Piped by the caller.
    stdout: child.stdout!,
    stderr: child.stderr!,
    exitCode,
  };
}

export interface CommandOutput {
  stdout: string;
  stderr: string;
}

/** A failed command: its words on stderr (or Node's), and its exit status when it had one. */
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly code?: number | string | null,
  ) {
    super(message);
  }
}

/**
 * Runs a command, writes `input` (if any) to its stdin, and resolves with its output once it
 * exits 0 having read all of the input; anything else rejects, never throws from the event loop.
 * A command that exits before reading its input is a failed call even when it exits 0: it acted
 * on part of what it was given, or on none of it.
 */
export function runCommand(
  file: string,
  args: string[],
  options: ExecFileOptions & { input?: string | Buffer } = {},
): Promise<CommandOutput> {
  const { input, ...rest } = options;
  return new Promise((resolve, reject) => {
    let inputError: Error | undefined;
    const child = execFile(
      file,
      args,
      { maxBuffer: 64 << 20, ...rest, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const out = String(stdout);
        const errText = String(stderr).trim();
        if (err) {
          const code = (err as NodeJS.ErrnoException).code;
          return reject(new CommandFailed(`${file}: ${errText || err.message}`, errText, code));
        }
        if (inputError) {
          const why = `exited before reading its input (${inputError.message})`;
          return reject(new CommandFailed(`${file}: ${errText || why}`, errText, 0));
        }
        resolve({ stdout: out, stderr: String(stderr) });
      },
    );
    guardStreams(child);
    child.stdin?.once('error', (e) => (inputError = e));
    if (input !== undefined && input.length > 0) child.stdin?.end(input);
    else child.stdin?.end();
  });
}
