import { describe, expect, it } from 'vitest';
import type { SlurmJob } from './client.js';
import { exitCodeOf, observedOf } from './state.js';

const job = (over: Partial<SlurmJob>): SlurmJob => ({
  id: 7,
  name: 'orrery-job-1',
  user: 'orrery-slurm',
  state: 'RUNNING',
  reason: 'None',
  exitCode: 0,
  startTime: 1_700_000_000,
  endTime: 1_700_000_060,
  batchHost: 'n1',
  restarts: 0,
  cpus: 1,
  allocated: [{ node: 'n1', memoryMb: 256 }],
  gres: [],
  ...over,
});

describe('Slurm job states', () => {
  it('decodes raw wait statuses as a shell does', () => {
    expect(exitCodeOf(0)).toBe(0);
    expect(exitCodeOf(768)).toBe(3);
    expect(exitCodeOf(15)).toBe(143);
    expect(exitCodeOf(9)).toBe(137);
  });

  it('maps pending with its reason, running with its start, and the ends', () => {
    expect(observedOf(job({ state: 'PENDING', reason: 'Resources' }), 0)).toEqual({
      state: 'starting',
      reason: 'Resources',
    });
    expect(observedOf(job({ state: 'PENDING' }), 0)).toEqual({
      state: 'starting',
      reason: 'Scheduling',
    });
    expect(observedOf(job({}), 0)).toEqual({
      state: 'running',
      startedAt: new Date(1_700_000_000_000),
    });
    expect(observedOf(job({ state: 'FAILED', exitCode: 768 }), 0)).toMatchObject({
      state: 'exited',
      exitCode: 3,
      finishedAt: new Date(1_700_000_060_000),
    });
    expect(observedOf(job({ state: 'OUT_OF_MEMORY', exitCode: 253 }), 100e6)).toMatchObject({
      exitCode: 137,
      reason: 'OOMKilled',
      message: 'Killed: the job exceeded its memory limit of 100 MB',
    });
    // Seen before Slurm settles OUT_OF_MEMORY: still ending, then failed with the OOM mark.
    expect(observedOf(job({ state: 'COMPLETING', exitCode: 253 }), 100e6)).toMatchObject({
      state: 'running',
    });
    expect(observedOf(job({ state: 'FAILED', exitCode: 253 }), 100e6)).toMatchObject({
      exitCode: 137,
      reason: 'OOMKilled',
    });
    expect(observedOf(job({ state: 'NODE_FAIL', exitCode: 15 }), 0)).toMatchObject({
      exitCode: 143,
      reason: 'NodeFail',
      message: 'The job was lost with its node n1',
    });
    expect(observedOf(job({ state: 'TIMEOUT' }), 0)).toMatchObject({ reason: 'LifeSpanEnded' });
  });

  it('calls a job Slurm requeued after its node failed lost, not pending', () => {
    expect(
      observedOf(job({ state: 'PENDING', reason: 'BeginTime', restarts: 1 }), 0),
    ).toMatchObject({ state: 'exited', reason: 'NodeFail' });
  });
});
