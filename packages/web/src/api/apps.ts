import { appsScopePath, type Camel, type InputSchema } from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, request } from './client';

/**
 * The console's calls of the apps API (workloads §7 Apps, apolo-apps-wire.md). The wire's keys are
 * snake_case; optional keys below are Orrery's additions to the App and template objects.
 */
export interface AppsPlace {
  clusterName: string;
  orgName: string;
  projectName: string;
}

/** workloads §4/§9. */
export const INSTANCES_REFRESH_MS = 15_000;
export const INSTANCE_REFRESH_MS = 10_000;
export const EVENTS_REFRESH_MS = 10_000;
/** workloads §9: instances are listed 100 at a time. */
export const INSTANCES_PAGE_SIZE = 100;

export const APP_STATES = [
  'queued',
  'progressing',
  'healthy',
  'degraded',
  'errored',
  'uninstalling',
  'uninstalled',
] as const;
export type AppState = (typeof APP_STATES)[number];

interface TemplateSummaryWire {
  name: string;
  version: string;
  title: string;
  short_description: string;
  tags: string[];
  logo?: string | null;
  pub_date?: string | null;
  /** Whether this installation can run the template, and why not. */
  runnable?: boolean;
  unavailable_reason?: string | null;
}
interface TemplateWire extends TemplateSummaryWire {
  description: string;
  input: InputSchema;
  assets?: { type?: string; url: string; title?: string }[];
  external_links?: { url: string; text?: string; title?: string }[];
}
export type AppTemplateSummary = Camel<TemplateSummaryWire>;
export type AppTemplate = Omit<Camel<TemplateWire>, 'input'> & { input: InputSchema };

export type StartupStep = 'waiting_for_capacity' | 'starting' | 'waiting_for_http';

interface AppWire {
  id: string;
  name: string;
  display_name: string;
  template_name: string;
  template_version: string;
  project_name: string;
  org_name: string;
  cluster_name: string;
  namespace: string;
  state: AppState;
  creator: string;
  created_at: string;
  updated_at: string;
  endpoints: (string | { url: string; friendly_name?: string })[];
  /** The instance's main job: Observability and Log follow it. */
  job_id?: string | null;
  startup_step?: StartupStep | null;
  startup_step_since?: string | null;
  idle_timeout_minutes?: number | null;
  idle_shutdown_at?: string | null;
  persistent_home?: string | null;
  credits_per_hour?: string | number | null;
  credits_so_far?: string | number | null;
  /** Instances whose inputs refer to this one (integrations). */
  used_by?: { id: string; name: string; display_name?: string | null }[];
}
export type AppInstance = Camel<AppWire>;

interface AppEventWire {
  created_at: string;
  state: string;
  reason: string | null;
  message?: string | null;
}
export type AppEvent = Camel<AppEventWire>;

const seg = encodeURIComponent;
const v1 = (p: AppsPlace) => appsScopePath(p.clusterName, p.orgName, p.projectName);
const placeQuery = (p: AppsPlace) => ({
  cluster: p.clusterName,
  org: p.orgName,
  project: p.projectName,
});

export const appsKeys = {
  templates: (p: AppsPlace) => ['apps', 'templates', p] as const,
  versions: (p: AppsPlace, name: string) => ['apps', 'versions', p, name] as const,
  template: (p: AppsPlace, name: string, version: string) =>
    ['apps', 'template', p, name, version] as const,
  instances: (p: AppsPlace) => ['apps', 'instances', p] as const,
  instance: (id: string) => ['apps', 'instance', id] as const,
};

export const useTemplates = (p: AppsPlace) =>
  useQuery({
    queryKey: appsKeys.templates(p),
    queryFn: ({ signal }) => request<TemplateSummaryWire[]>(`${v1(p)}/templates`, { signal }),
  });

/** Versions newest first; the first one is the latest. */
export const useTemplateVersions = (p: AppsPlace, name: string) =>
  useQuery({
    queryKey: appsKeys.versions(p, name),
    queryFn: ({ signal }) =>
      request<Omit<TemplateSummaryWire, 'name'>[]>(`${v1(p)}/templates/${seg(name)}`, { signal }),
  });

/** Waits while `version` is unknown (Explore reads the latest from the versions first). */
export const useAppTemplate = (p: AppsPlace, name: string, version: string | undefined) =>
  useQuery({
    queryKey: appsKeys.template(p, name, version ?? ''),
    enabled: !!version,
    queryFn: async ({ signal }): Promise<AppTemplate> =>
      request<TemplateWire>(`${v1(p)}/templates/${seg(name)}/${seg(version ?? '')}`, {
        signal,
      }) as Promise<AppTemplate>,
  });

/**
 * Every instance of the project but uninstalled ones, which lists hide (workloads §4): pages of
 * 100 (workloads §9), read while the server says there are more, as the CLI does.
 */
export const useInstances = (p: AppsPlace) =>
  useQuery({
    queryKey: appsKeys.instances(p),
    queryFn: async ({ signal }) => {
      const items: AppInstance[] = [];
      for (let page = 1, pages = 1; page <= pages; page++) {
        const answer = await request<{ items: AppWire[]; pages?: number }>(
          `${API.appsV2}/instances`,
          { query: { ...placeQuery(p), page, size: INSTANCES_PAGE_SIZE }, signal },
        );
        items.push(...answer.items);
        pages = answer.pages ?? 1;
      }
      return items.filter((i) => i.state !== 'uninstalled');
    },
    refetchInterval: INSTANCES_REFRESH_MS,
  });

export const useInstance = (id: string) =>
  useQuery({
    queryKey: appsKeys.instance(id),
    queryFn: ({ signal }) => request<AppWire>(`${API.appsV2}/instances/${seg(id)}`, { signal }),
    refetchInterval: INSTANCE_REFRESH_MS,
  });

/**
 * An instance's input or output as the server stored it: its keys are the template's own names,
 * so they are not converted. A 404 means none yet.
 */
export const useInstanceParams = (p: AppsPlace, id: string, type: 'input' | 'output') =>
  useQuery({
    queryKey: [...appsKeys.instance(id), type],
    queryFn: async ({ signal }) => {
      const answer = await request<{ input: Record<string, unknown> }>(
        `${v1(p)}/instances/${seg(id)}/${type}`,
        { signal, keepKeys: true },
      );
      return answer as unknown as Record<string, unknown>;
    },
    refetchInterval: INSTANCE_REFRESH_MS,
  });

export const useInstanceEvents = (p: AppsPlace, id: string) =>
  useQuery({
    queryKey: [...appsKeys.instance(id), 'events'],
    queryFn: ({ signal }) =>
      request<{ items: AppEventWire[] }>(`${v1(p)}/instances/${seg(id)}/events`, { signal }),
    refetchInterval: EVENTS_REFRESH_MS,
  });

export interface InstallBody {
  templateName: string;
  templateVersion: string;
  displayName?: string;
  input: Record<string, unknown>;
}

/** `POST v1/instances`: the new instance, whose id opens its page. */
export const useInstallApp = (p: AppsPlace) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: InstallBody) =>
      request<AppWire & { output_params?: { job_id?: string } }>(`${v1(p)}/instances`, {
        method: 'POST',
        body,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: appsKeys.instances(p) }),
  });
};

export const useUninstallApp = (p: AppsPlace) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request(`${v1(p)}/instances/${seg(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: appsKeys.instances(p) }),
  });
};

/** The URL Open leads to: the first endpoint, whichever form the server gave it. */
export const instanceUrl = (app: AppInstance): string | null => {
  const first = app.endpoints[0];
  if (!first) return null;
  return typeof first === 'string' ? first : first.url;
};
