import dns, { type LookupAddress, type LookupOptions } from 'node:dns';

/**
 * Jobs are served at hosts of their own under `jobs.localhost` (ORRERY_INGRESS_DOMAIN's
 * default), which browsers resolve to the loopback themselves but glibc does not. The tests'
 * clients (fetch, node:http, ws) reach those hosts as a browser would: every `*.localhost` name
 * is 127.0.0.1, with the Host header the client asked for.
 */
const original = dns.lookup;
type Callback = (e: NodeJS.ErrnoException | null, a: string | LookupAddress[], f?: number) => void;

function lookup(host: string, options: unknown, callback?: unknown) {
  const cb = (typeof options === 'function' ? options : callback) as Callback;
  const opts = (typeof options === 'object' && options ? options : {}) as LookupOptions;
  if (/\.localhost\.?$/i.test(host)) {
    process.nextTick(() =>
      opts.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4),
    );
    return;
  }
  return (original as (...a: unknown[]) => void).call(dns, host, options, callback);
}

// Files share a process (vitest.config.ts): installed once, not wrapped again by each file.
const INSTALLED = Symbol.for('orrery.localhost-names');
const patched = dns as typeof dns & { [INSTALLED]?: true };
if (!patched[INSTALLED]) {
  patched[INSTALLED] = true;
  dns.lookup = lookup as typeof dns.lookup;
}
