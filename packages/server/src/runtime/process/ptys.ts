import { existsSync } from 'node:fs';

/**
 * Pseudo-terminals in the sandbox. A pty needs a devpts of the job's own, which bwrap mounts
 * with `--dev` only from a user namespace where it is root; it then nests a second one to give
 * the job back its uid. The job's network namespace stays owned by the first, which no process
 * is left in: the network helper reaches it from the job's namespace by NS_GET_PARENT, an ioctl
 * Node does not offer, hence Debian's python3 (python3-minimal). Without it, jobs have no ptys.
 */
export const PYTHON = '/usr/bin/python3';
export const sandboxPtys = (exists: (p: string) => boolean = existsSync) => exists(PYTHON);

/**
 * Runs `argv` (the helper) with `@USERNS@` in its arguments replaced by the user namespace that
 * owns the network namespace of `pid`: the parent of the job's own when it is nested (not ours).
 */
const PARENT_USERNS = [
  'import fcntl, os, sys',
  'pid, argv = sys.argv[1], sys.argv[2:]',
  "own = os.open('/proc/%s/ns/user' % pid, os.O_RDONLY)",
  'parent = fcntl.ioctl(own, 0xB702)  # NS_GET_PARENT',
  "mine = os.stat('/proc/self/ns/user').st_ino",
  'fd = own if os.fstat(parent).st_ino == mine else parent',
  'os.set_inheritable(fd, True)',
  "os.execv(argv[0], [a.replace('@USERNS@', '/proc/self/fd/%d' % fd) for a in argv])",
].join('\n');

export function inOwnerUserns(pid: number, argv: string[]): string[] {
  return [PYTHON, '-c', PARENT_USERNS, String(pid), ...argv];
}
