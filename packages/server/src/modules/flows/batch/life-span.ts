import { BatchError } from './errors.js';

const UNITS = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/** A life span as the flow format writes it: seconds (`3600`) or a duration (`1d2h30m10s`). */
export function parseLifeSpan(text: string): number {
  const t = text.trim();
  let seconds: number | null = null;
  if (/^\d+(\.\d+)?$/.test(t)) seconds = Number(t);
  else {
    const m = t ? UNITS.exec(t) : null;
    if (m) {
      const [d, h, min, s] = m.slice(1).map((x) => Number(x ?? 0));
      seconds = ((d * 24 + h) * 60 + min) * 60 + s;
    }
  }
  if (seconds === null || !(seconds > 0)) {
    throw new BatchError(
      `bad life span \`${text}\`: write seconds or a duration such as \`1d2h30m\``,
      null,
    );
  }
  return seconds;
}
