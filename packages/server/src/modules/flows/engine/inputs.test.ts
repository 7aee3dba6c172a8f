import { describe, expect, it } from 'vitest';
import { call, projectMember, processServer, leaveProject } from '../../../test/fixtures.js';
import type { TestServer, TestUser } from '../../../test/harness.js';
import {
  PLACE,
  attemptReaches,
  jobsOfBake,
  startBake,
  started,
  tasksById,
} from '../../../test/flow-bakes.js';
import {
  attemptByNumber,
  bakeById,
  configFileById,
  insertAttempt,
  insertBake,
  insertConfigFile,
  insertProject,
  projectByName,
} from '../store.js';

const WITH_PARAMS = `kind: batch
title: Train and evaluate
params:
  epochs:
    default: "3"
    descr: How many passes over the data
  dataset:
    descr: Which data to train on
tasks:
  - id: train
    image: busybox
    cmd: sh -c "echo ::set-output name=run::\${{ params.dataset }}-\${{ params.epochs }}"
`;

describe('what a bake starts from', () => {
  let s: TestServer;
  let owner: TestUser;
  processServer((started) => ({ s, owner } = started));

  const upload = async (path: string, text: string) => {
    const r = await s.app.inject({
      method: 'PUT',
      url: `/api/v1/storage/acme/vision/${path}?op=CREATE`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.from(text),
    });
    expect(r.statusCode, r.body).toBe(201);
  };

  it("lists a project file's params, then bakes it with them as the batch of its name", async () => {
    await upload('flows/train.yml', WITH_PARAMS);
    const info = await call(s, 'POST', '/api/v1/flow/bakes/params', owner, {
      ...PLACE,
      file: 'storage:flows/train.yml',
    });
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      batch: 'train',
      title: 'Train and evaluate',
      params: [
        { name: 'epochs', default: '3', descr: 'How many passes over the data' },
        { name: 'dataset', default: null, descr: 'Which data to train on' },
      ],
      tasks: 1,
    });

    const r = await startBake(s, owner, '', {
      content: undefined,
      file: 'storage://default/acme/vision/flows/train.yml',
      params: { dataset: 'mnist' },
      name: 'first-try',
      tags: ['nightly'],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      batch: 'train',
      name: 'first-try',
      tags: ['nightly'],
      params: { epochs: '3', dataset: 'mnist' },
      graphs: { '': { train: [] } },
      last_attempt: { number: 1, result: 'pending', executor_id: 'orrery-engine' },
    });
    expect(r.body.created_at).toMatch(/\+00:00$/);
    const attempt = await attemptReaches(s, r.body.id, ['succeeded', 'failed']);
    expect((await tasksById(s, attempt.id)).train!.outputs).toEqual({ run: 'mnist-3' });
    // The two config files the CLI records, so that `apolo-flow inspect` reads the bake whole.
    const meta = attempt.configsMeta;
    expect((await configFileById(s.ctx.db, meta.flow_config_id))?.content).toBe(WITH_PARAMS);
    expect((await configFileById(s.ctx.db, meta.project_config_id!))?.content).toBe(
      'id: demo_flow\n',
    );
    expect((await bakeById(s.ctx.db, r.body.id))?.creatorId).toBe(owner.id);

    const clash = await startBake(s, owner, WITH_PARAMS, {
      params: { dataset: 'x' },
      name: 'first-try',
    });
    expect(clash.status).toBe(409);
  }, 30_000);

  it('refuses a bad file, a bad param or an unreadable file with a clear 400 or 404, recording nothing', async () => {
    const bad = await startBake(
      s,
      owner,
      'kind: batch\ntasks:\n  - id: a\n    image: busybox\n    services: [db]\n',
      { flow_name: 'never_made' },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('line 5: unsupported key `services` in a task');
    const params = await call(s, 'POST', '/api/v1/flow/bakes/params', owner, {
      ...PLACE,
      content: 'kind: batch\ntasks:\n  - id: a\n    image: busybox\n    services: [db]\n',
    });
    expect(params.status).toBe(400);
    expect(params.body.message).toMatch(/^line 5: /);
    const unknown = await startBake(s, owner, WITH_PARAMS, { params: { dataset: 'a', x: '1' } });
    expect(unknown).toMatchObject({ status: 400, body: { message: 'unknown param `x`' } });
    const missing = await startBake(s, owner, WITH_PARAMS, { flow_name: 'never_made' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('param `dataset` has no default and was not given');
    const absent = await startBake(s, owner, '', { content: undefined, file: 'nope/missing.yml' });
    expect(absent).toMatchObject({
      status: 404,
      body: { message: 'File not found: nope/missing.yml' },
    });
    const escape = await startBake(s, owner, '', { content: undefined, file: '../../etc/passwd' });
    expect(escape.status).toBe(400);
    expect((await call(s, 'POST', '/api/v1/flow/bakes/start', owner, { ...PLACE })).status).toBe(
      400,
    );
    const spaced = await startBake(s, owner, WITH_PARAMS, {
      flow_name: 'my flow',
      params: { dataset: 'a' },
    });
    expect(spaced).toMatchObject({
      status: 400,
      body: { message: 'The flow name may not contain spaces' },
    });
    const place = { cluster: 'default', org: 'acme', project: 'vision' };
    expect(await projectByName(s.ctx.db, place, 'never_made')).toBeUndefined();
    // Another organization's file is as missing as an absent one.
    expect(
      (
        await startBake(s, owner, '', {
          content: undefined,
          file: 'storage://default/other/x/flow.yml',
        })
      ).status,
    ).toBe(404);
  });

  it('fails a task whose creator lost access meanwhile, saying why in its state', async () => {
    const writer = await projectMember(s, 'writer');
    const bakeId = await started(
      s,
      writer,
      `kind: batch
tasks:
  - id: first
    image: busybox
    cmd: sleep 1
  - id: second
    needs: [first]
    image: busybox
    cmd: "true"
`,
    );
    await attemptReaches(s, bakeId, ['running']);
    await leaveProject(s, writer);
    const attempt = await attemptReaches(s, bakeId, ['succeeded', 'failed']);
    const tasks = await tasksById(s, attempt.id);
    expect(attempt.result).toBe('failed');
    expect(tasks.first!.status).toBe('succeeded');
    expect(tasks.second!.history).toEqual(['pending', 'failed']);
    expect(tasks.second!.state).toEqual({
      error: `${writer.username} may no longer run jobs in the project acme/vision`,
    });
    expect(await jobsOfBake(s, bakeId)).toHaveLength(1);
    expect((await attemptByNumber(s.ctx.db, bakeId, -1))?.result).toBe('failed');
  }, 30_000);

  it('refuses to restart a bake the CLI recorded with what the engine does not run', async () => {
    const place = { cluster: 'default', org: 'acme', project: 'vision' };
    const flow =
      (await projectByName(s.ctx.db, place, 'cli_flow')) ??
      (await insertProject(s.ctx.db, place, 'cli_flow', owner.username));
    const bake = await insertBake(s.ctx.db, {
      projectId: flow.id,
      batch: 'build',
      graphs: { '': { a: [] } },
      params: {},
      meta: { git_info: null },
      creatorId: owner.id,
    });
    const file = await insertConfigFile(s.ctx.db, {
      bakeId: bake.id,
      filename: '.apolo/build.yml',
      content:
        'kind: batch\nimages:\n  img:\n    ref: image:x\ntasks:\n  - id: a\n    image: busybox\n',
    });
    await insertAttempt(s.ctx.db, {
      bakeId: bake.id,
      number: 1,
      result: 'failed',
      configsMeta: { workspace: '', flow_config_id: file.id, action_config_ids: {} },
    });
    const r = await call(s, 'POST', `/api/v1/flow/bakes/${bake.id}/restart`, owner);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^line 2: unsupported key `images`/);
    expect((await attemptByNumber(s.ctx.db, bake.id, -1))?.number).toBe(1);
  });
});
