import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
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

/**
 * Uploads of a page (Files, a bucket): each file is its own PUT with a progress value and its
 * own cancel. A file shows in the listing only when its upload has finished (docs/files.md); then
 * the queries under `refresh` are refetched.
 */
export function useUploads(upload: Uploader, refresh: QueryKey) {
  const client = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const controllers = useRef(new Map<number, AbortController>());
  const nextId = useRef(1);
  // Callers pass a new uploader closure on every render; `start` stays the same function.
  const latest = useRef({ upload, refresh });
  latest.current = { upload, refresh };

  useEffect(() => {
    const live = controllers.current;
    return () => live.forEach((c) => c.abort());
  }, []);

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
            return client.invalidateQueries({ queryKey: latest.current.refresh });
          })
          .catch((error: unknown) => {
            if (error instanceof DOMException && error.name === 'AbortError') {
              patch(id, { status: 'cancelled' });
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

  return { uploads, start, cancel, dismiss };
}
