import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const read = <T>(file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as T;

/**
 * The README names Node 20 (the root package.json's `engines`): every package the lock installs
 * declares engines that Node covers, so a clean install prints no engine warning and nothing
 * leans on a newer Node's behaviour. Where a dependency's latest release needs a newer Node, the
 * root `overrides` pin one that does not (docs/architecture.md, Dependencies).
 */
describe('dependencies', () => {
  it('declare engines that the Node the README names covers', () => {
    const { engines } = read<{ engines: { node: string } }>('package.json');
    const oldest = semver.minVersion(engines.node)!.version;
    const lock = read<{
      packages: Record<string, { version?: string; engines?: { node?: string } }>;
    }>('package-lock.json');
    const needNewer = Object.entries(lock.packages)
      .filter(([path, p]) => path && p.engines?.node && !semver.satisfies(oldest, p.engines.node))
      .map(
        ([path, p]) =>
          `${path.replace(/^.*node_modules\//, '')}@${p.version} needs node ${p.engines!.node}`,
      );
    expect(needNewer).toEqual([]);
  });
});
