import type { JobContainer } from '@orrery/contract';
import type { JobRow } from './store.js';

// What a job row's `container` column holds, read without the database: route files and other
// modules use these on rows they already have.

/**
 * The stored container: the job JSON's, and the volumes (by dst_path) the job's uid owns on the
 * process runtime (driver.ts JobMount.owned), which only the apps service asks for and the job
 * JSON never shows.
 */
export type StoredContainer = JobContainer & {
  owned_volumes?: string[];
  /** The job's workers when more than one (the wire's `nodes`; docs/jobs.md "Distributed jobs"). */
  workers?: number;
};
export const containerOf = (j: JobRow) => j.container as StoredContainer;
/** How many workers the job runs: 1 unless it asked for a gang. */
export const workersOf = (j: JobRow) => containerOf(j).workers ?? 1;
