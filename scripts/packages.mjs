// The Debian packages of the embedded defaults, one list for `npm start`, `npm test` and the
// server's Administration > Host (packages/server/debian-packages.json). Only Node built-ins.
import { existsSync, readFileSync } from 'node:fs';

export const PACKAGES_FILE = new URL('../packages/server/debian-packages.json', import.meta.url);

/** `[package, probe]` pairs of the embedded defaults, as `ensureApt` takes them. */
export function embeddedPackages(file = PACKAGES_FILE) {
  return JSON.parse(readFileSync(file, 'utf8')).packages.map((p) => [p.package, p.probe]);
}

/** The one command that installs `packages`, as the administrator types it. */
export const installCommand = (packages) =>
  `apt-get install -y --no-install-recommends ${packages.join(' ')}`;

/**
 * What a start does about the packages: which are missing (a probe, a file or a function, says
 * absent), whether it installs them (only as root), and the one notice for a non-root start.
 */
export function aptPlan(wanted, { root, exists = existsSync }) {
  const has = (probe) => (typeof probe === 'function' ? probe() : exists(probe));
  // A package may be wanted twice (npm test's list and the embedded defaults'): asked for once.
  const missing = [...new Set(wanted.filter(([, probe]) => !has(probe)).map(([pkg]) => pkg))];
  if (missing.length === 0) return { missing, install: [], notice: null };
  if (root) return { missing, install: missing, notice: null };
  return {
    missing,
    install: [],
    notice:
      `Not root: installed nothing. Missing Debian packages: ${missing.join(', ')}; what they ` +
      `give is listed under Administration > Host. Install them with: sudo ${installCommand(missing)}`,
  };
}
