import { describe, expect, it } from 'vitest';
import { NODE_SIZE } from '../texts';
import { layoutShape, shapeOf } from './layout';

describe('bake graph layout', () => {
  it('reads every task and its needs, nested ones under their dot-joined prefix', () => {
    const shape = shapeOf({
      '': { first: [], left: ['first'], right: ['first'], inner: ['left'] },
      inner: { a: [], b: ['a'] },
    });
    expect(shape.ids).toEqual(['first', 'left', 'right', 'inner', 'inner.a', 'inner.b']);
    expect(shape.edges).toEqual([
      { source: 'first', target: 'left' },
      { source: 'first', target: 'right' },
      { source: 'left', target: 'inner' },
      { source: 'inner.a', target: 'inner.b' },
    ]);
  });

  it('leaves out a need that names no task instead of inventing a node', () => {
    expect(shapeOf({ '': { a: ['ghost'] } }).edges).toEqual([]);
  });

  it('puts needs above their dependants and keeps nodes of one rank apart', () => {
    const at = layoutShape(
      shapeOf({ '': { first: [], left: ['first'], right: ['first'], last: ['left', 'right'] } }),
    );
    expect(at.get('left')!.y).toBeGreaterThanOrEqual(at.get('first')!.y + NODE_SIZE.height);
    expect(at.get('last')!.y).toBeGreaterThanOrEqual(at.get('left')!.y + NODE_SIZE.height);
    expect(at.get('left')!.y).toBe(at.get('right')!.y);
    expect(Math.abs(at.get('left')!.x - at.get('right')!.x)).toBeGreaterThanOrEqual(
      NODE_SIZE.width,
    );
  });
});
