import {
  appsScopePath,
  type AppInstanceWire,
  type AppLogLineWire,
  type AppState,
  type AppTemplateSummaryWire,
  type AppTemplateVersionWire,
  type AppTemplateWire,
  type APP_STEPS,
  type Camel,
  type InputSchema,
  type ProjectPlace,
} from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, request } from './client';

/** How often the instances list, one instance and its events are refetched. */
export const INSTANCES_REFRESH_MS = 15_000;
export const INSTANCE_REFRESH_MS = 10_000;
export const EVENTS_REFRESH_MS = 10_000;
/** Instances are listed 100 at a time. */
export const INSTANCES_PAGE_SIZE = 100;

export { APP_STATES, type AppState } from '@orrery/contract';

/**
 * The console's model of templates and instances: the server's objects (contract/apps.ts) with
 * Orrery's additions in the shapes the pages read, converted in one place (`templateOf`, `appOf`).
 */
export interface AppTemplateSummary {
  name: string;
  version: string;
  title: string;
  shortDescription: string;
  tags: string[];
  logo?: string | null;
  pubDate?: string | null;
  /** Whether this installation can run the template, and why not. */
  runnable: boolean;
  unavailableReason?: string | null;
}
export interface AppTemplate extends AppTemplateSummary {
  description: string;
  input: InputSchema;
  assets: { type?: string; url: string; title?: string }[];
  externalLinks: { url: string; text?: string; title?: string }[];
}

export type StartupStep = (typeof APP_STEPS)[number];

export interface AppInstance {
  id: string;
  name: string;
  displayName: string;
  templateName: string;
  templateVersion: string;
  projectName: string;
  orgName: string;
  clusterName: string;
  namespace: string;
  state: AppState;
  creator: string;
  createdAt: string;
  updatedAt: string;
  endpoints: (string | { url: string; friendlyName?: string })[];
  /** The instance's main job: Observability and Log follow it. */
  jobId: string | null;
  /** What a user opens (`terminal`, `notebook`, `IDE`): Open then needs write on its job. */
  interactive: string | null;
  /** Why it is errored or degraded (its failed job's reason, its health check's answer). */
  stateMessage: string | null;
  startupStep: StartupStep | null;
  startupStepSince: string | null;
  idleTimeoutMinutes: number | null;
  idleShutdownAt: string | null;
  persistentHome: string | null;
  creditsPerHour: string;
  creditsSoFar: string;
  /** Instances whose inputs refer to this one (integrations). */
  usedBy: { id: string; name: string; displayName?: string | null }[];
}

type SummaryWire = Camel<AppTemplateSummaryWire>;
type TemplateWire = Camel<AppTemplateWire>;
type AppWire = Camel<AppInstanceWire>;

const templateSummaryOf = (t: SummaryWire): AppTemplateSummary => ({
  name: t.name,
  version: t.version,
  title: t.title,
  shortDescription: t.shortDescription,
  tags: t.tags,
  logo: t.logo,
  pubDate: t.pubDate,
  runnable: t.available,
  unavailableReason: t.unavailableReason,
});

const templateOf = (t: TemplateWire): AppTemplate => ({
  ...templateSummaryOf(t),
  description: t.description,
  input: t.input as InputSchema,
  assets: t.assets,
  externalLinks: t.externalUrls.map((l) => ({ url: l.url, text: l.name })),
});

export const appOf = (a: AppWire): AppInstance => ({
  id: a.id,
  name: a.name,
  displayName: a.displayName,
  templateName: a.templateName,
  templateVersion: a.templateVersion,
  projectName: a.projectName,
  orgName: a.orgName,
  clusterName: a.clusterName,
  namespace: a.namespace,
  state: a.state,
  creator: a.creator,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
  endpoints: a.endpoints,
  jobId: a.jobIds[0] ?? null,
  interactive: a.interactive ?? null,
  stateMessage: a.stateMessage ?? null,
  startupStep: a.startup?.step ?? null,
  startupStepSince: a.startup?.since ?? null,
  idleTimeoutMinutes: a.idle?.timeoutMinutes ?? null,
  idleShutdownAt: a.idle ? new Date(Date.now() + a.idle.secondsLeft * 1000).toISOString() : null,
  persistentHome: a.home,
  creditsPerHour: a.creditsPerHour,
  creditsSoFar: a.creditsSoFar,
  usedBy: a.usedBy.map((u) => ({ id: u.id, name: u.displayName, displayName: u.displayName })),
});

interface AppEventWire {
  created_at: string;
  state: string;
  reason: string | null;
  message?: string | null;
}
export type AppEvent = Camel<AppEventWire>;

const seg = encodeURIComponent;
const v1 = (p: ProjectPlace) => appsScopePath(p.clusterName, p.orgName, p.projectName);
const placeQuery = (p: ProjectPlace) => ({
  cluster: p.clusterName,
  org: p.orgName,
  project: p.projectName,
});

export const appsKeys = {
  templates: (p: ProjectPlace) => ['apps', 'templates', p] as const,
  versions: (p: ProjectPlace, name: string) => ['apps', 'versions', p, name] as const,
  template: (p: ProjectPlace, name: string, version: string) =>
    ['apps', 'template', p, name, version] as const,
  instances: (p: ProjectPlace) => ['apps', 'instances', p] as const,
  instance: (id: string) => ['apps', 'instance', id] as const,
};

/** The catalogue's query, shared by the catalogue and the integration field's names. */
export const templatesQuery = (p: ProjectPlace) => ({
  queryKey: appsKeys.templates(p),
  queryFn: async ({ signal }: { signal: AbortSignal }) =>
    (await request<SummaryWire[]>(`${v1(p)}/templates`, { signal })).map(templateSummaryOf),
});

export const useTemplates = (p: ProjectPlace) => useQuery(templatesQuery(p));

/** Versions newest first; the first one is the latest. */
export const useTemplateVersions = (p: ProjectPlace, name: string) =>
  useQuery({
    queryKey: appsKeys.versions(p, name),
    queryFn: ({ signal }) =>
      request<Camel<AppTemplateVersionWire>[]>(`${v1(p)}/templates/${seg(name)}`, { signal }),
  });

/** Waits while `version` is unknown (Explore reads the latest from the versions first). */
export const useAppTemplate = (p: ProjectPlace, name: string, version: string | undefined) =>
  useQuery({
    queryKey: appsKeys.template(p, name, version ?? ''),
    enabled: !!version,
    queryFn: async ({ signal }): Promise<AppTemplate> =>
      templateOf(
        await request<TemplateWire>(`${v1(p)}/templates/${seg(name)}/${seg(version ?? '')}`, {
          signal,
        }),
      ),
  });

/**
 * Every instance of the project but uninstalled ones, which lists hide: pages of
 * 100, read while the server says there are more, as the CLI does.
 */
export const instancesQuery = (p: ProjectPlace) => ({
  queryKey: appsKeys.instances(p),
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const items: AppInstance[] = [];
    for (let page = 1, pages = 1; page <= pages; page++) {
      const answer = await request<{ items: AppWire[]; pages?: number }>(
        `${API.appsV2}/instances`,
        { query: { ...placeQuery(p), page, size: INSTANCES_PAGE_SIZE }, signal },
      );
      items.push(...answer.items.map(appOf));
      pages = answer.pages ?? 1;
    }
    return items.filter((i) => i.state !== 'uninstalled');
  },
  refetchInterval: INSTANCES_REFRESH_MS,
});

export const useInstances = (p: ProjectPlace) => useQuery(instancesQuery(p));

export const useInstance = (id: string) =>
  useQuery({
    queryKey: appsKeys.instance(id),
    queryFn: async ({ signal }) =>
      appOf(await request<AppWire>(`${API.appsV2}/instances/${seg(id)}`, { signal })),
    refetchInterval: INSTANCE_REFRESH_MS,
  });

/**
 * An instance's input or output as the server stored it: its keys are the template's own names,
 * so they are not converted. A 404 means none yet.
 */
export const useInstanceParams = (p: ProjectPlace, id: string, type: 'input' | 'output') =>
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

export const useInstanceEvents = (p: ProjectPlace, id: string) =>
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
export const useInstallApp = (p: ProjectPlace) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: InstallBody) =>
      request<AppWire & { output_params?: { job_id: string | null } }>(`${v1(p)}/instances`, {
        method: 'POST',
        body,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: appsKeys.instances(p) }),
  });
};

/**
 * The current revision's input as given (integration references kept, `restore_ref`): what the
 * Configure page starts from. Read once: a refresh would overwrite what the user is editing.
 */
export const useInstanceInput = (p: ProjectPlace, id: string) =>
  useQuery({
    queryKey: [...appsKeys.instance(id), 'input', 'restored'],
    queryFn: ({ signal }) =>
      request<Record<string, unknown>>(`${v1(p)}/instances/${seg(id)}/input`, {
        query: { restore_ref: 'true' },
        signal,
        keepKeys: true,
      }) as Promise<Record<string, unknown>>,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export interface ConfigureBody {
  displayName?: string;
  /** Only the inputs that may change after install (`x-is-configurable`). */
  input: Record<string, unknown>;
}

/** `PUT v1/instances/{id}`: a new revision with the changed inputs; the instance restarts. */
export const useConfigureApp = (p: ProjectPlace, id: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ConfigureBody) =>
      request<AppWire>(`${v1(p)}/instances/${seg(id)}`, { method: 'PUT', body }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: appsKeys.instances(p) }),
        client.invalidateQueries({ queryKey: appsKeys.instance(id) }),
      ]),
  });
};

export const useUninstallApp = (p: ProjectPlace) => {
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

/** An instance's logs are under the jobs' monitoring path with `jobs` for `apps`. */
export const appsMonitoringBase = (jobsMonitoring: string) =>
  jobsMonitoring.replace(/\/jobs$/, '/apps');

/** One line of `GET {monitoring}/apps/{id}/log`. */
export type AppLogLine = AppLogLineWire;

/**
 * How long the Log tab waits before reading again a log that ended while the app is not final
 * (the server keeps an app's log open while it runs, so this is a dropped connection).
 */
export const APP_LOG_RECONNECT_MS = 3_000;

/** `GET {monitoring}/apps/{id}/containers`: the names the Log tab filters by, while they grow. */
export const useAppContainers = (base: string, id: string, live: boolean) =>
  useQuery({
    queryKey: ['apps', 'containers', base, id] as const,
    queryFn: ({ signal }) =>
      request<string[]>(`${base}/${seg(id)}/containers`, { signal, keepKeys: true }),
    refetchInterval: live ? EVENTS_REFRESH_MS : false,
  });
