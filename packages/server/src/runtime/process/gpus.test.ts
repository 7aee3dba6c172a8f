import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProcessDriver } from './driver.js';
import { BWRAP } from './sandbox.js';
import { logOf, spec, until } from '../../test/process-jobs.js';
import type { JobSpec } from '../driver.js';

const sandboxed = existsSync(BWRAP) && process.getuid?.() === 0;
const dataDir = mkdtempSync('/var/tmp/orrery-gpus-');

/**
 * STAND-IN GPUs: this machine's GPUs as ORRERY_GPU_DESCRIPTION states them (one NVIDIA A100),
 * not probed. No such device is here: the sandbox binds only the device nodes the host has, so
 * what is tested is the runtime's accounting of the described GPU and the environment it gives
 * the job, not a GPU at work (that needs a GPU machine).
 */
const DESCRIBED = { nvidia: { count: 1, model: 'A100' } };

const gpuJob = (command: string): JobSpec =>
  spec(command, {
    limits: { cpu: 0.5, memory: 256 * 2 ** 20, shm: false, gpu: { vendor: 'nvidia', count: 1 } },
  });

describe('Process runtime with a GPU description (a stand-in for the probe)', () => {
  let driver: ProcessDriver;
  const started: string[] = [];

  beforeAll(() => {
    driver = new ProcessDriver({
      dataDir,
      killGraceMs: 1000,
      gpus: DESCRIBED,
      // Without bubblewrap or root, the bare path: the GPU accounting is the same.
      ...(sandboxed ? {} : { sandbox: false, unsandboxedJobs: 'allow' as const }),
    });
  });
  afterAll(async () => {
    for (const id of started) await driver.remove(id);
    await driver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reports this machine as the one node of `local`, with the described GPU', async () => {
    const [node, ...rest] = await driver.nodes();
    expect(rest).toEqual([]);
    expect(node).toMatchObject({ name: hostname(), pool: 'local', gpus: { nvidia: 1 } });
    expect(node!.cpu).toBeGreaterThan(0);
    expect(node!.memory).toBeGreaterThan(0);
    expect((await driver.capacity())[0]!.gpu).toEqual({
      vendor: 'nvidia',
      count: 1,
      model: 'A100',
    });
  });

  it(`starts a job asking for the one GPU${sandboxed ? ' in the sandbox' : ''}, refuses a second while it holds it, and starts one once it is freed`, async () => {
    const first = gpuJob('echo "gpus=$CUDA_VISIBLE_DEVICES"; sleep 30');
    started.push(first.id);
    await driver.start(first);
    await vi.waitFor(async () => expect(await logOf(driver, first.id)).toContain('gpus=0\n'), {
      timeout: 15_000,
      interval: 50,
    });
    expect((await driver.observe(first.id)).state).toBe('running');

    const second = gpuJob('echo second');
    await expect(driver.start(second)).rejects.toThrow(
      'Not enough free NVIDIA GPUs for 1 on this machine',
    );
    // A CPU job is not held back by the GPU.
    const cpu = spec('echo "cpu gpus=[$CUDA_VISIBLE_DEVICES]"');
    started.push(cpu.id);
    await driver.start(cpu);
    await until(driver, cpu.id, 'exited', 15_000);
    expect(await logOf(driver, cpu.id)).toBe('cpu gpus=[]\n');

    await driver.kill(first.id);
    await until(driver, first.id, 'exited', 15_000);
    const third = gpuJob('echo "gpus=$CUDA_VISIBLE_DEVICES"');
    started.push(third.id);
    await driver.start(third);
    await until(driver, third.id, 'exited', 15_000);
    expect(await logOf(driver, third.id)).toBe('gpus=0\n');
  });
});
