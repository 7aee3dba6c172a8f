import { expect } from 'vitest';
import type { TestServer, TestUser } from './harness.js';
import { call } from './fixtures.js';

/** Flow API calls as the `apolo-flow` client makes them, for the flows module's tests. */
export const FLOW = '/api/v1/flow';

/** A status item as the client writes one: Python's `datetime.now(timezone.utc).isoformat()`. */
export const pyNow = () => new Date().toISOString().replace('Z', '000+00:00');

/** Python's `datetime.fromisoformat` on every supported version: an offset, never `Z`. */
export const expectWireTime = (t: string) => {
  expect(t).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
  expect(Number.isNaN(new Date(t).getTime())).toBe(false);
};

/** Creates a flow of a name in a project of `acme`, as the client does on its first bake. */
export const createFlow = (s: TestServer, who: TestUser, name = 'demo_flow', project = 'vision') =>
  call(s, 'POST', `${FLOW}/projects`, who, {
    name,
    project_name: project,
    cluster: 'default',
    org_name: 'acme',
  });

/** The tenancy() project's flow of a name, created (201) as the client does on its first bake. */
export async function aFlow(s: TestServer, who: TestUser, name = 'demo_flow', project = 'vision') {
  const r = await createFlow(s, who, name, project);
  expect(r.status).toBe(201);
  return r.body as { id: string; name: string };
}

/** The three-task graph of the wire reference's minimal batch flow. */
export const THREE_TASKS = { '': { first: [], left: ['first'], right: ['first'] } };

/** A bake with its first attempt (pending), as `apolo-flow bake` records them. */
export async function aBake(
  s: TestServer,
  who: TestUser,
  projectId: string,
  extra: Record<string, unknown> = {},
) {
  const bake = await call(s, 'POST', `${FLOW}/bakes`, who, {
    project_id: projectId,
    batch: 'three',
    graphs: THREE_TASKS,
    params: { greeting: 'hello' },
    name: null,
    tags: [],
    meta: { git_info: null },
    ...extra,
  });
  expect(bake.status).toBe(201);
  const attempt = await call(s, 'POST', `${FLOW}/attempts`, who, {
    bake_id: bake.body.id,
    number: 1,
    executor_id: null,
    result: 'pending',
    configs_meta: {
      workspace: '/home/me/demo',
      flow_config_id: 'config-file-x',
      project_config_id: null,
      action_config_ids: {},
    },
  });
  expect(attempt.status).toBe(201);
  return { bake: bake.body, attempt: attempt.body };
}
