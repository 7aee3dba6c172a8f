import { describe, expect, it } from 'vitest';
import { capacityOf, gpusOf, poolCapacityOf } from './capacity.js';
import { nodesOf } from './client.js';

const MB = 2 ** 20;

describe('Slurm capacity from the nodes Slurm reports', () => {
  it('reads GPUs from GRES, with or without a model', () => {
    expect(gpusOf('gpu:a100:2,gpu:a100:2(S:0-1)')).toEqual({ model: 'a100', count: 4 });
    expect(gpusOf('gpu:2')).toEqual({ model: '', count: 2 });
    expect(gpusOf('')).toBeNull();
    expect(gpusOf('license:4')).toBeNull();
  });

  it('weighs a pool without its down nodes, and names no model the GRES does not', () => {
    const node = { cpus: 4, real_memory: 1000, partitions: ['main'], gres: 'gpu:2' };
    // `sinfo --json` as slurmrestd's `GET /nodes` answers it, read by the clients' one parser.
    const { pools, nodes } = capacityOf(
      nodesOf({
        nodes: [
          { ...node, name: 'a', state: 'MIXED', alloc_cpus: 1, alloc_memory: 100 },
          { ...node, name: 'b', state: 'DOWN', reason: 'fan' },
          { ...node, name: 'c', state: 'IDLE', state_flags: ['DRAIN'], reason: 'disk check' },
        ],
      }),
    );
    expect(nodes.map((n) => [n.name, n.state, n.reason])).toEqual([
      ['a', 'mix', null],
      ['b', 'down', 'fan'],
      ['c', 'drain', 'disk check'],
    ]);
    expect(poolCapacityOf(pools[0]!)).toEqual({
      name: 'main',
      cpu: 4,
      memory: 1000 * MB,
      diskSize: 0,
      gpu: { vendor: 'nvidia', count: 2 },
      availableCpu: 3,
      availableMemory: 900 * MB,
    });
  });
});
