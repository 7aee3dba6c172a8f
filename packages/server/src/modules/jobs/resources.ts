import { GPU_VENDORS, type JobContainer } from '@orrery/contract';
import type { JobLimits } from '../../runtime/driver.js';
import type { PresetRow } from '../clusters/store.js';

type Gpu = NonNullable<JobLimits['gpu']>;
type GpuCounts = Partial<Record<`${Gpu['vendor']}_gpu`, number>> &
  Partial<Record<`${Gpu['vendor']}_gpu_model`, string>>;

/** The GPUs a preset carries (`gpus` is `{vendor: {count, model}}`). */
export function presetGpu(p: PresetRow): JobLimits['gpu'] {
  const g = p.gpus as Partial<Record<Gpu['vendor'], { count: number; model?: string }>>;
  const vendor = GPU_VENDORS.find((v) => (g[v]?.count ?? 0) > 0);
  return vendor ? { vendor, count: g[vendor]!.count, model: g[vendor]!.model } : undefined;
}

/** The GPUs of wire resources (`nvidia_gpu`, `nvidia_gpu_model`, …). */
export function resourcesGpu(r: GpuCounts): JobLimits['gpu'] {
  const vendor = GPU_VENDORS.find((v) => (r[`${v}_gpu`] ?? 0) > 0);
  return vendor
    ? { vendor, count: r[`${vendor}_gpu`]!, model: r[`${vendor}_gpu_model`] }
    : undefined;
}

/** The job JSON's `container.resources`. */
export function resourcesOf(
  p: { cpu: number; memory: number; gpu?: JobLimits['gpu'] },
  shm: boolean,
): JobContainer['resources'] {
  const gpu = p.gpu
    ? {
        [`${p.gpu.vendor}_gpu`]: p.gpu.count,
        ...(p.gpu.model ? { [`${p.gpu.vendor}_gpu_model`]: p.gpu.model } : {}),
      }
    : {};
  return { cpu: p.cpu, memory: p.memory, memory_mb: Math.round(p.memory / 2 ** 20), shm, ...gpu };
}

/** What the runtime is told to reserve for a job. */
export function limitsOf(c: JobContainer): JobLimits {
  const r = c.resources;
  return { cpu: r.cpu, memory: r.memory, shm: r.shm, gpu: resourcesGpu(r) };
}
