import { existsSync } from 'node:fs';
import { runCommand } from './child.js';

const run = runCommand;
export const NVIDIA_SMI = '/usr/bin/nvidia-smi';

export interface GpuSample {
  /** Mean utilisation (0–100) of the GPUs the processes use. */
  dutyCycle: number;
  memoryBytes: number;
}

const rows = (csv: string) =>
  csv
    .split('\n')
    .map((l) => l.split(',').map((c) => c.trim()))
    .filter((r) => r.length > 1 && r[0] !== '');

/**
 * A job's GPU load from `nvidia-smi` output: the memory its processes hold, and the utilisation
 * of the GPUs they run on (the driver reports utilisation per GPU, not per process).
 * `apps` is `--query-compute-apps=pid,gpu_uuid,used_memory` (MiB), `gpus` is
 * `--query-gpu=uuid,utilization.gpu`, both `--format=csv,noheader,nounits`.
 */
export function parseGpuSample(apps: string, gpus: string, pids: Set<number>): GpuSample | null {
  const mine = rows(apps).filter((r) => pids.has(Number(r[0])));
  if (mine.length === 0) return null;
  const used = new Set(mine.map((r) => r[1]));
  const load = rows(gpus)
    .filter((r) => used.has(r[0]))
    .map((r) => Number(r[1]))
    .filter((n) => Number.isFinite(n));
  return {
    dutyCycle: load.length ? Math.round(load.reduce((a, b) => a + b, 0) / load.length) : 0,
    memoryBytes: mine.reduce((n, r) => n + (Number(r[2]) || 0) * 2 ** 20, 0),
  };
}

/** The GPU load of these host processes, or null without NVIDIA GPUs or GPU processes. */
export async function sampleGpu(pids: number[]): Promise<GpuSample | null> {
  if (pids.length === 0 || !existsSync(NVIDIA_SMI)) return null;
  const csv = ['--format=csv,noheader,nounits'];
  try {
    const [apps, gpus] = await Promise.all([
      run(NVIDIA_SMI, ['--query-compute-apps=pid,gpu_uuid,used_memory', ...csv]),
      run(NVIDIA_SMI, ['--query-gpu=uuid,utilization.gpu', ...csv]),
    ]);
    return parseGpuSample(apps.stdout, gpus.stdout, new Set(pids));
  } catch {
    return null;
  }
}

/** The GPU fields of a stats sample. */
export const gpuFields = (g: GpuSample | null) =>
  g ? { gpuDutyCycle: g.dutyCycle, gpuMemoryBytes: g.memoryBytes } : {};
