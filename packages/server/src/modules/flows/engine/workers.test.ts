import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processServer, tenancy } from '../../../test/fixtures.js';
import { startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { KubeStandIn } from '../../../test/kube-stand-in.js';
import { standInKubeconfig } from '../../../test/kube-fixtures.js';
import { RANK_EXCHANGE, RUN_PROG } from '../../../test/gang-programs.js';
import { BWRAP } from '../../../runtime/process/sandbox.js';
import { attemptReaches, jobsOfBake, started, tasksById } from '../../../test/flow-bakes.js';
import { workersOf } from '../../jobs/container.js';
import { eventually } from '../../../test/app-instance.js';

/** A task of two workers that find each other, then each says its rank as an output. */
const TWO_WORKERS = `kind: batch
tasks:
  - id: train
    image: busybox
    nodes: 2
    env:
      PROG: ${JSON.stringify(RANK_EXCHANGE)}
    cmd: sh -c '${RUN_PROG} && echo "::set-output name=rank$RANK::of-$WORLD_SIZE"'
`;

// Jobs of several workers on the process runtime need a root server's sandbox (docs/jobs.md).
describe.runIf(process.getuid?.() === 0 && existsSync(BWRAP))(
  'a task of several workers on the process runtime',
  () => {
    let s: TestServer;
    let owner: TestUser;
    processServer((x) => ({ s, owner } = x));

    it('runs the task as one job of the workers it asks for', async () => {
      const bakeId = await started(s, owner, TWO_WORKERS);
      const attempt = await attemptReaches(s, bakeId, ['succeeded', 'failed']);
      const tasks = await tasksById(s, attempt.id);
      expect(attempt.result, JSON.stringify(tasks.train?.state)).toBe('succeeded');
      // Both workers ran, in the task's one job: the outputs are both ranks'.
      expect(tasks.train!.outputs).toEqual({ rank0: 'of-2', rank1: 'of-2' });
      const jobs = await jobsOfBake(s, bakeId);
      expect(jobs.map(workersOf)).toEqual([2]);
    });
  },
);

/**
 * On Kubernetes, against the API server stand-in of test/kube-stand-in.ts: the task's job is a Pod
 * per worker, which the test runs as a kubelet would (their logs, then Succeeded).
 */
describe('a task of several workers on the kubernetes runtime (API server stand-in)', () => {
  let api: KubeStandIn;
  let dir: string;
  let s: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    api = await new KubeStandIn().start();
    api.nodes = [
      {
        metadata: { name: 'n1' },
        status: {
          allocatable: { cpu: '32', memory: '128Gi' },
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      },
    ];
    dir = await mkdtemp(join(tmpdir(), 'orrery-kube-flows-'));
    await writeFile(join(dir, 'kubeconfig'), standInKubeconfig(api.url));
    s = await startTestServer({
      ORRERY_RUNTIME: 'kubernetes',
      ORRERY_KUBE_CONFIG: join(dir, 'kubeconfig'),
      ORRERY_KUBE_CONTEXT: 'jobs',
    });
    ({ owner } = await tenancy(s));
  });
  afterAll(async () => {
    await s?.stop();
    await api?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the task as a Pod per worker, its outputs both workers’', async () => {
    const bakeId = await started(s, owner, TWO_WORKERS);
    const pods = await eventually(async () => {
      const names = [...api.store.get('pods')!.keys()].sort();
      if (names.length < 2) throw new Error(`Pods: ${names.join(', ')}`);
      return names;
    });
    expect(pods[1]).toBe(`${pods[0]}-w1`);
    for (const [rank, pod] of pods.entries()) {
      api.logs.set(
        pod,
        `2026-01-01T00:00:0${rank}.000000000Z ::set-output name=rank${rank}::of-2\n`,
      );
      api.setStatus(pod, {
        phase: 'Succeeded',
        containerStatuses: [
          {
            name: 'job',
            state: {
              terminated: {
                exitCode: 0,
                reason: 'Completed',
                startedAt: '2026-01-01T00:00:00Z',
                finishedAt: new Date().toISOString(),
              },
            },
          },
        ],
      });
    }
    const attempt = await attemptReaches(s, bakeId, ['succeeded', 'failed']);
    const tasks = await tasksById(s, attempt.id);
    expect(attempt.result, JSON.stringify(tasks.train?.state)).toBe('succeeded');
    expect(tasks.train!.outputs).toEqual({ rank0: 'of-2', rank1: 'of-2' });
  });

  it('fails a task asking for more workers than a job may have, starting nothing', async () => {
    // The first test's Pods may still be going (removed once their job is over): count new ones.
    const before = new Set(api.store.get('pods')!.keys());
    const bakeId = await started(s, owner, TWO_WORKERS.replace('nodes: 2', 'nodes: 1025'));
    const attempt = await attemptReaches(s, bakeId, ['succeeded', 'failed']);
    expect(attempt.result).toBe('failed');
    const tasks = await tasksById(s, attempt.id);
    expect(JSON.stringify(tasks.train!.state)).toContain(
      '`nodes` must be a whole number of workers from 1 to 1024, not \\"1025\\"',
    );
    expect(await jobsOfBake(s, bakeId)).toEqual([]);
    expect([...api.store.get('pods')!.keys()].filter((p) => !before.has(p))).toEqual([]);
  });
});
