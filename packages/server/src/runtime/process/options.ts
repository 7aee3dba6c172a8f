import type { MachineGpus } from '../gpus.js';
import type { UnsandboxedJobs } from './unsandboxed.js';

/** What a server tells its process runtime (runtime/select.ts makes it from the configuration). */
export interface ProcessDriverOptions {
  dataDir: string;
  /** Between SIGTERM and SIGKILL; default 10 s. */
  killGraceMs?: number;
  /** false runs jobs without bubblewrap even when it is installed (tests of that path). */
  sandbox?: boolean;
  /** pids.max of each job's cgroup; default 4096 (threads count too). */
  pidsMax?: number;
  /**
   * ORRERY_UNSANDBOXED_JOBS: whether jobs run without the full sandbox (unsandboxed.ts); default
   * `refuse`.
   */
  unsandboxedJobs?: UnsandboxedJobs;
  /** ORRERY_GPU_DESCRIPTION: this machine's GPUs as stated, in place of the probe (gpus.ts). */
  gpus?: MachineGpus;
  /**
   * Chooses the host port a job's HTTP port is first forwarded from (default: one free on
   * 127.0.0.1 now). A test answers one it holds, to see the forward bind another.
   */
  freePort?: () => Promise<number>;
}
