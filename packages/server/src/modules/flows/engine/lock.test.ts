import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, startTestServer, type TestServer } from '../../../test/harness.js';
import { AttemptLocks } from './lock.js';

/**
 * One replica drives an attempt at a time. On PostgreSQL each replica's locks live on its own
 * connection: a second replica cannot take an attempt the first holds, and takes it once the
 * first lets go or dies. PGlite runs the same statements on its one session.
 */
describe('the advisory lock of an attempt', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());

  it('is held until released, then free again', async () => {
    const a = new AttemptLocks(s.ctx);
    try {
      expect(await a.take('attempt-one')).toBe(true);
      expect(await a.take('attempt-two')).toBe(true);
      expect(a.heldIds().sort()).toEqual(['attempt-one', 'attempt-two']);
      await a.release('attempt-one');
      expect(a.heldIds()).toEqual(['attempt-two']);
      expect(await a.take('attempt-one')).toBe(true);
    } finally {
      await a.close();
    }
  });

  it.skipIf(engine !== 'postgres')(
    'keeps a second replica off an attempt until the first releases it or its session ends',
    async () => {
      const first = new AttemptLocks(s.ctx);
      const second = new AttemptLocks(s.ctx);
      try {
        expect(await first.take('attempt-a')).toBe(true);
        expect(await first.take('attempt-b')).toBe(true);
        expect(await second.take('attempt-a')).toBe(false);
        expect(await second.take('attempt-c')).toBe(true);
        await first.release('attempt-a');
        expect(await second.take('attempt-a')).toBe(true);
        expect(await second.take('attempt-b')).toBe(false);
        // A replica that dies loses its connection, and with it its locks.
        await first.close();
        expect(await second.take('attempt-b')).toBe(true);
        expect(second.heldIds().sort()).toEqual(['attempt-a', 'attempt-b', 'attempt-c']);
      } finally {
        await first.close();
        await second.close();
      }
    },
  );
});
