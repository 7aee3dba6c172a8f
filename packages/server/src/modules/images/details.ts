import type { ImageTagWire } from '@orrery/contract';
import { upstreamJson } from './proxy.js';
import type { Registry } from './upstream.js';

/** Every manifest kind the CLI asks for. */
export const MANIFEST_ACCEPT = [
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.oci.image.index.v1+json',
].join(', ');

interface Descriptor {
  digest: string;
  size?: number;
  platform?: { os?: string; architecture?: string };
}
interface Manifest {
  config?: Descriptor;
  layers?: Descriptor[];
  manifests?: Descriptor[];
}

/** The tags of a repository (all of them: the console shows every tag). */
export async function tagsOf(registry: Registry, repository: string): Promise<string[]> {
  const res = await upstreamJson<{ tags?: string[] | null }>(
    registry,
    `/v2/${repository}/tags/list`,
  );
  return res.status === 200 ? [...(res.body?.tags ?? [])].sort() : [];
}

/**
 * A tag's digest, creation time (the config blob's `created`) and size (the sum of its layers'
 * sizes, as `apolo image size` computes it). For an index, the linux/amd64 image, else the first.
 */
export async function tagDetails(
  registry: Registry,
  repository: string,
  tag: string,
): Promise<ImageTagWire> {
  const none = { tag, digest: null, created_at: null, size: null };
  const got = await upstreamJson<Manifest>(
    registry,
    `/v2/${repository}/manifests/${encodeURIComponent(tag)}`,
    MANIFEST_ACCEPT,
  );
  if (got.status !== 200 || !got.body) return none;
  const digest = got.headers.get('docker-content-digest');
  let manifest = got.body;
  if (manifest.manifests?.length) {
    const pick =
      manifest.manifests.find(
        (m) => m.platform?.os === 'linux' && m.platform.architecture === 'amd64',
      ) ?? manifest.manifests[0];
    const one = await upstreamJson<Manifest>(
      registry,
      `/v2/${repository}/manifests/${pick.digest}`,
      MANIFEST_ACCEPT,
    );
    if (one.status !== 200 || !one.body) return { ...none, digest };
    manifest = one.body;
  }
  const size = (manifest.layers ?? []).reduce((sum, l) => sum + (l.size ?? 0), 0);
  let created: string | null = null;
  if (manifest.config?.digest) {
    const config = await upstreamJson<{ created?: string }>(
      registry,
      `/v2/${repository}/blobs/${manifest.config.digest}`,
    );
    const at = config.body?.created ? new Date(config.body.created) : null;
    created = at && !Number.isNaN(at.getTime()) ? at.toISOString() : null;
  }
  return { tag, digest, created_at: created, size };
}
