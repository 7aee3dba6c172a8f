import { CONTEXT_KEYS } from './resolve';
import type { ContextChoice } from './resolve';

/**
 * The one way to build an in-app link: the path with the context's org, cluster and project
 * query parameters, keeping the path's own query and hash. Empty levels are left out.
 */
export function withContext(path: string, context: ContextChoice): string {
  const url = new URL(path, 'http://console.invalid');
  for (const key of CONTEXT_KEYS) {
    const value = context[key];
    if (value) url.searchParams.set(key, value);
    else url.searchParams.delete(key);
  }
  return `${url.pathname}${url.search}${url.hash}`;
}
