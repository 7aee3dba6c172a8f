import { describe, expect, it } from 'vitest';
import { buildNode, optionLabel } from './schema';

describe('schema nodes', () => {
  it('makes fields of every type', () => {
    const root = buildNode({
      type: 'object',
      required: ['s'],
      properties: {
        b: { type: 'boolean' },
        s: { type: 'string' },
        e: { type: 'string', enum: ['x', 'y'], 'x-enum-titles': ['Ex'] },
        i: { type: 'integer' },
        n: { type: 'number' },
        f: { type: 'float' as 'number' },
        c: { const: 1 },
      },
    });
    if (root.kind !== 'container') throw new Error('not a container');
    expect(root.children.map((c) => (c.kind === 'field' ? c.type : c.kind))).toEqual([
      'boolean',
      'string',
      'enum',
      'integer',
      'number',
      'number',
      'const',
    ]);
    expect(root.children[1].required).toBe(true);
    expect(root.children[0].required).toBe(false);
    const e = root.children[2];
    expect(e.kind === 'field' && e.options).toEqual([
      { value: 'x', label: 'Ex' },
      { value: 'y', label: 'y' },
    ]);
  });

  it('prefers x-title and x-description, else humanizes the name', () => {
    const root = buildNode({
      type: 'object',
      properties: {
        a: { type: 'string', title: 'T', 'x-title': 'X', description: 'd', 'x-description': 'xd' },
        max_run_time: { type: 'integer' },
      },
    });
    if (root.kind !== 'container') throw new Error('not a container');
    expect(root.children[0]).toMatchObject({ title: 'X', description: 'xd' });
    expect(root.children[1].title).toBe('Max run time');
  });

  it('picks checkbox, collapsible or select for an any-of', () => {
    const mode = (anyOf: object[]) => {
      const n = buildNode({ anyOf } as never);
      return n.kind === 'anyOf' ? n.mode : null;
    };
    expect(mode([{ type: 'null' }, { type: 'string' }])).toBe('checkbox');
    expect(mode([{ type: 'object', properties: {} }, { type: 'null' }])).toBe('collapsible');
    expect(mode([{ type: 'string' }, { type: 'integer' }])).toBe('select');
    expect(mode([{ type: 'null' }, { type: 'string' }, { type: 'integer' }])).toBe('select');
  });

  it('labels any-of options', () => {
    const n = buildNode({ anyOf: [{ type: 'null' }, { type: 'string', title: 'Text' }] });
    if (n.kind !== 'anyOf') throw new Error('not an anyOf');
    expect(n.options.map(optionLabel)).toEqual(['None', 'Text']);
  });

  it('makes arrays with their item and widget', () => {
    const n = buildNode({ type: 'array', items: { type: 'number' }, 'x-type': 'tags' });
    expect(n.kind === 'array' && [n.item.kind, n.widget]).toEqual(['field', 'tags']);
  });
});
