import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  evaluateTask,
  parseBatch,
  parseTaskLog,
  planBake,
  resolveParams,
  type NeedResult,
  type TaskRun,
} from './index.js';
import { THREE, ctx, refusal } from './test-support.js';

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

describe('matrices', () => {
  const FAN = `kind: batch
tasks:
  - id: prep
    image: busybox
    cmd: echo prep
  - id: fan_\${{ matrix.n }}_\${{ matrix.size }}
    needs: [prep]
    strategy:
      matrix:
        n: [1, 2]
        size: [small, big]
    image: busybox
    cmd: echo \${{ matrix.n }} \${{ matrix.size }}
  - id: gather
    needs: [fan_1_small, fan_1_big, fan_2_small, fan_2_big]
    image: busybox
    cmd: echo done
`;

  it('fans a task out over the product of its matrix, with ids and graphs', () => {
    const plan = planBake(parseBatch(FAN), ctx());
    const fans = ['fan_1_small', 'fan_1_big', 'fan_2_small', 'fan_2_big'];
    expect(plan.tasks.map((t) => t.id)).toEqual(['prep', ...fans, 'gather']);
    expect(plan.graphs).toEqual({
      '': {
        prep: [],
        ...Object.fromEntries(fans.map((id) => [id, ['prep']])),
        gather: fans,
      },
    });
    const fan = plan.tasks[2];
    expect(fan.matrix).toEqual({ n: '1', size: 'big' });
    const needs = { prep: { result: 'succeeded' as const, outputs: {} } };
    expect(evaluateTask(fan, ctx(), needs).command).toBe('echo 1 big');
  });

  it('evaluates needs with the matrix, pairing two fan-outs', () => {
    const plan = parseAndPlan(`kind: batch
tasks:
  - id: train_\${{ matrix.n }}
    strategy: {matrix: {n: [a, b]}}
    image: busybox
    cmd: "true"
  - id: eval_\${{ matrix.n }}
    needs:
      - train_\${{ matrix.n }}
    strategy: {matrix: {n: [a, b]}}
    image: busybox
    cmd: "true"
`);
    expect(plan.graphs['']).toEqual({
      train_a: [],
      eval_a: ['train_a'],
      train_b: [],
      eval_b: ['train_b'],
    });
  });

  it('takes matrix values as written', () => {
    const plan = parseAndPlan(`kind: batch
tasks:
  - id: fit_\${{ matrix.n }}
    strategy:
      matrix:
        n: [010, 0x1, true]
        lr: [1.0]
    image: busybox
    cmd: fit --lr \${{ matrix.lr }}
`);
    expect(plan.tasks.map((t) => t.id)).toEqual(['fit_010', 'fit_0x1', 'fit_true']);
    expect(evaluateTask(plan.tasks[0], ctx(), {}).command).toBe('fit --lr 1.0');
  });

  it('names the ids a matrix made when a need names the matrix task', () => {
    const e = refusal(() =>
      parseAndPlan(
        FAN.replace('needs: [fan_1_small, fan_1_big, fan_2_small, fan_2_big]', 'needs: [fan]'),
      ),
    );
    expect(e.message).toBe(
      'line 15: task `gather` needs `fan`, which is not a task (the matrix of `fan_${{ matrix.n }}_${{ matrix.size }}` makes `fan_1_small`, `fan_1_big`, `fan_2_small`, `fan_2_big`)',
    );
  });

  it('refuses a matrix whose id has no matrix expression', () => {
    const e = refusal(() =>
      parseAndPlan(FAN.replace('fan_${{ matrix.n }}_${{ matrix.size }}', 'fan')),
    );
    expect(e.line).toBe(6);
    expect(e.message).toBe(
      'line 6: task `fan` has a matrix: its id needs a matrix expression, such as `fan_${{ matrix.n }}`',
    );
  });

  it('refuses ids that only some matrix values make different', () => {
    const e = refusal(() => parseAndPlan(FAN.replace('_${{ matrix.size }}', '')));
    expect(e.message).toBe(
      'line 6: the matrix gives two tasks the id `fan_1`: use each matrix name in the id',
    );
  });
});

const parseAndPlan = (text: string) => planBake(parseBatch(text), ctx());

describe('needs', () => {
  const task = (id: string, needs: string[]) =>
    `  - id: ${id}\n    needs: [${needs.join(', ')}]\n    image: busybox\n    cmd: "true"\n`;

  it('orders a diamond written backwards so that each task comes after its needs', () => {
    const text =
      'kind: batch\ntasks:\n' +
      task('last', ['left', 'right']) +
      task('left', ['first']) +
      task('right', ['first']) +
      task('first', []);
    const plan = parseAndPlan(text);
    expect(plan.tasks.map((t) => t.id)).toEqual(['first', 'left', 'right', 'last']);
    expect(plan.graphs['']).toEqual({
      first: [],
      left: ['first'],
      right: ['first'],
      last: ['left', 'right'],
    });
  });

  it('refuses a need that is not a task, naming its line', () => {
    const e = refusal(() =>
      parseAndPlan('kind: batch\ntasks:\n' + task('a', []) + task('b', ['a', 'nope'])),
    );
    expect(e.message).toBe('line 8: task `b` needs `nope`, which is not a task');
  });

  it('refuses a duplicate id', () => {
    const e = refusal(() => parseAndPlan('kind: batch\ntasks:\n' + task('a', []) + task('a', [])));
    expect(e.message).toBe('line 7: duplicate task id `a`');
  });

  it('refuses a cycle, naming it', () => {
    const e = refusal(() =>
      parseAndPlan(
        'kind: batch\ntasks:\n' + task('a', ['c']) + task('b', ['a']) + task('c', ['b']),
      ),
    );
    expect(e.message).toBe('line 3: the needs make a cycle: `a` → `c` → `b` → `a`');
    const self = refusal(() => parseAndPlan('kind: batch\ntasks:\n' + task('a', ['a'])));
    expect(self.message).toBe('line 3: the needs make a cycle: `a` → `a`');
  });

  it('refuses an expression over a task that is not a need, before the bake starts', () => {
    const text =
      'kind: batch\ntasks:\n' +
      task('a', []) +
      task('b', []) +
      '    env:\n      W: ${{ needs.a.outputs.word }}\n';
    expect(refusal(() => parseAndPlan(text)).message).toBe(
      'line 12: task `b`: unknown name `needs.a`',
    );
  });
});

describe('the diamond of docs/flows.md', () => {
  const docs = readFileSync(new URL('../../../../../../docs/flows.md', import.meta.url), 'utf8');
  const section = docs.slice(docs.indexOf('## Parser: the batch YAML Orrery runs'));
  const example = /```yaml\n([\s\S]*?)```/.exec(section)![1];

  /** Runs a task's command in a local shell (the image aside) and reads its log's outputs. */
  const runLocally = (command: string) =>
    parseTaskLog(execFileSync('/bin/sh', ['-c', command], { encoding: 'utf8' })).outputs;

  it('plans the documented graph and passes outputs through needs', () => {
    const c = ctx({ epochs: '5' });
    const plan = planBake(parseBatch(example), c);
    expect(plan.graphs).toEqual({
      '': {
        prepare: [],
        train_1: ['prepare'],
        train_2: ['prepare'],
        compare: ['train_1', 'train_2'],
        report: ['compare'],
      },
    });
    const results: Record<string, NeedResult> = {};
    const ran: Record<string, TaskRun> = {};
    for (const t of plan.tasks) {
      const needs = Object.fromEntries(t.needs.map((n) => [n, results[n]]));
      const run = evaluateTask(t, c, needs);
      ran[t.id] = run;
      results[t.id] = { result: 'succeeded', outputs: runLocally(run.command) };
    }
    expect(results.prepare.outputs).toEqual({ rows: '1000' });
    expect(ran.train_2.env).toEqual({ ROWS: '1000', EPOCHS: '5' });
    expect(ran.train_2.volumes).toEqual([
      { uri: 'storage://default/acme/vision/datasets/mnist', dst: '/data', readOnly: true },
    ]);
    expect(ran.compare.command).toBe('echo best of 1 and 2');
    expect(ran.report).toMatchObject({
      command: 'echo compare ended succeeded',
      cache: { enabled: false },
    });
  });

  it('runs the report after a failed comparison, and skips the comparison after a failed training', () => {
    const c = ctx();
    const plan = planBake(parseBatch(example), c);
    const task = (id: string) => plan.tasks.find((t) => t.id === id)!;
    const ok = { result: 'succeeded' as const, outputs: { score: '1' } };
    expect(
      evaluateTask(task('compare'), c, { train_1: ok, train_2: { result: 'failed', outputs: {} } })
        .enabled,
    ).toBe(false);
    expect(
      evaluateTask(task('report'), c, { compare: { result: 'failed', outputs: {} } }),
    ).toMatchObject({ enabled: true, command: 'echo compare ended failed' });
  });
});

describe('expression size', () => {
  it('refuses expressions too deep or too long to evaluate safely', () => {
    const task = (e: string) =>
      `kind: batch\ntasks:\n  - id: a\n    image: x\n    cmd: \${{ ${e} }}\n`;
    expect(parseAndPlan(task(`${'('.repeat(60)}1${')'.repeat(60)}`)).tasks).toHaveLength(1);
    expect(refusal(() => parseAndPlan(task(`${'('.repeat(70)}1${')'.repeat(70)}`))).message).toBe(
      'line 5: task `a`: `${{ ((((((((((((((((((((((((((((((((((((…` nests too deeply',
    );
    expect(refusal(() => parseAndPlan(task('!'.repeat(100) + 'true'))).message).toMatch(
      /nests too deeply$/,
    );
    expect(refusal(() => parseAndPlan(task(`1${' || 1'.repeat(600)}`))).message).toBe(
      'line 5: task `a`: `${{ 1 || 1 || 1 || 1 || 1 || 1 || 1 || 1…` is too long',
    );
  });
});
