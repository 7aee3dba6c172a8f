import { IconArchive } from '@tabler/icons-react';
import { EmptyState } from '../../ui/EmptyState';
import { APPS_TEXTS as T } from './texts';

/** Legacy Apps: apps from before the apps API, which Orrery never had. */
export function LegacyTab() {
  return (
    <EmptyState
      icon={<IconArchive size={24} />}
      title={T.legacy.title}
      description={T.legacy.description}
    />
  );
}
