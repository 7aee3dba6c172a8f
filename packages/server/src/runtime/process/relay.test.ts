import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Socket } from 'node:net';
import { eventually } from '../../test/app-instance.js';
import { describe, expect, it } from 'vitest';
import { ProcessDriver } from './driver.js';
import { logOf, spec, until } from '../../test/process-jobs.js';
import { SETPRIV } from './launch.js';
import { firewallRules, SLIRP } from './network.js';
import { socketOwner } from './relay.js';
import { BWRAP } from './sandbox.js';

const root = process.getuid?.() === 0;
const sandboxed = root && existsSync(BWRAP) && existsSync(SLIRP);
const NODE = process.execPath;
const REFUSED = /^refused (ECONNRESET|ECONNREFUSED)$/;

describe('relays', () => {
  it.runIf(root)('names the uid that opened a connection, from the host’s TCP table', async () => {
    const server = createServer();
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    // As a job's network helper connects: a process of another uid.
    const client = spawn(
      SETPRIV,
      [
        '--reuid=20999',
        '--regid=20999',
        '--clear-groups',
        '--',
        process.execPath,
        '-e',
        `require('net').connect(${port}, '127.0.0.1'); setTimeout(() => {}, 5000)`,
      ],
      { stdio: 'ignore' },
    );
    try {
      expect(await socketOwner(await accepted)).toBe(20999);
    } finally {
      client.kill();
      server.close();
    }
  });

  it('lets job uids reach the relays before refusing the host’s addresses', () => {
    const rules = firewallRules();
    const relays = rules.indexOf('ip daddr . tcp dport @relays accept');
    expect(relays).toBeGreaterThan(0);
    expect(relays).toBeLessThan(rules.indexOf('reject'));
    // The set outlives a rewrite of the chain: other servers' relays stay open.
    expect(rules).not.toContain('delete table');
  });

  it.runIf(sandboxed)(
    'lets the project’s jobs through, resets the others, and outlives a server restart',
    async () => {
      const dataDir = mkdtempSync('/var/tmp/orrery-relay-');
      let driver = new ProcessDriver({ dataDir, killGraceMs: 1000 });
      const web = spec(
        `${NODE} -e "require('http').createServer((q,r)=>r.end('relayed')).listen(8000)"`,
        { httpPort: 8000, project: 'default/acme/vision' },
      );
      await driver.start(web);
      const reach = async (d: ProcessDriver) => {
        for (let i = 0; i < 200; i++) {
          const r = (await d.endpoint(web.id)) && (await d.reachFromJobs(web.id));
          if (r) return r;
          await new Promise((ok) => setTimeout(ok, 50));
        }
        throw new Error('the relay never opened');
      };
      // What a job that printed nothing left behind, for the failure's message.
      const jobFiles = (id: string) => {
        const dir = join(dataDir, 'jobs', id);
        return readdirSync(dir)
          .map((f) => `${f}: ${statSync(join(dir, f)).size} B`)
          .join(', ');
      };
      const fetchFrom = async (project: string) => {
        const { host, port } = await reach(driver);
        // A raw socket, which names what the job saw: the reply, a reset or a refusal.
        const client = spec(
          `${NODE} -e "const s=require('net').connect(${port},'${host}');let b='';s.on('data',d=>b+=d);s.on('end',()=>console.log('got '+b.split('\\r\\n\\r\\n')[1]));s.on('error',e=>console.log('refused '+e.code));s.write('GET / HTTP/1.0\\r\\n\\r\\n')"`,
          { project },
        );
        await driver.start(client);
        await until(driver, client.id, 'exited', 15_000);
        // The log is stamped a moment after the exit is seen: wait for the client's one line.
        const log = await eventually(async () => {
          const text = (await logOf(driver, client.id)).trim();
          if (!text)
            throw new Error(
              `no log yet: ${JSON.stringify(await driver.observe(client.id))}, ${jobFiles(client.id)}`,
            );
          return text;
        });
        await driver.remove(client.id);
        return log;
      };
      try {
        expect(await fetchFrom('default/acme/vision')).toBe('got relayed');
        // slirp4netns passes the relay's reset on as a reset, or, when it sees the reset before it
        // has answered the job's SYN, as a refusal: either way nothing gets through.
        expect(await fetchFrom('default/acme/other')).toMatch(REFUSED);
        expect(await fetchFrom('default/other-org/vision')).toMatch(REFUSED);
        const before = await reach(driver);
        // A new server finds the job running and opens its relay again, on the same port.
        await driver.close();
        driver = new ProcessDriver({ dataDir, killGraceMs: 1000 });
        expect(await reach(driver)).toEqual(before);
        expect(await fetchFrom('default/acme/vision')).toBe('got relayed');
      } finally {
        await driver.remove(web.id);
        await driver.close();
      }
      // Gone with the job.
      expect(await driver.reachFromJobs(web.id)).toBeNull();
      rmSync(dataDir, { recursive: true, force: true });
    },
  );
});
