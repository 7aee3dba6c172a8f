import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterOrgs, clusters, orgMembers, organizations } from '../../../db/schema.js';
import { startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import {
  addProject,
  call,
  jobEnded,
  joinOrg,
  projectMember,
  submitJob,
  tenancy,
} from '../../../test/fixtures.js';
import { awaitState, eventually, installApp } from '../../../test/app-instance.js';
import { askerOf, openCopilot, responseOf, type CopilotClient } from '../../../test/copilot.js';
import { invalidateCatalog } from '../../clusters/store.js';
import { assistantPlans } from '../tables.js';
import { PLAN_TEXTS } from '../plans.js';
import { createTools } from './index.js';
import { appCatalogue } from '../../apps/plugin.js';

/**
 * Live facts and plans through the copilot socket, as a user asks them: read with the asker's
 * own permissions, answered in the API's words, and no change before the plan's confirmation.
 */
describe('assistant tools', () => {
  let s: TestServer;
  let owner: TestUser;
  let outsider: TestUser;
  let reader: TestUser;
  const here = { cluster: 'default', org: 'acme', project: 'vision' };
  const clients: CopilotClient[] = [];
  const ask = async (who: TestUser, message: string, context: object | undefined = here) => {
    const c = await openCopilot(s, who);
    clients.push(c);
    return responseOf(await c.ask({ message, max_iterations: 1, context }));
  };

  beforeAll(async () => {
    s = await startTestServer({ ORRERY_RUNTIME: 'process' }, { listen: true });
    ({ owner } = await tenancy(s));
    outsider = await s.user();
    reader = await projectMember(s, 'reader');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await s.stop();
  });

  it('answers "not found", as the API does for a job that does not exist, for a job the user cannot see', async () => {
    const id = await submitJob(s, owner, 'echo hidden', { name: 'hidden-one' });
    expect((await call(s, 'GET', `/api/v1/jobs/${id}`, outsider)).status).toBe(404);
    const none = 'job-00000000-0000-4000-8000-000000000000';
    const api = await call(s, 'GET', `/api/v1/jobs/${none}`, outsider);
    expect(api.body.message).toBe(`Job ${none} not found`);
    expect((await ask(outsider, `why is job ${none} pending?`, undefined)).response).toContain(
      api.body.message,
    );
    const answer = await ask(outsider, `why is job ${id} pending?`, undefined);
    expect(answer.response).toContain(`Job ${id} not found`);
    expect(answer.citations.some((c) => c.url.includes(id))).toBe(false);
    // By name, in a project of someone else's that the outsider names as their context.
    const byName = await ask(outsider, 'why did job hidden-one fail?');
    expect(byName.response).toContain('Job hidden-one not found');
  });

  it("gives a pending job's reason in the scheduler's words, linked to the job", async () => {
    await tenancy(s, 'beta', 'lab').then(async ({ owner: betaOwner }) => {
      await s.ctx.db
        .update(clusterOrgs)
        .set({ quotaTotalRunningJobs: 0 })
        .where(and(eq(clusterOrgs.orgName, 'beta'), eq(clusterOrgs.clusterName, 'default')));
      const id = await submitJob(s, betaOwner, 'echo waits', {
        org_name: 'beta',
        project_name: 'lab',
        name: 'waiter',
        wait_for_jobs_quota: true,
      });
      const job = await eventually(async () => {
        const j = await call(s, 'GET', `/api/v1/jobs/${id}`, betaOwner);
        if (j.body.history.reason !== 'QuotaExhausted') throw new Error('not scheduled yet');
        return j.body;
      });
      const answer = await ask(betaOwner, 'Why is job waiter pending?', {
        cluster: 'default',
        org: 'beta',
        project: 'lab',
      });
      expect(answer.response).toContain(`Job waiter (${id}) is pending`);
      expect(answer.response).toContain(job.history.description);
      expect(answer.citations[0]).toMatchObject({ n: 1, url: `/jobs/${id}` });
      expect(answer.response).toContain('[1]');
    });
  });

  it('lists the presets the user can run with and their credits per hour', async () => {
    const config = await call(s, 'GET', '/api/v1/config', owner);
    const presets = config.body.clusters[0].resource_presets as {
      name: string;
      credits_per_hour: string;
    }[];
    expect(presets.length).toBeGreaterThan(0);
    const answer = await ask(owner, 'What presets can I use?');
    const lines = answer.response.split('\n');
    for (const p of presets) {
      const line = lines.find((l) => l.startsWith(`- default/${p.name}:`));
      expect(line).toMatch(new RegExp(`: ${p.credits_per_hour} credits per hour$`));
    }
    expect(answer.citations[0]!.url).toBe('/jobs/new');
  });

  it("tells the organization's credits and the user's own", async () => {
    await s.ctx.db
      .update(organizations)
      .set({ credits: '42.5' })
      .where(eq(organizations.name, 'acme'));
    await s.ctx.db
      .update(orgMembers)
      .set({ credits: '7' })
      .where(and(eq(orgMembers.orgName, 'acme'), eq(orgMembers.userId, owner.id)));
    const answer = await ask(owner, 'How many credits do I have left?');
    expect(answer.response).toContain(
      'Organization acme has 42.5 credits left; your own limit in it: 7 credits.',
    );
    await s.ctx.db
      .update(organizations)
      .set({ credits: null })
      .where(eq(organizations.name, 'acme'));
  });

  it("shows the last lines of a job's log, as the log API serves them", async () => {
    const id = await submitJob(s, owner, `sh -c 'seq 1 30 | sed s/^/line-/'`, {
      name: 'counter',
    });
    await jobEnded(s, owner, id);
    const answer = await ask(owner, 'show me the logs of job counter');
    expect(answer.response).toContain('line-11\n');
    expect(answer.response).toContain('line-30\n');
    expect(answer.response).not.toContain('line-10\n');
    expect(answer.citations[0]!.url).toBe(`/jobs/${id}/logs`);
    const hidden = await ask(outsider, `show me the logs of job ${id}`, undefined);
    expect(hidden.response).toContain(`Job ${id} not found`);
    expect(hidden.response).not.toContain('line-');
  });

  it('tags a job fact with the project it was read from, not the one open in the console', async () => {
    // A model must not see that project's secrets either (model/redact.ts reads them by this).
    await addProject(s, owner, 'acme', 'audio');
    const id = await submitJob(s, owner, 'echo tagged', { project_name: 'audio', name: 'tagged' });
    const tools = createTools({
      db: s.ctx.db,
      driver: { logs: async () => Readable.from(['one line\n']) },
      publicUrl: s.config.publicUrl,
      ingressDomain: s.config.ingressDomain,
      catalogue: appCatalogue(s.ctx, { name: 'process' }, s.app.log),
      clusterCatalog: s.ctx.clusterCatalog,
    });
    const asker = await askerOf(s, owner, here);
    const audio = { cluster: 'default', org: 'acme', project: 'audio' };
    for (const question of [`why is job ${id} pending?`, `show me the logs of job ${id}`]) {
      const [fact] = await tools.facts(asker, question);
      expect(fact!.citations[0]!.url).toContain(id);
      expect(fact!.place).toEqual(audio);
    }
  });

  it('answers "not found" for an app the user has not installed', async () => {
    const answer = await ask(owner, 'what is the status of app nosuchapp?');
    expect(answer.response).toContain('App instance nosuchapp not found');
  });

  describe('consent', () => {
    it('kills a job only through the confirmation, once, by the user it was proposed to', async () => {
      const id = await submitJob(s, owner, 'sleep 300', { name: 'sleeper' });
      await eventually(async () => {
        const j = await call(s, 'GET', `/api/v1/jobs/${id}`, owner);
        if (j.body.status !== 'running') throw new Error(j.body.status);
      });
      const answer = await ask(owner, 'please kill job sleeper');
      expect(answer.plans).toHaveLength(1);
      const plan = answer.plans[0]!;
      expect(plan).toMatchObject({
        title: 'Kill job sleeper',
        call: { method: 'DELETE', path: `/api/v1/jobs/${id}` },
        context: here,
        credits_per_hour: null,
      });
      expect(Date.parse(plan.expires_at) - Date.now()).toBeGreaterThan(9 * 60_000);
      const status = async () => (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body.status;
      expect(await status()).toBe('running');

      const confirm = (who: TestUser, confirmation: string) =>
        call(s, 'POST', `/api/v1/copilot/plans/${plan.id}/confirm`, who, { confirmation });
      const wrong = await confirm(owner, 'not-the-confirmation');
      expect(wrong.status).toBe(403);
      expect(wrong.body.message).toBe(PLAN_TEXTS.wrongConfirmation);
      const foreign = await confirm(reader, plan.confirmation);
      expect(foreign.status).toBe(404);
      expect(await status()).toBe('running');

      const done = await confirm(owner, plan.confirmation);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body).toEqual({ status: 'done', message: 'Job killed', url: `/jobs/${id}` });
      expect((await jobEnded(s, owner, id)).status).toBe('cancelled');

      const replay = await confirm(owner, plan.confirmation);
      expect(replay.status).toBe(409);
      expect(replay.body.message).toBe(PLAN_TEXTS.used);
    });

    it('checks permissions again at the confirmation: a user demoted since the plan is refused', async () => {
      // An organization member (the people API changes only members' project roles).
      const writer = await joinOrg(s, await projectMember(s, 'writer'), 'user');
      const id = await submitJob(s, owner, 'sleep 300', { name: 'demoted' });
      await eventually(async () => {
        const j = await call(s, 'GET', `/api/v1/jobs/${id}`, owner);
        if (j.body.status !== 'running') throw new Error(j.body.status);
      });
      const plan = (await ask(writer, 'kill job demoted')).plans[0]!;
      expect(plan.title).toBe('Kill job demoted');
      const demote = await call(
        s,
        'PUT',
        `/apis/admin/v1/clusters/default/orgs/acme/projects/vision/users/${writer.username}`,
        owner,
        { role: 'reader' },
      );
      expect(demote.status, JSON.stringify(demote.body)).toBe(200);

      const refused = await call(s, 'POST', `/api/v1/copilot/plans/${plan.id}/confirm`, writer, {
        confirmation: plan.confirmation,
      });
      // The words the API itself gives the reader for the same call.
      const direct = await call(s, 'DELETE', `/api/v1/jobs/${id}`, writer);
      expect(direct.status).toBe(403);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(direct.body.message);
      expect((await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body.status).toBe('running');
      await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
    });

    it('offers no plan to a user who may not make the change', async () => {
      const id = await submitJob(s, owner, 'sleep 300', { name: 'guarded' });
      const answer = await ask(reader, `kill job ${id}`);
      expect(answer.plans).toEqual([]);
      expect(answer.response).toContain('You do not have permission to do this');
      const stranger = await ask(outsider, `kill job ${id}`, undefined);
      expect(stranger.plans).toEqual([]);
      expect(stranger.response).toContain(`Job ${id} not found`);
      await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
    });

    it("creates a disk on confirmation, priced at the cluster's disk price", async () => {
      await s.ctx.db
        .update(clusters)
        .set({ diskCreditsPerDayPerGb: '2.4' })
        .where(eq(clusters.name, 'default'));
      invalidateCatalog(s.ctx.clusterCatalog);
      const answer = await ask(owner, 'create a disk of 5 GB named scratch');
      const plan = answer.plans[0]!;
      expect(plan).toMatchObject({
        title: 'Create disk scratch of 5 GB',
        call: {
          method: 'POST',
          path: '/api/v1/disk',
          body: { storage: 5e9, name: 'scratch', org_name: 'acme', project_name: 'vision' },
        },
        // 5 GB × 2.4 credits a GB-day ÷ 24 hours.
        credits_per_hour: '0.5',
      });
      expect(answer.response).toContain('0.5 credits per hour');
      const disks = async () =>
        (await call(s, 'GET', '/api/v1/disk?org_name=acme&project_name=vision', owner)).body;
      expect(JSON.stringify(await disks())).not.toContain('scratch');

      const done = await call(s, 'POST', `/api/v1/copilot/plans/${plan.id}/confirm`, owner, {
        confirmation: plan.confirmation,
      });
      expect(done.body).toEqual({ status: 'done', message: 'Disk scratch created', url: '/disks' });
      expect(JSON.stringify(await disks())).toContain('"name":"scratch"');
    });

    it('refuses an expired plan without performing it', async () => {
      const id = await submitJob(s, owner, 'sleep 300', { name: 'late' });
      const plan = (await ask(owner, `kill job ${id}`)).plans[0]!;
      await s.ctx.db
        .update(assistantPlans)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(assistantPlans.id, plan.id));
      const late = await call(s, 'POST', `/api/v1/copilot/plans/${plan.id}/confirm`, owner, {
        confirmation: plan.confirmation,
      });
      expect(late.status).toBe(409);
      expect(late.body.message).toBe(PLAN_TEXTS.expired);
      const j = await call(s, 'GET', `/api/v1/jobs/${id}`, owner);
      expect(j.body.status).not.toBe('cancelled');
      await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
    });

    it("tells an app's state and URL, and uninstalls it only on confirmation", async () => {
      const app = await installApp(s, owner, 'shell', 'term');
      expect(app.url).not.toBeNull();
      const facts = await ask(owner, 'what is the URL of app term?');
      expect(facts.response).toContain(
        `App term (${app.name}) is healthy. It is served at ${app.url}`,
      );
      expect(facts.citations[0]!.url).toBe(`/apps/instances/${app.id}`);
      expect((await ask(outsider, `status of app ${app.id}`, undefined)).response).toContain(
        `App instance ${app.id} not found`,
      );

      const plan = (await ask(owner, `uninstall app ${app.name}`)).plans[0]!;
      expect(plan.call).toEqual({
        method: 'DELETE',
        path: `/apis/apps/v1/cluster/default/org/acme/project/vision/instances/${app.id}`,
      });
      await new Promise((r) => setTimeout(r, 300));
      await awaitState(s, owner, app.id, 'healthy');
      const done = await call(s, 'POST', `/api/v1/copilot/plans/${plan.id}/confirm`, owner, {
        confirmation: plan.confirmation,
      });
      expect(done.body).toMatchObject({ status: 'done', message: 'App uninstalled successfully' });
      await awaitState(s, owner, app.id, 'uninstalled');
    });

    it('refuses an anonymous confirmation before reading it', async () => {
      const r = await call(s, 'POST', '/api/v1/copilot/plans/plan-x/confirm', null, {
        confirmation: 'x',
      });
      expect(r.status).toBe(401);
    });
  });
});
