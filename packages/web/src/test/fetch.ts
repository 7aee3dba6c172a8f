import { vi } from 'vitest';
import { permissionsOf } from './permissions';

export interface CannedResponse {
  method?: string;
  /** Matched against the path and query of the request. */
  url: string | RegExp;
  status?: number;
  body?: unknown;
  /** A JSON body made from the request's (parsed) body, for answers that echo the question. */
  reply?: (body: unknown) => unknown;
  /** A body that is not JSON (e.g. CSV), sent as it is with this content type. */
  text?: { body: string; type: string };
}

export interface RecordedCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  credentials?: RequestCredentials;
}

/**
 * Every permission question answered "allowed", for tests about something else; a test about
 * gating puts its own `permissionsOf(...)` first, which wins.
 */
const ALLOW_ALL = permissionsOf([{ prefix: '', have: 'manage' }]);

/**
 * Replaces `fetch` with canned answers; unmatched requests fail the test loudly with a 599.
 * Permission checks not canned by the test are allowed (ALLOW_ALL).
 */
export function stubFetch(given: CannedResponse[]) {
  const responses = [...given, ALLOW_ALL];
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = init.method ?? 'GET';
    calls.push({
      method,
      url,
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      credentials: init.credentials,
    });
    const match = responses.find(
      (r) =>
        (r.method ?? 'GET') === method &&
        (typeof r.url === 'string' ? r.url === url : r.url.test(url)),
    );
    if (!match)
      return new Response(JSON.stringify({ message: `unexpected ${method} ${url}` }), {
        status: 599,
      });
    const status = match.status ?? 200;
    const body = match.reply ? match.reply(calls[calls.length - 1].body) : match.body;
    if (match.text)
      return new Response(match.text.body, {
        status,
        headers: { 'Content-Type': match.text.type },
      });
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
