import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CopilotAnswer } from '@orrery/contract';
import { clusterOrgs, organizations, presets } from '../../db/schema.js';
import { invalidateCatalog } from '../clusters/store.js';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { addProject, call, jobEnded, jobReaches, submitJob, tenancy } from '../../test/fixtures.js';
import { eventually, installApp, outsiderOf } from '../../test/app-instance.js';
import { V1, deployInput, install, stateIs, until } from '../../test/apps.js';
import { aBake, aFlow, FLOW } from '../../test/flows.js';
import { openCopilot, responseOf, type CopilotClient } from '../../test/copilot.js';
import {
  LIVE_PASS_AT_LEAST,
  LIVE_QUESTIONS,
  type Expected,
  type LiveJob,
  type LiveQuestion,
  type World,
} from './live-questions.fixture.js';

const HERE = { cluster: 'default', org: 'acme', project: 'vision' };

/** What an answer shows its reader: its text and where its citations lead. */
const shown = (a: CopilotAnswer) =>
  [a.response, ...a.citations.map((c) => `${c.title} ${c.url} ${c.snippet}`)].join('\n');
const holds = (text: string, e: Expected) =>
  typeof e === 'string' ? text.includes(e) : e.test(text);

/** Why an answer misses what its question expects, or null when it holds. */
export function missOf(q: LiveQuestion, w: World, a: CopilotAnswer): string | null {
  const text = shown(a);
  const missing = q.must(w).filter((e) => !holds(text, e));
  const wrong = (q.mustNot?.(w) ?? []).filter((e) => holds(text, e));
  const plans = a.plans.length > 0 !== (q.plan ?? false);
  if (!missing.length && !wrong.length && !plans) return null;
  return `"${q.question}": missing ${missing.map(String).join(', ') || '-'}; must not hold ${wrong.map(String).join(', ') || '-'}${plans ? `; plans ${a.plans.length}` : ''}\n  answered: ${a.response.slice(0, 400)}`;
}

/**
 * The assistant asked about live work through the copilot socket, as the chat panel asks: the
 * owner's jobs, apps, bake, disk, credits and presets made on a test server (process runtime),
 * and the questions of live-questions.fixture.ts answered against them.
 */
describe('the assistant on live work', () => {
  let s: TestServer;
  let owner: TestUser;
  let outsider: TestUser;
  let w: World;
  const clients: CopilotClient[] = [];
  const ask = async (who: TestUser, message: string, context: object | undefined = HERE) => {
    const c = await openCopilot(s, who, `k${clients.length}`);
    clients.push(c);
    return responseOf(await c.ask({ message, max_iterations: 3, context }));
  };
  const jobOf = async (id: string): Promise<LiveJob> => {
    const j = (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body;
    return {
      id,
      name: j.name,
      status: j.status,
      reason: j.history.reason,
      description: j.history.description,
      http_url: j.http_url,
    };
  };

  beforeAll(async () => {
    // Every question of the fixture from one user, within one minute.
    s = await startTestServer(
      { ORRERY_RUNTIME: 'process', ORRERY_ASSISTANT_QUESTIONS_PER_MINUTE: '1000' },
      { listen: true },
    );
    ({ owner } = await tenancy(s));
    outsider = await outsiderOf(s);

    const webPort = await submitJob(s, owner, 'sleep 600', {
      name: 'web-port',
      http: { port: 8080, requires_auth: true },
    });
    const trainer = await submitJob(s, owner, 'sleep 600', { name: 'epoch-runner' });
    const broken = await submitJob(s, owner, `sh -c 'echo no such program; exit 3'`, {
      name: 'broken',
    });
    // A job of the owner's that waits: their other organization has no running-jobs quota left.
    expect((await call(s, 'POST', '/api/v1/orgs', owner, { name: 'beta' })).status).toBe(201);
    await addProject(s, owner, 'beta', 'lab');
    await s.ctx.db
      .update(clusterOrgs)
      .set({ quotaTotalRunningJobs: 0 })
      .where(and(eq(clusterOrgs.orgName, 'beta'), eq(clusterOrgs.clusterName, 'default')));
    const waiting = await submitJob(s, owner, 'echo waits', {
      org_name: 'beta',
      project_name: 'lab',
      name: 'queued-one',
      wait_for_jobs_quota: true,
    });
    await jobReaches(s, owner, webPort, 'running');
    await jobReaches(s, owner, trainer, 'running');
    await jobEnded(s, owner, broken);
    await jobReaches(s, owner, waiting, 'pending');
    await eventually(async () => {
      const reason = (await jobOf(waiting)).reason;
      if (reason !== 'QuotaExhausted') throw new Error(`not held by the quota yet: ${reason}`);
    });

    // An app whose job fails at once, and a healthy one.
    const failing = await install(s, owner, {
      template_name: 'orrery-deploy',
      display_name: 'my-shell',
      input: deployInput(`sh -c 'echo no such program >&2; exit 7'`),
    });
    expect(failing.status, JSON.stringify(failing.body)).toBe(201);
    await until(s, owner, failing.body.id, stateIs('errored'));
    const events = await call(s, 'GET', `${V1}/instances/${failing.body.id}/events?size=1`, owner);
    const term = await installApp(s, owner, 'shell', 'term');

    const flow = await aFlow(s, owner, 'nightly_flow');
    const { bake } = await aBake(s, owner, flow.id, { name: 'nightly' });
    const baked = await call(s, 'GET', `${FLOW}/bakes/${bake.id}?fetch_last_attempt=1`, owner);

    const disk = await call(s, 'POST', '/api/v1/disk', owner, {
      storage: 1e9,
      name: 'data',
      life_span: null,
      cluster_name: 'default',
      org_name: 'acme',
      project_name: 'vision',
    });
    expect(disk.status, JSON.stringify(disk.body)).toBe(201);
    await s.ctx.db
      .update(organizations)
      .set({ credits: '42.5' })
      .where(eq(organizations.name, 'acme'));
    const config = await call(s, 'GET', '/api/v1/config', owner);
    const presets = config.body.clusters[0].resource_presets as {
      name: string;
      nvidia_gpu?: number;
      amd_gpu?: number;
      intel_gpu?: number;
    }[];

    w = {
      jobs: {
        webPort: await jobOf(webPort),
        trainer: await jobOf(trainer),
        broken: await jobOf(broken),
        waiting: await jobOf(waiting),
      },
      failedApp: {
        id: failing.body.id,
        name: failing.body.name,
        reason: events.body.items[0].reason,
        message: events.body.items[0].message,
      },
      healthyApp: { id: term.id, name: term.name, url: term.url! },
      bake: {
        id: bake.id,
        name: 'nightly',
        result: baked.body.last_attempt.result,
        url: `/flows/${flow.id}/${flow.name}/bakes/${bake.id}`,
      },
      disk: { id: disk.body.id, name: disk.body.name },
      credits: '42.5',
      presets: presets.map((p) => ({
        name: p.name,
        gpu: Boolean(p.nvidia_gpu || p.amd_gpu || p.intel_gpu),
      })),
    };
    expect(w.jobs.broken.status).toBe('failed');
    expect(w.jobs.webPort.http_url).toBeTruthy();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await s?.stop();
  });

  it(`answers at least ${LIVE_PASS_AT_LEAST} of the ${LIVE_QUESTIONS.length} questions with the live facts and links they need`, async () => {
    expect(LIVE_QUESTIONS).toHaveLength(30);
    const misses: string[] = [];
    for (const q of LIVE_QUESTIONS) {
      const who = q.asker === 'owner' ? owner : outsider;
      const answer = await ask(who, q.question, q.context === 'none' ? undefined : HERE);
      const miss = missOf(q, w, answer);
      if (miss) misses.push(`[${q.kind}] ${miss}`);
    }
    const passed = LIVE_QUESTIONS.length - misses.length;
    console.info(
      `live questions: ${passed} of ${LIVE_QUESTIONS.length} pass\n${misses.join('\n')}`,
    );
    expect(passed, misses.join('\n')).toBeGreaterThanOrEqual(LIVE_PASS_AT_LEAST);
  }, 120_000);

  it("answers an outsider's questions about the owner's work without naming any of it", async () => {
    const { jobs } = w;
    const questions = [
      'Which of my jobs are running?',
      'Show me my failed jobs',
      'Why is my job pending?',
      'Which apps have I installed?',
      'Why did my app my-shell fail?',
      'What is the URL of my app term?',
      'What bakes do I have?',
      'What is the status of my bake nightly?',
      'Which disks do I have?',
      'How many credits do I have left?',
      `Why did job ${jobs.broken.id} fail?`,
      `Is job ${jobs.webPort.id} running, what is its URL?`,
      `Show me the logs of job ${jobs.broken.id}`,
      `What is the status of app ${w.failedApp.id}?`,
    ];
    // What would show the owner's work: ids, addresses, reasons, and names the question lacks
    // (as words: "term" is no secret in "terminal").
    const word = (name: string) => new RegExp(`(?<![\\w-])${name}(?![\\w-])`);
    const secrets = (q: string): Expected[] => [
      ...[...Object.values(jobs).map((j) => j.name), w.healthyApp.name, w.bake.name]
        .filter((n) => !q.includes(n))
        .map(word),
      ...[
        ...Object.values(jobs).flatMap((j) => [j.http_url, `/jobs/${j.id}`]),
        w.failedApp.message,
        `/apps/instances/${w.failedApp.id}`,
        w.healthyApp.url,
        `/apps/instances/${w.healthyApp.id}`,
        w.bake.url,
        w.bake.id,
        w.disk.id,
        w.credits,
      ].filter((x): x is string => !!x && !q.includes(x)),
    ];
    // Claiming the owner's project as the open one changes nothing, nor does naming none.
    for (const context of [HERE, undefined]) {
      for (const q of questions) {
        const text = shown(await ask(outsider, q, context));
        for (const secret of secrets(q))
          expect(holds(text, secret), `${q} (${secret}): ${text}`).toBe(false);
      }
    }
    // The same questions from the owner do name them (so the check above can fail).
    const own = shown(await ask(owner, 'Which of my jobs are running?'));
    expect(own).toContain(`/jobs/${jobs.webPort.id}`);
  }, 120_000);

  it("names the cluster's GPU presets once it has one, for a how-to and for a question", async () => {
    await s.ctx.db.insert(presets).values({
      clusterName: 'default',
      name: 'gpu-test',
      cpu: 1,
      memory: 1e9,
      creditsPerHour: '2',
      gpus: { nvidia: { count: 1, model: 'A100' } },
    });
    invalidateCatalog(s.ctx.clusterCatalog);
    for (const q of ['Does this cluster have GPU presets?', 'How do I run a job with a GPU?']) {
      const answer = await ask(owner, q);
      expect(answer.response).toContain('GPU presets of cluster default: gpu-test.');
      expect(answer.response).toContain('- default/gpu-test: 1 CPU, 1 GB memory, 1 GPU (A100)');
      expect(answer.response).not.toContain('has no GPU presets');
    }
  });
});
