import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { evaluateTask, parseBatch, parseLifeSpan, planBake, type NeedResult } from './index.js';
import type { TaskStatus } from '@orrery/contract';
import { ctx, refusal } from './test-support.js';
import { cacheKey } from './cache-key.js';

/** Task `t` (needing `a`, with `lines` added) evaluated after `a` ended as `result`. */
function run(lines: string, result: TaskStatus = 'succeeded', params: Record<string, string> = {}) {
  const text = `kind: batch
params:
  where: data
tasks:
  - id: a
    image: busybox
    cmd: echo a
  - id: t
    needs: [a]
    image: busybox
${lines}`;
  const plan = planBake(parseBatch(text), ctx(params));
  const needs: Record<string, NeedResult> = { a: { result, outputs: { dir: 'out/a' } } };
  return evaluateTask(plan.tasks[1], ctx(params), needs);
}

describe('evaluating a task', () => {
  it('runs a task only when its needs passed, unless enable says otherwise', () => {
    expect(run('    cmd: x\n', 'succeeded').enabled).toBe(true);
    expect(run('    cmd: x\n', 'cached').enabled).toBe(true);
    for (const r of ['failed', 'skipped', 'cancelled'] as const) {
      expect(run('    cmd: x\n', r).enabled).toBe(false);
      expect(run('    cmd: x\n    enable: ${{ always() }}\n', r).enabled).toBe(true);
    }
    expect(run('    cmd: x\n    enable: ${{ failure() }}\n', 'failed').enabled).toBe(true);
    expect(run('    cmd: x\n    enable: ${{ failure() }}\n', 'succeeded').enabled).toBe(false);
    expect(run('    cmd: x\n    enable: false\n').enabled).toBe(false);
    expect(run("    cmd: x\n    enable: ${{ params.where == 'data' }}\n").enabled).toBe(true);
  });

  it('does not evaluate a task that will not run (its need’s outputs may be missing)', () => {
    const t = run('    cmd: echo ${{ needs.a.outputs.missing }}\n', 'failed');
    expect(t).toMatchObject({ enabled: false, command: '' });
  });

  it('refuses an enable that is not a boolean', () => {
    expect(refusal(() => run('    cmd: x\n    enable: ${{ params.where }}\n')).message).toBe(
      'line 12: task `t`: `enable` must be true or false, not "data"',
    );
  });

  it('runs `cmd` as given and wraps `bash` so that a shell runs the script unchanged', () => {
    expect(run('    cmd: python train.py --lr 0.1\n').command).toBe('python train.py --lr 0.1');
    const script = `echo "it's \${{ params.where }}" 'single $HOME' \\\\ ;\n  echo second line`;
    const t = run(`    bash: |\n      ${script.replace('\n  ', '\n      ')}\n`);
    expect(t.command).toMatch(/^bash -euo pipefail -c '/);
    // The job's command line, as a shell splits it: the script reaches bash word for word.
    const out = execFileSync('/bin/sh', ['-c', t.command], { encoding: 'utf8' });
    // (bash reads the unquoted `\\` as one backslash, as it would from a file)
    expect(out).toBe(`it's data single $HOME \\\nsecond line\n`);
  });

  it('stops a bash script at its first failing command', () => {
    const t = run('    bash: |\n      false\n      echo not reached\n');
    expect(() => execFileSync('/bin/sh', ['-c', t.command], { stdio: 'pipe' })).toThrow();
  });

  it('evaluates env, secret env, preset, name and life span', () => {
    const t = run(`    cmd: x
    env:
      DIR: \${{ needs.a.outputs.dir }}
      N: 3
      TOKEN: secret:hf-token
      FULL: secret://other/org/proj/key
    preset: \${{ params.where }}-gpu
    name: trainer
    life_span: 1d2h
`);
    expect(t.env).toEqual({ DIR: 'out/a', N: '3' });
    expect(t.secretEnv).toEqual({
      TOKEN: 'secret://default/acme/vision/hf-token',
      FULL: 'secret://other/org/proj/key',
    });
    expect(t).toMatchObject({ preset: 'data-gpu', name: 'trainer', lifeSpanSeconds: 93600 });
    expect(run('    cmd: x\n')).toMatchObject({ preset: null, name: null, lifeSpanSeconds: null });
  });

  it('expands short volume URIs as the apolo CLI does', () => {
    const t = run(`    cmd: x
    volumes:
      - storage:\${{ params.where }}:/data:ro
      - storage:/acme/shared/sets:/sets
      - storage://default/acme/vision/out:/out:rw
      - storage::/home
      - disk:cache-disk:/cache
      - disk://default/acme/vision/disk-1:/d:ro
      - secret:ssh-key:/root/.ssh/id_rsa
`);
    expect(t.volumes).toEqual([
      { uri: 'storage://default/acme/vision/data', dst: '/data', readOnly: true },
      { uri: 'storage://default/acme/shared/sets', dst: '/sets', readOnly: false },
      { uri: 'storage://default/acme/vision/out', dst: '/out', readOnly: false },
      { uri: 'storage://default/acme/vision', dst: '/home', readOnly: false },
      { uri: 'disk://default/acme/vision/cache-disk', dst: '/cache', readOnly: false },
      { uri: 'disk://default/acme/vision/disk-1', dst: '/d', readOnly: true },
      { uri: 'secret://default/acme/vision/ssh-key', dst: '/root/.ssh/id_rsa', readOnly: true },
    ]);
  });

  it.each([
    ['storage:data', 'write it as `storage:path:/mount/path` (`:ro` for read-only)'],
    ['storage:data:mnt', 'the mount path `mnt` must be absolute'],
    ['image:ubuntu:/x', 'only `storage:`, `disk:` and `secret:` volumes are supported'],
    ['disk::/x', '`disk:` needs a name'],
    ['secret:k:/x:rw', 'a secret is mounted read-only'],
  ])('refuses the volume %s', (volume, why) => {
    expect(refusal(() => run(`    cmd: x\n    volumes:\n      - ${volume}\n`)).message).toBe(
      `line 13: task \`t\`: volume \`${volume}\`: ${why}`,
    );
  });

  it('caches by default for 14 days, for as long as asked, or not at all', () => {
    expect(run('    cmd: x\n').cache).toEqual({ enabled: true, lifeSpanSeconds: 14 * 86400 });
    expect(run('    cmd: x\n    cache:\n      life_span: 30m\n').cache).toEqual({
      enabled: true,
      lifeSpanSeconds: 1800,
    });
    expect(run('    cmd: x\n    cache:\n      strategy: none\n').cache.enabled).toBe(false);
  });
});

describe('life spans', () => {
  it.each([
    ['3600', 3600],
    ['90.5', 90.5],
    ['1d', 86400],
    ['2h30m', 9000],
    ['1d2h3m4s', 93784],
    ['45s', 45],
  ])('reads %s as %d seconds', (text, seconds) => {
    expect(parseLifeSpan(text)).toBe(seconds);
  });

  it.each(['', '0', '1w', 'h', '2m1h', '-5', 'soon'])('refuses %j', (text) => {
    expect(refusal(() => parseLifeSpan(text)).message).toBe(
      `bad life span \`${text}\`: write seconds or a duration such as \`1d2h30m\``,
    );
  });

  it('names the task and line of a bad life span', () => {
    expect(refusal(() => run('    cmd: x\n    life_span: forever\n')).message).toBe(
      'line 12: task `t`: bad life span `forever`: write seconds or a duration such as `1d2h30m`',
    );
  });
});

describe('empty values', () => {
  it.each([
    ['    cmd: ""\n', 'line 11: task `t`: `cmd` is empty'],
    ['    bash: "  "\n', 'line 11: task `t`: `bash` is empty'],
    [
      '    cmd: x\n    env:\n      K: "secret:"\n',
      "line 13: task `t`: `secret:` needs the secret's key",
    ],
  ])('refuses %j', (lines, message) => {
    expect(refusal(() => run(lines)).message).toBe(message);
  });

  it('refuses an image that evaluates to nothing', () => {
    const text =
      'kind: batch\nparams:\n  img: ""\ntasks:\n  - image: ${{ params.img }}\n    cmd: x\n';
    const plan = planBake(parseBatch(text), ctx());
    expect(refusal(() => evaluateTask(plan.tasks[0], ctx(), {})).message).toBe(
      'line 5: task `task-1`: `image` is empty',
    );
  });
});

describe('workers', () => {
  it('asks for the workers `nodes` says, a whole number from 1 to 1024, with expressions', () => {
    expect(run('    cmd: x\n').nodes).toBeUndefined();
    expect(run('    cmd: x\n    nodes: 4\n').nodes).toBe(4);
    expect(
      run('    cmd: x\n    nodes: ${{ params.where }}\n', 'succeeded', { where: '3' }).nodes,
    ).toBe(3);
    for (const bad of ['0', '1.5', '1025', 'two', '-1']) {
      expect(refusal(() => run(`    cmd: x\n    nodes: "${bad}"\n`)).message).toBe(
        `line 12: task \`t\`: \`nodes\` must be a whole number of workers from 1 to 1024, not "${bad}"`,
      );
    }
  });

  it('keeps the cache key of a task without `nodes`, and tells apart one with workers', () => {
    const needs: Record<string, NeedResult> = {};
    const one = run('    cmd: x\n');
    const { nodes: _, ...without } = run('    cmd: x\n    nodes: 2\n');
    expect(cacheKey(one, needs)).toBe(cacheKey(without, needs));
    expect(cacheKey(run('    cmd: x\n    nodes: 2\n'), needs)).not.toBe(cacheKey(one, needs));
  });
});
