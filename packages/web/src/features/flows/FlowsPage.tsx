import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { usePlatformContext } from '../../app/context/platform-context';
import { EmptyState } from '../../ui/EmptyState';
import type { FlowPlace } from './api';
import FlowsListPage from './list/FlowsListPage';
import { FLOW_TEXTS } from './texts';

// React Flow and the layout library are big; only the graph page needs them.
const BakeGraphPage = lazy(() => import('./graph/BakeGraphPage'));
const BakesPage = lazy(() => import('./bakes/BakesPage'));

/**
 * The Flows area (workloads §2): `/flows`, the bakes of a flow `/flows/:projectId/:flowName` and
 * a bake's graph `/flows/:projectId/:flowName/bakes/:bakeId[/:bakeName]`.
 */
export default function FlowsPage() {
  const { names } = usePlatformContext();
  if (!names.org || !names.cluster || !names.project) {
    return <EmptyState title={FLOW_TEXTS.empty} description={FLOW_TEXTS.missingProject} />;
  }
  const place: FlowPlace = {
    orgName: names.org,
    clusterName: names.cluster,
    projectName: names.project,
  };
  return (
    <Routes key={`${place.clusterName}/${place.orgName}/${place.projectName}`}>
      <Route index element={<FlowsListPage place={place} />} />
      <Route path=":projectId/:flowName" element={<BakesPage place={place} />} />
      <Route path=":projectId/:flowName/bakes/:bakeId/:bakeName?" element={<BakeGraphPage />} />
    </Routes>
  );
}
