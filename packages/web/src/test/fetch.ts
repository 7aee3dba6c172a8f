import { vi } from 'vitest';

export interface CannedResponse {
  method?: string;
  /** Matched against the path and query of the request. */
  url: string | RegExp;
  status?: number;
  body?: unknown;
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

/** Replaces `fetch` with canned answers; unmatched requests fail the test loudly with a 599. */
export function stubFetch(responses: CannedResponse[]) {
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
    if (match.text)
      return new Response(match.text.body, {
        status,
        headers: { 'Content-Type': match.text.type },
      });
    return new Response(match.body === undefined ? null : JSON.stringify(match.body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
