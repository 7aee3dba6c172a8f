import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { consoleCsp } from './security-headers.js';

const directives = (policy: string) =>
  Object.fromEntries(
    policy.split('; ').map((d) => {
      const [name, ...values] = d.split(' ');
      return [name, values];
    }),
  );

describe('the console CSP', () => {
  it('lets the console reach an external issuer whose endpoints live on other origins', () => {
    const config = loadConfig({
      ORRERY_PUBLIC_URL: 'https://orrery.example.com',
      OIDC_ISSUER: 'https://id.example.com/realms/ml',
      OIDC_CLIENT_ID: 'console',
    });
    const policy = directives(
      consoleCsp(config, '/jobs', [
        'https://id.example.com/realms/ml/auth',
        'https://tokens.example.net/token',
        'not a url',
      ]),
    );
    expect(policy['connect-src']).toEqual([
      "'self'",
      'https://orrery.example.com',
      'wss://orrery.example.com',
      'https://id.example.com',
      'https://tokens.example.net',
    ]);
    expect(policy['frame-src']).toEqual([
      "'self'",
      'https://id.example.com',
      'https://tokens.example.net',
    ]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(directives(consoleCsp(config, '/auth/callback'))['frame-ancestors']).toEqual(["'self'"]);
  });
});
