import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { storageKeys, uploadFile, type StoragePlace } from '../../api/storage';
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

type Uploader = typeof uploadFile;

/**
 * Uploads of this page: each file is its own PUT op=CREATE with a progress value and its own
 * cancel. A file shows in the listing only when its upload has finished (docs/files.md).
 */
export function useUploads(
  place: StoragePlace,
  token: string | null,
  upload: Uploader = uploadFile,
) {
  const client = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const controllers = useRef(new Map<number, AbortController>());
  const nextId = useRef(1);

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
        upload(place, [...folder, file.name], file, {
          token,
          signal: controller.signal,
          onProgress: (loaded, total) => patch(id, { loaded, total }),
        })
          .then(() => {
            patch(id, { status: 'done', loaded: file.size });
            return client.invalidateQueries({ queryKey: storageKeys.all(place) });
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
    [client, place, token, upload],
  );

  const cancel = useCallback((id: number) => controllers.current.get(id)?.abort(), []);
  const dismiss = useCallback(
    (id: number) => setUploads((list) => list.filter((u) => u.id !== id)),
    [],
  );

  return { uploads, start, cancel, dismiss };
}
