import { DISK_NAME, normalizeName } from '@orrery/contract';
import { parseLifespan } from '../../ui/lifespan';
import { DISK_NAME_INPUT, DISK_TEXTS, STORAGE_UNITS, type StorageUnit } from './texts';

export interface DiskFormValues {
  storage: string;
  unit: StorageUnit;
  name: string;
  lifespan: string;
}
export type DiskFormErrors = Partial<Record<'storage' | 'name' | 'lifespan', string>>;
export interface DiskRequest {
  storage: number;
  name: string | null;
  lifeSpan: number | null;
}

const E = DISK_TEXTS.errors;

/** The name to send: normalised like other names, or null when none was typed. */
export function diskNameOf(raw: string): string | null | undefined {
  if (!raw.trim()) return null;
  if (!DISK_NAME_INPUT.test(raw.trim())) return undefined;
  const name = normalizeName(raw);
  // The platform wants a letter first and 3 to 40 characters after normalising.
  return DISK_NAME.test(name) && name.length >= 3 && name.length <= 40 ? name : undefined;
}

/** New disk: storage, unit, name and lifespan, checked together. */
export function validateDiskForm(v: DiskFormValues): {
  errors: DiskFormErrors;
  request: DiskRequest | null;
} {
  const errors: DiskFormErrors = {};
  const text = v.storage.trim().replace(',', '.');
  const amount = Number(text);
  if (!text) errors.storage = E.storageRequired;
  else if (!Number.isFinite(amount)) errors.storage = E.storageNumber;
  else if (amount <= 0) errors.storage = E.storagePositive;
  const name = diskNameOf(v.name);
  if (name === undefined) errors.name = E.name;
  const lifeSpan = parseLifespan(v.lifespan);
  if (lifeSpan === undefined) errors.lifespan = E.lifespan;
  if (Object.keys(errors).length > 0) return { errors, request: null };
  return {
    errors,
    request: {
      storage: Math.round(amount * STORAGE_UNITS[v.unit]),
      name: name ?? null,
      lifeSpan: lifeSpan ?? null,
    },
  };
}
