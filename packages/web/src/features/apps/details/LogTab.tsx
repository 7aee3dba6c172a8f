import { useCallback, useMemo, useState } from 'react';
import { Select } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { isFinalAppState } from '@orrery/contract';
import {
  appsKeys,
  appsMonitoringBase,
  useAppContainers,
  type AppInstance,
} from '../../../api/apps';
import { useJobCluster } from '../../jobs/job/useJobCluster';
import { LogView } from '../../jobs/logs/LogView';
import { appLabel } from '../rules';
import { APPS_TEXTS } from '../texts';
import { useAppLog } from './useAppLog';

const T = APPS_TEXTS.details.log;

/**
 * The Log tab: every job of the instance in the jobs' log viewer, each
 * line labelled with its container when the app has more than one, a container filter from
 * `GET {monitoring}/apps/{id}/containers`, following while the instance runs.
 */
export function LogTab({ app }: { app: AppInstance }) {
  const client = useQueryClient();
  const cluster = useJobCluster(app);
  const base = appsMonitoringBase(cluster.monitoringUrl);
  const final = isFinalAppState(app.state);
  const [timestamps, setTimestamps] = useState(false);
  const [reload, setReload] = useState(0);
  const [container, setContainer] = useState<string | null>(null);
  const onEnd = useCallback(
    () => void client.invalidateQueries({ queryKey: appsKeys.instance(app.id) }),
    [client, app.id],
  );
  const log = useAppLog({
    base,
    instanceId: app.id,
    token: cluster.token,
    timestamps,
    reload,
    final,
    onEnd,
  });
  const listed = useAppContainers(base, app.id, !final).data;

  // The route's names, and any a line carries before the route is asked again.
  const containers = useMemo(() => {
    const names = new Set(listed ?? []);
    for (let i = 0; i < log.count; i++) names.add(log.lines.current[i].container);
    return [...names];
  }, [listed, log.count, log.lines]);
  const several = containers.length > 1;

  const shown = useMemo(() => {
    const all = log.lines.current.slice(0, log.count);
    return container && several ? all.filter((l) => l.container === container) : all;
  }, [log.lines, log.count, container, several]);
  const texts = useMemo(() => shown.map((l) => l.log), [shown]);

  return (
    <LogView
      lines={texts}
      count={texts.length}
      status={log.status}
      error={log.error}
      region={T.region}
      fileName={`${appLabel(app)}${container && several ? `-${container}` : ''}.log`}
      timestamps={timestamps}
      onTimestamps={setTimestamps}
      onReload={() => setReload((n) => n + 1)}
      labelOf={several ? (i) => shown[i]?.container : undefined}
      waiting={T.waiting}
      filters={
        several && (
          <Select
            size="xs"
            w={180}
            aria-label={T.container}
            placeholder={T.allContainers}
            data={containers}
            value={container}
            onChange={setContainer}
            clearable
          />
        )
      }
    />
  );
}
