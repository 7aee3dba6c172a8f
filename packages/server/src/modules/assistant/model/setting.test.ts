import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copilotModelPath } from '@orrery/contract';
import { askerOf } from '../../../test/copilot.js';
import { call, joinOrg, projectMember, tenancy } from '../../../test/fixtures.js';
import { startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { startOpenAiStandIn, type StandIn } from '../../../test/openai-stand-in.js';
import { insertInstance } from '../../apps/store.js';
import type { Answerer, Asker, KnowledgeBase } from '../types.js';
import { modelAnswererFor, MODEL_UNREACHABLE } from './index.js';

/**
 * The organization's choice of model: who may read and change it, which apps it accepts, and
 * which model then answers whom. The apps are rows as an install leaves them (no model runs
 * here); the server's own endpoint is a STAND-IN for an OpenAI-compatible server.
 */
describe('the organization model setting', () => {
  let s: TestServer;
  let llm: StandIn;
  let owner: TestUser;
  let manager: TestUser;
  let blindManager: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let llmApp: string;
  let notebook: string;
  let foreignLlm: string;

  const app = async (org: string, project: string, template: string, name: string) =>
    (
      await insertInstance(
        s.ctx.db,
        {
          clusterName: 'default',
          orgName: org,
          projectName: project,
          name,
          displayName: name,
          templateName: template,
          templateVersion: '1.0.0',
          state: 'healthy',
          creator: owner.username,
          presetName: 'cpu-small',
        },
        { templateVersion: '1.0.0', input: {}, resolved: {}, creator: owner.username },
      )
    ).id;

  const asker = (u: TestUser, org: string | null): Promise<Asker> =>
    askerOf(s, u, { cluster: 'default', org, project: org ? 'vision' : null });

  beforeAll(async () => {
    llm = await startOpenAiStandIn();
    // The instances are rows made here, without jobs: the apps watcher must leave them be (it
    // would queue a healthy instance that has none).
    s = await startTestServer(
      { ORRERY_ASSISTANT_LLM_URL: llm.url },
      { apps: { tickMs: 3_600_000 } },
    );
    ({ owner } = await tenancy(s));
    // A manager of the organization who reads the project the app is in.
    manager = await joinOrg(s, await projectMember(s, 'reader'), 'manager');
    blindManager = await joinOrg(s, await s.user(), 'manager');
    member = await joinOrg(s, await s.user(), 'user');
    ({ owner: outsider } = await tenancy(s, 'globex', 'lab'));
    llmApp = await app('acme', 'vision', 'llm-inference', 'chat');
    notebook = await app('acme', 'vision', 'jupyter', 'notes');
    foreignLlm = await app('globex', 'lab', 'llm-inference', 'their-chat');
  });
  afterAll(async () => {
    await s?.stop();
    await llm?.close();
  });

  const path = copilotModelPath('acme');

  it('lets a manager choose an llm-inference app of the organization, and none again', async () => {
    const before = await call(s, 'GET', path, manager);
    expect(before.body).toEqual({ source: 'endpoint', app_instance_id: null, can_manage: true });
    const set = await call(s, 'PUT', path, manager, { app_instance_id: llmApp });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ source: 'app', app_instance_id: llmApp, can_manage: true });
    expect((await call(s, 'GET', path, owner)).body.app_instance_id).toBe(llmApp);
    const cleared = await call(s, 'PUT', path, manager, { app_instance_id: null });
    expect(cleared.body).toEqual({ source: 'endpoint', app_instance_id: null, can_manage: true });
  });

  it("offers a manager the organization's llm-inference apps they can read", async () => {
    const offered = await call(s, 'GET', `${path}/choices`, manager);
    expect(offered.body.items).toEqual([
      {
        id: llmApp,
        display_name: 'chat',
        cluster_name: 'default',
        project_name: 'vision',
        state: 'healthy',
      },
    ]);
    expect((await call(s, 'GET', `${path}/choices`, blindManager)).body.items).toEqual([]);
    expect((await call(s, 'GET', `${path}/choices`, member)).status).toBe(403);
  });

  it('refuses other apps with a clear message', async () => {
    const jupyter = await call(s, 'PUT', path, manager, { app_instance_id: notebook });
    expect(jupyter.status).toBe(400);
    expect(jupyter.body.message).toBe('notes is a jupyter app: choose an llm-inference app');
    // Another organization's instance reads as one that does not exist.
    const foreign = await call(s, 'PUT', path, manager, { app_instance_id: foreignLlm });
    const missing = '00000000-0000-4000-8000-000000000000';
    const none = await call(s, 'PUT', path, manager, { app_instance_id: missing });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe(
      `No app instance ${foreignLlm} in organization acme that you can read`,
    );
    expect(none.body.message).toBe(
      `No app instance ${missing} in organization acme that you can read`,
    );
    // A manager who cannot read the app's project cannot hand it to the assistant either.
    const unread = await call(s, 'PUT', path, blindManager, { app_instance_id: llmApp });
    expect(unread.status).toBe(400);
    expect(unread.body.message).toBe(
      `No app instance ${llmApp} in organization acme that you can read`,
    );
    const bad = await call(s, 'PUT', path, manager, { app_instance_id: 'not-an-id' });
    expect(bad.status).toBe(400);
    expect((await call(s, 'GET', path, manager)).body.source).toBe('endpoint');
  });

  it('lets a member see only whether a model answers, and change nothing', async () => {
    expect((await call(s, 'PUT', path, manager, { app_instance_id: llmApp })).status).toBe(200);
    const read = await call(s, 'GET', path, member);
    expect(read.body).toEqual({ source: 'app', app_instance_id: null, can_manage: false });
    const put = await call(s, 'PUT', path, member, { app_instance_id: null });
    expect(put.status).toBe(403);
    expect((await call(s, 'GET', path, manager)).body.app_instance_id).toBe(llmApp);
  });

  it("hides the setting from another organization's users and from the anonymous", async () => {
    expect((await call(s, 'GET', path, outsider)).status).toBe(404);
    expect((await call(s, 'PUT', path, outsider, { app_instance_id: foreignLlm })).status).toBe(
      404,
    );
    expect((await call(s, 'GET', path, null)).status).toBe(401);
  });

  it("answers each asker with their organization's model, and falls back while it is down", async () => {
    expect((await call(s, 'PUT', path, manager, { app_instance_id: llmApp })).status).toBe(200);
    const kb: KnowledgeBase = {
      retrieve: (_q, o) => ({ mode: o.mode, sections: [], entities: [], relations: [], rounds: 1 }),
      compose: () => ({ response: '', citations: [] }),
      nearest: () => [],
      isSmallTalk: () => false,
      stats: { sections: 0, nodes: 0, edges: 0, buildMs: 0 },
    };
    const embedded: Answerer = {
      answer: async (i) => ({
        response: 'embedded',
        citations: [],
        mode: i.mode,
        iterations: 1,
        engine: 'embedded',
        plans: [],
      }),
    };
    const answererFor = modelAnswererFor(s.ctx, {
      knowledge: kb,
      tools: { facts: async () => [], propose: async () => null },
      embedded,
      log: s.app.log,
    });
    const input = (asker: Asker) => ({
      asker,
      message: 'what is a preset?',
      history: [],
      mode: 'hybrid' as const,
      maxIterations: 1,
      onProgress: () => {},
    });
    llm.script('{"high_level_keywords": ["sizes"], "low_level_keywords": ["preset"]}', 'No idea.');

    // acme's app has no running job: the embedded engine answers, saying why.
    const acme = await asker(member, 'acme');
    const viaApp = await (await answererFor(acme))!.answer(input(acme));
    expect(viaApp).toMatchObject({ engine: 'embedded', notice: MODEL_UNREACHABLE });
    expect(llm.requests).toHaveLength(0);

    // Naming acme from outside borrows nothing: the server's endpoint answers.
    const borrowed = await asker(outsider, 'acme');
    const viaEndpoint = await (await answererFor(borrowed))!.answer(input(borrowed));
    expect(viaEndpoint).toMatchObject({ engine: 'model', response: 'No idea.' });
    expect(llm.requests.length).toBeGreaterThan(0);
  });
});
