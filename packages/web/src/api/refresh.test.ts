import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refreshAfterChange } from './refresh';

/** A folder listing whose answers the test releases one by one. */
function gatedListing() {
  const pending: ((files: string[]) => void)[] = [];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const observer = new QueryObserver<string[]>(client, {
    queryKey: ['storage', 'inner'],
    queryFn: () => new Promise<string[]>((resolve) => pending.push(resolve)),
  });
  const stop = observer.subscribe(() => undefined);
  return { client, pending, observer, stop };
}

describe('refreshAfterChange', () => {
  it('shows a change that lands while the first listing is still loading', async () => {
    const { client, pending, observer, stop } = gatedListing();
    await expect.poll(() => pending.length).toBe(1);
    // The upload finishes while the first listing, read before it, is on its way.
    const refreshed = refreshAfterChange(client, ['storage']);
    await expect.poll(() => pending.length).toBe(2);
    pending[0]([]);
    pending[1](['inner.txt']);
    await refreshed;
    expect(observer.getCurrentResult().data).toEqual(['inner.txt']);
    stop();
    client.clear();
  });

  it('refetches a listing already shown', async () => {
    const { client, pending, observer, stop } = gatedListing();
    await expect.poll(() => pending.length).toBe(1);
    pending[0]([]);
    await expect.poll(() => observer.getCurrentResult().data).toEqual([]);
    const refreshed = refreshAfterChange(client, ['storage']);
    await expect.poll(() => pending.length).toBe(2);
    pending[1](['notes.txt']);
    await refreshed;
    expect(observer.getCurrentResult().data).toEqual(['notes.txt']);
    stop();
    client.clear();
  });
});
