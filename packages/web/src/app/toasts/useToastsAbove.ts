import { useEffect, useRef } from 'react';

const BAR = '--orrery-bottom-bar';

/**
 * For a bar that sits at the window's bottom (a form's sticky footer): while it is on the page,
 * the toasts at the bottom right rise above it (toasts.css) rather than cover its buttons. Not
 * the files' dock: lifted that high, a toast covered the buttons of the dialogs opened from it.
 * `gap` is the space between the bar and the window's edge.
 */
export function useToastsAbove<T extends HTMLElement>(gap = 0) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return undefined;
    const root = document.documentElement.style;
    const lift = () => root.setProperty(BAR, `${bar.offsetHeight + gap}px`);
    lift();
    const watch = new ResizeObserver(lift);
    watch.observe(bar);
    return () => {
      watch.disconnect();
      root.removeProperty(BAR);
    };
  }, [gap]);
  return ref;
}
