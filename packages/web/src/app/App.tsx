import { BrowserRouter } from 'react-router';
import { Providers } from './Providers';
import { Gate } from './session/Gate';
import { SessionProvider } from './session/SessionProvider';

export function App() {
  return (
    <BrowserRouter>
      <Providers>
        <SessionProvider>
          <Gate />
        </SessionProvider>
      </Providers>
    </BrowserRouter>
  );
}
