import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import type { AppLogLineWire } from '@orrery/contract';

/** One job's log, opened. */
export interface LogSource {
  id: string;
  role: string;
  stream: Readable;
}

export interface FollowOptions {
  /** The sources opened before the stream began. */
  initial: LogSource[];
  /** The sources that appeared since the last call: called every `pollMs` while `following`. */
  discover: () => Promise<LogSource[]>;
  /** Whether more jobs may still start (the instance is not final). */
  following: () => Promise<boolean>;
  pollMs: number;
  /** The reader went away: stop polling, close every source. */
  signal: AbortSignal;
}

type Step =
  { kind: 'line'; i: number; r: IteratorResult<string> } | { kind: 'poll' } | { kind: 'abort' };

/**
 * Lines of an instance's jobs as they come, each labelled with its job, with jobs that start
 * later joining the stream (a new revision, a job that was still pending). One line is read
 * from a source only after the previous one was taken, so a slow reader holds the jobs back
 * instead of the server queueing their output. Ends when every source has ended and no more
 * jobs can start.
 */
export async function* followLines(o: FollowOptions): AsyncGenerator<AppLogLineWire> {
  const sources: (LogSource & { it: AsyncIterator<string> })[] = [];
  const pending = new Map<number, Promise<Step>>();
  const add = (found: LogSource[]) => {
    for (const s of found) {
      const it = createInterface({ input: s.stream, crlfDelay: Infinity })[Symbol.asyncIterator]();
      const i = sources.push({ ...s, it }) - 1;
      pending.set(i, read(i));
    }
  };
  const read = (i: number): Promise<Step> =>
    sources[i]!.it.next().then((r) => ({ kind: 'line', i, r }));
  const aborted = new Promise<Step>((resolve) => {
    if (o.signal.aborted) resolve({ kind: 'abort' });
    o.signal.addEventListener('abort', () => resolve({ kind: 'abort' }), { once: true });
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = () =>
    new Promise<Step>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'poll' }), o.pollMs);
    });

  try {
    add(o.initial);
    let polling: Promise<Step> | null = (await o.following()) ? poll() : null;
    while (pending.size || polling) {
      const step = await Promise.race([
        aborted,
        ...pending.values(),
        ...(polling ? [polling] : []),
      ]);
      if (step.kind === 'abort') return;
      if (step.kind === 'poll') {
        // Checked before discovering, so that the jobs of the last moment are still read.
        const more = await o.following();
        add(await o.discover());
        polling = more ? poll() : null;
        continue;
      }
      if (step.r.done) {
        pending.delete(step.i);
        continue;
      }
      pending.set(step.i, read(step.i));
      const s = sources[step.i]!;
      yield { job_id: s.id, container: s.role, log: step.r.value };
    }
  } finally {
    clearTimeout(timer);
    for (const s of sources) s.stream.destroy();
  }
}
