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
import { workersOf } from '../../jobs/store.js';

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
 * On a runtime that runs no job of several workers (Kubernetes, against the API server stand-in
 * of test/kube-stand-in.ts), the task fails with the runtime's reason and starts nothing.
 */
describe('a task of several workers where the runtime runs none', () => {
  let api: KubeStandIn;
  let dir: string;
  let s: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    api = await new KubeStandIn().start();
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

  it('fails the task with the runtime’s reason', async () => {
    const bakeId = await started(s, owner, TWO_WORKERS);
    const attempt = await attemptReaches(s, bakeId, ['succeeded', 'failed']);
    expect(attempt.result).toBe('failed');
    const tasks = await tasksById(s, attempt.id);
    expect(tasks.train!.status).toBe('failed');
    expect(JSON.stringify(tasks.train!.state)).toMatch(
      /The kubernetes runtime does not run jobs of several workers yet \(nodes: 2\)/,
    );
    expect(await jobsOfBake(s, bakeId)).toEqual([]);
    expect(api.store.get('pods')?.size ?? 0).toBe(0);
  });
});
