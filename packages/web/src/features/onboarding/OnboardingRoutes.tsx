import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { useAccount } from '../../app/session/account';
import { LoadingScreen } from '../../app/session/screens';

const UserOnboardingPage = lazy(() => import('./UserOnboardingPage'));
const CreateOrgPage = lazy(() => import('../orgs/CreateOrgPage'));

/** A user without an organization can only set one up (or leave). */
export default function OnboardingRoutes() {
  const { refreshing } = useAccount();
  return (
    <Routes>
      <Route path="/user-onboarding" element={<UserOnboardingPage />} />
      <Route index element={<UserOnboardingPage />} />
      <Route path="/create-org" element={<CreateOrgPage />} />
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
