import type { Action, FileStatus as FileStatusWire, ProjectPlace } from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, buildUrl, request } from './client';
import { refreshAfterChange } from './refresh';
import { putFile, type UploadOptions } from './upload';

/**
 * The Storage API (docs/files.md): `/api/v1/storage/ORG/PROJECT/PATH?op=…`.
 * Paths here are project-relative lists of segments; `[]` is the project's root.
 */
export type FileStatus = FileStatusWire;
export type StorageAction = Action;

const STORAGE = `${API.core}/storage`;

/** `/ORG/PROJECT/a/b`, as the RENAME destination and GETFILESTATUS name it. */
export const absolutePath = (p: ProjectPlace, path: string[]) =>
  `/${[p.orgName, p.projectName, ...path].join('/')}`;

/** The request path, every segment encoded on its own (the server refuses `%2f`). */
export const storageUrl = (p: ProjectPlace, path: string[]) =>
  `${STORAGE}${absolutePath(p, path).split('/').map(encodeURIComponent).join('/')}`;

export const storageKeys = {
  all: (p: ProjectPlace) => ['storage', p.clusterName, p.orgName, p.projectName] as const,
  list: (p: ProjectPlace, path: string[]) =>
    [...storageKeys.all(p), 'list', path.join('/')] as const,
  status: (p: ProjectPlace, path: string[]) =>
    [...storageKeys.all(p), 'status', path.join('/')] as const,
};

export const listStatus = async (p: ProjectPlace, path: string[], signal?: AbortSignal) =>
  (
    await request<{ FileStatuses: { FileStatus: FileStatus[] } }>(storageUrl(p, path), {
      query: { op: 'LISTSTATUS' },
      signal,
    })
  ).FileStatuses.FileStatus;

export const getFileStatus = async (p: ProjectPlace, path: string[], signal?: AbortSignal) =>
  (
    await request<{ FileStatus: FileStatus }>(storageUrl(p, path), {
      query: { op: 'GETFILESTATUS' },
      signal,
    })
  ).FileStatus;

export const makeDirs = (p: ProjectPlace, path: string[]) =>
  request<null>(storageUrl(p, path), { method: 'PUT', query: { op: 'MKDIRS' } });

export const deletePath = (p: ProjectPlace, path: string[], recursive: boolean) =>
  request<null>(storageUrl(p, path), {
    method: 'DELETE',
    query: { op: 'DELETE', recursive: recursive ? 'true' : 'false' },
  });

export const renamePath = (p: ProjectPlace, from: string[], to: string[]) =>
  request<null>(storageUrl(p, from), {
    method: 'POST',
    query: { op: 'RENAME', destination: absolutePath(p, to) },
  });

/**
 * The op=OPEN link of "open in new tab" and of previews: a plain link cannot send a header, so
 * the token rides in the query (accepted by the server on GET op=OPEN only).
 */
export const openUrl = (p: ProjectPlace, path: string[], token: string | null | undefined) =>
  buildUrl(storageUrl(p, path), { op: 'OPEN', token: token ?? undefined });

/** Grants `action` on a storage URI to a user (POST users/{name}/permissions). */
export const sharePermission = (username: string, uri: string, action: StorageAction) =>
  request(`${API.core}/users/${encodeURIComponent(username)}/permissions`, {
    method: 'POST',
    body: [{ uri, action }],
  });

/**
 * PUT op=CREATE of one file with its own content type, reporting progress (api/upload.ts).
 * Rejects with an ApiError like `request`, or an AbortError.
 */
export const uploadFile = (p: ProjectPlace, path: string[], file: Blob, options: UploadOptions) =>
  putFile(buildUrl(storageUrl(p, path), { op: 'CREATE' }), file, options);

/** A folder's entries; it is not polled: it refreshes on focus and after changes. */
export const useListing = (p: ProjectPlace, path: string[], enabled = true) =>
  useQuery({
    queryKey: storageKeys.list(p, path),
    queryFn: ({ signal }) => listStatus(p, path, signal),
    enabled,
    refetchOnWindowFocus: true,
  });

/** The folder itself: its `permission` decides whether the area is read-only. */
export const useFileStatus = (p: ProjectPlace, path: string[], enabled = true) =>
  useQuery({
    queryKey: storageKeys.status(p, path),
    queryFn: ({ signal }) => getFileStatus(p, path, signal),
    enabled,
  });

/** Mutations of the storage area; each refreshes every cached listing of the project. */
export function useStorageMutation<V>(p: ProjectPlace, fn: (v: V) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => refreshAfterChange(client, storageKeys.all(p)),
  });
}

export const useShare = () =>
  useMutation({
    mutationFn: (v: { username: string; uri: string; action: StorageAction }) =>
      sharePermission(v.username, v.uri, v.action),
  });
