import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, projectMember, tenancy, tenantServer, ndjson } from '../../test/fixtures.js';
import { aBake, aFlow, FLOW, pyNow, createFlow } from '../../test/flows.js';

/**
 * Who may do what on a flow: project readers read, writers bake, cancel and delete; another
 * organization sees nothing (404 on one object, empty lists). Bad input is a 400, never a 500.
 */
describe('flow API: permissions and hostile input', () => {
  let s: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let writer: TestUser;
  let outsider: TestUser;
  let flow: { id: string };
  let bake: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  let attempt: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  let task: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Ids of the other records of the flow, by kind. */
  const made: Record<'file' | 'entry' | 'live' | 'image', string> = {
    file: '',
    entry: '',
    live: '',
    image: '',
  };
  tenantServer((x) => ({ s, owner } = x));
  beforeAll(async () => {
    reader = await projectMember(s, 'reader');
    writer = await projectMember(s, 'writer');
    ({ owner: outsider } = await tenancy(s, 'globex', 'lab'));
    flow = await aFlow(s, owner);
    ({ bake, attempt } = await aBake(s, owner, flow.id, { name: 'nightly' }));
    task = (
      await call(s, 'POST', `${FLOW}/tasks`, owner, {
        attempt_id: attempt.id,
        yaml_id: 'first',
        raw_id: '',
        outputs: null,
        state: null,
        statuses: [{ created_at: pyNow(), status: 'pending' }],
      })
    ).body;
    const post = async (what: string, body: object) =>
      (await call(s, 'POST', `${FLOW}/${what}`, owner, body)).body.id as string;
    made.file = await post('config_files', { bake_id: bake.id, filename: 'a.yml', content: 'x' });
    made.entry = await post('cache_entries', {
      project_id: flow.id,
      batch: 'b',
      task_id: 't',
      key: 'k',
    });
    made.live = await post('live_jobs', { project_id: flow.id, yaml_id: 'serve' });
    made.image = await post('bake_images', { bake_id: bake.id, ref: 'image:demo' });
  });

  const reads = () => [
    `projects/${flow.id}`,
    `projects/by_name?name=demo_flow&cluster=default&project_name=vision&org_name=acme`,
    `bakes/${bake.id}?fetch_last_attempt=1`,
    `bakes/by_name?project_id=${flow.id}&name=nightly`,
    `attempts/${attempt.id}`,
    `attempts/by_number?bake_id=${bake.id}&number=-1`,
    `tasks/${task.id}`,
    `tasks/by_yaml_id?attempt_id=${attempt.id}&yaml_id=first`,
    `config_files/${made.file}`,
    `cache_entries/${made.entry}`,
    `cache_entries/by_key?project_id=${flow.id}&batch=b&task_id=t&key=k`,
    `live_jobs/${made.live}`,
    `live_jobs/by_yaml_id?project_id=${flow.id}&yaml_id=serve`,
    `bake_images/${made.image}`,
    `bake_images/by_ref?bake_id=${bake.id}&ref=image:demo`,
  ];
  const lists = () => [
    `projects`,
    `bakes?project_id=${flow.id}&fetch_last_attempt=1`,
    `attempts?bake_id=${bake.id}`,
    `tasks?attempt_id=${attempt.id}`,
    `live_jobs?project_id=${flow.id}`,
    `bake_images?bake_id=${bake.id}`,
  ];

  it("another organization's flow is 404 on every object and absent from every list", async () => {
    for (const r of reads()) {
      expect((await call(s, 'GET', `${FLOW}/${r}`, outsider)).status, r).toBe(404);
      expect((await call(s, 'GET', `${FLOW}/${r}`, reader)).status, r).toBe(200);
    }
    for (const l of lists()) {
      expect((await ndjson(s, `${FLOW}/${l}`, outsider)).body, l).toBe('');
      expect((await call(s, 'GET', `${FLOW}/${l}`, outsider)).body, l).toEqual([]);
      // The project's reader sees what its owner sees.
      const mine = await ndjson(s, `${FLOW}/${l}`, owner);
      expect((await ndjson(s, `${FLOW}/${l}`, reader)).items, l).toEqual(mine.items);
    }
    expect((await ndjson(s, `${FLOW}/tasks?attempt_id=${attempt.id}`, reader)).items).toEqual([
      task,
    ]);
    // Changing it is the same 404: the outsider cannot tell it exists.
    const bakeIt = await call(s, 'POST', `${FLOW}/bakes`, outsider, {
      project_id: flow.id,
      batch: 'x',
      graphs: {},
      meta: { git_info: null },
    });
    expect(bakeIt.status).toBe(404);
    expect((await call(s, 'DELETE', `${FLOW}/projects/${flow.id}`, outsider)).status).toBe(404);
    const intoTheirs = await createFlow(s, outsider, 'spy');
    expect(intoTheirs.status).toBe(404);
    expect((await call(s, 'GET', `${FLOW}/projects`, outsider)).body).toEqual([]);
    expect((await call(s, 'GET', `${FLOW}/projects`, null)).status).toBe(401);
  });

  it('a reader reads but cannot create, replace, bake, cancel or delete: 403', async () => {
    const writes: [method: 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, body?: unknown][] = [
      [
        'POST',
        'projects',
        { name: 'mine', project_name: 'vision', cluster: 'default', org_name: 'acme' },
      ],
      ['POST', 'bakes', { project_id: flow.id, batch: 'x', graphs: {}, meta: { git_info: null } }],
      ['POST', 'config_files', { bake_id: bake.id, filename: 'a.yml', content: '' }],
      ['POST', 'attempts', { ...attempt, number: 2 }],
      ['PUT', 'attempts/replace', { ...attempt, result: 'cancelled' }],
      ['POST', 'tasks', { ...task, yaml_id: 'left' }],
      ['PUT', 'tasks/replace', { ...task, outputs: { a: 'b' } }],
      ['POST', 'cache_entries', { project_id: flow.id, batch: 'b', task_id: 't', key: 'k' }],
      ['DELETE', `cache_entries?project_id=${flow.id}`],
      ['POST', 'live_jobs', { project_id: flow.id, yaml_id: 'j' }],
      ['PUT', 'live_jobs/replace', { project_id: flow.id, yaml_id: 'j' }],
      ['POST', 'bake_images', { bake_id: bake.id, ref: 'image:x' }],
      ['PATCH', `bake_images/${made.image}`, { status: 'building' }],
      ['DELETE', `projects/${flow.id}`],
    ];
    for (const [method, url, body] of writes)
      expect((await call(s, method, `${FLOW}/${url}`, reader, body)).status, url).toBe(403);
    expect((await call(s, 'GET', `${FLOW}/attempts/${attempt.id}`, reader)).body.result).toBe(
      'pending',
    );
    // A writer of the project bakes and cancels.
    const { attempt: theirs } = await aBake(s, writer, flow.id);
    const cancelled = await call(s, 'PUT', `${FLOW}/attempts/replace`, writer, {
      ...theirs,
      result: 'cancelled',
    });
    expect(cancelled.body.result).toBe('cancelled');
  });

  it('answers 400 with the error shape, or 404, to bad ids, huge strings and wrong types', async () => {
    const huge = 'x'.repeat(5000);
    const notFound = [
      `projects/not-a-project-id`,
      `bakes/projects-${flow.id}`,
      `attempts/${bake.id}`,
      `tasks/${attempt.id}`,
      `config_files/task-1`,
      `cache_entries/bake-1`,
      `bake_images/%00`,
      `live_jobs/${'y'.repeat(90)}`,
    ];
    for (const r of notFound) {
      const res = await call(s, 'GET', `${FLOW}/${r}`, owner);
      expect([400, 404], r).toContain(res.status);
      expect(res.body.error, r).toMatch(/not_found|validation/);
    }
    const bad: [
      method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
      url: string,
      body?: unknown,
    ][] = [
      ['GET', `bakes`],
      ['GET', `bakes?project_id=${huge}`],
      ['GET', `bakes?project_id=${flow.id}&since=yesterday`],
      ['GET', `bakes?project_id=${flow.id}&reverse=maybe`],
      ['GET', `attempts/by_number?bake_id=${bake.id}&number=first`],
      ['GET', `attempts/by_number?bake_id=${bake.id}&number=0`],
      ['GET', `attempts/by_number?bake_id=${bake.id}&number=99999999999`],
      ['GET', `cache_entries/by_key?project_id=${flow.id}&batch=b&task_id=t&key=${huge}`],
      ['POST', 'projects', { name: 'f', project_name: huge, cluster: 'default' }],
      ['POST', 'projects', { name: 12, project_name: 'vision', cluster: 'default' }],
      ['POST', 'bakes', { project_id: flow.id, batch: 'x', graphs: { '': { a: 'b' } } }],
      ['POST', 'bakes', { project_id: [flow.id], batch: 'x', graphs: {} }],
      ['POST', 'bakes', [1, 2]],
      ['POST', 'attempts', { ...attempt, result: 'exploded' }],
      ['POST', 'attempts', { ...attempt, number: 2 ** 40 }],
      ['PUT', 'tasks/replace', { ...task, statuses: [{ created_at: 'noon', status: 'running' }] }],
      ['PUT', 'tasks/replace', { ...task, statuses: [] }],
      ['POST', 'tasks', { ...task, outputs: { a: 1 } }],
      ['POST', 'cache_entries', { project_id: flow.id, batch: 'b', task_id: 't', key: huge }],
      ['POST', 'bake_images', { bake_id: bake.id, ref: huge }],
      ['POST', 'live_jobs', { project_id: flow.id, yaml_id: 'j', tags: 'a' }],
      ['DELETE', 'cache_entries'],
    ];
    for (const [method, url, body] of bad) {
      const res = await call(s, method, `${FLOW}/${url}`, owner, body);
      expect(res.status, `${method} ${url.slice(0, 80)}`).toBe(400);
      expect(res.body, url.slice(0, 80)).toMatchObject({
        error: 'validation',
        message: expect.any(String),
      });
    }
  });

  it('answers 400, not 500, to an administrator naming a place with a name too long to index', async () => {
    const admin = await s.user({ systemRole: 'admin' });
    const res = await createFlow(s, admin, 'f'.repeat(300));
    expect(res.status).toBe(400);
    // Within the schema's length in characters, beyond what an index row holds in bytes.
    const wide = '€'.repeat(1000);
    const tooWide: [method: 'POST' | 'PUT', url: string, body: unknown][] = [
      ['POST', 'projects', { name: 'f', project_name: '€'.repeat(250), cluster: 'default' }],
      ['POST', 'tasks', { ...task, yaml_id: wide }],
      ['PUT', 'tasks/replace', { ...task, yaml_id: wide }],
      ['POST', 'bake_images', { bake_id: bake.id, ref: wide }],
      ['POST', 'cache_entries', { project_id: flow.id, batch: wide, task_id: 't', key: 'k' }],
    ];
    for (const [method, url, body] of tooWide)
      expect((await call(s, method, `${FLOW}/${url}`, admin, body)).status, url).toBe(400);
    const clash = await createFlow(s, admin, 'demo_flow');
    expect(clash.status).toBe(409);
  });
});
