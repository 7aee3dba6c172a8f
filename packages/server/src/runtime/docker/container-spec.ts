import type Docker from 'dockerode';
import { shellCommand, shellSplit } from '../common.js';
import type { JobSpec } from '../driver.js';
import { LABEL, NAME_PREFIX } from './engine.js';
import { HTTP_PORT_LABEL, PROJECT_LABEL } from './relay.js';

/**
 * The container of a job: the preset's limits, the mounts as binds, GPUs as device requests,
 * the HTTP port published on 127.0.0.1 (unless the network is the host's), labels that let a
 * new server find the job and its reservation again, and the relays its project. Never privileged (the driver refuses such
 * jobs), and the mounts are the checked ones (docker/mounts.ts).
 */
export function containerSpec(
  spec: JobSpec,
  image: { Entrypoint?: string[] | string | null },
  network: string,
): Docker.ContainerCreateOptions {
  const hostNet = network === 'host';
  const port = spec.httpPort ? `${spec.httpPort}/tcp` : undefined;
  // The command is one shell-quoted string. With an entrypoint both run under `sh -c`; a bare
  // command is split into the image entrypoint's arguments when it has one (as Kubernetes
  // does), else it runs under `sh -c` too.
  const command = shellCommand(spec);
  const process: Pick<Docker.ContainerCreateOptions, 'Entrypoint' | 'Cmd'> = spec.entrypoint
    ? { Entrypoint: ['/bin/sh', '-c', command], Cmd: [] }
    : spec.command
      ? { Cmd: image.Entrypoint?.length ? shellSplit(spec.command) : ['/bin/sh', '-c', command] }
      : {};
  return {
    name: NAME_PREFIX + spec.id,
    // As on the process runtime, the job's host name is its id (apps build base URLs from it).
    Hostname: spec.id,
    Image: spec.image,
    ...process,
    Env: Object.entries(spec.env).map(([k, v]) => `${k}=${v}`),
    WorkingDir: spec.workingDir,
    Tty: spec.tty,
    Labels: {
      [LABEL]: spec.id,
      'orrery.cpu': String(spec.limits.cpu),
      'orrery.memory': String(spec.limits.memory),
      ...(spec.httpPort ? { [HTTP_PORT_LABEL]: String(spec.httpPort) } : {}),
      // Names the job's project to the relays (docker/relay.ts).
      ...(spec.project ? { [PROJECT_LABEL]: spec.project } : {}),
    },
    ExposedPorts: port && !hostNet ? { [port]: {} } : undefined,
    HostConfig: {
      NanoCpus: Math.round(spec.limits.cpu * 1e9),
      Memory: spec.limits.memory,
      // Without `shm` the engine's 64 MB default; with it, as much as the memory limit.
      ShmSize: spec.limits.shm ? spec.limits.memory : undefined,
      Mounts: spec.mounts.map((m) => ({
        Type: 'bind' as const,
        Source: m.hostPath,
        Target: m.dstPath,
        ReadOnly: m.readOnly,
      })),
      DeviceRequests: spec.limits.gpu
        ? [{ Driver: 'nvidia', Count: spec.limits.gpu.count, Capabilities: [['gpu']] }]
        : undefined,
      NetworkMode: network,
      // Raw sockets would let a container forge another's address (ARP, IP) on the bridge,
      // which is what names a job to the relays.
      CapDrop: ['NET_RAW'],
      PortBindings:
        port && !hostNet ? { [port]: [{ HostIp: '127.0.0.1', HostPort: '' }] } : undefined,
    },
  };
}
