import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { assertValidObject } from './kube-schema.js';

/**
 * A STAND-IN for a Kubernetes API server (none can run on this machine kind): an in-process
 * HTTP server answering the paths the kubernetes runtime calls with the API's documented shapes
 * (objects, lists, `Status` errors, watch events as JSON lines, the channel protocol of exec,
 * attach and port-forward over WebSocket). It is not Kubernetes: nothing schedules or runs;
 * the test moves Pods through their phases (`setStatus`) as a kubelet would. Every body the
 * driver sends is validated against the OpenAPI schema (kube-schema.ts) and refused with 422,
 * as the API server refuses an invalid object.
 */
type Obj = {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; uid?: string; labels?: Record<string, string> };
  [k: string]: unknown;
};

const KINDS: Record<string, { apiVersion: string; kind: string }> = {
  pods: { apiVersion: 'v1', kind: 'Pod' },
  services: { apiVersion: 'v1', kind: 'Service' },
  secrets: { apiVersion: 'v1', kind: 'Secret' },
  persistentvolumeclaims: { apiVersion: 'v1', kind: 'PersistentVolumeClaim' },
  events: { apiVersion: 'v1', kind: 'Event' },
  networkpolicies: { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy' },
};

export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body?: Obj;
}

export class KubeStandIn {
  readonly store = new Map<string, Map<string, Obj>>(
    Object.keys(KINDS).map((k) => [k, new Map<string, Obj>()]),
  );
  nodes: Obj[] = [];
  otherPods: Obj[] = [];
  metrics = new Map<string, { cpu: string; memory: string }>();
  logs = new Map<string, string>();
  /** Where a Pod's port is forwarded to (a real local server standing for the container). */
  ports = new Map<string, number>();
  readonly requests: StandInRequest[] = [];
  /** The next create is refused with this Status (an admission webhook, a ResourceQuota). */
  refuseNext?: { code: number; reason: string; message: string };
  private readonly watchers = new Set<ServerResponse>();
  private server?: Server;
  url = '';

  async start() {
    const wss = new WebSocketServer({ noServer: true });
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('upgrade', (req, socket, head) => {
      wss.handleUpgrade(req, socket, head, (ws) => this.stream(req, ws));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  async stop() {
    for (const w of this.watchers) w.end();
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }

  /** A kubelet's part: the Pod's status (phase, container states) as the test says. */
  setStatus(name: string, status: object) {
    const pod = this.store.get('pods')!.get(name);
    if (!pod) throw new Error(`no pod ${name}`);
    pod.status = status;
    this.notify('MODIFIED', pod);
  }

  addEvent(pod: string, event: { type: string; reason: string; message: string }) {
    const name = `${pod}.${randomUUID().slice(0, 8)}`;
    this.store.get('events')!.set(name, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name },
      involvedObject: { kind: 'Pod', name: pod },
      lastTimestamp: new Date().toISOString(),
      ...event,
    });
  }

  private notify(type: string, object: Obj) {
    for (const w of this.watchers) w.write(JSON.stringify({ type, object }) + '\n');
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url!, 'http://stand-in');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Obj) : undefined;
    this.requests.push({ method: req.method!, path: url.pathname, query: url.searchParams, body });
    const send = (code: number, value: unknown, type = 'application/json') => {
      res.writeHead(code, { 'content-type': type });
      res.end(typeof value === 'string' ? value : JSON.stringify(value));
    };
    const fail = (code: number, reason: string, message: string) =>
      send(code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code });
    const p = url.pathname;
    if (p === '/api/v1/nodes') return send(200, list('NodeList', this.nodes));
    if (p === '/api/v1/pods') {
      return send(200, list('PodList', [...this.otherPods, ...this.store.get('pods')!.values()]));
    }
    const metric = /^\/apis\/metrics\.k8s\.io\/v1beta1\/namespaces\/[^/]+\/pods\/([^/]+)$/.exec(p);
    if (metric) {
      const usage = this.metrics.get(metric[1]!);
      if (!usage) return fail(404, 'NotFound', `podmetrics "${metric[1]}" not found`);
      return send(200, {
        kind: 'PodMetrics',
        apiVersion: 'metrics.k8s.io/v1beta1',
        metadata: { name: metric[1] },
        timestamp: new Date().toISOString(),
        window: '15s',
        containers: [{ name: 'job', usage }],
      });
    }
    const m =
      /^\/(?:api\/v1|apis\/networking\.k8s\.io\/v1)\/namespaces\/([^/]+)\/([a-z]+)(?:\/([^/]+))?(?:\/(log))?$/.exec(
        p,
      );
    const objects = m && this.store.get(m[2]!);
    if (!m || !objects) return fail(404, 'NotFound', `the server could not find ${p}`);
    const [, namespace, resource, name, sub] = m;
    const meta = KINDS[resource!]!;
    if (sub === 'log') {
      if (!objects.has(name!)) return fail(404, 'NotFound', `pods "${name}" not found`);
      const text = this.logs.get(name!) ?? '';
      return send(
        200,
        url.searchParams.get('timestamps') === 'true' ? text : untimed(text),
        'text/plain',
      );
    }
    if (req.method === 'GET' && !name && url.searchParams.get('watch') === 'true') {
      res.writeHead(200, { 'content-type': 'application/json' });
      this.watchers.add(res);
      res.on('close', () => this.watchers.delete(res));
      for (const o of objects.values())
        res.write(JSON.stringify({ type: 'ADDED', object: o }) + '\n');
      return;
    }
    if (req.method === 'GET' && !name) {
      const items = [...objects.values()].filter((o) => matches(o, url.searchParams));
      return send(200, list(`${meta.kind}List`, items));
    }
    if (req.method === 'POST' && !name) {
      try {
        assertValidObject(body!);
      } catch (e) {
        return fail(422, 'Invalid', `${meta.kind} is invalid: ${(e as Error).message}`);
      }
      const refuse = resource === 'pods' ? this.refuseNext : undefined;
      if (refuse) {
        this.refuseNext = undefined;
        return fail(refuse.code, refuse.reason, refuse.message);
      }
      if (objects.has(body!.metadata.name)) {
        return fail(409, 'AlreadyExists', `${resource} "${body!.metadata.name}" already exists`);
      }
      const created = {
        ...body!,
        metadata: {
          ...body!.metadata,
          namespace,
          uid: randomUUID(),
          creationTimestamp: new Date().toISOString(),
        },
        ...(resource === 'pods' ? { status: { phase: 'Pending' } } : {}),
      };
      objects.set(created.metadata.name, created);
      if (resource === 'pods') this.notify('ADDED', created);
      return send(201, created);
    }
    const found = objects.get(name!);
    if (!found) return fail(404, 'NotFound', `${resource} "${name}" not found`);
    if (req.method === 'GET') return send(200, found);
    if (req.method === 'DELETE') {
      objects.delete(name!);
      if (resource === 'pods') this.notify('DELETED', found);
      return send(200, found);
    }
    return fail(405, 'MethodNotAllowed', `${req.method} is not allowed`);
  }

  /** exec, attach and portforward: the channel protocol (first byte of a frame: the stream). */
  private stream(req: IncomingMessage, ws: WebSocket) {
    const url = new URL(req.url!, 'http://stand-in');
    const m = /\/pods\/([^/]+)\/(exec|attach|portforward)$/.exec(url.pathname)!;
    this.requests.push({ method: 'WS', path: url.pathname, query: url.searchParams });
    const frame = (channel: number, data: Buffer | string) =>
      ws.send(Buffer.concat([Buffer.from([channel]), Buffer.from(data)]));
    if (m[2] === 'portforward') {
      const port = Number(url.searchParams.get('ports'));
      const target = this.ports.get(m[1]!);
      const portBytes = Buffer.from([port & 0xff, port >> 8]);
      frame(0, portBytes);
      frame(1, portBytes);
      const socket = connect(target ?? 1, '127.0.0.1');
      socket.on('data', (d) => frame(0, d));
      socket.on('close', () => ws.close());
      socket.on('error', () => ws.close());
      ws.on('message', (d: Buffer) => d[0] === 0 && socket.write(d.subarray(1)));
      ws.on('close', () => socket.destroy());
      return;
    }
    if (m[2] === 'exec') {
      // The command's words come back on stdout; stdin is echoed; `exit N` as the last word
      // ends with that code, as the API's closing Status tells it.
      const command = url.searchParams.getAll('command');
      frame(1, command.join(' ') + '\n');
      const code = Number(/^exit (\d+)$/.exec(command.at(-1) ?? '')?.[1] ?? 0);
      const finish = () => {
        frame(
          3,
          JSON.stringify(
            code === 0
              ? { metadata: {}, status: 'Success' }
              : {
                  metadata: {},
                  status: 'Failure',
                  reason: 'NonZeroExitCode',
                  details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
                },
          ),
        );
        ws.close();
      };
      if (url.searchParams.get('stdin') !== 'true') return finish();
      ws.on('message', (d: Buffer) => {
        if (d[0] !== 0) return;
        frame(1, d.subarray(1));
        if (d.subarray(1).includes(4)) finish(); // ^D
      });
      return;
    }
    // attach: the job's stdin echoed to its stdout until ^D.
    ws.on('message', (d: Buffer) => {
      if (d[0] !== 0) return;
      frame(1, d.subarray(1));
      if (d.subarray(1).includes(4)) ws.close();
    });
  }
}

const list = (kind: string, items: Obj[]) => ({
  kind,
  apiVersion: kind.startsWith('NetworkPolicy') ? 'networking.k8s.io/v1' : 'v1',
  metadata: { resourceVersion: '1' },
  items,
});

/** Label selectors of the form `key` / `key=value`, and `involvedObject.name=` field selectors. */
function matches(o: Obj, q: URLSearchParams): boolean {
  for (const term of (q.get('labelSelector') ?? '').split(',').filter(Boolean)) {
    const [k, v] = term.split('=');
    const have = o.metadata.labels?.[k!];
    if (have === undefined || (v !== undefined && have !== v)) return false;
  }
  const involved = /involvedObject\.name=([^,]+)/.exec(q.get('fieldSelector') ?? '')?.[1];
  if (involved && (o.involvedObject as { name?: string } | undefined)?.name !== involved)
    return false;
  return true;
}

const untimed = (text: string) =>
  text
    .split('\n')
    .map((l) => l.slice(l.indexOf(' ') + 1))
    .join('\n');
