import { describe, expect, it } from 'vitest';
import { cacheKey, evaluateTask, parseBatch, planBake, type NeedResult } from './index.js';
import { THREE, ctx } from './test-support.js';

/** The key of the minimal flow's `left` task, after `first` gave `word`. */
function leftKey(text = THREE, word = 'hello', params: Record<string, string> = {}) {
  const plan = planBake(parseBatch(text), ctx(params));
  const left = plan.tasks.find((t) => t.id === 'left')!;
  const needs: Record<string, NeedResult> = {
    first: { result: 'succeeded', outputs: { word } },
  };
  return cacheKey(evaluateTask(left, ctx(params), needs), needs);
}

describe('cache keys', () => {
  it('gives a second identical bake the same key, a sha256 in hex', () => {
    expect(leftKey()).toMatch(/^[0-9a-f]{64}$/);
    expect(leftKey()).toBe(leftKey());
  });

  it('does not depend on the order of keys, nor on whether a need ran or was cached', () => {
    const plan = planBake(parseBatch(THREE), ctx());
    const left = plan.tasks[1];
    const a = { first: { result: 'succeeded' as const, outputs: { x: '1', word: 'w' } } };
    const b = { first: { result: 'cached' as const, outputs: { word: 'w', x: '1' } } };
    expect(cacheKey(evaluateTask(left, ctx(), a), a)).toBe(
      cacheKey(evaluateTask(left, ctx(), b), b),
    );
  });

  it('changes with the command, image, env, volumes, preset and upstream outputs', () => {
    const base = leftKey();
    const variants = [
      leftKey(THREE.replace('echo left got', 'echo left has')),
      leftKey(THREE.replace(/busybox:latest/g, 'alpine:3')),
      leftKey(THREE.replace('    needs: [first]\n', '    needs: [first]\n    env:\n      A: b\n')),
      leftKey(
        THREE.replace('    needs: [first]\n', '    needs: [first]\n    volumes: [storage:d:/d]\n'),
      ),
      leftKey(THREE.replace('    needs: [first]\n', '    needs: [first]\n    preset: gpu\n')),
      leftKey(THREE, 'goodbye'),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
  });

  it('does not change with the cache settings themselves', () => {
    const withCache = THREE.replace(
      '    needs: [first]\n',
      '    needs: [first]\n    cache:\n      life_span: 1d\n',
    );
    expect(leftKey(withCache)).toBe(leftKey());
  });
});
