/** The working context: organization, cluster and project, by name. */
export interface ContextChoice {
  org?: string | null;
  cluster?: string | null;
  project?: string | null;
}

export interface ResolvedContext {
  org: string | null;
  cluster: string | null;
  project: string | null;
}

export interface AvailableContext {
  orgs: readonly string[];
  clusters: readonly { name: string; orgs: readonly string[] }[];
  projects: readonly { name: string; orgName: string; clusterName: string }[];
}

export const CONTEXT_KEYS = ['org', 'cluster', 'project'] as const;

const pick = (candidates: (string | null | undefined)[], options: string[]) =>
  candidates.find((c): c is string => !!c && options.includes(c)) ?? options[0] ?? null;

export const clustersOf = (available: AvailableContext, org: string | null) =>
  org ? available.clusters.filter((c) => c.orgs.includes(org)).map((c) => c.name) : [];

export const projectsOf = (
  available: AvailableContext,
  org: string | null,
  cluster: string | null,
) =>
  available.projects
    .filter((p) => p.orgName === org && p.clusterName === cluster)
    .map((p) => p.name);

/**
 * Each level independently: the query parameter if it is available, else the saved choice if it
 * is available, else the first available one. Lower levels are only looked up inside the levels
 * above, so a project of another organization can never be selected.
 */
export function resolveContext(
  query: ContextChoice,
  saved: ContextChoice,
  available: AvailableContext,
): ResolvedContext {
  const org = pick([query.org, saved.org], [...available.orgs]);
  const cluster = pick([query.cluster, saved.cluster], clustersOf(available, org));
  const project = pick([query.project, saved.project], projectsOf(available, org, cluster));
  return { org, cluster, project };
}

export const sameContext = (a: ContextChoice, b: ContextChoice) =>
  CONTEXT_KEYS.every((k) => (a[k] ?? null) === (b[k] ?? null));
