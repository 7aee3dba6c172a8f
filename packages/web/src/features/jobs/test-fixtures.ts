import { Job as JobSchema, type JobWire } from '@orrery/contract';
import { vi } from 'vitest';
import { world } from '../../test/fixtures';

/** Job bodies for tests, parsed by the contract's schema like the server's answers. */
export const JOB_ID = 'job-0b8e1f9e-2a33-4c1b-9f5e-6d0c3a7b9e21';
export const ROUTE_QUERY = 'org=acme&cluster=default&project=vision';
export const MONITORING = 'http://localhost:8080/api/v1/jobs';

export function jobWire(over: Partial<JobWire> = {}): JobWire {
  const id = over.id ?? JOB_ID;
  const status = over.status ?? 'running';
  return JobSchema.parse({
    id,
    owner: 'alice',
    cluster_name: 'default',
    org_name: 'acme',
    project_name: 'vision',
    uri: `job://default/acme/vision/${id}`,
    namespace: 'orrery',
    status,
    history: {
      status,
      reason: null,
      description: null,
      created_at: '2026-01-02T03:04:05.000Z',
      started_at: '2026-01-02T03:04:06.000Z',
      run_time_seconds: 61,
      restarts: 0,
    },
    statuses: [
      {
        status: 'pending',
        transition_time: '2026-01-02T03:04:05.000Z',
        reason: 'Creating',
        description: null,
      },
      { status, transition_time: '2026-01-02T03:04:06.000Z', reason: null, description: null },
    ],
    container: {
      image: 'ubuntu:24.04',
      resources: { cpu: 0.5, memory: 2 ** 30, memory_mb: 1024, shm: true },
      env: { MODE: 'train' },
      volumes: [
        {
          src_storage_uri: 'storage://default/acme/vision/data',
          dst_path: '/data',
          read_only: true,
        },
        {
          src_storage_uri: 'storage://default/acme/vision/out',
          dst_path: '/out',
          read_only: false,
        },
      ],
      command: 'python train.py',
      http: { port: 8080, health_check_path: '/', requires_auth: true },
      secret_env: { TOKEN: 'secret://default/acme/vision/token' },
      secret_volumes: [],
      disk_volumes: [],
      tty: false,
    },
    scheduler_enabled: false,
    pass_config: false,
    preemptible_node: false,
    is_preemptible: false,
    is_preemptible_node_required: false,
    privileged: false,
    materialized: false,
    being_dropped: false,
    logs_removed: false,
    restart_policy: 'never',
    priority: 'normal',
    total_price_credits: '0.5',
    price_credits_per_hour: '1',
    name: 'train',
    preset_name: 'cpu-small',
    tags: ['exp:1', 'team'],
    max_run_time_minutes: 1440,
    http_url: 'http://localhost:8080/jobs/train',
    runtime: 'docker',
    ...over,
  });
}

export const signedIn = () => {
  const { user, sessionConfig } = world();
  return { user, sessionConfig };
};

/** jsdom has no IntersectionObserver; this one is driven by the test. */
export function stubIntersectionObserver() {
  const observers: {
    callback: IntersectionObserverCallback;
    options?: IntersectionObserverInit;
  }[] = [];
  class Observer {
    constructor(
      readonly callback: IntersectionObserverCallback,
      readonly options?: IntersectionObserverInit,
    ) {
      observers.push(this);
    }
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  vi.stubGlobal('IntersectionObserver', Observer);
  return {
    observers,
    /** Tells the newest observer that its sentinel came into view. */
    reveal: () =>
      observers
        .at(-1)!
        .callback(
          [{ isIntersecting: true } as IntersectionObserverEntry],
          {} as IntersectionObserver,
        ),
  };
}

/** A WebSocket that records how it was opened and lets the test push messages. */
export function stubWebSocket() {
  const sockets: FakeSocket[] = [];
  class FakeSocket {
    onopen: (() => void) | null = null;
    onclose: ((e?: { code: number; reason: string }) => void) | null = null;
    onmessage: ((e: { data: unknown }) => void) | null = null;
    binaryType = 'blob';
    closed = false;
    constructor(
      readonly url: string,
      readonly protocols?: string | string[],
    ) {
      sockets.push(this);
    }
    close() {
      this.closed = true;
    }
  }
  vi.stubGlobal('WebSocket', FakeSocket);
  return sockets;
}

/** A streamed text body whose chunks the test writes, like a followed log. */
export function textStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: () => new Response(stream, { headers: { 'Content-Type': 'text/plain' } }),
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

/** The server's sentences for a process runtime without its sandbox (runtime/process/unsandboxed.ts). */
export const NOT_ISOLATED =
  "Jobs are not isolated on this installation (ORRERY_UNSANDBOXED_JOBS=allow): bubblewrap (/usr/bin/bwrap) is not installed, so each job runs on the host system under a uid of its own, and sees the host's files, network and processes. Run only code you trust.";
export const JOBS_REFUSED =
  'Jobs are refused on this installation, as they would not be isolated: bubblewrap (/usr/bin/bwrap) is not installed, so each job would run on the host system under a uid of its own. An administrator can install bubblewrap and run the server as root, or set ORRERY_UNSANDBOXED_JOBS=allow on a one-person machine.';

/** `GET /api/v1/jobs/runtime` of the process runtime, with what it says of isolation. */
export const processRuntimeRoute = (
  isolation: {
    isolation_warning?: string;
    refused_reason?: string;
    workers_refusal?: string;
    volumes_refused_reason?: string;
    http_port_assigned?: boolean;
  } = {},
) => ({
  url: '/api/v1/jobs/runtime',
  body: { name: 'process', can_save_image: false, uses_image: false, ...isolation },
});
