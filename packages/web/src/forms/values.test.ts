import { describe, expect, it } from 'vitest';
import { buildNode } from './schema';
import {
  activeOption,
  getIn,
  initialValue,
  parseNumberInput,
  parseTags,
  resetValue,
  setIn,
} from './values';

describe('number input', () => {
  it('turns an empty input into undefined', () => {
    expect(parseNumberInput('')).toBeUndefined();
    expect(parseNumberInput('   ')).toBeUndefined();
  });
  it('reads a decimal comma as a point', () => {
    expect(parseNumberInput('1,5')).toBe(1.5);
  });
  it('truncates decimals to two digits', () => {
    expect(parseNumberInput('3.14159')).toBe(3.14);
    expect(parseNumberInput('2,999')).toBe(2.99);
    expect(parseNumberInput('-0.129')).toBe(-0.12);
  });
  it('keeps whole numbers and a trailing separator', () => {
    expect(parseNumberInput('42')).toBe(42);
    expect(parseNumberInput('7,')).toBe(7);
  });
  it('makes anything else NaN, for validation to report', () => {
    expect(parseNumberInput('abc')).toBeNaN();
    expect(parseNumberInput('1.2.3')).toBeNaN();
  });
});

describe('tags input', () => {
  it('splits by comma, trims, drops empties and duplicates', () => {
    expect(parseTags(' a, b ,,c, a , ')).toEqual(['a', 'b', 'c']);
    expect(parseTags('')).toEqual([]);
  });
});

describe('initial values', () => {
  const node = buildNode({
    type: 'object',
    properties: {
      kind: { const: 'job' },
      port: { type: 'integer', default: 80 },
      label: { type: 'string' },
      on: { type: 'boolean' },
      count: { type: 'number' },
      list: { type: 'array', items: { type: 'string' } },
      maybe: { anyOf: [{ type: 'null' }, { type: 'string' }] },
      pick: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      nested: { type: 'object', properties: { x: { type: 'string', default: 'y' } } },
    },
  });
  it('takes defaults, sets constants, leaves optional groups off', () => {
    expect(initialValue(node)).toEqual({
      kind: 'job',
      port: 80,
      label: '',
      on: false,
      count: undefined,
      list: [],
      maybe: null,
      pick: '',
      nested: { x: 'y' },
    });
  });
});

describe('any-of switching', () => {
  const node = buildNode({
    anyOf: [
      { type: 'null' },
      { type: 'string' },
      {
        type: 'object',
        properties: { kind: { const: 'a' }, port: { type: 'integer', default: 80 } },
      },
      { type: 'object', properties: { kind: { const: 'b' }, url: { type: 'string' } } },
    ],
  });
  if (node.kind !== 'anyOf') throw new Error('not an anyOf');
  const [none, text, a, b] = node.options;

  it('resets to null, an empty string or an object with the option’s defaults', () => {
    expect(resetValue(none)).toBeNull();
    expect(resetValue(text)).toBe('');
    expect(resetValue(a)).toEqual({ kind: 'a', port: 80 });
    expect(resetValue(b)).toEqual({ kind: 'b', url: '' });
  });

  it('recognizes the option a value belongs to, by type and constants', () => {
    expect(activeOption(node.options, null)).toBe(0);
    expect(activeOption(node.options, 'x')).toBe(1);
    expect(activeOption(node.options, { kind: 'a', port: 1 })).toBe(2);
    expect(activeOption(node.options, { kind: 'b', url: 'u' })).toBe(3);
    expect(activeOption(node.options, 5)).toBe(-1);
  });
});

describe('paths', () => {
  it('reads and replaces values at dotted paths without touching the original', () => {
    const root = { env: [{ name: 'A' }], http: { port: 1 } };
    const next = setIn(root, 'env.0.name', 'B');
    expect(getIn(next, 'env.0.name')).toBe('B');
    expect(getIn(root, 'env.0.name')).toBe('A');
    expect(getIn(setIn(root, 'http.port', 2), 'http')).toEqual({ port: 2 });
    expect(getIn(root, 'missing.deep')).toBeUndefined();
  });
});
