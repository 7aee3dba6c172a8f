import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { refreshAfterChange } from '../../api/refresh';
import { messageOf } from '../../ui/errors';
import { FILE_TEXTS } from './texts';

export type UploadStatus = 'uploading' | 'done' | 'cancelled' | 'failed';

export interface Upload {
  id: number;
  name: string;
  /** Project-relative folder the file goes to. */
  folder: string[];
  loaded: number;
  total: number;
  status: UploadStatus;
  error?: string;
}

/** Sends one file into a folder, reporting progress, until done or aborted. */
export type Uploader = (
  folder: string[],
  file: File,
  options: { onProgress(loaded: number, total: number): void; signal: AbortSignal },
) => Promise<unknown>;

/** How long a finished or cancelled upload stays in the panel before it clears itself. */
export const FINISHED_SHOWN_MS = 3000;

const sameFolder = (a: string[], b: string[]) =>
  a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * Uploads of a page (Files, a bucket): each file is its own PUT with a progress value and its
 * own cancel. A file shows in the listing only when its upload has finished (docs/files.md); then
 * the queries under `refresh` are refetched. Uploads outlive a change of folder, but the panel
 * shows those of the folder in view (`inFolder`); a finished or cancelled one clears itself
 * after a moment (its file is in the listing by then), a failed one stays until dismissed.
 */
export function useUploads(upload: Uploader, refresh: QueryKey) {
  const client = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const controllers = useRef(new Map<number, AbortController>());
  const nextId = useRef(1);
  // Callers pass a new uploader closure on every render; `start` stays the same function.
  const latest = useRef({ upload, refresh });
  latest.current = { upload, refresh };

  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const live = controllers.current;
    const pending = timers.current;
    return () => {
      live.forEach((c) => c.abort());
      pending.forEach(clearTimeout);
    };
  }, []);

  const clearLater = (id: number) => {
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setUploads((list) => list.filter((u) => u.id !== id));
    }, FINISHED_SHOWN_MS);
    timers.current.add(timer);
  };

  const patch = (id: number, change: Partial<Upload>) =>
    setUploads((list) => list.map((u) => (u.id === id ? { ...u, ...change } : u)));

  const start = useCallback(
    (files: Iterable<File>, folder: string[]) => {
      for (const file of files) {
        const id = nextId.current++;
        const controller = new AbortController();
        controllers.current.set(id, controller);
        const entry: Upload = {
          id,
          name: file.name,
          folder,
          loaded: 0,
          total: file.size,
          status: 'uploading',
        };
        setUploads((list) => [...list, entry]);
        latest.current
          .upload(folder, file, {
            signal: controller.signal,
            onProgress: (loaded, total) => patch(id, { loaded, total }),
          })
          .then(() => {
            patch(id, { status: 'done', loaded: file.size });
            clearLater(id);
            return refreshAfterChange(client, latest.current.refresh);
          })
          .catch((error: unknown) => {
            if (error instanceof DOMException && error.name === 'AbortError') {
              patch(id, { status: 'cancelled' });
              clearLater(id);
            } else {
              patch(id, { status: 'failed', error: messageOf(error, FILE_TEXTS.uploads.failed) });
            }
          })
          .finally(() => controllers.current.delete(id));
      }
    },
    [client],
  );

  const cancel = useCallback((id: number) => controllers.current.get(id)?.abort(), []);
  const dismiss = useCallback(
    (id: number) => setUploads((list) => list.filter((u) => u.id !== id)),
    [],
  );

  const inFolder = useCallback(
    (folder: string[]) => uploads.filter((u) => sameFolder(u.folder, folder)),
    [uploads],
  );

  return { uploads, inFolder, start, cancel, dismiss };
}
