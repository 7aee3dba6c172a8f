import { expect } from 'vitest';
import { call } from './fixtures.js';
import { V1 } from './apps.js';
import type { TestServer, TestUser } from './harness.js';

/**
 * A built-in template's instance as a user gets it: installed through the apps API, followed by
 * the apps service's watcher until healthy, opened through Orrery's ingress, uninstalled.
 */
export interface Installed {
  id: string;
  /** The instance name: its persistent home is `.apps/<template>/<name>` in the project. */
  name: string;
  jobIds: string[];
  /** `GET …/instances/{id}/output` of the healthy instance. */
  outputs: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** What Open leads to: the instance's job URL at its own host, null without HTTP. */
  url: string | null;
}

const instance = (id: string) => `${V1}/instances/${id}`;

/** Polls an instance until it is in `state`; fails at once, with its events, if it errors. */
export async function awaitState(s: TestServer, who: TestUser, id: string, state: string) {
  for (;;) {
    const r = await call(s, 'GET', instance(id), who);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    if (r.body.state === state) return r.body;
    if (r.body.state === 'errored') {
      const events = await call(s, 'GET', `${instance(id)}/events`, who);
      throw new Error(`instance ${id} errored: ${JSON.stringify(events.body.items.slice(0, 3))}`);
    }
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

/** Installs `template` as `who` and waits until the instance is healthy. */
export async function installApp(
  s: TestServer,
  who: TestUser,
  template: string,
  name: string,
  input: Record<string, unknown> = {},
): Promise<Installed> {
  const r = await call(s, 'POST', `${V1}/instances`, who, {
    template_name: template,
    display_name: name,
    input: { preset: { name: 'cpu-small' }, ...input },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body).toMatchObject({ template_name: template, name, state: 'queued' });
  const healthy = await awaitState(s, who, r.body.id, 'healthy');
  const outputs = await call(s, 'GET', `${instance(r.body.id)}/output`, who);
  expect(outputs.status).toBe(200);
  return {
    id: r.body.id,
    name: healthy.name,
    jobIds: healthy.job_ids,
    outputs: outputs.body,
    url: healthy.endpoints[0] ?? null,
  };
}

/** The address of an output's `HttpApi` (`app_url.external_url`, `chat_external_api`, …). */
export const urlOf = (api: { protocol: string; host: string; port: number; base_path: string }) =>
  `${api.protocol}://${api.host}:${api.port}${api.base_path}`;

/**
 * Opens `url` (an app's job URL, at the job's own host) as the console's Open does: a ticket for
 * the job, which the job's host exchanges once for a cookie of its own; the cookie is the session
 * from then on. Resolves with the cookie header to send with later requests.
 */
export async function openSession(
  s: TestServer,
  url: string,
  who: TestUser,
): Promise<{ cookie: string }> {
  const job = new URL(url).hostname.split('.')[0]!;
  const t = await call(s, 'POST', `/api/v1/jobs/${job}/ingress-ticket`, who);
  expect(t.status, JSON.stringify(t.body)).toBe(200);
  const r = await fetch(t.body.url as string, { redirect: 'manual' });
  expect(r.status).toBe(303);
  const cookie = r.headers.get('set-cookie')?.split(';')[0];
  expect(cookie).toMatch(/^orrery_ingress=/);
  return { cookie: cookie! };
}

/** Uninstalls the instance, waits until it is uninstalled, and checks its jobs were stopped. */
export async function uninstallApp(s: TestServer, who: TestUser, app: Installed) {
  const del = await call(s, 'DELETE', instance(app.id), who);
  expect(del.status, JSON.stringify(del.body)).toBe(200);
  expect(['uninstalling', 'uninstalled']).toContain(del.body.state);
  await awaitState(s, who, app.id, 'uninstalled');
  for (const id of app.jobIds) {
    const j = await call(s, 'GET', `/api/v1/jobs/${id}`, who);
    expect(j.body.status, id).toBe('cancelled');
  }
  const listed = await call(s, 'GET', `${V1}/instances`, who);
  expect(listed.body.items.map((i: { id: string }) => i.id)).not.toContain(app.id);
}

/** Retries `fn` until it stops throwing (an app answering once its server is up). */
export async function eventually<T>(fn: () => Promise<T>, tries = 100, delayMs = 100): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i >= tries) throw e;
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
}

/** A signed-in user with an organization of their own, a member of nothing of the tests'. */
export async function outsiderOf(s: TestServer): Promise<TestUser> {
  const u = await s.user();
  expect((await call(s, 'POST', '/api/v1/orgs', u, { name: 'elsewhere' })).status).toBe(201);
  return u;
}
