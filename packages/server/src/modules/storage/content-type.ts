/**
 * Content types for files opened in a browser tab (the console's preview and "open in new tab").
 * Only types a browser shows without running anything: no HTML, no SVG (it can carry scripts);
 * text-like files are plain text. Everything else downloads as application/octet-stream.
 */
const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  webm: 'video/webm',
};
const TEXT = new Set(['txt', 'log', 'md', 'csv', 'tsv', 'json', 'yaml', 'yml', 'py', 'sh', 'toml']);

export function contentTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (TEXT.has(ext)) return 'text/plain; charset=utf-8';
  return TYPES[ext] ?? 'application/octet-stream';
}

/** User files are served from the console's origin: never let one run as a page there. */
export const inlineFileHeaders = (name: string) => ({
  'content-type': contentTypeOf(name),
  'x-content-type-options': 'nosniff',
  'content-security-policy': 'sandbox',
  'referrer-policy': 'no-referrer',
});
