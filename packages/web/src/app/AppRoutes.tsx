import { lazy } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router';
import { PlatformContextProvider } from './context/PlatformContextProvider';
import { FEATURES } from './features';
import { LoginHintDialog } from './layout/LoginHintDialog';
import { useAccount } from './session/account';
// The layout and home page ship with this chunk: every signed-in page load shows them.
import MainLayout from './layout/MainLayout';
import HomePage from '../features/home/HomePage';

const CreateOrgPage = lazy(() => import('../features/orgs/CreateOrgPage'));
const NewProjectPage = lazy(() => import('../features/projects/NewProjectPage'));
const UserOnboardingPage = lazy(() => import('../features/onboarding/UserOnboardingPage'));
const BillingPage = lazy(() => import('../features/billing/BillingPage'));
const UnknownPath = lazy(() => import('../features/areas/UnknownPath'));
const InvitesPage = lazy(() => import('../features/invites/InvitesPage'));
const OpenJobPage = lazy(() => import('../features/jobs/open/OpenJobPage'));
const InviteScreen = lazy(() => import('../features/invites/InviteScreen'));
const AdminPage = lazy(() => import('../features/admin/AdminPage'));
const TestCheckoutPage = lazy(() => import('../features/billing/checkout/TestCheckoutPage'));
const settings = () => import('../features/people/SettingsPages');
const OrgSettingsPage = lazy(() => settings().then((m) => ({ default: m.OrgSettingsPage })));
const ClusterSettingsPage = lazy(() =>
  settings().then((m) => ({ default: m.ClusterSettingsPage })),
);
const ProjectSettingsPage = lazy(() =>
  settings().then((m) => ({ default: m.ProjectSettingsPage })),
);
const InviteSignupDone = lazy(() =>
  import('../features/invites/InviteSignup').then((m) => ({ default: m.InviteSignupDone })),
);

function ContextLayout() {
  return (
    <PlatformContextProvider>
      <Outlet />
      <LoginHintDialog />
    </PlatformContextProvider>
  );
}

/**
 * The signed-in application. Without a cluster only organization pages and invitations are
 * reachable; everything else leads home, which shows the welcome message.
 */
export default function AppRoutes({ hasCluster }: { hasCluster: boolean }) {
  // Only a system administrator is here without an organization (decide.ts).
  const hasOrg = useAccount().orgs.length > 0;
  return (
    <Routes>
      <Route element={<ContextLayout />}>
        <Route path="/create-org" element={<CreateOrgPage />} />
        <Route path="/user-onboarding" element={<UserOnboardingPage />} />
        <Route
          path="/new-project"
          element={hasCluster ? <NewProjectPage /> : <Navigate to="/" replace />}
        />
        <Route path="/auth/*" element={<Navigate to="/" replace />} />
        <Route path="/billing/checkout/:id" element={<TestCheckoutPage />} />
        <Route element={<MainLayout hasCluster={hasCluster} />}>
          <Route
            index
            element={hasOrg ? <HomePage /> : <Navigate to="/user-onboarding" replace />}
          />
          <Route path="/org-settings/:tab?" element={<OrgSettingsPage />} />
          <Route path="/invites" element={<InvitesPage />} />
          <Route path="/invites/:id" element={<InviteScreen />} />
          <Route path="/open-job" element={<OpenJobPage />} />
          <Route path="/invite-signup" element={<InviteSignupDone />} />
          <Route path="/admin/*" element={<AdminPage />} />
          <Route
            path="/cluster-settings/:tab?"
            element={hasCluster ? <ClusterSettingsPage /> : <Navigate to="/" replace />}
          />
          <Route
            path="/project-settings/:tab?"
            element={hasCluster ? <ProjectSettingsPage /> : <Navigate to="/" replace />}
          />
          <Route path="/org-billing/:tab?" element={<BillingPage />} />
          {hasCluster &&
            FEATURES.map((f) => <Route key={f.key} path={`${f.path}/*`} element={<f.page />} />)}
          <Route path="*" element={<UnknownPath />} />
        </Route>
      </Route>
    </Routes>
  );
}
