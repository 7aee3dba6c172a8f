import { useEffect, useRef, useState } from 'react';
import { streamLog } from '../../../api/jobs';
import { messageOf } from '../../../ui/errors';
import { JOBS_TEXTS } from '../texts';

/** Renders at most this often while lines pour in: 100k lines stay smooth. */
export const LOG_FLUSH_MS = 100;

export type LogStatus = 'streaming' | 'ended' | 'failed';

/**
 * The job's log as a growing array of lines, read with fetch + ReadableStream. Lines are kept in
 * a ref and published at most every LOG_FLUSH_MS, so a fast writer costs a few renders a second.
 * `reload` (or a timestamps toggle) reads the log again from the start.
 */
export function useLogStream(opts: {
  monitoringUrl: string;
  jobId: string;
  token: string | null;
  timestamps: boolean;
  reload: number;
  /** One worker's own log, of a job of several; absent: the job's (merged) log. */
  worker?: number;
}) {
  const { monitoringUrl, jobId, token, timestamps, reload, worker } = opts;
  const lines = useRef<string[]>([]);
  const [count, setCount] = useState(0);
  const [status, setStatus] = useState<LogStatus>('streaming');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    let partial = '';
    let timer: ReturnType<typeof setTimeout> | null = null;
    const publish = () => {
      timer = null;
      setCount(lines.current.length);
    };
    lines.current = [];
    setCount(0);
    setStatus('streaming');
    setError(null);
    streamLog(monitoringUrl, jobId, {
      token,
      timestamps,
      worker,
      signal: controller.signal,
      onText: (text) => {
        const parts = (partial + text).split('\n');
        partial = parts.pop() ?? '';
        if (!parts.length) return;
        for (const p of parts) lines.current.push(p.endsWith('\r') ? p.slice(0, -1) : p);
        timer ??= setTimeout(publish, LOG_FLUSH_MS);
      },
    })
      .then(() => {
        if (partial) lines.current.push(partial);
        if (timer) clearTimeout(timer);
        publish();
        setStatus('ended');
      })
      .catch((e: unknown) => {
        if (controller.signal.aborted) return;
        if (timer) clearTimeout(timer);
        publish();
        setStatus('failed');
        setError(messageOf(e, JOBS_TEXTS.logs.failed));
      });
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [monitoringUrl, jobId, token, timestamps, reload, worker]);

  return { lines, count, status, error };
}
