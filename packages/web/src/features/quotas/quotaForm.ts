import {
  BorrowingLimits,
  MEMORY_UNITS,
  QUOTA_RESOURCES,
  QUOTA_TEXTS,
  ResourceLimits,
  type QuotaResource,
} from '@orrery/contract';
import type { QuotaBody, QuotaLimitsBody } from '../../api/quotas';
import { QUOTAS_UI } from './texts';

/**
 * A quota as the console edits it: one text per resource, CPU in cores, memory in GB (decimal,
 * as the console shows memory everywhere), GPUs in devices; empty is unlimited.
 */
export type QuotaFieldValues = Record<QuotaResource, string>;
export interface QuotaValues {
  nominal: QuotaFieldValues;
  borrowing: QuotaFieldValues;
}

/** A quota as answered, camelCase. */
export type QuotaLimitsSeen = Record<keyof QuotaLimitsBody, number | null>;

export const CAMEL: Record<QuotaResource, keyof QuotaLimitsBody> = {
  cpu: 'cpu',
  memory: 'memory',
  nvidia_gpu: 'nvidiaGpu',
  amd_gpu: 'amdGpu',
  intel_gpu: 'intelGpu',
};

/** What a field shows for an amount: memory in GB, the rest as is. */
export const shownAmount = (r: QuotaResource, v: number) =>
  r === 'memory' ? +(v / MEMORY_UNITS.GB).toFixed(3) : +v.toFixed(6);

const fieldsOf = (seen: QuotaLimitsSeen | undefined): QuotaFieldValues =>
  Object.fromEntries(
    QUOTA_RESOURCES.map((r) => {
      const v = seen?.[CAMEL[r]];
      return [r, v === null || v === undefined ? '' : String(shownAmount(r, v))];
    }),
  ) as QuotaFieldValues;

export const valuesOf = (
  seen?: QuotaLimitsSeen & { borrowingLimit: QuotaLimitsSeen },
): QuotaValues => ({ nominal: fieldsOf(seen), borrowing: fieldsOf(seen?.borrowingLimit) });

/**
 * The body to send, or the errors to show keyed by the wire's path (`cpu`,
 * `borrowing_limit.nvidia_gpu`), by the server's own rules (the contract's schemas).
 */
export function quotaBody(
  v: QuotaValues,
): { body: QuotaBody } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const parse = (
    fields: QuotaFieldValues,
    schema: typeof ResourceLimits,
    prefix: string,
  ): QuotaLimitsBody => {
    const out = {} as QuotaLimitsBody;
    for (const r of QUOTA_RESOURCES) {
      const text = fields[r].trim();
      let n: number | null = null;
      if (text !== '') {
        const raw = Number(text);
        n = r === 'memory' && Number.isFinite(raw) ? Math.round(raw * MEMORY_UNITS.GB) : raw;
        const issue = schema.shape[r].safeParse(n).error?.issues[0];
        if (issue) errors[`${prefix}${r}`] = issue.message;
      }
      out[CAMEL[r]] = n;
    }
    return out;
  };
  const nominal = parse(v.nominal, ResourceLimits, '');
  const borrowing = parse(v.borrowing, BorrowingLimits, 'borrowing_limit.');
  for (const r of QUOTA_RESOURCES) {
    const path = `borrowing_limit.${r}`;
    if (borrowing[CAMEL[r]] !== null && nominal[CAMEL[r]] === null && !errors[path])
      errors[path] = QUOTA_TEXTS.borrowingWithoutQuota(QUOTAS_UI.resources[r]);
  }
  if (Object.keys(errors).length) return { errors };
  return { body: { ...nominal, borrowingLimit: borrowing } };
}
