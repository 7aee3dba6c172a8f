import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { networkInterfaces } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { freePort } from '../../net/ports.js';
import { JOB_UIDS } from './identity.js';
import { inOwnerUserns } from './ptys.js';
import { CommandFailed, guardStreams, runCommand } from '../child.js';

export const SLIRP = '/usr/bin/slirp4netns';
const NFT = ['/usr/sbin/nft', '/sbin/nft'];
const START_TIMEOUT_MS = 10_000;

/** Private, shared and link-local ranges (cloud metadata lives at 169.254.169.254). */
const BLOCKED_V4 = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  '169.254.0.0/16',
];
const BLOCKED_V6 = ['fc00::/7', 'fe80::/10'];

/**
 * What the host needs for job networks: /dev/net/tun open to the helpers, and the firewall.
 * The host-side sockets of every job's network helper run as the job's uid, so one nft table
 * keyed on the uid range keeps jobs off the host's own addresses and the local network (the
 * host's loopback is closed by slirp4netns itself), DNS to the host's resolvers and the
 * server's relays (relay.ts) excepted. The chain is rewritten whole, so servers sharing a machine
 * install the same rule; the set of relays keeps every server's. Returns why it could not be
 * installed, or undefined.
 */
export function prepareHostNetwork(): string | undefined {
  openTun();
  const nft = NFT.find((p) => existsSync(p));
  if (!nft) return 'nftables (nft) is not installed';
  try {
    execFileSync(nft, ['-f', '-'], { input: firewallRules(), stdio: ['pipe', 'ignore', 'pipe'] });
    return undefined;
  } catch (e) {
    return `nft refused the rule (${String((e as { stderr?: Buffer }).stderr ?? e).trim()})`;
  }
}

/**
 * Opens (or closes) relays' addresses and ports to job uids. The chain is installed again first,
 * so that a table removed by hand (or by an Orrery before relays) is back.
 */
export async function allowRelay(address: string, ports: number[], open: boolean): Promise<void> {
  const elements = ports.map((p) => `${address} . ${p}`).join(', ');
  const verb = open ? 'add' : 'delete';
  const change = ports.length ? `${verb} element inet orrery relays { ${elements} }\n` : '';
  const bin = NFT.find((p) => existsSync(p));
  if (!bin) throw new Error('nftables (nft) is not installed');
  // Asynchronous: it runs while jobs start.
  try {
    await runCommand(bin, ['-f', '-'], { input: `${firewallRules()}${change}` });
  } catch (e) {
    const why = e instanceof CommandFailed ? e.stderr || e.message : String(e);
    throw new Error(`nft refused the rule (${why.trim()})`);
  }
}

/**
 * slirp4netns opens /dev/net/tun as the job's uid, inside the job's namespaces: the node must be
 * 0666 as udev makes it on most distributions (using it still takes CAP_NET_ADMIN in a network
 * namespace, which only the job's own user namespace gives).
 */
function openTun() {
  const tun = '/dev/net/tun';
  if (existsSync(tun) && (statSync(tun).mode & 0o666) !== 0o666) chmodSync(tun, 0o666);
}

export function firewallRules(): string {
  const host = Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && !a.internal);
  const v4 = collapse([
    ...BLOCKED_V4,
    ...host.filter((a) => a!.family === 'IPv4').map((a) => a!.address),
  ]);
  const v6 = [
    ...BLOCKED_V6,
    ...host
      // Link-local and unique-local addresses are in the ranges already (nft refuses overlaps).
      .filter((a) => a!.family === 'IPv6' && !/^(fe80:|f[cd])/i.test(a!.address))
      .map((a) => a!.address.split('%')[0]),
  ];
  const resolvers = hostResolvers();
  const uids = `meta skuid ${JOB_UIDS.first}-${JOB_UIDS.last}`;
  const dns = resolvers.map(
    (r) =>
      `${uids} ${r.includes(':') ? 'ip6' : 'ip'} daddr ${r} meta l4proto { tcp, udp } th dport 53 accept`,
  );
  const block = (family: string, set: string[]) => [
    `${uids} ${family} daddr { ${set.join(', ')} } meta l4proto tcp reject with tcp reset`,
    `${uids} ${family} daddr { ${set.join(', ')} } reject`,
  ];
  const rules = [
    ...dns,
    `${uids} ip daddr . tcp dport @relays accept`,
    ...block('ip', v4),
    ...block('ip6', v6),
  ];
  return [
    'add table inet orrery',
    'add set inet orrery relays { type ipv4_addr . inet_service; }',
    'add chain inet orrery out { type filter hook output priority 0; policy accept; }',
    'flush chain inet orrery out',
    ...rules.map((r) => `add rule inet orrery out ${r}`),
    '',
  ].join('\n');
}

function hostResolvers(): string[] {
  const text = existsSync('/etc/resolv.conf') ? readFileSync('/etc/resolv.conf', 'utf8') : '';
  return [...text.matchAll(/^nameserver\s+(\S+)/gm)].map((m) => m[1]);
}

/** IPv4 addresses and ranges without the ones inside another (nft refuses overlapping sets). */
function collapse(cidrs: string[]): string[] {
  const parse = (c: string) => {
    const [ip, bits = '32'] = c.split('/');
    const n = ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
    const size = 2 ** (32 - Number(bits));
    return { c, lo: n - (n % size), hi: n - (n % size) + size - 1 };
  };
  const all = [...new Set(cidrs)].map(parse);
  return all
    .filter(
      (a) =>
        !all.some(
          (b) => b !== a && b.lo <= a.lo && a.hi <= b.hi && (b.lo !== a.lo || b.hi !== a.hi),
        ),
    )
    .map((a) => a.c);
}

export interface NetworkOptions {
  /** The sandbox's first process (bwrap's --info-fd child-pid): its namespaces are the job's. */
  childPid: number;
  /** Runs the helper as the job's uid (`setpriv …`), or empty when the server is that user. */
  asJob: string[];
  /** Where slirp4netns puts its API socket (a directory the job's uid owns). */
  apiSocket: string;
  /** The wrapper's end of this socket pair stays open while the job lives: the helper exits with it. */
  exitFd: Readable | Writable;
  logFd: number;
  /**
   * The job's HTTP port, forwarded from 127.0.0.1:hostPort, or from another free port when
   * something took that one meanwhile (startNetwork answers the one it bound).
   */
  forward?: { hostPort: number; guestPort: number };
  /**
   * Whether the server is root and can tune the job's namespace (root of the host, not of the
   * job's user namespace): the forward then reaches 127.0.0.1 and low ports in the job. Otherwise
   * it reaches the job's tap address, where the job listens on 0.0.0.0.
   */
  root: boolean;
  /** Whether the sandbox mounts a devpts (ptys.ts): the job's user namespace is then nested. */
  ptys: boolean;
}

/**
 * Gives the job's network namespace a tap device behind slirp4netns (outbound NAT, DNS at
 * 10.0.2.3, no route to the host's loopback) and forwards the job's HTTP port. The helper is
 * detached: it lives as long as the job, not the server.
 */
export async function startNetwork(o: NetworkOptions): Promise<number | undefined> {
  const ns = `/proc/${o.childPid}/ns`;
  await loopbackUp(o.childPid);
  const settle = o.forward && o.root ? jobSysctls(o.childPid) : Promise.resolve();
  // Awaited only once the helper is ready: should that fail first (the job was killed while it
  // started), this one's failure is the same story and must not surface as an unhandled rejection.
  settle.catch(() => undefined);
  const slirp = [
    SLIRP,
    '--configure',
    '--mtu=65520',
    '--disable-host-loopback',
    '--enable-seccomp',
    `--api-socket=${o.apiSocket}`,
    '--ready-fd=3',
    '--exit-fd=4',
    `--userns-path=${o.ptys ? '@USERNS@' : `${ns}/user`}`,
    '--netns-type=path',
    `${ns}/net`,
    'tap0',
  ];
  const argv = [...o.asJob, ...(o.ptys ? inOwnerUserns(o.childPid, slirp) : slirp)];
  const helper = spawn(argv[0], argv.slice(1), {
    detached: true,
    stdio: ['ignore', o.logFd, o.logFd, 'pipe', o.exitFd],
  });
  helper.unref();
  guardStreams(helper);
  try {
    await ready(helper);
    await settle;
    if (!o.forward) return undefined;
    const guest = o.root ? '127.0.0.1' : '10.0.2.100';
    return await forwardFrom(o.forward.hostPort, (port) =>
      addForward(o.apiSocket, port, guest, o.forward!.guestPort),
    );
  } finally {
    helper.stdio[3]?.destroy();
  }
}

/**
 * bwrap brings the namespace's loopback up after reporting its pid; a helper configuring the
 * namespace meanwhile makes that fail now and then (`loopback: Failed RTM_NEWADDR`, about one
 * start in twenty), so the helper waits for the loopback's local route.
 */
async function loopbackUp(pid: number): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const routes = await readFile(`/proc/${pid}/net/fib_trie`, 'latin1').catch(() => null);
    // Gone: bwrap failed, and says why in the job's log.
    if (routes === null || routes.includes('127.0.0.1')) return;
    await sleep(1);
  }
}

/** Resolves once slirp4netns writes "1" on its ready fd; rejects if it exits first. */
function ready(helper: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error('slirp4netns did not configure the job network in time')),
      START_TIMEOUT_MS,
    );
    const fail = (e: Error) => {
      clearTimeout(timer);
      reject(e);
    };
    helper.once('error', fail);
    helper.once('exit', (code) =>
      fail(new Error(`slirp4netns exited with code ${code} (see the job's net.log)`)),
    );
    (helper.stdio[3] as Readable).once('data', () => {
      clearTimeout(timer);
      helper.removeAllListeners('exit');
      resolve();
    });
  });
}

/**
 * In the job's network namespace: the forward may reach a job listening on 127.0.0.1 (as it
 * would on the host), and ports below 1024 are the job's to bind, like in a container.
 */
function jobSysctls(pid: number): Promise<void> {
  const script =
    'echo 1 > /proc/sys/net/ipv4/conf/all/route_localnet && echo 0 > /proc/sys/net/ipv4/ip_unprivileged_port_start';
  const child = guardStreams(
    spawn('nsenter', [`--target=${pid}`, '--net', '--', '/bin/sh', '-c', script], {
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
  );
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += String(d)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`Could not configure the job network: ${err.trim()}`)),
    );
  });
}

/** Tries after the first port, each a port free when chosen: slirp4netns binds it, or refuses. */
const FORWARD_TRIES = 5;

/**
 * The host port is taken by binding it (slirp4netns's `add_hostfwd`), not by the probe that
 * chose it: another process may bind a probed port before the helper does, and the forward is
 * then tried again from another free port. Answers the port bound.
 */
export async function forwardFrom(
  first: number,
  bind: (port: number) => Promise<void>,
  next: () => Promise<number> = freePort,
): Promise<number> {
  let port = first;
  for (let tried = 1; ; tried++) {
    try {
      await bind(port);
      return port;
    } catch (e) {
      if (!(e instanceof PortRefused) || tried >= FORWARD_TRIES) throw e;
      port = await next();
    }
  }
}

/** slirp4netns's refusal of a forward: its host port could not be bound. */
export class PortRefused extends Error {}

async function addForward(
  socket: string,
  hostPort: number,
  guestAddr: string,
  guestPort: number,
): Promise<void> {
  const request = {
    execute: 'add_hostfwd',
    arguments: {
      proto: 'tcp',
      host_addr: '127.0.0.1',
      host_port: hostPort,
      guest_addr: guestAddr,
      guest_port: guestPort,
    },
  };
  const answer = await new Promise<string>((resolve, reject) => {
    const s = connect(socket);
    let text = '';
    s.on('data', (d) => (text += String(d)));
    s.once('end', () => resolve(text));
    s.once('error', reject);
    s.end(JSON.stringify(request));
  });
  if (!/"return"/.test(answer))
    throw new PortRefused(`slirp4netns refused the port forward: ${answer}`);
}

/**
 * Whether something in the job's network namespace listens on the port: read from the sockets
 * table of the job's process, not by connecting through the forward, which accepts before the
 * job listens.
 */
export async function listensInside(pid: number, port: number): Promise<boolean> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['tcp', 'tcp6']) {
    const text = await readFile(`/proc/${pid}/net/${table}`, 'latin1').catch(() => '');
    // local_address is ADDR:PORT; state 0A is LISTEN.
    if (
      text
        .split('\n')
        .some((l) => l.split(/\s+/)[2]?.endsWith(`:${hex}`) && l.split(/\s+/)[4] === '0A')
    )
      return true;
  }
  return false;
}
