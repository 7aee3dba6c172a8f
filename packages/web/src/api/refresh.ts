import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Refetches the queries under `queryKey` after a change the user made (an upload, a new folder).
 * A fetch already in flight may have read the data before the change landed, and React Query
 * joins such a fetch instead of starting another while the query has no data yet (a folder's
 * first listing), so the change would never show: in-flight fetches are cancelled first.
 */
export async function refreshAfterChange(client: QueryClient, queryKey: QueryKey) {
  await client.cancelQueries({ queryKey });
  await client.invalidateQueries({ queryKey });
}
