import { afterAll, beforeAll, expect, vi } from 'vitest';
import { isFinalJobStatus } from '@orrery/contract';
import { and, eq } from 'drizzle-orm';
import { clusterMembers, orgMembers, projectMembers, projects } from '../db/schema.js';
import { startReplica, startTestServer, type TestServer, type TestUser } from './harness.js';

/** A caller holding a raw bearer token (a project token), as CI or a script would. */
export const bearer = (token: string) =>
  ({ headers: { authorization: `Bearer ${token}` } }) as unknown as TestUser;

/** Calls the API as a user (or anonymously) and returns status and parsed JSON body. */
export async function call(
  s: TestServer,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  who?: TestUser | null,
  payload?: unknown,
) {
  const res = await s.app.inject({
    method,
    url,
    headers: who ? who.headers : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  const body = res.body
    ? (JSON.parse(res.body) as Record<string, unknown> & { message?: string })
    : null;
  return { status: res.statusCode, body: body as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A list as the clients ask for it: NDJSON, parsed line by line (and its last line ended). */
export async function ndjson(s: TestServer, url: string, who: TestUser) {
  const res = await s.app.inject({
    method: 'GET',
    url,
    headers: { ...who.headers, accept: 'application/x-ndjson' },
  });
  const lines = res.body === '' ? [] : res.body.split('\n');
  // One object per line and a final newline: no blank line the client would choke on.
  if (lines.length) expect(lines.pop()).toBe('');
  return {
    status: res.statusCode,
    type: res.headers['content-type'],
    body: res.body,
    items: lines.map((l) => JSON.parse(l) as Record<string, any>), // eslint-disable-line @typescript-eslint/no-explicit-any
  };
}

/** An organization with a project in the local cluster, created through the API by its owner. */
export async function tenancy(s: TestServer, org = 'acme', project = 'vision') {
  const owner = await s.user();
  expect((await call(s, 'POST', '/api/v1/orgs', owner, { name: org })).status).toBe(201);
  await addProject(s, owner, org, project);
  return { owner, org, project, cluster: 'default' };
}

/** Another project of the organization on the default cluster, made by `owner`. */
export async function addProject(s: TestServer, owner: TestUser, org: string, project: string) {
  const created = await call(s, 'POST', '/api/v1/projects', owner, {
    name: project,
    org_name: org,
    cluster_name: 'default',
  });
  expect(created.status).toBe(201);
}

/** The id of a project of an organization, read as the stores do. */
async function projectRow(s: TestServer, org: string, project: string) {
  const [p] = await s.ctx.db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.orgName, org), eq(projects.name, project)));
  return p;
}

/** Makes a new user a member of a project with a role, as the project-members area will. */
export async function projectMember(
  s: TestServer,
  role: 'reader' | 'writer' | 'manager',
  org = 'acme',
  project = 'vision',
) {
  const u = await s.user();
  const p = await projectRow(s, org, project);
  await s.ctx.db.insert(projectMembers).values({ projectId: p.id, userId: u.id, role });
  return u;
}

/** Takes a user out of a project, as its managers do: their access ends with it. */
export async function leaveProject(s: TestServer, u: TestUser, org = 'acme', project = 'vision') {
  const p = await projectRow(s, org, project);
  await s.ctx.db
    .delete(projectMembers)
    .where(and(eq(projectMembers.projectId, p.id), eq(projectMembers.userId, u.id)));
}

/** Makes a user a member of an organization (and optionally of a cluster) with a role. */
export async function joinOrg(
  s: TestServer,
  u: TestUser,
  role: 'user' | 'manager' | 'admin',
  org = 'acme',
) {
  await s.ctx.db.insert(orgMembers).values({ orgName: org, userId: u.id, role });
  return u;
}

export async function joinCluster(
  s: TestServer,
  u: TestUser,
  role: 'user' | 'manager' | 'admin',
  cluster = 'default',
) {
  await s.ctx.db.insert(clusterMembers).values({ clusterName: cluster, userId: u.id, role });
  return u;
}

/** Waits until a job has ended (its logs no longer follow), polling as the CLI does. */
export async function jobEnded(s: TestServer, who: TestUser, id: string) {
  for (let i = 0; i < 600; i++) {
    const j = await call(s, 'GET', `/api/v1/jobs/${id}`, who);
    if (isFinalJobStatus(j.body.status)) return j.body;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`job ${id} did not end`);
}

/**
 * Waits until a job is in `status` (polling as the console does) and returns it. A job that
 * ended otherwise fails at once, not at the timeout: the failure names its status, reason and
 * description and ends with its log's last lines, which say why.
 */
export async function jobReaches(
  s: TestServer,
  who: TestUser,
  id: string,
  status: string,
  timeout = 30_000,
) {
  const j = await vi
    .waitFor(
      async () => {
        const job = (await call(s, 'GET', `/api/v1/jobs/${id}`, who)).body;
        if (job.status !== status && !isFinalJobStatus(job.status)) {
          throw new Error(`job ${id} is ${job.status}: ${job.history?.reason}`);
        }
        return job;
      },
      { timeout, interval: 50 },
    )
    .catch((e: Error) => expect.fail(`${e.message}, not ${status} after ${timeout} ms`));
  if (j.status !== status) {
    const log = await s.app.inject({
      method: 'GET',
      url: `/api/v1/jobs/${id}/log`,
      headers: who.headers,
    });
    const tail = log.body.split('\n').slice(-30).join('\n');
    expect.fail(
      `job ${id} ended ${j.status}, not ${status}: ${j.history?.reason} ${j.history?.description}\n${tail}`,
    );
  }
  return j;
}

/**
 * A job's first move to `status` in its history (`statuses`): what said why it got there, which a
 * later reason (a preempted job's wait in the queue, say) replaces in `history`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const firstMove = (job: any, status: string) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  (job.statuses as any[]).find((t) => t.status === status);

/** Where the test jobs run: the tenancy() project on the default cluster. */
export const JOB_SCOPE = { cluster_name: 'default', org_name: 'acme', project_name: 'vision' };

/** Submits a job from preset cpu-small (busybox unless `extra` says otherwise); its id. */
export async function submitJob(
  s: TestServer,
  who: TestUser,
  command: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const r = await call(s, 'POST', '/api/v1/jobs?from_preset', who, {
    ...JOB_SCOPE,
    preset_name: 'cpu-small',
    image: 'busybox',
    command,
    ...extra,
  });
  if (r.status !== 202) throw new Error(`job not accepted: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

/**
 * Two replicas on one PostgreSQL database, started before the tests of the calling `describe`
 * and stopped after them: `a` holds the tenancy() organization and its owner.
 */
export function twoReplicas(opts: Parameters<typeof startReplica>[1] = {}) {
  const r = {} as { a: TestServer; b: TestServer; owner: TestUser };
  beforeAll(async () => {
    r.a = await startTestServer({}, opts);
    ({ owner: r.owner } = await tenancy(r.a));
    r.b = await startReplica(r.a, opts);
  });
  afterAll(async () => {
    await r.b?.stop();
    await r.a?.stop();
  });
  return r;
}

/**
 * A server (started with `env` and `opts`) with the tenancy() organization, started before the
 * tests of the calling `describe` (handed to `bind`, which may go on to set more up) and stopped
 * after them.
 */
export function tenantServer(
  bind: (started: { s: TestServer; owner: TestUser }) => unknown,
  env: Record<string, string> = {},
  opts: Parameters<typeof startTestServer>[1] = {},
) {
  let s: TestServer | undefined;
  beforeAll(async () => {
    s = await startTestServer(env, opts);
    await bind({ s, owner: (await tenancy(s)).owner });
  });
  afterAll(() => s?.stop());
}

/** tenantServer() on the process runtime, listening: for jobs that run and streams. */
export function processServer(bind: (started: { s: TestServer; owner: TestUser }) => unknown) {
  tenantServer(bind, { ORRERY_RUNTIME: 'process' }, { listen: true });
}
