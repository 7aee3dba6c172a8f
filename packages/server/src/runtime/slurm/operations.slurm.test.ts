import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { freePort } from '../../net/ports.js';
import { beforeLaunch, commandSpec, describeSlurm, setupBlock } from '../../test/slurm-cluster.js';
import type { JobSpec, ObservedState } from '../driver.js';
import { SlurmDriver } from './driver.js';
import { RestClient } from './rest.js';

/**
 * docs/operations.md's Slurm set-up applied as written on the cluster of scripts/slurm.mjs: its
 * service user (no login shell, no home) runs jobs; its slurmrestd command line starts as root and
 * answers the server's tokens; under its node rule a refused connection reaches the job as a
 * time-out. (driver.slurm.test.ts applies the node rule too, and checks what it keeps out.)
 */
const spec = commandSpec;

async function runToEnd(driver: SlurmDriver, job: JobSpec): Promise<ObservedState> {
  await driver.start(job);
  return vi.waitFor(
    async () => {
      const s = await driver.observe(job.id);
      expect(s.state, `job ${job.id} ended`).toBe('exited');
      return s;
    },
    { timeout: 60_000 },
  );
}

async function logOf(driver: SlurmDriver, id: string): Promise<string> {
  let text = '';
  for await (const c of await driver.logs(id, { follow: false, timestamps: false })) text += c;
  return text;
}

/** A uid no user of this machine has, for the docs' `uid`. */
function freeUid(): number {
  const used = new Set(
    readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((l) => Number(l.split(':')[2])),
  );
  for (let uid = 990; uid > 100; uid--) if (!used.has(uid)) return uid;
  throw new Error('no free system uid');
}

describeSlurm("docs/operations.md's Slurm set-up, as written", (c) => {
  it('its service user, without login shell or home, runs jobs, launched without a login environment', async () => {
    const name = `orrery-doc${process.pid % 100000}`;
    execFileSync('sh', [
      '-ec',
      setupBlock('the service user', { user: name, uid: String(freeUid()) }),
    ]);
    const shared = mkdtempSync(join(c.sharedDir, 'doc-user-'));
    chmodSync(shared, 0o755);
    const driver = await SlurmDriver.connect(
      { api: 'commands', conf: c.conf, user: name, sharedDir: shared },
      2000,
    );
    try {
      const job = spec(`doc-user-${Date.now().toString(36)}`, 'echo "as $(id -un)"');
      expect(await runToEnd(driver, job)).toMatchObject({ exitCode: 0 });
      expect(await logOf(driver, job.id)).toContain(`as ${name}`);
      const { slurmId } = JSON.parse(
        readFileSync(join(shared, 'jobs', job.id, 'job.json'), 'utf8'),
      ) as { slurmId: number };
      expect(beforeLaunch(c, slurmId)).not.toMatch(/user environment|get_user_env/);
    } finally {
      await driver.close();
      rmSync(shared, { recursive: true, force: true });
      execFileSync('userdel', [name]);
    }
  });

  it('its slurmrestd command line, run as root, drops to its user and answers the server', async () => {
    const port = await freePort();
    const script = setupBlock('slurmrestd', {
      conf: c.conf,
      rest_user: c.user,
      listen: `127.0.0.1:${port}`,
    });
    const rest = spawn('sh', ['-ec', script], { detached: true, stdio: 'ignore' });
    try {
      const client = new RestClient(`http://127.0.0.1:${port}`, c.jwtKeyPath, c.user);
      const nodes = await vi.waitFor(
        async () => {
          expect(rest.exitCode, 'slurmrestd exited').toBeNull();
          const answered = await client.nodes().catch(() => []);
          expect(answered.length).toBeGreaterThan(0);
          return answered;
        },
        { timeout: 20_000 },
      );
      expect(nodes).toHaveLength(2);
    } finally {
      process.kill(-rest.pid!, 'SIGTERM');
    }
  });

  it('under its node rule, a connection to the node reaches the job as a time-out, not refused', async () => {
    const address = '198.51.100.9';
    execFileSync('ip', ['addr', 'replace', `${address}/32`, 'dev', 'lo']);
    const host = createServer((_q, r) => r.end('host'));
    await new Promise<void>((r) => host.listen(0, address, r));
    const port = (host.address() as AddressInfo).port;
    const shared = mkdtempSync(join(c.sharedDir, 'doc-rule-'));
    chmodSync(shared, 0o755);
    const driver = await SlurmDriver.connect(
      { api: 'commands', conf: c.conf, user: c.user, sharedDir: shared },
      2000,
    );
    try {
      execFileSync('sh', ['-ec', setupBlock('the node rule', { user: c.user, node: address })]);
      const job = spec(
        `doc-rule-${Date.now().toString(36)}`,
        `python3 -c "
import socket
try:
    socket.create_connection(('${address}', ${port}), timeout=2); print('connected')
except Exception as e:
    print(type(e).__name__)"`,
      );
      expect(await runToEnd(driver, job)).toMatchObject({ exitCode: 0 });
      expect((await logOf(driver, job.id)).trim()).toMatch(/^(TimeoutError|timeout)$/);
    } finally {
      execFileSync('nft', ['delete', 'table', 'inet', 'orrery-slurm'], { stdio: 'ignore' });
      host.close();
      execFileSync('ip', ['addr', 'del', `${address}/32`, 'dev', 'lo']);
      await driver.close();
      rmSync(shared, { recursive: true, force: true });
    }
  });
});
