import { createHash, randomBytes } from 'node:crypto';

/**
 * A minimal browser for tests of the sign-in pages: fetch with a cookie jar and manual
 * redirects, so each hop of an OAuth flow can be checked. Cookie paths are ignored: the
 * provider's cookie names are distinct, which is enough for one flow at a time.
 */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const url = new URL(path, this.base);
    const headers = new Headers(init.headers);
    if (url.origin === new URL(this.base).origin && this.cookies.size) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) this.store(line);
    return res;
  }

  get(path: string) {
    return this.request(path);
  }

  /** Submits a form as a browser does: URL-encoded fields. */
  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /**
   * Follows redirects within the identity provider (`/oidc` on our server) until a page, or a
   * redirect elsewhere (the client's callback). Returns the last response and where it left to.
   */
  async follow(res: Response): Promise<{ res: Response; leftTo?: URL }> {
    for (let hops = 0; hops < 10 && res.status >= 300 && res.status < 400; hops++) {
      const next = new URL(res.headers.get('location')!, res.url || this.base);
      const ours = next.origin === new URL(this.base).origin && next.pathname.startsWith('/oidc');
      if (!ours) return { res, leftTo: next };
      res = await this.get(next.toString());
    }
    return { res };
  }

  private store(line: string) {
    const [pair, ...attrs] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attrs.some((a) => {
      const [k, v] = a.trim().split('=');
      if (k.toLowerCase() === 'max-age') return Number(v) <= 0;
      if (k.toLowerCase() === 'expires') return new Date(v).getTime() < Date.now();
      return false;
    });
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** A PKCE verifier and its S256 challenge. */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

/** The `action` of the first form of a page. */
export function formAction(html: string): string {
  const m = /<form[^>]*action="([^"]+)"/.exec(html);
  if (!m) throw new Error(`No form in page:\n${html.slice(0, 500)}`);
  return m[1].replace(/&amp;/g, '&');
}

/** The first link of a mail (outbox `.eml`) that starts with `prefix`. */
export function linkIn(eml: string, prefix: string): string {
  // Quoted-printable soft line breaks would split long links.
  const text = eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const m = new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\s]+`).exec(text);
  if (!m) throw new Error(`No link ${prefix} in mail:\n${text}`);
  return m[0];
}
