import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../test/harness.js';
import { call, jobEnded, projectMember, processServer } from '../test/fixtures.js';
import { upgrade as upgradeOf } from '../test/ingress.js';

/**
 * A WebSocket route refuses a bad or unauthorized upgrade with an HTTP status on the upgrade
 * request, as the CLI and browsers report it, instead of accepting the socket and closing it
 * with 1011.
 */
describe('WebSocket upgrades', () => {
  let s: TestServer;
  let owner: TestUser;
  let outsider: TestUser;
  let reader: TestUser;
  let job: string;

  /** How an upgrade ends (its status only: the bodies are asserted elsewhere). */
  const upgrade = async (path: string, who: TestUser | null, protocol = 'logs.apolo.us') => {
    // `path@host`: the path on a job's own host (the Host header a browser would send).
    const [at, host] = path.split('@');
    const headers = { ...(who ? who.headers : {}), ...(host ? { host } : {}) };
    const r = await upgradeOf(`${s.url}${at}`, headers, [protocol]);
    return 'refused' in r ? { refused: r.refused } : r;
  };

  processServer((x) => ({ s, owner } = x));
  beforeAll(async () => {
    outsider = await s.user();
    reader = await projectMember(s, 'reader');
    const r = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
      cluster_name: 'default',
      org_name: 'acme',
      project_name: 'vision',
      preset_name: 'cpu-small',
      image: 'busybox',
      command: 'echo done',
      http: { port: 8080, requires_auth: true },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    job = r.body.id;
    await jobEnded(s, owner, job);
  });

  it.each(['log_ws', 'top', 'attach', 'exec', 'status_ws'])(
    'refuses %s to anonymous callers with 401 and to other tenants with 404',
    async (route) => {
      const path = `/api/v1/jobs/${job}/${route}`;
      expect(await upgrade(path, null)).toEqual({ refused: 401 });
      expect(await upgrade(path, outsider)).toEqual({ refused: 404 });
      expect(await upgrade(`/api/v1/jobs/job-no-such-one/${route}`, owner)).toEqual({
        refused: 404,
      });
    },
  );

  it('refuses a weak role and a bad request with their statuses before the upgrade', async () => {
    // A project reader may read logs, not run commands in the job.
    expect(await upgrade(`/api/v1/jobs/${job}/log_ws`, reader)).toEqual({ opened: true });
    expect(await upgrade(`/api/v1/jobs/${job}/exec?cmd=id`, reader)).toEqual({ refused: 403 });
    expect(await upgrade(`/api/v1/jobs/${job}/log_ws?since=yesterday`, owner)).toEqual({
      refused: 400,
    });
    expect(
      await upgrade(
        `/api/v1/jobs/${job}/attach?tty=1&stdout=1&stderr=1`,
        owner,
        'v2.channels.neu.ro',
      ),
    ).toEqual({ refused: 400 });
    // exec needs a running job: this one has finished.
    expect(await upgrade(`/api/v1/jobs/${job}/exec?cmd=id`, owner, 'v2.channels.neu.ro')).toEqual({
      refused: 409,
    });
  });

  it("refuses an ingress upgrade to a missing job or another tenant's with 404 and without a token with 401", async () => {
    const host = (key: string) => `/socket@${key}.jobs.localhost:${new URL(s.url).port}`;
    expect(await upgrade(host('job-no-such-one'), null)).toEqual({ refused: 404 });
    expect(await upgrade(host(job), null)).toEqual({ refused: 401 });
    expect(await upgrade(host(job), outsider)).toEqual({ refused: 404 });
    // Allowed, but the job no longer serves: a gateway status, still before any upgrade.
    expect(await upgrade(host(job), owner)).toEqual({ refused: 502 });
    // A malformed job cookie is no credential, over HTTP too (it was a 500).
    const cookie = 'orrery_ingress=%E0%A4%A';
    const page = await s.app.inject({
      url: '/page',
      headers: { cookie, host: `${job}.jobs.localhost` },
    });
    expect(page.statusCode).toBe(401);
  });

  it('refuses hostile upgrade paths with a 4xx status and closes their sockets', async () => {
    // A malformed URL and one too long for the router are refused before any route: their
    // sockets must still be closed, or the server leaks them (and cannot stop, below).
    for (const id of ['%00', 'a%00b', '%ED%A0%80', '..%2f..%2fetc', '%ff%fe', 'x'.repeat(8000)]) {
      for (const route of ['log_ws', 'top', 'attach', 'exec', 'status_ws']) {
        const r = await upgrade(`/api/v1/jobs/${id}/${route}?since=%00`, owner);
        expect('refused' in r && r.refused >= 400 && r.refused < 500, `${route} ${id}`).toBe(true);
      }
      const ingress = await upgrade(`/ingress/${id}/%2e%2e%2f%00`, owner);
      const hosted = await upgrade(`/%2e%2e%2f%00@${id}.jobs.localhost`, owner);
      expect('refused' in hosted && hosted.refused < 500, `host ${id}`).toBe(true);
      expect('refused' in ingress && ingress.refused < 500, `ingress ${id}`).toBe(true);
    }
  });
});
