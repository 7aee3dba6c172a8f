import type { AppInstance } from '../../../api/apps';
import { useAppsWriteBlock } from '../rules';
import { APPS_TEXTS } from '../texts';
import { CONFIGURE_TEXTS as T } from './texts';

/** An app being or already uninstalled takes no new revision (the server answers 409). */
export function stateBlock(app: Pick<AppInstance, 'state'>): string | null {
  if (app.state === 'uninstalling') return APPS_TEXTS.why.uninstalling;
  if (app.state === 'uninstalled') return T.uninstalled;
  return null;
}

/** Why this user cannot configure the app now, or null. */
export function useConfigureBlock(app: Pick<AppInstance, 'state'>): string | null {
  return useAppsWriteBlock() ? T.reader : stateBlock(app);
}
