import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import type { ExecOptions, ExecSession, SaveProgress } from '../driver.js';
import { parseImage } from './engine.js';
import { demuxStream, ndjson } from './streams.js';

/** A command in a job's container: its streams (demultiplexed without a TTY) and exit code. */
export async function containerExec(
  container: Docker.Container,
  options: ExecOptions,
): Promise<ExecSession> {
  const exec = await container.exec({
    Cmd: options.command,
    AttachStdin: options.stdin,
    AttachStdout: true,
    AttachStderr: true,
    Tty: options.tty,
  });
  const duplex = (await exec.start({
    hijack: true,
    stdin: options.stdin,
    Tty: options.tty,
  })) as NodeJS.ReadWriteStream;
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const ended = new Promise<void>((resolve) => {
    if (options.tty) {
      duplex.pipe(stdout);
      duplex.on('end', resolve);
      duplex.on('close', resolve);
    } else {
      demuxStream(
        duplex,
        (type, payload) => (type === 2 ? stderr : stdout).write(payload),
        () => {
          stdout.end();
          stderr.end();
          resolve();
        },
      );
    }
  });
  return {
    stdin: options.stdin ? duplex : undefined,
    stdout,
    stderr: options.tty ? undefined : stderr,
    resize: options.tty
      ? // A resize after the exec ended has nothing to resize.
        (rows, cols) => void exec.resize({ h: rows, w: cols }).catch(() => undefined)
      : undefined,
    exitCode: ended.then(async () => (await exec.inspect()).ExitCode ?? 0),
  };
}

export const saveFailure = (message: string): SaveProgress => ({
  error: message,
  errorDetail: { message },
});

/**
 * Commit then push: CommitStarted, CommitFinished, then the engine's push progress as it comes,
 * ending with the `aux` digest; failures as `error` objects.
 */
export async function* commitAndPush(
  docker: Docker,
  container: Docker.Container,
  containerId: string,
  image: string,
  auth: { username: string; password: string },
): AsyncIterable<SaveProgress> {
  const { repo, tag, registry } = parseImage(image);
  yield { status: 'CommitStarted', details: { container: containerId, image } };
  try {
    await container.commit({ repo, tag });
  } catch (e) {
    yield saveFailure(`Commit failed: ${(e as Error).message}`);
    return;
  }
  yield { status: 'CommitFinished' };
  try {
    const body = await docker.getImage(`${repo}:${tag}`).push({
      authconfig: { ...auth, serveraddress: registry },
    });
    yield* ndjson<SaveProgress>(body);
  } catch (e) {
    yield saveFailure(`Push failed: ${(e as Error).message}`);
  }
}
