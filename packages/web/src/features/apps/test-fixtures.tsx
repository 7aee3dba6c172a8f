import type { AppInstanceWire, AppTemplateSummaryWire, AppTemplateWire } from '@orrery/contract';
import { Route, Routes } from 'react-router';
import { world } from '../../test/fixtures';
import { stubFetch, type CannedResponse } from '../../test/fetch';
import { renderSignedIn } from '../../test/render';
import { worldPermissions } from '../../test/world-permissions';
import { stubWebSocket } from '../jobs/test-fixtures';
import AppsPage from './AppsPage';

/** Wire answers of the apps API (docs/apps.md) for the Apps area's tests. */
export const V1 = '/apis/apps/v1/cluster/default/org/acme/project/vision';
export const V1_READER = '/apis/apps/v1/cluster/default/org/acme/project/nlp';
export const INSTANCES =
  /^\/apis\/apps\/v2\/instances\?cluster=default&org=acme&project=\w+&page=1&size=100$/;
export const INSTANCE_ID = 'b1c2d3e4-0000-4000-8000-000000000001';
export const INSTANCE = `/apis/apps/v2/instances/${INSTANCE_ID}`;

export const templateSummary = (
  name: string,
  over: Partial<AppTemplateSummaryWire> = {},
): AppTemplateSummaryWire => ({
  name,
  version: '1.0.0',
  title: name[0].toUpperCase() + name.slice(1),
  short_description: `${name} in the browser`,
  tags: ['Interactive'],
  logo: null,
  pub_date: '2026-01-01',
  available: true,
  unavailable_reason: null,
  ...over,
});

/** One template version as `GET templates/{name}/{version}` answers it. */
export const templateWire = (
  name: string,
  over: Partial<AppTemplateWire> = {},
): AppTemplateWire => ({
  ...templateSummary(name),
  input: { type: 'object', properties: {} },
  output: {},
  description: `# ${name}`,
  assets: [],
  external_urls: [],
  runtimes: ['process'],
  is_latest: true,
  ...over,
});

export const appWire = (over: Partial<AppInstanceWire> = {}): AppInstanceWire => ({
  id: INSTANCE_ID,
  name: 'shell-7f3a',
  display_name: 'My shell',
  template_name: 'shell',
  template_version: '1.0.0',
  project_name: 'vision',
  org_name: 'acme',
  cluster_name: 'default',
  namespace: 'orrery',
  state: 'healthy',
  creator: 'alice',
  created_at: '2026-01-02T03:04:05.000000+00:00',
  updated_at: '2026-01-02T03:05:05.000000+00:00',
  endpoints: ['https://job-1.jobs.orrery.example/'],
  startup: null,
  idle: null,
  used_by: [],
  job_ids: ['job-1'],
  home: null,
  credits_per_hour: '0.0000',
  credits_so_far: '0.0000',
  ...over,
});

export const instancesPage = (items: unknown[]) => ({ url: INSTANCES, body: { items, pages: 1 } });

/**
 * The Apps area at `route` (without the context query) in project vision, or `project`; the
 * permission check answers as the world's roles do (vision manager, nlp reader).
 */
export function renderApps(route: string, answers: CannedResponse[], project = 'vision') {
  const stub = stubFetch([...answers, worldPermissions()]);
  // The instance page follows its job's status over a WebSocket (`status_ws`).
  const sockets = stubWebSocket();
  const { user, sessionConfig } = world();
  const sep = route.includes('?') ? '&' : '?';
  const view = renderSignedIn(
    <Routes>
      <Route path="/apps/*" element={<AppsPage />} />
    </Routes>,
    { user, sessionConfig, route: `${route}${sep}org=acme&cluster=default&project=${project}` },
  );
  return { ...stub, ...view, sockets };
}
