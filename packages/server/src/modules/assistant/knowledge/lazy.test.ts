import { describe, expect, it } from 'vitest';
import { lazyKnowledge } from './index.js';

/**
 * The knowledge is built when first wanted (the first assistant socket warms it), not while the
 * server starts: building it right after listening held the first requests for about 0.4 s.
 */
describe('the assistant knowledge, built when first wanted', () => {
  it('builds nothing until used, then once, whether warmed or asked first', () => {
    const built: number[] = [];
    const kb = lazyKnowledge((k) => built.push(k.stats.sections));
    expect(built).toEqual([]);
    kb.warm();
    expect(built).toHaveLength(1);
    expect(built[0]).toBeGreaterThan(0);
    kb.nearest('How do I run a job?', 3);
    kb.warm();
    expect(built).toHaveLength(1);
  });
});
