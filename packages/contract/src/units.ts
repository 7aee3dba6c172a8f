/** Memory units of the console's forms (decimal, as the console shows memory everywhere). */
export const MEMORY_UNITS = { MB: 1e6, GB: 1e9, TB: 1e12 } as const;
export type MemoryUnit = keyof typeof MEMORY_UNITS;

/** Bytes in the largest unit that keeps the number at least 1: 64000000 → "64 MB". */
export function formatMemory(bytes: number): string {
  const unit = (['TB', 'GB', 'MB'] as const).find((u) => bytes >= MEMORY_UNITS[u]) ?? 'MB';
  return `${Number((bytes / MEMORY_UNITS[unit]).toFixed(2))} ${unit}`;
}
