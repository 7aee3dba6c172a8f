import { connect, createServer, type Server, type Socket } from 'node:net';

/** How one runtime names the jobs behind connections and opens its firewall to relays. */
export interface RelayBackend {
  /** The host address relays listen on, which jobs reach and nothing else of the host. */
  readonly address: string;
  /** `cluster/org/project` of the job that opened the connection; undefined for anything else. */
  peerProject(socket: Socket): Promise<string | undefined>;
  /** Where the server reaches job `id`'s declared port, and its project, while it runs. */
  target(id: string): Promise<{ project?: string; host: string; port: number } | undefined>;
  /** Opens (or closes) the relays' ports on `address` to jobs. */
  allow(ports: number[], open: boolean): Promise<void>;
  /** Relay ports recorded for the jobs a previous server left running, by job id. */
  recorded(): Promise<[string, number][]>;
}

/**
 * Jobs reach each other's declared ports through the server: one TCP listener per such job on
 * the backend's address, which the runtime's firewall opens to jobs and nothing else of the
 * host. The backend names the job that connected (a uid on the process runtime, a container's
 * address on docker); only a job of the target's project is piped on to the target's port,
 * anything else is reset before a byte passes.
 */
export class Relays {
  private readonly servers = new Map<string, Server>();

  constructor(private readonly backend: RelayBackend) {}

  get address(): string {
    return this.backend.address;
  }

  /** The port of job `id`'s relay, while it is open. */
  portOf(id: string): number | undefined {
    return (this.servers.get(id)?.address() as { port: number } | null)?.port;
  }

  /** The relays of the jobs a previous server left running, on their recorded ports. */
  async reopen() {
    for (const [id, port] of await this.backend.recorded()) {
      // One relay that cannot be reopened (its port taken meanwhile) must not keep the others shut.
      await this.open(id, port).catch(() => undefined);
    }
  }

  /** Opens (or reopens, after a server restart, on `port`) the relay of job `id`; its port. */
  async open(id: string, port = 0): Promise<number> {
    await this.close(id);
    const server = createServer({ pauseOnConnect: true, allowHalfOpen: true }, (s) => {
      this.admit(id, s).catch(() => s.resetAndDestroy());
    });
    server.on('error', () => undefined);
    const listen = (p: number) =>
      new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(p, this.address, () => {
          server.off('error', reject);
          resolve((server.address() as { port: number }).port);
        });
      });
    // The recorded port is taken by now: another is better than none.
    const bound = await listen(port).catch((e) => (port ? listen(0) : Promise.reject(e)));
    this.servers.set(id, server);
    await this.backend.allow([bound], true);
    return bound;
  }

  async close(id: string): Promise<void> {
    const server = this.servers.get(id);
    if (!server) return;
    const port = this.portOf(id);
    this.servers.delete(id);
    // Not waiting for open connections: they end with the job.
    server.close();
    // Nothing listens on the port any more: a rule left open reaches no one, and the next relay
    // on that port opens it again.
    if (port) await this.backend.allow([port], false).catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.servers.keys()].map((id) => this.close(id)));
  }

  private async admit(target: string, socket: Socket) {
    socket.on('error', () => socket.destroy());
    const [peer, dest] = await Promise.all([
      this.backend.peerProject(socket),
      this.backend.target(target),
    ]);
    if (!peer || !dest?.project || peer !== dest.project) {
      socket.resetAndDestroy();
      return;
    }
    // Half-closed as the client does it (a request then EOF, as `nc` sends): each end passes
    // on, and the answer still comes back.
    const upstream = connect({ port: dest.port, host: dest.host, allowHalfOpen: true });
    upstream.on('error', () => socket.resetAndDestroy());
    socket.on('close', () => upstream.destroy());
    socket.pipe(upstream).pipe(socket);
    socket.resume();
  }
}
