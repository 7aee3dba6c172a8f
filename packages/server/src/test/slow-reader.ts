import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { WebSocket } from 'ws';

/**
 * Slow readers for the back-pressure tests: clients that stop reading their TCP socket, so
 * whatever the server sends piles up in the kernel and then in the server, unless the server
 * pauses its source. The server runs in this process, so its memory is this process's RSS.
 */

const MB = 2 ** 20;
/** What a slow reader may cost the server, in MB; the payloads are far larger. */
export const SLOW_READER_BOUND_MB = 150;

/**
 * What each source produces, in MB: far more than the bound, so a server that buffers it shows.
 * 400 by default; the PostgreSQL pass of npm test, which checks the routes on another engine
 * rather than measuring memory again, sets ORRERY_TEST_SLOW_READER_MB lower (still above the
 * bound). An overall size below twice the bound would not tell a buffering server apart.
 */
export const SLOW_READER_MB = Math.max(
  2 * SLOW_READER_BOUND_MB,
  Number(process.env.ORRERY_TEST_SLOW_READER_MB ?? 400),
);

/** `bytes` of data as a stream of 1 MiB chunks (an upload that is not held in memory either). */
export const bodyOf = (bytes: number) =>
  Readable.toWeb(
    Readable.from(
      (function* () {
        const chunk = Buffer.alloc(MB, 97);
        for (let n = 0; n < bytes; n += MB) yield chunk;
      })(),
    ),
  ) as ReadableStream;

/** This process's resident set in MB, after a collection when `--expose-gc` allows one. */
export function rssMB() {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / MB;
}

/**
 * Samples the RSS every 50 ms while `during` runs and returns the largest growth over the
 * figure taken before it, in MB.
 */
export async function peakGrowth(during: () => Promise<unknown>): Promise<number> {
  const base = rssMB();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss / MB)), 50);
  try {
    await during();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage().rss / MB) - base;
}

/** A WebSocket client whose socket stops reading as soon as the connection is open. */
export async function pausedWebSocket(url: string, protocols: string[], headers = {}) {
  const ws = new WebSocket(url, protocols, { headers });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => {
      ws.pause();
      resolve();
    });
    ws.once('error', reject);
  });
  return {
    /** Leaves: the TCP connection is torn down without reading the rest. */
    leave: () => ws.terminate(),
  };
}

/**
 * A WebSocket client that sends `frame` over and over (at most `total` bytes), itself waiting
 * whenever 4 MiB are queued, so that what piles up is on the server's side. It stops once the
 * server has taken nothing for `quietMs` (back-pressure: it stopped reading) or all was sent.
 * Returns how many bytes the server let it send.
 */
export async function floodWebSocket(
  url: string,
  protocols: string[],
  headers: Record<string, string>,
  frame: Buffer,
  { total, quietMs = QUIET_MS }: { total: number; quietMs?: number },
) {
  const ws = new WebSocket(url, protocols, { headers });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let sent = 0;
  let queued = 0;
  let movedAt = Date.now();
  while (sent < total && ws.readyState === ws.OPEN) {
    if (ws.bufferedAmount > 4 * MB) {
      if (ws.bufferedAmount < queued) movedAt = Date.now();
      queued = ws.bufferedAmount;
      if (Date.now() - movedAt > quietMs) break;
      await new Promise((r) => setTimeout(r, 20));
      continue;
    }
    ws.send(frame, { binary: true });
    sent += frame.length;
    movedAt = Date.now();
  }
  return { sent: sent - ws.bufferedAmount, leave: () => ws.terminate() };
}

/**
 * How long a stream must not move to count as held back: the server paused its source. A server
 * that buffers keeps taking, and reaches the end, which the memory figure then shows.
 */
const QUIET_MS = 1000;

/**
 * Waits while `progress` (bytes a source gave up: a file's read offset, a process's writes) still
 * grows: until it has not moved for `quietMs` (the reader's back-pressure reached the source) or
 * it reached `end` (the server took everything). Polls every 100 ms; throws after `ms`.
 */
export async function untilHeldBack(
  progress: () => number,
  end: number,
  { quietMs = QUIET_MS, ms = 60_000 } = {},
) {
  const started = Date.now();
  let last = progress();
  let movedAt = started;
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const now = progress();
    if (now >= end) return now;
    if (now !== last) {
      last = now;
      movedAt = Date.now();
    } else if (Date.now() - movedAt >= quietMs) return now;
    if (Date.now() - started > ms) throw new Error(`the stream never settled (at ${now} bytes)`);
  }
}

/**
 * A progress for untilHeldBack where the source cannot be watched (a file the server reads at
 * offsets): this process's largest resident set so far, in steps of 8 MB. A server that buffers
 * what its reader does not take keeps setting new highs; one that pauses its source settles.
 */
export function residentHigh(): () => number {
  let high = 0;
  return () => (high = Math.max(high, Math.floor(process.memoryUsage().rss / (8 * MB))));
}

/** Bytes written so far by the processes whose command line contains `marker` (their `io`). */
export function writtenBy(marker: string): number {
  let bytes = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(marker)) continue;
      const m = /^wchar:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
      bytes += Number(m?.[1] ?? 0);
    } catch {
      // Gone between the listing and the look.
    }
  }
  return bytes;
}

/** An HTTP GET whose response is not read once its headers are in. */
export async function pausedGet(url: string, headers: Record<string, string> = {}) {
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, { headers }, resolve);
    req.once('error', reject);
    req.end();
  });
  res.pause();
  return { status: res.statusCode, leave: () => res.destroy() };
}

/** Uploads `bytes` streamed (PUT, octet-stream) and returns the status. */
export async function putLarge(url: string, headers: Record<string, string>, bytes: number) {
  const res = await fetch(url, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/octet-stream' },
    body: bodyOf(bytes),
    duplex: 'half',
  } as RequestInit);
  return res.status;
}

/**
 * Holds a download paused until the server is held back (untilHeldBack on its memory) and
 * returns the server's peak growth in MB (printed under `label`), after checking that the
 * download was accepted.
 */
export async function pausedDownloadGrowth(
  label: string,
  url: string,
  headers: Record<string, string>,
): Promise<number> {
  let reader: Awaited<ReturnType<typeof pausedGet>> | undefined;
  try {
    const grown = await peakGrowth(async () => {
      reader = await pausedGet(url, headers);
      if (reader.status !== 200) throw new Error(`${label}: download answered ${reader.status}`);
      await untilHeldBack(residentHigh(), Infinity);
    });
    console.log(`${label} slow reader: server RSS +${grown.toFixed(0)} MB`);
    return grown;
  } finally {
    reader?.leave();
  }
}

/** Files under `dir` this process holds open (the server's streams that are not closed). */
export function openFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir)) out.push(target);
    } catch {
      // Closed between the listing and the look.
    }
  }
  return out;
}

/** Waits until `check` holds, polling every 100 ms, or throws after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 100));
  }
}
