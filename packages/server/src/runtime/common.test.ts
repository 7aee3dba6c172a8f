import { describe, expect, it } from 'vitest';
import { shellSplit } from './common.js';

describe('shellSplit', () => {
  it('splits as sh does, without expansions', () => {
    expect(shellSplit(`python -c 'print("a b")' "x \\"y\\" $z" a\\ b  ''`)).toEqual([
      'python',
      '-c',
      'print("a b")',
      'x "y" $z',
      'a b',
      '',
    ]);
  });
});
