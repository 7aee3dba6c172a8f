import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';

/** Client errors will not change on retry; only network and server failures are retried. */
const retry = (failures: number, error: unknown) =>
  failures < 2 && !(error instanceof ApiError && error.status < 500);

export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: { retry, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
