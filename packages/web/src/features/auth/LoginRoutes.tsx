import { Navigate, Route, Routes, useLocation } from 'react-router';
import { AuthLayout } from './AuthLayout';
import { SignInPage } from './SignInPage';
import { InviteSignupRedirect } from '../invites/InviteSignup';

/** Every path leads to /auth, remembering where the user wanted to go (and any login hint). */
function ToSignIn() {
  const { pathname, search } = useLocation();
  const hint = new URLSearchParams(search).get('login_hint');
  const to = hint ? `/auth?login_hint=${encodeURIComponent(hint)}` : '/auth';
  return <Navigate to={to} replace state={{ returnTo: `${pathname}${search}` }} />;
}

export default function LoginRoutes() {
  return (
    <Routes>
      <Route path="/auth" element={<AuthLayout />}>
        <Route index element={<SignInPage />} />
      </Route>
      <Route path="/auth/*" element={<Navigate to="/auth" replace />} />
      <Route path="/invite-signup" element={<InviteSignupRedirect />} />
      <Route path="*" element={<ToSignIn />} />
    </Routes>
  );
}
