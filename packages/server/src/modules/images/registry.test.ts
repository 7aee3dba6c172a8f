import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, projectMember, tenantServer } from '../../test/fixtures.js';
import { basicAuth, OCI_MANIFEST, pushBlob, pushImage, sha256, tinyImage } from './oci-client.js';
import { REGISTRY_BINARY } from './supervisor.js';
import { descendants, tcpListeners, unixListeners } from '../../test/listeners.js';

const installed = existsSync(REGISTRY_BINARY);

describe.skipIf(!installed)(
  installed
    ? 'registry through Orrery'
    : `registry through Orrery (skipped: ${REGISTRY_BINARY} is not installed)`,
  () => {
    let s: TestServer;
    let owner: TestUser;
    let reader: TestUser;
    let outsider: TestUser;
    const basic = (u: TestUser) => basicAuth(u.username, u.token);
    const get = (path: string, auth?: string, headers: Record<string, string> = {}) =>
      fetch(`${s.url}${path}`, {
        headers: { ...(auth ? { authorization: auth } : {}), ...headers },
      });
    const image = tinyImage();

    tenantServer((x) => ({ s, owner } = x), {}, { listen: true });
    beforeAll(async () => {
      reader = await projectMember(s, 'reader');
      outsider = await s.user();
      await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'elsewhere' });
      await call(s, 'POST', '/api/v1/projects', outsider, {
        name: 'lab',
        org_name: 'elsewhere',
        cluster_name: 'default',
      });
      await pushImage(s.url, basic(owner), 'acme/vision/app', 'v1', image);
    });

    it('answers the version check with auth, and challenges without it', async () => {
      const anon = await get('/v2/');
      expect(anon.status).toBe(401);
      expect(anon.headers.get('www-authenticate')).toBe('Basic realm="Orrery"');
      expect((await anon.json()).errors[0].code).toBe('UNAUTHORIZED');
      expect((await get('/v2/', basic(owner))).status).toBe(200);
      expect((await get('/v2/', owner.headers.authorization)).status).toBe(200);
      expect((await get('/v2/', basicAuth('token', owner.token))).status).toBe(200);
      expect((await get('/v2/', basicAuth('somebody-else', owner.token))).status).toBe(401);
      expect((await get('/v2/', basicAuth(owner.username, 'not-a-token'))).status).toBe(401);
    });

    it('pulls back what was pushed: manifest, config and layer, as streams', async () => {
      const m = await get('/v2/acme/vision/app/manifests/v1', basic(reader), {
        accept: OCI_MANIFEST,
      });
      expect(m.status).toBe(200);
      expect(m.headers.get('docker-content-digest')).toBe(image.manifestDigest);
      expect(Buffer.from(await m.arrayBuffer()).equals(image.manifest)).toBe(true);
      const head = await fetch(`${s.url}/v2/acme/vision/app/manifests/v1`, {
        method: 'HEAD',
        headers: { authorization: basic(reader), accept: OCI_MANIFEST },
      });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(image.manifest.length));
      for (const [digest, bytes] of [
        [image.configDigest, image.config],
        [image.layerDigest, image.layer],
      ] as const) {
        const b = await get(`/v2/acme/vision/app/blobs/${digest}`, basic(reader));
        expect(b.status).toBe(200);
        expect(sha256(Buffer.from(await b.arrayBuffer()))).toBe(digest);
        expect(bytes.length).toBeGreaterThan(0);
      }
    });

    it('rewrites upload session locations to Orrery', async () => {
      const r = await fetch(`${s.url}/v2/acme/vision/app/blobs/uploads/`, {
        method: 'POST',
        headers: { authorization: basic(owner) },
      });
      expect(r.status).toBe(202);
      const location = r.headers.get('location')!;
      expect(location.startsWith(`${s.url}/v2/acme/vision/app/blobs/uploads/`)).toBe(true);
      await fetch(location, { method: 'DELETE', headers: { authorization: basic(owner) } });
    });

    it('lists tags, and the catalog with n, last and a Link header', async () => {
      await pushImage(s.url, basic(owner), 'acme/vision/app', 'v2', image);
      await pushImage(s.url, basic(owner), 'acme/vision/tools/cli', 'latest', image);
      await pushImage(s.url, basic(outsider), 'elsewhere/lab/secret', 'v1', image);
      const tags = await (await get('/v2/acme/vision/app/tags/list', basic(reader))).json();
      expect(tags).toEqual({ name: 'acme/vision/app', tags: ['v1', 'v2'] });

      const first = await get('/v2/_catalog?n=1', basic(owner));
      expect(await first.json()).toEqual({ repositories: ['acme/vision/app'] });
      const link = first.headers.get('link')!;
      expect(link).toBe('</v2/_catalog?n=1&last=acme%2Fvision%2Fapp>; rel="next"');
      const second = await get(/<([^>]+)>/.exec(link)![1], basic(owner));
      expect(await second.json()).toEqual({ repositories: ['acme/vision/tools/cli'] });
      expect(second.headers.get('link')).toBeNull();

      const all = await (await get('/v2/_catalog', basic(reader))).json();
      expect(all.repositories).toEqual(['acme/vision/app', 'acme/vision/tools/cli']);
      const theirs = await (await get('/v2/_catalog?org=elsewhere', basic(outsider))).json();
      expect(theirs.repositories).toEqual(['elsewhere/lab/secret']);
      const none = await (await get('/v2/_catalog?project=lab', basic(owner))).json();
      expect(none.repositories).toEqual([]);
    });

    it('enforces image:// permissions: 404 elsewhere, 403 for a reader pushing', async () => {
      const foreign = await get('/v2/elsewhere/lab/secret/tags/list', basic(owner));
      expect(foreign.status).toBe(404);
      expect((await foreign.json()).errors[0].code).toBe('NAME_UNKNOWN');
      expect((await get('/v2/acme/vision/app/tags/list')).status).toBe(401);
      const push = await fetch(`${s.url}/v2/acme/vision/app/blobs/uploads/`, {
        method: 'POST',
        headers: { authorization: basic(reader) },
      });
      expect(push.status).toBe(403);
      expect((await push.json()).errors[0].code).toBe('DENIED');
      await expect(
        pushBlob(s.url, basic(outsider), 'acme/vision/app', image.layer),
      ).rejects.toThrow(/404/);
      const manifest = await fetch(`${s.url}/v2/acme/vision/app/manifests/v9`, {
        method: 'PUT',
        headers: { authorization: basic(reader), 'content-type': OCI_MANIFEST },
        body: new Uint8Array(image.manifest),
      });
      expect(manifest.status).toBe(403);
      expect((await get('/v2/acme/app/tags/list', basic(owner))).status).toBe(400);
    });

    it('runs the registry with no TCP port: the server’s own port is the only way in', async () => {
      expect((await get('/v2/', basic(owner))).status).toBe(200);
      const children = descendants(process.pid);
      const registry = children.filter((pid) => unixListeners(pid).length > 0);
      expect(registry).toHaveLength(1);
      expect(unixListeners(registry[0])).toEqual([
        join(s.config.dataDir, 'registry', 'registry.sock'),
      ]);
      expect(children.flatMap(tcpListeners)).toEqual([]);
      expect(tcpListeners(process.pid)).toEqual([s.config.port]);
    });

    it('describes images for the console: tags, created and size', async () => {
      const q = 'org_name=acme&project_name=vision&cluster_name=default';
      const list = await call(s, 'GET', `/api/v1/images?${q}`, reader);
      expect(list.status).toBe(200);
      expect(list.body.available).toBe(true);
      expect(list.body.images).toEqual([
        { name: 'app', repository: 'acme/vision/app', tags: ['v1', 'v2'] },
        { name: 'tools/cli', repository: 'acme/vision/tools/cli', tags: ['latest'] },
      ]);
      const d = await call(s, 'GET', `/api/v1/images/tags?${q}&name=app`, reader);
      expect(d.status).toBe(200);
      expect(d.body.image).toBe(`127.0.0.1:${s.config.port}/acme/vision/app`);
      expect(d.body.tags[0]).toEqual({
        tag: 'v1',
        digest: image.manifestDigest,
        created_at: '2026-01-02T03:04:05.000Z',
        size: image.layer.length,
      });
      expect((await call(s, 'GET', `/api/v1/images/tags?${q}&name=nope`, reader)).status).toBe(404);
      expect((await call(s, 'GET', `/api/v1/images?${q}`, outsider)).status).toBe(404);
    });
  },
);
