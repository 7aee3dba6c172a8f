import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Job uids: not in /etc/passwd, matched by the firewall rule (network.ts) as a range. */
export const JOB_UIDS = { first: 20000, last: 29999 } as const;
/** Who a job runs as: its own uid, with the jobs group as a supplementary group. */
export interface JobIdentity {
  uid: number;
  gid: number;
}

/** The group every job runs in (as a supplementary group) to reach and write its volumes. */
export const JOBS_GROUP = 'orreryjobs';
/** Host-wide claims, so two servers on one machine never hand out the same uid. */
const CLAIMS = '/run/orrery/uids';
/** A claim this young may belong to a job whose job.json is not written yet. */
const CLAIM_GRACE_MS = 60_000;

/** The gid of `orreryjobs`, created as a system group when missing. */
export function ensureJobsGroup(): number {
  const find = () =>
    readFileSync('/etc/group', 'utf8')
      .split('\n')
      .map((l) => l.split(':'))
      .find((f) => f[0] === JOBS_GROUP)?.[2];
  let gid = find();
  if (gid === undefined) {
    execFileSync('groupadd', ['--system', JOBS_GROUP], { stdio: 'ignore' });
    gid = find();
  }
  return Number(gid);
}

/**
 * A uid of the range that no live job holds, claimed in /run/orrery/uids/<uid> (holding the job's
 * directory). A claim whose job has ended, or whose directory no longer records that uid, is
 * stale and taken over.
 */
export async function claimUid(jobDir: string): Promise<number> {
  await mkdir(CLAIMS, { recursive: true, mode: 0o700 });
  const taken = hostUids();
  const size = JOB_UIDS.last - JOB_UIDS.first + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const uid = JOB_UIDS.first + ((start + i) % size);
    if (taken.has(uid)) continue;
    const claim = join(CLAIMS, String(uid));
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await writeFile(claim, jobDir, { flag: 'wx' });
        return uid;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !(await stale(claim, uid))) break;
        await rm(claim, { force: true });
      }
    }
  }
  throw new Error(`Every job uid (${JOB_UIDS.first}–${JOB_UIDS.last}) is in use`);
}

export async function releaseUid(uid: number, jobDir: string): Promise<void> {
  const claim = join(CLAIMS, String(uid));
  if ((await readFile(claim, 'utf8').catch(() => '')) === jobDir) await rm(claim, { force: true });
}

/** A claim is stale once its job has ended, or its wrapper is gone, or it holds another uid. */
async function stale(claim: string, uid: number): Promise<boolean> {
  const st = await stat(claim).catch(() => null);
  if (!st) return true;
  if (Date.now() - st.mtimeMs < CLAIM_GRACE_MS) return false;
  const dir = await readFile(claim, 'utf8');
  const [record, exit, wrapper] = await Promise.all(
    ['job.json', 'exit', 'wrapper.pid'].map((f) =>
      readFile(join(dir, f), 'utf8').catch(() => null),
    ),
  );
  const holder = record ? (JSON.parse(record) as { uid?: number }).uid : undefined;
  return holder !== uid || exit !== null || !alive(Number(wrapper));
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function hostUids(): Set<number> {
  const passwd = readFileSync('/etc/passwd', 'utf8');
  return new Set(passwd.split('\n').map((l) => Number(l.split(':')[2])));
}

/**
 * The job's /etc/passwd and /etc/group: the host's with the job user added, so `id`, `whoami`
 * and getpwuid work. Written under `<jobDir>/etc`, with an empty file that masks secrets. With
 * `hosts` (a gang's workers, which share one network), an /etc/hosts where those names are
 * 127.0.0.1: each worker resolves its own host name and its peers'.
 */
export function writeEtc(jobDir: string, uid: number, network: boolean, hosts?: string[]): string {
  const etc = join(jobDir, 'etc');
  // A few small files, written synchronously: no turns of a busy event loop in the start.
  mkdirSync(etc, { recursive: true });
  const host = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : '');
  const line = (t: string) => (t === '' || t.endsWith('\n') ? t : `${t}\n`);
  const files: [string, string][] = [
    ['passwd', `${line(host('/etc/passwd'))}job:x:${uid}:${uid}:job:/tmp:/bin/sh\n`],
    ['group', `${line(host('/etc/group'))}job:x:${uid}:\n`],
    ['empty', ''],
    // slirp4netns answers DNS at 10.0.2.3 (and forwards to the host's resolver).
    ...(network ? [['resolv.conf', 'nameserver 10.0.2.3\n'] as [string, string]] : []),
    ...(hosts?.length
      ? [['hosts', `${line(host('/etc/hosts'))}127.0.0.1 ${hosts.join(' ')}\n`] as [string, string]]
      : []),
  ];
  for (const [f, text] of files) {
    writeFileSync(join(etc, f), text);
    // Readable by the job's uid whatever the server's umask.
    chmodSync(join(etc, f), 0o644);
  }
  return etc;
}
