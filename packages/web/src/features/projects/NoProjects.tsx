import { Button } from '@mantine/core';
import { IconFolderPlus } from '@tabler/icons-react';
import { ContextLink } from '../../app/context/ContextLink';
import { EmptyState } from '../../ui/EmptyState';
import { PROJECT_TEXTS } from './texts';

export function NoProjects({ org, cluster }: { org: string; cluster: string }) {
  return (
    <EmptyState
      icon={<IconFolderPlus size={28} />}
      title={PROJECT_TEXTS.noProjects}
      description={PROJECT_TEXTS.noProjectsHint(org, cluster)}
      action={
        <Button component={ContextLink} to="/new-project">
          {PROJECT_TEXTS.createAction}
        </Button>
      }
    />
  );
}
