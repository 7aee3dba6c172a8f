import {
  FileStatusList,
  FileStatusResponse,
  type Action,
  type FileStatus,
  type FileType,
} from '@orrery/contract';
import { world } from '../../test/fixtures';
import { permissionsOf } from '../../test/permissions';

/** Storage bodies for tests, parsed by the contract's schemas like the server's answers. */
export const entry = (path: string, type: FileType = 'FILE', permission: Action = 'manage') =>
  ({ path, type, permission, length: 1234, modificationTime: 1_767_323_045 }) as FileStatus;

export const listing = (...entries: FileStatus[]) =>
  FileStatusList.parse({ FileStatuses: { FileStatus: entries } });

export const folderStatus = (path: string, permission: Action = 'manage') =>
  FileStatusResponse.parse({
    FileStatus: { ...entry(path, 'DIRECTORY', permission), path },
  });

const BASE = '/api/v1/storage/acme/vision';
export const url = (path: string, query: string) => `${BASE}${path ? `/${path}` : ''}?${query}`;
export const LIST = (path = '') => url(path, 'op=LISTSTATUS');
export const STATUS = (path = '') => url(path, 'op=GETFILESTATUS');

export const ROUTE = '/files?org=acme&cluster=default&project=vision';
export const place = { clusterName: 'default', orgName: 'acme', projectName: 'vision' };

export const signedIn = () => {
  const { user, sessionConfig } = world();
  return { user, sessionConfig };
};

/**
 * The permission check's stand-in for project vision's storage: `folder` on everything, but
 * read only on `locked.txt` (as its listing entry says).
 */
export const storagePermissions = (folder: Action = 'manage') =>
  permissionsOf([
    { prefix: 'storage://default/acme/vision/locked.txt', have: 'read' },
    { prefix: 'storage://default/acme/vision', have: folder },
  ]);
