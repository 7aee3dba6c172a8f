import { describe, expect, it } from 'vitest';
import { inlineRefs, type FormSchema } from './refs';

describe('inlineRefs', () => {
  it('replaces nested local references, keeping the keywords written next to them', () => {
    const out = inlineRefs({
      type: 'object',
      $defs: {
        Inner: { type: 'object', properties: { path: { type: 'string' } }, 'x-title': 'Inner' },
        Outer: { type: 'object', properties: { inner: { $ref: '#/$defs/Inner' } } },
      },
      properties: { outer: { $ref: '#/$defs/Outer', 'x-title': 'Mine', default: { inner: null } } },
    });
    expect(out.$defs).toBeUndefined();
    const outer = out.properties!.outer;
    expect(outer['x-title']).toBe('Mine');
    expect(outer.default).toEqual({ inner: null });
    expect(outer.properties!.inner.properties!.path.type).toBe('string');
    expect(outer.properties!.inner['x-title']).toBe('Inner');
  });

  it('reads anyOf, oneOf and single allOf wrappers around references', () => {
    const out = inlineRefs({
      definitions: { A: { type: 'string', title: 'A' } },
      properties: {
        a: { anyOf: [{ $ref: '#/definitions/A' }, { type: 'null' }] },
        b: { oneOf: [{ $ref: '#/definitions/A' }] },
        c: { allOf: [{ $ref: '#/definitions/A' }], description: 'wrapped' },
      },
    });
    expect(out.properties!.a.anyOf![0]).toEqual({ type: 'string', title: 'A' });
    expect(out.properties!.b.anyOf).toEqual([{ type: 'string', title: 'A' }]);
    expect(out.properties!.c).toEqual({ type: 'string', title: 'A', description: 'wrapped' });
  });

  it('expands a recursive definition once instead of looping', () => {
    const tree: FormSchema = {
      $defs: {
        Node: {
          type: 'object',
          title: 'Node',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/Node' } },
          },
        },
      },
      $ref: '#/$defs/Node',
    };
    const out = inlineRefs(tree);
    expect(out.properties!.label.type).toBe('string');
    expect(out.properties!.children.items).toEqual({ type: 'object', title: 'Node' });
  });

  it('names an unknown reference with the fallback text', () => {
    expect(() => inlineRefs({ properties: { a: { $ref: '#/$defs/Missing' } } })).toThrow(
      'Could not extract app schema: unknown reference #/$defs/Missing',
    );
  });
});
