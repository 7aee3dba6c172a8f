// Types of leftovers.mjs for the TypeScript that imports it (the tests' harnesses).

/** Kills the processes of the jobs whose data directory starts with `prefix`; their job ids. */
export function stopJobsUnder(prefix: string): string[];

export function reportLeftoverJobs(name: string): void;
