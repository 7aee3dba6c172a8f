import { describe, expect, it } from 'vitest';
import type { PoolCapacity } from '@orrery/contract';
import { EMPTY_PRESET, validatePreset, type PresetFormValues } from './presetForm';

const pools: PoolCapacity[] = [
  { name: 'cpu', cpu: 4, memory: 16e9, isPreemptible: false, gpus: {} },
  {
    name: 'gpu',
    cpu: 8,
    memory: 32e9,
    isPreemptible: true,
    gpus: { nvidia: { count: 2, model: 'A100' } },
  },
];
const valid: PresetFormValues = {
  ...EMPTY_PRESET,
  name: 'small',
  cpu: '1',
  memory: '2',
  unit: 'GB',
  credits: '0.5',
};
const errorsOf = (over: Partial<PresetFormValues>) =>
  validatePreset({ ...valid, ...over }, pools).errors;

describe('the preset form’s rules', () => {
  it.each<[Partial<PresetFormValues>, keyof PresetFormValues, string]>([
    [{ name: '  ' }, 'name', 'Name is required'],
    [{ cpu: 'many' }, 'cpu', 'Number of CPU cores is not a number'],
    [{ cpu: '0.001' }, 'cpu', 'Number of CPU cores cannot be less than 0.01 cores'],
    [
      { cpu: '9' },
      'cpu',
      'Number of CPU cores cannot be larger than number of cores in any node pool',
    ],
    [{ memory: '' }, 'memory', 'Memory cannot be blank'],
    [{ memory: 'lots' }, 'memory', 'Memory is not a number'],
    [{ memory: '63', unit: 'MB' }, 'memory', 'Memory cannot be less than 64 MB'],
    [
      { memory: '0.1', unit: 'TB' },
      'memory',
      'Memory cannot be larger than amount of memory in any node pool',
    ],
    [{ credits: '-1' }, 'credits', 'Credits per hour must be a non-negative number'],
    [{ credits: 'free' }, 'credits', 'Credits per hour must be a non-negative number'],
    // What the server's column cannot hold is refused before the request.
    [{ credits: '1e17' }, 'credits', 'Must be less than 10^16, with at most 20 decimal places'],
    [
      { gpuMake: 'nvidia', gpuModel: 'A100', gpuCount: '0', preemptible: true },
      'gpuCount',
      'Number cannot be 0 for GPU model',
    ],
    [
      { gpuMake: 'nvidia', gpuModel: 'A100', gpuCount: '3', preemptible: true },
      'gpuCount',
      'Number cannot be larger than number of GPUs for selected GPU model',
    ],
    [{ cpu: '6' }, 'name', "This preset won't fit into any node pool"],
    [
      { gpuMake: 'nvidia', gpuModel: 'A100', gpuCount: '1' },
      'name',
      "This preset won't fit into any node pool",
    ],
  ])('%j → %s: %s', (over, field, message) => {
    expect(errorsOf(over)[field]).toBe(message);
  });

  it('builds the wire body of a valid preset, memory in bytes and round-robin as the scheduler flag', () => {
    const { errors, body } = validatePreset(
      {
        ...valid,
        gpuMake: 'nvidia',
        gpuModel: 'A100',
        gpuCount: '2',
        preemptible: true,
        roundRobin: true,
        memory: '1.5',
        unit: 'TB',
      },
      [{ ...pools[1], memory: 2e12 }],
    );
    expect(errors).toEqual({});
    expect(body).toEqual({
      name: 'small',
      cpu: 1,
      memory: 1.5e12,
      credits_per_hour: '0.5',
      preemptible_node: true,
      scheduler_enabled: true,
      nvidia_gpu: { count: 2, model: 'A100' },
    });
  });
});
