import type { AppInstance } from '../../../api/apps';
import { withRule, type Can } from '../../../api/permissions';
import { useAppsWrite } from '../rules';
import { APPS_TEXTS } from '../texts';
import { CONFIGURE_TEXTS as T } from './texts';

/** An app being or already uninstalled takes no new revision (the server answers 409). */
export function stateBlock(app: Pick<AppInstance, 'state'>): string | null {
  if (app.state === 'uninstalling') return APPS_TEXTS.why.uninstalling;
  if (app.state === 'uninstalled') return T.uninstalled;
  return null;
}

/** Whether this user may configure the app now: its state's rule first, then write access. */
export function useConfigureCan(app: Pick<AppInstance, 'state'>): Can {
  const block = stateBlock(app);
  return withRule(useAppsWrite(), { enabled: !block, why: block });
}
