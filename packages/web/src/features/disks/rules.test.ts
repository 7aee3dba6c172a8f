import { describe, expect, it } from 'vitest';
import { validateDiskForm, type DiskFormValues } from './rules';

const form = (over: Partial<DiskFormValues>): DiskFormValues => ({
  storage: '10',
  unit: 'GB',
  name: '',
  lifespan: '',
  ...over,
});

describe('new disk rules', () => {
  it('converts GB and TB with decimal multipliers and normalises the name', () => {
    expect(validateDiskForm(form({ name: ' My Data ', lifespan: '1d' })).request).toEqual({
      storage: 10 * 10 ** 9,
      name: 'my-data',
      lifeSpan: 86_400,
    });
    expect(validateDiskForm(form({ storage: '1,5', unit: 'TB' })).request).toEqual({
      storage: 1.5 * 10 ** 12,
      name: null,
      lifeSpan: null,
    });
  });

  it.each([
    [{ storage: '' }, 'storage', 'Storage is required'],
    [{ storage: 'ten' }, 'storage', 'Storage must be a number'],
    [{ storage: '0' }, 'storage', 'Storage must be positive'],
    [{ storage: '-3' }, 'storage', 'Storage must be positive'],
    [{ name: 'ab' }, 'name', 'Invalid name'],
    [{ name: 'a'.repeat(41) }, 'name', 'Invalid name'],
    [{ name: 'data_set' }, 'name', 'Invalid name'],
    [{ name: '1st disk' }, 'name', 'Invalid name'],
    [{ lifespan: '1 day' }, 'lifespan', 'Invalid lifespan value'],
  ] as const)('%j → %s: %s', (over, field, message) => {
    const { errors, request } = validateDiskForm(form(over));
    expect(errors[field]).toBe(message);
    expect(request).toBeNull();
  });
});
