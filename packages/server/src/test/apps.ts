import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { TestServer, TestUser } from './harness.js';
import { appInstances } from '../modules/apps/tables.js';
import { call } from './fixtures.js';

/** Helpers of the apps tests: installs, waits on states, operator templates. */
export const V1 = '/apis/apps/v1/cluster/default/org/acme/project/vision';
export const NODE = process.execPath;

/** A tiny HTTP app in plain Node: answers `hi` and whether its home folder exists. */
export const TINY_SERVER = `${NODE} -e "require('http').createServer((q,r)=>r.end('hi '+require('fs').existsSync(process.env.HOME))).listen(process.env.PORT)"`;

export const deployInput = (command = TINY_SERVER, extra: Record<string, unknown> = {}) => ({
  preset: { name: 'cpu-small' },
  image: 'busybox',
  command,
  http: { port: 8080, health_path: '/', auth: 'apolo_auth' },
  ...extra,
});

export async function install(
  s: TestServer,
  who: TestUser,
  body: Record<string, unknown>,
  base = V1,
) {
  return call(s, 'POST', `${base}/instances`, who, body);
}

/** Polls an instance until `done` holds; fails with its last state and events. */
export async function until(
  s: TestServer,
  who: TestUser,
  id: string,
  done: (app: { state: string }) => boolean,
) {
  // Within the test's 30 s, so that a failure shows the instance's last events.
  for (const end = Date.now() + 20_000; Date.now() < end;) {
    const r = await call(s, 'GET', `/apis/apps/v2/instances/${id}`, who);
    if (done(r.body)) return r.body;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  const events = await call(s, 'GET', `${V1}/instances/${id}/events`, who);
  const app = await call(s, 'GET', `/apis/apps/v2/instances/${id}`, who);
  throw new Error(
    `instance ${id} ${JSON.stringify(app.body.startup)}: ${JSON.stringify(events.body.items.slice(0, 5))}`,
  );
}

export const stateIs =
  (...states: string[]) =>
  (a: { state: string }) =>
    states.includes(a.state);

/** Writes `<name>/<version>/` of an operator directory: manifest, schemas. */
export function writeTemplate(
  root: string,
  manifest: string,
  input: object = { type: 'object', properties: {} },
) {
  const name = /^name: (.+)$/m.exec(manifest)![1]!;
  const version = /^version: (.+)$/m.exec(manifest)![1]!;
  const dir = join(root, name, version);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'manifest.yaml'), manifest);
  writeFileSync(join(dir, 'input.schema.json'), JSON.stringify(input));
  writeFileSync(
    join(dir, 'output.schema.json'),
    JSON.stringify({ type: 'object', properties: { app_url: { type: 'object' } } }),
  );
  return root;
}

export const tempDir = () => mkdtempSync(join(tmpdir(), 'orrery-app-templates-'));

/** Every key of the CLI's App object is present (docs/apps.md). */
export function expectApp(a: Record<string, unknown>) {
  for (const k of [
    'id',
    'name',
    'display_name',
    'template_name',
    'template_version',
    'project_name',
    'org_name',
    'cluster_name',
    'namespace',
    'state',
    'creator',
    'created_at',
    'updated_at',
    'endpoints',
  ]) {
    expect(a, k).toHaveProperty(k);
  }
  expect(a.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+00:00$/);
}

/** A healthy jupyter instance of acme/vision written straight to the table, for metering tests. */
export async function insertAppInstance(
  s: TestServer,
  owner: TestUser,
  over: Partial<typeof appInstances.$inferInsert> & { name: string; displayName: string },
) {
  const [instance] = await s.ctx.db
    .insert(appInstances)
    .values({
      ...{ clusterName: 'default', orgName: 'acme', projectName: 'vision' },
      templateName: 'jupyter',
      templateVersion: '1',
      state: 'healthy',
      creator: owner.username,
      creatorId: owner.id,
      presetName: 'cpu-small',
      ...over,
    })
    .returning();
  return instance!;
}
