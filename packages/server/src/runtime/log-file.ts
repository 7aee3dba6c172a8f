import { createReadStream } from 'node:fs';
import { appendFile, mkdir, open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LogOptions, ObservedState } from './driver.js';

/**
 * A job's log on disk, the same for both runtimes, in `<dataDir>/jobs/<id>/`:
 * - `output`: the raw bytes the job wrote, stdout and stderr interleaved. A process job writes it
 *   directly (nothing in between that a server restart could break, and it runs at disk speed);
 *   a container's log is copied there when it ends.
 * - `output.index`: lines `<end offset> <epoch ms>`: every complete line ending at or before that
 *   offset (and after the previous entry's) was written by that time. Offsets only grow; a reader
 *   skips an entry that does not (two driver instances may stamp the same bytes).
 * Plain logs stream `output` as is; `since` and `timestamps` read the index.
 */
export class LogFile {
  readonly output: string;
  readonly index: string;
  private last?: Entry;
  private queue: Promise<void> = Promise.resolve();

  /** `name`: the output's file name (the slurm runtime's job writes `out.log`). */
  constructor(
    readonly dir: string,
    name = 'output',
  ) {
    this.output = join(dir, name);
    this.index = join(dir, `${name}.index`);
  }

  /**
   * Stamps the complete lines that arrived since the last call with the output's modification
   * time (the time of the last write, so output written while the server was down gets the time
   * it was written at the latest, not the time the server came back); `final` stamps a partial
   * last line too.
   */
  stamp(final = false): Promise<void> {
    return this.serially(async () => {
      const last = await this.lastEntry();
      const st = await stat(this.output).catch(() => null);
      if (!st || st.size <= last.end) return;
      const end = final ? st.size : await lineEnd(this.output, last.end, st.size);
      if (end <= last.end) return;
      await this.write([{ end, time: Math.max(Math.floor(st.mtimeMs), last.time) }]);
    });
  }

  /** Appends lines that carry their own times (a container's log from the engine). */
  append(lines: Array<{ time: number; text: string }>): Promise<void> {
    return this.serially(async () => {
      const last = await this.lastEntry();
      await mkdir(this.dir, { recursive: true });
      let end = last.end;
      const entries: Entry[] = [];
      for (const l of lines) {
        end += Buffer.byteLength(l.text);
        const time = Math.max(l.time, entries.at(-1)?.time ?? last.time);
        // One entry per distinct millisecond keeps the index small for chatty jobs.
        if (entries.at(-1)?.time === time) entries[entries.length - 1].end = end;
        else entries.push({ end, time });
      }
      if (entries.length === 0) return;
      await appendFile(this.output, lines.map((l) => l.text).join(''));
      await this.write(entries);
    });
  }

  /**
   * The log as a stream. With `live`, the job may still be writing: with `follow` the stream
   * stays open, stamping as it goes, until `live.finished()` says the job is over and the rest is
   * drained.
   */
  read(options: LogOptions, live?: { finished(): Promise<boolean> }): Readable {
    return Readable.from(this.chunks(options, live), { objectMode: false });
  }

  /** The log of a job whose driver tells its state: followed until it no longer runs. */
  readJob(options: LogOptions, observe: () => Promise<ObservedState>): Readable {
    return this.read(options, {
      finished: async () => {
        const s = (await observe()).state;
        return s !== 'running' && s !== 'starting';
      },
    });
  }

  private async *chunks(options: LogOptions, live?: { finished(): Promise<boolean> }) {
    const seen = { indexBytes: 0, entries: [] as Entry[] };
    let pos = 0;
    let started = false;
    for (;;) {
      const finished = live ? await live.finished() : true;
      if (live) await this.stamp(finished);
      await this.loadIndex(seen);
      if (!started) {
        started = true;
        if (options.since) {
          const since = options.since.getTime();
          const first = seen.entries.findIndex((e) => e.time >= since);
          pos = first < 0 ? (seen.entries.at(-1)?.end ?? 0) : (seen.entries[first - 1]?.end ?? 0);
        }
      }
      const end = seen.entries.at(-1)?.end ?? 0;
      if (end > pos) {
        if (options.timestamps) yield* this.stamped(seen.entries, pos, end);
        // fs's own 64 KiB reads: 256 KiB or 1 MiB ones cost this route 2-3 times the CPU per GB
        // (bench, log download), and these already match a bare Node server sending the file.
        else yield* createReadStream(this.output, { start: pos, end: end - 1 });
        pos = end;
      }
      if (!options.follow || finished) return;
      await sleep(250);
    }
  }

  /** Bytes [from, to) with each line prefixed by the RFC 3339 time of its index entry. */
  private async *stamped(entries: Entry[], from: number, to: number) {
    let i = entries.findIndex((e) => e.end > from);
    let lineStart = true;
    let pos = from;
    for await (const chunk of createReadStream(this.output, { start: from, end: to - 1 })) {
      const buf = chunk as Buffer;
      const parts: Buffer[] = [];
      let at = 0;
      while (at < buf.length) {
        while (entries[i].end <= pos + at) i++;
        if (lineStart) parts.push(Buffer.from(`${new Date(entries[i].time).toISOString()} `));
        const nl = buf.indexOf(10, at);
        const stop = nl < 0 ? buf.length : nl + 1;
        parts.push(buf.subarray(at, stop));
        lineStart = nl >= 0;
        at = stop;
      }
      pos += buf.length;
      yield Buffer.concat(parts);
    }
  }

  private async loadIndex(seen: { indexBytes: number; entries: Entry[] }) {
    const fh = await open(this.index, 'r').catch(() => null);
    if (!fh) return;
    try {
      const { size } = await fh.stat();
      if (size <= seen.indexBytes) return;
      const buf = Buffer.alloc(size - seen.indexBytes);
      await fh.read(buf, 0, buf.length, seen.indexBytes);
      // A line may be half-written by a concurrent stamp: keep it for the next look.
      const text = buf.toString('latin1');
      const complete = text.lastIndexOf('\n') + 1;
      seen.indexBytes += complete;
      for (const e of parseEntries(text.slice(0, complete))) {
        if (e.end > (seen.entries.at(-1)?.end ?? 0)) seen.entries.push(e);
      }
    } finally {
      await fh.close();
    }
  }

  private async lastEntry(): Promise<Entry> {
    if (!this.last) {
      const text = await readFile(this.index, 'latin1').catch(() => '');
      this.last = parseEntries(text).reduce((a, e) => (e.end > a.end ? e : a), {
        end: 0,
        time: 0,
      });
    }
    return this.last;
  }

  private async write(entries: Entry[]) {
    await appendFile(this.index, entries.map((e) => `${e.end} ${e.time}\n`).join(''));
    this.last = entries.at(-1);
  }

  private serially(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task);
    // The caller gets run's failure; the queue only waits for it to settle.
    this.queue = run.catch(() => undefined);
    return run;
  }
}

interface Entry {
  end: number;
  time: number;
}

function parseEntries(text: string): Entry[] {
  const out: Entry[] = [];
  for (const line of text.split('\n')) {
    const [end, time] = line.split(' ').map(Number);
    if (Number.isFinite(end) && Number.isFinite(time) && line) out.push({ end, time });
  }
  return out;
}

/** The offset just after the last newline in [from, to), or `from` when there is none. */
async function lineEnd(path: string, from: number, to: number): Promise<number> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    for (let hi = to; hi > from;) {
      const lo = Math.max(from, hi - buf.length);
      const { bytesRead } = await fh.read(buf, 0, hi - lo, lo);
      const nl = buf.subarray(0, bytesRead).lastIndexOf(10);
      if (nl >= 0) return lo + nl + 1;
      hi = lo;
    }
    return from;
  } finally {
    await fh.close();
  }
}
