import { Agent, fetch as undiciFetch } from 'undici';

/** A registry Orrery talks to: where its links point, and a fetch that reaches it. */
export interface Registry {
  /** The origin the registry's own links (upload `Location`s) start with. */
  origin: string;
  /** A request to a path of the registry (`/v2/...` with its query). */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/** Where `/v2/` goes: a fixed external registry, or the supervised one (which may restart). */
export interface Upstream {
  /** The registry once it answers; null while none is available. */
  registry(): Promise<Registry | null>;
  stop(): Promise<void>;
}

/** A registry at a URL (ORRERY_REGISTRY_URL), reached with the global fetch. */
export function urlRegistry(url: string): Registry {
  const origin = url.replace(/\/+$/, '');
  return { origin, fetch: (path, init) => fetch(origin + path, init) };
}

/**
 * The host name of requests over the unix socket: it only fills the Host header (and so the
 * registry's links); `.invalid` never resolves, should anything try.
 */
const SOCKET_ORIGIN = 'http://orrery-registry.invalid';

/**
 * A registry listening on a unix socket. undici's own fetch is used with its Agent: the global
 * fetch of Node 20 is an older undici that cannot be handed this dispatcher.
 */
export function socketRegistry(socketPath: string): Registry & { close(): Promise<void> } {
  const dispatcher = new Agent({ connect: { socketPath } });
  return {
    origin: SOCKET_ORIGIN,
    fetch: (path, init) =>
      undiciFetch(SOCKET_ORIGIN + path, {
        ...(init as Parameters<typeof undiciFetch>[1]),
        dispatcher,
      }) as unknown as Promise<Response>,
    close: () => dispatcher.close(),
  };
}

export const externalUpstream = (url: string): Upstream => {
  const registry = urlRegistry(url);
  return { registry: async () => registry, stop: async () => {} };
};

export const noUpstream = (): Upstream => ({
  registry: async () => null,
  stop: async () => {},
});
