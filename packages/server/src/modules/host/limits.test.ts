import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The start and test scripts' side of the same list (plain JavaScript, Node built-ins only).
import { aptPlan, embeddedPackages } from '../../../../../scripts/packages.mjs';
import { ProcessDriver } from '../../runtime/process/driver.js';
import { call } from '../../test/fixtures.js';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { hostLimits, readPackageList } from './limits.js';

const list = readPackageList();
const nothing = () => false;
const everything = () => true;
const allBut =
  (...absent: string[]) =>
  (path: string) =>
    !absent.includes(path);

describe('the embedded defaults’ Debian packages', () => {
  it('are one list: npm start and npm test read the file the server reads', () => {
    expect(embeddedPackages()).toEqual(list.packages.map((p) => [p.package, p.probe]));
    const names = list.packages.map((p) => p.package);
    for (const pkg of ['bubblewrap', 'slirp4netns', 'nftables', 'docker-registry'])
      expect(names).toContain(pkg);
    for (const p of list.packages) expect(list.features[p.feature], p.package).toBeTruthy();
  });

  it('a root start installs only what is missing, in one list', () => {
    const plan = aptPlan(embeddedPackages(), {
      root: true,
      exists: allBut('/usr/bin/bwrap', '/usr/bin/docker-registry'),
    });
    expect(plan.install).toEqual(['bubblewrap', 'docker-registry']);
    expect(plan.notice).toBeNull();
  });

  it('a second start installs nothing', () => {
    const plan = aptPlan(embeddedPackages(), { root: true, exists: everything });
    expect(plan).toEqual({ missing: [], install: [], notice: null });
  });

  it('a start that is not root installs nothing and gives the exact command', () => {
    const plan = aptPlan(embeddedPackages(), { root: false, exists: allBut('/usr/bin/bwrap') });
    expect(plan.install).toEqual([]);
    expect(plan.notice).toContain('sudo apt-get install -y --no-install-recommends bubblewrap');
  });
});

describe('what this installation cannot do', () => {
  it('names each feature whose packages are missing, with the command that installs them', () => {
    const { limits } = hostLimits({ list, root: true, runtime: 'process', exists: nothing });
    const registry = limits.find((l) => l.reason.includes('docker-registry'));
    expect(registry?.feature).toMatch(/^Images/);
    expect(registry?.fix).toBe(
      'apt-get install -y --no-install-recommends docker-registry, or set ORRERY_REGISTRY_URL to a registry of your own',
    );
    const jupyter = limits.find((l) => l.feature.includes('Jupyter'));
    expect(jupyter?.fix).toBe(
      'apt-get install -y --no-install-recommends jupyter-notebook python3-ipykernel',
    );
  });

  it('is empty where everything is installed and the runtime has no complaint', () => {
    expect(hostLimits({ list, root: true, runtime: 'process', exists: everything })).toEqual({
      root: true,
      limits: [],
    });
  });

  it('leaves out the registry when an external one is configured, and the sandbox on docker', () => {
    const { limits } = hostLimits({
      list,
      root: true,
      runtime: 'docker',
      registryUrl: 'http://registry.internal:5000',
      exists: nothing,
    });
    expect(limits.map((l) => l.reason).join(' ')).not.toMatch(/docker-registry|bubblewrap/);
    expect(limits.length).toBeGreaterThan(0);
  });

  it('names the apps whose programs are missing, once, with the command their reason gives', () => {
    const { limits } = hostLimits({
      list,
      root: false,
      runtime: 'process',
      exists: allBut('/usr/bin/jupyter-notebook'),
      apps: [
        {
          title: 'Jupyter Notebook',
          reason:
            'The Jupyter Notebook is not installed (apt-get install --no-install-recommends jupyter-notebook python3-ipykernel)',
        },
        { title: 'PostgreSQL', reason: 'PostgreSQL is not installed (apt-get install postgresql)' },
        {
          title: 'VS Code',
          reason:
            'code-server is not installed: the operator runs node scripts/install-code-server.mjs',
        },
      ],
    });
    expect(limits.filter((l) => /jupyter/i.test(l.feature))).toHaveLength(1);
    expect(limits.find((l) => l.feature === 'The PostgreSQL app')?.fix).toBe(
      'sudo apt-get install -y postgresql',
    );
    expect(limits.find((l) => l.feature === 'The VS Code app')?.fix).toBe(
      'sudo node scripts/install-code-server.mjs',
    );
  });

  it('puts the runtime’s refusal first; not root, the fix is sudo and a root start', () => {
    const { limits } = hostLimits({
      list,
      root: false,
      runtime: 'process',
      runtimeRefusal: 'Jobs are refused on this installation',
      exists: allBut('/usr/bin/bwrap'),
    });
    expect(limits[0]).toEqual({
      feature: 'Jobs',
      reason: 'Jobs are refused on this installation',
      fix: 'sudo apt-get install -y --no-install-recommends bubblewrap, then start the server as root (sudo npm start)',
    });
  });
});

describe('GET /apis/admin/v1/host/limits', () => {
  let s: TestServer;
  let admin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    // A process runtime without the sandbox: jobs are refused, which the list must say.
    const driver = new ProcessDriver({
      dataDir: mkdtempSync(join(tmpdir(), 'orrery-host-')),
      sandbox: false,
    });
    s = await startTestServer({}, { jobs: { driver } });
    admin = await s.user({ systemRole: 'admin' });
    user = await s.user();
  });
  afterAll(() => s.stop());

  it('shows a system administrator the runtime’s refusal with its fix', async () => {
    const res = await call(s, 'GET', '/apis/admin/v1/host/limits', admin);
    expect(res.status).toBe(200);
    const body = res.body as { root: boolean; limits: { feature: string; reason: string }[] };
    expect(body.root).toBe(process.getuid?.() === 0);
    const jobs = body.limits.find((l) => l.feature === 'Jobs');
    expect(jobs?.reason).toMatch(/^Jobs are refused on this installation/);
  });

  it('refuses a user who is not a system administrator (403)', async () => {
    const res = await call(s, 'GET', '/apis/admin/v1/host/limits', user);
    expect(res.status).toBe(403);
  });

  it('refuses an anonymous caller (401)', async () => {
    const res = await call(s, 'GET', '/apis/admin/v1/host/limits', null);
    expect(res.status).toBe(401);
  });
});
