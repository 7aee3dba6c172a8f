export const HOME_TEXTS = {
  noClusterTitle: 'Welcome',
  noClusterText: (org: string) =>
    `Organization ${org} has no cluster available to you yet. Please contact your organization's administrator or support to get access to a cluster.`,
  noClusters: 'No clusters are available',
  context: 'Current context',
  organization: 'Organization',
  cluster: 'Cluster',
  project: 'Project',
  yourRole: 'Your role in the project',
  location: 'Location',
};
