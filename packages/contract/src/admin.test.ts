import { describe, expect, it } from 'vitest';
import {
  ADMIN_TEXTS,
  formatMemory,
  JobsQuota,
  memoryOfField,
  presetPoolIssues,
  type PoolCapacity,
} from './admin.js';

const pools: PoolCapacity[] = [
  { name: 'cpu', cpu: 8, memory: 32e9, isPreemptible: false, gpus: {} },
  {
    name: 'gpu',
    cpu: 16,
    memory: 64e9,
    isPreemptible: true,
    gpus: { nvidia: { count: 4, model: 'A100' } },
  },
];
const preset = { cpu: 1, memory: 1e9, isPreemptible: false, gpus: {} };

describe('preset rules shared by the server and the console', () => {
  it('reads the memory field in MB, GB or TB, telling blank from not a number', () => {
    expect(memoryOfField('', 'GB')).toEqual({ error: 'Memory cannot be blank' });
    expect(memoryOfField('much', 'GB')).toEqual({ error: 'Memory is not a number' });
    expect(memoryOfField('63', 'MB')).toEqual({ error: 'Memory cannot be less than 64 MB' });
    expect(memoryOfField('64', 'MB')).toEqual({ bytes: 64e6 });
    expect(memoryOfField('1.5', 'TB')).toEqual({ bytes: 1.5e12 });
    expect(formatMemory(2.5e9)).toBe('2.5 GB');
  });

  it('accepts a preset that one pool holds', () => {
    expect(presetPoolIssues(preset, pools)).toEqual([]);
    expect(
      presetPoolIssues(
        { ...preset, isPreemptible: true, gpus: { nvidia: { count: 4, model: 'A100' } } },
        pools,
      ),
    ).toEqual([]);
  });

  it('names the field of each pool-dependent rule', () => {
    expect(presetPoolIssues({ ...preset, cpu: 17 }, pools)).toEqual([
      { path: 'cpu', message: ADMIN_TEXTS.cpuMax },
    ]);
    expect(presetPoolIssues({ ...preset, memory: 65e9 }, pools)).toEqual([
      { path: 'memory', message: ADMIN_TEXTS.memoryMax },
    ]);
    expect(
      presetPoolIssues({ ...preset, gpus: { nvidia: { count: 0, model: 'A100' } } }, pools),
    ).toEqual([{ path: 'nvidia_gpu.count', message: 'Number cannot be 0 for GPU model' }]);
    expect(
      presetPoolIssues({ ...preset, gpus: { nvidia: { count: 5, model: 'A100' } } }, pools),
    ).toEqual([
      {
        path: 'nvidia_gpu.count',
        message: 'Number cannot be larger than number of GPUs for selected GPU model',
      },
    ]);
    // Preemptibility must match the pool that holds the rest.
    expect(presetPoolIssues({ ...preset, isPreemptible: true, cpu: 12 }, pools)).toEqual([]);
    expect(presetPoolIssues(preset, [{ ...pools[1], gpus: {} }])).toEqual([
      { path: 'name', message: "This preset won't fit into any node pool" },
    ]);
    expect(presetPoolIssues({ ...preset, cpu: 12 }, pools)).toEqual([
      { path: 'name', message: "This preset won't fit into any node pool" },
    ]);
  });

  it('takes a jobs quota that is empty or a whole number of at least 0', () => {
    expect(JobsQuota.parse('')).toBeNull();
    expect(JobsQuota.parse(null)).toBeNull();
    expect(JobsQuota.parse('7')).toBe(7);
    expect(JobsQuota.safeParse('-1').error?.issues[0].message).toBe(
      'Jobs must be a positive number',
    );
    expect(JobsQuota.safeParse('x').success).toBe(false);
  });
});
