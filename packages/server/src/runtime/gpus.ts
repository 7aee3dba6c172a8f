// The GPUs of this machine, by vendor: probed from `nvidia-smi` and the device nodes, or taken
// whole from the operator's description (ORRERY_GPU_DESCRIPTION, docs/operations.md) where they
// cannot be probed, and in tests.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { NodeCapacity, PoolCapacity } from './driver.js';

export type GpuVendor = 'nvidia' | 'amd' | 'intel';

export interface GpuKind {
  count: number;
  model?: string;
  /** Bytes of one GPU. */
  memory?: number;
}

export type MachineGpus = Partial<Record<GpuVendor, GpuKind>>;

const kind = z
  .object({
    count: z.number().int().min(0),
    model: z.string().min(1).optional(),
    memory: z.number().int().min(0).optional(),
  })
  .strict();

const description = z
  .object({ nvidia: kind.optional(), amd: kind.optional(), intel: kind.optional() })
  .strict();

/**
 * ORRERY_GPU_DESCRIPTION: JSON such as `{"nvidia":{"count":2,"model":"A100"}}` inline (it starts
 * with `{`), or the path of a file holding it. Throws with the reason, for the configuration error.
 */
export function parseGpuDescription(value: string): MachineGpus {
  const inline = value.trim().startsWith('{');
  let text = value;
  if (!inline) {
    try {
      text = readFileSync(value, 'utf8');
    } catch (e) {
      throw new Error(`cannot read ${value}: ${(e as NodeJS.ErrnoException).code ?? e}`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(
      `${inline ? 'not' : `${value} does not hold`} JSON like {"nvidia":{"count":2}}`,
    );
  }
  const parsed = description.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issue.path.join('.');
    throw new Error(`${at ? `${at}: ` : ''}${issue.message}`);
  }
  // A vendor of count 0 is the same as none: nothing downstream offers an empty kind.
  return Object.fromEntries(Object.entries(parsed.data).filter(([, k]) => k && k.count > 0));
}

/** NVIDIA GPUs as `nvidia-smi` lists them (model and memory of the first). */
function nvidiaSmi(): GpuKind | undefined {
  try {
    const out = execFileSync(
      'nvidia-smi',
      ['--query-gpu=name,memory.total', '--format=csv,noheader,nounits'],
      { encoding: 'utf8', timeout: 3000, stdio: ['ignore', 'pipe', 'ignore'] },
    ).trim();
    const lines = out.split('\n').filter(Boolean);
    if (lines.length === 0) return undefined;
    const [model, mib] = lines[0]!.split(',').map((s) => s.trim());
    const memory = Number(mib) * 2 ** 20;
    return { count: lines.length, model, ...(memory > 0 ? { memory } : {}) };
  } catch {
    return undefined;
  }
}

/** PCI vendor ids of the render nodes' devices. */
const PCI_VENDOR = { amd: '0x1002' } as const;

/**
 * What the device nodes say, where `nvidia-smi` does not: `/dev/nvidiaN` are NVIDIA's GPUs (the
 * process runtime binds them by that number); AMD's compute GPUs are the render nodes of AMD
 * devices, usable only with `/dev/kfd`. Intel's render nodes are not counted: an integrated GPU
 * has one too, and nothing here tells it from a card meant for jobs (describe them instead).
 */
export function deviceGpus(dev = '/dev', sys = '/sys/class/drm'): MachineGpus {
  const names = (() => {
    try {
      return readdirSync(dev);
    } catch {
      return [] as string[];
    }
  })();
  const found: MachineGpus = {};
  const nvidia = names.filter((n) => /^nvidia\d+$/.test(n)).length;
  if (nvidia > 0) found.nvidia = { count: nvidia };
  if (existsSync(join(dev, 'kfd'))) {
    const amd = names.filter((n) => {
      if (!/^renderD\d+$/.test(n)) return false;
      try {
        return readFileSync(join(sys, n, 'device', 'vendor'), 'utf8').trim() === PCI_VENDOR.amd;
      } catch {
        return false;
      }
    }).length;
    if (amd > 0) found.amd = { count: amd };
  }
  return found;
}

/** This machine's GPUs: the description when the operator gave one, else what is probed. */
export function machineGpus(described?: MachineGpus): MachineGpus {
  if (described) return described;
  const devices = deviceGpus();
  const smi = nvidiaSmi();
  return { ...devices, ...(smi ? { nvidia: smi } : {}) };
}

/** Devices by vendor, as the scheduler counts them (runtime/driver.ts NodeCapacity). */
export function gpuCounts(gpus: MachineGpus): NonNullable<NodeCapacity['gpus']> {
  return Object.fromEntries(
    Object.entries(gpus)
      .filter(([, k]) => k && k.count > 0)
      .map(([v, k]) => [v, k!.count]),
  );
}

/** The pool's one GPU kind as PoolCapacity states it: NVIDIA's, else AMD's, else Intel's. */
export function poolGpu(gpus: MachineGpus): PoolCapacity['gpu'] {
  for (const vendor of ['nvidia', 'amd', 'intel'] as const) {
    const k = gpus[vendor];
    if (k && k.count > 0) return { vendor, ...k };
  }
  return undefined;
}
