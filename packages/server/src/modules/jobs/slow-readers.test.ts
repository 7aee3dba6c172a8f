import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, submitJob, processServer } from '../../test/fixtures.js';
import {
  eventually,
  floodWebSocket,
  openFilesUnder,
  pausedGet,
  pausedWebSocket,
  peakGrowth,
  residentHigh,
  SLOW_READER_BOUND_MB,
  SLOW_READER_MB,
  untilHeldBack,
  writtenBy,
} from '../../test/slow-reader.js';

const NODE = process.execPath;
/** What each source produces: far more than the bound, so a server that buffers it shows. */
const BYTES = SLOW_READER_MB * 1_000_000;
const LINE = 'a'.repeat(99);

/**
 * A job's HTTP server in plain Node (the sandbox sees no module outside the system paths) that
 * sends BYTES to whoever asks, over HTTP or as 65,000-byte binary WebSocket frames, at the pace
 * its client reads: what piles up is the server's doing, not the job's. A WebSocket at `…/quiet`
 * gets nothing and is never read.
 */
const FLOOD = [
  "const c=require('crypto'),N=Number(process.env.N),b=Buffer.alloc(65000,97);",
  "const pump=(k,f)=>{k.on('error',()=>{});let n=0;const go=()=>{while(n<N){n+=b.length;if(!k.write(f))return k.once('drain',go)}k.end()};go()};",
  "const s=require('http').createServer((q,r)=>pump(r,b));",
  "s.on('upgrade',(q,k)=>{const a=c.createHash('sha1').update(q.headers['sec-websocket-key']+'258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');",
  "k.write('HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\nSec-WebSocket-Accept: '+a+'\\r\\n\\r\\n');",
  "if(!q.url.endsWith('/quiet'))pump(k,Buffer.concat([Buffer.from([130,126,253,232]),b]))});",
  "s.listen(Number(process.env.PORT),'127.0.0.1');",
].join('');

/** In the job's command line: what finds its process on the host (writtenBy). */
const FLOOD_MARK = 'const pump=';

/** Processes of this machine whose command line contains `marker`. */
const processesWith = (marker: string) =>
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'latin1').includes(marker);
      } catch {
        return false;
      }
    });

/**
 * Back-pressure on every streaming route of jobs: a reader that stops reading while
 * the source produces hundreds of MB costs the server a bounded amount of memory, and leaving
 * closes what was streaming to it.
 */
describe('slow readers of job streams', () => {
  let s: TestServer;
  let owner: TestUser;
  const ws = (path: string) => `${s.url.replace('http', 'ws')}${path}`;
  const until = async (id: string, statuses: string[]) => {
    let status = '';
    await eventually(async () => {
      status = (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body.status;
      return statuses.includes(status);
    }, 20000);
    return status;
  };
  const run = (command: string, extra: Record<string, unknown> = {}) =>
    submitJob(s, owner, command, extra);
  /**
   * A job that prints BYTES of 100-character lines with tools from /usr/bin, in four bursts half
   * a second apart: a reader that comes once it runs follows the log as it grows.
   */
  const printer = () =>
    run(
      `/bin/sh -c "for i in 1 2 3 4; do /usr/bin/yes ${LINE} | /usr/bin/head -c ${BYTES / 4}; /usr/bin/sleep 0.5; done"`,
      { preset_name: 'cpu-medium' },
    );
  const logFile = (id: string) => join(s.config.dataDir, 'jobs', id, 'output');

  processServer((x) => ({ s, owner } = x));

  it(`holds a slow log_ws reader while the job prints ${SLOW_READER_MB} MB, and closes the log when it leaves`, async () => {
    const id = await printer();
    await until(id, ['running']);
    let reader: Awaited<ReturnType<typeof pausedWebSocket>> | undefined;
    const grown = await peakGrowth(async () => {
      reader = await pausedWebSocket(ws(`/api/v1/jobs/${id}/log_ws`), ['logs.apolo.us'], {
        ...owner.headers,
      });
      expect(await until(id, ['succeeded', 'failed'])).toBe('succeeded');
      // The whole log is written: held until the server stops taking more of it.
      await untilHeldBack(residentHigh(), Infinity);
    });
    console.log(`log_ws slow reader: server RSS +${grown.toFixed(0)} MB`);
    expect(grown).toBeLessThan(SLOW_READER_BOUND_MB);
    reader!.leave();
    await eventually(() => openFilesUnder(logFile(id)).length === 0);
  });

  it(`holds a paused HTTP log download of ${SLOW_READER_MB} MB, and closes the log when it leaves`, async () => {
    const id = await printer();
    expect(await until(id, ['succeeded', 'failed'])).toBe('succeeded');
    let reader: Awaited<ReturnType<typeof pausedGet>> | undefined;
    const grown = await peakGrowth(async () => {
      reader = await pausedGet(`${s.url}/api/v1/jobs/${id}/log`, owner.headers);
      expect(reader.status).toBe(200);
      await untilHeldBack(residentHigh(), Infinity);
    });
    console.log(`log HTTP slow reader: server RSS +${grown.toFixed(0)} MB`);
    expect(grown).toBeLessThan(SLOW_READER_BOUND_MB);
    reader!.leave();
    await eventually(() => openFilesUnder(logFile(id)).length === 0);
  });

  it(`holds a slow exec reader of a command printing ${SLOW_READER_MB} MB, and the command ends when it leaves`, async () => {
    const id = await run('/usr/bin/sleep 60');
    await until(id, ['running']);
    // A marker in the command line finds the exec'd process on the host.
    const marker = `${BYTES + 1}`;
    const cmd = `/usr/bin/yes ${LINE} | /usr/bin/head -c ${marker}`;
    let reader: Awaited<ReturnType<typeof pausedWebSocket>> | undefined;
    const grown = await peakGrowth(async () => {
      reader = await pausedWebSocket(
        ws(`/api/v1/jobs/${id}/exec?cmd=${encodeURIComponent(cmd)}`),
        ['v2.channels.neu.ro'],
        owner.headers,
      );
      // Until the command blocks on its full pipe, or has written everything.
      await eventually(() => writtenBy(marker) > 0);
      await untilHeldBack(() => writtenBy(marker), BYTES);
    });
    console.log(`exec slow reader: server RSS +${grown.toFixed(0)} MB`);
    expect(grown).toBeLessThan(SLOW_READER_BOUND_MB);
    expect(processesWith(marker).length).toBeGreaterThan(0);
    reader!.leave();
    await eventually(() => processesWith(marker).length === 0);
    await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
  });

  it(`holds back an exec client that sends ${SLOW_READER_MB} MB of input to a command that does not read it`, async () => {
    const id = await run('/usr/bin/sleep 60');
    await until(id, ['running']);
    const frame = Buffer.concat([Buffer.from([0]), Buffer.alloc(2 ** 20, 97)]);
    let sent = 0;
    let leave = () => {};
    const grown = await peakGrowth(async () => {
      ({ sent, leave } = await floodWebSocket(
        ws(`/api/v1/jobs/${id}/exec?stdin=1&cmd=${encodeURIComponent('/usr/bin/sleep 30')}`),
        ['v2.channels.neu.ro'],
        owner.headers,
        frame,
        { total: BYTES },
      ));
    });
    console.log(
      `exec input flood: ${(sent / 2 ** 20).toFixed(0)} MB taken, server RSS +${grown.toFixed(0)} MB`,
    );
    expect(grown).toBeLessThan(SLOW_READER_BOUND_MB);
    // What the pipe, the kernel and the high-water mark hold: megabytes, not hundreds.
    expect(sent).toBeLessThan(64 * 2 ** 20);
    leave();
    await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
  });

  describe('through the ingress', () => {
    let id: string;
    /** The job's own host, as its http_url names it. */
    const at = (path: string) => `http://${id}.jobs.localhost:${new URL(s.url).port}${path}`;
    beforeAll(async () => {
      id = await run(`${NODE} -e "${FLOOD}"`, {
        http: { port: 8080, requires_auth: false },
        env: { N: String(BYTES) },
      });
      await until(id, ['running']);
      // Running is not serving yet: wait for the first answer through the ingress.
      await eventually(async () => {
        const r = await pausedGet(at('/')).catch(() => null);
        r?.leave();
        return r?.status === 200;
      });
    });
    afterAll(() => call(s, 'DELETE', `/api/v1/jobs/${id}`, owner));

    it(`holds a paused HTTP reader of a job sending ${SLOW_READER_MB} MB`, async () => {
      let reader: Awaited<ReturnType<typeof pausedGet>> | undefined;
      const grown = await peakGrowth(async () => {
        const before = writtenBy(FLOOD_MARK);
        reader = await pausedGet(at('/big'));
        expect(reader.status).toBe(200);
        // Until the job blocks on its socket, or has sent everything.
        await untilHeldBack(() => writtenBy(FLOOD_MARK), before + BYTES);
      });
      console.log(`ingress HTTP slow reader: server RSS +${grown.toFixed(0)} MB`);
      expect(grown).toBeLessThan(SLOW_READER_BOUND_MB);
      reader!.leave();
    });

    it(`holds a slow WebSocket reader of a job sending ${SLOW_READER_MB} MB`, async () => {
      let reader: Awaited<ReturnType<typeof pausedWebSocket>> | undefined;
      const grown = await peakGrowth(async () => {
        const before = writtenBy(FLOOD_MARK);
        reader = await pausedWebSocket(at('/socket').replace('http', 'ws'), []);
        await untilHeldBack(() => writtenBy(FLOOD_MARK), before + BYTES);
      });
      console.log(`ingress WebSocket slow reader: server RSS +${grown.toFixed(0)} MB`);
      expect(grown).toBeLessThan(SLOW_READER_BOUND_MB);
      reader!.leave();
    });

    it(`holds back a WebSocket client sending ${SLOW_READER_MB} MB to a job that does not read`, async () => {
      let sent = 0;
      let leave = () => {};
      const grown = await peakGrowth(async () => {
        ({ sent, leave } = await floodWebSocket(
          at('/quiet').replace('http', 'ws'),
          [],
          {},
          Buffer.alloc(2 ** 20, 97),
          { total: BYTES },
        ));
      });
      console.log(
        `ingress WebSocket input flood: ${(sent / 2 ** 20).toFixed(0)} MB taken, server RSS +${grown.toFixed(0)} MB`,
      );
      expect(grown).toBeLessThan(SLOW_READER_BOUND_MB);
      expect(sent).toBeLessThan(64 * 2 ** 20);
      leave();
    });
  });
});
