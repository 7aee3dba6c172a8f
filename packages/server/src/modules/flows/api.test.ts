import { describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenantServer, ndjson } from '../../test/fixtures.js';
import { aBake, aFlow, expectWireTime, FLOW, pyNow, createFlow } from '../../test/flows.js';
import { insertAttempt } from './store.js';

describe('flow API: every call of the wire reference', () => {
  let s: TestServer;
  let owner: TestUser;
  tenantServer((x) => ({ s, owner } = x));

  it('projects: by_name 404 until created, 201 then 409, lists with filters, get, delete', async () => {
    const q = `name=demo_flow&cluster=default&owner=${owner.username}&project_name=vision&org_name=acme`;
    const missing = await call(s, 'GET', `${FLOW}/projects/by_name?${q}`, owner);
    expect(missing.status).toBe(404);

    const made = await aFlow(s, owner);
    expect(made).toEqual({
      id: expect.stringMatching(/^projects-[0-9a-f-]{36}$/),
      name: 'demo_flow',
      owner: owner.username,
      cluster: 'default',
      org_name: 'acme',
      project_name: 'vision',
    });
    expect((await call(s, 'GET', `${FLOW}/projects/by_name?${q}`, owner)).body).toEqual(made);
    const again = await createFlow(s, owner, 'demo_flow');
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already exists/);

    const other = await aFlow(s, owner, 'other_flow');
    const all = await call(s, 'GET', `${FLOW}/projects`, owner);
    expect(all.body.map((p: { name: string }) => p.name)).toEqual(['demo_flow', 'other_flow']);
    const byName = await ndjson(s, `${FLOW}/projects?name=other_flow&cluster=default`, owner);
    expect(byName.type).toMatch(/application\/x-ndjson/);
    expect(byName.items).toEqual([other]);
    for (const filter of [
      'owner=someone-else',
      'org_name=globex',
      'project_name=nope',
      'cluster=x',
    ])
      expect((await ndjson(s, `${FLOW}/projects?${filter}`, owner)).body).toBe('');
    expect(
      (await call(s, 'GET', `${FLOW}/projects?owner=${owner.username}`, owner)).body,
    ).toHaveLength(2);

    expect((await call(s, 'GET', `${FLOW}/projects/${other.id}`, owner)).body).toEqual(other);
    expect((await call(s, 'DELETE', `${FLOW}/projects/${other.id}`, owner)).status).toBe(204);
    expect((await call(s, 'GET', `${FLOW}/projects/${other.id}`, owner)).status).toBe(404);
    expect((await call(s, 'DELETE', `${FLOW}/projects/${other.id}`, owner)).status).toBe(404);
  });

  it('bakes: 201 with a wire time, 409 on a taken name, last_attempt on request, filters', async () => {
    const flow = await aFlow(s, owner, 'bake_flow');
    const { bake: first, attempt } = await aBake(s, owner, flow.id, {
      name: 'nightly',
      tags: ['team:a', 'kind:train'],
      meta: { git_info: { sha: 'abc', branch: 'main', tags: ['v1'] } },
    });
    expect(first).toMatchObject({
      id: expect.stringMatching(/^bake-/),
      project_id: flow.id,
      name: 'nightly',
      batch: 'three',
      tags: ['team:a', 'kind:train'],
      graphs: { '': { first: [], left: ['first'], right: ['first'] } },
      params: { greeting: 'hello' },
      meta: { git_info: { sha: 'abc', branch: 'main', tags: ['v1'] } },
    });
    expect(first).not.toHaveProperty('last_attempt');
    expectWireTime(first.created_at);
    const taken = await call(s, 'POST', `${FLOW}/bakes`, owner, {
      project_id: flow.id,
      batch: 'three',
      graphs: {},
      name: 'nightly',
      meta: { git_info: null },
    });
    expect(taken.status).toBe(409);

    await new Promise((r) => setTimeout(r, 20));
    const { bake: second } = await aBake(s, owner, flow.id, { tags: ['team:a'] });
    const bare = await call(s, 'POST', `${FLOW}/bakes`, owner, {
      project_id: flow.id,
      batch: 'other',
      graphs: {},
      meta: { git_info: null },
    });
    expect(bare.status).toBe(201);

    const list = await ndjson(s, `${FLOW}/bakes?project_id=${flow.id}&fetch_last_attempt=1`, owner);
    expect(list.items.map((b) => b.id)).toEqual([first.id, second.id, bare.body.id]);
    expect(list.items[0]!.last_attempt).toEqual(attempt);
    // A bake the client has not given an attempt yet still carries the key.
    expect(list.items[2]!.last_attempt).toBeNull();
    const plain = await call(s, 'GET', `${FLOW}/bakes?project_id=${flow.id}`, owner);
    expect(plain.body[0]).not.toHaveProperty('last_attempt');

    const ids = async (query: string) =>
      (await ndjson(s, `${FLOW}/bakes?project_id=${flow.id}&${query}`, owner)).items.map(
        (b) => b.id,
      );
    expect(await ids('tags=team:a')).toEqual([first.id, second.id]);
    expect(await ids('tags=team:a&tags=kind:train')).toEqual([first.id]);
    expect(await ids('tags=team:a&tags=kind:none')).toEqual([]);
    expect(await ids('name=nightly')).toEqual([first.id]);
    expect(await ids('reverse=true')).toEqual([bare.body.id, second.id, first.id]);
    const since = encodeURIComponent(second.created_at);
    expect(await ids(`since=${since}`)).toEqual([second.id, bare.body.id]);
    expect(await ids(`until=${encodeURIComponent(first.created_at)}`)).toEqual([first.id]);

    const byName = await call(
      s,
      'GET',
      `${FLOW}/bakes/by_name?project_id=${flow.id}&name=nightly&fetch_last_attempt=1`,
      owner,
    );
    expect(byName.body).toEqual({ ...first, last_attempt: attempt });
    const byId = await call(s, 'GET', `${FLOW}/bakes/${second.id}?fetch_last_attempt=1`, owner);
    expect(byId.body.last_attempt.bake_id).toBe(second.id);
    expect(
      (await call(s, 'GET', `${FLOW}/bakes/by_name?project_id=${flow.id}&name=x`, owner)).status,
    ).toBe(404);
    expect((await call(s, 'GET', `${FLOW}/bakes/bake-nope`, owner)).status).toBe(404);
  });

  it('lists: NDJSON only when asked, an empty list is an empty body, JSON arrays otherwise', async () => {
    const empty = await ndjson(s, `${FLOW}/bakes?project_id=projects-none`, owner);
    expect(empty).toMatchObject({ status: 200, body: '' });
    expect((await call(s, 'GET', `${FLOW}/bakes?project_id=projects-none`, owner)).body).toEqual(
      [],
    );
    const flow = await aFlow(s, owner, 'list_flow');
    const lists = [
      `projects?name=list_flow`,
      `live_jobs?project_id=${flow.id}`,
      `bakes?project_id=${flow.id}`,
      `attempts?bake_id=bake-none`,
      `tasks?attempt_id=attempt-none`,
      `bake_images?bake_id=bake-none`,
    ];
    for (const l of lists) {
      const json = await s.app.inject({
        method: 'GET',
        url: `${FLOW}/${l}`,
        headers: owner.headers,
      });
      expect(json.headers['content-type'], l).toMatch(/application\/json/);
      expect(Array.isArray(JSON.parse(json.body)), l).toBe(true);
    }
  });

  it('config files and attempts: by_number with -1 for the last, replace keeps id and created_at', async () => {
    const flow = await aFlow(s, owner, 'attempt_flow');
    const { bake, attempt } = await aBake(s, owner, flow.id);
    const file = await call(s, 'POST', `${FLOW}/config_files`, owner, {
      bake_id: bake.id,
      filename: 'three.yml',
      content: 'kind: batch\n',
    });
    expect(file.status).toBe(201);
    expect(file.body).toMatchObject({
      id: expect.stringMatching(/^config-file-/),
      bake_id: bake.id,
    });
    expect((await call(s, 'GET', `${FLOW}/config_files/${file.body.id}`, owner)).body).toEqual(
      file.body,
    );

    expect(attempt).toMatchObject({ number: 1, result: 'pending', executor_id: null });
    expect(attempt.configs_meta).toEqual({
      workspace: '/home/me/demo',
      flow_config_id: 'config-file-x',
      project_config_id: null,
      action_config_ids: {},
    });
    expectWireTime(attempt.created_at);
    const byNumber = (n: number | string) =>
      call(s, 'GET', `${FLOW}/attempts/by_number?bake_id=${bake.id}&number=${n}`, owner);
    expect((await byNumber(-1)).body).toEqual(attempt);
    const clash = await call(s, 'POST', `${FLOW}/attempts`, owner, { ...attempt, id: undefined });
    expect(clash.status).toBe(409);
    const second = await call(s, 'POST', `${FLOW}/attempts`, owner, { ...attempt, number: 2 });
    expect(second.status).toBe(201);
    expect((await byNumber(-1)).body.id).toBe(second.body.id);
    expect((await byNumber(1)).body.id).toBe(attempt.id);
    expect((await byNumber(3)).status).toBe(404);
    const { bake: fresh } = await aBake(s, owner, flow.id);
    const none = await call(
      s,
      'GET',
      `${FLOW}/attempts/by_number?bake_id=${fresh.id}&number=-1`,
      owner,
    );
    expect(none.status).toBe(200); // aBake gave it attempt 1
    const bare = await call(s, 'POST', `${FLOW}/bakes`, owner, {
      project_id: flow.id,
      batch: 'b',
      graphs: {},
      meta: { git_info: null },
    });
    const noAttempt = await call(
      s,
      'GET',
      `${FLOW}/attempts/by_number?bake_id=${bare.body.id}&number=-1`,
      owner,
    );
    expect(noAttempt.status).toBe(404);

    const running = await call(s, 'PUT', `${FLOW}/attempts/replace`, owner, {
      ...attempt,
      result: 'running',
      executor_id: 'job-0b8c5f2e-1d7a-4c3e-9a4b-2f6d8e0c1a3b',
    });
    expect(running.status).toBe(200);
    expect(running.body).toEqual({
      ...attempt,
      result: 'running',
      executor_id: 'job-0b8c5f2e-1d7a-4c3e-9a4b-2f6d8e0c1a3b',
    });
    expect((await call(s, 'GET', `${FLOW}/attempts/${attempt.id}`, owner)).body).toEqual(
      running.body,
    );
    const listed = await ndjson(s, `${FLOW}/attempts?bake_id=${bake.id}`, owner);
    expect(listed.items.map((a) => [a.number, a.result])).toEqual([
      [1, 'running'],
      [2, 'pending'],
    ]);
    const gone = await call(s, 'PUT', `${FLOW}/attempts/replace`, owner, { ...attempt, number: 9 });
    expect(gone.status).toBe(404);
  });

  it('tasks: created pending, found by id and yaml id, replaced with the whole status list', async () => {
    const flow = await aFlow(s, owner, 'task_flow');
    const { attempt } = await aBake(s, owner, flow.id);
    const started = pyNow();
    const task = await call(s, 'POST', `${FLOW}/tasks`, owner, {
      attempt_id: attempt.id,
      yaml_id: 'first',
      raw_id: 'job-5a3e0f1c-2b4d-4e6f-8a9b-0c1d2e3f4a5b',
      outputs: null,
      state: null,
      statuses: [{ created_at: started, status: 'pending' }],
    });
    expect(task.status).toBe(201);
    expect(task.body).toMatchObject({
      id: expect.stringMatching(/^task-/),
      yaml_id: 'first',
      attempt_id: attempt.id,
      outputs: null,
      state: null,
    });
    expectWireTime(task.body.statuses[0].created_at);
    expect(new Date(task.body.statuses[0].created_at).getTime()).toBe(new Date(started).getTime());
    const dup = await call(s, 'POST', `${FLOW}/tasks`, owner, { ...task.body, id: undefined });
    expect(dup.status).toBe(409);

    const statuses = [
      ...task.body.statuses,
      { created_at: pyNow(), status: 'running' },
      { created_at: pyNow(), status: 'succeeded' },
    ];
    const done = await call(s, 'PUT', `${FLOW}/tasks/replace`, owner, {
      ...task.body,
      outputs: { word: 'hello' },
      state: { step: '3' },
      statuses,
    });
    expect(done.status).toBe(200);
    expect(done.body.id).toBe(task.body.id);
    expect(done.body.statuses.map((x: { status: string }) => x.status)).toEqual([
      'pending',
      'running',
      'succeeded',
    ]);
    expect(done.body.outputs).toEqual({ word: 'hello' });
    expect((await call(s, 'GET', `${FLOW}/tasks/${task.body.id}`, owner)).body).toEqual(done.body);
    const byYaml = await call(
      s,
      'GET',
      `${FLOW}/tasks/by_yaml_id?attempt_id=${attempt.id}&yaml_id=first`,
      owner,
    );
    expect(byYaml.body).toEqual(done.body);
    expect(
      (
        await call(
          s,
          'GET',
          `${FLOW}/tasks/by_yaml_id?attempt_id=${attempt.id}&yaml_id=left`,
          owner,
        )
      ).status,
    ).toBe(404);
    expect((await ndjson(s, `${FLOW}/tasks?attempt_id=${attempt.id}`, owner)).items).toEqual([
      done.body,
    ]);
    const unknown = await call(s, 'PUT', `${FLOW}/tasks/replace`, owner, {
      ...task.body,
      yaml_id: 'right',
    });
    expect(unknown.status).toBe(404);
  });

  it('refuses to delete a flow while the engine runs one of its bakes, then deletes it all', async () => {
    const flow = await aFlow(s, owner, 'engine_flow');
    const { bake } = await aBake(s, owner, flow.id);
    const driven = await insertAttempt(s.ctx.db, {
      bakeId: bake.id,
      number: 2,
      result: 'running',
      configsMeta: { workspace: '', flow_config_id: '', action_config_ids: {} },
      engine: true,
    });
    const refused = await call(s, 'DELETE', `${FLOW}/projects/${flow.id}`, owner);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Cancel the running bake first');
    await call(s, 'PUT', `${FLOW}/attempts/replace`, owner, {
      bake_id: bake.id,
      number: driven.number,
      result: 'cancelled',
      configs_meta: driven.configsMeta,
    });
    expect((await call(s, 'DELETE', `${FLOW}/projects/${flow.id}`, owner)).status).toBe(204);
    expect((await call(s, 'GET', `${FLOW}/bakes/${bake.id}`, owner)).status).toBe(404);
  });
});
