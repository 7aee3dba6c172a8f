import { describe, expect, it } from 'vitest';
import { parseBatch } from './index.js';
import { refusal } from './test-support.js';

const TASK = `  - id: train
    image: busybox
    cmd: echo hi
`;

/** A file with `extra` inserted at the top level (before `tasks`) or inside the task. */
const withTop = (extra: string) => `kind: batch\n${extra}tasks:\n${TASK}`;
const withTask = (extra: string) => `kind: batch\ntasks:\n${TASK}${extra}`;

describe('the batch subset', () => {
  it('reads a file with every supported key', () => {
    const flow = parseBatch(`kind: batch
id: nightly
title: Nightly training
params:
  epochs: 3
tasks:
  - id: train
    title: Train
    needs: []
    image: \${{ params.image }}
    bash: echo hi
    env:
      A: 1
    volumes:
      - storage:data:/data:ro
    preset: cpu-small
    life_span: 1h
    name: trainer
    strategy:
      matrix:
        n: [1]
    cache:
      strategy: none
      life_span: 2d
    enable: \${{ always() }}
`);
    expect(flow).toMatchObject({ id: 'nightly', title: 'Nightly training' });
    expect(flow.tasks).toHaveLength(1);
    const t = flow.tasks[0];
    expect(t.line).toBe(7);
    expect(t.env.map((e) => [e.name, e.value.text])).toEqual([['A', '1']]);
    expect(t.matrix).toEqual([{ name: 'n', values: ['1'], line: 21 }]);
    expect(t.cache.strategy).toBe('none');
  });

  const refused: [string, string, string][] = [
    [
      'defaults at the top level',
      withTop('defaults:\n  preset: cpu\n'),
      'line 2: unsupported key `defaults` at the top level',
    ],
    [
      'images at the top level',
      withTop('images:\n  img:\n    ref: x\n'),
      'line 2: unsupported key `images` at the top level',
    ],
    [
      'volumes at the top level',
      withTop('volumes:\n  data:\n    remote: storage:data\n'),
      'line 2: unsupported key `volumes` at the top level',
    ],
    ['mixins', withTop('mixins:\n  m: {}\n'), 'line 2: unsupported key `mixins` at the top level'],
    [
      'life_span at the top level',
      withTop('life_span: 1d\n'),
      'line 2: unsupported key `life_span` at the top level',
    ],
    [
      'an action task',
      withTask('    action: gh:x/y@v1\n'),
      'line 6: unsupported key `action` in a task',
    ],
    [
      'http_port',
      withTask('    http_port: 8080\n'),
      'line 6: unsupported key `http_port` in a task',
    ],
    ['workdir', withTask('    workdir: /src\n'), 'line 6: unsupported key `workdir` in a task'],
    ['services', withTask('    services: []\n'), 'line 6: unsupported key `services` in a task'],
    [
      'strategy.fail_fast',
      withTask('    strategy:\n      fail_fast: false\n'),
      'line 7: unsupported key `fail_fast` in `strategy`',
    ],
    [
      'matrix.include',
      withTask('    strategy:\n      matrix:\n        n: [1]\n        include: [{n: 2}]\n'),
      'line 9: unsupported key `include` in `matrix`',
    ],
    [
      'a cache key',
      withTask('    cache:\n      keep: true\n'),
      'line 7: unsupported key `keep` in `cache`',
    ],
    [
      'a param key',
      withTop('params:\n  p:\n    default: 1\n    type: int\n'),
      'line 5: unsupported key `type` in a param',
    ],
  ];
  it.each(refused)('refuses %s, naming the line and the key', (_, text, message) => {
    const e = refusal(() => parseBatch(text));
    expect(e.message).toBe(message);
    expect(e.line).toBe(Number(/^line (\d+)/.exec(message)![1]));
  });

  it.each([
    ['no kind', `tasks:\n${TASK}`, 'line 1: `kind: batch` is missing'],
    [
      'a live flow',
      `kind: live\ntasks:\n${TASK}`,
      'line 1: only `kind: batch` is supported, not `live`',
    ],
    ['no tasks', 'kind: batch\n', 'line 1: `tasks` is missing'],
    ['empty tasks', 'kind: batch\ntasks: []\n', 'line 2: `tasks` must be a non-empty list'],
    ['a list', '- kind: batch\n', 'line 1: a batch file is a mapping with `kind: batch`'],
    [
      'a task without image',
      'kind: batch\ntasks:\n  - id: a\n    cmd: echo\n',
      'line 3: task `a` has no `image`',
    ],
    [
      'a task with cmd and bash',
      withTask('    bash: echo\n'),
      'line 3: task `train` needs exactly one of `cmd` and `bash`',
    ],
    [
      'a task with neither cmd nor bash',
      'kind: batch\ntasks:\n  - image: busybox\n',
      'line 3: task 1 needs exactly one of `cmd` and `bash`',
    ],
    ['needs not a list', withTask('    needs: a\n'), 'line 6: `needs` must be a list'],
    ['env not a mapping', withTask('    env: [A]\n'), 'line 6: `env` must be a mapping'],
    [
      'a matrix of mappings',
      withTask('    strategy:\n      matrix:\n        n: [{a: 1}]\n'),
      'line 8: matrix `n` takes single values',
    ],
    [
      'an expression in a matrix',
      withTask('    strategy:\n      matrix:\n        n:\n          - ${{ params.x }}\n'),
      'line 9: `matrix.n` takes no expressions',
    ],
    [
      'an unknown cache strategy',
      withTask('    cache:\n      strategy: inherit\n'),
      'line 7: cache strategy must be `default` or `none`, not `inherit`',
    ],
    [
      'an expression in a param default',
      withTop('params:\n  p: ${{ flow.flow_id }}\n'),
      'line 3: `p` takes no expressions',
    ],
    ['a duplicate key', withTask('    image: alpine\n'), 'line 6: Map keys must be unique'],
    [
      'a name that would reach a prototype',
      withTask('    env:\n      __proto__: x\n'),
      'line 7: `__proto__` is a reserved name',
    ],
    ['bad YAML', withTask('    env: {A: [\n'), 'line 7: '],
    [
      'a broken expression',
      withTask('    env:\n      A: ${{ params.a == }}\n'),
      'line 7: task `train`: unexpected end in `${{ params.a == }}`',
    ],
    [
      'an unclosed expression',
      withTask('    env:\n      A: ${{ params.a\n'),
      'line 7: task `train`: an expression is not closed with `}}`',
    ],
  ])('refuses %s', (_, text, message) => {
    expect(refusal(() => parseBatch(text)).message).toMatch(
      new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
  });

  it('names tasks without an id task-N, as the flow client does', () => {
    const flow = parseBatch(
      'kind: batch\ntasks:\n  - image: a\n    cmd: x\n  - image: b\n    cmd: y\n',
    );
    expect(flow.tasks.map((t) => t.id.text)).toEqual(['task-1', 'task-2']);
  });
});
