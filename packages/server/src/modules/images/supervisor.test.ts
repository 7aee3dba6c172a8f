import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Fastify from 'fastify';
import pino from 'pino';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGES_UNAVAILABLE } from '@orrery/contract';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';
import { installErrorHandler } from '../../http/errors-plugin.js';
import { installAccess } from '../../http/access.js';
import { installPrincipal } from '../../auth/principal-hook.js';
import type { createTokenVerifier } from '../../auth/verify.js';
import { imagesModule } from './plugin.js';
import { basicAuth, pushImage } from './oci-client.js';
import { REGISTRY_BINARY, superviseRegistry, upstreamFor } from './supervisor.js';
import { noUpstream } from './upstream.js';
import { freePort, listening } from '../../net/ports.js';
import { tcpListeners, unixListeners } from '../../test/listeners.js';

const installed = existsSync(REGISTRY_BINARY);
const log = pino({ level: 'silent' });

describe('without a registry', () => {
  let s: TestServer;
  let owner: TestUser;
  let app: ReturnType<typeof Fastify>;
  beforeAll(async () => {
    s = await startTestServer();
    ({ owner } = await tenancy(s));
    // The same routes as the server's, given no upstream: as without binary and without URL.
    const bare = Fastify().withTypeProvider<ZodTypeProvider>();
    bare.setValidatorCompiler(validatorCompiler);
    bare.setSerializerCompiler(serializerCompiler);
    installErrorHandler(bare);
    const verifier = s.ctx.verifier as ReturnType<typeof createTokenVerifier>;
    installPrincipal(bare, s.ctx.db, verifier, { provisionUnknown: false });
    installAccess(bare);
    await bare.register(imagesModule(s.ctx, { upstream: noUpstream() }));
    app = bare as unknown as ReturnType<typeof Fastify>;
  });
  afterAll(async () => {
    await app?.close();
    await s?.stop();
  });

  it('answers /v2/ with 503 and a clear message, and the console API says unavailable', async () => {
    const v2 = await app.inject({ url: '/v2/', headers: owner.headers });
    expect(v2.statusCode).toBe(503);
    expect(v2.json().errors[0]).toMatchObject({ code: 'UNAVAILABLE', message: IMAGES_UNAVAILABLE });
    expect((await app.inject({ url: '/v2/' })).statusCode).toBe(401);
    const q = 'org_name=acme&project_name=vision';
    const list = await app.inject({ url: `/api/v1/images?${q}`, headers: owner.headers });
    expect(list.json()).toMatchObject({
      available: false,
      message: IMAGES_UNAVAILABLE,
      images: [],
    });
    const tags = await app.inject({
      url: `/api/v1/images/tags?${q}&name=x`,
      headers: owner.headers,
    });
    expect(tags.statusCode).toBe(503);
  });

  it('does not start anything without the binary', async () => {
    const up = upstreamFor({ dataDir: tmpdir() }, log, '/nonexistent/docker-registry');
    expect(await up.registry()).toBeNull();
  });
});

/** An operator's registry on a TCP port, as ORRERY_REGISTRY_URL points to one. */
async function externalRegistry(dir: string) {
  const port = await freePort();
  const config = join(dir, 'external.yml');
  writeFileSync(
    config,
    `version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: ${join(dir, 'external')}\n` +
      `http:\n  addr: 127.0.0.1:${port}\n`,
  );
  const proc = spawn(REGISTRY_BINARY, ['serve', config], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  while (!(await listening(port))) await new Promise((r) => setTimeout(r, 50));
  return { url, stop: () => proc.kill() };
}

/** Connects to a unix socket as `nobody` (another uid than the server's); prints the outcome. */
function connectAsNobody(socket: string) {
  const script = `require('net').connect(${JSON.stringify(socket)})
    .on('connect', () => { console.log('connected'); process.exit(0); })
    .on('error', (e) => { console.log(e.code); process.exit(0); });`;
  return execFileSync(
    'setpriv',
    ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', script],
    { encoding: 'utf8' },
  ).trim();
}

describe.skipIf(!installed)(
  installed
    ? 'supervised registry'
    : `supervised registry (skipped: ${REGISTRY_BINARY} is not installed)`,
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'orrery-registry-'));
    // Readable by all, as a data directory may be: the registry's own directory must guard it.
    chmodSync(dir, 0o755);
    const sup = superviseRegistry({ dataDir: dir, log });
    afterAll(async () => {
      await sup.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('listens on a unix socket and on no TCP port, and restarts after it is killed', async () => {
      const registry = await sup.registry();
      expect(registry).not.toBeNull();
      const pid = sup.pid()!;
      const socket = join(dir, 'registry', 'registry.sock');
      expect(sup.socketPath()).toBe(socket);
      expect(unixListeners(pid)).toEqual([socket]);
      expect(tcpListeners(pid)).toEqual([]);
      process.kill(pid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 50));
      const again = await sup.registry();
      expect(again).not.toBeNull();
      expect(sup.pid()).not.toBe(pid);
      expect(tcpListeners(sup.pid()!)).toEqual([]);
      expect((await again!.fetch('/v2/')).status).toBe(200);
    });

    it('cannot be reached by another uid: its directory is the server user’s alone', async () => {
      const socket = sup.socketPath()!;
      expect(await sup.registry()).not.toBeNull();
      expect(statSync(join(dir, 'registry')).mode & 0o777).toBe(0o700);
      expect(connectAsNobody(socket)).toBe('EACCES');
    });

    it('serves an external registry given by ORRERY_REGISTRY_URL', async () => {
      const external = await externalRegistry(dir);
      const s = await startTestServer({ ORRERY_REGISTRY_URL: external.url }, { listen: true });
      try {
        const { owner } = await tenancy(s);
        await pushImage(s.url, basicAuth(owner.username, owner.token), 'acme/vision/ext', 'v1');
        const q = 'org_name=acme&project_name=vision';
        const list = await call(s, 'GET', `/api/v1/images?${q}`, owner);
        expect(list.body.images).toEqual([
          { name: 'ext', repository: 'acme/vision/ext', tags: ['v1'] },
        ]);
        const tags = await fetch(`${external.url}/v2/acme/vision/ext/tags/list`);
        expect(await tags.json()).toEqual({ name: 'acme/vision/ext', tags: ['v1'] });
      } finally {
        await s.stop();
        external.stop();
      }
    });

    it('stops the registry on close, and removes its socket', async () => {
      const d = mkdtempSync(join(tmpdir(), 'orrery-registry-'));
      const other = superviseRegistry({ dataDir: d, log });
      const registry = (await other.registry())!;
      const pid = other.pid()!;
      await other.stop();
      expect(existsSync(`/proc/${pid}`)).toBe(false);
      expect(existsSync(other.socketPath()!)).toBe(false);
      await expect(registry.fetch('/v2/')).rejects.toThrow();
      rmSync(d, { recursive: true, force: true });
    });

    it('puts the socket in a private temporary directory when the data directory is too deep', async () => {
      const deep = join(dir, 'd'.repeat(120));
      const other = superviseRegistry({ dataDir: deep, log });
      try {
        expect(await other.registry()).not.toBeNull();
        const socket = other.socketPath()!;
        expect(socket.startsWith(join(tmpdir(), 'orrery-registry-'))).toBe(true);
        expect(statSync(dirname(socket)).mode & 0o777).toBe(0o700);
        expect(unixListeners(other.pid()!)).toEqual([socket]);
      } finally {
        await other.stop();
      }
      expect(existsSync(dirname(other.socketPath()!))).toBe(false);
    });
  },
);
