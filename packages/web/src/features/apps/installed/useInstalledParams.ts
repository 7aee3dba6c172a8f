import { useEffect, useState } from 'react';
import { useDebouncedValue, useLocalStorage } from '@mantine/hooks';
import { useSearchParams } from 'react-router';
import { SEARCH_DEBOUNCE_MS } from '../rules';

/** Grid or list, stored in the browser as 0 or 1. */
export const VIEW_KEY = 'orrery.apps.viewType';
export type ViewType = 0 | 1;

/**
 * The installed list's search (query parameter `search`, written after a 400 ms pause) and its
 * grid/list switch (kept in the browser).
 */
export function useInstalledParams() {
  const [params, setParams] = useSearchParams();
  const [typed, setTyped] = useState(params.get('search') ?? '');
  const [settled] = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const current = params.get('search') ?? '';
  useEffect(() => {
    // Only a real change navigates: a no-op write would still add a history entry's key.
    if (current === settled) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (settled) next.set('search', settled);
        else next.delete('search');
        return next;
      },
      { replace: true },
    );
  }, [current, settled, setParams]);
  const [view, setView] = useLocalStorage<ViewType>({
    key: VIEW_KEY,
    defaultValue: 0,
    getInitialValueInEffect: false,
  });
  return { typed, setTyped, search: params.get('search') ?? '', view, setView };
}
