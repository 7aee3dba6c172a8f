import { spawn } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SETPRIV } from './launch.js';
import { firewallRules } from './network.js';
import { socketOwner } from './relay.js';

const root = process.getuid?.() === 0;

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
});
