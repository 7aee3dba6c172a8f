import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { databaseRateLimitStore } from './rate-limit-store.js';
import { retryText } from './sign-in-limits.js';
import { brandingFor } from '../../modules/config/branding.js';
import { formString, MESSAGES } from '../../modules/accounts/rules.js';
import { PAGE_HEADERS } from './pages/layout.js';
import { messagePage } from './pages/screens.js';
import { consoleHome } from './provider-pages.js';

export const brandOf = (config: Config, request: FastifyRequest) =>
  brandingFor(config, request.hostname);

/** The console for the host of this request (white labels keep their host). */
export const homeOf = (config: Config, request: FastifyRequest) =>
  consoleHome(config, `${request.protocol}://${request.host}`);

export const sendPage = (reply: FastifyReply, html: string, status = 200) =>
  reply.status(status).headers(PAGE_HEADERS).send(html);

const MINUTE = 60_000;

/**
 * Limits of the form POSTs, counted in the database so that every replica counts the same hits
 * (rate-limit-store.ts). Sign-in counts per address and e-mail, so one attacker cannot lock
 * everybody out and cannot try many passwords for one account.
 */
export const LIMITS = {
  signIn: {
    max: 10,
    timeWindow: MINUTE,
    hook: 'preHandler',
    keyGenerator: (r) => `${r.ip}|${formString(r.body, 'email').trim().toLowerCase()}`,
  },
  signUp: { max: 10, timeWindow: MINUTE, hook: 'preHandler' },
  forgot: { max: 5, timeWindow: MINUTE, hook: 'preHandler' },
  reset: { max: 10, timeWindow: MINUTE, hook: 'preHandler' },
} satisfies Record<string, RateLimitOptions>;

/**
 * The scope of the server-rendered forms: URL-encoded bodies and rate limits for these routes
 * only (the API keeps its JSON-only parsing), and failures answered as pages, not JSON.
 */
export async function installForms(app: FastifyInstance, config: Config, db: Db) {
  await app.register(formbody);
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(db) });
  app.setErrorHandler((err: Error & { statusCode?: number }, request, reply) => {
    const brand = brandOf(config, request);
    const home = { href: homeOf(config, request), label: `Back to ${brand.title}` };
    if (err.statusCode === 429) {
      // The plugin has set Retry-After (seconds): the page says the same.
      const after = Number(reply.getHeader('retry-after'));
      const text = after > 0 ? retryText(after * 1000) : MESSAGES.tooMany;
      return sendPage(reply, messagePage(brand, MESSAGES.tooMany, text), 429);
    }
    const status = err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) request.log.error({ err }, 'identity page failed');
    return sendPage(
      reply,
      messagePage(brand, 'Something went wrong', 'Please try again in a moment.', home),
      status,
    );
  });
}
