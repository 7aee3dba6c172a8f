import type { ClientMetadata } from 'oidc-provider';
import type { Config } from '../../config.js';

/** Ports of the Apolo CLI's local browser callback (`callback_urls`). */
export const CLI_CALLBACKS = [54540, 54541, 54542].map((p) => `http://127.0.0.1:${p}`);
/** The Vite dev server of the console. */
const DEV_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173'];

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Origins the console is served from: the public URL, every white-label host, and the dev
 * server only where the server itself is on this machine's loopback (a development setup). A
 * server with a real name never trusts `localhost:5173`: any local web page there (the default
 * port of every Vite project) would otherwise get codes and tokens for the user's session.
 */
export function consoleOrigins(config: Config): string[] {
  const pub = new URL(config.publicUrl);
  const port = pub.port ? `:${pub.port}` : '';
  const whiteLabels = Object.keys(config.branding.whiteLabels).map(
    (host) => `${pub.protocol}//${host}${port}`,
  );
  const dev = LOOPBACK.has(pub.hostname) ? DEV_ORIGINS : [];
  return [...new Set([pub.origin, ...whiteLabels, ...dev])];
}

/**
 * The one first-party client, shared by the console (a browser SPA) and the Apolo CLI: public
 * (no secret, PKCE instead), authorization code + refresh token.
 */
export function consoleClient(config: Config): ClientMetadata {
  const origins = consoleOrigins(config);
  return {
    client_id: config.oidc.clientId,
    client_name: config.branding.title,
    application_type: 'web',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: [
      ...origins.map((o) => `${o}/auth/callback`),
      ...CLI_CALLBACKS,
      `${config.publicUrl}/oauth/show-code`,
    ],
    post_logout_redirect_uris: origins.map((o) => `${o}/`),
  };
}

/** First-party clients skip the consent screen: the user signs in to the product itself. */
export const isFirstParty = (config: Config, clientId: string | undefined) =>
  clientId === config.oidc.clientId;
