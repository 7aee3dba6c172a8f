import { lazy } from 'react';
import { IconBucket } from '@tabler/icons-react';
import type { FeatureEntry } from '../../app/features';

/** The buckets area's entry in the side menu and router (app/features.ts). */
export const BUCKETS_FEATURE: FeatureEntry = {
  key: 'buckets',
  label: 'Buckets',
  path: '/buckets',
  icon: IconBucket,
  page: lazy(() => import('./BucketsPage')),
};
