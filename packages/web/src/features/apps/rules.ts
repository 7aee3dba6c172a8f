import {
  instanceUrl,
  type AppInstance,
  type AppState,
  type AppTemplateSummary,
} from '../../api/apps';
import { jobUri } from '@orrery/contract';
import { jobIdOfUrl, openJobTab, openNeedsWrite } from '../../api/jobs';
import { ALLOWED, useCanOne, withRule, type Can } from '../../api/permissions';
import { useProjectCan } from '../../api/project-can';
import { APPS_TEXTS } from './texts';

export const EASY_DEPLOY = 'Easy Deploy';
/** Cards show 3 tags and +N; the carousel 3 cards a page. */
export const VISIBLE_TAGS = 3;
export const CAROUSEL_PAGE = 3;
export const SEARCH_DEBOUNCE_MS = 400;
export const FORM_MAX_WIDTH = 720;

/** "Easy Deploy" first, the rest in the server's order. */
export const sortTags = (tags: readonly string[]) => [
  ...tags.filter((t) => t === EASY_DEPLOY),
  ...tags.filter((t) => t !== EASY_DEPLOY),
];

/** Healthy green; queued, pending, cancelled, uninstalled yellow; errored red. */
export function stateColor(state: AppState | string): string {
  switch (state) {
    case 'healthy':
    case 'succeeded':
      return 'green';
    case 'queued':
    case 'pending':
    case 'cancelled':
    case 'uninstalled':
      return 'yellow';
    case 'failed':
    case 'errored':
      return 'red';
    default:
      return 'gray';
  }
}

export const appLabel = (app: Pick<AppInstance, 'displayName' | 'name'>) =>
  app.displayName || app.name;

/**
 * Installing, configuring and uninstalling need write on the project
 * (`project://CLUSTER/ORG/PROJECT`), as the apps routes check: the permission engine's answer,
 * shown through `WhyNot`.
 */
export const useAppsWrite = () => useProjectCan('write', 'project');

/** Install: this installation must run the template (its reason first), then the permission. */
export const installCan = (
  write: Can,
  t: Pick<AppTemplateSummary, 'runnable' | 'unavailableReason'>,
): Can =>
  withRule(write, {
    enabled: t.runnable !== false,
    why: t.unavailableReason ?? APPS_TEXTS.somethingWentWrong,
  });

/**
 * Why an action is refused, for a page's notice: null while allowed and while the answer is on
 * its way (a notice that flashes up before the answer would say nothing true).
 */
export const refusal = (can: Can): string | null =>
  can.allowed || can.pending ? null : can.reason;

/** "1 h 05 min", "3 min 20 s": durations shown on the instance page. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(sec).padStart(2, '0')} s`;
  return `${sec} s`;
}

/**
 * Open: whether this user may, and what it does. The app needs a URL; an interactive app (a
 * terminal, a notebook, an IDE) needs write access to its job, as the server checks. The tab
 * goes to the app's own host with a one-time ticket (api/jobs.ts `openJobTab`).
 */
export function useOpenApp(app: AppInstance): { can: Can; open: () => Promise<void> } {
  const url = instanceUrl(app);
  const job = url ? jobIdOfUrl(url) : null;
  const kind = app.interactive;
  const write = useCanOne(
    kind && job
      ? { uri: jobUri(app.clusterName, app.orgName, app.projectName, job), action: 'write' }
      : null,
  );
  const can: Can = !url
    ? { allowed: false, reason: APPS_TEXTS.why.noUrl, pending: false }
    : !kind || write.allowed || write.pending
      ? kind
        ? write
        : ALLOWED
      : { allowed: false, reason: openNeedsWrite(kind), pending: false };
  return { can, open: () => openJobTab(job ?? '') };
}
