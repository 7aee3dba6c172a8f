import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copilotModelPath } from '@orrery/contract';
import { grantsOf } from '../../../auth/permissions.js';
import { ProcessDriver } from '../../../runtime/process/driver.js';
import { call, submitJob, tenancy } from '../../../test/fixtures.js';
import { startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { eventually } from '../../../test/app-instance.js';
import { insertInstance, instanceTag, revisionTag, roleTag } from '../../apps/store.js';
import { apiKeyKey } from '../../apps/templates/llm-inference/runner.js';
import type { Answerer, Asker, KnowledgeBase } from '../types.js';
import { modelAnswererFor } from './index.js';

/**
 * An organization's llm-inference app answering its assistant, end to end on the process
 * runtime: the app's main job is a STAND-IN for llama.cpp's OpenAI-compatible server (a few
 * lines of Node, scripted answers, no model), which refuses any request without the app's key.
 * The assistant must find it through the template's `chat_internal_api` output, reach it where
 * the server can, and send the key kept in the project's secret.
 */
const STAND_IN = [
  "require('http').createServer((q,r)=>{let b='';q.on('data',c=>b+=c);q.on('end',()=>{",
  "if(q.headers.authorization!=='Bearer '+process.env.LLM_API_KEY){r.writeHead(401);return r.end('{}')}",
  'const j=JSON.parse(b||"{}");',
  "const c=j.response_format?JSON.stringify({high_level_keywords:['jobs'],low_level_keywords:['pending'],status:'complete'}):'The app ('+j.model+') answered [1].';",
  "r.writeHead(200,{'content-type':'application/json'});",
  "r.end(JSON.stringify({choices:[{message:{role:'assistant',content:c}}]}))})})",
  ".listen(Number(process.env.PORT),'127.0.0.1')",
].join('');

describe("an organization's llm-inference app as the assistant's model", () => {
  let s: TestServer;
  let owner: TestUser;
  let driver: ProcessDriver;
  let dataDir: string;
  let jobId: string;
  let appId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'orrery-model-app-'));
    driver = new ProcessDriver({ dataDir, killGraceMs: 2000 });
    s = await startTestServer({ ORRERY_RUNTIME: 'process' }, { listen: true, jobs: { driver } });
    ({ owner } = await tenancy(s));
    appId = (
      await insertInstance(
        s.ctx.db,
        {
          clusterName: 'default',
          orgName: 'acme',
          projectName: 'vision',
          name: 'chat',
          displayName: 'chat',
          templateName: 'llm-inference',
          templateVersion: '1.0.0',
          state: 'healthy',
          creator: owner.username,
          presetName: 'cpu-small',
        },
        {
          templateVersion: '1.0.0',
          input: {},
          resolved: {
            model: { files_path: { path: 'storage:models/tiny.gguf' } },
            networking: { ingress_http: { auth: { type: 'no_auth' } } },
          },
          creator: owner.username,
        },
      )
    ).id;
    const key = await call(s, 'POST', '/api/v1/secrets', owner, {
      key: apiKeyKey({ name: 'chat' }),
      value: Buffer.from('the-app-key-123').toString('base64'),
      org_name: 'acme',
      project_name: 'vision',
    });
    expect(key.status).toBe(201);
    jobId = await submitJob(s, owner, `${process.execPath} -e "${STAND_IN}"`, {
      http: { port: 8000, requires_auth: false },
      secret_env: { LLM_API_KEY: `secret:${apiKeyKey({ name: 'chat' })}` },
      tags: [instanceTag(appId), revisionTag(1), roleTag('main')],
    });
    await eventually(async () => expect(await driver.endpoint(jobId)).not.toBeNull(), 200);
  });
  afterAll(async () => {
    await call(s, 'DELETE', `/api/v1/jobs/${jobId}`, owner);
    await s?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers through the app, with its key and model', async () => {
    const set = await call(s, 'PUT', copilotModelPath('acme'), owner, { app_instance_id: appId });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const section = {
      id: 'jobs-pending',
      page: 'jobs.md',
      heading: 'Jobs > Why a job is pending',
      url: '/docs/jobs.md#why-a-job-is-pending',
      text: 'A pending job waits for capacity.',
    };
    const kb: KnowledgeBase = {
      retrieve: (_q, o) => ({
        mode: o.mode,
        sections: [{ ...section, score: 1, round: 1 }],
        entities: [],
        relations: [],
        rounds: 1,
      }),
      compose: () => ({ response: '', citations: [] }),
      nearest: () => [],
      isSmallTalk: () => false,
      stats: { sections: 1, nodes: 0, edges: 0, buildMs: 0 },
    };
    const embedded: Answerer = {
      answer: async () => {
        throw new Error('the embedded engine should not answer');
      },
    };
    const principal = {
      id: owner.id,
      username: owner.username,
      name: 'Owner',
      email: owner.email,
      emailVerified: true,
      systemRole: null,
    };
    const asker: Asker = {
      principal,
      grants: await grantsOf(s.ctx.db, principal),
      context: { cluster: 'default', org: 'acme', project: 'vision' },
    };
    const answererFor = modelAnswererFor(s.ctx, {
      knowledge: kb,
      tools: { facts: async () => [], propose: async () => null },
      embedded,
      log: s.app.log,
      driver,
    });
    const answer = await (await answererFor(asker))!.answer({
      asker,
      message: 'why is my job pending?',
      history: [],
      mode: 'hybrid',
      maxIterations: 2,
      onProgress: () => {},
    });
    expect(answer).toMatchObject({ engine: 'model', response: 'The app (tiny) answered [1].' });
    expect(answer.citations).toEqual([expect.objectContaining({ n: 1, url: section.url })]);
  });
});
