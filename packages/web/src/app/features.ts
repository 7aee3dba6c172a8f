import type { ComponentType, LazyExoticComponent } from 'react';
import type { Icon } from '@tabler/icons-react';
import { APPS_FEATURE } from '../features/apps/feature';
import { SECRETS_FEATURE } from '../features/secrets/feature';
import { DISKS_FEATURE } from '../features/disks/feature';
import { IMAGES_FEATURE } from '../features/images/feature';
import { FILES_FEATURE } from '../features/files/feature';
import { BUCKETS_FEATURE } from '../features/buckets/feature';
import { JOBS_FEATURE } from '../features/jobs/feature';
import { FLOWS_FEATURE } from '../features/flows/feature';

export interface FeatureEntry {
  /** Also the area's folder under src/features. */
  key: string;
  label: string;
  path: string;
  icon: Icon;
  page: LazyExoticComponent<ComponentType>;
}

/**
 * The side menu's areas, in menu order (Apps, Files, Buckets, Disks, Images,
 * Secrets, Jobs, Flows). Each area is added here as
 * `{ key, label, path, icon, page: lazy(() => import('../features/<key>/Page')) }`; the menu and
 * the router both read this list, and areas that do not exist yet are not shown.
 */
export const FEATURES: FeatureEntry[] = [
  APPS_FEATURE,
  FILES_FEATURE,
  BUCKETS_FEATURE,
  DISKS_FEATURE,
  IMAGES_FEATURE,
  SECRETS_FEATURE,
  JOBS_FEATURE,
  FLOWS_FEATURE,
];
