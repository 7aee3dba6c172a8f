import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, copyFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUSYBOX, type Dockerd } from './dockerd.js';

/**
 * `docker import`s a tiny image made of Debian's busybox-static: /bin/busybox with a link per
 * applet (sh, sleep, httpd, …), so no registry or network is needed. CMD is `/bin/busybox sh`.
 */
export function importBusybox(dockerd: Dockerd, tag: string): void {
  const root = mkdtempSync(join(tmpdir(), 'orrery-busybox-'));
  try {
    mkdirSync(join(root, 'bin'));
    mkdirSync(join(root, 'tmp'));
    copyFileSync(BUSYBOX, join(root, 'bin', 'busybox'));
    const applets = execFileSync(BUSYBOX, ['--list'], { encoding: 'utf8' }).split('\n');
    for (const a of applets.filter((x) => x && x !== 'busybox')) {
      symlinkSync('busybox', join(root, 'bin', a));
    }
    const tar = execFileSync('tar', ['-C', root, '-c', '.'], { maxBuffer: 64 * 2 ** 20 });
    dockerd.docker(['import', '--change', 'CMD ["/bin/busybox", "sh"]', '-', tag], tar);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
