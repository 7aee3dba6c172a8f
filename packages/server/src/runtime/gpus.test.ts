import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deviceGpus, machineGpus, parseGpuDescription, poolGpu } from './gpus.js';

const dir = mkdtempSync(join(tmpdir(), 'orrery-gpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A /dev and a /sys/class/drm laid out as the kernel makes them, files standing for devices. */
function host(name: string, dev: string[], drm: Record<string, string>) {
  const root = join(dir, name);
  mkdirSync(join(root, 'dev'), { recursive: true });
  for (const d of dev) writeFileSync(join(root, 'dev', d), '');
  for (const [node, vendor] of Object.entries(drm)) {
    mkdirSync(join(root, 'drm', node, 'device'), { recursive: true });
    writeFileSync(join(root, 'drm', node, 'device', 'vendor'), `${vendor}\n`);
  }
  return [join(root, 'dev'), join(root, 'drm')] as const;
}

describe('this machine’s GPUs', () => {
  it('reads a GPU description inline or from a file, and says what is wrong with a bad one', () => {
    expect(parseGpuDescription('{"nvidia":{"count":2,"model":"A100"}}')).toEqual({
      nvidia: { count: 2, model: 'A100' },
    });
    const file = join(dir, 'gpus.json');
    writeFileSync(file, '{"amd":{"count":8,"model":"MI300X","memory":206158430208}}');
    expect(parseGpuDescription(file)).toEqual({
      amd: { count: 8, model: 'MI300X', memory: 206158430208 },
    });
    expect(() => parseGpuDescription('{"nvidia":{"count":1.5}}')).toThrow(/nvidia\.count/);
    expect(() => parseGpuDescription('{"tpu":{"count":1}}')).toThrow(/tpu/);
    expect(() => parseGpuDescription('{nvidia}')).toThrow(/not JSON/);
    expect(() => parseGpuDescription(join(dir, 'missing.json'))).toThrow(/cannot read .*ENOENT/);
  });

  it('takes the description whole in place of the probe', () => {
    expect(machineGpus({ intel: { count: 1 } })).toEqual({ intel: { count: 1 } });
    expect(machineGpus({})).toEqual({});
  });

  it('counts NVIDIA device nodes, and AMD render nodes only with /dev/kfd', () => {
    const nvidia = host('nvidia', ['nvidia0', 'nvidia1', 'nvidiactl', 'nvidia-uvm', 'renderD128'], {
      renderD128: '0x10de',
    });
    expect(deviceGpus(...nvidia)).toEqual({ nvidia: { count: 2 } });
    // Two AMD cards and the Intel integrated GPU of the board: the latter is not a job's GPU.
    const amd = host('amd', ['kfd', 'renderD128', 'renderD129', 'renderD130'], {
      renderD128: '0x8086',
      renderD129: '0x1002',
      renderD130: '0x1002',
    });
    expect(deviceGpus(...amd)).toEqual({ amd: { count: 2 } });
    const noKfd = host('nokfd', ['renderD128'], { renderD128: '0x1002' });
    expect(deviceGpus(...noKfd)).toEqual({});
    expect(deviceGpus(join(dir, 'absent'), join(dir, 'absent'))).toEqual({});
  });

  it('states a pool’s one GPU kind, NVIDIA’s first', () => {
    expect(poolGpu({ amd: { count: 2 }, nvidia: { count: 1, model: 'T4' } })).toEqual({
      vendor: 'nvidia',
      count: 1,
      model: 'T4',
    });
    expect(poolGpu({ intel: { count: 1 } })).toEqual({ vendor: 'intel', count: 1 });
    expect(poolGpu({})).toBeUndefined();
  });
});
