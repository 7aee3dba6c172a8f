import { lazy } from 'react';
import { IconLock } from '@tabler/icons-react';
import type { FeatureEntry } from '../../app/features';

/** The secrets area's entry in the side menu and router (app/features.ts). */
export const SECRETS_FEATURE: FeatureEntry = {
  key: 'secrets',
  label: 'Secrets',
  path: '/secrets',
  icon: IconLock,
  page: lazy(() => import('./SecretsPage')),
};
