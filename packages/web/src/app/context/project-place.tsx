import { Fragment, type ReactNode } from 'react';
import { placeKey, type ProjectPlace } from '@orrery/contract';
import { EmptyState } from '../../ui/EmptyState';
import { usePlatformContext } from './platform-context';

/** The current project as the place project-scoped calls name, or null while none is chosen. */
export function useProjectPlace(): ProjectPlace | null {
  const { names } = usePlatformContext();
  if (!names.cluster || !names.org || !names.project) return null;
  return { clusterName: names.cluster, orgName: names.org, projectName: names.project };
}

/**
 * A project area's page: its empty state until a project is chosen, then the page for that
 * project, started afresh (its state dropped) when another project is chosen.
 */
export function NeedsProject(props: {
  title: string;
  description: string;
  children: (place: ProjectPlace) => ReactNode;
}) {
  const place = useProjectPlace();
  if (!place) return <EmptyState title={props.title} description={props.description} />;
  return <Fragment key={placeKey(place)}>{props.children(place)}</Fragment>;
}
