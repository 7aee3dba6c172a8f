// Installs code-server 4.100.3 (the last release for Node 20) for the vscode app, into the
// template's in-job programs, packages/server/src/modules/apps/templates/vscode/runtime/code-server,
// which sandboxed jobs see read-only at /opt/orrery/app-runtime/vscode/code-server. Opt-in: about
// 2.5 minutes and 308 MB, too heavy for every CI run. Nothing is downloaded from outside npm and
// Debian: the npm package's install scripts would fetch ripgrep from GitHub, so they are skipped
// and the native modules are rebuilt here, with Debian's ripgrep in place of the download.
import { existsSync, mkdirSync, copyFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, ensureApt, log, run } from './lib.mjs';

export const VERSION = '4.100.3';
const TARGET = join(ROOT, 'packages/server/src/modules/apps/templates/vscode/runtime');
const HOME = join(TARGET, 'code-server');

const apt = ensureApt([
  ['ripgrep', '/usr/bin/rg'],
  // kerberos (a native module of VS Code's) builds against it.
  ['libkrb5-dev', '/usr/include/krb5.h'],
  ['g++', '/usr/bin/g++'],
  ['make', '/usr/bin/make'],
]);
if (Object.values(apt).includes(false)) process.exit(1);

const npm = (cwd, ...args) => run('npm', [...args, '--no-audit', '--no-fund'], { cwd });

log(`Installing code-server ${VERSION} into ${HOME}`);
rmSync(TARGET + '/npm', { recursive: true, force: true });
mkdirSync(TARGET + '/npm', { recursive: true });
// Its own package.json, apart from the workspace: code-server is not one of Orrery's dependencies.
writeFileSync(join(TARGET, 'npm/package.json'), JSON.stringify({ private: true }));
npm(join(TARGET, 'npm'), 'install', `code-server@${VERSION}`, '--ignore-scripts', '--omit=dev');
rmSync(HOME, { recursive: true, force: true });
run('mv', [join(TARGET, 'npm/node_modules/code-server'), HOME]);
run('mv', [join(TARGET, 'npm/node_modules'), join(HOME, 'node_modules')]);
rmSync(join(TARGET, 'npm'), { recursive: true, force: true });

const vscode = join(HOME, 'lib/vscode');
log('VS Code modules');
npm(vscode, 'install', '--omit=dev', '--ignore-scripts');
mkdirSync(join(vscode, 'node_modules/@vscode/ripgrep/bin'), { recursive: true });
copyFileSync('/usr/bin/rg', join(vscode, 'node_modules/@vscode/ripgrep/bin/rg'));
const natives = [
  '@parcel/watcher',
  '@vscode/deviceid',
  '@vscode/spdlog',
  'kerberos',
  'native-watchdog',
];
npm(vscode, 'rebuild', ...natives);
// node-pty's extra compile_commands step fails (it runs npx node-gyp) after pty.node is built.
spawnSync('npm', ['rebuild', 'node-pty'], { cwd: vscode, stdio: 'inherit' });
if (!existsSync(join(vscode, 'node_modules/node-pty/build/Release/pty.node'))) {
  process.stderr.write('✗ node-pty did not build\n');
  process.exit(1);
}
if (!existsSync(join(vscode, 'node_modules.asar')))
  symlinkSync('node_modules', join(vscode, 'node_modules.asar'));
log('Built-in extensions');
npm(join(vscode, 'extensions'), 'install', '--omit=dev', '--ignore-scripts');
log('argon2');
npm(HOME, 'rebuild', 'argon2');
log(`code-server ${VERSION} installed: the vscode app is available`);
