import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../../../test/harness.js';
import { call, tenancy } from '../../../../test/fixtures.js';
import { eventually, runPlan } from '../../../../test/app-plan.js';
import { CODE_SERVER, vscodeRunner } from './runner.js';

/**
 * The vscode template: code-server in a job, through the ingress. Opt-in (ORRERY_TEST_VSCODE=1)
 * and only after scripts/install-code-server.mjs: too heavy for every CI run.
 */
describe.skipIf(!process.env.ORRERY_TEST_VSCODE)('vscode template (opt-in)', () => {
  let s: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    s = await startTestServer({ ORRERY_RUNTIME: 'process' }, { listen: true });
    ({ owner } = await tenancy(s));
  });
  afterAll(() => s?.stop());

  it('serves the workbench and its health through the ingress', async () => {
    expect(existsSync(CODE_SERVER), 'run node scripts/install-code-server.mjs first').toBe(true);
    expect(vscodeRunner.unavailable!()).toBeNull();
    const { jobs } = await runPlan(s, owner, vscodeRunner, {}, 'ide');
    const base = `${s.url}/ingress/${jobs.main}`;
    const health = await eventually(async () => {
      const r = await fetch(`${base}/healthz`, { headers: owner.headers });
      if (r.status !== 200) throw new Error(`healthz ${r.status}`);
      return r.json();
    }, 300);
    expect(health).toHaveProperty('status');
    expect((await fetch(`${base}/healthz`)).status).toBe(401);
    const page = await (
      await fetch(`${base}/`, { headers: owner.headers, redirect: 'follow' })
    ).text();
    expect(page).toContain('workbench');
    await call(s, 'DELETE', `/api/v1/jobs/${jobs.main}`, owner);
  });
});
