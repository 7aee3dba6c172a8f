import type { Preset } from './environment';

/** The fallback preset has at least half a CPU and 1 GB of memory. */
export const FALLBACK_MIN_CPU = 0.5;
export const FALLBACK_MIN_MEMORY = 1e9;

const byCpuThenMemory = (a: Preset, b: Preset) => a.cpu - b.cpu || a.memory - b.memory;

/**
 * The preset a form uses: the wanted one when the cluster has it, else the smallest (by cpu,
 * then memory) that is big enough to be useful; null when none is — the form then warns.
 */
export function choosePreset(presets: readonly Preset[], wanted?: string | null): Preset | null {
  const exact = wanted ? presets.find((p) => p.name === wanted) : undefined;
  if (exact) return exact;
  return (
    [...presets]
      .sort(byCpuThenMemory)
      .find((p) => p.cpu >= FALLBACK_MIN_CPU && p.memory >= FALLBACK_MIN_MEMORY) ?? null
  );
}
