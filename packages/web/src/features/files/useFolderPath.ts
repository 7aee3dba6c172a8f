import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { joinPath, splitPath } from './paths';

/**
 * The open folder lives in the query string (`/files?path=a/b`) beside the context parameters,
 * so links, reloads and the browser's back button keep it.
 */
export function useFolderPath() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('path');
  const path = useMemo(() => splitPath(raw), [raw]);
  const go = useCallback(
    (next: string[]) =>
      setParams((prev) => {
        const out = new URLSearchParams(prev);
        if (next.length > 0) out.set('path', joinPath(next));
        else out.delete('path');
        return out;
      }),
    [setParams],
  );
  return [path, go] as const;
}
