import { readdir, readFile } from 'node:fs/promises';

/**
 * What /proc says about processes. Times are in clock ticks: USER_HZ, which Linux fixes at 100
 * for every architecture's user-visible interfaces.
 */
export const TICKS_PER_SECOND = 100;

export interface ProcStat {
  pid: number;
  ppid: number;
  pgid: number;
  /** R, S, D, Z (zombie: exited, not yet reaped), … */
  state: string;
  /** CPU time of the process and of its reaped children, in ticks. */
  cpuTicks: number;
  /** Ticks after boot at which it started. */
  startTicks: number;
}

export async function readStat(pid: number): Promise<ProcStat | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'latin1').catch(() => null);
  if (!text) return null;
  // The command name (field 2) is in parentheses and may itself contain spaces or parentheses.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const n = (i: number) => Number(f[i - 3]);
  return {
    pid,
    ppid: n(4),
    pgid: n(5),
    state: f[0],
    cpuTicks: n(14) + n(15) + n(16) + n(17),
    startTicks: n(22),
  };
}

export async function allProcesses(): Promise<ProcStat[]> {
  const pids = (await readdir('/proc')).filter((d) => /^\d+$/.test(d)).map(Number);
  const stats = await Promise.all(pids.map(readStat));
  return stats.filter((s): s is ProcStat => s !== null && s.state !== 'Z');
}

/** When the process started, in epoch ms (to second precision: /proc/stat's btime). */
export async function startedAt(stat: ProcStat): Promise<number> {
  const text = await readFile('/proc/stat', 'latin1');
  const btime = Number(/^btime (\d+)$/m.exec(text)?.[1]);
  return btime * 1000 + (stat.startTicks * 1000) / TICKS_PER_SECOND;
}

/** Whether a live (not zombie) process is in the group. */
export async function groupAlive(pgid: number): Promise<boolean> {
  return (await allProcesses()).some((p) => p.pgid === pgid);
}

/**
 * Whether the process would die of (or handle) SIGTERM, i.e. does not ignore it: in a job, that
 * tells its command from the wrapper's processes before it (driver.ts WRAPPER).
 */
export async function takesTerm(pid: number): Promise<boolean> {
  const status = await readFile(`/proc/${pid}/status`, 'latin1').catch(() => '');
  const ignored = /^SigIgn:\s+([0-9a-f]+)$/m.exec(status)?.[1];
  // SIGTERM is signal 15: bit 14 of the mask.
  return ignored !== undefined && (BigInt(`0x${ignored}`) & (1n << 14n)) === 0n;
}

/** Whether a live process of the group takes SIGTERM. */
export async function groupTakesTerm(pgid: number): Promise<boolean> {
  const members = (await allProcesses()).filter((p) => p.pgid === pgid);
  for (const p of members) if (await takesTerm(p.pid)) return true;
  return false;
}

/** The process and everything below it. */
export async function tree(root: number): Promise<ProcStat[]> {
  const all = await allProcesses();
  const children = new Map<number, ProcStat[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out = all.filter((p) => p.pid === root);
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i].pid) ?? []));
  return out;
}

/** Resident memory of a process in bytes (VmRSS; 0 for kernel threads and the exited). */
export async function rssBytes(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'latin1').catch(() => '');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(text)?.[1] ?? 0) * 1024;
}
