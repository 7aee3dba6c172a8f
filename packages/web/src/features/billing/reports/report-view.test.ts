import { describe, expect, it } from 'vitest';
import { poolPoints, sharesBy } from './report-view';

describe('report views', () => {
  it('sums credits per user over clusters, the largest first, naming usage without a user', () => {
    const usage = {
      clusters: [
        { clusterName: 'a', usage: [{ userName: 'bob', credits: '1.5' }], total: '1.5' },
        {
          clusterName: 'b',
          usage: [
            { userName: 'bob', credits: '2' },
            { userName: 'alice', credits: '3' },
            { userName: null, credits: '0.25' },
            // Nothing charged to carol in the period: no row.
            { userName: 'carol', credits: '0.0000' },
          ],
          total: '5.25',
        },
      ],
      total: '6.75',
    };
    expect(sharesBy(usage, 'userName', 'No user')).toEqual([
      { name: 'bob', credits: 3.5 },
      { name: 'alice', credits: 3 },
      { name: 'No user', credits: 0.25 },
    ]);
  });

  it("shows a pool's use as percentages, GPUs only where the pool has some", () => {
    const sample = {
      at: '2026-11-03T10:05:00Z',
      cpuUsed: 1,
      cpuTotal: 3,
      memoryUsed: 2,
      memoryTotal: 8,
      gpuUsed: 0,
      gpuTotal: 0,
    };
    expect(poolPoints([sample])).toEqual({
      withGpus: false,
      data: [{ at: '2026-11-03 10:05', cpu: 33.3, memory: 25 }],
    });
    expect(poolPoints([{ ...sample, gpuUsed: 1, gpuTotal: 2 }]).data[0]).toMatchObject({ gpu: 50 });
  });
});
