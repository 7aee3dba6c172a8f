/** What the engine's stats stream sends, in the parts a sample needs. */
export interface EngineStats {
  read: string;
  cpu_stats: {
    cpu_usage: { total_usage: number };
    system_cpu_usage?: number;
    online_cpus?: number;
  };
  precpu_stats: { cpu_usage: { total_usage: number }; system_cpu_usage?: number };
  memory_stats: { usage?: number; stats?: { cache?: number; inactive_file?: number } };
}

/**
 * CPU in cores and memory without the page cache (the kernel reclaims it; `docker stats` leaves
 * it out too), or null once the container has stopped.
 */
export function engineSample(s: EngineStats, machineCpus: number) {
  if (!s.memory_stats.usage) return null;
  const cpuDelta = s.cpu_stats.cpu_usage.total_usage - s.precpu_stats.cpu_usage.total_usage;
  const systemDelta = (s.cpu_stats.system_cpu_usage ?? 0) - (s.precpu_stats.system_cpu_usage ?? 0);
  const cpus = s.cpu_stats.online_cpus ?? machineCpus;
  const cache = s.memory_stats.stats?.inactive_file ?? s.memory_stats.stats?.cache ?? 0;
  return {
    cpu: systemDelta > 0 ? (cpuDelta / systemDelta) * cpus : 0,
    memoryBytes: Math.max(0, s.memory_stats.usage - cache),
    timestamp: new Date(s.read).getTime() / 1000,
  };
}
