import { useCallback, useEffect, useRef } from 'react';
import { DOUBLE_CLICK_MS } from './texts';

/**
 * Tells one click from two (a 200 ms click-count window). The first click
 * starts a timer; a second click inside the window cancels it and counts as a double click,
 * otherwise the single-click action runs when the window closes.
 */
export function useClickCount<T>(
  onSingle: (item: T) => void,
  onDouble: (item: T) => void,
  windowMs = DOUBLE_CLICK_MS,
) {
  const pending = useRef<{ item: T; timer: ReturnType<typeof setTimeout> } | null>(null);
  const handlers = useRef({ onSingle, onDouble });
  handlers.current = { onSingle, onDouble };

  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current.timer);
    },
    [],
  );

  return useCallback(
    (item: T) => {
      const first = pending.current;
      if (first) {
        clearTimeout(first.timer);
        pending.current = null;
        if (first.item === item) {
          handlers.current.onDouble(item);
          return;
        }
        // A click on another item inside the window: the first one was a single click.
        handlers.current.onSingle(first.item);
      }
      const timer = setTimeout(() => {
        pending.current = null;
        handlers.current.onSingle(item);
      }, windowMs);
      pending.current = { item, timer };
    },
    [windowMs],
  );
}
