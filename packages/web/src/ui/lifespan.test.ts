import { describe, expect, it } from 'vitest';
import { formatLifespan, parseLifespan } from './lifespan';

describe('lifespans', () => {
  it.each([
    ['1d 2h 3m', 93_780],
    ['1d', 86_400],
    ['2h', 7_200],
    ['45m', 2_700],
    ['1d3m', 86_580],
    ['  10h 5m ', 36_300],
  ])('parses %j as %d seconds', (text, seconds) => {
    expect(parseLifespan(text)).toBe(seconds);
  });

  it('treats an empty text as no lifespan', () => {
    expect(parseLifespan('')).toBeNull();
    expect(parseLifespan('   ')).toBeNull();
  });

  it.each(['01d', '0h', '1x', '2h 1d', '1d 1d', '1.5h', 'd', '5', '1 d'])('rejects %j', (text) => {
    expect(parseLifespan(text)).toBeUndefined();
  });

  it('formats seconds back into the same form', () => {
    expect(formatLifespan(93_780)).toBe('1d 2h 3m');
    expect(formatLifespan(86_400)).toBe('1d');
    expect(formatLifespan(20)).toBe('20s');
  });
});
