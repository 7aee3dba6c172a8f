import { QUOTA_RESOURCE_LABELS, type QuotaResource } from '@orrery/contract';

/** Every text of the quota editors and views (docs/quotas.md). */
export const QUOTAS_UI = {
  tab: 'Quotas',
  projectTab: 'Quota',
  resources: QUOTA_RESOURCE_LABELS,
  /** The field labels, with their units. */
  fields: {
    cpu: 'CPU cores',
    memory: 'Memory, GB',
    nvidia_gpu: 'NVIDIA GPUs',
    amd_gpu: 'AMD GPUs',
    intel_gpu: 'Intel GPUs',
  } satisfies Record<QuotaResource, string>,
  resource: 'Resource',
  quota: 'Quota',
  borrowing: 'Borrowing limit',
  used: 'In use',
  jobs: 'Jobs quota',
  runningJobs: 'Running jobs',
  unlimited: 'Unlimited',
  emptyHint: 'Empty means no limit',
  borrowingHint:
    'How much idle capacity beyond the quota may be borrowed; taken back when its owner needs it. Empty: as much as is idle.',
  orgTitle: (org: string, cluster: string) => `${org} on ${cluster} cluster`,
  projects: 'Projects',
  project: 'Project',
  noProjects: 'No projects you can see on this cluster',
  editOrg: 'Edit quota',
  editProject: (p: string) => `Edit quota of ${p}`,
  orgUpdated: (org: string) => `Quota of ${org} is updated`,
  projectUpdated: (p: string) => `Quota of ${p} project is updated`,
  splitHint:
    "The projects' quotas share the organization's: together they may not exceed it. A project without a quota uses what the others leave.",
  save: 'Save',
  cancel: 'Cancel',
  loadFailed: 'Something went wrong',
  noCluster: 'Choose a cluster to see its quotas',
} as const;
