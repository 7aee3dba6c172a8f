import { createInterface } from 'node:readline';
import { PassThrough, Readable } from 'node:stream';
import type { ObservedState, StatsSample } from './driver.js';

/**
 * What the runtimes that run a job of several workers as several things of their own (docker's
 * containers, kubernetes' Pods, the process runtime's sandboxes) make of them as one job
 * (docs/jobs.md "Distributed jobs"): its state, and for the container runtimes its merged log and
 * its summed stats (the process runtime's workers write one log).
 */

/** Worker `rank`'s key: the job's own id for rank 0, and what its log's directory is named. */
export const workerKey = (id: string, rank: number) => (rank === 0 ? id : `${id}.w${rank}`);
export const workerKeys = (id: string, workers: number) =>
  [...Array(workers).keys()].map((r) => workerKey(id, r));

/** PyTorch's default rendezvous port, free where each worker has a network of its own. */
export const RENDEZVOUS_PORT = 29500;
/** The rendezvous port of a job whose HTTP port might be PyTorch's default. */
export const rendezvousPort = (httpPort?: number) =>
  httpPort === RENDEZVOUS_PORT ? RENDEZVOUS_PORT + 1 : RENDEZVOUS_PORT;

/**
 * The gang's state from its workers' (in rank order): starting until every worker runs, running
 * while any does, and once all have ended, failed with the first failure (its exit code, reason
 * and worker) or succeeded. A worker whose container is gone while others remain was lost,
 * unless `young`: a worker not there yet just after the start is starting.
 */
export function gangState(states: ObservedState[], young = false): ObservedState {
  const workers = states.length;
  const live = (s: ObservedState) =>
    s.state === 'running' || s.state === 'starting' || (young && s.state === 'missing');
  const begun = (s: ObservedState) =>
    s.state === 'running' || s.state === 'exited' ? s.startedAt : undefined;
  const latest = (dates: (Date | undefined)[]) =>
    new Date(Math.max(...dates.map((d) => d?.getTime() ?? 0)));
  if (states.some(live)) {
    const started = states.map(begun);
    // Running once every worker has run (the ones left may be stopping after a failure).
    return started.every(Boolean) && !states.some((s) => s.state === 'starting')
      ? { state: 'running', startedAt: latest(started) }
      : { state: 'starting' };
  }
  const ended = states.flatMap((s, rank) => (s.state === 'exited' ? [{ s, rank }] : []));
  if (ended.length === 0) return { state: 'missing' };
  const finishedAt = latest(ended.map((e) => e.s.finishedAt));
  const startedAt = states.every(begun) ? latest(states.map(begun)) : undefined;
  const failures = ended
    .filter((e) => e.s.exitCode !== 0)
    .sort((a, b) => a.s.finishedAt.getTime() - b.s.finishedAt.getTime());
  const lost = states.findIndex((s) => s.state === 'missing');
  if (failures.length === 0 && lost < 0) {
    return { state: 'exited', exitCode: 0, finishedAt, ...(startedAt ? { startedAt } : {}) };
  }
  const first = failures[0];
  const why = first
    ? `Worker ${first.rank} of ${workers} exited with code ${first.s.exitCode}${first.s.message ? ` (${first.s.message})` : ''}`
    : `Worker ${lost} of ${workers} was lost`;
  return {
    state: 'exited',
    exitCode: first?.s.exitCode ?? 1,
    finishedAt,
    ...(startedAt ? { startedAt } : {}),
    ...(first?.s.reason ? { reason: first.s.reason } : {}),
    message: `${why}; the other workers were stopped`,
  };
}

/** Whether a gang has a failed (or lost) worker while others still run: they are to be stopped. */
export function gangBroken(states: ObservedState[]): boolean {
  const failed = states.some(
    (s) => (s.state === 'exited' && s.exitCode !== 0) || s.state === 'missing',
  );
  return failed && states.some((s) => s.state === 'running' || s.state === 'starting');
}

/** Sorts as the time of a stamped line (`<RFC 3339> text`): engine nanoseconds or file millis. */
function stampKey(line: string): string {
  const stamp = line.slice(0, line.indexOf(' '));
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(stamp);
  return m ? `${m[1]}.${(m[2] ?? '').padEnd(9, '0')}` : stamp;
}

async function* lines(stream: Readable): AsyncIterable<string> {
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    yield `${line}\n`;
  }
}

/**
 * The workers' logs as one: read whole, their lines in the order of their times (each worker's
 * own in its order); followed, each line as it comes. `open` gives a worker's log, stamped when
 * asked; the stamps are dropped again unless the caller asked for them.
 */
export function mergedLog(
  logs: Array<(timestamps: boolean) => Promise<Readable>>,
  options: { follow: boolean; timestamps: boolean },
): Readable {
  if (options.follow) {
    const out = new PassThrough();
    void Promise.all(
      logs.map(async (open) => {
        for await (const line of lines(await open(options.timestamps))) {
          if (!out.write(line)) await new Promise((r) => out.once('drain', r));
        }
      }),
    ).then(
      () => out.end(),
      (e: Error) => out.destroy(e),
    );
    return out;
  }
  return Readable.from(
    (async function* () {
      // Each worker's lines come in their order: the earliest head of all is the next line, so
      // that no worker's log is held whole.
      const heads = await Promise.all(
        logs.map(async (open) => {
          const it = lines(await open(true))[Symbol.asyncIterator]();
          return { it, next: await it.next() };
        }),
      );
      for (;;) {
        let first: (typeof heads)[number] | undefined;
        for (const h of heads) {
          if (h.next.done) continue;
          // Ties go to the lower rank, whose line is then first.
          if (!first || stampKey(h.next.value) < stampKey(first.next.value as string)) first = h;
        }
        if (!first) return;
        const line = first.next.value as string;
        yield options.timestamps ? line : line.slice(line.indexOf(' ') + 1);
        first.next = await first.it.next();
      }
    })(),
  );
}

/**
 * The workers' stats added up, a sample each time rank 0's comes (the others' latest with it);
 * ends with rank 0's.
 */
export async function* summedStats(
  streams: Array<(abort: AbortSignal) => AsyncIterable<StatsSample>>,
  abort: AbortSignal,
): AsyncIterable<StatsSample> {
  const inner = new AbortController();
  const stop = () => inner.abort();
  abort.addEventListener('abort', stop);
  const latest = new Map<number, StatsSample>();
  /** Workers whose stream ended (their container stopped): they add nothing more. */
  const ended = new Set<number>();
  const others = streams.slice(1).map(async (open, i) => {
    try {
      for await (const s of open(inner.signal)) latest.set(i + 1, s);
    } finally {
      latest.delete(i + 1);
      ended.add(i + 1);
    }
  });
  try {
    for await (const s of streams[0](inner.signal)) {
      latest.set(0, s);
      // Not before every running worker has been sampled once: a part is not the sum.
      if (latest.size + ended.size < streams.length) continue;
      const all = [...latest.values()];
      const sum = (f: (x: StatsSample) => number | undefined) =>
        all.some((x) => f(x) !== undefined) ? all.reduce((a, x) => a + (f(x) ?? 0), 0) : undefined;
      const gpu = sum((x) => x.gpuDutyCycle);
      const gpuMemory = sum((x) => x.gpuMemoryBytes);
      yield {
        cpu: sum((x) => x.cpu) ?? 0,
        memoryBytes: sum((x) => x.memoryBytes) ?? 0,
        ...(gpu !== undefined ? { gpuDutyCycle: gpu / all.length } : {}),
        ...(gpuMemory !== undefined ? { gpuMemoryBytes: gpuMemory } : {}),
        timestamp: s.timestamp,
      };
    }
  } finally {
    abort.removeEventListener('abort', stop);
    inner.abort();
    // A worker's stream ending with an error (its container gone) ends nothing else.
    await Promise.allSettled(others);
  }
}
