import { describe, expect, it } from 'vitest';
import { linkCitations } from './Answer';
import { citation } from './test-support';

describe('citation markers', () => {
  it('links each [n] to its citation and leaves unknown markers and links alone', () => {
    const out = linkCitations('A [1] and [2], see [1](/x) or [3].', [
      citation(1),
      citation(2, { url: '/jobs/job-7', title: 'Job "train"' }),
    ]);
    expect(out).toBe(
      'A [\\[1\\]](</docs/jobs.md#logs> "Jobs > The job page > Logs") and [\\[2\\]](</jobs/job-7> "Job train"), see [1](/x) or [3].',
    );
  });
});
