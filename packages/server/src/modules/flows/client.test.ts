import { createHash } from 'node:crypto';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import type { AttemptWire } from '@orrery/contract';
import type { TestServer, TestUser } from '../../test/harness.js';
import { call, JOB_SCOPE, processServer, ndjson } from '../../test/fixtures.js';
import { FLOW, pyNow, THREE_TASKS } from '../../test/flows.js';

/**
 * STAND-IN for the official `apolo-flow` client, for machines without it (the real client runs in
 * clients/apolo-flow.test.ts where it is installed): this test replays, in order, the calls its
 * `bake --local-executor` makes for a 3-task flow, with real jobs on the process runtime, then a second identical bake
 * that finds every cache entry, then the client's `inspect` and `cancel`.
 */

/** The tasks of `.apolo/three.yml`, their commands evaluated as the client evaluates them. */
const TASKS: Record<string, (outputs: Record<string, Record<string, string>>) => string> = {
  first: () => 'sh -c "echo ::set-output name=word::hello; echo ::save-state name=n::1"',
  left: (o) => `sh -c "echo left got ${o.first!.word}"`,
  right: (o) => `sh -c "echo right got ${o.first!.word}"`,
};
const NEEDS = THREE_TASKS[''] as Record<string, string[]>;

/** What the client reads in a finished job's log: `::set-output` and `::save-state` lines. */
function commandsOf(log: string) {
  const outputs: Record<string, string> = {};
  const state: Record<string, string> = {};
  for (const m of log.matchAll(/^::(set-output|save-state) name=(\w+)::(.*)$/gm))
    (m[1] === 'set-output' ? outputs : state)[m[2]!] = m[3]!;
  return { outputs, state };
}

describe('stand-in for the official apolo-flow client: bake --local-executor, replayed', () => {
  let s: TestServer;
  let owner: TestUser;
  processServer((started) => ({ s, owner } = started));

  /** Every request the replayed client makes, for the count the reference gives (about 64). */
  let requests = 0;
  const api = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
    requests += 1;
    return call(s, method, url, owner, body);
  };
  const list = async (url: string) => {
    requests += 1;
    const r = await ndjson(s, url, owner);
    expect(r.status).toBe(200);
    return r.items;
  };
  const logOf = (jobId: string) =>
    new Promise<string>((resolve, reject) => {
      requests += 1;
      const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/v1/jobs/${jobId}/log_ws`, {
        headers: owner.headers,
      });
      const chunks: Buffer[] = [];
      ws.on('message', (d: Buffer) => chunks.push(d));
      ws.on('close', () => resolve(Buffer.concat(chunks).toString()));
      ws.on('error', reject);
    });
  const nap = () => new Promise((r) => setTimeout(r, 100));
  const status = (value: string) => ({ created_at: pyNow(), status: value });

  /** Steps 1 and 2: the flow (made on first use), the bake, its two config files, attempt 1. */
  async function startBake() {
    const q = new URLSearchParams({
      name: 'demo_flow',
      cluster: 'default',
      owner: owner.username,
      project_name: 'vision',
      org_name: 'acme',
    });
    let flow = await api('GET', `${FLOW}/projects/by_name?${q}`);
    if (flow.status === 404) {
      const config = await api('GET', '/api/v1/config');
      expect(config.body.projects).toContainEqual(
        expect.objectContaining({ name: 'vision', org_name: 'acme', cluster_name: 'default' }),
      );
      flow = await api('POST', `${FLOW}/projects`, {
        name: 'demo_flow',
        project_name: 'vision',
        cluster: 'default',
        org_name: 'acme',
      });
      expect(flow.status).toBe(201);
    }
    const bake = await api('POST', `${FLOW}/bakes`, {
      project_id: flow.body.id,
      batch: 'three',
      graphs: THREE_TASKS,
      params: { greeting: 'hello' },
      name: null,
      tags: [],
      meta: { git_info: null },
    });
    expect(bake.status).toBe(201);
    const files = [];
    for (const [filename, content] of [
      ['project.yml', 'id: demo_flow\n'],
      ['three.yml', 'kind: batch\n'],
    ]) {
      const f = await api('POST', `${FLOW}/config_files`, {
        bake_id: bake.body.id,
        filename,
        content,
      });
      expect(f.status).toBe(201);
      files.push(f.body);
    }
    const attempt = await api('POST', `${FLOW}/attempts`, {
      bake_id: bake.body.id,
      number: 1,
      executor_id: null,
      result: 'pending',
      configs_meta: {
        workspace: '/home/me/demo',
        flow_config_id: files[1].id,
        project_config_id: files[0].id,
        action_config_ids: {},
      },
    });
    expect(attempt.status).toBe(201);
    return { flow: flow.body, bake: bake.body, attempt: attempt.body };
  }

  /** Step 3: the executor loads the bake, twice (local actions, then the main pass). */
  async function loadBake(bakeId: string) {
    let attempt;
    for (let pass = 0; pass < 2; pass++) {
      const bake = (await api('GET', `${FLOW}/bakes/${bakeId}?fetch_last_attempt=1`)).body;
      expect(await list(`${FLOW}/bake_images?bake_id=${bakeId}`)).toEqual([]);
      const meta = bake.last_attempt.configs_meta;
      for (const id of [meta.project_config_id, meta.flow_config_id])
        expect((await api('GET', `${FLOW}/config_files/${id}`)).status).toBe(200);
      expect(await list(`${FLOW}/tasks?attempt_id=${bake.last_attempt.id}`)).toEqual([]);
      attempt = (await api('GET', `${FLOW}/attempts/${bake.last_attempt.id}`)).body;
      attempt = (
        await api('PUT', `${FLOW}/attempts/replace`, {
          ...attempt,
          result: 'running',
          executor_id: null,
        })
      ).body;
      expect(attempt.result).toBe('running');
    }
    return attempt;
  }

  /**
   * Steps 4 to 6: ready tasks looked up in the cache, run as jobs when not cached, polled until
   * done, their logs read and their outputs recorded; the attempt's final result.
   */
  async function execute(flowId: string, bakeId: string, attempt: AttemptWire) {
    const outputs: Record<string, Record<string, string>> = {};
    const tasks: Record<string, { id: string; key: string; job?: string; status: string }> = {};
    const started: string[] = [];
    const settled = () =>
      Object.keys(tasks).length === Object.keys(NEEDS).length &&
      Object.values(tasks).every((t) => t.status === 'succeeded' || t.status === 'cached');
    while (!settled()) {
      for (const id of Object.keys(NEEDS)) {
        if (tasks[id] || !NEEDS[id]!.every((n) => outputs[n])) continue;
        const command = TASKS[id]!(outputs);
        const key = createHash('sha256').update(JSON.stringify({ id, command })).digest('hex');
        const cacheQ = new URLSearchParams({
          project_id: flowId,
          batch: 'three',
          task_id: id,
          key,
        });
        const cached = await api('GET', `${FLOW}/cache_entries/by_key?${cacheQ}`);
        if (cached.status === 200) {
          const t = await api('POST', `${FLOW}/tasks`, {
            attempt_id: attempt.id,
            yaml_id: id,
            raw_id: cached.body.raw_id,
            outputs: cached.body.outputs,
            state: cached.body.state,
            statuses: [status('cached')],
          });
          expect(t.status).toBe(201);
          tasks[id] = { id: t.body.id, key, status: 'cached' };
          outputs[id] = cached.body.outputs;
          continue;
        }
        expect(cached.status).toBe(404);
        const job = await api('POST', '/api/v1/jobs?from_preset', {
          ...JOB_SCOPE,
          pass_config: true,
          preset_name: 'cpu-small',
          image: 'busybox:latest',
          command,
          resources: { shm: true },
          tags: ['flow:three', `task:${id}`, 'project:demo-flow', `bake_id:${bakeId}`],
        });
        expect(job.status).toBe(202);
        started.push(job.body.id);
        const t = await api('POST', `${FLOW}/tasks`, {
          attempt_id: attempt.id,
          yaml_id: id,
          raw_id: job.body.id,
          outputs: null,
          state: null,
          statuses: [status('pending')],
        });
        expect(t.status).toBe(201);
        tasks[id] = { id: t.body.id, key, job: job.body.id, status: 'pending' };
      }
      await nap();
      // Once a second in the client: the jobs, the bake images and the attempt.
      expect(await list(`${FLOW}/bake_images?bake_id=${bakeId}`)).toEqual([]);
      expect((await api('GET', `${FLOW}/attempts/${attempt.id}`)).body.result).toBe('running');
      for (const [id, t] of Object.entries(tasks)) {
        if (!t.job || t.status === 'succeeded') continue;
        const job = (await api('GET', `/api/v1/jobs/${t.job}`)).body;
        const now =
          job.status === 'pending' ? 'pending' : job.history.finished_at ? job.status : 'running';
        if (now === t.status) continue;
        if (now !== 'pending') expect(job.history.started_at).toBeTruthy();
        const record = (await api('GET', `${FLOW}/tasks/${t.id}`)).body;
        let found = {
          outputs: null as Record<string, string> | null,
          state: null as Record<string, string> | null,
        };
        if (job.history.finished_at) {
          expect(job.status).toBe('succeeded');
          found = commandsOf(await logOf(t.job));
        }
        const replaced = await api('PUT', `${FLOW}/tasks/replace`, {
          ...record,
          ...found,
          statuses: [...record.statuses, status(now)],
        });
        expect(replaced.status).toBe(200);
        t.status = now;
        if (now === 'succeeded') {
          outputs[id] = found.outputs!;
          const entry = await api('POST', `${FLOW}/cache_entries`, {
            project_id: flowId,
            batch: 'three',
            task_id: id,
            key: t.key,
            outputs: found.outputs,
            state: found.state,
            raw_id: t.job,
          });
          expect(entry.status).toBe(201);
        }
      }
    }
    const done = await api('PUT', `${FLOW}/attempts/replace`, { ...attempt, result: 'succeeded' });
    expect(done.body).toMatchObject({
      id: attempt.id,
      created_at: attempt.created_at,
      result: 'succeeded',
    });
    return { started, outputs };
  }

  it('runs the 3-task flow: real jobs with the client tags, outputs through needs, cache entries', async () => {
    const { flow, bake } = await startBake();
    const attempt = await loadBake(bake.id);
    const { started, outputs } = await execute(flow.id, bake.id, attempt);
    expect(started).toHaveLength(3);
    expect(outputs.first).toEqual({ word: 'hello' });

    const tasks = await list(`${FLOW}/tasks?attempt_id=${attempt.id}`);
    expect(tasks.map((t) => [t.yaml_id, t.statuses.at(-1).status])).toEqual([
      ['first', 'succeeded'],
      ['left', 'succeeded'],
      ['right', 'succeeded'],
    ]);
    expect(tasks[0]).toMatchObject({ outputs: { word: 'hello' }, state: { n: '1' } });
    const bakes = await list(`${FLOW}/bakes?project_id=${flow.id}&fetch_last_attempt=1`);
    expect(bakes.map((b) => b.last_attempt.result)).toEqual(['succeeded']);
    // What the client's log reader saw came from the jobs themselves.
    const left = tasks[1]!.raw_id as string;
    expect(await logOf(left)).toBe('left got hello\n');

    // The jobs list ANDs several tags, and finds a flow's jobs by its name.
    const jobs = async (q: string) =>
      ((await call(s, 'GET', `/api/v1/jobs?${q}`, owner)).body.jobs as { id: string }[]).map(
        (j) => j.id,
      );
    expect(await jobs('tag=flow:three&tag=task:left')).toEqual([left]);
    expect(await jobs('tag=flow:three&tag=task:nope')).toEqual([]);
    expect((await jobs('flow_name=demo_flow')).sort()).toEqual([...started].sort());
    expect(await jobs('flow_name=demo_flow&tag=task:right')).toEqual([tasks[2]!.raw_id]);
    expect(await jobs('flow_name=other_flow')).toEqual([]);
    console.log(`bake --local-executor replay: ${requests} requests for 3 tasks`);
  });

  it('a second identical bake finds every cache entry: all cached, no job', async () => {
    const before = (await call(s, 'GET', '/api/v1/jobs?flow_name=demo_flow', owner)).body.jobs
      .length;
    const { flow, bake } = await startBake();
    expect(flow.name).toBe('demo_flow');
    const attempt = await loadBake(bake.id);
    const { started } = await execute(flow.id, bake.id, attempt);
    expect(started).toEqual([]);
    const tasks = await list(`${FLOW}/tasks?attempt_id=${attempt.id}`);
    expect(tasks.map((t) => t.statuses.map((x: { status: string }) => x.status))).toEqual([
      ['cached'],
      ['cached'],
      ['cached'],
    ]);
    expect(tasks[1]!.outputs).toEqual({});
    expect(
      (await call(s, 'GET', '/api/v1/jobs?flow_name=demo_flow', owner)).body.jobs,
    ).toHaveLength(before);

    // `inspect BAKE` (by id: the name lookup misses first).
    expect(
      (await api('GET', `${FLOW}/bakes/by_name?project_id=${flow.id}&name=${bake.id}`)).status,
    ).toBe(404);
    const shown = (await api('GET', `${FLOW}/bakes/${bake.id}?fetch_last_attempt=1`)).body;
    expect(shown.last_attempt).toMatchObject({ id: attempt.id, result: 'succeeded' });
    const last = await api('GET', `${FLOW}/attempts/by_number?bake_id=${bake.id}&number=-1`);
    expect(last.body.id).toBe(attempt.id);
    expect(await list(`${FLOW}/tasks?attempt_id=${attempt.id}`)).toHaveLength(3);
    expect(await list(`${FLOW}/bake_images?bake_id=${bake.id}`)).toEqual([]);
  });

  it('cancel: the attempt turns cancelled, the executor notices it and kills the running job', async () => {
    const { bake } = await startBake();
    const attempt = await loadBake(bake.id);
    const job = await api('POST', '/api/v1/jobs?from_preset', {
      ...JOB_SCOPE,
      preset_name: 'cpu-small',
      image: 'busybox:latest',
      command: 'sleep 120',
      tags: ['flow:three', 'task:first', 'project:demo-flow', `bake_id:${bake.id}`],
    });
    const task = await api('POST', `${FLOW}/tasks`, {
      attempt_id: attempt.id,
      yaml_id: 'first',
      raw_id: job.body.id,
      outputs: null,
      state: null,
      statuses: [status('pending')],
    });
    // `apolo-flow cancel BAKE`, from another terminal.
    const last = (await api('GET', `${FLOW}/attempts/by_number?bake_id=${bake.id}&number=-1`)).body;
    const cancelled = await api('PUT', `${FLOW}/attempts/replace`, {
      ...last,
      result: 'cancelled',
    });
    expect(cancelled.body.result).toBe('cancelled');
    // The executor's next poll of its attempt.
    expect((await api('GET', `${FLOW}/attempts/${attempt.id}`)).body.result).toBe('cancelled');
    expect((await api('DELETE', `/api/v1/jobs/${job.body.id}`)).status).toBe(204);
    await api('PUT', `${FLOW}/tasks/replace`, {
      ...task.body,
      statuses: [...task.body.statuses, status('cancelled')],
    });
    let killed;
    for (let i = 0; i < 100; i++) {
      killed = (await api('GET', `/api/v1/jobs/${job.body.id}`)).body;
      if (killed.history.finished_at) break;
      await nap();
    }
    expect(killed.status).toBe('cancelled');
    const bakes = await list(
      `${FLOW}/bakes?project_id=${bake.project_id}&fetch_last_attempt=1&reverse=1`,
    );
    expect(bakes[0]).toMatchObject({ id: bake.id, last_attempt: { result: 'cancelled' } });
  });
});
