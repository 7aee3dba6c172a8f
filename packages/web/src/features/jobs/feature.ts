import { lazy } from 'react';
import { IconBriefcase } from '@tabler/icons-react';
import type { FeatureEntry } from '../../app/features';

/** The jobs area's entry in the side menu and router (app/features.ts). */
export const JOBS_FEATURE: FeatureEntry = {
  key: 'jobs',
  label: 'Jobs',
  path: '/jobs',
  icon: IconBriefcase,
  page: lazy(() => import('./JobsPage')),
};
