import { BrowserRouter } from 'react-router';
import { ErrorBoundary } from './ErrorBoundary';
import { Providers } from './Providers';
import { Gate } from './session/Gate';
import { SessionProvider } from './session/SessionProvider';

export function App() {
  return (
    <BrowserRouter>
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
