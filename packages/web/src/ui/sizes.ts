/**
 * Byte sizes: shown with decimal units K, M, G, T at 1000 (or binary Ki, Mi, Gi,
 * Ti at 1024) and one decimal; parsed as a number with an optional unit and an optional b/B.
 */
const DECIMAL = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
const BINARY = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

export function formatSize(bytes: number, binary = false): string {
  const base = binary ? 1024 : 1000;
  const units = binary ? BINARY : DECIMAL;
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= base && unit < units.length - 1) {
    value /= base;
    unit += 1;
  }
  if (unit === 0) return `${bytes} B`;
  return `${value.toFixed(1).replace(/\.0$/, '')} ${units[unit]}`;
}

/** Unit multipliers (`m` counts as mega: sizes have no milli). */
export const SIZE_MULTIPLIERS: Record<string, number> = {
  '': 1,
  Ki: 1024,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  k: 1e3,
  K: 1e3,
  m: 1e6,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
};

/** `10G`, `1.5 Gi`, `500MB`, `42` → bytes; null when it is not a size. */
export function parseSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([kKmMGTP]i?)?[bB]?\s*$/.exec(text);
  if (!m) return null;
  const multiplier = SIZE_MULTIPLIERS[m[2] ?? ''];
  return multiplier === undefined ? null : Math.round(Number(m[1]) * multiplier);
}
