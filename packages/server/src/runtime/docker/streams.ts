import { createInterface } from 'node:readline';
import { PassThrough, Readable } from 'node:stream';

/**
 * The engine multiplexes a non-TTY container's stdout and stderr into frames of an 8-byte header
 * (stream type, 3 zero bytes, big-endian length) and the payload. These split a buffered or a
 * streaming body back into its payloads.
 */
export function demuxBuffer(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at + 8 <= buf.length;) {
    const len = buf.readUInt32BE(at + 4);
    out.push(buf.subarray(at + 8, at + 8 + len));
    at += 8 + len;
  }
  return out;
}

/** Frames of a multiplexed stream as they arrive, with their stream type: 1 stdout, 2 stderr. */
export function demuxStream(
  input: NodeJS.ReadableStream,
  onFrame: (type: 1 | 2, payload: Buffer) => void,
  onEnd: (err?: Error) => void,
): void {
  let pending = Buffer.alloc(0);
  let ended = false;
  const end = (err?: Error) => {
    if (!ended) onEnd(err);
    ended = true;
  };
  input.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 8) {
      const len = pending.readUInt32BE(4);
      if (pending.length < 8 + len) break;
      onFrame(pending[0] === 2 ? 2 : 1, pending.subarray(8, 8 + len));
      pending = pending.subarray(8 + len);
    }
  });
  input.on('end', () => end());
  input.on('close', () => end());
  input.on('error', (e: Error) => end(e));
}

/** The entries of a container's log stream: a frame each, or a line each with a TTY. */
export async function* logEntries(
  body: NodeJS.ReadableStream,
  tty: boolean,
): AsyncIterable<string> {
  if (tty) {
    for await (const line of createInterface({ input: body as Readable, crlfDelay: Infinity }))
      yield `${line}\n`;
    return;
  }
  const frames = new PassThrough({ objectMode: true, highWaterMark: 256 });
  demuxStream(
    body,
    (_, payload) => {
      // The engine sends as fast as it can; the reader writes a file: hold the engine back.
      if (!frames.write(payload.toString('utf8'))) {
        body.pause();
        frames.once('drain', () => body.resume());
      }
    },
    (err) => (err ? frames.destroy(err) : frames.end()),
  );
  for await (const frame of frames) yield frame as string;
}

/** A container's log as one stream, stdout and stderr interleaved as the engine sent them. */
export function containerLog(body: Buffer | NodeJS.ReadableStream, tty: boolean): Readable {
  if (Buffer.isBuffer(body)) return Readable.from(tty ? [body] : demuxBuffer(body));
  if (tty) return Readable.from(body as AsyncIterable<Buffer>);
  const out = new PassThrough();
  demuxStream(
    body,
    (_, payload) => out.write(payload),
    (err) => (err ? out.destroy(err) : out.end()),
  );
  return out;
}

/** NDJSON objects of an engine progress stream (pull, push), one per line. */
export async function* ndjson<T>(body: NodeJS.ReadableStream): AsyncIterable<T> {
  for await (const line of createInterface({ input: body as Readable, crlfDelay: Infinity })) {
    if (line.trim()) yield JSON.parse(line) as T;
  }
}
