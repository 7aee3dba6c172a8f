import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JobLimits } from '../driver.js';

const FS = '/sys/fs/cgroup';
const PERIOD_US = 100_000;

export interface CgroupLimits extends Pick<JobLimits, 'cpu' | 'memory'> {
  pids: number;
}

/** The cgroup directories of one job, and the files its wrapper writes its pid into. */
export interface JobCgroup {
  dirs: string[];
  procs: string[];
  /** Where the kernel counts the job's OOM kills (a line `oom_kill N`). */
  oomFile?: string;
}

/**
 * Limits and tracking of a job's processes through cgroups, v1 (each controller its own
 * hierarchy, as on this project's VMs, with the controller-less v2 tree at `unified` used for
 * `cgroup.kill`) or pure v2. Which limits this host cannot enforce is said in `missing`, for the
 * driver's warning. Every job lives under `orrery/<id>` of each hierarchy.
 */
export class Cgroups {
  readonly missing: string[] = [];
  private readonly v2: boolean;
  private readonly v1: { memory: boolean; cpu: boolean; pids: boolean; freezer: boolean };
  /** The v2 tree where `cgroup.kill` exists: the whole hierarchy on v2, `unified` in hybrid mode. */
  private readonly killRoot?: string;

  constructor(private readonly root = FS) {
    const writable = (p: string) => existsSync(p) && process.getuid?.() === 0;
    this.v2 = writable(join(root, 'cgroup.controllers'));
    if (this.v2) {
      this.v1 = { memory: false, cpu: false, pids: false, freezer: false };
      const have = readFileSync(join(root, 'cgroup.controllers'), 'utf8').split(/\s+/);
      for (const c of ['memory', 'cpu', 'pids']) {
        if (!have.includes(c)) this.missing.push(LIMIT_NAMES[c]);
      }
      this.killRoot = root;
    } else {
      const has = (c: string) => writable(join(root, c, 'cgroup.procs'));
      this.v1 = {
        memory: has('memory'),
        cpu: has('cpu'),
        pids: has('pids'),
        freezer: has('freezer'),
      };
      for (const c of ['memory', 'cpu', 'pids'] as const) {
        if (!this.v1[c]) this.missing.push(LIMIT_NAMES[c]);
      }
      if (writable(join(root, 'unified', 'cgroup.kill'))) this.killRoot = join(root, 'unified');
    }
  }

  /** Whether the job's processes can be found and killed through a cgroup at all. */
  get tracking(): boolean {
    return this.killRoot !== undefined || this.v1.freezer;
  }

  /** Creates the job's cgroups with its limits; the wrapper enters them before the sandbox. */
  async create(id: string, limits: CgroupLimits): Promise<JobCgroup> {
    // A restarted job's cgroups are still its previous run's.
    if (this.dirsOf(id).some((d) => existsSync(d))) await this.remove(id);
    return this.make(id, limits);
  }

  /**
   * cgroup files live in memory: written synchronously, they cost a job's start no turns of a
   * busy event loop.
   */
  private make(id: string, limits: CgroupLimits): JobCgroup {
    const job: JobCgroup = { dirs: [], procs: [] };
    const add = (dir: string) => {
      mkdirSync(dir, { recursive: true });
      job.dirs.push(dir);
      job.procs.push(join(dir, 'cgroup.procs'));
      return dir;
    };
    const quota = Math.max(1000, Math.round(limits.cpu * PERIOD_US));
    if (this.v2) {
      enableControllers(this.root, join(this.root, 'orrery'));
      const dir = add(join(this.root, 'orrery', id));
      write(dir, 'memory.max', limits.memory);
      write(dir, 'memory.swap.max', 0);
      write(dir, 'cpu.max', `${quota} ${PERIOD_US}`);
      write(dir, 'pids.max', limits.pids);
      job.oomFile = join(dir, 'memory.events');
      return job;
    }
    const v1 = (c: 'memory' | 'cpu' | 'pids' | 'freezer') =>
      this.v1[c] ? add(join(this.root, c, 'orrery', id)) : undefined;
    const memory = v1('memory');
    if (memory) {
      write(memory, 'memory.limit_in_bytes', limits.memory);
      // After the limit (memsw may not be below it). Without swap accounting (swapaccount=0)
      // the file is absent and swap is not limited.
      write(memory, 'memory.memsw.limit_in_bytes', limits.memory);
      job.oomFile = join(memory, 'memory.oom_control');
    }
    const cpu = v1('cpu');
    if (cpu) {
      write(cpu, 'cpu.cfs_period_us', PERIOD_US);
      write(cpu, 'cpu.cfs_quota_us', quota);
    }
    const pids = v1('pids');
    if (pids) write(pids, 'pids.max', limits.pids);
    v1('freezer');
    if (this.killRoot) add(join(this.killRoot, 'orrery', id));
    return job;
  }

  /** SIGKILL to every process of the job, including any that left its process group. */
  async killAll(id: string): Promise<void> {
    if (this.killRoot) {
      // The cgroup is gone once every process has exited: nothing is left to kill then.
      await writeFile(join(this.killRoot, 'orrery', id, 'cgroup.kill'), '1').catch(() => undefined);
      return;
    }
    if (!this.v1.freezer) return;
    // Frozen, nothing can fork between reading the list and killing it.
    const dir = join(this.root, 'freezer', 'orrery', id);
    if (!existsSync(dir)) return;
    await writeFile(join(dir, 'freezer.state'), 'FROZEN');
    const pids = (await readFile(join(dir, 'cgroup.procs'), 'utf8')).split('\n').filter(Boolean);
    for (const pid of pids) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    await writeFile(join(dir, 'freezer.state'), 'THAWED');
  }

  /** Whether a process of the job is still alive (after its command ended: escaped ones). */
  async populated(id: string): Promise<boolean> {
    for (const dir of this.dirsOf(id)) {
      const procs = await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => '');
      if (procs.trim()) return true;
    }
    return false;
  }

  async remove(id: string): Promise<void> {
    const dirs = this.dirsOf(id).filter((d) => existsSync(d));
    if (dirs.length === 0) return;
    if (await this.populated(id)) await this.killAll(id);
    for (const dir of dirs) {
      // A killed process leaves its cgroup a moment after the signal.
      for (let i = 0; i < 50; i++) {
        const gone = await rmdir(dir).then(
          () => true,
          (e: NodeJS.ErrnoException) => e.code === 'ENOENT',
        );
        if (gone) break;
        await sleep(20);
      }
    }
  }

  /** The cgroup.procs files of a job that exists (exec joins them). */
  procsFiles(id: string): string[] {
    return this.dirsOf(id)
      .map((d) => join(d, 'cgroup.procs'))
      .filter((f) => existsSync(f));
  }

  private dirsOf(id: string): string[] {
    if (this.v2) return [join(this.root, 'orrery', id)];
    const dirs = (['memory', 'cpu', 'pids', 'freezer'] as const)
      .filter((c) => this.v1[c])
      .map((c) => join(this.root, c, 'orrery', id));
    return this.killRoot ? [...dirs, join(this.killRoot, 'orrery', id)] : dirs;
  }
}

const LIMIT_NAMES: Record<string, string> = {
  memory: 'memory',
  cpu: 'CPU',
  pids: 'process count',
};

/** `oom_kill N` from memory.oom_control (v1) or memory.events (v2), as the wrapper copied it. */
export function oomKills(text: string): number {
  return Number(/^oom_kill (\d+)$/m.exec(text)?.[1] ?? 0);
}

function write(dir: string, file: string, value: string | number) {
  const path = join(dir, file);
  if (existsSync(path)) writeFileSync(path, String(value));
}

/** v2 limits need the controllers enabled in every parent's subtree_control. */
function enableControllers(root: string, parent: string) {
  mkdirSync(parent, { recursive: true });
  for (const dir of [root, parent]) {
    try {
      writeFileSync(join(dir, 'cgroup.subtree_control'), '+memory +cpu +pids');
    } catch {
      // Enabled already, or not available: `missing` says which limits are not enforced.
    }
  }
}
