import { monitoringBase, type Job } from '../../../api/jobs';
import { useAccount } from '../../../app/session/account';
import { useSession } from '../../../app/session/session-context';

/**
 * What the job page (and an app's Log tab) needs from a cluster and the session: the monitoring
 * base for logs, load and save, the registry host that names saved images, and the bearer token
 * for the calls the API client cannot make (streams and WebSockets).
 */
export function useJobCluster(job: Pick<Job, 'clusterName'> | undefined) {
  const { clusters, user } = useAccount();
  const token = useSession().oidcUser?.access_token ?? null;
  const details = clusters.find((c) => c.name === job?.clusterName)?.details ?? null;
  const registry = details?.registryUrl ?? window.location.origin;
  return {
    monitoringUrl: monitoringBase(details?.monitoringUrl),
    registryHost: new URL(registry, window.location.origin).host,
    token,
    username: user.username,
  };
}
