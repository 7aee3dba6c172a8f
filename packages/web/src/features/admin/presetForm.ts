import {
  ADMIN_TEXTS,
  GPU_VENDORS,
  MEMORY_UNITS,
  PRESET_MIN_CPU,
  PresetFields,
  memoryOfField,
  presetPoolIssues,
  type GpuVendor,
  type MemoryUnit,
  type PoolCapacity,
} from '@orrery/contract';
import type { NodePoolStatus, Preset } from '../../api/admin';
import { issuesOf } from '../../ui/issues';

export interface PresetFormValues {
  name: string;
  cpu: string;
  memory: string;
  unit: MemoryUnit;
  credits: string;
  gpuMake: GpuVendor | null;
  gpuModel: string | null;
  gpuCount: string;
  preemptible: boolean;
  roundRobin: boolean;
}
export type PresetFormErrors = Partial<Record<keyof PresetFormValues, string>>;

export const EMPTY_PRESET: PresetFormValues = {
  name: '',
  cpu: '',
  memory: '',
  unit: 'GB',
  credits: '0',
  gpuMake: null,
  gpuModel: null,
  gpuCount: '',
  preemptible: false,
  roundRobin: false,
};

/** An existing preset in the form: memory in the largest unit that keeps it whole enough. */
export function presetValues(p: Preset): PresetFormValues {
  const unit = (['TB', 'GB', 'MB'] as const).find((u) => p.memory >= MEMORY_UNITS[u]) ?? 'MB';
  const make = GPU_VENDORS.find((v) => p[`${v}Gpu`]) ?? null;
  const gpu = make ? p[`${make}Gpu`] : undefined;
  return {
    name: p.name,
    cpu: String(p.cpu),
    memory: String(Number((p.memory / MEMORY_UNITS[unit]).toFixed(3))),
    unit,
    credits: p.creditsPerHour,
    gpuMake: make,
    gpuModel: gpu?.model ?? null,
    gpuCount: gpu ? String(gpu.count) : '',
    preemptible: p.isPreemptible,
    roundRobin: p.schedulerEnabled,
  };
}

export const poolCapacities = (pools: NodePoolStatus[]): PoolCapacity[] =>
  pools.map((p) => ({
    name: p.name,
    cpu: p.cpu,
    memory: p.memory,
    isPreemptible: p.isPreemptible,
    gpus: Object.fromEntries(
      p.gpus.map((g) => [g.make, { count: g.count, model: g.model ?? undefined }]),
    ),
  }));

/** Models the pools offer for a GPU make, for the model select. */
export const gpuModels = (pools: PoolCapacity[], make: GpuVendor | null) =>
  make
    ? [...new Set(pools.flatMap((p) => (p.gpus[make]?.model ? [p.gpus[make]!.model!] : [])))]
    : [];

/** Where each server-side (and shared) rule's path lands in the form. */
const FIELD_OF: Record<string, keyof PresetFormValues> = {
  name: 'name',
  cpu: 'cpu',
  memory: 'memory',
  credits_per_hour: 'credits',
  preemptible_node: 'preemptible',
  resource_pool_names: 'name',
  ...Object.fromEntries(
    GPU_VENDORS.flatMap((v) => [
      [`${v}_gpu.count`, 'gpuCount'],
      [`${v}_gpu.model`, 'gpuModel'],
    ]),
  ),
};
export const presetFieldOf = (path: string) => FIELD_OF[path];

/**
 * Every rule of the preset form: the field rules first, then — once those pass —
 * the rules against the cluster's node pools, shared with the server. Returns the wire body
 * when the preset is valid.
 */
export function validatePreset(
  v: PresetFormValues,
  pools: PoolCapacity[],
): { errors: PresetFormErrors; body: Record<string, unknown> | null } {
  const errors: PresetFormErrors = {};
  if (v.name.trim() === '') errors.name = ADMIN_TEXTS.nameRequired;
  const cpu = Number(v.cpu.trim() === '' ? NaN : v.cpu);
  if (!Number.isFinite(cpu)) errors.cpu = ADMIN_TEXTS.cpuNaN;
  else if (cpu < PRESET_MIN_CPU) errors.cpu = ADMIN_TEXTS.cpuMin;
  const memory = memoryOfField(v.memory, v.unit);
  if ('error' in memory) errors.memory = memory.error;
  const credits = Number(v.credits.trim() === '' ? NaN : v.credits);
  if (!Number.isFinite(credits) || credits < 0) errors.credits = ADMIN_TEXTS.creditsInvalid;
  const count = v.gpuMake ? Number(v.gpuCount.trim() === '' ? 0 : v.gpuCount) : 0;
  if (v.gpuMake && (!Number.isInteger(count) || count < 0))
    errors.gpuCount = ADMIN_TEXTS.numberInvalid;
  if (Object.keys(errors).length > 0 || 'error' in memory) return { errors, body: null };

  const gpu = v.gpuMake ? { count, ...(v.gpuModel ? { model: v.gpuModel } : {}) } : undefined;
  const shape = {
    cpu,
    memory: memory.bytes,
    isPreemptible: v.preemptible,
    gpus: v.gpuMake && gpu ? { [v.gpuMake]: gpu } : {},
  };
  for (const issue of presetPoolIssues(shape, pools)) {
    const field = presetFieldOf(issue.path);
    if (field) errors[field] ??= issue.message;
  }
  if (Object.keys(errors).length > 0) return { errors, body: null };
  const body = {
    name: v.name.trim(),
    cpu,
    memory: memory.bytes,
    credits_per_hour: String(credits),
    preemptible_node: v.preemptible,
    scheduler_enabled: v.roundRobin,
    ...(v.gpuMake && gpu ? { [`${v.gpuMake}_gpu`]: gpu } : {}),
  };
  // The bounds of the columns (a name's length, credits below 10^16) as the server checks them.
  for (const [path, message] of Object.entries(issuesOf(PresetFields, body))) {
    errors[presetFieldOf(path) ?? 'name'] ??= message;
  }
  return { errors, body: Object.keys(errors).length > 0 ? null : body };
}
