import { describe, expect, it } from 'vitest';
import {
  defaultFilters,
  monthRange,
  monthStarted,
  toggleGroup,
  yearOptions,
  yearRange,
} from './filters';

describe('billing filters', () => {
  it('start at the first of the month, by day', () => {
    expect(defaultFilters('2026-11-25')).toMatchObject({
      from: '2026-11-01',
      to: '2026-11-25',
      groups: ['day'],
    });
  });

  it('offer the years from 2024 to this one', () => {
    expect(yearOptions('2026-11-25')).toEqual([2024, 2025, 2026]);
  });

  it('set a month or a year as its whole period, never past today', () => {
    expect(monthRange(2024, 1, '2026-11-25')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(monthRange(2026, 10, '2026-11-25')).toEqual({ from: '2026-11-01', to: '2026-11-25' });
    expect(yearRange(2025, '2026-11-25')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    expect(yearRange(2026, '2026-11-25')).toEqual({ from: '2026-01-01', to: '2026-11-25' });
    expect(monthStarted(2026, 11, '2026-11-25')).toBe(false);
  });

  it('keep day and month apart, project beside either', () => {
    expect(toggleGroup(['day'], 'month')).toEqual(['month']);
    expect(toggleGroup(['project', 'month'], 'day')).toEqual(['project', 'day']);
    expect(toggleGroup(['day'], 'project')).toEqual(['day', 'project']);
    expect(toggleGroup(['day', 'project'], 'day')).toEqual(['project']);
  });
});
