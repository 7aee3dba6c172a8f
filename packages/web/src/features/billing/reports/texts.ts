/** The texts of the reports tabs (reports in organization, cluster, project settings). */
export const REPORTS_TEXTS = {
  tab: 'Reports',
  overTime: 'Usage by category over time',
  byProject: 'Usage by project',
  byUser: 'Usage by user',
  top: 'Most expensive jobs and apps',
  pools: 'Node pool utilisation',
  pool: (name: string) => `Node pool ${name}`,
  noSamples: 'No samples of the node pools in this period',
  series: { cpu: 'CPU %', memory: 'Memory %', gpu: 'GPU %' },
  total: 'Total',
  loading: 'Loading the reports',
  loadFailed: 'Could not load the reports',
  empty: 'No usage in this period',
  noUser: 'No user',
  columns: {
    resource: 'Resource',
    category: 'Category',
    project: 'Project',
    user: 'User',
    credits: 'Credits',
  },
  /** Why a tab shows no report: who may read it (docs/billing.md, "Reports"). */
  clusterRefused: 'Only managers of the organization or of the cluster can see its reports',
  clusterRefusedHint: 'Ask a manager for the usage of this cluster.',
} as const;
