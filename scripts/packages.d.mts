// Types of packages.mjs for the TypeScript that imports it (the server's host tests).

export const PACKAGES_FILE: URL;

/** What tells a package is present: a path that exists, or a function that answers. */
export type Probe = string | (() => boolean);

export function embeddedPackages(file?: URL | string): [string, Probe][];

export function installCommand(packages: string[]): string;

export function aptPlan(
  wanted: [string, Probe][],
  options: { root: boolean; exists?: (path: string) => boolean },
): { missing: string[]; install: string[]; notice: string | null };
