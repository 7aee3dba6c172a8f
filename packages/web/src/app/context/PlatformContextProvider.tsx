import { useCallback, useEffect, useMemo } from 'react';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { notifyError } from '../../ui/notify';
import { useAccount } from '../session/account';
import { SESSION_TEXTS } from '../session/texts';
import { PlatformContext } from './platform-context';
import type { PlatformContextValue } from './platform-context';
import { CONTEXT_KEYS, clustersOf, resolveContext, sameContext } from './resolve';
import type { AvailableContext, ContextChoice, ResolvedContext } from './resolve';
import { loadSavedContext, saveContext } from './storage';

const writeParams = (params: URLSearchParams, names: ResolvedContext) => {
  const next = new URLSearchParams(params);
  for (const key of CONTEXT_KEYS) {
    const value = names[key];
    if (value) next.set(key, value);
    else next.delete(key);
  }
  return next;
};

/** Query parameters win, then the saved choice, then the first available; the URL mirrors it. */
export function PlatformContextProvider({ children }: { children: ReactNode }) {
  const account = useAccount();
  const [params, setParams] = useSearchParams();
  const [qOrg, qCluster, qProject] = CONTEXT_KEYS.map((k) => params.get(k));

  const available = useMemo<AvailableContext>(
    () => ({
      orgs: account.orgs.map((o) => o.name),
      clusters: account.clusters,
      projects: account.projects,
    }),
    [account],
  );

  const names = useMemo(
    () =>
      resolveContext(
        { org: qOrg, cluster: qCluster, project: qProject },
        loadSavedContext(),
        available,
      ),
    [qOrg, qCluster, qProject, available],
  );

  // While the account reloads (e.g. right after creating the organization or project named in
  // the address) a missing name is not yet wrong: correct the address only once it is current.
  const settled = !account.refreshing;
  useEffect(() => {
    if (!settled) return;
    saveContext(names);
    if (!sameContext({ org: qOrg, cluster: qCluster, project: qProject }, names)) {
      setParams((prev) => writeParams(prev, names), { replace: true });
    }
  }, [settled, names, qOrg, qCluster, qProject, setParams]);

  const select = useCallback(
    (choice: ContextChoice) => {
      const org = choice.org ?? names.org;
      const orgChanged = org !== names.org;
      if (choice.cluster && !clustersOf(available, org).includes(choice.cluster)) {
        notifyError(SESSION_TEXTS.somethingWentWrong);
        return;
      }
      const cluster = choice.cluster ?? (orgChanged ? null : names.cluster);
      const project =
        choice.project ?? (orgChanged || cluster !== names.cluster ? null : names.project);
      // Levels the caller left open fall back to the saved choice (for the new parents) or the first.
      const next = resolveContext({ org, cluster, project }, loadSavedContext(), available);
      saveContext(next);
      setParams((prev) => writeParams(prev, next));
    },
    [names, available, setParams],
  );

  const value = useMemo<PlatformContextValue>(() => {
    const clusters = account.clusters.filter((c) => !!names.org && c.orgs.includes(names.org));
    const projects = account.projects.filter(
      (p) => p.orgName === names.org && p.clusterName === names.cluster,
    );
    return {
      names,
      org: account.orgs.find((o) => o.name === names.org) ?? null,
      cluster: clusters.find((c) => c.name === names.cluster) ?? null,
      project: projects.find((p) => p.name === names.project) ?? null,
      orgs: account.orgs,
      clusters,
      projects,
      select,
    };
  }, [account, names, select]);

  return <PlatformContext.Provider value={value}>{children}</PlatformContext.Provider>;
}
