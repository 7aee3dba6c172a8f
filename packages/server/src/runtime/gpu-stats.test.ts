import { describe, expect, it } from 'vitest';
import { parseGpuSample } from './gpu-stats.js';

// What `nvidia-smi --format=csv,noheader,nounits` prints, as captured on a two-GPU machine.
const APPS = `4242, GPU-1111, 2048
4243, GPU-1111, 512
5000, GPU-2222, 8000
`;
const GPUS = `GPU-1111, 87
GPU-2222, 10
`;

describe('GPU load of a job from nvidia-smi', () => {
  it('sums the memory of the job’s processes and averages the utilisation of their GPUs', () => {
    expect(parseGpuSample(APPS, GPUS, new Set([4242, 4243]))).toEqual({
      dutyCycle: 87,
      memoryBytes: 2560 * 2 ** 20,
    });
    expect(parseGpuSample(APPS, GPUS, new Set([4242, 5000]))).toEqual({
      dutyCycle: 49,
      memoryBytes: 10048 * 2 ** 20,
    });
  });

  it('reports nothing for a job with no process on a GPU', () => {
    expect(parseGpuSample(APPS, GPUS, new Set([1]))).toBeNull();
    expect(parseGpuSample('', GPUS, new Set([4242]))).toBeNull();
  });
});
