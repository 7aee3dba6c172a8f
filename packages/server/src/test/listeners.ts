import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/**
 * What processes listen on, read as the kernel tells it: a process's sockets are the
 * `socket:[inode]` links in /proc/PID/fd, and /proc/net/{tcp,tcp6,unix} say which inodes listen
 * where. No configuration is trusted.
 */
function socketInodes(pid: number): Set<string> {
  const out = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) out.add(m[1]);
    } catch {
      // Closed between the listing and the read.
    }
  }
  return out;
}

const TCP_LISTEN = '0A';

/** The TCP ports (IPv4 and IPv6) the process listens on. */
export function tcpListeners(pid: number): number[] {
  const mine = socketInodes(pid);
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== TCP_LISTEN || !mine.has(f[9])) continue;
      ports.add(parseInt(f[1].split(':')[1], 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}

/** The paths of the unix sockets the process listens on. */
export function unixListeners(pid: number): string[] {
  const mine = socketInodes(pid);
  const ACCEPTING = 0x10000;
  return readFileSync('/proc/net/unix', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 8 && mine.has(f[6]) && parseInt(f[3], 16) & ACCEPTING)
    .map((f) => f[7]);
}

/** The process's children, grandchildren and so on. */
export function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Exited meanwhile.
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift()!;
    for (const [child, parent] of parentOf) {
      if (parent === p) {
        out.push(child);
        queue.push(child);
      }
    }
  }
  return out;
}
