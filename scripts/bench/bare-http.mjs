// A yardstick for the large downloads: plain Node `http` piping the same file to curl, in a
// process of its own (the bench's event loop must not be the server). Next to it, the gap between
// an Orrery download and `cp`/`cat` splits into what any Node HTTP server costs on this machine
// and what Orrery adds.
import { spawn } from 'node:child_process';
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

/** MB/s of a bare Node HTTP download of `file` into `out` (a path or /dev/null). */
export async function bareHttpRate(file, out, size) {
  const child = spawn(process.execPath, ['-e', SERVER, file], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const port = await new Promise((resolve, reject) => {
      child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
      child.once('error', reject);
    });
    const t0 = performance.now();
    const got = await curl(['-o', out, `http://127.0.0.1:${port}/`]);
    if (got.bytes !== size) throw new Error(`bare HTTP sent ${got.bytes} of ${size} bytes`);
    return mbps(size, performance.now() - t0);
  } finally {
    child.kill();
  }
}
