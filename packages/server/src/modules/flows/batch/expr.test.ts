import { describe, expect, it } from 'vitest';
import { evaluateTask, parseBatch, planBake, type NeedResult } from './index.js';
import { ctx, refusal } from './test-support.js';

/**
 * A flow whose task `t` (needing `a` and `b`) sets `X` to `expr`; returns X as evaluated with
 * the given params and need results.
 */
function evalX(
  expr: string,
  opts: { params?: Record<string, string>; needs?: Record<string, NeedResult> } = {},
) {
  const text = `kind: batch
title: The flow
params:
  name: world
  n: "3"
tasks:
  - id: a
    image: busybox
    cmd: echo a
  - id: b
    image: busybox
    cmd: echo b
  - id: t
    needs: [a, b]
    enable: \${{ always() }}
    image: busybox
    cmd: echo
    env:
      X: ${JSON.stringify(expr)}
`;
  const c = ctx(opts.params);
  const plan = planBake(parseBatch(text), c);
  const ok: NeedResult = { result: 'succeeded', outputs: { word: 'hi', json: '{"k":[1,2]}' } };
  const needs = opts.needs ?? { a: ok, b: { result: 'succeeded', outputs: {} } };
  return evaluateTask(plan.tasks[2], c, needs).env.X;
}

describe('${{ }} expressions', () => {
  it('interpolates expressions into the text around them', () => {
    expect(evalX('hello ${{ params.name }}, ${{ needs.a.outputs.word }}!')).toBe(
      'hello world, hi!',
    );
    expect(evalX('${{params.name}}${{ params.n }}')).toBe('world3');
  });

  it('reads the flow and project contexts', () => {
    expect(evalX('${{ flow.flow_id }} ${{ flow.project_id }} ${{ flow.title }}')).toBe(
      'train demo_flow Demo',
    );
    expect(evalX('${{ project.id }} ${{ project.owner }} ${{ project.project_name }}')).toBe(
      'demo_flow alice vision',
    );
  });

  it('reads a need’s result', () => {
    const needs = {
      a: { result: 'failed' as const, outputs: {} },
      b: { result: 'cached' as const, outputs: {} },
    };
    expect(evalX('${{ needs.a.result }}/${{ needs.b.result }}', { needs })).toBe('failed/cached');
  });

  it('compares and combines with ==, !=, &&, ||, ! and parentheses', () => {
    expect(evalX("${{ params.name == 'world' }}")).toBe('true');
    expect(evalX("${{ params.name != 'world' }}")).toBe('false');
    expect(evalX('${{ params.n == 3 }}')).toBe('true');
    expect(evalX('${{ params.n > 2 && params.n <= 3 }}')).toBe('true');
    expect(evalX("${{ !(params.name == 'world') || false }}")).toBe('false');
    expect(evalX("${{ params.name == 'x' || 'fallback' }}")).toBe('fallback');
    expect(evalX("${{ true && 1.5 }} ${{ null }}|${{ \"a\\\"b\" }} ${{ 'it''s' }}")).toBe(
      '1.5 |a"b it\'s',
    );
  });

  it('calls format, fromJSON and toJSON', () => {
    expect(evalX("${{ format('{0}-{1}-{0} {{x}}', params.name, 7) }}")).toBe('world-7-world {x}');
    expect(evalX('${{ fromJSON(needs.a.outputs.json).k[1] }}')).toBe('2');
    expect(evalX('${{ toJSON(fromJSON(needs.a.outputs.json)) }}')).toBe('{"k":[1,2]}');
    expect(evalX('${{ fromJSON(\'{"a": 1}\').missing }}')).toBe('');
  });

  it('answers success(), failure() and always() over the task’s needs', () => {
    const needs = (a: NeedResult['result'], b: NeedResult['result']) => ({
      needs: { a: { result: a, outputs: {} }, b: { result: b, outputs: {} } },
    });
    const fns = "${{ success() }} ${{ failure() }} ${{ always() }} ${{ success('b') }}";
    expect(evalX(fns, needs('succeeded', 'cached'))).toBe('true false true true');
    expect(evalX(fns, needs('failed', 'succeeded'))).toBe('false true true true');
    expect(evalX(fns, needs('skipped', 'cancelled'))).toBe('false false true false');
  });

  it.each([
    ['${{ params.nope }}', 'unknown name `params.nope`'],
    ['${{ nope.x }}', 'unknown name `nope`'],
    ['${{ needs.c.outputs.x }}', 'unknown name `needs.c`'],
    ['${{ needs.a.output.x }}', 'unknown name `needs.a.output`'],
    ['${{ matrix.n }}', 'unknown name `matrix.n`'],
    ['${{ flow.workspace }}', 'unknown name `flow.workspace`'],
    ['${{ upper(params.name) }}', 'unknown function `upper`'],
    ['${{ format() }}', 'wrong number of arguments to `format()`'],
    ['${{ always(1) }}', 'wrong number of arguments to `always()`'],
    ['${{ params.name.x }}', 'cannot read `x` of string "world"'],
    ['${{ params.name = 1 }}', 'unexpected `=` in an expression'],
    ['${{ }}', '`${{ }}` is empty'],
    ['${{ params. }}', 'a name expected after `.`, found end in `${{ params. }}`'],
  ])('refuses %s, naming the line and the task', (expr, reason) => {
    const e = refusal(() => evalX(expr));
    expect(e.line).toBe(19);
    expect(e.message).toContain(`line 19: task \`t\`: ${reason}`);
  });

  it('refuses an output the need did not set, when the task is evaluated', () => {
    const e = refusal(() => evalX('${{ needs.b.outputs.word }}'));
    expect(e.message).toBe('line 19: task `t`: unknown name `needs.b.outputs.word`');
  });

  it('refuses fromJSON of text that is not JSON and format of a missing argument', () => {
    expect(refusal(() => evalX('${{ fromJSON(needs.a.outputs.word) }}')).message).toContain(
      'fromJSON: not JSON: "hi"',
    );
    expect(refusal(() => evalX("${{ format('{1}', 'a') }}")).message).toContain(
      'format: no argument {1}',
    );
  });

  it('never reaches JavaScript: no globals, no prototypes, no method calls', () => {
    expect(refusal(() => evalX('${{ process.env }}')).message).toContain('unknown name `process`');
    expect(refusal(() => evalX('${{ params.constructor }}')).message).toContain(
      'unknown name `params.constructor`',
    );
    expect(evalX("${{ fromJSON('{}').constructor }}${{ fromJSON('{}')['__proto__'] }}")).toBe('');
    expect(refusal(() => evalX("${{ params.name.concat('x') }}")).message).toContain(
      "unexpected `('x')` in",
    );
  });
});
