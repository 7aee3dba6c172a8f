import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { world } from '../test/fixtures';
import { stubFetch } from '../test/fetch';
import { renderSignedIn } from '../test/render';
import { buildSupportMailto } from './support-mail';
import { SupportLink } from './SupportLink';

const parse = (href: string) => {
  const url = new URL(href);
  return {
    to: decodeURIComponent(url.pathname),
    subject: url.searchParams.get('subject') ?? '',
    body: url.searchParams.get('body') ?? '',
  };
};

describe('contact support', () => {
  it('lists username, organization, cluster, project and page in subject and body', () => {
    const mail = parse(
      buildSupportMailto('help@example.org', {
        username: 'alice',
        org: 'acme',
        cluster: 'gpu',
        project: 'ops',
        page: 'https://console.example.org/jobs?org=acme',
      }),
    );
    expect(mail.to).toBe('help@example.org');
    for (const value of ['alice', 'acme', 'gpu', 'ops']) expect(mail.subject).toContain(value);
    expect(mail.body).toContain('Username: alice');
    expect(mail.body).toContain('Organization: acme');
    expect(mail.body).toContain('Cluster: gpu');
    expect(mail.body).toContain('Project: ops');
    expect(mail.body).toContain('Page: https://console.example.org/jobs?org=acme');
  });

  it('builds the link from the configured address and the current context', () => {
    const { user, sessionConfig } = world();
    stubFetch([]);
    renderSignedIn(<SupportLink />, {
      user,
      sessionConfig,
      route: '/?org=acme&cluster=gpu&project=ops',
    });
    const mail = parse(screen.getByText('Contact support').getAttribute('href') ?? '');
    expect(mail.to).toBe('support@example.org');
    expect(mail.body).toContain('Username: alice');
    expect(mail.body).toContain('Cluster: gpu');
    expect(mail.body).toContain('Project: ops');
    expect(mail.body).toContain(`Page: ${window.location.href}`);
  });
});
