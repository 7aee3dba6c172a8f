import { toCamel, toSnake } from '@orrery/contract';
import type { Camel, ErrorBody } from '@orrery/contract';

/** Path prefixes of the platform; all relative to the console's origin. */
export const API = {
  core: '/api/v1',
  admin: '/apis/admin/v1',
  billing: '/apis/billing/v1',
  appsV1: '/apis/apps/v1',
  appsV2: '/apis/apps/v2',
} as const;

/** Tells the server the call comes from the browser console rather than the CLI. */
export const BROWSER_MARKER = { name: 'X-Requested-With', value: 'orrery-console' } as const;

/** Statuses that are the user's business, not a defect worth reporting. */
export const UNREPORTED_STATUSES = new Set([400, 401, 403, 404, 409, 422, 429]);

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Partial<ErrorBody> | null,
  ) {
    super(body?.message ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
  }
  get code() {
    return this.body?.error;
  }
  /** Field errors of a 400, in the server's order. */
  get fieldErrors() {
    return this.body?.errors ?? [];
  }
}

type TokenSource = () => string | null | undefined;
type ErrorReporter = (error: ApiError, url: string) => void;

let tokenSource: TokenSource = () => null;
// No error-reporting service is configured by default; a deployment can plug one in.
let reporter: ErrorReporter = () => {};

export const setTokenSource = (source: TokenSource) => {
  tokenSource = source;
};
export const setErrorReporter = (next: ErrorReporter) => {
  reporter = next;
};

export type QueryValue = string | number | boolean | null | undefined | readonly string[];

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** camelCase object; sent as snake_case JSON. */
  body?: unknown;
  /** Wire (snake_case) query parameters; arrays repeat the key. */
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** Sends no Bearer header: the first configuration call happens before sign-in. */
  anonymous?: boolean;
  /** Answers whose keys are user-owned names (an app's input or output) stay as sent. */
  keepKeys?: boolean;
  /** A body already in wire form whose maps hold user-owned names (a bake's params): sent as is. */
  rawBody?: boolean;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, v));
    else params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

/** Sends one call with the console's headers; a failed status rejects with the server's body. */
async function send(path: string, options: RequestOptions, accept: string): Promise<string> {
  const headers: Record<string, string> = {
    Accept: accept,
    [BROWSER_MARKER.name]: BROWSER_MARKER.value,
  };
  const token = options.anonymous ? null : tokenSource();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.rawBody ? options.body : toSnake(options.body));
  }
  const url = buildUrl(path, options.query);
  const res = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    body,
    credentials: 'include',
    signal: options.signal,
  });
  const text = await res.text();
  if (!res.ok) {
    const error = new ApiError(res.status, (parseBody(text) as Partial<ErrorBody>) ?? null);
    if (!UNREPORTED_STATUSES.has(res.status)) reporter(error, url);
    throw error;
  }
  return text;
}

/** `Wire` is the snake_case response type from the contract; the result is its camelCase twin. */
export async function request<Wire = unknown>(
  path: string,
  options: RequestOptions = {},
): Promise<Camel<Wire>> {
  const parsed = parseBody(await send(path, options, 'application/json'));
  return (options.keepKeys ? parsed : toCamel(parsed)) as Camel<Wire>;
}

/** A call that answers a document (e.g. CSV) rather than JSON: its text as sent. */
export const requestText = (path: string, accept: string, options: RequestOptions = {}) =>
  send(path, options, accept);
