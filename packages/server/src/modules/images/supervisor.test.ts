import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { imageRoutes } from './routes.js';
import { basicAuth, pushImage } from './oci-client.js';
import { noUpstream, REGISTRY_BINARY, superviseRegistry, upstreamFor } from './supervisor.js';

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
    await bare.register(imageRoutes(s.ctx, { upstream: noUpstream() }));
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
    expect(await up.url()).toBeNull();
  });
});

describe.skipIf(!installed)(
  installed
    ? 'supervised registry'
    : `supervised registry (skipped: ${REGISTRY_BINARY} is not installed)`,
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'orrery-registry-'));
    const sup = superviseRegistry({ dataDir: dir, log });
    afterAll(async () => {
      await sup.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('starts on loopback, and restarts the registry after it is killed', async () => {
      const url = await sup.url();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(existsSync(join(dir, 'registry', 'config.yml'))).toBe(true);
      const pid = sup.pid()!;
      process.kill(pid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 50));
      const again = await sup.url();
      expect(again).not.toBeNull();
      expect(sup.pid()).not.toBe(pid);
      expect((await fetch(`${again}/v2/`)).status).toBe(200);
    });

    it('serves an external registry given by ORRERY_REGISTRY_URL', async () => {
      const s = await startTestServer(
        { ORRERY_REGISTRY_URL: (await sup.url())! },
        { listen: true },
      );
      try {
        const { owner } = await tenancy(s);
        await pushImage(s.url, basicAuth(owner.username, owner.token), 'acme/vision/ext', 'v1');
        const q = 'org_name=acme&project_name=vision';
        const list = await call(s, 'GET', `/api/v1/images?${q}`, owner);
        expect(list.body.images).toEqual([
          { name: 'ext', repository: 'acme/vision/ext', tags: ['v1'] },
        ]);
      } finally {
        await s.stop();
      }
    });

    it('stops the registry on close', async () => {
      const d = mkdtempSync(join(tmpdir(), 'orrery-registry-'));
      const other = superviseRegistry({ dataDir: d, log });
      const url = await other.url();
      await other.stop();
      await expect(fetch(`${url}/v2/`)).rejects.toThrow();
      rmSync(d, { recursive: true, force: true });
    });
  },
);
