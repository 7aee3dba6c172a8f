import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, projectMember, tenantServer } from '../../test/fixtures.js';
import { Catalogue } from './catalogue.js';
import { BUILT_IN_RUNNERS } from './templates/index.js';

const BASE = '/apis/apps/v1/cluster/default/org/acme/project/vision/templates';

/** An operator directory: a served image in two versions, and a manifest with a mistake. */
function operatorDir() {
  const root = mkdtempSync(join(tmpdir(), 'orrery-app-templates-'));
  const write = (dir: string, manifest: string, extra: Record<string, string> = {}) => {
    mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, dir, 'manifest.yaml'), manifest);
    writeFileSync(join(root, dir, 'input.schema.json'), '{"type":"object","properties":{}}');
    writeFileSync(join(root, dir, 'output.schema.json'), '{"type":"object","properties":{}}');
    for (const [f, text] of Object.entries(extra)) writeFileSync(join(root, dir, f), text);
  };
  const served = (version: string) => `name: whoami
title: Who am I
version: ${version}
pub_date: 2026-10-0${version.endsWith('10.0') ? 2 : 1}
short_description: Answers with its own address.
tags: [Tools, Easy Deploy]
runtimes: [docker]
deploy:
  image: traefik/whoami
  http_port: 80
`;
  write('whoami/1.9.0', served('1.9.0'));
  write('whoami/1.10.0', served('1.10.0'), { 'README.md': '# Who am I\n' });
  write('broken/1.0.0', 'name: broken\ntitle: Broken\nversion: 1.0.0\n');
  return root;
}

describe('templates API', () => {
  let s: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  tenantServer((x) => ({ s, owner } = x), {
    ORRERY_RUNTIME: 'process',
    ORRERY_APP_TEMPLATES_DIR: operatorDir(),
  });
  beforeAll(async () => {
    reader = await projectMember(s, 'reader');
    outsider = await s.user();
    await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'elsewhere' });
  });

  it('lists the newest version of every template, built-in and the operator’s', async () => {
    const r = await call(s, 'GET', BASE, reader);
    expect(r.status).toBe(200);
    const names = r.body.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(['job', 'orrery-deploy', 'whoami']));
    expect(names).not.toContain('broken');
    expect(r.body.find((t: { name: string }) => t.name === 'job')).toMatchObject({
      name: 'job',
      title: 'Job',
      version: '1.0.0',
      tags: ['job'],
      available: true,
      unavailable_reason: null,
    });
    // 1.10.0 is newer than 1.9.0: versions compare by number.
    expect(r.body.find((t: { name: string }) => t.name === 'whoami')).toMatchObject({
      version: '1.10.0',
      available: false,
      unavailable_reason:
        'Who am I needs the docker runtime; this installation runs jobs on process',
    });
  });

  it('lists versions newest first with a Latest marker', async () => {
    const r = await call(s, 'GET', `${BASE}/whoami`, owner);
    expect(r.status).toBe(200);
    expect(
      r.body.map((v: { version: string; is_latest: boolean }) => [v.version, v.is_latest]),
    ).toEqual([
      ['1.10.0', true],
      ['1.9.0', false],
    ]);
    expect((await call(s, 'GET', `${BASE}/nope`, owner)).status).toBe(404);
  });

  it('serves the latest version with its schemas, description and assets', async () => {
    const r = await call(s, 'GET', `${BASE}/orrery-deploy/latest`, reader);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'orrery-deploy', version: '1.0.0', is_latest: true });
    expect(r.body.description).toMatch(/^# Orrery Deploy/);
    expect(r.body.input.$defs.Preset['x-type']).toBe('Preset');
    expect(r.body.output.properties.app_url).toBeDefined();
    const logo = await s.app.inject({ method: 'GET', url: r.body.logo });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toMatch(/svg/);
    expect(logo.body).toMatch(/<svg/);
    const other = await s.app.inject({
      method: 'GET',
      url: r.body.logo.replace('logo.svg', 'manifest.yaml'),
    });
    expect(other.statusCode).toBe(404);
  });

  it('gives every built-in template a logo of its own (the catalogue showed a letter)', async () => {
    const r = await call(s, 'GET', BASE, reader);
    const builtIn = (r.body as { name: string; logo: string | null }[]).filter(
      (t) => t.name !== 'whoami',
    );
    expect(builtIn.length).toBeGreaterThan(10);
    expect(builtIn.filter((t) => !t.logo).map((t) => t.name)).toEqual([]);
  });

  it('keeps the job template the Create new job page renders', async () => {
    const r = await call(s, 'GET', `${BASE}/job/latest`, reader);
    expect(r.body.input.required).toEqual(['image', 'preset_name']);
    expect(r.body.input.properties.image['x-type']).toBe('image');
    expect(r.body.input.properties.restart_policy.enum).toEqual(['never', 'on-failure', 'always']);
    const byNumber = await call(s, 'GET', `${BASE}/job/1.0.0`, reader);
    expect(byNumber.body).toEqual(r.body);
    expect((await call(s, 'GET', `${BASE}/job/9.9.9`, reader)).status).toBe(404);
  });

  it('keeps each form section of the job template in one run of properties', async () => {
    const r = await call(s, 'GET', `${BASE}/job/latest`, reader);
    const groups = Object.values(
      r.body.input.properties as Record<string, { 'x-group'?: string }>,
    ).map((p) => p['x-group']);
    const runs = groups.filter((g, i) => g !== groups[i - 1]);
    expect(new Set(runs).size).toBe(runs.length);
    expect(runs[0]).toBe('General');
  });

  it('lists tags with Easy Deploy first', async () => {
    const r = await call(s, 'GET', `${BASE}/tags`, reader);
    expect(r.status).toBe(200);
    expect(r.body[0]).toBe('Easy Deploy');
    expect(r.body).toEqual(expect.arrayContaining(['Tools', 'job', 'Deploy']));
  });

  it('is 404 to another organization and 401 without a session', async () => {
    expect((await call(s, 'GET', BASE, outsider)).status).toBe(404);
    expect((await call(s, 'GET', `${BASE}/job/latest`, outsider)).status).toBe(404);
    expect((await call(s, 'GET', BASE, null)).status).toBe(401);
  });
});

describe('template loader', () => {
  it('skips a bad manifest with a warning naming its file, and loads the rest', () => {
    const warnings: string[] = [];
    const dir = operatorDir();
    const c = Catalogue.load({
      runners: BUILT_IN_RUNNERS,
      runtime: 'docker',
      operatorDir: dir,
      warn: (m) => warnings.push(m),
    });
    expect(warnings).toEqual([
      expect.stringContaining(`${join(dir, 'broken/1.0.0/manifest.yaml')} skipped: pub_date`),
    ]);
    expect(c.find('whoami', 'latest')?.manifest.version).toBe('1.10.0');
    expect(c.unavailable(c.find('whoami', '1.9.0')!)).toBeNull();
  });

  it('skips a manifest whose runner does not exist', () => {
    const root = mkdtempSync(join(tmpdir(), 'orrery-app-templates-'));
    mkdirSync(join(root, 'x/1.0.0'), { recursive: true });
    writeFileSync(
      join(root, 'x/1.0.0/manifest.yaml'),
      'name: x\ntitle: X\nversion: 1.0.0\npub_date: 2026-01-01\nshort_description: x\nruntimes: [process]\nrunner: nothing\n',
    );
    writeFileSync(join(root, 'x/1.0.0/input.schema.json'), '{}');
    writeFileSync(join(root, 'x/1.0.0/output.schema.json'), '{}');
    const warnings: string[] = [];
    const c = Catalogue.load({
      runners: [],
      runtime: 'process',
      builtInDir: root,
      warn: (m) => warnings.push(m),
    });
    expect(c.latest()).toEqual([]);
    expect(warnings).toEqual(['App template x 1.0.0 skipped: no runner named nothing']);
  });
});
