import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { WebSocket } from 'ws';

/**
 * Back-pressure for every WebSocket route (job logs, exec and attach, ingress). The `ws` library
 * queues whatever it is given in memory: a route that sends each chunk as it comes grew the
 * server by 400 MB under one `apolo logs` reader that did not keep up. Here a source is paused
 * while more than WS_HIGH_WATER bytes wait for the peer, and resumed once they are written out.
 */
export const WS_HIGH_WATER = 1 << 20;

/** A source that can stop producing for a while: a Readable, or the other side's WebSocket. */
export interface Pausable {
  pause(): unknown;
  resume(): unknown;
}

/**
 * Sends one message; when the peer is more than WS_HIGH_WATER behind, pauses `source` until
 * this message has left the process.
 */
export function sendPaced(
  socket: WebSocket,
  data: Parameters<WebSocket['send']>[0],
  binary: boolean,
  source: Pausable,
) {
  if (socket.readyState !== socket.OPEN) return;
  let sent = false;
  let paused = false;
  // The callback runs once this message is handed to the kernel (or the socket failed).
  socket.send(data, { binary }, () => {
    sent = true;
    if (paused) source.resume();
  });
  if (!sent && socket.bufferedAmount > WS_HIGH_WATER) {
    paused = true;
    source.pause();
  }
}

/**
 * Writes what a WebSocket peer sent into `dest` (an exec'd command's stdin); while `dest` is full,
 * the peer's socket is not read, so a client that types faster than the command reads waits.
 */
export function writePaced(dest: NodeJS.WritableStream, data: Buffer, from: WebSocket) {
  if (dest.write(data)) return;
  from.pause();
  dest.once('drain', () => from.resume());
}

/** A binary frame of the channel protocol (exec, attach): the channel byte, then the data. */
export const channelFrame = (channel: number, data: Buffer) =>
  Buffer.concat([Buffer.from([channel]), data]);

/**
 * Streams `source` to the socket as binary messages (each made by `frame`), paced by the peer.
 * Resolves when the source has ended; the source is destroyed when the socket closes first.
 */
export async function pipeToSocket(
  source: Readable,
  socket: WebSocket,
  frame: (chunk: Buffer) => Buffer = (chunk) => chunk,
): Promise<void> {
  const stop = () => source.destroy();
  socket.once('close', stop);
  source.on('data', (chunk: Buffer) => sendPaced(socket, frame(chunk), true, source));
  try {
    await finished(source);
  } finally {
    socket.off('close', stop);
  }
}
