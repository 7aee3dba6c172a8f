import { lazy, Suspense, type ReactNode } from 'react';
import { Loader, Stack, Tabs, Title } from '@mantine/core';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { useContextLink } from '../../app/context/platform-context';
import { EmptyState } from '../../ui/EmptyState';
import { CatalogueTab } from './catalogue/CatalogueTab';
import { InstalledTab } from './installed/InstalledTab';
import { LegacyTab } from './LegacyTab';
import { useProjectPlace } from '../../app/context/project-place';
import { APPS_TEXTS as T } from './texts';
import './styles';

// The form engine, markdown and the jobs area's viewers load only with the pages that need them.
const ExplorePage = lazy(() => import('./explore/ExplorePage'));
const InstallPage = lazy(() => import('./install/InstallPage'));
const AppDetailsPage = lazy(() => import('./details/AppDetailsPage'));
const ConfigurePage = lazy(() => import('./configure/ConfigurePage'));
const DevSchemaPage = lazy(() => import('./config/DevSchemaPage'));

/**
 * Dev Schema is a tool for template authors (only when not production): it is
 * offered by Vite's dev server (`npm run dev`), never by a built console.
 */
const WITH_DEV_SCHEMA = import.meta.env.DEV;

type TabKey = 'all' | 'installed' | 'legacy' | 'devSchema';
const TAB_PATHS: Record<TabKey, string> = {
  all: '/apps',
  installed: '/apps/installed',
  legacy: '/apps/legacy',
  devSchema: '/apps/dev-schema',
};

/**
 * The Apps area: the tabs All Apps, Installed Apps and Legacy Apps, the
 * template pages under `/apps/{appName}`, an instance's page under `/apps/instances/{id}` and its
 * Configure page under `/apps/instances/{id}/configure`.
 */
export default function AppsPage() {
  const place = useProjectPlace();
  if (!place) return <EmptyState title={T.title} description={T.missingProject} />;
  const key = `${place.clusterName}/${place.orgName}/${place.projectName}`;
  const tab = (name: TabKey, body: ReactNode) => (
    <TabsFrame tab={name} key={key}>
      {body}
    </TabsFrame>
  );
  return (
    <Suspense fallback={<Loader m="md" aria-label={T.loading} />}>
      <Routes>
        <Route index element={tab('all', <CatalogueTab place={place} />)} />
        <Route path="installed" element={tab('installed', <InstalledTab place={place} />)} />
        <Route
          path="installed/:appName"
          element={tab('installed', <InstalledTab place={place} />)}
        />
        <Route path="legacy" element={tab('legacy', <LegacyTab />)} />
        {WITH_DEV_SCHEMA && (
          <Route path="dev-schema" element={tab('devSchema', <DevSchemaPage />)} />
        )}
        <Route path="instances/:instanceId/configure" element={<ConfigurePage place={place} />} />
        <Route path="instances/:instanceId/*" element={<AppDetailsPage place={place} />} />
        <Route path=":appName" element={<ExplorePage place={place} />} />
        <Route path=":appName/install" element={<InstallPage place={place} />} />
        <Route path=":appName/install/:version" element={<InstallPage place={place} />} />
        <Route path=":appName/:version" element={<ExplorePage place={place} />} />
      </Routes>
    </Suspense>
  );
}

function TabsFrame({ tab, children }: { tab: TabKey; children: ReactNode }) {
  const navigate = useNavigate();
  const link = useContextLink();
  const location = useLocation();
  return (
    <Stack gap="md">
      <Title order={2}>{T.title}</Title>
      <Tabs
        value={tab}
        onChange={(v) => {
          const path = TAB_PATHS[(v ?? 'all') as TabKey];
          if (path !== location.pathname) navigate(link(path));
        }}
      >
        <Tabs.List>
          <Tabs.Tab value="all">{T.tabs.all}</Tabs.Tab>
          <Tabs.Tab value="installed">{T.tabs.installed}</Tabs.Tab>
          <Tabs.Tab value="legacy">{T.tabs.legacy}</Tabs.Tab>
          {WITH_DEV_SCHEMA && <Tabs.Tab value="devSchema">{T.tabs.devSchema}</Tabs.Tab>}
        </Tabs.List>
      </Tabs>
      {children}
    </Stack>
  );
}
