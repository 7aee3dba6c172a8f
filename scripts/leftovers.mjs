// The process-runtime jobs that test servers left running. A job outlives its server by design
// (docs/runtimes.md), so a test that forgets one leaves it holding a job uid, ports and CPU
// through the passes after it, which then run on a busier machine than they were measured on.
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

/**
 * Kills the processes of the jobs whose data directory starts with `prefix`: the processes
 * naming a path `<prefix>…/jobs/<id>/…` (a job's wrapper and sandbox; with a sandbox's PID
 * namespace goes everything its job started). Returns the ids of the jobs stopped.
 */
export function stopJobsUnder(prefix) {
  const stopped = new Set();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const path = args.find((a) => a.startsWith(prefix) && a.includes('/jobs/'));
      if (!path) continue;
      process.kill(Number(pid), 'SIGKILL');
      stopped.add(path.split('/jobs/')[1].split('/')[0]);
    } catch {
      // Gone meanwhile, or not readable.
    }
  }
  return [...stopped];
}

/**
 * After pass `name` of npm test: stops the jobs of test servers (data directories
 * `<tmp>/orrery-…`, never a real server's) and says which.
 */
export function reportLeftoverJobs(name) {
  const jobs = stopJobsUnder(`${tmpdir()}/orrery-`);
  if (jobs.length)
    process.stdout.write(
      `! ${name} left ${jobs.length} job(s) of test servers running; stopped: ${jobs.join(', ')}\n`,
    );
}
