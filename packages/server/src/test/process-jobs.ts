import { readdirSync, readFileSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import type { JobSpec, ObservedState, RuntimeDriver } from '../runtime/driver.js';

let n = 0;

/** A job spec for driver tests: 0.5 CPU, 256 MiB, no volumes. */
export function spec(command: string, extra: Partial<JobSpec> = {}): JobSpec {
  return {
    id: `job-${++n}-${Date.now().toString(36)}`,
    image: 'ubuntu:24.04',
    command,
    env: {},
    mounts: [],
    limits: { cpu: 0.5, memory: 256 * 2 ** 20, shm: false },
    tty: false,
    privileged: false,
    ...extra,
  };
}

export async function until<T extends ObservedState['state']>(
  driver: RuntimeDriver,
  id: string,
  state: T,
  timeoutMs = 10_000,
): Promise<Extract<ObservedState, { state: T }>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await driver.observe(id);
    if (s.state === state) return s as Extract<ObservedState, { state: T }>;
    if (Date.now() > deadline) throw new Error(`${id} is ${JSON.stringify(s)}, not ${state}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const logOf = async (driver: RuntimeDriver, id: string, timestamps = false) =>
  text(await driver.logs(id, { follow: false, timestamps }));

/** Live processes running as the uid (zombies excluded). */
export function processesOf(uid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'latin1');
        return new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(status) && !/^State:\s+Z/m.test(status);
      } catch {
        return false;
      }
    })
    .map(Number);
}
