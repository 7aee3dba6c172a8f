import { existsSync, readFileSync } from 'node:fs';
import type { HostLimit, HostLimits } from '@orrery/contract';

/**
 * The Debian packages of the embedded defaults: one list for `npm start` (which installs the
 * missing ones as root), `npm test` and this page (scripts/packages.mjs reads the same file).
 */
export interface PackageList {
  features: Record<string, string>;
  packages: { package: string; probe: string; feature: string }[];
}

export const PACKAGES_FILE = new URL('../../../debian-packages.json', import.meta.url);

export const readPackageList = (file: URL | string = PACKAGES_FILE): PackageList =>
  JSON.parse(readFileSync(file, 'utf8')) as PackageList;

/** Features that only the process runtime uses: on docker or Slurm their packages do not matter. */
const PROCESS_RUNTIME_FEATURES = new Set(['sandbox', 'network', 'firewall', 'ptys']);

export const installCommand = (packages: string[]) =>
  `apt-get install -y --no-install-recommends ${packages.join(' ')}`;

export interface HostFacts {
  list: PackageList;
  root: boolean;
  /** ORRERY_RUNTIME's driver name. */
  runtime: string;
  /** Why the runtime refuses jobs, or that they run unisolated (driver.ts). */
  runtimeRefusal?: string;
  runtimeNotIsolated?: string;
  /** An external registry is configured: docker-registry is not used. */
  registryUrl?: string;
  /** Apps this runtime runs whose programs are missing (catalogue.ts), with the reason. */
  apps?: { title: string; reason: string }[];
  exists?: (path: string) => boolean;
}

/** The command an app's reason names: `apt-get install …`, a script, or npm start. */
function commandIn(reason: string, sudo: string): string {
  const apt = /apt-get install[^)]*/.exec(reason);
  if (apt)
    return `${sudo}${apt[0].trim().replace(/^apt-get install (?!-y)/, 'apt-get install -y ')}`;
  const script = /node scripts\/\S+/.exec(reason);
  if (script) return `${sudo}${script[0]}`;
  if (reason.includes('npm start')) return `${sudo}npm start`;
  return 'Restart the server once the cause above is fixed';
}

/**
 * What this installation cannot do and how to fix it: each feature whose packages are missing,
 * and the runtime's own refusal or isolation warning. As root, `npm start` installs the packages;
 * the command is given as the administrator types it (with sudo when the server is not root).
 */
export function hostLimits(f: HostFacts): HostLimits {
  const exists = f.exists ?? existsSync;
  const sudo = f.root ? '' : 'sudo ';
  const relevant = (feature: string) =>
    (feature !== 'registry' || !f.registryUrl) &&
    (f.runtime === 'process' || !PROCESS_RUNTIME_FEATURES.has(feature));
  const missing = f.list.packages.filter((p) => relevant(p.feature) && !exists(p.probe));
  const limits: HostLimit[] = [];
  const runtimeReason = f.runtimeRefusal ?? f.runtimeNotIsolated;
  if (runtimeReason) {
    const sandboxMissing = missing
      .filter((p) => PROCESS_RUNTIME_FEATURES.has(p.feature))
      .map((p) => p.package);
    limits.push({
      feature: 'Jobs',
      reason: runtimeReason,
      fix: sandboxMissing.length
        ? `${sudo}${installCommand(sandboxMissing)}${f.root ? '' : ', then start the server as root (sudo npm start)'}`
        : f.root
          ? 'Restart the server after fixing the cause above'
          : 'Start the server as root (sudo npm start): jobs then get a uid of their own',
    });
  }
  const features = [...new Set(missing.map((p) => p.feature))];
  for (const feature of features) {
    const pkgs = missing.filter((p) => p.feature === feature);
    const names = pkgs.map((p) => p.package);
    limits.push({
      feature: f.list.features[feature] ?? feature,
      reason: `Not installed: ${pkgs.map((p) => `${p.package} (${p.probe})`).join(', ')}`,
      fix:
        feature === 'registry'
          ? `${sudo}${installCommand(names)}, or set ORRERY_REGISTRY_URL to a registry of your own`
          : `${sudo}${installCommand(names)}`,
    });
  }
  // An app whose missing program is a package listed above is not said twice.
  const listed = missing.map((p) => p.package);
  for (const a of f.apps ?? []) {
    if (listed.some((pkg) => a.reason.includes(pkg))) continue;
    limits.push({
      feature: `The ${a.title} app`,
      reason: a.reason,
      fix: commandIn(a.reason, sudo),
    });
  }
  return { root: f.root, limits };
}
