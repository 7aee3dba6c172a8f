import { useEffect, useRef, useState } from 'react';
import { APP_LOG_RECONNECT_MS, type AppLogLine } from '../../../api/apps';
import { streamLog } from '../../../api/jobs';
import { messageOf } from '../../../ui/errors';
import { LOG_FLUSH_MS, type LogStatus } from '../../jobs/logs/useLogStream';
import { APPS_TEXTS } from '../texts';

/**
 * An instance's log (`GET {monitoring}/apps/{id}/log`, NDJSON of `{job_id, container, log}`) as
 * a growing array, published at most every LOG_FLUSH_MS like a job's. While the instance is not
 * final a stream that ends is read again after APP_LOG_RECONNECT_MS; the server sends each job's
 * lines from its start again, so the lines of a job already shown are skipped by their count.
 * `reload` or a timestamps toggle reads the log anew.
 */
export function useAppLog(opts: {
  base: string;
  instanceId: string;
  token: string | null;
  timestamps: boolean;
  reload: number;
  final: boolean;
  /** The stream ended: the instance's state has likely changed. */
  onEnd?: () => void;
}) {
  const { base, instanceId, token, timestamps, reload, final } = opts;
  const lines = useRef<AppLogLine[]>([]);
  const perJob = useRef(new Map<string, number>());
  const reading = useRef('');
  const [count, setCount] = useState(0);
  const [status, setStatus] = useState<LogStatus>('streaming');
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const finalNow = useRef(final);
  finalNow.current = final;
  const onEnd = useRef(opts.onEnd);
  onEnd.current = opts.onEnd;

  useEffect(() => {
    const key = `${base}|${instanceId}|${token}|${timestamps}|${reload}`;
    if (reading.current !== key) {
      reading.current = key;
      lines.current = [];
      perJob.current = new Map();
      setCount(0);
    }
    const controller = new AbortController();
    const arrived = new Map<string, number>();
    let partial = '';
    let timer: ReturnType<typeof setTimeout> | null = null;
    const publish = () => {
      timer = null;
      setCount(lines.current.length);
    };
    const take = (text: string) => {
      if (!text.trim()) return;
      const line = JSON.parse(text) as AppLogLine;
      const n = (arrived.get(line.job_id) ?? 0) + 1;
      arrived.set(line.job_id, n);
      if (n <= (perJob.current.get(line.job_id) ?? 0)) return;
      perJob.current.set(line.job_id, n);
      lines.current.push(line);
    };
    setStatus('streaming');
    setError(null);
    streamLog(base, instanceId, {
      token,
      timestamps,
      accept: 'application/x-ndjson',
      signal: controller.signal,
      onText: (text) => {
        const parts = (partial + text).split('\n');
        partial = parts.pop() ?? '';
        parts.forEach(take);
        if (parts.length) timer ??= setTimeout(publish, LOG_FLUSH_MS);
      },
    })
      .then(() => {
        take(partial);
        if (timer) clearTimeout(timer);
        publish();
        onEnd.current?.();
        if (finalNow.current) setStatus('ended');
        else timer = setTimeout(() => setAttempt((a) => a + 1), APP_LOG_RECONNECT_MS);
      })
      .catch((e: unknown) => {
        if (controller.signal.aborted) return;
        if (timer) clearTimeout(timer);
        publish();
        setStatus('failed');
        setError(messageOf(e, APPS_TEXTS.details.log.failed));
      });
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [base, instanceId, token, timestamps, reload, attempt]);

  // A final instance that runs again (configured anew) has more to say.
  useEffect(() => {
    if (!final && status === 'ended') setAttempt((a) => a + 1);
  }, [final, status]);

  return { lines, count, status, error };
}
