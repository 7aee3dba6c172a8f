import { useEffect, useRef, useState } from 'react';
import { toCamel, type JobTopSample } from '@orrery/contract';
import { topProtocols, topUrl, type Job, type TopSample } from '../../../api/jobs';
import { canWatchLoad, percentOf } from '../rules';

/** How much live history the charts keep: two minutes at one sample a second. */
export const TOP_WINDOW_SECONDS = 120;

export type TopState = 'off' | 'connecting' | 'open' | 'closed';

/** One chart point: seconds since the epoch and percentages of the job's limits. */
export interface LoadPoint {
  time: number;
  cpu: number;
  memory: number;
  gpu?: number;
  gpuMemory?: number;
}

export function toPoint(sample: TopSample, limits: Job['container']['resources']): LoadPoint {
  return {
    time: sample.timestamp,
    cpu: percentOf(sample.cpu, limits.cpu),
    memory: percentOf(sample.memoryBytes, limits.memory),
    gpu: sample.gpuDutyCycle,
    gpuMemory: sample.gpuMemory,
  };
}

/**
 * The job's live load from the `top` WebSocket, one socket per job page shared by
 * the System Load panel and the Observability tab. It connects only while the job runs
 * and the server closes it when the job ends.
 */
export function useJobTop(job: Job | undefined, monitoringUrl: string, token: string | null) {
  const [points, setPoints] = useState<LoadPoint[]>([]);
  const [state, setState] = useState<TopState>('connecting');
  const watch = !!job && canWatchLoad(job.status);
  const id = job?.id;
  // The socket must not restart on every 10 s refresh, so samples read the limits from a ref.
  const limits = useRef(job?.container.resources);
  useEffect(() => {
    limits.current = job?.container.resources;
  });

  useEffect(() => {
    if (!watch || !id) return;
    const socket = new WebSocket(topUrl(monitoringUrl, id), topProtocols(token));
    socket.onopen = () => setState('open');
    socket.onclose = () => setState('closed');
    socket.onmessage = (event) => {
      if (typeof event.data !== 'string' || !limits.current) return;
      let sample: TopSample;
      try {
        sample = toCamel(JSON.parse(event.data) as JobTopSample);
      } catch {
        return;
      }
      const point = toPoint(sample, limits.current);
      setPoints((prev) => [...prev, point].filter((p) => p.time > point.time - TOP_WINDOW_SECONDS));
    };
    return () => socket.close();
  }, [watch, id, monitoringUrl, token]);

  return { points, state: watch ? state : ('off' as TopState), latest: points.at(-1) ?? null };
}
