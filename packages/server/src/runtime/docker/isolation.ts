import { existsSync } from 'node:fs';
import type Docker from 'dockerode';
import { CommandFailed, runCommand } from '../child.js';

export const NFT = '/usr/sbin/nft';
const IP = '/usr/sbin/ip';

/** The nftables tables of a bridge's rules (one `inet`, one `bridge`), named after it. */
export const isolationTable = (bridge: string) => `orrery-${bridge}`;

export interface BridgeNetwork {
  /** The host's device of the network (`docker0`, `br-<id>`). */
  bridge: string;
  subnets: string[];
  /** The bridge's IPv4 address on the host, when it has one: where relays listen. */
  gateway?: string;
}

/** Opens (or closes) relay ports on the bridge's gateway address to its containers. */
export function allowBridgeRelay(
  net: BridgeNetwork & { gateway: string },
  ports: number[],
  open: boolean,
): Promise<void> {
  if (!ports.length) return Promise.resolve();
  const elements = ports.map((p) => `${net.gateway} . ${p}`).join(', ');
  return nft(
    `${open ? 'add' : 'delete'} element inet ${isolationTable(net.bridge)} relays { ${elements} }\n`,
  );
}

/**
 * The rules that keep job containers to themselves, whatever dockerd does with iptables (the
 * tests' dockerd runs with --iptables=false, and then `enable_icc=false` enforces nothing):
 *
 * - input (inet): nothing that enters the host from the bridge reaches a host socket (the
 *   server's port, the registry, any service on any address of the host), but the answers of
 *   connections the host opened (the ingress reaching a published port), IPv6 neighbour
 *   discovery, without which an IPv6 network has no way out, and the server's relays: the
 *   address-and-port pairs of the set `relays` (docker/relay.ts), filled as they open;
 * - bridge forward: no frame from one container to another's address on the same network. This
 *   kernel family lacks `meta ibrname`, so the bridge's frames are told by their subnets;
 * - inet forward: the same for every IP packet the bridge passes, when br_netfilter hands
 *   bridged traffic to IP hooks (covering link-local IPv6 as well).
 *
 * Replacing the tables is one transaction: no moment without rules.
 */
export function isolationRules({ bridge, subnets }: BridgeNetwork): string {
  const table = isolationTable(bridge);
  const dev = JSON.stringify(bridge);
  const daddr = (s: string) => `${s.includes(':') ? 'ip6' : 'ip'} daddr ${s} drop`;
  return `table inet ${table}
delete table inet ${table}
table inet ${table} {
  set relays {
    type ipv4_addr . inet_service;
  }
  chain input {
    type filter hook input priority filter; policy accept;
    iifname ${dev} ct state established,related accept
    iifname ${dev} icmpv6 type { nd-neighbor-solicit, nd-neighbor-advert, nd-router-solicit } accept
    iifname ${dev} ip daddr . tcp dport @relays accept
    iifname ${dev} meta l4proto tcp reject with tcp reset
    iifname ${dev} reject
  }
  chain forward {
    type filter hook forward priority filter; policy accept;
    iifname ${dev} oifname ${dev} drop
  }
}
table bridge ${table}
delete table bridge ${table}
table bridge ${table} {
  chain forward {
    type filter hook forward priority filter; policy accept;
${subnets.map((s) => `    ${daddr(s)}\n`).join('')}  }
}
`;
}

/**
 * The rules of a job's own network (a job of several workers, gang.ts): its containers reach each
 * other on any port (also when br_netfilter hands the bridged packets to the IP hooks), and
 * nothing enters the host from it (no socket of the host, on the network's gateway address or
 * any other; only the answers of connections the host opened) or is routed into or out of it: no other job, of this network or another, reaches
 * the workers there, and they reach no one else through it.
 */
export function gangIsolationRules(bridge: string): string {
  const table = isolationTable(bridge);
  const dev = JSON.stringify(bridge);
  return `table inet ${table}
delete table inet ${table}
table inet ${table} {
  chain input {
    type filter hook input priority filter; policy accept;
    iifname ${dev} ct state established,related accept
    iifname ${dev} meta l4proto tcp reject with tcp reset
    iifname ${dev} reject
  }
  chain forward {
    type filter hook forward priority filter; policy accept;
    iifname ${dev} oifname ${dev} accept
    iifname ${dev} drop
    oifname ${dev} drop
  }
}
`;
}

/** Removes a bridge's rules (its network is gone); nothing to do when it had none. */
export async function dropIsolation(bridge: string): Promise<void> {
  const table = isolationTable(bridge);
  await nft(`table inet ${table}\ndelete table inet ${table}\n`);
}

export async function nft(script: string): Promise<void> {
  try {
    await runCommand(NFT, ['-f', '-'], { input: script });
  } catch (e) {
    throw new Error(e instanceof CommandFailed ? e.stderr || e.message : String(e));
  }
}

/**
 * The IPv4 address of a host device, from iproute2: Node's interface list leaves out a bridge
 * that is down, as a network's bridge is until a container joins it.
 */
async function deviceAddress(dev: string): Promise<string | undefined> {
  const out = await runCommand(IP, ['-j', '-4', 'addr', 'show', 'dev', dev]).catch(() => null);
  const parsed = out ? (JSON.parse(out.stdout) as Array<{ addr_info?: { local?: string }[] }>) : [];
  return parsed[0]?.addr_info?.[0]?.local;
}

/** The bridge device and subnets of an engine network; null when its driver is not `bridge`. */
export async function bridgeOf(docker: Docker, network: string): Promise<BridgeNetwork | null> {
  const info = (await docker.getNetwork(network).inspect()) as {
    Id: string;
    Driver: string;
    Options?: Record<string, string>;
    IPAM?: { Config?: Array<{ Subnet?: string; Gateway?: string }> | null };
  };
  if (info.Driver !== 'bridge') return null;
  const config = info.IPAM?.Config ?? [];
  return {
    bridge: info.Options?.['com.docker.network.bridge.name'] ?? `br-${info.Id.slice(0, 12)}`,
    subnets: config.flatMap((c) => (c.Subnet ? [c.Subnet] : [])),
    gateway: config.find((c) => c.Gateway && !c.Gateway.includes(':'))?.Gateway,
  };
}

/**
 * Installs the rules of the network containers join. Resolves to the network they isolate, or
 * to a warning (for the log and the job page) when they cannot be enforced from this server.
 */
export async function isolateNetwork(
  docker: Docker,
  network: string,
): Promise<{ isolated: BridgeNetwork } | { warning: string }> {
  const warn = (warning: string) => ({ warning });
  const unisolated = 'job containers can reach the services of this machine and each other';
  if (network === 'host') {
    return warn(
      `Job containers share this machine's network (ORRERY_DOCKER_NETWORK=host): they reach every service of the host, the server's included, and each other.`,
    );
  }
  const net = await bridgeOf(docker, network);
  if (!net)
    return warn(
      `The network ${network} is not a bridge network, whose traffic this server does not filter: ${unisolated}, unless the operator firewalls them.`,
    );
  if (!existsSync(`/sys/class/net/${net.bridge}`)) {
    return warn(
      `The bridge ${net.bridge} of the network ${network} is not on this server's host (a remote or rootless engine): ${unisolated}, unless the operator firewalls them.`,
    );
  }
  if (!existsSync(NFT)) return warn(`nftables (${NFT}) is not installed: ${unisolated}.`);
  try {
    await nft(isolationRules(net));
    return { isolated: { ...net, gateway: net.gateway ?? (await deviceAddress(net.bridge)) } };
  } catch (e) {
    return warn(
      `The firewall rules of ${net.bridge} could not be installed (${(e as Error).message}; the server needs root or CAP_NET_ADMIN): ${unisolated}.`,
    );
  }
}
