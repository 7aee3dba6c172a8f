// A yardstick for the large downloads: plain Node `http` piping the same file to curl, in a
// process of its own (the bench's event loop must not be the server). Next to it, the gap between
// an Orrery download and `cp`/`cat` splits into what any Node HTTP server costs on this machine
// and what Orrery adds.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mbps } from './report.mjs';
import { curl } from './server.mjs';

const SERVER = `
const { createServer } = require('node:http');
const { createReadStream } = require('node:fs');
const s = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  createReadStream(process.argv[1]).pipe(res);
}).listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));
`;

/**
 * CPU time (user + system, ms) a process has used: on a shared machine the wall-clock rate of a
 * transfer swings with the neighbours' load, the server's CPU per byte much less.
 */
export function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** A bare Node HTTP server of `file`: its URL, its pid and how to stop it. */
export async function startBareHttp(file) {
  const child = spawn(process.execPath, ['-e', SERVER, file], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const port = await new Promise((resolve, reject) => {
      child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
      child.once('error', reject);
    });
    return { url: `http://127.0.0.1:${port}/`, pid: child.pid, stop: () => child.kill() };
  } catch (e) {
    child.kill();
    throw e;
  }
}

/** MB/s of a bare Node HTTP download of `file` into `out` (a path or /dev/null). */
export async function bareHttpRate(file, out, size) {
  const bare = await startBareHttp(file);
  try {
    const t0 = performance.now();
    const got = await curl(['-o', out, bare.url]);
    if (got.bytes !== size) throw new Error(`bare HTTP sent ${got.bytes} of ${size} bytes`);
    return mbps(size, performance.now() - t0);
  } finally {
    bare.stop();
  }
}
