import {
  instanceUrl,
  type AppInstance,
  type AppState,
  type AppTemplateSummary,
} from '../../api/apps';
import { withIngressToken } from '../../api/jobs';
import { withRule, type Can } from '../../api/permissions';
import { useProjectCan } from '../../api/project-can';
import { useSession } from '../../app/session/session-context';
import { APPS_TEXTS } from './texts';

export const EASY_DEPLOY = 'Easy Deploy';
/** workloads §2/§9: cards show 3 tags and +N; the carousel 3 cards a page. */
export const VISIBLE_TAGS = 3;
export const CAROUSEL_PAGE = 3;
export const SEARCH_DEBOUNCE_MS = 400;
export const FORM_MAX_WIDTH = 720;

/** "Easy Deploy" first, the rest in the server's order. */
export const sortTags = (tags: readonly string[]) => [
  ...tags.filter((t) => t === EASY_DEPLOY),
  ...tags.filter((t) => t !== EASY_DEPLOY),
];

/** workloads §4: healthy green; queued, pending, cancelled, uninstalled yellow; errored red. */
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
 * What Open leads to, signed in: the endpoint with the console's token handed over once, as a
 * job's Open does. The ingress keeps it from the app, whatever the app's auth.
 */
export function useOpenUrl(app: AppInstance): string | null {
  const token = useSession().oidcUser?.access_token ?? null;
  const url = instanceUrl(app);
  return url && withIngressToken(url, token);
}
