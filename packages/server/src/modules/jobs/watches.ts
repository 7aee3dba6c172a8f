/**
 * Those following a job's status (the attach socket) wait on the job's events, from whichever
 * replica changed it (db/events.ts), instead of reading the job in a tight loop. An event can be
 * lost with a replica's listening connection, so a wait also ends after a while: a slow poll
 * that only matters then.
 */
export interface JobWatch {
  /** Resolves at the job's next change, one since the last call included, or after `ms`. */
  next(ms: number): Promise<void>;
  close(): void;
}

export class JobWatches {
  private readonly byJob = new Map<string, Set<() => void>>();

  /** A change of job `id`: wakes its watches. */
  changed(id: string) {
    for (const wake of this.byJob.get(id) ?? []) wake();
  }

  /** Watches job `id` from now on: a change between this call and `next` is not missed. */
  watch(id: string): JobWatch {
    let pending = false;
    let resolve: (() => void) | null = null;
    const wake = () => {
      pending = true;
      resolve?.();
    };
    let set = this.byJob.get(id);
    if (!set) this.byJob.set(id, (set = new Set()));
    set.add(wake);
    return {
      next: async (ms) => {
        if (!pending) {
          await new Promise<void>((r) => {
            const timer = setTimeout(r, ms);
            resolve = () => {
              clearTimeout(timer);
              r();
            };
          });
          resolve = null;
        }
        pending = false;
      },
      close: () => {
        set.delete(wake);
        if (set.size === 0 && this.byJob.get(id) === set) this.byJob.delete(id);
        resolve?.();
      },
    };
  }
}
