import { readdirSync, readFileSync } from 'node:fs';

/**
 * Process-runtime jobs outlive their server by design (docs/runtimes.md); a test server's jobs
 * must not outlive the test (they hold job uids, ports and CPU into the passes after it). Each
 * job's sandbox names its directory under the data directory: those processes are killed, and
 * with the sandbox's PID namespace everything the job started.
 */
export function killJobsOf(dataDir: string) {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${dataDir}/jobs/`))
        process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Gone already, or not ours to read.
    }
  }
}
