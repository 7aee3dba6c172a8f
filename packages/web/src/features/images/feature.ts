import { lazy } from 'react';
import { IconBrandDocker } from '@tabler/icons-react';
import type { FeatureEntry } from '../../app/features';

/** The images area's entry in the side menu and router (app/features.ts). */
export const IMAGES_FEATURE: FeatureEntry = {
  key: 'images',
  label: 'Images',
  path: '/images',
  icon: IconBrandDocker,
  page: lazy(() => import('./ImagesPage')),
};
