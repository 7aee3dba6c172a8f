import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runHealthCheck } from './health.js';

/** The PostgreSQL check against what a job's forward looks like before and after start-up. */
describe('health checks', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  const listen = (onConnection: Parameters<typeof createServer>[1]) =>
    new Promise<number>((resolve) => {
      server = createServer(onConnection).listen(0, '127.0.0.1', () =>
        resolve((server!.address() as { port: number }).port),
      );
    });
  const check = (port: number) =>
    runHealthCheck({ host: '127.0.0.1', port }, { role: 'main', protocol: 'postgres' });

  it('does not take a forward that accepts and closes for PostgreSQL', async () => {
    const port = await listen((s) => s.end());
    expect(await check(port)).toBe('PostgreSQL does not accept connections yet');
  });

  it('passes once the SSLRequest is answered, and names a wrong answer', async () => {
    const port = await listen((s) => s.once('data', () => s.end('N')));
    expect(await check(port)).toBeNull();
    server!.close();
    const other = await listen((s) => s.once('data', () => s.end('HTTP/1.1 400')));
    expect(await check(other)).toBe('PostgreSQL answered "H"');
  });
});
