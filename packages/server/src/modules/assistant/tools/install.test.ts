import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../../test/harness.js';
import { call, projectMember, tenancy } from '../../../test/fixtures.js';
import { awaitState, uninstallApp } from '../../../test/app-instance.js';
import { openCopilot, responseOf, type CopilotClient } from '../../../test/copilot.js';

const V1 = '/apis/apps/v1/cluster/default/org/acme/project/vision';

/**
 * "Install an app" through the copilot socket: a plan with the console's own install call,
 * priced at its preset, performed only on confirmation, and never offered where it could not
 * be done (on the process runtime, as the uninstall test in tools.test.ts).
 */
describe('assistant install plans', () => {
  let s: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  const here = { cluster: 'default', org: 'acme', project: 'vision' };
  const clients: CopilotClient[] = [];
  /** Asks from the open project `here`, or from no project (`null`). */
  const ask = async (who: TestUser, message: string, context: object | null = here) => {
    const c = await openCopilot(s, who);
    clients.push(c);
    return responseOf(await c.ask({ message, max_iterations: 1, ...(context ? { context } : {}) }));
  };
  const priceOf = async (preset: string) => {
    const config = await call(s, 'GET', '/api/v1/config', owner);
    const presets = config.body.clusters[0].resource_presets as {
      name: string;
      credits_per_hour: string;
    }[];
    return presets.find((p) => p.name === preset)!.credits_per_hour;
  };
  const instances = async () =>
    (await call(s, 'GET', `${V1}/instances`, owner)).body.items as {
      id: string;
      name: string;
      display_name: string;
      template_name: string;
      state: string;
    }[];

  beforeAll(async () => {
    s = await startTestServer({ ORRERY_RUNTIME: 'process' }, { listen: true });
    ({ owner } = await tenancy(s));
    reader = await projectMember(s, 'reader');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await s.stop();
  });

  it("plans the console's install call with the template's defaults, priced at the named preset", async () => {
    const answer = await ask(owner, 'install shell named term2 with preset cpu-medium');
    expect(answer.plans).toHaveLength(1);
    const plan = answer.plans[0]!;
    const template = (await call(s, 'GET', `${V1}/templates/shell`, owner)).body as {
      version: string;
    }[];
    expect(plan).toMatchObject({
      title: `Install Shell ${template[0]!.version} named term2 on preset cpu-medium`,
      call: {
        method: 'POST',
        path: `${V1}/instances`,
        body: {
          template_name: 'shell',
          template_version: template[0]!.version,
          display_name: 'term2',
          input: {
            preset: { name: 'cpu-medium' },
            // The schema's defaults, as the console's form starts from them.
            networking: { ingress_http: { auth: { type: 'apolo_auth' } } },
            idle_timeout_minutes: 60,
          },
        },
      },
      context: here,
      credits_per_hour: await priceOf('cpu-medium'),
    });
    expect(answer.response).toContain(`It costs ${plan.credits_per_hour} credits per hour`);
    // Nothing installed before the confirmation.
    expect((await instances()).some((i) => i.display_name === 'term2')).toBe(false);
  });

  it('prices a plan without a preset at the preset the apps service picks, the smallest that fits', async () => {
    const plan = (await ask(owner, 'install postgresql')).plans[0]!;
    expect(plan.call.body).toMatchObject({
      template_name: 'postgresql',
      input: { preset: { name: 'cpu-small' } },
    });
    expect(plan.call.body).not.toHaveProperty('display_name');
    expect(plan.credits_per_hour).toBe(await priceOf('cpu-small'));
  });

  it('installs the app through the apps route on confirmation, once', async () => {
    const plan = (await ask(owner, 'please install the shell app called term3')).plans[0]!;
    const confirm = () =>
      call(s, 'POST', `/api/v1/copilot/plans/${plan.id}/confirm`, owner, {
        confirmation: plan.confirmation,
      });
    const done = await confirm();
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({
      status: 'done',
      message: 'term3 is being installed',
      url: '/apps/installed',
    });
    const mine = (await instances()).filter((i) => i.display_name === 'term3');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.template_name).toBe('shell');
    const healthy = await awaitState(s, owner, mine[0]!.id, 'healthy');
    expect((await confirm()).status).toBe(409);
    expect((await instances()).filter((i) => i.display_name === 'term3')).toHaveLength(1);
    await uninstallApp(s, owner, {
      id: mine[0]!.id,
      name: healthy.name,
      jobIds: healthy.job_ids,
      outputs: {},
      url: null,
    });
  });

  it('offers no plan to a reader of the project, nor outside an open project', async () => {
    const answer = await ask(reader, 'install shell');
    expect(answer.plans).toEqual([]);
    expect(answer.response).toContain('You do not have permission to do this');
    const nowhere = await ask(owner, 'install shell', null);
    expect(nowhere.plans).toEqual([]);
    expect(nowhere.response).toContain('Open a project first');
  });

  it('tells an unknown template, an unknown preset and a template this runtime cannot run', async () => {
    const unknown = await ask(owner, 'install nosuchapp');
    expect(unknown.plans).toEqual([]);
    expect(unknown.response).toContain('No app template named nosuchapp');
    const preset = await ask(owner, 'install shell with preset huge-9');
    expect(preset.plans).toEqual([]);
    expect(preset.response).toContain('Preset huge-9 not found on cluster default');
    // The catalogue's own reason, as the install page shows it.
    const listed = (await call(s, 'GET', `${V1}/templates`, owner)).body as {
      name: string;
      unavailable_reason: string | null;
    }[];
    const dify = listed.find((t) => t.name === 'dify')!;
    expect(dify.unavailable_reason).toContain('docker');
    const docker = await ask(owner, 'install dify');
    expect(docker.plans).toEqual([]);
    expect(docker.response).toContain(dify.unavailable_reason);
  });

  it('sends a template whose required inputs have no default to its install page', async () => {
    // orrery-deploy runs on this runtime, but its HTTP port has no default.
    const answer = await ask(owner, 'install orrery-deploy');
    expect(answer.plans).toEqual([]);
    expect(answer.response).toContain(
      'Orrery Deploy needs inputs its defaults cannot fill (http): fill them in on [its install page](/apps/orrery-deploy/install).',
    );
  });
});
