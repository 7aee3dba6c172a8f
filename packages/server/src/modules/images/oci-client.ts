import { createHash } from 'node:crypto';

/**
 * A minimal registry client over the distribution API, blob by blob: what `docker push` does,
 * for tests, demos and seeding a registry without Docker.
 */
export const sha256 = (b: Buffer | string) =>
  `sha256:${createHash('sha256').update(b).digest('hex')}`;

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

export const basicAuth = (username: string, token: string) =>
  `Basic ${Buffer.from(`${username}:${token}`).toString('base64')}`;

export interface PushedImage {
  manifest: Buffer;
  manifestDigest: string;
  config: Buffer;
  configDigest: string;
  layer: Buffer;
  layerDigest: string;
}

/** A tiny image: a config blob (with `created`) and one layer, under an OCI manifest. */
export function tinyImage(created = '2026-01-02T03:04:05Z', payload = 'hello orrery\n') {
  const config = Buffer.from(
    JSON.stringify({
      created,
      architecture: 'amd64',
      os: 'linux',
      config: {},
      rootfs: { type: 'layers', diff_ids: [sha256(payload)] },
    }),
  );
  const layer = Buffer.from(payload);
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: {
        mediaType: 'application/vnd.oci.image.config.v1+json',
        digest: sha256(config),
        size: config.length,
      },
      layers: [
        {
          mediaType: 'application/vnd.oci.image.layer.v1.tar',
          digest: sha256(layer),
          size: layer.length,
        },
      ],
    }),
  );
  return {
    manifest,
    manifestDigest: sha256(manifest),
    config,
    configDigest: sha256(config),
    layer,
    layerDigest: sha256(layer),
  };
}

async function ok(res: Response, what: string, expected: number) {
  if (res.status !== expected) {
    throw new Error(`${what}: ${res.status} ${await res.text()}`);
  }
  return res;
}

/** Uploads one blob: POST a session, PATCH the bytes, PUT with the digest (monolithic at close). */
export async function pushBlob(base: string, auth: string, repo: string, blob: Buffer) {
  const digest = sha256(blob);
  const start = await ok(
    await fetch(`${base}/v2/${repo}/blobs/uploads/`, {
      method: 'POST',
      headers: { authorization: auth },
    }),
    'start upload',
    202,
  );
  const session = new URL(start.headers.get('location')!, base);
  const patched = await ok(
    await fetch(session, {
      method: 'PATCH',
      headers: { authorization: auth, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(blob),
    }),
    'upload chunk',
    202,
  );
  const done = new URL(patched.headers.get('location')!, base);
  done.searchParams.set('digest', digest);
  await ok(
    await fetch(done, { method: 'PUT', headers: { authorization: auth } }),
    'finish upload',
    201,
  );
  return digest;
}

/** Pushes an image (config, layer, then the manifest under `tag`). */
export async function pushImage(
  base: string,
  auth: string,
  repo: string,
  tag: string,
  image: PushedImage = tinyImage(),
) {
  await pushBlob(base, auth, repo, image.config);
  await pushBlob(base, auth, repo, image.layer);
  await ok(
    await fetch(`${base}/v2/${repo}/manifests/${tag}`, {
      method: 'PUT',
      headers: { authorization: auth, 'content-type': OCI_MANIFEST },
      body: new Uint8Array(image.manifest),
    }),
    'put manifest',
    201,
  );
  return image;
}
