import { describe, expect, it } from 'vitest';
import { toWireEnv } from './env';
import { expandUri } from './uris';
import { newVolume, slugName, toWireVolumes, withType, type VolumeEntry } from './volumes';

const PLACE = { clusterName: 'default', orgName: 'acme', projectName: 'vision' };
const vol = (over: Partial<VolumeEntry>): VolumeEntry => ({ ...newVolume(), ...over });

describe('volumes', () => {
  it('starts read-only', () => {
    expect(newVolume().mode).toBe('ro');
  });

  it('clears name and resource when the type changes; secrets become read-only', () => {
    const v = vol({ type: 'storage', name: 'data', resource: 'storage:data', mode: 'rw' });
    expect(withType(v, 'disk')).toMatchObject({ type: 'disk', name: '', resource: '', mode: 'rw' });
    expect(withType(v, 'secret')).toMatchObject({ type: 'secret', resource: '', mode: 'ro' });
  });

  it('converts each type to its wire list with dst_path, read_only and a source URI', () => {
    const out = toWireVolumes(
      [
        vol({ resource: 'storage:data/in', path: '/in' }),
        vol({
          type: 'disk',
          resource: 'disk://default/acme/vision/disk-1',
          path: '/d',
          mode: 'rw',
        }),
        vol({ type: 'secret', resource: 'secret:TOKEN', path: '/run/token' }),
      ],
      PLACE,
    );
    expect(out.volumes).toEqual([
      {
        src_storage_uri: 'storage://default/acme/vision/data/in',
        dst_path: '/in',
        read_only: true,
      },
    ]);
    expect(out.disk_volumes).toEqual([
      { src_disk_uri: 'disk://default/acme/vision/disk-1', dst_path: '/d', read_only: false },
    ]);
    // Secrets carry no read_only.
    expect(out.secret_volumes).toEqual([
      { src_secret_uri: 'secret://default/acme/vision/TOKEN', dst_path: '/run/token' },
    ]);
    expect(out.origin).toEqual({ 'volumes.0': 0, 'disk_volumes.0': 1, 'secret_volumes.0': 2 });
    expect(out.warning).toBeNull();
  });

  it('skips a volume missing only its path or resource, with the warning', () => {
    const out = toWireVolumes(
      [
        vol({ resource: 'storage:a' }),
        vol({ path: '/b' }),
        vol({ resource: 'storage:c', path: '/c' }),
      ],
      PLACE,
    );
    expect(out.volumes).toHaveLength(1);
    expect(out.origin).toEqual({ 'volumes.0': 2 });
    expect(out.warning).toBe(
      'One of the volumes was skipped because "path" or "resource" were missed',
    );
  });

  it('ignores an empty volume silently', () => {
    const out = toWireVolumes([vol({}), vol({ resource: ' ', path: '' })], PLACE);
    expect(out.volumes).toEqual([]);
    expect(out.warning).toBeNull();
  });

  it('slugs names: trimmed, slashes removed, spaces to hyphens, lowercase', () => {
    expect(slugName('  My Data/Set  ')).toBe('my-dataset');
  });
});

describe('short resource URIs', () => {
  it('expands relative, absolute and full forms', () => {
    expect(expandUri('storage', 'storage:a/b', PLACE)).toBe('storage://default/acme/vision/a/b');
    expect(expandUri('storage', 'storage:/other/proj/x', PLACE)).toBe(
      'storage://default/other/proj/x',
    );
    expect(expandUri('disk', 'disk://c/o/p/disk-1', PLACE)).toBe('disk://c/o/p/disk-1');
    expect(expandUri('secret', 'KEY', PLACE)).toBe('secret://default/acme/vision/KEY');
  });
});

describe('env entries', () => {
  it('splits variables and secrets into env and secret_env', () => {
    expect(
      toWireEnv(
        [
          { name: 'A', value: '1', type: 'variable' },
          { name: 'TOKEN', value: 'secret:tok', type: 'secret' },
        ],
        PLACE,
      ),
    ).toEqual({ env: { A: '1' }, secret_env: { TOKEN: 'secret://default/acme/vision/tok' } });
  });
});
