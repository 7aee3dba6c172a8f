import {
  Attempt,
  Bake,
  FlowProject,
  Task,
  type AttemptWire,
  type BakeWire,
  type TaskStatus,
  type TaskWire,
} from '@orrery/contract';
import { Route, Routes } from 'react-router';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import FlowsPage from './FlowsPage';

/**
 * Wire objects for the console's tests, parsed by the contract like the server's answers. The
 * tests answer the flow API with these through a fetch stand-in (test/fetch.ts), since the
 * server's flow routes are built alongside this console.
 */
export const FLOW_ID = 'flow-1c0ffee0-aaaa-4bbb-8ccc-000000000001';
export const BAKE_ID = 'bake-2c0ffee0-aaaa-4bbb-8ccc-000000000002';
export const ATTEMPT_ID = 'attempt-3c0ffee0-aaaa-4bbb-8ccc-000000000003';
export const FLOWS_URL = '/api/v1/flow/projects?cluster=default&org_name=acme&project_name=vision';
export const BAKES_URL = `/api/v1/flow/bakes?project_id=${FLOW_ID}&fetch_last_attempt=1&reverse=true`;
export const BAKE_URL = `/api/v1/flow/bakes/${BAKE_ID}?fetch_last_attempt=1`;
export const TASKS_URL = `/api/v1/flow/tasks?attempt_id=${ATTEMPT_ID}`;
const T0 = '2026-11-24T16:35:30.123456+00:00';

export const flowWire = (name = 'demo_flow', id = FLOW_ID) =>
  FlowProject.parse({
    id,
    name,
    owner: 'alice',
    cluster: 'default',
    org_name: 'acme',
    project_name: 'vision',
  });

export const attemptWire = (result: TaskStatus, over: Partial<AttemptWire> = {}) =>
  Attempt.parse({
    id: ATTEMPT_ID,
    bake_id: BAKE_ID,
    number: 1,
    created_at: T0,
    result,
    configs_meta: {
      workspace: 'orrery',
      flow_config_id: 'cfg-1',
      project_config_id: 'cfg-2',
      action_config_ids: {},
    },
    executor_id: 'orrery-engine',
    ...over,
  });

export const DIAMOND = {
  '': { first: [], left: ['first'], right: ['first'], last: ['left', 'right'] },
};

export const bakeWire = (result: TaskStatus | null, over: Partial<BakeWire> = {}): BakeWire =>
  Bake.parse({
    id: BAKE_ID,
    project_id: FLOW_ID,
    name: null,
    batch: 'diamond',
    tags: ['team:vision'],
    created_at: T0,
    graphs: DIAMOND,
    params: {},
    meta: { git_info: null },
    last_attempt: result ? attemptWire(result, { bake_id: over.id ?? BAKE_ID }) : null,
    ...over,
  });

export const taskWire = (yamlId: string, statuses: TaskStatus[], over: Partial<TaskWire> = {}) =>
  Task.parse({
    id: `task-${yamlId}`,
    yaml_id: yamlId,
    attempt_id: ATTEMPT_ID,
    raw_id: null,
    outputs: null,
    state: null,
    statuses: statuses.map((status, i) => ({
      status,
      created_at: `2026-11-24T16:35:${String(30 + i).padStart(2, '0')}+00:00`,
    })),
    ...over,
  });

/** The Flows area at `route` (under `/flows`) in project `project` of the test world. */
export function renderFlows(route = '', project = 'vision') {
  const { user, sessionConfig } = world();
  const [path, query = ''] = route.split('?');
  return renderSignedIn(
    <Routes>
      <Route path="/flows/*" element={<FlowsPage />} />
      <Route path="/jobs" element={<div>jobs page</div>} />
    </Routes>,
    {
      user,
      sessionConfig,
      route: `/flows${path}?org=acme&cluster=default&project=${project}${query ? `&${query}` : ''}`,
    },
  );
}
