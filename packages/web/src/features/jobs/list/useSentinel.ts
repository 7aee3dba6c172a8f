import { useEffect, useRef } from 'react';
import { SENTINEL_MARGIN } from '../texts';

/**
 * Calls `onVisible` when the element at the bottom of a list comes within 100 px of the viewport
 *, so the next page is on its way before the reader reaches the end.
 */
export function useSentinel<T extends Element>(
  onVisible: () => void,
  enabled: boolean,
  /** Changes after each load: a fresh observer reports a sentinel that is still in view. */
  generation: number,
) {
  const ref = useRef<T | null>(null);
  const callback = useRef(onVisible);
  useEffect(() => {
    callback.current = onVisible;
  });
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) callback.current();
      },
      { rootMargin: `0px 0px ${SENTINEL_MARGIN} 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled, generation]);
  return ref;
}
