import type { ReactNode } from 'react';
import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { createQueryClient } from './query-client';
import { colorSchemeManager, DEFAULT_COLOR_SCHEME } from './appearance/color-scheme';
import { theme } from './theme';

export function Providers({
  children,
  queryClient,
  test = false,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
  /** Mantine's test environment: no transitions, no portals. */
  test?: boolean;
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <MantineProvider
      theme={theme}
      env={test ? 'test' : 'default'}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme={DEFAULT_COLOR_SCHEME}
    >
      {/* Bottom right: drawers open on the right, and a toast must never cover a drawer's title. */}
      <Notifications position="bottom-right" />
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
