import { existsSync } from 'node:fs';
import type { Cgroups } from './cgroups.js';
import { ensureJobsGroup } from './identity.js';
import { SETPRIV } from './launch.js';
import { prepareHostNetwork, SLIRP } from './network.js';

export interface HostSetup {
  /** The jobs group, when every job gets a uid of its own (a root server with setpriv). */
  jobsGid?: number;
  /** Whether jobs get a network (slirp4netns). */
  network: boolean;
  /**
   * Whether jobs reach each other's ports through relays (relay.ts): the firewall is in place and
   * every job has a uid of its own, which names it to the relay.
   */
  relays: boolean;
  /** What this host cannot enforce, for the runtime's warning on the job page. */
  warnings: string[];
}

/** What the host allows the sandbox, prepared once at start: the jobs group, tun, the firewall. */
export function prepareHost(sandboxed: boolean, cgroups: Cgroups): HostSetup {
  const warnings: string[] = [];
  const root = process.getuid?.() === 0;
  const network = sandboxed && existsSync(SLIRP);
  let jobsGid: number | undefined;
  let relays = false;
  // Without bubblewrap, or without a uid of its own per job, what jobs share is said by the
  // isolation's own sentence (unsandboxed.ts), when such jobs run at all.
  if (sandboxed) {
    if (root && existsSync(SETPRIV)) jobsGid = ensureJobsGroup();
    if (!network) {
      warnings.push('Jobs have no network and no HTTP port (slirp4netns is not installed).');
    } else if (root) {
      const firewall = prepareHostNetwork();
      relays = !firewall && jobsGid !== undefined;
      if (firewall) {
        warnings.push(
          `Jobs can reach services on this host's non-loopback addresses and the local network: ${firewall}.`,
        );
      }
    } else {
      warnings.push(
        "Jobs can reach services on this host's non-loopback addresses and the local network (the firewall rule needs a root server).",
      );
    }
  }
  if (cgroups.missing.length > 0) {
    warnings.push(
      `The ${new Intl.ListFormat('en').format(cgroups.missing)} limits of presets are not enforced on this host (no writable cgroup controller for them).`,
    );
  }
  return { jobsGid, network, relays, warnings };
}
