import { lazy } from 'react';
import { IconDatabase } from '@tabler/icons-react';
import type { FeatureEntry } from '../../app/features';

/** The disks area's entry in the side menu and router (app/features.ts). */
export const DISKS_FEATURE: FeatureEntry = {
  key: 'disks',
  label: 'Disks',
  path: '/disks',
  icon: IconDatabase,
  page: lazy(() => import('./DisksPage')),
};
