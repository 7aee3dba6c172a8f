import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact.js';

describe('log redaction', () => {
  it('hides credentials in query strings and keeps the rest', () => {
    expect(
      redactUrl('/oidc/session/end?id_token_hint=eyJx&post_logout_redirect_uri=http%3A%2F%2Fa'),
    ).toBe(
      '/oidc/session/end?id_token_hint=%5Bredacted%5D&post_logout_redirect_uri=http%3A%2F%2Fa',
    );
    expect(redactUrl('/oidc/verify?token=abc')).toBe('/oidc/verify?token=%5Bredacted%5D');
    expect(redactUrl('/api/v1/orgs?page=2')).toBe('/api/v1/orgs?page=2');
  });
});
