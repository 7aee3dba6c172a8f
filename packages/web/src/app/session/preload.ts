import { useEffect, useState, type ComponentType } from 'react';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

/**
 * A screen's code, loaded while its data loads. Rendering a component that is already here never
 * suspends, which keeps React's reveal throttle (about 300 ms per Suspense fallback) off the path
 * every signed-in page load takes. Null until loaded; a failed load yields null and the caller's
 * lazy fallback reports it.
 */
export function usePreloaded<P>(load: Loader<P>, wanted: boolean): ComponentType<P> | null {
  const [component, setComponent] = useState<ComponentType<P> | null>(null);
  useEffect(() => {
    if (!wanted || component) return;
    let live = true;
    load().then(
      (m) => live && setComponent(() => m.default),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted, component, load]);
  return component;
}
