import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { returnPathOf } from '../../app/session/oidc';
import { LoadingScreen } from '../../app/session/screens';
import { useSession } from '../../app/session/session-context';
import { AUTH_TEXTS } from './texts';

interface OidcErrorLike {
  error?: string;
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
        setAuthError({
          code: err.error ?? AUTH_TEXTS.callbackError,
          text: err.error_description ?? err.message ?? '',
        });
        navigate('/', { replace: true });
      });
  }, [userManager, navigate, setAuthError]);

  return <LoadingScreen />;
}
