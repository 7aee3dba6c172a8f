import { useEffect } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useSession } from '../../app/session/session-context';
import { LoadingScreen } from '../../app/session/screens';

const inviteOf = (params: URLSearchParams) => {
  const id = params.get('invite') ?? '';
  return /^[0-9a-f-]{36}$/i.test(id) ? id : null;
};

/**
 * /invite-signup, from the mail sent to someone without an account: straight to the provider's
 * sign-up screen with the invited address, and back to the invitation afterwards. The mail's
 * proof goes along, so the new account's address is verified by this very link.
 */
export function InviteSignupRedirect() {
  const [params] = useSearchParams();
  const session = useSession();
  const invite = inviteOf(params);
  const email = params.get('email') ?? undefined;
  const proof = params.get('proof');
  useEffect(() => {
    void session.signIn({
      signup: true,
      loginHint: email,
      returnTo: invite ? `/invites/${invite}` : '/invites',
      invite: invite && proof ? { id: invite, proof } : undefined,
    });
  }, [session, invite, email, proof]);
  return <LoadingScreen />;
}

/** Signed in already: the invitation itself. */
export function InviteSignupDone() {
  const [params] = useSearchParams();
  const invite = inviteOf(params);
  return <Navigate to={invite ? `/invites/${invite}` : '/invites'} replace />;
}
