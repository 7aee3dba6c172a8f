import type { EpochName, Epochs, EpochValues } from './epochs.js';

/**
 * Reads shared between requests for as long as an epoch (epochs.ts) keeps its value. A request
 * takes one snapshot of the epochs when it arrives and every cached read it makes is of that
 * snapshot: something written before the request arrived is always seen.
 */
export interface EpochSnapshot {
  readonly epochs: EpochValues;
  /** `load()` once per key while epoch `name` has this snapshot's value. */
  cached<T>(name: EpochName, key: string, load: () => PromiseLike<T>): Promise<T>;
}

export interface EpochCache {
  snapshot(): Promise<EpochSnapshot>;
}

/**
 * Entries kept per epoch before that cache starts over: a bound on memory, not a policy. A jobs
 * entry is a page of up to 100 jobs with their history, hence the smaller bound.
 */
const MAX_ENTRIES: Record<EpochName, number> = { access: 20_000, secrets: 5_000, jobs: 500 };

export function createEpochCache(epochs: Epochs): EpochCache {
  const caches = new Map<EpochName, { at: number; entries: Map<string, Promise<unknown>> }>();

  function cached<T>(name: EpochName, e: number, key: string, load: () => PromiseLike<T>) {
    let c = caches.get(name);
    if (!c || e > c.at) caches.set(name, (c = { at: e, entries: new Map() }));
    // A request that read the epoch before the latest change loads without caching.
    if (e < c.at) return Promise.resolve(load());
    let found = c.entries.get(key) as Promise<T> | undefined;
    if (!found) {
      if (c.entries.size >= MAX_ENTRIES[name]) c.entries = new Map();
      const entries = c.entries;
      // A real promise: a drizzle query is a thenable that runs again at every `then`.
      const mine = (found = Promise.resolve(load()));
      entries.set(key, mine);
      // A failed load (database unavailable) is not remembered.
      mine.catch(() => entries.get(key) === mine && entries.delete(key));
    }
    return found;
  }

  return {
    async snapshot() {
      const values = await epochs.read();
      return {
        epochs: values,
        cached: (name, key, load) => cached(name, values[name], key, load),
      };
    },
  };
}
