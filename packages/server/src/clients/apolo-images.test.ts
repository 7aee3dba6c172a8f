import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { tenancy } from '../test/fixtures.js';
import { canRunDockerd, importBusybox, startDockerd, type Dockerd } from '../test/dockerd.mjs';
import { REGISTRY_BINARY } from '../modules/images/supervisor.js';
import { apoloOf, describeClients } from '../test/apolo-cli.js';

const LOCAL = 'busybox:apolo-push';

/**
 * The official `apolo image` commands against a real server with its embedded registry: a real
 * `apolo image push` of a local image through a private dockerd (Debian's docker.io), then
 * `image ls`, `image tags` and `image pull` (docs/apolo-clients.md).
 */
describeClients('the official apolo CLI: images', () => {
  const can = canRunDockerd && existsSync(REGISTRY_BINARY);
  if (!can) {
    const why = !canRunDockerd ? 'dockerd and busybox-static, as root' : REGISTRY_BINARY;
    if (process.env.CI === 'true') throw new Error(`apolo image push needs ${why}`);
    process.stderr.write(`\n!!! SKIPPED apolo image tests: they need ${why}\n\n`);
  }
  let dockerd: Dockerd;
  let s: TestServer;
  let owner: TestUser;
  beforeAll(async () => {
    if (!can) return;
    dockerd = await startDockerd();
    importBusybox(dockerd, LOCAL);
    s = await startTestServer({ ORRERY_RUNTIME: 'process' }, { listen: true });
    owner = (await tenancy(s)).owner;
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await dockerd?.stop();
  });
  const apolo = apoloOf(
    () => s,
    () => owner,
  );

  it.skipIf(!can)('image push, then ls and tags list it, and pull brings it back', async () => {
    const env = { DOCKER_HOST: dockerd.host };
    const pushed = await apolo.ok(['image', 'push', LOCAL, 'image:tools:v1'], { env });
    expect(pushed).toContain('image://default/acme/vision/tools:v1');
    expect(await apolo.ok(['image', 'ls'])).toContain('image:tools');
    expect(await apolo.ok(['image', 'tags', 'image:tools'])).toContain('v1');
    await apolo.ok(['image', 'pull', 'image:tools:v1', 'pulled:back'], { env });
    expect(dockerd.docker(['image', 'ls', '--format', '{{.Repository}}:{{.Tag}}'])).toContain(
      'pulled:back',
    );
  });
});
