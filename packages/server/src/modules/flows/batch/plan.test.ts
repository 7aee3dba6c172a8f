import { describe, expect, it } from 'vitest';
import {
  BatchError,
  evaluateTask,
  parseBatch,
  planBake,
  resolveParams,
  type FlowContextInput,
} from './index.js';

/** The wire reference's minimal batch flow (apolo-flow-wire.md, "A minimal batch flow"). */
export const THREE = `kind: batch
params:
  greeting: hello
tasks:
  - id: first
    image: busybox:latest
    cmd: sh -c "echo ::set-output name=word::\${{ params.greeting }}"
  - id: left
    needs: [first]
    image: busybox:latest
    cmd: sh -c "echo left got \${{ needs.first.outputs.word }}"
  - id: right
    needs: [first]
    image: busybox:latest
    cmd: sh -c "echo right got \${{ needs.first.outputs.word }}"
`;

export const ctx = (params: Record<string, string> = {}): FlowContextInput => ({
  flowId: 'demo_flow',
  projectId: 'projects-1',
  title: 'Demo',
  cluster: 'default',
  org: 'acme',
  project: 'vision',
  owner: 'alice',
  params,
});

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof BatchError) return e;
    throw e;
  }
  throw new Error('not refused');
};

describe('planning a bake', () => {
  it('plans the minimal three-task flow with the graphs the client posts', () => {
    const plan = planBake(parseBatch(THREE), ctx());
    expect(plan.graphs).toEqual({ '': { first: [], left: ['first'], right: ['first'] } });
    expect(plan.tasks.map((t) => t.id)).toEqual(['first', 'left', 'right']);
  });

  it('passes an output through needs into the dependants’ commands', () => {
    const plan = planBake(parseBatch(THREE), ctx());
    const [first, left, right] = plan.tasks;
    expect(evaluateTask(first, ctx(), {}).command).toBe(
      'sh -c "echo ::set-output name=word::hello"',
    );
    const needs = { first: { result: 'succeeded' as const, outputs: { word: 'hi there' } } };
    expect(evaluateTask(left, ctx(), needs).command).toBe('sh -c "echo left got hi there"');
    expect(evaluateTask(right, ctx(), needs)).toMatchObject({
      enabled: true,
      image: 'busybox:latest',
      command: 'sh -c "echo right got hi there"',
    });
  });

  it('applies a param given at start over its default', () => {
    const plan = planBake(parseBatch(THREE), ctx({ greeting: 'bonjour' }));
    expect(evaluateTask(plan.tasks[0], ctx({ greeting: 'bonjour' }), {}).command).toContain(
      'name=word::bonjour',
    );
  });

  it('refuses an unknown param and a missing one', () => {
    const flow = parseBatch(THREE.replace('greeting: hello', 'greeting:\n  other: x'));
    expect(flow.params).toEqual([
      { name: 'greeting', default: null, descr: null },
      { name: 'other', default: 'x', descr: null },
    ]);
    expect(refusal(() => resolveParams(flow, {})).message).toBe(
      'param `greeting` has no default and was not given',
    );
    expect(refusal(() => resolveParams(flow, { greeting: 'a', nope: 'b' })).message).toBe(
      'unknown param `nope`',
    );
    expect(resolveParams(flow, { greeting: 'a' })).toEqual({ greeting: 'a', other: 'x' });
  });

  it('reads long-form params with their descriptions', () => {
    const flow = parseBatch(
      THREE.replace(
        'greeting: hello',
        'greeting:\n    default: hello\n    descr: What to say\n  epochs: 3',
      ),
    );
    expect(flow.params).toEqual([
      { name: 'greeting', default: 'hello', descr: 'What to say' },
      { name: 'epochs', default: '3', descr: null },
    ]);
  });
});
