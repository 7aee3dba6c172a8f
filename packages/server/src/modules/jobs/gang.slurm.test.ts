import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, jobReaches, tenancy } from '../../test/fixtures.js';
import {
  DDP_TRAINING,
  MPI_ALLREDUCE,
  MPI_INSTALLED,
  MPI_REFUSALS,
  MPI_RUN,
  mpiLines,
  RANK_EXCHANGE,
  RUN_PROG,
  SENT_BEFORE_EXIT,
} from '../../test/gang-programs.js';
import { framesUntilClose, injectAt, whenServing } from '../../test/ingress.js';
import { setupBlock } from '../../test/slurm-cluster.js';

const SCOPE = { cluster_name: 'default', org_name: 'acme', project_name: 'vision' };
const conf = process.env.ORRERY_TEST_SLURM_CONF;
const user = process.env.ORRERY_TEST_SLURM_USER ?? 'orrery-slurm';

/** Listens on MASTER_PORT for ten minutes: what lets a gang's other workers start (rank 0 listens). */
const LISTEN = `/usr/bin/python3 -c "import os, signal, socket; s = socket.create_server(('', int(os.environ['MASTER_PORT']))); signal.pause()"`;

/** Debian's python3-torch (1.13, CPU): scripts/test.mjs installs it where it can. */
const torch = existsSync('/usr/lib/python3/dist-packages/torch/__init__.py');

const mpi = MPI_INSTALLED;

const slurm = (cmd: string, args: string[]) =>
  String(execFileSync(cmd, args, { env: { ...process.env, SLURM_CONF: conf } }));

/**
 * Jobs of several workers on the slurm runtime (docs/jobs.md "Distributed jobs"), through the
 * API, on the test cluster's two nodes. Both nodes are this machine: for the test each gets an
 * address of its own (on loopback, as NodeAddr), as two machines would have, since a worker's
 * network has its node's address and a worker reaching its own address reaches itself. A
 * connection from one to the other leaves from the other's address, as between two machines (on
 * one machine the kernel would take the address it connects to as its source, which in the
 * listening worker's network is the worker's own).
 * Preset `cpu-large` takes a whole node: one worker per node, as Slurm places them.
 */
describe.skipIf(!conf)('jobs of several workers on the slurm runtime', () => {
  let s: TestServer;
  let owner: TestUser;
  let shared: string;
  const created: string[] = [];
  const nodes = conf
    ? [...readFileSync(conf, 'utf8').matchAll(/^NodeName=(\S+)/gm)].map((m) => m[1])
    : [];
  const net = `198.18.${randomInt(1, 255)}`;
  const addresses = nodes.map((_, i) => `${net}.${i + 1}`);

  const submit = async (command: string, extra: Record<string, unknown> = {}) => {
    const r = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
      ...SCOPE,
      preset_name: 'cpu-large',
      image: 'ubuntu',
      command,
      ...extra,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    created.push(r.body.id as string);
    return r.body.id as string;
  };
  const until = (id: string, status: string) => jobReaches(s, owner, id, status, 180_000);
  const log = async (id: string, query = '') =>
    (
      await s.app.inject({
        method: 'GET',
        url: `/api/v1/jobs/${id}/log${query}`,
        headers: owner.headers,
      })
    ).body;

  /** What `cmd` prints in the job (`&worker=N` in `query`), with `input` on its stdin (read to its end, not closed), and its exit. */
  const exec = async (id: string, cmd: string, query = '', input?: string) => {
    const stdin = input === undefined ? '' : '&stdin=1';
    const url = `${s.url.replace('http', 'ws')}/api/v1/jobs/${id}/exec?cmd=${encodeURIComponent(cmd)}${stdin}${query}`;
    const ws = new WebSocket(url, [], { headers: owner.headers });
    if (input !== undefined) {
      ws.once('open', () => {
        ws.send(Buffer.concat([Buffer.from([0]), Buffer.from(input)]));
      });
    }
    const frames = await framesUntilClose(ws);
    const of = (c: number) =>
      Buffer.concat(frames.filter((f) => f[0] === c).map((f) => f.subarray(1))).toString();
    const exit = frames.find((f) => f[0] === 3);
    return { out: of(1), err: of(2), exit: exit && JSON.parse(exit.subarray(1).toString()) };
  };

  /** The first sample of the job's top stream (`?worker=N` in `query`), in bytes of memory. */
  const memory = (id: string, query = '') =>
    new Promise<number>((resolve, reject) => {
      const url = `${s.url.replace('http', 'ws')}/api/v1/jobs/${id}/top${query}`;
      const ws = new WebSocket(url, [], { headers: owner.headers });
      ws.once('message', (d) => {
        resolve((JSON.parse(String(d)) as { memory_bytes: number }).memory_bytes);
        ws.close();
      });
      ws.once('error', reject);
      ws.once('close', () => reject(new Error('closed before a sample')));
    });

  beforeAll(async () => {
    for (const [i, node] of nodes.entries()) {
      execFileSync('ip', ['addr', 'replace', `${addresses[i]}/32`, 'dev', 'lo']);
      slurm('scontrol', ['update', `nodename=${node}`, `nodeaddr=${addresses[i]}`]);
    }
    for (const [i, address] of addresses.entries()) {
      const other = addresses[(i + 1) % addresses.length];
      execFileSync('ip', [
        ...['route', 'change', 'local', address, 'dev', 'lo', 'table', 'local'],
        ...['proto', 'kernel', 'scope', 'host', 'src', other],
      ]);
    }
    shared = mkdtempSync(join(process.env.ORRERY_TEST_SLURM_SHARED ?? tmpdir(), 'gang-'));
    chmodSync(shared, 0o755);
    s = await startTestServer(
      {
        ORRERY_RUNTIME: 'slurm',
        ORRERY_SLURM_CONF: conf!,
        ORRERY_SLURM_USER: user,
        ORRERY_SLURM_SHARED_DIR: shared,
        ORRERY_KILL_GRACE_SECONDS: '2',
      },
      { persistent: true, listen: true },
    );
    ({ owner } = await tenancy(s));
  }, 300_000);
  afterAll(async () => {
    for (const id of created) await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner).catch(() => 0);
    await s?.stop();
    rmSync(shared, { recursive: true, force: true });
    for (const [i, node] of nodes.entries()) {
      slurm('scontrol', ['update', `nodename=${node}`, 'nodeaddr=127.0.0.1']);
      execFileSync('ip', ['addr', 'del', `${addresses[i]}/32`, 'dev', 'lo']);
    }
  });

  it('offers workers and refuses a gang larger than the cluster', async () => {
    const info = await call(s, 'GET', '/api/v1/jobs/runtime', owner);
    expect(info.body).toMatchObject({ name: 'slurm' });
    expect(info.body.workers_refusal).toBeUndefined();
    const r = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
      ...SCOPE,
      preset_name: 'cpu-large',
      image: 'ubuntu',
      command: 'true',
      nodes: 3,
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(
      /^The job can never start: its 3 workers each need .*, and the nodes it may use hold at most 2 of them at once$/,
    );
  });

  it('runs two workers, one a node, that find each other by the addresses in their environment', async () => {
    const id = await submit(RUN_PROG, { nodes: 2, env: { PROG: RANK_EXCHANGE } });
    const done = await until(id, 'succeeded');
    expect(done.history.exit_code).toBe(0);
    const lines = (await log(id)).trim().split('\n').sort();
    expect(lines).toEqual([
      expect.stringMatching(/^rank 0 of 2 heard ranks 1 uid \d+$/),
      expect.stringMatching(/^rank 1 of 2 heard rank 0 uid \d+$/),
    ]);
    // Each worker's own output.
    expect(await log(id, '?worker=1')).toBe(`${lines[1]}\n`);
    expect(await log(id, '?worker=0')).toBe(`${lines[0]}\n`);
  }, 300_000);

  it("keeps a worker's network until the others have ended: what it sent before exiting arrives", async () => {
    const id = await submit(RUN_PROG, { nodes: 2, env: { PROG: SENT_BEFORE_EXIT } });
    const done = await until(id, 'succeeded');
    const out = await log(id);
    expect(done.history.exit_code, out).toBe(0);
    const [, got, sent] = /^rank 1 got (\d+) of (\d+) bytes$/m.exec(out) ?? [];
    expect(Number(sent), out).toBeGreaterThan(0);
    expect(got).toBe(sent);
  }, 300_000);

  it('lets the workers reach each other under the node rule of docs/operations.md', async () => {
    const ports = [...readFileSync(conf!, 'utf8').matchAll(/^NodeName=\S+ .*Port=(\d+)/gm)];
    execFileSync('sh', [
      '-ec',
      setupBlock('the node rule', {
        user,
        node: addresses.join(','),
        cluster: addresses.join(','),
        slurm: ports.map((m) => m[1]).join(','),
      }),
    ]);
    try {
      const id = await submit(RUN_PROG, { nodes: 2, env: { PROG: RANK_EXCHANGE } });
      expect((await until(id, 'succeeded')).history.exit_code).toBe(0);
      expect((await log(id)).trim().split('\n').sort()).toEqual([
        expect.stringMatching(/^rank 0 of 2 heard ranks 1 /),
        expect.stringMatching(/^rank 1 of 2 heard rank 0 /),
      ]);
    } finally {
      execFileSync('nft', ['delete', 'table', 'inet', 'orrery-slurm'], { stdio: 'ignore' });
    }
  }, 300_000);

  it.skipIf(!torch)(
    `trains a model with PyTorch DDP (gloo) on two workers, one a node${torch ? '' : ' (skipped: python3-torch is not installed)'}`,
    async () => {
      const id = await submit(RUN_PROG, { nodes: 2, env: { PROG: DDP_TRAINING } });
      const done = await until(id, 'succeeded');
      const out = await log(id);
      expect(done.history.exit_code, out).toBe(0);
      const ranks = [
        ...out.matchAll(/^rank (\d) of 2 params ([-\d. ]+) loss ([\d.]+) ([\d.]+)$/gm),
      ];
      expect(ranks.map((m) => m[1]).sort(), out).toEqual(['0', '1']);
      // The gradients were all-reduced: both ranks end with the same parameters.
      expect(ranks[0][2]).toBe(ranks[1][2]);
      // And the model learned: the loss fell to a tenth at least.
      for (const m of ranks) expect(Number(m[4])).toBeLessThan(Number(m[3]) / 10);
    },
    300_000,
  );

  it.skipIf(!mpi)(
    `runs an MPI all-reduce across the workers, one a node, with plain mpirun${mpi ? '' : ' (skipped: openmpi-bin or python3-mpi4py is not installed)'}`,
    async () => {
      const command = `if [ "$RANK" = 0 ]; then ${MPI_REFUSALS}; fi; ${MPI_RUN}`;
      const id = await submit(command, { nodes: 2, env: { PROG: MPI_ALLREDUCE } });
      const done = await until(id, 'succeeded');
      const merged = await log(id);
      expect(done.history.exit_code, merged).toBe(0);
      // mpirun ran on worker 0, rank 1 in worker 1: each printed the sum of the ranks.
      for (const line of mpiLines(id)) expect(merged).toContain(line);
    },
    300_000,
  );

  it('starts the other workers once rank 0 has exited, when it never listened', async () => {
    const id = await submit('echo "worker $RANK"', { nodes: 2 });
    expect((await until(id, 'succeeded')).history.exit_code).toBe(0);
    expect((await log(id)).split('\n').sort()).toEqual(['', 'worker 0', 'worker 1']);
  }, 300_000);

  it('fails the job when a worker fails, with the reason, having stopped the other', async () => {
    const id = await submit(
      `if [ "$RANK" = 1 ]; then echo one; exit 3; fi; echo zero; exec ${LISTEN}`,
      { nodes: 2 },
    );
    const done = await until(id, 'failed');
    expect(done.history).toMatchObject({
      exit_code: 3,
      description: 'Worker 1 of 2 exited with code 3; the other workers were stopped',
    });
    expect(await log(id, '?worker=1')).toBe('one\n');
    expect(await log(id, '?worker=0')).toBe('zero\n');
    // Nothing of the job is left in Slurm.
    expect(slurm('squeue', ['-h', '-n', `orrery-${id}`, '-t', 'R,CG'])).toBe('');
  }, 300_000);

  it("serves the job's HTTP port from worker 0, forwarded from its node", async () => {
    const page = 'echo "worker $RANK" > /tmp/index.html; cd /tmp';
    const id = await submit(
      `${page}; if [ "$RANK" = 0 ]; then ${LISTEN} & fi; exec /usr/bin/python3 -m http.server "$PORT"`,
      { nodes: 2, http: { port: 8000, requires_auth: true } },
    );
    await until(id, 'running');
    const at = `http://${id}.jobs.localhost:${new URL(s.url!).port}/index.html`;
    const answer = await whenServing(() => injectAt(s, at, { headers: owner.headers }));
    expect(answer.body).toBe('worker 0\n');
    expect((await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner)).status).toBe(204);
    await until(id, 'cancelled');
  }, 300_000);

  it('streams the stats of each worker, sampled on its node, and their sum', async () => {
    // Worker 0 holds 48 MiB, worker 1 96 MiB, until killed; each listens on MASTER_PORT, as rank
    // 0 must for the others to start.
    const hold = (mib: number) =>
      `/usr/bin/python3 -c "import os, signal, socket; s = socket.create_server(('', int(os.environ['MASTER_PORT']))); b = b'x' * (${mib} << 20); signal.pause()"`;
    const id = await submit(`if [ "$RANK" = 1 ]; then exec ${hold(96)}; fi; exec ${hold(48)}`, {
      nodes: 2,
    });
    await until(id, 'running');
    const MiB = 2 ** 20;
    const each = await vi.waitFor(
      async () => {
        const [zero, one] = [await memory(id, '?worker=0'), await memory(id, '?worker=1')];
        expect(zero).toBeGreaterThan(48 * MiB);
        expect(one).toBeGreaterThan(96 * MiB);
        return zero;
      },
      { timeout: 60_000, interval: 200 },
    );
    // The job's own: both workers' added up, more than worker 0 holds alone by worker 1's.
    expect(await memory(id)).toBeGreaterThan(each + 90 * MiB);
    expect((await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner)).status).toBe(204);
    await until(id, 'cancelled');
  }, 300_000);

  it('runs a command in a chosen worker, and in a job of one worker, as a step on its node', async () => {
    const id = await submit(`echo "up $RANK"; exec ${LISTEN}`, { nodes: 2 });
    await until(id, 'running');
    // In the worker's sandbox: its host name, its environment, its pid namespace.
    const where = 'echo "$RANK $(hostname) $$"';
    const zero = await exec(id, where);
    expect(zero).toMatchObject({
      out: expect.stringMatching(`^0 ${id}.w0 \\d+\n$`),
      exit: { exit_code: 0 },
    });
    const one = await exec(id, where, '&worker=1');
    expect(one).toMatchObject({
      out: expect.stringMatching(`^1 ${id}.w1 \\d+\n$`),
      exit: { exit_code: 0 },
    });
    // Its own pid namespace: few processes, not the node's.
    expect(Number(one.out.trim().split(' ')[2])).toBeLessThan(100);
    expect((await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner)).status).toBe(204);
    await until(id, 'cancelled');
    // Both nodes are free again for a job of one worker (the preset takes a whole node).
    const single = await submit('echo up; exec sleep 600');
    await until(single, 'running');
    // Input in, the command's exit code back; the job's sandbox and its files.
    const read = await exec(
      single,
      'read -r line; echo "$line" > /tmp/note; cat /tmp/note; hostname; exit 3',
      '',
      'hello\n',
    );
    expect(read).toEqual({ out: `hello\n${single}\n`, err: '', exit: { exit_code: 3 } });
    expect(await exec(single, 'cat /tmp/note')).toMatchObject({
      out: 'hello\n',
      exit: { exit_code: 0 },
    });
    // Nothing of the node: its processes stay out of sight.
    expect((await exec(single, 'ls /proc | grep -c "^[0-9]"')).out.trim()).toMatch(/^\d$/);
    expect((await call(s, 'DELETE', `/api/v1/jobs/${single}`, owner)).status).toBe(204);
    await until(single, 'cancelled');
  }, 300_000);

  it('kills both workers when the job is killed: cancelled', async () => {
    const id = await submit(`echo "up $RANK"; exec ${LISTEN}`, { nodes: 2 });
    await until(id, 'running');
    // The merged output file (the log route would follow a running job's log).
    const out = join(shared, 'jobs', id, 'out.log');
    await expect
      .poll(() => (existsSync(out) ? readFileSync(out, 'utf8') : ''), { timeout: 30_000 })
      .toMatch(/up [01]\n.*up [01]\n/s);
    expect((await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner)).status).toBe(204);
    await until(id, 'cancelled');
    expect((await log(id)).split('\n').sort()).toEqual(['', 'up 0', 'up 1']);
  }, 300_000);
});
