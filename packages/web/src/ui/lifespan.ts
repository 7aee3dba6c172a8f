/**
 * Lifespans typed as `1d 2h 3m`: each part a number without a leading zero and
 * one of the suffixes d, h, m, each suffix at most once, in that order; kept in seconds.
 */
const UNIT_SECONDS = { d: 86_400, h: 3_600, m: 60 } as const;
const LIFESPAN = /^\s*(?:([1-9]\d*)d)?\s*(?:([1-9]\d*)h)?\s*(?:([1-9]\d*)m)?\s*$/;

/** Seconds of a lifespan; null for an empty text (no lifespan); undefined when invalid. */
export function parseLifespan(text: string): number | null | undefined {
  if (!text.trim()) return null;
  const m = LIFESPAN.exec(text);
  if (!m || (!m[1] && !m[2] && !m[3])) return undefined;
  const [d, h, min] = [m[1], m[2], m[3]].map((v) => (v ? Number(v) : 0));
  return d * UNIT_SECONDS.d + h * UNIT_SECONDS.h + min * UNIT_SECONDS.m;
}

/** 93780 → `1d 2h 3m`; parts that are zero are left out, seconds are rounded to minutes. */
export function formatLifespan(seconds: number): string {
  let rest = Math.round(seconds / 60) * 60;
  const parts: string[] = [];
  for (const [unit, size] of Object.entries(UNIT_SECONDS)) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.length > 0 ? parts.join(' ') : `${Math.round(seconds)}s`;
}
