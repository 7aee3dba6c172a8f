import { describe, expect, it } from 'vitest';
import { withContext } from './links';
import { resolveContext } from './resolve';
import type { AvailableContext } from './resolve';

const available: AvailableContext = {
  orgs: ['acme', 'beta'],
  clusters: [
    { name: 'default', orgs: ['acme', 'beta'] },
    { name: 'gpu', orgs: ['acme'] },
  ],
  projects: [
    { name: 'vision', orgName: 'acme', clusterName: 'default' },
    { name: 'nlp', orgName: 'acme', clusterName: 'default' },
    { name: 'ops', orgName: 'acme', clusterName: 'gpu' },
    { name: 'web', orgName: 'beta', clusterName: 'default' },
  ],
};

describe('context resolution', () => {
  it('takes the query parameters first', () => {
    expect(
      resolveContext(
        { org: 'acme', cluster: 'gpu', project: 'ops' },
        { org: 'beta', cluster: 'default', project: 'web' },
        available,
      ),
    ).toEqual({ org: 'acme', cluster: 'gpu', project: 'ops' });
  });

  it('falls back to the saved choice, then to the first available', () => {
    expect(
      resolveContext({}, { org: 'acme', cluster: 'default', project: 'nlp' }, available),
    ).toEqual({ org: 'acme', cluster: 'default', project: 'nlp' });
    expect(resolveContext({}, {}, available)).toEqual({
      org: 'acme',
      cluster: 'default',
      project: 'vision',
    });
  });

  it('ignores choices that are not available at their level', () => {
    expect(
      resolveContext({ org: 'nope', cluster: 'gpu', project: 'web' }, { org: 'beta' }, available),
    ).toEqual({ org: 'beta', cluster: 'default', project: 'web' });
    // gpu is not a cluster of beta, ops is not a project of beta.
    expect(resolveContext({ org: 'beta', cluster: 'gpu', project: 'ops' }, {}, available)).toEqual({
      org: 'beta',
      cluster: 'default',
      project: 'web',
    });
  });

  it('leaves levels empty when nothing is available', () => {
    expect(resolveContext({}, {}, { orgs: ['solo'], clusters: [], projects: [] })).toEqual({
      org: 'solo',
      cluster: null,
      project: null,
    });
  });
});

describe('withContext', () => {
  it('adds org, cluster and project and keeps the path, its query and hash', () => {
    expect(
      withContext('/org-settings/users?tab=1#top', { org: 'acme', cluster: 'gpu', project: 'ops' }),
    ).toBe('/org-settings/users?tab=1&org=acme&cluster=gpu&project=ops#top');
  });

  it('drops empty levels', () => {
    expect(withContext('/?project=old', { org: 'acme', cluster: null, project: null })).toBe(
      '/?org=acme',
    );
  });
});
