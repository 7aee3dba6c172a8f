import Docker from 'dockerode';

export const LABEL = 'orrery.job';
export const NAME_PREFIX = 'orrery-job-';
/** Made when the engine has no `bridge` network (a dockerd started with --bridge=none). */
const FALLBACK_NETWORK = 'orrery';

/** A client of the engine at DOCKER_HOST (unix, tcp, http or https). */
export function dockerClient(dockerHost?: string): Docker {
  if (!dockerHost) return new Docker({ socketPath: '/var/run/docker.sock' });
  const url = new URL(dockerHost);
  if (url.protocol === 'unix:') return new Docker({ socketPath: url.pathname });
  return new Docker({
    host: url.hostname,
    port: Number(url.port) || (url.protocol === 'https:' ? 2376 : 2375),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
  });
}

/** Whether a Docker engine answers at the address within 2 s. */
export async function dockerAnswers(dockerHost?: string): Promise<boolean> {
  try {
    const timeout = new Promise((_, reject) => setTimeout(reject, 2000).unref());
    await Promise.race([dockerClient(dockerHost).ping(), timeout]);
    return true;
  } catch {
    return false;
  }
}

/** The network to join: the configured one (made if missing), else `bridge`, else our own. */
export async function ensureNetwork(docker: Docker, configured?: string): Promise<string> {
  const names = new Set((await docker.listNetworks()).map((n) => n.Name));
  const wanted = configured ?? (names.has('bridge') ? 'bridge' : FALLBACK_NETWORK);
  if (!names.has(wanted)) {
    // Without inter-container traffic, also for an engine that manages iptables itself;
    // docker/isolation.ts enforces it whatever the engine does.
    await docker.createNetwork({
      Name: wanted,
      Driver: 'bridge',
      Labels: { 'orrery.network': '' },
      Options: { 'com.docker.network.bridge.enable_icc': 'false' },
    });
  }
  return wanted;
}

/** `registry/path/name:tag` into the commit's repo and tag and the push's server address. */
export function parseImage(image: string): { repo: string; tag: string; registry: string } {
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  const [repo, tag] =
    colon > slash ? [image.slice(0, colon), image.slice(colon + 1)] : [image, 'latest'];
  const first = repo.split('/')[0];
  const registry = /[.:]/.test(first) || first === 'localhost' ? first : 'docker.io';
  return { repo, tag, registry };
}

/** Swallows engine errors with these HTTP statuses (not found, not modified). */
export function ignore(...codes: number[]) {
  return (e: { statusCode?: number }) => {
    if (e.statusCode !== undefined && codes.includes(e.statusCode)) return undefined;
    throw e;
  };
}
