import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { TestServer, TestUser } from '../test/harness.js';
import { processServer } from '../test/fixtures.js';
import { apoloOf, describeClients } from '../test/apolo-cli.js';
import { THREE } from '../modules/flows/batch/test-support.js';

/** A flow project as a user writes one: the wire reference's three tasks, a slow one, a live job. */
function flowProject() {
  const dir = mkdtempSync(join(tmpdir(), 'apolo-flow-project-'));
  mkdirSync(join(dir, '.apolo'));
  const file = (name: string, text: string) => writeFileSync(join(dir, '.apolo', name), text);
  file('project.yml', 'id: demo_flow\n');
  file('three.yml', THREE);
  file(
    'slow.yml',
    `kind: batch
tasks:
  - id: wait
    image: busybox:latest
    cache:
      strategy: none
    cmd: sh -c "echo waiting; while true; do sleep 1; done"
`,
  );
  file(
    'live.yml',
    `kind: live
jobs:
  ticker:
    image: busybox:latest
    cmd: sh -c "while true; do echo tick; sleep 1; done"
`,
  );
  return dir;
}

/**
 * The official `apolo-flow` client against a real server on the process runtime: a batch baked
 * with the local executor (real jobs), its bakes, inspect, show, the cache and clear-cache,
 * cancel, and a live job's run, ps, status and kill (docs/apolo-clients.md).
 */
describeClients('the official apolo-flow client', () => {
  let s: TestServer;
  let owner: TestUser;
  processServer((started) => ({ s, owner } = started));
  const apolo = apoloOf(
    () => s,
    () => owner,
  );
  const cwd = flowProject();
  const flow = (args: string[]) => apolo.flowOk(args, { cwd, timeoutMs: 150_000 });

  it('bake --local-executor, bakes, inspect, show; a second bake is cached; clear-cache', async () => {
    const baked = await flow(['bake', 'three', '--local-executor']);
    expect(baked).toMatch(/Attempt #1 succeeded/);
    expect(baked).toMatch(/word: hello/);
    const bakes = await flow(['bakes']);
    const bake = /bake-[0-9a-f-]{36}/.exec(bakes)![0];
    expect(bakes).toMatch(/three\s.*succeeded/);
    const inspected = await flow(['inspect', bake]);
    for (const task of ['first', 'left', 'right'])
      expect(inspected).toMatch(new RegExp(`${task}\\s+│\\s+succeeded\\s+│\\s+job-`));
    expect(await flow(['show', bake, 'left'])).toContain('left got hello');

    const again = await flow(['bake', 'three', '--local-executor']);
    for (const task of ['first', 'left', 'right'])
      expect(again).toMatch(new RegExp(`Task ${task} job-\\S+ is cached`));
    expect(again).not.toMatch(/is (pending|running)/);
    await flow(['clear-cache', 'three']);
    const fresh = await flow(['bake', 'three', '--local-executor']);
    expect(fresh).toMatch(/Task first job-\S+ is succeeded/);
    expect(fresh).not.toMatch(/is cached/);
  });

  it('cancel stops a running bake and its job', async () => {
    const baking = await apolo.flowStreaming(
      ['bake', 'slow', '--local-executor'],
      /Task wait job-\S+ is running/,
      { cwd },
    );
    const job = /Task wait (job-\S+) is running/.exec(baking.output())![1]!;
    const bake = /(bake-[0-9a-f-]{36})\s+│[^\n]*slow[^\n]*running/.exec(await flow(['bakes']))![1]!;
    await flow(['cancel', bake]);
    // The executor notices the cancelled attempt, kills the job and ends.
    await baking.exited;
    expect(baking.output()).toMatch(/Attempt #1 cancelled/);
    expect(await flow(['inspect', bake])).toMatch(/wait\s+│\s+cancelled/);
    expect(await apolo.ok(['status', job])).toMatch(/Status\s+cancelled/);
  });

  it('run, ps, status, kill a live job', async () => {
    const running = await apolo.flowStreaming(['run', 'ticker'], /tick/, { cwd });
    running.stop();
    expect(await flow(['ps'])).toMatch(/ticker\s+│\s+running\s+│\s+job-/);
    expect(await flow(['status', 'ticker'])).toMatch(/Status\s+running/);
    expect(await flow(['kill', 'ticker'])).toContain('Killed job ticker');
    expect(await flow(['ps'])).not.toMatch(/ticker\s+│\s+running/);
  });
});
