import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, startTestServer, type TestServer } from '../test/harness.js';
import { EVENTS_CHANNEL, postgresEvents, type EventBus } from './events.js';
import { JobWatches } from '../modules/jobs/watches.js';

/** Waits for the first event a subscription hears, or null after `ms`. */
function heard(bus: EventBus, ms: number) {
  return new Promise<{ data: Record<string, unknown>; origin: string } | null>((resolve) => {
    const timer = setTimeout(() => {
      off();
      resolve(null);
    }, ms);
    const off = bus.subscribe('job', (data, origin) => {
      clearTimeout(timer);
      off();
      resolve({ data, origin });
    });
  });
}

describe('events between replicas', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());

  it('hands an event to the subscribers with the publishing replica as its origin', async () => {
    const bus = s.ctx.database.events;
    const got = heard(bus, 10_000);
    await bus.publish('job', { id: 'job-1', status: 'running' });
    expect(await got).toEqual({ data: { id: 'job-1', status: 'running' }, origin: bus.origin });
  });

  it.skipIf(engine !== 'postgres')(
    'reaches another replica, and again after its listening connection was cut',
    async () => {
      const url = s.state.databaseUrl!;
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      const other = await postgresEvents(url, pool);
      const mine = s.ctx.database.events;
      try {
        const got = heard(mine, 10_000);
        await other.publish('job', { id: 'job-2', status: 'cancelled' });
        expect(await got).toEqual({
          data: { id: 'job-2', status: 'cancelled' },
          origin: other.origin,
        });
        // An administrator (or a failover) ends the listening sessions of this database.
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        const cut = await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and query = $1 and pid <> pg_backend_pid()`,
          [`listen ${EVENTS_CHANNEL}`],
        );
        await admin.end();
        expect(cut.rowCount).toBeGreaterThan(0);
        // The listener connects again: an event sent once it listens arrives.
        let again = null;
        for (let i = 0; i < 20 && !again; i++) {
          const next = heard(mine, 500);
          await other.publish('job', { id: 'job-3', status: 'running' });
          again = await next;
        }
        expect(again?.data).toEqual({ id: 'job-3', status: 'running' });
      } finally {
        await other.close();
        await pool.end();
      }
    },
  );
});

describe('job watches', () => {
  it('wakes a watch at the job’s change, and keeps a change made before it waits', async () => {
    const watches = new JobWatches();
    const watch = watches.watch('job-a');
    watches.changed('job-b');
    watches.changed('job-a');
    // Changed before `next` was called: it resolves at once, not after the minute.
    await watch.next(60_000);
    const waiting = watch.next(60_000);
    setTimeout(() => watches.changed('job-a'), 10);
    await waiting;
    watch.close();
    // Without a change, `next` ends after its time (the slow poll behind lost events).
    await expect(watches.watch('job-c').next(50)).resolves.toBeUndefined();
  });
});
