import { lazy } from 'react';
import { IconFolder } from '@tabler/icons-react';
import type { FeatureEntry } from '../../app/features';

/** The files area's entry in the side menu and router (app/features.ts). */
export const FILES_FEATURE: FeatureEntry = {
  key: 'files',
  label: 'Files',
  path: '/files',
  icon: IconFolder,
  page: lazy(() => import('./FilesPage')),
};
