import { createContext, useCallback, useContext } from 'react';
import type { UserOrg } from '../../api/types';
import type { AccountCluster, AccountProject } from '../session/account';
import { withContext } from './links';
import type { ContextChoice, ResolvedContext } from './resolve';

export interface PlatformContextValue {
  names: ResolvedContext;
  org: UserOrg | null;
  cluster: AccountCluster | null;
  project: AccountProject | null;
  orgs: UserOrg[];
  /** Clusters of the current organization. */
  clusters: AccountCluster[];
  /** Projects of the current organization in the current cluster. */
  projects: AccountProject[];
  /** Switches context; levels below a changed one fall back to the saved or first choice. */
  select: (choice: ContextChoice) => void;
}

export const PlatformContext = createContext<PlatformContextValue | null>(null);

export function usePlatformContext(): PlatformContextValue {
  const value = useContext(PlatformContext);
  if (!value) throw new Error('usePlatformContext must be used inside <PlatformContextProvider>');
  return value;
}

export const useOptionalPlatformContext = () => useContext(PlatformContext);

/** `link('/org-settings/users')` → the same path carrying org, cluster and project. */
export function useContextLink() {
  const value = useContext(PlatformContext);
  const names = value?.names;
  return useCallback(
    (path: string, override: ContextChoice = {}) => withContext(path, { ...names, ...override }),
    [names],
  );
}
