import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/**
 * Events between the replicas that share a database (docs/operations.md): PostgreSQL
 * LISTEN/NOTIFY on channel `orrery_events`, or, on PGlite (one process, so one replica), handed
 * over in the process. Payloads are small JSON objects (NOTIFY takes under 8000 bytes): ids and
 * states, never rows. Delivery is at most once — a replica whose listening connection drops
 * misses what was sent meanwhile — so whoever waits on an event also looks now and then.
 */
export interface EventBus {
  /** This replica's id, carried by every event it publishes. */
  readonly origin: string;
  publish(topic: EventTopic, data: Record<string, unknown>): Promise<void>;
  subscribe(topic: EventTopic, listener: EventListener): () => void;
  close(): Promise<void>;
}

/** `job`: a job was created or changed status (`{ id, status }`). */
export type EventTopic = 'job';
export type EventListener = (data: Record<string, unknown>, origin: string) => void;

export const EVENTS_CHANNEL = 'orrery_events';
/** How long a lost listening connection waits before connecting again. */
const RECONNECT_MS = 1000;

interface Envelope {
  topic: EventTopic;
  origin: string;
  data: Record<string, unknown>;
}

function listeners() {
  const byTopic = new Map<EventTopic, Set<EventListener>>();
  return {
    add(topic: EventTopic, l: EventListener) {
      let set = byTopic.get(topic);
      if (!set) byTopic.set(topic, (set = new Set()));
      set.add(l);
      return () => void set.delete(l);
    },
    deliver(e: Envelope) {
      for (const l of byTopic.get(e.topic) ?? []) l(e.data, e.origin);
    },
  };
}

/** One process: events go straight to the subscribers, after the publisher's own step. */
export function localEvents(): EventBus {
  const origin = randomUUID();
  const subs = listeners();
  return {
    origin,
    publish: async (topic, data) => queueMicrotask(() => subs.deliver({ topic, origin, data })),
    subscribe: subs.add,
    close: async () => undefined,
  };
}

/**
 * PostgreSQL: NOTIFY through the pool, LISTEN on a connection of its own (a pooled one would
 * go back to the pool and stop listening). Resolves once listening, so that a started server
 * misses nothing sent after; connects again after a loss. A failed publish is the publisher's.
 */
export async function postgresEvents(
  url: string,
  pool: pg.Pool,
  onLost?: (error: Error) => void,
): Promise<EventBus> {
  const origin = randomUUID();
  const subs = listeners();
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const pgm = await import('pg');
    const c = new pgm.default.Client({ connectionString: url });
    const lost = (error: Error) => {
      if (client !== c) return;
      client = null;
      onLost?.(error);
      // Already lost and told through `onLost`: ending it is tidying, and may fail too.
      void c.end().catch(() => undefined);
      if (!closed) retry = setTimeout(listen, RECONNECT_MS);
    };
    c.on('error', lost);
    c.on('end', () => lost(new Error('the events connection ended')));
    c.on('notification', (n) => {
      if (n.channel !== EVENTS_CHANNEL || !n.payload) return;
      try {
        subs.deliver(JSON.parse(n.payload) as Envelope);
      } catch {
        // Not one of ours (someone else's NOTIFY on the channel): ignored.
      }
    });
    await c.connect();
    await c.query(`listen ${EVENTS_CHANNEL}`);
    if (closed) return void (await c.end());
    client = c;
  };
  const listen = () => {
    if (closed || client) return;
    connecting ??= connect()
      .catch((e: Error) => {
        onLost?.(e);
        if (!closed) retry = setTimeout(listen, RECONNECT_MS);
      })
      .finally(() => (connecting = null));
  };
  await connect();

  return {
    origin,
    async publish(topic, data) {
      const payload: Envelope = { topic, origin, data };
      await pool.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, JSON.stringify(payload)]);
    },
    subscribe: subs.add,
    async close() {
      closed = true;
      clearTimeout(retry);
      await connecting;
      const c = client;
      client = null;
      // Closing: a connection that cannot end cleanly is dropped all the same.
      await c?.end().catch(() => undefined);
    },
  };
}
