import { createHash } from 'node:crypto';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../../config.js';
import { brandingFor } from '../../modules/config/branding.js';
import { consoleOrigins } from './clients.js';
import { PAGE_HEADERS } from './pages/layout.js';
import { logoutPage, messagePage, signedOutPage } from './pages/screens.js';

type Koa = KoaContextWithOIDC;

const AUTO_SIGN_OUT =
  "(function(){var f=document.getElementById('op.logoutForm');var i=document.createElement('input');" +
  "i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();})();";
const AUTO_SIGN_OUT_HASH = createHash('sha256').update(AUTO_SIGN_OUT).digest('base64');

/** The console's address for the host the request came to (a white label keeps its host). */
export function consoleHome(config: Config, origin: string): string {
  return consoleOrigins(config).includes(origin) ? `${origin}/` : `${config.publicUrl}/`;
}

function send(ctx: Koa, html: string) {
  ctx.set(PAGE_HEADERS);
  ctx.type = 'html';
  ctx.body = html;
}

/** The pages oidc-provider renders itself (logout, signed out, errors), in our branded frame. */
export function providerPages(config: Config) {
  const brand = (ctx: Koa) => brandingFor(config, ctx.hostname);

  const logoutSource = async (ctx: Koa, form: string) => {
    // The console asks with the ID token it holds: that proves the request is the user's own,
    // so the page confirms by itself. Without a hint the user confirms with the button.
    const fromClient = typeof ctx.oidc.params?.id_token_hint === 'string';
    send(ctx, logoutPage(brand(ctx), form, fromClient ? AUTO_SIGN_OUT : null));
    if (fromClient) {
      ctx.set(
        'content-security-policy',
        `${PAGE_HEADERS['content-security-policy']}; script-src 'sha256-${AUTO_SIGN_OUT_HASH}'`,
      );
    }
  };

  const postLogoutSuccessSource = async (ctx: Koa) =>
    send(ctx, signedOutPage(brand(ctx), consoleHome(config, ctx.origin)));

  const renderError: NonNullable<Configuration['renderError']> = async (ctx, out) => {
    // The description is the provider's own text (never user input echoed unescaped: the page
    // escapes it); the code names the OAuth error for support.
    const text = out.error_description ?? 'The sign-in request could not be completed.';
    send(
      ctx,
      messagePage(brand(ctx), 'Sign-in failed', `${text} (${out.error})`, {
        href: consoleHome(config, ctx.origin),
        label: `Back to ${brand(ctx).title}`,
      }),
    );
  };

  return { logoutSource, postLogoutSuccessSource, renderError };
}
