// Files: the storage API must stream. A 1 GiB upload and download are timed next to
// `cp` of the same file on the same disk (both are a disk-to-disk copy; the API adds HTTP and the
// server), the server's RSS is sampled during the upload (a buffered body would show as growth),
// and a 100,000-entry folder is listed to see that LISTSTATUS streams (first byte early).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, closeSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { mb, mbps, ms, notMeasured, row } from './report.mjs';
import { curl, sampleRss } from './server.mjs';
import { bareHttpRate } from './bare-http.mjs';

const MIB = 2 ** 20;
const fileMiB = Number(process.env.BENCH_FILE_MB ?? 1024);
const entries = Number(process.env.BENCH_LIST_ENTRIES ?? 100_000);

/** Random bytes (not a sparse or zero file, which cp would copy by skipping holes). */
function makeFile(path, mib) {
  const block = randomBytes(MIB);
  const fd = openSync(path, 'w');
  for (let i = 0; i < mib; i++) writeSync(fd, block);
  closeSync(fd);
}

export async function benchStorage(server, workDir) {
  const { base, headers, dataDir, pid } = { ...server, headers: server.api.headers };
  const size = fileMiB * MIB;
  const label = fileMiB === 1024 ? '1 GiB' : `${fileMiB} MiB`;
  const url = (path, op) => `${base}/api/v1/storage/bench/bench/${path}?op=${op}`;
  const src = join(workDir, 'big.bin');
  makeFile(src, fileMiB); // also leaves it in the page cache, as it is for every copy below

  // cp: the disk's own copy speed, the yardstick for both directions.
  let t0 = performance.now();
  execFileSync('cp', [src, join(workDir, 'big.cp')]);
  const cpMs = performance.now() - t0;
  rmSync(join(workDir, 'big.cp'));
  const cpRate = mbps(size, cpMs);
  row(`cp of a ${label} file (same disk)`, `${cpRate.toFixed(0)} MB/s`);

  // Upload: client reads the file, server writes it (temporary file, then rename).
  const rss = sampleRss(pid, 50);
  t0 = performance.now();
  // -T streams the file; an empty Expect skips curl's 100-continue round trip.
  const put = await curl([
    '-o',
    '/dev/null',
    '-T',
    src,
    '-H',
    'Expect:',
    '-H',
    'content-type: application/octet-stream',
    '-H',
    `authorization: ${headers.authorization}`,
    url('big.bin', 'CREATE'),
  ]);
  const upMs = performance.now() - t0;
  const { first, peak } = rss.stop();
  const stored = join(dataDir, 'storage', 'default', 'bench', 'bench', 'big.bin');
  const landed = put.status === 201 && statSync(stored, { throwIfNoEntry: false })?.size === size;
  if (!landed)
    notMeasured(
      `upload of a ${label} file (PUT op=CREATE)`,
      `answer ${put.status}, file not whole`,
    );
  else {
    const rate = mbps(size, upMs);
    row(
      `upload of a ${label} file (PUT op=CREATE)`,
      `${rate.toFixed(0)} MB/s (${ms(upMs)})`,
      `ratio to cp ${(rate / cpRate).toFixed(2)} (≥ 0.7)`,
    );
  }
  row(
    `peak server RSS during the upload (sampled every 50 ms)`,
    `${mb(peak)} (before: ${mb(first)}, +${mb(peak - first)})`,
    'flat, < 150 MB',
  );

  // Download into a file on the same disk: server reads, client writes, like cp.
  if (landed) {
    const dst = join(workDir, 'big.down');
    t0 = performance.now();
    const got = await curl([
      '-o',
      dst,
      '-H',
      `authorization: ${headers.authorization}`,
      url('big.bin', 'OPEN'),
    ]);
    const downMs = performance.now() - t0;
    const whole = got.status === 200 && statSync(dst).size === size;
    rmSync(dst);
    const bare = await bareHttpRate(src, dst, size);
    rmSync(dst);
    if (!whole)
      notMeasured(
        `download of a ${label} file (GET op=OPEN)`,
        `answer ${got.status}, file not whole`,
      );
    else {
      const rate = mbps(size, downMs);
      row(
        `download of a ${label} file (GET op=OPEN)`,
        `${rate.toFixed(0)} MB/s (${ms(downMs)})`,
        `ratio to cp ${(rate / cpRate).toFixed(2)} (≥ 0.7)`,
      );
    }
    row(
      `bare Node http of the same file to curl, written to disk`,
      `${bare.toFixed(0)} MB/s`,
      `ratio to cp ${(bare / cpRate).toFixed(2)}: the HTTP floor here`,
    );
  }
  rmSync(src);
  rmSync(stored, { force: true });

  await benchListing(server, headers);
}

/** LISTSTATUS of a folder with `entries` files, made on disk in the fs backend's layout. */
async function benchListing(server, headers) {
  const what = `LISTSTATUS of ${entries.toLocaleString('en')} entries (NDJSON)`;
  const dir = join(server.dataDir, 'storage', 'default', 'bench', 'bench', 'many');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < entries; i++)
    closeSync(openSync(join(dir, `f${String(i).padStart(6, '0')}`), 'w'));
  const listUrl = `${server.base}/api/v1/storage/bench/bench/many?op=LISTSTATUS`;
  const rss = sampleRss(server.pid, 50);
  const t0 = performance.now();
  const r = await fetch(listUrl, { headers: { ...headers, accept: 'application/x-ndjson' } });
  let firstByte = 0;
  let lines = 0;
  let tail = '';
  const decoder = new TextDecoder();
  for await (const chunk of r.body) {
    if (!firstByte) firstByte = performance.now() - t0;
    const text = tail + decoder.decode(chunk, { stream: true });
    const parts = text.split('\n');
    tail = parts.pop();
    lines += parts.filter(Boolean).length;
  }
  const total = performance.now() - t0;
  const { peak, first } = rss.stop();
  if (r.status !== 200 || lines !== entries)
    notMeasured(what, `answer ${r.status}, ${lines} lines`);
  else
    row(
      what,
      `first byte ${ms(firstByte)}, total ${ms(total)}, server RSS +${mb(peak - first)}`,
      'streamed',
    );

  // The plain JSON answer, for comparison: one document, so no first entry before the last.
  const t1 = performance.now();
  const j = await fetch(listUrl, { headers });
  const body = await j.json().catch(() => null);
  const jsonMs = performance.now() - t1;
  const n = body?.FileStatuses?.FileStatus?.length;
  if (n !== entries)
    notMeasured(
      `LISTSTATUS of ${entries.toLocaleString('en')} entries (JSON)`,
      `answer ${j.status}, ${n} entries`,
    );
  else row(`LISTSTATUS of ${entries.toLocaleString('en')} entries (JSON)`, `total ${ms(jsonMs)}`);
  rmSync(dir, { recursive: true, force: true });
}
