import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { useAccount } from '../../app/session/account';
import { LoadingScreen } from '../../app/session/screens';

const UserOnboardingPage = lazy(() => import('./UserOnboardingPage'));
const CreateOrgPage = lazy(() => import('../orgs/CreateOrgPage'));
const InvitesPage = lazy(() => import('../invites/InvitesPage'));
const InviteScreen = lazy(() => import('../invites/InviteScreen'));
// A job shared with someone outside any organization opens from its address all the same.
const OpenJobPage = lazy(() => import('../jobs/open/OpenJobPage'));
const InviteSignupDone = lazy(() =>
  import('../invites/InviteSignup').then((m) => ({ default: m.InviteSignupDone })),
);

/**
 * A user without an organization can set one up, answer invitations, open a job shared with them
 * from its address, or leave.
 */
export default function OnboardingRoutes() {
  const { refreshing } = useAccount();
  return (
    <Routes>
      <Route path="/user-onboarding" element={<UserOnboardingPage />} />
      <Route path="/create-org" element={<CreateOrgPage />} />
      <Route path="/invites" element={<InvitesPage />} />
      <Route path="/invites/:id" element={<InviteScreen />} />
      <Route path="/invite-signup" element={<InviteSignupDone />} />
      <Route path="/open-job" element={<OpenJobPage />} />
      <Route
        path="*"
        element={
          // Just after creating an organization the app is one reload away: wait for it.
          refreshing ? <LoadingScreen /> : <Navigate to="/user-onboarding" replace />
        }
      />
    </Routes>
  );
}
