import type { BrandingWire } from '@orrery/contract';

/** Escapes text for HTML content and double-quoted attributes. */
export const esc = (s: unknown): string =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Marks a string as already-safe HTML, so composing pages never double-escapes. */
export interface Html {
  html: string;
}
export const raw = (html: string): Html => ({ html });
export const join = (parts: (Html | false | null | undefined)[]): Html =>
  raw(parts.map((p) => (p ? p.html : '')).join(''));

/**
 * Plain, self-contained styling: the pages of the identity provider need no console bundle and
 * no script, so they work before the console loads and under a strict CSP. They look like the
 * console (app/theme.ts: Mantine's indigo, medium radius, the Inter stack; its inputs, buttons and
 * bordered cards), so that signing in does not feel like another site.
 */
const CSS = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
font:16px/1.55 Inter,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
background:#fff;color:#000}
main{width:100%;max-width:420px;margin:24px;padding:32px;background:#fff;border:1px solid #dee2e6;
border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.05),0 10px 15px -5px rgba(0,0,0,.05)}
header{margin-bottom:24px}
header img{max-height:48px;max-width:200px}
.brand{display:inline-flex;align-items:center;gap:10px;font-weight:700;font-size:18px}
.mark{display:inline-flex;width:32px;height:32px;border-radius:8px;background:#edf2ff;
align-items:center;justify-content:center}
h1{font-size:28px;line-height:1.3;font-weight:700;margin:16px 0 0}
label{display:block;font-size:14px;font-weight:500;margin:16px 0 4px}
input{width:100%;height:36px;padding:0 12px;border:1px solid #ced4da;border-radius:8px;
font:inherit;font-size:14px}
input:focus{outline:none;border-color:#4c6ef5}
input[aria-invalid=true]{border-color:#fa5252}
button{width:100%;margin-top:24px;height:36px;padding:0 18px;border:0;border-radius:8px;
background:#4c6ef5;color:#fff;font:inherit;font-size:14px;font-weight:600;cursor:pointer}
button:hover{background:#4263eb}
button.secondary{background:#fff;color:#000;border:1px solid #ced4da;margin-top:8px}
button.secondary:hover{background:#f8f9fa}
.error{color:#fa5252;font-size:12px;margin:4px 0 0}
.hint{color:#868e96;font-size:12px;margin:4px 0 0}
.alert{padding:12px 16px;border-radius:8px;background:#fff5f5;color:#c92a2a;margin-top:16px;
font-size:14px}
.note{padding:12px 16px;border-radius:8px;background:#ebfbee;color:#2b8a3e;margin-top:16px;
font-size:14px}
.links{display:flex;justify-content:space-between;gap:8px;margin-top:16px;font-size:14px}
a{color:#4c6ef5;text-decoration:none}
a:hover{text-decoration:underline}
footer{text-align:center;color:#868e96;font-size:12px;margin-top:24px}
`;

/** The console's mark beside the title where no logo is configured (an orbit, in the light tint). */
const MARK = `<span class="mark" aria-hidden="true"><svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="#4c6ef5" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="12" r="3"/><ellipse cx="12" cy="12" rx="10" ry="4.5" transform="rotate(-30 12 12)"/></svg></span>`;

const CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src * data:',
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

/** Headers of every page: no caching (they carry one-time state), no framing, no scripts. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** The frame of every page, branded with the product (or white-label) title and logo. */
export function layout(brand: BrandingWire, heading: string, body: Html): string {
  const logo = brand.logo_url
    ? `<img src="${esc(brand.logo_url)}" alt="${esc(brand.title)}">`
    : `<div class="brand">${MARK}${esc(brand.title)}</div>`;
  const powered = brand.powered_by ? `<footer>Powered by ${esc(brand.powered_by)}</footer>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(heading)} · ${esc(brand.title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<header>${logo}<h1>${esc(heading)}</h1></header>
${body.html}
${powered}
</main>
</body>
</html>`;
}

export interface FieldOpts {
  label: string;
  name: string;
  type?: string;
  value?: string;
  error?: string;
  autocomplete?: string;
  autofocus?: boolean;
  hint?: string;
}

/** A labelled input with its field-level error, linked for screen readers. */
export function field(f: FieldOpts): Html {
  const id = `f-${f.name}`;
  const err = f.error ? `<p class="error" id="${id}-error">${esc(f.error)}</p>` : '';
  const hint = f.hint && !f.error ? `<p class="hint">${esc(f.hint)}</p>` : '';
  const attrs = [
    `id="${id}"`,
    `name="${esc(f.name)}"`,
    `type="${esc(f.type ?? 'text')}"`,
    f.value && f.type !== 'password' ? `value="${esc(f.value)}"` : '',
    f.autocomplete ? `autocomplete="${esc(f.autocomplete)}"` : '',
    f.autofocus ? 'autofocus' : '',
    f.error ? `aria-invalid="true" aria-describedby="${id}-error"` : '',
    'required',
  ].filter(Boolean);
  return raw(`<label for="${id}">${esc(f.label)}</label><input ${attrs.join(' ')}>${err}${hint}`);
}

export const alert = (text: string | undefined): Html | null =>
  text ? raw(`<p class="alert" role="alert">${esc(text)}</p>`) : null;
export const note = (text: string): Html => raw(`<p class="note" role="status">${esc(text)}</p>`);
export const paragraph = (text: string): Html => raw(`<p>${esc(text)}</p>`);
export const link = (href: string, text: string): Html =>
  raw(`<a href="${esc(href)}">${esc(text)}</a>`);
export const links = (...items: Html[]): Html =>
  raw(`<div class="links">${items.map((i) => i.html).join('')}</div>`);
export const hidden = (name: string, value: string): Html =>
  raw(`<input type="hidden" name="${esc(name)}" value="${esc(value)}">`);

export function form(action: string, fields: Html[], submit: string): Html {
  return raw(
    `<form method="post" action="${esc(action)}" novalidate>${fields.map((f) => f.html).join('')}` +
      `<button type="submit">${esc(submit)}</button></form>`,
  );
}
