import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import type { RuntimeDriver, StatsSample } from '../../runtime/driver.js';
import { activeJobs } from './store.js';

/** The metrics dashboard shows a job's last 15 minutes. */
export const HISTORY_SECONDS = 15 * 60;
/** One sample a second over the window, with room for a runtime that samples a bit faster. */
const MAX_SAMPLES = HISTORY_SECONDS * 2;
/** How often running jobs are looked for: a job's first seconds may be missed by this much. */
export const SCAN_MS = 5_000;

/**
 * The recent load of running jobs. Neither runtime keeps a history of a job's stats, so this
 * reads each running job's `stats` stream and keeps a bounded ring of its samples in memory:
 * a restart of the server starts the history again, and a job's ring is dropped once its
 * newest sample is older than the window.
 */
export class MetricsHistory {
  private readonly rings = new Map<string, StatsSample[]>();
  private readonly watching = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly driver: RuntimeDriver,
    private readonly log: FastifyBaseLogger,
    private readonly scanMs = SCAN_MS,
  ) {}

  start() {
    this.timer = setInterval(() => void this.scan(), this.scanMs);
    this.timer.unref();
    void this.scan();
  }

  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    // A scan under way could start watching again: wait for it before stopping the watches.
    await this.scanning;
    for (const c of this.watching.values()) c.abort();
  }

  /** The job's samples of the last 15 minutes, oldest first; none for a job never seen running. */
  samples(id: string, nowSeconds = Date.now() / 1000): StatsSample[] {
    return (this.rings.get(id) ?? []).filter((s) => s.timestamp > nowSeconds - HISTORY_SECONDS);
  }

  /** Starts watching jobs that began running since the last scan; drops rings past the window. */
  scan(): Promise<void> {
    this.scanning ??= this.findRunning().finally(() => (this.scanning = null));
    return this.scanning;
  }

  private async findRunning() {
    try {
      const running = (await activeJobs(this.db)).filter((j) => j.status === 'running');
      for (const j of running) if (!this.stopped && !this.watching.has(j.id)) void this.watch(j.id);
    } catch (e) {
      this.log.warn({ err: e }, 'Could not list running jobs for their metrics history');
    }
    const oldest = Date.now() / 1000 - HISTORY_SECONDS;
    for (const [id, ring] of this.rings) {
      if (!this.watching.has(id) && (ring.at(-1)?.timestamp ?? 0) < oldest) this.rings.delete(id);
    }
  }

  private async watch(id: string) {
    const control = new AbortController();
    this.watching.set(id, control);
    const ring = this.rings.get(id) ?? [];
    this.rings.set(id, ring);
    try {
      for await (const s of this.driver.stats(id, control.signal)) {
        ring.push(s);
        const oldest = s.timestamp - HISTORY_SECONDS;
        let drop = 0;
        while (drop < ring.length && ring[drop].timestamp <= oldest) drop++;
        ring.splice(0, Math.max(drop, ring.length - MAX_SAMPLES));
      }
    } catch (e) {
      if (!control.signal.aborted) this.log.debug({ err: e, job: id }, 'Job stats ended');
    } finally {
      this.watching.delete(id);
    }
  }
}
