import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Config } from '../../config.js';
import { accountFinder, CLAIMS, tokenClaims } from './account.js';
import { DrizzleAdapter } from './store.js';
import { consoleClient, consoleOrigins, isFirstParty } from './clients.js';
import { loadCookieKeys } from './cookie-keys.js';
import { providerPages } from './provider-pages.js';
import { interactionPaths } from './pages/screens.js';

/** The scope our API (the resource server) understands; every first-party grant includes it. */
const API_SCOPE = 'api';
const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/**
 * The resource indicator of our API. The access token's `aud` is always the configured
 * audience; the indicator only has to be an absolute URI, which OIDC_AUDIENCE need not be.
 */
function apiResource(config: Config) {
  const audience = config.oidc.audience;
  const indicator = URL.canParse(audience) ? audience : config.publicUrl;
  const accepted = new Set([audience, indicator, config.publicUrl, `${config.publicUrl}/`]);
  return { indicator, accepted };
}

/**
 * First-party clients never see a consent screen: the grant is created (or widened) to cover
 * whatever the request asks for. Other clients keep the provider's default behaviour.
 */
function autoGrant(config: Config, indicator: string) {
  return async (ctx: KoaContextWithOIDC) => {
    const { oidc } = ctx;
    const clientId = oidc.client!.clientId;
    const grantId = oidc.result?.consent?.grantId ?? oidc.session!.grantIdFor(clientId);
    const existing = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
    if (!isFirstParty(config, clientId)) return existing;
    const accountId = oidc.session!.accountId!;
    const grant =
      existing && existing.accountId === accountId
        ? existing
        : new oidc.provider.Grant({ clientId, accountId });
    const scopes = [...(oidc.requestParamOIDCScopes ?? [])];
    if (scopes.length) grant.addOIDCScope(scopes.join(' '));
    const claims = oidc.requestParamClaims ? [...oidc.requestParamClaims] : [];
    if (claims.length) grant.addOIDCClaims(claims);
    grant.addResourceScope(indicator, API_SCOPE);
    for (const rs of Object.values(oidc.resourceServers ?? {})) {
      grant.addResourceScope(rs.identifier(), rs.scope);
    }
    await grant.save();
    return grant;
  };
}

/**
 * The Apolo CLI asks for `scope=offline_access` only, which the provider reduces
 * to no scope at all and then refuses ("no scope was granted"). Authorization requests are
 * therefore always OpenID requests: `openid` is added when missing.
 */
async function requireOpenidScope(ctx: KoaContextWithOIDC, next: () => Promise<void>) {
  if (ctx.method === 'GET' && ctx.path === '/auth') {
    const scope = typeof ctx.query.scope === 'string' ? ctx.query.scope.split(' ') : [];
    if (!scope.includes('openid')) {
      // The provider derives its mount path from `originalUrl` ending with `url`: keep it so.
      const req = ctx.req as typeof ctx.req & { originalUrl?: string };
      const mount = req.originalUrl?.slice(0, req.originalUrl.indexOf(ctx.url)) ?? '';
      ctx.query = { ...ctx.query, scope: ['openid', ...scope.filter(Boolean)].join(' ') };
      req.originalUrl = `${mount}${ctx.url}`;
    }
  }
  await next();
}

/**
 * Only the console's own origins may read the provider's answers from a browser. The provider
 * answers every CORS preflight with the asking origin, and its discovery and JWKS to any origin;
 * a page of another site (a job's page, any web site the user visits) gets no CORS header at
 * all, so its script cannot read a token endpoint's answer even where it holds a grant.
 */
function consoleOnlyCors(origins: Set<string>) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    const origin = ctx.get('origin');
    if (!origin || origins.has(origin)) return next();
    if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method')) {
      ctx.vary('Origin');
      ctx.status = 204;
      return;
    }
    await next();
    for (const name of Object.keys(ctx.response.headers)) {
      if (name.toLowerCase().startsWith('access-control-')) ctx.remove(name);
    }
  };
}

/**
 * The embedded OpenID provider: accounts are `users`, storage is `oidc_payloads`, signing keys
 * are the same database keys `orrery token create` signs with, and access tokens are JWTs for
 * our API carrying `identity` (the user name) so the API and the Apolo CLI can read them.
 */
export async function createProvider(ctx: AppContext, log: FastifyBaseLogger): Promise<Provider> {
  const { config, db } = ctx;
  const { indicator, accepted } = apiResource(config);
  const origins = new Set(consoleOrigins(config));
  const consoleCallbacks = new Set([...origins].map((o) => `${o}/auth/callback`));
  const pages = providerPages(config);

  const configuration: Configuration = {
    adapter: (name: string) => new DrizzleAdapter(db, name),
    clients: [consoleClient(config)],
    jwks: { keys: ctx.keys as NonNullable<Configuration['jwks']>['keys'] },
    cookies: { keys: await loadCookieKeys(db) },
    findAccount: accountFinder(db),
    claims: CLAIMS,
    // Code flow: put the profile and e-mail claims in the ID token too, as the console reads them.
    conformIdTokenClaims: false,
    // `screen=signup` lets the console open the sign-up page instead of the sign-in page;
    // `invite` and `invite_proof` come from an invitation mail and verify the invited address.
    extraParams: ['screen', 'invite', 'invite_proof'],
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => interactionPaths(interaction.uid).start },
    loadExistingGrant: autoGrant(config, indicator),
    extraTokenClaims: tokenClaims(db),
    // oidc-provider keeps `offline_access` only with prompt=consent, which the Apolo CLI never
    // sends; refresh tokens are issued to our client anyway (the CLI's outlive the browser
    // session, the console's do not: see expiresWithSession).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // The console keeps its tokens in memory and gets new ones from the provider's session
    // (an HttpOnly cookie) on every page load: what it is given lives no longer than that
    // session, so signing out ends every token the console ever held. The Apolo CLI's logins
    // (its loopback callbacks, the show-code page) outlive the browser session.
    expiresWithSession: async (ctx) => consoleCallbacks.has(String(ctx.oidc.params?.redirect_uri)),
    responseTypes: ['code'],
    // The console calls the token endpoint from the browser, from a white-label host too.
    clientBasedCORS: (_ctx, origin) => origins.has(origin),
    renderError: pages.renderError,
    ttl: {
      AccessToken: HOUR,
      AuthorizationCode: 60,
      IdToken: HOUR,
      Interaction: HOUR,
      Session: 14 * DAY,
      Grant: 30 * DAY,
      // A rotated refresh token of a public client keeps the lifetime of the first one.
      RefreshToken: (ctx) => ctx?.oidc?.entities.RotatedRefreshToken?.remainingTTL ?? 30 * DAY,
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => indicator,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (!accepted.has(resource)) throw new errors.InvalidTarget();
          return {
            scope: API_SCOPE,
            audience: config.oidc.audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: HOUR,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: pages.logoutSource,
        postLogoutSuccessSource: pages.postLogoutSuccessSource,
      },
    },
  };

  const provider = new Provider(config.oidc.issuer, configuration);
  // Behind a reverse proxy the public scheme and host come from X-Forwarded-*; mount.ts drops
  // those headers unless they come from a trusted proxy (Koa cannot tell one peer from another).
  provider.proxy = ctx.config.trustedProxies.length > 0;
  provider.use(consoleOnlyCors(origins));
  provider.use(requireOpenidScope);
  provider.on('server_error', (_ctx, err: Error) => log.error({ err }, 'oidc provider error'));
  return provider;
}
