import { describe, expect, it } from 'vitest';
import { firewallRules } from './network.js';
import { assignGpus, bwrapArgs, gpuEnv } from './sandbox.js';
import { inOwnerUserns } from './ptys.js';
import { appRuntimeBinds, appRuntimeEnv, closedToJobs, reachableByJobs } from './app-runtime.js';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, sep } from 'node:path';

const base = {
  etcDir: '/data/jobs/j/etc',
  tmpDir: '/data/jobs/j/tmp',
  mounts: [],
  workingDir: '/tmp',
  hostname: 'j',
  network: true,
};
/** The host as bwrapArgs sees it: NVIDIA's control nodes and four GPUs, nvidia0 to nvidia3. */
const exists = (p: string) =>
  /^\/dev\/nvidia[0-3]$/.test(p) ||
  p === '/dev/nvidiactl' ||
  p === '/dev/nvidia-uvm' ||
  p === '/etc/shadow';
const pairs = (args: string[], flag: string) =>
  args.flatMap((a, i) => (a === flag ? [`${args[i + 1]} ${args[i + 2]}`] : []));

describe('sandbox arguments', () => {
  it('gives a job without GPUs no NVIDIA device and no /sys', () => {
    const args = bwrapArgs({ ...base, gpus: [], exists });
    expect(args.join(' ')).not.toMatch(/nvidia|\/sys/);
  });

  it('gives a GPU job its own device nodes and the control nodes only', () => {
    const args = bwrapArgs({ ...base, gpus: [1, 3], exists });
    const devices = pairs(args, '--dev-bind').filter((p) => p.includes('nvidia'));
    expect(devices).toEqual([
      '/dev/nvidia1 /dev/nvidia1',
      '/dev/nvidia3 /dev/nvidia3',
      '/dev/nvidiactl /dev/nvidiactl',
      '/dev/nvidia-uvm /dev/nvidia-uvm',
    ]);
    expect(pairs(args, '--ro-bind')).toContain('/sys /sys');
  });

  it('binds no device node the host lacks (GPUs described by the operator, not probed)', () => {
    const args = bwrapArgs({ ...base, gpus: [0], exists: (p) => p === '/etc/shadow' });
    expect(pairs(args, '--dev-bind').filter((p) => p.includes('nvidia'))).toEqual([]);
  });

  it('builds /dev by hand (no devpts: the helper could not join a nested user namespace)', () => {
    const args = bwrapArgs({ ...base, gpus: [], exists });
    expect(args).not.toContain('--dev');
    expect(args).toEqual(expect.arrayContaining(['--unshare-user', '--unshare-net', '--cap-drop']));
    expect(pairs(args, '--ro-bind')).toContain('/data/jobs/j/etc/empty /etc/shadow');
  });

  it("gives a job with ptys bwrap's /dev (its own devpts) and still only its GPUs", () => {
    const args = bwrapArgs({ ...base, gpus: [2], exists, ptys: true });
    expect(pairs(args, '--dev').slice(0, 1)).toEqual(['/dev --tmpfs']);
    expect(pairs(args, '--dev-bind').filter((p) => /null|tty /.test(p))).toEqual([]);
    expect(pairs(args, '--dev-bind')).toContain('/dev/nvidia2 /dev/nvidia2');
  });

  it("starts the network helper in the user namespace that owns the job's network", () => {
    const argv = inOwnerUserns(42, ['/usr/bin/slirp4netns', '--userns-path=@USERNS@', 'tap0']);
    expect(argv.slice(0, 2)).toEqual(['/usr/bin/python3', '-c']);
    expect(argv.slice(3)).toEqual(['42', '/usr/bin/slirp4netns', '--userns-path=@USERNS@', 'tap0']);
    expect(argv[2]).toContain('0xB702');
  });

  it("binds Orrery's app programs only where a job's uid can reach them", () => {
    const root = mkdtempSync('/var/tmp/orrery-reach-');
    try {
      const programs = join(root, 'closed', 'app-runtime');
      mkdirSync(programs, { recursive: true });
      chmodSync(root, 0o755);
      chmodSync(programs, 0o755);
      chmodSync(join(root, 'closed'), 0o700);
      expect(reachableByJobs(programs)).toBe(false);
      // What the Host page names to open: the directory that closes the way.
      expect(closedToJobs(programs)).toBe(join(root, 'closed'));
      chmodSync(join(root, 'closed'), 0o711);
      expect(reachableByJobs(programs)).toBe(true);
      expect(closedToJobs(programs)).toBeNull();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("shows each template's in-job programs alone, read-only, at their guest paths", () => {
    const binds = pairs(
      appRuntimeBinds(() => true),
      '--ro-bind',
    );
    const guests = binds.map((b) => b.split(' ')[1]);
    for (const name of ['shell', 'jupyter', 'llm-inference', 'bin']) {
      expect(guests).toContain(`/opt/orrery/app-runtime/${name}`);
    }
    expect(guests).toContain('/opt/orrery/node_modules');
    // Nothing of the server's sources: each host folder is a template's runtime/ or the agent's.
    for (const bind of binds) {
      const [host, guest] = bind.split(' ');
      if (guest === '/opt/orrery/node_modules') continue;
      expect(host, guest).toMatch(
        new RegExp(`(${sep}templates${sep}[^${sep}]+${sep}runtime|${sep}process${sep}bin)$`),
      );
    }
    // On a Slurm node the same folders, each bound only if there.
    expect(
      pairs(
        appRuntimeBinds(() => true, true),
        '--ro-bind-try',
      ),
    ).toEqual(binds);
  });

  it('shows the programs outside the sandbox at the same relative paths', () => {
    const { ORRERY_APP_RUNTIME: view } = appRuntimeEnv(false);
    expect(existsSync(join(view, 'shell', 'server.mjs'))).toBe(true);
    expect(existsSync(join(view, 'jupyter', 'start.mjs'))).toBe(true);
    expect(existsSync(join(view, 'bin', 'orrery-worker-exec'))).toBe(true);
    expect(appRuntimeEnv(false).ORRERY_APP_RUNTIME).toBe(view);
    expect(appRuntimeEnv(true)).toEqual({ ORRERY_APP_RUNTIME: '/opt/orrery/app-runtime' });
  });

  it('numbers CUDA devices from 0, as the job sees only its own', () => {
    expect(gpuEnv([3, 5])).toEqual({ CUDA_VISIBLE_DEVICES: '0,1' });
    expect(gpuEnv([])).toEqual({});
  });

  it('assigns the lowest GPUs that running jobs do not hold', () => {
    expect(assignGpus(4, [0, 2], 2)).toEqual([1, 3]);
    expect(assignGpus(4, [0, 2], 1)).toEqual([1]);
    expect(assignGpus(2, [1], 2)).toBeNull();
    expect(assignGpus(0, [], 1)).toBeNull();
  });

  it('firewalls the job uids, DNS to the resolver first', () => {
    const rules = firewallRules();
    expect(rules).toMatch(/meta skuid 20000-29999 ip daddr \{ [^}]*169\.254\.0\.0\/16/);
    const accept = rules.indexOf('dport 53 accept');
    if (accept >= 0) expect(accept).toBeLessThan(rules.indexOf('reject'));
  });
});
