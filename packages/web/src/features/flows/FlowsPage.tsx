import { lazy } from 'react';
import { Route, Routes } from 'react-router';

import FlowsListPage from './list/FlowsListPage';
import { FLOW_TEXTS } from './texts';
import { NeedsProject } from '../../app/context/project-place';

// React Flow and the layout library are big; only the graph page needs them.
const BakeGraphPage = lazy(() => import('./graph/BakeGraphPage'));
const BakesPage = lazy(() => import('./bakes/BakesPage'));

/**
 * The Flows area: `/flows`, the bakes of a flow `/flows/:projectId/:flowName` and
 * a bake's graph `/flows/:projectId/:flowName/bakes/:bakeId[/:bakeName]`.
 */
export default function FlowsPage() {
  return (
    <NeedsProject title={FLOW_TEXTS.empty} description={FLOW_TEXTS.missingProject}>
      {(place) => (
        <Routes>
          <Route index element={<FlowsListPage place={place} />} />
          <Route path=":projectId/:flowName" element={<BakesPage place={place} />} />
          <Route path=":projectId/:flowName/bakes/:bakeId/:bakeName?" element={<BakeGraphPage />} />
        </Routes>
      )}
    </NeedsProject>
  );
}
