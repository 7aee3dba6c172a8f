import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { TestServer, TestUser } from '../test/harness.js';
import { processServer } from '../test/fixtures.js';
import { freePort } from '../net/ports.js';
import { apoloOf, describeClients } from '../test/apolo-cli.js';

/** A job that serves a page over HTTP on 8080 from the host's busybox (process runtime). */
const WEB = [
  'busybox:latest',
  '--',
  'sh',
  '-c',
  'mkdir -p /tmp/w && echo served-by-job > /tmp/w/index.html && exec busybox httpd -f -p 8080 -h /tmp/w',
];

/**
 * The official `apolo` CLI's job commands against a real server on the process runtime (the
 * embedded default): run, ps, status, logs, top, exec, port-forward, bump-life-span, kill, and
 * the clear refusal of `save`, which this runtime cannot do; app templates and an app of the
 * `job` template (docs/apolo-clients.md).
 */
describeClients('the official apolo CLI: jobs and apps', () => {
  let s: TestServer;
  let owner: TestUser;
  processServer((started) => ({ s, owner } = started));
  const apolo = apoloOf(
    () => s,
    () => owner,
  );

  it('run (attached) prints the output; a failing job exits with its code; logs and status after', async () => {
    const run = (name: string, script: string) =>
      apolo.run([
        'run',
        '-s',
        'cpu-small',
        '--name',
        name,
        'busybox:latest',
        '--',
        'sh',
        '-c',
        script,
      ]);
    const r = await run('once', 'echo hello-from-run');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('hello-from-run');
    expect(await apolo.ok(['logs', 'once'])).toContain('hello-from-run');
    expect(await apolo.ok(['status', 'once'])).toMatch(/Status\s+succeeded/);
    const failed = await run('broken', 'echo before-failing; exit 3');
    expect(failed.code).toBe(3);
    expect(await apolo.ok(['logs', 'broken'])).toContain('before-failing');
    expect(await apolo.ok(['status', 'broken'])).toMatch(/Status\s+failed/);
  });

  it('run --detach, ps, status, exec, top, port-forward, bump-life-span, save, kill', async () => {
    const started = await apolo.ok([
      'run',
      '-s',
      'cpu-small',
      '--name',
      'web',
      '--http-port',
      '8080',
      '--detach',
      ...WEB,
    ]);
    const id = /job-[0-9a-f-]{36}/.exec(started)![0];
    expect(await apolo.ok(['ps'])).toContain(id);
    expect(await apolo.ok(['status', 'web'])).toMatch(/Http port\s+8080/);

    const ran = await apolo.ok(['exec', '--no-tty', 'web', '--', 'cat', '/tmp/w/index.html']);
    expect(ran).toContain('served-by-job');
    const failed = await apolo.run(['exec', '--no-tty', 'web', '--', 'sh', '-c', 'exit 4']);
    expect(failed.code).toBe(4);

    const top = await apolo.streaming(['top', 'web'], new RegExp(`${id}\\s+\\S+`));
    top.stop();

    const local = await freePort();
    const forward = await apolo.streaming(
      ['port-forward', 'web', `${local}:8080`],
      /will be forwarded/,
    );
    try {
      let page = '';
      // The job's server may not listen yet: the forward answers once it does.
      for (let i = 0; i < 100 && !page.includes('served-by-job'); i++) {
        page = await fetch(`http://127.0.0.1:${local}/index.html`).then(
          (r) => r.text(),
          () => '',
        );
        if (!page.includes('served-by-job')) await new Promise((r) => setTimeout(r, 200));
      }
      expect(page).toContain('served-by-job');
    } finally {
      forward.stop();
    }

    expect(await apolo.ok(['job', 'bump-life-span', 'web', '2h'])).toMatch(/life span to be 1d2h/);
    expect(await apolo.ok(['status', 'web'])).toMatch(/Life span\s+1d2h/);

    const save = await apolo.run(['save', 'web', 'image:saved:v1']);
    expect(save.code).not.toBe(0);
    expect(save.stderr).toContain("The process runtime cannot save a job's image");

    await apolo.ok(['kill', 'web']);
    expect(await apolo.ok(['status', 'web'])).toMatch(/Status\s+cancelled/);
    expect(await apolo.ok(['ps'])).not.toContain(id);
  });

  it('app-template ls/get, app install, ls, get-status, get-values, get-input, logs, uninstall', async () => {
    expect(await apolo.ok(['app-template', 'ls'])).toMatch(/\bjob\s+Job\s+1\.0\.0/);
    expect(await apolo.ok(['app-template', 'get', 'job'])).toMatch(/template_name: job/);
    const values = join(mkdtempSync(join(tmpdir(), 'apolo-app-')), 'job-app.yaml');
    writeFileSync(
      values,
      [
        'template_name: job',
        'template_version: 1.0.0',
        'input:',
        '  image: busybox:latest',
        '  preset_name: cpu-small',
        '  command: sh -c "echo app-says-hello; while true; do sleep 1; done"',
        '',
      ].join('\n'),
    );
    const installed = await apolo.ok(['app', 'install', '-f', values]);
    const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(installed)![0];
    expect(await apolo.ok(['app', 'ls'])).toContain(id);
    const logs = await apolo.streaming(['app', 'logs', id], /app-says-hello/);
    logs.stop();
    expect(await apolo.ok(['app', 'get-status', id])).toMatch(/STATE: \w+/);
    expect(await apolo.ok(['app', 'get-values', id])).toContain(id);
    expect(await apolo.ok(['app', 'get-input', id])).toContain('preset_name: cpu-small');
    expect(await apolo.ok(['app', 'uninstall', id])).toContain(`App ${id} uninstalled`);
    // Uninstalling stops the app's job first; the list shows it until then.
    let listed = await apolo.ok(['app', 'ls']);
    for (let i = 0; i < 60 && listed.includes(id); i++) {
      expect(listed).toMatch(new RegExp(`${id}.*uninstall`));
      listed = await apolo.ok(['app', 'ls']);
    }
    expect(listed).not.toContain(id);
  });
});
