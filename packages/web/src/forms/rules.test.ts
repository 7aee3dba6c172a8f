import type { InputSchema } from '@orrery/contract';
import { describe, expect, it } from 'vitest';
import { hasErrorUnder, patternMessage, validate } from './rules';
import { buildNode } from './schema';

const one = (schema: InputSchema, value: unknown, required = true) =>
  validate(
    buildNode({ type: 'object', properties: { f: schema }, required: required ? ['f'] : [] }),
    { f: value },
  ).f;

describe('form validation', () => {
  it('requires at least one character of a required string', () => {
    expect(one({ type: 'string' }, '')).toBe('Required');
    expect(one({ type: 'string' }, undefined)).toBe('Required');
    expect(one({ type: 'string' }, 'x')).toBeUndefined();
  });

  it('requires a number for a required number', () => {
    expect(one({ type: 'number' }, undefined)).toBe('Required');
    expect(one({ type: 'integer' }, NaN)).toBe('Required');
    expect(one({ type: 'number' }, 0)).toBeUndefined();
  });

  it('leaves optional fields optional', () => {
    expect(one({ type: 'string', pattern: '^\\d+$' }, '', false)).toBeUndefined();
    expect(one({ type: 'number' }, undefined, false)).toBeUndefined();
    expect(one({ type: 'string', enum: ['a'] }, '', false)).toBeUndefined();
  });

  it('applies a pattern with the message of its kind', () => {
    expect(one({ type: 'string', pattern: '^\\d+$' }, 'a1')).toBe('Only numbers are allowed.');
    expect(one({ type: 'string', pattern: '^[a-zA-Z]+$' }, 'a1')).toBe('Only letters are allowed.');
    expect(one({ type: 'string', pattern: '^[a-zA-Z0-9]+$' }, 'a-1')).toBe(
      'Only letters and numbers are allowed.',
    );
    expect(one({ type: 'string', pattern: '^.+\\.(yaml|yml)$' }, 'x.txt')).toBe(
      'Please enter a valid file name ending with: .yaml, .yml',
    );
    expect(one({ type: 'string', pattern: '^[a-z]-x$' }, 'zz')).toBe(
      'Value does not match the required pattern: ^[a-z]-x$',
    );
    expect(one({ type: 'string', pattern: '^\\d+$' }, '12')).toBeUndefined();
  });

  it('names each pattern kind', () => {
    expect(patternMessage('^[0-9]+$')).toBe('Only numbers are allowed.');
    expect(patternMessage('^[A-Za-z]*$')).toBe('Only letters are allowed.');
    expect(patternMessage('\\.csv$')).toBe('Please enter a valid file name ending with: .csv');
  });

  it('restricts enums to their options', () => {
    expect(one({ type: 'string', enum: ['a', 'b'] }, 'c')).toBe('Choose one of the options');
    expect(one({ type: 'string', enum: ['a', 'b'] }, 'b')).toBeUndefined();
    expect(one({ type: 'string', enum: ['a', 'b'] }, '')).toBe('Required');
  });

  it('checks the schema’s bounds', () => {
    expect(one({ type: 'integer', minimum: 1 }, 0)).toBe('Must be at least 1');
    expect(one({ type: 'integer', maximum: 9 }, 10)).toBe('Must be at most 9');
    expect(one({ type: 'integer' }, 1.5)).toBe('Must be a whole number');
    expect(one({ type: 'number' }, NaN, false)).toBe('Must be a number');
    expect(one({ type: 'string', minLength: 3 }, 'ab')).toBe('Must be at least 3 characters');
  });

  it('never checks constants', () => {
    expect(one({ const: 'x' }, 'y')).toBeUndefined();
  });

  it('validates the chosen option of an any-of, a union', () => {
    const http: InputSchema = {
      anyOf: [
        { type: 'null' },
        { type: 'object', required: ['port'], properties: { port: { type: 'integer' } } },
      ],
    };
    const root = buildNode({ type: 'object', properties: { http } });
    expect(validate(root, { http: null })).toEqual({});
    expect(validate(root, { http: { port: undefined } })).toEqual({ 'http.port': 'Required' });
    expect(validate(root, { http: { port: 8080 } })).toEqual({});
  });

  it('requires a value once an optional any-of checkbox is switched on', () => {
    const root = buildNode({
      type: 'object',
      properties: { timeout: { anyOf: [{ type: 'null' }, { type: 'number' }] } },
    });
    expect(validate(root, { timeout: null })).toEqual({});
    expect(validate(root, { timeout: undefined })).toEqual({ timeout: 'Required' });
    expect(validate(root, { timeout: 5 })).toEqual({});
  });

  it('validates every item of an array: env names and values at least one character', () => {
    const root = buildNode({
      type: 'object',
      properties: {
        env: {
          type: 'array',
          'x-type': 'env',
          items: {
            type: 'object',
            required: ['name', 'value'],
            properties: { name: { type: 'string' }, value: { type: 'string' } },
          },
        },
      },
    });
    expect(
      validate(root, {
        env: [
          { name: 'A', value: '1' },
          { name: '', value: '' },
        ],
      }),
    ).toEqual({ 'env.1.name': 'Required', 'env.1.value': 'Required' });
  });

  it('tells whether a section holds an error', () => {
    expect(hasErrorUnder({ 'http.port': 'Required' }, 'http')).toBe(true);
    expect(hasErrorUnder({ 'https.port': 'Required' }, 'http')).toBe(false);
  });
});
