import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LogFile } from '../log-file.js';
import { orNull, type KubeClient } from './client.js';
import { CONTAINER } from './names.js';

/**
 * A Pod's log copied to the job's log file (log-file.ts) before the Pod goes, so that it
 * outlives `remove` as on the other runtimes. The file `pod` names the Pod (by uid) whose log
 * the file holds, so a restarted job's next Pod appends and none is copied twice.
 */
export class LogArchive {
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly k: KubeClient,
    private readonly dataDir: string,
  ) {}

  dir(id: string) {
    if (!/^[\w.-]+$/.test(id)) throw new Error(`Bad job id ${id}`);
    return join(this.dataDir, 'jobs', id);
  }

  file(id: string) {
    return new LogFile(this.dir(id));
  }

  /** The uid of the Pod whose log was copied last. */
  archived(id: string): Promise<string | null> {
    return readFile(join(this.dir(id), 'pod'), 'utf8').catch(() => null);
  }

  /** Copies Pod `name`'s log once (`uid` tells which Pod of that name it is). */
  copy(id: string, name: string, uid: string): Promise<void> {
    const busy = this.running.get(id);
    if (busy) return busy;
    const task = (async () => {
      if ((await this.archived(id)) === uid) return;
      const text = await orNull(
        this.k.core.readNamespacedPodLog({
          name,
          namespace: this.k.namespace,
          container: CONTAINER,
          timestamps: true,
        }),
      );
      await mkdir(this.dir(id), { recursive: true });
      if (text) await this.file(id).append(timedLines(text));
      await writeFile(join(this.dir(id), 'pod'), uid);
    })().finally(() => this.running.delete(id));
    this.running.set(id, task);
    return task;
  }

  async settle(): Promise<void> {
    await Promise.all(this.running.values());
  }
}

/** `RFC3339 text` lines (the API's `timestamps=true`) as log-file entries. */
export function timedLines(text: string): Array<{ time: number; text: string }> {
  const lines = text.split(/(?<=\n)/);
  return lines
    .filter((l) => l.length > 0)
    .map((l) => {
      const space = l.indexOf(' ');
      const time = space > 0 ? Date.parse(l.slice(0, space)) : NaN;
      return Number.isNaN(time) ? { time: 0, text: l } : { time, text: l.slice(space + 1) };
    });
}
