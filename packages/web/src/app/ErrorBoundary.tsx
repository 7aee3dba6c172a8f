import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Anchor, Button, Text, Title } from '@mantine/core';
import { useLocation } from 'react-router';
import { CenteredPage } from '../ui/CenteredPage';
import { useSupportMailto } from '../ui/SupportLink';
import { useOptionalSession } from './session/session-context';

export const ERROR_PAGE_TEXTS = {
  title: 'Something went wrong',
  contact: 'Please contact support by e-mail',
  noSupport: 'Please reload the page. If it happens again, tell your administrator.',
  reload: 'Reload',
};

/** The generic error page, naming the support address when there is one. */
export function ErrorPage() {
  const email = useOptionalSession()?.config.supportEmail;
  const href = useSupportMailto();
  return (
    <CenteredPage>
      <Title order={2}>{ERROR_PAGE_TEXTS.title}</Title>
      {email && href ? (
        <Text>
          {ERROR_PAGE_TEXTS.contact} <Anchor href={href}>{email}</Anchor>.
        </Text>
      ) : (
        <Text>{ERROR_PAGE_TEXTS.noSupport}</Text>
      )}
      <Button variant="default" onClick={() => window.location.reload()}>
        {ERROR_PAGE_TEXTS.reload}
      </Button>
    </CenteredPage>
  );
}

class Boundary extends Component<{ children: ReactNode; page: string }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    // The page says little; the browser console keeps the detail for whoever looks.
    console.error(error, info.componentStack);
  }
  override componentDidUpdate(prev: { page: string }) {
    if (this.state.failed && prev.page !== this.props.page) this.setState({ failed: false });
  }
  override render() {
    return this.state.failed ? <ErrorPage /> : this.props.children;
  }
}

/** A page that throws while rendering shows the error page; moving to another page tries again. */
export function ErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary page={pathname}>{children}</Boundary>;
}
