import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { call, jobEnded, projectMember, tenancy } from '../test/fixtures.js';
import { arbitraries, type Operation } from '../test/fuzz-inputs.js';

/**
 * Every route of the OpenAPI document the server serves, driven with generated parameters,
 * queries and bodies by three callers: anonymous, a member of another organization, a project
 * reader. No answer is a 5xx, none hangs, and no 2xx to an outsider carries the
 * target tenant's data (a marker in the names of its secret, disk, job and file).
 *
 * FUZZ_SEED replays a run; FUZZ_RUNS sets the runs per route and caller.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
/** Far above any answer on a loaded 2-core machine: past it a request counts as hung. */
const HANG_MS = 10_000;
/**
 * In the names of the target's secret, disk, job and file, and as a secret's value. The generated
 * requests never carry it (they name the target's resources by ids and paths), so an outsider's
 * 2xx carrying it is the target's data, never an echo of what the outsider sent or made.
 */
const MARKER = `zqx${randomBytes(4).toString('hex')}`;
const MARKER_B64 = Buffer.from(MARKER).toString('base64');

describe('fuzz over the OpenAPI document', () => {
  let s: TestServer;
  let callers: Record<'anonymous' | 'outsider' | 'reader', TestUser | null>;
  let operations: Operation[];
  let gens: Record<keyof typeof callers, ReturnType<typeof arbitraries>[]>;

  beforeAll(async () => {
    s = await startTestServer({ ORRERY_RUNTIME: 'process' });
    const { owner } = await tenancy(s);
    const outsider = await s.user();
    // The outsider belongs to an organization of its own, not to the target's.
    expect((await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'elsewhere' })).status).toBe(
      201,
    );
    const reader = await projectMember(s, 'reader');
    callers = { anonymous: null, outsider, reader };

    const scope = { org_name: 'acme', project_name: 'vision', cluster_name: 'default' };
    const seeded = await Promise.all([
      call(s, 'POST', '/api/v1/secrets', owner, { ...scope, key: MARKER, value: 'eA==' }),
      call(s, 'POST', '/api/v1/secrets', owner, { ...scope, key: 'dbpass', value: MARKER_B64 }),
      call(s, 'POST', '/api/v1/disk', owner, { ...scope, storage: 2 ** 20, name: MARKER }),
      call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
        ...scope,
        preset_name: 'cpu-small',
        image: 'busybox',
        command: 'echo done',
        name: MARKER,
        description: MARKER,
      }),
      s.app.inject({
        method: 'PUT',
        url: `/api/v1/storage/acme/vision/${MARKER}.txt?op=CREATE`,
        headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
        payload: MARKER,
      }),
    ]);
    const [secret, value, disk, job, file] = seeded;
    expect([secret, value, disk, job].map((r) => r.status)).toEqual([201, 201, 201, 202]);
    expect('statusCode' in file && file.statusCode).toBe(201);
    // Its log then ends: a log that follows a running job streams for as long as it runs.
    await jobEnded(s, owner, job.body.id);

    const doc = (await s.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
    };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        ...op,
        method: method.toUpperCase(),
        path,
      })),
    );
    const names = [
      'acme',
      'vision',
      'default',
      'elsewhere',
      owner.username,
      outsider.username,
      reader.username,
      job.body.id,
      disk.body.id,
      'cpu-small',
      'busybox',
      'read',
      'manage',
      'storage://default/acme/vision',
      `job://default/acme/vision/${job.body.id}`,
      'OPEN',
      'LISTSTATUS',
    ];
    const paths = [
      'acme/vision',
      `acme/vision/${MARKER}.txt`,
      'elsewhere/own',
      'library/busybox/manifests/latest',
      'interaction',
    ];
    const common = {
      cluster_name: ['default'],
      cluster: ['default'],
      user: [owner.username, outsider.username, reader.username],
      user_name: [reader.username, outsider.username],
      job: [job.body.id],
      disk: [disk.body.id],
      preset: ['cpu-small'],
      preset_name: ['cpu-small'],
      image: ['busybox'],
      action: ['read', 'write', 'manage'],
      op: ['OPEN', 'LISTSTATUS', 'MKDIRS', 'CREATE', 'RENAME', 'GETFILESTATUS', 'DELETE'],
      role: ['reader', 'writer', 'manager', 'user', 'admin'],
    };
    /** The names of one tenant: a request names one, so that its scope exists as a whole. */
    const tenant = (org: string, project: string, user: TestUser) =>
      arbitraries({
        names,
        paths,
        hints: {
          ...common,
          org_name: [org],
          org: [org],
          project_name: [project],
          project: [project],
          name: [user.username, org],
          key: ['dbpass'],
          uri: [`storage://default/${org}/${project}`, `project://default/${org}/${project}`],
        },
      });
    const target = tenant('acme', 'vision', reader);
    // The outsider works in its own organization and tries the target's.
    gens = {
      anonymous: [target],
      outsider: [tenant('elsewhere', 'own', outsider), target],
      reader: [target],
    };
  });
  afterAll(() => s.stop());

  it.each(['anonymous', 'outsider', 'reader'] as const)(
    'no 5xx, no hang and no other-tenant data for an %s caller',
    { timeout: 600_000 },
    async (who) => {
      const caller = callers[who];
      const failures: string[] = [];
      for (const op of operations) {
        const requests = fc.oneof(...gens[who].map((g) => g.requestOf(op)));
        const property = fc.asyncProperty(requests, async (r) => {
          const url = r.url;
          const what = `${op.method} ${url.slice(0, 300)}`;
          let timer: NodeJS.Timeout | undefined;
          const res = await Promise.race([
            s.app.inject({
              method: op.method as 'GET',
              url,
              headers: {
                ...r.headers,
                ...(caller ? caller.headers : {}),
                ...(r.body ? { 'content-type': r.body.type } : {}),
              },
              ...(r.body ? { payload: r.body.body } : {}),
            }),
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new Error(`hung: ${what}`)), HANG_MS);
            }),
          ]).finally(() => clearTimeout(timer));
          expect(res.statusCode, `${what}\n${res.body.slice(0, 500)}`).toBeLessThan(500);
          if (who !== 'reader' && res.statusCode < 300) {
            const leaked = res.body.includes(MARKER) || res.body.includes(MARKER_B64);
            expect(leaked, `${what} leaks: ${res.body.slice(0, 500)}`).toBe(false);
          }
        });
        try {
          await fc.assert(property, { seed: SEED, numRuns: RUNS, endOnFailure: true });
        } catch (e) {
          // Every failing route at once, each with its seed and counterexample to replay.
          const cause = (e as Error).cause as Error | undefined;
          failures.push(
            `${op.method} ${op.path}: ${(e as Error).message.slice(0, 1000)}\n${cause?.message.slice(0, 800)}`,
          );
        }
      }
      expect(failures, `FUZZ_SEED=${SEED}`).toEqual([]);
    },
  );
});
