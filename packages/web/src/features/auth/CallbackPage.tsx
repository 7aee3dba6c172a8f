import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { NOT_SIGNED_IN, returnPathOf, type ReturnState } from '../../app/session/oidc';
import { LoadingScreen } from '../../app/session/screens';
import { useSession } from '../../app/session/session-context';
import { AUTH_TEXTS } from './texts';

interface OidcErrorLike {
  error?: string;
  /** The state the sign-in was started with (oidc-client-ts's ErrorResponse carries it). */
  state?: unknown;
  error_description?: string;
  message?: string;
}

/** Completes the redirect (or, inside the renewal iframe, hands the token to the parent). */
export default function CallbackPage() {
  const { userManager, setAuthError } = useSession();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    userManager
      .signinCallback()
      .then((user) => {
        if (user) navigate(returnPathOf(user.state), { replace: true });
      })
      .catch((err: OidcErrorLike) => {
        // The issuer only said the user has no session there: the sign-in page, no error.
        if ((err.state as ReturnState | undefined)?.silent && NOT_SIGNED_IN.has(err.error ?? '')) {
          navigate(returnPathOf(err.state), { replace: true });
          return;
        }
        setAuthError({
          code: err.error ?? AUTH_TEXTS.callbackError,
          text: err.error_description ?? err.message ?? '',
        });
        navigate('/', { replace: true });
      });
  }, [userManager, navigate, setAuthError]);

  return <LoadingScreen />;
}
