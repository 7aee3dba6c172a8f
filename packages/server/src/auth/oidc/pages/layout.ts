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
 * no script, so they work before the console loads and under a strict CSP.
 */
const CSS = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f4f6;color:#111827}
main{width:100%;max-width:400px;margin:24px;padding:32px;background:#fff;border-radius:12px;
box-shadow:0 1px 3px rgba(0,0,0,.12)}
header{text-align:center;margin-bottom:24px}
header img{max-height:48px;max-width:200px}
header .brand{font-weight:600;font-size:18px}
h1{font-size:22px;margin:8px 0 0}
label{display:block;font-weight:500;margin:16px 0 4px}
input{width:100%;padding:10px 12px;border:1px solid #d1d5db;border-radius:8px;font:inherit}
input:focus{outline:2px solid #4f46e5;border-color:transparent}
input[aria-invalid=true]{border-color:#dc2626}
button{width:100%;margin-top:24px;padding:10px 12px;border:0;border-radius:8px;background:#4f46e5;
color:#fff;font:inherit;font-weight:600;cursor:pointer}
button:hover{background:#4338ca}
button.secondary{background:#e5e7eb;color:#111827;margin-top:8px}
.error{color:#dc2626;font-size:13px;margin:4px 0 0}
.hint{color:#6b7280;font-size:13px;margin:4px 0 0}
.alert{padding:10px 12px;border-radius:8px;background:#fef2f2;color:#991b1b;margin-top:16px}
.note{padding:10px 12px;border-radius:8px;background:#f0fdf4;color:#166534;margin-top:16px}
.links{display:flex;justify-content:space-between;gap:8px;margin-top:16px;font-size:14px}
a{color:#4f46e5}
footer{text-align:center;color:#6b7280;font-size:12px;margin-top:24px}
`;

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
    : `<div class="brand">${esc(brand.title)}</div>`;
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
