import { describe, expect, it } from 'vitest';
import { quotaBody, valuesOf } from './quotaForm';

const NONE = { cpu: null, memory: null, nvidiaGpu: null, amdGpu: null, intelGpu: null };
const empty = { cpu: '', memory: '', nvidia_gpu: '', amd_gpu: '', intel_gpu: '' };

describe('the quota form', () => {
  it('shows memory in GB and sends it in bytes; empty is unlimited', () => {
    const values = valuesOf({
      ...NONE,
      cpu: 0.5,
      memory: 1_500_000_000,
      borrowingLimit: { ...NONE, memory: 250_000_000 },
    });
    expect(values.nominal).toEqual({ ...empty, cpu: '0.5', memory: '1.5' });
    expect(values.borrowing).toEqual({ ...empty, memory: '0.25' });
    expect(quotaBody(values)).toEqual({
      body: {
        ...NONE,
        cpu: 0.5,
        memory: 1_500_000_000,
        borrowingLimit: { ...NONE, memory: 250_000_000 },
      },
    });
  });

  it('says what is wrong in the server’s words, field by field', () => {
    expect(
      quotaBody({
        nominal: { ...empty, cpu: 'lots', nvidia_gpu: '1.5', amd_gpu: '-1' },
        borrowing: { ...empty, memory: '2', intel_gpu: '-3' },
      }),
    ).toEqual({
      errors: {
        cpu: 'CPU must be a positive number',
        nvidia_gpu: 'NVIDIA GPUs must be a whole number',
        amd_gpu: 'AMD GPUs must be a positive number',
        'borrowing_limit.intel_gpu': 'Intel GPUs borrowing limit must be a positive number',
        'borrowing_limit.memory':
          'A borrowing limit of Memory needs a quota of Memory: without one, its use is not limited',
      },
    });
  });
});
