import { describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenantServer, ndjson } from '../../test/fixtures.js';
import { aBake, aFlow, expectWireTime, FLOW } from '../../test/flows.js';

describe('flow API: cache entries, bake images and live jobs', () => {
  let s: TestServer;
  let owner: TestUser;
  tenantServer((x) => ({ s, owner } = x));

  it('cache entries: by_key 404 is "not cached", upsert with a server time, delete by batch and task', async () => {
    const flow = await aFlow(s, owner, 'cache_flow');
    const k = { project_id: flow.id, batch: 'three', task_id: 'first', key: 'k1' };
    const byKey = () =>
      call(s, 'GET', `${FLOW}/cache_entries/by_key?${new URLSearchParams(k)}`, owner);
    expect((await byKey()).status).toBe(404);
    const before = Date.now();
    const saved = await call(s, 'POST', `${FLOW}/cache_entries`, owner, {
      ...k,
      outputs: { word: 'hello' },
      state: {},
      raw_id: 'job-1',
    });
    expect(saved.status).toBe(201);
    expectWireTime(saved.body.created_at);
    expect(new Date(saved.body.created_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await byKey()).body).toEqual(saved.body);
    const again = await call(s, 'POST', `${FLOW}/cache_entries`, owner, {
      ...k,
      outputs: { word: 'bye' },
      state: {},
      raw_id: 'job-2',
    });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({
      id: saved.body.id,
      outputs: { word: 'bye' },
      raw_id: 'job-2',
    });
    expect((await call(s, 'GET', `${FLOW}/cache_entries/${saved.body.id}`, owner)).body).toEqual(
      again.body,
    );

    const put = (batch: string, task: string) =>
      call(s, 'POST', `${FLOW}/cache_entries`, owner, { ...k, batch, task_id: task });
    await put('three', 'left');
    await put('other', 'first');
    const exists = async (batch: string, task: string) =>
      (
        await call(
          s,
          'GET',
          `${FLOW}/cache_entries/by_key?${new URLSearchParams({ ...k, batch, task_id: task })}`,
          owner,
        )
      ).status === 200;
    const clear = (q: string) =>
      call(s, 'DELETE', `${FLOW}/cache_entries?project_id=${flow.id}${q}`, owner);
    expect((await clear('&batch=three&task_id=left')).status).toBe(204);
    expect([await exists('three', 'first'), await exists('three', 'left')]).toEqual([true, false]);
    expect((await clear('&batch=three')).status).toBe(204);
    expect([await exists('three', 'first'), await exists('other', 'first')]).toEqual([false, true]);
    expect((await clear('')).status).toBe(204);
    expect(await exists('other', 'first')).toBe(false);
  });

  it('bake images: listed, created, found by ref, patched', async () => {
    const flow = await aFlow(s, owner, 'image_flow');
    const { bake } = await aBake(s, owner, flow.id);
    expect((await ndjson(s, `${FLOW}/bake_images?bake_id=${bake.id}`, owner)).body).toBe('');
    const image = await call(s, 'POST', `${FLOW}/bake_images`, owner, {
      bake_id: bake.id,
      ref: 'image:demo/trainer:v1',
      status: 'pending',
      yaml_defs: ['train'],
      context_on_storage: 'storage:demo/ctx',
      dockerfile_rel: 'Dockerfile',
    });
    expect(image.status).toBe(201);
    expect(image.body).toEqual({
      id: expect.stringMatching(/^bake-image-/),
      bake_id: bake.id,
      ref: 'image:demo/trainer:v1',
      status: 'pending',
      yaml_defs: ['train'],
      context_on_storage: 'storage:demo/ctx',
      dockerfile_rel: 'Dockerfile',
      builder_job_id: null,
    });
    const dup = await call(s, 'POST', `${FLOW}/bake_images`, owner, {
      bake_id: bake.id,
      ref: image.body.ref,
    });
    expect(dup.status).toBe(409);
    const patched = await call(s, 'PATCH', `${FLOW}/bake_images/${image.body.id}`, owner, {
      status: 'building',
      builder_job_id: 'job-b',
    });
    expect(patched.body).toMatchObject({ status: 'building', builder_job_id: 'job-b' });
    const onlyStatus = await call(s, 'PATCH', `${FLOW}/bake_images/${image.body.id}`, owner, {
      status: 'built',
    });
    expect(onlyStatus.body).toMatchObject({ status: 'built', builder_job_id: 'job-b' });
    const ref = encodeURIComponent(image.body.ref);
    const byRef = await call(
      s,
      'GET',
      `${FLOW}/bake_images/by_ref?bake_id=${bake.id}&ref=${ref}`,
      owner,
    );
    expect(byRef.body).toEqual(onlyStatus.body);
    expect((await call(s, 'GET', `${FLOW}/bake_images/${image.body.id}`, owner)).body).toEqual(
      onlyStatus.body,
    );
    expect((await ndjson(s, `${FLOW}/bake_images?bake_id=${bake.id}`, owner)).items).toEqual([
      onlyStatus.body,
    ]);
    const bad = await call(s, 'PATCH', `${FLOW}/bake_images/${image.body.id}`, owner, {
      status: 'done',
    });
    expect(bad.status).toBe(400);
  });

  it('live jobs: 201 then 409, replace creates or replaces by yaml id', async () => {
    const flow = await aFlow(s, owner, 'live_flow');
    const body = { project_id: flow.id, yaml_id: 'train', multi: false, tags: ['a'] };
    const made = await call(s, 'POST', `${FLOW}/live_jobs`, owner, body);
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ ...body, id: expect.stringMatching(/^live-job-/), raw_id: null });
    expect((await call(s, 'POST', `${FLOW}/live_jobs`, owner, body)).status).toBe(409);
    const replaced = await call(s, 'PUT', `${FLOW}/live_jobs/replace`, owner, {
      ...body,
      multi: true,
      tags: ['b'],
      raw_id: 'job-x',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({
      ...body,
      id: made.body.id,
      multi: true,
      tags: ['b'],
      raw_id: 'job-x',
    });
    const created = await call(s, 'PUT', `${FLOW}/live_jobs/replace`, owner, {
      ...body,
      yaml_id: 'serve',
    });
    expect(created.status).toBe(201);
    const listed = await ndjson(s, `${FLOW}/live_jobs?project_id=${flow.id}`, owner);
    expect(listed.items.map((j) => j.yaml_id)).toEqual(['serve', 'train']);
    const byYaml = await call(
      s,
      'GET',
      `${FLOW}/live_jobs/by_yaml_id?project_id=${flow.id}&yaml_id=train`,
      owner,
    );
    expect(byYaml.body).toEqual(replaced.body);
    expect((await call(s, 'GET', `${FLOW}/live_jobs/${made.body.id}`, owner)).body).toEqual(
      replaced.body,
    );
    const missing = await call(
      s,
      'GET',
      `${FLOW}/live_jobs/by_yaml_id?project_id=${flow.id}&yaml_id=x`,
      owner,
    );
    expect(missing.status).toBe(404);
  });
});
