import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../../../../test/harness.js';
import { processServer } from '../../../../test/fixtures.js';
import {
  installApp,
  openSession,
  outsiderOf,
  uninstallApp,
} from '../../../../test/app-instance.js';
import { CODE_SERVER, vscodeRunner } from './runner.js';

/**
 * The vscode template: code-server in a job, through Open. Opt-in (ORRERY_TEST_VSCODE=1) and only
 * after scripts/install-code-server.mjs: too heavy for every CI run.
 */
describe.skipIf(!process.env.ORRERY_TEST_VSCODE)('vscode template (opt-in)', () => {
  let s: TestServer;
  let owner: TestUser;
  let outsider: TestUser;

  processServer((x) => ({ s, owner } = x));
  beforeAll(async () => (outsider = await outsiderOf(s)));

  it('installs, serves the workbench and its health with a session only, uninstalls', async () => {
    expect(existsSync(CODE_SERVER), 'run node scripts/install-code-server.mjs first').toBe(true);
    expect(vscodeRunner.unavailable!('process')).toBeNull();
    const app = await installApp(s, owner, 'vscode', 'ide');
    const session = await openSession(s, app.url!, owner);
    const health = await fetch(`${app.url}healthz`, { headers: session });
    expect(health.status).toBe(200);
    expect(await health.json()).toHaveProperty('status');
    expect((await fetch(`${app.url}healthz`)).status).toBe(401);
    expect((await fetch(`${app.url}healthz`, { headers: outsider.headers })).status).toBe(404);
    const page = await fetch(app.url!, { headers: session });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('workbench');
    await uninstallApp(s, owner, app);
  }, 120_000);
});
