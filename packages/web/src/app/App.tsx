import { BrowserRouter } from 'react-router';
import { ErrorBoundary } from './ErrorBoundary';
import { Providers } from './Providers';
import { Gate } from './session/Gate';
import { SessionProvider } from './session/SessionProvider';

export function App() {
  return (
    // Navigations commit at once, not as transitions: otherwise an account reload that lands first
    // (Accept and Go, Create organization) renders the application at the old address, whose
    // context sync then replaces the new one.
    <BrowserRouter useTransitions={false}>
      <Providers>
        <SessionProvider>
          <ErrorBoundary>
            <Gate />
          </ErrorBoundary>
        </SessionProvider>
      </Providers>
    </BrowserRouter>
  );
}
