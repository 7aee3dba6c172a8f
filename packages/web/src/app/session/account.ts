import { createContext, useContext } from 'react';
import type { Cluster, PlatformConfig, User, UserOrg } from '../../api/types';

export interface AccountCluster {
  name: string;
  orgs: string[];
  /** The user's own role on the cluster, when the profile lists one. */
  role: string | null;
  details: Cluster | null;
}

export interface AccountProject {
  name: string;
  orgName: string;
  clusterName: string;
  role: string | null;
}

/** Startup step 3: who the user is and what they can use. */
export interface Account {
  user: User;
  orgs: UserOrg[];
  clusters: AccountCluster[];
  projects: AccountProject[];
  /** Reloads profile and configuration, e.g. after creating an organization or a project. */
  refresh: () => Promise<void>;
  /** True while profile or configuration is being fetched again. */
  refreshing: boolean;
}

/** Merges the signed-in configuration (clusters with details) with the profile (roles). */
export function buildAccount(
  user: User,
  config: PlatformConfig | undefined,
  refresh: () => Promise<void>,
  refreshing = false,
): Account {
  const profileClusters = user.clusters ?? [];
  const configClusters = config?.clusters ?? [];
  const names = [...new Set([...configClusters, ...profileClusters].map((c) => c.name))];
  const clusters = names.map((name) => {
    const details = configClusters.find((c) => c.name === name) ?? null;
    const own = profileClusters.find((c) => c.name === name);
    return {
      name,
      orgs: details?.orgs ?? own?.orgs ?? [],
      role: own?.role ?? null,
      details,
    };
  });
  const projects = (config?.projects ?? user.projects ?? []).map((p) => ({
    name: p.name,
    orgName: p.orgName,
    clusterName: p.clusterName,
    role: p.role ?? null,
  }));
  return { user, orgs: user.orgs ?? [], clusters, projects, refresh, refreshing };
}

export const AccountContext = createContext<Account | null>(null);

export function useAccount(): Account {
  const account = useContext(AccountContext);
  if (!account) throw new Error('useAccount must be used inside the signed-in application');
  return account;
}

export const useOptionalAccount = () => useContext(AccountContext);
