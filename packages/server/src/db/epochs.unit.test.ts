import { describe, expect, it } from 'vitest';
import { singleFlight } from './epochs.js';

/** A read whose answers the test releases by hand, counting how many were started. */
function manualRead() {
  const pending: ((v: number) => void)[] = [];
  let started = 0;
  const read = () =>
    new Promise<number>((resolve) => {
      started += 1;
      pending.push(resolve);
    });
  return { read, pending, started: () => started };
}

describe('single-flight epoch reads', () => {
  it('answers each caller with a read started after its call, sharing it with the others', async () => {
    const m = manualRead();
    const read = singleFlight(m.read);
    const first = read();
    expect(m.started()).toBe(1);
    // These arrive while the first read is in flight: they wait for the next one, together.
    const second = read();
    const third = read();
    expect(m.started()).toBe(1);
    m.pending[0](1);
    expect(await first).toBe(1);
    await Promise.resolve();
    expect(m.started()).toBe(2);
    m.pending[1](2);
    expect([await second, await third]).toEqual([2, 2]);
    // Nothing in flight: a caller starts a read of its own.
    const fourth = read();
    expect(m.started()).toBe(3);
    m.pending[2](3);
    expect(await fourth).toBe(3);
  });

  it('starts a fresh read after a failed one', async () => {
    let n = 0;
    const read = singleFlight(async () => {
      n += 1;
      if (n === 1) throw new Error('connection lost');
      return n;
    });
    await expect(read()).rejects.toThrow('connection lost');
    expect(await read()).toBe(2);
  });
});
