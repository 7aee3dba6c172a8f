import { lazy } from 'react';
import { IconApps } from '@tabler/icons-react';
import type { FeatureEntry } from '../../app/features';

/** The apps area's entry in the side menu and router (app/features.ts), first in the menu. */
export const APPS_FEATURE: FeatureEntry = {
  key: 'apps',
  label: 'Apps',
  path: '/apps',
  icon: IconApps,
  page: lazy(() => import('./AppsPage')),
};
