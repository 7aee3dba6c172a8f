import { describe, expect, it } from 'vitest';
import { formatSize, parseSize } from './sizes';

describe('sizes', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1 KB'],
    [1500, '1.5 KB'],
    [10 ** 10, '10 GB'],
    [1.25e12, '1.3 TB'],
    [5e15, '5000 TB'],
  ])('formats %d bytes as %s with decimal units', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });

  it('formats with binary units on request', () => {
    expect(formatSize(1536, true)).toBe('1.5 KiB');
    expect(formatSize(2 ** 30, true)).toBe('1 GiB');
  });

  it.each([
    ['42', 42],
    ['10G', 1e10],
    ['10GB', 1e10],
    ['1.5 Gi', 1.5 * 2 ** 30],
    ['2k', 2000],
    ['3m', 3e6],
    ['1Ti', 2 ** 40],
    ['1P', 1e15],
    ['7b', 7],
  ])('parses %s as %d bytes', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });

  it.each(['', 'ten', '10 X', '-1G', '1.2.3'])('does not parse %j', (text) => {
    expect(parseSize(text)).toBeNull();
  });
});
