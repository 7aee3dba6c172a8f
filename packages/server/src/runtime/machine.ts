import { cpus, totalmem } from 'node:os';
import { statfsSync } from 'node:fs';
import { machineGpus, type MachineGpus } from './gpus.js';

// What the local runtimes run on. Here, not in modules/clusters, because runtimes depend on
// nothing in modules/ (docs/architecture.md); the first start's cluster reads it from here.
export const GB = 10 ** 9;

/**
 * What this machine offers, as one node pool of one node. `gpus`: the operator's description
 * (ORRERY_GPU_DESCRIPTION), which replaces the probe of `nvidia-smi` and the device nodes.
 */
export function describeMachine(dataDir: string, gpus?: MachineGpus) {
  let disk = 100 * GB;
  try {
    const s = statfsSync(dataDir);
    disk = s.blocks * s.bsize;
  } catch {
    /* the data dir may not exist yet in tests; keep the nominal size */
  }
  const found = machineGpus(gpus);
  return { cpu: cpus().length, memory: totalmem(), disk, gpus: found, nvidia: found.nvidia };
}

/** A node pool of the first start: this machine, or the partitions of a cluster runtime. */
export interface FirstPool {
  name: string;
  nodes: number;
  /** One node's shape. */
  cpu: number;
  memory: number;
  disk: number;
  nvidia?: { count: number; model?: string; memory?: number };
}

/** This machine as one pool of one node: what the process and docker runtimes run on. */
export function machinePool(dataDir: string, gpus?: MachineGpus): FirstPool {
  const m = describeMachine(dataDir, gpus);
  return { name: 'local', nodes: 1, cpu: m.cpu, memory: m.memory, disk: m.disk, nvidia: m.nvidia };
}

/**
 * This machine's GPUs as a server shows them: from `nvidia-smi` (a blocking call of up to
 * seconds) and the device nodes, or the operator's description (ORRERY_GPU_DESCRIPTION). GPUs do
 * not come and go by the minute, so one probe serves a minute of page loads. One per server
 * (app.ts), so that servers in one process keep their own.
 */
export class LocalGpus {
  static readonly CHECK_MS = 60_000;
  private check?: { at: number; gpus: MachineGpus };

  constructor(readonly described?: MachineGpus) {}

  current(): MachineGpus {
    if (this.described) return this.described;
    if (!this.check || Date.now() - this.check.at > LocalGpus.CHECK_MS) {
      this.check = { at: Date.now(), gpus: machineGpus() };
    }
    return this.check.gpus;
  }
}
