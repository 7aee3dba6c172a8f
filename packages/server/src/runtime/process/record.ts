import type { JobLimits } from '../driver.js';

/** What `start` records for the rest of the driver, and for a server started later. */
export interface JobRecord {
  image: string;
  limits: JobLimits;
  /** The host port (127.0.0.1) forwarded to the job's HTTP port, when it declared one. */
  port?: number;
  /** The port the job listens on in its own network namespace (PORT). */
  guestPort?: number;
  /** The job's own uid (sandboxed as root), claimed until the job is removed. */
  uid?: number;
  /** NVIDIA GPU indexes the job holds. */
  gpus?: number[];
  /** `cluster/org/project` (JobSpec.project), and the port of the job's relay (relay.ts). */
  project?: string;
  relayPort?: number;
  createdAt: number;
}

export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
export const STATE_FILES = [
  'exit',
  'exit.tmp',
  'pgid',
  'wrapper.pid',
  'child.pid',
  'oom',
  'net.log',
  'failure',
];
