import { lazy } from 'react';
import { IconTopologyStar3 } from '@tabler/icons-react';
import type { FeatureEntry } from '../../app/features';

/** The flows area's entry in the side menu and router (app/features.ts). */
export const FLOWS_FEATURE: FeatureEntry = {
  key: 'flows',
  label: 'Flows',
  path: '/flows',
  icon: IconTopologyStar3,
  page: lazy(() => import('./FlowsPage')),
};
