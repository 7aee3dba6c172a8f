import { expect } from 'vitest';
import { WebSocket } from 'ws';
import { call } from './fixtures.js';
import type { TestServer, TestUser } from './harness.js';

/**
 * A request for a job's own host (`http://<key>.jobs.localhost:<port>/…`) injected into the
 * server with that Host header, as a browser sends it.
 */
export function injectAt(
  s: TestServer,
  url: string,
  opts: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; headers?: Record<string, string> } = {},
) {
  const u = new URL(url);
  return s.app.inject({
    method: opts.method ?? 'GET',
    url: u.pathname + u.search,
    headers: { host: u.host, ...opts.headers },
  });
}

/** The console's Open: a ticket for the job, as `POST …/ingress-ticket` answers it. */
export const ticketFor = (s: TestServer, who: TestUser, jobId: string) =>
  call(s, 'POST', `/api/v1/jobs/${jobId}/ingress-ticket`, who);

/**
 * Opens a job as the console's Open does: a ticket, exchanged once at the job's host for a cookie
 * of that host, which is the session from then on. Resolves with the Cookie header to send.
 */
export async function openJob(s: TestServer, who: TestUser, jobId: string) {
  const t = await ticketFor(s, who, jobId);
  expect(t.status, JSON.stringify(t.body)).toBe(200);
  const r = await injectAt(s, t.body.url as string);
  expect(r.statusCode, r.body).toBe(303);
  const cookie = String(r.headers['set-cookie']).split(';')[0]!;
  expect(cookie).toMatch(/^orrery_ingress=/);
  return { cookie, url: t.body.url as string, location: String(r.headers.location) };
}

/** Retries a request to a job until it stops answering 502 (its port is not served yet). */
export async function whenServing<T extends { statusCode: number }>(get: () => Promise<T>) {
  let answer = await get();
  for (let i = 0; answer.statusCode === 502 && i < 200; i++) {
    await new Promise((r) => setTimeout(r, 100));
    answer = await get();
  }
  return answer;
}

/** How a WebSocket upgrade ends: refused with an HTTP status, or opened (then closed by us). */
export const upgrade = (url: string, headers: Record<string, string>, protocols: string[] = []) =>
  new Promise<{ refused: number; body: string } | { opened: true }>((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), protocols, { headers });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d) => (body += String(d)));
      res.on('end', () => {
        resolve({ refused: res.statusCode ?? 0, body });
        ws.terminate();
      });
    });
    ws.on('open', () => {
      resolve({ opened: true });
      ws.close();
    });
    ws.on('error', (e) => {
      if (!/Unexpected server response/.test(e.message)) reject(e);
    });
  });

/** Every frame an exec or attach socket sends until it closes (channel byte first). */
export const framesUntilClose = (ws: WebSocket) =>
  new Promise<Buffer[]>((resolve, reject) => {
    const got: Buffer[] = [];
    ws.on('message', (d: Buffer) => got.push(d));
    ws.on('close', () => resolve(got));
    ws.on('error', reject);
  });
