import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import type { LogOptions } from '../driver.js';
import { LogFile } from '../log-file.js';
import { ignore } from './engine.js';
import { containerLog, logEntries } from './streams.js';

/**
 * The logs of the jobs' containers (a gang's workers' each, by their key: gang.ts `workerKey`):
 * from the engine while the container exists, and copied to the job's log file (log-file.ts,
 * `<dataDir>/jobs/<key>/`) when it ends, so they outlive the container.
 */
export class ContainerLogs {
  private readonly archiving = new Map<string, Promise<void>>();

  constructor(
    private readonly dataDir: string,
    private readonly container: (key: string) => Docker.Container,
    private readonly inspect: (key: string) => Promise<Docker.ContainerInspectInfo | null>,
  ) {}

  dir(id: string) {
    if (!/^[\w.-]+$/.test(id)) throw new Error(`Bad job id ${id}`);
    return join(this.dataDir, 'jobs', id);
  }

  /** Resolves once no archive is being written; a failed one is reported to its own caller. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.archiving.values());
  }

  async read(id: string, options: LogOptions): Promise<Readable> {
    const file = new LogFile(this.dir(id));
    // Mid-archive, the file already holds the container's log that the marker does not yet name:
    // read both and the log shows twice.
    // Only its end is awaited here: a failed archive is the engine's log, read below instead.
    await this.archiving.get(id)?.catch(() => undefined);
    const c = await this.inspect(id);
    if (!c || (await this.archived(id)) === c.Id) return file.read(options);
    const query = {
      stdout: true,
      stderr: true,
      timestamps: options.timestamps,
      since: options.since ? options.since.getTime() / 1000 : 0,
    };
    const container = this.container(id);
    const body = options.follow
      ? await container.logs({ ...query, follow: true })
      : await container.logs({ ...query, follow: false });
    // Earlier runs of the job (restarts) were archived when their container went.
    return Readable.from(
      (async function* () {
        yield* file.read({ ...options, follow: false });
        yield* containerLog(body, c.Config.Tty);
      })(),
    );
  }

  /**
   * Copies the stopped container's log to the job's log file once (the file's `container` names
   * the container it holds, a restarted job's next container appends).
   */
  archive(id: string): Promise<void> {
    const running = this.archiving.get(id);
    if (running) return running;
    const task = (async () => {
      const c = await this.inspect(id);
      if (!c || c.State.Running || (await this.archived(id)) === c.Id) return;
      // Followed, the log of a stopped container streams and ends: a large log never sits in
      // memory whole; it is appended in batches of about a megabyte.
      const body = (await this.container(id)
        .logs({ stdout: true, stderr: true, timestamps: true, follow: true })
        .catch(ignore(404))) as NodeJS.ReadableStream | undefined;
      // Removed since it was inspected (its job removed meanwhile): its log went with it.
      if (!body) return;
      const dir = this.dir(id);
      await mkdir(dir, { recursive: true });
      const file = new LogFile(dir);
      let batch: Array<{ time: number; text: string }> = [];
      let size = 0;
      // Each entry (a frame; a line of a TTY's output) starts with its RFC 3339 time and a space.
      for await (const entry of logEntries(body, c.Config.Tty)) {
        const space = entry.indexOf(' ');
        batch.push({ time: Date.parse(entry.slice(0, space)) || 0, text: entry.slice(space + 1) });
        size += entry.length;
        if (size > 1 << 20) {
          await file.append(batch);
          batch = [];
          size = 0;
        }
      }
      await file.append(batch);
      await writeFile(join(dir, 'container'), c.Id);
    })().finally(() => this.archiving.delete(id));
    this.archiving.set(id, task);
    return task;
  }

  private async archived(id: string): Promise<string | null> {
    return readFile(join(this.dir(id), 'container'), 'utf8').catch(() => null);
  }
}
