import { existsSync, mkdtempSync, readFileSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ObservedState } from '../driver.js';
import type { SlurmJob } from './client.js';
import { slurmClient } from './connect.js';
import { SlurmDriver } from './driver.js';
import type { SlurmOptions } from './options.js';
import {
  beforeLaunch,
  commandSpec,
  slurmApis,
  testCluster,
  type TestCluster,
} from '../../test/slurm-cluster.js';

/**
 * A kill on Slurm at whatever moment it comes, on the cluster of scripts/slurm.mjs (as
 * driver.slurm.test.ts): the command gets SIGTERM, then SIGKILL from Orrery after the grace
 * period, not from Slurm at its KillWait; a kill in the first instants after Slurm allocated the
 * job, before its command started, lands too. Running means the command started.
 */
const { conf, restUrl: rest, jwtKeyPath: jwtKey, user } = testCluster ?? ({} as TestCluster);
const apis = slurmApis;
const GRACE_MS = 1000;
/** Slurm's states of a job that still holds processes on its node. */
const HOLDING = ['PENDING', 'CONFIGURING', 'RUNNING', 'COMPLETING', 'SUSPENDED'];

/** Takes SIGTERM, says so in a file of its /tmp, and runs on: only SIGKILL ends it. */
const STUBBORN = `trap 'echo TERM >> /tmp/got' TERM; echo started >> /tmp/got; while :; do sleep 0.1; done`;

let n = 0;
const spec = (command: string) =>
  commandSpec(`k${process.pid}-${Date.now().toString(36)}-${n++}`, command);

describe.skipIf(apis.length === 0).each(apis)('a kill on Slurm ($api)', ({ api }) => {
  let shared: string;
  let driver: SlurmDriver;
  let options: SlurmOptions;
  const jobDir = (id: string) => join(shared, 'jobs', id);
  const got = (id: string) => {
    const f = join(jobDir(id), 'tmp', 'got');
    return existsSync(f) ? readFileSync(f, 'utf8') : '';
  };
  const slurmJob = async (id: string): Promise<SlurmJob | null> => {
    const rec = JSON.parse(readFileSync(join(jobDir(id), 'job.json'), 'utf8')) as {
      slurmId: number;
    };
    return slurmClient(options).job(rec.slurmId);
  };
  const until = async (id: string, want: (s: ObservedState) => boolean) => {
    return vi.waitFor(
      async () => {
        const s = await driver.observe(id);
        expect(want(s), `job ${id} in the state wanted`).toBe(true);
        return s;
      },
      { timeout: 30_000 },
    );
  };

  beforeAll(async () => {
    shared = mkdtempSync(join(process.env.ORRERY_TEST_SLURM_SHARED ?? tmpdir(), 'kill-'));
    chmodSync(shared, 0o755);
    options = { api, conf, restUrl: rest, jwtKeyFile: jwtKey, user, sharedDir: shared };
    driver = await SlurmDriver.connect(options, GRACE_MS);
  });
  afterAll(async () => {
    await driver?.close();
    rmSync(shared, { recursive: true, force: true });
  });

  it('says running once the command started, and ends a command that ignores SIGTERM with SIGKILL after the grace', async () => {
    const job = spec(STUBBORN);
    await driver.start(job);
    const running = await until(job.id, (s) => s.state === 'running');
    // The command's start, not Slurm's allocation (whole seconds, before the sandbox was set up).
    const allocated = (await slurmJob(job.id))!.startTime * 1000;
    expect((running as { startedAt: Date }).startedAt.getTime()).toBeGreaterThan(allocated);
    await expect.poll(() => got(job.id)).toContain('started');
    await driver.kill(job.id);
    // Over in Slurm when kill() returns: no process of it left for Slurm's KillWait.
    expect(HOLDING).not.toContain((await slurmJob(job.id))?.state);
    expect(got(job.id)).toBe('started\nTERM\n');
    expect(await driver.observe(job.id)).toMatchObject({ state: 'exited' });
    // Launched without the service user's login environment (the test cluster's is nologin).
    expect(beforeLaunch(testCluster!, (await slurmJob(job.id))!.id)).not.toMatch(
      /user environment|get_user_env/,
    );
  });

  it('lands a kill sent as soon as Slurm allocated the job', async () => {
    const job = spec(STUBBORN);
    await driver.start(job);
    // Killed the moment Slurm runs it: the batch step is launching, the sandbox being set up.
    await vi.waitFor(async () => expect((await slurmJob(job.id))?.state).toBe('RUNNING'), {
      timeout: 12_000,
      interval: 20,
    });
    await driver.kill(job.id);
    expect(HOLDING).not.toContain((await slurmJob(job.id))?.state);
    // Either the command never started, or it had SIGTERM before it ended.
    expect(['', 'started\nTERM\n']).toContain(got(job.id));
    expect(await driver.observe(job.id)).toMatchObject({ state: 'exited' });
  });
});
