import {
  JOB_STATUS_WS_PROTOCOL,
  type Camel,
  type IngressTicket,
  type JobStatus,
  type JobTopSample,
  type JobWire,
  type ProjectPlace,
} from '@orrery/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, ApiError, BROWSER_MARKER, buildUrl, request } from './client';

/**
 * Jobs (docs/jobs.md): the platform-api job calls plus the monitoring calls
 * (`log`, `top`, `save`) under the cluster's `monitoring_url`.
 */
export type Job = Camel<JobWire>;
export type { JobStatus };

const JOBS = `${API.core}/jobs`;
/** Infinite lists load 50 at a time. */
export const JOBS_PAGE_SIZE = 50;
/** The job page refreshes every 10 s. */
export const JOB_REFRESH_MS = 10_000;

/** A job waits while it is pending or, once preempted, suspended (docs/scheduling.md). */
export const isWaiting = (status: string | undefined | null) =>
  status === 'pending' || status === 'suspended';

export interface JobFilter {
  /** `null` is "all": no status parameter at all. */
  status: JobStatus | null;
  /** Sent as the server's literal, case-insensitive `q`; URL encoding is the only escaping. */
  search: string;
  tags: string[];
}

export const jobKeys = {
  all: ['jobs'] as const,
  list: (p: ProjectPlace, f: JobFilter) =>
    ['jobs', 'list', p.clusterName, p.orgName, p.projectName, f] as const,
  one: (id: string) => ['jobs', 'one', id] as const,
};

/** The list query of one page: newest first, resumed after the last job of the previous page. */
export const listQuery = (p: ProjectPlace, f: JobFilter, cursor?: string) => ({
  cluster_name: p.clusterName,
  org_name: p.orgName,
  project_name: p.projectName,
  status: f.status ?? undefined,
  q: f.search.trim() || undefined,
  tag: f.tags,
  reverse: 1,
  limit: JOBS_PAGE_SIZE,
  cursor,
});

export const listJobs = (p: ProjectPlace, f: JobFilter, cursor?: string, signal?: AbortSignal) =>
  request<{ jobs: JobWire[] }>(JOBS, { query: listQuery(p, f, cursor), signal });

export const getJob = (id: string, signal?: AbortSignal) =>
  request<JobWire>(`${JOBS}/${encodeURIComponent(id)}`, { signal });

export const killJob = (id: string) =>
  request<null>(`${JOBS}/${encodeURIComponent(id)}`, { method: 'DELETE' });

/**
 * Rerun on the server (`POST /jobs/{id}/rerun`, Orrery's): it sends the same request again and
 * holds the rule that only the owner reruns, whatever the client.
 */
export const rerunJob = (job: Job) =>
  request<JobWire>(`${JOBS}/${encodeURIComponent(job.id)}/rerun`, { method: 'POST' });

/**
 * `POST /jobs/{key}/ingress-ticket` (Orrery's): the job's URL with a one-time ticket in it; `key`
 * is a job id or the name key of its address by name, `path` where on its host to land.
 */
export const ingressTicket = (key: string, path?: string) =>
  request<IngressTicket>(`${JOBS}/${encodeURIComponent(key)}/ingress-ticket`, {
    method: 'POST',
    query: path ? { path } : undefined,
  });

/**
 * Open: a new tab at the job's own host (never the console's origin), signed in there by a
 * one-time ticket, so the user's token never leaves the console (docs/jobs.md). The tab is opened
 * while the click is handled, which popup blockers let through, and sent on once the ticket is
 * there; it gets no handle back to the console. A refusal closes it and is thrown, with the
 * server's message.
 */
export async function openJobTab(jobId: string): Promise<void> {
  const tab = window.open('about:blank', '_blank');
  if (tab) tab.opener = null;
  try {
    const { url } = await ingressTicket(jobId);
    if (tab) tab.location.href = url;
    else window.open(url, '_blank', 'noopener');
  } catch (e) {
    tab?.close();
    throw e;
  }
}

/** The job a URL at a job's own host (`<job id>.<ingress domain>`) belongs to. */
export const jobIdOfUrl = (url: string) => new URL(url).hostname.split('.')[0] ?? '';

/** The server's reason, word for word, when a reader would open an interactive job. */
export const openNeedsWrite = (kind: string) =>
  `Opening this ${kind} needs write access to the job`;

export function useJobList(p: ProjectPlace, f: JobFilter) {
  return useInfiniteQuery({
    queryKey: jobKeys.list(p, f),
    queryFn: ({ pageParam, signal }) => listJobs(p, f, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    // A short page is the last one; a full one may have more after its last job.
    getNextPageParam: (last) =>
      last.jobs.length < JOBS_PAGE_SIZE ? undefined : last.jobs[last.jobs.length - 1]?.id,
    refetchOnWindowFocus: true,
    // While a listed job waits or runs its status, place in the queue and credits move: read
    // them again.
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) =>
        p.jobs.some((j) => isWaiting(j.status) || j.status === 'running'),
      )
        ? JOB_REFRESH_MS
        : false,
  });
}

export const useJob = (id: string) =>
  useQuery({
    queryKey: jobKeys.one(id),
    queryFn: ({ signal }) => getJob(id, signal),
    refetchInterval: JOB_REFRESH_MS,
    retry: false,
  });

export function useKillJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: killJob,
    onSuccess: () => client.invalidateQueries({ queryKey: jobKeys.all }),
  });
}

export function useRerunJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: rerunJob,
    onSuccess: () => client.invalidateQueries({ queryKey: jobKeys.all }),
  });
}

/* ---- Monitoring: calls that stream, so they use fetch/WebSocket directly with the token. ---- */

const streamHeaders = (token: string | null | undefined, accept: string) => {
  const headers: Record<string, string> = {
    Accept: accept,
    [BROWSER_MARKER.name]: BROWSER_MARKER.value,
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
};

async function failure(res: Response): Promise<ApiError> {
  const text = await res.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { message: text };
  }
  return new ApiError(res.status, body);
}

export interface LogOptions {
  token: string | null | undefined;
  timestamps: boolean;
  signal: AbortSignal;
  /** `text/plain` (a job's log) unless told: an app's log is NDJSON. */
  accept?: string;
  /** One worker's own log, of a job of several (rank from 0); absent: the merged log. */
  worker?: number;
  /** Each decoded piece of text as it arrives; lines may be split across pieces. */
  onText(text: string): void;
}

/**
 * `GET {monitoring}/{id}/log`: chunked text that follows a running job and ends
 * when it has finished and its log is drained.
 */
export async function streamLog(monitoringUrl: string, id: string, o: LogOptions) {
  const url = buildUrl(`${monitoringUrl}/${encodeURIComponent(id)}/log`, {
    timestamps: o.timestamps ? 1 : undefined,
    worker: o.worker,
  });
  const res = await fetch(url, {
    headers: streamHeaders(o.token, o.accept ?? 'text/plain'),
    credentials: 'include',
    signal: o.signal,
  });
  if (!res.ok) throw await failure(res);
  if (!res.body) {
    o.onText(await res.text());
    return;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    o.onText(decoder.decode(value, { stream: true }));
  }
  const rest = decoder.decode();
  if (rest) o.onText(rest);
}

/** One line of the `save` NDJSON stream (commit, then docker push progress). */
export interface SaveProgress {
  status?: string;
  id?: string;
  progressDetail?: { current?: number; total?: number };
  error?: string;
  errorDetail?: { message?: string };
  aux?: { Tag?: string; Digest?: string; Size?: number };
}

export interface SaveOptions {
  token: string | null | undefined;
  signal?: AbortSignal;
  onProgress(line: SaveProgress): void;
}

/**
 * `POST {monitoring}/{id}/save`: an NDJSON stream; a line with `error` means the
 * save failed even though the answer was 200, so it is thrown.
 */
export async function saveJobImage(
  monitoringUrl: string,
  id: string,
  image: string,
  o: SaveOptions,
) {
  const res = await fetch(`${monitoringUrl}/${encodeURIComponent(id)}/save`, {
    method: 'POST',
    headers: {
      ...streamHeaders(o.token, 'application/x-ndjson'),
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ container: { image } }),
    credentials: 'include',
    signal: o.signal,
  });
  if (!res.ok) throw await failure(res);
  const text = res.body ? null : await res.text();
  let pending = text ?? '';
  const handle = (line: string) => {
    if (!line.trim()) return;
    const progress = JSON.parse(line) as SaveProgress;
    if (progress.error || progress.errorDetail) {
      const message = progress.errorDetail?.message ?? progress.error ?? '';
      throw new ApiError(res.status, { error: 'internal', message });
    }
    o.onProgress(progress);
  };
  if (res.body) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = pending.split(/\r?\n/);
      pending = done ? '' : (lines.pop() ?? '');
      lines.forEach(handle);
      if (done) break;
    }
  }
  pending.split(/\r?\n/).forEach(handle);
}

/** The WebSocket sub-protocol of `top`. */
export const TOP_PROTOCOL = 'top.apolo.us';
/**
 * Browsers cannot set headers on a WebSocket, so the console offers its token as a second
 * sub-protocol, `bearer.<token>` (docs/jobs.md); the server picks `top.apolo.us` in its answer.
 */
export const BEARER_PROTOCOL_PREFIX = 'bearer.';

export const topProtocols = (token: string | null | undefined) =>
  token ? [TOP_PROTOCOL, `${BEARER_PROTOCOL_PREFIX}${token}`] : [TOP_PROTOCOL];

/** `ws(s)://…/{id}/top`, relative monitoring URLs resolved against the console's origin. */
export function topUrl(monitoringUrl: string, id: string, origin = window.location.origin) {
  const url = new URL(`${monitoringUrl}/${encodeURIComponent(id)}/top`, origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

export type TopSample = Camel<JobTopSample>;

/** The sub-protocols of the job's `status_ws`, the token offered as for `top`. */
export const statusProtocols = (token: string | null | undefined) =>
  token ? [JOB_STATUS_WS_PROTOCOL, `${BEARER_PROTOCOL_PREFIX}${token}`] : [JOB_STATUS_WS_PROTOCOL];

/** `ws(s)://…/{id}/status_ws`: the job, pushed at each change of its status (Orrery's). */
export function statusUrl(monitoringUrl: string, id: string, origin = window.location.origin) {
  const url = new URL(`${monitoringUrl}/${encodeURIComponent(id)}/status_ws`, origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** The channel protocol of `exec` (the first byte of each frame its channel). */
export const EXEC_PROTOCOL = 'v2.channels.neu.ro';

/** `ws(s)://…/{id}/exec?cmd=…&worker=N`, the token offered as for `top`. */
export function execUrl(
  monitoringUrl: string,
  id: string,
  q: { cmd: string; worker?: number },
  origin = window.location.origin,
) {
  const url = new URL(`${monitoringUrl}/${encodeURIComponent(id)}/exec`, origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('cmd', q.cmd);
  if (q.worker !== undefined) url.searchParams.set('worker', String(q.worker));
  return url.toString();
}

export interface CommandResult {
  /** stdout and stderr as they came. */
  output: string;
  exitCode: number;
}

/**
 * Runs `cmd` (by `/bin/sh -c`) in the running job, in worker `worker` of a job of several:
 * its output and exit code, or the server's reason for closing the socket.
 */
export function runInJob(
  monitoringUrl: string,
  id: string,
  o: { cmd: string; worker?: number; token: string | null | undefined; failed: string },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const protocols = o.token ? [EXEC_PROTOCOL, `${BEARER_PROTOCOL_PREFIX}${o.token}`] : [];
    const socket = new WebSocket(execUrl(monitoringUrl, id, o), protocols);
    socket.binaryType = 'arraybuffer';
    const decoder = new TextDecoder();
    let output = '';
    let exitCode: number | null = null;
    socket.onmessage = (event: MessageEvent) => {
      if (!(event.data instanceof ArrayBuffer)) return;
      const frame = new Uint8Array(event.data);
      const body = frame.subarray(1);
      if (frame[0] === 1 || frame[0] === 2) output += decoder.decode(body, { stream: true });
      if (frame[0] === 3)
        exitCode = (JSON.parse(decoder.decode(body)) as { exit_code: number }).exit_code;
    };
    socket.onclose = (event: CloseEvent) => {
      if (exitCode !== null) resolve({ output: output + decoder.decode(), exitCode });
      // 1011 carries the server's message; a refused upgrade gives the page none to show.
      else reject(new Error(event.reason || o.failed));
    };
  });
}

/** The monitoring base of a cluster; `monitoring_url` of the configuration, else this origin's. */
export const monitoringBase = (monitoringUrl: string | null | undefined) =>
  (monitoringUrl ?? JOBS).replace(/\/$/, '');
