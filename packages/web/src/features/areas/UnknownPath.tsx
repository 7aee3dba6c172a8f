import { Button } from '@mantine/core';
import { Navigate, useSearchParams } from 'react-router';
import { ContextLink } from '../../app/context/ContextLink';
import { useContextLink } from '../../app/context/platform-context';
import { EmptyState } from '../../ui/EmptyState';
import { AREA_TEXTS } from './areas';

/** A link with a login hint (e.g. from an e-mail) lands on home, where the hint is checked. */
export default function UnknownPath() {
  const [params] = useSearchParams();
  const link = useContextLink();
  const hint = params.get('login_hint');
  if (hint) {
    return <Navigate to={link(`/?login_hint=${encodeURIComponent(hint)}`)} replace />;
  }
  return (
    <EmptyState
      title={AREA_TEXTS.notFound}
      description={AREA_TEXTS.notFoundHint}
      action={
        <Button component={ContextLink} to="/" variant="light">
          {AREA_TEXTS.goHome}
        </Button>
      }
    />
  );
}
