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
  recentJobs: 'Recent jobs',
  allJobs: 'All jobs',
  jobsFailed: 'Could not load the jobs',
  noJobs: 'No jobs in this project yet',
  firstJob:
    "A job runs a command in a container on one of the cluster's presets; its status, logs and URL show on its page.",
  credits: 'Credits',
  creditsIn: (org: string) => `What you can still spend in ${org}`,
};
